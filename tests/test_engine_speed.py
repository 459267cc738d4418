"""The speed structures of issue 12 answer exactly as the plain computations they replace:
unit listings, readings, lazily found follow targets, shared structures and trumps, the
lead read once, and the view parts the round keeps."""

from __future__ import annotations

from itertools import product
from random import Random

import pytest

from shengji.engine.bidding import Bidding
from shengji.engine.cards import Hand, Rank, Suit, hand_sizes
from shengji.engine.follow import LegalPlays
from shengji.engine.lead import Lead, LegalLeads, PlayError
from shengji.engine.rules import Rules, TractorFollow, TupleFollow
from shengji.engine.structure import Structure, structure_of
from shengji.engine.throws import Block, _beating, check_throw
from shengji.engine.trump import Trump
from shengji.engine.units import (
    Unit,
    UnitSpec,
    as_unit,
    best_reading,
    counts_of_suit,
    reading_order,
    readings,
    unit_specs,
)
from shengji.game.actions import Play
from shengji.game.deal import pack
from shengji.game.legal import PlayLegal
from shengji.game.phase import Phase
from shengji.game.presets import PRESETS, preset
from shengji.game.round import Round

VARIANTS = [Rules(), Rules(decks=3), Rules(decks=4, tractor_min_length=3),
            Rules(tractor_high_trumps=False), Rules(decks=1), Rules(decks=3, tractor_min_width=1),
            Rules(decks=3, tractor_min_width=3), Rules(red_fives=2),
            Rules(second_rank=Rank.TWO, rank_suit_order=(Suit.SPADES, Suit.HEARTS))]


def _trump(rules: Rules, rng: Random) -> Trump:
    while True:
        rank = rng.choice([None, *Rank])
        suit = rng.choice([None, *Suit]) if rank is not None else None
        try:
            return rules.trump(rank, suit)
        except ValueError:
            continue


def _listed_units(counts: list[int], trump: Trump, rules: Rules) -> list[UnitSpec]:
    """The units of a hand as LegalLeads listed them before unit_specs: every level of
    every suit, width by width."""
    specs: list[UnitSpec] = []
    for suit in range(5):
        columns = trump.faces_at[suit]
        for width in range(1, rules.decks + 1):
            held = [[f for f in faces if counts[f] >= width] for faces in columns]
            if not any(held):
                break
            for level, faces in enumerate(held):
                specs.extend((suit, width, level, (face,)) for face in faces)
            if width < rules.tractor_min_width:
                continue
            chain = held if rules.tractor_high_trumps else [
                [f for f in faces if not trump.high[f]] for faces in held]
            for top in range(len(chain)):
                bottom = top
                while chain[top] and bottom > 0 and chain[bottom - 1]:
                    bottom -= 1
                    if top - bottom + 1 >= rules.tractor_min_length:
                        specs.extend((suit, width, top, combo)
                                     for combo in product(*chain[bottom:top + 1]))
    return specs


@pytest.mark.parametrize("rules", VARIANTS, ids=range(len(VARIANTS)))
def test_unit_specs_list_every_unit_in_order(rules: Rules) -> None:
    rng = Random(rules.decks)
    for _ in range(150):
        trump = _trump(rules, rng)
        cards = pack(rules)
        rng.shuffle(cards)
        hand = Hand(cards[:rng.randint(1, 60)])
        assert unit_specs(hand.counts, trump, rules) == _listed_units(hand.counts, trump, rules)


@pytest.mark.parametrize("rules", VARIANTS, ids=range(len(VARIANTS)))
def test_a_random_lead_is_a_uniform_pick_of_the_listed_units(rules: Rules) -> None:
    rng = Random(rules.decks + 11)
    for seed in range(150):
        trump = _trump(rules, rng)
        cards = pack(rules)
        rng.shuffle(cards)
        hand = Hand(cards[:rng.randint(1, 40)])
        specs = unit_specs(hand.counts, trump, rules)
        _, width, _, faces = specs[Random(seed).randrange(len(specs))]
        drawn = LegalLeads(hand, trump, rules).random(Random(seed))
        assert drawn == tuple(f for f in faces for _ in range(width))


@pytest.mark.parametrize("rules", VARIANTS, ids=range(len(VARIANTS)))
def test_a_random_lead_remembers_the_lead_from_cards_reads(rules: Rules) -> None:
    rng = Random(rules.decks + 23)
    for seed in range(150):
        trump = _trump(rules, rng)
        cards = pack(rules)
        rng.shuffle(cards)
        legal = LegalLeads(Hand(cards[:rng.randint(1, 40)]), trump, rules)
        drawn = legal.random(Random(seed))
        assert legal.lead(drawn) == Lead.from_cards(drawn, trump, rules)


@pytest.mark.slow
@pytest.mark.parametrize("rules", VARIANTS, ids=range(len(VARIANTS)))
def test_kept_one_face_leads_and_units_equal_new_ones(rules: Rules) -> None:
    """Leads and units are kept by their fields: the same as those made afresh, under
    every trump (a face's suit and level differ between trumps)."""
    rng = Random(rules.decks + 41)
    for _ in range(60):
        trump = _trump(rules, rng)
        for face in sorted(set(pack(rules))):
            for width in range(1, rules.decks + 1):
                cards = (face,) * width
                suit, level = trump.suit_index[face], trump.levels[face]
                unit = Unit(suit, width, 1, level, cards)
                assert Lead.from_cards(cards, trump, rules) == Lead(cards, suit, (unit,))
                assert as_unit(cards, trump, rules) == unit


def _sampled_follow(legal: LegalPlays, rng: Random) -> tuple[int, ...]:
    """A random single-card follow as LegalPlays drew it by ``rng.sample`` (free: from the
    whole hand; trivial structure: from the led suit)."""
    if legal.mode == "free":
        return tuple(legal.trump.sorted(rng.sample(legal.hand.cards(), legal.count)))
    table = counts_of_suit(legal.hand.counts, legal.suit, legal.trump)
    suit = [f for by_face in table.values() for f, n in by_face.items() for _ in range(n)]
    return tuple(legal.trump.sorted(rng.sample(suit, legal.count)))


@pytest.mark.parametrize("rules", VARIANTS, ids=range(len(VARIANTS)))
def test_a_random_single_card_follow_is_the_card_sample_drew(rules: Rules) -> None:
    rng = Random(rules.decks + 31)
    modes: set[str] = set()
    for seed in range(200):
        trump = _trump(rules, rng)
        cards = pack(rules)
        rng.shuffle(cards)
        leader, follower = Hand(cards[:20]), Hand(cards[20:20 + rng.randint(1, 30)])
        lead = Lead.from_cards((rng.choice(leader.cards()),), trump, rules)
        legal = LegalPlays(follower, lead, trump, rules)
        if legal.mode in ("free", "follow"):
            modes.add(legal.mode)
            assert legal.random(Random(seed)) == _sampled_follow(legal, Random(seed))
    assert modes == {"free", "follow"}


@pytest.mark.slow
@pytest.mark.parametrize("rules", VARIANTS, ids=range(len(VARIANTS)))
def test_best_reading_is_a_first_reading(rules: Rules) -> None:
    rng = Random(7 + rules.decks)
    for _ in range(120):
        trump = _trump(rules, rng)
        cards = pack(rules)
        rng.shuffle(cards)
        suit = rng.randrange(5)
        chosen = [c for c in cards[:40] if trump.suit_index[c] == suit][:rng.randint(1, 9)]
        if not chosen:
            continue
        best = best_reading(chosen, trump, rules)
        assert best is not None
        assert reading_order(best) == reading_order(readings(chosen, trump, rules)[0])
        assert sorted(c for u in best for c in u.cards) == sorted(chosen)


def _follow_positions(rules: Rules, seed: int) -> list[tuple[Hand, Lead, Trump]]:
    """Leads of every unit a random hand holds, against another random hand."""
    rng = Random(seed)
    found = []
    for _ in range(40):
        trump = _trump(rules, rng)
        cards = pack(rules)
        rng.shuffle(cards)
        leader, follower = Hand(cards[:25]), Hand(cards[25:50])
        for spec in unit_specs(leader.counts, trump, rules)[::3]:
            _, width, _, faces = spec
            found.append((follower, Lead.from_cards(
                [f for f in faces for _ in range(width)], trump, rules), trump))
    return found


@pytest.mark.parametrize("rules", [Rules(), Rules(decks=3),
                                   Rules(tractor_follow=TractorFollow.LONGEST),
                                   Rules(tuple_follow=TupleFollow.BREAKDOWN, decks=3)],
                         ids=range(4))
def test_random_follows_do_not_depend_on_asking_the_target_first(rules: Rules) -> None:
    """The target is found only when asked; a random draw is the same play either way
    (a tractor lead's search reorders the suit: the draw sees the order it always saw)."""
    for hand, lead, trump in _follow_positions(rules, 3):
        lazy = LegalPlays(hand, lead, trump, rules)
        eager = LegalPlays(hand, lead, trump, rules, Structure(lead, trump, rules))
        _ = eager.target
        for seed in range(3):
            play = lazy.random(Random(seed))
            assert play == eager.random(Random(seed))
            assert lazy.reason(play) is None


def test_structures_are_shared_and_answer_as_new_ones() -> None:
    rules = Rules()
    for hand, lead, trump in _follow_positions(rules, 5):
        shared = structure_of(lead, trump, rules)
        assert structure_of(lead, trump, rules) is shared
        fresh = LegalPlays(hand, lead, trump, rules, Structure(lead, trump, rules))
        legal = LegalPlays(hand, lead, trump, rules, shared)
        assert (legal.target, legal.forced, legal.describe()) == (
            fresh.target, fresh.forced, fresh.describe())


def test_rules_share_one_trump_per_key() -> None:
    a, b = Rules().trump(Rank.SEVEN, Suit.CLUBS), Rules(decks=3).trump(Rank.SEVEN, Suit.CLUBS)
    assert a is b and a == Trump.parse("7C") and a.levels == Trump.parse("7C").levels
    assert Rules(red_fives=1).trump(Rank.SEVEN, Suit.CLUBS).red_fives == 1


def test_a_checked_lead_is_read_once() -> None:
    trump, rules = Trump.parse("2H"), Rules()
    leads = LegalLeads(Hand("AS KS KS QS 3C"), trump, rules)
    throw = Lead.from_cards("AS KS KS QS", trump, rules).cards
    assert leads.reason(throw) is None
    assert leads.lead(throw) is leads.lead(throw)
    assert leads.lead(throw) == Lead.from_cards(throw, trump, rules)
    assert leads.reason(("3C", "AS")) is not None


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_view_hand_sizes_and_bids_follow_the_round(name: str) -> None:
    rules = preset(name)
    for seed in range(2):
        rnd = Round(rules, seed=seed)
        rng = Random(seed)
        while rnd.phase != Phase.DONE:
            seat = rnd.to_move
            assert seat is not None
            view = rnd.view(seat)
            assert view.hand_sizes == hand_sizes(rnd.hands) == tuple(map(len, rnd.hands))
            assert view.bids == tuple((b.seat, b.cards) for b in rnd.bidding.bids)
            if len(rnd.history) > 1 and rng.random() < 0.05:
                rnd.undo()
                continue
            rnd.apply(rnd.legal(seat).random(rng))


def test_only_the_current_legal_sets_plays_are_taken_unchecked() -> None:
    """A play drawn or found legal by the current position's legal set is taken as is;
    the same play from an older set is read and checked again."""
    rnd = Round(preset("tractor"), seed=4, track_undo=False)
    rng = Random(4)
    while rnd.phase != Phase.PLAY:
        seat = rnd.to_move
        assert seat is not None
        rnd.apply(rnd.legal(seat).random(rng))
    seat = rnd.to_move
    assert seat is not None
    legal = rnd.legal(seat)
    assert isinstance(legal, PlayLegal)
    drawn = legal.random(rng)
    assert legal.vouches(drawn) and not legal.vouches(Play(seat, drawn.cards))
    assert drawn in legal and legal.vouches(drawn)
    rnd.apply(drawn)
    follower = rnd.to_move
    assert follower is not None
    legal = rnd.legal(follower)
    assert isinstance(legal, PlayLegal)
    play = next(iter(legal))
    assert not legal.vouches(play)
    assert play in legal and legal.vouches(play)
    rnd.apply(play)
    assert rnd.history[-1] is play and not legal.vouches(Play(follower, play.cards))
    later = rnd.legal(rnd.to_move or 0)  # a new position: a new set
    assert isinstance(later, PlayLegal) and not later.vouches(play)


@pytest.mark.parametrize("rules", [*VARIANTS, Rules(throw_blocked_by_equal=True),
                                   Rules(decks=3, throw_blocked_by_equal=True)])
def test_a_throw_is_blocked_by_the_units_placements_find(rules: Rules) -> None:
    """check_throw finds each tuple's blocker from each hand's highest tuples: the same
    blocks as asking placements (``_beating``) for every unit, as it did before."""
    rng = Random(repr(rules))
    deck = pack(rules)
    checked = 0
    for _ in range(60):
        trump = _trump(rules, rng)
        rng.shuffle(deck)
        size = len(deck) // 4
        hands = [Hand(deck[k * size:(k + 1) * size]) for k in range(4)]
        suit = rng.randrange(5)
        thrown = tuple(c for c in hands[0].cards() if trump.suit_index[c] == suit)
        try:
            lead = Lead.from_cards(thrown, trump, rules)
        except PlayError:
            continue
        if not lead.is_throw:
            continue
        others = dict(enumerate(hands[1:], start=1))
        expected = []
        for unit in lead.units:
            for seat in sorted(others):
                beater = _beating(unit, counts_of_suit(others[seat].counts, unit.suit, trump),
                                  trump, rules)
                if beater is not None:
                    expected.append(Block(unit, seat, beater))
                    break
        assert check_throw(lead, others, trump, rules).blocks == tuple(expected)
        checked += bool(expected)
    assert checked > 10


@pytest.mark.parametrize("rules", [Rules(), Rules(players=5, partnership="fluid"),
                                   Rules(decks=3, joker_bids="decks", bid_switch_suit=True)])
def test_has_option_is_whether_options_lists_a_bid(rules: Rules) -> None:
    """Bidding.has_option answers as bool(options) for random hands through random bids."""
    rng = Random(repr(rules))
    deck = pack(rules)
    asked = found = 0
    for _ in range(30):
        ranks = [rng.choice(list(Rank)) for _ in range(rules.players)]
        bidding = Bidding(rules, ranks, [s % 2 for s in range(rules.players)])
        rng.shuffle(deck)
        for _ in range(8):
            for seat in range(rules.players):
                counts = Hand(deck[seat * 20:seat * 20 + rng.randrange(1, 20)]).counts
                options = bidding.options(seat, counts)
                assert bidding.has_option(seat, counts) == bool(options)
                asked += 1
                found += bool(options)
            seat = rng.randrange(rules.players)
            counts = Hand(deck[seat * 20:seat * 20 + 20]).counts
            options = bidding.options(seat, counts)
            if options:
                bidding.bid(seat, rng.choice(options).cards)
    assert 0 < found < asked


def test_the_rounds_shuffle_is_the_standard_librarys() -> None:
    """The round's compiled shuffle makes the order ``Random.shuffle`` makes and leaves
    the generator in the same state (the seeds' deals stay as they were)."""
    from shengji.game.round import _shuffle

    for seed in range(300):
        for size in (0, 1, 2, 3, 7, 8, 9, 54, 100, 107, 108, 162, 216):
            expected, cards = list(range(size)), list(range(size))
            theirs, ours = Random(seed), Random(seed)
            theirs.shuffle(expected)
            _shuffle(ours, cards)
            assert cards == expected and ours.getstate() == theirs.getstate()
