"""Whole games: rounds as state machines, matches, presets, rules files and records.

Everything here drives the rules engine (:mod:`shengji.engine`) through one
protocol: ``to_move`` / ``legal(seat)`` / ``apply(action)`` / ``undo()`` /
``view(seat)``.
"""

from shengji.engine.pickling import pickle_by_constructor
from shengji.game import actions, match, scoresheet, view
from shengji.game.actions import (
    Action,
    Bid,
    Bury,
    Call,
    Draw,
    Pass,
    Play,
    Show,
    Withdraw,
    parse_action,
)
from shengji.game.legal import ActionError, Legal
from shengji.game.match import Match, play_random_match
from shengji.game.phase import Phase
from shengji.game.round import Round
from shengji.game.scoresheet import RoundResult, TrickRecord
from shengji.game.view import SeatView

# frozen dataclasses pickle through their constructor (the compiled build needs it)
pickle_by_constructor(actions, match, scoresheet, view)

__all__ = [
    "Action",
    "ActionError",
    "Bid",
    "Bury",
    "Call",
    "Draw",
    "Legal",
    "Match",
    "Pass",
    "Phase",
    "Play",
    "Round",
    "RoundResult",
    "SeatView",
    "Show",
    "TrickRecord",
    "Withdraw",
    "parse_action",
    "play_random_match",
]
