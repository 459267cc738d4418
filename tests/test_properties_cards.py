"""Property tests: cards and notation, decks, and the trump tables of every Trump variant."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shengji.engine import (
    ALL_CARDS,
    BIG_JOKER,
    SMALL_JOKER,
    TRUMP,
    Card,
    Hand,
    NotationError,
    Rank,
    Rules,
    Suit,
    Trump,
    format_cards,
    full_deck,
    parse_card,
    parse_cards,
)
from test_properties_follow import RANKS_OR_NONE, SUITS_OR_NONE, one_of

FAST = settings(max_examples=60, deadline=None)

cards_st = st.sampled_from(ALL_CARDS)
card_lists = st.lists(cards_st, max_size=30)
SUIT_SPELLINGS = {
    Suit.CLUBS: "C♣♧",
    Suit.DIAMONDS: "D♦♢",
    Suit.HEARTS: "H♥♡",
    Suit.SPADES: "S♠♤",
}


@st.composite
def trumps(draw: st.DrawFn) -> Trump:
    """Every Trump variant: rank/suit, no-trump with rank, jokers only, second rank,
    red fives 0-2, ordered off-suit rank cards."""
    rank = draw(RANKS_OR_NONE)
    suit = None if rank is None else draw(SUITS_OR_NONE)
    second = None
    if rank is not None:
        second = draw(st.none() | one_of(tuple(r for r in Rank if r != rank)))
    red_fives = draw(one_of((0, 1, 2)))
    order = draw(st.none() | st.permutations(list(Suit)).map(tuple))
    return Trump(rank, suit, second_rank=second, red_fives=red_fives, rank_suit_order=order)


def spellings(card: Card) -> list[str]:
    """Every accepted spelling of a card (before case changes)."""
    if card.is_joker:
        return [str(card)]
    assert card.rank is not None and card.suit is not None
    ranks = [card.rank.symbol] + (["T"] if card.rank == Rank.TEN else [])
    return [r + s for r in ranks for s in SUIT_SPELLINGS[card.suit]]


# -- notation ------------------------------------------------------------------------


@pytest.mark.parametrize("card", ALL_CARDS, ids=str)
def test_every_card_round_trips(card: Card) -> None:
    assert parse_card(str(card)) is card
    assert Card(str(card)) is card
    assert Card(int(card)) is card
    assert eval(repr(card), {"Card": Card}) is card
    assert parse_card(card.unicode()) is card
    for text in spellings(card):
        for variant in (text, text.lower(), text.upper(), text.swapcase(), f"  {text} "):
            assert parse_card(variant) is card, variant
    if card.is_joker:
        assert card.suit is None and card.rank is None
    else:
        assert card.rank is not None and card.suit is not None
        assert Card.of(card.rank, card.suit) is card


@FAST
@given(card_lists, st.data())
def test_card_lists_round_trip(cards: list[Card], data: st.DataObject) -> None:
    text = format_cards(cards)
    assert parse_cards(text) == tuple(cards)
    assert parse_cards(format_cards(cards, unicode=True)) == tuple(cards)
    # any casing, any separators of spaces and commas
    tokens = [
        "".join(
            ch.upper() if data.draw(st.booleans(), label="upper") else ch.lower()
            for ch in data.draw(st.sampled_from(spellings(c)), label="spelling")
        )
        for c in cards
    ]
    seps = data.draw(st.lists(st.sampled_from([" ", ",", ", ", " ,\t", "\n"]),
                              min_size=len(tokens), max_size=len(tokens)))
    assert parse_cards("".join(t + s for t, s in zip(tokens, seps, strict=True))) == tuple(cards)
    assert parse_cards(tokens) == tuple(cards)


@FAST
@given(card_lists)
def test_hand_round_trips(cards: list[Card]) -> None:
    hand = Hand(cards)
    assert len(hand) == len(cards)
    assert Hand(str(hand)) == hand
    assert eval(repr(hand), {"Hand": Hand}) == hand
    assert sorted(hand.cards()) == sorted(cards)
    assert Counter(hand) == Counter(cards)
    assert Hand.from_counts(hand.counts) == hand
    assert all(hand.count(c) == n for c, n in Counter(cards).items())
    copy = hand.copy()
    copy.add([BIG_JOKER])
    assert copy != hand and len(copy) == len(hand) + 1


@FAST
@given(card_lists, card_lists)
def test_hand_remove_is_all_or_nothing(cards: list[Card], taken: list[Card]) -> None:
    hand = Hand(cards)
    holds = not (Counter(taken) - Counter(cards))
    assert hand.holds(taken) == holds
    if holds:
        hand.remove(taken)
        assert Counter(hand) == Counter(cards) - Counter(taken)
    else:
        with pytest.raises(ValueError):
            hand.remove(taken)
        assert Hand(cards) == hand


@pytest.mark.parametrize("bad", ["1S", "11H", "AX", "S", "", "JJ", "10", "BJS", "♠A", "1 0H"])
def test_bad_tokens_are_refused(bad: str) -> None:
    with pytest.raises(NotationError):
        parse_card(bad)


@pytest.mark.parametrize("decks", [1, 2, 3, 4, 5])
def test_full_deck(decks: int) -> None:
    deck = full_deck(decks)
    assert len(deck) == 54 * decks
    assert sum(c.points for c in deck) == 100 * decks
    assert Counter(deck) == {c: decks for c in ALL_CARDS}
    assert Hand(deck).counts == [decks] * 54


def test_card_points() -> None:
    values = {Rank.FIVE: 5, Rank.TEN: 10, Rank.KING: 10}
    for card in ALL_CARDS:
        expected = 0 if card.rank is None else values.get(card.rank, 0)
        assert card.points == expected


# -- trump tables ----------------------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(trumps())
def test_trump_table_partitions_the_faces(trump: Trump) -> None:
    seen: Counter[Card] = Counter()
    for suit in range(5):
        column = trump.faces_at[suit]
        assert trump.suit_size(suit) == len(column)
        for level, faces in enumerate(column):
            assert faces, "no empty level"
            for face in faces:
                seen[face] += 1
                assert trump.suit_of(face) == suit
                assert trump.level(face) == level
    # every card exactly once, i.e. exactly one effective suit and level
    assert seen == Counter(ALL_CARDS)
    # levels within each effective suit are exactly 0..n-1
    for suit in range(5):
        levels = {trump.level(c) for c in ALL_CARDS if trump.suit_of(c) == suit}
        assert levels == set(range(trump.suit_size(suit)))


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(trumps())
def test_trump_order(trump: Trump) -> None:
    ranks = {r for r in (trump.rank, trump.second_rank) if r is not None}
    reds = [Card("5H"), Card("5D")][: trump.red_fives]
    trumps_ = [c for c in ALL_CARDS if trump.is_trump(c)]
    # jokers, rank cards, red fives and the trump suit are trump; nothing else
    for card in ALL_CARDS:
        expected = (card.is_joker or card in reds or card.rank in ranks
                    or (trump.suit is not None and card.suit == trump.suit))
        assert trump.is_trump(card) == expected, card
    # big joker > small joker > everything else but the red fives
    assert trump.level(BIG_JOKER) == trump.level(SMALL_JOKER) + 1
    for card in trumps_:
        if card not in (BIG_JOKER, SMALL_JOKER) and card not in reds:
            assert trump.level(card) < trump.level(SMALL_JOKER)
    # red fives on top, 5H above 5D
    for i, card in enumerate(reds):
        assert trump.level(card) == trump.suit_size(TRUMP) - 1 - i
    # plain cards keep their printed order in each effective suit
    plain = [c for c in ALL_CARDS if not c.is_joker and c not in reds and c.rank not in ranks]
    for a in plain:
        for b in plain:
            if trump.suit_of(a) == trump.suit_of(b) and a.rank is not None and b.rank is not None:
                assert (a.rank < b.rank) == (trump.level(a) < trump.level(b)), (a, b)
    # rank cards are above every plain trump; the first rank above the second
    for card in trumps_:
        if card.rank in ranks and card not in reds:
            assert all(trump.level(card) > trump.level(p) for p in plain if trump.is_trump(p))
            if trump.second_rank is not None and card.rank == trump.rank:
                seconds = [c for c in trumps_ if c.rank == trump.second_rank and c not in reds]
                assert all(trump.level(card) > trump.level(s) for s in seconds)
    # equal levels only for off-suit trump-rank cards (when not ordered by suit)
    for faces in trump.faces_at[TRUMP]:
        if len(faces) > 1:
            assert trump.rank_suit_order is None
            assert len({c.rank for c in faces}) == 1 and faces[0].rank in ranks
            assert trump.suit is None or all(c.suit != trump.suit for c in faces)
    for suit in Suit:
        assert all(len(faces) == 1 for faces in trump.faces_at[suit])
    # sorting and beats agree with the levels
    ordered = trump.sorted(ALL_CARDS)
    keys = [trump.key(c) for c in ordered]
    assert keys == sorted(keys, reverse=True)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(trumps(), cards_st, cards_st, st.sampled_from([0, 1, 2, 3, TRUMP]))
def test_beats_is_a_strict_order(trump: Trump, a: Card, b: Card, led: int) -> None:
    assert not (trump.beats(a, b, led) and trump.beats(b, a, led))
    assert not trump.beats(a, a, led)
    if trump.suit_of(a) == trump.suit_of(b):
        assert trump.beats(a, b, led) == (trump.level(a) > trump.level(b))


@FAST
@given(RANKS_OR_NONE, st.data())
def test_trump_parse_round_trips(rank: Rank | None, data: st.DataObject) -> None:
    suit = None if rank is None else data.draw(SUITS_OR_NONE)
    trump = Trump(rank, suit)
    assert Trump.parse(trump.notation()) == trump
    assert Trump.parse(trump.notation().lower()) == trump
    assert eval(repr(trump), {"Trump": Trump}) == trump
    if suit is not None and rank is not None:
        assert Trump.parse(rank.symbol + suit.symbol) == trump


@pytest.mark.parametrize("red_fives", [0, 1, 2])
def test_rules_trump_applies_red_fives(red_fives: int) -> None:
    trump = Rules(red_fives=red_fives).trump(Rank.TWO, Suit.SPADES)
    assert trump == Trump(Rank.TWO, Suit.SPADES, red_fives=red_fives)
    top = trump.faces_at[TRUMP][-1][0]
    assert top == {0: BIG_JOKER, 1: Card("5H"), 2: Card("5H")}[red_fives]
