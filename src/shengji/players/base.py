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

import math
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


def checked_seed(seed: object) -> int | None:
    """``seed`` if it is a player's seed (a whole number; ``None``: a fresh one), else a
    ``ValueError`` saying so."""
    if seed is not None and type(seed) is not int:
        raise ValueError(f"a player's seed is a whole number or None, got {seed!r}")
    return seed


def check_number(name: str, value: object, low: float, *, whole: bool = False,
                 above: bool = False) -> None:
    """A ``ValueError`` unless ``value`` is a finite number (``whole``: an int) of at least
    ``low`` (``above``: more than ``low``), named ``name`` in the message."""
    what = "a whole number" if whole else "a number"
    bound = f"more than {low:g}" if above else f"of at least {low:g}"
    if not (isinstance(value, int | float) and (type(value) is int or (
            not whole and type(value) is float)) and math.isfinite(value)
            and value >= low and not (above and value == low)):
        raise ValueError(f"{name} must be {what} {bound}, got {value!r}")


def check_flag(name: str, value: object, optional: bool = False) -> None:
    """A ``ValueError`` unless ``value`` is True or False (or ``None`` where
    ``optional``)."""
    if type(value) is not bool and not (optional and value is None):
        raise ValueError(f"{name} must be True or False{' (or None)' if optional else ''}, "
                         f"got {value!r}")
