"""Malformed and illegal actions for the fuzz tests (``tests/test_fuzz_actions.py``) and
the long fuzz run (``scripts/fuzz_actions.py``).

:func:`fuzz_round` plays a random round and, before every real action, feeds the round
a batch of bad actions of every kind: objects that are not actions, actions forged
around their constructors, unreadable notation, actions of the wrong seat, phase or
cards, and plays drawn from stale ``Legal`` objects. Each must raise ``ActionError`` and
leave the round exactly as it was; the few that happen to be legal are applied, checked
against a fresh legality test, and undone.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from random import Random
from types import SimpleNamespace

from flow_helpers import fingerprint
from shengji.engine.cards import ALL_CARDS, Suit
from shengji.engine.friends import FriendCall
from shengji.game.actions import (
    ACTION_TYPES,
    Action,
    ActionError,
    Bid,
    Bury,
    Call,
    Declare,
    Draw,
    Expose,
    Pass,
    Play,
    Show,
    Withdraw,
    parse_action,
)
from shengji.game.legal import Legal
from shengji.game.phase import Phase
from shengji.game.presets import preset
from shengji.game.round import Round

PRESET_TABLES = (("tractor", 4), ("tractor-6", 6), ("finding-friends", 5),
                 ("finding-friends", 7), ("da-bai-fen", 4), ("hundred", 4))
"""The presets (and table sizes) the fuzzers play."""

_JUNK_TEXT = ("", " ", "0", "play", "0 plya KS", "0 play", "0 play 1S", "-1 draw", "x draw",
              "0 bid", "0 declare Q", "0 call 0th AS", "0 call", "0 bury", "0 draw KS",
              "² draw", "0 play KS\x00", "99999999999999999999 play KS", "0 call 1st purple A",
              "0 play " + "AS " * 300, "\udcff", "0 declare")


def _forged(kind: type, **fields: object) -> object:
    """An action object made without its constructor (no validation ran)."""
    action = object.__new__(kind)
    for name, value in fields.items():
        object.__setattr__(action, name, value)
    return action


def malformed(rnd: Round, rng: Random) -> Iterator[object]:
    """Things that are not valid actions at all."""
    seat = rng.randrange(rnd.rules.players)
    card = rng.choice(ALL_CARDS)
    yield rng.choice((None, 0, 1.5, b"0 draw", object(), [], {}, (seat, "draw"), True))
    yield SimpleNamespace(seat=seat, cards=(card,))
    yield rng.choice(_JUNK_TEXT)
    yield _forged(Play, seat=rng.choice((True, -1, "0", None, 1.0)), cards=(card,))
    # values equal to a seat that are no seat (chosen without the rng: the other fuzzers'
    # streams stay as they were)
    not_seat = (Suit(seat % 4), card, float(seat), seat == 1)[len(rnd.history) % 4]
    yield _forged(Play, seat=not_seat, cards=(card,))
    yield _forged(Play, seat=seat, cards=rng.choice(((int(card),), (None,), card, 5, (card, 3))))
    yield _forged(Bid, seat=seat, cards=rng.choice(((int(card),), ("XX",), None)))
    yield _forged(Bury, seat=seat, cards=rng.choice(((1, 2), [object()], 7)))
    yield _forged(Declare, seat=seat, suit=rng.choice((-1, 9, "Q", object(), 2.0)))
    yield _forged(Call, seat=seat, calls=rng.choice((None, 5, (None,), ("0th AS",))))
    yield _forged(rng.choice((Draw, Pass, Show, Withdraw)), seat=rng.choice((None, "1", -3)))
    yield _forged((Draw, Pass, Show, Withdraw)[len(rnd.history) % 4], seat=not_seat)


def _random_call(rng: Random, rules_decks: int) -> FriendCall:
    if rng.random() < 0.5:
        return FriendCall(rng.randint(1, rules_decks + 2), card=rng.choice(ALL_CARDS[:52]))
    return FriendCall(rng.randint(1, 2 * rules_decks + 2), colour=rng.choice(("red", "black")),
                      rank=rng.choice(ALL_CARDS[:52]).rank)


def well_formed(rnd: Round, rng: Random) -> Iterator[Action]:
    """Well-formed actions of every kind, mostly illegal now (wrong seat, phase or cards)."""
    n = rnd.rules.players
    seat = rng.randrange(n + 2)  # sometimes a seat that does not exist
    held = rnd.hands[seat].cards() if seat < n else []
    some = tuple(rng.choice(ALL_CARDS) for _ in range(rng.randint(1, 6)))
    mine = tuple(rng.sample(held, min(len(held), rng.randint(1, 9)))) if held else some
    yield Draw(seat)
    yield Pass(seat)
    yield Withdraw(seat)
    yield Show(seat)
    yield Declare(seat, rng.choice((*Suit, None)))
    yield Expose(seat, rng.choice(((), mine, some, mine + some)))
    yield Bid(seat, rng.choice((some[:1] * 2, mine[:2], some)))
    yield Bury(seat, rng.choice((mine, some, mine + some)))
    yield Call(seat, tuple(_random_call(rng, rnd.rules.decks)
                           for _ in range(rng.randint(0, rnd.rules.friend_count + 1))))
    yield Play(seat, rng.choice((mine, some, mine[:1], mine + some[:1])))


def stale_plays(rnd: Round, stale: list[Legal], rng: Random) -> Iterator[Action]:
    """Plays drawn from the ``Legal`` objects of earlier positions."""
    for legal in rng.sample(stale, min(3, len(stale))):
        try:
            yield legal.random(rng)
        except ActionError:  # that old position had nothing to draw from
            continue


def try_action(rnd: Round, action: object, counts: Counter[str]) -> None:
    """Apply ``action``: a refusal must raise only ``ActionError`` and change nothing; an
    accepted action must have been legal, and is undone."""
    before = fingerprint(rnd)
    kind = type(action).__name__ if isinstance(action, ACTION_TYPES) else "malformed"
    verdict = rnd.reason(action)  # type: ignore[arg-type]
    try:
        rnd.apply(action)  # type: ignore[arg-type]
    except ActionError:
        assert verdict is not None, f"{action!r} was refused though reason() allowed it"
        assert fingerprint(rnd) == before, f"refused {action!r} changed the round"
        counts[f"refused {kind}"] += 1
        return
    assert verdict is None, f"{action!r} was accepted though reason() said {verdict!r}"
    last = rnd.history[-1]
    assert type(last.seat) is int and parse_action(str(last)) == last, (
        f"accepted {action!r} leaves {last!r}, which does not read back")
    counts[f"accepted {kind}"] += 1
    rnd.undo()
    assert fingerprint(rnd) == before, f"undo of {action!r} did not restore the round"


def fuzz_round(name: str, players: int, seed: int, counts: Counter[str],
               per_step: int = 1) -> Round:
    """Play one random round of a preset, fuzzing ``per_step`` batches before each action."""
    rnd = Round(preset(name, players=players), seed=seed, dealer=seed % players)
    rng = Random(seed)
    stale: list[Legal] = []
    while rnd.phase != Phase.DONE:
        for _ in range(per_step):
            batch = [*malformed(rnd, rng), *well_formed(rnd, rng),
                     *stale_plays(rnd, stale, rng)]
            for action in batch:
                try_action(rnd, action, counts)
        seat = rnd.to_move
        assert seat is not None
        legal = rnd.legal(seat)
        if rnd.phase == Phase.PLAY:
            stale = [*stale[-6:], legal]
        rnd.apply(legal.random(rng))
        counts["legal actions played"] += 1
    for action in [*malformed(rnd, rng), *well_formed(rnd, rng)]:
        try_action(rnd, action, counts)
    return rnd


__all__ = ["PRESET_TABLES", "fuzz_round", "malformed", "stale_plays", "try_action",
           "well_formed"]
