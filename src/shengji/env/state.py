"""The global state (PettingZoo's ``state()``): the whole table as one fixed-size
``float32`` vector, for centralized critics (e.g. MAPPO, QMIX) trained with every card in
view and executed on the observations alone.

It is the one place of the environment that shows every hand, the kitty and the cards
still to deal: never give it to a policy that plays. Seats are *absolute* (index ``k`` of
a per-seat block is seat ``k``); cards are the engine's 54 indices, counted. The blocks,
in order (:func:`state_layout` gives their offsets; ``n`` = players, ``O`` = the
observation's size):

=========  ========  ================================================================
block      size      content
=========  ========  ================================================================
table      O         seat 0's observation (:mod:`shengji.env.encoding`), so every
                     per-seat block in seat order; its decision, selection and friend
                     call in progress are those of the seat deciding, whoever it is
hands      n × 54    every seat's hand
kitty      54        the kitty, whoever holds it: the cards set aside for it, then
                     while its holder buries the cards it took (also in its hand),
                     after a bury the buried cards
undealt    54        the cards still to deal
decider    n + 1     the seat deciding, one-hot (last: none, the episode is over)
=========  ========  ================================================================
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from shengji.engine.rules import Rules

from .core import Game
from .encoding import Encoder, blocks


def state_layout(rules: Rules, observation: int | None = None) -> dict[str, tuple[int, int]]:
    """The (offset, size) of every block of the global state for ``rules``
    (``observation``: the observation's size, if known)."""
    n = rules.players
    if observation is None:
        observation = Encoder(rules).size
    sizes = {"table": observation, "hands": n * 54, "kitty": 54, "undealt": 54,
             "decider": n + 1}
    return blocks(sizes)


class StateEncoder:
    """Encodes the global state of a :class:`~.core.Game` (the module's blocks), reusing
    the environment's observation ``encoder`` for the table."""

    def __init__(self, encoder: Encoder) -> None:
        self.encoder = encoder
        self.rules = encoder.rules
        self.blocks = state_layout(encoder.rules, encoder.size)
        last = self.blocks["decider"]
        self.size = last[0] + last[1]

    def encode(self, game: Game) -> NDArray[np.float32]:
        """The whole table now (a new array): every hand shown."""
        out = np.zeros(self.size, dtype=np.float32)
        at = {name: offset for name, (offset, _) in self.blocks.items()}
        n = self.rules.players
        if game.match is None:  # before the first reset: nothing dealt, nobody deciding
            out[at["decider"] + n] = 1.0
            return out
        out[:self.encoder.size] = self.encoder.encode(game, 0, decider=True)
        rnd = game.round
        for seat, hand in enumerate(rnd.hands):
            row = at["hands"] + seat * 54
            out[row:row + 54] = hand.counts
        for card in rnd.kitty:
            out[at["kitty"] + card] += 1.0
        for card in rnd.deck[rnd.next_card:len(rnd.deck) - self.rules.kitty_size]:
            out[at["undealt"] + card] += 1.0
        decider = game.seat
        out[at["decider"] + (decider if decider is not None else n)] = 1.0
        return out
