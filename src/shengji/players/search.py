"""A search player: determinized Monte-Carlo search over the hidden cards.

At each decision worth searching, the player

1. lists a few **candidate** actions: its *base* player's choice (the *default*: the
   :class:`~shengji.players.learned.LearnedPlayer`'s, which is the heuristic's where no
   model fits the rules but for the first round's bid for the dealership; with
   ``learned=False`` the heuristic's) and a handful of
   sensible alternatives: at a lead or a follow where a model fits, the model's next
   best plays; elsewhere those of :func:`candidates`: for a lead, the
   highest and the lowest unit of each suit held; for a follow, the cheapest play,
   the play richest in points, the cheapest and the strongest winning plays; for the
   kitty, :func:`~shengji.players.options.bury_options` (emptying each short suit, the
   cheapest cards, keeping trumps, hiding points); for the Hundred's trump, each
   suit; for friend calls, other aces and kings; for a bid (during the deal, after it,
   after the kitty), not bidding and each bid;
2. samples **worlds**: the hidden cards dealt at random consistently with everything
   the seat knows (:mod:`shengji.players.worlds`: played cards, proven voids and
   unpaired suits, bid and exposed cards, the kitty it buried, hand sizes, during the
   deal the undealt pack; every world is checked by replaying the public history from
   its deal); with ``read_kitty`` (the default where the Da Bai Fen or the Finding
   Friends model fits: :data:`READ_KITTY`) a kitty the seat did not see buried is the
   one a heuristic burier would have buried from the cards the world dealt it; with
   ``infer`` (off by default) the worlds also follow the other seats' plays:
   :class:`~shengji.players.worlds.Inference` keeps a world only with a chance that
   falls with each of their recent plays that the heuristic would not have made in it,
   :class:`~shengji.players.worlds.Refine` moves each world towards those plays by a
   chain of card swaps;
3. plays each candidate in each world and **rolls the round out** to the end (a seat with
   one legal action takes it): where partnerships are fixed and a shipped model fits the
   rules, the seat's side plays as the learned player and the other side as the
   heuristic; elsewhere the heuristic plays every seat (``rollouts``,
   :func:`rollout_policy`). It scores the result for the seat's side: levels gained by
   its side minus those of the other side, plus a small share of the points (the same
   worlds for every candidate, so the comparison is paired);
4. keeps the default unless the best candidate's paired gain over it has a
   **lower confidence bound above zero** (mean − ``z`` standard errors; where the model
   valued the candidates, ``prior`` times its value of the candidate less that of the
   default is added to the gain): search overrides its base only where the evidence
   says it should.

**Racing** saves most of the rollouts of a large budget: after 32 worlds, and again at each
doubling (:func:`checkpoints`), a candidate whose gain over the default has an *upper*
confidence bound at or below zero (mean + ``race`` standard errors) is not rolled out in
the worlds that follow (:func:`survivors`); where only the default is left, the search
stops. :func:`verdict` makes the same choice from rows with every candidate in every world.

Budgets: ``iterations`` (worlds per decision) makes the player reproducible: the same
seed, view and budget give the same action and the same figures, whatever the number of
``workers`` and whatever ``time_budget`` (each world has its own seed, derived from the
player's seed, the seat and the position). Without it, the search stops at
``max_worlds`` worlds (default 32) or before a batch of worlds that would end past
``time_budget`` seconds (default 1 s), whichever comes first: where the time is short the
worlds used depend on the machine's speed. ``workers`` > 1 runs
the worlds root-parallel in that many processes (each gets a contiguous share).

Where search is not worth it the player plays its base player's choice: drawing when no bid
may be made, the Hundred's exposing, showing a hand for a redeal, decisions with one
candidate, and any position where no consistent world could be sampled. Where the base's
model fits the rules, search takes only the **endgame** (``endgame``, default
:func:`endgame_for`: 20 cards where learned players finish the rollouts, else 12): the
leads and follows made with that many cards or fewer in hand, where the hidden cards are
few and the rollouts short, and the phases :data:`MODEL_PHASES` names for that model (the
kitty with one deck). The earlier plays, the bids and elsewhere the kitty are the base's:
searching every decision there played worse than the model alone, and searching
tractor's kitty alone no better (docs/experiments.md).
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from random import Random
from typing import Final, Literal

from shengji.engine.cards import Card, Rank, Suit
from shengji.engine.follow import LegalPlays
from shengji.engine.friends import FriendCall
from shengji.engine.lead import LegalLeads
from shengji.engine.rules import Partnership, Rules
from shengji.game.actions import Action, Bid, Call, Declare, Draw, Pass, Play
from shengji.game.legal import Legal
from shengji.game.phase import Phase
from shengji.game.round import Round
from shengji.game.view import SeatView
from shengji.players.base import check_flag, check_number, checked_seed
from shengji.players.heuristic import HeuristicPlayer
from shengji.players.learned import LearnedPlayer, PlayModel, check_model, model_name
from shengji.players.options import bury_options, follow_options, lead_options
from shengji.players.table import decide
from shengji.players.worlds import Inference, Knowledge, PlayReading, Refine, sample_world

MAX_WORLDS: Final = 32
"""The default most worlds per decision."""
TIME_BUDGET: Final = 1.0
"""Seconds per decision by default (or :data:`MAX_WORLDS` worlds, whichever comes first)."""
Z: Final = 1.0
"""The default ``z``: the standard errors by which an override's gain must clear zero."""
RACE: Final = 1.0
"""The default ``race``: the standard errors by which a candidate must fall short of the
default to be dropped at a checkpoint."""
PRIOR: Final = 1.0
"""The default ``prior``: the weight of the learned model's values in the override rule."""
ROLLOUTS: Final = ("heuristic", "learned")
"""Who finishes the round in a rollout: heuristic players, or learned players on the
searching seat's side and heuristic ones on the other (where :func:`rollout_policy`
allows: fixed partners and a shipped model that fits the rules)."""
DEFAULT_ROLLOUTS: Final = "learned"
"""The default ``rollouts`` on the learned base (:func:`rollouts_for`): the learned
player finishes its side's rounds better than the heuristic, for about 1.7 times the
time."""
ENDGAME: Final = 12
"""The default ``endgame`` where the heuristic finishes the rollouts (:func:`endgame_for`):
where the base's model fits the rules, search takes the leads and follows made with this
many cards or fewer in hand, and no other decision."""
LEARNED_ENDGAME: Final = 20
"""The default ``endgame`` where learned players finish the rollouts of the seat's side
(:func:`rollout_policy` ``"learned"``): their imagined rounds are worth searching from
earlier in the round."""
RACE_FROM: Final = 32
"""The first checkpoint of racing (then each doubling)."""

MODEL_PHASES: Final[dict[str, frozenset[Phase]]] = {"da-bai-fen": frozenset((Phase.KITTY,))}
"""The phases beyond the endgame's leads and follows that search takes by default where
the shipped model of that name fits the rules: the kitty with one deck, whose 12-card
round is quick to imagine from the bury (over the plays alone, Da Bai Fen +0.032 and the
Hundred +0.015 levels per deal; tractor's kitty searched gained nothing)."""
READ_KITTY: Final = frozenset(("da-bai-fen", "finding-friends"))
"""The shipped models where search reads the hidden kitty into its worlds by default
(:func:`reads_kitty`): the worlds' kitty, buried as the heuristic would, gained +0.017
levels per deal over Da Bai Fen's and the Hundred's deals and +0.024 to +0.027 a seat
in Finding Friends at 5, 6 and 8 players, for next to no time (in tractor nothing
shown over two seeds' deals: docs/experiments.md)."""
SEARCHED: Final = frozenset((Phase.DEAL, Phase.BID, Phase.OVERBID, Phase.KITTY, Phase.CALL,
                            Phase.DECLARE, Phase.PLAY))
"""The phases where search compares candidates (bids during and after the deal, the kitty,
the friend calls, the Hundred's trump, leads and follows)."""


class SearchPlayer:
    """Determinized Monte-Carlo search (see the module docstring).

    ``iterations``: worlds per decision (reproducible); when it is not given,
    ``max_worlds`` worlds or ``time_budget`` seconds per decision, whichever comes first;
    ``candidates``: the most actions compared;
    ``z``: how sure the gain over the base player's choice must be; ``race``: how sure the
    loss of a candidate must be to stop rolling it out (``None``: never); ``workers``:
    processes;
    ``infer``: read the other seats' plays into the worlds (a
    :data:`~shengji.players.worlds.PlayReading`: ``Inference`` or ``Refine``);
    ``read_kitty``: the worlds' hidden kitty is the one a heuristic burier would have
    buried (:func:`~shengji.players.worlds.sample_world`'s ``read_kitty``; default: where
    the base's model is one :data:`READ_KITTY` names, :func:`reads_kitty`);
    ``phases``: the phases searched (none named: :data:`SEARCHED`, every phase with a choice,
    but see ``endgame``; in the others it plays the base player's choice);
    ``learned``: the base player is the :class:`~shengji.players.learned.LearnedPlayer`
    (``False``: the heuristic), playing ``model`` (default: the shipped model that fits the
    rules); where its model fits, its best plays are the candidates of a lead or a follow
    and ``prior`` weighs its values into the override rule (:func:`choose`'s ``shift``);
    ``rollouts``: one of :data:`ROLLOUTS` (learned rollouts play the shipped model, even
    where ``model`` gives the base another, and only where :func:`rollout_policy` allows
    them; default: :func:`rollouts_for` the base);
    ``grab``: the learned base bids at its first chance to become the first round's
    dealer (:class:`~shengji.players.learned.LearnedPlayer`'s ``grab``);
    ``endgame``: where the base's model fits the rules, search only the leads and follows
    made with at most this many cards in hand (if ``phases`` holds the play) and the
    other phases only where ``phases`` names them (where it names none, those
    :data:`MODEL_PHASES` gives the model), keeping the base's choice in every other
    decision (``None``: search as where no model fits; default ``"auto"``:
    :func:`endgame_for` the rules and the rollouts).
    """

    def __init__(self, seed: int | None = None, *, time_budget: float = TIME_BUDGET,
                 iterations: int | None = None, max_worlds: int = MAX_WORLDS,
                 candidates: int = 5, z: float = Z, race: float | None = RACE,
                 workers: int = 1, infer: PlayReading | None = None,
                 phases: Iterable[Phase] = (), learned: bool = True, prior: float = PRIOR,
                 rollouts: str | None = None, model: PlayModel | None = None,
                 grab: bool = True, endgame: int | Literal["auto"] | None = "auto",
                 read_kitty: bool | None = None) -> None:
        if iterations is not None:
            check_number("iterations", iterations, 1, whole=True)
        for name, count in (("max_worlds", max_worlds), ("candidates", candidates),
                            ("workers", workers)):
            check_number(name, count, 1, whole=True)
        check_number("time_budget", time_budget, 0, above=True)
        check_number("z", z, 0)
        check_number("prior", prior, 0)
        if race is not None:  # (None: no racing)
            check_number("race", race, 0)
        check_flag("learned", learned)
        check_flag("grab", grab)
        check_flag("read_kitty", read_kitty, optional=True)
        if infer is not None and not isinstance(infer, Inference | Refine):
            raise ValueError(f"infer must be an Inference, a Refine or None, got {infer!r}")
        check_model(model)  # (here: the compiled LearnedPlayer's own check is a TypeError)
        if endgame != "auto" and endgame is not None and not (
                type(endgame) is int and endgame >= 1):
            raise ValueError(f"endgame must be at least 1 card, \"auto\" or None, "
                             f"got {endgame!r}")
        rollouts = rollouts_for(learned, rollouts)
        named = frozenset(phases)
        searched = named or SEARCHED
        if not searched <= SEARCHED:
            raise ValueError("phases must be among "
                             + ", ".join(sorted(p.value for p in SEARCHED)))
        chosen = checked_seed(seed)
        self.seed = chosen if chosen is not None else Random().getrandbits(32)
        self.time_budget = time_budget
        self.iterations = iterations
        self.max_worlds = max_worlds
        self.max_candidates = candidates
        self.z = z
        self.race = race
        self.workers = workers
        self.infer = infer
        self.read_kitty = read_kitty
        """Whether the worlds' hidden kitty is read from its burier (``None``: the
        default, :func:`reads_kitty`)."""
        self.phases = searched
        self._named = named
        self.learned = learned
        self.prior = prior
        self.rollouts = rollouts
        self.endgame = endgame
        self.base: HeuristicPlayer = (LearnedPlayer(self.seed, model=model, grab=grab)
                                      if learned else HeuristicPlayer(self.seed))
        """The player whose choice is the default: the learned player (where no model
        fits the rules it plays as the heuristic, but for the first round's bid), or with
        ``learned=False`` the heuristic."""
        self.last: SearchStats | None = None
        """Figures of the last searched decision (for benchmarks and tests)."""
        self._pool: ProcessPoolExecutor | None = None

    def __repr__(self) -> str:
        budget = (f"iterations={self.iterations}" if self.iterations is not None
                  else f"time_budget={self.time_budget}, max_worlds={self.max_worlds}")
        return f"SearchPlayer({budget})"

    def __getstate__(self) -> dict[str, object]:
        state = dict(self.__dict__)
        state["_pool"] = None
        return state

    def close(self) -> None:
        """Stop the worker processes, if any."""
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None

    def act(self, view: SeatView, legal: Legal) -> Action:
        """Choose an action: the base player's, unless search shows a better one."""
        self.last = None
        base = self.base
        valued = (base.valued(view, legal) if view.phase == Phase.PLAY
                  and isinstance(base, LearnedPlayer) else [])
        default = valued[0][0] if valued else base.act(view, legal)
        if not self.searches(view):
            return default
        priors: list[float] | None = None
        if valued:  # the model's best plays, with their values
            best = valued[:self.max_candidates]
            options: list[Action] = [play for play, _ in best]
            priors = [value for _, value in best]
        else:
            options = candidates(view, legal, default, self.max_candidates)
        if len(options) < 2:
            return default
        stats = self._search(view, options, priors)
        self.last = stats
        return options[stats.choice]

    def searches(self, view: SeatView) -> bool:
        """Whether search compares candidates in ``view``'s position: in the phases
        searched; where the base's model fits the rules and ``endgame`` is set, only the
        leads and follows of its endgame and the phases ``phases`` names (if none, the
        model's :data:`MODEL_PHASES`)."""
        phase = view.phase
        if phase not in self.phases:
            return False
        endgame = self.endgame
        model = self._model(view.rules)
        if endgame is None or model is None:
            return True
        if phase == Phase.PLAY:
            if endgame == "auto":
                endgame = endgame_for(view.rules, self.rollouts)
            return len(view.hand) <= endgame
        return phase in (self._named or MODEL_PHASES.get(model.name, frozenset()))

    def reads_kitty(self, rules: Rules) -> bool:
        """Whether this player's worlds for ``rules`` read the hidden kitty from its burier
        (:func:`reads_kitty` of its base's model and ``read_kitty``)."""
        return reads_kitty(self._model(rules), self.read_kitty)

    def _model(self, rules: Rules) -> PlayModel | None:
        """The base's model where one fits ``rules`` (none for the heuristic base)."""
        base = self.base
        return base.fitted(rules) if isinstance(base, LearnedPlayer) else None

    def _search(self, view: SeatView, options: list[Action], priors: list[float] | None
                ) -> SearchStats:
        start = time.perf_counter()
        knowledge = Knowledge.of(view)
        read = self.reads_kitty(view.rules)
        key = _position_seed(self.seed, view)
        rows: list[list[float]] = []
        active = list(range(len(options)))
        timed = self.iterations is None
        total = self.max_worlds if self.iterations is None else self.iterations
        batch = self.workers
        done = 0
        for mark in checkpoints(total):
            while done < mark:
                if timed:
                    spent = time.perf_counter() - start
                    if done and spent + spent / done * batch > self.time_budget:
                        break  # the next batch would end past the budget
                    count = min(batch, mark - done)
                else:
                    count = mark - done  # all at once, split evenly between the workers
                # world i has its own seed: the rows do not depend on how they are shared out
                seeds = [key * 1_000_003 + done + i for i in range(count)]
                for row in self._worlds(knowledge, [options[i] for i in active], seeds,
                                        read):
                    if row is not None:
                        rows.append(_spread(row, active, len(options)))
                done += count
            if done < mark or mark == total:
                break
            active = survivors(rows, active, self.race)
            if len(active) == 1:
                break  # only the default is left
        means = []
        for i in range(len(options)):
            values = [r[i] for r in rows if not math.isnan(r[i])]
            means.append(sum(values) / len(values) if values else 0.0)
        shift = None if priors is None or not self.prior else [
            self.prior * (p - priors[0]) for p in priors]
        return SearchStats(choose(rows, self.z, active, shift), len(rows), done,
                           time.perf_counter() - start, means)

    def _worlds(self, knowledge: Knowledge, options: list[Action], seeds: list[int],
                read_kitty: bool) -> list[list[float] | None]:
        if self.workers == 1 or len(seeds) == 1:
            return evaluate_many(knowledge, options, seeds, self.infer, self.rollouts,
                                 read_kitty)
        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.workers)
        parts = min(self.workers, len(seeds))
        chunks = [seeds[i * len(seeds) // parts:(i + 1) * len(seeds) // parts]
                  for i in range(parts)]  # contiguous, in order: one message per worker
        rows: list[list[float] | None] = []
        for part in self._pool.map(evaluate_many, [knowledge] * parts, [options] * parts,
                                   chunks, [self.infer] * parts, [self.rollouts] * parts,
                                   [read_kitty] * parts):
            rows.extend(part)
        return rows


class SearchStats:
    """What one search found: the chosen candidate, worlds used, time, mean values."""

    def __init__(self, choice: int, worlds: int, tried: int, seconds: float,
                 means: list[float]) -> None:
        self.choice = choice
        self.worlds = worlds
        self.tried = tried
        self.seconds = seconds
        self.means = means

    def __repr__(self) -> str:
        return (f"SearchStats(choice={self.choice}, worlds={self.worlds}/{self.tried}, "
                f"seconds={self.seconds:.3f})")


def _position_seed(seed: int, view: SeatView) -> int:
    """A seed for this decision: the player's seed, the seat and the position."""
    return (seed * 7_919 + view.seat * 104_729 + len(view.history) * 15_485_863) % (2**40)


def choose(rows: Sequence[Sequence[float]], z: float,
           among: Sequence[int] | None = None, shift: Sequence[float] | None = None) -> int:
    """The candidate to play: the best by mean value (of those ``among``, by default all)
    if its paired gain over the default (candidate 0) has a lower confidence bound above
    zero (mean − ``z`` standard errors), else the default. ``shift`` adds a number to
    each candidate's gain (the prior's difference from the default's)."""
    if len(rows) < 2:
        return 0
    best, best_mean = 0, 0.0
    for i in among if among is not None else range(len(rows[0])):
        if i == 0:
            continue
        mean, error = _gain(rows, i)
        if shift is not None:
            mean += shift[i]
        if mean - z * error > 0 and mean > best_mean:
            best, best_mean = i, mean
    return best


def checkpoints(total: int) -> list[int]:
    """The world counts at which a search of ``total`` worlds races its candidates
    (:data:`RACE_FROM`, then each doubling below ``total``), then ``total`` itself."""
    marks = []
    mark = RACE_FROM
    while mark < total:
        marks.append(mark)
        mark *= 2
    return [*marks, total]


def survivors(rows: Sequence[Sequence[float]], active: Sequence[int], race: float | None
              ) -> list[int]:
    """The candidates of ``active`` worth more worlds: the default, and each whose paired
    gain over it has an upper confidence bound (mean + ``race`` standard errors) above
    zero (all of them where ``race`` is ``None`` or there are too few rows to tell)."""
    if race is None or len(rows) < 2:
        return list(active)
    kept = []
    for i in active:
        if i != 0:
            mean, error = _gain(rows, i)
            if mean + race * error <= 0:
                continue
        kept.append(i)
    return kept


def verdict(rows: Sequence[Sequence[float]], z: float, race: float | None) -> int:
    """The choice a search makes from these worlds (every candidate valued in each, in
    the order searched): :func:`choose` among the candidates :func:`raced` leaves."""
    left, _ = raced(rows, race)
    return choose(rows, z, left) if len(left) > 1 else 0


def raced(rows: Sequence[Sequence[float]], race: float | None) -> tuple[list[int], int]:
    """The candidates left by racing these worlds (every candidate valued in each) at
    each checkpoint below ``len(rows)``, and how many candidate-worlds a search plays out
    to get there (it stops where only the default is left)."""
    left = list(range(len(rows[0]))) if rows else [0]
    played = done = 0
    for mark in checkpoints(len(rows))[:-1]:
        played += (mark - done) * len(left)
        done = mark
        left = survivors(rows[:mark], left, race)
        if len(left) == 1:
            return left, played
    return left, played + (len(rows) - done) * len(left)


def _gain(rows: Sequence[Sequence[float]], i: int) -> tuple[float, float]:
    """The mean paired gain of candidate ``i`` over the default in ``rows`` (two or more)
    and its standard error."""
    n = len(rows)
    gains = [r[i] - r[0] for r in rows]
    mean = sum(gains) / n
    var = sum((g - mean) ** 2 for g in gains) / (n - 1)
    return mean, math.sqrt(var / n)


def _spread(values: Sequence[float], active: Sequence[int], size: int) -> list[float]:
    """A world's row of ``size`` candidates from the values of those ``active`` (NaN for
    the others: racing dropped them, and no rule reads them again)."""
    row = [math.nan] * size
    for i, value in zip(active, values, strict=True):
        row[i] = value
    return row


def evaluate(knowledge: Knowledge, options: Sequence[Action], seed: int,
             infer: PlayReading | None = None, rollouts: str = "heuristic",
             read_kitty: bool = False) -> list[float] | None:
    """One sampled world (:func:`~shengji.players.worlds.sample_world`): the value of each
    candidate for the seat, or ``None`` if no consistent world was found."""
    rng = Random(seed)
    world = sample_world(knowledge, rng, infer=infer, read_kitty=read_kitty)
    if world is None:
        return None
    seat = knowledge.view.seat
    return [rollout(world, action, seat, seed, rollouts) for action in options]


def rollout(world: Round, action: Action, seat: int, seed: int,
            rollouts: str = "heuristic") -> float:
    """The value for ``seat`` of playing ``action`` in ``world`` (left unchanged) and
    finishing the round with heuristic players (``rollouts="learned"``: learned players
    on the seat's side where :func:`rollout_policy` allows, bidding as the heuristic)."""
    rnd = world.copy()
    rnd.apply(action)
    return round_value(_play_out(rnd, seed, seat, rollouts), seat)


def finish(world: Round, action: Action, seat: int, seed: int,
           rollouts: str = "heuristic") -> Round:
    """The finished round of :func:`rollout` (``world`` left unchanged):
    ``round_value(finish(...), seat)`` is its value (for analysis: levels and points apart)."""
    rnd = world.copy()
    rnd.apply(action)
    return _play_out(rnd, seed, seat, rollouts)


def evaluate_many(knowledge: Knowledge, options: Sequence[Action], seeds: Sequence[int],
                  infer: PlayReading | None = None, rollouts: str = "heuristic",
                  read_kitty: bool = False) -> list[list[float] | None]:
    """:func:`evaluate` for each seed, in order (the work one process does at a time)."""
    return [evaluate(knowledge, options, s, infer, rollouts, read_kitty) for s in seeds]


def reads_kitty(model: PlayModel | None, read_kitty: bool | None = None) -> bool:
    """Whether a search player reads the hidden kitty into its worlds: ``read_kitty`` if
    given, else where its base plays a model (``model``) that :data:`READ_KITTY`
    names."""
    if read_kitty is not None:
        return read_kitty
    return model is not None and model.name in READ_KITTY


def rollouts_for(learned: bool, rollouts: str | None = None) -> str:
    """The ``rollouts`` of a search player on the learned base (``learned``) or the
    heuristic's: ``rollouts`` if given (one of :data:`ROLLOUTS`), else
    :data:`DEFAULT_ROLLOUTS` on the learned base and ``"heuristic"`` on the other."""
    if rollouts is None:
        return DEFAULT_ROLLOUTS if learned else "heuristic"
    if rollouts not in ROLLOUTS:
        raise ValueError(f"rollouts must be one of {', '.join(ROLLOUTS)}")
    return rollouts


def endgame_for(rules: Rules, rollouts: str) -> int:
    """The default ``endgame`` of a search player with ``rollouts`` in ``rules``:
    :data:`LEARNED_ENDGAME` where :func:`rollout_policy` lets learned players finish the
    seat's side's rollouts, else :data:`ENDGAME`."""
    return LEARNED_ENDGAME if rollout_policy(rules, rollouts) == "learned" else ENDGAME


def rollout_policy(rules: Rules, rollouts: str) -> str:
    """Who finishes the rollouts of ``rollouts`` in ``rules``: ``"learned"`` (the
    searching seat's side plays the shipped model, the other side the heuristic) only where
    partnerships are fixed and a shipped model fits the rules; else ``"heuristic"``."""
    if (rollouts == "learned" and rules.partnership == Partnership.FIXED
            and model_name(rules) is not None):
        return "learned"
    return "heuristic"


def _play_out(rnd: Round, seed: int, seat: int, rollouts: str) -> Round:
    """Play ``rnd`` to the end (through :func:`decide`: a seat with one legal action takes
    it without building a view, as the player would)."""
    own = rollout_policy(rnd.rules, rollouts) == "learned"
    teams = rnd.teams
    players = [LearnedPlayer(seed + s, grab=False) if own and teams[s] == teams[seat]
               else HeuristicPlayer(seed + s) for s in range(rnd.rules.players)]
    while rnd.phase != Phase.DONE:
        mover = rnd.to_move
        assert mover is not None
        rnd.apply(decide(rnd, mover, players[mover]))
    return rnd


def round_value(rnd: Round, seat: int) -> float:
    """The finished round's worth to ``seat``'s side: levels gained by it minus those of
    the other side, plus a tenth of a level for every 10 points the opponents took (for
    the opponents' side, against the declarers'): what search and the learned player's
    training maximise."""
    result = rnd.result
    assert result is not None
    if result.redeal:
        return 0.0
    mine = result.declarers if seat in result.declarers else result.opponents
    other = result.opponents if seat in result.declarers else result.declarers
    gain = [b - a for a, b in zip(result.levels_before, result.levels, strict=True)]
    levels = (sum(gain[s] for s in mine) / max(1, len(mine))
              - sum(gain[s] for s in other) / max(1, len(other)))
    points = result.points if seat in result.opponents else -result.points
    return levels + points / 100.0


# -- candidates --------------------------------------------------------------------------


def candidates(view: SeatView, legal: Legal, default: Action, limit: int) -> list[Action]:
    """The actions worth comparing, the default first, at most ``limit``."""
    found: list[Action] = [default]
    phase = view.phase
    if phase == Phase.PLAY:
        plays = legal.plays
        if isinstance(plays, LegalLeads):  # the suits' top units first, then their low ones
            units = lead_options(plays)
            extra: list[Action] = [Play(view.seat, u.cards) for label, u in units
                                   if label == "top"]
            extra += [Play(view.seat, u.cards) for label, u in units if label == "low"]
        else:
            assert isinstance(plays, LegalPlays)
            extra = [Play(view.seat, c) for _, c in follow_options(view, plays)]
    elif phase == Phase.KITTY:
        extra = list(bury_options(view, legal))
    elif phase == Phase.DECLARE:
        extra = [a for a in legal if isinstance(a, Declare)]
    elif phase == Phase.CALL:
        extra = list(_call_options(view, legal))
    elif phase in (Phase.DEAL, Phase.BID, Phase.OVERBID):
        extra = _bid_options(view, legal)
    else:
        extra = []
    for action in extra:
        if len(found) >= limit:
            break
        if not any(_same(action, f) for f in found) and action in legal:
            found.append(action)
    return found


def _same(a: Action, b: Action) -> bool:
    """Equal actions (cards compared as multisets)."""
    cards_a, cards_b = getattr(a, "cards", None), getattr(b, "cards", None)
    if cards_a is not None and cards_b is not None:
        return type(a) is type(b) and Counter(cards_a) == Counter(cards_b)
    return a == b


def _bid_options(view: SeatView, legal: Legal) -> list[Action]:
    """When a bid may be made: not bidding (drawing on, or passing), then the bids, most
    cards first, trump-rank suits before jokers."""
    bids = [a for a in legal if isinstance(a, Bid)]
    if not bids:
        return []
    seat = view.seat
    quiet: list[Action] = [a for a in (Draw(seat), Pass(seat)) if a in legal]
    bids.sort(key=lambda b: (-len(b.cards), b.cards[0].suit is None, b.cards))
    return quiet + bids


def _call_options(view: SeatView, legal: Legal) -> list[Action]:
    """Calls of the first copy the dealer lacks of each plain ace or king, one call per
    option, the rest as in the default."""
    trump = view.trump
    if trump is None or view.rules.friend_calls != "ordinal":
        return []
    held = Counter(view.hand)
    found: list[Action] = []
    want = view.rules.friend_count
    cards = [Card.of(rank, suit) for rank in (Rank.ACE, Rank.KING) for suit in Suit]
    calls = [FriendCall(held[c] + 1, card=c) for c in cards
             if not trump.is_trump(c) and held[c] < view.rules.decks]
    for i in range(len(calls) - want + 1):
        found.append(Call(view.seat, tuple(calls[i:i + want])))
    return [a for a in found if a in legal]


__all__ = ["DEFAULT_ROLLOUTS", "ENDGAME", "LEARNED_ENDGAME", "MAX_WORLDS", "PRIOR", "RACE",
           "READ_KITTY", "ROLLOUTS", "SearchPlayer", "SearchStats", "Z", "candidates",
           "checkpoints", "choose", "endgame_for", "evaluate", "evaluate_many", "finish",
           "raced", "reads_kitty", "rollout", "rollout_policy", "rollouts_for",
           "round_value", "survivors", "verdict"]
