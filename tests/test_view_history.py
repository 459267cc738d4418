"""Views take their history from a tuple the round extends per seat (and shares while
nothing is hidden): a view's history never changes once taken, and holds nothing hidden
from the view's seat, through undos and the kitty revealed after the round."""

from __future__ import annotations

import pickle
from dataclasses import FrozenInstanceError, replace
from random import Random

import pytest

from shengji.engine.rules import Rules
from shengji.game.actions import Bid, Bury
from shengji.game.phase import Phase
from shengji.game.round import Round
from shengji.game.view import SeatView

RULES = {
    "revealed": Rules(kitty_overbid=True, bid_withdraw=True),
    "kept-hidden": Rules(kitty_overbid=True, kitty_revealed=False),
    "fluid": Rules(players=5, partnership="fluid", kitty_overbid=True),
}


def _may_see(rnd: Round, seat: int, action: object) -> bool:
    """Whether ``seat`` may see ``action`` now: a bury's cards only its own, or all once
    the round is done with the kitty revealed."""
    if not isinstance(action, Bury) or not action.cards or action.seat == seat:
        return True
    return rnd.phase == Phase.DONE and rnd.rules.kitty_revealed


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(RULES))
def test_views_keep_their_history_and_their_logs_hide_what_they_must(name: str) -> None:
    rules = RULES[name]
    buries = 0
    for seed in range(4):
        rnd = Round(rules, seed=seed)
        rng = Random(seed)
        kept: list[tuple[SeatView, tuple[object, ...]]] = []
        while rnd.phase != Phase.DONE:
            seat = rng.randrange(rules.players)
            view = rnd.view(seat)
            kept.append((view, tuple(view.history)))
            assert view.history == tuple(a if _may_see(rnd, seat, a) else Bury(a.seat, ())
                                         for a in rnd.history), (name, seed)
            for old, history in kept:
                assert old.history == history
                assert all(_may_see(rnd, old.seat, a) for a in old.history), (name, seed)
            if len(rnd.history) > 1 and rng.random() < 0.03:
                rnd.undo()
                continue
            mover = rnd.to_move
            assert mover is not None
            legal = rnd.legal(mover)
            if seed % 2 and rnd.phase in (Phase.DEAL, Phase.BID):  # bids after the kitty
                rnd.apply(next(a for a in legal if not isinstance(a, Bid)))
            else:
                rnd.apply(legal.random(rng))
            buries += isinstance(rnd.history[-1], Bury)
        for s in range(rules.players):
            history = rnd.view(s).history
            assert history == tuple(a if _may_see(rnd, s, a) else Bury(a.seat, ())
                                    for a in rnd.history)
    assert buries > 4  # one a round, and more after bids after the kitty


def test_a_view_is_frozen_and_equal_to_its_copies() -> None:
    rnd = Round(Rules(), seed=3)
    rng = Random(3)
    while rnd.phase != Phase.PLAY:
        seat = rnd.to_move
        assert seat is not None
        rnd.apply(rnd.legal(seat).random(rng))
    view = rnd.view(1)
    with pytest.raises(FrozenInstanceError):
        view.history = ()  # type: ignore[misc]
    again = pickle.loads(pickle.dumps(view))
    assert again == view and hash(again) == hash(view)
    assert replace(view, hand=()).history == view.history
    assert rnd.view(1) == view and isinstance(view.history, tuple)


@pytest.mark.parametrize("seat", [-1, -5, 4])
def test_a_seat_not_at_the_table_has_no_view(seat: int) -> None:
    rnd = Round(Rules(), seed=1)
    with pytest.raises(ValueError, match="no seat"):
        rnd.view(seat)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(RULES))
def test_a_views_hand_is_the_hand_in_the_trumps_order(name: str) -> None:
    rules = RULES[name]
    for seed in range(3):
        rnd = Round(rules, seed=seed)
        rng = Random(seed)
        while rnd.phase != Phase.DONE:
            seat = rng.randrange(rules.players)
            cards = rnd.hands[seat].cards()
            trump = rnd.trump
            assert rnd.view(seat).hand == tuple(
                trump.sorted(cards) if trump is not None else cards), (name, seed)
            if len(rnd.history) > 1 and rng.random() < 0.03:
                rnd.undo()
                continue
            mover = rnd.to_move
            assert mover is not None
            rnd.apply(rnd.legal(mover).random(rng))
