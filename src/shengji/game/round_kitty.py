"""The ``kitty`` phase of a :class:`~shengji.game.round.Round`: its holder takes the kitty
and buries as many cards; then the holder's reinforcement (``bid_reinforce_after_bury``)
and the bidding after the kitty (炒地皮, ``kitty_overbid``: the ``overbid`` phase, whose
bids are in :mod:`shengji.game.round_deal`) go round from here.

Module-level functions taking the round (imported only for type checking).
"""

from __future__ import annotations

from collections.abc import Iterator
from random import Random
from typing import TYPE_CHECKING, Final

from shengji.engine.reasons import Reason
from shengji.engine.rules import KittyOverbidBy, Partnership
from shengji.game.actions import Action, Bury
from shengji.game.bury import bury_limits, bury_options, bury_reason, random_bury
from shengji.game.legal import Legal
from shengji.game.phase import Phase
from shengji.game.round_calls import after_call
from shengji.game.selection import BurySelector

if TYPE_CHECKING:
    from shengji.game.round import Round

_OVERBID: Final = Phase.OVERBID


def take_kitty(rnd: Round, seat: int) -> None:
    """``seat`` takes the kitty into its hand, to bury as many cards."""
    rnd.kitty_owner = seat
    rnd.hands[seat].add(rnd.kitty)
    rnd._sorted = {}  # new cards, and maybe a new trump: the hands are sorted again
    rnd._has_bid.pop(seat, None)
    rnd.phase = Phase.KITTY


def legal_bury(rnd: Round, seat: int) -> Legal:
    """The buries of the kitty's holder (its :attr:`~shengji.game.legal.Legal.bury`)."""
    counts = tuple(rnd.hands[seat].counts)
    limits = bury_limits(rnd.rules, counts)
    size, max_points = limits

    def reason(action: Action) -> Reason | None:
        if not isinstance(action, Bury):
            return Reason("bury-needed", size=size)
        return bury_reason(counts, action.cards, size, max_points)

    def actions() -> Iterator[Action]:
        for cards in bury_options(counts, size, max_points):
            yield Bury(seat, cards)

    def sample(rng: Random) -> Action:
        return Bury(seat, random_bury(counts, size, max_points, rng))

    return Legal(seat, reason, actions, sample, summary=Reason("do-bury", size=size),
                 bury=limits, selector=lambda: BurySelector(counts, size, max_points))


def bury(rnd: Round, action: Bury) -> None:
    rnd.buried_at = (*rnd.buried_at, len(rnd.history) - 1)
    rnd.hands[action.seat].remove(action.cards)
    rnd._sorted.pop(action.seat, None)
    rnd._has_bid.pop(action.seat, None)
    rnd.kitty = tuple(action.cards)
    winner = rnd.bidding.winner
    if rnd.rules.bid_reinforce_after_bury and winner is not None and (
            winner.seat == action.seat):  # the holder may reinforce their own bid first
        rnd.phase = _OVERBID
        rnd.reinforcing = True
        rnd.bid_turn = action.seat
        return
    after_bury(rnd)


def after_bury(rnd: Round) -> None:
    """The bidding after the kitty (炒地皮) if the rules allow one more, else on."""
    limit = rnd.rules.kitty_overbid_limit
    if rnd.rules.kitty_overbid and (limit is None or rnd.steals < limit):
        rnd.phase = _OVERBID
        rnd.passes = 0
        rnd.bid_turn = stealers(rnd)[0]
    else:
        after_kitty(rnd)


def after_kitty(rnd: Round) -> None:
    """The friend calls in Finding Friends, else on."""
    if rnd.rules.partnership == Partnership.FLUID and rnd.rules.friend_count:
        rnd.phase = Phase.CALL
        return
    after_call(rnd)


def stealers(rnd: Round) -> list[int]:
    """The seats that may bid after the kitty, in turn order from its holder's left."""
    owner, n = rnd.kitty_owner, rnd.rules.players
    assert owner is not None
    seats = [(owner + k) % n for k in range(1, n)]
    if (rnd.rules.kitty_overbid_by == KittyOverbidBy.OPPONENTS
            and rnd.rules.partnership == Partnership.FIXED):
        seats = [s for s in seats if rnd.teams[s] != rnd.teams[owner]]
    return seats
