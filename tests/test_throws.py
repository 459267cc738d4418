"""Throws (甩牌): when one stands, what a failed one becomes, and the options.

Jacks and hearts are trump (``JH``), so spades run A K Q 10 9 .. 2 (Q and 10 are
adjacent). Seat 0 leads; seat 2 is its partner, seats 1 and 3 its opponents.
"""

import pytest

from shengji.engine import (
    FailedThrow,
    Hand,
    Lead,
    PlayError,
    Rules,
    ThrowCheck,
    ThrowPenalty,
    Trick,
    Trump,
    check_throw,
    format_cards,
)
from shengji.game.presets import preset

JACK_HEARTS = Trump.parse("JH")
PARTNER = 2


def lead_throw(cards: str, others: dict[int, str], rules: Rules | None = None,
               trump: Trump = JACK_HEARTS) -> Trick:
    """Seat 0 leads ``cards``; ``others`` are the other seats' hands."""
    trick = Trick(trump, rules or Rules(), leader=0)
    hands = {0: Hand(cards), **{seat: Hand(hand) for seat, hand in others.items()}}
    trick.play(cards, hands[0], hands=hands, teammates=[PARTNER])
    return trick


def played(trick: Trick) -> str:
    assert trick.lead is not None
    return format_cards(trick.lead.cards)


# -- whether a throw stands --------------------------------------------------------------


def test_a_throw_stands_when_no_one_holds_a_higher_unit_of_the_same_shape() -> None:
    trick = lead_throw("AS QS QS", {1: "KS 3S", 2: "10S 10S", 3: "4C"})
    assert trick.throw is not None and trick.throw.valid
    assert played(trick) == "AS QS QS"
    assert trick.throw.explain() == "AS QS QS stands"


def test_a_higher_single_does_not_block_a_thrown_pair() -> None:
    """Blocks compare units of the same shape: K♠ is higher than Q♠ but not a pair."""
    trick = lead_throw("AS QS QS", {1: "KS", 3: "4C"})
    assert trick.throw is not None and trick.throw.valid


def test_a_void_players_trumps_never_make_a_throw_fail() -> None:
    trick = lead_throw("AS AS KS KS QS", {1: "BJ BJ SJ SJ 3H 3H", 2: "4C", 3: "5C"})
    assert trick.throw is not None and trick.throw.valid


def test_a_higher_pair_inside_a_triple_blocks_a_thrown_pair() -> None:
    """Seed wikipedia: with three decks "doubles are still subject to the rule of
    combinations": K♠K♠K♠ holds a higher pair than Q♠Q♠."""
    trick = lead_throw("AS QS QS", {1: "KS KS KS 3C", 2: "4C", 3: "5C"}, Rules(decks=3))
    assert trick.throw is not None and not trick.throw.valid
    assert played(trick) == "QS QS"


def test_a_throw_needs_the_other_hands() -> None:
    trick = Trick(JACK_HEARTS, Rules(), leader=0)
    with pytest.raises(PlayError, match="a throw needs the other hands to be checked"):
        trick.play("AS QS QS", Hand("AS QS QS"))
    assert trick.lead is None and trick.plays == []


def test_a_single_unit_always_stands() -> None:
    rules = Rules()
    lead = Lead.from_cards("QS QS", JACK_HEARTS, rules)
    outcome = check_throw(lead, {1: Hand("AS AS KS KS")}, JACK_HEARTS, rules)
    assert outcome.valid and outcome.lead == lead


def test_hands_may_be_passed_as_a_list_by_seat() -> None:
    trick = Trick(JACK_HEARTS, Rules(), leader=0)
    hands = [Hand("AS QS QS"), Hand("KS KS"), Hand("4C"), Hand("5C")]
    trick.play("AS QS QS", hands[0], hands=hands)
    assert trick.throw is not None and not trick.throw.valid
    assert trick.throw.blocks[0].seat == 1


# -- throw_check -------------------------------------------------------------------------


def test_check_all_lets_the_partner_make_a_throw_fail() -> None:
    trick = lead_throw("AS KS KS", {1: "QS QS", 2: "AS AS 3C", 3: "3S"},
                       Rules(throw_check=ThrowCheck.ALL))
    outcome = trick.throw
    assert outcome is not None and not outcome.valid
    assert [b.seat for b in outcome.blocks] == [PARTNER]
    assert str(outcome.blocks[0]) == "seat 2 holds AS AS (pair), higher than KS KS"


def test_check_opponents_ignores_the_partners_hand() -> None:
    trick = lead_throw("AS KS KS", {1: "QS QS", 2: "AS AS 3C", 3: "3S"},
                       Rules(throw_check=ThrowCheck.OPPONENTS))
    assert trick.throw is not None and trick.throw.valid
    assert played(trick) == "AS KS KS"


def test_check_opponents_still_checks_the_opponents() -> None:
    trick = lead_throw("AS KS KS", {1: "QS QS", 2: "3C", 3: "AS AS 3S"},
                       Rules(throw_check=ThrowCheck.OPPONENTS))
    assert trick.throw is not None and not trick.throw.valid
    assert [b.seat for b in trick.throw.blocks] == [3]


def test_check_none_lets_every_throw_stand() -> None:
    trick = lead_throw("AS KS KS", {1: "AS AS QS", 2: "AS AS 3C", 3: "3S"},
                       Rules(throw_check=ThrowCheck.NONE, failed_throw=FailedThrow.LOSE_ROUND))
    assert trick.throw is not None and trick.throw.valid and not trick.throw.round_lost
    assert played(trick) == "AS KS KS"


def test_the_hundreds_leader_may_lead_any_cards_of_one_suit() -> None:
    """Seed hundred: "the sender has the right to go either from one of his cards, or from
    several cards of the same suit"; the play is then beaten card by card."""
    rules = preset("hundred")
    assert rules.throw_check == ThrowCheck.NONE
    trick = Trick(Trump.parse("2H"), rules, leader=0)
    hands = {0: Hand("AS 3S"), 1: Hand("4S 9D"), 2: Hand("5C 6C"), 3: Hand("7D 8D")}
    trick.play("AS 3S", hands[0], hands=hands)
    assert trick.throw is not None and trick.throw.valid
    assert played(trick) == "AS 3S"
    for seat, cards in ((1, "4S 9D"), (2, "5C 6C"), (3, "7D 8D")):
        trick.play(cards, hands[seat])
    assert trick.winner == 0  # 4S 9D beats 3S, but nothing beats AS


# -- failed_throw ------------------------------------------------------------------------
# K♠ 4♠4♠ against A♠ 5♠5♠: both units fail; the pair is the lower and the larger unit,
# the single the smaller one.
# Q♠Q♠10♠10♠ 3♠ against A♠A♠K♠K♠ 4♠: both fail; the single is the lower and smaller unit,
# the tractor the larger one.

PAIR_AND_SINGLE = ("KS 4S 4S", {1: "AS 5S 5S", 2: "3C", 3: "3D"})
TRACTOR_AND_SINGLE = ("QS QS 10S 10S 3S", {1: "AS AS KS KS 4S", 2: "3C", 3: "3D"})


def test_a_failed_throw_plays_the_lowest_beatable_unit_by_default() -> None:
    assert Rules().failed_throw == FailedThrow.LOWEST
    trick = lead_throw(*PAIR_AND_SINGLE)
    assert played(trick) == "4S 4S"
    assert trick.throw is not None
    assert format_cards(trick.throw.returned) == "KS"
    assert played(lead_throw(*TRACTOR_AND_SINGLE)) == "3S"


def test_failed_throw_lowest_explains_the_blocks_and_the_forced_unit() -> None:
    trick = lead_throw(*PAIR_AND_SINGLE)
    assert trick.throw is not None
    assert trick.throw.explain() == (
        "seat 1 holds 5S 5S (pair), higher than 4S 4S; seat 1 holds AS (single), higher than"
        " KS; the throw failed: 4S 4S is played instead"
    )


def test_failed_throw_smallest_plays_the_unit_with_fewest_cards() -> None:
    rules = Rules(failed_throw=FailedThrow.SMALLEST)
    assert played(lead_throw(*PAIR_AND_SINGLE, rules)) == "KS"
    assert played(lead_throw(*TRACTOR_AND_SINGLE, rules)) == "3S"


def test_failed_throw_largest_plays_the_unit_with_most_cards() -> None:
    rules = Rules(failed_throw=FailedThrow.LARGEST)
    assert played(lead_throw(*PAIR_AND_SINGLE, rules)) == "4S 4S"
    assert played(lead_throw(*TRACTOR_AND_SINGLE, rules)) == "QS QS 10S 10S"


def test_failed_throw_lose_round_loses_the_round_for_the_thrower() -> None:
    """Seed da_bai_fen: "If they do the round is lost by you and the opposing team scores
    max." The whole throw stays on the table."""
    trick = lead_throw(*PAIR_AND_SINGLE, Rules(failed_throw=FailedThrow.LOSE_ROUND))
    outcome = trick.throw
    assert outcome is not None and outcome.round_lost
    assert played(trick) == "KS 4S 4S"
    assert outcome.returned == ()
    assert outcome.explain().endswith("the throw failed: the thrower's side loses the round")


def test_a_throw_that_stands_never_loses_the_round() -> None:
    trick = lead_throw("AS QS QS", {1: "3S"}, Rules(failed_throw=FailedThrow.LOSE_ROUND))
    assert trick.throw is not None and trick.throw.valid and not trick.throw.round_lost


# -- throw_penalty -----------------------------------------------------------------------


def test_no_penalty_by_default() -> None:
    trick = lead_throw(*PAIR_AND_SINGLE)
    assert trick.throw is not None and trick.throw.penalty == 0
    assert "penalty" not in trick.throw.explain()


def test_penalty_per_attempt_is_ten_points() -> None:
    trick = lead_throw(*PAIR_AND_SINGLE, Rules(throw_penalty=ThrowPenalty.PER_ATTEMPT))
    assert trick.throw is not None and trick.throw.penalty == 10
    assert trick.throw.explain().endswith("penalty: 10 points to the opponents")


def test_penalty_per_attempt_uses_throw_penalty_points() -> None:
    rules = Rules(throw_penalty=ThrowPenalty.PER_ATTEMPT, throw_penalty_points=5)
    trick = lead_throw(*TRACTOR_AND_SINGLE, rules)
    assert trick.throw is not None and trick.throw.penalty == 5


def test_penalty_per_card_counts_every_card_thrown() -> None:
    rules = Rules(throw_penalty=ThrowPenalty.PER_CARD)
    trick = lead_throw(*TRACTOR_AND_SINGLE, rules)  # 5 cards thrown
    assert trick.throw is not None and trick.throw.penalty == 50


def test_penalty_per_card_uses_throw_penalty_points() -> None:
    rules = Rules(throw_penalty=ThrowPenalty.PER_CARD, throw_penalty_points=5)
    trick = lead_throw(*PAIR_AND_SINGLE, rules)  # 3 cards thrown
    assert trick.throw is not None and trick.throw.penalty == 15


def test_a_throw_that_stands_has_no_penalty() -> None:
    trick = lead_throw("AS QS QS", {1: "3S"}, Rules(throw_penalty=ThrowPenalty.PER_CARD))
    assert trick.throw is not None and trick.throw.penalty == 0


# -- throw_blocked_by_equal --------------------------------------------------------------


def test_an_equal_unit_does_not_block_a_throw_by_default() -> None:
    trick = lead_throw("AS QS QS", {1: "AS 3S", 2: "4C", 3: "3D"})
    assert trick.throw is not None and trick.throw.valid


def test_throw_blocked_by_equal_lets_an_equal_unit_block() -> None:
    """Seed 2006, second rule: a card "higher than or equal to an element of the play"
    may be revealed."""
    trick = lead_throw("AS QS QS", {1: "AS 3S", 2: "4C", 3: "3D"},
                       Rules(throw_blocked_by_equal=True))
    outcome = trick.throw
    assert outcome is not None and not outcome.valid
    assert played(trick) == "AS"
    assert str(outcome.blocks[0]) == "seat 1 holds AS (single), as high as AS"


# with four decks another player can hold the same tractor K♠K♠Q♠Q♠
EQUAL_TRACTOR = ("AS KS KS QS QS", {1: "KS KS QS QS 3S", 2: "4C", 3: "3D"})


def test_a_tractor_throw_is_not_blocked_by_an_equal_tractor() -> None:
    trick = lead_throw(*EQUAL_TRACTOR, Rules(decks=4))
    assert trick.throw is not None and trick.throw.valid


def test_a_tractor_throw_is_blocked_by_an_equal_tractor_when_equal_blocks() -> None:
    trick = lead_throw(*EQUAL_TRACTOR, Rules(decks=4, throw_blocked_by_equal=True))
    outcome = trick.throw
    assert outcome is not None and not outcome.valid
    assert [str(b) for b in outcome.blocks] == [
        "seat 1 holds QS QS KS KS (tractor of 2 pairs), as high as QS QS KS KS"
    ]
    assert played(trick) == "KS KS QS QS"


# -- throw_mixed and throws --------------------------------------------------------------


def test_mixed_throws_are_allowed_by_default() -> None:
    trick = lead_throw("AS QS QS", {1: "3S"})
    assert trick.lead is not None and trick.lead.describe() == "throw of pair + single"


def test_throw_mixed_off_refuses_a_pair_with_a_single() -> None:
    """Seed 2006, second variation: "he may not lead mixed plays, for example a single and
    a double"."""
    trick = Trick(JACK_HEARTS, Rules(throw_mixed=False), leader=0)
    with pytest.raises(PlayError, match="mixed throws are not allowed: a throw must be units"
                                        " of one shape"):
        trick.play("AS QS QS", Hand("AS QS QS"), hands={0: Hand("AS QS QS")})
    assert trick.lead is None


def test_throw_mixed_off_still_allows_units_of_one_shape() -> None:
    rules = Rules(throw_mixed=False)
    assert lead_throw("AS QS", {1: "3S"}, rules).lead is not None
    trick = lead_throw("AS AS QS QS", {1: "3S"}, rules)
    assert trick.lead is not None and trick.lead.describe() == "throw of pair + pair"


def test_throws_off_refuses_several_units() -> None:
    trick = Trick(JACK_HEARTS, Rules(throws=False), leader=0)
    with pytest.raises(PlayError, match=r"throws \(several units at once\) are not allowed"):
        trick.play("AS QS", Hand("AS QS"), hands={0: Hand("AS QS")})
    assert trick.plays == []


def test_throws_off_still_allows_tractors() -> None:
    trick = Trick(JACK_HEARTS, Rules(throws=False), leader=0)
    trick.play("QS QS 10S 10S", Hand("QS QS 10S 10S"))
    assert trick.lead is not None and trick.lead.describe() == "tractor of 2 pairs"
