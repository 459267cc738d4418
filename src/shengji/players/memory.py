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
from shengji.engine.lead import Lead
from shengji.engine.rules import Partnership
from shengji.engine.trick import Play, beats
from shengji.engine.trump import Trump
from shengji.engine.units import Reading
from shengji.game.round import pack_counts
from shengji.game.view import SeatView


class Memory:
    """The public knowledge of one seat, computed from its view."""

    def __init__(self, view: SeatView, *, remember: bool = True) -> None:
        self.view = view
        rules = view.rules
        self.trump = view.trump
        n = rules.players
        counts = list(pack_counts(rules))
        for card in view.hand:
            counts[card] -= 1
        if view.kitty is not None:
            for card in view.kitty:
                counts[card] -= 1
        self.voids: list[set[int]] = [set() for _ in range(n)]
        plays: list[tuple[int, tuple[Card, ...]]] = []
        tricks: list[Sequence[Play]] = [r.plays for r in view.tricks]
        if view.trick:
            tricks.append(view.trick)
        trump = self.trump
        for trick in tricks:
            plays.extend((p.seat, p.cards) for p in trick)
            if remember and trump is not None and trick:
                lead = trick[0].cards
                suit = trump.suit_of(lead[0])
                for play in trick[1:]:
                    if sum(1 for c in play.cards if trump.suit_of(c) == suit) < len(lead):
                        self.voids[play.seat].add(suit)
        if remember:
            for _, cards in plays:
                for card in cards:
                    counts[card] -= 1
        self.unseen = [max(0, c) for c in counts]
        self.tracker: FriendTracker | None = None
        if view.calls and view.dealer is not None:
            tracker = FriendTracker(view.calls, view.dealer, rules)
            for seat, cards in plays:
                tracker.play(seat, cards)
            self.tracker = tracker
        self.fluid = rules.partnership == Partnership.FLUID

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


def current_winner(view: SeatView, trump: Trump) -> tuple[int, Reading, Lead] | None:
    """The seat winning the current trick, its winning reading and the lead."""
    if not view.trick:
        return None
    rules = view.rules
    lead = Lead.from_cards(view.trick[0].cards, trump, rules)
    reading = lead.units
    winner = view.trick[0].seat
    for play in view.trick[1:]:
        better = beats(play.cards, reading, lead, trump, rules)
        if better is not None:
            reading, winner = better, play.seat
    return winner, reading, lead
