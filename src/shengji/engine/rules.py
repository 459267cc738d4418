"""The rules value: every play-rule option of the engine, with validation.

One frozen :class:`Rules` value configures a table's house rules. Options are
plain strings (``StrEnum``) so that rules read from TOML/JSON map directly.
Defaults are the most common modern Tractor rules (4 players, 2 decks).

>>> Rules().decks, Rules(decks=3).tuple_follow
(2, <TupleFollow.DRAW_OUT: 'draw-out'>)
>>> Rules(tractor_min_width=5)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
shengji.engine.rules.RulesError: tractor_min_width is 5 but there are only 2 decks ...
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from shengji.engine.cards import Rank, Suit
from shengji.engine.trump import Trump


class RulesError(ValueError):
    """An option is unknown, out of range or contradicts another."""


class TupleFollow(StrEnum):
    """What a led n-tuple (or the tuples of a tractor or throw) forces out of a follower."""

    DRAW_OUT = "draw-out"
    """Pairs draw out triples: a held n-tuple must be played, even from a larger tuple;
    failing that as many smaller tuples as fit (seed 2006, rule 1)."""
    PROTECT = "protect"
    """Longer tuples are protected: only tuples no longer than the led one are forced,
    as many cards locked in them as possible (seed 2006, rule 2)."""
    NONE = "none"
    """Suit only: no structure obligation at all."""


class TractorFollow(StrEnum):
    """What a led tractor forces out of a follower."""

    TRACTOR = "tractor"
    """A held tractor of the same shape, else as many tuples as possible, else singles."""
    TUPLES = "tuples"
    """Any tuples of the led width will do; a held tractor is not forced (seed 2006)."""
    TRACTOR_ONLY = "tractor-only"
    """Only a tractor draws a tractor: without one, no structure is forced."""
    LONGEST = "longest"
    """A held tractor, else the longest shorter tractor, then as many tuples as possible."""


class ThrowCheck(StrEnum):
    """Whose hands can make a throw fail."""

    ALL = "all"
    """Every other player, partner included."""
    OPPONENTS = "opponents"
    """Only the thrower's opponents."""


class FailedThrow(StrEnum):
    """What a failed throw becomes."""

    LOWEST = "lowest"
    """The lowest beatable unit is played; the rest goes back to the hand."""
    SMALLEST = "smallest"
    """The beatable unit with the fewest cards (lowest among equals)."""
    LARGEST = "largest"
    """The beatable unit with the most cards (lowest among equals)."""
    LOSE_ROUND = "lose-round"
    """The thrower's side loses the round (seed da_bai_fen)."""


class ThrowPenalty(StrEnum):
    """Points given to the opponents for a failed throw."""

    NONE = "none"
    PER_ATTEMPT = "per-attempt"
    PER_CARD = "per-card"


class ThrowBeat(StrEnum):
    """How a throw is beaten (always by a play of the same structure)."""

    LARGEST_UNIT = "largest-unit"
    """The highest top card of the largest unit wins; earlier wins ties (seed 2006)."""
    EVERY_UNIT = "every-unit"
    """Every unit must beat its counterpart."""
    HIGHEST_CARD = "highest-card"
    """The highest single card decides."""
    CARD_BY_CARD = "card-by-card"
    """Each card must beat a distinct card of the winning play (seed hundred)."""


@dataclass(frozen=True)
class Rules:
    """A table's rules. Every field is an option; see the README for each."""

    players: int = 4
    decks: int = 2
    tractor_min_width: int = 2
    tractor_min_length: int = 2
    tractor_high_trumps: bool = True
    red_fives: int = 0
    tuple_follow: TupleFollow = TupleFollow.DRAW_OUT
    tractor_follow: TractorFollow = TractorFollow.TRACTOR
    throws: bool = True
    throw_mixed: bool = True
    throw_blocked_by_equal: bool = False
    throw_check: ThrowCheck = ThrowCheck.ALL
    failed_throw: FailedThrow = FailedThrow.LOWEST
    throw_penalty: ThrowPenalty = ThrowPenalty.NONE
    throw_penalty_points: int = 10
    throw_beat: ThrowBeat = ThrowBeat.LARGEST_UNIT

    def __post_init__(self) -> None:
        enums = {
            "tuple_follow": TupleFollow,
            "tractor_follow": TractorFollow,
            "throw_check": ThrowCheck,
            "failed_throw": FailedThrow,
            "throw_penalty": ThrowPenalty,
            "throw_beat": ThrowBeat,
        }
        for name, kind in enums.items():
            value = getattr(self, name)
            try:
                object.__setattr__(self, name, kind(value))
            except ValueError:
                allowed = ", ".join(repr(str(v)) for v in kind)
                raise RulesError(f"{name}={value!r} is not allowed; use one of {allowed}") from None
        checks = [
            (self.players >= 2, f"players must be at least 2, got {self.players}"),
            (self.decks >= 1, f"decks must be at least 1, got {self.decks}"),
            (self.tractor_min_width >= 1, "tractor_min_width must be at least 1"),
            (
                self.tractor_min_width <= self.decks,
                f"tractor_min_width is {self.tractor_min_width} but there are only "
                f"{self.decks} decks (at most {self.decks} identical cards)",
            ),
            (self.tractor_min_length >= 2, "tractor_min_length must be at least 2"),
            (self.red_fives in (0, 1, 2), "red_fives must be 0 (off), 1 (5♥) or 2 (5♥, 5♦)"),
            (self.throw_penalty_points >= 0, "throw_penalty_points must not be negative"),
        ]
        for ok, message in checks:
            if not ok:
                raise RulesError(message)

    def trump(self, rank: Rank | None, suit: Suit | None = None) -> Trump:
        """The round's trump under these rules (applies the red-five variant)."""
        return Trump(rank, suit, red_fives=self.red_fives)
