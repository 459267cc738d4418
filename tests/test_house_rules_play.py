"""Issue 11's play rules, as scenarios: cards in notation and the expected ruling.

Each test fails without the fix or option it names.
"""

import pytest

from shengji.engine import (
    Hand,
    Lead,
    LegalPlays,
    PlayError,
    Rules,
    Trick,
    Trump,
    TupleFollow,
    parse_cards,
)


def legal(lead: str, hand: str, rules: Rules, trump: Trump) -> LegalPlays:
    """The legal follows of ``hand`` to the cards ``lead``."""
    return LegalPlays(Hand(hand), Lead.from_cards(lead, trump, rules), trump, rules)


def plays(legal_plays: LegalPlays) -> set[tuple[str, ...]]:
    """Every legal play, each as a sorted tuple of card names."""
    return {tuple(sorted(str(card) for card in play)) for play in legal_plays}


def cards(*texts: str) -> set[tuple[str, ...]]:
    """Plays written in the notation, in the form :func:`plays` returns."""
    return {tuple(sorted(str(card) for card in parse_cards(text))) for text in texts}


# -- protected tuples count for the structure they hold when played ------------------------

PROTECT_4 = Rules(decks=4, tuple_follow=TupleFollow.PROTECT)


def test_a_protected_quadruple_played_whole_counts_as_two_pairs() -> None:
    """Trump 4S: 2S 2S 3S 3S is a tractor of trumps. The quadruple 2S is protected (not
    forced), but the player may choose to play it, and it holds two pairs' worth."""
    follow = legal("2S 2S 3S 3S", "2S 2S 2S 2S 3S 5S 5S", PROTECT_4, Trump.parse("4S"))
    assert follow.reason("2S 2S 5S 3S") is None  # a pair split off the quadruple
    assert follow.reason("2S 2S 2S 2S") is None  # the whole quadruple: refused before
    assert follow.reason("2S 3S 5S 5S") is None  # the held pair
    assert follow.reason("2S 2S 2S 3S") is None  # a pair split off, and a single


def test_a_protected_quadruple_still_is_not_forced() -> None:
    """Protect keeps its meaning: only the pair is forced, not the quadruple."""
    follow = legal("KS KS", "9S 9S 9S 9S 8S 8S 3S", PROTECT_4, Trump.parse("2H"))
    assert plays(follow) == cards("8S 8S", "9S 9S")


def test_a_protected_triple_played_whole_counts_as_a_pair_of_a_tractor() -> None:
    """Three decks, no trump: 6C 6C 7C 7C is a tractor whether the play takes two or all
    three of the 7C (the triple was protected, so its whole was refused before)."""
    rules = Rules(decks=3, tuple_follow=TupleFollow.PROTECT)
    follow = legal("5C 5C 4C 4C 3C", "2C 2C 6C 6C 7C 7C 7C", rules, Trump(None))
    assert follow.reason("6C 6C 7C 7C 7C") is None
    assert follow.reason("6C 6C 7C 7C 2C") is None
    assert follow.reason("2C 2C 6C 6C 7C") is None
    assert follow.reason("2C 6C 7C 7C 7C") is not None


# -- throw_tiebreak: ruffs tying on the largest unit -------------------------------------


def ruffed_throw(rules: Rules) -> int | None:
    """Trump 2H: AS KS KS thrown; seats 1 and 3 ruff with equal pairs of off-suit 2s
    (the same trump level) and singles 3H and 9H. The winning seat."""
    trump = Trump.parse("2H")
    hands = [Hand("AS KS KS"), Hand("2S 2S 3H"), Hand("QS JS 10S"), Hand("2D 2D 9H")]
    trick = Trick(trump, rules, leader=0)
    trick.play("AS KS KS", hands[0], hands=hands)
    for seat, cards in ((1, "2S 2S 3H"), (2, "QS JS 10S"), (3, "2D 2D 9H")):
        trick.play(cards, hands[seat])
    return trick.winner


def test_a_tie_on_the_largest_unit_goes_to_the_earlier_ruff_by_default() -> None:
    assert ruffed_throw(Rules()) == 1


def test_throw_tiebreak_compares_the_next_largest_unit() -> None:
    """The pairs tie (2S 2S and 2D 2D are both off-suit trump-rank pairs); 9H beats 3H."""
    assert ruffed_throw(Rules(throw_tiebreak=True)) == 3


def test_throw_tiebreak_still_gives_a_full_tie_to_the_earlier_ruff() -> None:
    trump, rules = Trump.parse("2H"), Rules(throw_tiebreak=True)
    hands = [Hand("AS KS KS"), Hand("2S 2S 9H"), Hand("QS JS 10S"), Hand("2D 2D 9H")]
    trick = Trick(trump, rules, leader=0)
    trick.play("AS KS KS", hands[0], hands=hands)
    for seat, cards in ((1, "2S 2S 9H"), (2, "QS JS 10S"), (3, "2D 2D 9H")):
        trick.play(cards, hands[seat])
    assert trick.winner == 1


# -- tuple_follow="breakdown": an unmatched tuple breaks down ----------------------------

THREE = Rules(decks=3)
BREAKDOWN_3 = THREE.replace(tuple_follow=TupleFollow.BREAKDOWN)
TWO_H = Trump.parse("2H")


def test_a_triple_with_no_triple_held_draws_a_pair_under_breakdown() -> None:
    assert "9S 8S 7S" in legal("KS KS KS", "9S 9S 8S 7S", THREE, TWO_H)
    follow = legal("KS KS KS", "9S 9S 8S 7S", BREAKDOWN_3, TWO_H)
    assert plays(follow) == cards("9S 9S 8S", "9S 9S 7S")
    assert follow.describe() == "play 3 spades, including 1 pair"


def test_a_tractor_of_triples_draws_a_tractor_of_pairs_under_breakdown() -> None:
    lead, hand = "KS KS KS QS QS QS", "9S 9S 8S 8S 7S 5S 3S"
    assert "9S 9S 8S 7S 5S 3S" in legal(lead, hand, THREE, TWO_H)
    follow = legal(lead, hand, BREAKDOWN_3, TWO_H)
    assert follow.describe() == "play 6 spades, including a tractor of 2 pairs"
    assert follow.reason("9S 9S 8S 7S 5S 3S") == (
        "you hold a tractor of 2 pairs in spades (8S 8S 9S 9S): with no tractor of 2 triples,"
        " the widest narrower tractor must be played")
    assert plays(follow) == cards("9S 9S 8S 8S 7S 5S", "9S 9S 8S 8S 7S 3S", "9S 9S 8S 8S 5S 3S")


def test_a_tractor_of_triples_without_a_tractor_of_pairs_draws_pairs_under_breakdown() -> None:
    follow = legal("KS KS KS QS QS QS", "9S 9S 6S 6S 7S 5S 3S", BREAKDOWN_3, TWO_H)
    assert follow.describe() == "play 6 spades, including 2 pairs"
    found = plays(follow)
    assert found and all(p.count("9S") == 2 and p.count("6S") == 2 for p in found)
    assert "9S 9S 6S 7S 5S 3S" not in follow


def test_a_quadruple_breaks_down_to_a_triple_before_pairs() -> None:
    """The widest tuple first: a triple (and a single) rather than two pairs."""
    rules = Rules(decks=4, tuple_follow=TupleFollow.BREAKDOWN)
    follow = legal("KS KS KS KS", "9S 9S 9S 8S 8S 6S 6S", rules, TWO_H)
    assert plays(follow) == cards("9S 9S 9S 8S", "9S 9S 9S 6S")
    without = legal("KS KS KS KS", "9S 9S 8S 8S 6S 6S 3S", rules, TWO_H)
    assert {p for p in plays(without) if "3S" in p} == set()  # two pairs of the three


def test_breakdown_is_draw_out_with_two_decks() -> None:
    lead, hand = "KS KS QS QS", "9S 9S 8S 7S 7S 3S"
    assert plays(legal(lead, hand, Rules(tuple_follow=TupleFollow.BREAKDOWN), TWO_H)) == plays(
        legal(lead, hand, Rules(), TWO_H))


# -- bombs ----------------------------------------------------------------------------------

BOMBS_4 = Rules(decks=4, bombs=4)


def bomb_trick(rules: Rules, plays_: list[tuple[str, str]]) -> Trick:
    """Trump 2H, seat 0 leading; each entry is (hand, play)."""
    trick = Trick(Trump.parse("2H"), rules, leader=0)
    for hand, cards_ in plays_:
        trick.play(cards_, Hand(hand), hands=[Hand(h) for h, _ in plays_])
    return trick


def test_a_bomb_may_be_played_in_place_of_the_led_suit() -> None:
    """Four identical clubs answer a spade tractor although the player holds a spade."""
    lead = "AS AS KS KS"
    assert "9C 9C 9C 9C" not in legal(lead, "QS 9C 9C 9C 9C", Rules(decks=4), Trump.parse("2H"))
    follow = legal(lead, "QS 9C 9C 9C 9C", BOMBS_4, Trump.parse("2H"))
    assert "9C 9C 9C 9C" in follow
    assert follow.describe() == ("play all your spades (QS) and any 3 other cards, or a bomb "
                                 "of 4 identical cards")
    assert plays(follow) == cards("QS 9C 9C 9C", "9C 9C 9C 9C")
    assert follow.forced == tuple(parse_cards("9C 9C 9C"))  # not the spade: the bomb lacks it


def test_a_bomb_beats_a_trump_ruff_and_bombs_compare_by_rank() -> None:
    trick = bomb_trick(BOMBS_4, [("AS AS KS KS", "AS AS KS KS"), ("QS 9C 9C 9C 9C", "9C 9C 9C 9C"),
                                 ("3H 3H 4H 4H", "3H 3H 4H 4H"), ("3S 7D 7D 7D 7D", "7D 7D 7D 7D")])
    assert trick.winner == 1  # 9C 9C 9C 9C: above the trump tractor and the lower bomb
    trick = bomb_trick(BOMBS_4, [("AS AS KS KS", "AS AS KS KS"), ("QS 9C 9C 9C 9C", "9C 9C 9C 9C"),
                                 ("3H 3H 3H 3H", "3H 3H 3H 3H"), ("3S 7D 7D 7D", "3S 7D 7D 7D")])
    assert trick.winner == 2  # a trump bomb over a plain-suit bomb
    without = bomb_trick(Rules(decks=4), [
        ("AS AS KS KS", "AS AS KS KS"), ("QS 9C 9C 9C 9C", "QS 9C 9C 9C"),
        ("3H 3H 4H 4H", "3H 3H 4H 4H"), ("3S 7D 7D 7D 7D", "3S 7D 7D 7D")])
    assert without.winner == 2  # no bombs: the trump tractor wins


def test_bomb_follow_suit_keeps_a_bomb_of_another_suit_for_a_void_player() -> None:
    rules = BOMBS_4.replace(bomb_follow_suit=True)
    assert "9C 9C 9C 9C" not in legal("AS AS KS KS", "QS 9C 9C 9C 9C", rules, Trump.parse("2H"))
    assert "9C 9C 9C 9C" in legal("AS AS KS KS", "9C 9C 9C 9C 3D", rules, Trump.parse("2H"))
    # of the led suit, a bomb overrides the tractor obligation
    follow = legal("AS AS KS KS", "9S 9S 9S 9S 4S 4S 3S 3S", rules, Trump.parse("2H"))
    assert "9S 9S 9S 9S" in follow and follow.reason("9S 9S 4S 3S") is not None


# -- rainbow leads --------------------------------------------------------------------------

RAINBOW = Rules(rainbow=4)
TWO_S = Trump.parse("2S")


def test_a_rainbow_may_be_led_only_with_the_option() -> None:
    """7♠ (a trump: spades are trumps) 7♥ 7♣ 7♦: one rank in four effective suits."""
    with pytest.raises(PlayError, match="all of one suit"):
        Lead.from_cards("7S 7H 7C 7D", TWO_S, Rules())
    lead = Lead.from_cards("7S 7H 7C 7D", TWO_S, RAINBOW)
    assert lead.rainbow and not lead.is_throw and lead.describe() == "rainbow of 4"
    with pytest.raises(PlayError):  # three suits are not enough
        Lead.from_cards("7H 7C 7D", TWO_S, RAINBOW)
    trumps = Lead.from_cards("2S 2H 2C 2D", TWO_S, RAINBOW)  # the trump rank: one suit
    assert not trumps.rainbow and trumps.is_throw


def test_a_follower_holding_a_rainbow_must_answer_with_one() -> None:
    lead = Lead.from_cards("7S 7H 7C 7D", TWO_S, RAINBOW)
    follow = LegalPlays(Hand("9S 9H 9C 9D 3C AH"), lead, TWO_S, RAINBOW)
    assert plays(follow) == cards("9S 9H 9C 9D")
    assert follow.reason("9S 9H 9C 3C") == (
        "you hold a rainbow (9S 9H 9D 9C): a rainbow led must be answered by a rainbow of 4")
    assert LegalPlays(Hand("AS AH AC 3D 4D"), lead, TWO_S, RAINBOW).reason("AS AH 4D 3D") is None


def test_the_highest_rainbow_wins() -> None:
    hands = [Hand("7S 7H 7C 7D"), Hand("9S 9H 9C 9D"), Hand("AS AH AC 3D"), Hand("8S 8H 8C 8D")]
    trick = Trick(TWO_S, RAINBOW, leader=0)
    trick.play("7S 7H 7C 7D", hands[0], hands=hands)
    for seat in (1, 2, 3):
        trick.play(hands[seat].cards(), hands[seat])
    assert trick.winner == 1  # 9s over 7s and 8s; the aces are no rainbow
