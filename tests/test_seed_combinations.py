"""The seeds' worked examples of what is a pair, a tuple, a tractor -- and what is not.

Each test quotes the seed sentence it checks (files in ``/work/shared/seeds/``).
"""

import pytest

from shengji.engine import (
    Lead,
    PlayError,
    Rank,
    Rules,
    Trump,
    as_unit,
    parse_cards,
)


def unit_shape(cards: str, trump: str, rules: Rules) -> str | None:
    """What one combination the cards form (``pair``, ``tractor of 2 pairs``...), if any."""
    unit = as_unit(parse_cards(cards), Trump.parse(trump), rules)
    return None if unit is None else unit.describe()


# -- pairs (wikipedia_sheng_ji, Double cards lead) ---------------------------------------


@pytest.mark.parametrize("cards", [
    "7S 7H",   # "7♠-7♥ (despite being both in the trump suit)"
    "QS QD",   # "Q♠-Q♦ (despite both being of equal rank)"
    "SJ BJ",   # "a combination of a red joker and a black joker"
])
def test_wikipedia_not_doubles(cards: str) -> None:
    """wikipedia_sheng_ji: "A pair (对子) or double is valid only with two cards that have
    identical rank and suit, so two different-suited trump rank cards, two ordinary non-trump
    cards with the same value, or a combination of a red joker and a black joker are not
    counted as a double. For example, if 7♣ is trump, 7♠-7♥ (despite being both in the trump
    suit), or Q♠-Q♦ (despite both being of equal rank) are not considered doubles."
    """
    trump, rules = Trump.parse("7C"), Rules()
    assert as_unit(parse_cards(cards), trump, rules) is None
    try:
        lead = Lead.from_cards(cards, trump, rules)
    except PlayError:
        return  # Q♠-Q♦ are two suits: not even one lead
    assert lead.is_throw
    assert [unit.describe() for unit in lead.units] == ["single", "single"]


@pytest.mark.parametrize("cards", ["7C 7C", "7S 7S", "QS QS", "SJ SJ", "BJ BJ"])
def test_wikipedia_identical_cards_are_doubles(cards: str) -> None:
    """wikipedia_sheng_ji: "A pair (对子) or double is valid only with two cards that have
    identical rank and suit" -- and such two cards are one."""
    lead = Lead.from_cards(cards, Trump.parse("7C"), Rules())
    assert not lead.is_throw
    assert lead.describe() == "pair"


def test_hundred_group_lead_must_be_one_suit() -> None:
    """hundred_da_bai_fen_variant: "the sender has the right to go either from one of his
    cards, or from several cards of the same suit." (wikipedia_sheng_ji likewise: a
    combination is "of one suit"); the effective suit counts, so trumps of several printed
    suits are one suit."""
    trump, rules = Trump.parse("JC"), Rules(decks=1)
    with pytest.raises(PlayError, match="one suit"):
        Lead.from_cards("6C 6S", trump, rules)
    assert Lead.from_cards("JS 6C", trump, rules).suit == Lead.from_cards("JH", trump, rules).suit


# -- tractors (wikipedia_2006_bashi_fen, Consecutive n-tuples) ---------------------------

VALID = [
    # "3♥(red)-3♥(red)-4♥(red)-4♥(red)."
    ("3H 3H 4H 4H", "tractor of 2 pairs"),
    # "6♣-6♣-6♣-8♣-8♣-8♣ — these are consecutive since 7c is a member of the trump suit"
    ("6C 6C 6C 8C 8C 8C", "tractor of 2 triples"),
    # "6♦-6♦-8♦-8♦-9♦-9♦ — these are consecutive since 7d is higher than either."
    ("6D 6D 8D 8D 9D 9D", "tractor of 3 pairs"),
]
VALID_HIGH = [
    # "K♦(red)-K♦(red)-A♦(red)-A♦(red)-7♥(red)-7♥(red)-7♦(red)-7♦(red)."
    ("KD KD AD AD 7H 7H 7D 7D", "tractor of 4 pairs"),
    # "7♦(red)-7♦(red)-J-J." (a lone "J" is a joker, here the black one)
    ("7D 7D SJ SJ", "tractor of 2 pairs"),
    # "J-J-J(red)-J(red)."
    ("SJ SJ BJ BJ", "tractor of 2 pairs"),
]
NEVER = [
    # "3♥-3♥-4♥-4♥-4♥ — n must be the same for the whole play."
    "3H 3H 4H 4H 4H",
    # "7♥-7♥-7♠-7♠ — these cards are equal, not consecutive, in rank."
    "7H 7H 7S 7S",
    # "6♥-6♥-7♥-7♥ — these cards are not consecutive because sevens are high trump."
    "6H 6H 7H 7H",
]
THREE_DECKS = Rules(decks=3)  # the triples need a third deck


@pytest.mark.parametrize("cards, shape", VALID)
def test_2006_tractors_with_sevens_and_diamonds_trump(cards: str, shape: str) -> None:
    """wikipedia_2006_bashi_fen: "A player may lead m n-tuples as one trick if they are
    consecutive in rank. ... For example, if sevens and diamonds are trump, a player may
    lead" these (under every rule set)."""
    assert unit_shape(cards, "7D", THREE_DECKS) == shape
    low_only = Rules(decks=3, tractor_high_trumps=False)
    assert unit_shape(cards, "7D", low_only) == shape
    assert not Lead.from_cards(cards, Trump.parse("7D"), THREE_DECKS).is_throw


@pytest.mark.parametrize("cards, shape", VALID_HIGH)
def test_2006_tractors_with_high_trumps(cards: str, shape: str) -> None:
    """wikipedia_2006_bashi_fen: "According to other rules, however, the following are also
    valid leads, assuming once again that sevens and diamonds are trump" -- the chain runs
    A♦, the other 7s, 7♦, black joker, red joker."""
    assert unit_shape(cards, "7D", THREE_DECKS) == shape
    assert unit_shape(cards, "7D", Rules()) == shape


@pytest.mark.parametrize("cards, _shape", VALID_HIGH)
def test_2006_variant_tractors_may_not_include_high_trump(cards: str, _shape: str) -> None:
    """wikipedia_2006_bashi_fen: "According to some rules, a consecutive double may not include
    high trump (cards of the trump rank or jokers.)" -- ``tractor_high_trumps=False``; the
    cards may still be led, but as several units (a throw)."""
    rules = Rules(tractor_high_trumps=False)
    assert unit_shape(cards, "7D", rules) is None
    lead = Lead.from_cards(cards, Trump.parse("7D"), rules)
    assert lead.is_throw
    for unit in lead.units:  # K♦K♦A♦A♦ still chain; 7s and jokers stand alone as pairs
        high = any(card.is_joker or card.rank == Rank.SEVEN for card in unit.cards)
        assert unit.describe() == ("pair" if high else "tractor of 2 pairs")


@pytest.mark.parametrize("cards", NEVER)
def test_2006_never_tractors(cards: str) -> None:
    """wikipedia_2006_bashi_fen: "However, the following are never valid leads with this
    trump" (as one tractor, under any rule set)."""
    for rules in (THREE_DECKS, Rules(decks=3, tractor_high_trumps=False)):
        assert unit_shape(cards, "7D", rules) is None
    trump = Trump.parse("7D")
    if cards == "6H 6H 7H 7H":  # 6♥ is a heart, 7♥ a trump: two suits, no lead at all
        with pytest.raises(PlayError):
            Lead.from_cards(cards, trump, THREE_DECKS)
    else:
        assert Lead.from_cards(cards, trump, THREE_DECKS).is_throw


def test_wikipedia_tractors_table_lost_but_gap_closes() -> None:
    """wikipedia_sheng_ji: "If a player has two (or more) pairs of cards with consecutive ranks
    in the same suit (aka a "tractor", 拖拉机)" ... "if the seven of clubs (7♣) is dominant ...
    the rank 8 and 6 cards are adjacent for all suits"."""
    rules = Rules()
    assert unit_shape("6S 6S 8S 8S", "7C", rules) == "tractor of 2 pairs"
    assert unit_shape("6S 6S 8S 8S", "9C", rules) is None
    assert unit_shape("AC AC 7H 7H 7C 7C", "7C", rules) == "tractor of 3 pairs"


def test_2006_one_deck_consecutive_singles() -> None:
    """wikipedia_2006_bashi_fen: "In some one-deck games, consecutive singles are allowed." --
    ``tractor_min_width=1``; otherwise they are a throw of singles."""
    trump = Trump.parse("2H")
    sequence = Lead.from_cards("AS KS QS", trump, Rules(decks=1, tractor_min_width=1))
    assert not sequence.is_throw
    assert sequence.describe() == "sequence of 3"
    singles = Lead.from_cards("AS KS QS", trump, Rules(decks=1))
    assert singles.is_throw
    assert [unit.describe() for unit in singles.units] == ["single"] * 3


def test_wikipedia_one_deck_has_no_doubles() -> None:
    """wikipedia_sheng_ji, Variants: "For single decks ... no double cards will be played, but
    combinations of cards may still be allowed." -- with one deck no unit is wider than one
    card, though a combination (throw) of singles may be led."""
    rules = Rules(decks=1)
    assert as_unit(parse_cards("KS KS"), Trump.parse("2H"), rules) is None
    assert Lead.from_cards("AS KS", Trump.parse("2H"), rules).is_throw
