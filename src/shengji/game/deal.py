"""The pack, and a deal as data: every seat's cards, the kitty, and who draws first.

A round normally shuffles the pack from its seed. A :class:`Deal` gives the cards
instead, for puzzles, teaching positions, tests written as the rulebook's examples and
a table's real deal: ``Round(rules, deal=deal)``. Each hand lists its cards in the
order they are drawn (this matters when bids are made during the deal), and the deal
is checked against the rules: hand sizes, kitty size, and exactly the cards of the
pack.

>>> from shengji.engine.rules import Rules
>>> deal = Deal.parse(["2H 3H 4H", "5H 6H 7H", "8H 9H 10H", "JH QH KH"], "AH 2S", first_drawer=1)
>>> deal.deck()[:5]
(Card('5H'), Card('8H'), Card('JH'), Card('2H'), Card('6H'))
>>> deal.check(Rules())
Traceback (most recent call last):
...
shengji.game.deal.DealError: seat 0 holds 3 cards; these rules deal 25 to each seat
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from shengji.engine.caches import remember
from shengji.engine.cards import (
    ALL_CARDS,
    Card,
    NotationError,
    Rank,
    Suit,
    format_cards,
    parse_cards,
)
from shengji.engine.rules import Rules


def pack(rules: Rules, removed: tuple[Card, ...] = ()) -> list[Card]:
    """The cards of the pack: ``decks`` decks without their ``removed_ranks``, with jokers
    as the rules say, less the ``removed`` cards (``remove_low``, see
    :func:`removed_cards`).

    >>> len(pack(Rules(decks=1))), len(pack(Rules(decks=1, removed_ranks=(2, 3))))
    (54, 46)
    """
    found = _PACKS.get((id(rules), removed))
    if found is None or found[0] is not rules:  # by identity: hashing Rules reads every option
        found = remember(_PACKS, (id(rules), removed), (rules, _pack(rules, removed)), 256)
    return list(found[1])


_PACKS: dict[tuple[int, tuple[Card, ...]], tuple[Rules, tuple[Card, ...]]] = {}


@lru_cache(maxsize=64)
def _pack(rules: Rules, removed: tuple[Card, ...] = ()) -> tuple[Card, ...]:
    big, small = rules.joker_counts
    gone = rules.removed_ranks
    cards = [c for c in ALL_CARDS[:52] if c.rank not in gone for _ in range(rules.decks)]
    for card in removed:
        cards.remove(card)
    return tuple(cards + [ALL_CARDS[52]] * small + [ALL_CARDS[53]] * big)


@lru_cache(maxsize=64)
def pack_counts(rules: Rules, removed: tuple[Card, ...] = ()) -> tuple[int, ...]:
    """Per-face counts of the pack (less the ``removed`` cards)."""
    counts = [0] * len(ALL_CARDS)
    for card in _pack(rules, removed):
        counts[card] += 1
    return tuple(counts)


def removed_cards(rules: Rules, trump_ranks: Iterable[Rank] = ()) -> tuple[Card, ...]:
    """The ``rules.removed_count`` lowest cards taken out of the pack (``remove_low``):
    every copy of 2♣, then 2♦, 2♥, 2♠, 3♣ and so on, skipping the point cards (5, 10, K),
    ``trump_ranks`` (the ranks the round's trump can have) and the ``removed_ranks`` (not
    in the pack).

    >>> rules = Rules(players=5, kitty=6, remove_low=True, partnership="fluid")
    >>> rules.removed_count, removed_cards(rules, [Rank.TWO])
    (2, (Card('3C'), Card('3C')))
    """
    if not rules.removed_count:
        return ()
    skip = {*trump_ranks, *rules.removed_ranks}
    faces = [Card.of(rank, suit) for rank in Rank if rank not in skip for suit in Suit]
    order = [c for c in faces if not c.points for _ in range(rules.decks)]
    return tuple(order[:rules.removed_count])


class DealError(ValueError):
    """A deal does not fit the rules (sizes or cards); the message says what is wrong."""


@dataclass(frozen=True)
class Deal:
    """Every seat's cards in the order drawn, the kitty, and the seat that draws first."""

    hands: tuple[tuple[Card, ...], ...]
    kitty: tuple[Card, ...]
    first_drawer: int = 0

    @classmethod
    def parse(cls, hands: Sequence[str | Sequence[Card | str]], kitty: str | Sequence[Card | str],
              *, first_drawer: int = 0) -> Deal:
        """A deal from card notation (one string per seat); :class:`DealError` if unreadable."""
        try:
            return cls(tuple(parse_cards(h) for h in hands), parse_cards(kitty), first_drawer)
        except NotationError as error:
            raise DealError(str(error)) from None

    def deck(self) -> tuple[Card, ...]:
        """The cards in the order they are drawn, then the kitty: seat ``first_drawer``
        draws first, then the next seat, and so on."""
        n = len(self.hands)
        size = len(self.hands[0]) if self.hands else 0
        order = [self.hands[(self.first_drawer + i) % n][i // n] for i in range(n * size)]
        return (*order, *self.kitty)

    def check(self, rules: Rules, removed: tuple[Card, ...] = ()) -> None:
        """Raise :class:`DealError` unless this deal fits ``rules``: a hand per seat of the
        rules' hand size, a kitty of the kitty size, and exactly the pack's cards (less
        the ``removed`` ones)."""
        n = rules.players
        if len(self.hands) != n:
            raise DealError(f"the deal has {len(self.hands)} hands; these rules seat {n} players")
        if type(self.first_drawer) is not int or not 0 <= self.first_drawer < n:
            raise DealError(f"first_drawer is {self.first_drawer!r}; it must be a seat 0..{n - 1}")
        for seat, hand in enumerate(self.hands):
            if len(hand) != rules.hand_size:
                raise DealError(f"seat {seat} holds {len(hand)} cards; these rules deal "
                                f"{rules.hand_size} to each seat")
        if len(self.kitty) != rules.kitty_size:
            raise DealError(f"the kitty holds {len(self.kitty)} cards; these rules make a kitty "
                            f"of {rules.kitty_size}")
        dealt = Counter(c for hand in self.hands for c in hand) + Counter(self.kitty)
        full = Counter(pack(rules, removed))
        extra, missing = dealt - full, full - dealt
        if extra or missing:
            parts = []
            if extra:
                held = format_cards(sorted(extra.elements()))
                parts.append(f"more than the pack holds of {held}")
            if missing:
                parts.append(f"none left of {format_cards(sorted(missing.elements()))}")
            raise DealError(f"the deal is not the pack of these rules: {'; '.join(parts)}")

    def to_dict(self) -> dict[str, object]:
        """The deal as plain values (for records): hands and kitty in notation."""
        return {"hands": [format_cards(h) for h in self.hands], "kitty": format_cards(self.kitty),
                "first_drawer": self.first_drawer}

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Deal:
        """Read :meth:`to_dict`'s form; :class:`DealError` saying what is wrong."""
        unknown = set(data) - {"hands", "kitty", "first_drawer"}
        if unknown:
            raise DealError(f"unknown deal key(s) {', '.join(sorted(unknown))}; "
                            "a deal has hands, kitty and first_drawer")
        hands, kitty, first = data.get("hands"), data.get("kitty", ""), data.get("first_drawer", 0)
        if not isinstance(hands, list) or not all(isinstance(h, str) for h in hands):
            raise DealError("deal.hands must be a list of strings, one hand per seat in notation")
        if not isinstance(kitty, str):
            raise DealError("deal.kitty must be a string of cards in notation")
        if type(first) is not int:
            raise DealError(f"deal.first_drawer must be a seat number, got {first!r}")
        return cls.parse(hands, kitty, first_drawer=first)
