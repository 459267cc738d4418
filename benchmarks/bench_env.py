"""Environment steps per second with random masked actions (issue 14).

    python benchmarks/bench_env.py --steps 100000 --seed 1 [--preset tractor] [--profile]
    python benchmarks/bench_env.py --against /tmp/base/src/shengji/env --reps 3
    python benchmarks/bench_env.py --turns hand

Each step is what an agent loop does: ``env.last()`` (the observation and the action mask of
the agent to act), a random id among the allowed ones, ``env.step(id)``. Episodes are single
rounds (one deal each), reset when they end: deals per second are printed too, and the
steps per deal, which depend on how the env asks the seats (``--turns``: ``public``, the
default, or ``hand``). Rates are per second of this process's CPU time (the machine is
shared; wall-clock rates are printed too). A baseline measured in the same run (random
engine rounds, the engine's actions only) makes figures comparable across machines.

``--against DIR`` compares with another copy of the ``shengji.env`` package (e.g. an older
commit's: ``git worktree add /tmp/base REV``) on the same engine, in the same process, the
two runs alternating ``--reps`` times; the best rate of each is reported, and their ratio.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import sys
import time
from pathlib import Path
from types import ModuleType

import numpy as np

import shengji.env
from shengji.game.phase import Phase
from shengji.game.presets import preset
from shengji.game.round import Round


def engine_round_baseline(rounds: int, seed: int, name: str) -> float:
    """Engine actions per second of random rounds (``legal(...).random`` + ``apply``)."""
    rng = random.Random(seed)
    rules = preset(name)
    actions = 0
    start = time.process_time()
    for k in range(rounds):
        rnd = Round(rules, seed=seed + k, track_undo=False)
        while rnd.phase != Phase.DONE:
            seat = rnd.to_move
            assert seat is not None
            rnd.apply(rnd.legal(seat).random(rng))
            actions += 1
    return actions / (time.process_time() - start)


def load_env(path: str) -> ModuleType:
    """Another copy of the ``shengji.env`` package (its directory), imported under another
    name; it runs on this checkout's engine."""
    init = Path(path) / "__init__.py"
    if not init.is_file():
        raise SystemExit(f"--against: {path} is not a copy of the shengji.env package "
                         "(no __init__.py)")
    spec = importlib.util.spec_from_file_location("shengji_env_against", init,
                                                  submodule_search_locations=[str(path)])
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def run(name: str, steps: int, seed: int, package: ModuleType = shengji.env,
        **options: str) -> tuple[float, float, int, float]:
    """Steps per CPU second, per wall-clock second, episodes played, and episodes per CPU
    second."""
    e = package.env(name, **options)
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    episodes = 0
    start, wall = time.process_time(), time.perf_counter()
    for _ in range(steps):
        agent = e.agent_selection
        if e.terminations[agent] or e.truncations[agent]:
            e.reset()
            episodes += 1
            continue
        obs, _, _, _, _ = e.last()
        allowed = np.flatnonzero(obs["action_mask"])
        e.step(int(allowed[rng.integers(len(allowed))]))
    cpu = time.process_time() - start
    return steps / cpu, steps / (time.perf_counter() - wall), episodes, episodes / cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--preset", default="all", help="a preset, or all (default)")
    parser.add_argument("--profile", action="store_true", help="profile with pyinstrument")
    parser.add_argument("--against", metavar="DIR",
                        help="compare with this copy of the shengji.env package")
    parser.add_argument("--reps", type=int, default=1,
                        help="runs per preset (and per package with --against); the best")
    parser.add_argument("--turns", choices=("public", "hand"), default="public",
                        help="how this checkout's env asks the seats (not the --against one)")
    args = parser.parse_args()
    other = load_env(args.against) if args.against else None
    names = (["tractor", "tractor-6", "finding-friends", "da-bai-fen", "hundred"]
             if args.preset == "all" else [args.preset])
    base = engine_round_baseline(50, args.seed, "tractor")
    print(f"baseline: random engine rounds (tractor), {base:,.0f} engine actions/s (CPU)")
    for name in names:
        if args.profile:
            from pyinstrument import Profiler

            profiler = Profiler()
            profiler.start()
        best = (0.0, 0.0, 0, 0.0)
        theirs = (0.0, 0.0, 0, 0.0)
        for _ in range(args.reps):
            if other is not None:
                theirs = max(theirs, run(name, args.steps, args.seed, other))
            best = max(best, run(name, args.steps, args.seed, turns=args.turns))
        rate, wall, episodes, deals = best
        line = (f"{name:16} {rate:10,.0f} env steps/s ({wall:,.0f} wall-clock), {deals:,.1f} "
                f"deals/s, {args.steps / max(episodes, 1):,.0f} steps per deal")
        if other is not None:
            line += (f"; against {theirs[0]:,.0f} steps/s ({rate / theirs[0]:.2f}x), "
                     f"{theirs[3]:,.1f} deals/s ({deals / theirs[3]:.2f}x), "
                     f"{args.steps / max(theirs[2], 1):,.0f} steps per deal")
        print(line)
        if args.profile:
            profiler.stop()
            print(profiler.output_text(unicode=True, color=False, show_all=False))


if __name__ == "__main__":
    main()
