// Cards in the record notation ("10H", "QS", "BJ", "SJ") drawn as CSS cards.
import { h } from "./dom.js";
import { lang, t } from "./i18n.js";

export const SUIT_SYMBOLS = { C: "♣", D: "♦", H: "♥", S: "♠" };
export const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];

/** Read a card's notation: {text, rank, suit, red, joker}. */
export function parseCard(text) {
  const upper = String(text).trim().toUpperCase();
  if (upper === "BJ" || upper === "SJ") {
    return { text: upper, rank: upper, suit: null, red: upper === "BJ", joker: true };
  }
  const suit = upper.slice(-1);
  const rank = upper.slice(0, -1) === "T" ? "10" : upper.slice(0, -1);
  return { text: rank + suit, rank, suit, red: suit === "H" || suit === "D", joker: false };
}

/** The words for a card, for screen readers ("K hearts", "红桃K"). */
export function cardName(text) {
  const card = parseCard(text);
  if (card.joker) return t(card.red ? "bigJoker" : "smallJoker");
  const suit = t(`suit${card.suit}`);
  return lang() === "zh" ? `${suit}${card.rank}` : `${card.rank} ${suit}`;
}

/** A card as short text with its suit symbol ("K♥", "BJ"). */
export function cardText(text) {
  const card = parseCard(text);
  if (card.joker) return t(card.red ? "bigJoker" : "smallJoker");
  return card.rank + SUIT_SYMBOLS[card.suit];
}

/** A card drawn as an element; `size` is "" (hand), "small" or "tiny". */
export function cardEl(text, size = "") {
  const card = parseCard(text);
  const classes = ["card", card.red ? "red" : "black", card.joker ? "joker" : "", size]
    .filter(Boolean).join(" ");
  if (card.joker) {
    return h("span", { class: classes, role: "img", "aria-label": cardName(text) },
      h("span", { class: "corner joker-mark", "aria-hidden": "true" }, t("jokerMark")),
      h("span", { class: "pip", "aria-hidden": "true" }, "★"));
  }
  return h("span", { class: classes, role: "img", "aria-label": cardName(text) },
    h("span", { class: "corner", "aria-hidden": "true" },
      h("b", {}, card.rank), h("i", {}, SUIT_SYMBOLS[card.suit])),
    h("span", { class: "pip", "aria-hidden": "true" }, SUIT_SYMBOLS[card.suit]));
}

/** Cards inline in text (for logs and buttons): coloured "K♥ K♥", a space apart (a long row
 * wraps between cards). */
export function cardsInline(cards) {
  return h("span", { class: "cards-inline" }, cards.flatMap((c, i) => [i ? " " : null,
    h("span", { class: parseCard(c).red ? "red" : "black" }, cardText(c))]));
}

/** A row of small cards. */
export function cardRow(cards, size = "small") {
  return h("span", { class: `card-row ${size}` }, cards.map((c) => cardEl(c, size)));
}

/** A level (2..14, 15 = no-trump) as a rank name. */
export function levelName(level) {
  if (level >= 2 && level <= 14) return RANKS[level - 2];
  return t("levelNT");
}
