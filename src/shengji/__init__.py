"""shengji: Sheng Ji (升级), Tractor, Finding Friends and Da Bai Fen in Python.

The protocol a newcomer wants first, python-chess style: a round of a preset's rules, whose
turn it is, what that seat may do, and doing it::

    >>> import shengji
    >>> r = shengji.Round(shengji.preset("tractor"), seed=1)
    >>> seat = r.to_move
    >>> legal = r.legal(seat)
    >>> legal
    <Legal seat 1: draw or bid>
    >>> r.apply(next(iter(legal))); r.phase
    <Phase.DEAL: 'deal'>

The rules engine's central types (:mod:`shengji.engine`: cards, hands, rules, tricks) are
re-exported here too; whole games (actions, matches, records) live in :mod:`shengji.game`.

    >>> from shengji import Card, Hand, Rules, Trump, Trick
"""

from shengji.engine import *  # noqa: F403
from shengji.engine import __all__ as _engine_all
from shengji.game.legal import ActionError, Legal
from shengji.game.match import Match
from shengji.game.phase import Phase
from shengji.game.presets import PRESETS, preset
from shengji.game.round import Round
from shengji.game.view import SeatView

__all__ = [*_engine_all, "PRESETS", "ActionError", "Legal", "Match", "Phase", "Round",
           "SeatView", "preset"]
