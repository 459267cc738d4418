"""A Gymnasium environment for one seat; the other seats are the project's players
(``random``, ``heuristic``, ``heuristic-nomem``, ``learned``, ``search``:
:func:`shengji.players.make_player`), or players made by a factory of your own.

Observations, action ids and rewards are those of the AEC environment for that seat; an
episode ends with the last of its ``rounds``. The other seats act inside :meth:`step`
(during the deal they bid when it is their turn to draw, as in ``shengji simulate``).
Gymnasium's ``check_env`` passes with ``illegal`` set (it steps with unmasked ids).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from random import Random
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from shengji.engine.rules import Rules
from shengji.players import Player, make_player

from .aec import MASK_DTYPE, Observation, resolve_rules
from .core import Game, as_action_id
from .encoding import Encoder
from .render import render_table

PlayerFactory = Callable[[int], Player]
"""Makes a player from a seed, e.g. ``lambda seed: SearchPlayer(seed, iterations=4)``."""


class SingleSeatEnv(gymnasium.Env[Observation, int]):
    """Sheng Ji for one seat (``seat``) against ``opponents``: one player name or factory
    for all other seats, or one per other seat in seat order (a factory is called with a
    seed at each reset, so a seeded episode is the same every time). ``turns`` as in the
    AEC environment; here ``"hand"`` reveals nothing (only this seat is asked, about its
    own hand) and spares the bid windows and show turns where it has nothing to choose.

    An id the mask does not allow raises ``ValueError`` (changing nothing), or with
    ``illegal = r`` ends the episode with the reward ``r`` (as PettingZoo's
    ``TerminateIllegalWrapper``), so that any id of the action space is an answer, as
    Gymnasium's API asks. ``render_mode`` ``"ansi"`` (:meth:`render` returns the text) or
    ``"human"`` (prints it after every step) draws the table as this seat sees it."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}  # noqa: RUF012

    def __init__(self, preset: str = "tractor", table: int | None = None,
                 rules: Rules | None = None, *, seat: int = 0,
                 opponents: str | PlayerFactory | Sequence[str | PlayerFactory] = "random",
                 rounds: int | None = 1,
                 shaping: float = 0.0, turns: str = "public", illegal: float | None = None,
                 render_mode: str | None = None) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r} is not supported; use "
                             f"{' or '.join(self.metadata['render_modes'])}")
        self.render_mode = render_mode
        self.illegal = illegal
        self.rules = resolve_rules(preset, table, rules)
        n = self.rules.players
        if not 0 <= seat < n:
            raise ValueError(f"seat must be 0..{n - 1}, got {seat}")
        names: list[str | PlayerFactory] = (
            [opponents] * (n - 1) if isinstance(opponents, str) or callable(opponents)
            else list(opponents))
        if len(names) != n - 1:
            raise ValueError(f"opponents needs one player name or {n - 1} names, "
                             f"got {len(names)}")
        for name in names:
            if isinstance(name, str):
                make_player(name)  # an unknown name fails here, with the choices
            elif not callable(name):
                raise ValueError(f"an opponent is a player name or a factory, got {name!r}")
        self.seat = seat
        self.names = names
        self.others = [s for s in range(n) if s != seat]
        self.game = Game(self.rules, rounds=rounds, shaping=shaping, turns=turns)
        self.encoder = Encoder(self.rules)
        size = self.game.layout.size
        self.action_space: spaces.Discrete = spaces.Discrete(size)  # type: ignore[assignment]
        self.observation_space: spaces.Dict = spaces.Dict({  # type: ignore[assignment]
            "observation": spaces.Box(0.0, np.inf, (self.encoder.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (size,), np.int8),
        })
        self._seeds = Random()
        self._ended = False
        """The episode was ended by an id the mask does not allow (``illegal``)."""

    def _observe(self) -> Observation:
        return {"observation": self.encoder.encode(self.game, self.seat),
                "action_mask": np.frombuffer(self.game.mask(self.seat), MASK_DTYPE)}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[Observation, dict[str, Any]]:
        """Start an episode; ``seed`` fixes it (and the players' choices) and those after."""
        super().reset(seed=seed)
        if seed is not None:
            self._seeds = Random(seed)
        match_seed = self._seeds.getrandbits(48)
        self.game.bots = {s: make_player(name, seed=match_seed + s) if isinstance(name, str)
                          else name(match_seed + s)
                          for s, name in zip(self.others, self.names, strict=True)}
        self.game.reset(match_seed)
        self._ended = False
        return self._observe(), {}

    def step(self, action: int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Act with one id; the reward is this seat's (:mod:`shengji.env.core`). An id the
        mask does not allow: see ``illegal``."""
        action = as_action_id(action)
        if self.illegal is not None and not self._ended and not self.game.over and (
                action not in self.game.allowed()):
            self._ended = True  # the episode ends here; the game is left as it was
            return self._observe(), float(self.illegal), True, False, {"illegal": action}
        if self._ended:
            raise ValueError("the episode is over: call reset()")
        self.game.step(action)
        reward = self.game.take_rewards()[self.seat]
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, self.game.over, False, {}

    def render(self) -> str | None:
        """The table as this seat sees it (:mod:`shengji.env.render`): ``ansi`` returns
        the text, ``human`` prints it."""
        if self.render_mode is None:
            return None
        text = render_table(self.game, self.seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text
