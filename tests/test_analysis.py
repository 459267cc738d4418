"""``shengji analyze`` and :mod:`shengji.analysis`: every decision of the seat judged once,
in order, from what it knew; the figures, the marks, JSON, determinism; open hands
labelled; rounds in progress refused; the command and the terminal's ``review``."""

from __future__ import annotations

import io
import json
import pickle
import sys
from collections.abc import Iterator
from dataclasses import replace
from itertools import islice
from pathlib import Path
from random import Random

import pytest
from rich.console import Console

from flow_helpers import deal, endgame_round, pass_round, stacked
from shengji import analysis, cli
from shengji.analysis import (
    CLEAR_WORLDS,
    CONFIDENCE,
    IN_PROGRESS,
    MARKS,
    Analysis,
    AnalysisError,
    Decision,
    analyze,
    assess,
    clear,
    label,
    mark,
)
from shengji.engine.cards import Card, parse_cards
from shengji.engine.rules import Rules
from shengji.game.actions import Action, Bid, Bury, Play, parse_action
from shengji.game.deal import Deal
from shengji.game.legal import Legal
from shengji.game.match import Match
from shengji.game.phase import Phase
from shengji.game.presets import preset
from shengji.game.record import Record, RecordError, replay, save_record
from shengji.game.round import Round
from shengji.game.scoresheet import RoundResult
from shengji.game.view import SeatView
from shengji.players.heuristic import HeuristicPlayer
from shengji.players.search import SearchPlayer
from shengji.players.table import decide, play_match
from shengji.players.worlds import Knowledge
from shengji.terminal.prompt import Prompter
from shengji.terminal.session import Session

BUDGET = 3
SHORT_TRACTOR = preset("tractor", removed_ranks=(2, 3, 4))
"""Tractor without its 2s, 3s and 4s: 19 cards a hand, every kind of decision."""


def _match(rounds: int = 1, seed: int = 1) -> Match:
    return play_match(SHORT_TRACTOR, [HeuristicPlayer(s) for s in range(4)], seed=seed,
                      max_rounds=rounds)


@pytest.fixture(scope="module")
def game() -> tuple[Record, int, Analysis]:
    """A one-round record of heuristic players, its dealer (who bids, buries, leads and
    follows) and the dealer's analysis."""
    match = _match()
    record = Record.of(match)
    seat = match.results[0].dealer
    return record, seat, analyze(record, seat, budget=BUDGET, seed=0)


def _decisions(record: Record, seat: int) -> Iterator[tuple[int, SeatView, Action]]:
    """The seat's moves with a choice, found apart from the module: the index, the seat's
    view before the move, the move."""
    match = record.match()
    for index, action in enumerate(record.actions):
        if action.seat == seat:
            legal = list(islice(iter(match.legal(seat)), 2))
            out_of_turn = match.round.phase == Phase.DEAL and match.round.drawer != seat
            if len(legal) + out_of_turn > 1:
                yield index, match.view(seat), action
        match.apply(action)


@pytest.mark.slow
def test_every_decision_of_the_seat_appears_once_in_order(game: tuple[Record, int, Analysis]
                                                          ) -> None:
    record, seat, result = game
    expected = [(index, action) for index, _, action in _decisions(record, seat)]
    assert [d.index for d in result.decisions] == [index for index, _ in expected]
    kinds = {d.kind for d in result.decisions}
    assert {"bid", "bury", "lead", "follow"} <= kinds
    for decision, (_, action) in zip(result.decisions, expected, strict=True):
        assert decision.played == label(action, seat) == decision.options[0].label
        assert decision.options[0].action == str(action)
        assert len(decision.options) >= 2
        assert decision.best in [o.label for o in decision.options]
        assert decision.round == 1 and decision.worlds == BUDGET
        assert (decision.trick is not None) == (decision.kind in ("lead", "follow"))


def test_the_figures_add_up_and_the_marks_follow_the_thresholds(
        game: tuple[Record, int, Analysis]) -> None:
    _, _, result = game
    for d in result.decisions:
        chosen = max(d.options, key=lambda o: o.value)  # the best in the worlds that chose
        assert d.best in (d.played, chosen.label)
        assert d.cost >= 0 and d.error >= 0 and d.points_error >= 0
        assert d.cost == pytest.approx(d.cost_levels + d.cost_points / 100, abs=1e-9)
        assert d.levels_error >= 0 and d.levels_error <= d.error + d.points_error / 100 + 1e-9
        assert d.value == pytest.approx(d.options[0].value, abs=1e-9)
        enough = d.cost_worlds >= CLEAR_WORLDS  # (this fixture's 3 worlds are too few)
        assert d.clear == (clear(d.cost, d.error) and enough)
        assert d.mark == (mark(d.cost, d.error) if d.clear else None)
        if d.best == d.played:
            assert d.cost == d.cost_levels == d.cost_points == 0 and d.cost_worlds == 0
            assert d.error == d.levels_error == d.points_error == 0
            assert not d.clear and d.mark is None
        else:
            assert d.cost > 0 and d.cost_worlds == BUDGET  # measured on fresh worlds
    assert result.rounds[0].total == pytest.approx(
        sum(d.cost for d in result.decisions if d.clear))


def test_marks() -> None:
    assert dict(MARKS) == {"blunder": 0.6, "mistake": 0.3, "inaccuracy": 0.1}
    assert [mark(c, 0.0) for c in (0.0, 0.09, 0.1, 0.29, 0.3, 0.59, 0.6, 2.0)] == [
        None, None, "inaccuracy", "inaccuracy", "mistake", "mistake", "blunder", "blunder"]
    # a cost of 10 points is an inaccuracy however the sums round it (0.0999...98 here)
    assert [mark(a - b, 0.0) for a, b in ((2.2, 2.1), (1.3, 1.2), (1.9, 1.6), (0.7, 0.1))
            ] == ["inaccuracy", "inaccuracy", "mistake", "blunder"]
    assert CONFIDENCE == 2  # noise is not marked: a cost must pass two standard errors
    assert mark(0.7, 0.35) is None and mark(0.7, 0.34) == "blunder"
    assert not clear(0.7, 0.35) and clear(0.7, 0.34) and not clear(0.0, 0.0)


@pytest.mark.slow
def test_json_and_pickle_round_trip_and_the_same_seed_gives_the_same_analysis(
        game: tuple[Record, int, Analysis]) -> None:
    record, seat, result = game
    assert Analysis.from_json(result.to_json()) == result
    assert pickle.loads(pickle.dumps(result)) == result
    data = json.loads(result.to_json())
    assert data["format"] == "shengji-analysis" and data["thresholds"]["mistake"] == 0.3
    assert analyze(record, seat, budget=BUDGET, seed=0, rounds=[1]) == result


@pytest.mark.slow
def test_a_decision_is_judged_from_the_seats_view_and_legal_alone(
        game: tuple[Record, int, Analysis], monkeypatch: pytest.MonkeyPatch) -> None:
    """By construction: :func:`analysis.judge` gets the view and the legal actions of the
    seat at that point of the replay, and the move played, and nothing else."""
    record, seat, result = game
    calls: list[tuple[SeatView, Legal, Action]] = []
    judge = analysis.judge

    def spy(view: SeatView, legal: Legal, played: Action, **kw: int
            ) -> tuple[list[Action], list[list[tuple[float, float]]]]:
        assert set(kw) == {"budget", "seed", "index", "limit"}
        calls.append((view, legal, played))
        return judge(view, legal, played, **kw)

    monkeypatch.setattr(analysis, "judge", spy)
    assert analyze(record, seat, budget=BUDGET, seed=0) == result
    expected = list(_decisions(record, seat))
    assert len(calls) == len(expected)
    for (view, legal, played), (_, seen, action) in zip(calls, expected, strict=True):
        assert view == seen and view.seat == legal.seat == seat
        assert played == action


def _deal(record: Record) -> Deal:
    """The first round's cards of ``record`` as a deal."""
    rnd = record.match().round
    n, dealt = record.rules.players, len(rnd.deck) - record.rules.kitty_size
    hands = tuple(tuple(rnd.deck[i] for i in range(dealt) if (rnd.first_drawer + i) % n == s)
                  for s in range(n))
    return Deal(hands, rnd.deck[dealt:], rnd.first_drawer)


def _single(hand: tuple[Card, ...]) -> set[Card]:
    return {c for c in hand if hand.count(c) == 1}


def _swapped(record: Record, seat: int) -> tuple[Record, int]:
    """The record with a card of one other seat's hand swapped with one of another's (in
    the deal and in their plays): a deal the seat cannot tell from the real one until one of
    them is played. Returns it and the index of the first play of either card."""
    deal = _deal(record)
    assert replay(replace(record, deal=deal)).history == replay(record).history
    others = [s for s in range(record.rules.players) if s != seat]
    bid = {c for a in record.actions if isinstance(a, Bid) for c in a.cards}
    played: dict[tuple[int, Card], int] = {}
    for index, action in enumerate(record.actions):
        if isinstance(action, Play):
            for card in action.cards:
                played.setdefault((action.seat, card), index)
    pairs = sorted(((min(played[(a, x)], played[(b, y)]), a, x, b, y)
                    for a in others for b in others if a < b
                    for x in _single(deal.hands[a]) - set(deal.hands[b]) - bid
                    for y in _single(deal.hands[b]) - set(deal.hands[a]) - bid
                    if x.suit == y.suit and (a, x) in played and (b, y) in played),
                   key=lambda p: -p[0])
    for cutoff, a, x, b, y in pairs[:200]:
        hands = [list(h) for h in deal.hands]
        hands[a][hands[a].index(x)] = y
        hands[b][hands[b].index(y)] = x

        def swap(action: Action, a: int = a, b: int = b, x: Card = x, y: Card = y) -> Action:
            if isinstance(action, Play) and action.seat in (a, b):
                old, new = (x, y) if action.seat == a else (y, x)
                return Play(action.seat, tuple(new if c == old else c for c in action.cards))
            return action

        other = replace(record, deal=Deal(tuple(map(tuple, hands)), deal.kitty,
                                          deal.first_drawer),
                        actions=tuple(map(swap, record.actions)))
        try:
            replay(other)
        except RecordError:
            continue
        return other, cutoff
    raise AssertionError("no swap of hidden cards replays")  # pragma: no cover


@pytest.mark.slow
def test_hidden_cards_the_seat_cannot_see_change_nothing_until_revealed(
        game: tuple[Record, int, Analysis]) -> None:
    record, seat, result = game
    other, cutoff = _swapped(record, seat)
    before = [d for d in result.decisions if d.index < cutoff]
    assert len(before) >= 5
    again = analyze(other, seat, budget=BUDGET, seed=0)
    assert [d for d in again.decisions if d.index < cutoff] == before


# -- positions whose right play is known ---------------------------------------------------

SHORT_PACK = Rules(decks=1, removed_ranks=(2, 3, 4), kitty=26)
"""One deck without its 2s, 3s and 4s (42 cards): four hands of 4 cards and a kitty of 26."""


def short_pack_round(hands: list[str]) -> Round:
    """A round of :data:`SHORT_PACK` in the play phase where seat ``i`` holds exactly
    ``hands[i]``; seat 0, the dealer, has buried the rest. Nobody bid; the kitty's 9♠ made
    spades trumps (with the 9s and the jokers), the dealer's side plays 9s."""
    rnd = stacked(SHORT_PACK, hands, kitty="9S", dealer=0, levels=(9, 5, 9, 5))
    deal(rnd)
    pass_round(rnd)
    rest = rnd.hands[0].copy()
    rest.remove(parse_cards(hands[0]))
    rnd.apply(Bury(0, tuple(rest.cards())))
    assert rnd.phase == Phase.PLAY and rnd.trump.suit is not None
    return rnd


def pointless_kitty(rnd: Round) -> bool:
    """Whether the hands hold every point card (a last trick then decides nothing but its
    own points)."""
    return sum(c.points for c in rnd.kitty) == 0


def judged(rnd: Round, seat: int, cards: str) -> Decision:
    """The analysis of ``seat`` playing ``cards`` now (48 worlds to choose, 48 to cost)."""
    played = parse_action(f"{seat} play {cards}")
    return assess(rnd.view(seat), rnd.legal(seat), played, budget=48, seed=0)


@pytest.mark.slow
def test_cashing_a_sure_winner_is_unmarked_and_giving_the_lead_away_is_marked() -> None:
    """The dealer holds the only A♥ while every heart of the others, 25 points, is out;
    leading a low club instead gives the lead to the defenders, whose clubs are higher and
    whose spades ruff the A♥ once they are void in hearts."""
    rnd = short_pack_round(["AH 6C 7C 5D", "KH AC 10C 5S", "5H KS 10D KD", "10H KC 5C 10S"])
    assert pointless_kitty(rnd)
    right = judged(rnd, 0, "AH")
    assert right.best == right.played and right.cost == 0 and right.mark is None
    for wrong in ("6C", "7C"):
        decision = judged(rnd, 0, wrong)
        assert decision.best == "play AH" and decision.clear and decision.mark is not None


@pytest.mark.slow
def test_feeding_a_partner_who_has_won_the_trick_is_unmarked_and_not_feeding_is_marked(
        ) -> None:
    """Seat 1 won the trick with the only A♥; its partner, last to play, adds 10 points
    with its K♥ or 10♥. Its 8♥ gives nothing, and the points kept fall to the dealer's
    trumps later."""
    rnd = short_pack_round(["6H 5D KS 10S", "AH KC 10C 5S", "7H 5H 10D KD", "KH 8H 10H 5C"])
    assert pointless_kitty(rnd)
    for line in ("0 play 6H", "1 play AH", "2 play 7H"):
        rnd.apply(parse_action(line))
    for right in ("KH", "10H"):
        decision = judged(rnd, 3, right)
        assert decision.best == decision.played and decision.mark is None
    wrong = judged(rnd, 3, "8H")
    assert wrong.best in ("play KH", "play 10H") and wrong.mark == "blunder"


@pytest.mark.slow
def test_keeping_the_kitty_safe_is_unmarked_and_giving_it_away_is_a_blunder() -> None:
    """Two cards left and a kitty of 100 cards rich in points. The dealer's partner could
    ruff seat 1's K♣ with its big joker, but would then lead its 4♥ to the last trick and
    lose the kitty, doubled: it discards the 4♥ and keeps the joker for the last trick."""
    rnd = endgame_round(["3C 5D", "KC 6D", "BJ 4H", "6C 7D"])
    for line in ("0 play 3C", "1 play KC"):
        rnd.apply(parse_action(line))
    right = judged(rnd, 2, "4H")
    assert right.best == right.played and right.mark is None
    wrong = judged(rnd, 2, "BJ")
    assert wrong.best == "play 4H" and wrong.mark == "blunder" and wrong.cost > 3


def test_the_hidden_kitty_and_the_stock_change_nothing() -> None:
    """Two rounds that differ only in cards the seat cannot see, the kitty and another
    hand (in play) or the cards still to be drawn (during the deal), are judged alike."""
    first = short_pack_round(["AH 6C 7C 5D", "KH AC 10C 5S", "5H KS 10D KD", "10H KC 5C 10S"])
    other = short_pack_round(["AH 6C 7C 5D", "KH AC 10C 5S", "5H KS 10D KD", "10H KC 5C JS"])
    assert first.kitty != other.kitty and first.hands[3] != other.hands[3]
    for rnd in (first, other):
        rnd.apply(parse_action("0 play AH"))
    assert first.view(1) == other.view(1)
    assert judged(first, 1, "KH") == judged(other, 1, "KH")
    drawing = [stacked(SHORT_PACK, ["", "5H 6H 7H"], dealer=0, fill_seed=f) for f in (1, 2)]
    for rnd in drawing:
        deal(rnd, leave=len(rnd.deck) - SHORT_PACK.kitty_size - 9)  # nine cards drawn
    assert drawing[0].deck != drawing[1].deck and drawing[0].view(1) == drawing[1].view(1)
    view = drawing[0].view(1)
    played = next(iter(drawing[0].legal(1)))
    assert assess(view, drawing[0].legal(1), played, budget=4) == assess(
        drawing[1].view(1), drawing[1].legal(1), played, budget=4)


@pytest.mark.slow
def test_open_hands_are_labelled_and_exact(game: tuple[Record, int, Analysis]) -> None:
    record, seat, result = game
    opened = analyze(record, seat, seed=0, open_hands=True)
    assert opened.open_hands and not result.open_hands
    assert "open hands" in opened.mode and "actual deal" in opened.mode
    assert "open" not in result.mode and f"what seat {seat} knew" in result.mode
    assert [d.index for d in opened.decisions] == [d.index for d in result.decisions]
    assert all(d.worlds == 1 and d.error == 0 for d in opened.decisions)
    # exact: any cost that reaches a threshold is marked, though measured in one world
    assert all(d.clear == (d.cost > 0) for d in opened.decisions)
    assert all(d.mark == mark(d.cost, 0.0) for d in opened.decisions)


def test_moves_the_seat_did_not_choose_are_left_out(game: tuple[Record, int, Analysis]
                                                    ) -> None:
    """``skip``: a computer's moves for an absent person are not judged, only counted (and
    an analysis written before the count reads back with none)."""
    record, seat, result = game
    indices = [d.index for d in result.decisions]
    skip = {indices[0], indices[-1], indices[-1] + 1}  # (the last: another seat's move)
    left = analyze(record, seat, budget=1, seed=0, skip=skip)
    assert [d.index for d in left.decisions] == indices[1:-1]
    assert left.rounds[0].skipped == 2 and result.rounds[0].skipped == 0
    assert "(1 sampled deal per decision)" in left.mode
    assert Analysis.from_json(left.to_json()) == left
    older = left.to_dict()
    del older["rounds"][0]["skipped"]
    assert Analysis.from_dict(older).rounds[0].skipped == 0


def test_the_library_refuses_what_it_cannot_judge(game: tuple[Record, int, Analysis]
                                                 ) -> None:
    """Every refusal is an AnalysisError saying what was wrong, never a wrong answer."""
    record, seat, result = game
    match = record.match()
    while match.round.phase != Phase.PLAY or match.round.to_move != seat:
        match.apply(record.actions[len(match.history)])
    view, legal = match.view(seat), match.legal(seat)
    held = set(view.hand)
    missing = next(c for c in parse_cards("AS KS QS JS 10S AH KH QH JH 10H") if c not in held)
    for move in (Play(seat, (missing,)), Play((seat + 1) % 4, (missing,))):
        with pytest.raises(AnalysisError, match="cannot be judged here"):
            assess(view, legal, move, budget=1)
    for kwargs, said in (({"budget": 1.5}, "budget must be a whole number of at least 1"),
                         ({"budget": "2"}, "budget must be"),
                         ({"candidates": 0}, "candidates must be"),
                         ({"seed": -1}, "seed must be a whole number of at least 0"),
                         ({"rounds": ["1"]}, "a round is a whole number from 1, got '1'"),
                         ({"rounds": []}, "no round asked for"),
                         ({"skip": "12"}, "skip holds positions"),
                         ({"skip": [1.0]}, "skip holds positions")):
        with pytest.raises(AnalysisError, match=said):
            analyze(record, seat, **kwargs)  # type: ignore[arg-type]
    good = json.loads(result.to_json())
    bad_cost = json.loads(result.to_json())
    bad_cost["rounds"][0]["decisions"][0]["cost"] = "lots"
    bad_option = json.loads(result.to_json())
    bad_option["rounds"][0]["decisions"][0]["options"][0]["value"] = None
    for text in ("{}", '{"format": "shengji-analysis"}', "[1]", "not json", "[" * 100_000,
                 json.dumps({**good, "rounds": [{"number": 1}]}),
                 json.dumps({**good, "seat": "zero"}), json.dumps({**good, "budget": None}),
                 json.dumps({**good, "rounds": {}}), json.dumps(bad_cost),
                 json.dumps(bad_option)):
        with pytest.raises(AnalysisError, match="analysis"):
            Analysis.from_json(text)
    assert Analysis.from_json(json.dumps(good)) == result


def test_a_cost_sampled_on_too_few_worlds_is_never_clear(
        game: tuple[Record, int, Analysis]) -> None:
    """With one world per decision a cost has no standard error: it is shown, not marked."""
    record, seat, _ = game
    once = analyze(record, seat, budget=1, seed=0)
    assert any(d.cost > 0.1 for d in once.decisions)
    assert not any(d.clear or d.mark for d in once.decisions) and once.rounds[0].total == 0


@pytest.mark.parametrize(("name", "reads"), [("da-bai-fen", True), ("tractor", False)])
def test_the_worlds_read_the_hidden_kitty_where_the_search_player_does(
        name: str, reads: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    rules = preset(name)
    assert SearchPlayer(0).reads_kitty(rules) is reads
    match = Match(rules, seed=2, max_rounds=1)
    players = [HeuristicPlayer(s) for s in range(4)]
    while match.round.phase != Phase.PLAY or match.to_move == match.round.kitty_owner:
        seat = match.to_move
        assert seat is not None
        match.apply(decide(match, seat, players[seat]))
    seat = match.to_move
    assert seat is not None
    asked: list[bool] = []
    sample = analysis.sample_world

    def spy(knowledge: Knowledge, rng: Random, *, read_kitty: bool = False) -> Round | None:
        asked.append(read_kitty)
        return sample(knowledge, rng, read_kitty=read_kitty)

    monkeypatch.setattr(analysis, "sample_world", spy)
    view, legal = match.view(seat), match.legal(seat)
    moves, rows = analysis.judge(view, legal, next(iter(legal)), budget=2, seed=0, index=0)
    assert asked == [reads, reads] and len(rows) == 2 and moves


def test_a_round_in_progress_is_neither_analysed_nor_revealed() -> None:
    record = Record.of(_match(rounds=2))
    match = record.match()
    while not match.results:
        match.apply(record.actions[len(match.history)])
    ends = len(match.history) - 1  # the last move of round 1
    mid_first = replace(record, actions=record.actions[:ends - 10])
    with pytest.raises(AnalysisError, match=f"round 1 is in progress: {IN_PROGRESS}"):
        analyze(mid_first, 0, budget=1)
    mid_second = replace(record, actions=record.actions[:ends + 40])
    with pytest.raises(AnalysisError, match=f"round 2 is in progress: {IN_PROGRESS}"):
        analyze(mid_second, 0, budget=1, rounds=[2])
    with pytest.raises(AnalysisError, match="no round 3"):
        analyze(mid_second, 0, budget=1, rounds=[3])
    with pytest.raises(AnalysisError, match="seat"):
        analyze(mid_second, 4, budget=1)
    done = analyze(mid_second, 0, budget=1, candidates=1)
    assert [r.number for r in done.rounds] == [1] and done.in_progress == 2
    assert all(d.index < ends + 1 for d in done.decisions)


def _write(tmp_path: Path) -> Path:
    path = tmp_path / "game.toml"
    save_record(_match(), path, names=["Ann", "Bo", "Cy", "Di"],
                kinds=["bot", "human", "bot", "bot"])
    return path


@pytest.mark.slow
def test_the_command_prints_the_table_and_writes_json_and_a_plot(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
        ) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    path = _write(tmp_path)
    out_json, out_png = tmp_path / "a.json", tmp_path / "a.png"
    code = cli.main(["analyze", str(path), "--budget", "1", "--candidates", "2",
                     "--json", str(out_json), "--plot", str(out_png)])
    text = capsys.readouterr().out
    assert code == 0
    assert "Round 1, seat 1 (Bo): judged from what seat 1 knew" in text  # the human seat
    assert "best found" in text and "Marks: inaccuracy from 0.1" in text
    saved = Analysis.from_json(out_json.read_text(encoding="utf-8"))
    assert saved.seat == 1 and saved.budget == 1 and saved.decisions
    assert out_png.read_bytes()[:4] == b"\x89PNG"
    assert cli.main(["analyze", str(path), "--seat", "1", "--open", "--round", "1"]) == 0
    text = capsys.readouterr().out
    assert "open hands: judged with every hand as the finished round revealed it" in text
    assert "best − played in the actual deal" in text  # the legend of exact costs
    assert "standard error" not in text and "fresh deals" not in text


def test_the_plot_names_each_mark_in_its_legend_once(game: tuple[Record, int, Analysis]
                                                     ) -> None:
    pytest.importorskip("matplotlib")
    from shengji.analyze_cli import figure

    _, _, result = game
    first = result.rounds[0]
    marked = tuple(replace(d, mark="blunder") if i < 2 else replace(d, mark=None)
                   for i, d in enumerate(first.decisions))
    fig = figure(replace(result, rounds=(replace(first, decisions=marked),)))
    labels = fig.axes[0].get_legend_handles_labels()[1]
    assert labels.count("blunder") == 1 and "mistake" not in labels
    assert "round 1" in labels and "round 1: the result" in labels


@pytest.mark.parametrize("problem", ["garbage", "missing", "seat", "round", "plot", "option"])
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch, problem: str
                                          ) -> None:
    path = _write(tmp_path)
    args = ["analyze", str(path), "--budget", "1"]
    if problem == "garbage":
        path.write_text("format = 'shengji-record'\nversion = [", encoding="utf-8")
    elif problem == "missing":
        args[1] = str(tmp_path / "none.toml")
    elif problem == "seat":
        args += ["--seat", "7"]
    elif problem == "round":
        args += ["--round", "2"]
    elif problem == "option":
        args += ["--bogus"]
    else:
        monkeypatch.setitem(sys.modules, "matplotlib.backend_bases", None)
        args += ["--plot", str(tmp_path / "a.png")]
    try:
        code = cli.main(args)
    except SystemExit as stop:  # argparse's refusal of an option
        code = stop.code
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("shengji analyze: ") and err.count("\n") == 1, err


@pytest.mark.parametrize(("outputs", "said"), [
    (["--json", "game.toml"], "--json {d}/game.toml: that is the file of RECORD"),
    (["--json", "a.png", "--plot", "a.png"], "--plot {d}/a.png: that is the file of --json"),
    (["--json", ""], "--json needs a file name"),
    (["--plot", ""], "--plot needs a file name"),
    (["--json", "a" * 300 + ".json"], "File name too long"),
    (["--json", "a" * 250 + ".json"], "the file name is too long (at most"),
    (["--plot", "a.pgf"], "name the image with its format"),
])
def test_an_output_that_would_destroy_a_file_or_cannot_be_made_is_refused_first(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], outputs: list[str], said: str
        ) -> None:
    """Refused before any work, in one line: the record and every other file stay."""
    if "--plot" in outputs:
        pytest.importorskip("matplotlib")
    path = _write(tmp_path)
    before = path.read_bytes()
    named = [str(tmp_path / o) if o and not o.startswith("--") else o for o in outputs]
    assert cli.main(["analyze", str(path), "--budget", "1", *named]) == 2
    out = capsys.readouterr()
    assert out.err.startswith("shengji analyze: ") and out.err.count("\n") == 1, out.err
    assert said.format(d=tmp_path) in out.err and "Traceback" not in out.err
    assert "Round 1" not in out.out  # refused before the analysis
    assert path.read_bytes() == before and sorted(tmp_path.iterdir()) == [path]


def _at_the_score_sheet(match: Match, rnd: Round, result: RoundResult, typed: list[str],
                        folder: Path) -> str:
    """What the terminal prints at the score sheet of ``rnd`` (seat 0 a person typing
    ``typed``, the others heuristic players), the prompts and answers included."""
    out = io.StringIO()
    answers = iter(typed)

    def read(prompt: str) -> str:
        answer = next(answers, None)
        if answer is None:
            raise EOFError
        out.write(prompt + answer + "\n")
        return answer

    session = Session(match, me=0, players=[None, *(HeuristicPlayer(s) for s in (1, 2, 3))],
                      names=["You", "Seat 1", "Seat 2", "Seat 3"],
                      kinds=["human", "heuristic", "heuristic", "heuristic"],
                      record=folder / "game.toml",
                      console=Console(file=out, width=100, color_system=None, highlight=False),
                      prompter=Prompter(read, completion=False), unicode=False)
    session._round_over(rnd, result)
    return out.getvalue()


@pytest.mark.slow
def test_review_at_the_score_sheet(tmp_path: Path) -> None:
    """After a round, ``review`` prints the analysis of the person's seat for that round."""
    record = Record.of(_match(rounds=2))
    match = record.match()
    while not match.results:
        rnd = match.round
        result = match.apply(record.actions[len(match.history)])
    assert result is not None
    text = _at_the_score_sheet(match, rnd, result, ["review", ""], tmp_path)
    assert "review: how you played this round" in text
    assert "next round> review" in text
    assert "Round 1, seat 0 (You): judged from what seat 0 knew at each decision" in text
    assert "decisions judged" in text and text.rstrip().endswith("next round>")


@pytest.mark.slow
def test_the_last_round_of_a_match_can_be_reviewed_too(tmp_path: Path) -> None:
    """At the score sheet of the round that ends the match, ``review`` is offered before
    the match's end; Enter (or quit) then ends it."""
    match = _match(rounds=1)
    assert match.is_over
    text = _at_the_score_sheet(match, match.round, match.results[0], ["review", "quit"],
                               tmp_path)
    assert "Enter: the end of the match · review: how you played this round" in text
    assert "end> review" in text and "end> quit" in text
    # the end of input (or Ctrl-C) at that prompt ends the match as Enter does
    closed = _at_the_score_sheet(match, match.round, match.results[0], [], tmp_path)
    assert closed.rstrip().endswith("Enter: the end of the match · review: how you played "
                                    "this round · quit")
    assert "Round 1, seat 0 (You): judged from what seat 0 knew at each decision" in text
