"""The legal actions of one seat at one moment, as a first-class object.

``action in legal`` is one check, :meth:`Legal.reason` says why an action is
refused, iterating lists every legal action lazily (burying 8 cards out of
33 has millions of choices, so nothing is listed up front) and
:meth:`Legal.random` draws one.

A ``Legal`` is handed to players, so it holds only what its seat may know: its own
hand (a copy), the public state and the rules, never the round itself. It is valid
for the position it was made for; the round checks any action from an older one.

It also answers the facts of the decision, so that players, the server, the terminal
and the environment ask it rather than restate the rules (each fact agrees with
:meth:`~Legal.reason` and the listing; outside its phase it reads as empty):

- :attr:`~Legal.can_bid`: whether the listing holds a bid or a withdrawal
  (:meth:`Round.can_bid <shengji.game.round.Round.can_bid>`);
- :attr:`~Legal.expose_limit`: the most cards the seat may expose (``expose``; ``None``
  elsewhere);
- :attr:`~Legal.bury`: the bury's :class:`~shengji.game.bury.BuryLimits`, ``size`` cards
  and at most ``point_limit`` point cards (``kitty``; ``None`` elsewhere);
- :attr:`~Legal.calls` and :attr:`~Legal.call_count`: the single friend calls allowed
  (each with its ordinal, and its card or colour and rank), of which a Call names
  ``call_count`` different ones (``call``; ``()`` and ``0`` elsewhere);
- :meth:`~Legal.can_complete`: whether a partial selection of cards can still be
  completed to a legal action made of cards (a bid, an exposure, a bury, a lead or a
  follow), and :meth:`~Legal.selector`, which builds one card by card
  (:mod:`shengji.game.selection`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from random import Random
from typing import Final, TypeGuard

from shengji.engine.cards import Card, parse_cards
from shengji.engine.follow import LegalPlays
from shengji.engine.friends import FriendCall
from shengji.engine.lead import LegalLeads
from shengji.engine.reasons import Reason
from shengji.game.actions import Action, ActionError, Play, as_action, made_play, seat_is_int
from shengji.game.bury import BuryLimits
from shengji.game.selection import FollowSelector, LeadSelector, OptionsSelector, Selector

__all__ = ["ActionError", "Legal", "PlayLegal", "nothing"]

NOTHING_TO_DO = Reason("do-nothing")
NONE_LEGAL_REASON = Reason("not-your-turn")
PLAY_NEEDED = Reason("play-needed")
_DO_LEAD: Final = Reason("do-lead")
_NO_CARDS: Final = (0,) * 54
"""The counts of a selection's hand where no action is made of cards."""


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
        *,
        can_bid: bool = False,
        expose_limit: int | None = None,
        bury: BuryLimits | None = None,
        calls: Callable[[], list[FriendCall]] | None = None,
        call_count: int = 0,
        selector: Callable[[], Selector] | None = None,
    ) -> None:
        self.seat = seat
        self.plays = plays
        """In the play phase, the engine's legal set (its description, forced cards...)."""
        self._reason = reason
        self._actions = actions
        self._sample = sample
        self._summary = summary
        self.can_bid = can_bid
        """Whether the seat may bid or take its standing bid back now: whether the listing
        holds a :class:`~shengji.game.actions.Bid` or a
        :class:`~shengji.game.actions.Withdraw`."""
        self.expose_limit = expose_limit
        """The most cards the seat may expose (any number up to it, none included), in the
        ``expose`` phase; ``None`` elsewhere."""
        self.bury = bury
        """The bury's size and point limit, in the ``kitty`` phase; ``None`` elsewhere."""
        self.call_count = call_count
        """How many different single calls (:attr:`calls`) a Call names, in the ``call``
        phase; ``0`` elsewhere."""
        self._calls_of = calls
        self._calls: tuple[FriendCall, ...] | None = None
        self._selector = selector

    @property
    def summary(self) -> Reason:
        """What the seat may do, in a few words."""
        return self._summary if isinstance(self._summary, Reason) else self._summary()

    @property
    def calls(self) -> tuple[FriendCall, ...]:
        """Every single friend call allowed, in the ``call`` phase (``()`` elsewhere): a
        Call is legal when it names :attr:`call_count` different ones of them (listed
        when first asked)."""
        calls = self._calls
        if calls is None:
            calls = self._calls = tuple(self._calls_of()) if self._calls_of is not None else ()
        return calls

    def selector(self) -> Selector:
        """A new, empty selection for the multi-card action of this decision (a bid, an
        exposure, a bury, a lead or a follow): add cards one at a time from its
        :meth:`~shengji.game.selection.Selector.addable`, and it is a legal action when
        :meth:`~shengji.game.selection.Selector.complete`. Where no action is made of
        cards, nothing can be added."""
        if self._selector is not None:
            return self._selector()
        return OptionsSelector(_NO_CARDS, ())

    def can_complete(self, cards: str | Iterable[Card | str]) -> bool:
        """Whether ``cards`` (a partial selection, in any order) can still be completed to
        a legal action made of cards: some legal bid, exposure, bury, lead or follow
        holds them all (the selection itself included). ``False`` where no action is
        made of cards."""
        return _completable(self.selector(), parse_cards(cards))

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
        self.can_bid = False
        self.expose_limit = None
        self.bury = None
        self.call_count = 0
        self._calls_of = None
        self._calls = ()
        self._selector = None
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
        play = known[0]  # its seat an int itself (True == 1, but True is no seat)
        return seat_is_int(play) and play.seat == known[1] and play.cards is known[2]

    def selector(self) -> Selector:
        plays = self._legal
        if isinstance(plays, LegalLeads):
            return LeadSelector(plays)
        return FollowSelector(plays)

    def can_complete(self, cards: str | Iterable[Card | str]) -> bool:
        plays = self._legal
        if isinstance(plays, LegalPlays):
            return plays.can_complete(cards)
        return _completable(LeadSelector(plays), parse_cards(cards))

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


def _completable(selector: Selector, cards: tuple[Card, ...]) -> bool:
    """Whether ``selector`` (empty) can take ``cards`` and still be completed: each card
    must be addable in turn (the order does not matter: a selection can be completed
    when some legal action holds it, whatever order its cards came in)."""
    for card in cards:
        if card not in selector.addable():
            return False
        selector.add(card)
    return bool(cards) or selector.complete() or bool(selector.addable())


def _no_reason(action: Action) -> Reason | None:
    return None


def _no_actions() -> Iterator[Action]:
    return iter(())


def nothing(seat: int, why: Reason = NONE_LEGAL_REASON) -> Legal:
    """A seat with no legal action."""
    return Legal(seat, lambda action: why, lambda: iter(()), summary=NOTHING_TO_DO)
