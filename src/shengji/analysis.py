"""Analysis of a recorded match: where did a seat lose points?

For every decision of one seat in the finished rounds of a match (a bid or the choice not
to bid, the kitty it buried, its friend calls or trump, each lead and follow), the move it
played is compared with the best of a few **candidates** (the search player's:
:func:`shengji.players.search.candidates`, the learned model's best plays where a model fits
the rules). Each candidate is played in the same **worlds** and the round rolled out to its
end with heuristic players (:func:`shengji.players.search.finish`): the worlds are the hidden
cards dealt at random consistently with what the seat knew then
(:class:`~shengji.players.worlds.Knowledge` of its :class:`~shengji.game.view.SeatView`,
as the search player samples them, a hidden kitty read from its burier where the default
search player reads it: :meth:`~shengji.players.search.SearchPlayer.reads_kitty`), so a
decision is judged only from the seat's own view and legal actions (:func:`judge`). With
``open_hands`` the one world is the actual deal as the finished round revealed it
(:func:`judge_open`: one exact rollout per move).

The *best* move found is the candidate of highest mean over those worlds. Its **cost** is
then measured afresh (:func:`confirm`): the move played and the best are rolled out in as
many new worlds, and the cost is the mean over them of (best − played), in levels: the
levels the seat's side gains minus the other side's, plus a tenth of a level per 10 points
the opponents took, against the declarers (:func:`~shengji.players.search.round_value`),
with its standard error (the comparison is paired: both moves are rolled out in the same
worlds with the same seeds).
Measured on the worlds that chose the best, the cost would be biased upwards (the best of
several noisy means); measured on new ones it is not. Where the new worlds do not find the
best better, the move played stands as the best (cost 0). A cost is **clear** where it is
more than :data:`CONFIDENCE` standard errors over at least :data:`CLEAR_WORLDS` worlds,
and a clear cost is **marked** from a threshold of :data:`MARKS`: an *inaccuracy* from 0.1
level, a *mistake* from 0.3, a *blunder* from 0.6. With open hands the one world is the
actual deal and the cost exact.

Only finished rounds are analysed: during a round nothing is analysed or revealed. The
result is plain frozen dataclasses (picklable, JSON both ways), computed by a pure function
that prints nothing (:func:`analyze`); the same record, seat, budget and seed give the same
analysis.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import MISSING, asdict, dataclass, fields
from itertools import islice
from random import Random
from typing import Any, Final

from shengji.engine.lead import LegalLeads
from shengji.game.actions import Action, ActionError, Draw, parse_action
from shengji.game.legal import Legal
from shengji.game.match import Match
from shengji.game.phase import Phase
from shengji.game.record import Record, replay
from shengji.game.round import Round
from shengji.game.view import SeatView
from shengji.players.learned import LearnedPlayer
from shengji.players.search import SearchPlayer, finish, round_value
from shengji.players.search import candidates as search_candidates
from shengji.players.worlds import Knowledge, sample_world

MARKS: Final = (("blunder", 0.6), ("mistake", 0.3), ("inaccuracy", 0.1))
"""The marks and the cost in levels from which each is given (the highest reached)."""
CONFIDENCE: Final = 2.0
"""A cost is clear (a loss shown, not noise) where it is more than this many standard
errors."""
CLEAR_WORLDS: Final = 4
"""The fewest worlds a sampled cost is measured on for it to be clear (fewer give no
useful standard error; an open-hands cost, exact, needs none)."""
BUDGET: Final = 16
"""The default worlds per decision."""
REVIEW_BUDGET: Final = 8
"""The worlds per decision of the terminal's and the browser's ``review`` (and as many
again to measure the costs: a few seconds a round)."""
CANDIDATES: Final = 5
"""The default most moves compared with the one played."""
ROUNDING: Final = 1e-9
"""Costs are sums of levels and hundredths of a level, and a cost within this of a
threshold (or of nothing) is taken as on it: 2.2 − 2.1 is an inaccuracy as 1.3 − 1.2 is."""
IN_PROGRESS: Final = "during a round nothing is analysed or revealed"
"""Why a round in progress is refused."""
KINDS: Final = {Phase.DEAL: "bid", Phase.BID: "bid", Phase.OVERBID: "bid",
                Phase.KITTY: "bury", Phase.CALL: "call", Phase.DECLARE: "trump",
                Phase.EXPOSE: "expose", Phase.SHOW: "show"}
"""The kind of decision in each phase (in the play phase: ``lead`` or ``follow``)."""


class AnalysisError(ValueError):
    """The analysis asked for cannot be made (a bad seat or round, a round in progress)."""


@dataclass(frozen=True)
class Option:
    """One move compared: its notation, how it reads, and its mean value over the worlds
    (``value`` in levels = ``levels`` + ``points`` / 100; ``points``: the opponents'
    points, counted for the seat's side if it is theirs, else against it)."""

    action: str
    label: str
    value: float
    levels: float
    points: float


@dataclass(frozen=True)
class Decision:
    """One judged decision of the seat: where it was, the move played and the best found,
    and what the difference cost."""

    round: int
    """The round (from 1)."""
    index: int
    """The position of the move in the match's actions (from 0)."""
    kind: str
    """``bid``, ``bury``, ``call``, ``trump``, ``lead``, ``follow``, ``expose``, ``show``."""
    trick: int | None
    """The trick (from 1) of a lead or a follow."""
    played: str
    """The move played (its label; the notation is ``options[0].action``)."""
    best: str
    """The best move found (its label)."""
    options: tuple[Option, ...]
    """Every move compared, the one played first."""
    worlds: int
    """The worlds the moves were rolled out in (0: none consistent was found)."""
    cost: float
    """The mean of (best − played) in levels over worlds apart from those that chose the
    best (:func:`confirm`; 0 where the played is best)."""
    error: float
    """The standard error of ``cost`` (0 with fewer than two worlds)."""
    cost_worlds: int
    """The worlds ``cost`` was measured on (0 where the move played was the best found)."""
    cost_levels: float
    """The part of ``cost`` in levels won and lost."""
    levels_error: float
    """The standard error of ``cost_levels``."""
    cost_points: float
    """The part of ``cost`` in points (the opponents' points, for or against the seat's
    side)."""
    points_error: float
    """The standard error of ``cost_points``."""
    value: float
    """The seat's expected levels after the move played (its mean value)."""
    value_error: float
    """The standard error of ``value``."""
    clear: bool
    """Whether ``cost`` is more than :data:`CONFIDENCE` standard errors (:func:`clear`),
    measured on at least :data:`CLEAR_WORLDS` worlds (or exactly, with open hands)."""
    mark: str | None
    """``inaccuracy``, ``mistake``, ``blunder`` (:data:`MARKS`), or ``None``."""


@dataclass(frozen=True)
class RoundAnalysis:
    """The judged decisions of one finished round and how the round actually went."""

    number: int
    decisions: tuple[Decision, ...]
    outcome: float
    """The round's actual value for the seat (levels, with the points' share)."""
    redeal: bool
    skipped: int = 0
    """The seat's decisions left unjudged: moves it did not choose (``analyze``'s ``skip``,
    e.g. a computer playing for an absent person)."""

    @property
    def total(self) -> float:
        """The clear costs of the round's decisions added up (levels): the losses shown,
        not the noise."""
        return sum(d.cost for d in self.decisions if d.clear)

    def marked(self, mark: str) -> int:
        """How many decisions carry ``mark``."""
        return sum(d.mark == mark for d in self.decisions)


@dataclass(frozen=True)
class Analysis:
    """The analysis of one seat's decisions in the finished rounds of a match."""

    seat: int
    budget: int
    seed: int
    open_hands: bool
    """Judged with every hand as the finished round revealed it (not what the seat knew)."""
    candidates: int
    rounds: tuple[RoundAnalysis, ...]
    in_progress: int | None
    """The round left out because it is in progress, if any."""

    @property
    def decisions(self) -> tuple[Decision, ...]:
        """Every judged decision, in order."""
        return tuple(d for r in self.rounds for d in r.decisions)

    @property
    def mode(self) -> str:
        """How the decisions were judged, in words."""
        if self.open_hands:
            return ("open hands: judged with every hand as the finished round revealed it "
                    "(the actual deal, one exact rollout per move), not what the seat knew")
        return (f"judged from what seat {self.seat} knew at each decision "
                f"({self.budget} sampled deal{'s' if self.budget != 1 else ''} per decision)")

    def to_dict(self) -> dict[str, Any]:
        """Plain values for JSON (:meth:`from_dict` reads them back)."""
        return {"format": "shengji-analysis", "mode": self.mode, "thresholds": dict(MARKS),
                **asdict(self)}

    def to_json(self) -> str:
        """The analysis as JSON text."""
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False) + "\n"

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Analysis:
        """The analysis :meth:`to_dict` wrote (:class:`AnalysisError` for anything else,
        every field's type checked)."""
        if not isinstance(data, dict) or data.get("format") != "shengji-analysis":
            raise AnalysisError("not an analysis: its format is not 'shengji-analysis'")
        rounds = []
        for r in _items(data, "rounds", "the analysis"):
            decisions = []
            for d in _items(r, "decisions", "a round"):
                options = tuple(Option(**_fields(Option, o, "an option"))
                                for o in _items(d, "options", "a decision"))
                decisions.append(Decision(**{**_fields(Decision, d, "a decision"),
                                             "options": options}))
            rounds.append(RoundAnalysis(**{**_fields(RoundAnalysis, r, "a round"),
                                           "decisions": tuple(decisions)}))
        return cls(**{**_fields(cls, data, "the analysis"), "rounds": tuple(rounds)})

    @classmethod
    def from_json(cls, text: str) -> Analysis:
        """The analysis :meth:`to_json` wrote (:class:`AnalysisError` for anything else)."""
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as error:
            raise AnalysisError(f"not an analysis: {error}") from None
        return cls.from_dict(data)


_KINDS: Final[dict[str, Callable[[object], bool]]] = {
    "int": lambda v: type(v) is int, "float": lambda v: type(v) in (int, float),
    "str": lambda v: isinstance(v, str), "bool": lambda v: type(v) is bool}
"""How each plain field type of the analysis's dataclasses is checked when read back."""


def _fields(kind: type, data: object, where: str) -> dict[str, Any]:
    """The fields of dataclass ``kind`` in ``data`` (as :meth:`Analysis.to_dict` wrote them;
    its tuples are read apart), each checked against its type."""
    if not isinstance(data, dict):
        raise AnalysisError(f"a damaged analysis: {where} is not an object")
    found: dict[str, Any] = {}
    for field in fields(kind):
        if field.name not in data:
            if field.default is MISSING:
                raise AnalysisError(f"a damaged analysis: {where} has no {field.name!r}")
            continue
        value, typed = data[field.name], str(field.type)
        check = _KINDS.get(typed.removesuffix(" | None"))
        if check is not None and not (check(value) or (
                value is None and typed.endswith(" | None"))):
            raise AnalysisError(f"a damaged analysis: {where}'s {field.name!r} is {value!r}, "
                                f"not {typed}")
        found[field.name] = value
    return found


def _items(data: object, name: str, where: str) -> list[Any]:
    """The list ``data[name]`` (checked; a tuple as :meth:`Analysis.to_dict` leaves it)."""
    items = data.get(name) if isinstance(data, dict) else None
    if not isinstance(items, list | tuple):
        raise AnalysisError(f"a damaged analysis: {where}'s {name!r} is not a list")
    return list(items)


def clear(cost: float, error: float) -> bool:
    """Whether a cost is more than :data:`CONFIDENCE` standard errors: a loss shown.

    >>> clear(0.35, 0.1), clear(0.35, 0.2), clear(0.0, 0.0)
    (True, False, False)
    """
    return cost > CONFIDENCE * error


def mark(cost: float, error: float) -> str | None:
    """The mark of a decision: the highest of :data:`MARKS` whose threshold ``cost``
    reaches, where the cost is :func:`clear` (else ``None``: noise).

    >>> mark(0.35, 0.1), mark(0.35, 0.2), mark(0.05, 0.0), mark(0.6, 0.0)
    ('mistake', None, None, 'blunder')
    >>> mark(2.2 - 2.1, 0.0), mark(1.3 - 1.2, 0.0)  # one cost, rounded two ways
    ('inaccuracy', 'inaccuracy')
    """
    if not clear(cost, error):
        return None
    return next((name for name, low in MARKS if cost >= low - ROUNDING), None)


# -- the replay ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Position:
    round: int
    index: int
    action: Action


def _record(game: Record | Match) -> Record:
    return game if isinstance(game, Record) else Record.of(game)


def _choices(match: Match, seat: int, action: Action) -> int:
    """How many moves ``seat`` had when it made ``action`` (1 or 2: one, or a choice)."""
    rnd = match.round
    if rnd.phase == Phase.DEAL and isinstance(action, Draw) and rnd.only_draw(seat):
        return 1
    count = len(list(islice(iter(match.legal(seat)), 2)))
    if rnd.phase == Phase.DEAL and rnd.drawer != seat:
        count += 1  # a bid out of turn: not bidding (the drawer draws on) was the other choice
    return min(count, 2)


def _positions(record: Record, seat: int) -> tuple[list[_Position], int, int | None]:
    """The seat's decisions with a choice in the finished rounds, the finished rounds and
    the round in progress (``None`` if the record ends between rounds)."""
    match = record.match()
    found: list[_Position] = []
    for index, action in enumerate(record.actions):
        number = len(match.results) + 1
        if action.seat == seat and _choices(match, seat, action) > 1:
            found.append(_Position(number, index, action))
        match.apply(action)
    finished = len(match.results)
    busy = None if match.is_over or not match.round.history else finished + 1
    return [p for p in found if p.round <= finished], finished, busy


# -- judging one decision -----------------------------------------------------------------


def label(action: Action, seat: int) -> str:
    """How a move reads in the analysis: its notation without the seat (another seat's
    draw, the alternative to a bid out of turn: ``no bid``)."""
    if isinstance(action, Draw):
        return "draw (no bid)" if action.seat == seat else "no bid"
    return str(action).split(" ", 1)[1]


def _key(action: Action) -> tuple[object, ...]:
    """Equal moves alike (cards as multisets)."""
    cards = getattr(action, "cards", None)
    if cards is not None:
        return (type(action).__name__, action.seat, tuple(sorted(Counter(cards).items())))
    return (str(action),)


def options(view: SeatView, legal: Legal, played: Action, limit: int, seed: int
            ) -> list[Action]:
    """The moves compared, the one played first: the search player's default (the learned
    player's choice), its model's best plays where one fits, the search's candidates, then
    the legal moves as listed, at most ``limit`` besides the one played (where the seat bid
    out of turn, not bidding first: the drawer's draw)."""
    base = LearnedPlayer(seed)
    found: list[Action] = [played]
    keys = {_key(played)}
    extra: list[Action] = []
    if view.phase == Phase.PLAY:
        extra += [play for play, _ in base.valued(view, legal)]
    default = extra[0] if extra else base.act(view, legal)
    extra += search_candidates(view, legal, default, limit + 1)
    if view.phase == Phase.DEAL and view.to_move is not None and view.to_move != view.seat:
        extra.insert(0, Draw(view.to_move))
    extra += islice(iter(legal), limit + 1)  # where those are few: the legal moves as listed
    for action in extra:
        if len(found) > limit:
            break
        if _key(action) not in keys:
            keys.add(_key(action))
            found.append(action)
    return found


def _world_seed(seed: int, seat: int, index: int, world: int) -> int:
    """The seed of one world of one decision (also its rollouts' seed)."""
    return ((seed * 1_000_003 + seat) * 7_919 + index) * 104_729 % (2**48) + world


Row = list[tuple[float, float]]
"""Per move of one world: (value, points) of its rollout."""


def _outcome(world: Round, action: Action, seat: int, seed: int) -> tuple[float, float]:
    rnd = finish(world, action, seat, seed)
    result = rnd.result
    assert result is not None
    points = 0 if result.redeal else (
        result.points if seat in result.opponents else -result.points)
    return round_value(rnd, seat), float(points)


def _rows(world: Round, moves: Sequence[Action], seat: int, seed: int) -> Row | None:
    try:
        return [_outcome(world, a, seat, seed) for a in moves]
    except ActionError:  # a move the world refuses (an engine corner): the world is left out
        return None


def judge(view: SeatView, legal: Legal, played: Action, *, budget: int, seed: int,
          index: int, limit: int = CANDIDATES) -> tuple[list[Action], list[Row]]:
    """The moves compared at one decision and their rollouts in ``budget`` worlds sampled
    from the seat's ``view`` alone (what it knew then): the only inputs are the view,
    its legal actions and the move it played."""
    moves = options(view, legal, played, limit, seed)
    return moves, _sampled(view, moves, range(budget), seed, index)


def confirm(view: SeatView, played: Action, best: Action, *, budget: int, seed: int,
            index: int) -> list[Row]:
    """The move played and the best found rolled out in ``budget`` more worlds sampled from
    the seat's ``view``, apart from the worlds :func:`judge` chose the best in: where the
    cost is measured."""
    return _sampled(view, [played, best], range(budget, 2 * budget), seed, index)


def _sampled(view: SeatView, moves: Sequence[Action], worlds: range, seed: int, index: int
             ) -> list[Row]:
    """The rollouts of ``moves`` in the given worlds of the decision (those consistent)."""
    knowledge = Knowledge.of(view)
    read = SearchPlayer(seed).reads_kitty(view.rules)  # the default player's worlds
    rows: list[Row] = []
    for w in worlds:
        key = _world_seed(seed, view.seat, index, w)
        world = sample_world(knowledge, Random(key), read_kitty=read)
        row = _rows(world, moves, view.seat, key) if world is not None else None
        if row is not None:
            rows.append(row)
    return rows


def judge_open(world: Round, view: SeatView, legal: Legal, played: Action, *, seed: int,
               index: int, limit: int = CANDIDATES) -> tuple[list[Action], list[Row]]:
    """:func:`judge` in the one world of the actual deal (open hands): one exact rollout
    per move; the moves compared are still those the seat's view suggests."""
    moves = options(view, legal, played, limit, seed)
    key = _world_seed(seed, view.seat, index, 0)
    row = _rows(world, moves, view.seat, key)
    return moves, [row] if row is not None else []


def _mean_error(values: Sequence[float]) -> tuple[float, float]:
    n = len(values)
    if not n:
        return 0.0, 0.0
    mean = sum(values) / n
    if n < 2:
        return mean, 0.0
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, math.sqrt(var / n)


def best_of(moves: Sequence[Action], rows: Sequence[Row]) -> int:
    """The index of the move of highest mean value over ``rows`` (ties: the earliest, so
    the move played, first, where it ties)."""
    means = [sum(r[i][0] for r in rows) for i in range(len(moves))]
    return max(range(len(moves)), key=lambda i: (means[i], -i))


def _decision(position: _Position, kind: str, trick: int | None, seat: int,
              moves: Sequence[Action], rows: Sequence[Row], checked: Sequence[Row],
              exact: bool) -> Decision:
    """The figures of a judged decision from its rollouts: ``rows`` over every move,
    ``checked`` over the move played and the best (:func:`confirm`; with open hands,
    ``exact``, the actual deal's row)."""
    opts = []
    for i, move in enumerate(moves):
        value = sum(r[i][0] for r in rows) / len(rows) if rows else 0.0
        points = sum(r[i][1] for r in rows) / len(rows) if rows else 0.0
        opts.append(Option(str(move), label(move, seat), value, value - points / 100, points))
    best = best_of(moves, rows)
    cost = error = levels = levels_error = points = points_error = 0.0
    if best:
        cost, error = _mean_error([r[-1][0] - r[0][0] for r in checked])
        points, points_error = _mean_error([r[-1][1] - r[0][1] for r in checked])
        levels, levels_error = _mean_error([(r[-1][0] - r[-1][1] / 100)
                                            - (r[0][0] - r[0][1] / 100) for r in checked])
        if not checked or cost <= ROUNDING:  # not found better apart: the played stands
            best = 0
            cost = error = levels = levels_error = points = points_error = 0.0
    value, value_error = _mean_error([r[0][0] for r in rows])
    shown = clear(cost, error) and (exact or len(checked) >= CLEAR_WORLDS)
    return Decision(position.round, position.index, kind, trick, opts[0].label,
                    opts[best].label, tuple(opts), len(rows), cost, error,
                    len(checked) if best else 0, levels, levels_error, points, points_error,
                    value, value_error, shown, mark(cost, error) if shown else None)


def assess(view: SeatView, legal: Legal, played: Action, *, budget: int = BUDGET,
           seed: int = 0, index: int = 0, limit: int = CANDIDATES, number: int = 1,
           actual: Round | None = None) -> Decision:
    """One decision judged: the move ``played`` by the seat of ``view`` against the best
    of the moves compared (:func:`judge` in ``budget`` worlds, the cost measured in as many
    more: :func:`confirm`), or with ``actual`` (the round at that point, open hands) in the
    actual deal (:func:`judge_open`). ``index`` (the move's place in the match) and
    ``number`` (the round's, from 1) say where it was; ``index`` seeds its worlds. Raises
    :class:`AnalysisError` where ``played`` is not one of ``legal``."""
    why = legal.reason(played)
    if why is not None:
        raise AnalysisError(f"{played} cannot be judged here: {why}")
    kind = KINDS.get(view.phase, view.phase.value)
    trick = None
    if view.phase == Phase.PLAY:
        kind = "lead" if isinstance(legal.plays, LegalLeads) else "follow"
        trick = len(view.tricks) + 1
    if actual is not None:
        moves, rows = judge_open(actual, view, legal, played, seed=seed, index=index,
                                 limit=limit)
        checked = [[r[0], r[best_of(moves, rows)]] for r in rows]
    else:
        moves, rows = judge(view, legal, played, budget=budget, seed=seed, index=index,
                            limit=limit)
        best = best_of(moves, rows)
        checked = confirm(view, moves[0], moves[best], budget=budget, seed=seed,
                          index=index) if best else []
    return _decision(_Position(number, index, played), kind, trick, view.seat, moves, rows,
                     checked, actual is not None)


# -- the whole analysis -------------------------------------------------------------------


def analyze(game: Record | Match, seat: int, *, budget: int = BUDGET, seed: int = 0,
            rounds: Sequence[int] | None = None, open_hands: bool = False,
            candidates: int = CANDIDATES, skip: Collection[int] = (),
            progress: Callable[[int, int], None] | None = None) -> Analysis:
    """Judge every decision of ``seat`` in the finished rounds of a match (a record, or a
    match whose history is replayed: the match itself is not touched).

    ``budget``: worlds per decision; ``seed``: the worlds' seed; ``rounds``: the round
    numbers (from 1; default every finished round); ``open_hands``: judge with the actual
    deal instead of the seat's knowledge; ``candidates``: the most moves compared besides
    the one played; ``skip``: positions in the match's actions (from 0, as
    :attr:`Decision.index`) not to judge, moves the seat did not choose itself (counted in
    :attr:`RoundAnalysis.skipped`); ``progress(done, total)`` is called after each decision. Raises
    :class:`AnalysisError` for a bad seat or round, or a round in progress (during a round
    nothing is analysed or revealed), and :class:`~shengji.game.record.RecordError` for a
    record that does not replay.
    """
    record = _record(game)
    if type(seat) is not int or not 0 <= seat < record.rules.players:
        raise AnalysisError(f"the seat must be 0..{record.rules.players - 1}, got {seat!r}")
    for name, value, low in (("budget", budget, 1), ("candidates", candidates, 1),
                             ("seed", seed, 0)):
        if type(value) is not int or value < low:
            raise AnalysisError(f"the {name} must be a whole number of at least {low}, "
                                f"got {value!r}")
    if isinstance(skip, str | bytes) or not all(type(i) is int for i in skip):
        raise AnalysisError(f"skip holds positions in the match's actions (whole numbers), "
                            f"got {skip!r}")
    replay(record)  # refuses a record that does not replay, naming the line
    positions, finished, busy = _positions(record, seat)
    wanted = _wanted(rounds, finished, busy)
    skipped = frozenset(skip)
    left_out = Counter(p.round for p in positions if p.round in wanted and p.index in skipped)
    chosen = [p for p in positions if p.round in wanted and p.index not in skipped]
    decisions: dict[int, list[Decision]] = {n: [] for n in wanted}
    outcomes: dict[int, tuple[float, bool]] = {}
    for number, position, match in _walk(record, chosen, outcomes, seat):
        rnd = match.round
        decisions[number].append(assess(
            match.view(seat), match.legal(seat), position.action, budget=budget, seed=seed,
            index=position.index, limit=candidates, number=number,
            actual=rnd if open_hands else None))
        if progress is not None:
            progress(sum(map(len, decisions.values())), len(chosen))
    result = tuple(RoundAnalysis(n, tuple(decisions[n]), *outcomes[n], left_out[n])
                   for n in wanted)
    return Analysis(seat, budget, seed, open_hands, candidates, result,
                    busy if rounds is None else None)


def _wanted(rounds: Sequence[int] | None, finished: int, busy: int | None) -> list[int]:
    """The round numbers to analyse (checked)."""
    if rounds is None:
        if not finished:
            raise AnalysisError(f"round 1 is in progress: {IN_PROGRESS}" if busy
                                else "the record holds no finished round")
        return list(range(1, finished + 1))
    if not rounds:
        raise AnalysisError("no round asked for: name one or more, or none for every "
                            "finished round")
    for number in rounds:
        if type(number) is not int:
            raise AnalysisError(f"a round is a whole number from 1, got {number!r}")
        if number == busy:
            raise AnalysisError(f"round {number} is in progress: {IN_PROGRESS}")
        if not 1 <= number <= finished:
            raise AnalysisError(f"no round {number}: the record holds "
                                f"{finished} finished round{'s' if finished != 1 else ''}")
    return sorted(set(rounds))


def _walk(record: Record, positions: Sequence[_Position],
          outcomes: dict[int, tuple[float, bool]], seat: int
          ) -> Iterator[tuple[int, _Position, Match]]:
    """Replay the record, stopping before each of ``positions`` (yielded with the round
    number and the match there); fills ``outcomes`` with each round's actual value."""
    match = record.match()
    at = {p.index: p for p in positions}
    for index, action in enumerate(record.actions):
        position = at.get(index)
        if position is not None:
            yield position.round, position, match
        rnd = match.round
        if match.apply(action) is not None:
            result = rnd.result
            assert result is not None
            outcomes[len(match.results)] = (round_value(rnd, seat), result.redeal)


def running(analysis: Analysis, number: int) -> list[tuple[int, float, float]]:
    """The running evaluation of round ``number``: after each judged decision (from 1),
    the seat's expected levels and their standard error."""
    for rnd in analysis.rounds:
        if rnd.number == number:
            return [(i, d.value, d.value_error) for i, d in enumerate(rnd.decisions, 1)]
    raise AnalysisError(f"round {number} was not analysed")


def parse_move(option: Option) -> Action:
    """The move of an option as an action."""
    return parse_action(option.action)


__all__ = ["BUDGET", "CANDIDATES", "CLEAR_WORLDS", "CONFIDENCE", "IN_PROGRESS", "KINDS", "MARKS",
           "REVIEW_BUDGET", "Analysis", "AnalysisError", "Decision", "Option", "RoundAnalysis",
           "analyze", "assess", "best_of", "clear", "confirm", "judge", "judge_open", "label",
           "mark", "options", "parse_move", "running"]
