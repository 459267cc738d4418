"""The seeds' worked examples of card order, trump membership and card points.

Each test quotes the seed sentence it checks (files in ``/work/shared/seeds/``).
Orders are written highest first; cards joined by ``=`` are equal.
"""

from itertools import pairwise

import pytest

from shengji.engine import (
    ALL_CARDS,
    TRUMP,
    Card,
    Rank,
    Rules,
    Suit,
    Trump,
    full_deck,
    parse_cards,
)
from shengji.engine.trump import EffectiveSuit


def plain(suit: Suit, ranks: str) -> str:
    """A plain suit's order, e.g. ``plain(Suit.SPADES, "A K Q")`` is ``"AS > KS > QS"``."""
    return " > ".join(rank + suit.letter for rank in ranks.split(" "))


def assert_order(trump: Trump, suit: EffectiveSuit, order: str) -> None:
    """``order`` lists, highest first, *every* card of the effective suit ``suit``
    (``>`` between strictly ordered groups, ``=`` inside a group of equal cards)."""
    groups = [parse_cards(group.split("=")) for group in order.split(">")]
    listed = sorted(card for group in groups for card in group)
    members = sorted(card for card in ALL_CARDS if trump.suit_of(card) == suit)
    assert members == listed, "the suit holds other cards than the seed lists"
    for group in groups:
        assert len({trump.level(card) for card in group}) == 1, f"{group} are not equal"
        for a in group:
            for b in group:
                assert not trump.beats(a, b, suit), f"{a} beats its equal {b}"
    for higher, lower in pairwise(groups):
        for a in higher:
            for b in lower:
                assert trump.beats(a, b, suit), f"{a} should beat {b}"
                assert not trump.beats(b, a, suit), f"{b} should not beat {a}"
                # strictly consecutive groups are one level apart (tractors chain)
                assert trump.level(a) == trump.level(b) + 1


# -- wikipedia_sheng_ji ------------------------------------------------------------------


def test_wikipedia_seven_of_clubs_trump_order() -> None:
    """wikipedia_sheng_ji, The deck: "if the seven of clubs (7♣) is dominant, then the order
    of the cards is: Red jokers, Black jokers, 7♣, Seven of any other suit (i.e., 7♥, 7♦,
    7♠, equally ranked), A♣, K♣, Q♣, J♣, 10♣, 9♣, 8♣, 6♣, 5♣, 4♣, 3♣, 2♣, Cards in other
    suits, following the order ace, king, queen (excluding 7), etc., down to 2."
    """
    trump = Trump.parse("7♣")
    assert_order(
        trump, TRUMP,
        "BJ > SJ > 7C > 7H = 7D = 7S > AC > KC > QC > JC > 10C > 9C > 8C > 6C > 5C > 4C"
        " > 3C > 2C",
    )
    for suit in (Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES):
        assert_order(
            trump, suit,
            plain(suit, "A K Q J 10 9 8 6 5 4 3 2"),
        )


def test_wikipedia_other_sevens_leave_their_suits_and_close_the_gap() -> None:
    """wikipedia_sheng_ji: "the other sevens are no longer considered members of their
    respective suit, but are now considered part of the trump suit; moving the other sevens
    to the trump suit means the rank 8 and 6 cards are adjacent for all suits."
    """
    trump = Trump.parse("7C")
    for suit in Suit:
        seven, eight, six = (Card.of(rank, suit) for rank in (Rank.SEVEN, Rank.EIGHT, Rank.SIX))
        assert trump.is_trump(seven)
        assert trump.suit_of(eight) == trump.suit_of(six)
        assert trump.level(eight) == trump.level(six) + 1


def test_wikipedia_first_five_categories_are_the_trump_suit() -> None:
    """wikipedia_sheng_ji: "where the first five categories are all considered to be part of
    the trump suit" -- two decks of 108 cards give 4 jokers, 8 sevens and 24 other clubs."""
    trump = Trump.parse("7C")
    trumps = [card for card in full_deck(2) if trump.is_trump(card)]
    assert len(full_deck(2)) == 108
    assert len(trumps) == 4 + 8 + 24


def test_wikipedia_no_trump_round_order() -> None:
    """wikipedia_sheng_ji: "If play proceeds without a declared suit as trump, a fifth
    (dominant) suit is created consisting of the jokers and the dominant rank cards. Each of
    the dominant rank cards is equal." and "no-trump rounds, where there is no dominant suit
    and the trump suit will only consist of the jokers and the eight cards of the trump rank
    (all equally ordered)."
    """
    trump = Trump.parse("7NT")
    assert_order(trump, TRUMP, "BJ > SJ > 7C = 7D = 7H = 7S")
    assert len([card for card in full_deck(2) if trump.is_trump(card)]) == 4 + 8
    for suit in Suit:
        assert_order(
            trump, suit,
            plain(suit, "A K Q J 10 9 8 6 5 4 3 2"),
        )


@pytest.mark.parametrize("fives, top", [(1, "5H BJ SJ 7C"), (2, "5H 5D BJ SJ 7C")])
def test_wikipedia_red_fives_variant(fives: int, top: str) -> None:
    """wikipedia_sheng_ji, Miscellaneous optional rules: "The 5♥ and sometimes also the 5♦
    may be taken as the highest cards, i.e. hong wu (红五), 'red five'."
    """
    trump = Rules(red_fives=fives).trump(Rank.SEVEN, Suit.CLUBS)
    ranked = trump.sorted(card for card in ALL_CARDS if trump.is_trump(card))
    assert ranked[: len(top.split())] == list(parse_cards(top))
    assert trump.beats(Card("5H"), Card("BJ"), TRUMP)
    assert trump.is_trump(Card("5D")) == (fives == 2)


def test_wikipedia_two_decks_hold_200_points() -> None:
    """wikipedia_sheng_ji, Point cards: "only kings, 10s, and 5s are worth points ... All kings
    and 10s are worth 10 points each, while 5s are worth 5 points each ... In two decks, there
    are a total of 200 points: 8 kings (×10) = 80 points, 8 10s (×10) = 80 points, 8 5s (×5) =
    40 points"."""
    deck = full_deck(2)
    by_rank = {rank: sum(card.points for card in deck if card.rank == rank) for rank in Rank}
    assert by_rank[Rank.KING] == 80
    assert by_rank[Rank.TEN] == 80
    assert by_rank[Rank.FIVE] == 40
    assert sum(card.points for card in deck) == 200
    assert sum(1 for card in deck if card.points) == 24


# -- wikipedia_2006_bashi_fen ------------------------------------------------------------


def test_2006_kings_and_spades_order() -> None:
    """wikipedia_2006_bashi_fen, The deck: "suppose that kings and spades are trump. Then the
    order of the trump suit, from highest to lowest card, is J(red), J, K♠, king of any other
    suit, A♠, Q♠, J♠, 10♠, 9♠, 8♠, 7♠, 6♠, 5♠, 4♠, 3♠, 2♠." ("J" alone is a joker.)
    """
    trump = Trump.parse("KS")
    assert_order(
        trump, TRUMP,
        "BJ > SJ > KS > KC = KD = KH > AS > QS > JS > 10S > 9S > 8S > 7S > 6S > 5S > 4S"
        " > 3S > 2S",
    )


def test_2006_king_of_clubs_is_no_longer_a_club() -> None:
    """wikipedia_2006_bashi_fen: "Note that the king of clubs is no longer considered a club,
    but part of the trump suit." -- so clubs run A, Q, J ... and K♣ does not follow clubs."""
    trump = Trump.parse("KS")
    assert trump.suit_of(Card("KC")) == TRUMP
    assert_order(trump, Suit.CLUBS, "AC > QC > JC > 10C > 9C > 8C > 7C > 6C > 5C > 4C > 3C > 2C")


def test_2006_points_are_100_per_deck() -> None:
    """wikipedia_2006_bashi_fen, Scoring: "fives (worth 5 points), tens, and kings (worth 10
    points each), making a total of 100 points per deck"."""
    for decks in (1, 2, 3, 4):
        assert sum(card.points for card in full_deck(decks)) == 100 * decks


# -- da_bai_fen_rules --------------------------------------------------------------------


def test_da_bai_fen_aces_and_spades_order() -> None:
    """da_bai_fen_rules: "if the Trump rank is Aces and the suit is Spades the ranking of the
    trump suit would be Red Joker, Black Joker, Ace of spades, all other aces, King, Queen,
    Jack, 10, 9, 8, 7, 6, 5, 4, 3, and 2."
    """
    trump = Trump.parse("AS")
    assert_order(
        trump, TRUMP,
        "BJ > SJ > AS > AC = AD = AH > KS > QS > JS > 10S > 9S > 8S > 7S > 6S > 5S > 4S"
        " > 3S > 2S",
    )


def test_da_bai_fen_non_trump_suits_rank_ace_high() -> None:
    """da_bai_fen_rules: "For rankings non-trump suits all rank Ace (high), King, Queen, Jack,
    10, 9, 8, 7, 6, 5, 4, 3, and 2 (low)." -- the trump rank (here 2, the first round's rank)
    has left them for the trump suit."""
    trump = Trump.parse("2H")
    for suit in (Suit.CLUBS, Suit.DIAMONDS, Suit.SPADES):
        assert_order(
            trump, suit,
            plain(suit, "A K Q J 10 9 8 7 6 5 4 3"),
        )


def test_da_bai_fen_card_values() -> None:
    """da_bai_fen_rules: "Kings are worth 10 points, 10s are worth 10 points, 5s are worth 5
    points and all other cards are not worth any points."""
    for card in full_deck(1):
        expected = {Rank.KING: 10, Rank.TEN: 10, Rank.FIVE: 5}.get(card.rank, 0)
        assert card.points == expected


# -- hundred_da_bai_fen_variant ----------------------------------------------------------


@pytest.mark.parametrize("notation", ["6C", "2H", "AS", "10D"])
def test_hundred_always_18_trump_cards(notation: str) -> None:
    """hundred_da_bai_fen_variant: "There are always 18 trump cards in the game." (one deck:
    12 more cards of the trump suit, the four trump-rank cards and the two jokers)."""
    trump = Trump.parse(notation)
    assert len(full_deck(1)) == 54
    assert sum(1 for card in full_deck(1) if trump.is_trump(card)) == 18


def test_hundred_clubs_and_sixes_order() -> None:
    """hundred_da_bai_fen_variant: "in the game will be the trump card suit and trump cards of
    the six, then ... their seniority will look from the youngest to the oldest: ♣ 2, ♣ 3, ♣ 4,
    ♣ 5, ♣ 6, ♣ 7, ♣ 8, 9, ♣ 10, ♣ B, ♣ D, ♣ K, ♣ T, 6, 6, ♠ 6, ♣ 6, black Joker, red Joker."

    The text lost some suit symbols (the two bare 6s are the red sixes, the bare 9 is ♣9) and
    lists ♣6 twice; we read it as clubs A..2 without the six, the other sixes, ♣6, then the
    jokers, red highest (B/D/K/T are the Russian J/Q/K/A). The seed orders the other sixes
    (red, red, ♠ upwards); by default they are equal, as in the other seeds.
    """
    trump = Trump.parse("6C")
    assert_order(
        trump, TRUMP,
        "BJ > SJ > 6C > 6D = 6H = 6S > AC > KC > QC > JC > 10C > 9C > 8C > 7C > 5C > 4C"
        " > 3C > 2C",
    )
    ordered = Trump(Rank.SIX, Suit.CLUBS, rank_suit_order=(Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS))
    assert_order(
        ordered, TRUMP,
        "BJ > SJ > 6C > 6S > 6H > 6D > AC > KC > QC > JC > 10C > 9C > 8C > 7C > 5C > 4C"
        " > 3C > 2C",
    )


def test_hundred_two_trump_ranks_variant() -> None:
    """hundred_da_bai_fen_variant, Note: "Sometimes play with the following trump cards, where
    2 ranks of trump cards, for example take the trump card of the tambourine, the seniority of
    the cards from the senior to the youngest: 8, 8, ♠ 8, ♣ 8, 2, 2, ♠ 2, ♣ 2, Т, К, Д, В, 10,
    9, 8, 7, 6, 5, 4, 3."

    "Tambourine" is diamonds; the bare 8 and 2 are the red cards (♦ first, as the trump suit).
    The list leaves out the jokers, which stay on top; the plain diamonds run A..3 without the
    two ranks. The other 8s and 2s are equal by default (the seed lists them ♥, ♠, ♣).
    """
    trump = Trump(Rank.EIGHT, Suit.DIAMONDS, second_rank=Rank.TWO)
    assert_order(
        trump, TRUMP,
        "BJ > SJ > 8D > 8H = 8S = 8C > 2D > 2H = 2S = 2C > AD > KD > QD > JD > 10D > 9D > 7D"
        " > 6D > 5D > 4D > 3D",
    )
    assert sum(1 for card in full_deck(1) if trump.is_trump(card)) == 2 + 8 + 11
