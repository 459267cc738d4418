// The home page (create or join a room), the rules form generated from the server's option
// specs, and the room's lobby (seats, computer players, start).
import { RANKS, SUIT_SYMBOLS } from "./cards.js";
import { h } from "./dom.js";
import { errorText, has, lang, t } from "./i18n.js";
import { CHOICES_ZH, KINDS_ZH, OPTIONS_ZH, PRESETS_ZH } from "./options_zh.js";
import { reasonText } from "./reasons.js";

/** The translated name of a preset, or the server's description. */
export function presetTitle(presets, name) {
  if (has(`preset_${name}`)) return t(`preset_${name}`);
  const found = presets?.presets.find((p) => p.name === name);
  return found ? found.description : name;
}

/** A preset's description in the current language. */
function presetDescription(spec) {
  return lang() === "zh" ? PRESETS_ZH[spec.name] ?? spec.description : spec.description;
}

/** The translated name of a computer player kind. */
export function kindTitle(kind) {
  return has(`kind_${kind}`) ? t(`kind_${kind}`) : kind;
}

/** What a computer player kind does, in the current language. */
function kindDescription(player) {
  return lang() === "zh" ? KINDS_ZH[player.kind] ?? "" : player.description ?? "";
}

/** An option's label and explanation in the current language: [label, doc]. */
export function optionWords(spec) {
  const zh = lang() === "zh" ? OPTIONS_ZH[spec.name] : null;
  return zh ?? [null, spec.doc ?? ""];
}

/** A choice of an option as shown in the form. */
export function choiceText(spec, value) {
  const text = String(value);
  if (spec.name === "rank_suit_order") return `${SUIT_SYMBOLS[text] ?? ""} ${t(`suit${text}`)}`;
  return lang() === "zh" ? CHOICES_ZH[`${spec.name}.${text}`] ?? text : text;
}

/** A rules error for people: the engine's English, or in Chinese the engine's reason `why`
 * (docs/protocol.md, "Reasons") in Chinese, else a short line (the English in its tooltip).
 * `field` is the option (null: shown under it; "": a message already in the page's language). */
function rulesError(field, message, why = null) {
  if (field === "") return message;
  if (lang() !== "zh") return field ? `${field}: ${message}` : message;
  if (why) return reasonText(why, message);
  const what = t("badValue");
  if (field === null) return what;
  const label = OPTIONS_ZH[field]?.[0] ?? (field === "table" ? t("tableSize")
    : field === "preset" ? t("preset") : field);
  return t("badField", { field: label, what });
}

/** A fresh form state for `preset` (its first table size unless `table` fits). */
export function newForm(presets, preset, table = null, overrides = {}) {
  const spec = presets.presets.find((p) => p.name === preset) ?? presets.presets[0];
  const size = spec.tables.includes(table) ? table : spec.tables[0];
  return { preset: spec.name, table: size, overrides: { ...overrides }, errors: {}, why: {},
           ok: null, resolved: null, checking: false };
}

function presetRules(presets, form) {
  return form.resolved ?? presets.presets.find((p) => p.name === form.preset)?.rules ?? {};
}

let checks = 0;

/** Ask the server whether the form's rules are valid; updates form.errors/ok/resolved. */
export async function checkForm(form, rerender) {
  checks += 1;
  const seq = checks;
  form.seq = seq;
  form.checking = true;
  rerender();
  let reply;
  try {
    const response = await fetch("/api/rules/check", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ preset: form.preset, table: form.table, rules: form.overrides }),
    });
    reply = await response.json();
  } catch (error) {
    reply = { ok: false, errors: { "": String(error) } };
  }
  if (seq !== form.seq) return;
  form.checking = false;
  form.ok = Boolean(reply.ok);
  form.errors = reply.errors ?? {};
  form.why = reply.why ?? {};
  if (reply.ok && reply.rules) form.resolved = reply.rules;
  rerender();
}

function valueText(spec, value) {
  if (value === null || value === undefined) return "";
  if (spec.kind === "ranks") return Array.isArray(value) ? value.join(", ") : String(value);
  if (spec.kind === "list") return typeof value === "string" ? value : JSON.stringify(value);
  return String(value);
}

function readField(spec, el) {
  if (spec.kind === "bool") return el.checked;
  const raw = el.value.trim();
  if (raw === "" && (spec.kind === "int" || spec.kind === "rank" || spec.kind === "choice")) {
    return null;
  }
  if (spec.kind === "int") return Number(raw);
  if (spec.kind === "ranks") return raw === "" ? [] : raw.split(/[\s,]+/).filter(Boolean);
  if (spec.kind === "list") {
    try {
      return JSON.parse(raw === "" ? "[]" : raw);
    } catch {
      return raw;
    }
  }
  return raw;
}

function optionField(spec, value, form, onChange) {
  const id = `opt-${spec.name}`;
  const error = form.errors[spec.name];
  const changed = spec.name in form.overrides;
  const common = { id, name: spec.name, "aria-invalid": error ? "true" : null,
                   "aria-describedby": error ? `${id}-error` : null };
  const update = (event) => {
    const next = readField(spec, event.target);
    if (next === null) delete form.overrides[spec.name];
    else form.overrides[spec.name] = next;
    onChange();
  };
  let input;
  if ((spec.kind === "ranks" || spec.kind === "list") && spec.choices) {
    const chosen = new Set((Array.isArray(value) ? value : []).map(String));
    const toggle = () => {
      const boxes = document.querySelectorAll(`input[name="${spec.name}"]`);
      form.overrides[spec.name] = [...boxes].filter((b) => b.checked).map((b) => b.value);
      onChange();
    };
    input = h("div", { ...common, class: "choices", role: "group",
                       "aria-labelledby": `${id}-label` },
      spec.choices.map((c) => h("label", { class: "choice" },
        h("input", { type: "checkbox", name: spec.name, value: String(c),
                     checked: chosen.has(String(c)), onchange: toggle }), choiceText(spec, c))));
  } else if (spec.kind === "bool") {
    input = h("input", { ...common, type: "checkbox", checked: Boolean(value), onchange: update });
  } else if (spec.kind === "choice" || spec.kind === "rank") {
    const choices = spec.choices ?? RANKS;
    const nullable = spec.default === null || value === null || value === undefined;
    input = h("select", { ...common, onchange: update, value: valueText(spec, value) },
      nullable ? h("option", { value: "" }, t("noneOption")) : null,
      choices.map((c) => h("option", { value: String(c) }, choiceText(spec, c))));
  } else if (spec.kind === "int") {
    input = h("input", { ...common, type: "number", min: spec.min ?? null, max: spec.max ?? null,
                         placeholder: t("auto"), value: valueText(spec, value), onchange: update });
  } else {
    input = h("input", { ...common, type: "text", value: valueText(spec, value), onchange: update,
                         placeholder: spec.kind === "ranks" ? t("ranksHint") : t("jsonHint") });
  }
  const [label, doc] = optionWords(spec);
  return h("div", { class: `field option${error ? " invalid" : ""}${changed ? " changed" : ""}` },
    h("label", { for: input.tagName === "DIV" ? null : id, id: `${id}-label`,
                 title: label ? `${spec.name}: ${doc}` : doc },
      label ? h("span", { class: "option-label" }, label) : h("code", {}, spec.name),
      changed ? h("span", { class: "badge" }, t("changed")) : null),
    input,
    doc ? h("small", { class: "doc" }, doc) : null,
    error ? h("small", { class: "error", id: `${id}-error`, role: "alert",
                         title: lang() === "zh" && !form.why?.[spec.name] ? error : null },
      rulesError(null, error, form.why?.[spec.name])) : null);
}

/**
 * The preset picker, table size and rules form. `onChange` runs after any edit (the caller
 * re-validates); `idPrefix` keeps ids unique.
 */
export function rulesForm(presets, form, onChange, ui) {
  const spec = presets.presets.find((p) => p.name === form.preset);
  const base = presetRules(presets, form);
  const options = presets.options.filter((o) => o.name !== "players");
  const general = Object.entries(form.errors).filter(([k]) => !options.some((o) => o.name === k));
  const status = form.checking ? t("checking") : form.ok === true ? t("rulesOk")
    : form.ok === false ? t("rulesBad") : "";
  return h("div", { class: "rules-form" },
    h("div", { class: "row" },
      h("div", { class: "field" },
        h("label", { for: "preset" }, t("preset")),
        h("select", {
          id: "preset", value: form.preset,
          onchange: (e) => {
            Object.assign(form, newForm(presets, e.target.value, form.table));
            onChange();
          },
        }, presets.presets.map((p) => h("option", { value: p.name },
          presetTitle(presets, p.name))))),
      h("div", { class: "field" },
        h("label", { for: "table" }, t("tableSize")),
        h("select", {
          id: "table", value: String(form.table),
          onchange: (e) => {
            form.table = Number(e.target.value);
            form.resolved = null;
            onChange();
          },
        }, (spec?.tables ?? []).map((n) => h("option", { value: String(n) }, String(n)))))),
    spec ? h("p", { class: "muted" }, presetDescription(spec)) : null,
    general.map(([k, message]) => h("p", { class: "error", role: "alert",
                                           title: lang() === "zh" && !form.why?.[k] ? message
                                             : null },
      rulesError(k, message, form.why?.[k]))),
    h("details", { class: "options", open: ui.rulesOpen || null },
      h("summary", {
        id: "rules-summary", "aria-expanded": ui.rulesOpen ? "true" : "false",
        onclick: (e) => {
          e.preventDefault();
          ui.rulesOpen = !ui.rulesOpen;
          onChange();
        },
      }, t("editRules", { n: options.length })),
      Object.keys(form.overrides).length ? h("button", {
        type: "button", class: "link",
        onclick: () => { form.overrides = {}; form.resolved = null; onChange(); },
      }, t("resetRules")) : null,
      h("div", { class: "option-grid" },
        options.map((o) => optionField(o, o.name in form.overrides ? form.overrides[o.name]
          : base[o.name] ?? o.default, form, onChange)))),
    h("p", { class: form.ok === false ? "error" : "muted", role: "status", id: "rules-status" },
      status));
}

/** The home page: create a room, or join one by code. */
export function renderHome(S, act) {
  if (!S.presets) {
    return h("section", { class: "panel" }, h("p", {}, S.loadError
      ? t("loadFailed", { error: S.loadError }) : t("loading")));
  }
  const form = S.form;
  const create = async (event) => {
    event.preventDefault();
    if (!acceptName(S, act)) return;
    const response = await fetch("/api/rooms", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ preset: form.preset, table: form.table, rules: form.overrides }),
    });
    const reply = await response.json().catch(() => ({}));
    if (response.ok && reply.room) {
      location.assign(`/r/${reply.room}`);
      return;
    }
    form.ok = false;
    form.errors = reply.code ? { "": errorText({ code: reply.code, message: reply.errors?.room }) }
      : reply.errors ?? { "": String(response.status) };
    form.why = reply.code ? {} : reply.why ?? {};
    act.render();
  };
  return h("div", { class: "home" },
    h("p", { class: "tagline" }, t("tagline")),
    h("form", { class: "panel", id: "create-form", onsubmit: create },
      h("h2", {}, t("newRoom")),
      nameField(S),
      S.notice ? h("p", { class: "error", role: "alert", id: "name-error" }, S.notice) : null,
      rulesForm(S.presets, form, () => act.formChanged(), S.ui),
      h("button", { type: "submit", class: "primary", id: "create-room",
                    disabled: form.ok === false || null }, t("createRoom"))),
    h("form", {
      class: "panel", id: "join-form",
      onsubmit: (e) => {
        e.preventDefault();
        const code = e.target.elements.code.value.trim();
        if (code) location.assign(`/r/${encodeURIComponent(code)}`);
      },
    },
      h("h2", {}, t("joinRoom")),
      h("div", { class: "field" }, h("label", { for: "join-code" }, t("roomCode")),
        h("input", { id: "join-code", name: "code", autocomplete: "off", required: true })),
      h("button", { type: "submit" }, t("join"))));
}

/** Check the typed name and remember it (true), or say what is wrong with it (false). */
function acceptName(S, act) {
  const name = S.name.trim();
  if (!name || name.length > 24) {
    S.notice = t("nameRequired");
    act.render();
    return false;
  }
  localStorage.setItem("shengji.name", name);
  S.notice = null;
  return true;
}

/** The name input (kept in S.name as it is typed). */
export function nameField(S) {
  return h("div", { class: "field" },
    h("label", { for: "name" }, t("yourName")),
    h("input", { id: "name", name: "name", maxlength: 24, required: true, autocomplete: "nickname",
                 value: S.name, oninput: (e) => { S.name = e.target.value; } }));
}

/** Before joining a room: ask for a name. */
export function renderJoin(S, act) {
  return h("form", {
    class: "panel", id: "join-name",
    onsubmit: (e) => {
      e.preventDefault();
      if (acceptName(S, act)) act.connect();
    },
  }, h("h2", {}, t("room", { code: S.code })), nameField(S),
  S.notice ? h("p", { class: "error", role: "alert" }, S.notice) : null,
  h("button", { type: "submit", class: "primary", id: "join-room" }, t("joinAs")));
}

function seatBadges(S, seat) {
  const room = S.room;
  const badges = [];
  if (seat.seat === room.you.seat) badges.push(t("you"));
  if (seat.kind === "bot") badges.push(t("botBadge", { kind: kindTitle(seat.bot) }));
  if (seat.kind === "person" && !seat.connected) badges.push(t("offline"));
  return badges.map((b) => h("span", { class: "badge" }, b));
}

function seatRow(S, act, seat) {
  const room = S.room;
  const you = room.you;
  const host = you.host;
  const mine = seat.seat === you.seat;
  const kinds = S.presets?.players ?? [{ kind: "heuristic" }, { kind: "random" }];
  const controls = [];
  if (seat.kind === null) {
    controls.push(h("button", { type: "button", class: "sit", dataset: { seat: seat.seat },
                                onclick: () => act.send({ type: "sit", seat: seat.seat }) },
      t("sitHere")));
    if (host) {
      const id = `bot-kind-${seat.seat}`;
      controls.push(
        h("label", { for: id, class: "sr-only" }, t("botKind", { n: seat.seat })),
        h("select", { id, value: S.ui.botKind ?? "heuristic",
                      onchange: (e) => { S.ui.botKind = e.target.value; } },
          kinds.map((k) => h("option", { value: k.kind, title: kindDescription(k) },
            kindTitle(k.kind)))),
        h("button", {
          type: "button", class: "add-bot", dataset: { seat: seat.seat },
          onclick: () => act.send({ type: "add_bot", seat: seat.seat,
                                    kind: document.getElementById(id).value }),
        }, t("addBot")));
    }
  } else {
    if (mine) {
      controls.push(h("button", { type: "button", onclick: () => act.send({ type: "stand" }) },
        t("standUp")));
    }
    if (host) {
      const free = room.seats.filter((s) => s.kind === null);
      if (free.length) {
        const id = `move-${seat.seat}`;
        controls.push(
          h("label", { for: id, class: "sr-only" }, t("moveTo")),
          h("select", { id, value: String(S.ui.moveTo?.[seat.seat] ?? free[0].seat),
                        onchange: (e) => {
                          S.ui.moveTo = { ...S.ui.moveTo, [seat.seat]: e.target.value };
                        } },
            free.map((s) => h("option", { value: String(s.seat) }, t("seat", { n: s.seat })))),
          h("button", {
            type: "button",
            onclick: () => act.send({ type: "move", seat: seat.seat,
                                      to: Number(document.getElementById(id).value) }),
          }, t("move")));
      }
      controls.push(h("button", { type: "button", class: "remove", dataset: { seat: seat.seat },
                                  onclick: () => act.send({ type: "remove", seat: seat.seat }) },
        t("remove")));
    }
  }
  return h("li", { class: `seat-row${mine ? " mine" : ""}`, dataset: { seat: seat.seat } },
    h("span", { class: "seat-no" }, t("seat", { n: seat.seat })),
    h("span", { class: "seat-name" }, seat.kind === null ? h("em", {}, t("empty"))
      : seat.kind === "bot" ? `${kindTitle(seat.bot)} ${seat.seat}` : seat.name),
    seatBadges(S, seat),
    h("span", { class: "controls" }, controls));
}

/** The suggestion player's name, with the seconds it may think where it thinks (else
 * ``seconds`` is null). */
export function suggesterTitle(kind, seconds) {
  return seconds ? t("thinkSeconds", { kind: kindTitle(kind), n: seconds }) : kindTitle(kind);
}

/** The host's ``configure`` of the room as it is but for ``change``. */
function configure(act, cfg, change) {
  act.send({ type: "configure", preset: cfg.preset, table: cfg.table, rules: cfg.rules ?? {},
             ...change });
}

/** The computer player behind the Suggest button and, for a player that thinks, its time:
 * the host picks them, others read them. */
function suggesterField(S, act) {
  const room = S.room;
  const cfg = room.config;
  const current = cfg.suggest ?? "heuristic";
  const kinds = S.presets?.players ?? [{ kind: current }];
  const thinks = kinds.find((k) => k.kind === current)?.thinks ?? false;
  const seconds = cfg.suggest_time;
  const [low, high] = S.presets?.think_limits ?? [];
  if (!room.you.host) {
    return h("p", { class: "muted", id: "suggester" }, t("suggester"), " ",
      h("strong", {}, suggesterTitle(current, thinks ? seconds : null)));
  }
  return h("div", { class: "field inline" },
    h("label", { for: "suggester" }, t("suggester")),
    h("select", {
      id: "suggester", value: current,
      onchange: (e) => configure(act, cfg, { suggest: e.target.value }),
    }, kinds.map((k) => h("option", { value: k.kind, title: kindDescription(k) },
      kindTitle(k.kind)))),
    thinks ? [
      h("label", { for: "suggest-time" }, t("suggestTime")),
      h("input", {
        id: "suggest-time", type: "number", min: low, max: high, step: 0.1,
        value: String(seconds), class: "grace-input",
        onchange: (e) => {  // a time out of the limits is not sent: the box shows the room's
          const value = Math.round(Number(e.target.value) * 10) / 10;
          if (Number.isFinite(value) && value > 0 && !(value < low) && !(value > high)) {
            e.target.value = String(value);
            configure(act, cfg, { suggest_time: value });
          } else {
            e.target.value = String(seconds);
          }
        },
      })] : null);
}

/** Where no learned model fits the room's table: which computer players then play on the
 * heuristic (the server says which). */
function noModelNote(gap) {
  if (!gap) return null;
  return h("p", { class: "muted", id: "model-note" }, t(gap.fixed ? "noModel" : "noModelFluid", {
    players: gap.players, decks: gap.decks, kinds: gap.kinds.map(kindTitle).join(t("listSep")),
  }));
}

/** How long a seated person may be away before a computer plays for them (0: never): the
 * host sets it, the others read it. */
function absentGraceField(S, act) {
  const room = S.room;
  const cfg = room.config;
  const grace = Math.round(cfg.absent_grace ?? 60);
  if (!room.you.host) {
    return h("p", { class: "muted", id: "absent-grace" },
      grace > 0 ? t("absentGraceShown", { n: grace }) : t("absentNever"));
  }
  return h("div", { class: "field inline" },
    h("label", { for: "absent-grace" }, t("absentGrace")),
    h("input", {
      id: "absent-grace", type: "number", min: 0, max: 86400, step: 1, value: String(grace),
      class: "grace-input",
      onchange: (e) => {
        const value = Math.max(0, Math.min(86400, Math.round(Number(e.target.value) || 0)));
        configure(act, cfg, { absent_grace: value });
      },
    }));
}

/** The room before the match: the link, the rules, the seats, the start button. */
export function renderLobby(S, act) {
  const room = S.room;
  const you = room.you;
  const full = room.seats.every((s) => s.kind !== null);
  const link = `${location.origin}/r/${room.code}`;
  const cfg = room.config;
  return h("div", { class: "lobby" },
    h("section", { class: "panel" },
      h("h2", {}, t("room", { code: room.code })),
      h("p", {}, t("share"), " ", h("a", { href: link, id: "room-link" }, link), " ",
        h("button", {
          type: "button", class: "small",
          onclick: async (e) => {
            try {
              await navigator.clipboard.writeText(link);
              e.target.textContent = t("copied");
            } catch {
              /* clipboard refused: the link is on the page to copy by hand */
            }
          },
        }, t("copy"))),
      h("p", { class: "config" }, t("config", { preset: presetTitle(S.presets, cfg.preset),
                                               n: cfg.table })),
      h("ol", { class: "seats-list", start: 0 }, room.seats.map((s) => seatRow(S, act, s))),
      noModelNote(room.no_model),
      h("p", { class: "muted" }, t("spectators", { n: room.spectators?.length ?? 0 })),
      you.host ? h("ul", { class: "watchers" }, (room.watchers ?? [])
        .filter((w) => w.member !== you.member)
        .map((w) => h("li", { class: "watcher-row", dataset: { member: w.member } },
          h("span", {}, w.name), " ",
          h("button", { type: "button", class: "kick small",
                        onclick: () => act.send({ type: "kick", member: w.member }) },
            t("kick"))))) : null,
      you.seat === null || you.seat === undefined ? h("p", {}, t("watching")) : null,
      suggesterField(S, act),
      absentGraceField(S, act),
      you.host
        ? h("div", { class: "actions" },
          h("button", { type: "button", class: "primary", id: "start", disabled: !full || null,
                        onclick: () => act.send({ type: "start" }) }, t("start")),
          full ? null : h("p", { class: "muted", id: "start-reason" }, t("needSeats")))
        : h("p", { class: "muted" }, t("waitHost"))),
    you.host && S.presets && S.roomForm ? h("section", { class: "panel" },
      h("h2", {}, t("rules")),
      rulesForm(S.presets, S.roomForm, () => act.roomFormChanged(), S.ui),
      h("button", {
        type: "button", id: "apply-rules", disabled: S.roomForm.ok === false || null,
        onclick: () => act.send({ type: "configure", preset: S.roomForm.preset,
                                  table: S.roomForm.table, rules: S.roomForm.overrides }),
      }, t("applyRules"))) : null);
}
