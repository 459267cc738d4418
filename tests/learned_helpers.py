"""Small hand-made forests and models for the learned player's tests."""

from __future__ import annotations

from shengji.players.features import FOLLOW_FEATURES, LEAD_FEATURES
from shengji.players.forest import Forest
from shengji.players.learned import PlayModel


def stump(features: tuple[str, ...], name: str, at: float, low: float, high: float
          ) -> Forest:
    """One tree, one split: ``low`` where feature ``name`` is at most ``at``, else ``high``."""
    return Forest(features, 0.0, [0], [features.index(name), -1, -1], [at, 0.0, 0.0],
                  [1, 0, 0], [2, 0, 0], [0.0, low, high])


def constant(features: tuple[str, ...], value: float) -> Forest:
    return Forest(features, value, [0], [-1], [0.0], [0], [0], [0.0])


def tractor_model(lead: Forest | None = None, follow: Forest | None = None,
                  margins: tuple[float, float] = (0.0, 0.0), bury: Forest | None = None,
                  bury_margin: float = 0.0) -> PlayModel:
    return PlayModel("test", lead or constant(LEAD_FEATURES, -1.0),
                     follow or constant(FOLLOW_FEATURES, -1.0), 4, 2, "fixed",
                     lead_margin=margins[0], follow_margin=margins[1], bury=bury,
                     bury_margin=bury_margin)
