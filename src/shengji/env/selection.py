"""Partial selections, as the environment builds its multi-card actions: the selectors
live in :mod:`shengji.game.selection` (a seat's :class:`~shengji.game.legal.Legal` makes
the one of its decision); their names are kept here for the environment's users."""

from __future__ import annotations

from shengji.game.selection import (
    OPTIONS_LIMIT,
    SUPERSET_LIMIT,
    BurySelector,
    ExposeSelector,
    FollowSelector,
    LeadSelector,
    OptionsSelector,
    Selector,
    suit_faces,
)

__all__ = ["OPTIONS_LIMIT", "SUPERSET_LIMIT", "BurySelector", "ExposeSelector",
           "FollowSelector", "LeadSelector", "OptionsSelector", "Selector", "suit_faces"]
