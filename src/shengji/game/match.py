"""A match: rounds one after another until a side passes the end rank.

The match keeps the levels (per team with fixed partnerships, per player in
Finding Friends), rotates the dealer, starts each round with a seed derived
from the match's seed, and keeps the history of every action and result, and
the log of failed throws (:attr:`Match.failed_throws`).
It offers the same protocol as a round: :meth:`Match.legal`,
:meth:`Match.apply`, :meth:`Match.undo`, :meth:`Match.view`.

>>> from shengji.engine.rules import Rules
>>> match = play_random_match(Rules(end_rank="4"), seed=3)
>>> match.is_over, len(match.winners) > 0, match.results[-1].match_won_by == match.winners
(True, True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from random import Random
from typing import Final

from shengji.engine.reasons import Reason
from shengji.engine.rules import AfterEnd, FluidBidders, Partnership, Rules
from shengji.engine.scoring import NO_TRUMP_LEVEL, level_name
from shengji.engine.throws import ThrowOutcome
from shengji.game.actions import Action, ActionError
from shengji.game.deal import Deal
from shengji.game.legal import Legal, nothing
from shengji.game.phase import Phase
from shengji.game.round import Round
from shengji.game.scoresheet import RoundResult
from shengji.game.view import SeatView

_DONE: Final = Phase.DONE
"""The phase as a module constant (an enum member access is a class lookup each time)."""


@dataclass(frozen=True)
class FailedThrow:
    """A failed throw of the match: its ``round`` and ``trick`` (each from 1), the
    thrower's ``seat``, and why it failed and what happened instead (the engine's
    :meth:`~shengji.engine.throws.ThrowOutcome.reasons`: the blocks, ``throw-failed`` or
    ``throw-lost``, ``throw-penalty``). Every seat may know it: the blocking cards are
    shown at the table."""

    round: int
    trick: int
    seat: int
    outcome: ThrowOutcome
    """The engine's judgement of the throw."""

    @property
    def reasons(self) -> tuple[Reason, ...]:
        """Why it failed and what happened instead (worded when asked for)."""
        return self.outcome.reasons()


class Match:
    """A whole match, deterministic from ``seed``.

    A match may start from a given position: ``levels`` (one per seat, 2..14, 15 for
    the no-trump level), the first ``dealer``, and the first round's cards as a
    :class:`~shengji.game.deal.Deal` (later rounds are shuffled from the seed).
    """

    def __init__(self, rules: Rules, *, seed: int, max_rounds: int | None = None,
                 track_undo: bool = False, deal: Deal | None = None,
                 dealer: int | None = None, levels: Sequence[int] | None = None) -> None:
        self.rules = rules
        self.seed = seed
        self.max_rounds = max_rounds
        self.track_undo = track_undo
        self.deal = deal
        self.first_dealer = dealer
        self.start_levels = _start_levels(rules, levels)
        self.levels = self.start_levels
        self.wraps = (0,) * rules.players
        """How many times each seat's level went round to the start rank."""
        self.results: list[RoundResult] = []
        self.history: list[Action] = []
        self.winners: tuple[int, ...] = ()
        self.failed_throws: list[FailedThrow] = []
        """Every failed throw of the match, in order."""
        self._over = self._finished()
        """:attr:`is_over`, kept up to date (it is asked several times per action)."""
        self._seeds = Random(seed)
        self.round = self._new_round(dealer, None, deal)

    def _new_round(self, dealer: int | None, eligible: tuple[int, ...] | None,
                   deal: Deal | None = None, *, shuffler: int | None = None) -> Round:
        return Round(self.rules, seed=self._seeds.getrandbits(48), deal=deal,
                     levels=self.levels, dealer=dealer, eligible=eligible,
                     track_undo=self.track_undo, shuffler=shuffler)

    @property
    def is_over(self) -> bool:
        """True once a side has won (or ``max_rounds`` rounds were played)."""
        return self._over

    def _finished(self) -> bool:
        """:attr:`is_over` read from the winners and the rounds played."""
        if self.winners:
            return True
        return self.max_rounds is not None and len(self.results) >= self.max_rounds

    @property
    def to_move(self) -> int | None:
        """The seat the match waits for."""
        return None if self._over else self.round.to_move

    def legal(self, seat: int) -> Legal:
        """The legal actions of ``seat`` now."""
        if self._over:
            return nothing(seat, Reason("match-over"))
        return self.round.legal(seat)

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know about the current round."""
        return self.round.view(seat)

    def apply(self, action: object) -> RoundResult | None:
        """Perform ``action`` (an action or its notation); returns the round's result when
        it ends the round. Raises :class:`ActionError`, changing nothing, if it is refused."""
        if self._over:
            raise ActionError(Reason("match-over"))
        rnd = self.round
        trick = rnd.trick  # a lead into it may be a failed throw
        number = len(rnd.tricks) + 1 if trick is not None and trick.lead is None else 0
        rnd.apply(action)  # reads and checks the action once
        self.history.append(rnd.history[-1])  # as the round stored it
        if number and trick is not None and trick.throw is not None and not trick.throw.valid:
            self.failed_throws.append(FailedThrow(
                len(self.results) + 1, number, rnd.history[-1].seat, trick.throw))
        if rnd.phase is not _DONE:
            return None
        result = rnd.result
        assert result is not None
        self.results.append(result)
        self.levels = result.levels
        self.wraps = tuple(w + result.wrapped.count(s) for s, w in enumerate(self.wraps))
        if result.match_won_by:
            side = result.declarers if result.declarers_won else result.opponents
            self.winners = side if self.rules.partnership == Partnership.FIXED else (
                result.match_won_by)
        self._over = self._finished()
        if not self._over:
            dealer: int | None = result.next_dealer
            shuffler: int | None = None
            if result.redeal and self.round.bidding.winner is None and all(
                    r.redeal for r in self.results):
                dealer = None  # the first round starts over: the bidding decides the dealer
            elif result.next_bid_for:
                dealer, shuffler = None, result.next_dealer  # bid for, as a first round
            self.round = self._new_round(dealer, self._eligible(result), shuffler=shuffler)
        return result

    def _eligible(self, result: RoundResult) -> tuple[int, ...] | None:
        if self.rules.partnership != Partnership.FLUID or (
                self.rules.fluid_bidders != FluidBidders.NOT_LOST) or result.redeal:
            return None
        losers = result.opponents if result.declarers_won else result.declarers
        return tuple(s for s in range(self.rules.players) if s not in losers)

    def undo(self) -> Action:
        """Take back the last action (replays the match without it)."""
        if not self.history:
            raise ActionError("nothing to undo")
        actions = self.history[:-1]
        last = self.history[-1]
        fresh = self._fresh()
        for action in actions:
            fresh.apply(action)
        self._take(fresh)
        return last

    def copy(self) -> Match:
        """An independent copy of the match in its current position (its round copied)."""
        other = self._fresh()
        other._take(self)
        other.results = list(self.results)
        other.history = list(self.history)
        other.failed_throws = list(self.failed_throws)
        other._seeds = Random()
        other._seeds.setstate(self._seeds.getstate())
        other.round = self.round.copy()
        return other

    def _fresh(self) -> Match:
        """The same match at its start."""
        return Match(self.rules, seed=self.seed, max_rounds=self.max_rounds,
                     track_undo=self.track_undo, deal=self.deal, dealer=self.first_dealer,
                     levels=self.start_levels)

    def _take(self, other: Match) -> None:
        """Take ``other``'s position (its objects themselves, not copies)."""
        self.levels = other.levels
        self.wraps = other.wraps
        self.results = other.results
        self.history = other.history
        self.winners = other.winners
        self.failed_throws = other.failed_throws
        self._over = other._over
        self._seeds = other._seeds
        self.round = other.round

    def __repr__(self) -> str:
        return (f"<Match seed={self.seed} rounds={len(self.results)} levels={self.levels}"
                f" winners={self.winners}>")


def _start_levels(rules: Rules, levels: Sequence[object] | None) -> tuple[int, ...]:
    """Each seat's first level: as given (checked), else the first level (the start rank,
    or the lowest rank kept above it: :attr:`~shengji.engine.rules.Rules.first_rank`).

    ``levels`` comes from outside (a record, a caller): its entries are checked to be
    integers before they are compared [compiled build].
    """
    if levels is None:
        return (int(rules.first_rank),) * rules.players
    start, end = int(rules.first_rank), int(rules.end_rank)
    top = NO_TRUMP_LEVEL if rules.after_end in (AfterEnd.NO_TRUMP, AfterEnd.NO_TRUMP_WRAP) else end
    valid = tuple(lv for lv in levels
                  if type(lv) is int and (start <= lv <= end or lv == top))
    if len(levels) != rules.players or len(valid) != len(levels):
        raise ValueError(f"levels needs one level per seat ({rules.players}), each from "
                         f"{level_name(start)} to {level_name(top)} (2..14, 15 for NT)")
    if rules.partnership == Partnership.FIXED and any(
            valid[s] != valid[s % 2] for s in range(rules.players)):
        raise ValueError("with fixed partnerships both members of a team share a level")
    return valid


def never_ends(rules: Rules, bound: str) -> str | None:
    """Why a driver that plays a match to its end needs a bound on its rounds, or ``None``:
    with ``after_end = wrap`` (or ``no-trump-wrap``) no side ever wins. ``bound`` names the
    caller's bound (``max_rounds``, ``--max-rounds N``) in the message.

    >>> never_ends(Rules(after_end="wrap"), "max_rounds")
    "a match with after_end='wrap' never ends: give max_rounds"
    >>> never_ends(Rules(), "max_rounds") is None
    True
    """
    if rules.after_end in (AfterEnd.WRAP, AfterEnd.NO_TRUMP_WRAP):
        return f"a match with after_end={str(rules.after_end)!r} never ends: give {bound}"
    return None


def play_random_match(rules: Rules, seed: int, *, max_rounds: int | None = None,
                      rng: Random | None = None) -> Match:
    """Play a whole match with random legal actions at every decision (for tests and demos).

    ``after_end = wrap`` (or ``no-trump-wrap``) never ends on its own: pass ``max_rounds``.
    """
    endless = never_ends(rules, "max_rounds")
    if endless and max_rounds is None:
        raise ValueError(endless)
    match = Match(rules, seed=seed, max_rounds=max_rounds)
    chooser = rng if rng is not None else Random(seed)
    while not match.is_over:
        seat = match.to_move
        assert seat is not None
        match.apply(match.legal(seat).random(chooser))
    return match
