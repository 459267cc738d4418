"""Benchmark: how the cost of a deal grows with the decks and the players (issue 12).

``python benchmarks/bench_growth.py [--cards N] [--kinds random,heuristic] [--ref COMMIT]
[--workers 1,2] [--simulate-rounds N]``

Whole single-round deals of random legal play, played as ``shengji simulate`` plays them
(a :class:`~shengji.game.match.Match` of one round, each seat asked through
:func:`~shengji.players.table.decide`, so players receive their views), for 1, 2, 3 and 4
decks at 4, 6, 8 and 12 players (default rules otherwise), then the same with the
heuristic player at every seat. Tables printed, for each kind of player:

- deals per second of the current code;
- its ratio to a reference commit (default: the last commit before the speed work)
  measured in the same run, alternating with the current code cell by cell, so that the
  noise of a shared machine cancels;
- the cost per card in the game (µs of CPU per card of the decks), which stays flat
  where the cost grows linearly with the size of the game.

Each code runs in its own long-lived subprocess (``PYTHONPATH`` set to ``src/`` of the
working tree, of a ``git worktree`` of the reference under /tmp, or to ``--current`` /
``--reference`` folders, e.g. compiled builds installed with ``pip install --target``).
Times are CPU times (``time.process_time``), each the best of ``--repeat``. A combination
the rules refuse is left out with the reason.

Then the growth with cores: what ``shengji simulate --rounds N --players heuristic,random``
runs (the current code) on each number of ``--workers``, timed on the wall clock, with the
check that every worker count gives the same summary (best of ``--repeat``). Wall time
depends on what else the machine runs: the load average is printed with it. The default run
takes about a minute of CPU.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REFERENCE = "9464eaf114f18005ce6a7b9b51edec163f8553f1"
"""The commit before the speed work of issue 12 (the same as bench_speed.py's)."""

ROOT = Path(__file__).resolve().parent.parent
DECKS = (1, 2, 3, 4)
PLAYERS = (4, 6, 8, 12)
CARDS_PER_DECK = 54


def measure(spec: dict[str, Any]) -> dict[str, Any]:
    """Deals per second of one cell in this process (the code on ``sys.path``), or the
    reason the rules refuse the table."""
    from shengji.engine.rules import Rules
    from shengji.game.match import Match
    from shengji.players import make_player
    from shengji.players.table import decide

    try:
        rules = Rules(decks=spec["decks"], players=spec["players"])
    except ValueError as error:
        return {"refused": str(error)}

    def play(deals: int, seed: int) -> None:
        for deal in range(deals):
            seated = [make_player(spec["kind"], seed=seed + deal * 16 + s)
                      for s in range(rules.players)]
            match = Match(rules, seed=seed + deal, max_rounds=1)
            while not match.is_over:
                seat = match.to_move
                assert seat is not None
                match.apply(decide(match, seat, seated[seat]))

    play(1, spec["seed"] + 10_000)  # warm-up
    start = time.process_time()
    play(spec["deals"], spec["seed"])
    return {"rate": spec["deals"] / (time.process_time() - start)}


def serve() -> None:
    """The worker loop: one JSON spec per line in, one JSON result per line out."""
    for line in sys.stdin:
        print(json.dumps(measure(json.loads(line))), flush=True)


class Worker:
    """A subprocess importing ``shengji`` from one folder, measuring cells on request."""

    def __init__(self, src: Path) -> None:
        self.src = src
        env = dict(os.environ, PYTHONPATH=str(src), PYTHONHASHSEED="0")
        self.process = subprocess.Popen([sys.executable, __file__, "--worker"], env=env,
                                        cwd="/tmp", stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True)

    def measure(self, spec: dict[str, Any]) -> dict[str, Any]:
        """The result of one cell."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(spec) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit(f"the worker for {self.src} failed (its error is above)")
        result: dict[str, Any] = json.loads(line)
        return result

    def close(self) -> None:
        """End the subprocess."""
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait()


def reference_src(commit: str) -> Path:
    """``src/`` of a ``git worktree`` of ``commit`` under /tmp (made once, then reused)."""
    full = subprocess.run(["git", "-C", str(ROOT), "rev-parse", commit], check=True,
                          capture_output=True, text=True).stdout.strip()
    path = Path(f"/tmp/shengji-ref-{full[:10]}")
    if not path.exists():
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(path), full],
                       check=True, capture_output=True)
    return path / "src"


def table(title: str, cells: dict[tuple[int, int], str]) -> None:
    """Print one decks x players table."""
    print(f"\n{title}")
    print(f"{'decks':>6s} " + " ".join(f"{p:>8d}p" for p in PLAYERS))
    for decks in DECKS:
        print(f"{decks:>6d} " + " ".join(f"{cells.get((decks, p), '-'):>9s}" for p in PLAYERS))


SCALING = """\
import json, resource, sys, time
from shengji import simulate
from shengji.engine.rules import Rules
def cpu():
    return sum(r.ru_utime + r.ru_stime for r in (resource.getrusage(resource.RUSAGE_SELF),
               resource.getrusage(resource.RUSAGE_CHILDREN)))
rounds, seed, workers = (int(x) for x in sys.argv[1:4])
players = ["heuristic", "random"] * 2
start, cpu_start = time.perf_counter(), cpu()
games = simulate.run(Rules(), players, deals=rounds, seed=seed, workers=workers)
wall, used = time.perf_counter() - start, cpu() - cpu_start
summary = simulate.summarize(games, Rules(), players, seed=seed, duplicate=True,
                             matches=False, rules_name="tractor")
print(json.dumps({"wall": wall, "cpu": used, "summary": summary.to_json()}))
"""
"""What ``shengji simulate --rounds N --players heuristic,random`` runs, timed without the
interpreter's start-up (the process pool's start is counted), with the CPU time of the
process and its workers."""


def scaling(src: Path, rounds: int, workers: list[int], seed: int, repeat: int) -> None:
    """Wall time of the simulate run on each number of workers (the best of ``repeat``, the
    worker counts alternating) and the CPU time it took in all its processes, which a busy
    machine disturbs far less (its growth is the cost of running in parallel); the summaries
    must be the same."""
    print(f"\nshengji simulate --rounds {rounds} --players heuristic,random --seed {seed} "
          f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    env = dict(os.environ, PYTHONPATH=str(src), PYTHONHASHSEED="0")
    summaries = []
    walls = {count: math.inf for count in workers}
    cpus = {count: math.inf for count in workers}
    for _ in range(repeat):
        for count in workers:
            done = subprocess.run([sys.executable, "-c", SCALING, str(rounds), str(seed),
                                   str(count)], env=env, cwd="/tmp", check=True,
                                  capture_output=True, text=True)
            result = json.loads(done.stdout)
            walls[count] = min(walls[count], result["wall"])
            cpus[count] = min(cpus[count], result["cpu"])
            summaries.append(result["summary"])
    for count, wall in walls.items():
        print(f"  --workers {count}: {wall:6.2f} s wall, {rounds / wall:6.1f} deals/s (each "
              f"played twice), {walls[workers[0]] / wall:.2f}x the first; {cpus[count]:6.2f} s "
              f"of CPU in all, {cpus[count] / cpus[workers[0]]:.2f}x the first")
    same = all(s == summaries[0] for s in summaries)
    print(f"  the same summary on every worker count: {'yes' if same else 'NO'}")
    if not same:
        raise SystemExit("the worker count changed the results")


def main(argv: list[str] | None = None) -> int:
    """Measure every cell, then print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=2000,
                        help="cards in the games of each cell: deals = cards / (54 x decks) "
                             "(at least 2); default 2000")
    parser.add_argument("--kinds", default="random,heuristic",
                        help="players measured, each at every seat (default: random,heuristic)")
    parser.add_argument("--repeat", type=int, default=2, help="runs per figure (best kept)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ref", default=REFERENCE, help="reference commit")
    parser.add_argument("--current", help="import the current code from this folder "
                                          "instead of src/ (e.g. a compiled build)")
    parser.add_argument("--reference", help="import the reference from this folder instead "
                                            "of a worktree of --ref")
    parser.add_argument("--workers", default="1,2",
                        help="worker counts for the simulate scaling (default 1,2)")
    parser.add_argument("--simulate-rounds", type=int, default=150,
                        help="deals of the simulate scaling, each played twice (0: skip it)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        serve()
        return 0
    ref_src = Path(args.reference) if args.reference else reference_src(args.ref)
    cur_src = Path(args.current) if args.current else ROOT / "src"
    print(f"command: python benchmarks/bench_growth.py {' '.join(sys.argv[1:])}".rstrip())
    print(f"reference: {ref_src}; current: {cur_src}")
    workers = {"reference": Worker(ref_src), "current": Worker(cur_src)}
    kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
    refused: dict[tuple[int, int], str] = {}
    try:
        for kind in kinds:
            rates: dict[str, dict[tuple[int, int], float]] = {"reference": {}, "current": {}}
            for decks in DECKS:
                for players in PLAYERS:
                    cell = (decks, players)
                    spec = {"kind": kind, "decks": decks, "players": players,
                            "seed": args.seed,
                            "deals": max(2, args.cards // (CARDS_PER_DECK * decks))}
                    for _ in range(args.repeat):
                        for name, worker in workers.items():
                            result = worker.measure(spec)
                            if "refused" in result:
                                if name == "current":
                                    refused[cell] = result["refused"]
                                continue
                            rates[name][cell] = max(rates[name].get(cell, 0.0), result["rate"])
            cur, ref = rates["current"], rates["reference"]
            table(f"{kind}: deals/s (current code)", {c: f"{r:.1f}" for c, r in cur.items()})
            table(f"{kind}: speed ratio current / reference (>1 is faster)",
                  {c: f"{r / ref[c]:.2f}x" for c, r in cur.items() if c in ref})
            table(f"{kind}: µs of CPU per card in the game (current code)",
                  {c: f"{1e6 / (r * CARDS_PER_DECK * c[0]):.0f}" for c, r in cur.items()})
    finally:
        for worker in workers.values():
            worker.close()
    for (decks, players), reason in sorted(refused.items()):
        print(f"left out: {decks} deck(s), {players} players: {reason}")
    if kinds and not refused:
        print("\nevery combination is a legal table (none left out)")
    if kinds:
        print("figures: CPU time of whole single-round deals (deal and bids, kitty, tricks, "
              "scoring), best of --repeat")
    if args.simulate_rounds:
        scaling(cur_src, args.simulate_rounds, [int(w) for w in args.workers.split(",")],
                args.seed, args.repeat)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
