"""The trump context of a round: effective suits, strengths and adjacency.

A card's meaning depends on the round's trump. :class:`Trump` compiles, once
per round, a table over the 54 faces: the card's *effective suit* (one of the
four plain suits, or :data:`TRUMP`) and its *level*, an integer that is
consecutive within each effective suit. Equal cards share a level (all
off-suit trump-rank cards do), so "adjacent for a tractor" is simply "levels
differ by one", and cards of equal level can never chain.

Trump order, highest first (seeds wikipedia and wikipedia_2006): red fives
(variant), big joker, small joker, the trump-rank card of the trump suit, the
other trump-rank cards (equal), then the trump suit A..2 without the rank.
Plain suits run A..2 with the trump rank removed, which closes the gap.

>>> from shengji.engine.cards import parse_cards
>>> t = Trump.parse("7C")
>>> [str(c) for c in t.sorted(parse_cards("8C 7H 7C BJ AC 6S 7S SJ"))]
['BJ', 'SJ', '7C', '7S', '7H', 'AC', '8C', '6S']
>>> t.level(Card("7H")) == t.level(Card("7S")), t.suit_of(Card("7H")) == TRUMP
(True, True)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Final

from shengji.engine.cards import (
    ALL_CARDS,
    BIG_JOKER,
    FACES,
    SMALL_JOKER,
    Card,
    NotationError,
    Rank,
    Suit,
    card_int,
    not_a,
)

TRUMP: Final = 4
"""The effective suit of every trump card (plain suits are 0..3, as :class:`Suit`)."""

EffectiveSuit = int
"""0..3 for a plain suit (a :class:`Suit` value) or :data:`TRUMP`."""


def suit_name(suit: EffectiveSuit) -> str:
    """A player's word for an effective suit: ``trumps``, ``spades``, ..."""
    return "trumps" if suit == TRUMP else Suit(suit).name.lower()


@dataclass(frozen=True)
class Trump:
    """A round's trump: rank(s) and suit, plus the order-changing variants.

    ``rank=None`` means jokers only are trump (a no-rank no-trump round);
    ``suit=None`` means no trump suit (jokers and rank cards only).
    ``second_rank`` is seed hundred's second trump rank, below the first.
    ``red_fives`` is 0, 1 (5♥ highest) or 2 (5♥ then 5♦ above the jokers).
    ``rank_suit_order`` orders off-suit trump-rank cards by suit (highest
    first) instead of making them equal (seed hundred).
    """

    rank: Rank | None
    suit: Suit | None = None
    second_rank: Rank | None = None
    red_fives: int = 0
    rank_suit_order: tuple[Suit, ...] | None = None
    suit_index: tuple[int, ...] = field(init=False, repr=False, compare=False)
    levels: tuple[int, ...] = field(init=False, repr=False, compare=False)
    high: tuple[bool, ...] = field(init=False, repr=False, compare=False)
    order_keys: tuple[int, ...] = field(init=False, repr=False, compare=False)
    faces_at: tuple[tuple[tuple[Card, ...], ...], ...] = field(
        init=False, repr=False, compare=False
    )
    suit_faces: tuple[tuple[Card, ...], ...] = field(init=False, repr=False, compare=False)
    """Each effective suit's faces from the weakest up (by level, then index)."""
    strongest_faces: tuple[tuple[Card, ...], ...] = field(init=False, repr=False,
                                                          compare=False)
    """Each effective suit's faces from the strongest level down (a level's by index)."""

    def __post_init__(self) -> None:
        if self.rank is None and (self.suit is not None or self.second_rank is not None):
            raise ValueError("a trump suit or second rank needs a trump rank")
        if self.second_rank is not None and self.second_rank == self.rank:
            raise ValueError("the second trump rank must differ from the first")
        if self.red_fives not in (0, 1, 2):
            raise ValueError("red_fives must be 0 (off), 1 (5♥) or 2 (5♥ and 5♦)")
        order = self.rank_suit_order
        if order is not None and sorted(order) != sorted(set(order)):
            raise ValueError("rank_suit_order must not repeat a suit")
        self._compile()

    def _compile(self) -> None:
        ranks = [r for r in (self.second_rank, self.rank) if r is not None]  # low to high
        reds = [Card("5H"), Card("5D")][: self.red_fives][::-1]  # 5♦ below 5♥
        suit_index = [0] * FACES
        levels = [0] * FACES
        high = [False] * FACES
        columns: list[list[list[Card]]] = [[] for _ in range(5)]

        def put(cards: Iterable[Card], suit: int, is_high: bool) -> None:
            group = list(cards)
            for card in group:
                suit_index[card] = suit
                levels[card] = len(columns[suit])
                high[card] = is_high
            columns[suit].append(group)

        special = set(reds)
        special.update(c for c in ALL_CARDS[:52] if c.rank in ranks)
        for suit in Suit:
            target = TRUMP if suit == self.suit else int(suit)
            for rank in Rank:
                card = Card.of(rank, suit)
                if card not in special:
                    put([card], target, False)
        for rank in ranks:
            others = [Card.of(rank, s) for s in Suit if s != self.suit]
            others = [c for c in others if c not in reds]
            if self.rank_suit_order is None:
                put(others, TRUMP, True)
            else:
                order = list(self.rank_suit_order)
                for card in sorted(others, key=lambda c: -order.index(c.suit)
                                   if c.suit in order else 99):
                    put([card], TRUMP, True)
            if self.suit is not None and Card.of(rank, self.suit) not in reds:
                put([Card.of(rank, self.suit)], TRUMP, True)
        put([SMALL_JOKER], TRUMP, True)
        put([BIG_JOKER], TRUMP, True)
        for card in reds:
            put([card], TRUMP, True)
        object.__setattr__(self, "suit_index", tuple(suit_index))
        object.__setattr__(self, "levels", tuple(levels))
        object.__setattr__(self, "high", tuple(high))
        object.__setattr__(self, "order_keys", tuple(
            (suit_index[c] * 64 + levels[c]) * 64 + c for c in range(FACES)))
        object.__setattr__(
            self,
            "faces_at",
            tuple(tuple(tuple(sorted(g)) for g in col) for col in columns),
        )
        object.__setattr__(self, "suit_faces", tuple(
            tuple(f for g in col for f in g) for col in self.faces_at))
        object.__setattr__(self, "strongest_faces", tuple(
            tuple(f for g in reversed(col) for f in g) for col in self.faces_at))

    @classmethod
    def parse(cls, text: str) -> Trump:
        """Read ``7C``/``7♣`` (rank and suit), ``7NT`` (rank, no suit) or ``NT`` (jokers only)."""
        if not isinstance(text, str):
            raise not_a("a trump as text such as '2H', '7NT' or 'NT'", text)
        key = text.strip().upper().replace(" ", "")
        if key == "NT":
            return cls(None)
        try:
            if key.endswith("NT"):
                return cls(Rank.parse(key[:-2]))
            return cls(Rank.parse(key[:-1]), Suit.parse(key[-1]))
        except NotationError:
            raise NotationError(
                f"cannot read trump {text!r}: use rank+suit (7C, 10♥), rank+NT (7NT) or NT"
            ) from None

    def suit_of(self, card: Card) -> EffectiveSuit:
        """The card's effective suit: its printed suit, or :data:`TRUMP`."""
        return self.suit_index[card]

    def level(self, card: Card) -> int:
        """The card's strength within its effective suit (equal cards are equal)."""
        return self.levels[card]

    def is_trump(self, card: Card) -> bool:
        """True for cards of the trump suit."""
        return self.suit_index[card] == TRUMP

    def key(self, card: Card) -> int:
        """A sort key: trumps above plain suits, stronger cards higher."""
        return self.suit_index[card] * 64 + self.levels[card]

    def sorted(self, cards: Iterable[Card], *, descending: bool = True) -> list[Card]:
        """Cards ordered by effective suit and strength (trumps first when descending)."""
        listed = list(cards)
        if len(listed) == 2:  # most plays: one comparison (copies of a face are the same)
            first, second = listed
            keys = self.order_keys
            if (keys[first] < keys[second]) == descending:
                return [second, first]
            return listed
        if len(listed) < 2:
            return listed
        # the order keys sorted as ints (no key function called per card), each read back
        # as its card (a key's low six bits are the card's index; cards are unique objects)
        keys = self.order_keys
        ordered = [keys[card_int(card)] for card in listed]
        ordered.sort()  # (equal keys are copies of one card: reversing keeps the order)
        if descending:
            ordered.reverse()
        return [ALL_CARDS[key & 63] for key in ordered]

    def suit_size(self, suit: EffectiveSuit) -> int:
        """How many levels the effective suit has."""
        return len(self.faces_at[suit])

    def beats(self, card: Card, other: Card, led: EffectiveSuit) -> bool:
        """True if ``card`` beats ``other`` in a trick led in ``led`` (strictly)."""
        cs, os = self.suit_index[card], self.suit_index[other]
        if cs == os:
            return self.levels[card] > self.levels[other]
        return cs == TRUMP or (cs == led and os != TRUMP)

    def order_text(self, suit: EffectiveSuit = TRUMP, *, unicode: bool = True) -> str:
        """One effective suit from highest to lowest, equal cards joined by ``=``.

        >>> Trump.parse("7C").order_text(unicode=False)
        'BJ > SJ > 7C > 7D = 7H = 7S > AC > KC > QC > JC > 10C > 9C > 8C > 6C > 5C > 4C > 3C > 2C'
        """
        return " > ".join(
            " = ".join(c.unicode() if unicode else str(c) for c in group)
            for group in reversed(self.faces_at[suit])
        )

    def notation(self) -> str:
        """``7C``, ``7NT`` or ``NT`` (the second rank, if any, as ``+2``)."""
        if self.rank is None:
            return "NT"
        text = str(self.rank) + (str(self.suit) if self.suit is not None else "NT")
        return text + (f"+{self.second_rank}" if self.second_rank is not None else "")

    def __str__(self) -> str:
        return self.notation()

    def __repr__(self) -> str:
        extra = "".join(
            f", {name}={value!r}"
            for name, value in (
                ("red_fives", self.red_fives),
                ("rank_suit_order", self.rank_suit_order),
            )
            if value
        )
        if self.second_rank is not None:
            extra = f", second_rank={self.second_rank!r}" + extra
        if self.second_rank is None and not extra:
            return f"Trump.parse({self.notation()!r})"
        return f"Trump({self.rank!r}, {self.suit!r}{extra})"

