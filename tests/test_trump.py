"""The trump order: which cards are trumps, how they rank, and which are adjacent."""

import pytest

from shengji.engine import (
    BIG_JOKER,
    SMALL_JOKER,
    TRUMP,
    Card,
    NotationError,
    Rank,
    Rules,
    Suit,
    Trump,
    as_unit,
    parse_cards,
)

SEVEN_CLUBS = Trump(Rank.SEVEN, Suit.CLUBS)


def order(trump: Trump, suit: int = TRUMP) -> str:
    return trump.order_text(suit, unicode=False)


# -- a suit trump ------------------------------------------------------------------------


def test_suit_trump_order_jokers_then_rank_in_suit_then_other_rank_cards_then_the_suit() -> None:
    """Seed wikipedia: red jokers, black jokers, 7♣, the other sevens (equal), A♣ .. 2♣."""
    assert order(SEVEN_CLUBS) == (
        "BJ > SJ > 7C > 7D = 7H = 7S > AC > KC > QC > JC > 10C > 9C > 8C > 6C > 5C > 4C"
        " > 3C > 2C"
    )


def test_the_big_joker_beats_the_small_joker() -> None:
    assert SEVEN_CLUBS.beats(BIG_JOKER, SMALL_JOKER, TRUMP)
    assert not SEVEN_CLUBS.beats(SMALL_JOKER, BIG_JOKER, TRUMP)


def test_off_suit_trump_rank_cards_are_equal() -> None:
    seven_h, seven_s = Card("7H"), Card("7S")
    assert SEVEN_CLUBS.level(seven_h) == SEVEN_CLUBS.level(seven_s)
    assert not SEVEN_CLUBS.beats(seven_h, seven_s, TRUMP)
    assert not SEVEN_CLUBS.beats(seven_s, seven_h, TRUMP)


def test_trump_rank_cards_leave_their_printed_suit() -> None:
    assert SEVEN_CLUBS.suit_of(Card("7H")) == TRUMP
    assert SEVEN_CLUBS.is_trump(Card("7H"))
    assert SEVEN_CLUBS.suit_of(Card("AH")) == Suit.HEARTS
    assert SEVEN_CLUBS.suit_of(Card("2C")) == TRUMP


def test_plain_suits_run_ace_to_two_without_the_trump_rank() -> None:
    assert order(SEVEN_CLUBS, Suit.HEARTS) == (
        "AH > KH > QH > JH > 10H > 9H > 8H > 6H > 5H > 4H > 3H > 2H"
    )


def test_the_removed_trump_rank_closes_the_gap_in_plain_suits() -> None:
    """6♣-6♣-8♣-8♣ with 7♦ trump is a tractor (seed 2006)."""
    seven_diamonds = Trump.parse("7D")
    assert seven_diamonds.level(Card("8C")) == seven_diamonds.level(Card("6C")) + 1
    unit = as_unit(parse_cards("6C 6C 8C 8C"), seven_diamonds, Rules())
    assert unit is not None and unit.is_tractor


def test_the_removed_trump_rank_closes_the_gap_in_the_trump_suit_too() -> None:
    """6♦-6♦-8♦-8♦-9♦-9♦ with 7♦ trump: "consecutive since 7♦ is higher than either"."""
    unit = as_unit(parse_cards("6D 6D 8D 8D 9D 9D"), Trump.parse("7D"), Rules())
    assert unit is not None and unit.length == 3


def test_a_trump_beats_any_card_of_the_led_suit() -> None:
    assert SEVEN_CLUBS.beats(Card("2C"), Card("AH"), Suit.HEARTS)
    assert not SEVEN_CLUBS.beats(Card("AH"), Card("2C"), Suit.HEARTS)


def test_a_card_of_another_plain_suit_never_beats() -> None:
    assert not SEVEN_CLUBS.beats(Card("AS"), Card("2H"), Suit.HEARTS)
    assert SEVEN_CLUBS.beats(Card("2H"), Card("AS"), Suit.HEARTS)


def test_sorted_puts_trumps_first_strongest_first() -> None:
    cards = parse_cards("8C 7H 7C BJ AC 6S 7S SJ")
    assert [str(c) for c in SEVEN_CLUBS.sorted(cards)] == [
        "BJ", "SJ", "7C", "7S", "7H", "AC", "8C", "6S",
    ]


# -- no trump suit -----------------------------------------------------------------------


def test_no_trump_with_a_rank_makes_jokers_and_every_rank_card_trump() -> None:
    """Seed wikipedia: with no dominant suit the jokers and the rank cards (all equal) form
    the trump suit."""
    no_trump = Trump(Rank.SEVEN, None)
    assert order(no_trump) == "BJ > SJ > 7C = 7D = 7H = 7S"
    assert not no_trump.is_trump(Card("AC"))
    assert order(no_trump, Suit.CLUBS) == (
        "AC > KC > QC > JC > 10C > 9C > 8C > 6C > 5C > 4C > 3C > 2C"
    )


def test_jokers_only_trump_leaves_every_suit_whole() -> None:
    """Seed 2006, bid (4): "there is no trump number or suit, and only jokers are trump"."""
    jokers = Trump(None)
    assert order(jokers) == "BJ > SJ"
    assert jokers.suit_of(Card("7C")) == Suit.CLUBS
    assert jokers.suit_size(Suit.CLUBS) == 13


# -- seed hundred: two trump ranks and a suit order of the rank cards ---------------------


def test_a_second_trump_rank_ranks_below_the_first() -> None:
    """Seed hundred: two trump ranks at once (8s and 2s, diamonds trump): the eights, then
    the twos, then the trump suit."""
    two_ranks = Trump(Rank.EIGHT, Suit.DIAMONDS, second_rank=Rank.TWO)
    assert order(two_ranks) == (
        "BJ > SJ > 8D > 8C = 8H = 8S > 2D > 2C = 2H = 2S > AD > KD > QD > JD > 10D > 9D"
        " > 7D > 6D > 5D > 4D > 3D"
    )
    assert two_ranks.beats(Card("8C"), Card("2D"), TRUMP)


def test_a_second_trump_rank_leaves_the_plain_suits_too() -> None:
    two_ranks = Trump(Rank.EIGHT, Suit.DIAMONDS, second_rank=Rank.TWO)
    assert order(two_ranks, Suit.CLUBS) == (
        "AC > KC > QC > JC > 10C > 9C > 7C > 6C > 5C > 4C > 3C"
    )


def test_rank_suit_order_ranks_the_off_suit_rank_cards_by_suit() -> None:
    """Seed hundred: "8, 8, ♠8, ♣8, 2, 2, ♠2, ♣2, A, K ..." with diamonds trump: the rank
    card of the trump suit first, then the others in the stated suit order."""
    hundred = Trump(Rank.EIGHT, Suit.DIAMONDS, second_rank=Rank.TWO,
                    rank_suit_order=(Suit.HEARTS, Suit.SPADES, Suit.CLUBS))
    assert order(hundred).startswith("BJ > SJ > 8D > 8H > 8S > 8C > 2D > 2H > 2S > 2C > AD")
    assert hundred.beats(Card("8S"), Card("8C"), TRUMP)


def test_rules_apply_second_rank_and_rank_suit_order() -> None:
    rules = Rules(second_rank=Rank.TWO, rank_suit_order=(Suit.HEARTS, Suit.SPADES, Suit.CLUBS))
    trump = rules.trump(Rank.EIGHT, Suit.DIAMONDS)
    assert trump == Trump(Rank.EIGHT, Suit.DIAMONDS, second_rank=Rank.TWO,
                          rank_suit_order=(Suit.HEARTS, Suit.SPADES, Suit.CLUBS))


# -- red fives (seed wikipedia, hong wu) --------------------------------------------------


def test_one_red_five_is_the_highest_card() -> None:
    red_five = Trump(Rank.SEVEN, Suit.CLUBS, red_fives=1)
    assert order(red_five).startswith("5H > BJ > SJ > 7C")
    assert red_five.beats(Card("5H"), BIG_JOKER, TRUMP)
    assert red_five.suit_of(Card("5D")) == Suit.DIAMONDS


def test_two_red_fives_rank_five_of_hearts_then_five_of_diamonds_above_the_jokers() -> None:
    red_fives = Rules(red_fives=2).trump(Rank.SEVEN, Suit.CLUBS)
    assert order(red_fives).startswith("5H > 5D > BJ > SJ > 7C")
    assert red_fives.beats(Card("5H"), Card("5D"), TRUMP)
    assert red_fives.beats(Card("5D"), BIG_JOKER, TRUMP)


def test_red_fives_are_trumps_not_hearts() -> None:
    red_five = Rules(red_fives=1).trump(Rank.SEVEN, Suit.CLUBS)
    assert red_five.is_trump(Card("5H"))
    assert "5H" not in order(red_five, Suit.HEARTS)


def test_red_five_stays_highest_when_five_is_the_trump_rank() -> None:
    red_five = Trump(Rank.FIVE, Suit.HEARTS, red_fives=1)
    assert order(red_five).startswith("5H > BJ > SJ > 5C = 5D = 5S > AH")


# -- reading a trump ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("7C", Trump(Rank.SEVEN, Suit.CLUBS)),
        ("7♣", Trump(Rank.SEVEN, Suit.CLUBS)),
        ("10h", Trump(Rank.TEN, Suit.HEARTS)),
        ("TH", Trump(Rank.TEN, Suit.HEARTS)),
        ("7NT", Trump(Rank.SEVEN)),
        ("nt", Trump(None)),
        (" 7 c ", Trump(Rank.SEVEN, Suit.CLUBS)),
    ],
)
def test_trump_notation(text: str, expected: Trump) -> None:
    assert Trump.parse(text) == expected


def test_trump_notation_is_written_back() -> None:
    assert str(Trump.parse("10♥")) == "10H"
    assert str(Trump.parse("7nt")) == "7NT"
    assert str(Trump(None)) == "NT"
    assert str(Trump(Rank.EIGHT, Suit.DIAMONDS, second_rank=Rank.TWO)) == "8D+2"


@pytest.mark.parametrize("text", ["7X", "", "1C", "ZNT", "7", "JOKER"])
def test_a_bad_trump_names_the_text_and_the_allowed_forms(text: str) -> None:
    with pytest.raises(NotationError) as error:
        Trump.parse(text)
    message = str(error.value)
    assert f"cannot read trump {text!r}" in message
    assert "7C" in message and "7NT" in message and "NT" in message


def test_a_trump_suit_needs_a_trump_rank() -> None:
    with pytest.raises(ValueError, match="needs a trump rank"):
        Trump(None, Suit.CLUBS)


def test_the_second_rank_must_differ_from_the_first() -> None:
    with pytest.raises(ValueError, match="must differ"):
        Trump(Rank.TWO, Suit.CLUBS, second_rank=Rank.TWO)


def test_red_fives_is_zero_one_or_two() -> None:
    with pytest.raises(ValueError, match="red_fives"):
        Trump(Rank.TWO, Suit.CLUBS, red_fives=3)


def test_rank_suit_order_must_not_repeat_a_suit() -> None:
    with pytest.raises(ValueError, match="must not repeat"):
        Trump(Rank.TWO, Suit.CLUBS, rank_suit_order=(Suit.HEARTS, Suit.HEARTS))
