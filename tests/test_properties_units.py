"""Property tests: readings of a set of cards, against a brute-force partition search."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Iterator
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shengji.engine import (
    ALL_CARDS,
    TRUMP,
    Card,
    Hand,
    Lead,
    LegalLeads,
    Rank,
    Rules,
    Suit,
    Trump,
    Unit,
    as_unit,
    readings,
)
from shengji.engine.units import reading_order
from test_properties_follow import RANKS_OR_NONE, SUITS_OR_NONE, one_of

Key = tuple[int, ...]


def key(cards: Iterable[Card]) -> Key:
    return tuple(sorted(int(c) for c in cards))


def submultisets(counts: Counter[int]) -> Iterator[Key]:
    faces = sorted(counts)
    for combo in product(*(range(counts[f] + 1) for f in faces)):
        yield tuple(f for f, n in zip(faces, combo, strict=True) for _ in range(n))


def partitions(cards: Key, trump: Trump, rules: Rules) -> Iterator[list[Unit]]:
    """Every split of the cards into units (the first card's unit first)."""
    if not cards:
        yield []
        return
    first, rest = cards[0], Counter(cards[1:])
    for extra in submultisets(rest):
        unit = as_unit([ALL_CARDS[first], *(ALL_CARDS[c] for c in extra)], trump, rules)
        if unit is not None:
            left = key(ALL_CARDS[c] for c in (rest - Counter(extra)).elements())
            for tail in partitions(left, trump, rules):
                yield [unit, *tail]


def canonical(units: Iterable[Unit]) -> tuple[tuple[int, int, int, Key], ...]:
    """A reading as an order-free value: each unit's shape, top and cards."""
    return tuple(sorted((u.width, u.length, u.top, key(u.cards)) for u in units))


def is_maximal(units: list[Unit], trump: Trump, rules: Rules) -> bool:
    """No two or more of the units together form one unit (every subset tried)."""
    return not any(
        as_unit([c for i, u in enumerate(units) if mask >> i & 1 for c in u.cards], trump, rules)
        for mask in range(1 << len(units)) if mask.bit_count() >= 2
    )


@st.composite
def rules_st(draw: st.DrawFn) -> Rules:
    decks = draw(one_of((1, 2, 2, 3)))
    return Rules(
        decks=decks,
        tractor_min_width=draw(st.integers(1, min(2, decks))),
        tractor_min_length=draw(one_of((2, 2, 3))),
        tractor_high_trumps=draw(st.booleans()),
    )


@st.composite
def suited_cards(draw: st.DrawFn, rules: Rules) -> tuple[Trump, list[Card]]:
    """Up to 7 cards of one effective suit, from a few neighbouring levels."""
    rank = draw(RANKS_OR_NONE)
    suit = None if rank is None else draw(SUITS_OR_NONE)
    trump = Trump(rank, suit, red_fives=draw(one_of((0, 0, 1, 2))))
    led = draw(one_of(tuple(s for s in (TRUMP, 0, 1, 2, 3) if trump.suit_size(s))))
    column = trump.faces_at[led]
    width = draw(st.integers(1, min(4, len(column))))
    start = draw(st.integers(0, len(column) - width))
    faces = [f for level in column[start:start + width] for f in level]
    counts = {f: draw(one_of((0, 1, *range(rules.decks + 1), rules.decks)))
              for f in faces}
    cards = [f for f, n in counts.items() for _ in range(n)][:7] or [faces[0]]
    random.Random(draw(st.integers(0, 999))).shuffle(cards)
    return trump, cards


@pytest.mark.slow
@settings(max_examples=250, deadline=None)
@given(st.data())
def test_readings_are_exactly_the_maximal_partitions(data: st.DataObject) -> None:
    rules = data.draw(rules_st(), label="rules")
    trump, cards = data.draw(suited_cards(rules), label="cards")
    found = readings(cards, trump, rules)
    assert found, "cards of one suit always have a reading"
    canon = [canonical(r) for r in found]
    assert len(canon) == len(set(canon)), "a reading is listed twice"
    for reading in found:
        # the units partition exactly the given cards
        assert Counter(c for u in reading for c in u.cards) == Counter(cards)
        # every unit is a unit, and says so itself
        for unit in reading:
            again = as_unit(unit.cards, trump, rules)
            assert again is not None and again.shape == unit.shape and again.top == unit.top
            assert again.suit == unit.suit == trump.suit_of(unit.cards[0])
        # maximal: no two or more units together make one unit
        assert is_maximal(list(reading), trump, rules)
        assert list(reading) == sorted(reading, key=lambda u: (-u.size, -u.width, -u.length,
                                                               -u.top))
    assert found == sorted(found, key=reading_order)
    # complete: every maximal partition is listed
    brute = {canonical(p) for p in partitions(key(cards), trump, rules)
             if is_maximal(p, trump, rules)}
    assert set(canon) == brute
    # the lead reads the cards the most structured way unless told otherwise
    lead = Lead.from_cards(cards, trump, rules)
    # (of readings that rank equal, e.g. sequences through either off-suit trump-rank
    # card, the lead takes any: best_reading's documented tie)
    assert lead.units in found and reading_order(lead.units) == reading_order(found[0])
    assert Counter(lead.cards) == Counter(cards)
    if as_unit(cards, trump, rules) is None:  # a throw: the leader may choose the reading
        for reading in found:
            assert Lead.from_cards(cards[::-1], trump, rules, reading).units == reading
    else:
        assert len(lead.units) == 1


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.data())
def test_no_reading_splits_a_unit(data: st.DataObject) -> None:
    """Issue 11: no reading holds units that together form a larger unit, e.g. three
    pairs forming a tractor when ``tractor_min_length`` is 3 (no two of them do), over
    random cards of one suit spread over up to 6 levels, up to 4 decks."""
    decks = data.draw(one_of((2, 3, 4)), label="decks")
    rules = Rules(decks=decks, tractor_min_length=data.draw(one_of((2, 3, 4))),
                  tractor_high_trumps=data.draw(st.booleans()))
    rank = data.draw(one_of(tuple(Rank)), label="rank")
    trump = Trump(rank, data.draw(one_of(tuple(Suit))))
    column = trump.faces_at[data.draw(one_of(
        tuple(s for s in (TRUMP, 0, 1, 2, 3) if trump.suit_size(s))))]
    start = data.draw(st.integers(0, max(0, len(column) - 6)))
    faces = [f for level in column[start:start + 6] for f in level]
    cards = [f for f in faces for _ in range(data.draw(one_of((0, 0, 1, 2, decks))))]
    cards = cards[:9] or [faces[0]]
    for reading in readings(cards, trump, rules):
        assert is_maximal(list(reading), trump, rules), [u.describe() for u in reading]


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(st.data(), st.integers(0, 2**16))
def test_readings_ignore_card_order(data: st.DataObject, seed: int) -> None:
    rules = data.draw(rules_st(), label="rules")
    trump, cards = data.draw(suited_cards(rules), label="cards")
    base = readings(cards, trump, rules)
    lead = Lead.from_cards(cards, trump, rules)
    unit = as_unit(cards, trump, rules)
    rng = random.Random(seed)
    for _ in range(6):
        order = rng.sample(cards, len(cards))
        assert readings(order, trump, rules) == base
        assert Lead.from_cards(order, trump, rules) == lead
        assert as_unit(order, trump, rules) == unit


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(st.data())
def test_mixed_suits_have_no_reading(data: st.DataObject) -> None:
    rules = data.draw(rules_st(), label="rules")
    trump, cards = data.draw(suited_cards(rules), label="cards")
    other = data.draw(one_of(
        tuple(c for c in ALL_CARDS if trump.suit_of(c) != trump.suit_of(cards[0]))))
    assert readings([*cards, other], trump, rules) == []
    assert as_unit([*cards, other], trump, rules) is None


@st.composite
def small_hands(draw: st.DrawFn, rules: Rules) -> tuple[Trump, list[Card]]:
    """Up to 8 cards from two neighbouring windows of levels (often two suits)."""
    trump, first = draw(suited_cards(rules))
    _, second = draw(suited_cards(rules))
    counts = Counter(first) + Counter(second)
    cards = [c for c in sorted(counts) for _ in range(min(counts[c], rules.decks))]
    return trump, cards[:8]


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.data(), st.booleans(), st.integers(0, 2**16))
def test_legal_leads_agree_with_brute_force(data: st.DataObject, throws: bool, seed: int
                                            ) -> None:
    rules = data.draw(rules_st(), label="rules")
    rules = Rules(decks=rules.decks, tractor_min_width=rules.tractor_min_width,
                  tractor_min_length=rules.tractor_min_length,
                  tractor_high_trumps=rules.tractor_high_trumps, throws=throws)
    trump, cards = data.draw(small_hands(rules), label="hand")
    hand = Hand(cards)
    leads = LegalLeads(hand, trump, rules)
    subsets = [s for s in submultisets(Counter(int(c) for c in cards)) if s]
    units = {s for s in subsets if as_unit([ALL_CARDS[c] for c in s], trump, rules)}
    listed_units = [key(u.cards) for u in leads.units()]
    assert len(listed_units) == len(set(listed_units)), "a unit is listed twice"
    assert set(listed_units) == units
    one_suit = {s for s in subsets if len({trump.suit_of(ALL_CARDS[c]) for c in s}) == 1}
    expected = one_suit if throws else units
    assert {s for s in subsets if leads.reason([ALL_CARDS[c] for c in s]) is None} == expected
    listed = [key(play) for play in leads]
    assert len(listed) == len(set(listed)) and set(listed) == expected
    rng = random.Random(seed)
    for _ in range(5):
        assert key(leads.random(rng)) in units
