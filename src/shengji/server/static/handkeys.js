// The hand's comforts: its order on screen (the engine's, trumps first and strongest first, or
// by printed suit; high to low or low to high: remembered by this browser), and the keyboard
// shortcuts of a desktop (listed in the help panel). Which cards are trumps is the engine's
// word: the server sends each card's suit as the engine sees it (view.hand_suits).
import { parseCard } from "./cards.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

const SORT_KEY = "shengji.sort";
export const SORTS = ["trumps_desc", "trumps_asc", "suits_desc", "suits_asc"];
/** The printed suits' order when sorting by suit: jokers, then the colours alternating. */
const SUIT_ORDER = ["JOKER", "S", "H", "C", "D"];
/** Keys that pick a card by its rank (and the jokers). */
const RANK_KEYS = {
  2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 0: "10", t: "10",
  j: "J", q: "Q", k: "K", a: "A", b: "BJ", x: "SJ",
};

/** The hand's order chosen in this browser. */
export function sortChoice() {
  const saved = localStorage.getItem(SORT_KEY);
  return SORTS.includes(saved) ? saved : SORTS[0];
}

/** Group indices by `key`, the groups in the order `rank` gives (first seen when equal). */
function grouped(indices, key, rank = () => 0) {
  const groups = new Map();
  for (const i of indices) {
    const k = key(i);
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(i);
  }
  return [...groups.entries()].sort((a, b) => rank(a[0]) - rank(b[0])).map(([, g]) => g);
}

/** The indices of view.hand in the order they are shown. The server's order is the
 * engine's (trumps first, strongest first); "asc" reverses each group. */
export function handOrder(view, sort = sortChoice()) {
  const hand = view?.hand ?? [];
  const indices = hand.map((_, i) => i);
  if (sort === "trumps_desc") return indices;
  const suits = view.hand_suits;
  const printed = (i) => parseCard(hand[i]).suit ?? "JOKER";
  const groups = sort.startsWith("trumps")
    ? grouped(indices, (i) => (suits ? suits[i] : printed(i)))
    : grouped(indices, printed, (suit) => SUIT_ORDER.indexOf(suit));
  const ascending = sort.endsWith("asc");
  return groups.flatMap((g) => (ascending ? g.reverse() : g));
}

/** The sort control of the hand's heading. */
export function sortSelect(rerender) {
  return h("span", { class: "field inline sort-field" },
    h("label", { for: "sort-hand", class: "sr-only" }, t("sortLabel")),
    h("select", {
      id: "sort-hand", value: sortChoice(), title: t("sortLabel"),
      onchange: (e) => { localStorage.setItem(SORT_KEY, e.target.value); rerender(); },
    }, SORTS.map((s) => h("option", { value: s }, t(`sort_${s}`)))));
}

/** The shortcuts, for the help panel. */
export function shortcutsList() {
  return h("div", { class: "shortcuts", id: "shortcuts" },
    h("p", {}, h("strong", {}, t("shortcuts"))),
    h("ul", {}, ["key_ranks", "key_enter", "key_suggest", "key_clear", "key_help"]
      .map((key) => h("li", {}, t(key)))));
}

function typing(target) {
  return target instanceof HTMLElement && (target.isContentEditable
    || ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName));
}

/** Select the next card of `rank` in the order shown (all selected: clear them). */
function pickRank(S, act, rank) {
  const view = S.state?.view;
  if (!view || !["play", "kitty", "expose"].includes(view.phase)) return false;
  const hand = view.hand ?? [];
  const ofRank = handOrder(view).filter((i) => parseCard(hand[i]).rank === rank);
  if (!ofRank.length) return false;
  const next = ofRank.find((i) => !S.selection.has(i));
  if (next !== undefined) S.selection.add(next);
  else ofRank.forEach((i) => S.selection.delete(i));
  act.selectionChanged();
  return true;
}

/** The keyboard shortcuts of the table (not while typing, nor with Ctrl, Alt or Meta). */
export function installKeys(S, act) {
  document.addEventListener("keydown", (event) => {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    if (typing(event.target) || !S.state) return;
    if (document.getElementById("sheet")) {  // a score sheet that may be closed: Esc closes it
      const close = event.key === "Escape" && document.getElementById("close-sheet-btn");
      if (close) {
        close.click();
        event.preventDefault();
      }
      return;
    }
    const focus = document.activeElement;
    const free = !focus || focus === document.body || focus.classList?.contains("card-btn");
    const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    let done = false;
    if (key === "Enter" && free) {
      const submit = document.querySelector(
        "#play-btn:not([disabled]), #bury-btn:not([disabled]), #expose-btn:not([disabled]), "
        + "#call-btn:not([disabled])");
      if (submit) submit.click();
      done = true;
    } else if (key === "s") {
      const suggest = document.querySelector("#suggest-btn:not([disabled])");
      if (suggest) suggest.click();
      done = true;
    } else if (key === "Escape") {
      if (S.selection.size) act.clear();
      done = true;
    } else if (key === "?") {
      S.ui.showHelp = !S.ui.showHelp;
      act.render();
      done = true;
    } else if (key in RANK_KEYS) {
      done = pickRank(S, act, RANK_KEYS[key]);
    }
    if (done) event.preventDefault();
  });
}
