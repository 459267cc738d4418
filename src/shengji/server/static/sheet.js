// The score sheet between rounds, worded from its numbers in the page's language, and the end
// of the match (winners, the record, a new match). The round's result is the view's (the
// finished round stays on the table while people read it), with its last trick and every
// trick; a sheet opened again later is the match's (match.results).
import { cardRow, levelName } from "./cards.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { reviewSection } from "./review.js";
import { trickItem, tricksList } from "./tricks.js";
import { names, seatName, throwText, trumpText } from "./words.js";

function signed(points) {
  return points > 0 ? `+${points}` : String(points);
}

function kittyLine(S, result) {
  if (result.kitty_points === null || result.kitty_points === undefined) {
    return h("p", { class: "kitty-line" }, t("kittyHidden"));
  }
  const cards = result.kitty?.length ? [" ", cardRow(result.kitty, "tiny")] : null;
  const params = { points: result.kitty_points, mult: result.kitty_multiplier,
                   bonus: Math.abs(result.kitty_bonus) };
  let text;
  if (result.kitty_multiplier === 0) {
    text = t(result.lost_by !== null && result.lost_by !== undefined ? "kittyNotCountedLost"
      : "kittyNotCounted", params);
  } else {
    text = t(result.kitty_bonus < 0 ? "kittyToDeclarers" : "kittyLine", params);
  }
  return h("p", { class: "kitty-line" }, text, cards);
}

function stepsText(result) {
  const steps = result.steps;
  if (!steps) return "";
  if (steps.draw) return t("stepsDraw");
  if (!steps.switch) return t("stepsDeclarers", { n: steps.declarers });
  return steps.opponents ? t("stepsOpponents", { n: steps.opponents }) : t("stepsSwitch");
}

/** A round's score sheet, built from its numbers (the same in every language). */
function sheetView(S, result, n) {
  const lines = [];
  if (result.redeal) lines.push(h("p", {}, t("redeal")));
  else {
    lines.push(h("p", { class: "outcome" }, result.declarers_won
      ? t("declarersKeep", { points: result.points })
      : t("opponentsWin", { points: result.points })));
    lines.push(h("p", {}, t("sheetTrump", { dealer: seatName(S, result.dealer) }), " ",
      h("strong", {}, trumpText(result.trump) ?? t("noTrumpYet"))));
    lines.push(h("p", {}, t("sheetTeams", { declarers: names(S, result.declarers),
                                           opponents: names(S, result.opponents) })));
    const scored = (result.tricks ?? []).map((trick, i) => [i + 1, trick])
      .filter(([, trick]) => trick.points);
    if (scored.length) {
      lines.push(h("ul", { class: "sheet-tricks" }, scored.map(([k, trick]) => h("li", {},
        t("sheetTrick", { n: k, name: seatName(S, trick.winner), points: trick.points,
                          side: t(result.opponents.includes(trick.winner) ? "sideOpponents"
                            : "sideDeclarers") })))));
    }
    lines.push(h("p", {}, t("trickPoints", { points: result.trick_points })));
    lines.push(kittyLine(S, result));
    for (const failed of (S.state.match.throws ?? []).filter((f) => f.round === n)) {
      lines.push(h("p", { class: "throw-failed" }, throwText(S, failed)));
    }
    for (const penalty of result.penalties ?? []) {
      lines.push(h("p", {}, t("penaltyLine", { name: seatName(S, penalty.seat),
                                              points: signed(penalty.points) })));
    }
    if (result.last_trick_bonus) {
      lines.push(h("p", {}, t("lastTrickLine", { points: signed(result.last_trick_bonus) })));
    }
    if (result.red_five_points) {
      lines.push(h("p", {}, t("redFiveLine", { points: signed(result.red_five_points) })));
    }
    if (result.lost_by !== null && result.lost_by !== undefined) {
      lines.push(h("p", {}, t("lostBy", { name: seatName(S, result.lost_by) })));
    }
    lines.push(h("p", { class: "total" }, t("totalLine", { points: result.points }), " ",
      stepsText(result)));
    if (result.team_bonus) lines.push(h("p", {}, t("teamBonus")));
    if (result.hooked) lines.push(h("p", {}, t("hooked")));
  }
  if (result.levels_before && result.levels) {
    const changes = result.levels.map((lv, s) => [s, result.levels_before[s], lv])
      .filter(([, a, b]) => a !== b);
    if (changes.length) {
      lines.push(h("ul", { class: "level-changes" }, changes.map(([s, a, b]) => h("li", {},
        t("levelChange", { name: seatName(S, s), from: levelName(a), to: levelName(b) })))));
    }
  }
  if (result.match_won_by?.length) {
    lines.push(h("p", {}, t("matchWonBy", { names: names(S, result.match_won_by) })));
  }
  if (result.wrapped?.length) {
    lines.push(h("p", {}, t("wrappedLine", { names: names(S, [...new Set(result.wrapped)]) })));
  }
  if (result.next_dealer !== undefined) {
    lines.push(h("p", {}, t(result.next_bid_for ? "nextDealerBid" : "nextDealer",
                            { name: seatName(S, result.next_dealer) })));
  }
  return h("div", { class: "sheet-body" },
    h("h2", { id: "sheet-title" }, t("roundOver", { n })),
    lines);
}

/** The finished round's last trick, and every trick on demand. */
function roundTricks(S) {
  const tricks = S.state.view.tricks ?? [];
  if (!tricks.length) return null;
  return h("div", { class: "sheet-round-tricks" },
    h("ul", { class: "tricks-list", id: "sheet-last-trick" },
      trickItem(S, tricks[tricks.length - 1], tricks.length, "lastTrickOf")),
    h("details", { id: "sheet-tricks" },
      h("summary", {}, t("sheetTricks", { n: tricks.length })),
      tricksList(S, "sheet-tricks-list")));
}

function waitingLine(S, act) {
  const waiting = S.state.match.waiting ?? [];
  if (!waiting.length) return null;
  return h("p", { class: "muted", id: "waiting" }, t("waitingReady", { names: names(S, waiting) }),
    S.room?.you?.host ? [" ", h("button", {
      type: "button", class: "small", id: "start-all-btn",
      onclick: () => act.send({ type: "next_round", all: true }),
    }, t("startForAll"))] : null);
}

/** The score sheet between rounds (and the end of the match), over the table; or the last
 * one again, opened from the side panel (S.ui.showSheet), until closed. */
export function overlay(S, act) {
  const match = S.state.match;
  const view = S.state.view;
  const results = match.results ?? [];
  const over = match.over || S.room?.status === "over";
  const mine = (match.waiting ?? []).includes(view.seat);
  const unread = (over && !S.ui.overClosed) || mine || results.length > S.sheetAck;
  if (!unread && !(S.ui.showSheet && results.length)) return null;
  const closeSheet = () => {
    if (over) {  // closed until another match ends (the side panel opens it again)
      S.ui.overClosed = true;
      S.sheetAck = results.length;
    }
    S.ui.showSheet = false;
    act.render();
  };
  const result = view.result ?? results[results.length - 1];
  const body = [];
  if (result) body.push(sheetView(S, result, results.length));
  if (view.result) body.push(roundTricks(S));
  body.push(reviewSection(S, act, results.length));
  if (over) {
    body.push(h("h2", { id: "match-over" }, t("matchOver")),
      h("p", {}, t("winners", { names: names(S, match.winners ?? []) })),
      h("p", {}, h("a", { href: `/api/rooms/${S.code}/record`, id: "download-record",
                          download: `shengji-${S.code}.toml` }, t("download"))),
      S.room?.you?.host
        ? h("button", { type: "button", class: "primary", id: "new-match-btn",
                        onclick: () => act.send({ type: "new_match" }) }, t("newMatch"))
        : h("p", { class: "muted" }, t("waitNewMatch")),
      h("button", { type: "button", id: "close-sheet-btn", onclick: closeSheet },
        t("closeSheet")));
  } else if (unread) {
    body.push(waitingLine(S, act));
    body.push(h("button", { type: "button", class: "primary", id: "next-round-btn",
                            onclick: () => act.nextRound() }, t("nextRound")));
  } else {
    body.push(h("button", { type: "button", class: "primary", id: "close-sheet-btn",
                            onclick: closeSheet },
    t("closeSheet")));
  }
  return h("div", { class: "overlay", role: "dialog", "aria-modal": "true",
                    "aria-labelledby": over ? "match-over" : "sheet-title", id: "sheet" },
    h("div", { class: "sheet panel" }, body));
}
