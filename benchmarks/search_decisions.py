"""Single decisions instead of games, for ``benchmarks/bench_search.py``'s ``--held-out``,
``--truth`` and ``--score`` (its docstring says what each measures): positions of heuristic
rounds where search has a choice, each candidate valued on fresh worlds or in the real deal,
and the decision rules scored on the stored rows."""

from __future__ import annotations

import json
import statistics
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from shengji.engine.rules import Rules
from shengji.game.actions import Action
from shengji.game.phase import Phase
from shengji.game.round import Round
from shengji.players.heuristic import HeuristicPlayer
from shengji.players.search import (
    MAX_WORLDS,
    RACE,
    SEARCHED,
    Z,
    candidates,
    evaluate_many,
    raced,
    rollout,
    verdict,
)
from shengji.players.table import decide
from shengji.players.worlds import Knowledge, PlayReading
from shengji.simulate import mean_ci95


def ci95(values: Sequence[float]) -> float:
    """The half-width of the 95 % confidence interval of the mean (0 for one value), as
    ``shengji simulate`` reports it."""
    return mean_ci95(values)[1]


def decision_positions(rules: Rules, count: int, seed: int, *, plays_only: bool = False
                       ) -> list[tuple[str, Knowledge, list[Action], Round]]:
    """``count`` decisions where search compares candidates (each bid, kitty, call and
    trump decision and every fifth play of heuristic rounds; every play with
    ``plays_only``): (phase, knowledge, the candidates, the heuristic's choice first, a
    copy of the real round)."""
    found: list[tuple[str, Knowledge, list[Action], Round]] = []
    game = 0
    while len(found) < count:
        game += 1
        rnd = Round(rules, seed=seed * 1_000 + game, track_undo=False)
        players = [HeuristicPlayer(seed + s) for s in range(rules.players)]
        step = 0
        while rnd.phase != Phase.DONE and len(found) < count:
            seat = rnd.to_move
            assert seat is not None
            action = decide(rnd, seat, players[seat])
            legal = rnd.legal(seat)
            searched = rnd.phase == Phase.PLAY if plays_only else rnd.phase in SEARCHED
            if searched:
                step += 1
                options = candidates(rnd.view(seat), legal, action, 5)
                if len(options) > 1 and (plays_only or step % 5 == 0
                                         or rnd.phase != Phase.PLAY):
                    phase = _phase_name(rnd)
                    found.append((phase, Knowledge.of(rnd.view(seat)), options, rnd.copy()))
            rnd.apply(action)
    return found


def _phase_name(rnd: Round) -> str:
    """A decision's kind in the tables: bid (every bidding phase), lead, follow, or the
    phase's name (kitty, call, declare)."""
    if rnd.phase in (Phase.DEAL, Phase.BID, Phase.OVERBID):
        return "bid"
    if rnd.phase == Phase.PLAY:
        return "follow" if rnd.trick is not None and rnd.trick.plays else "lead"
    return str(rnd.phase)


def _rows(job: tuple[Knowledge, list[Action], list[int], PlayReading | None]
          ) -> list[list[float]]:
    return [r for r in evaluate_many(*job) if r is not None]


def held_out(rules: Rules, worlds: list[int], count: int, reference: int, seed: int,
             workers: int, infer: PlayReading | None = None, plays_only: bool = False,
             z: float = Z, race: float | None = RACE
             ) -> dict[int, dict[str, tuple[float, float, int, int]]]:
    """Per world budget and phase: (mean gain, 95% half-width, decisions, overrides) of
    the choice :func:`verdict` makes with ``z`` and ``race``."""
    positions = decision_positions(rules, count, seed, plays_only=plays_only)
    most = max(worlds)
    jobs = [(k, o, [seed * 7_919 + i * 100_003 + j for j in range(most + reference)], infer)
            for i, (_, k, o, _) in enumerate(positions)]
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            rows = list(pool.map(_rows, jobs))
    else:
        rows = [_rows(j) for j in jobs]
    figures: dict[int, dict[str, tuple[float, float, int, int]]] = {}
    for budget in worlds:
        gains: dict[str, list[float]] = {}
        overrides: dict[str, int] = {}
        for (phase, _, _, _), found in zip(positions, rows, strict=True):
            if len(found) < most + 2:
                continue  # too few consistent worlds
            tried, test = found[:budget], found[most:]
            choice = verdict(tried, z, race)
            value = [statistics.fmean(r[i] for r in test) for i in range(len(test[0]))]
            for name in (phase, "all"):
                gains.setdefault(name, []).append(value[choice] - value[0])
                overrides[name] = overrides.get(name, 0) + (choice != 0)
        figures[budget] = {
            name: (statistics.fmean(g), ci95(g), len(g), overrides[name])
            for name, g in gains.items()}
    return figures


_POSITIONS: list[tuple[str, Knowledge, list[Action], Round]] = []
"""The positions of a ``--truth`` run, made again in each worker process (a compiled
round does not pickle)."""


def _load_positions(rules: Rules, count: int, seed: int, plays_only: bool) -> None:
    _POSITIONS[:] = decision_positions(rules, count, seed, plays_only=plays_only)


def _truth_job(job: tuple[int, list[int], PlayReading | None, int]
               ) -> tuple[list[list[float]], list[float]]:
    """Rows from sampled worlds and each candidate's value in the real round."""
    index, seeds, infer, rollouts = job
    _, knowledge, options, real = _POSITIONS[index]
    seat = knowledge.view.seat
    truth = []
    for action in options:
        truth.append(statistics.fmean(rollout(real, action, seat, seeds[0] + r)
                                      for r in range(rollouts)))
    return _rows((knowledge, options, seeds, infer)), truth


def truth(rules: Rules, worlds: list[int], count: int, seed: int, workers: int,
          plays_only: bool, infer: PlayReading | None = None, gains_out: str = "",
          z: float = Z, race: float | None = RACE
          ) -> dict[int, dict[str, tuple[float, float, int, int, float]]]:
    """Per world budget and phase: the gain of search's choice over the heuristic's in the
    real deal (each candidate rolled out from the real round, heuristic play after it):
    (mean, 95% half-width, decisions, overrides, mean gain the worlds promised for them).
    ``gains_out``: a JSON file with each budget's gains per position (``gains``: paired
    comparisons) and each position's phase, world rows (each candidate's value per world)
    and real values (``positions``: to try other decision rules without playing again)."""
    _load_positions(rules, count, seed, plays_only)
    positions = list(_POSITIONS)
    most = max(worlds)
    jobs = [(i, [seed * 7_919 + i * 100_003 + j for j in range(most)], infer, 2)
            for i in range(len(positions))]
    if workers > 1:
        with ProcessPoolExecutor(workers, initializer=_load_positions,
                                 initargs=(rules, count, seed, plays_only)) as pool:
            results = list(pool.map(_truth_job, jobs))
    else:
        results = [_truth_job(j) for j in jobs]
    figures: dict[int, dict[str, tuple[float, float, int, int, float]]] = {}
    per_position: dict[int, list[float]] = {}
    for budget in worlds:
        gains: dict[str, list[float]] = {}
        promised: dict[str, list[float]] = {}
        for (phase, _, _, _), (found, real) in zip(positions, results, strict=True):
            tried = found[:budget]
            choice = verdict(tried, z, race)
            per_position.setdefault(budget, []).append(real[choice] - real[0])
            for name in (phase, "all"):
                gains.setdefault(name, []).append(real[choice] - real[0])
                if choice:
                    promised.setdefault(name, []).append(
                        statistics.fmean(r[choice] - r[0] for r in tried))
        figures[budget] = {
            name: (statistics.fmean(g), ci95(g), len(g), len(promised.get(name, [])),
                   statistics.fmean(promised[name]) if promised.get(name) else 0.0)
            for name, g in gains.items()}
    if gains_out:  # the gains, and each position's rows and real values (other rules)
        with open(gains_out, "w", encoding="utf-8") as out:
            json.dump({"gains": per_position, "positions": [
                {"phase": phase, "rows": found, "real": real} for (phase, _, _, _), (
                    found, real) in zip(positions, results, strict=True)]}, out)
    return figures


def _truth_positions(path: str) -> list[dict[str, Any]]:
    """The positions of a ``--truth --json`` file."""
    with open(path, encoding="utf-8") as f:
        positions: list[dict[str, Any]] = json.load(f)["positions"]
    return positions


def _budgets(most: int) -> list[int]:
    """The world budgets to score when positions hold up to ``most`` worlds."""
    return [w for w in (4, 8, 16, 32, 64, 128, 256) if w <= most] or [most]


def score_rules(path: str, zs: Sequence[float] = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0),
                race: float | None = RACE) -> list[str]:
    """Score decision rules on a ``--truth --json`` file, playing nothing: per world budget
    and ``z``, the real gain per decision of the choice :func:`verdict` makes from the
    stored rows with ``race`` (paired against the player's default ``z``); then what the
    candidates could give (the best in the real deal each time) and how the worlds' gain of
    a candidate over the default predicts its real gain."""
    positions = _truth_positions(path)
    most = min(len(p["rows"]) for p in positions)

    lines = [f"{len(positions)} positions, up to {most} worlds each"]
    base = MAX_WORLDS if most >= MAX_WORLDS else _budgets(most)[0]  # the budget to pair with
    first = [p["real"][verdict(p["rows"][:base], Z, race)] - p["real"][0] for p in positions]
    for worlds in _budgets(most):
        gains: dict[float, list[float]] = {}
        overrides: dict[float, int] = {}
        for z in dict.fromkeys((Z, *zs)):  # (each z once)
            picks = [verdict(p["rows"][:worlds], z, race) for p in positions]
            gains[z] = [p["real"][c] - p["real"][0] for p, c in zip(positions, picks,
                                                                     strict=True)]
            overrides[z] = sum(c != 0 for c in picks)
        for z in zs:
            paired = [a - b for a, b in zip(gains[z], gains[Z], strict=True)]
            lines.append(f"{worlds:>3} worlds, z {z:.1f}: {statistics.fmean(gains[z]):+.4f} "
                         f"± {ci95(gains[z]):.4f} per decision ({overrides[z]} overrides); "
                         f"- z {Z:g}: {statistics.fmean(paired):+.4f} ± {ci95(paired):.4f}")
        # racing: what it changes and saves; the budget against the smallest one
        unraced = [p["real"][verdict(p["rows"][:worlds], Z, None)] - p["real"][0]
                   for p in positions]
        played = statistics.fmean(raced(p["rows"][:worlds], race)[1] for p in positions)
        whole = statistics.fmean(worlds * len(p["real"]) for p in positions)
        changed = [a - b for a, b in zip(gains[Z], unraced, strict=True)]
        more = [a - b for a, b in zip(gains[Z], first, strict=True)]
        lines.append(f"{worlds:>3} worlds, z {Z:g}, race {race if race is not None else 'off'}: "
                     f"{played:.0f} of {whole:.0f} candidate-worlds per decision; - no racing: "
                     f"{statistics.fmean(changed):+.4f} ± {ci95(changed):.4f}; - {base} "
                     f"worlds: {statistics.fmean(more):+.4f} ± {ci95(more):.4f}")
    best = [max(p["real"]) - p["real"][0] for p in positions]
    lines.append(f"the best candidate in the real deal each time: {statistics.fmean(best):+.4f}"
                 f" ± {ci95(best):.4f} per decision (better than the default in "
                 f"{sum(b > 0 for b in best)} positions)")
    buckets: dict[float, list[float]] = {}
    for p in positions:
        rows = p["rows"][:most]
        for i in range(1, len(p["real"])):
            promised = statistics.fmean(r[i] - r[0] for r in rows)
            buckets.setdefault(round(max(-1.0, min(1.0, promised)) * 5) / 5, []).append(
                p["real"][i] - p["real"][0])
    lines.append(f"a candidate's gain over the default in {most} worlds -> in the real deal: "
                 + "; ".join(f"{k:+.1f}: {statistics.fmean(v):+.3f} ({len(v)})"
                             for k, v in sorted(buckets.items())))
    return lines


def compare_truth(path: str, against: str, z: float = Z, race: float | None = RACE
                  ) -> list[str]:
    """Two ``--truth --json`` files of the same positions (the same ``--truth N``,
    ``--seed`` and preset, e.g. with and without ``--infer``), scored against each other:
    per world budget and kind of decision, each one's real gain per decision with ``z`` and
    ``race`` and their paired difference (``path`` less ``against``)."""
    mine, theirs = _truth_positions(path), _truth_positions(against)
    if len(mine) != len(theirs) or any(
            a["real"] != b["real"] for a, b in zip(mine, theirs, strict=True)):
        raise ValueError("the files do not hold the same positions (same --truth N, --seed "
                         "and preset, and the same real values)")
    # a position holds fewer worlds where consistent ones were hard to find (as in play):
    # it is scored on those it has
    most = max(len(p["rows"]) for p in (*mine, *theirs))
    short = sum(len(a["rows"]) < most or len(b["rows"]) < most
                for a, b in zip(mine, theirs, strict=True))
    lines = [f"{len(mine)} positions, up to {most} worlds each ({short} with fewer); "
             f"{path} less {against}"]
    for worlds in _budgets(most):
        by_kind: dict[str, list[tuple[float, float]]] = {}
        for a, b in zip(mine, theirs, strict=True):
            real = a["real"]
            pair = (real[verdict(a["rows"][:worlds], z, race)] - real[0],
                    real[verdict(b["rows"][:worlds], z, race)] - real[0])
            for name in (a["phase"], "all"):
                by_kind.setdefault(name, []).append(pair)
        for name, pairs in sorted(by_kind.items()):
            ours, other = [p[0] for p in pairs], [p[1] for p in pairs]
            paired = [x - y for x, y in pairs]
            lines.append(f"{worlds:>3} worlds, {name} ({len(pairs)}): "
                         f"{statistics.fmean(ours):+.4f} against {statistics.fmean(other):+.4f}"
                         f"; paired {statistics.fmean(paired):+.4f} ± {ci95(paired):.4f}")
    return lines
