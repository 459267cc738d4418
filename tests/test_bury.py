"""Burying the kitty: limits, reasons, the lazy listing and the random bury.

The listing is checked against the obvious definition (every combination of the
hand's cards, repeats dropped, filtered by the reason) on small hands, order
included; large hands check that the first buries come at once.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations, islice
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shengji.engine import ALL_CARDS, Card, Hand, Rules, full_deck, parse_cards
from shengji.game.bury import bury_limits, bury_options, bury_reason, random_bury
from timing import within

POINTS = [c for c in ALL_CARDS if c.points]
PLAIN = [c for c in ALL_CARDS if not c.points]


def reference(hand: Hand, size: int, max_points: int) -> list[tuple[Card, ...]]:
    """The listing by brute force: distinct combinations that the reason accepts."""
    seen: set[tuple[Card, ...]] = set()
    found = []
    for combo in combinations(hand.cards(), size):
        if combo not in seen and bury_reason(hand.counts, combo, size, max_points) is None:
            seen.add(combo)
            found.append(combo)
    return found


@st.composite
def hands(draw: st.DrawFn) -> Hand:
    """Up to 11 cards, 1-3 copies of each face, half of the faces point cards."""
    faces = draw(st.lists(st.sampled_from(POINTS[:4] + PLAIN[:6]), min_size=1, max_size=6,
                          unique=True))
    cards = [f for f in faces for _ in range(draw(st.integers(1, 3)))]
    return Hand(cards[:11])


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(hand=hands(), data=st.data())
def test_listing_agrees_with_brute_force(hand: Hand, data: st.DataObject) -> None:
    size = data.draw(st.integers(0, min(len(hand), 7)), label="size")
    max_points = data.draw(st.integers(0, size), label="max_points")
    listed = list(bury_options(hand.counts, size, max_points))
    assert listed == reference(hand, size, max_points)  # the same plays, once, same order
    for bury in listed:
        assert bury_reason(hand.counts, bury, size, max_points) is None


def test_listing_is_empty_when_nothing_is_legal() -> None:
    counts = Hand("5S KS 10H 3C").counts
    assert list(bury_options(counts, 3, 1)) == []
    assert list(bury_options(counts, 5, 5)) == []
    assert list(bury_options(counts, 0, 0)) == [()]


def test_limits_follow_the_rules() -> None:
    counts = Hand("5S KS 10H 3C 4C").counts
    assert bury_limits(Rules(), counts) == (8, 8)
    banned = Rules(kitty_points_allowed=False)
    assert bury_limits(banned, counts) == (8, 6)  # only 2 plain cards: 6 point cards
    assert bury_limits(banned, Hand(PLAIN[:10]).counts) == (8, 0)


def test_reasons_use_the_players_words() -> None:
    counts = Hand("5S KS 3C 4C").counts
    assert bury_reason(counts, parse_cards("3C 4C"), 3, 0) == "bury exactly 3 cards (you gave 2)"
    assert bury_reason(counts, parse_cards("3C 4C 9D"), 3, 0) == "you do not hold 9D"
    assert bury_reason(counts, parse_cards("3C 4C 5S"), 3, 0) == (
        "point cards (5, 10, K) may not be buried under these rules")
    assert bury_reason(counts, parse_cards("3C 4C 5S"), 3, 1) is None


def old_sampler(cards: list[Card], size: int, max_points: int, rng: Random
                ) -> tuple[Card, ...]:
    """The sampler the round used before this module (kept to pin the semantics)."""
    if max_points < size:
        plain = [c for c in cards if not c.points]
        scoring = [c for c in cards if c.points]
        take = rng.sample(plain, min(size, len(plain)))
        take += rng.sample(scoring, size - len(take))
        return tuple(take)
    return tuple(rng.sample(cards, size))


@settings(max_examples=100, deadline=None)
@given(hand=hands(), data=st.data(), seed=st.integers(0, 2**16))
def test_random_bury_is_legal_and_draws_as_before(hand: Hand, data: st.DataObject,
                                                  seed: int) -> None:
    size = data.draw(st.integers(0, len(hand)), label="size")
    plain = sum(1 for c in hand.cards() if not c.points)
    max_points = data.draw(st.sampled_from([size, max(0, size - plain)]), label="max_points")
    bury = random_bury(hand.counts, size, max_points, Random(seed))
    assert bury_reason(hand.counts, bury, size, max_points) is None
    assert bury == old_sampler(hand.cards(), size, max_points, Random(seed))


def test_large_hands_give_their_buries_at_once() -> None:
    """8 decks, 4 players: the dealer holds 106 + 8 cards; with point cards banned the
    first bury used to take seconds. Generous bounds: no timing test, a sanity check."""
    rng = Random(3)
    deck = full_deck(8)
    rng.shuffle(deck)
    hand = Hand(deck[:114])
    size, max_points = bury_limits(Rules(players=4, decks=8, kitty_points_allowed=False),
                                   hand.counts)
    with within(2.0, "the first 1000 buries"):
        first = list(islice(bury_options(hand.counts, size, max_points), 1000))
    assert len(first) == 1000 == len({tuple(b) for b in first})
    assert all(bury_reason(hand.counts, b, size, max_points) is None for b in first)
    assert all(not any(c.points for c in b) for b in first[:10])
    assert Counter(first[0]) <= Counter(hand.cards())
