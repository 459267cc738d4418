"""Sheng Ji as a reinforcement-learning environment (``pip install "shengji[rl]"``, or
``pip install -e ".[rl]"`` in a clone).

``env(preset="tractor", table=4, rules=None)`` is a PettingZoo AEC environment for any
preset, table size and rules; :class:`SingleSeatEnv` a Gymnasium environment for one seat
against the project's players. The action ids and rewards are described in
:mod:`shengji.env.core`, the observation in :mod:`shengji.env.encoding`, the AEC
environment's global ``state()`` (every hand, for centralized critics) in
:mod:`shengji.env.state`, the ``render_mode`` text (one seat's view) in
:mod:`shengji.env.render`.
"""

from __future__ import annotations

try:
    import gymnasium  # noqa: F401
    import numpy  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as error:  # pragma: no cover - depends on the installation
    raise ImportError(f"shengji.env needs numpy, gymnasium and pettingzoo ({error}); "
                      'install them with: pip install "shengji[rl]" (or pip install -e '
                      '".[rl]" in a clone)') from None

from .aec import env, raw_env, resolve_rules
from .core import KINDS, Game, Layout
from .encoding import Encoder, layout
from .single import SingleSeatEnv

__all__ = ["KINDS", "Encoder", "Game", "Layout", "SingleSeatEnv", "env", "layout", "raw_env",
           "resolve_rules"]
