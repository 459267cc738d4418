"""Bidding for trump: the seeds' worked examples and every bidding option.

Pure bid rules are checked on :class:`Bidding`; everything that involves the deal, the
dealer, the kitty or a redeal drives a real :class:`Round` whose pack is stacked (see
``flow_helpers.stacked``) so that chosen seats hold chosen cards.

Seats: 0 = North, 1 = East (the next seat in turn order, an opponent), 2 = South
(North's partner), 3 = West.
"""

from __future__ import annotations

from random import Random
from typing import ClassVar

import pytest

from flow_helpers import deal, pass_round, stacked
from shengji.engine.bidding import Bidding, BidError, Declaration, takes_dealer
from shengji.engine.cards import Card, Rank, Suit, parse_cards
from shengji.engine.rules import Rules
from shengji.game.actions import (
    Bid,
    Bury,
    Declare,
    Draw,
    Pass,
    Play,
    Show,
    Withdraw,
    parse_action,
)
from shengji.game.legal import ActionError
from shengji.game.match import Match
from shengji.game.phase import Phase
from shengji.game.round import Round

NINES = [Rank.NINE] * 4
TEAMS = [0, 1, 0, 1]


def bidding(rules: Rules | None = None, ranks: list[Rank] | None = None) -> Bidding:
    return Bidding(rules or Rules(), ranks=ranks or NINES, teams=TEAMS)


def bid(seat: int, cards: str) -> Bid:
    return Bid(seat, parse_cards(cards))


def refused(b: Bidding, seat: int, cards: str, *words: str) -> str:
    why = b.reason(seat, cards)
    assert why is not None, f"{seat} {cards} should be refused"
    for word in words:
        assert word in why
    with pytest.raises(BidError):
        b.bid(seat, cards)
    return why


# -- the wikipedia example -----------------------------------------------------------

class TestWikipediaNineOfHearts:
    """Seed wikipedia: "Player North reveals a 9♥ to make hearts dominant, but Player East
    then reveals a pair of 9♣, overriding North's initial bid and making clubs the dominant
    suit. In order to prevent this, North may bid another 9♥, making a pair which takes
    precedence over East's override bid and secures the declaration of hearts."

    Our reading. The same article also says "Any new override bids must exceed prior
    bids", and a pair does not exceed a pair. Under the default rules (``Rules()``, no
    equal-size overrides) North's 9♥9♥ is therefore refused and clubs stand: the example
    is only possible with an equal-size override rule. ``bid_equal_override=True`` (a
    higher suit, ♠ > ♥ > ♣ > ♦, may override at equal size ≥ 2) expresses it: ♥ ranks
    above ♣, so North's pair takes precedence, exactly as the seed says. The option is a
    suit order, not "a reinforced earlier bid wins ties": North's 9♣9♣ against East's
    9♥9♥ would still be refused (no option makes the earlier bidder win ties). With three
    decks the seed's intent is also reached without the option by reinforcing to a triple.
    """

    def test_default_rules_refuse_the_pair(self) -> None:
        b = bidding()
        b.bid(0, "9H")
        b.bid(1, "9C 9C")
        refused(b, 0, "9H 9H", "does not beat 9C 9C")
        assert b.declaration == Declaration(Rank.NINE, Suit.CLUBS, 1)

    def test_equal_override_lets_the_heart_pair_take_precedence(self) -> None:
        b = bidding(Rules(bid_equal_override=True))
        b.bid(0, "9H")
        b.bid(1, "9C 9C")
        assert b.reason(0, "9H 9H") is None
        b.bid(0, "9H 9H")
        assert b.declaration == Declaration(Rank.NINE, Suit.HEARTS, 0)

    def test_equal_override_is_a_suit_order_not_a_tie_rule(self) -> None:
        b = bidding(Rules(bid_equal_override=True))
        b.bid(0, "9C")
        b.bid(1, "9H 9H")
        refused(b, 0, "9C 9C", "does not beat")

    def test_three_decks_north_reinforces_to_a_triple(self) -> None:
        b = bidding(Rules(decks=3))
        b.bid(0, "9H")
        b.bid(1, "9C 9C")
        refused(b, 0, "9H 9H")
        b.bid(0, "9H 9H 9H")
        assert b.declaration == Declaration(Rank.NINE, Suit.HEARTS, 0)
        refused(b, 1, "9C 9C 9C", "does not beat")    # equal count again

    @pytest.mark.parametrize("equal_override", [False, True])
    def test_in_a_real_deal(self, equal_override: bool) -> None:
        rules = Rules(bid_equal_override=equal_override)
        rnd = stacked(rules, {0: "9H 9H", 1: "9C 9C"}, dealer=0, levels=(9, 5, 9, 5))
        deal(rnd, leave=1)
        assert rnd.phase == Phase.DEAL
        assert {0, 1} <= set(rnd.actors())       # anyone holding a 9 may bid any time
        rnd.apply(bid(0, "9H"))
        rnd.apply(bid(1, "9C 9C"))
        if equal_override:
            rnd.apply(bid(0, "9H 9H"))
        else:
            with pytest.raises(ActionError, match="does not beat"):
                rnd.apply(bid(0, "9H 9H"))
        deal(rnd)
        pass_round(rnd)
        assert rnd.phase == Phase.KITTY and rnd.dealer == 0 and rnd.kitty_owner == 0
        assert rnd.trump is not None and rnd.trump.rank == Rank.NINE
        assert rnd.trump.suit == (Suit.HEARTS if equal_override else Suit.CLUBS)
        assert len(rnd.hands[0]) == rules.hand_size + rules.kitty_size


# -- reinforcing, partners, switching ------------------------------------------------

def test_reinforcing_own_bid() -> None:
    b = bidding()
    b.bid(0, "9H")
    b.bid(0, "9H 9H")                                  # reinforce: more copies
    assert b.winner is not None and b.winner.count == 2 and b.winner.seat == 0
    refused(b, 0, "9H 9H", "more than 2")
    off = bidding(Rules(bid_reinforce=False))
    off.bid(0, "9H")
    refused(off, 0, "9H 9H", "not allowed")


def test_not_a_partners_bid() -> None:
    b = bidding()
    b.bid(0, "9H")
    refused(b, 2, "9H 9H", "partner")                  # South may not reinforce North
    b.bid(2, "9S 9S")                                  # but may override with another suit
    assert b.declaration == Declaration(Rank.NINE, Suit.SPADES, 2)
    b.bid(1, "SJ SJ")
    refused(b, 3, "SJ SJ SJ", "only 2 copies")
    fluid = Bidding(Rules(players=4, partnership="fluid"), ranks=NINES)
    fluid.bid(0, "9H")
    fluid.bid(2, "9H 9H")                              # no partners in Finding Friends
    assert fluid.declaration == Declaration(Rank.NINE, Suit.HEARTS, 2)


def test_no_switching_suit_unless_allowed() -> None:
    rules = Rules(decks=3)
    b = bidding(rules)
    b.bid(0, "9H")
    b.bid(1, "9C 9C")
    refused(b, 0, "9S 9S 9S", "only reinforce")
    refused(b, 0, "SJ SJ SJ", "only reinforce")
    b.bid(0, "9H 9H 9H")                               # reinforcing is fine
    switch = bidding(rules.replace(bid_switch_suit=True))
    switch.bid(0, "9H")
    switch.bid(1, "9C 9C")
    switch.bid(0, "9S 9S 9S")
    assert switch.declaration == Declaration(Rank.NINE, Suit.SPADES, 0)


def test_bids_show_the_trump_rank_and_identical_cards() -> None:
    b = bidding()
    refused(b, 0, "8H", "trump rank (9)")
    refused(b, 0, "9H 9S", "identical")
    refused(b, 0, "9H 9H 9H", "only 2 copies")
    assert b.reason(0, "") is not None


# -- jokers --------------------------------------------------------------------------

def test_identical_jokers_bid_no_trump() -> None:
    b = bidding()
    refused(b, 0, "SJ", "at least 2")
    refused(b, 0, "SJ BJ", "identical")
    b.bid(0, "9H 9H")
    b.bid(1, "SJ SJ")                                  # equal count: jokers beat a suit
    assert b.declaration == Declaration(Rank.NINE, None, 1)
    refused(b, 2, "9S 9S", "does not beat")
    b.bid(2, "BJ BJ")                                  # big beats small
    refused(b, 3, "SJ SJ")
    assert b.declaration == Declaration(Rank.NINE, None, 2)


def test_suited_bids_never_beat_jokers_at_equal_count() -> None:
    b = bidding(Rules(bid_equal_override=True))
    b.bid(1, "SJ SJ")
    refused(b, 0, "9S 9S", "does not beat")            # not even the highest suit
    three = bidding(Rules(decks=3))
    three.bid(1, "BJ BJ")
    three.bid(0, "9D 9D 9D")                           # more cards still beat fewer
    assert three.declaration == Declaration(Rank.NINE, Suit.DIAMONDS, 0)


def test_joker_bids_as_many_as_decks_or_off() -> None:
    decks = bidding(Rules(decks=3, joker_bids="decks"))
    refused(decks, 0, "SJ SJ", "at least 3")
    decks.bid(0, "SJ SJ SJ")
    assert decks.declaration == Declaration(Rank.NINE, None, 0)
    off = bidding(Rules(joker_bids="off"))
    refused(off, 0, "BJ BJ", "cannot be bid")


def test_joker_bid_in_a_round_gives_a_no_trump_round() -> None:
    rnd = stacked(Rules(), {3: "BJ BJ"}, dealer=0, levels=(9, 5, 9, 5))
    deal(rnd, leave=1)
    rnd.apply(bid(3, "BJ BJ"))
    deal(rnd)
    pass_round(rnd)
    assert rnd.trump is not None and rnd.trump.rank == Rank.NINE and rnd.trump.suit is None
    assert rnd.dealer == 0                             # later rounds: the dealer stays


# -- equal-size overrides, withdrawing ------------------------------------------------

def test_equal_override_suit_order() -> None:
    b = bidding(Rules(bid_equal_override=True))
    b.bid(0, "9D 9D")
    b.bid(1, "9C 9C")                                  # ♣ > ♦
    b.bid(2, "9H 9H")                                  # ♥ > ♣
    b.bid(3, "9S 9S")                                  # ♠ > ♥
    refused(b, 0, "9D 9D")
    single = bidding(Rules(bid_equal_override=True))
    single.bid(0, "9D")
    refused(single, 1, "9S", "does not beat")         # singles never override singles


def test_withdraw() -> None:
    b = bidding(Rules(bid_withdraw=True))
    b.bid(0, "9H")
    b.bid(1, "9C 9C")
    with pytest.raises(BidError, match="by its bidder"):
        b.withdraw(0)
    b.withdraw(1)
    assert b.declaration == Declaration(Rank.NINE, Suit.HEARTS, 0)
    with pytest.raises(BidError, match="may not be taken back"):
        bidding().withdraw(0)


def test_withdraw_in_a_round_but_not_after_the_kitty() -> None:
    rules = Rules(bid_withdraw=True, kitty_overbid=True)
    rnd = stacked(rules, {0: "9S", 1: "9H"}, dealer=0, levels=(9, 5, 9, 5))
    deal(rnd, leave=1)
    with pytest.raises(ActionError):
        rnd.apply(Withdraw(1))                         # nothing to take back
    rnd.apply(bid(0, "9S"))
    rnd.apply(Withdraw(0))
    assert rnd.bidding.winner is None
    rnd.apply(bid(1, "9H"))
    deal(rnd)
    pass_round(rnd)
    assert rnd.trump is not None and rnd.trump.suit == Suit.HEARTS
    rnd.apply(Bury(0, tuple(rnd.hands[0].cards()[:8])))
    assert rnd.phase == Phase.OVERBID and rnd.to_move == 1
    # taking the standing bid back now would leave the trump without a bid behind it
    assert "after the kitty" in (rnd.legal(1).reason(Withdraw(1)) or "")
    assert Withdraw(1) not in list(rnd.legal(1))


# -- Finding Friends overbids (seed wikipedia_2006 rules 1-4) -------------------------

FLUID_RANKS = [Rank.THREE, Rank.FIVE, Rank.SEVEN, Rank.NINE, Rank.THREE]


def fluid(*overbids: str, **options: object) -> Bidding:
    rules = Rules(players=5, partnership="fluid", fluid_overbid=overbids, **options)
    return Bidding(rules, ranks=FLUID_RANKS)


def test_fluid_first_bid_uses_own_rank() -> None:
    b = fluid("own-rank")
    refused(b, 1, "3H", "your trump rank (5)")
    b.bid(1, "5H")
    assert b.declaration == Declaration(Rank.FIVE, Suit.HEARTS, 1)


def test_fluid_rule_1_own_rank() -> None:
    b = fluid("own-rank")
    b.bid(0, "3H")
    b.bid(1, "5S 5S")                                  # more cards of one's own rank
    assert b.declaration == Declaration(Rank.FIVE, Suit.SPADES, 1)
    refused(b, 2, "5C 5C", "own rank (7)")             # not the trumpmaker's rank
    refused(b, 2, "SJ SJ", "own rank")                 # no joker overbids


def test_fluid_rule_2_maker_rank() -> None:
    b = fluid("maker-rank")
    b.bid(0, "3H")
    refused(b, 2, "7C 7C", "trumpmaker's rank (3)")
    b.bid(2, "3C 3C")                                  # suit changes, maker stays
    assert b.declaration == Declaration(Rank.THREE, Suit.CLUBS, 0)


def test_fluid_rule_3_jokers_rank() -> None:
    b = fluid("jokers-rank")
    b.bid(0, "3H 3H")
    b.bid(3, "SJ SJ")                                  # equal count, at least two
    assert b.declaration == Declaration(Rank.THREE, None, 0)


def test_fluid_rule_4_jokers_only() -> None:
    b = fluid("jokers-only")
    b.bid(0, "3H")
    b.bid(3, "BJ BJ")
    assert b.declaration == Declaration(None, None, 3)  # no rank, only jokers trump
    first = fluid("jokers-only")
    first.bid(2, "SJ SJ")
    assert first.declaration == Declaration(None, None, 2)


def test_fluid_rules_3_and_4_together_rule_3_wins() -> None:
    b = fluid("jokers-rank", "jokers-only")
    b.bid(0, "3H")
    b.bid(3, "SJ SJ")
    assert b.declaration == Declaration(Rank.THREE, None, 0)


def test_fluid_no_overbids_at_all() -> None:
    b = fluid()
    b.bid(0, "3H")
    refused(b, 1, "5S 5S", "cannot be changed")


def test_fluid_maker_rank_in_a_round_keeps_the_maker_as_dealer() -> None:
    rules = Rules(players=5, partnership="fluid", fluid_overbid=("maker-rank",))
    rnd = stacked(rules, {0: "3H", 2: "3C 3C"}, dealer=4, levels=(3, 5, 7, 9, 3))
    deal(rnd, leave=1)
    rnd.apply(bid(0, "3H"))
    rnd.apply(bid(2, "3C 3C"))
    deal(rnd)
    pass_round(rnd)
    assert rnd.dealer == 0 and rnd.kitty_owner == 0    # the trumpmaker deals
    assert rnd.trump is not None and (rnd.trump.rank, rnd.trump.suit) == (Rank.THREE,
                                                                          Suit.CLUBS)


def test_fluid_not_lost_bidders() -> None:
    b = fluid("own-rank")
    b.eligible = frozenset({0, 2, 3})
    refused(b, 1, "5H", "lost the previous one")
    b.bid(0, "3H")
    rules = Rules(players=5, partnership="fluid", fluid_bidders="not-lost", end_rank="5")
    match = Match(rules, seed=4)
    rng = Random(4)
    while not match.results or match.results[-1].redeal:
        seat = match.to_move
        assert seat is not None
        match.apply(match.legal(seat).random(rng))
    result = match.results[-1]
    losers = result.opponents if result.declarers_won else result.declarers
    assert match.round.bidding.eligible == frozenset(set(range(5)) - set(losers))
    for seat in losers:
        assert "lost the previous one" in (match.round.bidding.reason(seat, "2H") or "")
    every = Match(rules.replace(fluid_bidders="all"), seed=4)
    assert every.round.bidding.eligible == frozenset(range(5))


# -- the first round's dealer ---------------------------------------------------------

def test_first_bidder_becomes_dealer_at_once() -> None:
    rnd = stacked(Rules(), {2: "2S", 3: "2H 2H"}, dealer=None)
    deal(rnd, leave=1)
    assert rnd.dealer is None
    rnd.apply(bid(2, "2S"))
    assert rnd.dealer == 2                             # instantly
    rnd.apply(bid(3, "2H 2H"))                         # overrides the suit, not the dealer
    deal(rnd)
    pass_round(rnd)
    assert (rnd.dealer, rnd.kitty_owner) == (2, 2)
    assert rnd.trump is not None and rnd.trump.suit == Suit.HEARTS
    assert rnd.declarers == (0, 2)


def test_first_pair_becomes_dealer() -> None:
    rnd = stacked(Rules(first_dealer="first-pair"), {2: "2S", 3: "2H 2H"}, dealer=None)
    deal(rnd, leave=1)
    rnd.apply(bid(2, "2S"))
    assert rnd.dealer is None                          # a single does not decide
    rnd.apply(bid(3, "2H 2H"))
    assert rnd.dealer == 3
    singles = stacked(Rules(first_dealer="first-pair"), {1: "2S"}, dealer=None)
    deal(singles, leave=1)
    singles.apply(bid(1, "2S"))
    deal(singles)
    pass_round(singles)
    assert singles.dealer == 1                         # nobody showed a pair: the winner


def test_first_joker_pair_becomes_dealer() -> None:
    rules = Rules(first_dealer="first-joker-pair")
    rnd = stacked(rules, {1: "SJ SJ", 3: "2H 2H"}, dealer=None)
    deal(rnd, leave=1)
    rnd.apply(bid(3, "2H 2H"))
    assert rnd.dealer is None
    rnd.apply(bid(1, "SJ SJ"))
    assert rnd.dealer == 1
    deal(rnd)
    pass_round(rnd)
    assert rnd.trump is not None and rnd.trump.suit is None and rnd.dealer == 1


@pytest.mark.parametrize(("how", "taken_by"), [
    ("first-bidder", {"2S", "2S 2S", "SJ SJ"}), ("first-pair", {"2S 2S", "SJ SJ"}),
    ("first-joker-pair", {"SJ SJ"}), ("random", set())])
def test_which_bids_take_the_first_rounds_dealership(how: str, taken_by: set[str]) -> None:
    rules = Rules(first_dealer=how)
    for shown in ("2S", "2S 2S", "SJ SJ"):
        assert takes_dealer(rules, parse_cards(shown)) == (shown in taken_by)


def test_random_first_dealer_is_fixed_before_the_deal() -> None:
    dealers = set()
    for seed in range(12):
        rnd = Round(Rules(first_dealer="random"), seed=seed)
        assert rnd.dealer is not None
        dealers.add(rnd.dealer)
    assert len(dealers) > 1
    rnd = stacked(Rules(first_dealer="random"), {0: "2S", 1: "2H", 2: "2C", 3: "2D"},
                  dealer=None, seed=3)
    chosen = rnd.dealer
    assert chosen is not None
    deal(rnd, leave=1)
    other = (chosen + 1) % 4
    rnd.apply(bid(other, ["2S", "2H", "2C", "2D"][other]))
    assert rnd.dealer == chosen


def test_nobody_bids_in_the_first_round() -> None:
    rnd = stacked(Rules(), {}, kitty="2D", dealer=None)
    deal(rnd)
    pass_round(rnd)
    assert rnd.dealer == rnd.first_drawer
    assert rnd.trump is not None and rnd.trump.suit == Suit.DIAMONDS


def test_first_round_starts_over_after_a_no_bid_redeal() -> None:
    """Seed wikipedia_2006: with nobody bidding "the deck is reshuffled and the game starts
    over": the new deal is still the first round, so the bidding decides the dealer."""
    match = Match(Rules(no_bid="redeal"), seed=1)
    assert match.round.dealer is None
    while match.round.phase == Phase.DEAL:
        match.apply(Draw(match.round.drawer))
    while not match.results:
        seat = match.to_move
        assert seat is not None
        match.apply(Pass(seat))
    assert match.results[0].redeal
    assert match.round.dealer is None and match.round.phase == Phase.DEAL


# -- nobody bid: the kitty decides -----------------------------------------------------

def no_bid_round(rules: Rules, kitty: str, level: int = 9) -> Round:
    rnd = stacked(rules, {}, kitty=kitty, dealer=0, levels=(level, 5, level, 5))
    deal(rnd)
    pass_round(rnd)
    return rnd


def test_kitty_rank_turns_until_a_trump_rank_card() -> None:
    rnd = no_bid_round(Rules(), "4C BJ 9S 9H 3D 5D 6D 7D")
    assert rnd.kitty_turned == parse_cards("4C BJ 9S")
    assert rnd.trump is not None and (rnd.trump.rank, rnd.trump.suit) == (Rank.NINE,
                                                                          Suit.SPADES)
    assert rnd.phase == Phase.KITTY and rnd.kitty_owner == 0


def test_kitty_rank_else_the_highest_card_first_of_equals() -> None:
    rnd = no_bid_round(Rules(), "3C KD BJ 5H KS 4C 6D QH")
    assert len(rnd.kitty_turned) == 8
    assert rnd.trump is not None and rnd.trump.suit == Suit.DIAMONDS   # the first king
    jokers = no_bid_round(Rules(), "BJ SJ BJ SJ 3C 4C 5C 6H")
    assert jokers.trump is not None and jokers.trump.suit == Suit.HEARTS   # 6♥ > 5♣


def test_kitty_first_card() -> None:
    rules = Rules(no_bid="kitty-first")
    rnd = no_bid_round(rules, "7H 9S")
    assert rnd.kitty_turned == parse_cards("7H")
    assert rnd.trump is not None and rnd.trump.suit == Suit.HEARTS
    nxt = no_bid_round(rules.replace(no_bid_joker="next"), "SJ BJ 7C")
    assert nxt.kitty_turned == parse_cards("SJ BJ 7C")
    assert nxt.trump is not None and nxt.trump.suit == Suit.CLUBS
    nt = no_bid_round(rules.replace(no_bid_joker="no-trump"), "SJ 7C")
    assert nt.trump is not None and nt.trump.suit is None and nt.trump.rank == Rank.NINE
    assert nt.phase == Phase.KITTY
    again = no_bid_round(rules.replace(no_bid_joker="redeal"), "BJ 7C")
    assert again.phase == Phase.DONE and again.result is not None and again.result.redeal
    assert again.result.next_dealer == 0 and again.result.levels == again.levels


def test_no_bid_redeal() -> None:
    rnd = no_bid_round(Rules(no_bid="redeal"), "9S")
    assert rnd.phase == Phase.DONE and rnd.result is not None and rnd.result.redeal
    assert rnd.result.next_dealer == 0
    assert "dealt again" in rnd.result.sheet()
    with pytest.raises(ActionError, match="over"):
        rnd.apply(Draw(0))


# -- who draws first ----------------------------------------------------------------

class ScriptedCount(Round):
    """A round whose count-off card is chosen by the test."""

    script: ClassVar[list[str]] = []

    def deck_card(self, index: int) -> Card:
        return Card(ScriptedCount.script.pop(0))


@pytest.mark.parametrize(("turned", "first"), [
    (["AS"], 1),                  # A counts one: the dealer himself
    (["2C"], 2),
    (["10D"], 2),                 # 1 + 9 steps, 4 seats
    (["JH"], 3),                  # J = 11
    (["QH"], 0),                  # Q = 12
    (["KH"], 1),                  # K = 13
    (["SJ", "BJ", "3S"], 3),      # jokers: turn another card
])
def test_first_draw_count(turned: list[str], first: int) -> None:
    ScriptedCount.script = list(turned)
    rnd = ScriptedCount(Rules(first_draw="count"), seed=0, dealer=1)
    assert ScriptedCount.script == []
    assert rnd.first_drawer == first and rnd.to_move == first
    with pytest.raises(ActionError, match="turn to draw"):
        rnd.apply(Draw((first + 1) % 4))
    rnd.apply(Draw(first))
    assert len(rnd.hands[first]) == 1


def test_first_draw_dealer_and_next() -> None:
    assert Round(Rules(), seed=1, dealer=2).first_drawer == 2
    assert Round(Rules(first_draw="next"), seed=1, dealer=2).first_drawer == 3
    assert Round(Rules(first_draw="next", players=6, decks=3), seed=1, dealer=5).first_drawer == 0
    drawers = {Round(Rules(), seed=s).first_drawer for s in range(12)}
    assert len(drawers) > 1                       # first round: a random seat (a cut)


# -- chao di pi: bidding after the kitty ------------------------------------------------

@pytest.mark.parametrize("takes_dealer", [False, True])
def test_kitty_overbid(takes_dealer: bool) -> None:
    rules = Rules(kitty_overbid=True, kitty_overbid_takes_dealer=takes_dealer)
    rnd = stacked(rules, {0: "9S", 1: "9H 9H", 2: "9S"}, dealer=0, levels=(9, 5, 9, 5))
    deal(rnd, leave=1)
    rnd.apply(bid(0, "9S"))
    deal(rnd)
    pass_round(rnd)
    first_bury = tuple(rnd.hands[0].cards()[:8])
    rnd.apply(Bury(0, first_bury))
    assert rnd.phase == Phase.OVERBID and rnd.to_move == 1
    with pytest.raises(ActionError):
        rnd.apply(bid(1, "9H"))                     # a single does not beat a single
    rnd.apply(bid(1, "9H 9H"))
    assert rnd.phase == Phase.KITTY and rnd.kitty_owner == 1
    assert rnd.hands[1].holds(first_bury) and len(rnd.hands[1]) == 33
    assert rnd.trump is not None and rnd.trump.suit == Suit.HEARTS
    assert rnd.dealer == (1 if takes_dealer else 0)
    assert rnd.view(1).kitty == first_bury and rnd.view(0).kitty is None
    second = tuple(rnd.hands[1].cards()[-8:])
    rnd.apply(Bury(1, second))
    assert rnd.phase == Phase.OVERBID and rnd.to_move == 2
    with pytest.raises(ActionError, match="does not beat"):
        rnd.apply(bid(2, "9S"))
    for seat in (2, 3, 0):                          # the kitty owner is skipped
        assert rnd.to_move == seat
        rnd.apply(Pass(seat))
    assert rnd.phase == Phase.PLAY and rnd.kitty == second
    assert rnd.to_move == rnd.dealer
    assert rnd.declarers == ((1, 3) if takes_dealer else (0, 2))


def test_no_kitty_overbid_by_default() -> None:
    rnd = stacked(Rules(), {0: "9S"}, dealer=0, levels=(9, 5, 9, 5))
    deal(rnd)
    pass_round(rnd)
    rnd.apply(Bury(0, tuple(rnd.hands[0].cards()[:8])))
    assert rnd.phase == Phase.PLAY


# -- redeals on a shown hand --------------------------------------------------------

NO_TRUMP_HAND = ("2C 2C 3C 3C 4C 4C 5C 5C 6C 6C 7C 7C 8C 8C 10C 10C JC JC QC QC KC KC "
                 "AC AC 2D")
NO_POINT_HAND = ("2C 2C 3C 3C 4C 4C 6C 6C 7C 7C 8C 8C 9C 9C JC JC QC QC AC AC "
                 "2D 2D 3D 3D 4D")


@pytest.mark.parametrize(("show", "hand"), [("no-trumps", NO_TRUMP_HAND),
                                             ("no-points", NO_POINT_HAND)])
@pytest.mark.parametrize("partner_deals", [False, True])
def test_redeal_show(show: str, hand: str, partner_deals: bool) -> None:
    rules = Rules(redeal_show=show, redeal_dealer_partner=partner_deals)
    rnd = stacked(rules, {0: "9S", 1: hand}, dealer=0, levels=(9, 5, 9, 5))
    deal(rnd, leave=1)
    rnd.apply(bid(0, "9S"))
    deal(rnd)
    pass_round(rnd)
    rnd.apply(Bury(0, tuple(c for c in rnd.hands[0].cards() if c != Card("9S"))[:8]))
    assert rnd.phase == Phase.SHOW and rnd.show_queue == (1,) and rnd.to_move == 1
    assert set(rnd.legal(1)) == {Show(1), Pass(1)}
    with pytest.raises(ActionError):
        rnd.apply(Show(2))                          # a hand with trumps cannot be shown
    declined = rnd.copy()
    rnd.apply(Show(1))
    result = rnd.result
    assert rnd.phase == Phase.DONE and result is not None and result.redeal
    assert result.levels == result.levels_before
    assert result.next_dealer == (2 if partner_deals else 0)
    declined.apply(Pass(1))
    assert declined.phase == Phase.PLAY
    # without the option nobody may show
    plain = stacked(Rules(), {0: "9S", 1: hand}, dealer=0, levels=(9, 5, 9, 5))
    deal(plain)
    pass_round(plain)
    plain.apply(Bury(0, tuple(plain.hands[0].cards()[:8])))
    assert plain.phase == Phase.PLAY


def test_play_waits_for_the_show_phase() -> None:
    rules = Rules(redeal_show="no-trumps")
    rnd = stacked(rules, {0: "9S", 1: NO_TRUMP_HAND}, dealer=0, levels=(9, 5, 9, 5))
    deal(rnd)
    pass_round(rnd)
    rnd.apply(Bury(0, tuple(rnd.hands[0].cards()[:8])))
    assert rnd.phase == Phase.SHOW
    with pytest.raises(ActionError):
        rnd.apply(Play(0, (rnd.hands[0].cards()[0],)))


def test_the_dealer_names_trump_when_the_rules_say_so() -> None:
    """Seed hundred: nobody bids; after the deal the dealer names the trump suit (or
    no-trump), takes the kitty and buries."""
    rules = Rules(decks=1, trump_choice="dealer")
    rnd = Round(rules, seed=4, dealer=1)
    while rnd.phase == Phase.DEAL:
        seat = rnd.to_move
        assert seat is not None
        assert [type(a).__name__ for a in rnd.legal(seat)] == ["Draw"]  # no bids
        rnd.apply(next(iter(rnd.legal(seat))))
    assert rnd.phase == Phase.DECLARE and rnd.to_move == 1
    assert len(list(rnd.legal(1))) == 5  # four suits and no-trump
    with pytest.raises(ActionError):
        rnd.apply(parse_action("2 declare H"))
    rnd.apply(parse_action("1 declare h"))
    assert rnd.trump is not None and rnd.trump.suit == Suit.HEARTS
    assert rnd.phase == Phase.KITTY and rnd.kitty_owner == 1
    assert str(Declare(1, None)) == "1 declare NT" and parse_action("1 declare NT") == Declare(
        1, None)


def _overbid_position(rules: Rules) -> Round:
    """Seat 0 (level 9) deals and bids 9S; seats 1 and 2 hold 9H pairs; seat 0 has buried."""
    rnd = stacked(rules, {0: "9S", 1: "9H 9H", 2: "9D 9D", 3: "9C 9C"}, dealer=0,
                  levels=(9, 5, 9, 5))
    deal(rnd, leave=1)
    rnd.apply(bid(0, "9S"))
    deal(rnd)
    pass_round(rnd)
    rnd.apply(Bury(0, tuple(rnd.hands[0].cards()[:8])))
    return rnd


def test_only_the_opponents_may_take_the_kitty_when_the_rules_say_so() -> None:
    rnd = _overbid_position(Rules(kitty_overbid=True, kitty_overbid_by="opponents"))
    assert rnd.phase == Phase.OVERBID and rnd.to_move == 1
    rnd.apply(Pass(1))
    assert rnd.to_move == 3                          # seat 2, the holder's partner, is skipped
    with pytest.raises(ActionError):
        rnd.apply(bid(2, "9D 9D"))
    rnd.apply(bid(3, "9C 9C"))
    rnd.apply(Bury(3, tuple(rnd.hands[3].cards()[:8])))
    assert rnd.phase == Phase.OVERBID and rnd.to_move == 0  # now seat 3's opponents: 0, 2
    rnd.apply(Pass(0))
    assert rnd.to_move == 2
    rnd.apply(Pass(2))
    assert rnd.phase == Phase.PLAY


@pytest.mark.parametrize("limit", [1, 2])
def test_the_kitty_is_taken_at_most_limit_times(limit: int) -> None:
    rnd = _overbid_position(Rules(kitty_overbid=True, kitty_overbid_limit=limit))
    rnd.apply(bid(1, "9H 9H"))
    rnd.apply(Bury(1, tuple(rnd.hands[1].cards()[:8])))
    assert rnd.steals == 1
    if limit == 1:
        assert rnd.phase == Phase.PLAY               # no more bidding after the first take
        return
    assert rnd.phase == Phase.OVERBID and rnd.to_move == 2   # a second take is still allowed
    for seat in (2, 3, 0):
        rnd.apply(Pass(seat))
    assert rnd.phase == Phase.PLAY


# -- bidding again after being outbid (issue 11) ------------------------------------------

def test_an_outbid_player_may_bid_another_suit_or_jokers_when_the_rules_say_so() -> None:
    rules = Rules(decks=3)
    plain = bidding(rules)
    plain.bid(0, "9H")
    plain.bid(1, "9C 9C")
    refused(plain, 0, "SJ SJ SJ", "only reinforce")
    again = bidding(rules.replace(bid_after_outbid=True))
    again.bid(0, "9H")
    again.bid(1, "9C 9C")
    again.bid(0, "SJ SJ SJ")                           # outbid: jokers are allowed now
    assert again.declaration == Declaration(Rank.NINE, None, 0)
    standing = bidding(rules.replace(bid_after_outbid=True))
    standing.bid(0, "9H")
    standing.bid(0, "9H 9H")                           # reinforcing while winning: fine
    refused(standing, 0, "9S 9S 9S", "only reinforce")  # still winning: no switch


def test_reinforce_while_equivalent_takes_a_suited_bid_back() -> None:
    rules = Rules(decks=3, bid_reinforce_equal=True)
    b = bidding(rules)
    b.bid(0, "9H")
    b.bid(1, "9C 9C")
    b.bid(0, "9H 9H")                                  # equal count: the earlier bidder stands
    assert b.declaration == Declaration(Rank.NINE, Suit.HEARTS, 0)
    b.bid(1, "9C 9C 9C")                               # and a bigger bid beats it again
    assert b.declaration == Declaration(Rank.NINE, Suit.CLUBS, 1)
    jokers = bidding(rules)
    jokers.bid(0, "9H")
    jokers.bid(1, "SJ SJ")
    refused(jokers, 0, "9H 9H", "does not beat")       # not against a joker bid
    plain = bidding(Rules(decks=3))
    plain.bid(0, "9H")
    plain.bid(1, "9C 9C")
    refused(plain, 0, "9H 9H", "does not beat")
