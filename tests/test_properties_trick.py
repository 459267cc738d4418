"""Property tests: whole rounds of random legal tricks (4 players, 2 decks).

Each example deals 25 cards to each of 4 seats (8 to the kitty) and plays the
round out: the leader leads a random unit (``LegalLeads.random``) or attempts a
random throw (checked against every other hand), then each seat follows with
``LegalPlays.random``. Cards are conserved, every play is legal, throws stand
exactly when no other hand holds a higher unit of the same shape, the winner
agrees with an independent computation, points add up, the winner does not
depend on the order cards were given in, and ``undo`` restores each earlier
winner.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from shengji.engine import (
    ALL_CARDS,
    TRUMP,
    Card,
    Hand,
    LegalLeads,
    LegalPlays,
    Rank,
    Rules,
    Suit,
    ThrowBeat,
    Trick,
    Trump,
    TupleFollow,
    Unit,
    as_unit,
    full_deck,
)
from shengji.engine.units import unit_order

PLAYERS = 4
Strength = tuple[bool, tuple[int, ...]]


def submultisets(counts: Counter[Card]) -> Iterator[list[Card]]:
    """Every non-empty sub-multiset (small inputs only)."""
    faces = sorted(counts)

    def rec(i: int, chosen: list[Card]) -> Iterator[list[Card]]:
        if i == len(faces):
            if chosen:
                yield list(chosen)
            return
        for n in range(counts[faces[i]] + 1):
            yield from rec(i + 1, chosen + [faces[i]] * n)

    yield from rec(0, [])


def partitions(cards: list[Card], trump: Trump, rules: Rules) -> Iterator[list[Unit]]:
    """Every split of the cards into units, by brute force."""
    if not cards:
        yield []
        return
    first, rest = cards[0], Counter(cards[1:])
    for extra in [[], *submultisets(rest)]:
        unit = as_unit([first, *extra], trump, rules)
        if unit is not None:
            left = sorted((rest - Counter(extra)).elements())
            for tail in partitions(left, trump, rules):
                yield [unit, *tail]


def play_strength(cards: tuple[Card, ...], lead_units: tuple[Unit, ...], lead_suit: int,
                  trump: Trump, rules: Rules) -> Strength | None:
    """How strong a play is against the lead (largest-unit rule), or None if it
    cannot win: all in the led suit or all trump, and readable as the lead's shapes;
    its strength is the best such reading's highest top among its largest units (with
    ``throw_tiebreak``, then the tops of the next-largest units, largest first)."""
    suits = {trump.suit_of(c) for c in cards}
    if len(suits) != 1 or not suits <= {lead_suit, TRUMP}:
        return None
    shapes = sorted(u.shape for u in lead_units)
    best: tuple[int, ...] | None = None
    for units in partitions(sorted(cards), trump, rules):
        if sorted(u.shape for u in units) == shapes:
            largest = min(units, key=unit_order).shape
            top = (max(u.top for u in units if u.shape == largest),)
            if rules.throw_tiebreak:
                by_size = sorted(units, key=lambda u: (-u.size, -u.width, -u.length, -u.top))
                top = tuple(u.top for u in by_size)
            best = top if best is None else max(best, top)
    return None if best is None else (suits == {TRUMP}, best)


def expected_winner(trick: Trick, trump: Trump, rules: Rules) -> int:
    """The winning seat: the strongest play that can win, the earliest among equals."""
    assert trick.lead is not None
    lead = trick.lead
    best_seat = trick.plays[0].seat
    best = play_strength(lead.cards, lead.units, lead.suit, trump, rules)
    assert best is not None
    for play in trick.plays[1:]:
        strength = play_strength(play.cards, lead.units, lead.suit, trump, rules)
        if strength is not None and strength > best:
            best, best_seat = strength, play.seat
    return best_seat


def higher_unit_held(unit: Unit, hand: Hand, trump: Trump, rules: Rules) -> bool:
    return any(u.suit == unit.suit and u.shape == unit.shape and u.top > unit.top
               for u in LegalLeads(hand, trump, rules).units())


def ruff(hand: Hand, units: tuple[Unit, ...], trump: Trump, rules: Rules,
         rng: random.Random) -> list[Card] | None:
    """Trumps of the lead's shapes, one random unit per led unit, if the hand has them."""
    trumps = [u for u in LegalLeads(hand, trump, rules).units() if u.suit == TRUMP]
    left = Counter(hand.cards())
    cards: list[Card] = []
    for led in units:
        options = [u for u in trumps if u.shape == led.shape and not Counter(u.cards) - left]
        if not options:
            return None
        unit = rng.choice(options)
        left -= Counter(unit.cards)
        cards += unit.cards
    return cards


def random_throw(hand: Hand, trump: Trump, rng: random.Random) -> list[Card]:
    """2 to 6 random cards of one effective suit of the hand."""
    by_suit: dict[int, list[Card]] = {}
    for card in hand.cards():
        by_suit.setdefault(trump.suit_of(card), []).append(card)
    cards = by_suit[rng.choice(sorted(by_suit))]
    size = rng.randint(min(2, len(cards)), min(6, len(cards)))
    if rng.random() < 0.5:  # the strongest cards of the suit: such throws often stand
        return trump.sorted(cards)[:size]
    return rng.sample(cards, size)


def play_round(rules: Rules, trump: Trump, seed: int) -> None:
    rng = random.Random(seed)
    deck = full_deck(rules.decks)
    rng.shuffle(deck)
    size = (len(deck) - 8) // PLAYERS
    hands = [Hand(deck[i * size:(i + 1) * size]) for i in range(PLAYERS)]
    kitty = deck[PLAYERS * size:]
    played: list[Card] = []
    leader = rng.randrange(PLAYERS)
    simple_winner = rules.throw_beat == ThrowBeat.LARGEST_UNIT and not rules.bombs
    while len(hands[leader]):
        before = [h.copy() for h in hands]
        trick = Trick(trump, rules, leader)
        hand = hands[leader]
        leads = LegalLeads(hand, trump, rules)
        attempt = list(leads.random(rng)) if rng.random() < 0.6 else random_throw(hand, trump, rng)
        assert leads.reason(attempt) is None, (attempt, leads.reason(attempt))
        trick.play(attempt, hand, hands=hands)
        assert trick.lead is not None
        led = trick.plays[0].cards
        assert not Counter(led) - Counter(attempt)
        if trick.throw is not None:
            outcome = trick.throw
            blocked = any(higher_unit_held(u, hands[s], trump, rules)
                          for u in outcome.attempted.units for s in range(PLAYERS) if s != leader)
            assert outcome.valid == (not blocked)
            assert Counter(outcome.returned) + Counter(led) == Counter(attempt)
            if not outcome.valid:
                assert any(Counter(b.unit.cards) == Counter(led) for b in outcome.blocks)
            event("throw stands" if outcome.valid else "throw fails")
        hand.remove(led)
        winners = [trick.winner]
        for i in range(1, PLAYERS):
            seat = (leader + i) % PLAYERS
            assert trick.turn == seat
            legal = trick.legal(hands[seat])
            assert isinstance(legal, LegalPlays)
            cards = list(legal.random(rng))
            if legal.mode == "free" and rng.random() < 0.7:
                cards = ruff(hands[seat], trick.lead.units, trump, rules, rng) or cards
            assert legal.reason(cards) is None
            rng.shuffle(cards)
            trick.play(cards, hands[seat])
            # undo restores the previous winner; playing again gives the same one
            winner = trick.winner
            undone = trick.undo()
            assert trick.winner == winners[-1] and len(trick.plays) == i
            trick.play(undone.cards, hands[seat])
            assert trick.winner == winner
            winners.append(winner)
            hands[seat].remove(cards)
        assert trick.is_complete and trick.turn is None
        all_cards = [c for p in trick.plays for c in p.cards]
        assert trick.points == sum(c.points for c in all_cards)
        assert all(len(p.cards) == len(led) for p in trick.plays)
        if trick.winner != leader:
            event("a throw is beaten" if trick.lead.is_throw else "a unit is beaten")
        if simple_winner:
            assert trick.winner == expected_winner(trick, trump, rules), trick
        # the winner does not depend on the order cards were given in
        again = Trick(trump, rules, leader)
        again.play(list(reversed(led)), before[leader], hands=before)
        for p in trick.plays[1:]:
            again.play(rng.sample(p.cards, len(p.cards)), before[p.seat])
        assert again.winner == trick.winner
        # undo all the way back gives each earlier winner again
        for i in range(PLAYERS - 1, 0, -1):
            trick.undo()
            assert trick.winner == winners[i - 1]
        played += all_cards
        leader = winners[-1]
    assert all(len(h) == 0 for h in hands)
    assert Counter(played) + Counter(kitty) == Counter(full_deck(rules.decks))


def random_trump(rank: Rank | None, suit: Suit | None, rules: Rules) -> Trump:
    return rules.trump(rank, suit if rank is not None else None)


RULES = {
    "default": Rules(),
    "protect": Rules(tuple_follow=TupleFollow.PROTECT),
    "every-unit": Rules(throw_beat=ThrowBeat.EVERY_UNIT),
    "card-by-card": Rules(throw_beat=ThrowBeat.CARD_BY_CARD),
    "tiebreak": Rules(throw_tiebreak=True),
    "bombs": Rules(bombs=2),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(RULES))
@settings(max_examples=15, deadline=None)
@given(rank=st.none() | st.sampled_from(list(Rank)), suit=st.none() | st.sampled_from(list(Suit)),
       seed=st.integers(0, 2**32))
def test_random_rounds(name: str, rank: Rank | None, suit: Suit | None, seed: int) -> None:
    rules = RULES[name]
    play_round(rules, random_trump(rank, suit, rules), seed)


@pytest.mark.slow
@pytest.mark.parametrize(("beat", "tiebreak"), [
    *((beat, False) for beat in ThrowBeat), (ThrowBeat.LARGEST_UNIT, True)])
@settings(max_examples=40, deadline=None)
@given(rank=st.sampled_from(list(Rank)), trump_suit=st.sampled_from(list(Suit)),
       led=st.sampled_from(list(Suit)), seed=st.integers(0, 2**32))
def test_ruffing_a_throw(beat: ThrowBeat, tiebreak: bool, rank: Rank, trump_suit: Suit,
                         led: Suit, seed: int) -> None:
    """Followers void in the led suit ruff a standing throw with trumps of its shapes
    (or play anything); the winner agrees with the largest-unit rule, does not depend
    on the order of the cards, and undo gives back the earlier winners."""
    rules = Rules(throw_beat=beat, throw_tiebreak=tiebreak)
    trump = rules.trump(rank, trump_suit)
    if trump.suit_of(Card.of(Rank.ACE, led)) == TRUMP or rank == Rank.ACE:
        led = Suit((led + 1) % 4) if trump_suit != Suit((led + 1) % 4) else Suit((led + 2) % 4)
    rng = random.Random(seed)
    deck = full_deck(rules.decks)
    rng.shuffle(deck)
    suited = [c for c in deck if trump.suit_of(c) == led]
    trumps = [c for c in deck if trump.suit_of(c) == TRUMP]
    others = [c for c in deck if trump.suit_of(c) not in (led, TRUMP)]
    # the leader holds the whole led suit: any throw of it stands
    hands = [Hand(suited)] + [Hand(trumps[i::3][:8] + others[i::3][:4]) for i in range(3)]
    throw = rng.sample(suited, rng.randint(2, 6))
    trick = Trick(trump, rules, 0)
    trick.play(throw, hands[0], hands=hands)
    assert trick.throw is not None or trick.lead is not None
    assert trick.lead is not None and Counter(trick.lead.cards) == Counter(throw)
    winners = [trick.winner]
    for seat in range(1, PLAYERS):
        legal = trick.legal(hands[seat])
        assert isinstance(legal, LegalPlays) and legal.mode == "free"
        cards = ruff(hands[seat], trick.lead.units, trump, rules, rng)
        if cards is None or rng.random() < 0.2:
            cards = list(legal.random(rng))
        assert legal.reason(cards) is None
        trick.play(cards, hands[seat])
        winners.append(trick.winner)
    if beat == ThrowBeat.LARGEST_UNIT:
        assert trick.winner == expected_winner(trick, trump, rules), trick
    else:
        assert trick.winner is not None
    if trick.winner != 0:
        event("the throw is beaten")
    again = Trick(trump, rules, 0)
    again.play(throw[::-1], hands[0], hands=hands)
    for p in trick.plays[1:]:
        again.play(rng.sample(p.cards, len(p.cards)), hands[p.seat])
    assert again.winner == trick.winner
    for i in range(PLAYERS - 1, 0, -1):
        trick.undo()
        assert trick.winner == winners[i - 1]


def test_strength_oracle_example() -> None:
    trump, rules = Trump.parse("2H"), Rules()
    lead = as_unit([Card("KS"), Card("KS")], trump, rules)
    assert lead is not None
    assert play_strength((Card("3H"), Card("3H")), (lead,), lead.suit, trump, rules) == (
        True, (trump.level(Card("3H")),))
    assert play_strength((Card("AS"), Card("QS")), (lead,), lead.suit, trump, rules) is None
    assert all(c in ALL_CARDS for c in lead.cards)
