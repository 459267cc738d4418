"""Cards, the text notation and hands, one rule per test."""

import pytest

from shengji.engine import (
    ALL_CARDS,
    BIG_JOKER,
    SMALL_JOKER,
    Card,
    Hand,
    NotationError,
    Rank,
    Suit,
    format_cards,
    full_deck,
    parse_card,
    parse_cards,
)

# -- notation --------------------------------------------------------------------------


def test_a_card_is_written_rank_then_suit() -> None:
    card = Card("AS")
    assert card.rank == Rank.ACE
    assert card.suit == Suit.SPADES
    assert str(card) == "AS"


def test_ten_is_written_10_or_t() -> None:
    assert Card("10H") is Card("TH")
    assert Card("TH").rank == Rank.TEN
    assert str(Card("TH")) == "10H"


def test_notation_is_case_insensitive() -> None:
    assert Card("7c") is Card("7C")
    assert Card("th") is Card("10H")
    assert Card("qS") is Card("QS")
    assert Card("sj") is SMALL_JOKER
    assert Card("bJ") is BIG_JOKER


def test_unicode_suit_symbols_are_read() -> None:
    assert parse_cards("A♠ 10♥ Q♦ 2♣") == parse_cards("AS 10H QD 2C")


def test_white_unicode_suit_symbols_are_read_too() -> None:
    assert parse_cards("A♤ K♡ Q♢ J♧") == parse_cards("AS KH QD JC")


def test_jokers_are_sj_small_and_bj_big() -> None:
    assert SMALL_JOKER.is_joker and BIG_JOKER.is_joker
    assert SMALL_JOKER.suit is None and SMALL_JOKER.rank is None
    assert str(SMALL_JOKER) == "SJ"
    assert str(BIG_JOKER) == "BJ"
    assert not Card("AS").is_joker


def test_cards_are_separated_by_spaces_or_commas() -> None:
    assert parse_cards("AS, 10H,TH  7c") == (Card("AS"), Card("10H"), Card("10H"), Card("7C"))


def test_surrounding_whitespace_is_ignored() -> None:
    assert parse_card("  qs ") is Card("QS")
    assert parse_cards("  ") == ()


def test_a_list_of_tokens_or_cards_is_accepted() -> None:
    assert parse_cards(["AS", Card("KH"), "sj"]) == (Card("AS"), Card("KH"), SMALL_JOKER)


def test_cards_are_written_back_in_canonical_form() -> None:
    assert format_cards(parse_cards("th 7c sj bj")) == "10H 7C SJ BJ"


def test_cards_are_written_back_with_symbols_on_request() -> None:
    assert format_cards(parse_cards("TH AS SJ"), unicode=True) == "10♥ A♠ SJ"
    assert Card("QD").unicode() == "Q♦"


def test_there_is_one_object_per_face() -> None:
    """Copies from several decks are interchangeable: every way to name a face gives it."""
    ace = Card("AS")
    assert Card(int(ace)) is ace
    assert Card.of(Rank.ACE, Suit.SPADES) is ace
    assert ALL_CARDS[int(ace)] is ace
    assert len(set(ALL_CARDS)) == 54


# -- notation errors ---------------------------------------------------------------------


@pytest.mark.parametrize("token", ["1S", "XS", "10", "S", "10HH", "JJ", "♠A", "11C"])
def test_a_bad_card_names_the_token_and_what_is_allowed(token: str) -> None:
    with pytest.raises(NotationError) as error:
        parse_card(token)
    message = str(error.value)
    assert repr(token) in message
    assert "2-10, T, J, Q, K, A" in message
    assert "C, D, H, S" in message
    assert "SJ" in message and "BJ" in message


def test_a_bad_token_in_a_list_is_the_one_named() -> None:
    with pytest.raises(NotationError) as error:
        parse_cards("AS KS QX JS")
    assert "'QX'" in str(error.value)
    assert "'AS'" not in str(error.value)


def test_a_notation_error_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="cannot read card"):
        Card("ZZ")


def test_a_card_index_out_of_range_is_refused() -> None:
    with pytest.raises(NotationError, match=r"54 is out of range; use 0\.\.53"):
        Card(54)
    with pytest.raises(NotationError, match="out of range"):
        Card(-1)


def test_a_bad_suit_or_rank_lists_what_is_allowed() -> None:
    with pytest.raises(NotationError, match="'X' is not a suit; use C, D, H, S"):
        Suit.parse("X")
    with pytest.raises(NotationError, match="'1' is not a rank; use 2-10, T, J, Q, K or A"):
        Rank.parse("1")
    assert Suit.parse("hearts") == Suit.HEARTS
    assert Suit.parse("♦") == Suit.DIAMONDS
    assert Rank.parse("t") == Rank.TEN


# -- points ------------------------------------------------------------------------------


def test_kings_and_tens_are_worth_ten_points() -> None:
    assert Card("KS").points == 10
    assert Card("10D").points == 10


def test_fives_are_worth_five_points() -> None:
    assert Card("5C").points == 5


def test_other_cards_and_jokers_are_worth_nothing() -> None:
    assert [Card(t).points for t in ("AS", "QH", "JD", "9C", "4S", "2H", "SJ", "BJ")] == [0] * 8


def test_a_deck_holds_100_points() -> None:
    assert sum(card.points for card in full_deck(1)) == 100
    assert sum(card.points for card in full_deck(3)) == 300


def test_a_deck_has_54_cards_with_its_jokers() -> None:
    deck = full_deck(2)
    assert len(deck) == 108
    assert deck.count(BIG_JOKER) == 2
    assert deck.count(Card("7H")) == 2


def test_a_pack_needs_at_least_one_deck() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        full_deck(0)


# -- hands (multisets) -------------------------------------------------------------------


def test_a_hand_counts_copies() -> None:
    hand = Hand("KS KS QS 10h")
    assert len(hand) == 4
    assert hand.count(Card("KS")) == 2
    assert hand.count(Card("AS")) == 0
    assert Card("QS") in hand
    assert Card("AS") not in hand


def test_copies_are_interchangeable_in_a_hand() -> None:
    assert Hand("KS QS KS") == Hand("ks, K♠ Q♠")


def test_removing_cards_takes_one_copy_each() -> None:
    hand = Hand("KS KS QS 10H")
    hand.remove(parse_cards("KS 10H"))
    assert hand == Hand("KS QS")
    assert len(hand) == 2


def test_removing_a_card_not_held_raises_and_changes_nothing() -> None:
    hand = Hand("AS AS KS")
    with pytest.raises(ValueError, match="the hand does not hold AS"):
        hand.remove(parse_cards("AS AS AS KS"))
    assert hand == Hand("AS AS KS")
    assert len(hand) == 3


def test_removing_cards_names_every_missing_card() -> None:
    hand = Hand("AS")
    with pytest.raises(ValueError, match="does not hold QH SJ"):
        hand.remove(parse_cards("AS QH SJ"))
    assert hand == Hand("AS")


def test_holds_respects_multiplicity() -> None:
    hand = Hand("AS AS KS")
    assert hand.holds(parse_cards("AS AS"))
    assert not hand.holds(parse_cards("KS KS"))
    assert hand.holds(())


def test_adding_cards_grows_the_hand() -> None:
    hand = Hand()
    hand.add(parse_cards("BJ BJ 3C"))
    assert len(hand) == 3
    assert hand.count(BIG_JOKER) == 2


def test_a_copy_of_a_hand_is_independent() -> None:
    hand = Hand("AS KS")
    copy = hand.copy()
    copy.remove([Card("AS")])
    assert hand == Hand("AS KS")
    assert copy == Hand("KS")


def test_a_hand_lists_its_cards_in_index_order() -> None:
    hand = Hand("BJ AS 2C AS")
    assert hand.cards() == [Card("2C"), Card("AS"), Card("AS"), BIG_JOKER]
    assert list(hand) == hand.cards()
    assert str(hand) == "2C AS AS BJ"


def test_a_hand_from_counts_needs_54_non_negative_counts() -> None:
    counts = [0] * 54
    counts[int(Card("AS"))] = 2
    assert Hand.from_counts(counts) == Hand("AS AS")
    with pytest.raises(ValueError, match="54 non-negative"):
        Hand.from_counts([0] * 53)
    with pytest.raises(ValueError, match="54 non-negative"):
        Hand.from_counts([-1] + [0] * 53)


def test_a_hand_with_a_bad_card_is_refused() -> None:
    with pytest.raises(NotationError, match="'KX'"):
        Hand("AS KX")
