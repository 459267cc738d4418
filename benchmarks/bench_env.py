"""Environment steps per second with random masked actions (issue 14).

    python benchmarks/bench_env.py --steps 100000 --seed 1 [--preset tractor] [--profile]

Each step is what an agent loop does: ``env.last()`` (the observation and the action mask of
the agent to act), a random id among the allowed ones, ``env.step(id)``. Episodes are single
rounds, reset when they end. Rates are per second of this process's CPU time (the machine
is shared; wall-clock rates are printed too). A baseline measured in the same run (random
engine rounds, the engine's actions only) makes figures comparable across machines.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from shengji.env import env
from shengji.game.presets import preset
from shengji.game.round import Phase, Round


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


def run(name: str, steps: int, seed: int) -> tuple[float, float, int]:
    """Steps per CPU second, per wall-clock second, and episodes played."""
    e = env(name)
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
    return (steps / (time.process_time() - start), steps / (time.perf_counter() - wall),
            episodes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--preset", default="all", help="a preset, or all (default)")
    parser.add_argument("--profile", action="store_true", help="profile with pyinstrument")
    args = parser.parse_args()
    names = (["tractor", "tractor-6", "finding-friends", "da-bai-fen", "hundred"]
             if args.preset == "all" else [args.preset])
    base = engine_round_baseline(50, args.seed, "tractor")
    print(f"baseline: random engine rounds (tractor), {base:,.0f} engine actions/s (CPU)")
    for name in names:
        if args.profile:
            from pyinstrument import Profiler

            profiler = Profiler()
            profiler.start()
        rate, wall, episodes = run(name, args.steps, args.seed)
        print(f"{name:16} {rate:10,.0f} env steps/s ({wall:,.0f} wall-clock; {episodes} "
              "episodes)")
        if args.profile:
            profiler.stop()
            print(profiler.output_text(unicode=True, color=False, show_all=False))


if __name__ == "__main__":
    main()
