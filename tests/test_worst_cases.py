"""Follows and leads that used to take seconds with many decks (issue 9.6), and the
invariants of the legal set on large hands, where brute force is out of reach.

The positions come from random 8-deck deals (4 players, 106 cards a hand) where
finding the first legal follow took 2-3 s or more: a long tractor led, the follower
holding no tractor of that length but many pairs, triples and longer tuples. The
time bounds are generous sanity checks (the benchmark ``benchmarks/bench_worst.py``
measures); the assertions are about the plays.
"""

from __future__ import annotations

from collections import Counter
from itertools import islice
from random import Random

import pytest

from shengji.engine import (
    Card,
    Hand,
    Lead,
    LegalPlays,
    Rank,
    Rules,
    Suit,
    TractorFollow,
    Trump,
    TupleFollow,
    format_cards,
    full_deck,
    parse_cards,
)
from shengji.engine.units import as_unit, best_reading, reading_order, readings
from timing import within

EIGHT_DECKS = Rules(decks=8, players=4)

SLOW = [  # trump, lead, follower's hand: the first legal play took 2-3+ s before
    ("JS", "BJ BJ SJ SJ JS JS JC JC",
     "BJ SJ JS JS JS JH JH AS AS KS QS 10S 9S 9S 9S 9S 9S 9S 8S 8S 7S 6S 6S 5S 4S 4S 3S 3S "
     "2S 2S 2S 2S 10H 4H KD QD 8D 8D 7D 7D 6D 4D 4D 3D 3D 3D 2D 2D 2D AC 10C 8C 8C 7C 6C "
     "6C 5C 5C 3C 2C 2C"),
    ("8D", "AC AC KC KC QC QC JC JC 10C 10C 9C 9C",
     "BJ 8D 8D 8S 8H 8C 8C AD KD KD QD JD JD 9D 7D 6D AS KS KS QS QS JS JS 9S 9S 7S 6S 5S "
     "4S 4S 3S 2S AH QH QH JH JH 10H 9H 7H 6H 6H 6H 6H 5H 5H 4H 4H 4H 2H 2H AC QC QC JC "
     "JC JC 10C 10C 9C 7C 7C 7C 6C 6C 6C 5C 4C 4C 4C 3C 3C 3C 2C 2C 2C 2C"),
]


def key(play: tuple[Card, ...]) -> tuple[int, ...]:
    return tuple(sorted(play))


def check_consistency(legal: LegalPlays, rng: Random, plays: int = 200) -> None:
    """The first plays of the listing, random plays and ``forced`` agree with ``reason``."""
    forced = Counter(legal.forced)
    listed = list(islice(iter(legal), plays))
    assert listed, "some play is always legal"
    assert len({key(p) for p in listed}) == len(listed), "the listing repeats a play"
    for play in listed:
        assert legal.reason(play) is None, (format_cards(play), legal.reason(play))
        assert not forced - Counter(play), "a listed play lacks a forced card"
        assert legal.can_complete(play[: len(play) // 2])
    for _ in range(20):
        play = legal.random(rng)
        assert legal.reason(play) is None
        assert not forced - Counter(play)


@pytest.mark.parametrize(("trump", "lead", "hand"), SLOW)
def test_long_tractor_led_to_a_hand_of_pairs_and_tuples(trump: str, lead: str, hand: str
                                                        ) -> None:
    t = Trump.parse(trump)
    with within(5.0, "the position"):  # took minutes before
        legal = LegalPlays(Hand(hand), Lead.from_cards(lead, t, EIGHT_DECKS), t, EIGHT_DECKS)
        assert legal.mode == "follow"
        first = next(iter(legal))
        assert legal.reason(first) is None
        check_consistency(legal, Random(1))


def test_forced_when_pairs_can_be_drawn_from_larger_tuples() -> None:
    """A 6-pair tractor led on 14 clubs holding no tractor but 5 pairs' worth of tuples
    (8C x5 gives two, 6C x4 two, 4C x2 one): every copy those pairs need is forced, the
    last two cards are free."""
    t, rules = Trump.parse("2H"), EIGHT_DECKS
    lead = Lead.from_cards("AC AC KC KC QC QC JC JC 10C 10C 9C 9C", t, rules)
    legal = LegalPlays(Hand("8C 8C 8C 8C 8C 6C 6C 6C 6C 4C 4C 3C 5C 7C 5S"), lead, t, rules)
    assert legal.describe() == "play 12 clubs, including 5 pairs"
    assert Counter(legal.forced) == Counter(parse_cards("8C 8C 8C 8C 6C 6C 6C 6C 4C 4C"))
    assert "8C 8C 8C 8C 6C 6C 6C 6C 4C 4C 8C 3C" in legal
    assert legal.reason("8C 8C 8C 6C 6C 6C 6C 4C 4C 3C 5C 7C") is not None  # 4 pairs
    check_consistency(legal, Random(2))


def test_mixed_tuple_widths_are_counted_exactly() -> None:
    """A triple and two pairs thrown (5 decks): a face held 4 times gives a triple or two
    pairs, not both. The most triples first, then the most pairs: the triple from 7C and
    two pairs from 9C. (Tuples taken greedily from the fullest face found one pair.)"""
    t, rules = Trump.parse("2H"), Rules(decks=5, players=6)
    lead = Lead.from_cards("AC AC AC QC QC 10C 10C", t, rules)
    assert [u.describe() for u in lead.units] == ["triple", "pair", "pair"]
    legal = LegalPlays(Hand("9C 9C 9C 9C 7C 7C 7C 4C 3C"), lead, t, rules)
    assert legal.describe() == "play 7 clubs, including 1 triple and 2 pairs"
    assert [format_cards(sorted(p)) for p in legal] == ["7C 7C 7C 9C 9C 9C 9C"]
    assert legal.reason("9C 9C 9C 7C 7C 4C 3C") == (
        "you hold 2 pairs in clubs (9C 9C 9C 9C): a throw of triple + pair + pair led must"
        " be followed by as many pairs as you can play")
    assert Counter(legal.forced) == Counter(parse_cards("9C 9C 9C 9C 7C 7C 7C"))


@pytest.mark.slow
@pytest.mark.parametrize("policy", list(TractorFollow))
@pytest.mark.parametrize("decks", [4, 6, 8])
def test_random_deals_with_many_decks_are_consistent(policy: TractorFollow, decks: int) -> None:
    """Full hands of random deals, each led a long tractor or a throw of tuples."""
    rules = Rules(decks=decks, players=4, tractor_follow=policy)
    rng = Random(decks * 10 + len(policy))
    for _ in range(3):
        deck = full_deck(decks)
        rng.shuffle(deck)
        leader, follower = Hand(deck[:rules.hand_size]), Hand(deck[rules.hand_size:][
            :rules.hand_size])
        t = rules.trump(None) if rng.random() < 0.2 else Trump.parse(rng.choice(
            ["2H", "7S", "KD", "AC", "10NT"]))
        suits = [c for c in leader.cards() if t.suit_of(c) == t.suit_of(leader.cards()[0])]
        cards = [c for c in set(suits) if leader.count(c) >= 2][:5]
        lead_cards = [c for c in cards for _ in range(2)] or suits[:3]
        lead = Lead.from_cards(lead_cards, t, rules)
        with within(10.0, "the position"):
            check_consistency(LegalPlays(follower, lead, t, rules), rng, plays=50)


def test_protect_is_still_exact_on_small_hands() -> None:
    """``protect`` keeps its search (more cards can lower the value there)."""
    t, rules = Trump.parse("2H"), Rules(decks=4, players=8, tuple_follow=TupleFollow.PROTECT)
    lead = Lead.from_cards("KS KS KS", t, rules)
    legal = LegalPlays(Hand("9S 9S 9S 9S 8S 8S 3S"), lead, t, rules)
    assert {format_cards(sorted(p)) for p in legal} == {"3S 8S 8S", "8S 8S 9S", "9S 9S 9S"}
    assert legal.forced == ()


# -- leads: the default reading without listing every reading ---------------------------

WHOLE_SUIT = ("BJ BJ BJ SJ SJ SJ SJ 5D 5D 5D 5D 5S 5S 5H 5H 5H 5H 5C 5C AD AD KD KD KD QD QD "
              "QD JD JD 10D 10D 10D 7D 7D 7D 7D 6D 2D 2D 2D")


def test_a_whole_trump_suit_led_is_read_at_once() -> None:
    """40 trumps of 8 decks have 608 readings; listing them to pick the first took 1-2 s."""
    t = Trump.parse("5D")
    with within(0.5, "the reading"):
        lead = Lead.from_cards(WHOLE_SUIT, t, EIGHT_DECKS)
    assert [u.describe() for u in lead.units] == [
        "tractor of 9 pairs", "tractor of 3 pairs", "4-tuple", "4-tuple", "triple", "single",
        "single", "single", "single", "single"]


@pytest.mark.slow
def test_a_whole_trump_suit_is_read_as_its_first_reading() -> None:
    """The same lead's reading is the first of every reading listed (the listing takes
    seconds: untimed, so that it need not run alone)."""
    t = Trump.parse("5D")
    lead = Lead.from_cards(WHOLE_SUIT, t, EIGHT_DECKS)
    assert reading_order(lead.units) == reading_order(readings(WHOLE_SUIT, t, EIGHT_DECKS)[0])


@pytest.mark.slow
def test_the_default_reading_is_the_first_reading() -> None:
    """Random sets of one suit (1-4 decks, every tractor option): the reading a lead takes
    ranks first among all readings (fewest units, then the largest)."""
    rng = Random(11)
    for _ in range(1500):
        decks = rng.choice([1, 2, 2, 3, 4])
        rules = Rules(decks=decks, tractor_min_width=rng.choice([1, 2]) if decks <= 2 else 2,
                      tractor_min_length=rng.choice([2, 2, 3]),
                      tractor_high_trumps=rng.random() < 0.7)
        t = rules.trump(rng.choice(list(Rank)), rng.choice([None, *Suit]))
        column = [f for level in t.faces_at[rng.choice([0, 1, 2, 3, 4, 4, 4])] for f in level]
        if not column:
            continue
        start = rng.randrange(len(column))
        cards = [f for f in column[start:start + rng.randint(2, 7)]
                 for _ in range(rng.randint(0, decks))][:10]
        if not cards:
            continue
        best = best_reading(cards, t, rules)
        assert best is not None
        assert best in readings(cards, t, rules)
        assert reading_order(best) == reading_order(readings(cards, t, rules)[0]), cards
        if as_unit(cards, t, rules) is None:
            assert Lead.from_cards(cards, t, rules).units == best
