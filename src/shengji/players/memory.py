"""What a careful player remembers: cards played, cards unseen, proven voids, sides.

Everything here is derived from a :class:`~shengji.game.view.SeatView` alone,
so a player built on it never sees hidden cards. With ``remember=False`` the
played cards and voids are forgotten (every card not in hand counts as unseen):
that is the "no card memory" baseline players are measured against.
"""

from __future__ import annotations

from collections.abc import Sequence

from shengji.engine.cards import Card
from shengji.engine.friends import FriendTracker
from shengji.engine.lead import Lead, is_rainbow
from shengji.engine.rules import Partnership, Rules
from shengji.engine.trick import Play, beats
from shengji.engine.trump import Trump
from shengji.engine.units import LevelCounts, Reading, counts_of_suit
from shengji.game.deal import pack_counts
from shengji.game.view import SeatView


class TrickLog:
    """Cards played and voids proven in a round's finished tricks, kept up to date
    incrementally from one view to the next (views of a round share their trick
    records, so only new tricks are read)."""

    def __init__(self) -> None:
        self.rules: object = None
        self.pack: tuple[int, ...] = ()
        self._reset(None, 0)

    def _reset(self, first: object, players: int) -> None:
        self.first = first
        self.read = 0
        self.played = [0] * 54
        self.left: list[int] | None = None
        """Per face, the pack less the cards played in the tricks read (kept with them)."""
        self.voids: list[set[int]] = [set() for _ in range(players)]
        self.plays: list[tuple[int, tuple[Card, ...]]] = []

    def update(self, view: SeatView) -> None:
        """Read the tricks of ``view`` that this log has not read yet."""
        tricks = view.tricks
        if not tricks or tricks[0] is not self.first or len(tricks) < self.read:
            self._reset(tricks[0] if tricks else None, view.rules.players)
        if view.rules is not self.rules:
            self.rules = view.rules
            self.pack = pack_counts(view.rules, view.removed)
            self.left = None
        trump = view.trump
        new = tricks[self.read:]
        for record in new:
            _read_trick(record.plays, trump, view.rules, self.played, self.voids, self.plays)
        left = self.left
        if left is None:
            self.left = [k - p for k, p in zip(self.pack, self.played, strict=True)]
        else:
            for record in new:
                for play in record.plays:
                    for card in play.cards:
                        left[card] -= 1
        self.read = len(tricks)


def shows_void(lead: Sequence[Card], play: Sequence[Card], trump: Trump, rules: Rules) -> bool:
    """True if ``play``, following ``lead``, proves its seat void in the led suit: fewer
    cards of that suit than were led — unless the lead was a rainbow (followers owe no
    suit) or the play is a bomb that may be played instead of following suit."""
    index = trump.suit_index
    suit = index[lead[0]]
    if sum(1 for c in play if index[c] == suit) >= len(lead):
        return False
    if rules.rainbow and is_rainbow(lead, trump, rules):
        return False
    bomb = rules.bombs and len(play) >= rules.bombs and len(set(play)) == 1
    return not bomb or rules.bomb_follow_suit


def _read_trick(trick: Sequence[Play], trump: Trump | None, rules: Rules, played: list[int],
                voids: list[set[int]], plays: list[tuple[int, tuple[Card, ...]]]) -> None:
    if not trick:
        return
    for play in trick:
        plays.append((play.seat, play.cards))
        for card in play.cards:
            played[card] += 1
    if trump is None:
        return
    lead = trick[0].cards
    suit = trump.suit_index[lead[0]]
    for play in trick[1:]:
        if shows_void(lead, play.cards, trump, rules):
            voids[play.seat].add(suit)


class Memory:
    """The public knowledge of one seat, computed from its view.

    Pass a :class:`TrickLog` kept across decisions to avoid reading every
    finished trick again at each decision: then only the current trick and the
    seat's own cards are read. ``voids`` may share its sets with the log: read them,
    never change them.
    """

    def __init__(self, view: SeatView, *, remember: bool = True,
                 log: TrickLog | None = None) -> None:
        self.view = view
        rules = view.rules
        self.trump = view.trump
        n = rules.players
        if log is None:
            log = TrickLog()
        log.update(view)
        assert log.left is not None
        counts = list(log.left) if remember else list(log.pack)
        for card in view.hand:
            counts[card] -= 1
        if view.kitty is not None:
            for card in view.kitty:
                counts[card] -= 1
        trick = view.trick
        voids: list[set[int]] = [set() for _ in range(n)]
        if remember:
            if log.voids:
                voids = list(log.voids)  # the log's sets, replaced (not changed) below
            for play in trick:
                for card in play.cards:
                    counts[card] -= 1
            trump = self.trump
            if trick and trump is not None:
                lead = trick[0].cards
                suit = trump.suit_index[lead[0]]
                for play in trick[1:]:
                    if suit not in voids[play.seat] and shows_void(lead, play.cards, trump,
                                                                    rules):
                        voids[play.seat] = voids[play.seat] | {suit}
        self.voids = voids
        plays = [*log.plays, *((p.seat, p.cards) for p in trick)] if view.calls else []
        self.unseen = [c if c > 0 else 0 for c in counts]
        self._by_suit: dict[int, LevelCounts] = {}
        self.tracker: FriendTracker | None = None
        if view.calls and view.dealer is not None:
            tracker = FriendTracker(view.calls, view.dealer, rules)
            for seat, cards in plays:
                tracker.play(seat, cards)
            self.tracker = tracker
        self.fluid = rules.partnership == Partnership.FLUID

    def unseen_in(self, suit: int, trump: Trump) -> LevelCounts:
        """The unseen cards of one effective suit by level (read once per decision; the
        result is shared: do not change it)."""
        found = self._by_suit.get(suit)
        if found is None:
            found = self._by_suit[suit] = counts_of_suit(self.unseen, suit, trump)
        return found

    def side(self) -> set[int]:
        """Seats this seat knows to be on its side (itself included)."""
        view = self.view
        me, n = view.seat, view.rules.players
        if not self.fluid:
            return {s for s in range(n) if s % 2 == me % 2}
        declarers = set(view.declarers)
        if me in declarers or self.holds_call():
            return declarers | {me}
        if self.tracker is not None and self.tracker.settled:
            return {s for s in range(n) if s not in declarers}
        return {me}

    def holds_call(self) -> bool:
        """True if this seat holds a called card that will still make it a friend."""
        tracker = self.tracker
        if tracker is None or self.view.seat == self.view.dealer:
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
        view = self.view
        return view.seat in view.declarers or self.holds_call()


_Winner = tuple[Trump, Rules, tuple[Play, ...], int, Reading, Lead]
_last_trick: list[_Winner] = []
"""The last trick read by :func:`current_winner` (the next seat's view of the same trick
shares its plays, so only the plays added since are compared)."""


def current_winner(view: SeatView, trump: Trump) -> tuple[int, Reading, Lead] | None:
    """The seat winning the current trick, its winning reading and the lead."""
    trick = view.trick
    if not trick:
        return None
    rules = view.rules
    start = 1
    last = _last_trick[0] if _last_trick else None
    if last is not None and last[0] is trump and last[1] is rules and len(last[2]) <= len(
            trick) and all(a is b for a, b in zip(last[2], trick, strict=False)):
        start, winner, reading, lead = len(last[2]), last[3], last[4], last[5]
    else:
        lead = Lead.from_cards(trick[0].cards, trump, rules)
        reading = lead.units
        winner = trick[0].seat
    for play in trick[start:]:
        better = beats(play.cards, reading, lead, trump, rules)
        if better is not None:
            reading, winner = better, play.seat
    _last_trick[:] = [(trump, rules, trick, winner, reading, lead)]
    return winner, reading, lead
