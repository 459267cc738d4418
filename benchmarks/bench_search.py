"""Benchmark: the search player against the heuristic player on duplicate deals.

``python benchmarks/bench_search.py [--preset P] [--table N] [--deals N] [--iterations W |
--time-budget S] [--curve B1,B2,B3,B4] [--plot FILE] [--json FILE] [--workers N] [--seed S]
[--infer KEEP,PLAYS | --refine STEPS,KEEP] [--solo] [--z Z] [--race R|off]
[--log FILE [--report [--against FILE]]] [--phases P,P] [--base learned|heuristic]
[--prior W] [--model FILE] [--margins LEAD,FOLLOW] [--no-bury] [--no-grab] [--set-dealer]
[--rollouts heuristic|learned] [--endgame N|auto|off] [--read-kitty auto|on|off]
[--held-out N [--reference R] | --truth N]
[--plays-only] [--score FILE [--against FILE]]``

Each deal is one round played twice with the same cards: first with the search player in
the even seats and the heuristic in the odd ones, then with the players moved one seat
round. The figure of a deal is the levels gained per seat by the search seats minus those
gained by the heuristic seats, averaged over its two games; deals are the independent
samples of the 95% confidence interval. Decision times are those of searched decisions
(the search player answers exposes and forced moves as its base player does, unsearched,
and where the learned base's model fits the rules every decision outside its endgame).

``--solo`` plays each deal once with the heuristic in every seat and once per seat with
the search player in that seat alone; a deal's figure is the levels a seat gains with
search less those it gains with the heuristic, averaged over the seats. In Finding
Friends, where a side holds both players, this is the figure to use: the two-game
figure moves only in deals whose sides hold the two players unevenly.

``--log FILE`` appends each deal to FILE as it ends and skips the deals FILE already holds
for the same settings, so a run of hours that was stopped goes on where it stopped;
``--report`` prints the figures of the deals the log holds (of the first ``--deals``)
without playing any, at any time; ``--report --log FILE --against OTHER`` pairs two logs
of the same deals (e.g. two budgets) deal by deal. ``--z`` and ``--race`` set the search's
decision rule (:class:`~shengji.players.search.SearchPlayer`'s ``z`` and ``race``) in games,
``--held-out``, ``--truth`` and ``--score``. ``--phases play`` (or any of bid, call,
declare, kitty, play) lets the search players search in those phases only, the base's
choice elsewhere (where a model fits, the play's endgame and the other phases named;
without ``--phases`` the endgame and the model's own, the kitty with one deck: the log
names them). ``--base`` names the player whose choice search keeps unless
the worlds show a better one (``learned``, the default, or ``heuristic``: the search
player before the learned player, as in the tractor logs stored before it, which
``--report`` reads with ``--base heuristic``; where no model fits the rules the two are
the same player but for the first round's bid, and their logs match with ``--no-grab``);
``--iterations 1`` plays the base alone (one world never
overrides it). ``--prior W`` and ``--rollouts`` are the search player's ``prior`` and
``rollouts`` (``--rollouts heuristic`` reads the logs from before the learned rollouts of
2026-12-02 where they apply, fixed partnerships with a model); ``--model FILE`` gives the
learned base a model file of ``scripts/train_learned.py`` instead of the shipped model,
and ``--margins LEAD,FOLLOW`` its margins instead of the model's (``--margins 0,0
--no-bury --report`` reads the logs of the first shipped model, which had none);
``--no-bury`` leaves the kitty to the heuristic (as every model before the kitty forest:
``--no-bury --report`` reads their logs);
``--no-grab`` lets the learned base bid for the first round's dealership as the heuristic
does, instead of at its first chance (every log before that needs it). ``--read-kitty
on|off`` sets the search player's ``read_kitty`` (the worlds' hidden kitty buried as the
heuristic would; the default, ``auto``, is the player's own: on where the Da Bai Fen or
the Finding Friends model fits, and their logs from before need ``--read-kitty off``).
``--endgame N`` is the search player's ``endgame`` (where the learned base's model fits
the rules, search takes only the leads and follows made with N cards or fewer in hand; the
default, ``auto``, is the player's own: 20 cards where learned players finish the rollouts
of the searching side, else 12, and the logs of 12 or 16 cards with learned rollouts need
``--endgame 12`` or ``--endgame 16``); ``--endgame off`` searches every decision as where
no model fits (every learned-base log of more than one world before the endgame rule needs
it).

Each game is a match's first round, where the rules may give the dealership to the first
bidder (tractor's ``first_dealer``); ``--set-dealer`` starts each with a dealer set
instead (the seat of the deal's seed modulo the players), as every later round.

``--curve`` plays the same deals at several budgets, each a number of worlds per decision
(``4``: reproducible) or seconds per decision (``0.25s``), and prints the strength against
the median decision time; ``--plot`` draws it (matplotlib), e.g.::

    python benchmarks/bench_search.py --deals 200 --curve 1,2,4,8 --workers 2 --plot curve.png

``--held-out N`` measures decisions instead of games, with far less noise per second: N
positions of heuristic rounds where search has a choice; at each, the candidates are
valued on ``--reference`` fresh worlds, and the choice that search makes from the first
W worlds (W for each world budget of ``--curve``) is scored by that reference: the gain
over the heuristic's choice, in the search's own units (levels plus a hundredth per
point), per phase, with a 95% confidence interval. Those fresh worlds are drawn as the
search draws its own, so this measures the choice against the search's model of the
hidden cards.

``--truth N`` scores the choice in the real deal instead: each candidate is played in the
real round of the position (heuristic players after it, two rollouts) and the gain of
search's choice over the heuristic's is averaged over the positions; it also prints the
gain the sampled worlds promised for the overrides. It is noisier per decision (one deal)
but free of the model's bias. ``--plays-only`` takes every lead and follow as a
position (no bids); ``--infer KEEP,PLAYS`` samples worlds with
:class:`~shengji.players.worlds.Inference` and ``--refine STEPS,KEEP`` with
:class:`~shengji.players.worlds.Refine` (games, ``--held-out`` and ``--truth``).
``--truth N --json FILE`` stores each position's world rows and real values, and ``--score
FILE`` then scores the override rule at several ``z`` on them without playing again
(and, per budget, what racing saves and changes, and the gain over the default budget);
``--score FILE --against OTHER`` compares two such files of the same positions (e.g. with
and without ``--infer``), paired. Positions are counted by kind: bid, kitty, call,
declare, lead and follow.
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import platform
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any, Literal

from search_decisions import ci95, compare_truth, held_out, score_rules, truth  # beside it
from shengji.engine.rules import FirstDealer, Rules
from shengji.game.match import Match
from shengji.game.phase import Phase
from shengji.game.presets import preset
from shengji.players.heuristic import HeuristicPlayer
from shengji.players.learned import PlayModel, check_margins, model_for
from shengji.players.search import (
    DEFAULT_ROLLOUTS,
    ENDGAME,
    LEARNED_ENDGAME,
    MODEL_PHASES,
    PRIOR,
    RACE,
    RACE_FROM,
    ROLLOUTS,
    SearchPlayer,
    Z,
    endgame_for,
    reads_kitty,
    rollout_policy,
    rollouts_for,
)
from shengji.players.table import decide
from shengji.players.worlds import Inference, PlayReading, Refine
from shengji.simulate import seat_difference

_MODELS: dict[str, PlayModel] = {}
"""Model files read in this process, by path (a game's players share one)."""
_NO_CAP = 10_000
"""The players' ``max_worlds`` here: a budget of seconds is the time alone (the default
player also stops at :data:`~shengji.players.search.MAX_WORLDS` worlds, which ``--iterations``
that many measures where the time is enough)."""


@dataclass(frozen=True)
class Budget:
    """A search budget: worlds per decision, or seconds per decision."""

    iterations: int | None
    seconds: float

    def __str__(self) -> str:
        if self.iterations is not None:
            return f"{self.iterations} world{'s' if self.iterations != 1 else ''}"
        return f"{self.seconds:g} s"


def parse_budget(text: str, seconds: float) -> Budget:
    """``"4"``: 4 worlds per decision; ``"0.25s"``: a quarter of a second per decision."""
    text = text.strip()
    try:
        value = float(text[:-1]) if text.endswith("s") else int(text)
    except ValueError:
        raise ValueError(f"{text!r} is neither worlds (4) nor seconds (0.25s)") from None
    if not value > 0:
        raise ValueError(f"{text!r} must be positive")
    return Budget(None, float(value)) if text.endswith("s") else Budget(int(value), seconds)


@dataclass(frozen=True)
class Setting:
    """How the search players of a game are set up (:class:`SearchPlayer`'s options), and
    whether its dealer is set."""

    infer: PlayReading | None = None
    z: float = Z
    race: float | None = RACE
    phases: tuple[Phase, ...] = ()
    learned: bool = True
    prior: float = PRIOR
    rollouts: str | None = None
    """Who finishes the worlds' rounds (default: the search player's for its base)."""
    model_file: str = ""
    margins: tuple[float, float] | None = None
    bury: bool = True
    grab: bool = True
    set_dealer: bool = False
    """Games start with a dealer set (the seat of the deal's seed modulo the players), as
    every round after a match's first: no bid for the first round's dealership."""
    endgame: int | Literal["auto"] | None = "auto"
    """The search player's ``endgame`` (``"auto"``: :func:`endgame_for` the rules)."""
    trees: int | None = None
    """The trees a forest of the model that the log names (default: the model's own;
    400 for the models shipped before 2026-12-02, to report their logs)."""
    read_kitty: bool | None = None
    """The search players' ``read_kitty`` (``None``: their default)."""

    def model(self, rules: Rules) -> PlayModel | None:
        """The learned base's model where one fits ``rules``: the ``model_file``'s (read
        once per process) or the shipped one, with ``margins`` where given, without its
        kitty forest unless ``bury``."""
        if not self.learned:
            return None
        if self.model_file:
            model: PlayModel | None = _MODELS.get(self.model_file)
            if model is None:
                model = _MODELS[self.model_file] = PlayModel.load(self.model_file)
            if not model.fits(rules):
                return None
        else:
            model = model_for(rules)
        if model is not None and self.margins is not None:
            model = model.with_margins(*self.margins)
        if model is not None and not self.bury and model.bury is not None:
            model = model.without_bury()
        return model

    def player(self, seed: int, budget: Budget, rules: Rules) -> SearchPlayer:
        """A search player of this setting and ``budget`` for ``rules``."""
        return SearchPlayer(seed, iterations=budget.iterations, time_budget=budget.seconds,
                            max_worlds=_NO_CAP, infer=self.infer, z=self.z, race=self.race,
                            phases=self.phases, learned=self.learned, prior=self.prior,
                            rollouts=self.rollouts, model=self.model(rules),
                            grab=self.grab, read_kitty=self.read_kitty,
                            # (one world never overrides: every decision is timed, as before)
                            endgame=self.endgame if budget.iterations != 1 else None)

    def key(self, rules: Rules) -> dict[str, object]:
        """What a ``--log`` line records of the setting beyond the budget, seed and ``z``
        (only what differs from the settings of earlier logs, so that they still match)."""
        key: dict[str, object] = {}
        model = self.model(rules)
        if model is not None:
            key["base"] = "learned"  # (logs without it: the heuristic's choices)
            if self.prior:
                key["prior"] = self.prior
            if self.model_file:
                key["model"] = self.model_file
            trees = self.trees or model.info.get("trees", 400)
            if trees != 400:  # (logs without: models of 400 trees a forest)
                key["trees"] = trees
            if model.lead_margin or model.follow_margin:  # (logs without: the first model)
                key["margins"] = [model.lead_margin, model.follow_margin]
            if model.bury is not None:  # (logs without: models without a kitty forest)
                key["bury"] = model.bury_margin
        rollouts = rollout_policy(rules, rollouts_for(self.learned, self.rollouts))
        if model is not None and self.endgame is not None:
            # (logs without: search in every decision); an endgame of the whole hand or
            # more searches every play alike, so it is recorded as the hand's size
            endgame = (endgame_for(rules, rollouts) if self.endgame == "auto"
                       else self.endgame)
            key["endgame"] = min(endgame, rules.hand_size)
            named = MODEL_PHASES.get(model.name)
            if named and not self.phases:  # (logs without: the endgame's plays alone)
                key["phases"] = ",".join([*sorted(p.value for p in named), "play"])
        if rollouts != "heuristic":  # (logs without: heuristic rollouts)
            key["rollouts"] = rollouts
        if reads_kitty(model, self.read_kitty):  # (logs without: a random hidden kitty)
            key["read_kitty"] = True
        if self.set_dealer:
            key["set_dealer"] = True
        elif self.learned and self.grab and rules.first_dealer != FirstDealer.RANDOM:
            key["grab"] = True  # (logs without: the base bid as the heuristic does)
        return key


def _game(rules: Rules, seed: int, budget: Budget, setting: Setting, search_seats: set[int]
          ) -> tuple[list[int], list[float], int]:
    """One game of the deal ``seed`` with the search player in ``search_seats`` and the
    heuristic elsewhere (each seat's players seeded alike whatever it holds): (levels
    gained by each seat, decision times, decisions where search overrode its base)."""
    times: list[float] = []
    overrides = 0
    players: list[HeuristicPlayer | SearchPlayer] = [
        setting.player(seed * 10 + s, budget, rules) if s in search_seats
        else HeuristicPlayer(seed * 10 + s) for s in range(rules.players)]
    dealer = seed % rules.players if setting.set_dealer else None
    match = Match(rules, seed=seed, max_rounds=1, dealer=dealer)
    while not match.is_over:
        seat = match.to_move
        assert seat is not None
        player = players[seat]
        start = time.perf_counter()
        action = decide(match, seat, player)
        if isinstance(player, SearchPlayer) and player.last is not None:
            times.append(time.perf_counter() - start)
            overrides += player.last.choice != 0
        match.apply(action)
    result = match.results[0]
    gain = [b - a for a, b in zip(result.levels_before, result.levels, strict=True)]
    return gain, times, overrides


def play_deal(rules: Rules, seed: int, budget: Budget, setting: Setting = Setting(),
              solo: bool = False) -> tuple[float, list[float], int]:
    """The games of one deal: (search − heuristic levels per seat, decision times,
    decisions where search overrode its base). Two games (search in the even seats,
    then in the odd ones), or with ``solo`` one game with the heuristic in every seat and
    one per seat with search in that seat alone: the figure is then the levels a seat
    gains with search in it less those it gains with the heuristic, averaged over the
    seats (in Finding Friends, where a side mixes both players, the two-game figure
    counts only the deals whose sides are uneven)."""
    n = rules.players
    diffs: list[float] = []
    times: list[float] = []
    overrides = 0
    if solo:
        base, _, _ = _game(rules, seed, budget, setting, set())
        for seat in range(n):
            gain, spent, changed = _game(rules, seed, budget, setting, {seat})
            diffs.append(gain[seat] - base[seat])
            times += spent
            overrides += changed
        return sum(diffs) / n, times, overrides
    for shift in (0, 1):
        search_seats = {s for s in range(n) if (s + shift) % 2 == 0}
        gain, spent, changed = _game(rules, seed, budget, setting, search_seats)
        diffs.append(seat_difference(gain, search_seats,
                                     [s for s in range(n) if s not in search_seats]))
        times += spent
        overrides += changed
    return sum(diffs) / 2, times, overrides


def _job(args: tuple[Rules, int, Budget, Setting, bool]) -> tuple[float, list[float], int]:
    return play_deal(*args)


def read_log(path: str, key: dict[str, object]) -> dict[int, tuple[float, list[float], int]]:
    """The deals of ``path`` (a ``--log`` file) played with the settings ``key``, by deal
    number. Lines of other settings are left alone (a curve's budgets share one log); a
    torn last line (a run stopped while writing) is ignored."""
    found: dict[int, tuple[float, list[float], int]] = {}
    try:
        rows = _log_rows(path)
    except FileNotFoundError:
        return found
    for row in rows:
        if row.get("key") == key:
            found[int(row["deal"])] = (float(row["levels"]), list(row["times"]),
                                      int(row["overrides"]))
    return found


def _log_rows(path: str) -> list[dict[str, Any]]:
    """The lines of the ``--log`` file ``path`` (plain or .gz), a torn last line left out."""
    if path.endswith(".gz"):  # a stored log (benchmarks/results/)
        with gzip.open(path, "rt", encoding="utf-8") as packed:
            lines = packed.read().splitlines()
    else:
        with open(path, encoding="utf-8") as log:
            lines = log.read().splitlines()
    rows = []
    for number, line in enumerate(lines, 1):
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            if number == len(lines):
                break
            raise ValueError(f"{path}:{number} is not a JSON line of a --log file") from None
        if not isinstance(row, dict):
            raise ValueError(f"{path}:{number} is not a JSON line of a --log file")
        rows.append(row)
    return rows


def compare_logs(path: str, against: str) -> list[str]:
    """Two ``--log`` files of games of the same deals (the same preset, table, ``--seed``
    and ``--solo``; e.g. two budgets), each of one setting, paired by deal: each one's
    levels per deal on the deals both hold and their difference (``path`` less
    ``against``) with its 95% confidence interval."""
    found = []
    for name in (path, against):
        rows = _log_rows(name)
        keys = {json.dumps(row["key"], sort_keys=True) for row in rows}
        if len(keys) != 1:
            raise ValueError(f"{name} holds {len(keys)} settings; pairing needs one")
        found.append((rows[0]["key"], {int(row["deal"]): float(row["levels"])
                                       for row in rows}))
    (mine, ours), (other, theirs) = found
    same = ("preset", "table", "seed", "solo")
    if any(mine.get(k) != other.get(k) for k in same):
        raise ValueError("the logs are not of the same deals (" + ", ".join(
            f"{k} {mine.get(k)} against {other.get(k)}" for k in same
            if mine.get(k) != other.get(k)) + ")")
    deals = sorted(set(ours) & set(theirs))
    if len(deals) < 2:
        raise ValueError(f"the logs share {len(deals)} deal(s); pairing needs two or more")
    a, b = [ours[d] for d in deals], [theirs[d] for d in deals]
    paired = [x - y for x, y in zip(a, b, strict=True)]
    return [f"{len(deals)} deals of both logs: {statistics.fmean(a):+.3f} ± {ci95(a):.3f} "
            f"({mine['budget']}) against {statistics.fmean(b):+.3f} ± {ci95(b):.3f} "
            f"({other['budget']}) levels per deal; paired {statistics.fmean(paired):+.3f} "
            f"± {ci95(paired):.3f}"]


def _mend(path: str) -> None:
    """Cut a torn last line (a run stopped while writing it) off the log ``path``, so that
    the lines appended after it stay whole."""
    try:
        with open(path, "rb+") as log:
            text = log.read()
            if text and not text.endswith(b"\n"):
                log.truncate(text.rfind(b"\n") + 1)
    except FileNotFoundError:
        pass


def run(rules: Rules, budget: Budget, deals: int, seed: int, workers: int,
        setting: Setting = Setting(), solo: bool = False, log: str = "",
        key: dict[str, object] | None = None, play: bool = True) -> dict[str, object]:
    """Play ``deals`` duplicate deals at ``budget``; the figures as a dict. With ``log``,
    each deal is appended to that file as it ends (one JSON line, with the settings
    ``key``), and deals the file already holds for the same settings are not played
    again, so a long run that was stopped goes on where it stopped; without ``play``,
    the figures are those of the deals the log holds (of the first ``deals``)."""
    key = {**(key or {}), "budget": str(budget), "seed": seed, "solo": solo, "z": setting.z,
           **setting.key(rules)}
    if budget.iterations == 1:  # (one world never overrides: none of them can act)
        key.pop("prior", None)
        key.pop("endgame", None)
        key.pop("rollouts", None)
        if not setting.phases:
            key.pop("phases", None)
        if setting.read_kitty is None:
            key.pop("read_kitty", None)
    race = setting.race
    if race is not None and (budget.iterations is None or budget.iterations > RACE_FROM):
        key["race"] = race  # (where racing can act: older logs of such budgets need --race off)
    done = read_log(log, key) if log else {}
    if log and play:
        _mend(log)
    jobs = {d: (rules, seed * 100_003 + d, budget, setting, solo)
            for d in range(deals) if d not in done and play}
    start = time.perf_counter()

    def keep(deal: int, result: tuple[float, list[float], int]) -> None:
        done[deal] = result
        if log:
            with open(log, "a", encoding="utf-8") as out:
                out.write(json.dumps({"key": key, "deal": deal, "levels": result[0],
                                      "times": result[1], "overrides": result[2]}) + "\n")

    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            futures = {pool.submit(_job, job): deal for deal, job in jobs.items()}
            for future in as_completed(futures):
                keep(futures[future], future.result())
    else:
        for deal, job in jobs.items():
            keep(deal, _job(job))
    results = [done[d] for d in range(deals) if d in done]
    if not results:
        hint = ("; a log from before the learned player needs --base heuristic, one of "
                "more than one world from before the endgame rule --endgame off, one from "
                "before its first-round bid --no-grab, one of a model without a kitty "
                "forest --no-bury --no-grab, one of the first shipped model (no margins) "
                "--margins 0,0 --no-bury --no-grab (each with --endgame off beyond one "
                "world); one of a model shipped before 2026-12-02 "
                "--trees 400; one from before the learned rollouts (2026-12-02) "
                "--rollouts heuristic; one of learned rollouts from before their endgame "
                "of 16 cards --endgame 12; one of Da Bai Fen or the Hundred from before "
                "their kitty was searched (2026-12-03) --phases play --read-kitty off, "
                "one of them or of Finding Friends from before the kitty was read into "
                "the worlds (the same day) --read-kitty off"
                if key.get("base") == "learned" or "grab" in key else "")
        raise ValueError(f"{log} holds none of these deals ({key}){hint}")
    levels = [r[0] for r in results]
    times = sorted(t for r in results for t in r[1])
    mean = statistics.fmean(levels)
    ci = ci95(levels)

    def q(p: float) -> float:
        return times[min(len(times) - 1, int(p * len(times)))] if times else 0.0

    return {"budget": str(budget), "iterations": budget.iterations, "deals": len(results),
            "levels_per_deal": mean, "ci95": ci, "decisions": len(times),
            "overrides": sum(r[2] for r in results), "median_s": q(0.5), "p90_s": q(0.9),
            "max_s": times[-1] if times else 0.0, "wall_s": time.perf_counter() - start,
            "resumed": len(results) - len(jobs), "per_deal": levels, "solo": solo}


def show(figures: dict[str, object]) -> None:
    """Print one budget's figures."""
    f = figures
    print(f"{f['budget']:>10}: search - heuristic {f['levels_per_deal']:+.3f} "
          f"± {f['ci95']:.3f} levels per deal over {f['deals']} "
          f"{'deals, one search seat at a time' if f.get('solo') else 'duplicate deals'}; "
          f"{f['decisions']} searched decisions ({f['overrides']} overrides), "
          f"median {f['median_s']:.3f} s, p90 {f['p90_s']:.3f} s, max {f['max_s']:.3f} s; "
          f"wall {f['wall_s']:.0f} s"
          + (f" ({f['resumed']} deals read from the log)" if f.get("resumed") else ""),
          flush=True)


def _race(text: str) -> float | None:
    """The ``--race`` value: ``off`` (never race) or standard errors, 0 or more
    (``ValueError`` saying what the flag takes)."""
    if text == "off":
        return None
    try:
        race = float(text)
    except ValueError:
        race = math.nan
    if not race >= 0:
        raise ValueError(f"--race takes standard errors (0 or more, e.g. {RACE:g}) or off, "
                         f"got {text!r}")
    return race


def _endgame(text: str) -> int | Literal["auto"] | None:
    """The ``--endgame`` value: ``auto``, ``off`` or a number of cards, 1 or more
    (``ValueError`` saying what the flag takes)."""
    if text == "off":
        return None
    if text == "auto":
        return "auto"
    if not text.isdigit() or int(text) < 1:
        raise ValueError(f"--endgame takes a number of cards (1 or more, e.g. {ENDGAME}), "
                         f"auto or off, got {text!r}")
    return int(text)


def _reading(infer: str, refine: str) -> PlayReading | None:
    """The worlds' reading of the plays that ``--infer KEEP,PLAYS`` or ``--refine
    STEPS,KEEP`` names (``ValueError`` saying what the flag takes)."""
    if infer and refine:
        raise ValueError("--infer and --refine are two ways to read the plays: name one")
    if not infer and not refine:
        return None
    try:
        first, second = (infer or refine).split(",")
        return Inference(float(first), int(second)) if infer else Refine(int(first),
                                                                          float(second))
    except ValueError:
        raise ValueError("--infer takes KEEP,PLAYS (e.g. 0.3,12)" if infer
                         else "--refine takes STEPS,KEEP (e.g. 400,0.0)") from None


def _phases(text: str) -> list[Phase]:
    """``--phases``: names of searched phases (``bid`` stands for every bidding phase)."""
    found: list[Phase] = []
    for name in filter(None, (n.strip() for n in text.split(","))):
        if name == "bid":
            found += [Phase.DEAL, Phase.BID, Phase.OVERBID]
        elif name in ("call", "declare", "kitty", "play"):
            found.append(Phase(name))
        else:
            raise ValueError(f"{name!r} is not one of bid, call, declare, kitty, play")
    return found


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="tractor")
    parser.add_argument("--table", type=int, default=None, help="players (finding-friends)")
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--iterations", type=int, default=None, help="worlds per decision")
    parser.add_argument("--time-budget", type=float, default=1.0, help="seconds per decision")
    parser.add_argument("--curve", default="",
                        help="budgets for the curve: worlds (1,2,4,8) or seconds (0.1s,1s)")
    parser.add_argument("--plot", default="", help="PNG file for the curve (matplotlib)")
    parser.add_argument("--json", default="",
                        help="write the figures as JSON (--truth: each position's gains, rows "
                        "and real values)")
    parser.add_argument("--workers", type=int, default=1, help="processes (deals in parallel)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--held-out", type=int, default=0, metavar="N",
                        help="score N single decisions on fresh worlds instead of games")
    parser.add_argument("--reference", type=int, default=64,
                        help="fresh worlds per decision for --held-out")
    parser.add_argument("--truth", type=int, default=0, metavar="N",
                        help="score N single decisions in their real deals instead of games")
    parser.add_argument("--plays-only", action="store_true",
                        help="--truth/--held-out: every lead and follow, no other decisions")
    parser.add_argument("--infer", default="", metavar="KEEP,PLAYS",
                        help="weigh worlds by the other seats' last PLAYS plays (Inference)")
    parser.add_argument("--refine", default="", metavar="STEPS,KEEP",
                        help="move each world towards the other seats' plays by STEPS "
                        "swaps of a chain (Refine)")
    parser.add_argument("--solo", action="store_true",
                        help="games: search in one seat at a time against an all-heuristic "
                        "game of the same deal (see play_deal; for Finding Friends)")
    parser.add_argument("--z", type=float, default=Z,
                        help=f"the search's z (how sure a gain must be; default {Z:g}): "
                        "games, --held-out, --truth, and --score with --against")
    parser.add_argument("--race", default=str(RACE), metavar="R|off",
                        help=f"the search's race (how sure a candidate's loss must be to "
                        f"drop it; default {RACE:g}; off: never), as --z")
    parser.add_argument("--score", default="", metavar="FILE",
                        help="score decision rules (z) on a --truth --json FILE, playing "
                        "nothing")
    parser.add_argument("--against", default="", metavar="FILE",
                        help="with --score: compare with another --truth --json FILE of the "
                        "same positions (paired); with --report: with another --log FILE of "
                        "the same deals (paired by deal)")
    parser.add_argument("--base", default="learned", choices=("learned", "heuristic"),
                        help="games: the player whose choice search starts from and keeps "
                        "unless the worlds show a better one (default learned)")
    parser.add_argument("--prior", type=float, default=PRIOR, metavar="W",
                        help="games: weight of the learned model's values in the override "
                        f"rule (default {PRIOR:g}; 0: search's gains alone)")
    parser.add_argument("--model", default="", metavar="FILE",
                        help="games: the learned base plays this model file "
                        "(scripts/train_learned.py) instead of the shipped one")
    parser.add_argument("--margins", default="", metavar="LEAD,FOLLOW",
                        help="games: the learned base's margins instead of its model's "
                        "(0,0: as the first shipped model, to --report logs made with it)")
    parser.add_argument("--no-bury", action="store_true",
                        help="games: the learned base buries as the heuristic (to --report "
                        "logs made before the model's kitty forest)")
    parser.add_argument("--no-grab", action="store_true",
                        help="games: the learned base bids for the first round's dealership "
                        "as the heuristic (to --report logs made before it bid at once)")
    parser.add_argument("--trees", type=int, default=0,
                        help="games: name models of this many trees a forest in the log "
                        "(400: to --report logs of the models shipped before 2026-12-02)")
    parser.add_argument("--read-kitty", choices=("auto", "on", "off"), default="auto",
                        help="the worlds' hidden kitty buried as the heuristic would "
                             "(auto: the search player's default)")
    parser.add_argument("--set-dealer", action="store_true",
                        help="games start with a dealer set, as every round after the "
                        "first: no bid for the dealership")
    parser.add_argument("--rollouts", choices=ROLLOUTS,
                        help="games: who finishes the rounds of the worlds (learned: learned "
                        "players on the searching side where partnerships are fixed and a "
                        f"model fits; default {DEFAULT_ROLLOUTS} on the learned base)")
    parser.add_argument("--endgame", default="auto", metavar="N|auto|off",
                        help="games: where the learned base's model fits, search only the "
                        "leads and follows made with N cards or fewer in hand (off: every "
                        f"decision, as before the rule; default auto: {LEARNED_ENDGAME} "
                        f"where learned players finish the side's rollouts, else {ENDGAME})")
    parser.add_argument("--phases", default="", metavar="P,P",
                        help="games: the phases search plays in (e.g. play; default all: "
                        "bid, call, declare, kitty, play, but where a model fits the play's "
                        "endgame and the model's phases: the kitty with one deck)")
    parser.add_argument("--log", default="", metavar="FILE",
                        help="games: append each deal to FILE as it ends, and do not play "
                        "again the deals FILE holds for the same settings (resume)")
    parser.add_argument("--report", action="store_true",
                        help="with --log: the figures of the deals FILE holds, playing none")
    args = parser.parse_args(argv)
    if not args.z >= 0:
        parser.error(f"--z must be 0 or more, got {args.z}")
    if not args.prior >= 0:
        parser.error(f"--prior must be 0 or more, got {args.prior}")
    margins: tuple[float, float] | None = None
    if args.margins:
        try:
            lead, follow = (float(m) for m in args.margins.split(","))
        except ValueError:
            parser.error(f"--margins takes two numbers, LEAD,FOLLOW (e.g. 0.07,0.02), not "
                         f"{args.margins!r}")
        try:
            check_margins(lead, follow)
        except ValueError as error:
            parser.error(f"--margins {args.margins}: {error}")
        margins = (lead, follow)
    if args.model:
        try:
            _MODELS[args.model] = PlayModel.load(args.model)
        except (OSError, ValueError) as error:
            parser.error(f"--model {args.model}: {error}")
    try:
        race = _race(args.race)
        endgame = _endgame(args.endgame)
    except ValueError as error:
        parser.error(str(error))
    if args.score:
        try:
            print("\n".join(compare_truth(args.score, args.against, args.z, race)
                            if args.against else score_rules(args.score, race=race)))
        except (OSError, ValueError, KeyError, TypeError, IndexError) as error:
            what = (f"{args.score} and {args.against} are not --truth --json files of the "
                    "same positions" if args.against
                    else f"{args.score} is not a --truth --json file")
            parser.error(f"--score: {what} ({error})")
        return 0
    if args.report and not args.log:
        parser.error("--report reads a --log FILE: name one")
    if args.against and not args.report:
        parser.error("--against is read with --score FILE or --report --log FILE")
    if args.against:
        try:
            print("\n".join(compare_logs(args.log, args.against)))
        except (OSError, ValueError, KeyError, TypeError) as error:
            parser.error(f"--report --against: {error}")
        return 0
    if args.log.endswith(".gz") and not args.report:
        parser.error("a .gz log is only read (--report); play into a plain file")
    try:
        infer = _reading(args.infer, args.refine)
    except ValueError as error:
        parser.error(str(error))
    try:
        phases = tuple(_phases(args.phases))
    except ValueError as error:
        parser.error(f"--phases: {error}")
    rules = preset(args.preset, players=args.table) if args.table else preset(args.preset)
    print(f"{args.preset}{'' if not args.table else f'/{args.table}'}; Python "
          f"{platform.python_version()}; seed {args.seed}; {args.workers} worker(s)")
    if args.held_out:
        try:
            worlds = [int(w) for w in (args.curve or "4,8,16,32").split(",")]
        except ValueError:
            parser.error("--held-out takes world budgets in --curve (e.g. 4,8,16)")
        start = time.perf_counter()
        table = held_out(rules, worlds, args.held_out, args.reference, args.seed,
                         args.workers, infer, args.plays_only, args.z, race)
        for worlds_n, by_phase in table.items():
            print(f"{worlds_n:>3} worlds: " + "; ".join(
                f"{name} {m:+.4f} ± {ci:.4f} ({n} decisions, {o} overrides)"
                for name, (m, ci, n, o) in sorted(by_phase.items())))
        print(f"gain over the heuristic's choice per decision, valued on {args.reference} "
              f"fresh worlds; wall {time.perf_counter() - start:.0f} s")
        return 0
    if args.truth:
        try:
            worlds = [int(w) for w in (args.curve or "4,8,16").split(",")]
        except ValueError:
            parser.error("--truth takes world budgets in --curve (e.g. 4,8,16)")
        start = time.perf_counter()
        real = truth(rules, worlds, args.truth, args.seed, args.workers, args.plays_only,
                     infer, args.json, args.z, race)
        for worlds_n, found in real.items():
            print(f"{worlds_n:>3} worlds: " + "; ".join(
                f"{name} {m:+.4f} ± {ci:.4f} ({n} decisions, {o} overrides promising "
                f"{p:+.3f} each)" for name, (m, ci, n, o, p) in sorted(found.items())))
        print(f"gain over the heuristic's choice per decision in the real deal; "
              f"wall {time.perf_counter() - start:.0f} s")
        return 0
    if args.curve:
        try:
            budgets = [parse_budget(b, args.time_budget) for b in args.curve.split(",")]
        except ValueError as error:
            parser.error(f"--curve: {error}")
    else:
        budgets = [Budget(args.iterations, args.time_budget)]
    key: dict[str, object] = {"preset": args.preset, "table": args.table,
                              "infer": args.infer}
    if phases:  # (so logs written before --phases keep their settings)
        key["phases"] = args.phases
    if args.refine:
        key["refine"] = args.refine
    setting = Setting(infer, args.z, race, tuple(phases), args.base == "learned", args.prior,
                      args.rollouts, args.model, margins, not args.no_bury, not args.no_grab,
                      args.set_dealer, endgame, args.trees or None,
                      {"auto": None, "on": True, "off": False}[args.read_kitty])
    figures = []
    for budget in budgets:
        try:
            figures.append(run(rules, budget, args.deals, args.seed, args.workers, setting,
                               args.solo, args.log, key, not args.report))
        except ValueError as error:
            parser.error(f"--log: {error}")
        show(figures[-1])
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(figures, out, indent=2)
    if args.plot:
        import matplotlib
        import matplotlib.ticker

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        xs = [float(str(f["median_s"])) for f in figures]
        ys = [float(str(f["levels_per_deal"])) for f in figures]
        errs = [float(str(f["ci95"])) for f in figures]
        fig, ax = plt.subplots(figsize=(6, 4))
        ax.errorbar(xs, ys, yerr=errs, marker="o", capsize=4)
        points = sorted(zip(xs, ys, (str(f["budget"]) for f in figures), strict=True))
        for i, (x, y, label) in enumerate(points):  # (neighbours: above, below)
            ax.annotate(label, (x, y), textcoords="offset points",
                        xytext=(5, 5 if i % 2 == 0 else -14))
        ax.axhline(0, color="grey", linewidth=0.8)
        ax.set_xscale("log")
        ax.xaxis.set_major_formatter(matplotlib.ticker.FormatStrFormatter("%g"))
        ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        ax.set_xlabel("median seconds per searched decision")
        ax.set_ylabel("levels per deal, search - heuristic (95% CI)")
        ax.set_title(f"{args.preset}: strength against time ({args.deals} duplicate deals)")
        fig.tight_layout()
        fig.savefig(args.plot)
        print(f"plot written to {args.plot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
