"""``Round.can_bid`` answers as the round's legal actions do: a seat may bid now, or take
its standing bid back, exactly when :meth:`Round.legal` lists a Bid or a Withdraw for it,
through random rounds with undos and copies (its answers are kept between actions)."""

from __future__ import annotations

from random import Random

import pytest

from shengji.engine.rules import Rules
from shengji.game.actions import Bid, Withdraw
from shengji.game.phase import Phase
from shengji.game.presets import PRESETS, preset
from shengji.game.round import Round

VARIANTS: dict[str, Rules] = {
    **{name: preset(name) for name in sorted(PRESETS)},
    "overbid-withdraw": Rules(kitty_overbid=True, bid_withdraw=True, bid_equal_override=True),
    "overbid-takes-dealer": Rules(kitty_overbid=True, kitty_overbid_takes_dealer=True,
                                  bid_switch_suit=True, first_dealer="first-pair"),
    "fluid-not-lost": Rules(players=5, partnership="fluid", bid_after_outbid=True,
                            bid_reinforce_equal=True),
    "joker-bids-decks": Rules(players=6, decks=3, joker_bids="decks", no_bid="kitty-first"),
}

_BIDDING = (Phase.DEAL, Phase.BID, Phase.OVERBID)


def _listed(rnd: Round, seat: int) -> bool:
    """Whether the legal actions of ``seat`` hold a bid or a withdrawal (listed only in the
    bidding phases: a bury's choices are too many to list, and hold neither)."""
    if rnd.phase not in _BIDDING:
        return False
    return any(isinstance(a, Bid | Withdraw) for a in rnd.legal(seat))


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_can_bid_is_what_the_legal_actions_list(name: str) -> None:
    rules = VARIANTS[name]
    answers: set[tuple[Phase, bool]] = set()
    for seed in range(6):
        rnd = Round(rules, seed=seed, levels=[2 + (seed + s) % 3 for s in range(rules.players)]
                    if rules.partnership == "fluid" else None)
        rng = Random(seed)
        while rnd.phase != Phase.DONE:
            seats = range(rules.players) if rnd.phase in _BIDDING else rng.sample(
                range(rules.players), 1)
            for seat in seats:
                can = rnd.can_bid(seat)
                assert can == _listed(rnd, seat), (name, seed, rnd.phase, seat)
                assert can == rnd.can_bid(seat)  # the kept answer
                answers.add((rnd.phase, can))
            if rnd.phase == Phase.DEAL:
                assert (rnd.only_draw(rnd.drawer) is None) == rnd.can_bid(rnd.drawer)
            if len(rnd.history) > 1 and rng.random() < 0.05:
                rnd.undo()
                continue
            seat = rnd.to_move
            assert seat is not None
            legal = rnd.legal(seat)
            if seed % 2 and rnd.phase in (Phase.DEAL, Phase.BID):  # nobody bids before the
                # kitty, so that bids after it (if the rules allow them) have a chance
                rnd.apply(next(a for a in legal if not isinstance(a, Bid)))
            else:
                rnd.apply(legal.random(rng))
            if rng.random() < 0.02:
                rnd = rnd.copy()
    assert (Phase.DEAL, False) in answers, answers
    # the dealer names the trump in the Hundred: nobody ever bids
    assert ((Phase.DEAL, True) in answers) == (rules.trump_choice != "dealer"), answers


def test_can_bid_is_false_off_the_table_and_out_of_turn() -> None:
    rnd = Round(Rules(), seed=1)
    assert not rnd.can_bid(-1) and not rnd.can_bid(4)
    rng = Random(1)
    while rnd.phase == Phase.DEAL:
        rnd.apply(rnd.legal(rnd.drawer).random(rng))
    assert rnd.phase == Phase.BID
    waiting = [s for s in range(4) if s != rnd.to_move]
    assert not any(rnd.can_bid(s) for s in waiting)


def test_a_draw_after_the_deal_says_what_the_seat_may_do() -> None:
    """Once every card is dealt nobody draws: a draw by the seat to move is refused with
    what it may do now (bid or pass), not as another seat's turn to draw (naming itself)."""
    rnd = Round(Rules(), seed=3)
    while rnd.phase is Phase.DEAL:
        seat = rnd.to_move
        assert seat is not None
        rnd.apply(f"{seat} draw")
    assert rnd.phase is Phase.BID
    seat = rnd.to_move
    assert seat is not None
    why = rnd.legal(seat).reason(f"{seat} draw")
    assert why is not None and why.key == "bid-time" and f"seat {seat}" not in str(why)
    assert "bid" in str(why) and "pass" in str(why)
