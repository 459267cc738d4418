"""The game layer's answers the server reads instead of restating rules: the view of no
seat (:meth:`SeatView.spectator`), the view's attacker points and the match's log of
failed throws (:attr:`Match.failed_throws`)."""

from __future__ import annotations

from random import Random

import pytest

from shengji.engine.lead import LegalLeads
from shengji.engine.rules import Rules
from shengji.game.actions import Action, Bury, Play
from shengji.game.match import FailedThrow, Match
from shengji.game.phase import Phase
from shengji.game.view import NO_SEAT, SeatView

RULES = [
    Rules(),
    Rules(kitty_revealed=True),
    Rules(players=5, partnership="fluid", kitty_revealed=True),
    Rules(failed_throw="lose-round", throw_check="opponents"),
]


def _choice(match: Match, rng: Random) -> Action:
    """A random legal action that tries a throw (a whole plain suit) at half the leads."""
    seat = match.to_move
    assert seat is not None
    legal = match.legal(seat)
    plays = legal.plays
    if isinstance(plays, LegalLeads) and rng.random() < 0.5:
        hand = match.view(seat).hand
        suits = sorted({plays.trump.suit_of(c) for c in hand})
        suit = rng.choice(suits)
        play = Play(seat, tuple(c for c in hand if plays.trump.suit_of(c) == suit))
        if play in legal:
            return play
    return legal.random(rng)


def _check_spectator(rnd_view: SeatView, match: Match) -> None:
    rnd = match.round
    view = SeatView.spectator(rnd)
    assert view.seat == NO_SEAT and view.is_spectator and not rnd_view.is_spectator
    assert view.hand == ()
    assert view.hand_sizes == rnd_view.hand_sizes
    shown = rnd.phase is Phase.DONE and rnd.rules.kitty_revealed
    assert view.kitty == (rnd.kitty if shown and rnd.kitty_owner is not None else None)
    assert view.hidden_cards() == sum(view.hand_sizes) + (
        0 if view.kitty is not None else rnd.rules.kitty_size)
    buries = [a for a in view.history if isinstance(a, Bury)]
    assert len(view.history) == len(rnd.history)
    assert all(not b.cards for b in buries) or shown
    if view.result is not None and not shown:
        assert view.result.kitty == ()
    # everything public is as every seat sees it
    for name in ("phase", "to_move", "levels", "dealer", "declarers", "trump", "bids",
                 "exposed", "calls", "friends", "trick", "tricks", "captured"):
        assert getattr(view, name) == getattr(rnd_view, name), name


@pytest.mark.parametrize("rules", RULES, ids=range(len(RULES)))
def test_spectator_view_hides_every_hand_and_the_kitty(rules: Rules) -> None:
    match = Match(rules, seed=7, max_rounds=2)
    rng = Random(7)
    checked_done = False
    while not match.is_over:
        _check_spectator(match.view(0), match)
        rnd = match.round
        match.apply(_choice(match, rng))
        if rnd.phase is Phase.DONE:  # the finished round, as a spectator sees it now
            view = SeatView.spectator(rnd)
            revealed = rules.kitty_revealed and rnd.kitty_owner is not None
            assert (view.kitty is not None) == revealed
            assert (view.result is not None and bool(view.result.kitty)) == (
                revealed and bool(rnd.result and rnd.result.kitty))
            buried = [b.cards for b in view.history if isinstance(b, Bury)]
            assert all(buried) if revealed else not any(buried)
            checked_done = True
    assert checked_done


def test_spectator_view_hides_buries_before_the_round_ends() -> None:
    match = Match(Rules(kitty_revealed=True), seed=3)
    rng = Random(3)
    while match.round.phase is not Phase.PLAY:
        match.apply(_choice(match, rng))
    owner = match.round.kitty_owner
    assert owner is not None
    view = SeatView.spectator(match.round)
    assert view.kitty is None
    assert [a.cards for a in view.history if isinstance(a, Bury)] == [()]
    assert match.view(owner).kitty == match.round.kitty  # the owner still sees it


@pytest.mark.parametrize("rules", RULES, ids=range(len(RULES)))
def test_attacker_points(rules: Rules) -> None:
    match = Match(rules, seed=11, max_rounds=1)
    rng = Random(11)
    assert match.view(0).attacker_points == 0  # no dealer yet: nobody attacks
    seen = 0
    while not match.is_over:
        rnd = match.round
        for view in (match.view(0), SeatView.spectator(rnd)):
            if view.dealer is None:
                assert view.attacker_points == 0 and view.opponents == ()
            else:
                assert set(view.opponents) == set(range(rules.players)) - set(view.declarers)
                assert view.attacker_points == sum(
                    view.captured[s] for s in range(rules.players) if s not in view.declarers)
                seen = max(seen, view.attacker_points)
        match.apply(_choice(match, rng))
    assert seen > 0


def test_match_logs_its_failed_throws() -> None:
    rules = Rules(failed_throw="lose-round", throw_check="opponents")
    found: list[FailedThrow] = []
    for seed in range(6):
        match = Match(rules, seed=seed, max_rounds=3)
        rng = Random(seed)
        expected: list[FailedThrow] = []
        while not match.is_over:
            rnd = match.round
            trick = rnd.trick
            leading = trick is not None and trick.lead is None
            where = (len(match.results) + 1, len(rnd.tricks) + 1)
            action = _choice(match, rng)
            match.apply(action)
            if leading and trick is not None and trick.throw and not trick.throw.valid:
                expected.append(FailedThrow(*where, action.seat, trick.throw))
        assert match.failed_throws == expected
        for failed in match.failed_throws:
            keys = [why.key for why in failed.reasons]
            assert keys[-1] in ("throw-failed", "throw-lost", "throw-penalty")
            assert 1 <= failed.round <= len(match.results)
        found += match.failed_throws
        if match.failed_throws:  # undo and copy keep the log
            copy = match.copy()
            assert copy.failed_throws == match.failed_throws
            assert copy.failed_throws is not match.failed_throws
    assert found, "no failed throw in these matches"
    assert any(why.key == "throw-lost" for f in found for why in f.reasons)


def test_undo_takes_a_failed_throw_back() -> None:
    rules = Rules()
    for seed in range(20):
        match = Match(rules, seed=seed, max_rounds=2)
        rng = Random(seed)
        while not match.is_over:
            before = len(match.failed_throws)
            match.apply(_choice(match, rng))
            if len(match.failed_throws) > before:
                match.undo()
                assert len(match.failed_throws) == before
                return
    pytest.fail("no failed throw found")
