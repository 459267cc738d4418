"""The most tuples of several widths that the faces of a suit give, exactly.

A throw of e.g. a triple and a pair (``draw-out``), or any tuple led under
``breakdown`` (every narrower width counts too), asks for the most tuples of the widest
width, then of the next, and so on: the lexicographically greatest *count vector* (one
count per width) that fits the places the lead leaves (:class:`Places`) and that the
faces can be cut into. Both sets of vectors are closed downwards (dropping a tuple keeps
a vector fitting, and cut), so the greatest is found width by width: for each width in
turn, the greatest count that still fits and is cut with the counts already found (two
searches, each remembered: the greatest vector depends only on the copies of the faces).

:func:`most_tuples` then finds a way to cut it (where the caller needs one) with a
dynamic programme over the faces, whose order decides among equal ways, kept to the
vectors below the one found: those are reached, each first in the same way, as in the
programme over every vector that fits (which made thousands of states with 8 decks: a
tractor of 5-tuples left unmatched leaves 25 places for tuples of 7 widths, where nearly
ten thousand vectors fit).
"""

from __future__ import annotations

from itertools import product
from math import prod
from typing import Final

from shengji.engine.caches import remember
from shengji.engine.cards import Card

Value = tuple[int, ...]
Slots = tuple[tuple[int, int], ...]
"""Places for tuples: ``(cards, width)`` each (a ``k``-tuple goes in a place at least ``k``
wide with ``k`` cards left)."""
Layer = dict[int, tuple[int, Value]]
"""One face's step of the programme: each vector reached (its code), from which vector,
with which counts cut from the face (``()``: none, the vector was reached before)."""


def count_vectors(widths: list[int], cap: int, allowed: list[bool]) -> list[Value]:
    """Every count vector ``c`` (one count per width) with ``sum(k * c_k) <= cap``,
    widths not ``allowed`` taking none."""
    found: list[Value] = [()]
    for k, ok in zip(widths, allowed, strict=True):
        found = [(*v, c) for v in found
                 for c in range((cap - sum(w * x for w, x in zip(widths, v, strict=False)))
                                // k + 1 if ok else 1)]
    return found


class Places:
    """The places a lead leaves for tuples of ``widths`` (widest first), and which count
    vectors fit in them (a search placing the widest tuples first, remembered)."""

    def __init__(self, slots: Slots, widths: list[int]) -> None:
        self.widths = widths
        self.start = tuple(sorted((room, cap) for cap, room in slots if cap))
        self.memo: dict[tuple[Value, tuple[tuple[int, int], ...]], bool] = {}
        self.cut: dict[tuple[int, ...], Value] = {}  # the greatest vector of faces' copies

    def fits(self, vector: Value) -> bool:
        """Whether the tuples of ``vector`` fit in the places."""
        return self._fits(vector, self.start)

    def most(self, prefix: list[int]) -> int:
        """The most tuples of the next width (after the counts ``prefix``) that fit with
        those counts."""
        j = len(prefix)
        k = self.widths[j]
        rest = [0] * (len(self.widths) - j - 1)
        low, high = 0, sum(cap // k for room, cap in self.start if room >= k)
        while low < high:  # (what fits is closed downwards)
            mid = (low + high + 1) // 2
            if self.fits((*prefix, mid, *rest)):
                low = mid
            else:
                high = mid - 1
        return low

    def greatest(self) -> Value:
        """The greatest vector that fits (most tuples of the widest width first)."""
        found: list[int] = []
        for _ in self.widths:
            found.append(self.most(found))
        return tuple(found)

    def _fits(self, vector: Value, places: tuple[tuple[int, int], ...]) -> bool:
        """Whether ``vector`` fits in ``places`` (``(width, cards left)`` pairs, sorted)."""
        widths = self.widths
        j = 0
        while j < len(vector) and not vector[j]:
            j += 1
        if j == len(vector):
            return True
        if sum(vector[i] for i in range(j + 1, len(vector))) == 0:  # one width left
            k = widths[j]
            return sum(cap // k for room, cap in places if room >= k) >= vector[j]
        if sum(k * c for k, c in zip(widths, vector, strict=True)) > sum(
                cap for room, cap in places if room >= widths[-1]):
            return False
        key = (vector, places)
        found = self.memo.get(key)
        if found is None:
            found = False
            k = widths[j]
            rest = (*vector[:j], vector[j] - 1, *vector[j + 1:])
            for i, (room, cap) in enumerate(places):  # a tuple of the widest width left
                if room >= k and cap >= k and (i == 0 or places[i - 1] != (room, cap)):
                    after = tuple(sorted((*places[:i], (room, cap - k), *places[i + 1:])))
                    if self._fits(rest, after):
                        found = True
                        break
            remember(self.memo, key, found, 1 << 16)
        return found


def most_tuples(faces: list[tuple[Card, int]], places: Places, beat: Value | None = None
                ) -> tuple[Value, list[tuple[Card, Value]]]:
    """The greatest vector of tuples (widest first) that fits ``places`` and that
    ``faces`` (each with its copies) can be cut into, and a way to cut it (only if the
    vector is greater than ``beat``): the faces that give tuples, last first, each with
    its counts per width."""
    widths = places.widths
    moves = _MOVES.get(tuple(widths))  # the ways to cut n copies (one tuple at least)
    if moves is None:
        moves = _MOVES[tuple(widths)] = {}
    counts = tuple(sorted((n for _, n in faces if n >= widths[-1]), reverse=True))
    value = places.cut.get(counts)  # (it depends only on the copies of the faces)
    if value is None:
        holds = _Holds(list(counts), widths, moves)
        found: list[int] = []
        for j in range(len(widths)):
            count = places.most(found)
            rest = [0] * (len(widths) - j - 1)
            while count and not holds.holds(0, (*found, count, *rest)):
                count -= 1
            found.append(count)
        value = remember(places.cut, counts, tuple(found), 1 << 12)
    if beat is not None and value <= beat:
        return value, []
    layers = _programme(faces, widths, value, moves)
    cuts: list[tuple[Card, Value]] = []
    code = prod(c + 1 for c in value) - 1  # (the code of ``value``: the last of its box)
    for face, step in reversed(layers):
        code, option = step[code]
        if option:
            cuts.append((face, option))
    return value, cuts


class _Holds:
    """Whether faces (their copies, in order) can be cut into a vector of tuples: a
    search over the faces, remembering the vectors that faces from ``i`` on cannot give
    (a class, not a recursive closure: see :class:`~shengji.engine.structure._BestSearch`)."""

    def __init__(self, counts: list[int], widths: list[int], moves: dict[int, list[Value]]
                 ) -> None:
        self.counts = counts
        self.widths = widths
        self.moves = moves
        self.left = [0] * (len(counts) + 1)  # the copies of the faces from i on
        # the tuples at least as wide as each width that the faces from i on give at most
        self.most = [[0] * len(widths) for _ in range(len(counts) + 1)]
        for i in range(len(counts) - 1, -1, -1):
            self.left[i] = self.left[i + 1] + counts[i]
            for j, k in enumerate(widths):
                self.most[i][j] = self.most[i + 1][j] + counts[i] // k
        self.fails: set[tuple[int, Value]] = set()

    def holds(self, i: int, need: Value) -> bool:
        """Whether the faces from ``i`` on can be cut into ``need`` (at least)."""
        if not any(need):
            return True
        if sum(k * c for k, c in zip(self.widths, need, strict=True)) > self.left[i]:
            return False
        wider = 0
        for c, most in zip(need, self.most[i], strict=True):
            wider += c
            if wider > most:
                return False
        key = (i, need)
        if key in self.fails:
            return False
        options = _cuts(self.widths, self.counts[i], self.moves)
        for option in reversed(options):  # (the most cards first)
            if all(c <= r for c, r in zip(option, need, strict=True)) and self.holds(
                    i + 1, tuple([r - c for r, c in zip(need, option, strict=True)])):
                return True
        if self.holds(i + 1, need):
            return True
        self.fails.add(key)
        return False


def _cuts(widths: list[int], n: int, moves: dict[int, list[Value]]) -> list[Value]:
    """The ways to cut ``n`` copies into tuples of ``widths`` (one tuple at least),
    remembered in ``moves``."""
    found = moves.get(n)
    if found is None:
        found = moves[n] = [v for v in count_vectors(widths, n, [True] * len(widths))
                            if any(v)]
    return found


def _programme(faces: list[tuple[Card, int]], widths: list[int], bound: Value,
               moves: dict[int, list[Value]]) -> list[tuple[Card, Layer]]:
    """The steps of the faces that reach new vectors below ``bound`` (in each count),
    each vector coded in mixed radix in the box below ``bound`` and reached first from
    a vector with a cut of the face."""
    smallest = widths[-1]
    states: Layer = {0: (0, ())}
    layers: list[tuple[Card, Layer]] = []
    stale: set[int] = set()  # counts whose faces add nothing to the present states
    for face, n in faces:
        if n < smallest or n in stale:
            continue
        step: Layer = {code: (code, ()) for code in states}
        for option, table in _steps(widths, n, bound, moves):
            for code in states:
                new = table[code]
                if new >= 0 and new not in step:
                    step[new] = (code, option)
        if len(step) == len(states):
            stale.add(n)
            continue
        stale.clear()
        layers.append((face, step))
        states = step
    return layers


_MOVES: Final[dict[tuple[int, ...], dict[int, list[Value]]]] = {}
"""The ways to cut ``n`` copies into tuples of some widths (one tuple at least)."""

_STEPS: Final[dict[tuple[tuple[int, ...], Value, int], list[tuple[Value, list[int]]]]] = {}


def _steps(widths: list[int], n: int, bound: Value, moves: dict[int, list[Value]]
           ) -> list[tuple[Value, list[int]]]:
    """The cuts of ``n`` copies that stay below ``bound``, each with the code it leads to
    from each code of the box below ``bound`` (-1: out of it); kept (the bisection of
    :attr:`~shengji.engine.follow.LegalPlays.forced` asks for the same box again)."""
    key = (tuple(widths), bound, n)
    found = _STEPS.get(key)
    if found is None:
        codes = list(product(*(range(b + 1) for b in bound)))
        scale = [prod(b + 1 for b in bound[j + 1:]) for j in range(len(bound))]
        found = remember(_STEPS, key, [], 1 << 12)
        for option in _cuts(widths, n, moves):
            if any(c > b for c, b in zip(option, bound, strict=True)):
                continue
            shift = sum(c * m for c, m in zip(option, scale, strict=True))
            found.append((option, [i + shift if all(
                x + c <= b for x, c, b in zip(code, option, bound, strict=True)) else -1
                for i, code in enumerate(codes)]))
    return found
