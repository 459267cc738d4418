// "Review this round" on the score sheet: the server's analysis of the player's own
// decisions in the last finished round (asked for with `review`, sent to this seat only),
// worded in the page's language. The figures are the server's; nothing is judged here.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { moveText } from "./words.js";

/** The notation of the option of ``d`` labelled ``label``. */
function actionOf(d, label) {
  return d.options.find((o) => o.label === label).action;
}

function when(d) {
  const kind = t(`reviewKind_${d.kind}`);
  return d.trick ? t("reviewTrick", { n: d.trick, kind }) : kind;
}

function row(d, n) {
  const same = d.best === d.played;
  return h("tr", { class: d.mark ? `mark-${d.mark}` : null },
    h("td", {}, String(n)), h("td", {}, when(d)), h("td", {}, moveText(d.options[0].action)),
    h("td", {}, same ? "=" : moveText(actionOf(d, d.best))),
    h("td", { class: "num" }, d.worlds ? [h("span", {}, d.cost.toFixed(2)), " ",
      h("span", {}, `± ${d.error.toFixed(2)}`)] : "?"),
    h("td", {}, d.mark ? t(`mark_${d.mark}`) : ""));
}

function table(decisions, id) {
  return h("table", { class: "review-table", id },
    h("thead", {}, h("tr", {}, ["#", t("reviewWhen"), t("reviewPlayed"), t("reviewBest"),
      t("reviewCost"), t("reviewMark")].map((name) => h("th", {}, name)))),
    h("tbody", {}, decisions.map(([d, n]) => row(d, n))));
}

/** The review's panel: the marks in a sentence, the decisions where a better move was found,
 * and every decision on demand. */
function panel(review) {
  const round = review.analysis.rounds[0];
  const title = h("h3", {}, t("reviewTitle", { n: review.round }));
  const standIn = round.skipped
    ? h("p", { id: "review-stand-in", class: "muted" }, t("reviewStandIn", { n: round.skipped }))
    : null;
  if (!round.decisions.length) {
    return h("section", { id: "review-panel", class: "review" }, title,
      standIn ?? h("p", { id: "review-summary" }, t("reviewNone")));
  }
  const numbered = round.decisions.map((d, i) => [d, i + 1]);
  const count = (mark) => round.decisions.filter((d) => d.mark === mark).length;
  const lost = round.decisions.filter((d) => d.clear).reduce((a, d) => a + d.cost, 0);
  const worse = numbered.filter(([d]) => d.clear);
  return h("section", { id: "review-panel", class: "review" }, title,
    h("p", { id: "review-summary" }, t("reviewSummary", {
      n: round.decisions.length, inaccuracies: count("inaccuracy"), mistakes: count("mistake"),
      blunders: count("blunder"), lost: lost.toFixed(2) })),
    worse.length ? table(worse, "review-worse") : h("p", {}, t("reviewClean")),
    h("details", { id: "review-all" },
      h("summary", {}, t("reviewAll", { n: round.decisions.length })),
      table(numbered, "review-all-table")),
    standIn, h("p", { class: "muted" }, t("reviewHow", { n: review.analysis.budget })));
}

/** On the score sheet of a seated player: the button that asks for the review of the last
 * finished round (`count`), then its panel. The button is offered while the server shows the
 * finished round (`view.result`, between rounds) or the match is over: once the next round
 * has begun the server makes no new review. */
export function reviewSection(S, act, count) {
  const view = S.state?.view;
  if (view?.seat === null || view?.seat === undefined || !count) return null;
  if (S.review?.round === count) return panel(S.review);
  if (!view.result && !S.state.match?.over && !S.reviewing) return null;
  return h("p", {}, h("button", {
    type: "button", id: "review-btn", disabled: S.reviewing || null,
    onclick: () => act.review(),
  }, S.reviewing ? t("reviewing") : t("reviewRound")));
}
