// The round's tricks for looking back (the side panel's Tricks tab, the score sheet: each
// trick's plays by player name, its winner and points, from view.tricks), and the points bar:
// the opponents' points against the level table the server sends from the engine's scoring
// (room.level_table), never a threshold of its own.
import { cardRow } from "./cards.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { seatName } from "./words.js";

/** One finished trick: who played what (the winner marked), the winner and the points. */
export function trickItem(S, trick, n, heading = "trickWonBy") {
  return h("li", { class: "trick-item", dataset: { trick: n, winner: trick.winner } },
    h("p", { class: "trick-head" }, t(heading, { n, name: seatName(S, trick.winner),
                                                 points: trick.points })),
    h("ul", { class: "trick-plays" }, trick.plays.map((p) => h("li", {
      class: p.seat === trick.winner ? "winner" : "", dataset: { seat: p.seat },
    }, h("span", { class: "who" }, seatName(S, p.seat)), " ", cardRow(p.cards, "tiny")))));
}

/** Every finished trick of the round on the table (the last first when `latestFirst`). */
export function tricksList(S, id, latestFirst = false) {
  const tricks = S.state.view.tricks ?? [];
  if (!tricks.length) return h("p", { class: "muted", id }, t("noTricks"));
  const items = tricks.map((trick, i) => trickItem(S, trick, i + 1));
  return h("ol", { class: "tricks-list", id }, latestFirst ? items.reverse() : items);
}

/** A level table row's outcome in words, and in a few signs for the bar. */
function outcome(row) {
  if (row.draw) return [t("level_draw"), "="];
  if (!row.switch) return [t("level_declarers", { n: row.declarers }), `+${row.declarers}`];
  if (!row.opponents) return [t("level_switch"), "⇄"];
  return [t("level_opponents", { n: row.opponents }), `⇄+${row.opponents}`];
}

/** The opponents' points so far against the level table's rows. */
export function pointsBar(S) {
  const table = S.room?.level_table;
  const view = S.state.view;
  if (!table?.rows?.length || !table.max) return null;
  const points = view.result ? view.result.points : view.attacker_points ?? 0;
  const top = table.max;
  const at = (p) => `${(Math.max(0, Math.min(p, top)) / top) * 100}%`;
  const rows = table.rows;
  const segments = rows.map((row, i) => {
    const end = i + 1 < rows.length ? rows[i + 1].points : top;
    const [words, sign] = outcome(row);
    const side = row.draw ? "draw" : row.switch ? "opponents" : "declarers";
    const reached = points >= row.points && (i + 1 >= rows.length || points < end);
    const narrow = (Math.min(end, top) - row.points) / top < 0.06 ? " narrow" : "";
    return h("span", {
      class: `seg ${side}${reached ? " reached" : ""}${narrow}`,
      title: t("barMark", { points: row.points, outcome: words }),
      dataset: { points: row.points },
      style: `left: ${at(row.points)}; width: calc(${at(end)} - ${at(row.points)})`,
    }, h("span", { class: "seg-words", "aria-hidden": "true" }, words),
    h("span", { class: "seg-sign", "aria-hidden": "true" }, sign),
    h("span", { class: "sr-only" }, t("barMark", { points: row.points, outcome: words })));
  });
  return h("section", { class: "points-bar", id: "points-bar", "aria-label": t("pointsBar") },
    h("div", { class: "bar", role: "meter", "aria-valuemin": 0, "aria-valuemax": top,
               "aria-valuenow": Math.max(0, points), "aria-label": t("pointsBar"),
               "aria-valuetext": t("barNow", { points }) },
    segments,
    h("span", { class: "bar-fill", style: `width: ${at(points)}` }),
    h("span", { class: "bar-now", style: `left: ${at(points)}`, title: t("barNow", { points }) })));
}
