"""Follows found slow by hand and by the benchmark's search (``benchmarks/bench_worst.py``,
groups *slow*, *shapes* and *climb*), answered at once, and their answers checked
against brute force on positions of the same shape small enough for it.

The first: 4 decks, ``tuple_follow="protect"``, ``tractor_follow="longest"``, trump 7♣,
a tractor of two 4-tuples and a pair led to a hand of many 4-tuples. ``forced`` and
the first legal play took 0.3-0.8 s, the whole listing 3 s: under ``protect`` the listing
tried every set of the led count in turn (no test told a dead branch). Its neighbours
(2..8 decks, every ``tuple_follow`` x ``tractor_follow``, the 4-tuples as wide as the
decks) took seconds to minutes (under ``protect``; ``describe`` at 8 decks under
``breakdown``/``tuples`` 3 s: tuples of 7 widths were counted over a box of tens of
thousands of count vectors). As in
``test_worst_cases.py``, the time bounds are generous sanity checks (the benchmark
measures); the assertions are about the plays.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from random import Random
from typing import TypeVar

import pytest

from shengji.engine import (
    ALL_CARDS,
    Card,
    Hand,
    Lead,
    LegalLeads,
    LegalPlays,
    Rules,
    TractorFollow,
    Trump,
    TupleFollow,
    format_cards,
    parse_cards,
)
from shengji.engine.protect import play_value
from test_properties_follow import brute_force, key, submultisets
from timing import timed as cpu_timed
from timing import within

SLOW_LEAD = "4S 4S 10S 10S 10S 10S JS JS JS JS"
SLOW_HAND = ("3D 8D 9D 10D KD 3S 3S 3S 4S 4S 5S 5S 5S 5S 6S 6S 6S 6S 8S 8S 8S 8S 9S 9S 9S 9S "
             "QS QS QS QS KS KS KS KS AS AS AS")
POLICIES = [(t, f) for t in TupleFollow for f in TractorFollow]
T = TypeVar("T")
QUERY_S = 0.5  # each query, each step of the listing (took 0.3-5 s before)
POSITION_S = 1.5  # all of one position's (up to 0.3 s now; 2.7-60 s before under protect)
NEIGHBOURS = [(d, s) for d in range(2, 9) for s in ((False, True) if d > 4 else (False,))]


def copies(n: int, decks: int, scaled: bool) -> int:
    """A face's copies in the neighbour at ``decks``: as many as the pack holds, or (scaled)
    the 4-tuples as ``decks``-tuples and the triples one narrower (as in the benchmark)."""
    if decks < 4:
        return min(n, decks)
    return n + decks - 4 if scaled and n > 2 else n


def neighbour(decks: int, scaled: bool) -> tuple[list[Card], list[Card]]:
    """The lead and the hand of the slow follow's neighbour."""
    lead = [c for c, n in Counter(parse_cards(SLOW_LEAD)).items()
            for _ in range(copies(n, decks, scaled))]
    held = Counter(lead)
    hand = [c for c, n in Counter(parse_cards(SLOW_HAND)).items()
            for _ in range(min(copies(n, decks, scaled), decks - held[c]))]
    return lead, hand


def timed(query: Callable[[], T], what: str, bound: float = QUERY_S) -> T:
    return cpu_timed(query, what, bound)


def check_queries(legal: Callable[[], LegalPlays], rng: Random) -> list[tuple[Card, ...]]:
    """Every query, each on a new legal set and timed; the plays agree with each other."""
    timed(lambda: legal().describe(), "describe")
    forced = Counter(timed(lambda: legal().forced, "forced"))
    first = timed(lambda: next(iter(legal())), "the first play")
    plays = iter(legal())
    listed: list[tuple[Card, ...]] = []
    while len(listed) < 50:
        play = timed(lambda: next(plays, None), "a listing step")
        if play is None:
            break
        listed.append(play)
    assert listed[0] == first
    assert len({tuple(sorted(p)) for p in listed}) == len(listed)
    for play in listed[:5]:
        assert timed(lambda p=play: legal().reason(p), "a check") is None
        assert not forced - Counter(play)
        assert timed(lambda p=play: legal().can_complete(p[: len(p) // 2]), "can_complete")
    for _ in range(5):
        play = timed(lambda: legal().random(rng), "random")
        assert legal().reason(play) is None
    return listed


@pytest.mark.slow
@pytest.mark.parametrize(("decks", "scaled"), NEIGHBOURS)
def test_the_slow_protect_follow_and_its_neighbours_answer_at_once(decks: int, scaled: bool
                                                                   ) -> None:
    trump = Trump.parse("7C")
    lead_cards, hand_cards = neighbour(decks, scaled)
    hand = Hand(hand_cards)
    rng = Random(decks)
    for tuples, tractors in POLICIES:
        rules = Rules(decks=decks, tuple_follow=tuples, tractor_follow=tractors)
        lead = Lead.from_cards(lead_cards, trump, rules)
        leads = LegalLeads(Hand(lead_cards), trump, rules)
        timed(lambda leads=leads: leads.reason(lead_cards), "the lead check")

        def legal(rules: Rules = rules, lead: Lead = lead) -> LegalPlays:
            return LegalPlays(hand, lead, trump, rules)

        assert legal().mode == "follow"
        with within(POSITION_S, f"{tuples}/{tractors}"):
            check_queries(legal, rng)


def test_the_slow_follow_itself() -> None:
    """28 plays: the tractor (two 4-tuples of consecutive levels: 5-6, 6-8, 8-9 or Q-K,
    the trump rank 7 left out) and a pair from anything else, a triple broken or not."""
    trump, rules = Trump.parse("7C"), Rules(decks=4, tuple_follow="protect",
                                            tractor_follow="longest")
    legal = LegalPlays(Hand(SLOW_HAND), Lead.from_cards(SLOW_LEAD, trump, rules), trump, rules)
    assert legal.describe() == ("play 10 spades, including a tractor of 2 4-tuples and 2 cards"
                                " in tuples of the led size")
    assert legal.forced == ()
    plays = [format_cards(p) for p in legal]
    assert len(plays) == 28
    assert plays[:2] == ["AS AS KS KS KS KS QS QS QS QS", "AS AS 9S 9S 9S 9S 8S 8S 8S 8S"]
    assert "KS KS KS KS QS QS QS QS 3S 3S" in plays  # a pair out of the triple
    assert "AS AS AS KS KS KS KS QS QS QS" not in legal  # three QS: no tractor
    assert legal.reason("AS AS AS KS KS KS KS QS QS QS") is not None


CLIMBED = [  # (decks, tuple_follow, tractor_follow, trump, lead, hand): the search's finds
    (8, "protect", "tuples", "2H",
     "2H 2H 2H 2H 2H 2S 2S 2S 2S AH AH AH AH 10H 9H 9H 9H 9H 7H 6H 6H 6H 6H 6H 6H 6H",
     "BJ BJ SJ SJ 2H 2H 2H 2S 2S AH AH KH KH QH QH QH QH QH QH QH QH JH JH 10H 10H 9H 9H "
     "8H 8H 5H 5H 4H 4H 3H 3H 3H 3H 3H 3H 3H 3H AD JD 9D 5D"),  # forced: 5 s
    (8, "breakdown", "longest", "KC",
     "BJ BJ BJ BJ BJ SJ SJ SJ SJ SJ KC KC KC KC KC KC KC KC KH KH KH KH KH KH KH KH KD KD "
     "KD KD KD AC AC AC AC AC 2C 2C 2C 2C 2C 2C 2C 2C",
     "BJ BJ BJ SJ SJ SJ AC AC AC QC JC JC JC 10C 10C 10C 10C 10C 10C 10C 8C 8C 8C 8C 8C 8C "
     "8C 6C 6C 6C 6C 6C 6C 6C 6C 4C 4C 4C 4C 4C 4C 4C 3C 3C 3C 3C 3C 3C 3C"),  # forced: 2 s
    (8, "breakdown", "tuples", "KC",
     "BJ BJ BJ BJ BJ SJ SJ SJ SJ SJ KC KC KC KC KC KC KC KC KD KD KD KD KD AC AC AC AC AC "
     "QC 2C 2C 2C 2C 2C 2C 2C",
     "BJ BJ BJ SJ SJ SJ AC QC QC QC QC QC QC QC JC JC JC 10C 10C 10C 10C 10C 10C 10C 8C 8C "
     "8C 8C 8C 8C 8C 4C 4C 4C 4C 4C 4C 4C 3C 3C 3C 3C 3C 3C 3C"),  # forced: 0.7 s
    (8, "protect", "tuples", "9C",
     "AH AH AH JH JH JH JH 10H 10H 10H 10H 10H 10H 10H 10H 8H 8H 8H 8H 7H 7H 7H 7H 5H 5H 5H "
     "5H 4H 4H 4H 4H",
     "6C 3C 3S AH AH AH AH KH KH KH QH QH QH QH QH QH QH QH JH JH JH JH 8H 8H 8H 8H 7H 7H 7H "
     "7H 5H 5H 5H 5H 4H 4H 4H 4H 3H 3H 3H 2H 2H JD 7D 5D"),  # forced: 0.7 s with a first fix
]


@pytest.mark.slow
@pytest.mark.parametrize(("decks", "tuples", "tractors", "trump", "lead", "hand"), CLIMBED,
                         ids=[f"{c[0]}-{c[1]}-{c[2]}-{c[3]}" for c in CLIMBED])
def test_throws_of_wide_tuples_found_by_the_search_answer_at_once(
        decks: int, tuples: str, tractors: str, trump: str, lead: str, hand: str) -> None:
    t, rules = Trump.parse(trump), Rules(decks=decks, tuple_follow=tuples,
                                         tractor_follow=tractors)
    led = Lead.from_cards(lead, t, rules)
    with within(2 * POSITION_S, "the position"):  # (0.1-0.6 s now)
        check_queries(lambda: LegalPlays(Hand(hand), led, t, rules), Random(decks))


# -- the same shapes, small enough for brute force --------------------------------------

SMALL = [  # (lead, hand) at 4 decks: a tuple and a tractor of wide tuples led, the hand
    # holding tuples as wide or wider around them (the slow follow's shape, fewer faces)
    ("4S 4S 10S 10S 10S 10S JS JS JS JS", "AS AS AS KS KS KS KS QS QS QS QS 3S 3S 3S 9D"),
    ("4S 4S 10S 10S 10S 10S JS JS JS JS", "KS KS KS KS QS QS QS 9S 9S 9S 9S 8S 8S 3S 3S 3S"),
    ("4S 4S 10S 10S 10S JS JS JS", "KS KS KS KS QS QS QS QS 9S 9S 9S 8S 8S 8S 2S"),
    ("4S 4S 4S 10S 10S JS JS", "AS AS AS AS KS KS KS QS QS QS 3S 3S 8D"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("decks", "scaled"), NEIGHBOURS)
def test_small_shapes_agree_with_brute_force(decks: int, scaled: bool) -> None:
    """The small shapes at 2..8 decks (copies cut to what the pack holds, or, from 5
    decks, the 4-tuples as wide as the decks), under every policy that asks for
    structure."""
    for lead, hand in SMALL:
        lead, hand = (format_cards(c for c, n in Counter(parse_cards(cards)).items()
                                   for _ in range(copies(n, decks, scaled)))
                      for cards in (lead, hand))
        for tuples, tractors in POLICIES:
            if tuples == TupleFollow.NONE:
                continue
            agrees_with_brute_force(Rules(decks=decks, tuple_follow=tuples,
                                          tractor_follow=tractors), lead, hand)


def agrees_with_brute_force(rules: Rules, lead: str, hand: str) -> None:
    """The listing, ``forced``, ``random`` and ``can_complete`` against every play the
    check accepts (``brute_force`` of ``test_properties_follow``: the check of each set of
    the led count), on a fresh legal set each."""
    trump, held = Trump.parse("7C"), Hand(hand)
    led = Lead.from_cards(lead, trump, rules)

    def legal() -> LegalPlays:
        return LegalPlays(held, led, trump, rules)

    if legal().mode != "follow":
        return
    what = f"{rules.decks} decks {rules.tuple_follow}/{rules.tractor_follow}: {lead} to {hand}"
    expected = brute_force(legal(), held)
    listed = list(legal())
    assert len(listed) == len(expected), what
    assert {key(p) for p in listed} == expected, what
    common = Counter(key(listed[0]))
    for play in expected:
        common &= Counter(play)
    assert Counter(int(c) for c in legal().forced) == common, what
    rng = Random(rules.decks)
    for _ in range(8):
        assert key(legal().random(rng)) in expected, what
    counted = [Counter(p) for p in expected]
    subsets = list(submultisets(Counter(int(c) for c in held.cards()), most=len(led.cards)))
    for sub in rng.sample(subsets, min(len(subsets), 40)):
        part = any(not Counter(sub) - play for play in counted)
        assert legal().can_complete([ALL_CARDS[c] for c in sub]) == part, (what, sub)



def test_a_plays_tuples_count_whole_or_cut_to_the_led_widths() -> None:
    """``protect.play_value``, the docstring's two cases: a 4-tuple played on two led pairs
    fills both; on a led quadruple, the triple and a single lock 3 cards, the double and a
    pair split off the triple only 2 (a split pair is no held double)."""
    ace, king = parse_cards("AS KS")
    assert play_value([(ace, 4)], [(4, 2)], frozenset()) == (4, 4)
    assert play_value([(ace, 3), (king, 1)], [(4, 4)], frozenset()) == (0, 3)
    assert play_value([(king, 2), (ace, 2)], [(4, 4)], frozenset({ace})) == (0, 2)
