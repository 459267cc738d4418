"""Where a round stands: its phases, in the order a round goes through them (some are
skipped by the rules: ``expose`` and ``declare`` where the dealer names the trump, ``overbid``
with bidding after the kitty or a reinforcement after the bury, ``call`` in Finding Friends,
``show`` where a hand may be shown for a redeal)."""

from __future__ import annotations

from enum import StrEnum
from typing import Final


class Phase(StrEnum):
    """Where a round stands."""

    DEAL = "deal"
    BID = "bid"
    EXPOSE = "expose"
    DECLARE = "declare"
    KITTY = "kitty"
    OVERBID = "overbid"
    CALL = "call"
    SHOW = "show"
    PLAY = "play"
    DONE = "done"


DEALER_BID_PHASES: Final = (Phase.DEAL, Phase.BID)
"""The phases in which a bid made while no dealer is set may make its bidder the dealer
(:func:`~shengji.engine.bidding.takes_dealer`): not a kitty overbid."""
