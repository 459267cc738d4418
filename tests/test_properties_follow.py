"""Property tests: following a lead, checked against brute force on small positions.

For small random positions (a trump, a lead of up to 6 cards with one of its
readings, a follower hand of up to 10 cards, 1-3 decks) every sub-multiset of
the hand of the lead's size is classified with ``LegalPlays.reason``, and the
other views of the legal set (the generator, ``random``, ``forced``, ``pool``,
``can_complete``) must agree with that set, for every combination of
``tuple_follow`` and ``tractor_follow`` and the tractor options. Independent
oracles check the suit rule, that a play matching the lead's structure is
always legal, and (for ``draw-out``) the exact legal set of one-unit leads.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import permutations
from typing import Any, Final, TypeVar

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from shengji.engine import (
    ALL_CARDS,
    TRUMP,
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
    Unit,
    as_unit,
    readings,
)

Key = tuple[int, ...]
MAX_LEAD = 6
MAX_HAND = 10
T = TypeVar("T")


def key(cards: Iterable[Card]) -> Key:
    """A multiset of cards as a canonical, hashable value."""
    return tuple(sorted(int(c) for c in cards))


def cards_of(counts: Counter[Card]) -> list[Card]:
    return [c for c in sorted(counts) for _ in range(counts[c])]


def submultisets(counts: Counter[Card], size: int | None = None, *,
                 most: int | None = None) -> Iterator[Key]:
    """Every distinct sub-multiset (of ``size`` cards, if given; of ``most`` cards or fewer,
    if given), in the order of ``product`` over the faces' copies (the first face varying
    slowest); the sizes left out are never built."""
    faces = [int(f) for f in sorted(counts)]  # ascending: each prefix is a sorted key
    copies = [counts[f] for f in sorted(counts)]
    below = [sum(copies[i:]) for i in range(len(faces) + 1)]  # cards from face i on
    top = min(x for x in (size, most, below[0]) if x is not None)

    def rec(i: int, room: int, prefix: Key) -> Iterator[Key]:
        if i == len(faces):
            if size is None or room == top - size:
                yield prefix
            return
        for n in range(min(copies[i], room) + 1):
            if size is not None and room - n > below[i + 1] + top - size:
                continue  # the faces after this one cannot make up ``size``
            yield from rec(i + 1, room - n, prefix + (faces[i],) * n)

    return rec(0, top, ())


def unit_partitions(cards: Key, trump: Trump, rules: Rules) -> Iterator[list[Unit]]:
    """Every way to split the cards into units (brute force via ``as_unit``)."""
    if not cards:
        yield []
        return
    first, rest = cards[0], Counter(cards[1:])
    for extra in submultisets(rest):
        unit = as_unit((ALL_CARDS[first], *(ALL_CARDS[c] for c in extra)), trump, rules)
        if unit is None:
            continue
        left = key(cards_of(rest - Counter(extra)))
        for tail in unit_partitions(left, trump, rules):
            yield [unit, *tail]


def maximal_partitions(cards: Key, trump: Trump, rules: Rules) -> Iterator[list[Unit]]:
    """The partitions in which no two or more units together form one unit (the
    readings)."""
    for units in unit_partitions(cards, trump, rules):
        if not any(as_unit([c for i, u in enumerate(units) if mask >> i & 1 for c in u.cards],
                           trump, rules)
                   for mask in range(1 << len(units)) if mask.bit_count() >= 2):
            yield units


def shapes(units: Iterable[Unit]) -> list[tuple[int, int]]:
    return sorted(u.shape for u in units)


@dataclass(frozen=True)
class Position:
    trump: Trump
    rules: Rules
    lead: Lead
    hand: Hand

    def __repr__(self) -> str:
        return (f"Position(trump={self.trump!r}, rules={self.rules!r}, "
                f"lead={' '.join(map(str, self.lead.cards))!r} read as "
                f"{[u.describe() for u in self.lead.units]}, hand={str(self.hand)!r})")


_SAMPLED: dict[tuple[tuple[type, object], ...], st.SearchStrategy[Any]] = {}


def one_of(choices: tuple[T, ...]) -> st.SearchStrategy[T]:
    """``st.sampled_from(choices)``, made once for each tuple: hypothesis checks a new strategy
    at the first draw from it, and a strategy made afresh at every draw of these tests was
    checked at every example (a third of the tests' time). Kept by the choices and their types
    (a card equals its number)."""
    key = tuple((type(c), c) for c in choices)
    found = _SAMPLED.get(key)
    if found is None:
        found = _SAMPLED[key] = st.sampled_from(choices)
    return found


RANKS_OR_NONE: Final = st.none() | st.sampled_from(list(Rank))
SUITS_OR_NONE: Final = st.none() | st.sampled_from(list(Suit))
EXTRA_CARDS: Final = st.lists(st.sampled_from(ALL_CARDS), max_size=8)


@functools.cache
def positions(rules: Rules) -> st.SearchStrategy[Position]:
    """:func:`_positions` under ``rules``, made once for each rules (as :func:`one_of`)."""
    return _positions(rules)


@st.composite
def _positions(draw: st.DrawFn, rules: Rules) -> Position:
    """A small position: a lead from a window of levels of one effective suit and a
    follower hand concentrated around that window, plus a few other cards."""
    decks = rules.decks
    rank = draw(RANKS_OR_NONE, label="rank")
    suit = None if rank is None else draw(SUITS_OR_NONE, label="suit")
    trump = rules.trump(rank, suit)
    led = draw(one_of(tuple(s for s in (TRUMP, 0, 1, 2, 3) if trump.suit_size(s))),
               label="led suit")
    column = trump.faces_at[led]
    width = draw(st.integers(1, min(4, len(column))), label="window")
    start = draw(st.integers(0, len(column) - width), label="start")
    window = [f for level in column[start:start + width] for f in level]
    lead_counts: Counter[Card] = Counter()
    kind = draw(one_of(("tractor", "tractor", "tuple", "any")), label="lead kind")
    tractor_widths = range(max(2, rules.tractor_min_width) if decks > 1 else 1, decks + 1)
    w = draw(one_of(tuple(tractor_widths)), label="tractor width") if tractor_widths else 0
    longest = min(width, MAX_LEAD // w) if w else 0
    if kind == "tractor" and longest >= rules.tractor_min_length:
        length = draw(st.integers(rules.tractor_min_length, longest), label="tractor length")
        for level in column[start:start + length]:
            lead_counts[draw(one_of(tuple(level)), label="tractor face")] = w
    elif kind == "tuple" and decks > 1:
        face = draw(one_of(tuple(window)), label="tuple face")
        lead_counts[face] = draw(st.integers(2, decks), label="tuple width")
    extra = draw(one_of((0, 0, 1, 2)), label="extra") if lead_counts else MAX_LEAD
    for face in window:
        if extra and lead_counts[face] < decks:
            n = draw(st.integers(0, min(extra, decks - lead_counts[face])), label=f"lead {face}")
            lead_counts[face] += n
            extra -= n
    lead_counts = +lead_counts
    if not lead_counts:
        lead_counts[window[0]] = 1
    while sum(lead_counts.values()) > MAX_LEAD:
        lead_counts[max(lead_counts)] -= 1
        lead_counts = +lead_counts
    lead_cards = cards_of(lead_counts)
    options = readings(lead_cards, trump, rules)
    reading = options[draw(st.integers(0, len(options) - 1), label="reading")]
    lead = Lead.from_cards(lead_cards, trump, rules, reading)

    left = Counter({c: decks for c in ALL_CARDS}) - lead_counts
    hand: Counter[Card] = Counter()
    near = [f for level in column[max(0, start - 2):start + width + 2] for f in level]
    void = draw(one_of((False,) * 5 + (True,)), label="void in the led suit")
    for face in near:
        if left[face] and not void:
            n = left[face]
            hand[face] = draw(one_of((*range(n + 1), n)), label=f"hand {face}")
    while sum(hand.values()) > MAX_HAND - 2:
        hand[min(hand, key=lambda c: (-hand[c], c))] -= 1
        hand = +hand
    extras = draw(EXTRA_CARDS, label="extras")
    for card in extras:
        if sum(hand.values()) >= MAX_HAND:
            break
        if hand[card] < left[card]:
            hand[card] += 1
    offset = draw(st.integers(0, 53), label="filler")
    for i in range(54 * decks):
        if sum(hand.values()) >= lead.size:
            break
        card = ALL_CARDS[(offset + 7 * i) % 54]
        if hand[card] < left[card] and not (void and trump.suit_of(card) == led):
            hand[card] += 1
    assume(sum(hand.values()) >= lead.size)
    order = cards_of(hand)
    random.Random(draw(st.integers(0, 2**16), label="order")).shuffle(order)
    return Position(trump, rules, lead, Hand(order))


VARIANTS = {
    "plain": {},
    "min-length-3": {"tractor_min_length": 3},
    "min-width-1": {"tractor_min_width": 1},
    "no-high-trumps": {"tractor_high_trumps": False},
}
DECKS = {"plain": [1, 2, 2, 3], "min-length-3": [2, 3], "min-width-1": [1],
         "no-high-trumps": [2, 3]}


@functools.cache
def rules_for(tuple_follow: TupleFollow, tractor_follow: TractorFollow, variant: str
              ) -> st.SearchStrategy[Rules]:
    return st.builds(
        lambda decks, red: Rules(decks=decks, red_fives=red, tuple_follow=tuple_follow,
                                 tractor_follow=tractor_follow, **VARIANTS[variant]),
        st.sampled_from(DECKS[variant]),
        st.sampled_from([0, 0, 0, 1, 2]),
    )


def brute_force(legal: LegalPlays, hand: Hand) -> set[Key]:
    return {
        play for play in submultisets(Counter(hand.cards()), legal.count)
        if legal.reason([ALL_CARDS[c] for c in play]) is None
    }


def check_position(pos: Position, seed: int) -> None:
    trump, rules, lead, hand = pos.trump, pos.rules, pos.lead, pos.hand
    legal = LegalPlays(hand, lead, trump, rules)
    expected = brute_force(legal, hand)
    assert expected, "some play is always legal"
    kind = "throw" if lead.is_throw else "tractor" if lead.units[0].length > 1 else (
        "tuple" if lead.units[0].width > 1 else "single")
    event(f"{legal.mode} {kind}")

    # the generator lists exactly the legal plays, each once, each sorted strongest first
    listed = list(legal)
    assert len(listed) == len(set(map(key, listed))), "duplicates in the generator"
    assert set(map(key, listed)) == expected
    for play in listed:
        strengths = [trump.key(c) for c in play]
        assert strengths == sorted(strengths, reverse=True)

    # random plays are legal; forced is the intersection; pool covers every legal card
    rng = random.Random(seed)
    for _ in range(8):
        play = legal.random(rng)
        assert key(play) in expected, (play, legal.reason(play))
    counters = [Counter(p) for p in expected]
    intersection = counters[0].copy()
    union: Counter[int] = Counter()
    for counter in counters:
        intersection &= counter
        union |= counter
    assert Counter(int(c) for c in legal.forced) == intersection, legal.forced
    pool = Counter(int(c) for c in legal.pool)
    assert not union - pool, (legal.pool, union)
    assert not pool - Counter(int(c) for c in hand.cards())

    # can_complete is true exactly for sub-multisets of some legal play
    completable = {sub for p in expected for sub in submultisets(Counter(p))}
    candidates = list(submultisets(Counter(int(c) for c in hand.cards()), most=legal.count))
    for sub in rng.sample(candidates, min(len(candidates), 40)):
        assert legal.can_complete([ALL_CARDS[c] for c in sub]) == (sub in completable), sub

    # the answer does not depend on the order of the play or of the hand
    plays = list(submultisets(Counter(int(c) for c in hand.cards()), legal.count))
    shuffled_hand = hand.cards()
    rng.shuffle(shuffled_hand)
    legal2 = LegalPlays(Hand(shuffled_hand), lead, trump, rules)
    for play in rng.sample(plays, min(len(plays), 10)):
        cards = [ALL_CARDS[c] for c in play]
        answer = legal.reason(cards) is None
        for _ in range(3):
            rng.shuffle(cards)
            assert (legal.reason(cards) is None) == answer
            assert (legal2.reason(cards) is None) == answer
            assert (cards in legal) == answer

    check_oracles(pos, legal, expected, plays)


def check_oracles(pos: Position, legal: LegalPlays, expected: set[Key], plays: list[Key]
                  ) -> None:
    """Checks against the rules themselves rather than against the engine."""
    trump, rules, lead, hand = pos.trump, pos.rules, pos.lead, pos.hand
    in_suit = [c for c in hand.cards() if trump.suit_of(c) == lead.suit]
    need = min(len(in_suit), lead.size)

    def suited(play: Key) -> int:
        return sum(1 for c in play if trump.suit_of(ALL_CARDS[c]) == lead.suit)

    # bombs: every bomb of the led size is legal (of the led suit, with bomb_follow_suit,
    # unless void); the other rules are checked on the plays that are not bombs
    def bomb(play: Key) -> bool:
        return bool(rules.bombs) and len(play) >= rules.bombs and len(set(play)) == 1

    if rules.bombs:
        for play in plays:
            if bomb(play) and (not rules.bomb_follow_suit or need == 0 or suited(play)):
                assert play in expected, f"the bomb {ALL_CARDS[play[0]]} is refused"
        expected = {p for p in expected if not bomb(p)}
        plays = [p for p in plays if not bomb(p)]
    # suit rule: exactly as many led-suit cards as possible; with no structure rule,
    # every such play is legal
    assert all(suited(p) == need for p in expected)
    if rules.tuple_follow == TupleFollow.NONE or need < lead.size:
        assert expected == {p for p in plays if suited(p) == need}
        return
    # a play that reads as the lead's own structure, all in the led suit, is always legal,
    # under protect too: a play counts for the structure it holds, even where a unit is
    # part of a longer tuple (6C 6C 7C 7C + 7C against a tractor and a single)
    lead_shapes = shapes(lead.units)
    for play in plays:
        if suited(play) == need and any(
            shapes(units) == lead_shapes for units in maximal_partitions(play, trump, rules)
        ):
            assert play in expected, f"{[str(ALL_CARDS[c]) for c in play]} matches the lead"
    # draw-out or breakdown, one unit led: the exact legal set
    value = {TupleFollow.DRAW_OUT: draw_out_value, TupleFollow.BREAKDOWN: breakdown_value
             }.get(rules.tuple_follow)
    if value is not None and not lead.is_throw:
        suit_cards = Counter(int(c) for c in in_suit)
        target = value(suit_cards, lead.units[0], trump, rules)
        assert expected == {
            p for p in plays if suited(p) == need
            and value(Counter(p), lead.units[0], trump, rules) >= target
        }


def draw_out_value(cards: Counter[int], unit: Unit, trump: Trump, rules: Rules
                   ) -> tuple[int, ...]:
    """How well ``cards`` (all of the led suit) match one led unit under draw-out,
    by brute force: the tractor matched (length), then the tuples of its width."""
    width, length = unit.shape
    policy = rules.tractor_follow

    def tuples(counts: Counter[int], room: int) -> int:
        if width == 1 or room == 0:
            return 0
        return min(room, sum(n // width for n in counts.values()))

    if length == 1:
        return (tuples(cards, 1),)
    if policy == TractorFollow.TUPLES:
        return (tuples(cards, length),)
    fill = policy != TractorFollow.TRACTOR_ONLY
    lengths = [length] if policy != TractorFollow.LONGEST else range(
        length, rules.tractor_min_length - 1, -1)
    for size in lengths:
        best = -1
        for sub in submultisets(cards, width * size):
            found = as_unit([ALL_CARDS[c] for c in sub], trump, rules)
            if found is not None and found.shape == (width, size):
                rest = cards - Counter(sub)
                best = max(best, tuples(rest, length - size) if fill else 0)
        if best >= 0:
            return (size, best)
    return (0, tuples(cards, length) if fill else 0)


def breakdown_value(cards: Counter[int], unit: Unit, trump: Trump, rules: Rules
                    ) -> tuple[int, ...]:
    """How well ``cards`` (all of the led suit) match one led unit under breakdown, by
    brute force: the tractor matched (ranked: the led shape first, then narrower widths,
    under ``longest`` each from the longest), then the tuples of each width from the led
    one down to pairs, compared widest first, in the places left (every way to cut each
    face into tuples tried)."""
    width, length = unit.shape
    widths = list(range(width, 1, -1))
    policy = rules.tractor_follow

    def tuples(counts: Counter[int], cap: int) -> tuple[int, ...]:
        faces = [n for n in counts.values() if n >= 2]

        def rec(i: int, cap: int) -> tuple[int, ...]:
            if i == len(faces):
                return (0,) * len(widths)
            best = rec(i + 1, cap)
            for cut in cuts(faces[i], cap):
                rest = rec(i + 1, cap - sum(cut))
                best = max(best, tuple(r + cut.count(k) for r, k in zip(rest, widths,
                                                                          strict=True)))
            return best

        return rec(0, cap)

    def cuts(n: int, cap: int) -> Iterator[list[int]]:
        """Every non-empty multiset of widths with sum at most ``min(n, cap)``."""
        def rec(j: int, left: int) -> Iterator[list[int]]:
            if j == len(widths):
                yield []
                return
            for c in range(left // widths[j] + 1):
                for tail in rec(j + 1, left - c * widths[j]):
                    yield [widths[j]] * c + tail
        return (c for c in rec(0, min(n, cap)) if c)

    if length == 1:
        return tuples(cards, width)
    if policy == TractorFollow.TUPLES:
        return tuples(cards, width * length)
    fill = policy != TractorFollow.TRACTOR_ONLY
    lengths = range(length, 1, -1) if policy == TractorFollow.LONGEST else (length,)
    shapes = [(w, n) for w in widths or [1] for n in lengths if n >= rules.tractor_min_length
              and w >= rules.tractor_min_width]
    for rank, (w, n) in enumerate(shapes):
        best: tuple[int, ...] | None = None
        for sub in submultisets(cards, w * n):
            found = as_unit([ALL_CARDS[c] for c in sub], trump, rules)
            if found is not None and found.shape == (w, n):
                rest = tuples(cards - Counter(sub), width * length - w * n) if fill else ()
                best = rest if best is None else max(best, rest)
        if best is not None:
            return (len(shapes) - rank, *best)
    return (0, *(tuples(cards, width * length) if fill else ()))


COMBOS = [(t, f) for t in TupleFollow for f in TractorFollow]


@pytest.mark.slow
@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize(("tuple_follow", "tractor_follow"), COMBOS, ids=lambda v: str(v))
@settings(max_examples=18, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 2**16))
def test_follow_agrees_with_brute_force(
    tuple_follow: TupleFollow, tractor_follow: TractorFollow, variant: str,
    data: st.DataObject, seed: int,
) -> None:
    rules = data.draw(rules_for(tuple_follow, tractor_follow, variant), label="rules")
    pos = data.draw(positions(rules), label="position")
    check_position(pos, seed)


MANY_DECKS = [4, 5, 6, 8]


@functools.cache
def many_decks_rules(tuple_follow: TupleFollow, tractor_follow: TractorFollow
                     ) -> st.SearchStrategy[Rules]:
    return st.builds(
        lambda decks, red, length: Rules(decks=decks, red_fives=red, tuple_follow=tuple_follow,
                                         tractor_follow=tractor_follow,
                                         tractor_min_length=length),
        st.sampled_from(MANY_DECKS), st.sampled_from([0, 0, 1]), st.sampled_from([2, 2, 3]))


@functools.cache
def bomb_rules(tuple_follow: TupleFollow) -> st.SearchStrategy[Rules]:
    return st.builds(
        lambda decks, bombs, follow, tractor: Rules(
            decks=decks, bombs=min(bombs, decks), bomb_follow_suit=follow,
            tuple_follow=tuple_follow, tractor_follow=tractor),
        st.sampled_from([2, 3, 4]), st.sampled_from([2, 2, 3, 4]), st.booleans(),
        st.sampled_from(list(TractorFollow)))


@pytest.mark.slow
@pytest.mark.parametrize(("tuple_follow", "tractor_follow"), COMBOS, ids=lambda v: str(v))
@settings(max_examples=28, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 2**16))
def test_follow_agrees_with_brute_force_with_many_decks(
    tuple_follow: TupleFollow, tractor_follow: TractorFollow, data: st.DataObject, seed: int,
) -> None:
    """4-8 decks: wide tuples, faces held 4+ times, throws mixing tuple widths (the exact
    tuple count and the bisection in ``forced`` are only reached here)."""
    rules = data.draw(many_decks_rules(tuple_follow, tractor_follow), label="rules")
    pos = data.draw(positions(rules), label="position")
    check_position(pos, seed)


@pytest.mark.slow
@pytest.mark.parametrize("tuple_follow", list(TupleFollow), ids=str)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 2**16))
def test_follow_with_bombs_agrees_with_brute_force(
    tuple_follow: TupleFollow, data: st.DataObject, seed: int,
) -> None:
    """Bombs (2-4 identical cards, any suit or the led suit only): the generator, forced,
    pool and can_complete agree with the check; every bomb of the led size is legal."""
    rules = data.draw(bomb_rules(tuple_follow), label="rules")
    pos = data.draw(positions(rules), label="position")
    # often a bomb of another face (any suit) of the led size, in place of other cards
    face = data.draw(one_of(ALL_CARDS), label="bomb face")
    held = Counter(pos.hand.cards())
    room = rules.decks - Counter(pos.lead.cards)[face]
    add = data.draw(one_of((False, True, True, True)), label="add a bomb")
    if add and room >= pos.lead.size >= rules.bombs:
        held[face] = pos.lead.size
        while sum(held.values()) > MAX_HAND:
            held[min((c for c in held if c != face), key=lambda c: (held[c], c))] -= 1
            held = +held
        pos = Position(pos.trump, rules, pos.lead, Hand(cards_of(held)))
    legal = LegalPlays(pos.hand, pos.lead, pos.trump, rules)
    event("a bomb legal only as a bomb" if legal.bombs else "no bomb beyond the rules")
    check_position(pos, seed)


# -- independence of input order -------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(data=st.data(), seed=st.integers(0, 2**16))
def test_lead_and_readings_ignore_card_order(data: st.DataObject, seed: int) -> None:
    rules = data.draw(rules_for(TupleFollow.DRAW_OUT, TractorFollow.TRACTOR, "plain"))
    pos = data.draw(positions(rules))
    cards = list(pos.lead.cards)
    base = readings(cards, pos.trump, rules)
    lead = Lead.from_cards(cards, pos.trump, rules)
    rng = random.Random(seed)
    orders = list(permutations(cards)) if len(cards) <= 4 else [
        tuple(rng.sample(cards, len(cards))) for _ in range(10)]
    for order in orders:
        assert readings(order, pos.trump, rules) == base
        assert Lead.from_cards(order, pos.trump, rules) == lead
        assert Lead.from_cards(order, pos.trump, rules, pos.lead.units) == pos.lead


# -- regression examples ----------------------------------------------------------------


def test_forced_counts_cards_when_the_hand_has_no_choice() -> None:
    trump, rules = Trump.parse("2H"), Rules(tuple_follow="none")
    lead = Lead.from_cards("KS KS", trump, rules)
    # last trick: the whole hand is forced even when void
    assert LegalPlays(Hand("3C 4D"), lead, trump, rules).forced == (Card("4D"), Card("3C"))
    # following with no structure rule: 3 spades for 2 places, two of them the same face
    legal = LegalPlays(Hand("QS QS JS AC"), lead, trump, rules)
    assert Counter(legal.forced) == Counter([Card("QS")])
    # short in spades: the spade and the only other card
    legal = LegalPlays(Hand("QS AC"), lead, trump, rules)
    assert Counter(legal.forced) == Counter([Card("QS"), Card("AC")])


def test_lead_cards_do_not_depend_on_order() -> None:
    trump, rules = Trump.parse("7C"), Rules()
    one = Lead.from_cards("7S 7H", trump, rules)
    two = Lead.from_cards("7H 7S", trump, rules)
    assert one == two and one.cards == two.cards


def test_protect_tractor_with_the_rest_of_a_triple() -> None:
    """A play counts for the structure it holds: the tractor 6-7 is there whether the
    play takes two or all three 7C (it was refused with all three)."""
    trump, rules = Trump(None), Rules(decks=3, tuple_follow="protect")
    lead = Lead.from_cards("5C 5C 4C 4C 3C", trump, rules)
    legal = LegalPlays(Hand("2C 2C 6C 6C 7C 7C 7C"), lead, trump, rules)
    assert "2C 2C 6C 6C 7C" in legal
    assert "6C 6C 7C 7C 2C" in legal  # the tractor 6-7 (a pair taken from the triple) + 2C
    assert "6C 6C 7C 7C 7C" in legal  # the same tractor + 7C
    assert "2C 2C 6C 6C 7C" in legal and "2C 6C 7C 7C 7C" not in legal
