"""Combinations: singles, n-tuples, tractors, and the readings of a set of cards.

A *unit* is ``length`` consecutive levels of one effective suit, each holding
``width`` identical cards: a single is 1×1, a pair 2×1, a triple 3×1, a
tractor 2×2 or longer, and (when ``tractor_min_width`` is 1, the one-deck
variant) consecutive singles form a sequence. A *throw* (甩牌) is several units
of one effective suit played together.

A set of cards may be read several ways; :func:`readings` lists them all.

>>> from shengji.engine.trump import Trump
>>> t = Trump.parse("7C"); r = Rules(decks=3)
>>> [" + ".join(u.describe() for u in reading)
...  for reading in readings(parse_cards("2H 2H 3H 3H 3H"), t, r)]
['tractor of 2 pairs + single', 'triple + pair']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import product
from typing import Final

from shengji.engine.caches import remember
from shengji.engine.cards import Card, card_int, card_ints, format_cards, parse_cards
from shengji.engine.rules import Rules
from shengji.engine.trump import Trump, suit_name

LevelCounts = dict[int, dict[Card, int]]
"""Cards of one effective suit: level -> face -> count."""

_TUPLE_NAMES: Final = {1: "single", 2: "pair", 3: "triple"}


def tuple_name(width: int, plural: bool = False) -> str:
    """``pair``/``pairs``, ``triple``, ``4-tuple``..."""
    name = _TUPLE_NAMES.get(width, f"{width}-tuple")
    return name + ("s" if plural else "")


@dataclass(frozen=True, slots=True)
class Unit:
    """One combination: ``length`` consecutive levels of ``width`` identical cards."""

    suit: int
    width: int
    length: int
    top: int
    cards: tuple[Card, ...]

    @property
    def size(self) -> int:
        """Number of cards."""
        return self.width * self.length

    @property
    def shape(self) -> tuple[int, int]:
        """``(width, length)``."""
        return (self.width, self.length)

    @property
    def is_tractor(self) -> bool:
        """True for two or more consecutive levels."""
        return self.length > 1

    def describe(self) -> str:
        """``single``, ``pair``, ``triple``, ``tractor of 3 pairs``, ``sequence of 4``."""
        return shape_name(self.width, self.length)

    def __str__(self) -> str:
        return format_cards(self.cards)

    def __repr__(self) -> str:
        return f"<Unit {self.describe()} {self} in {suit_name(self.suit)}>"


def shape_name(width: int, length: int) -> str:
    """A player's name for a unit shape."""
    if length == 1:
        return tuple_name(width)
    if width == 1:
        return f"sequence of {length}"
    return f"tractor of {length} {tuple_name(width, plural=True)}"


Reading = tuple[Unit, ...]
"""One way to read a set of cards as units, largest unit first."""


def unit_order(unit: Unit) -> tuple[int, int, int, int]:
    """Sort key putting the largest unit first (cards, width, then strength)."""
    return (-unit.size, -unit.width, -unit.length, -unit.top)


def level_counts(cards: Iterable[Card], trump: Trump) -> dict[int, LevelCounts]:
    """Group cards by effective suit, level and face."""
    groups: dict[int, LevelCounts] = {}
    suits, levels = trump.suit_index, trump.levels
    for card in cards:  # (get, not setdefault with a new dict [compiled build])
        index = card_int(card)
        suit, level = suits[index], levels[index]
        by_level = groups.get(suit)
        if by_level is None:
            groups[suit] = {level: {card: 1}}
            continue
        by_face = by_level.get(level)
        if by_face is None:
            by_level[level] = {card: 1}
        else:
            by_face[card] = by_face.get(card, 0) + 1
    return groups


def counts_of_suit(counts: list[int], suit: int, trump: Trump) -> LevelCounts:
    """The cards of one effective suit in a per-face count list."""
    result: LevelCounts = {}
    levels, faces = trump.levels, trump.suit_faces[suit]
    for i, index in enumerate(card_ints(faces)):  # (index: the face as an int)
        n = counts[index]
        if n:
            face, level = faces[i], levels[index]
            by_face = result.get(level)
            if by_face is None:
                result[level] = {face: n}
            else:
                by_face[face] = n
    return result


def shape_allowed(width: int, length: int, rules: Rules) -> bool:
    """Whether ``width``×``length`` is a unit under the rules (tuples up to ``decks``)."""
    if width > rules.decks or width < 1 or length < 1:
        return False
    if length == 1:
        return True
    return width >= rules.tractor_min_width and length >= rules.tractor_min_length


def placements(
    cards: LevelCounts,
    width: int,
    length: int,
    trump: Trump,
    rules: Rules,
    *,
    exact: bool = False,
    above: int = -1,
) -> Iterator[tuple[int, tuple[Card, ...]]]:
    """Every way to take a ``width``×``length`` unit from ``cards``: ``(top, faces)``.

    ``faces`` lists one face per level, bottom first. With ``exact`` only faces
    held exactly ``width`` times qualify (longer tuples are protected). Only
    units whose top level is above ``above`` are produced.
    """
    def ok(count: int) -> bool:
        return count == width if exact else count >= width

    if length == 1:  # one level: the faces held at least width (exactly, if exact) times
        for top in sorted(cards, reverse=True):
            if top <= above:
                break
            good = [f for f, n in cards[top].items() if (n == width if exact else n >= width)]
            if good:
                good.sort()
                for face in good:
                    yield top, (face,)
        return
    high = trump.high
    for top in sorted(cards, reverse=True):
        if top <= above:
            break
        choices: list[list[Card]] = []
        for level in range(top - length + 1, top + 1):
            faces = cards.get(level)
            if not faces:
                break
            good = [f for f, n in faces.items() if ok(n)]
            if length > 1 and not rules.tractor_high_trumps:
                good = [f for f in good if not high[f]]
            if not good:
                break
            choices.append(sorted(good))
        else:
            for combo in product(*choices):
                yield top, combo


UnitSpec = tuple[int, int, int, tuple[Card, ...]]
"""A unit as ``(suit, width, top level, faces bottom first)``."""


UnitBlock = tuple[int, int, list[Card], list[tuple[int, tuple[Card, ...]]]]
"""The units of one suit and width: ``(suit, width, faces of the tuples, tractors as
(top level, faces bottom first))``."""


def unit_blocks(counts: list[int], trump: Trump, rules: Rules) -> list[UnitBlock]:
    """:func:`unit_specs` grouped by suit and width, without a tuple per unit."""
    blocks: list[UnitBlock] = []
    levels, high = trump.levels, trump.high
    decks, min_width = rules.decks, rules.tractor_min_width
    min_length, chains = rules.tractor_min_length, rules.tractor_high_trumps
    for suit, faces in enumerate(trump.suit_faces):
        # (the faces read as ints [compiled build])
        held = [faces[i] for i, face in enumerate(card_ints(faces)) if counts[face]]
        width = 1
        while held and width <= decks:
            tractors: list[tuple[int, tuple[Card, ...]]] = []
            if width >= min_width and len(held) >= min_length:  # a tractor may form
                by_level: dict[int, list[Card]] = {}
                for f in held:
                    if chains or not high[card_int(f)]:
                        level = levels[card_int(f)]
                        if level in by_level:
                            by_level[level].append(f)
                        else:
                            by_level[level] = [f]
                for top in by_level if len(by_level) >= min_length else ():
                    bottom = top
                    while bottom - 1 in by_level:
                        bottom -= 1
                        if top - bottom + 1 < min_length:
                            continue
                        window = [by_level[lv] for lv in range(bottom, top + 1)]
                        if all(len(level_faces) == 1 for level_faces in window):
                            tractors.append((top, tuple(f[0] for f in window)))
                        else:
                            tractors += [(top, combo) for combo in product(*window)]
            blocks.append((suit, width, held, tractors))
            width += 1
            if width <= decks:
                held = [f for f in held if counts[card_int(f)] >= width]
    return blocks


def unit_specs(counts: list[int], trump: Trump, rules: Rules) -> list[UnitSpec]:
    """Every distinct unit (single, tuple, tractor) that per-face ``counts`` hold: by
    effective suit, then width; in each, the tuples from the weakest up, then the
    tractors by top level (the shortest first), their faces in index order."""
    specs: list[UnitSpec] = []
    levels = trump.levels
    for suit, width, held, tractors in unit_blocks(counts, trump, rules):
        specs += [(suit, width, levels[f], (f,)) for f in held]
        specs += [(suit, width, top, faces) for top, faces in tractors]
    return specs


def unit_spec_at(blocks: list[UnitBlock], index: int, trump: Trump) -> UnitSpec:
    """The ``index``-th of the :func:`unit_specs` that ``blocks`` group."""
    for suit, width, held, tractors in blocks:
        if index < len(held):
            face = held[index]
            return suit, width, trump.levels[face], (face,)
        index -= len(held)
        if index < len(tractors):
            top, faces = tractors[index]
            return suit, width, top, faces
        index -= len(tractors)
    raise IndexError("unit index out of range")


_UNITS: Final[dict[tuple[int, int, int, tuple[Card, ...]], Unit]] = {}
"""The units :func:`make_unit` made, by suit, width, top and faces (units are immutable:
made once [compiled build])."""


def make_unit(suit: int, width: int, top: int, faces: tuple[Card, ...]) -> Unit:
    """The unit taking ``width`` copies of each face (faces bottom first); made once."""
    key = (suit, width, top, faces)
    unit = _UNITS.get(key)
    if unit is None:
        unit = remember(_UNITS, key, Unit(suit, width, len(faces), top,
                                          tuple(f for f in faces for _ in range(width))), 8192)
    return unit


def _take(cards: LevelCounts, trump: Trump, faces: tuple[Card, ...], width: int, sign: int) -> None:
    levels = trump.levels
    for face in faces:
        by_face = cards.setdefault(levels[face], {})
        n = by_face.get(face, 0) - sign * width
        if n:
            by_face[face] = n
        else:
            del by_face[face]
            if not by_face:
                del cards[levels[face]]


def take(cards: LevelCounts, trump: Trump, faces: tuple[Card, ...], width: int) -> None:
    """Remove ``width`` copies of each face from ``cards`` (in place)."""
    _take(cards, trump, faces, width, 1)


def give(cards: LevelCounts, trump: Trump, faces: tuple[Card, ...], width: int) -> None:
    """Put back what :func:`take` removed."""
    _take(cards, trump, faces, width, -1)


def readings(cards: Iterable[Card | str], trump: Trump, rules: Rules) -> list[Reading]:
    """Every maximal way to read the cards as units of one effective suit.

    A reading is maximal when no two of its units together form one unit
    (splitting a pair into two singles is not another reading). Readings are
    listed most structured first (fewest units, then largest units); mixed
    suits have none.
    """
    groups = level_counts(parse_cards(cards), trump)
    if len(groups) != 1:
        return []
    (suit, counts), = groups.items()
    found: set[Reading] = set()
    _decompose(counts, suit, trump, rules, _Chosen(counts, trump, rules), found)
    return sorted(found, key=lambda r: (reading_order(r), [u.cards for u in r]))


def best_reading(cards: Iterable[Card | str], trump: Trump, rules: Rules) -> Reading | None:
    """The first reading :func:`readings` lists (fewest units, then the largest), found
    without listing them all (a 40-card suit of 8 decks has hundreds of readings). Of
    readings that rank equal (units of the same shapes and tops, e.g. tractors through
    different trump-rank cards) it takes the first its search meets, whatever the order
    of ``cards``. ``None`` for mixed suits.

    A search over the unit holding the lowest remaining card, memoised on the cards
    left: the best reading of the rest does not depend on the units already taken, and
    the fewest units of a partition make it a reading (no two of its units form one)."""
    groups = level_counts(parse_cards(cards), trump)
    if len(groups) != 1:
        return None
    (suit, counts), = groups.items()
    min_width = rules.tractor_min_width
    wide: set[int] = set()  # the levels holding a face min_width times or more
    most = 0  # the most copies of a face
    for level, by_face in counts.items():
        copies = max(by_face.values())
        if copies >= min_width:
            wide.add(level)
        if copies > most:
            most = copies
    if min_width > 1 and most <= rules.decks and not any(
            [level + 1 in wide for level in wide]):
        # no tractor can form: each face's copies are one tuple, the only fewest-unit reading
        return tuple(sorted((make_unit(suit, counts[level][face], level, (face,))
                             for level in sorted(counts) for face in sorted(counts[level])),
                            key=unit_order))
    memo: dict[tuple[tuple[Card, int], ...], tuple[tuple[object, ...], Reading]] = {}
    top_level = len(trump.faces_at[suit])

    def solve() -> tuple[tuple[object, ...], Reading]:
        if not counts:
            return reading_order(()), ()
        key = tuple(sorted((f, n) for by_face in counts.values() for f, n in by_face.items()))
        found = memo.get(key)
        if found is not None:
            return found
        bottom = min(counts)
        face = min(counts[bottom])
        best: tuple[tuple[object, ...], Reading] | None = None
        for width in range(1, counts[bottom][face] + 1):
            for length in range(1, top_level - bottom + 1):
                if length > 1 and width < rules.tractor_min_width:
                    break
                if not shape_allowed(width, length, rules):
                    continue
                window = {lv: counts[lv] for lv in range(bottom, bottom + length) if lv in counts}
                starts = [faces for top, faces in placements(window, width, length, trump, rules)
                          if top == bottom + length - 1 and faces[0] == face]
                if not starts:
                    break
                for faces in starts:
                    unit = make_unit(suit, width, bottom + length - 1, faces)
                    take(counts, trump, faces, width)
                    rest = solve()[1]
                    give(counts, trump, faces, width)
                    reading = tuple(sorted((unit, *rest), key=unit_order))
                    order = reading_order(reading)
                    if best is None or order < best[0]:
                        best = (order, reading)
        assert best is not None  # a single of the lowest card always reads
        memo[key] = best
        return best

    return solve()[1]


def reading_order(reading: Reading) -> tuple[object, ...]:
    """Sort key: fewest units, then the largest units, then the strongest."""
    return (len(reading), [unit_order(u) for u in reading])


def _decompose(
    cards: LevelCounts, suit: int, trump: Trump, rules: Rules, chosen: _Chosen,
    found: set[Reading],
) -> None:
    """Add to ``found`` every maximal reading that extends ``chosen`` with units of
    ``cards``: each step takes a unit holding the lowest card left, unless it forms one
    unit with some of the units already chosen (as it would in any reading extending
    them)."""
    if not cards:
        # equal units first by their cards: one order for each reading
        found.add(tuple(sorted(chosen.units, key=lambda u: (unit_order(u), u.cards))))
        return
    bottom = min(cards)
    for width, faces in _lowest_units(cards, bottom, min(cards[bottom]), trump, rules):
        if not chosen.add(make_unit(suit, width, bottom + len(faces) - 1, faces)):
            continue
        take(cards, trump, faces, width)
        _decompose(cards, suit, trump, rules, chosen, found)
        give(cards, trump, faces, width)
        chosen.drop()


def _lowest_units(
    cards: LevelCounts, bottom: int, face: Card, trump: Trump, rules: Rules,
) -> Iterator[tuple[int, tuple[Card, ...]]]:
    """``(width, faces bottom first)`` of every unit of ``cards`` whose bottom card is
    ``face``, of level ``bottom``: by width, then length."""
    high, chains = trump.high, rules.tractor_high_trumps
    for width in range(1, cards[bottom][face] + 1):
        if shape_allowed(width, 1, rules):
            yield width, (face,)
        if width < rules.tractor_min_width or (high[card_int(face)] and not chains):
            continue
        choices = [[face]]  # the faces each level up may hold, bottom first
        while bottom + len(choices) in cards:
            good = sorted(f for f, n in cards[bottom + len(choices)].items()
                          if n >= width and (chains or not high[card_int(f)]))
            if not good:
                break
            choices.append(good)
            if shape_allowed(width, len(choices), rules):
                for faces in product(*choices):
                    yield width, faces


class _Chosen:
    """The units chosen so far for a reading of some cards, none of them forming one unit
    with others. The candidates for such a merge (every unit the whole set of cards
    holds) are listed once; each unit is marked with those it lies inside (a bit mask),
    and each candidate with the cards of the chosen units inside it."""

    def __init__(self, cards: LevelCounts, trump: Trump, rules: Rules) -> None:
        self.targets: list[tuple[int, tuple[Card, ...]]] = [
            (width, faces) for level, by_face in cards.items() for face in by_face
            for width, faces in _lowest_units(cards, level, face, trump, rules)
            if width * len(faces) > 1]  # (no units form a single)
        """``(width, faces bottom first)`` of each unit that ``cards`` hold."""
        self.units: list[Unit] = []
        self.masks: list[int] = []
        """The bit mask of each chosen unit."""
        self.any_mask: list[int] = [0]
        """The union of the first masks: none, one, two..."""
        self.filled: list[int] = [0] * len(self.targets)
        """How many cards of the chosen units lie inside each candidate."""
        self._masks: dict[tuple[Card, ...], int] = {}
        """The bit mask of each unit met, by its cards."""

    def mask(self, unit: Unit) -> int:
        """The candidates holding ``unit``: no narrower, its faces among theirs."""
        mask = self._masks.get(unit.cards)
        if mask is None:
            faces = set(unit.cards)
            mask = 0
            for i, (width, target) in enumerate(self.targets):
                if unit.width <= width and faces.issubset(target):
                    mask |= 1 << i
            self._masks[unit.cards] = mask
        return mask

    def add(self, unit: Unit) -> bool:
        """Choose ``unit``, unless it and one or more chosen units together form one unit
        (pairs 3-4-5 form a tractor when ``tractor_min_length`` is 3, though no two of
        them do); whether it was chosen."""
        own, unit_size = self.mask(unit), unit.size
        shared = own & self.any_mask[-1]
        while shared:
            low = shared & -shared
            shared ^= low
            i = low.bit_length() - 1
            width, faces = self.targets[i]
            size = width * len(faces)
            if size == unit_size or self.filled[i] < size - unit_size:
                continue  # the unit itself, or too few cards to complete it
            inside = [u for u, m in zip(self.units, self.masks, strict=True) if m & low]
            need = dict.fromkeys(faces, width)
            for face in unit.cards[::unit.width]:
                need[face] -= unit.width
            if _exact_cover(need, inside):
                return False
        self.units.append(unit)
        self.masks.append(own)
        self.any_mask.append(self.any_mask[-1] | own)
        self._fill(own, unit_size)
        return True

    def drop(self) -> None:
        """Undo the last :meth:`add` that chose its unit."""
        unit = self.units.pop()
        self._fill(self.masks.pop(), -unit.size)
        self.any_mask.pop()

    def _fill(self, mask: int, cards: int) -> None:
        """Add ``cards`` to the cards inside each candidate of ``mask``."""
        filled = self.filled
        while mask:
            low = mask & -mask
            mask ^= low
            filled[low.bit_length() - 1] += cards


def _exact_cover(need: dict[Card, int], units: list[Unit]) -> bool:
    """Whether some of ``units`` (each inside ``need``'s faces) hold exactly ``need``
    copies of each face: a unit covering the first face still needed is in any such
    cover, so try each in turn (a unit that failed is left out of the later tries)."""
    face = next((f for f, n in need.items() if n), None)
    if face is None:
        return True
    for i, unit in enumerate(units):
        if face not in unit.cards:
            continue
        faces, width = unit.cards[::unit.width], unit.width
        if any(need[f] < width for f in faces):
            continue
        for f in faces:
            need[f] -= width
        rest = [u for j, u in enumerate(units) if j > i or (j < i and face not in u.cards)]
        covered = _exact_cover(need, rest)
        for f in faces:
            need[f] += width
        if covered:
            return True
    return False


def as_unit(cards: Iterable[Card], trump: Trump, rules: Rules) -> Unit | None:
    """The single unit the cards form, or ``None`` (mixed suits, or not one unit)."""
    cards = tuple(cards)
    if not cards:
        return None
    first = cards[0]
    if cards.count(first) == len(cards):  # one face: a single or a tuple
        if len(cards) > rules.decks:
            return None
        return make_unit(trump.suit_index[first], len(cards), trump.levels[first], (first,))
    groups = level_counts(cards, trump)
    if len(groups) != 1:
        return None
    (suit, by_level), = groups.items()
    width = len(cards) // len(by_level)
    length = len(by_level)
    if width * length != len(cards) or not shape_allowed(width, length, rules):
        return None
    top = max(by_level)
    if top - min(by_level) != length - 1:
        return None
    faces = []
    for level in range(top - length + 1, top + 1):
        by_face = by_level[level]
        if len(by_face) != 1:
            return None
        ((face, n),) = by_face.items()
        if n != width:
            return None
        faces.append(face)
    if length > 1 and not rules.tractor_high_trumps and any(trump.high[f] for f in faces):
        return None
    return make_unit(suit, width, top, tuple(faces))
