"""The player interface: a player sees one seat's view and answers every decision.

A player is any object with an ``act(view, legal)`` method returning one of the
legal actions: bidding or drawing during the deal, passing, burying, calling
friends, showing a hand, leading and following. It never sees the hidden state,
only its :class:`~shengji.game.view.SeatView`. Writing one takes a few lines::

    from itertools import islice

    class FewestCardsPlayer:
        def act(self, view, legal):  # looks at 50 actions: burying alone has millions
            return min(islice(legal, 50), key=lambda a: len(getattr(a, "cards", ())))

``legal.random(rng)`` draws a random legal action; ``action in legal`` checks one.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from shengji.game.actions import Action
from shengji.game.legal import Legal
from shengji.game.view import SeatView


@runtime_checkable
class Player(Protocol):
    """Anything that chooses a legal action for its seat from what the seat may know."""

    def act(self, view: SeatView, legal: Legal) -> Action:
        """Choose one action of ``legal`` (the seat's legal actions now)."""
        ...
