"""Scoring: level tables, the kitty multiplier, and advancing through the levels.

After a round the opponents' points (card points plus the multiplied kitty) are
looked up in the table chosen by ``Rules.level_table``. Every built-in table is
written for one deck and scaled by ``k = target_points / 40`` (that is, by the
number of decks unless ``Rules.target`` is set), so the opponents take over at
the target in every table.

>>> r = Rules()
>>> level_change(0, r).row, level_change(35, r).row, level_change(80, r).row
('0: declarers +3', '5-35: declarers +2', '80-115: opponents take over')
>>> level_change(125, r).opponents_up, level_change(125, r).switch
(1, True)
>>> advance(9, 3, Rules(mandatory_ranks=("10",)), as_declarers=True)
Advance(level=10, passed_end=False, stopped_at=10, wraps=0)

Levels are ints: 2..14 are the ranks 2..A, and 15 is the no-trump level that
``after_end = no-trump`` adds after the end rank.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Final

from shengji.engine.caches import remember
from shengji.engine.cards import not_a
from shengji.engine.rules import AfterEnd, KittyMultiplier, LeftoverSteps, LevelTable, Rules

if TYPE_CHECKING:
    from shengji.engine.lead import Lead

NO_TRUMP_LEVEL: Final = 15
"""The extra level after the end rank with ``after_end = no-trump``."""


@dataclass(frozen=True)
class LevelChange:
    """What a round's points do to the levels."""

    points: int
    """The opponents' points that were looked up."""
    declarers_up: int
    """Levels the declaring side goes up."""
    opponents_up: int
    """Levels the opponents go up."""
    switch: bool
    """True: the opponents become the declarers next round."""
    draw: bool
    """True: the ``draw_at`` rule applied (no levels, the opponents take over)."""
    row: str
    """The table row in words, e.g. ``5-35: declarers +2``."""


@dataclass(frozen=True)
class _Row:
    """A table row: points ``lo`` and up (to the next row) give this change."""

    lo: int
    declarers_up: int = 0
    opponents_up: int = 0
    switch: bool = False
    draw: bool = False

    def words(self) -> str:
        if self.draw:
            return "draw, opponents take over"
        if self.declarers_up:
            return f"declarers +{self.declarers_up}"
        if self.opponents_up:
            return f"opponents +{self.opponents_up}"
        return "opponents take over"


def _ceil(value: Fraction) -> int:
    return -((-value.numerator) // value.denominator)


def _declarers(lo: int, up: int) -> _Row:
    return _Row(lo, declarers_up=up)


def _opponents(lo: int, up: int) -> _Row:
    return _Row(lo, opponents_up=up, switch=True)


def _stepped(target: int, cap: int | None, up_to: int) -> tuple[list[_Row], Fraction | None]:
    """Standard/2006/hundred: 0 → +3, below half the target +2, below the target +1,
    then the opponents +1 per further half target (up to ``cap``)."""
    step = Fraction(target, 2)
    rows = [_declarers(0, 3), _declarers(1, 2), _declarers(_ceil(step), 1), _opponents(target, 0)]
    n = 1
    while cap is None or n <= cap:
        lo = _ceil(target + n * step)
        rows.append(_opponents(lo, n))
        if lo > up_to:
            break
        n += 1
    return rows, (step if cap is None else None)


def _rows(rules: Rules, up_to: int) -> tuple[list[_Row], Fraction | None]:
    """The table's rows covering points ``0..up_to`` (at least), lowest first, and the
    step of the open-ended last row (``None`` when the last row covers everything)."""
    draw = rules.draw_at
    up_to = max(up_to, -1 if draw is None else draw + 1)
    target = rules.target_points
    rows: list[_Row]
    step: Fraction | None = None
    table = rules.level_table
    if table in (LevelTable.STANDARD, LevelTable.HUNDRED):
        rows, step = _stepped(target, None, up_to)
    elif table == LevelTable.TABLE_2006:
        rows, step = _stepped(target, 3, up_to)
    elif table == LevelTable.DA_BAI_FEN:
        k = Fraction(target, 40)
        rows = [_declarers(0, 2), _declarers(1, 1), _opponents(target, 0),
                _opponents(_ceil(80 * k), 1), _opponents(_ceil(100 * k), 2)]
    elif table == LevelTable.BASIC:
        rows = [_declarers(0, 1), _opponents(target, 0)]
    else:
        rows = [_declarers(lo, delta) if delta > 0 else _opponents(lo, -delta)
                for lo, delta in rules.custom_levels]
    # tiny targets can make thresholds coincide: the later row wins
    rows = [row for row, after in zip(rows, [*rows[1:], None], strict=True)
            if after is None or after.lo > row.lo]
    if draw is not None and draw >= 0:
        i = max(j for j, row in enumerate(rows) if row.lo <= draw)
        row = rows[i]
        rest = [] if i + 1 < len(rows) and rows[i + 1].lo == draw + 1 else [
            _Row(draw + 1, row.declarers_up, row.opponents_up, row.switch)]
        before = [row] if row.lo < draw else []
        rows[i:i + 1] = [*before, _Row(draw, switch=True, draw=True), *rest]
    return rows, step


def _span(lo: int, hi: int | None) -> str:
    """Points ``lo..hi`` in words, on the grid of 5 that real points use."""
    lo5 = -(-lo // 5) * 5
    if hi is None:
        return f"{lo5}+"
    hi5 = hi // 5 * 5
    if lo5 > hi5:
        lo5, hi5 = lo, hi
    return str(lo5) if lo5 == hi5 else f"{lo5}-{hi5}"


def _number(value: Fraction) -> str:
    return str(int(value)) if value.denominator == 1 else str(float(value))


def _row_text(rows: list[_Row], i: int) -> str:
    hi = rows[i + 1].lo - 1 if i + 1 < len(rows) else None
    return f"{_span(rows[i].lo, hi)}: {rows[i].words()}"


def level_change(points: int, rules: Rules) -> LevelChange:
    """Look up the opponents' ``points`` (any int ≥ 0; the kitty can take them past
    100 × decks) in ``rules.level_table``.

    Exactly ``rules.draw_at`` points is a draw: no levels, the opponents take over.
    (A ``draw_at`` below the target makes the table non-monotone, by design.)

    >>> level_change(160, Rules(level_table="2006", decks=3)).row
    '120-175: opponents take over'
    >>> change = level_change(40, Rules(decks=1, level_table="hundred", draw_at=40))
    >>> change.draw, change.switch, change.row
    (True, True, '40: draw, opponents take over')
    """
    if not isinstance(points, int) or isinstance(points, bool):
        raise not_a("the opponents' points (an integer)", points)
    if points < 0:
        if not rules.below_zero:
            raise ValueError(f"points must not be negative, got {points}")
        return _below_zero(points, rules)
    table = (rules.draw_at, rules.target_points, rules.level_table, rules.custom_levels)
    key = (*table, points)
    change = _CHANGES.get(key)
    if change is None:  # a LevelChange is immutable: the same points share one
        known = _TABLE_ROWS.get(table)
        if known is None or known[0] < points:
            known = remember(_TABLE_ROWS, table, (points, _rows(rules, points)[0]), 64)
        rows = known[1]
        i = max(j for j, row in enumerate(rows) if row.lo <= points)
        row = rows[i]
        change = LevelChange(points, row.declarers_up, row.opponents_up, row.switch, row.draw,
                             _row_text(rows, i))
        remember(_CHANGES, key, change, 4096)
    return change


_CHANGES: dict[tuple[object, ...], LevelChange] = {}
"""level_change's answers (points 0 and up) by the options its table reads and the points."""

_TABLE_ROWS: dict[tuple[object, ...], tuple[int, list[_Row]]] = {}
"""level_change's table rows by the options they read, with the points they were made
for: rows made for more points hold the same rows up to the next one above fewer points
(the rows go on past the points asked, and a row's words read where the next begins)."""


def below_zero_step(rules: Rules) -> int:
    """With ``below_zero``: the points of one step below zero, half the target (40 with
    two decks), each step one more level for the declarers than at 0 points."""
    return max(1, rules.target_points // 2)


def _below_zero(points: int, rules: Rules) -> LevelChange:
    """Negative points (``below_zero``): the 0-point row plus one level per step below 0.

    >>> r = Rules(below_zero=True)
    >>> [level_change(p, r).row for p in (-5, -40, -45)]
    ['-40 to -5: declarers +4', '-40 to -5: declarers +4', '-80 to -45: declarers +5']
    """
    step = below_zero_step(rules)
    steps = (-points + step - 1) // step
    low, high = -steps * step, -(steps - 1) * step - 1
    low5, high5 = -(-low // 5 * 5), high // 5 * 5  # on the grid of 5 that points use
    if low5 > high5:
        low5, high5 = low, high
    up = level_change(0, rules).declarers_up + steps
    return LevelChange(points, up, 0, False, False, f"{low5} to {high5}: declarers +{up}")


def level_table_rows(rules: Rules, up_to: int | None = None) -> list[str]:
    """The table in words, for score sheets: every row starting at or below ``up_to``
    points (default: all the points of the pack, 100 × decks); an open-ended table
    ends with a row saying how it goes on.

    >>> level_table_rows(Rules(decks=1, level_table="da-bai-fen"))
    ['0: declarers +2', '5-35: declarers +1', '40-75: opponents take over', \
'80-95: opponents +1', '100+: opponents +2']
    >>> level_table_rows(Rules(), up_to=120)[-2:]
    ['120-155: opponents +1', '160+: opponents +2, +1 more per further 40']
    """
    limit = max(100 * rules.decks if up_to is None else up_to, rules.draw_at or 0)
    rows, step = _rows(rules, limit)
    if step is None:
        return [_row_text(rows, i) for i, row in enumerate(rows) if row.lo <= limit]
    last = rows[-1]
    return [*(_row_text(rows, i) for i in range(len(rows) - 1)),
            f"{_span(last.lo, None)}: {last.words()}, +1 more per further {_number(step)}"]


def kitty_multiplier_for(largest_width: int, largest_length: int, cards_led: int,
                         rules: Rules) -> int:
    """The kitty multiplier for a last trick whose lead had ``cards_led`` cards and
    whose largest unit was ``largest_length`` levels of ``largest_width`` cards.

    ``power`` counts ``length × (width - 1)`` pairs: single ×2, pair ×4, 2-pair
    tractor ×8, 3-pair tractor ×16, and a triple (two cards beyond the first) ×8.

    >>> [kitty_multiplier_for(2, 2, 4, Rules(kitty_multiplier=m)) for m in
    ...  ("unit-size", "power", "lead-size", "decks", "double")]
    [8, 8, 8, 2, 2]
    """
    match rules.kitty_multiplier:
        case KittyMultiplier.UNIT_SIZE:
            return 2 * largest_width * largest_length
        case KittyMultiplier.POWER:
            return 2 << (largest_length * (largest_width - 1))
        case KittyMultiplier.LEAD_SIZE:
            return 2 * cards_led
        case KittyMultiplier.DECKS:
            return rules.decks
        case KittyMultiplier.DOUBLE:
            return 2
    raise AssertionError(rules.kitty_multiplier)  # pragma: no cover


def kitty_multiplier(lead: Lead, rules: Rules) -> int:
    """The multiplier on the kitty's points when the opponents win the last trick,
    judged on that trick's lead (a throw counts its largest unit, or all its cards)."""
    return kitty_multiplier_for(lead.largest.width, lead.largest.length, lead.size, rules)


@dataclass(frozen=True)
class Advance:
    """Where a side lands after going up some levels."""

    level: int
    """The new level: 2..14 are ranks 2..A; 15 is the no-trump level."""
    passed_end: bool
    """True when this advance wins the match (passed the last level as declarers)."""
    stopped_at: int | None
    """A mandatory level that cut the advance short, if any."""
    wraps: int = 0
    """How many times the advance went round to the start rank (``wrap``,
    ``no-trump-wrap``): 1, or more when ``leftover_steps = carry`` carries it round again."""

    @property
    def wrapped(self) -> bool:
        """True when the advance went round to the start rank."""
        return self.wraps > 0


def _top(rules: Rules) -> int:
    if rules.after_end in (AfterEnd.NO_TRUMP, AfterEnd.NO_TRUMP_WRAP):
        return NO_TRUMP_LEVEL
    return int(rules.end_rank)


def advance(level: int, steps: int, rules: Rules, *, as_declarers: bool) -> Advance:
    """Go up ``steps`` levels from ``level``.

    - The end rank is a barrier: only a side declaring at it that wins a round
      (``as_declarers`` and ``level`` is the end rank) gets past it; any other
      advance stops there, and steps left over are lost. With ``pass_end_freely``
      every advance may go past it.
    - ``after_end = win``: getting past the end rank wins (``passed_end``; the level
      stays). ``wrap``: it lands on ``first_rank`` and the match goes on (``passed_end``
      stays False, ``wraps`` counts it). ``no-trump``: it lands on the no-trump level 15,
      itself a barrier that wins when passed as declarers (or, with ``pass_end_freely``,
      by any advance); ``no-trump-wrap``: the same, but past no-trump it wraps to the start.
    - Steps left when the advance reaches the no-trump level or wraps: with
      ``leftover_steps = drop`` (the default) they are lost; with ``carry`` they go on
      (each level and each barrier passed uses one step), from the start rank after a
      wrap, as an advance of a side not declaring there.
    - A mandatory rank strictly above ``level`` stops the advance; ``stopped_at``
      names it when steps were left over. With ``mandatory_win`` a side at a mandatory
      rank goes past it only as declarers at it (otherwise it stays, ``stopped_at``).

    >>> advance(12, 3, Rules(), as_declarers=True)
    Advance(level=14, passed_end=False, stopped_at=None, wraps=0)
    >>> advance(14, 1, Rules(), as_declarers=True).passed_end
    True
    >>> advance(14, 3, Rules(after_end="wrap"), as_declarers=True).level
    2
    >>> advance(14, 3, Rules(after_end="wrap", leftover_steps="carry"), as_declarers=True)
    Advance(level=4, passed_end=False, stopped_at=None, wraps=1)
    >>> level_name(advance(14, 1, Rules(after_end="no-trump"), as_declarers=True).level)
    'NT'
    >>> advance(13, 3, Rules(pass_end_freely=True), as_declarers=False).passed_end
    True
    """
    for name, value in (("level", level), ("steps", steps)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise not_a(f"the {name} (an integer)", value)
    if steps < 0:
        raise ValueError(f"steps must not be negative, got {steps}")
    start, end, top = int(rules.first_rank), int(rules.end_rank), _top(rules)
    if not (start <= level <= end or level == top):
        names = f"{level_name(start)}..{level_name(top)}"
        raise ValueError(f"level {level} is outside this match's levels ({names})")
    if steps < 0:
        raise ValueError(f"steps must not be negative, got {steps}")
    if steps == 0:
        return Advance(level, False, None)
    if rules.mandatory_win and level < end and not as_declarers and (
            level in rules.mandatory_ranks):
        return Advance(level, False, level)
    if level < end:
        mandatory = sorted(int(r) for r in rules.mandatory_ranks if level < r <= end)
        stop = mandatory[0] if mandatory else end
        if level + steps <= stop:
            return Advance(level + steps, False, None)
        if mandatory or not rules.pass_end_freely:
            return Advance(stop, False, stop if mandatory else None)
        steps -= end - level  # freely past the end rank with the steps left
        level = end
    if not (as_declarers or rules.pass_end_freely):
        return Advance(level, False, None)
    carry = rules.leftover_steps == LeftoverSteps.CARRY
    if level == end and top != end:  # up to the no-trump level, one step
        steps -= 1
        if not (carry and steps and rules.pass_end_freely):
            return Advance(top, False, None)
        level = top  # and on past it with the steps left
    if rules.after_end in (AfterEnd.WIN, AfterEnd.NO_TRUMP):
        return Advance(level, True, None)
    steps -= 1  # round to the start rank
    if not (carry and steps):
        return Advance(start, False, None, wraps=1)
    rest = advance(start, steps, rules, as_declarers=False)
    return Advance(rest.level, rest.passed_end, rest.stopped_at, wraps=1 + rest.wraps)


def hook_back(level: int, rules: Rules) -> int | None:
    """Hook and needle: the level a declaring side falls back to when the opponents
    win the last trick with the hooking card: from J to the first level
    (:attr:`~shengji.engine.rules.Rules.first_rank`), from A to J (never below the first
    level). ``None`` when the rule is off or does not apply.

    >>> hook_back(11, Rules(hook_and_needle=True)), hook_back(14, Rules(hook_and_needle=True))
    (2, 11)
    >>> hook_back(11, Rules()) is None
    True
    """
    if not rules.hook_and_needle:
        return None
    if level == 11:
        return int(rules.first_rank)
    if level == 14:
        return max(11, int(rules.first_rank))
    return None


def level_name(level: int) -> str:
    """``2``..``10``, ``J``, ``Q``, ``K``, ``A``, and ``NT`` for the no-trump level.

    >>> [level_name(n) for n in (2, 10, 11, 14, 15)]
    ['2', '10', 'J', 'A', 'NT']
    """
    if 2 <= level <= 10:
        return str(level)
    if 11 <= level <= 14:
        return "JQKA"[level - 11]
    if level == NO_TRUMP_LEVEL:
        return "NT"
    raise ValueError(f"{level} is not a level (2..14, or 15 for no-trump)")
