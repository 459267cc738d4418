"""Property tests: rainbow leads (``rules.rainbow``), against brute force on small hands.

A rainbow is one card of one rank in each of at least ``rules.rainbow`` effective suits.
Every view of the legal leads and follows (the check, the generator, ``random``,
``forced``, ``pool``, ``can_complete``) must agree with the check over every
sub-multiset, and with the rule itself: a follower holding a rainbow as large plays one
(or a bomb), else anything; the highest rank wins.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Iterator
from itertools import product

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from shengji.engine import (
    ALL_CARDS,
    Card,
    Hand,
    Lead,
    LegalLeads,
    LegalPlays,
    Rank,
    Rules,
    Suit,
    Trick,
    Trump,
)

Key = tuple[int, ...]


def key(cards: Iterable[Card]) -> Key:
    return tuple(sorted(int(c) for c in cards))


def submultisets(counts: Counter[Card], size: int | None = None) -> Iterator[Key]:
    faces = sorted(counts)
    for combo in product(*(range(counts[f] + 1) for f in faces)):
        if size is None or sum(combo) == size:
            yield key(f for f, n in zip(faces, combo, strict=True) for _ in range(n))


def rainbow(play: Key, trump: Trump, rules: Rules) -> bool:
    """The rule itself: one rank, one card in each of its effective suits, enough suits."""
    cards = [ALL_CARDS[c] for c in play]
    ranks = {c.rank for c in cards}
    suits = {trump.suit_of(c) for c in cards}
    return (len(ranks) == 1 and None not in ranks and len(suits) == len(cards)
            >= rules.rainbow)


@st.composite
def tables(draw: st.DrawFn) -> tuple[Rules, Trump, list[Card]]:
    """Rules with rainbows, a trump, and up to 9 cards of two or three ranks."""
    decks = draw(st.sampled_from([1, 2, 2, 3]))
    rules = Rules(decks=decks, rainbow=draw(st.sampled_from([2, 3, 4, 4, 5])),
                  throws=draw(st.booleans()),
                  bombs=draw(st.sampled_from([0, 0, 2])) if decks >= 2 else 0)
    rank = draw(st.none() | st.sampled_from(list(Rank)))
    trump = rules.trump(rank, draw(st.none() | st.sampled_from(list(Suit))) if rank else None)
    ranks = draw(st.lists(st.sampled_from(list(Rank)), min_size=1, max_size=3, unique=True))
    counts = {Card.of(r, s): draw(st.sampled_from([0, 1, 1, decks])) for r in ranks for s in Suit}
    cards = [c for c, n in counts.items() for _ in range(n)]
    random.Random(draw(st.integers(0, 999))).shuffle(cards)
    return rules, trump, cards[:9]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_rainbow_leads_agree_with_brute_force(table: tuple[Rules, Trump, list[Card]]) -> None:
    rules, trump, cards = table
    hand = Hand(cards)
    leads = LegalLeads(hand, trump, rules)
    listed = [key(p) for p in leads]
    assert len(listed) == len(set(listed))
    expected = {p for p in submultisets(Counter(cards)) if p and leads.reason(
        [ALL_CARDS[c] for c in p]) is None}
    assert set(listed) == expected
    for play in expected:
        lead = Lead.from_cards([ALL_CARDS[c] for c in play], trump, rules)
        assert lead.rainbow == rainbow(play, trump, rules)
        assert not (lead.rainbow and lead.is_throw)
    event("a rainbow can be led" if any(rainbow(p, trump, rules) for p in expected)
          else "no rainbow")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(), st.data(), st.integers(0, 2**16))
def test_rainbow_follows_agree_with_brute_force(
    table: tuple[Rules, Trump, list[Card]], data: st.DataObject, seed: int,
) -> None:
    rules, trump, cards = table
    # the lead: a rainbow of a random rank, not taken from the follower's cards
    rank = data.draw(st.sampled_from([r for r in Rank if r != trump.rank]), label="led rank")
    suits = data.draw(st.permutations(list(Suit)), label="suits")
    led = [Card.of(rank, s) for s in suits]
    led = [c for c in led if Counter(cards)[c] < rules.decks]
    size = data.draw(st.integers(rules.rainbow, max(rules.rainbow, len(led))), label="size")
    lead_cards = led[:size]
    if not rainbow(key(lead_cards), trump, rules):
        return
    lead = Lead.from_cards(lead_cards, trump, rules)
    assert lead.rainbow
    hand = Hand(cards + [ALL_CARDS[(i * 7) % 54] for i in range(size)])  # enough cards
    legal = LegalPlays(hand, lead, trump, rules)
    plays = list(submultisets(Counter(hand.cards()), size))
    expected = {p for p in plays if legal.reason([ALL_CARDS[c] for c in p]) is None}
    listed = [key(p) for p in legal]
    assert len(listed) == len(set(listed)) and set(listed) == expected
    rng = random.Random(seed)
    for _ in range(5):
        assert key(legal.random(rng)) in expected
    common = Counter(next(iter(expected)))
    union: Counter[int] = Counter()
    for p in expected:
        common &= Counter(p)
        union |= Counter(p)
    assert Counter(int(c) for c in legal.forced) == common
    assert not union - Counter(int(c) for c in legal.pool)
    completable = {sub for p in expected for sub in submultisets(Counter(p))}
    for sub in rng.sample(plays, min(len(plays), 20)):
        for cut in range(len(sub) + 1):
            assert legal.can_complete([ALL_CARDS[c] for c in sub[:cut]]) == (
                sub[:cut] in completable)
    # the rule: a rainbow as large if held (or a bomb), else anything
    bombs = {p for p in plays if rules.bombs and len(set(p)) == 1}
    rainbows = {p for p in plays if rainbow(p, trump, rules)}
    assert expected - bombs == (rainbows or set(plays)) - bombs
    event("rainbow held" if rainbows else "no rainbow held")

    # the trick: the highest rank among rainbows wins, the earlier among equals
    if not rainbows or rules.bombs:
        return
    trick = Trick(trump, rules, leader=0, players=2)
    trick.play(lead.cards, Hand(lead.cards))
    answer = [ALL_CARDS[c] for c in sorted(rainbows)[0]]
    trick.play(answer, hand)
    assert trick.winner == (1 if answer[0].rank > rank else 0)
