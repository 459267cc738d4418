"""Units (singles, n-tuples, tractors) and the readings of a set of cards."""

import pytest

from shengji.engine import (
    Lead,
    PlayError,
    Rules,
    RulesError,
    Trump,
    Unit,
    as_unit,
    parse_cards,
    readings,
)

SEVEN_DIAMONDS = Trump.parse("7D")
SEVEN_HEARTS = Trump.parse("7H")


def unit(cards: str, trump: Trump = SEVEN_DIAMONDS, rules: Rules | None = None) -> Unit | None:
    return as_unit(parse_cards(cards), trump, rules or Rules())


def described(cards: str, trump: Trump, rules: Rules) -> list[str]:
    """Each reading as ``"tractor of 2 pairs [2H 2H 3H 3H] + single [3H]"``."""
    return [
        " + ".join(f"{u.describe()} [{u}]" for u in reading)
        for reading in readings(cards, trump, rules)
    ]


# -- singles and tuples ------------------------------------------------------------------


def test_one_card_is_a_single() -> None:
    single = unit("AS")
    assert single is not None
    assert (single.width, single.length, single.size) == (1, 1, 1)
    assert single.describe() == "single"


def test_two_identical_cards_are_a_pair() -> None:
    pair = unit("QS QS")
    assert pair is not None and pair.shape == (2, 1)
    assert pair.describe() == "pair"


def test_same_rank_different_suits_is_not_a_pair() -> None:
    """Seed wikipedia: Q♠-Q♦ are not a double, even though they are of equal rank."""
    assert unit("QS QD") is None


def test_two_trump_rank_cards_of_different_suits_are_not_a_pair() -> None:
    """Seed wikipedia: 7♠-7♥ are not a double, although both are trumps of equal level."""
    assert unit("7H 7S") is None


def test_a_red_and_a_black_joker_are_not_a_pair() -> None:
    assert unit("SJ BJ") is None
    assert unit("SJ SJ") is not None


def test_a_triple_needs_three_decks() -> None:
    assert unit("AS AS AS") is None
    triple = unit("AS AS AS", rules=Rules(decks=3))
    assert triple is not None and triple.describe() == "triple"


def test_mixed_suits_are_no_unit() -> None:
    assert unit("AS AH") is None
    assert unit("") is None


# -- tractors ----------------------------------------------------------------------------


def test_two_consecutive_pairs_are_a_tractor() -> None:
    tractor = unit("3H 3H 4H 4H")
    assert tractor is not None and tractor.is_tractor
    assert tractor.describe() == "tractor of 2 pairs"
    assert tractor.size == 4


def test_consecutive_triples_across_the_removed_rank_are_a_tractor() -> None:
    """Seed 2006: 6♣-6♣-6♣-8♣-8♣-8♣ with sevens trump, "consecutive since 7♣ is a member
    of the trump suit rather than of clubs"."""
    tractor = unit("6C 6C 6C 8C 8C 8C", rules=Rules(decks=3))
    assert tractor is not None and tractor.describe() == "tractor of 2 triples"


def test_the_trump_chain_runs_ace_then_off_suit_rank_then_rank_in_suit() -> None:
    """Seed 2006: K♦K♦ A♦A♦ 7♥7♥ 7♦7♦ is a tractor (7♦ trump)."""
    tractor = unit("KD KD AD AD 7H 7H 7D 7D")
    assert tractor is not None and tractor.length == 4


def test_the_trump_chain_continues_into_the_jokers() -> None:
    """Seed 2006: 7♦7♦-SJ SJ and SJ SJ-BJ BJ are tractors (7♦ trump)."""
    assert unit("7D 7D SJ SJ") is not None
    assert unit("SJ SJ BJ BJ") is not None


def test_off_suit_trump_rank_pairs_are_equal_not_consecutive() -> None:
    """Seed 2006: 7♥7♥-7♠7♠ is never a tractor: the cards are equal in rank."""
    assert unit("7H 7H 7S 7S") is None


def test_the_trump_rank_is_not_in_its_printed_suit_for_tractors() -> None:
    """Seed 2006: 6♥6♥-7♥7♥ is never a tractor: sevens are high trumps."""
    assert unit("6H 6H 7H 7H") is None


def test_a_tractor_needs_the_same_width_throughout() -> None:
    """Seed 2006: 3♥3♥-4♥4♥4♥ is never a tractor."""
    assert unit("3H 3H 4H 4H 4H", rules=Rules(decks=3)) is None


def test_non_consecutive_pairs_are_no_tractor() -> None:
    assert unit("3H 3H 5H 5H") is None


def test_ace_and_two_do_not_wrap_around() -> None:
    assert unit("AS AS 2S 2S") is None


# -- tractor options ---------------------------------------------------------------------


def test_tractor_min_length_three_makes_two_pairs_a_throw() -> None:
    rules = Rules(tractor_min_length=3)
    assert unit("AS AS KS KS", rules=rules) is None
    assert described("AS AS KS KS", SEVEN_DIAMONDS, rules) == ["pair [AS AS] + pair [KS KS]"]
    long = unit("AS AS KS KS QS QS", rules=rules)
    assert long is not None and long.length == 3


def test_tractor_min_length_must_be_at_least_two() -> None:
    with pytest.raises(RulesError, match="tractor_min_length must be at least 2"):
        Rules(tractor_min_length=1)


def test_tractor_min_width_one_makes_consecutive_singles_a_sequence() -> None:
    """One-deck variant (seed 2006): "In some one-deck games, consecutive singles are
    allowed"."""
    rules = Rules(decks=1, tractor_min_width=1)
    sequence = unit("QH KH AH", rules=rules)
    assert sequence is not None
    assert sequence.describe() == "sequence of 3"
    assert sequence.shape == (1, 3)


def test_without_the_sequence_option_consecutive_singles_are_a_throw() -> None:
    assert unit("QH KH AH", rules=Rules(decks=1)) is None


def test_tractor_min_width_cannot_exceed_the_decks() -> None:
    with pytest.raises(RulesError, match="tractor_min_width is 3 but there are only 2 decks"):
        Rules(tractor_min_width=3)


def test_tractor_min_width_three_makes_consecutive_pairs_a_throw() -> None:
    rules = Rules(decks=3, tractor_min_width=3)
    assert unit("3H 3H 4H 4H", rules=rules) is None
    assert unit("3H 3H 3H 4H 4H 4H", rules=rules) is not None


def test_tractors_may_include_high_trumps_by_default() -> None:
    assert unit("AD AD 7H 7H") is not None
    assert unit("7D 7D SJ SJ") is not None


def test_tractor_high_trumps_off_keeps_rank_cards_and_jokers_out_of_tractors() -> None:
    """Seed 2006: "According to some rules, a consecutive double may not include high trump
    (cards of the trump rank or jokers)"."""
    rules = Rules(tractor_high_trumps=False)
    assert unit("AD AD 7H 7H", rules=rules) is None
    assert unit("7D 7D SJ SJ", rules=rules) is None
    assert unit("SJ SJ BJ BJ", rules=rules) is None


def test_tractor_high_trumps_off_still_allows_trump_suit_tractors() -> None:
    rules = Rules(tractor_high_trumps=False)
    assert unit("KD KD AD AD", rules=rules) is not None
    assert unit("SJ SJ", rules=rules) is not None  # a pair of high trumps is still a pair


# -- readings ----------------------------------------------------------------------------


def test_a_triple_and_a_pair_in_a_row_read_two_ways_with_three_decks() -> None:
    """2♥2♥ 3♥3♥3♥ is a tractor of two pairs plus a single, or a triple plus a pair."""
    assert described("2H 2H 3H 3H 3H", SEVEN_DIAMONDS, Rules(decks=3)) == [
        "tractor of 2 pairs [2H 2H 3H 3H] + single [3H]",
        "triple [3H 3H 3H] + pair [2H 2H]",
    ]


def test_the_trump_rank_level_with_several_faces_gives_several_readings() -> None:
    """A♥A♥ 7♠7♠ 7♦7♦ 7♥7♥ with 7♥ trump: either off-suit pair of sevens links A♥A♥ to
    7♥7♥ (a tractor of three pairs plus the other pair), or each off-suit pair heads its
    own tractor (two tractors of two pairs). Equal-ranking readings are listed in the
    order of their cards."""
    assert described("AH AH 7S 7S 7D 7D 7H 7H", SEVEN_HEARTS, Rules()) == [
        "tractor of 3 pairs [AH AH 7D 7D 7H 7H] + pair [7S 7S]",
        "tractor of 3 pairs [AH AH 7S 7S 7H 7H] + pair [7D 7D]",
        "tractor of 2 pairs [7D 7D 7H 7H] + tractor of 2 pairs [AH AH 7S 7S]",
        "tractor of 2 pairs [7S 7S 7H 7H] + tractor of 2 pairs [AH AH 7D 7D]",
    ]


def test_no_reading_splits_three_pairs_that_form_a_tractor() -> None:
    """Issue 11: with tractors of 3 pairs or more, 2♥2♥ 3♥3♥ 5♥5♥ (4 the trump rank)
    is a tractor; no two of its pairs form one, but "pair + pair + pair" is no reading."""
    rules = Rules(tractor_min_length=3)
    assert described("2H 2H 3H 3H 5H 5H", Trump.parse("4S"), rules) == [
        "tractor of 3 pairs [2H 2H 3H 3H 5H 5H]"]
    assert described("2H 2H 3H 3H 5H 5H 9H", Trump.parse("4S"), rules) == [
        "tractor of 3 pairs [2H 2H 3H 3H 5H 5H] + single [9H]"]
    with pytest.raises(PlayError, match="cannot be read as pair"):
        Lead.from_cards("2H 2H 3H 3H 5H 5H 9H", Trump.parse("4S"), rules,
                        tuple(Lead.from_cards(c, Trump.parse("4S"), rules).units[0]
                              for c in ("5H 5H", "3H 3H", "2H 2H", "9H")))


def test_the_trump_rank_level_with_several_faces_is_not_one_unit() -> None:
    assert unit("AH AH 7S 7S 7D 7D 7H 7H", SEVEN_HEARTS) is None
    assert unit("AH AH 7S 7S 7H 7H", SEVEN_HEARTS) is not None


def test_readings_are_maximal_a_pair_is_never_read_as_two_singles() -> None:
    assert described("KS KS", SEVEN_DIAMONDS, Rules()) == ["pair [KS KS]"]
    assert described("KS KS 3S", SEVEN_DIAMONDS, Rules()) == ["pair [KS KS] + single [3S]"]


def test_readings_put_the_largest_unit_first() -> None:
    (reading,) = readings("3S AS AS KS KS", SEVEN_DIAMONDS, Rules())
    assert [u.describe() for u in reading] == ["tractor of 2 pairs", "single"]


def test_mixed_suits_have_no_reading() -> None:
    assert readings("AS AH", SEVEN_DIAMONDS, Rules()) == []
