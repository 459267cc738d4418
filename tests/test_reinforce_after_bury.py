"""Reinforcing after the bury (``bid_reinforce_after_bury``): the kitty's holder may show
more copies of their own standing bid after burying, before the first lead, from the hand
as it is then; nobody else may bid in that window. With bidding after the kitty (炒地皮)
the others then have to beat the stronger bid.
"""

from __future__ import annotations

import pytest

from flow_helpers import deal, pass_round, stacked
from shengji.engine.bidding import Bidding
from shengji.engine.cards import Card, Rank
from shengji.engine.rules import Rules
from shengji.game.actions import Bid, Bury, Pass, parse_action
from shengji.game.legal import ActionError
from shengji.game.match import Match
from shengji.game.phase import Phase
from shengji.game.record import read_record, replay, write_record
from shengji.game.round import Round
from shengji.players import make_player
from shengji.players.table import decide


def _buried(rules: Rules, *, bury_a_nine: bool = False) -> Round:
    """Seat 0 (level 9) deals, bids one 9S during the deal and holds a second; seat 1 holds
    a pair of 9H; seat 0 buries eight cards, one of them a 9S if ``bury_a_nine``."""
    rnd = stacked(rules, {0: "9S 9S", 1: "9H 9H", 2: "9D 9D"}, dealer=0, levels=(9, 5, 9, 5))
    deal(rnd, leave=1)
    rnd.apply(Bid(0, (Card("9S"),)))
    deal(rnd)
    pass_round(rnd)
    others = [c for c in rnd.hands[0].cards() if c != Card("9S")]
    bury = [Card("9S"), *others[:7]] if bury_a_nine else others[:8]
    rnd.apply(Bury(0, tuple(bury)))
    return rnd


def test_off_by_default_play_starts_after_the_bury() -> None:
    assert _buried(Rules()).phase == Phase.PLAY


def test_the_holder_may_reinforce_their_bid_after_burying() -> None:
    rnd = _buried(Rules(bid_reinforce_after_bury=True))
    assert rnd.phase == Phase.OVERBID and rnd.reinforcing and rnd.to_move == 0
    legal = rnd.legal(0)
    assert set(legal) == {Pass(0), parse_action("0 bid 9S 9S")}
    assert str(legal.summary) == "reinforce your bid (more copies of 9S) or pass"
    assert rnd.can_bid(0) and not rnd.can_bid(1)
    rnd.apply(parse_action("0 bid 9S 9S"))
    assert rnd.bidding.shown[-1] == (0, (Card("9S"), Card("9S")))
    assert rnd.phase == Phase.PLAY and rnd.to_move == 0 and not rnd.reinforcing
    assert rnd.trump is not None and rnd.trump.rank == Rank.NINE


def test_nobody_else_may_bid_in_the_window() -> None:
    rnd = _buried(Rules(bid_reinforce_after_bury=True))
    with pytest.raises(ActionError, match="turn"):
        rnd.apply(parse_action("1 bid 9H 9H"))
    assert rnd.phase == Phase.OVERBID and rnd.reinforcing


def test_only_more_copies_of_the_same_card() -> None:
    rnd = _buried(Rules(bid_reinforce_after_bury=True))
    assert str(rnd.reason(parse_action("0 bid 9S"))) == "reinforcing needs more than 1 cards"
    other = next(c for c in rnd.hands[0].cards() if c != Card("9S"))
    assert str(rnd.reason(Bid(0, (other,)))) == (
        "after the bury you may only reinforce your bid: more copies of 9S")


def test_with_the_cards_still_in_hand_a_buried_copy_cannot_be_shown() -> None:
    rnd = _buried(Rules(bid_reinforce_after_bury=True), bury_a_nine=True)
    assert Card("9S") in rnd.kitty
    assert set(rnd.legal(0)) == {Pass(0)} and not rnd.can_bid(0)
    refusal = rnd.reason(parse_action("0 bid 9S 9S"))
    assert refusal is not None and "you do not hold" in str(refusal)
    rnd.apply(Pass(0))
    assert rnd.phase == Phase.PLAY


def test_a_reinforced_bid_must_be_beaten_by_bidding_after_the_kitty() -> None:
    rules = Rules(bid_reinforce_after_bury=True, kitty_overbid=True)
    plain = _buried(rules)
    plain.apply(Pass(0))                          # not reinforced: a pair takes the kitty
    assert plain.phase == Phase.OVERBID and not plain.reinforcing and plain.to_move == 1
    plain.apply(parse_action("1 bid 9H 9H"))
    assert plain.phase == Phase.KITTY and plain.kitty_owner == 1
    rnd = _buried(rules)
    rnd.apply(parse_action("0 bid 9S 9S"))         # reinforced: a pair no longer beats it
    assert rnd.phase == Phase.OVERBID and rnd.to_move == 1
    refusal = rnd.reason(parse_action("1 bid 9H 9H"))
    assert refusal is not None and "does not beat 9S 9S" in str(refusal)


def test_no_window_when_the_standing_bid_is_not_the_holders() -> None:
    # seat 2 bids; seat 0 deals and takes the kitty, with no bid of its own to reinforce
    rnd = stacked(Rules(bid_reinforce_after_bury=True), {2: "9D"}, dealer=0,
                  levels=(9, 5, 9, 5))
    deal(rnd, leave=1)
    rnd.apply(Bid(2, (Card("9D"),)))
    deal(rnd)
    pass_round(rnd)
    assert rnd.kitty_owner == 0
    rnd.apply(Bury(0, tuple(rnd.hands[0].cards()[:8])))
    assert rnd.phase == Phase.PLAY


def test_reinforcing_is_a_bidding_rule_of_its_own() -> None:
    bidding = Bidding(Rules(bid_reinforce=False), ranks=[Rank.NINE] * 4, teams=[0, 1, 0, 1])
    bidding.bid(0, "9S")
    assert bidding.reinforcement_reason(0, "9S 9S") is None   # allowed after the bury
    assert bidding.reason(0, "9S 9S") is not None              # not during the deal
    assert str(bidding.reinforcement_reason(1, "9S 9S")) == (
        "only the standing bid's bidder may reinforce it after the bury")
    assert str(bidding.reinforcement_reason(0, "9S 9S 9S")) == (
        "there are only 2 copies of each card")
    assert [b.count for b in bidding.reinforcements(0, [2] * 54)] == [2]
    bidding.reinforce(0, "9S 9S")
    assert bidding.winner is not None and bidding.winner.count == 2
    assert bidding.declaration is not None and bidding.declaration.maker == 0


@pytest.mark.slow
@pytest.mark.parametrize("rules", [
    Rules(bid_reinforce_after_bury=True),
    Rules(bid_reinforce_after_bury=True, kitty_overbid=True),
    Rules(bid_reinforce_after_bury=True, kitty_overbid=True, players=5, partnership="fluid",
          decks=2, kitty=8),
])
def test_whole_matches_with_computer_players_and_their_records_replay(rules: Rules) -> None:
    windows = 0
    for seed in range(3):
        match = Match(rules, seed=seed, max_rounds=3)
        players = [make_player("heuristic" if s % 2 else "random", seed=s)
                   for s in range(rules.players)]
        while not match.is_over:
            seat = match.to_move
            assert seat is not None
            windows += match.round.reinforcing
            action = decide(match, seat, players[seat])
            assert match.legal(seat).reason(action) is None
            match.apply(action)
        again = replay(read_record(write_record(match)))
        assert again.history == match.history
    assert windows > 0


@pytest.mark.parametrize("overbid", [False, True])
def test_the_heuristic_reinforces_where_the_others_may_bid_for_the_kitty(overbid: bool) -> None:
    rnd = _buried(Rules(bid_reinforce_after_bury=True, kitty_overbid=overbid))
    action = make_player("heuristic").act(rnd.view(0), rnd.legal(0))
    assert action == (parse_action("0 bid 9S 9S") if overbid else Pass(0))
