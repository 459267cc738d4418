// How the table names things in the page's language: seats, phases, lists of seats, friend
// calls, the trump and suits (shared by the table, the side panel and the score sheet).
import { cardsInline, cardText, SUIT_SYMBOLS } from "./cards.js";
import { h } from "./dom.js";
import { has, t } from "./i18n.js";
import { kindTitle } from "./lobby.js";
import { reasonText } from "./reasons.js";

/** A seat's display name (a computer player's in the page's language). */
export function seatName(S, seat) {
  if (seat === null || seat === undefined) return "—";
  const info = S.room?.seats?.[seat];
  if (info?.kind === "bot") return `${kindTitle(info.bot)} ${seat}`;
  return info?.name ? info.name : t("seat", { n: seat });
}

/** A failed throw of match.throws for the event log: whose throw, why it failed and what
 * happened instead, in the page's language. */
export function throwText(S, failed) {
  const why = failed.why.map((w) => reasonText(w, w.text, (seat) => seatName(S, seat)));
  return t("log_throwFailed", { name: seatName(S, failed.seat),
                                why: why.join(t("reasonSep")) });
}

/** A phase's name. */
export function phaseName(phase) {
  return has(`phase_${phase}`) ? t(`phase_${phase}`) : phase;
}

/** Seats' names as a list ("none yet" for none). */
export function names(S, seats) {
  return seats.length ? seats.map((s) => seatName(S, s)).join(t("listSep")) : t("none");
}

/** A friend call for people: "1st AS" → "1st A♠" (第 1 张 A♠), "2nd red K" → "2nd red K"
 * (第 2 张红 K). */
export function callText(call) {
  const colour = call.match(/^(\d+)\S*\s+(black|red)\s+(\S+)$/i);
  if (colour) {
    const n = Number(colour[1]);
    return t("colourCall", { nth: t("nthCopy", { n, ord: ordinalText(n) }),
                             colour: t(colour[2].toLowerCase()), rank: colour[3] });
  }
  const match = call.match(/^(\d+)\S*\s+(\S+)$/);
  if (!match) return call;
  const n = Number(match[1]);
  return `${t("nthCopy", { n, ord: ordinalText(n) })} ${cardText(match[2])}`;
}

/** Friend calls of the record notation ("1st AS, 2nd red K") in the page's words. */
export function callsText(text) {
  return text.split(",").map((c) => callText(c.trim())).join(t("listSep"));
}

/** A move of the record notation ("0 play KS KS", "0 call 1st AS", "0 declare NT") in the
 * page's words, without its seat, the cards drawn with their suits ("draw": not bidding). */
export function moveText(action) {
  const [, verb, ...rest] = action.split(" ");
  const cards = rest.filter(Boolean);
  if (verb === "play") return cardsInline(cards);
  if (verb === "draw") return t("reviewNoBid");
  if (verb === "declare") return t("move_declare", { suit: suitWord(cards[0]) });
  if (verb === "call") return t("move_call", { calls: callsText(cards.join(" ")) });
  if (["bid", "bury", "expose"].includes(verb) && cards.length) {
    return [t(`verb_${verb}`), " ", cardsInline(cards)];
  }
  return t(verb === "expose" ? "move_exposeNone" : `move_${verb}`);
}

/** "1st", "2nd"... (English ordinals of the record notation). */
export function ordinalText(n) {
  return n === 1 ? "1st" : n === 2 ? "2nd" : n === 3 ? "3rd" : `${n}th`;
}

/** The trump for people: a coloured "2♥", "2, no trump suit", "no trump". */
export function trumpText(trump) {
  if (!trump) return null;
  if (trump.rank && trump.suit) {
    const red = trump.suit === "H" || trump.suit === "D";
    return h("span", { class: red ? "red" : "black" }, trump.rank + SUIT_SYMBOLS[trump.suit]);
  }
  if (trump.rank) return t("rankNoTrump", { rank: trump.rank });
  return t("noTrump");
}

/** A suit letter ("NT" too) as a symbol and word. */
export function suitWord(letter) {
  return letter === "NT" ? t("noTrump") : `${SUIT_SYMBOLS[letter]} ${t(`suit${letter}`)}`;
}
