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
import heapq
import platform
import random
import statistics
import sys
import time

from shengji.engine.cards import Hand, full_deck
from shengji.game.phase import Phase
from shengji.game.presets import preset
from shengji.game.round import Round
from shengji.players.heuristic import HeuristicPlayer
from shengji.players.table import only_action


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


Slow = tuple[float, int, HeuristicPlayer, Round]


def heuristic_rounds(rounds: int, seed: int
                     ) -> tuple[float, dict[str, list[float]], list[Slow]]:
    """Heuristic self-play rounds per second (as ``play_round`` drives it: a seat whose
    only legal action is to draw is not asked), each decision's time in µs by kind,
    and the five slowest decisions (to time them again)."""
    rules = preset("tractor")
    times: dict[str, list[float]] = {}
    slowest: list[Slow] = []
    start = time.perf_counter()
    for k in range(rounds):
        players = [HeuristicPlayer(seed + k * 4 + s) for s in range(4)]
        rnd = Round(rules, seed=seed + k, track_undo=False)
        while rnd.phase != Phase.DONE:
            seat = rnd.to_move
            assert seat is not None
            legal = rnd.legal(seat)
            forced = only_action(legal) if rnd.phase == Phase.DEAL else None
            if forced is not None:
                rnd.apply(forced)
                continue
            view = rnd.view(seat)
            t = time.perf_counter()
            action = players[seat].act(view, legal)
            elapsed = (time.perf_counter() - t) * 1e6
            kind = rnd.phase.value if rnd.phase != Phase.PLAY else (
                "follow" if view.trick else "lead")
            times.setdefault(kind, []).append(elapsed)
            if len(slowest) < 5 or elapsed > slowest[0][0]:
                heapq.heappush(slowest, (elapsed, len(rnd.history) + k * 10_000,
                                         players[seat], rnd.copy()))
                if len(slowest) > 5:
                    heapq.heappop(slowest)
            rnd.apply(action)
    return rounds / (time.perf_counter() - start), times, slowest


def retime(slowest: list[Slow]) -> float:
    """The slowest decision timed again, best of five (removes scheduler and GC pauses)."""
    worst = 0.0
    for _, _, player, rnd in slowest:
        best = min(_timed(player, rnd) for _ in range(5))
        worst = max(worst, best)
    return worst


def _timed(player: HeuristicPlayer, rnd: Round) -> float:
    seat = rnd.to_move
    assert seat is not None
    view, legal = rnd.view(seat), rnd.legal(seat)
    start = time.perf_counter()
    player.act(view, legal)
    return (time.perf_counter() - start) * 1e6


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
    rate, times, slowest = heuristic_rounds(args.heuristic_rounds, args.seed)
    print(f"heuristic self-play, tractor: {rate:7.1f} rounds/s")
    every = sorted(t for kind in times.values() for t in kind)
    for kind, values in [("all", every), *sorted(times.items())]:
        values.sort()
        p99 = values[int(len(values) * 0.99)]
        print(f"heuristic decision, {kind:7s}: median {statistics.median(values):5.0f} µs, "
              f"p99 {p99:5.0f} µs, worst {values[-1]:5.0f} µs over {len(values)} decisions")
    print(f"heuristic decision, worst*: {retime(slowest):.0f} µs (the 5 slowest decisions "
          "timed again, best of 5: without garbage-collection and scheduler pauses)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
