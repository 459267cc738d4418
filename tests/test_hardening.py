"""Hardening of the game API: stale plays are checked, actions are validated in their
types, players cannot reach hidden state, and an unrevealed kitty stays hidden."""

from __future__ import annotations

import gc
import types
from dataclasses import replace
from random import Random

import pytest

from flow_helpers import fingerprint
from shengji.engine.cards import Card, Hand, Suit
from shengji.engine.rules import Rules
from shengji.game.actions import Bid, Call, Declare, Draw, Pass, Play, Show, as_action
from shengji.game.legal import ActionError, Legal
from shengji.game.match import Match
from shengji.game.phase import Phase
from shengji.game.presets import preset
from shengji.game.record import read_record, replay, write_record
from shengji.game.round import Round
from shengji.game.scoresheet import score_round
from shengji.game.view import SeatView


def _to_play(seed: int, rules: Rules | None = None) -> tuple[Round, Random]:
    """A round of random actions up to the first lead."""
    rnd = Round(rules or Rules(), seed=seed, dealer=0)
    rng = Random(seed)
    while rnd.phase != Phase.PLAY:
        seat = rnd.to_move
        assert seat is not None
        rnd.apply(rnd.legal(seat).random(rng))
    return rnd, rng


# -- 1. no trusted shortcut -------------------------------------------------------------

def test_a_play_drawn_from_a_stale_legal_is_checked_in_full() -> None:
    """The issue's reproduction: ``stale = rnd.legal(seat)``, a trick goes round, then
    ``rnd.apply(stale.random(rng))``: refused (nothing changed) unless legal now."""
    refused = 0
    for seed in range(40):
        rnd, rng = _to_play(seed)
        seat = rnd.to_move
        assert seat is not None
        stale = rnd.legal(seat)
        rnd.apply(stale.random(rng))
        while rnd.to_move != seat and rnd.phase == Phase.PLAY:
            mover = rnd.to_move
            assert mover is not None
            rnd.apply(rnd.legal(mover).random(rng))
        if rnd.phase != Phase.PLAY:
            continue
        play = stale.random(rng)
        legal_now = rnd.legal(seat).reason(play) is None
        before = fingerprint(rnd)
        if legal_now:
            rnd.apply(play)
            continue
        with pytest.raises(ActionError):
            rnd.apply(play)
        assert fingerprint(rnd) == before
        refused += 1
    assert refused >= 20


def test_a_sampled_play_of_the_current_position_is_still_taken() -> None:
    rnd, rng = _to_play(3)
    for _ in range(12):
        seat = rnd.to_move
        assert seat is not None
        play = rnd.legal(seat).random(rng)
        rnd.apply(play)
        assert rnd.history[-1] is play


# -- 2. actions are validated in their types ----------------------------------------------

@pytest.mark.parametrize("make", [
    lambda: Play(True, (Card("8C"),)),
    lambda: Play(-1, (Card("8C"),)),
    lambda: Play(0, (5,)),
    lambda: Play(0, 5),
    lambda: Play(0, None),
    lambda: Play(0, "1S"),
    lambda: Declare(0, -1),
    lambda: Declare(0, "Q"),
    lambda: Call(0, None),
    lambda: Call(0, (None,)),
    lambda: Bid("0", (Card("2H"),)),
    lambda: Draw(None),
    lambda: Pass(1.0),
], ids=["bool seat", "negative seat", "int card", "int cards", "no cards", "bad notation",
        "int suit", "bad suit", "no calls", "None call", "str seat", "None seat",
        "float seat"])
def test_malformed_actions_cannot_be_made(make: object) -> None:
    with pytest.raises(ActionError) as error:
        make()  # type: ignore[operator]
    verb, _, why = str(error.value).partition(": ")
    assert verb in ("play", "declare", "call", "bid", "draw", "pass")
    assert any(word in why.lower() for word in ("seat number", "card", "suit", "friend call"))


def test_notation_is_accepted_and_normalised_to_cards() -> None:
    assert Play(0, "8c 8C") == Play(0, (Card("8C"), Card("8C")))
    assert Play(0, ["KS", Card("KS")]).cards == (Card("KS"), Card("KS"))
    assert Declare(0, "h") == Declare(0, Suit.HEARTS)
    assert Declare(0, "NT") == Declare(0, None)
    assert str(Call(0, "1st AS, 2nd kh")) == "0 call 1st AS, 2nd KH"
    assert as_action("2 play KS") == Play(2, (Card("KS"),))


@pytest.mark.parametrize("thing", [None, 7, b"0 draw", "0 plya KS", object(),
                                   types.SimpleNamespace(seat=1)])
def test_apply_refuses_what_is_not_an_action_and_changes_nothing(thing: object) -> None:
    rnd = Round(Rules(), seed=1, dealer=0)
    before = fingerprint(rnd)
    with pytest.raises(ActionError):
        rnd.apply(thing)  # type: ignore[arg-type]
    assert fingerprint(rnd) == before
    assert rnd.reason(thing) is not None  # type: ignore[arg-type]
    assert thing not in rnd.legal(1)


def test_an_action_forged_around_its_constructor_is_refused() -> None:
    rnd, _ = _to_play(2)
    seat = rnd.to_move
    assert seat is not None
    forged = object.__new__(Play)
    object.__setattr__(forged, "seat", seat)
    object.__setattr__(forged, "cards", (3, 4))
    before = fingerprint(rnd)
    with pytest.raises(ActionError, match="not a card"):
        rnd.apply(forged)
    assert fingerprint(rnd) == before


def test_the_hundreds_declare_phase_takes_only_suits() -> None:
    rnd = Round(preset("hundred"), seed=4, dealer=0)
    while rnd.phase == Phase.DEAL:
        rnd.apply(Draw(rnd.drawer))
    while rnd.phase == Phase.EXPOSE:
        rnd.apply(f"{rnd.to_move} expose")
    assert rnd.phase == Phase.DECLARE
    before = fingerprint(rnd)
    forged = object.__new__(Declare)
    object.__setattr__(forged, "seat", rnd.dealer)
    object.__setattr__(forged, "suit", "Z")
    for bad in (forged, "0 declare Q", None):
        with pytest.raises(ActionError):
            rnd.apply(bad)  # type: ignore[arg-type]
        assert fingerprint(rnd) == before
    rnd.apply(f"{rnd.dealer} declare h")
    assert rnd.trump is not None and rnd.trump.suit == Suit.HEARTS


def test_actions_given_as_notation_make_a_readable_record() -> None:
    match = Match(Rules(end_rank="3"), seed=5, max_rounds=1)
    rng = Random(5)
    while not match.is_over:
        seat = match.to_move
        assert seat is not None
        action = match.legal(seat).random(rng)
        match.apply(str(action))  # as text, the way a client sends it
    again = replay(read_record(write_record(match)))
    assert again.history == match.history


# -- 3. players cannot reach hidden state --------------------------------------------------

def _reachable(root: object) -> list[object]:
    """Every object reachable from ``root`` through attributes, containers and closures
    (not through modules, classes or a function's globals)."""
    seen: set[int] = set()
    out: list[object] = []
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, type | types.ModuleType):
            continue
        seen.add(id(obj))
        out.append(obj)
        if isinstance(obj, types.FunctionType):
            cells = [c.cell_contents for c in obj.__closure__ or ()]
            stack.extend([*cells, *(obj.__defaults__ or ()), *(obj.__kwdefaults__ or {}).values()])
        elif isinstance(obj, types.MethodType):
            stack.extend([obj.__self__, obj.__func__])
        else:
            stack.extend(r for r in gc.get_referents(obj)
                         if not (isinstance(r, dict) and r is getattr(obj, "__globals__", None)))
    return out


@pytest.mark.slow
@pytest.mark.parametrize(("name", "players"), [("tractor", 4), ("finding-friends", 5),
                                               ("hundred", 4), ("tractor-6", 6)])
def test_legal_and_view_hold_nothing_of_other_seats(name: str, players: int) -> None:
    rnd = Round(preset(name, players=players), seed=7, dealer=1)
    rng = Random(7)
    checked = 0
    while rnd.phase != Phase.DONE:
        seat = rnd.to_move
        assert seat is not None
        legal = rnd.legal(seat)
        if len(rnd.history) % 7 == 0 or rnd.phase != Phase.DEAL:
            hidden = {id(rnd), id(rnd.hands), id(rnd.deck)} | {
                id(h) for s, h in enumerate(rnd.hands) if s != seat}
            if rnd.kitty_owner != seat:
                hidden.add(id(rnd.kitty))
            for obj in _reachable((legal, rnd.view(seat))):
                assert id(obj) not in hidden, f"{type(obj).__name__} reachable from a Legal"
                assert not isinstance(obj, Round)
            checked += 1
        rnd.apply(legal.random(rng))
    assert checked > 10


def test_changing_the_hand_a_legal_holds_changes_nothing() -> None:
    rnd, _ = _to_play(5)
    seat = rnd.to_move
    assert seat is not None
    legal = rnd.legal(seat)
    plays = legal.plays
    assert plays is not None
    before = fingerprint(rnd)
    plays.hand.add((Card("BJ"),) * 3)
    assert fingerprint(rnd) == before
    assert isinstance(legal, Legal) and isinstance(plays.hand, Hand)


# -- 4. an unrevealed kitty stays hidden ----------------------------------------------------

def _finished(rules: Rules, seed: int) -> Round:
    rnd = Round(rules, seed=seed, dealer=0)
    rng = Random(seed)
    while rnd.phase != Phase.DONE:
        seat = rnd.to_move
        assert seat is not None
        rnd.apply(rnd.legal(seat).random(rng))
    return rnd


@pytest.mark.slow
def test_an_unrevealed_kitty_that_did_not_count_shows_no_points() -> None:
    rules = Rules(kitty_revealed=False)
    tested = 0
    for seed in range(30):
        rnd = _finished(rules, seed)
        result = rnd.result
        assert result is not None
        if result.redeal or result.kitty_multiplier:
            continue
        owner = rnd.kitty_owner
        other = (rnd.kitty, rnd.result)
        for seat in range(rules.players):
            view = rnd.view(seat)
            assert view.result is not None
            if seat == owner:
                assert view.result.kitty_points == sum(c.points for c in rnd.kitty)
                continue
            assert view.result.kitty_points is None
            # change the hidden cards (another kitty): what the seat sees does not change
            swapped = rnd.copy()
            swapped.kitty = tuple(Card("KH") for _ in rnd.kitty)
            swapped.result = score_round(swapped)
            assert SeatView.of(swapped, seat).result == view.result
        rnd.kitty, rnd.result = other
        tested += 1
    assert tested >= 5


def test_a_counted_kitty_shows_its_points_but_not_its_cards() -> None:
    rules = Rules(kitty_revealed=False)
    for seed in range(60):
        rnd = _finished(rules, seed)
        result = rnd.result
        assert result is not None
        if not result.kitty_multiplier:
            continue
        seat = next(s for s in range(rules.players) if s != rnd.kitty_owner)
        seen = rnd.view(seat).result
        assert seen is not None and seen.kitty == ()
        assert seen.kitty_points == result.kitty_points
        assert replace(seen, kitty=result.kitty, lines=result.lines) == result
        return
    pytest.fail("no round where the opponents won the last trick")


def test_show_is_validated_like_the_rest() -> None:
    with pytest.raises(ActionError):
        Show("me")  # type: ignore[arg-type]


def test_a_play_changed_after_it_was_found_legal_is_checked_again() -> None:
    """A play found legal (or drawn) and then changed in place is not taken on trust."""
    for how in ("checked", "drawn"):
        rnd, rng = _to_play(7)
        seat = rnd.to_move
        assert seat is not None
        legal = rnd.legal(seat)
        if how == "checked":
            play = Play(seat, (rnd.hands[seat].cards()[0],))
            assert play in legal
        else:
            drawn = legal.random(rng)
            assert isinstance(drawn, Play)
            play = drawn
        mine = set(rnd.hands[seat].cards())
        others = [c for s in range(4) if s != seat for c in rnd.hands[s].cards()
                  if c not in mine]
        object.__setattr__(play, "cards", (others[0],))  # a card only others hold
        before = fingerprint(rnd)
        with pytest.raises(ActionError):
            rnd.apply(play)
        assert fingerprint(rnd) == before
