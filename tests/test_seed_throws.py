"""The seeds' worked examples of throws (甩牌): when one stands, and what a failed one becomes.

Each test quotes the seed sentence it checks (files in ``/work/shared/seeds/``). "Cards
previously played" are simply in nobody's hand: the check only sees the hands passed.
"""

import pytest

from shengji.engine import (
    FailedThrow,
    Hand,
    Lead,
    PlayError,
    Rules,
    ThrowOutcome,
    Trick,
    Trump,
    check_throw,
    format_cards,
)

JACKS_AND_CLUBS = Trump.parse("JC")
THREE_DECKS = Rules(decks=3)


def throw(cards: str, others: list[str], rules: Rules = THREE_DECKS,
          trump: Trump = JACKS_AND_CLUBS) -> ThrowOutcome:
    """Check the throw ``cards`` against the other players' hands (seats 1, 2, ...)."""
    lead = Lead.from_cards(cards, trump, rules)
    assert lead.is_throw
    hands = {seat: Hand(hand) for seat, hand in enumerate(others, start=1)}
    return check_throw(lead, hands, trump, rules)


def played_instead(outcome: ThrowOutcome) -> str:
    return format_cards(outcome.lead.cards)


# -- wikipedia_2006_bashi_fen's three-deck table -----------------------------------------
# "For example, when jacks and clubs are trump in a three-deck game... the following
# combinations may be played as one trick... if the following cards have previously been
# played"


def test_2006_table_ace_and_triple_kings_with_nothing_played() -> None:
    """Row 1: "A♠-K♠-K♠-K♠ | None; both the ace and the triple are already unbeatable within
    the suit, since the ace is in the same player's hand" -- even if one player holds both
    other aces and every other spade is out, nothing beats a unit."""
    outcome = throw("AS KS KS KS", ["AS AS QS QS QS 10S", "QS QS 9S 9S 9S", "8S 8S 8S"])
    assert outcome.valid
    assert played_instead(outcome) == "AS KS KS KS"


def test_2006_table_triple_kings_needs_the_ace_in_hand() -> None:
    """Row 1, by contrast: "since the ace is in the same player's hand" -- without it, three
    aces elsewhere beat the triple of kings."""
    outcome = throw("KS KS KS QS", ["AS AS AS"])
    assert not outcome.valid
    assert {format_cards(block.unit.cards) for block in outcome.blocks} == {"KS KS KS", "QS"}


def test_2006_table_ace_and_pair_of_kings_after_one_ace() -> None:
    """Row 2: "A♠-K♠-K♠ | One A♠, making the kings unbeatable" -- the last A♠ is a single."""
    outcome = throw("AS KS KS", ["AS QS QS", "QS 9S 9S"])
    assert outcome.valid


def test_2006_table_ace_and_pair_of_kings_fails_with_nothing_played() -> None:
    """Row 2: with no A♠ played, another player may hold a pair of A♠ and beat the kings; the
    throw fails and the pair of kings is played (wikipedia_sheng_ji: "take back the cards that
    are the largest in the suit, and play any of the single/double/tractor cards that may be
    bested")."""
    outcome = throw("AS KS KS", ["QS", "AS AS"])
    assert not outcome.valid
    assert [block.seat for block in outcome.blocks] == [2]
    assert played_instead(outcome) == "KS KS"
    assert format_cards(outcome.returned) == "AS"


def test_2006_table_kings_queen_tens_after_five_cards() -> None:
    """Row 3: "K♠-K♠-Q♠-10♠-10♠ | Three A♠ and one K♠ (to make the single queen unbeatable),
    and one Q♠ (to make the double tens unbeatable; jacks are trump and therefore don't
    matter)" -- the others may still hold the last Q♠, and even all three J♠."""
    outcome = throw("KS KS QS 10S 10S", ["QS 9S 9S 9S", "JS JS JS 8S 8S", "10S 2S 2S"])
    assert outcome.valid


@pytest.mark.parametrize("holder, beaten, instead", [
    ("AS", "QS", "QS"),         # an A♠ still out beats the single queen
    ("KS", "QS", "QS"),         # so does the third K♠
    ("QS QS", "10S 10S", "10S 10S"),  # both other Q♠ beat the tens
    ("AS AS", "KS KS", "10S 10S"),  # a pair of aces beats both pairs (and the queen)
])
def test_2006_table_kings_queen_tens_fails(holder: str, beaten: str, instead: str) -> None:
    """Row 3: each card the table says must have been played makes the throw fail when it is
    in another hand instead; the lowest beatable unit is played."""
    outcome = throw("KS KS QS 10S 10S", ["9S 9S", holder])
    assert not outcome.valid
    assert beaten in {format_cards(block.unit.cards) for block in outcome.blocks}
    assert played_instead(outcome) == instead


def test_2006_trump_rank_cards_do_not_block_a_plain_throw() -> None:
    """Row 3: "jacks are trump and therefore don't matter" -- J♠ is no spade, so J♠ J♠ does
    not beat 10♠ 10♠, while with 7♣ trump the same two jacks would."""
    assert throw("KS KS QS 10S 10S", ["JS JS"]).valid
    seven = Trump.parse("7C")
    outcome = throw("AS KS KS QS 10S 10S", ["JS JS"], trump=seven)
    assert not outcome.valid
    assert played_instead(outcome) == "10S 10S"


def test_2006_throw_rule_2_variant_equal_cards_block_and_no_mixing() -> None:
    """wikipedia_2006_bashi_fen: "A player may lead, as one play, any number of n-tuples or
    singles of one suit as long as all other cards of the suit that are equal or higher have
    been played. However, he may not lead mixed plays, for example a single and a double."
    (``throw_blocked_by_equal=True, throw_mixed=False``)."""
    strict = Rules(decks=2, throw_blocked_by_equal=True, throw_mixed=False)
    assert throw("AS KS", ["KS"], Rules(decks=2)).valid  # an equal K♠ beats nothing
    assert not throw("AS KS", ["KS"], strict).valid
    assert throw("AS KS", ["QS QS"], strict).valid
    with pytest.raises(PlayError, match="mixed"):
        Lead.from_cards("AS KS KS", JACKS_AND_CLUBS, strict)


# -- wikipedia_sheng_ji ------------------------------------------------------------------


def test_wikipedia_failed_throw_in_a_trick() -> None:
    """wikipedia_sheng_ji, Multiple cards combination: "A player may lead with a combination of
    multiple cards (甩牌) if they have them, provided that each of the singles or doubles played
    are the largest in the suit and no other player has larger combinations in that round. ...
    If any card(s) in the combination may be bested by another player in the suit lead, they
    will be asked, by that player, to take back the cards that are the largest in the suit, and
    play any of the single/double/tractor cards that may be bested as penalty."
    """
    trump, rules = Trump.parse("7C"), Rules()
    hands = {0: Hand("AS QS QS 3D"), 1: Hand("KS KS 4S"), 2: Hand("2S"), 3: Hand("AD")}
    trick = Trick(trump, rules, leader=0)
    trick.play("AS QS QS", hands[0], hands=hands)
    assert trick.throw is not None and not trick.throw.valid
    assert trick.lead is not None and format_cards(trick.lead.cards) == "QS QS"
    assert format_cards(trick.throw.returned) == "AS"
    assert format_cards(trick.plays[0].cards) == "QS QS"
    # ... and the same throw stands when the kings are split: no pair beats the queens
    hands[1], hands[2] = Hand("KS 4S"), Hand("KS 2S")
    trick = Trick(trump, rules, leader=0)
    trick.play("AS QS QS", hands[0], hands=hands)
    assert trick.throw is not None and trick.throw.valid


def test_wikipedia_partner_counts_for_the_throw_check() -> None:
    """wikipedia_sheng_ji: "provided that ... no other player has larger combinations in that
    round" -- the partner too (the default ``throw_check``); seat 2 is seat 0's partner."""
    trump, rules = Trump.parse("7C"), Rules()
    hands = {0: Hand("AS QS"), 1: Hand("2S"), 2: Hand("KS"), 3: Hand("3S")}
    trick = Trick(trump, rules, leader=0)
    trick.play("AS QS", hands[0], hands=hands)
    assert trick.throw is not None and not trick.throw.valid
    assert [block.seat for block in trick.throw.blocks] == [2]


# -- da_bai_fen_rules --------------------------------------------------------------------


@pytest.mark.parametrize("holder", [1, 2, 3])
def test_da_bai_fen_group_lead_loses_the_round(holder: int) -> None:
    """da_bai_fen_rules: "When leading a player may lead a single card or a group of cards of
    the same suit, but when leading a group of cards, no player, including your partner, may
    hold a card of a higher rank of the same suit as any of the cards in your group. If they do
    the round is lost by you and the opposing team scores max." (seat 2 is the partner)"""
    trump = Trump.parse("2H")
    rules = Rules(decks=1, failed_throw=FailedThrow.LOSE_ROUND)
    others = ["3S", "4S", "6S"]
    others[holder - 1] += " KS"
    outcome = throw("AS QS", others, rules, trump)
    assert not outcome.valid
    assert outcome.round_lost
    assert [block.seat for block in outcome.blocks] == [holder]


def test_da_bai_fen_group_lead_stands() -> None:
    """da_bai_fen_rules: the group stands when no other player holds a higher card of the suit
    than any card of the group (J♠ is below Q♠; the trump 2♠ is no spade)."""
    trump = Trump.parse("2H")
    rules = Rules(decks=1, failed_throw=FailedThrow.LOSE_ROUND)
    outcome = throw("AS KS QS", ["JS 3S", "2S 10S", "9S"], rules, trump)
    assert outcome.valid
    assert not outcome.round_lost
