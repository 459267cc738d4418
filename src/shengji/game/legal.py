"""The legal actions of one seat at one moment, as a first-class object.

``action in legal`` is one check, :meth:`Legal.reason` says why an action is
refused, iterating lists every legal action lazily (burying 8 cards out of
33 has millions of choices, so nothing is listed up front) and
:meth:`Legal.random` draws one.

A ``Legal`` is handed to players, so it holds only what its seat may know: its own
hand (a copy), the public state and the rules, never the round itself. It is valid
for the position it was made for; the round checks any action from an older one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from random import Random
from typing import Final, TypeGuard

from shengji.engine.cards import Card
from shengji.engine.follow import LegalPlays
from shengji.engine.lead import LegalLeads
from shengji.engine.reasons import Reason
from shengji.game.actions import Action, ActionError, Play, as_action, made_play

__all__ = ["ActionError", "Legal", "PlayLegal", "nothing"]

NOTHING_TO_DO = Reason("do-nothing")
NONE_LEGAL_REASON = Reason("not-your-turn")
PLAY_NEEDED = Reason("play-needed")
_DO_LEAD: Final = Reason("do-lead")


class Legal:
    """The legal actions of a seat: membership, reasons, lazy listing, random choice."""

    def __init__(
        self,
        seat: int,
        reason: Callable[[Action], Reason | None],
        actions: Callable[[], Iterator[Action]],
        sample: Callable[[Random], Action] | None = None,
        summary: Reason | Callable[[], Reason] = NOTHING_TO_DO,
        plays: LegalLeads | LegalPlays | None = None,
    ) -> None:
        self.seat = seat
        self.plays = plays
        """In the play phase, the engine's legal set (its description, forced cards...)."""
        self._reason = reason
        self._actions = actions
        self._sample = sample
        self._summary = summary

    @property
    def summary(self) -> Reason:
        """What the seat may do, in a few words."""
        return self._summary if isinstance(self._summary, Reason) else self._summary()

    def reason(self, action: object) -> Reason | None:
        """Why ``action`` (an action or its notation) is not legal now, or ``None`` if it is."""
        try:
            action = as_action(action)
        except ActionError as error:
            return Reason("bad-input", error=str(error))
        if action.seat != self.seat:
            return Reason("other-seat", seat=action.seat, own=self.seat)
        return self._check(action)

    def _check(self, action: Action) -> Reason | None:
        """:meth:`reason` for a well-formed action of this seat."""
        return self._reason(action)

    def __contains__(self, action: object) -> bool:
        return self.reason(action) is None

    def __iter__(self) -> Iterator[Action]:
        return self._actions()

    def __bool__(self) -> bool:
        return next(iter(self), None) is not None

    def random(self, rng: Random) -> Action:
        """A random legal action."""
        if self._sample is not None:
            return self._sample(rng)
        choices = list(self)
        if not choices:
            raise ActionError(f"seat {self.seat} has no legal action now")
        return rng.choice(choices)

    def __repr__(self) -> str:
        return f"<Legal seat {self.seat}: {self.summary}>"


class PlayLegal(Legal):
    """The legal plays of the seat to move in the play phase: the engine's legal set
    (:attr:`plays`) as actions. The round takes the play :meth:`random` drew, or the
    last play found legal here, without checking it again (:meth:`vouches`)."""

    def __init__(self, seat: int, plays: LegalLeads | LegalPlays) -> None:
        # Legal.__init__'s attributes, set here without the call (one per play position;
        # no summary: :attr:`summary` reads the plays when asked)
        self.seat = seat
        self.plays = plays
        self._reason = _no_reason
        self._actions = _no_actions
        self._sample = None
        self._legal = plays
        self._drawn: tuple[Play, int, tuple[Card, ...]] | None = None
        self._checked: tuple[Play, int, tuple[Card, ...]] | None = None

    @property
    def summary(self) -> Reason:
        """What the seat may do: lead, or the obligations of its follow."""
        plays = self._legal
        return _DO_LEAD if isinstance(plays, LegalLeads) else plays.describe()

    def vouches(self, action: object) -> TypeGuard[Play]:
        """Whether ``action`` is the very play :meth:`random` last drew or the last one
        found legal here, still holding the very seat and cards it held then (a play
        changed since, e.g. by ``object.__setattr__``, is checked again)."""
        # (each kept triple read once: no tuple of the two built and walked per play)
        known = self._drawn
        if known is None or action is not known[0]:
            known = self._checked
            if known is None or action is not known[0]:
                return False
        play = known[0]
        return play.seat == known[1] and play.cards is known[2]

    def _check(self, action: Action) -> Reason | None:
        if not isinstance(action, Play):
            return PLAY_NEEDED
        why = self._legal.reason(action.cards)
        if why is None:
            self._checked = (action, action.seat, action.cards)
        return why

    def __iter__(self) -> Iterator[Action]:
        seat = self.seat
        for cards in self._legal:
            yield Play(seat, tuple(cards))

    def random(self, rng: Random) -> Action:
        play = made_play(self.seat, tuple(self._legal.random(rng)))
        self._drawn = (play, play.seat, play.cards)
        return play


def _no_reason(action: Action) -> Reason | None:
    return None


def _no_actions() -> Iterator[Action]:
    return iter(())


def nothing(seat: int, why: Reason = NONE_LEGAL_REASON) -> Legal:
    """A seat with no legal action."""
    return Legal(seat, lambda action: why, lambda: iter(()), summary=NOTHING_TO_DO)
