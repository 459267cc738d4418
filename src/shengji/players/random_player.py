"""The random player: a uniformly random legal action where that is cheap.

Uniform over the listed actions in the deal, bidding, showing and calling
phases; for burying and for plays it uses the legal set's own sampler: a
uniformly random set of cards when burying or when void in the led suit, a
random unit when leading, and when following a random way to meet the
structure obligations filled with random cards of the suit.
"""

from __future__ import annotations

from random import Random

from shengji.game.actions import Action
from shengji.game.legal import Legal
from shengji.game.view import SeatView
from shengji.players.base import checked_seed


class RandomPlayer:
    """Plays a random legal action, reproducibly from ``seed``."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = Random(checked_seed(seed))

    def act(self, view: SeatView, legal: Legal) -> Action:
        """A random legal action."""
        return legal.random(self.rng)

    def __repr__(self) -> str:
        return "RandomPlayer()"
