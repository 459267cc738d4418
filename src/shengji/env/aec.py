"""The PettingZoo AEC environment: one agent per seat, one ``Discrete`` action space with
an exact action mask (see :mod:`shengji.env.core` for the ids and the rewards,
:mod:`shengji.env.encoding` for the observation, :mod:`shengji.env.state` for the global
state, :mod:`shengji.env.render` for the text rendering)."""

from __future__ import annotations

from random import Random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray
from pettingzoo import AECEnv

from shengji.engine.rules import Rules
from shengji.game.deal import Deal, DealError
from shengji.game.presets import preset as make_preset
from shengji.players.base import Player

from .core import Game, as_action_id
from .encoding import Encoder
from .render import render_table
from .state import StateEncoder

Observation = dict[str, NDArray[Any]]

RENDER_MODES = ("ansi", "human")

MASK_DTYPE = np.dtype(np.int8)
"""The action mask's type (a ``dtype`` made once: reading it per step costs)."""


def resolve_rules(preset: str = "tractor", table: int | None = None,
                  rules: Rules | None = None) -> Rules:
    """The rules of an environment: ``rules`` itself, else the ``preset`` (with ``table``
    players if given)."""
    if rules is not None:
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a shengji Rules value, got {rules!r}")
        if table is not None and table != rules.players:
            raise ValueError(f"table={table} contradicts rules.players={rules.players}")
        return rules
    return make_preset(preset, **({"players": table} if table is not None else {}))


class raw_env(AECEnv[str, Observation, int]):  # type: ignore[misc]  # PettingZoo's naming
    """Sheng Ji for any preset, table size and rules, as a PettingZoo AEC environment.

    Agents are ``seat_0 .. seat_{n-1}``. An episode is ``rounds`` rounds of a match
    (``None``: the whole match). ``shaping`` adds points-based rewards
    (:mod:`shengji.env.core`). ``turns="public"`` (the default) asks seats in an order that
    reveals no hidden card; ``turns="hand"`` asks only the seats whose hands can bid or
    show, which other seats then learn (:mod:`shengji.env.core`). ``reset(seed=s)`` makes
    the episodes that follow reproducible; ``reset(options={"deal": deal})`` deals the
    first round's cards from a :class:`~shengji.game.deal.Deal`. :meth:`state` is the
    whole table for centralized critics (every hand: :mod:`shengji.env.state`);
    ``render_mode`` ``"ansi"`` (:meth:`render` returns the text) or ``"human"`` (prints it
    after every step) draws the table as the agent to move sees it."""

    metadata: ClassVar[dict[str, Any]] = {"name": "shengji_v0", "is_parallelizable": False,
                                          "render_modes": list(RENDER_MODES)}

    def __init__(self, preset: str = "tractor", table: int | None = None,
                 rules: Rules | None = None, render_mode: str | None = None, *,
                 rounds: int | None = 1, shaping: float = 0.0,
                 bots: dict[int, Player] | None = None, turns: str = "public") -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode {render_mode!r} is not supported; use "
                             f"{' or '.join(RENDER_MODES)}")
        self.rules = resolve_rules(preset, table, rules)
        self.render_mode = render_mode
        self.game = Game(self.rules, rounds=rounds, shaping=shaping, bots=bots, turns=turns)
        self.encoder = Encoder(self.rules)
        n = self.rules.players
        self.possible_agents = [f"seat_{s}" for s in range(n)]
        self.agent_name_mapping = {a: s for s, a in enumerate(self.possible_agents)}
        size = self.game.layout.size
        self._action_space = spaces.Discrete(size)
        self._observation_space = spaces.Dict({
            "observation": spaces.Box(0.0, np.inf, (self.encoder.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (size,), np.int8),
        })
        self.states = StateEncoder(self.encoder)
        self.state_space = spaces.Box(0.0, np.inf, (self.states.size,), np.float32)
        """The global state's space (:meth:`state`)."""
        self._seeds = Random()
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same ``Dict`` space for every seat."""
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The same ``Discrete`` space for every seat."""
        return self._action_space

    def observe(self, agent: str) -> Observation:
        """The seat's observation and action mask (all zeros when it is not its turn)."""
        seat = self.agent_name_mapping[agent]
        return {"observation": self.encoder.encode(self.game, seat),
                "action_mask": np.frombuffer(self.game.mask(seat), MASK_DTYPE)}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start an episode; ``seed`` fixes it and the episodes after it. ``options`` may give
        ``deal``: the first round's cards (a :class:`~shengji.game.deal.Deal`)."""
        deal = (options or {}).get("deal")  # other options are ignored, as PettingZoo's are
        if deal is not None and not isinstance(deal, Deal):
            raise TypeError(f"options['deal'] must be a shengji Deal, got {deal!r}")
        seeds = Random(seed) if seed is not None else self._seeds
        state = seeds.getstate()
        try:
            self.game.reset(seeds.getrandbits(48), deal)
        except DealError:  # the deal does not fit the rules: nothing changed
            seeds.setstate(state)
            raise
        self._seeds = seeds
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._sync()

    def step(self, action: int | None) -> None:
        """Act for the selected agent with one action id (``None`` once it is done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: give an allowed action id, not None")
        pending = self._cumulative_rewards[agent]
        self._cumulative_rewards[agent] = 0.0  # it was seen (last()) before acting
        try:
            self.game.step(as_action_id(action))
        except ValueError:  # refused: nothing changes, the reward still waits
            self._cumulative_rewards[agent] = pending
            raise
        self._sync()
        if self.render_mode == "human":
            self.render()

    def _sync(self) -> None:
        game = self.game
        rewards = game.take_rewards() if game.rewarded else None
        if rewards is not None and any(rewards):
            self.rewards = {a: rewards[self.agent_name_mapping[a]] for a in self.agents}
            self._accumulate_rewards()
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
        if game.over:
            self.terminations = dict.fromkeys(self.agents, True)
            if getattr(self, "agent_selection", None) not in self.agents:
                self.agent_selection = self.agents[0]
        else:
            seat = game.seat
            assert seat is not None
            self.agent_selection = self.possible_agents[seat]

    def state(self) -> NDArray[np.float32]:
        """The global state: the whole table as a fixed-size ``float32`` vector
        (:mod:`shengji.env.state`), for centralized critics. It shows every hand, the
        kitty and the cards still to deal: the one place that does; never a policy's
        input."""
        return self.states.encode(self.game)

    def render(self) -> str | None:
        """The table as the agent to move sees it (:mod:`shengji.env.render`: its own hand,
        the trick, the points, the trump; a spectator's view once the episode is over):
        ``ansi`` returns the text, ``human`` prints it."""
        if self.render_mode is None:
            return None
        text = render_table(self.game, self.game.seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def env(preset: str = "tractor", table: int | None = None, rules: Rules | None = None,
        render_mode: str | None = None, **options: Any) -> raw_env:
    """The AEC environment (no wrappers: the mask already refuses illegal ids with a clear
    ``ValueError``). ``options``: ``rounds``, ``shaping``, ``bots``, ``turns``."""
    return raw_env(preset, table, rules, render_mode, **options)
