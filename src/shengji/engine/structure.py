"""The structure a follow must match: one lead's obligations under one set of rules.

Rule 3 of following (seeds wikipedia and wikipedia_2006; rules 1 and 2 are in
:mod:`shengji.engine.follow`): match the lead's structure as far as the hand allows. How far
is measured by a *structure value*, a tuple compared lexicographically: first, for each led
tractor (largest first), the length of the tractor matched; then the tuples matched, larger
tuples first. A play is legal when its value is at least the best value the hand could
reach. Which structures count is set by :class:`~shengji.engine.rules.TupleFollow` and
:class:`~shengji.engine.rules.TractorFollow`.

:class:`Structure` finds the best value a set of cards reaches (:meth:`Structure.best`) and
whether some cards can still complete a target (:meth:`Structure.completion_cost`); under
protected tuples the exact programmes are in :mod:`shengji.engine.protect`, with several
led tuple widths in :mod:`shengji.engine.mixed`.
"""

from __future__ import annotations

from itertools import product
from math import prod
from random import Random
from typing import Final

from shengji.engine.caches import remember
from shengji.engine.cards import Card
from shengji.engine.lead import Lead
from shengji.engine.mixed import Places, count_vectors, most_tuples
from shengji.engine.protect import play_value
from shengji.engine.rules import Rules, TractorFollow, TupleFollow
from shengji.engine.trump import Trump
from shengji.engine.units import (
    LevelCounts,
    give,
    placements,
    shape_allowed,
    shape_name,
    take,
    tuple_name,
)

Value = tuple[int, ...]
Used = list[tuple[int, tuple[Card, ...], int]]  # (value index, faces, copies of each)


class Structure:
    """The structure obligations of one lead under one set of rules."""

    def __init__(self, lead: Lead, trump: Trump, rules: Rules) -> None:
        self.trump = trump
        self.rules = rules
        self.exact = rules.tuple_follow == TupleFollow.PROTECT
        policy = rules.tractor_follow
        none = rules.tuple_follow == TupleFollow.NONE
        self.tractors = [] if none or policy == TractorFollow.TUPLES else [
            u for u in lead.units if u.length > 1
        ]
        self.slots = [
            (u.size, u.width) for u in lead.units
            if u.width > 1 and (u.length == 1 or policy == TractorFollow.TUPLES) and not none
        ]
        self.unmatched_slots = policy not in (TractorFollow.TRACTOR_ONLY,) and not none
        self.longest = policy == TractorFollow.LONGEST
        self.breakdown = rules.tuple_follow == TupleFollow.BREAKDOWN
        self.widths = sorted({w for _, w in self.slots} | {
            u.width for u in self.tractors if u.width > 1 and self.unmatched_slots
        }, reverse=True)
        if self.breakdown and self.widths:  # every narrower tuple may fill a place too
            self.widths = list(range(self.widths[0], 1, -1))
        # the tractors that answer each led tractor, best first (a value entry codes one:
        # its length; under breakdown, its rank from the end of this list)
        self.shapes: list[list[tuple[int, int]]] = []
        for u in self.tractors:
            widths = range(u.width, 1, -1) if self.breakdown and u.width > 1 else (u.width,)
            lengths = range(u.length, 1, -1) if self.longest else (u.length,)
            self.shapes.append([(w, n) for w in widths for n in lengths
                                if shape_allowed(w, n, rules)])
        self.labels: list[str] = [shape_name(u.width, u.length) for u in self.tractors]
        if self.exact:
            if self.widths:
                self.labels += ["cards in tuples of the led size", "cards in tuples"]
        else:
            self.labels += [tuple_name(w, plural=True) for w in self.widths]
        self.trivial = not self.labels
        self._fits: dict[tuple[tuple[int, int], ...], Places] = {}
        self._ceiling: Value | None = None
        self._move_cache: dict[tuple[Value, int], list[tuple[int, Value, list[int]]]] = {}

    def tractor_shape(self, i: int, code: int) -> tuple[int, int]:
        """The ``(width, length)`` of the tractor that a value entry ``code`` (not 0)
        records for led tractor ``i``."""
        if self.breakdown:
            return self.shapes[i][len(self.shapes[i]) - code]
        return self.tractors[i].width, code

    def best(self, cards: LevelCounts, rng: Random | None = None,
             broken: frozenset[Card] | None = None, enough: Value | None = None
             ) -> tuple[Value, Used]:
        """The best structure value reachable with ``cards``, and the cards that reach it
        (with ``enough``, the search stops at a value equal to it: enough for a check).

        ``broken`` is given (possibly empty) when ``cards`` is a play rather than a hand,
        and names the faces the play takes in part from a longer held tuple. It matters
        only with protected tuples, where a hand's longer tuples are left out but a play
        counts for every structure it holds: a broken part, or a protected tuple played
        whole, counts as tuples of the led sizes (a 4-tuple as two pairs, a triple as a
        pair of a tractor)."""
        if self.trivial:
            return (), []
        play = broken is not None
        # the search stops at the highest value the lead allows (every tractor matched,
        # every tuple place filled); with two decks or fewer a random search goes on, so
        # that random draws stay as they were
        ceiling = enough if enough is not None else (
            self.ceiling if rng is None or self.rules.decks > 2 else None)
        # protect: the faces of the play that count only as led-size tuples (tracked)
        search = _BestSearch(self, cards, rng, self.exact and not play, self.exact and play,
                             set(broken or ()), ceiling)
        search.rec(0, (), list(self.slots))
        return search.best[0]

    def _tuples(self, cards: LevelCounts, slots: list[tuple[int, int]],
                rng: Random | None, broken: frozenset[Card] | None = None,
                beat: Value | None = None) -> tuple[Value, Used]:
        if not self.widths:
            return (), []
        base = len(self.tractors)
        free = [cap for cap, _ in slots]
        room = [w for _, w in slots]
        faces = [(f, n) for by_face in cards.values() for f, n in by_face.items()]
        if rng is not None:
            rng.shuffle(faces)
        if self.exact and broken is not None:  # a play: its value alone is asked for
            return play_value(faces, slots, broken), []
        if self.exact:
            return self._protected(faces, free, room, base)
        if len(self.widths) > 1:
            return self._mixed(faces, slots, base, beat)
        # one width: as many tuples as the faces give and the places hold (cap // k in
        # each), so placing them one by one is exact: the faces held most first (in the
        # given order among equals), each tuple in the fullest place that takes it (the
        # first of equals); once no place takes one, none will
        k = self.widths[0]
        used: Used = []
        slots_at = range(len(free))
        most = 0
        for _, n in faces:
            if n > most:
                most = n
        # the faces by copies, most first, in the given order among equals (a stable sort
        # by copies, done by walking the counts down: no key function per face)
        ordered = [(face, n) for copies in range(most, k - 1, -1)
                   for face, n in faces if n == copies]
        for face, n in ordered:
            while n >= k:
                j = -1
                for i in slots_at:
                    if room[i] >= k and free[i] >= k and (j < 0 or free[i] < free[j]):
                        j = i
                if j < 0:
                    return (len(used),), used
                free[j] -= k
                n -= k
                used.append((base, (face,), k))
        return (len(used),), used

    @property
    def ceiling(self) -> Value | None:
        """The highest value the lead allows (``None`` under ``protect``)."""
        if self.exact:
            return None
        if self._ceiling is None:
            widths = self.widths
            tuples: Value = () if not widths else (
                sum(cap // widths[0] for cap, room in self.slots if room >= widths[0]),
            ) if len(widths) == 1 else self._places(self.slots).greatest()
            self._ceiling = tuple(
                len(self.shapes[i]) if self.breakdown else u.length
                for i, u in enumerate(self.tractors)) + tuples
        return self._ceiling

    def _places(self, slots: list[tuple[int, int]]) -> Places:
        """Which vectors (tuples of each width in ``self.widths``) fit in the slots: a
        ``k``-tuple fits a slot of width at least ``k`` with ``k`` places left."""
        key = tuple(slots)
        found = self._fits.get(key)
        if found is None:
            found = self._fits[key] = Places(key, self.widths)
        return found

    def _moves(self, caps: Value, n: int) -> list[tuple[int, Value, list[int]]]:
        """How a face held ``n`` times can add tuples to a count vector bounded by
        ``caps`` (vectors coded in mixed radix, in lexicographic order): for each way,
        its cards, its counts and the new code of each code (-1 past the caps)."""
        key = (caps, n)
        found = self._move_cache.get(key)
        if found is None:
            codes = list(product(*(range(c + 1) for c in caps)))
            scale = [prod(c + 1 for c in caps[j + 1:]) for j in range(len(caps))]
            found = []
            for option in count_vectors(self.widths, n, [True] * len(caps)):
                size = sum(k * c for k, c in zip(self.widths, option, strict=True))
                if not size or any(c > cap for c, cap in zip(option, caps, strict=True)):
                    continue
                step = sum(c * m for c, m in zip(option, scale, strict=True))
                table = [i + step if all(x + c <= cap for x, c, cap in zip(
                    code, option, caps, strict=True)) else -1 for i, code in enumerate(codes)]
                found.append((size, option, table))
            self._move_cache[key] = found
        return found

    def _mixed(self, faces: list[tuple[Card, int]], slots: list[tuple[int, int]],
               base: int, beat: Value | None = None) -> tuple[Value, Used]:
        """Tuples of several widths (a throw of e.g. a triple and a pair): the most tuples
        of the widest width, then of the next..., exactly (see :func:`most_tuples`; the
        order of the faces decides among equal choices). The cards only for more than
        ``beat``."""
        widths = self.widths
        value, cuts = most_tuples(faces, self._places(slots), beat)
        used: Used = []
        for face, option in cuts:
            for j, copies in enumerate(option):
                used += [(base + j, (face,), widths[j])] * copies
        return value, used

    def completion_cost(self, cards: LevelCounts, free: dict[Card, int], target: Value,
                        budget: int | None = None) -> int | None:
        """The fewest cards beyond ``free`` that a play reaching ``target`` out of
        ``cards`` must hold: the minimum over the ways to reach it of
        ``sum(max(0, used[f] - free[f]))``; ``None`` if ``cards`` cannot reach it. With
        ``budget``, the cost of the first way found within it (``None``: none is).

        Only for rules where more cards never lower the value (not ``protect``): a play
        is then legal exactly when it holds such a way."""
        tractors, trump, rules = self.tractors, self.trump, self.rules
        best: list[int] = [] if budget is None else [budget + 1]
        enough = 0 if budget is None else budget
        left = dict(free)

        def rec(i: int, cost: int) -> None:
            if best and cost >= best[0]:
                return
            if i == len(tractors):
                paid = self._tuple_cost(cards, left, target[len(tractors):],
                                        best[0] - cost - 1 if best else None)
                if paid is not None and (not best or cost + paid < best[0]):
                    best[:] = [cost + paid]
                return
            if target[i] == 0:  # no tractor (the tuples' target counts the places it leaves)
                rec(i + 1, cost)
                return
            width, length = self.tractor_shape(i, target[i])
            for _, faces in placements(cards, width, length, trump, rules):
                extra = 0
                saved = [left.get(f, 0) for f in faces]
                for f, r in zip(faces, saved, strict=True):
                    extra += max(0, width - r)
                    left[f] = max(0, r - width)
                take(cards, trump, faces, width)
                rec(i + 1, cost + extra)
                give(cards, trump, faces, width)
                for f, r in zip(faces, saved, strict=True):
                    left[f] = r
                if best and best[0] <= enough:
                    return

        rec(0, 0)
        return best[0] if best and (budget is None or best[0] <= budget) else None

    def _tuple_cost(self, cards: LevelCounts, free: dict[Card, int], target: Value,
                    limit: int | None = None) -> int | None:
        """:meth:`completion_cost` of the tuple part: ``target`` counts the tuples of each
        width (the places they fill are those of the target's own tractor lengths); ways
        costing more than ``limit`` are left out."""
        widths = self.widths
        if not widths or not any(target):
            return 0
        if len(widths) == 1:
            k, need = widths[0], target[0]
            costs: list[int] = []
            for by_face in cards.values():
                for f, n in by_face.items():
                    r = free.get(f, 0)
                    costs += [min(k, max(0, j * k - r)) for j in range(1, n // k + 1)]
            if len(costs) < need:
                return None
            costs.sort()
            return sum(costs[:need])
        # several widths: the cheapest way to draw target[j] tuples of width widths[j]
        smallest = widths[-1]
        states: dict[int, int] = {0: 0}
        for by_face in cards.values():
            for f, n in by_face.items():
                if n < smallest:
                    continue
                r = free.get(f, 0)
                step = dict(states)
                for size, _, table in self._moves(target, n):
                    paid = size - r if size > r else 0
                    for code, cost in states.items():
                        new = table[code]
                        if new >= 0 and step.get(new, cost + paid + 1) > cost + paid and (
                                limit is None or cost + paid <= limit):
                            step[new] = cost + paid
                states = step
        return states.get(prod(t + 1 for t in target) - 1)  # the code of ``target``

    @staticmethod
    def _protected(faces: list[tuple[Card, int]], free: list[int], room: list[int],
                   base: int) -> tuple[Value, Used]:
        """Seed 2006, rule 2: held tuples as wide as a led one first, then as many cards
        locked in (shorter) tuples as fit. An exact search: a greedy packing misses e.g.
        two pairs (4 cards) against a triple (3) under a led quadruple.

        A hand's tuples longer than every led one are protected: they are left out. (A
        play's value is :func:`~shengji.engine.protect.play_value`'s: there a tuple may
        also count as tuples of the led widths cut out of it.)"""
        widest = max(room, default=0)
        items = [(f, n) for f, n in faces if 2 <= n <= widest]
        Best = tuple[tuple[int, int], tuple[tuple[Card, int, bool], ...]]
        memo: dict[tuple[int, tuple[int, ...]], Best] = {}

        def solve(i: int, left: tuple[int, ...]) -> Best:
            if i == len(items):
                return (0, 0), ()
            key = (i, left)
            if key not in memo:
                face, n = items[i]
                best = solve(i + 1, left)
                tried: set[tuple[int, int]] = set()
                for j, cap in enumerate(left):
                    if room[j] < n or cap < n or (room[j], cap) in tried:
                        continue
                    tried.add((room[j], cap))
                    (full, locked), picks = solve(i + 1, (*left[:j], cap - n, *left[j + 1:]))
                    exact = room[j] == n
                    value = (full + (n if exact else 0), locked + n)
                    if value > best[0]:
                        best = (value, ((face, n, exact), *picks))
                memo[key] = best
            return memo[key]

        value, picks = solve(0, tuple(free))
        return value, [(base if exact else base + 1, (face,), n) for face, n, exact in picks]


class _BestSearch:
    """One search of :meth:`Structure.best` (a class, not a closure [compiled build])."""

    def __init__(self, structure: Structure, cards: LevelCounts, rng: Random | None,
                 exact: bool, track: bool, pieces: set[Card], ceiling: Value | None) -> None:
        self.structure = structure
        self.cards = cards
        self.rng = rng
        self.exact = exact
        self.track = track
        self.pieces = pieces
        self.ceiling = ceiling
        self.best: list[tuple[Value, Used]] = []
        self.used: Used = []

    def rec(self, i: int, value: Value, slots: list[tuple[int, int]]) -> None:
        """Match led tractors ``i`` on (``value`` so far, ``slots`` the tuple places)."""
        best, structure, cards = self.best, self.structure, self.cards
        if best and best[0][0] == self.ceiling:
            return
        tractors, trump, rules = structure.tractors, structure.trump, structure.rules
        pieces, track, rng, used = self.pieces, self.track, self.rng, self.used
        if i == len(tractors):
            beat: Value | None = None  # (the tuples must pass it to count: their cards
            if best:  # are not needed otherwise)
                head = best[0][0][:len(value)]
                if head > value and rng is None:
                    return  # (a random search draws on: its draws stay as they were)
                beat = best[0][0][len(value):] if head == value else None
            tier, extra = structure._tuples(cards, slots, rng,
                                            frozenset(pieces) if track else None, beat)
            total = value + tier
            if not best or total > best[0][0]:
                best[:] = [(total, used + extra)]
            return
        unit = tractors[i]
        shapes = structure.shapes[i]
        for rank, (width, length) in enumerate(shapes):
            options = list(placements(cards, width, length, trump, rules, exact=self.exact))
            if not options:
                continue
            if rng is not None:
                rng.shuffle(options)
            rest = unit.size - width * length
            more = [(rest, unit.width)] if rest and structure.unmatched_slots else []
            code = len(shapes) - rank if structure.breakdown else length
            for _, faces in options:
                split = [f for f in faces if f not in pieces
                         and cards[trump.levels[f]][f] > width] if track else []
                pieces.update(split)
                take(cards, trump, faces, width)
                used.append((i, faces, width))
                self.rec(i + 1, (*value, code), slots + more)
                used.pop()
                give(cards, trump, faces, width)
                pieces.difference_update(split)
            return
        more = [(unit.size, unit.width)] if structure.unmatched_slots else []
        self.rec(i + 1, (*value, 0), slots + more)


_STRUCTURES: Final[dict[tuple[int, int, tuple[tuple[int, int], ...]], Structure]] = {}


def structure_of(lead: Lead, trump: Trump, rules: Rules) -> Structure:
    """The :class:`Structure` of ``lead``, shared by the leads of the same unit shapes
    under the same trump and rules (it depends on nothing else; its caches last)."""
    key = (id(trump), id(rules), tuple([u.shape for u in lead.units]))
    found = _STRUCTURES.get(key)
    if found is None or found.trump is not trump or found.rules is not rules:
        found = remember(_STRUCTURES, key, Structure(lead, trump, rules), 4096)
    return found
