// The rules in force, for everyone (in the lobby for guests, in the side panel during play):
// the preset and table size, and each option that differs from the preset's, worded as the
// lobby form words them (lobby.js, options_zh.js). The server resolves both sets of rules
// (`/api/rules/check`): the preset's at this table size, and the room's.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { choiceText, optionWords, presetTitle } from "./lobby.js";

/** Room configuration (as JSON) → {loading, base, rules, error}. */
const resolved = new Map();

async function rulesOf(cfg, rules) {
  const response = await fetch("/api/rules/check", {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ preset: cfg.preset, table: cfg.table, rules }),
  });
  const reply = await response.json();
  if (!reply.ok || !reply.rules) throw new Error(Object.values(reply.errors ?? {}).join("; "));
  return reply.rules;
}

/** The resolved rules of the room's configuration, asked for once per configuration. */
function inForce(cfg, rerender) {
  const key = JSON.stringify([cfg.preset, cfg.table, cfg.rules ?? {}]);
  let entry = resolved.get(key);
  if (!entry) {
    entry = { loading: true };
    resolved.set(key, entry);
    Promise.all([rulesOf(cfg, {}), rulesOf(cfg, cfg.rules ?? {})])
      .then(([base, rules]) => Object.assign(entry, { base, rules }))
      .catch((error) => { entry.error = String(error.message ?? error); })
      .finally(() => {
        entry.loading = false;
        rerender();
      });
  }
  return entry;
}

/** An option's value in words. */
export function valueWords(spec, value) {
  if (value === null || value === undefined) return t("auto");
  if (typeof value === "boolean") return t(value ? "yes" : "no");
  if (Array.isArray(value)) {
    if (!value.length) return t("noneOption");
    return value.map((v) => (Array.isArray(v) ? `[${v.join(", ")}]` : choiceText(spec, v)))
      .join(t("listSep"));
  }
  return spec.choices ? choiceText(spec, value) : String(value);
}

function optionLine(spec, value, base) {
  const [label, doc] = optionWords(spec);
  const name = label ? h("span", { class: "option-label" }, t("labelled", { label }))
    : [h("code", {}, spec.name), ` (${doc})`, t("labelled", { label: "" })];
  return h("li", { class: "rule-change", dataset: { option: spec.name }, title: doc || null },
    name, h("strong", {}, valueWords(spec, value)), " ",
    h("span", { class: "muted" }, t("rulesWas", { value: valueWords(spec, base) })));
}

/** The rules in force: read-only, for everyone. */
export function rulesPanel(S, rerender) {
  const cfg = S.room?.config;
  if (!cfg || !S.presets) return h("p", { class: "muted" }, t("loading"));
  const head = h("p", { id: "rules-preset" }, t("rulesInForce", {
    preset: presetTitle(S.presets, cfg.preset), n: cfg.table }));
  const entry = inForce(cfg, rerender);
  let body;
  if (entry.loading) body = h("p", { class: "muted" }, t("loading"));
  else if (entry.error) body = h("p", { class: "error" }, t("rulesFailed", { error: entry.error }));
  else {
    const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
    const changed = S.presets.options.filter((o) => o.name !== "players"
      && !same(entry.rules[o.name], entry.base[o.name]));
    body = changed.length
      ? [h("p", {}, t("rulesChanged")), h("ul", { class: "rule-changes" },
        changed.map((o) => optionLine(o, entry.rules[o.name], entry.base[o.name])))]
      : h("p", { class: "muted", id: "rules-unchanged" }, t("rulesUnchanged"));
  }
  return h("div", { class: "rules-in-force", id: "rules-in-force" }, head, body);
}
