"""Leads: what may be led, and the reading of a lead that followers must match.

A lead is one unit (single, tuple, tractor) or a throw (甩牌): several units of
one effective suit. When the cards can be read several ways the leader may
choose the reading; the default is the most structured one.

>>> from shengji.engine.trump import Trump
>>> lead = Lead.from_cards("KS KS QS QS", Trump.parse("2H"), Rules())
>>> lead, lead.is_throw
(Lead('KS KS QS QS'), False)
>>> Lead.from_cards("AS KS 2H", Trump.parse("2H"), Rules())
Traceback (most recent call last):
...
shengji.engine.lead.PlayError: a lead must be all of one suit: 2H is trumps but AS is spades
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations, product
from random import Random
from typing import Final

from shengji.engine.caches import remember
from shengji.engine.cards import Card, Hand, Rank, Suit, format_cards, parse_cards
from shengji.engine.rainbows import (
    Rainbows,
    rainbow_reading,
    rainbow_throws,
    random_rainbow_throw,
    read_rainbow_throw,
)
from shengji.engine.reasons import Reason, suit_code
from shengji.engine.rules import Rules
from shengji.engine.trump import Trump
from shengji.engine.units import (
    Reading,
    Unit,
    UnitSpec,
    as_unit,
    best_reading,
    make_unit,
    readings,
    unit_blocks,
    unit_spec_at,
    unit_specs,
)


class PlayError(ValueError):
    """A play was refused; the message says which rule and what is allowed."""

    @property
    def reason(self) -> Reason:
        """The message as a :class:`~shengji.engine.reasons.Reason`."""
        why = self.args[0] if self.args else ""
        return why if isinstance(why, Reason) else Reason("bad-input", error=str(why))


@dataclass(frozen=True)
class Lead:
    """The cards led, their effective suit, and the reading followers must match."""

    cards: tuple[Card, ...]
    suit: int
    units: Reading
    rainbow: bool = False
    """A rainbow (``rules.rainbow``): one rank in several effective suits, or a rainbow
    throw (``rules.rainbow_throws``: several rainbows); ``suit`` is the strongest card's
    and ``units`` its singles, rainbow after rainbow."""
    rainbows: Rainbows = ()
    """A rainbow lead's rainbows (one for a rainbow, two or more for a rainbow throw),
    largest first, the highest rank first among equals
    (:func:`~shengji.engine.rainbows.read_rainbow_throw`); ``()`` for other leads."""

    @classmethod
    def from_cards(
        cls,
        cards: str | Iterable[Card | str],
        trump: Trump,
        rules: Rules,
        reading: Reading | None = None,
    ) -> Lead:
        """Read a lead; raise :class:`PlayError` if it is not a legal lead shape."""
        played = tuple(trump.sorted(parse_cards(cards)))  # equal cards too: order-free
        if not played:
            raise PlayError(Reason("lead-empty"))
        first = played[0]
        if len(played) <= rules.decks and played.count(first) == len(played):
            # one face: a single or a tuple (a rainbow's cards differ)
            if cls is Lead:
                return one_face_lead(first, len(played), trump)
            suit = trump.suit_index[first]
            return cls(played, suit, (make_unit(suit, len(played), trump.levels[first], (first,)),))
        if rules.rainbow and is_rainbow(played, trump, rules):
            return cls(played, trump.suit_index[played[0]], tuple(
                make_unit(trump.suit_index[c], 1, trump.levels[c], (c,)) for c in played),
                rainbow=True, rainbows=(played,))
        suits = {trump.suit_of(c) for c in played}
        if len(suits) > 1:
            found = read_rainbow_throw(played, trump, rules)  # (several suits: never one)
            if found is not None:
                if not rules.throws:
                    raise PlayError(Reason("lead-no-throws"))
                return cls(played, trump.suit_index[played[0]], rainbow_reading(found, trump),
                           rainbow=True, rainbows=found)
            first = played[0]
            other = next(c for c in played if trump.suit_of(c) != trump.suit_of(first))
            raise PlayError(Reason("lead-suits", first=str(first),
                                   first_suit=suit_code(trump.suit_of(first)),
                                   other=str(other), other_suit=suit_code(trump.suit_of(other))))
        unit = as_unit(played, trump, rules)
        if unit is not None:
            return cls(played, unit.suit, (unit,))
        if not rules.throws:
            raise PlayError(Reason("lead-no-throws"))
        if reading is None:
            reading = best_reading(played, trump, rules)
            assert reading is not None  # one suit
        elif tuple(reading) not in readings(played, trump, rules):
            raise PlayError(Reason("lead-reading", cards=format_cards(played),
                                   reading=tuple(u.shape for u in reading)))
        if not rules.throw_mixed and len({u.shape for u in reading}) > 1:
            raise PlayError(Reason("lead-mixed"))
        return cls(played, suits.pop(), tuple(reading))

    @property
    def size(self) -> int:
        """Number of cards led (every follower plays this many)."""
        return len(self.cards)

    @property
    def is_throw(self) -> bool:
        """True when several units of one suit, or several rainbows, were led together."""
        return len(self.rainbows) > 1 or (len(self.units) > 1 and not self.rainbow)

    @property
    def largest(self) -> Unit:
        """The largest unit of the lead (the kitty multiplier looks at it)."""
        return self.units[0]

    def describe(self) -> str:
        """``pair``, ``throw of tractor of 2 pairs + single``, ``rainbow of 4``, ``throw of
        rainbows of 4 + 3`` ..."""
        if len(self.rainbows) > 1:
            return "throw of rainbows of " + " + ".join(str(len(r)) for r in self.rainbows)
        if self.rainbow:
            return f"rainbow of {len(self.cards)}"
        body = " + ".join(u.describe() for u in self.units)
        return f"throw of {body}" if self.is_throw else body

    def __str__(self) -> str:
        return format_cards(self.cards)

    def __repr__(self) -> str:
        return f"Lead({str(self)!r})"


def is_rainbow(cards: Sequence[Card], trump: Trump, rules: Rules) -> bool:
    """Whether the cards are a rainbow: one rank (no joker), one card in each of at least
    ``rules.rainbow`` effective suits (never with rainbows off)."""
    if not rules.rainbow or len(cards) < rules.rainbow:
        return False
    rank = cards[0].rank
    suits = {trump.suit_index[c] for c in cards}
    return rank is not None and len(suits) == len(cards) and all(
        c.rank == rank for c in cards)


def rainbows(counts: Sequence[int], size: int, trump: Trump, rules: Rules
             ) -> Iterator[tuple[Card, ...]]:
    """Every rainbow of ``size`` cards among the held ``counts``, strongest card first."""
    if not rules.rainbow or size < rules.rainbow:
        return
    for rank in Rank:
        held = [c for c in (Card.of(rank, suit) for suit in Suit) if counts[c]]
        for combo in combinations(held, size):
            if is_rainbow(combo, trump, rules):
                yield tuple(trump.sorted(combo))


_ONE_FACE: Final[dict[tuple[Card, int, int, int], Lead]] = {}
"""The leads :func:`one_face_lead` made, by face, copies, suit and level (leads are
immutable: made once [compiled build])."""


def one_face_lead(face: Card, width: int, trump: Trump) -> Lead:
    """The lead of ``width`` copies of ``face`` (a single or a tuple), as
    :meth:`Lead.from_cards` reads it; made once."""
    suit, level = trump.suit_index[face], trump.levels[face]
    key = (face, width, suit, level)
    lead = _ONE_FACE.get(key)
    if lead is None:
        lead = remember(_ONE_FACE, key, Lead((face,) * width, suit, (
            make_unit(suit, width, level, (face,)),)), 4096)
    return lead


class LegalLeads:
    """What a hand may lead: any unit, or (if throws are allowed) any set of one suit.

    A throw that is legal to *attempt* may still fail against other hands; see
    :func:`shengji.engine.throws.check_throw`.
    """

    def __init__(self, hand: Hand, trump: Trump, rules: Rules) -> None:
        self.hand = hand
        self.trump = trump
        self.rules = rules
        self._specs: list[UnitSpec] | None = None
        self._read: tuple[tuple[Card, ...], Lead] | None = None

    def reason(self, cards: str | Iterable[Card | str]) -> Reason | None:
        """Why ``cards`` cannot be led, or ``None`` if they can."""
        played = parse_cards(cards)
        if not self.hand.holds(played):
            return Reason("not-held", cards=format_cards(played))
        try:
            self.lead(played)
        except PlayError as error:
            return error.reason
        return None

    def lead(self, cards: tuple[Card, ...]) -> Lead:
        """:meth:`Lead.from_cards` of ``cards`` (held or not), remembering the last lead
        read: a lead checked here and then played is read once (a throw's reading is a
        search)."""
        last = self._read
        if last is not None and last[0] == cards:
            return last[1]
        if len(cards) == 1 and type(cards[0]) is Card:  # one card: its lead, made once
            lead = one_face_lead(cards[0], 1, self.trump)
        else:
            lead = Lead.from_cards(cards, self.trump, self.rules)
        self._read = (cards, lead)
        return lead

    def __contains__(self, cards: object) -> bool:
        if isinstance(cards, str | tuple | list):
            return self.reason(cards) is None
        return False

    def units(self) -> Iterator[Unit]:
        """Every distinct single unit the hand can lead (singles, tuples, tractors)."""
        for suit, width, top, faces in self._unit_specs():
            yield make_unit(suit, width, top, faces)

    def _unit_specs(self) -> list[UnitSpec]:
        """(suit, width, top level, faces bottom first) of every distinct unit."""
        if self._specs is None:
            self._specs = unit_specs(self.hand.counts, self.trump, self.rules)
        return self._specs

    def __iter__(self) -> Iterator[tuple[Card, ...]]:
        """Every distinct legal lead, lazily: rainbows first, then rainbow throws
        (``rules.rainbow_throws``), then units, or all sub-multisets of each suit when
        throws are allowed (this can be very many)."""
        for size in range(self.rules.rainbow, 6) if self.rules.rainbow else ():
            yield from rainbows(self.hand.counts, size, self.trump, self.rules)
        yield from rainbow_throws(self.hand.counts, self.trump, self.rules)
        if not self.rules.throws:
            for unit in self.units():
                yield unit.cards
            return
        for suit in range(5):
            faces = [f for level in self.trump.faces_at[suit] for f in level
                     if self.hand.counts[f]]
            ranges = [range(self.hand.counts[f] + 1) for f in faces]
            for combo in product(*ranges):
                cards = tuple(f for f, n in zip(faces, combo, strict=True) for _ in range(n))
                if cards and self.reason(cards) is None:
                    yield cards

    def random(self, rng: Random) -> tuple[Card, ...]:
        """A random unit to lead (uniform over the distinct units the hand holds); with
        ``rules.rainbow_throws`` (and throws) uniform over those units, the rainbows and
        the rainbow throws the hand holds."""
        if self.rules.rainbow_throws and self.rules.rainbow and self.rules.throws:
            drawn = self._random_rainbow(rng)
            if drawn is not None:
                return drawn
        if self._specs is not None:
            specs = self._specs
            if not specs:
                raise PlayError(Reason("lead-empty-hand"))
            _, width, _, faces = specs[rng.randrange(len(specs))]
        else:  # the units counted, only the one drawn made
            blocks = unit_blocks(self.hand.counts, self.trump, self.rules)
            total = sum([len(held) + len(tractors) for _, _, held, tractors in blocks])
            if not total:
                raise PlayError(Reason("lead-empty-hand"))
            _, width, _, faces = unit_spec_at(blocks, rng.randrange(total), self.trump)
        if len(faces) == 1:  # one face: read as Lead.from_cards reads it, kept for lead()
            lead = one_face_lead(faces[0], width, self.trump)
            self._read = (lead.cards, lead)
            return lead.cards
        return tuple(f for f in faces for _ in range(width))

    def _random_rainbow(self, rng: Random) -> tuple[Card, ...] | None:
        """With the chance of their share among the units, rainbows and rainbow throws held,
        a rainbow or rainbow throw drawn uniformly; else ``None`` (a unit is drawn)."""
        counts, trump, rules = self.hand.counts, self.trump, self.rules
        singles = [r for size in range(rules.rainbow, 6)
                   for r in rainbows(counts, size, trump, rules)]
        throw, throws = random_rainbow_throw(counts, trump, rules, rng)
        if not singles and not throws:
            return None
        drawn = rng.randrange(len(self._unit_specs()) + len(singles) + throws)
        drawn -= len(self._unit_specs())
        if drawn < 0:
            return None
        return singles[drawn] if drawn < len(singles) else throw
