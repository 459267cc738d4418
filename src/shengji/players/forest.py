"""A forest of regression trees (gradient boosting's sum of trees), read from plain data.

Trained elsewhere (``scripts/train_learned.py`` fits scikit-learn's
``HistGradientBoostingRegressor``), a forest is kept as flat lists of numbers, so that
evaluating one needs nothing but this module: each node is a split (a feature, a
threshold, a left and a right child) or a leaf (feature ``-1``, a value). A row goes left
where its feature is at most the threshold; the prediction is the base value plus the
leaf reached in each tree. Children come after their parent in the lists (checked when a
forest is made), so every walk down a tree ends.

The lists are linked once into :class:`Node` objects, which a prediction walks; each split
reads its feature from one of the forest's :class:`Cell` objects, into which a prediction
first copies the row (holding the forest's lock meanwhile). An attribute of an object is
read several times faster than an item of a list of boxed numbers, in the compiled build
most of all (the figures: docs/experiments.md, "The learned player's speed"). A forest
pickles as its lists.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Mapping, Sequence
from typing import Final

from shengji.engine.plain import mypyc_attr


@mypyc_attr(acyclic=True)  # holds a number only: no GC tracking
class Cell:
    """One feature's value in the row being predicted."""

    __slots__ = ("value",)

    def __init__(self) -> None:
        self.value = 0.0


@mypyc_attr(acyclic=True)  # a tree's nodes lead only down, never back: no GC tracking
class Node:
    """One node of a tree: a split (``feature`` at least 0: a row goes to ``left`` where its
    feature, read from ``cell``, is at most ``threshold``, else to ``right``) or a leaf
    (``feature`` -1, its ``value``; its children are :data:`NOWHERE`, never followed)."""

    __slots__ = ("cell", "feature", "left", "right", "threshold", "value")

    def __init__(self, feature: int, cell: Cell, threshold: float, value: float,
                 left: Node | None, right: Node | None) -> None:
        self.feature = feature
        self.cell = cell
        self.threshold = threshold
        self.value = value
        self.left: Node = left if left is not None else self  # (only NOWHERE's)
        self.right: Node = right if right is not None else self


NOWHERE: Final = Node(-1, Cell(), 0.0, 0.0, None, None)
"""The children of every leaf: a leaf that is its own children (the only node that leads
back to itself, made once)."""


class Forest:
    """A sum of regression trees over rows of ``features``."""

    def __init__(self, features: Sequence[str], base: float, roots: list[int],
                 feature: list[int], threshold: list[float], left: list[int],
                 right: list[int], value: list[float]) -> None:
        nodes = len(feature)
        if not (len(threshold) == len(left) == len(right) == len(value) == nodes):
            raise ValueError("a forest's node lists must have one entry per node")
        for i in range(nodes):
            f = feature[i]
            if f >= len(features) or (f >= 0 and not (
                    i < left[i] < nodes and i < right[i] < nodes)):
                # (children after their parent: every walk down a tree ends)
                raise ValueError(f"node {i} names a missing feature or child")
        if any(not 0 <= r < nodes for r in roots):
            raise ValueError("a forest's roots must be nodes")
        self.features = tuple(features)
        self.base = base
        self.roots = roots
        self.feature = feature
        self.threshold = threshold
        self.left = left
        self.right = right
        self.value = value
        self._cells = [Cell() for _ in features]
        self._lock = threading.Lock()
        linked: list[Node] = [NOWHERE] * nodes
        for i in range(nodes - 1, -1, -1):  # children first (they come after their parent)
            f = feature[i]
            linked[i] = Node(f, self._cells[f], threshold[i], value[i], linked[left[i]],
                             linked[right[i]]) if f >= 0 else Node(
                                 -1, NOWHERE.cell, threshold[i], value[i], NOWHERE, NOWHERE)
        self._trees = [linked[r] for r in roots]

    def __repr__(self) -> str:
        return f"Forest({len(self.roots)} trees, {len(self.feature)} nodes)"

    def predict(self, row: list[float]) -> float:
        """The forest's value for one row (one number per feature, in order)."""
        cells = self._cells
        with self._lock:  # (the cells hold this row until the walks are done)
            for i in range(len(cells)):
                cells[i].value = row[i]
            total = self.base
            for node in self._trees:
                while node.feature >= 0:
                    node = node.left if node.cell.value <= node.threshold else node.right
                total += node.value
        return total

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return Forest, (self.features, self.base, self.roots, self.feature, self.threshold,
                        self.left, self.right, self.value)

    def to_data(self) -> dict[str, object]:
        """The forest as JSON-ready data (:meth:`from_data` reads it back)."""
        return {"features": list(self.features), "base": self.base, "roots": self.roots,
                "feature": self.feature, "threshold": self.threshold, "left": self.left,
                "right": self.right, "value": self.value}

    @classmethod
    def from_data(cls, data: Mapping[str, object]) -> Forest:
        """Read a forest written by :meth:`to_data` (``ValueError`` if it is malformed)."""
        try:
            features = _list(data["features"])
            if not all(isinstance(f, str) for f in features):
                raise TypeError("feature names must be strings")
            return cls([str(f) for f in features], _floats([data["base"]])[0],
                       _ints(data["roots"]), _ints(data["feature"]),
                       _floats(data["threshold"]), _ints(data["left"]), _ints(data["right"]),
                       _floats(data["value"]))
        except (KeyError, TypeError) as error:
            raise ValueError(f"not a forest: {error}") from None


def _list(value: object) -> list[object]:
    if not isinstance(value, list):
        raise TypeError("expected a list")
    return value


def _ints(value: object) -> list[int]:
    found: list[int] = []
    for item in _list(value):
        if not isinstance(item, int) or isinstance(item, bool):
            raise TypeError("expected integers")
        found.append(item)
    return found


def _floats(value: object) -> list[float]:
    found: list[float] = []
    for item in _list(value):
        if not isinstance(item, (int, float)) or isinstance(item, bool) or not math.isfinite(
                item):
            raise TypeError("expected finite numbers")
        found.append(float(item))
    return found


__all__ = ["NOWHERE", "Cell", "Forest", "Node"]
