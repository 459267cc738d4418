"""Whether a play can still reach the target under ``tuple_follow="protect"``.

Under ``protect`` a *hand*'s tuples longer than every led one are left out of its
structure value, so more cards can lower a hand's value. A *play*'s value, though,
counts every structure the play holds (a tuple it takes in part, as tuples of the led
widths: see :meth:`~shengji.engine.structure.Structure.best`), and it never falls when the
play holds one more card. A play of the led count is therefore legal exactly when it
holds a *witness*: led tractors matched as the target's (or one better, which decides),
then tuples in the places left, with as many cards in tuples of a led width and locked in
tuples as the target's, compared in that order. A tuple counts whole (locking a shorter
tuple in a wider place) only where the play takes every copy the hand holds and no
tractor took one.

:func:`protect_completes` decides whether some witness out of ``cards`` needs at most
``budget`` cards beyond those a play holds anyway (``free``): the listing of
:class:`~shengji.engine.follow.LegalPlays` then enters a branch only when a legal play
completes it, as :meth:`~shengji.engine.structure.Structure.completion_cost` lets it under
the other options (a listing under ``protect`` used to try every set of the led count in
turn, and take seconds where few of them are legal).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from shengji.engine.caches import remember
from shengji.engine.cards import Card
from shengji.engine.units import LevelCounts, give, placements, take

if TYPE_CHECKING:
    from shengji.engine.structure import Structure

Places = tuple[tuple[int, int], ...]
"""The tuple places left: ``(width, cards left)`` pairs, sorted (equal ones interchange)."""


def protect_completes(structure: Structure, cards: LevelCounts, free: dict[Card, int],
                      held: list[int], target: tuple[int, ...], budget: int) -> bool:
    """Whether a play holding at most ``cards`` (level -> face -> copies) reaches
    ``target`` with at most ``budget`` cards beyond ``free`` (copies of each face it holds
    anyway). ``held`` is the hand's count of each face: a face counts whole only when
    ``cards`` holds all of it. ``cards`` is changed during the search and restored."""
    search = _Witness(structure, cards, free, held, target, budget)
    search.tractors(0, 0, list(structure.slots))
    return search.found


class _Witness:
    """One search of :func:`protect_completes` (a class, not a recursive closure: see
    :class:`~shengji.engine.structure._BestSearch`)."""

    def __init__(self, structure: Structure, cards: LevelCounts, free: dict[Card, int],
                 held: list[int], target: tuple[int, ...], budget: int) -> None:
        self.structure = structure
        self.cards = cards
        self.left = dict(free)
        self.held = held
        self.target = target
        self.budget = budget
        self.found = False

    def tractors(self, i: int, cost: int, slots: list[tuple[int, int]]) -> None:
        """Match led tractors ``i`` on, ``cost`` paid so far (``slots``: the places)."""
        structure = self.structure
        if i == len(structure.tractors):
            self.found = self._tuples(slots, self.budget - cost)
            return
        trump, rules, cards, left = structure.trump, structure.rules, self.cards, self.left
        unit, want = structure.tractors[i], self.target[i]
        for width, length in structure.shapes[i]:  # longest first (a code is the length)
            if length < want:
                break
            for _, faces in placements(cards, width, length, trump, rules):
                extra = 0
                saved = [left.get(f, 0) for f in faces]
                for f, r in zip(faces, saved, strict=True):
                    if width > r:
                        extra += width - r
                        left[f] = 0
                    else:
                        left[f] = r - width
                if cost + extra <= self.budget:
                    if length > want:  # better than the target's: that decides
                        self.found = True
                    else:
                        rest = unit.size - width * length
                        take(cards, trump, faces, width)
                        self.tractors(i + 1, cost + extra, slots + (
                            [(rest, unit.width)] if rest and structure.unmatched_slots
                            else []))
                        give(cards, trump, faces, width)
                for f, r in zip(faces, saved, strict=True):
                    left[f] = r
                if self.found:
                    return
        if want == 0:  # no tractor: the unit's places take tuples
            self.tractors(i + 1, cost, slots + (
                [(unit.size, unit.width)] if structure.unmatched_slots else []))

    def _tuples(self, slots: list[tuple[int, int]], budget: int) -> bool:
        """Whether tuples in ``slots`` ((cards, width) each) reach the target's last two
        entries (cards in led-width tuples, cards locked) within ``budget``: a dynamic
        programme over the faces, on the places left, keeping for each the ways (cards
        locked in a wider place, cost) that no other way betters in both. A way is
        dropped once the copies of the faces left (or the places left) cannot fill
        enough places to reach the target."""
        want = self.target[len(self.structure.tractors):]
        if not want or not any(want):
            return True
        if budget < 0:
            return False
        full, locked = want[0], want[1]
        start: Places = tuple(sorted((room, cap) for cap, room in slots))
        total = sum(cap for _, cap in start)
        states: dict[Places, list[tuple[int, int]]] = {start: [(0, 0)]}
        held, left = self.held, self.left
        faces = sorted(((f, n) for by_face in self.cards.values() for f, n in by_face.items()
                        if n >= 2), key=lambda fn: -fn[1])  # (the most copies first)
        copies = sum(n for _, n in faces)  # of the faces from this one on
        rooms = sorted({room for room, _ in start})
        tuples = [sum(n // room for _, n in faces) for room in rooms]  # of each width, so
        for face, n in faces:
            copies -= n
            for k, room in enumerate(rooms):
                tuples[k] -= n // room
            r = left.get(face, 0)
            step = {places: list(ways) for places, ways in states.items()}
            for places, ways in states.items():
                for after, used, wider in _moves(places, n, n == held[face]):
                    paid = used - r if used > r else 0
                    cards = total - sum(cap for _, cap in after)
                    for loose, cost in ways:
                        if cost + paid > budget:
                            continue
                        fuller = cards - loose - wider
                        if fuller > full or (fuller == full and cards >= locked):
                            return True
                        _better(step, after, loose + wider, cost + paid)
            states = {}
            for places, ways in step.items():  # the ways that can still reach the target
                cards = total - sum(cap for _, cap in places)
                most = cards + min(copies, sum(cap for _, cap in places if cap >= 2))
                # (cards in tuples of a led width: as many as each width's places hold)
                exact = min(copies, sum(room * min(count, sum(
                    cap // room for width, cap in places if width == room))
                    for room, count in zip(rooms, tuples, strict=True)))
                hopeful = [(loose, cost) for loose, cost in ways
                           if cards - loose + exact > full or (
                               cards - loose + exact == full and most >= locked)]
                if hopeful:
                    states[places] = hopeful
        return False


def play_value(faces: list[tuple[Card, int]], slots: list[tuple[int, int]],
               parts: frozenset[Card]) -> tuple[int, int]:
    """The tuples' part of a play's structure value under protected tuples: the cards in
    tuples of a led width and the cards locked in tuples, the most (in that order) over the
    ways to put the play's faces (each with its copies) in ``slots`` ((cards, width) each).

    A play counts for every structure it holds: a face may be placed whole in a place at
    least as wide, or cut into tuples of exactly a led width each ("he can still play it
    if he wants to"), so a 4-tuple played on two led pairs counts as both. A face in
    ``parts`` (part of a longer held tuple) counts only cut: a pair split off a triple is
    not one of the held doubles that lock cards (a quadruple led on a triple, a double and
    singles takes "the triple and a single", not the double and two of the triple).
    A dynamic programme over the faces on the places left (which decide the cards
    locked), keeping the fewest cards locked in a wider place for each."""
    start: Places = tuple(sorted((room, cap) for cap, room in slots))
    total = sum(cap for _, cap in start)
    states: dict[Places, int] = {start: 0}
    for face, n in faces:
        if n < 2:
            continue
        whole = face not in parts
        step = dict(states)
        for places, loose in states.items():
            for after, _, wider in _moves(places, n, whole):
                if step.get(after, loose + wider + 1) > loose + wider:
                    step[after] = loose + wider
        states = step
    best = (0, 0)
    for places, loose in states.items():
        locked = total - sum(cap for _, cap in places)
        if (locked - loose, locked) > best:
            best = (locked - loose, locked)
    return best


def _better(states: dict[Places, list[tuple[int, int]]], places: Places, loose: int,
            cost: int) -> None:
    """Add the way ``(loose, cost)`` to ``places`` unless one there is as good in both
    (fewer cards locked in a wider place, lower cost), dropping those it betters."""
    ways = states.get(places)
    if ways is None:
        states[places] = [(loose, cost)]
        return
    for other, paid in ways:
        if other <= loose and paid <= cost:
            return
    ways[:] = [(other, paid) for other, paid in ways if other < loose or paid < cost]
    ways.append((loose, cost))


_MOVES: Final[dict[tuple[Places, int, bool], list[tuple[Places, int, int]]]] = {}


def _moves(places: Places, n: int, whole: bool) -> list[tuple[Places, int, int]]:
    """The ways a face held ``n`` times can fill ``places``: cut into tuples of the places'
    widths (at least one), or (``whole``) put whole into a wider place. Each with the
    places left, the cards used and the cards locked in a wider place (kept: they depend
    on nothing else)."""
    key = (places, n, whole)
    found = _MOVES.get(key)
    if found is not None:
        return found
    found = remember(_MOVES, key, [], 1 << 14)
    caps = [cap for _, cap in places]
    _cuts(places, caps, 0, n, 0, found)
    if whole:
        seen: set[tuple[int, int]] = set()
        for j, (room, cap) in enumerate(places):
            if room > n and cap >= n and (room, cap) not in seen:
                seen.add((room, cap))
                after = list(places)
                after[j] = (room, cap - n)
                found.append((tuple(sorted(after)), n, n))
    return found


def _cuts(places: Places, caps: list[int], j: int, n: int, used: int,
          found: list[tuple[Places, int, int]], last: int = 0) -> None:
    """:func:`_moves`' cuts: tuples of ``places[j:]``'s widths out of ``n`` copies (``last``
    cut into the place before: an equal place takes no more, which lists each way once)."""
    if j == len(places):
        if used:
            found.append((tuple(sorted(zip([room for room, _ in places], caps,
                                           strict=True))), used, 0))
        return
    room, cap = places[j]
    most = min(cap, n) // room
    if j and places[j - 1] == (room, cap) and last < most:
        most = last
    for c in range(most + 1):
        caps[j] = cap - c * room
        _cuts(places, caps, j + 1, n - c * room, used + c * room, found, c)
    caps[j] = cap
