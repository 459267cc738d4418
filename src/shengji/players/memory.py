"""What a careful player remembers: cards played, cards unseen, proven voids, sides.

Everything here is derived from a :class:`~shengji.game.view.SeatView` alone,
so a player built on it never sees hidden cards. With ``remember=False`` the
played cards and voids are forgotten (every card not in hand counts as unseen):
that is the "no card memory" baseline players are measured against.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, TypeVar

from shengji.engine.cards import Card, card_ints
from shengji.engine.friends import FriendCall, FriendTracker
from shengji.engine.lead import Lead, is_rainbow
from shengji.engine.rainbows import read_rainbow_throw
from shengji.engine.rules import Partnership, Rules
from shengji.engine.trick import TrickPlay, beats, beats_single
from shengji.engine.trump import TRUMP as _TRUMP_SUIT
from shengji.engine.trump import Trump
from shengji.engine.units import (
    LevelCounts,
    Reading,
    Unit,
    counts_of_suit,
    placements,
)
from shengji.game.deal import pack_counts
from shengji.game.scoresheet import TrickRecord
from shengji.game.view import SeatView

T = TypeVar("T")

TRUMP: Final = _TRUMP_SUIT
"""The trump suit's index (Final [compiled build])."""
_FLUID: Final = Partnership.FLUID


class TrickLog:
    """Cards played, voids proven and friends revealed in a round's finished tricks, kept
    up to date incrementally from one view to the next (views of a round share their
    trick records, so only new tricks are read)."""

    def __init__(self) -> None:
        self.rules: object = None
        self.pack: tuple[int, ...] = ()
        self._reset(None, 0)

    def _reset(self, first: object, players: int) -> None:
        self.first = first
        self.read = 0
        self.left: list[int] | None = None
        """Per face, the pack less the cards played in the tricks read (kept with them)."""
        self.voids: list[set[int]] = [set() for _ in range(players)]
        self.plays: list[tuple[int, tuple[Card, ...]]] = []
        self._tracker: FriendTracker | None = None
        self._tracked: tuple[tuple[FriendCall, ...], int, object, int] | None = None
        self._base: list[int] | None = None
        """:meth:`unseen_base`, kept up to date with the tricks read for the seat, hand
        size and kitty it was made for."""
        self._base_seat = -1
        self._base_size = 0
        self._base_kitty: tuple[Card, ...] | None = None

    def update(self, view: SeatView) -> None:
        """Read the tricks of ``view`` that this log has not read yet (or take what another
        seat's log read of them: :class:`_Reading`)."""
        tricks, rules = view.tricks, view.rules
        if rules is not self.rules:  # everything read again under the new rules
            self.rules = rules
            self.pack = _pack(rules, view.removed)
            self._reset(None, rules.players)
        if not tricks:
            if self.first is not None or self.read or len(self.voids) != rules.players:
                self._reset(None, rules.players)  # (else nothing read: still fresh)
        elif tricks[0] is not self.first or len(tricks) < self.read:
            self._reset(tricks[0], rules.players)
        if self.left is None:  # (nothing read)
            self.left = list(self.pack)
        count = len(tricks)
        if count == self.read:
            return
        trump, first, read = view.trump, tricks[0], self.read
        done = len(self.plays)  # the plays of the tricks read before
        # the latest reading another seat's log made of these tricks, if any: only the
        # tricks after it are read here
        start = read
        for j in range(count, read, -1):
            known = _READINGS.get(id(tricks[j - 1]))
            if known is not None and known.last is tricks[j - 1] and known.first is first and (
                    known.count == j and known.pack is self.pack and known.rules is rules
                    and known.trump is trump):
                self.left, self.voids, self.plays = known.left, known.voids, known.plays
                start = j
                break
        if start < count:  # read here, from copies (the lists read before may be shared)
            left, voids, plays = self.left[:], self.voids[:], self.plays[:]
            for record in tricks[start:]:
                _read_trick(record.plays, trump, rules, left, voids, plays)
            self.left, self.voids, self.plays = left, voids, plays
            if len(_READINGS) >= 8:  # the seats of a round read a trick one after another:
                del _READINGS[next(iter(_READINGS))]  # a few kept are enough (the oldest go)
            _READINGS[id(tricks[-1])] = _Reading(tricks, self.pack, rules, trump, left, voids,
                                                 plays)
        self.read = count
        base = self._base
        if base is not None:  # the seat's own cards left its hand as they left the pack
            me = self._base_seat
            for seat, cards in self.plays[done:]:
                if seat == me:
                    self._base_size -= len(cards)
                else:
                    for card in card_ints(cards):
                        base[card] -= 1

    def unseen_base(self, view: SeatView) -> list[int]:
        """Per face, the pack less the cards of the tricks read, of the seat's hand and of
        its kitty (after :meth:`update` with ``view``; shared: copy it to change it)."""
        base = self._base
        if base is None or self._base_seat != view.seat or self._base_size != len(
                view.hand) or self._base_kitty != view.kitty:
            assert self.left is not None
            base = self.left[:]
            _remove_own(base, view)
            self._base, self._base_seat = base, view.seat
            self._base_size, self._base_kitty = len(view.hand), view.kitty
        return base

    def tracker(self, calls: tuple[FriendCall, ...], dealer: int, rules: Rules
                ) -> FriendTracker:
        """A new tracker of ``calls`` that has seen the plays of the tricks read."""
        key = self._tracked
        tracker = self._tracker
        if tracker is None or key is None or key[0] != calls or key[1] != dealer or (
                key[2] is not rules) or key[3] > len(self.plays):
            tracker = self._tracker = FriendTracker(calls, dealer, rules)
            key = (calls, dealer, rules, 0)
        for seat, cards in self.plays[key[3]:]:
            tracker.play(seat, cards)
        self._tracked = (calls, dealer, rules, len(self.plays))
        return tracker.copy()


_PACKS: Final[list[tuple[Rules, tuple[Card, ...], tuple[int, ...]]]] = []
"""The last pack read by :func:`_pack` (the seats of a round share their rules)."""


def _pack(rules: Rules, removed: tuple[Card, ...]) -> tuple[int, ...]:
    """:func:`~shengji.game.deal.pack_counts`, kept for the last rules object asked for
    (looking it up in that function's cache hashes the whole rules)."""
    if _PACKS:
        last = _PACKS[0]
        if last[0] is rules and last[1] == removed:
            return last[2]
    pack = pack_counts(rules, removed)
    _keep(_PACKS, (rules, removed, pack))
    return pack


def shows_void(lead: Sequence[Card], play: Sequence[Card], trump: Trump, rules: Rules) -> bool:
    """True if ``play``, following ``lead``, proves its seat void in the led suit: fewer
    cards of that suit than were led — unless the lead was a rainbow or a rainbow throw
    (followers owe no suit) or the play is a bomb that may be played instead of following
    suit."""
    index = trump.suit_index
    suit = index[lead[0]]
    held = 0
    for card in play:
        if index[card] == suit:
            held += 1
    if held >= len(lead):
        return False
    if rules.rainbow and rainbow_led(lead, trump, rules):
        return False
    bomb = rules.bombs and len(play) >= rules.bombs and len(set(play)) == 1
    return not bomb or rules.bomb_follow_suit


def rainbow_led(lead: Sequence[Card], trump: Trump, rules: Rules) -> bool:
    """Whether the cards led are a rainbow or a rainbow throw (``rules.rainbow``)."""
    return bool(rules.rainbow) and (is_rainbow(lead, trump, rules) or (
        rules.rainbow_throws and read_rainbow_throw(lead, trump, rules) is not None))


class _Reading:
    """What the logs read of a round's finished tricks up to ``last`` (the same for every
    seat): the first log to read a trick keeps its reading here, the others of the round
    take it. Its lists are shared: read them, never change them."""

    def __init__(self, tricks: tuple[TrickRecord, ...], pack: tuple[int, ...], rules: Rules,
                 trump: Trump | None, left: list[int], voids: list[set[int]],
                 plays: list[tuple[int, tuple[Card, ...]]]) -> None:
        self.first, self.last, self.count = tricks[0], tricks[-1], len(tricks)
        self.pack, self.rules, self.trump = pack, rules, trump
        self.left, self.voids, self.plays = left, voids, plays


_READINGS: Final[dict[int, _Reading]] = {}
"""The last few readings, by the identity of their last trick (which each keeps alive)."""


def _read_trick(trick: Sequence[TrickPlay], trump: Trump | None, rules: Rules, left: list[int],
                voids: list[set[int]], plays: list[tuple[int, tuple[Card, ...]]]) -> None:
    """Take a finished trick's cards from ``left``, note its plays and the voids shown
    (a seat's set of voids is replaced, not changed: earlier readings share it)."""
    if not trick:
        return
    lead_at = len(plays)
    for play in trick:
        cards = play.cards
        plays.append((play.seat, cards))
        for card in card_ints(cards):
            left[card] -= 1
    if trump is None:
        return
    lead = plays[lead_at][1]
    index = trump.suit_index
    suit = index[lead[0]]
    single = len(lead) == 1  # one card: off-suit is void (no rainbow or bomb is one card)
    for seat, cards in plays[lead_at + 1:]:  # (the pairs just noted: no attribute reads)
        if suit not in voids[seat] and (index[cards[0]] != suit if single else shows_void(
                lead, cards, trump, rules)):
            voids[seat] = voids[seat] | {suit}


_SIDES: Final[dict[int, set[int]]] = {}
"""The side of each seat under fixed partnerships, by number of players and seat."""


class Memory:
    """The public knowledge of one seat, computed from its view (each part when first read).

    Pass a :class:`TrickLog` kept across decisions to avoid reading every
    finished trick again at each decision: then only the current trick and the
    seat's own cards are read. ``voids`` may share its sets with the log: read them,
    never change them.
    """

    def __init__(self, view: SeatView, *, remember: bool = True,
                 log: TrickLog | None = None) -> None:
        self.view = view
        self.trump = view.trump
        rules = view.rules
        # the view's fields read by most decisions, each read once (in pure Python a read
        # of a view's attribute is a dictionary lookup)
        self.rules = rules
        self.seat = view.seat
        self.trick = view.trick
        self.players = rules.players
        self.remember = remember
        self.log = log if log is not None else TrickLog()
        self._read = False
        self._voids: list[set[int]] | None = None
        self._unseen: list[int] | None = None
        self._tracked = False
        self._tracker: FriendTracker | None = None
        self._by_suit: dict[int, LevelCounts] = {}
        self._highest: dict[int, int] = {}
        self.fluid = rules.partnership == _FLUID

    def _updated(self) -> TrickLog:
        """The log, having read the view's finished tricks."""
        if not self._read:
            self.log.update(self.view)
            self._read = True
        return self.log

    @property
    def voids(self) -> list[set[int]]:
        """Per seat, the effective suits it has shown it is void in (forgotten, empty,
        without memory)."""
        voids = self._voids
        if voids is None:
            n = self.players
            if not self.remember:
                voids = [set() for _ in range(n)]
            else:
                log = self._updated()
                voids = log.voids[:] if log.voids else [set() for _ in range(n)]
                # the log's sets, replaced (not changed) below
                trick, trump = self.trick, self.trump
                if len(trick) > 1 and trump is not None:
                    lead = trick[0].cards
                    suit = trump.suit_index[lead[0]]
                    for play in trick[1:]:
                        if suit not in voids[play.seat] and shows_void(lead, play.cards, trump,
                                                                        self.rules):
                            voids[play.seat] = voids[play.seat] | {suit}
            self._voids = voids
        return voids

    @property
    def unseen(self) -> list[int]:
        """Per face, the copies this seat has not seen (in other hands or the kitty; every
        card not held, without memory)."""
        unseen = self._unseen
        if unseen is None:
            view = self.view
            log = self._updated()
            if self.remember:
                counts = log.unseen_base(view)[:]  # (a slice [compiled build])
                for play in self.trick:
                    for card in card_ints(play.cards):
                        counts[card] -= 1
            else:
                counts = list(log.pack)
                _remove_own(counts, view)
            for count in counts:  # (a loop, not min() [compiled build])
                if count < 0:
                    counts = [c if c > 0 else 0 for c in counts]
                    break
            unseen = self._unseen = counts
        return unseen

    @property
    def tracker(self) -> FriendTracker | None:
        """The friend calls' tracker after the plays so far (``None`` without calls)."""
        if not self._tracked:
            view = self.view
            if view.calls and view.dealer is not None:
                tracker = self._updated().tracker(view.calls, view.dealer, self.rules)
                for play in self.trick:
                    tracker.play(play.seat, play.cards)
                self._tracker = tracker
            self._tracked = True
        return self._tracker

    def unseen_in(self, suit: int, trump: Trump) -> LevelCounts:
        """The unseen cards of one effective suit by level (read once per decision; the
        result is shared: do not change it)."""
        found = self._by_suit.get(suit)
        if found is None:
            found = self._by_suit[suit] = counts_of_suit(self.unseen, suit, trump)
        return found

    def beaten(self, suit: int, unit: Unit, trump: Trump) -> bool:
        """True if the unseen cards of ``suit`` hold a unit of ``unit``'s shape above it."""
        if unit.length > 1:
            return next(placements(self.unseen_in(suit, trump), unit.width, unit.length,
                                   trump, self.rules, above=unit.top), None) is not None
        key = suit * 64 + unit.width
        highest = self._highest.get(key)
        if highest is None:  # the highest level holding ``width`` unseen copies of a face
            unseen, columns, width = self.unseen, trump.faces_at[suit], unit.width
            highest = len(columns) - 1
            while highest >= 0:
                for face in columns[highest]:
                    if unseen[face] >= width:
                        break
                else:  # no face of this level has ``width`` unseen copies
                    highest -= 1
                    continue
                break
            self._highest[key] = highest
        return highest > unit.top

    def safe(self, reading: Reading, after: list[int], side: set[int], lead: Lead) -> bool:
        """True if no opponent among ``after`` (the seats still to play) can beat
        ``reading`` as far as this seat knows: none of them is void in a plain led suit
        while one of them may hold trumps, and no unseen unit of the suit is higher."""
        threats = [s for s in after if s not in side]
        if not threats:
            return True
        trump = self.trump
        assert trump is not None
        suit = reading[0].suit
        if suit != TRUMP:  # a threat void in the led suit may ruff, unless all lack trumps
            voids, led = self.voids, lead.suit
            for s in threats:
                if led in voids[s]:
                    for t in threats:
                        if TRUMP not in voids[t]:
                            return False
                    break
        for unit in reading:
            if self.beaten(suit, unit, trump):
                return False
        return suit == TRUMP or lead.suit == suit

    def side(self) -> set[int]:
        """Seats this seat knows to be on its side (itself included; the set may be shared:
        do not change it)."""
        me, n = self.seat, self.players
        if not self.fluid:
            key = n * 64 + me
            side = _SIDES.get(key)
            if side is None:
                side = _SIDES[key] = {s for s in range(n) if s % 2 == me % 2}
            return side
        declarers = set(self.view.declarers)
        if me in declarers or self.holds_call():
            return declarers | {me}
        if self.tracker is not None and self.tracker.settled:
            return set(self.view.opponents)
        return {me}

    def holds_call(self) -> bool:
        """True if this seat holds a called card that will still make it a friend."""
        tracker = self.tracker
        if tracker is None or self.seat == self.view.dealer:
            return False
        for i, call in enumerate(tracker.calls):
            if tracker.done[i]:
                continue
            needed = call.ordinal - tracker.seen[i]
            held = sum(1 for c in self.view.hand if call.matches(c))
            if held and needed == 1:
                return True
        return False

    def declaring(self) -> bool:
        """True if this seat is (or will be) on the declaring side."""
        return self.seat in self.view.declarers or self.holds_call()


_Winner = tuple[Trump, Rules, tuple[TrickPlay, ...], int, Reading, Lead]
_last_trick: Final[list[_Winner]] = []
"""The last trick read by :func:`current_winner` (the next seat's view of the same trick
shares its plays, so only the plays added since are compared)."""


def current_winner(view: SeatView, trump: Trump, lead: Lead | None = None
                   ) -> tuple[int, Reading, Lead] | None:
    """The seat winning the current trick, its winning reading and the lead (``lead``: the
    trick's lead if the caller has it, e.g. from the legal follows, to save reading it)."""
    trick = view.trick
    if not trick:
        return None
    rules = view.rules
    start = 1
    last = _last_trick[0] if _last_trick else None
    if last is not None and last[0] is trump and last[1] is rules and len(last[2]) <= len(
            trick) and trick[:len(last[2])] == last[2]:  # the same plays, and maybe more
        start, winner, reading, lead = len(last[2]), last[3], last[4], last[5]
    else:
        if lead is None:
            lead = Lead.from_cards(trick[0].cards, trump, rules)
        reading = lead.units
        winner = trick[0].seat
    single = lead.size == 1 and not lead.rainbow
    for play in trick[start:]:
        if single:
            better = beats_single(play.cards, reading[0], trump)
        else:
            better = beats(play.cards, reading, lead, trump, rules)
        if better is not None:
            reading, winner = better, play.seat
    _keep(_last_trick, (trump, rules, trick, winner, reading, lead))
    return winner, reading, lead


def _keep(cell: list[T], value: T) -> None:
    """Make ``value`` the one item of ``cell`` (not a slice assignment [compiled build])."""
    if cell:
        cell[0] = value
    else:
        cell.append(value)


def _remove_own(counts: list[int], view: SeatView) -> None:
    """Take the seat's hand and its kitty (when it holds one) out of per-face ``counts``."""
    for card in card_ints(view.hand):
        counts[card] -= 1
    if view.kitty is not None:
        for card in card_ints(view.kitty):
            counts[card] -= 1
