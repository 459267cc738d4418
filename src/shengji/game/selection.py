"""Partial selections: multi-card actions built one card at a time.

A *selector* holds the cards chosen so far for one decision (a bid, an exposure, a bury,
a lead or a follow) and answers two questions exactly: which cards may be added so that
the selection can still be completed to a legal action (:meth:`Selector.addable`), and
whether the selection is itself a legal action (:meth:`Selector.complete`). Everything
here is pure Python over 54 per-face counts; the engine's checks are used where they
exist (:meth:`shengji.engine.follow.LegalPlays.can_complete`, the lead and bury rules).
A seat's :class:`~shengji.game.legal.Legal` makes the selector of its decision
(:meth:`~shengji.game.legal.Legal.selector`) and answers
:meth:`~shengji.game.legal.Legal.can_complete` with it; the environment
(:mod:`shengji.env`) builds its multi-card actions with these.

>>> from shengji.engine.cards import Hand
>>> pick = BurySelector(Hand("5S 5S KS 3C 4C").counts, size=3, max_points=1)
>>> [str(c) for c in pick.addable()]
['3C', '4C', '5S', 'KS']
>>> pick.add(Card("5S")); [str(c) for c in pick.addable()]
['3C', '4C']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from copy import copy
from itertools import compress, product
from typing import cast

from shengji.engine.caches import remember
from shengji.engine.cards import ALL_CARDS, Card
from shengji.engine.follow import LegalPlays
from shengji.engine.lead import Lead, LegalLeads, PlayError, rainbows
from shengji.engine.rainbows import read_rainbow_throw, throw_completable
from shengji.engine.rules import Rules
from shengji.engine.trump import Trump

OPTIONS_LIMIT = 2_000
"""Follows with at most this many distinct legal plays are listed once and filtered;
larger sets ask :meth:`LegalPlays.can_complete` card by card."""

SUPERSET_LIMIT = 50_000
"""The most completions tried for a lead under ``throw_mixed = false`` (see
:class:`LeadSelector`)."""


_SUIT_FACES: dict[int, tuple[Trump, tuple[tuple[Card, ...], ...]]] = {}


def suit_faces(trump: Trump) -> tuple[tuple[Card, ...], ...]:
    """The faces of each effective suit (``suit_index`` values 0..4), in index order
    (kept for the last few trumps seen)."""
    found = _SUIT_FACES.get(id(trump))
    if found is not None and found[0] is trump:
        return found[1]
    table = tuple(tuple(c for c in ALL_CARDS if trump.suit_index[c] == s) for s in range(5))
    remember(_SUIT_FACES, id(trump), (trump, table), 16)
    return table


class Selector:
    """The cards chosen so far for one multi-card action, and what may follow."""

    def __init__(self, held: Sequence[int]) -> None:
        self.held = list(held)
        """The counts per face the selection is taken from."""
        self._faces: list[Card] | None = None
        self.chosen = [0] * 54
        self.cards: list[Card] = []

    @property
    def faces(self) -> list[Card]:
        """The faces held (read when first needed)."""
        faces = self._faces
        if faces is None:
            faces = self._faces = list(compress(ALL_CARDS, self.held))
        return faces

    def add(self, card: Card) -> None:
        """Add ``card`` (the caller checks it is in :meth:`addable`)."""
        self.chosen[card] += 1
        self.cards.append(card)

    def clone(self) -> Selector:
        """An independent copy (the position's data shared)."""
        other = copy(self)
        other.chosen = list(self.chosen)
        other.cards = list(self.cards)
        return other

    def _free(self) -> list[Card]:
        """The faces with copies left to choose."""
        chosen, held = self.chosen, self.held
        return [f for f in self.faces if held[f] > chosen[f]]

    def _free_of(self, faces: Sequence[Card]) -> list[Card]:
        """The faces among ``faces`` with copies left to choose."""
        chosen, held = self.chosen, self.held
        return [f for f in faces if held[f] > chosen[f]]

    def addable(self) -> list[Card]:
        """The faces that keep the selection completable to a legal action."""
        raise NotImplementedError

    def complete(self) -> bool:
        """True when the selection itself is a legal action."""
        raise NotImplementedError


class OptionsSelector(Selector):
    """A choice among listed options (bids, units to lead, a small set of follows): a
    card may be added if some option still holding the selection has a copy left."""

    def __init__(self, held: Sequence[int], options: Iterable[Sequence[Card]]) -> None:
        super().__init__(held)
        self.options: list[dict[int, int]] = []
        seen: set[tuple[int, ...]] = set()
        for option in options:
            key = tuple(sorted(option))
            if key in seen:
                continue
            seen.add(key)
            counts: dict[int, int] = {}
            for card in option:
                counts[card] = counts.get(card, 0) + 1
            self.options.append(counts)

    def add(self, card: Card) -> None:
        super().add(card)
        n = self.chosen[card]
        self.options = [o for o in self.options if o.get(card, 0) >= n]

    def addable(self) -> list[Card]:
        chosen = self.chosen
        faces = {f for o in self.options for f, n in o.items() if n > chosen[f]}
        return [ALL_CARDS[f] for f in sorted(faces)]

    def complete(self) -> bool:
        size = len(self.cards)
        return any(sum(o.values()) == size for o in self.options)


class ExposeSelector(Selector):
    """Up to ``most`` cards of the hand (none is allowed)."""

    def __init__(self, held: Sequence[int], most: int) -> None:
        super().__init__(held)
        self.most = most

    def addable(self) -> list[Card]:
        return self._free() if len(self.cards) < self.most else []

    def complete(self) -> bool:
        return True


class BurySelector(Selector):
    """Exactly ``size`` cards, at most ``max_points`` of them point cards (5, 10, K)."""

    def __init__(self, held: Sequence[int], size: int, max_points: int) -> None:
        super().__init__(held)
        self.size = size
        self.max_points = max_points
        self._scoring = sum(n for f, n in enumerate(self.held) if n and ALL_CARDS[f].points)
        """Point cards left to choose."""
        self._plain = sum(self.held) - self._scoring
        """Other cards left to choose."""
        self._points = 0
        """Point cards chosen."""

    def add(self, card: Card) -> None:
        super().add(card)
        if card.points:
            self._points += 1
            self._scoring -= 1
        else:
            self._plain -= 1

    def addable(self) -> list[Card]:
        if len(self.cards) >= self.size:
            return []
        need = self.size - len(self.cards) - 1  # after the card added
        points, plain, scoring, most = self._points, self._plain, self._scoring, self.max_points
        # one more point card chosen leaves one fewer; one more other card likewise
        point = points < most and need <= plain + min(scoring - 1, most - points - 1)
        other = need <= plain - 1 + min(scoring, most - points)
        if point and other:
            return self._free()
        if not (point or other):
            return []
        return [c for c in self._free() if bool(c.points) == point]

    def complete(self) -> bool:
        return len(self.cards) == self.size


class LeadSelector(Selector):
    """A lead: one unit, or with throws any set of one effective suit.

    With throws of mixed shapes allowed every non-empty set of one suit is a lead; without
    throws the selection must lie within a unit the hand holds; with ``throw_mixed =
    false`` the completions within the suit are tried (up to :data:`SUPERSET_LIMIT`). With
    ``rules.rainbow`` the hand's rainbows (one rank across effective suits) are leads too,
    and with ``rules.rainbow_throws`` (and throws) its rainbow throws: a card may be added
    while the ranks chosen can still be completed to whole layers, two or more in all
    (:func:`~shengji.engine.rainbows.throw_completable`)."""

    def __init__(self, legal: LegalLeads) -> None:
        super().__init__(legal.hand.counts)
        self.legal = legal
        self.trump: Trump = legal.trump
        self.rules: Rules = legal.rules
        self._units: OptionsSelector | None = None
        if not self.rules.throws:
            self._units = OptionsSelector(self.held, (u.cards for u in legal.units()))
        self._rainbows: OptionsSelector | None = None
        if self.rules.rainbow:
            found = [r for size in range(self.rules.rainbow, 6)
                     for r in rainbows(self.held, size, self.trump, self.rules)]
            if found:
                self._rainbows = OptionsSelector(self.held, found)
        self._throws = bool(self.rules.rainbow and self.rules.rainbow_throws
                            and self.rules.throws)
        """Rainbow throws may be led."""
        self._memo: dict[tuple[int, ...], bool] = {}
        self._suits = self.trump.suit_index
        self._suit = -1
        """The effective suit of the first card chosen (-1: none yet)."""
        self._one = True
        """True while every card chosen is of that suit."""

    def add(self, card: Card) -> None:
        super().add(card)
        suit = self._suits[card]
        if self._suit < 0:
            self._suit = suit
        elif suit != self._suit:
            self._one = False
        if self._units is not None:
            self._units.add(card)
        if self._rainbows is not None:
            self._rainbows.add(card)

    def clone(self) -> LeadSelector:
        other = cast(LeadSelector, super().clone())
        if self._units is not None:
            other._units = cast(OptionsSelector, self._units.clone())
        if self._rainbows is not None:
            other._rainbows = cast(OptionsSelector, self._rainbows.clone())
        return other

    def addable(self) -> list[Card]:
        cards = self._suit_addable() if self._one else []
        if self._rainbows is not None:
            more = [c for c in self._rainbows.addable() if c not in cards]
            if more:
                cards = sorted(cards + more)
        if self._throws:
            more = [c for c in self._free() if c not in cards and self._throw_completable(c)]
            if more:
                cards = sorted(cards + more)
        return cards

    def _throw_completable(self, card: Card) -> bool:
        """The selection plus ``card`` can be completed to a rainbow throw."""
        chosen = list(self.chosen)
        chosen[card] += 1
        return throw_completable(chosen, self.held, self.trump, self.rules)

    def _suit_addable(self) -> list[Card]:
        if self._units is not None:
            return self._units.addable()
        suit = self._suit
        free = self._free() if suit < 0 else self._free_of(suit_faces(self.trump)[suit])
        if self.rules.throw_mixed:
            return free
        return [c for c in free if self._completable(c)]

    def complete(self) -> bool:
        if not self.cards:
            return False
        if self._rainbows is not None and self._rainbows.complete():
            return True
        if self._throws and read_rainbow_throw(self.cards, self.trump, self.rules) is not None:
            return True
        if not self._one:
            return False
        if self._units is not None:
            return self._units.complete()
        if self.rules.throw_mixed:
            return True
        return self._is_lead(self.cards)

    def _is_lead(self, cards: Sequence[Card]) -> bool:
        try:
            Lead.from_cards(cards, self.trump, self.rules)
        except PlayError:
            return False
        return True

    def _completable(self, card: Card) -> bool:
        """Some lead of one shape holds the selection plus ``card`` (``throw_mixed =
        false``): the completions within its suit are tried."""
        chosen = list(self.chosen)
        chosen[card] += 1
        key = tuple(chosen)
        found = self._memo.get(key)
        if found is not None:
            return found
        suit = self.trump.suit_index[card]
        base = [ALL_CARDS[f] for f, n in enumerate(chosen) for _ in range(n)]
        faces = [f for f, n in enumerate(self.held)
                 if self.trump.suit_index[f] == suit and n > chosen[f]]
        ranges = [range(self.held[f] - chosen[f] + 1) for f in faces]
        found = False
        for tried, extra in enumerate(product(*ranges)):
            if tried >= SUPERSET_LIMIT:
                break
            more = [ALL_CARDS[f] for f, k in zip(faces, extra, strict=True) for _ in range(k)]
            if self._is_lead(base + more):
                found = True
                break
        self._memo[key] = found
        return found


class FollowSelector(Selector):
    """A follow: exactly as many cards as were led, meeting the obligations of
    :class:`~shengji.engine.follow.LegalPlays` (its modes: void, short, following)."""

    def __init__(self, legal: LegalPlays) -> None:
        super().__init__(legal.hand.counts)
        self.legal = legal
        self.count = legal.count
        self._suits = legal.trump.suit_index
        self._suit = legal.suit
        self.off = 0  # chosen cards outside the led suit
        self._options: OptionsSelector | None = None
        self._structured = legal.mode == "follow" and bool(legal.target)
        if self._structured:
            plays: list[tuple[Card, ...]] = []
            for play in legal:
                plays.append(play)
                if len(plays) > OPTIONS_LIMIT:
                    break
            else:
                self._options = OptionsSelector(self.held, plays)

    def add(self, card: Card) -> None:
        super().add(card)
        if self._suits[card] != self._suit:
            self.off += 1
        if self._options is not None:
            self._options.add(card)

    def clone(self) -> FollowSelector:
        other = cast(FollowSelector, super().clone())
        if self._options is not None:
            other._options = cast(OptionsSelector, self._options.clone())
        return other

    def addable(self) -> list[Card]:
        if len(self.cards) >= self.count:
            return []
        mode = self.legal.mode
        if self.legal.bombs or mode == "rainbow" or mode == "rainbows":
            # answers outside the led suit's rules
            return [c for c in self._free() if self.legal.can_complete([*self.cards, c])]
        if mode == "free":
            return self._free()
        if mode == "short" and self.count - self.legal.suit_count - self.off > 0:
            return self._free()
        if self._options is not None:
            return self._options.addable()
        free = self._free_of(suit_faces(self.legal.trump)[self._suit])
        if not self._structured:
            return free
        return [c for c in free if self.legal.can_complete([*self.cards, c])]

    def complete(self) -> bool:
        return len(self.cards) == self.count
