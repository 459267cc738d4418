// The side of the table: the event log (bids, calls, plays, failed throws, trick winners), every
// trick of the round (tricks.js), the chat, the rules in force, and on demand the last trick and
// the last score sheet.
import { cardRow, cardsInline } from "./cards.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { rulesPanel } from "./rules.js";
import { tricksList } from "./tricks.js";
import { callsText, seatName, suitWord, throwText } from "./words.js";

/** The event log: bids, calls, plays, failed throws (match.throws) and trick winners of this
 * round, from view.history. */
export function logEntries(S) {
  const { view, match } = S.state;
  const players = view.hand_sizes.length;
  const throws = (match.throws ?? []).filter((f) => f.round === match.round);
  const entries = [t("log_round", { n: match.round })];
  let plays = 0;
  for (const line of view.history ?? []) {
    const [seatText, verb, ...rest] = line.split(" ");
    const seat = Number(seatText);
    const name = seatName(S, seat);
    const cards = rest.join(" ").split(/\s+/).filter(Boolean);
    if (verb === "draw") continue;
    if (verb === "bid") entries.push([t("log_bid", { name, cards: "" }), cardsInline(cards)]);
    else if (verb === "pass") entries.push(t("log_pass", { name }));
    else if (verb === "withdraw") entries.push(t("log_withdraw", { name }));
    else if (verb === "declare") entries.push(t("log_declare", { name, suit: suitWord(rest[0]) }));
    else if (verb === "bury") {
      entries.push(cards.length ? [t("log_buryCards", { name, cards: "" }), cardsInline(cards)]
        : t("log_bury", { name }));
    } else if (verb === "call") {
      entries.push(t("log_call", { name, calls: callsText(rest.join(" ")) }));
    }
    else if (verb === "show") entries.push(t("log_show", { name }));
    else if (verb === "expose") {
      entries.push(cards.length ? [t("log_expose", { name, cards: "" }), cardsInline(cards)]
        : t("log_exposeNone", { name }));
    }
    else if (verb === "play") {
      entries.push([t("log_play", { name, cards: "" }), cardsInline(cards)]);
      if (plays % players === 0) {
        const failed = throws.find((f) => f.trick === plays / players + 1 && f.seat === seat);
        if (failed) entries.push({ throw: throwText(S, failed) });
      }
      plays += 1;
      const trick = view.tricks?.[plays / players - 1];
      if (plays % players === 0 && trick) {
        entries.push({ trick: t("log_trick", { name: seatName(S, trick.winner),
                                               n: plays / players, points: trick.points }) });
      }
    }
  }
  return entries;
}

/** The side panel: the event log, the tricks, the chat or the rules, and the last trick on
 * demand. */
export function sidePanel(S, act) {
  const tab = S.ui.sideTab ?? "log";
  const tabs = h("div", { class: "tabs", role: "tablist" },
    ["log", "tricks", "chat", "rules"].map((name) => h("button", {
      type: "button", role: "tab", id: `tab-${name}`,
      "aria-selected": tab === name ? "true" : "false",
      "aria-controls": `panel-${name}`,
      onclick: () => { S.ui.sideTab = name; act.render(); },
    }, t(name),
    name === "chat" && S.unread ? h("span", { class: "badge" }, String(S.unread)) : null)));
  let body;
  if (tab === "log") {
    body = h("ol", { class: "log", id: "panel-log", role: "tabpanel",
                     "aria-labelledby": "tab-log" },
      logEntries(S).map((e) => (e.trick ? h("li", { class: "trick-end" }, e.trick)
        : e.throw ? h("li", { class: "throw-failed" }, e.throw) : h("li", {}, e))));
  } else if (tab === "tricks") {
    body = h("div", { id: "panel-tricks", role: "tabpanel", "aria-labelledby": "tab-tricks",
                      class: "tricks-panel" }, tricksList(S, "tricks-list", true));
  } else if (tab === "rules") {
    body = h("div", { id: "panel-rules", role: "tabpanel", "aria-labelledby": "tab-rules" },
      rulesPanel(S, act.render));
  } else {
    body = chatPanel(S, act);
  }
  return h("aside", { class: "side" }, tabs, body,
    h("div", { class: "side-buttons" }, lastTrick(S, act), sheetButton(S, act)));
}

/** Open the last score sheet again (once it has been closed). */
function sheetButton(S, act) {
  if (!S.state.match.results?.length) return null;
  return h("button", { type: "button", id: "sheet-btn", "aria-haspopup": "dialog",
                       onclick: () => { S.ui.showSheet = true; act.render(); } },
  t("scoreSheet"));
}

/** The chat list and its form (also used in the lobby). */
export function chatPanel(S, act) {
  return h("div", { class: "chat", id: "panel-chat", role: "tabpanel",
                    "aria-labelledby": "tab-chat" },
    h("ol", { class: "chat-list", "aria-live": "polite" }, S.chat.map((m) => h("li", {},
      h("strong", {}, m.name ?? seatName(S, m.seat)), ": ", m.text))),
    h("form", {
      class: "chat-form",
      onsubmit: (e) => {
        e.preventDefault();
        const text = S.chatDraft.trim();
        if (!text) return;
        if (act.send({ type: "chat", text: text.slice(0, 500) })) {
          S.chatDraft = "";
          // The focused field keeps its value through a render (dom.js): empty it here.
          e.target.elements["chat-input"].value = "";
          act.render();
        }
      },
    },
      h("label", { for: "chat-input", class: "sr-only" }, t("chatLabel")),
      h("input", { id: "chat-input", maxlength: 500, placeholder: t("chatPlaceholder"),
                   autocomplete: "off", value: S.chatDraft,
                   oninput: (e) => { S.chatDraft = e.target.value; } }),
      h("button", { type: "submit" }, t("send"))));
}

function lastTrick(S, act) {
  const { view } = S.state;
  const tricks = view.tricks ?? [];
  if (!tricks.length) return null;  // offered once a trick of this round is over
  const button = h("button", {
    type: "button", id: "last-trick-btn", "aria-expanded": S.ui.showLast ? "true" : "false",
    onclick: () => { S.ui.showLast = !S.ui.showLast; act.render(); },
  }, S.ui.showLast ? t("hideLastTrick") : t("lastTrick"));
  if (!S.ui.showLast) return h("div", { class: "last-trick" }, button);
  const last = tricks[tricks.length - 1];
  return h("div", { class: "last-trick" }, button,
    h("div", { id: "last-trick", class: "last-trick-body" },
      h("p", {}, t("trickWonBy", { n: tricks.length, name: seatName(S, last.winner),
                                   points: last.points })),
      h("ul", {}, last.plays.map((p) => h("li", { class: p.seat === last.winner ? "winner" : "" },
        h("span", { class: "who" }, seatName(S, p.seat)), " ", cardRow(p.cards, "tiny"))))));
}
