"""Bounded caches: the one helper behind every module-level cache of immutable values.

Hot paths keep what they made once (a unit, a lead, a trump, a level change ...) in a plain
``dict`` keyed by what made it. Such a cache must never grow without bound in a long
simulation, and a least-recently-used policy would cost bookkeeping on every hit: instead a
full cache is emptied and refills itself, which costs one round of misses per ``most`` new
keys. A cache stays a ``dict`` so that a hit is one native lookup in the compiled build.

>>> cache: dict[int, str] = {}
>>> remember(cache, 1, "one", most=2), remember(cache, 2, "two", most=2)
('one', 'two')
>>> remember(cache, 3, "three", most=2), sorted(cache)
('three', [3])
"""

from __future__ import annotations

from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


def remember(cache: dict[K, V], key: K, value: V, most: int) -> V:
    """``cache[key] = value``, returned; the cache is emptied first when it already holds
    ``most`` entries."""
    if len(cache) >= most:
        cache.clear()
    cache[key] = value
    return value


def bound(cache: dict[K, V], most: int) -> None:
    """Empty ``cache`` if it holds ``most`` entries or more (for a cache filled in a loop
    below, where :func:`remember` per entry would cost a call each)."""
    if len(cache) >= most:
        cache.clear()
