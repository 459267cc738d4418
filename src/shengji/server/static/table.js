// The table during a match: the players, the trick, the prompt with its buttons and the hand
// (the side panel is side.js, the score sheet sheet.js, the points bar tricks.js, the hand's
// order and keyboard handkeys.js).
import {
  cardEl, cardRow, cardsInline, levelName, parseCard, RANKS, SUIT_SYMBOLS,
} from "./cards.js";
import { h } from "./dom.js";
import { handOrder, shortcutsList, sortSelect } from "./handkeys.js";
import { errorText, t } from "./i18n.js";
import { kindTitle, suggesterTitle } from "./lobby.js";
import { reasonText } from "./reasons.js";
import { overlay } from "./sheet.js";
import { sidePanel } from "./side.js";
import { pointsBar } from "./tricks.js";
import {
  callText, names, ordinalText, phaseName, seatName, suitWord, trumpText,
} from "./words.js";

/** The cards currently selected in the hand, in hand order. */
export function selectedCards(S) {
  const hand = S.state?.view?.hand ?? [];
  return [...S.selection].sort((a, b) => a - b).map((i) => hand[i]).filter(Boolean);
}

/** The action the selection stands for now ("2 play KS KS", "0 bury ..."), or null. */
export function selectionAction(S) {
  const view = S.state?.view;
  if (!view || view.seat === null || view.seat === undefined) return null;
  const cards = selectedCards(S);
  if (!cards.length) return null;
  const kind = S.state.legal?.kind;
  const verb = kind === "bury" || view.phase === "kitty" ? "bury"
    : kind === "expose" || view.phase === "expose" ? "expose" : "play";
  return `${view.seat} ${verb} ${cards.join(" ")}`;
}

/** The friend calls picked so far as an action, or null. */
export function callAction(S) {
  const view = S.state?.view;
  const spec = S.state?.legal?.calls;
  if (!view || !spec) return null;
  const calls = S.callPicks.slice(0, spec.count).map((p) => {
    const ord = ordinalText(p.ordinal);
    return spec.colour ? `${ord} ${p.colour} ${p.rank}` : `${ord} ${p.rank}${p.suit}`;
  });
  return `${view.seat} call ${calls.join(", ")}`;
}

function isFluid(S) {
  const view = S.state.view;
  const cfg = S.room?.config ?? {};
  return view.calls.length > 0 || cfg.preset === "finding-friends"
    || cfg.rules?.partnership === "fluid";
}

function infoBar(S) {
  const { view, match } = S.state;
  const bids = view.bids ?? [];
  const standing = bids.length ? bids[bids.length - 1] : null;
  const trump = trumpText(view.trump) ?? (standing
    ? [cardsInline(standing[1]), " ", t("bidding", { name: seatName(S, standing[0]) })]
    : t("noTrumpYet"));
  const items = [
    [t("round", { n: match.round }), h("strong", { id: "phase" }, phaseName(view.phase))],
    [t("trump"), h("strong", { id: "trump" }, trump)],
    [t("dealer"), h("strong", { id: "dealer" }, seatName(S, view.dealer))],
    [t("attackers"), h("strong", { id: "attacker-points" },
      t("pointsOf", { points: view.attacker_points ?? 0, target: view.target ?? "?" }))],
  ];
  if (view.kitty_turned?.length) {
    items.push([t("kittyTurned"), h("span", { id: "kitty-turned" }, cardsInline(view.kitty_turned))]);
  }
  if (view.declarers?.length) items.push([t("declarers"), names(S, view.declarers)]);
  if (!isFluid(S) && view.declarers?.length) {
    const others = view.hand_sizes.map((_, s) => s).filter((s) => !view.declarers.includes(s));
    items.push([t("opponents"), names(S, others)]);
  }
  if (view.calls?.length) {
    items.push([t("calls"), h("span", { id: "calls" }, view.calls.map(callText).join(", "))]);
    items.push([t("friends"), h("span", { id: "friends" }, names(S, view.friends ?? []))]);
  }
  return h("section", { class: "info", "aria-label": t("trump") },
    items.map(([label, value]) => h("div", { class: "info-item" },
      h("span", { class: "label" }, label), " ", value)));
}

function seatOrder(view) {
  const n = view.hand_sizes.length;
  const me = view.seat;
  if (me === null || me === undefined) return [...Array(n).keys()];
  return [...Array(n).keys()].map((k) => (me + 1 + k) % n);
}

/** The plays shown on the table: the trick being played, else the last one (a round over
 * shows its last trick). */
function tablePlays(view) {
  const trick = view.trick;
  const last = view.tricks?.[view.tricks.length - 1];
  if (trick && trick.plays.length && !(last && view.phase === "done")) {
    return { plays: trick.plays, winner: trick.winner, leader: trick.leader, done: false };
  }
  if (last && (view.phase === "play" || view.phase === "done")) {
    return { plays: last.plays, winner: last.winner, leader: last.plays[0]?.seat, done: true };
  }
  return { plays: [], winner: null, leader: trick?.leader ?? null, done: false };
}

function seatPanel(S, act, seat, table, position) {
  const { view } = S.state;
  const info = S.room?.seats?.[seat] ?? {};
  const play = table.plays.find((p) => p.seat === seat);
  const turn = view.to_move === seat && view.phase !== "deal";
  const winning = play && table.winner === seat;
  const badges = [];
  if (seat === view.seat) badges.push(t("you"));
  if (seat === view.dealer) badges.push(t("dealerBadge"));
  if ((view.friends ?? []).includes(seat)) badges.push(t("friendBadge"));
  else if (seat !== view.dealer && (view.declarers ?? []).includes(seat)) {
    badges.push(t("declarerBadge"));
  }
  const bot = info.kind === "bot" ? t("botBadge", { kind: kindTitle(info.bot) }) : null;
  if (bot) badges.push(bot);
  if (info.kind === "person" && !info.connected) badges.push(t("offline"));
  const auto = info.auto ? t("autoBadge") : null;
  if (auto) badges.push(auto);
  const replace = S.room?.you?.host && S.room.status === "playing" && info.kind === "person"
    && !info.connected && seat !== view.seat
    ? h("button", { type: "button", class: "small replace",
                    onclick: () => act.send({ type: "replace", seat, kind: "heuristic" }) },
      t("replaceBot")) : null;
  const classes = ["seat-panel", turn ? "turn" : "", seat === view.seat ? "me" : "",
    winning ? "winning" : "", (view.declarers ?? []).includes(seat) ? "declarer" : ""];
  return h("div", { class: classes.filter(Boolean).join(" "), dataset: { seat, pos: position },
                    "aria-current": turn ? "true" : null },
    h("div", { class: "seat-head" },
      h("span", { class: "seat-name" }, seatName(S, seat)),
      turn ? h("span", { class: "badge turn-badge" }, t("turnBadge")) : null,
      badges.map((b) => h("span", {
        class: b === bot ? "badge bot-badge" : b === auto ? "badge auto-badge" : "badge",
      }, b))),
    h("div", { class: "seat-stats" },
      h("span", {}, t("level", { level: levelName(view.levels[seat]) })), " · ",
      h("span", {}, t("cards", { n: view.hand_sizes[seat] })), " · ",
      h("span", {}, t("captured", { n: view.captured?.[seat] ?? 0 }))),
    view.exposed?.[seat]?.length ? h("div", { class: "exposed" }, t("labelled", { label: t("exposedBadge") }),
      cardRow(view.exposed[seat], "tiny")) : null,
    h("div", { class: `seat-play${table.done ? " done" : ""}` },
      play ? cardRow(play.cards, "small") : null,
      play && table.leader === seat ? h("span", { class: "badge" }, t("leader")) : null,
      winning ? h("span", { class: "badge win", "aria-label": t(table.done ? "won" : "winning") },
        "★ ", h("span", { class: "win-word" }, t(table.done ? "won" : "winning"))) : null),
    replace);
}

// Play goes to the right (counter-clockwise, as the cards are drawn): the next seat after
// yours sits on your right, the one before it on your left.
const RING = {
  4: ["right", "top", "left"],
  5: ["right", "topright", "topleft", "left"],
  6: ["right", "topright", "top", "topleft", "left"],
};

function cardPoints(card) {
  const rank = parseCard(card).rank;
  return rank === "5" ? 5 : rank === "10" || rank === "K" ? 10 : 0;
}

function seatsArea(S, act) {
  const { view } = S.state;
  const table = tablePlays(view);
  const n = (view.tricks?.length ?? 0) + (table.done ? 0 : 1);
  const caption = table.done
    ? t("lastTrickShown", { name: seatName(S, table.winner) })
    : view.phase === "play" ? t("tableTrick", { n }) : phaseName(view.phase);
  const points = table.done ? 0
    : table.plays.reduce((sum, p) => sum + p.cards.reduce((a, c) => a + cardPoints(c), 0), 0);
  const order = seatOrder(view);
  // Up to 6 players sit round the table (you at the bottom) on wide screens.
  const ring = RING[order.length];
  const pos = (i) => (ring ? (i === order.length - 1 ? "bottom" : ring[i]) : null);
  // On a phone, three compact seats to a row from 6 seats on (style.css): the trick and the
  // hand stay on one screen.
  const many = order.length >= 6 ? " many" : "";
  return h("section", { class: "seats", "aria-label": caption },
    h("div", { class: `seat-grid${ring ? " ring" : ""}${many}`,
               dataset: { count: order.length } },
      h("div", { class: "table-center" },
        h("p", { class: "trick-caption" }, caption),
        points ? h("p", { class: "table-points" }, t("tablePoints", { n: points })) : null),
      order.map((s, i) => seatPanel(S, act, s, table, pos(i)))));
}

function actionButton(S, act, action, label, extra = {}) {
  const suggested = S.suggested === action;
  const classes = `${extra.class ?? ""}${suggested ? " suggested" : ""}`;
  return h("button", { type: "button", class: classes, disabled: S.pending ? true : null,
                       id: extra.id ?? null, dataset: { action },
                       onclick: () => act.action(action) }, label);
}

function bidButtons(S, act, legal) {
  const seat = S.state.view.seat;
  const bids = legal.options.filter((o) => o.split(" ")[1] === "bid");
  const buttons = bids.map((o) => actionButton(S, act, o,
    [t("bid"), " ", cardsInline(o.split(" ").slice(2))], { class: "bid-option" }));
  if (legal.options.includes(`${seat} pass`)) {
    buttons.push(actionButton(S, act, `${seat} pass`, t("pass"), { id: "pass-btn" }));
  }
  if (legal.options.includes(`${seat} withdraw`)) {
    buttons.push(actionButton(S, act, `${seat} withdraw`, t("withdraw"), { id: "withdraw-btn" }));
  }
  return buttons;
}

function reasonLine(S, id) {
  const action = S.state.legal?.kind === "call" ? callAction(S) : selectionAction(S);
  let text = "";
  let ok = false;
  let refused = false;
  if (!action) text = S.state.legal?.kind === "bury" ? t("selectToBury") : t("selectCards");
  else if (S.checked && S.checked.action === action) {
    ok = S.checked.reason === null;
    refused = !ok;
    text = ok ? "" : why(S, S.checked.why, S.checked.code
      ? errorText({ code: S.checked.code, message: S.checked.reason }) : S.checked.reason);
  } else text = t("checking");
  return { ok, node: h("p", { class: `reason${refused ? " refused" : ""}`, id, role: "status",
                               "aria-live": "polite" }, text) };
}

/** An engine reason (`reason`, sent beside its English `text`) in the reader's language. */
function why(S, reason, text) {
  return reasonText(reason, text, (seat) => seatName(S, seat));
}

/** What the rules ask now (when it is your turn), and the keyboard shortcuts. */
function helpPanel(S) {
  const legal = S.state.legal;
  if (!S.ui.showHelp) return null;
  const playing = legal?.kind === "lead" || legal?.kind === "follow";
  return h("div", { class: "help-panel", id: "help-panel", role: "note" },
    legal ? h("p", {}, t("rulesSay", { summary: why(S, legal.summary_why, legal.summary) }))
      : null,
    legal?.forced?.length ? h("p", {}, t("mustPlay", { cards: "" }), cardsInline(legal.forced))
      : playing ? h("p", {}, t("noForced")) : null,
    shortcutsList());
}

function callPicker(S, act, spec) {
  while (S.callPicks.length < spec.count) {
    S.callPicks.push({ ordinal: spec.ordinals[0] ?? 1, rank: "A", suit: "S", colour: "black" });
  }
  const rows = [];
  for (let i = 0; i < spec.count; i += 1) {
    const pick = S.callPicks[i];
    const change = (field, numeric = false) => (e) => {
      pick[field] = numeric ? Number(e.target.value) : e.target.value;
      act.selectionChanged();
    };
    const sel = (field, label, options, numeric = false) => {
      const id = `call-${i}-${field}`;
      return h("span", { class: "field inline" },
        h("label", { for: id }, label),
        h("select", { id, value: String(pick[field]), onchange: change(field, numeric) },
          options.map(([value, text]) => h("option", { value: String(value) }, text))));
    };
    rows.push(h("fieldset", { class: "call-row" },
      h("legend", {}, t("callCard", { n: i + 1 })),
      sel("ordinal", t("ordinal"),
        spec.ordinals.map((o) => [o, t("nthCopy", { n: o, ord: ordinalText(o) })]), true),
      spec.colour ? sel("colour", t("colour"), [["black", t("black")], ["red", t("red")]]) : null,
      sel("rank", t("rank"), RANKS.map((r) => [r, r])),
      spec.colour ? null : sel("suit", t("suit"),
        ["S", "H", "C", "D"].map((s) => [s, `${SUIT_SYMBOLS[s]} ${t(`suit${s}`)}`]))));
  }
  return rows;
}

/** The main button of a prompt (Play, Bury...), enabled when the server said `ok` (and no
 * action is on its way: a double click sends one). */
function submitButton(S, id, ok, onclick, label) {
  return h("button", { type: "button", class: "primary", id, disabled: !ok || S.pending || null,
                       "aria-describedby": "reason", onclick }, label);
}

/** The Suggest button (the room's suggestion player fills in its choice; "Thinking…"
 * meanwhile), and who made the last suggestion. */
function suggestButton(S, act, enabled) {
  return [
    h("button", { type: "button", id: "suggest-btn", disabled: !enabled || S.suggesting || null,
                  onclick: () => act.suggest() }, S.suggesting ? t("thinking") : t("suggest")),
    S.suggestedBy ? h("span", { class: "muted", id: "suggested-by" }, S.suggestedBy.by
      ? t("suggestedBy", { who: suggesterTitle(S.suggestedBy.by, S.suggestedBy.time) })
      : t("suggestedOnly")) : null,
  ];
}

function promptArea(S, act) {
  const { view, legal } = S.state;
  const nodes = [];
  if (S.notice) {
    nodes.push(h("div", { class: "notice", role: "alert", id: "notice" }, S.notice, " ",
      h("button", { type: "button", class: "small",
                    onclick: () => { S.notice = null; act.render(); } },
        t("dismiss"))));
  }
  const seated = view.seat !== null && view.seat !== undefined;
  if (!seated) {
    nodes.push(h("p", { class: "prompt" }, t("watching")));
    return h("section", { class: "prompt-area" }, nodes);
  }
  const kind = legal?.kind ?? null;
  let prompt;
  const waiting = S.state.match.waiting ?? [];
  if (S.state.match.over) prompt = t("matchOver");
  else if (waiting.length) prompt = t("waitingReady", { names: names(S, waiting) });
  else if (view.phase === "deal") prompt = t("dealing");
  else if (legal) prompt = t("yourTurn", { summary: why(S, legal.summary_why, legal.summary) });
  else prompt = t("waitingFor", { name: seatName(S, view.to_move) });
  nodes.push(h("p", { class: `prompt${legal && view.phase !== "deal" ? " mine" : ""}`, id: "prompt",
                      role: "status" }, prompt));
  if (waiting.length && S.room?.you?.host) {
    nodes.push(h("button", { type: "button", class: "small", id: "start-all-prompt",
                             onclick: () => act.send({ type: "next_round", all: true }) },
      t("startForAll")));
  }
  const buttons = [];
  const extra = [];
  if (kind === "deal" || kind === "bid") {
    buttons.push(...bidButtons(S, act, legal));
    if (!buttons.length) extra.push(h("p", { class: "muted" }, t("noBid")));
  } else if (kind === "declare" || kind === "show") {
    for (const option of legal.options) {
      const [, verb, rest] = option.split(" ");
      const label = verb === "declare" ? suitWord(rest) : verb === "show" ? t("show") : t("pass");
      buttons.push(actionButton(S, act, option, label, { class: `${verb}-option` }));
    }
    if (kind === "declare") extra.push(h("p", { class: "muted" }, t("declareSuit")));
  } else if (kind === "call") {
    extra.push(h("p", {}, t("callHelp", { n: legal.calls.count })),
      callPicker(S, act, legal.calls));
    const reason = reasonLine(S, "reason");
    buttons.push(submitButton(S, "call-btn", reason.ok, () => act.action(callAction(S)), t("call")),
      suggestButton(S, act, true));
    extra.push(reason.node);
  } else if (kind === "bury" || view.phase === "kitty" && view.to_move === view.seat) {
    const count = legal?.count ?? 0;
    extra.push(h("p", {}, t("buryHelp", { n: count, k: S.selection.size })));
    const reason = reasonLine(S, "reason");
    buttons.push(submitButton(S, "bury-btn", reason.ok, () => act.action(selectionAction(S)),
      t("bury")), suggestButton(S, act, true));
    extra.push(reason.node);
  } else if (kind === "expose") {
    extra.push(h("p", {}, t("exposeHelp", { n: legal.count ?? 0, k: S.selection.size })));
    const reason = S.selection.size ? reasonLine(S, "reason") : null;
    buttons.push(submitButton(S, "expose-btn", reason?.ok, () => act.action(selectionAction(S)),
      t("expose")));
    buttons.push(actionButton(S, act, `${view.seat} expose`, t("exposeNone"),
      { id: "expose-none-btn" }));
    buttons.push(suggestButton(S, act, true));
    if (reason) extra.push(reason.node);
  } else if (view.phase === "play") {
    const mine = kind === "lead" || kind === "follow";
    const reason = mine || S.selection.size ? reasonLine(S, "reason") : null;
    buttons.push(submitButton(S, "play-btn", mine && reason?.ok, () => act.action(selectionAction(S)),
      t("play")), suggestButton(S, act, mine));
    buttons.push(h("button", { type: "button", id: "help-btn", "aria-label": t("helpLabel"),
                               title: t("helpLabel"),
                               "aria-expanded": S.ui.showHelp ? "true" : "false",
                               onclick: () => { S.ui.showHelp = !S.ui.showHelp; act.render(); } },
      t("help")));
    if (reason) extra.push(reason.node);
    else extra.push(h("p", { class: "reason", id: "reason", role: "status" }, ""));
  } else if (legal?.options) {
    // A phase this client does not know yet: the server's options as buttons.
    for (const option of legal.options) buttons.push(actionButton(S, act, option, option));
  }
  extra.push(helpPanel(S));
  nodes.push(h("div", { class: "buttons" }, buttons), extra);
  return h("section", { class: "prompt-area", "aria-label": prompt }, nodes);
}

function handArea(S, act) {
  const { view } = S.state;
  if (view.seat === null || view.seat === undefined) return null;
  const hand = view.hand ?? [];
  const selectable = ["play", "kitty", "expose"].includes(view.phase);
  const suits = view.hand_suits;
  const buttons = handOrder(view).map((i) => {
    const card = hand[i];
    const selected = S.selection.has(i);
    return h("button", {
      type: "button", class: `card-btn${selected ? " selected" : ""}`,
      "aria-pressed": selected ? "true" : "false", id: `card-${i}`,
      dataset: { index: i, card, suit: suits?.[i] ?? null }, disabled: !selectable || null,
      onclick: () => act.toggle(i),
    }, cardEl(card));
  });
  return h("section", { class: "hand-area", "aria-label": t("hand", { n: hand.length }) },
    h("div", { class: "hand-head" },
      h("h2", {}, t("hand", { n: hand.length })),
      hand.length ? sortSelect(act.render) : null,
      S.selection.size ? h("span", { class: "muted" },
        t("selectedCount", { n: S.selection.size }), " ",
        h("button", { type: "button", class: "small", id: "clear-btn", onclick: () => act.clear() },
          t("clear"))) : null),
    h("div", { class: "hand", id: "hand" }, buttons),
    view.kitty?.length ? h("p", { class: "kitty" }, t("labelled", { label: t("phase_kitty") }),
      cardRow(view.kitty, "tiny")) : null);
}

/** The whole table page. */
export function renderTable(S, act) {
  return h("div", { class: "table-page" },
    h("div", { class: "main-col" },
      infoBar(S), pointsBar(S), seatsArea(S, act), promptArea(S, act), handArea(S, act)),
    sidePanel(S, act),
    overlay(S, act));
}

/** Select the cards of a suggested play or bury in the hand (identical copies in order). */
export function selectCards(S, cards) {
  const hand = S.state?.view?.hand ?? [];
  const chosen = new Set();
  for (const card of cards) {
    const want = parseCard(card).text;
    const index = hand.findIndex((c, i) => !chosen.has(i) && parseCard(c).text === want);
    if (index >= 0) chosen.add(index);
  }
  S.selection = chosen;
}

/** Spread the hand over the width it has: overlapping (in up to 4 rows) only when needed. */
export function fitHand() {
  const hand = document.getElementById("hand");
  const first = hand?.firstElementChild?.firstElementChild;
  if (!first) return;
  const count = hand.children.length;
  const cardWidth = first.offsetWidth;
  const width = hand.clientWidth - 2;
  // Each card shows at least 25 px (a comfortable tap target on a phone), in more rows if need be.
  const minStep = Math.max(25, cardWidth * 0.42);
  let rows = 1;
  while (rows < 4 && cardWidth + (Math.ceil(count / rows) - 1) * minStep > width) rows += 1;
  const perRow = Math.ceil(count / rows);
  const step = perRow > 1 ? Math.min(cardWidth + 4, (width - cardWidth) / (perRow - 1)) : cardWidth;
  hand.style.setProperty("--card-overlap", `${Math.floor(step - cardWidth)}px`);
}
