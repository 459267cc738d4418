"""Seats are seat numbers: an action's seat is an ``int`` itself, never ``True``, a float, a
card, a suit, an ``IntEnum`` member or a numpy integer, however the action was made; an
action changed after the round vouched for it is checked again; whatever the round accepts
is written into a record that reads back.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from random import Random

import numpy as np
import pytest

from flow_helpers import fingerprint
from shengji.engine.cards import ALL_CARDS, Card, Suit
from shengji.engine.rules import Rules
from shengji.game.actions import (
    ACTION_TYPES,
    Action,
    ActionError,
    Bid,
    Draw,
    Pass,
    Play,
)
from shengji.game.match import Match
from shengji.game.phase import Phase
from shengji.game.presets import preset
from shengji.game.record import read_record, replay, write_record
from shengji.game.round import Round


class Seat(enum.IntEnum):
    ONE = 1


NOT_SEATS: list[object] = [True, False, 1.0, Card("3C"), Suit.DIAMONDS, Seat.ONE,
                           np.int64(1), np.int32(0)]
"""Values equal to a seat number (or usable as one) that are not ``int`` themselves."""


@pytest.mark.parametrize("seat", NOT_SEATS, ids=repr)
@pytest.mark.parametrize("make", [
    lambda s: Draw(s), lambda s: Pass(s), lambda s: Play(s, "KS"), lambda s: Bid(s, "2H"),
], ids=["draw", "pass", "play", "bid"])
def test_an_action_whose_seat_is_not_an_int_cannot_be_made(
        seat: object, make: Callable[[object], Action]) -> None:
    with pytest.raises(ActionError, match="the seat must be a seat number"):
        make(seat)


def _forged(action: Action, seat: object) -> Action:
    object.__setattr__(action, "seat", seat)
    return action


def _refused_unchanged(rnd: Round, action: object) -> None:
    before = fingerprint(rnd)
    assert rnd.reason(action) is not None
    with pytest.raises(ActionError):
        rnd.apply(action)
    assert fingerprint(rnd) == before


@pytest.mark.parametrize("seat", NOT_SEATS, ids=repr)
def test_a_draw_the_round_made_and_someone_changed_is_refused(seat: object) -> None:
    rnd = Round(Rules(), seed=1)
    draw = rnd.only_draw(rnd.drawer)
    assert draw is not None
    real = draw.seat
    try:  # the round's own (shared) Draw object, changed in place
        _refused_unchanged(rnd, _forged(draw, seat))
    finally:
        object.__setattr__(draw, "seat", real)
    rnd.apply(draw)
    assert rnd.next_card == 1


def _play_position() -> Round:
    rnd = Round(Rules(), seed=2, dealer=1)
    rng = Random(2)
    while rnd.phase != Phase.PLAY:
        rnd.apply(rnd.legal(rng.choice(rnd.actors())).random(rng))
    return rnd


@pytest.mark.parametrize("seat", NOT_SEATS, ids=repr)
@pytest.mark.parametrize("how", ["random", "in"])
def test_a_vouched_play_changed_afterwards_is_checked_again(seat: object, how: str) -> None:
    rnd = _play_position()
    to_move = rnd.to_move
    assert to_move is not None
    legal = rnd.legal(to_move)
    play = legal.random(Random(3)) if how == "random" else next(iter(legal))
    assert play in legal
    _refused_unchanged(rnd, _forged(play, seat))


def test_a_vouched_play_whose_cards_changed_is_checked_again() -> None:
    rnd = _play_position()
    to_move = rnd.to_move
    assert to_move is not None
    play = rnd.legal(to_move).random(Random(4))
    assert isinstance(play, Play)
    held = set(rnd.hands[to_move].cards())
    stranger = next(card for card in ALL_CARDS if card not in held)
    object.__setattr__(play, "cards", (stranger,))
    _refused_unchanged(rnd, play)


@pytest.mark.parametrize("name", ["tractor", "finding-friends", "hundred"])
def test_forged_actions_are_refused_in_whole_matches_and_every_record_reads_back(
        name: str) -> None:
    rules = preset(name, end_rank="3")
    rng = Random(5)
    match = Match(rules, seed=5, max_rounds=2)
    tried = 0
    while not match.is_over:
        seat = match.to_move
        assert seat is not None
        legal = match.legal(seat)
        action = legal.random(rng)
        if rng.random() < 0.2:  # the same action with a seat that is no seat, refused
            copy = object.__new__(type(action))
            for field in ("seat", "cards", "suit", "calls"):
                if hasattr(action, field):
                    object.__setattr__(copy, field, getattr(action, field))
            object.__setattr__(copy, "seat", rng.choice(NOT_SEATS))
            with pytest.raises(ActionError):
                match.apply(copy)
            tried += 1
        match.apply(action)
    assert tried > 10
    again = replay(read_record(write_record(match)))
    assert again.history == match.history
    assert all(type(a.seat) is int for a in match.history)
    assert all(isinstance(a, ACTION_TYPES) for a in match.history)
