"""Benchmark: random self-play of complete rounds, and heuristic decisions.

``python benchmarks/bench_rounds.py [--rounds N] [--heuristic-rounds N] [--seed S]``

Reports, on one process:

- random self-play: complete rounds per second for each preset, with random legal
  actions at every decision (bids, burying, friend calls, leads and follows;
  throws allowed by the rules) and no undo tracking;
- heuristic self-play: complete standard rounds per second with four heuristic
  players, and the time of each heuristic decision (median, p99, worst);
- a baseline measured in the same run (shuffling and dealing a 108-card pack into
  four :class:`~shengji.engine.cards.Hand` objects), so that figures can be compared
  across machines.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time

from shengji.engine.cards import Hand, full_deck
from shengji.game.presets import preset
from shengji.game.round import Phase, Round
from shengji.players.heuristic import HeuristicPlayer


def baseline(repeats: int = 2000) -> float:
    """Microseconds to shuffle two decks and deal them into four hands."""
    rng = random.Random(0)
    deck = full_deck(2)
    start = time.perf_counter()
    for _ in range(repeats):
        rng.shuffle(deck)
        [Hand(deck[i * 25:(i + 1) * 25]) for i in range(4)]
    return (time.perf_counter() - start) / repeats * 1e6


def random_rounds(name: str, rounds: int, seed: int) -> float:
    """Random self-play rounds per second under a preset."""
    rules = preset(name)
    rng = random.Random(seed)
    start = time.perf_counter()
    for k in range(rounds):
        rnd = Round(rules, seed=seed + k, track_undo=False)
        while rnd.phase != Phase.DONE:
            seat = rnd.to_move
            assert seat is not None
            rnd.apply(rnd.legal(seat).random(rng))
    return rounds / (time.perf_counter() - start)


def heuristic_rounds(rounds: int, seed: int) -> tuple[float, list[float]]:
    """Heuristic self-play rounds per second, and every decision's time in µs."""
    rules = preset("tractor")
    times: list[float] = []
    start = time.perf_counter()
    for k in range(rounds):
        players = [HeuristicPlayer(seed + k * 4 + s) for s in range(4)]
        rnd = Round(rules, seed=seed + k, track_undo=False)
        while rnd.phase != Phase.DONE:
            seat = rnd.to_move
            assert seat is not None
            view, legal = rnd.view(seat), rnd.legal(seat)
            t = time.perf_counter()
            action = players[seat].act(view, legal)
            times.append((time.perf_counter() - t) * 1e6)
            rnd.apply(action)
    return rounds / (time.perf_counter() - start), times


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1000, help="random rounds per preset")
    parser.add_argument("--heuristic-rounds", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--presets", default="tractor,tractor-6,finding-friends,da-bai-fen")
    args = parser.parse_args(argv)
    print(f"command: python benchmarks/bench_rounds.py {' '.join(sys.argv[1:])}".rstrip())
    print(f"python {platform.python_version()} ({platform.python_implementation()}), "
          f"{platform.machine()}, {platform.system()}")
    base = baseline()
    print(f"baseline: shuffle + deal 108 cards into 4 hands: {base:.1f} µs")
    for name in args.presets.split(","):
        rate = random_rounds(name, args.rounds, args.seed)
        print(f"random self-play, {name:16s}: {rate:7.1f} rounds/s "
              f"({1e6 / rate / base:.0f}x baseline per round)")
    rate, times = heuristic_rounds(args.heuristic_rounds, args.seed)
    times.sort()
    p99 = times[int(len(times) * 0.99)]
    print(f"heuristic self-play, tractor: {rate:7.1f} rounds/s")
    print(f"heuristic decision: median {statistics.median(times):.0f} µs, p99 {p99:.0f} µs, "
          f"worst {times[-1]:.0f} µs over {len(times)} decisions")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
