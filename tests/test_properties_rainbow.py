"""Property tests: rainbow leads (``rules.rainbow``), against brute force on small hands.

A rainbow is one card of one rank in each of at least ``rules.rainbow`` effective suits.
Every view of the legal leads and follows (the check, the generator, ``random``,
``forced``, ``pool``, ``can_complete``) must agree with the check over every
sub-multiset, and with the rule itself: a follower holding a rainbow as large plays one
(or a bomb), else anything; the highest rank wins.

Rainbow throws (``rules.rainbow_throws``): a lead of two or more rainbows, each rank's
cards in whole layers; a follower plays as many disjoint rainbows of the led sizes as the
hand holds (the most of the largest size first), found here by brute force over every set
of disjoint rainbows; only rainbows of exactly the led sizes win, under ``throw_beat``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Final

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
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
    ThrowBeat,
    Trick,
    Trump,
)
from shengji.env.selection import LeadSelector
from test_properties_follow import RANKS_OR_NONE, SUITS_OR_NONE, one_of, submultisets

Key = tuple[int, ...]


def key(cards: Iterable[Card]) -> Key:
    return tuple(sorted(int(c) for c in cards))


def rainbow(play: Key, trump: Trump, rules: Rules) -> bool:
    """The rule itself: one rank, one card in each of its effective suits, enough suits."""
    cards = [ALL_CARDS[c] for c in play]
    ranks = {c.rank for c in cards}
    suits = {trump.suit_of(c) for c in cards}
    return (len(ranks) == 1 and None not in ranks and len(suits) == len(cards)
            >= rules.rainbow)


def rainbow_throw(play: Key, trump: Trump, rules: Rules) -> bool:
    """The rule itself: with the options on, each rank's cards lie in whole layers (as
    many effective suits as a rainbow needs hold the rank's most copies), two in all."""
    if not (rules.rainbow and rules.rainbow_throws and rules.throws):
        return False
    cards = [ALL_CARDS[c] for c in play]
    if any(c.rank is None for c in cards):
        return False
    layers = 0
    for rank in {c.rank for c in cards}:
        per_suit = Counter(trump.suit_of(c) for c in cards if c.rank == rank)
        top = max(per_suit.values())
        if sum(1 for n in per_suit.values() if n == top) < rules.rainbow:
            return False
        layers += top
    return layers >= 2


RANK_SETS: Final = st.lists(st.sampled_from(list(Rank)), min_size=1, max_size=3, unique=True)
SUIT_ORDERS: Final = st.permutations(list(Suit))


@st.composite
def tables(draw: st.DrawFn) -> tuple[Rules, Trump, list[Card]]:
    """Rules with rainbows, a trump, and up to 9 cards of two or three ranks."""
    decks = draw(one_of((1, 2, 2, 3)))
    rules = Rules(decks=decks, rainbow=draw(one_of((2, 3, 4, 4))),
                  throws=draw(st.booleans()), rainbow_throws=draw(st.booleans()),
                  bombs=draw(one_of((0, 0, 2))) if decks >= 2 else 0)
    rank = draw(RANKS_OR_NONE)
    trump = rules.trump(rank, draw(SUITS_OR_NONE) if rank else None)
    ranks = draw(RANK_SETS)
    counts = {Card.of(r, s): draw(one_of((0, 1, 1, decks))) for r in ranks for s in Suit}
    cards = [c for c, n in counts.items() for _ in range(n)]
    random.Random(draw(st.integers(0, 999))).shuffle(cards)
    return rules, trump, cards[:9]


@pytest.mark.slow
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
        throw = rainbow_throw(play, trump, rules)
        assert lead.rainbow == (rainbow(play, trump, rules) or throw)
        assert (lead.rainbow and lead.is_throw) == throw == (len(lead.rainbows) > 1)
        if throw:  # its rainbows hold its cards
            assert key(c for r in lead.rainbows for c in r) == play
            assert all(rainbow(key(r), trump, rules) for r in lead.rainbows)
    rng = random.Random(len(cards))
    for _ in range(5):
        if cards:
            assert key(leads.random(rng)) in expected
    # the environment's lead selection: every prefix of a lead can be completed, and the
    # lead itself is complete
    for play in [p for p in expected if rainbow_throw(p, trump, rules)][:5]:
        pick = LeadSelector(LegalLeads(hand, trump, rules))
        for c in play:
            assert ALL_CARDS[c] in pick.addable()
            pick.add(ALL_CARDS[c])
        assert pick.complete()
    event("a rainbow throw can be led" if any(rainbow_throw(p, trump, rules) for p in expected)
          else "a rainbow can be led" if any(rainbow(p, trump, rules) for p in expected)
          else "no rainbow")


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(), st.data(), st.integers(0, 2**16))
def test_rainbow_follows_agree_with_brute_force(
    table: tuple[Rules, Trump, list[Card]], data: st.DataObject, seed: int,
) -> None:
    rules, trump, cards = table
    # the lead: a rainbow of a random rank, not taken from the follower's cards
    rank = data.draw(one_of(tuple(r for r in Rank if r != trump.rank)), label="led rank")
    suits = data.draw(SUIT_ORDERS, label="suits")
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
    views_agree(legal, plays, expected, seed, exact_pool=False)
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


# -- rainbow throws: following and winning ---------------------------------------------------


def rainbows_in(left: Counter[int], size: int, trump: Trump, rules: Rules) -> Iterator[Key]:
    """Every distinct rainbow of ``size`` cards among ``left``."""
    for sub in submultisets(Counter({ALL_CARDS[c]: n for c, n in left.items()}), size):
        if rainbow(sub, trump, rules):
            yield sub


def best_vector(play: Key, sizes: list[int], trump: Trump, rules: Rules) -> tuple[int, ...]:
    """By brute force over every set of disjoint rainbows of the led ``sizes`` (at most as
    many of each as led): the largest vector of their numbers, the largest size first."""
    distinct = sorted(set(sizes), reverse=True)
    caps = [sizes.count(s) for s in distinct]
    found: set[tuple[int, ...]] = set()
    seen: set[tuple[Key, tuple[int, ...]]] = set()

    def rec(left: Counter[int], vector: tuple[int, ...]) -> None:
        state = (key(ALL_CARDS[c] for c in left.elements()), vector)
        if state in seen:
            return
        seen.add(state)
        found.add(vector)
        for i, size in enumerate(distinct):
            if vector[i] < caps[i]:
                for sub in rainbows_in(left, size, trump, rules):
                    rec(left - Counter(sub), (*vector[:i], vector[i] + 1, *vector[i + 1:]))

    rec(Counter(play), (0,) * len(distinct))
    return max(found)


def splits(play: Key, sizes: list[int], trump: Trump, rules: Rules) -> Iterator[list[Key]]:
    """Every way to split the cards into rainbows of exactly the ``sizes`` (a multiset)."""
    if not play:
        if not sizes:
            yield []
        return
    first, left = play[0], Counter(play)
    for size in sorted(set(sizes)):
        for sub in rainbows_in(left, size, trump, rules):
            if first in sub:
                rest = list(sizes)
                rest.remove(size)
                for tail in splits(key(ALL_CARDS[c] for c in (left - Counter(sub)).elements()),
                                   rest, trump, rules):
                    yield [sub, *tail]


def ranks(rainbows: Iterable[Key]) -> list[tuple[int, int]]:
    """(size, rank) of each rainbow, the largest first, the highest rank first."""
    return sorted(((len(r), int(ALL_CARDS[r[0]].rank or 0)) for r in rainbows), reverse=True)


def wins(mine: list[tuple[int, int]], theirs: list[tuple[int, int]], rules: Rules) -> bool:
    """The rule itself: by the largest rainbow's rank (then the next ones' with the
    tiebreak), or every rainbow above its counterpart of the same size."""
    if rules.throw_beat in (ThrowBeat.LARGEST_UNIT, ThrowBeat.HIGHEST_CARD):
        if rules.throw_tiebreak:
            return [r for _, r in mine] > [r for _, r in theirs]
        return mine[0][1] > theirs[0][1]
    return all(a[1] > b[1] for a, b in zip(mine, theirs, strict=True))


@st.composite
def throw_positions(draw: st.DrawFn) -> tuple[Rules, Trump, list[Card], list[Card]]:
    """Rules with rainbow throws, a trump, a rainbow throw of one or two ranks (whole
    layers, at most 8 cards) and a follower hand of cards of a few ranks."""
    decks = draw(one_of((1, 2, 2, 3)))
    rules = Rules(decks=decks, rainbow=draw(one_of((2, 2, 3))), rainbow_throws=True,
                  throw_beat=draw(one_of(tuple(ThrowBeat))),
                  throw_tiebreak=draw(st.booleans()))
    rank = draw(RANKS_OR_NONE, label="trump rank")
    trump = rules.trump(rank, draw(SUITS_OR_NONE) if rank else None)

    def layered(label: str) -> list[Card]:
        """Cards of one or two ranks (not the trump rank) in whole layers: a rainbow
        throw, or one rainbow."""
        found: list[Card] = []
        for one in draw(st.lists(one_of(tuple(r for r in Rank if r != rank)), min_size=1,
                                 max_size=2, unique=True), label=label):
            depth = draw(st.integers(1, decks), label="layers")
            suits = draw(SUIT_ORDERS, label="suits")
            full = draw(st.integers(rules.rainbow, 4), label="suits in every layer")
            for i, suit in enumerate(suits):
                n = depth if i < full else draw(st.integers(0, depth - 1))
                found += [Card.of(one, suit)] * n
        return found

    lead = layered("led ranks")
    answer = layered("answer ranks") if draw(st.booleans(), label="answer") else []
    ranks_held = draw(RANK_SETS, label="held ranks")
    counts = {Card.of(r, s): draw(one_of((0, 1, 1, decks)))
              for r in ranks_held for s in Suit}
    cards = [c for c, n in counts.items() for _ in range(n)]
    random.Random(draw(st.integers(0, 999))).shuffle(cards)
    return rules, trump, lead, (answer + cards)[:max(len(answer), 7)][:10]


@pytest.mark.slow
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(throw_positions(), st.integers(0, 2**16))
def test_rainbow_throw_follows_agree_with_brute_force(
    position: tuple[Rules, Trump, list[Card], list[Card]], seed: int,
) -> None:
    rules, trump, lead_cards, cards = position
    assume(len(lead_cards) <= 8)
    lead = Lead.from_cards(lead_cards, trump, rules)
    assume(len(lead.rainbows) > 1)
    assert lead.is_throw and lead.rainbow
    size = lead.size
    sizes = [len(r) for r in lead.rainbows]
    filler = [ALL_CARDS[(i * 7) % 54] for i in range(max(0, size + 2 - len(cards)))]
    hand = Hand(cards + filler)
    legal = LegalPlays(hand, lead, trump, rules)
    plays = list(submultisets(Counter(hand.cards()), size))
    expected = {p for p in plays if legal.reason([ALL_CARDS[c] for c in p]) is None}
    # the rule, by brute force: as many rainbows of the led sizes as the hand holds
    target = best_vector(key(hand.cards()), sizes, trump, rules)
    assert expected == {p for p in plays if best_vector(p, sizes, trump, rules) == target}
    assert legal.mode == ("rainbows" if any(target) else "free")
    # every view of the legal set agrees with the check
    views_agree(legal, plays, expected, seed, exact_pool=True)
    event(f"{sum(target)} of {len(sizes)} rainbows answered")

    # the trick: only rainbows of exactly the led sizes win, under throw_beat
    trick = Trick(trump, rules, leader=0, players=2)
    trick.play(lead.cards, Hand(lead.cards), hands=[Hand(lead.cards), Hand()])
    assert trick.throw is not None and trick.throw.valid
    whole = [p for p in sorted(expected) if next(splits(p, sizes, trump, rules), None)]
    answer = (whole or sorted(expected))[seed % len(whole or expected)]  # rainbows if any
    trick.play([ALL_CARDS[c] for c in answer], hand)
    led = ranks(key(r) for r in lead.rainbows)
    won = any(wins(ranks(split), led, rules) for split in splits(answer, sizes, trump, rules))
    assert trick.winner == (1 if won else 0)
    event("the answer wins" if won else "the lead wins")


@st.composite
def rainbow_answers(draw: st.DrawFn, sizes: list[int], trump: Trump) -> list[Card]:
    """Cards of rainbows of the given ``sizes``, of random ranks (not the trump rank)."""
    cards: list[Card] = []
    for size in sizes:
        rank = draw(one_of(tuple(r for r in Rank if r != trump.rank)))
        suits = draw(SUIT_ORDERS)
        cards += [Card.of(rank, s) for s in suits[:size]]
    return cards


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(throw_positions(), st.data())
def test_rainbow_throw_winners_agree_with_the_rule(
    position: tuple[Rules, Trump, list[Card], list[Card]], data: st.DataObject,
) -> None:
    """Two followers answer with rainbows of the led sizes (their whole hands): each wins
    if some split of its cards into rainbows of the led sizes beats the winner so far
    (at its best); under ``every-unit`` and ``card-by-card`` only one follower."""
    rules, trump, lead_cards, _ = position
    assume(len(lead_cards) <= 8)
    lead = Lead.from_cards(lead_cards, trump, rules)
    assume(len(lead.rainbows) > 1)
    sizes = [len(r) for r in lead.rainbows]
    by_largest = rules.throw_beat in (ThrowBeat.LARGEST_UNIT, ThrowBeat.HIGHEST_CARD)
    answers = [data.draw(rainbow_answers(sizes, trump)) for _ in range(2 if by_largest else 1)]
    trick = Trick(trump, rules, leader=0, players=len(answers) + 1)
    trick.play(lead.cards, Hand(lead.cards),
               hands=[Hand(lead.cards), *(Hand() for _ in answers)])  # (the throw stands)
    assert trick.lead == lead

    def strength(split: list[tuple[int, int]]) -> list[int]:
        return [r for _, r in split]

    best, winner = ranks(key(r) for r in lead.rainbows), 0
    for seat, answer in enumerate(answers, 1):
        trick.play(answer, Hand(answer))  # the whole hand: the only legal play
        play = key(answer)
        beating = [ranks(s) for s in splits(play, sizes, trump, rules)
                   if wins(ranks(s), best, rules)]
        if beating:
            best, winner = max(beating, key=strength), seat
    assert trick.winner == winner
    event(f"seat {winner} wins")


def views_agree(legal: LegalPlays, plays: list[tuple[int, ...]], expected: set[tuple[int, ...]],
                seed: int, *, exact_pool: bool) -> None:
    """Every view of ``legal`` agrees with the check (``expected``: the plays it accepts out
    of ``plays``): the listing, random draws, the forced cards, the pool (exactly, or holding
    every accepted play's cards) and ``can_complete`` on random prefixes."""
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
    pool = Counter(int(c) for c in legal.pool)
    assert pool == union if exact_pool else not union - pool
    completable = {sub for p in expected for sub in submultisets(Counter(p))}
    for sub in rng.sample(plays, min(len(plays), 20)):
        for cut in range(len(sub) + 1):
            assert legal.can_complete([ALL_CARDS[c] for c in sub[:cut]]) == (
                sub[:cut] in completable)
