"""What one seat may know: its own hand and everything public, nothing else.

A :class:`SeatView` is a frozen snapshot. It is the only thing players,
clients and bots ever see; it holds no reference to the round, so it cannot
leak another seat's cards. The kitty is visible only to the seat that buried
it (and to everyone after the round if ``kitty_revealed``).

:meth:`SeatView.spectator` is the view of no seat (a spectator's): what every seat
sees, no hand, and the kitty and buried cards under the same one rule (:func:`_sees_kitty`).
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, Final

from shengji.engine.cards import Card, hand_sizes
from shengji.engine.friends import FriendCall
from shengji.engine.plain import filled, is_plain, mypyc_attr
from shengji.engine.rules import Rules
from shengji.engine.trick import TrickPlay
from shengji.engine.trump import Trump
from shengji.game.actions import Action
from shengji.game.phase import Phase
from shengji.game.scoresheet import RoundResult, TrickRecord

if TYPE_CHECKING:
    from shengji.game.round import Round

_DONE: Final = Phase.DONE
_PLAY: Final = Phase.PLAY
"""The phases as module constants (an enum member access is a class lookup each time)."""
NO_SEAT: Final = -1
"""The ``seat`` of :meth:`SeatView.spectator`'s view: no seat at the table."""


@mypyc_attr(acyclic=True)  # holds only values that never lead back to a view: no GC tracking
@dataclass(frozen=True, init=False)
class SeatView:
    """One seat's knowledge of a round at one moment."""

    seat: int
    rules: Rules
    phase: Phase
    to_move: int | None
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    levels: tuple[int, ...]
    dealer: int | None
    declarers: tuple[int, ...]
    trump: Trump | None
    bids: tuple[tuple[int, tuple[Card, ...]], ...]
    exposed: tuple[tuple[Card, ...], ...]
    """The cards each seat exposed before the dealer named the trump (seed hundred)."""
    removed: tuple[Card, ...]
    """The low cards taken out of the pack to make the deal even (``remove_low``; the
    ``removed_ranks`` are not in the pack at all)."""
    kitty_turned: tuple[Card, ...]
    kitty: tuple[Card, ...] | None
    calls: tuple[FriendCall, ...]
    friends: tuple[int, ...]
    trick_leader: int | None
    trick: tuple[TrickPlay, ...]
    trick_winner: int | None
    tricks: tuple[TrickRecord, ...]
    captured: tuple[int, ...]
    history: tuple[Action, ...]
    result: RoundResult | None

    # its own __init__, a store per field [compiled build]
    def __init__(self, seat: int, rules: Rules, phase: Phase, to_move: int | None,
                 hand: tuple[Card, ...], hand_sizes: tuple[int, ...], levels: tuple[int, ...],
                 dealer: int | None, declarers: tuple[int, ...], trump: Trump | None,
                 bids: tuple[tuple[int, tuple[Card, ...]], ...],
                 exposed: tuple[tuple[Card, ...], ...], removed: tuple[Card, ...],
                 kitty_turned: tuple[Card, ...], kitty: tuple[Card, ...] | None,
                 calls: tuple[FriendCall, ...], friends: tuple[int, ...],
                 trick_leader: int | None, trick: tuple[TrickPlay, ...],
                 trick_winner: int | None, tricks: tuple[TrickRecord, ...],
                 captured: tuple[int, ...], history: tuple[Action, ...],
                 result: RoundResult | None) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "rules", rules)
        object.__setattr__(self, "phase", phase)
        object.__setattr__(self, "to_move", to_move)
        object.__setattr__(self, "hand", hand)
        object.__setattr__(self, "hand_sizes", hand_sizes)
        object.__setattr__(self, "levels", levels)
        object.__setattr__(self, "dealer", dealer)
        object.__setattr__(self, "declarers", declarers)
        object.__setattr__(self, "trump", trump)
        object.__setattr__(self, "bids", bids)
        object.__setattr__(self, "exposed", exposed)
        object.__setattr__(self, "removed", removed)
        object.__setattr__(self, "kitty_turned", kitty_turned)
        object.__setattr__(self, "kitty", kitty)
        object.__setattr__(self, "calls", calls)
        object.__setattr__(self, "friends", friends)
        object.__setattr__(self, "trick_leader", trick_leader)
        object.__setattr__(self, "trick", trick)
        object.__setattr__(self, "trick_winner", trick_winner)
        object.__setattr__(self, "tricks", tricks)
        object.__setattr__(self, "captured", captured)
        object.__setattr__(self, "history", history)
        object.__setattr__(self, "result", result)

    @classmethod
    def of(cls, rnd: Round, seat: int) -> SeatView:
        """Take ``seat``'s view of ``rnd`` (it shares the round's immutable tuples); a
        seat not at the table is a ``ValueError``."""
        if not 0 <= seat < len(rnd.hands):
            raise ValueError(f"no seat {seat} at this table")
        return _filled(rnd, seat) if _PLAIN else _native(rnd, seat)

    @classmethod
    def spectator(cls, rnd: Round) -> SeatView:
        """The view of no seat (``seat`` is :data:`NO_SEAT`), for a spectator: every hand
        hidden, every bury's cards and the kitty hidden unless every seat sees them (the
        round done and ``kitty_revealed``), the result as a seat without the kitty sees it."""
        return _filled(rnd, NO_SEAT) if _PLAIN else _native(rnd, NO_SEAT)

    @property
    def is_spectator(self) -> bool:
        """Whether this is the view of no seat (:meth:`spectator`)."""
        return self.seat < 0

    @property
    def opponents(self) -> tuple[int, ...]:
        """The seats outside :attr:`declarers` (none before the dealer is known; in
        Finding Friends, those not yet known to be declarers)."""
        if self.dealer is None:
            return ()
        declarers = self.declarers
        return tuple([s for s in range(len(self.hand_sizes)) if s not in declarers])

    @property
    def attacker_points(self) -> int:
        """The points the :attr:`opponents` have captured (0 before the dealer is known)."""
        captured = self.captured
        return sum([captured[s] for s in self.opponents])

    def __reduce__(self) -> tuple[type[SeatView], tuple[object, ...]]:
        """Pickle and copy a view by its fields (a compiled view has no ``__dict__``)."""
        return SeatView, tuple([getattr(self, f.name) for f in fields(self)])

    def hidden_cards(self) -> int:
        """How many cards this seat cannot see (other hands, and the kitty if not its own)."""
        others = sum(n for s, n in enumerate(self.hand_sizes) if s != self.seat)
        kitty = 0 if self.kitty is not None else self.rules.kitty_size
        return others + kitty


def _native(rnd: Round, seat: int) -> SeatView:
    """``seat``'s view of ``rnd`` in the compiled build, made by its ``__init__``."""
    phase, owner = rnd.phase, rnd.kitty_owner
    sees_kitty = _sees_kitty(rnd, seat)
    trick, tracker, result = rnd.trick, rnd.tracker, rnd.result
    if trick is not None:
        leader, plays, winner = trick.leader, tuple(trick.plays), trick.winner
    else:
        leader, plays, winner = None, (), None
    log, _ = rnd.history_log(seat if seat >= 0 else len(rnd.hands))  # (brought up to date)
    return SeatView(
        seat, rnd.rules, phase, rnd.to_move, rnd.sorted_hand(seat) if seat >= 0 else (),
        hand_sizes(rnd.hands),
        rnd.levels, rnd.dealer, rnd.declarers, rnd.trump, rnd.bidding.shown,
        rnd.exposed, rnd.removed, rnd.kitty_turned,
        rnd.kitty if sees_kitty and owner is not None else None,
        tracker.calls if tracker is not None else (),
        tracker.friends if tracker is not None else (),
        leader, plays, winner, rnd.tricks_tuple(), tuple(rnd.captured), tuple(log),
        result if sees_kitty or result is None else _hide_kitty(result))


def _filled(rnd: Round, seat: int) -> SeatView:
    """``seat``'s view of ``rnd`` in pure Python: a plain object whose attributes are filled
    at once, its history read from the seat's log when first asked."""
    phase, owner = rnd.phase, rnd.kitty_owner
    sees_kitty = _sees_kitty(rnd, seat)
    trick, tracker, result = rnd.trick, rnd.tracker, rnd.result
    # a copy of a filled dict, its values then set, costs half a dict display as big
    if phase is _PLAY or phase is _DONE:
        # the settled fields filled once per phase, and with them the finished tricks'
        # once per trick (the tricks, the points captured, the current trick's leader)
        settled, count = rnd.view_settled, len(rnd.tricks)
        if settled is None or settled[0] is not phase:
            base = _settled(rnd)
            settled = (phase, base, -1, base)
        if settled[2] != count:
            values = settled[1].copy()
            _trick_fields(rnd, values)
            settled = rnd.view_settled = (phase, settled[1], count, values)
        values = settled[3].copy()
    else:
        values = _settled(rnd)
        _trick_fields(rnd, values)
    values["seat"] = seat
    values["phase"] = phase
    values["to_move"] = rnd.to_move
    values["hand"] = rnd.sorted_hand(seat) if seat >= 0 else ()
    values["hand_sizes"] = hand_sizes(rnd.hands)
    values["declarers"] = rnd.declarers
    if sees_kitty and owner is not None:
        values["kitty"] = rnd.kitty
    if tracker is not None:
        values["friends"] = tracker.friends
    if trick is not None:
        values["trick"] = tuple(trick.plays)
        values["trick_winner"] = trick.winner
    values["result"] = result if sees_kitty or result is None else _hide_kitty(result)
    # read as ``history`` when first asked (no seat: the log of a seat that buried nothing)
    values["_log"] = rnd.history_log(seat if seat >= 0 else len(rnd.hands))
    # a frozen dataclass's __init__ sets these attributes one call at a time: the
    # filled dict becomes the view's own
    return filled(SeatView, values)


def _sees_kitty(rnd: Round, seat: int) -> bool:
    """Whether ``seat`` sees the kitty: its owner does, and everyone once the round is done
    if ``kitty_revealed`` (the others, and :data:`NO_SEAT`, see the result with the kitty
    hidden)."""
    return rnd.kitty_owner == seat or (rnd.phase is _DONE and rnd.rules.kitty_revealed)


def _settled(rnd: Round) -> dict[str, object]:
    """:data:`_FIELDS` with the fields that no action changes once the tricks start, the
    same for every seat: the rules, levels, dealer, trump, bids, exposed cards, removed
    cards, turned kitty cards and friend calls."""
    values = _FIELDS.copy()
    values["rules"] = rnd.rules
    values["levels"] = rnd.levels
    values["dealer"] = rnd.dealer
    values["trump"] = rnd.trump
    values["bids"] = rnd.bidding.shown
    values["exposed"] = rnd.exposed
    values["removed"] = rnd.removed
    values["kitty_turned"] = rnd.kitty_turned
    tracker = rnd.tracker
    if tracker is not None:
        values["calls"] = tracker.calls
    return values


def _trick_fields(rnd: Round, values: dict[str, object]) -> None:
    """Set the fields that change only as a trick ends: the finished tricks, the points
    captured and the current trick's leader."""
    trick = rnd.trick
    if trick is not None:
        values["trick_leader"] = trick.leader
    values["tricks"] = rnd.tricks_tuple()
    values["captured"] = tuple(rnd.captured)


class _History:
    """``SeatView.history`` of a view made by :meth:`SeatView.of`, which holds the seat's
    history log and its length instead (no copy of the history per view): the tuple is
    read from them when first asked and kept as the view's own attribute, which Python
    then finds first (a descriptor without ``__set__``)."""

    def __get__(self, view: object, owner: type | None = None) -> object:
        if view is None:
            return self
        values = view.__dict__
        log, length = values["_log"]
        history = values["history"] = tuple(log[:length])
        return history


def _hide_kitty(result: RoundResult | None) -> RoundResult | None:
    """The result without the kitty's cards, for seats that may not see them; its points
    too unless they counted (then the score shows them anyway)."""
    if result is None or not result.kitty:
        return result
    counted = result.kitty_multiplier > 0
    lines = tuple(_hidden_kitty_line(line, counted) if line.startswith("Kitty ") else line
                  for line in result.lines)
    return replace(result, kitty=(), kitty_points=result.kitty_points if counted else None,
                   lines=lines)


def _hidden_kitty_line(line: str, counted: bool) -> str:
    """``Kitty 3C 4C ...: 15 points x 2 ...`` without the cards (and the points if they
    did not count)."""
    tail = line.partition(": ")[2]
    if counted:
        return f"Kitty (hidden): {tail}"
    return "Kitty (hidden): not counted " + tail[tail.index("("):]


_PLAIN: Final = is_plain(SeatView)
"""Views are plain Python objects (pure Python) [compiled build]: :meth:`SeatView.of`
fills their attributes at once, the history read when first asked."""

if _PLAIN:
    setattr(SeatView, "history", _History())  # noqa: B010 (after @dataclass: not a default)

_FIELDS: Final[dict[str, object]] = {
    **{f.name: None for f in fields(SeatView) if f.name != "history"},
    "kitty": None, "calls": (), "friends": (), "trick_leader": None, "trick": (),
    "trick_winner": None, "_log": None,
}
"""The attributes of a view made by :meth:`SeatView.of` (``_log`` for ``history``), with
the values of a view without a visible kitty, friend calls or trick."""
