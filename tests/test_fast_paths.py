"""The engine's fast paths agree with its plain rules: the follows listed directly
(:mod:`shengji.engine.listing`), the forced cards read from the counts, and the quick
comparisons of plays with a trick's winner (:class:`~shengji.engine.trick.Beater`,
:func:`~shengji.engine.trick.beats_single`), on random leads and hands under every preset
and many options."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import islice
from random import Random

import pytest

from shengji.engine import ALL_CARDS, Card, Hand, Rank, Rules, Suit, Trump
from shengji.engine.follow import LegalPlays
from shengji.engine.lead import Lead, LegalLeads, PlayError
from shengji.engine.listing import quick_follows
from shengji.engine.trick import Beater, beats, beats_single
from shengji.engine.trump import TRUMP
from shengji.engine.units import make_unit
from shengji.game.presets import preset

LIMIT = 80

SHORTCUT_RULES = [
    *(preset(name) for name in ("tractor", "tractor-6", "finding-friends", "da-bai-fen",
                                "hundred")),
    *(preset("tractor", **options) for options in (
        {"bombs": 2}, {"bombs": 2, "bomb_follow_suit": True}, {"rainbow": 3},
        {"tuple_follow": "protect"}, {"tuple_follow": "protect", "decks": 3}, {"decks": 3},
        {"tuple_follow": "none"}, {"tuple_follow": "breakdown", "decks": 3}, {"decks": 4},
        {"decks": 1, "tractor_min_width": 1}, {"throw_beat": "card-by-card"})),
]


TRACTOR_RULES = [preset("tractor", tractor_follow=policy, tuple_follow=tuples)
                 for policy in ("tractor", "tuples", "tractor-only", "longest")
                 for tuples in ("draw-out", "breakdown")]
"""Two decks, every way a led tractor draws out tuples."""


def follow_positions(count: int, rule_sets: Sequence[Rules] = SHORTCUT_RULES,
                      tractors: bool = False) -> list[tuple[Rules, Trump, Lead, LegalPlays]]:
    """Random leads (units, and throws of two units; with ``tractors``, a tractor and
    perhaps another unit) and the legal follows of a random hand, under every rule set
    of ``rule_sets``."""
    rng = Random(12)
    positions: list[tuple[Rules, Trump, Lead, LegalPlays]] = []
    while len(positions) < count:
        rules = rng.choice(rule_sets)
        rank = rng.choice([None, *Rank])
        trump = Trump(rank, rng.choice([None, *Suit]) if rank is not None else None)
        pack = [Card(i) for i in range(54) for _ in range(rules.decks)]
        rng.shuffle(pack)
        units = list(LegalLeads(Hand(pack[:25]), trump, rules).units())
        if tractors:
            units = [u for u in units if u.length > 1]
            if not units:
                continue
        cards = rng.choice(units).cards
        more = [u for u in units if u.suit == trump.suit_of(cards[0])
                and not set(u.cards) & set(cards)]
        if more and rng.random() < 0.3:
            cards += rng.choice(more).cards
        try:
            lead = Lead.from_cards(cards, trump, rules)
        except PlayError:
            continue
        hand = Hand(pack[25:25 + rng.choice((lead.size + 2, 12, 25))])
        positions.append((rules, trump, lead, LegalPlays(hand, lead, trump, rules)))
    return positions


@pytest.mark.slow
def test_follows_listed_directly_are_the_legal_sets_own_list() -> None:
    listed = two_free = 0
    for _, _, _, legal in follow_positions(1500):
        if legal.mode != "follow" or legal.bombs:
            continue
        found = quick_follows(legal, LIMIT)
        if found is None:
            continue
        listed += 1
        two_free += legal.count == 2 and not any(legal.target)  # (listed by its own loop)
        expected = list(islice(iter(legal), LIMIT))
        if len(expected) == LIMIT:
            assert len(found) >= LIMIT and legal.plays_if_fewer(LIMIT) is None
        else:
            assert found == expected == legal.plays_if_fewer(LIMIT)
    assert listed > 300 and two_free > 50


@pytest.mark.slow
def test_follows_to_unmatched_tractors_listed_directly_are_the_legal_sets_own_list() -> None:
    listed = 0
    for _, _, lead, legal in follow_positions(900, TRACTOR_RULES, tractors=True):
        if legal.mode != "follow" or legal.bombs:
            continue
        found = quick_follows(legal, LIMIT)
        if found is None:
            continue
        listed += any(legal.target) and any(u.length > 1 for u in lead.units)
        expected = list(islice(iter(legal), LIMIT))
        if len(expected) == LIMIT:
            assert len(found) >= LIMIT and legal.plays_if_fewer(LIMIT) is None
        else:
            assert found == expected == legal.plays_if_fewer(LIMIT)
    assert listed > 60


@pytest.mark.slow
def test_every_small_legal_set_is_listed_whole() -> None:
    for limit in (1, 5, 80):
        for _, _, _, legal in follow_positions(300):
            expected = list(islice(iter(legal), limit))
            assert legal.plays_if_fewer(limit) == (
                expected if len(expected) < limit else None)


@pytest.mark.slow
def test_forced_cards_read_from_the_counts_are_the_plain_rules_own() -> None:
    """``LegalPlays.forced``'s fast path (void or short: the counts alone) against the
    plain rule: a face is forced as far as the other cards cannot fill the play."""
    modes: Counter[str] = Counter()
    fast = 0
    for _, trump, _, legal in follow_positions(1500):
        modes[legal.mode] += 1
        if legal.mode not in ("free", "short") or legal.bombs:
            continue
        plain = plain_forced(legal, trump)
        fast += not plain or legal.mode == "short"
        assert legal.forced == tuple(trump.sorted(plain))
    assert min(modes[m] for m in ("free", "short", "follow")) > 50 and fast > 100


@pytest.mark.slow
def test_forced_cards_of_short_leads_are_the_plain_rules_own() -> None:
    """The same on leads of one face (1 to 3 copies) and hands of every size."""
    rng = Random(11)
    checked = 0
    for _ in range(600):
        rules = rng.choice([Rules(), Rules(decks=3), Rules(decks=1)])
        rank = rng.choice([None, *Rank])
        trump = Trump(rank, rng.choice([None, *Suit]) if rank is not None else None)
        pack = [Card(i) for i in range(54) for _ in range(rules.decks)]
        rng.shuffle(pack)
        size = rng.randrange(1, 4)
        lead = Lead.from_cards((pack[0],) * min(size, rules.decks), trump, rules)
        legal = LegalPlays(Hand(pack[1:rng.randrange(2, 30)]), lead, trump, rules)
        if legal.mode in ("free", "short"):
            assert legal.forced == tuple(trump.sorted(plain_forced(legal, trump)))
            checked += 1
    assert checked > 100


def plain_forced(legal: LegalPlays, trump: Trump) -> list[Card]:
    """The forced cards when void or short: all of the led suit, and of the others as far
    as the rest cannot fill the play without them."""
    counts, suits = legal.hand.counts, trump.suit_index
    held = [c for c in ALL_CARDS if counts[c]]
    if legal.mode == "free":
        return forced_by_count(held, counts, legal.count)
    plain = [c for c in held if suits[c] == legal.suit for _ in range(counts[c])]
    return plain + forced_by_count([c for c in held if suits[c] != legal.suit], counts,
                                   legal.count - legal.suit_count)


def forced_by_count(faces: list[Card], counts: list[int], size: int) -> list[Card]:
    """The copies every choice of ``size`` cards from ``faces`` must contain."""
    total = sum(counts[f] for f in faces)
    return [f for f in faces for _ in range(max(0, size - (total - counts[f])))]


@pytest.mark.slow
def test_a_beater_agrees_with_the_trick_rules() -> None:
    for rules, trump, lead, legal in follow_positions(800):
        plays = list(islice(iter(legal), 60))
        current = [lead.units]
        for play in plays[:3]:  # the lead, then a play that beat it, as winners
            better = beats(play, lead.units, lead, trump, rules)
            if better is not None:
                current.append(better)
                break
        if lead.size == 1:  # a low trump winning a single: only higher trumps beat it
            low = trump.faces_at[TRUMP][1][0]
            current.append((make_unit(TRUMP, 1, 1, (low,)),))
        for reading in current:
            if lead.size == 1 and not lead.rainbow:
                for play in plays:
                    assert beats_single(play, reading[0], trump) == beats(
                        play, reading, lead, trump, rules)
            beater = Beater(reading, lead, trump, rules)
            for play in plays:
                assert beater.beat(play) == beats(play, reading, lead, trump, rules), (lead, play)
