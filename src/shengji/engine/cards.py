"""Cards, suits, ranks and the text notation, both ways.

A :class:`Card` is one of the 54 faces of a French deck with jokers. It is an
``int`` (0..53) so that per-round tables can be indexed by it directly; there is
exactly one object per face, so copies from several decks are interchangeable.

Notation (case-insensitive when read): rank then suit, ``AS``, ``10H`` or
``TH``, ``7c``, Unicode suits ``A♠``; jokers ``SJ`` (small, black) and ``BJ``
(big, red). Cards are written back as ``AS``, ``10H``, ``SJ``, ``BJ``.

>>> Card("10h"), Card("TH") is Card("10♥"), str(Card("bj"))
(Card('10H'), True, 'BJ')
>>> parse_cards("KS ks, Q♠")
(Card('KS'), Card('KS'), Card('QS'))
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from enum import IntEnum
from typing import ClassVar, Final, SupportsIndex

from shengji.engine.plain import mypyc_attr


class NotationError(ValueError):
    """A card or list of cards could not be read; the message names the bad token."""


class Suit(IntEnum):
    """The four French suits."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        """One ASCII letter: ``C``, ``D``, ``H`` or ``S``."""
        return "CDHS"[self]

    @property
    def symbol(self) -> str:
        """The Unicode suit symbol."""
        return "♣♦♥♠"[self]

    @property
    def is_red(self) -> bool:
        """Hearts and diamonds are red."""
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read a suit from its letter, symbol or English name."""
        key = text.strip().upper()
        for suit in cls:
            if key in (suit.letter, suit.symbol, suit.name, suit.name[:-1]):
                return suit
        raise NotationError(
            f"{text!r} is not a suit; use C, D, H, S or ♣ ♦ ♥ ♠ (or clubs, diamonds, ...)"
        )

    def __str__(self) -> str:
        return self.letter


class Rank(IntEnum):
    """Card ranks 2..A (jokers have no rank)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def symbol(self) -> str:
        """``2``..``10``, ``J``, ``Q``, ``K``, ``A``."""
        return _RANK_TEXT[self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Read a rank: ``2``..``10``, ``T``, ``J``, ``Q``, ``K``, ``A`` (or its number)."""
        key = text.strip().upper()
        if key in _RANK_BY_TEXT:
            return _RANK_BY_TEXT[key]
        raise NotationError(f"{text!r} is not a rank; use 2-10, T, J, Q, K or A")

    def __str__(self) -> str:
        return self.symbol


_RANK_TEXT = {r: (str(int(r)) if r <= 10 else "JQKA"[r - 11]) for r in Rank}
_RANK_BY_TEXT = {text: r for r, text in _RANK_TEXT.items()}
_RANK_BY_TEXT["T"] = Rank.TEN
_RANK_BY_TEXT.update({str(int(r)): r for r in Rank})

SMALL_JOKER_ID: Final = 52
BIG_JOKER_ID: Final = 53
FACES: Final = 54


@mypyc_attr(native_class=False)  # mypyc cannot compile int subclasses as native classes
class Card(int):
    """One of the 54 faces; ``Card('AS')``, ``Card(51)`` and ``Card.of(Rank.ACE, Suit.SPADES)``
    all return the same object."""

    __slots__ = ()
    _all: ClassVar[tuple[Card, ...]]

    def __new__(cls, value: str | SupportsIndex) -> Card:
        if isinstance(value, str):
            return parse_card(value)
        index = int(value)
        if not 0 <= index < FACES:
            raise NotationError(f"card index {index} is out of range; use 0..53")
        return cls._all[index]

    @classmethod
    def of(cls, rank: Rank | int, suit: Suit | int) -> Card:
        """The card of a rank and suit."""
        return cls._all[int(suit) * 13 + int(rank) - 2]

    @property
    def suit(self) -> Suit | None:
        """The printed suit, or ``None`` for a joker."""
        return _SUITS[self]

    @property
    def rank(self) -> Rank | None:
        """The printed rank, or ``None`` for a joker."""
        return _RANKS[self]

    @property
    def is_joker(self) -> bool:
        """True for both jokers."""
        return self >= SMALL_JOKER_ID

    @property
    def points(self) -> int:
        """Trick points: K and 10 are worth 10, 5 is worth 5."""
        return _POINTS[self]

    def unicode(self) -> str:
        """Display form with a suit symbol, e.g. ``10♥``; jokers stay ``SJ``/``BJ``."""
        if self.is_joker:
            return str(self)
        rank, suit = self.rank, self.suit
        assert rank is not None and suit is not None
        return rank.symbol + suit.symbol

    def __str__(self) -> str:
        return _TEXT[self]

    def __repr__(self) -> str:
        return f"Card({_TEXT[self]!r})"

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (int(self),))


Card._all = tuple(int.__new__(Card, i) for i in range(FACES))
SMALL_JOKER: Final = Card._all[SMALL_JOKER_ID]
BIG_JOKER: Final = Card._all[BIG_JOKER_ID]
ALL_CARDS: Final[tuple[Card, ...]] = Card._all
"""The 54 faces in index order (clubs 2..A, diamonds, hearts, spades, SJ, BJ)."""

_SUITS: Final[tuple[Suit | None, ...]] = tuple(
    [Suit(i // 13) for i in range(52)] + [None, None])
_RANKS: Final[tuple[Rank | None, ...]] = tuple(
    [Rank(i % 13 + 2) for i in range(52)] + [None, None])
_TEXT: Final = tuple(
    [_RANK_TEXT[Rank(i % 13 + 2)] + "CDHS"[i // 13] for i in range(52)] + ["SJ", "BJ"]
)
_POINTS: Final = tuple(
    {5: 5, 10: 10, 13: 10}.get(i % 13 + 2, 0) if i < 52 else 0 for i in range(FACES)
)
_JOKER_TEXT = {"SJ": SMALL_JOKER, "BJ": BIG_JOKER}
_CARD_RE = re.compile(r"^(10|[2-9TJQKA])([CDHS♣♦♥♠♧♢♡♤])$")
_SUIT_CHARS = {"C": 0, "D": 1, "H": 2, "S": 3, "♣": 0, "♦": 1, "♥": 2, "♠": 3,
               "♧": 0, "♢": 1, "♡": 2, "♤": 3}
_ALLOWED = (
    "a rank (2-10, T, J, Q, K, A) followed by a suit (C, D, H, S or ♣ ♦ ♥ ♠), "
    "e.g. AS, 10H, TH, 7c, Q♠; or SJ (small joker) / BJ (big joker)"
)


def not_a(what: str, value: object) -> TypeError:
    """The error for ``value`` given where ``what`` (e.g. ``"a hand (Hand)"``) was wanted:
    it names both, so that a wrong type says what was wrong and what is allowed."""
    return TypeError(f"expected {what}, got {'None' if value is None else type(value).__name__}")


def parse_card(token: str) -> Card:
    """Read one card; raise :class:`NotationError` naming the token and what is allowed."""
    if not isinstance(token, str):
        raise not_a("a card as text such as 'AS'", token)
    key = token.strip().upper()
    joker = _JOKER_TEXT.get(key)
    if joker is not None:
        return joker
    match = _CARD_RE.match(key)
    if match is None:
        raise NotationError(f"cannot read card {token!r}: expected {_ALLOWED}")
    rank = _RANK_BY_TEXT[match.group(1)]
    return Card._all[_SUIT_CHARS[match.group(2)] * 13 + rank - 2]


def parse_cards(text: str | Iterable[str | Card]) -> tuple[Card, ...]:
    """Read cards separated by spaces or commas (or take an iterable of cards/tokens)."""
    if type(text) is tuple:  # mostly a tuple of cards already: taken as it is
        for token in text:
            if type(token) is not Card:
                break
        else:
            return text
    if isinstance(text, str):
        tokens: Iterable[str | Card] = [t for t in re.split(r"[\s,]+", text) if t]
    elif hasattr(text, "__iter__"):
        tokens = text
    else:
        raise not_a("cards as text such as 'AS KS' or a sequence of cards", text)
    return tuple(t if isinstance(t, Card) else parse_card(t) if isinstance(t, str) else
                 _not_a_card(t) for t in tokens)


def _not_a_card(token: object) -> Card:
    raise not_a("a card (Card) or text such as 'AS'", token)


def format_cards(cards: Iterable[Card], *, unicode: bool = False) -> str:
    """Write cards separated by spaces, in the order given."""
    return " ".join(c.unicode() if unicode else str(c) for c in cards)


def full_deck(decks: int = 1) -> list[Card]:
    """All cards of ``decks`` decks with jokers, in index order."""
    if decks < 1:
        raise ValueError(f"decks must be at least 1, got {decks}")
    return [card for card in ALL_CARDS for _ in range(decks)]


class Hand:
    """A multiset of cards (copies are interchangeable), e.g. a player's hand.

    >>> hand = Hand("KS KS QS 10h")
    >>> len(hand), hand.count(Card("KS")), Card("QS") in hand
    (4, 2, True)
    >>> hand.remove(parse_cards("KS 10H")); hand
    Hand('QS KS')
    """

    __slots__ = ("_counts", "_size")

    def __init__(self, cards: str | Iterable[Card | str] = (), *,
                 _counts: list[int] | None = None, _size: int = 0) -> None:
        if _counts is not None:  # (copy: its counts, not an empty list replaced)
            self._counts, self._size = _counts, _size
            return
        self._counts = [0] * FACES
        self._size = 0
        if cards != ():
            self.add(parse_cards(cards))

    @classmethod
    def from_counts(cls, counts: Iterable[int]) -> Hand:
        """A hand from 54 per-face counts."""
        hand = cls()
        values = list(counts)
        if len(values) != FACES or min(values) < 0:
            raise ValueError("from_counts needs 54 non-negative counts")
        hand._counts = values
        hand._size = sum(values)
        return hand

    @property
    def counts(self) -> list[int]:
        """Per-face counts, indexed by card (do not mutate)."""
        return self._counts

    def count(self, card: Card) -> int:
        """How many copies of ``card`` the hand holds."""
        return self._counts[card]

    def add(self, cards: Iterable[Card]) -> None:
        """Add cards."""
        counts = self._counts
        for card in cards:
            counts[card] += 1
            self._size += 1

    def add_card(self, card: Card) -> None:
        """Add one card (``add((card,))`` without the loop: the deal draws one at a time)."""
        self._counts[card] += 1
        self._size += 1

    def remove(self, cards: Iterable[Card]) -> None:
        """Remove cards; raise ``ValueError`` (and change nothing) if some are missing."""
        cards = tuple(cards)
        counts = self._counts
        for i, card in enumerate(cards):
            counts[card] -= 1
            if counts[card] < 0:
                for undo in cards[: i + 1]:
                    counts[undo] += 1
                missing = missing_cards(counts, cards)
                raise ValueError(f"the hand does not hold {format_cards(missing)}")
        self._size -= len(cards)

    def holds(self, cards: Iterable[Card]) -> bool:
        """True when every card (with multiplicity) is in the hand."""
        counts = self._counts
        need: dict[Card, int] = {}
        for card in cards:
            n = need.get(card, 0) + 1
            if n > counts[card]:
                return False
            need[card] = n
        return True

    def cards(self) -> list[Card]:
        """All cards in index order, copies repeated."""
        cards: list[Card] = []
        counts = self._counts  # (indexed in a plain loop: zip() is generic when compiled)
        for face in range(FACES):
            n = counts[face]
            if n == 1:
                cards.append(ALL_CARDS[face])
            elif n:
                cards += [ALL_CARDS[face]] * n
        return cards

    def card_at(self, index: int) -> Card:
        """``cards()[index]`` (0 <= index < len), without listing the cards."""
        counts = self._counts
        for face in range(FACES):
            n = counts[face]
            if index < n:
                return ALL_CARDS[face]
            index -= n
        raise IndexError("hand index out of range")

    def copy(self) -> Hand:
        """An independent copy."""
        return Hand(_counts=self._counts.copy(), _size=self._size)

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards())

    def __len__(self) -> int:
        return self._size

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card < FACES and self._counts[card] > 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Hand) and self._counts == other._counts

    __hash__ = None  # type: ignore[assignment]

    def __str__(self) -> str:
        return format_cards(self.cards())

    def __repr__(self) -> str:
        return f"Hand({str(self)!r})"


def card_points(cards: Iterable[Card]) -> int:
    """The trick points of ``cards`` (each K and 10: 10, each 5: 5), read from a table."""
    points, total = _POINTS, 0
    for card in cards:  # (a plain loop, the card as an int [compiled build])
        total += points[card_int(card)]
    return total


def card_int(card: Card) -> int:
    """``card`` itself, typed as an int (as :func:`card_ints`)."""
    return card


def card_ints(cards: tuple[Card, ...]) -> tuple[int, ...]:
    """``cards`` themselves, typed as ints, to index tables with [compiled build]."""
    return cards


def hand_sizes(hands: list[Hand]) -> tuple[int, ...]:
    """How many cards each hand holds (``len`` of each, without a call per hand)."""
    return tuple([hand._size for hand in hands])


def missing_cards(counts: list[int], cards: tuple[Card, ...]) -> list[Card]:
    """The cards of ``cards`` that ``counts`` cannot supply (with multiplicity)."""
    if len(cards) == 1:  # one card (most plays): no tally
        return [] if counts[cards[0]] else [cards[0]]
    need: dict[Card, int] = {}
    short = False
    for card in cards:
        n = need[card] = need.get(card, 0) + 1
        if n > counts[card]:
            short = True
    if not short:  # (most plays: nothing to list)
        return []
    return [c for c, n in sorted(need.items()) for _ in range(n - counts[c]) if n > counts[c]]
