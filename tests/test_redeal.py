"""A hand shown for a redeal (``redeal_show``): who deals the new cards, and Da Bai Fen's
new deal bid for as a first round is (seed da_bai_fen: "the partner of the leader
becomes the new dealer. During this new deal, the newest player to determine trumps
becomes the new leader and their team the declarers")."""

from __future__ import annotations

from random import Random

import pytest

from shengji.game.actions import Action, Bid, Draw, Pass, Show
from shengji.game.match import Match
from shengji.game.phase import Phase
from shengji.game.presets import preset
from shengji.game.round_deal import level_rank
from shengji.terminal.screen import Seating, render_result


def _after_a_redeal(rules_overrides: dict[str, object], seed: int) -> tuple[Match, int]:
    """A match played at random, with the first chance to show a hand taken, until the
    round after that redeal begins; and the dealer of the round thrown in."""
    rules = preset("da-bai-fen", **rules_overrides)
    match = Match(rules, seed=seed, levels=(3, 5, 3, 5))
    rng = Random(seed)
    while True:
        seat = match.to_move
        assert seat is not None
        legal = match.legal(seat)
        if Show(seat) in legal:
            dealer = match.round.dealer
            assert dealer is not None
            match.apply(Show(seat))
            return match, dealer
        match.apply(legal.random(rng))
        if match.results and not match.results[-1].redeal:
            match = Match(rules, seed=seed + 1000 * len(match.results), levels=(3, 5, 3, 5))


def _no_bids(match: Match, rng: Random) -> None:
    """Play the new deal's drawing and bidding without a bid."""
    while match.round.phase in (Phase.DEAL, Phase.BID):
        seat = match.to_move
        assert seat is not None
        legal = match.legal(seat)
        quiet = [a for a in legal if isinstance(a, Draw | Pass)]
        match.apply(quiet[0] if quiet else legal.random(rng))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_after_a_redeal_the_first_to_bid_leads_and_declares(seed: int) -> None:
    match, old_dealer = _after_a_redeal({}, seed)
    rnd = match.round
    partner = (old_dealer + 2) % 4
    assert rnd.dealer is None and rnd.shuffler == partner
    assert rnd.first_drawer == (partner + 1) % 4  # the player after the dealer draws first
    rng = Random(seed)
    while rnd.dealer is None:
        seat = match.to_move
        assert seat is not None
        legal = match.legal(seat)
        bids = [a for a in legal if isinstance(a, Bid)]
        action: Action = bids[0] if bids else legal.random(rng)
        match.apply(action)
        if isinstance(action, Bid):
            # a bid shows a card of the bidder's own side's level, and makes it the leader
            assert action.cards[0].rank == level_rank(rnd.levels[seat])
            assert rnd.dealer == seat
    assert rnd.bidding.ranks == (level_rank(rnd.levels[rnd.dealer]),) * 4


def test_after_a_redeal_nobody_bidding_the_partner_leads() -> None:
    match, old_dealer = _after_a_redeal({}, 4)
    _no_bids(match, Random(4))
    rnd = match.round
    if rnd.phase == Phase.DONE:  # the turned kitty asked for yet another redeal
        pytest.skip("redealt again")
    assert rnd.dealer == (old_dealer + 2) % 4 and rnd.kitty_owner == rnd.dealer


def test_without_the_option_the_partner_is_the_dealer_from_the_start() -> None:
    match, old_dealer = _after_a_redeal({"redeal_first_bidder": False}, 1)
    assert match.round.dealer == (old_dealer + 2) % 4 and match.round.shuffler is None


def test_the_score_sheet_says_the_next_dealer_is_bid_for() -> None:
    match, old_dealer = _after_a_redeal({}, 2)
    result = match.results[-1]
    partner = (old_dealer + 2) % 4
    assert result.redeal and result.next_bid_for and result.next_dealer == partner
    assert f"Seat {partner} deals; the first to bid becomes the dealer." in result.sheet()
    seating = Seating(tuple(f"Seat {s}" for s in range(4)), -1, False)
    screen = " ".join(str(line) for line in render_result(
        result, seating, round_number=1, rules_players=4, trump=None))
    assert f"Seat {partner} deals the cards; the first to bid becomes the dealer." in screen
    match, _ = _after_a_redeal({"redeal_first_bidder": False}, 2)
    assert not match.results[-1].next_bid_for
