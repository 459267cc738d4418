"""Benchmark: whole deals per second through the ``shengji simulate`` path, against a
reference commit measured in the same run (issue 12, "Speed").

``python benchmarks/bench_speed.py [--deals N] [--ref COMMIT] [--growth]``

Workloads (4 players, 2 decks, the ``tractor`` preset unless the table says otherwise;
each deal is a whole round: the deal with a bid decision per drawn card, the kitty,
every trick, scoring), each played as ``simulate`` plays it (a
:class:`~shengji.game.match.Match` of one round, every seat's player asked through
:func:`~shengji.players.table.decide`, so players receive their views):

- ``random``: random legal play;
- ``throws``: random play that attempts a throw (every card of one suit) at ~45 % of leads;
- ``heuristic``: the heuristic player at every seat;
- ``learned``: the learned player at every seat (on its shipped model; not in the default
  ``--only``: the reference must have the player, e.g. ``--only learned --ref HEAD``);
- ``follow``: the median time of one heuristic follow decision (the view built
  outside the timing), in µs.

``--growth`` adds random play for 1-4 decks and 4, 6, 8, 12 players.

``--instructions`` counts instructions per deal with valgrind instead of timing (the
same count however busy the machine is, where CPU time on a shared virtual machine can
swing by a third between runs); the ratio is then the reference's count over the
current one's.

``--current DIR`` and ``--reference DIR`` compare other builds, e.g. both compiled
(``pip install --no-deps --target DIR`` of each commit's compiled wheel).

The same workloads run on a reference commit (default: the last commit before the speed
work) checked out with ``git worktree`` under /tmp (the working tree is never touched)
and imported in a subprocess, alternating with the current code, so that the ratio
``current / reference`` cancels the noise of a shared machine. Times are the process's
CPU time (``time.process_time``), which other processes on the machine disturb far less
than wall-clock time; each figure is the best of ``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path
from random import Random
from typing import Any

REFERENCE = "9464eaf114f18005ce6a7b9b51edec163f8553f1"
"""The commit before the speed work of issue 12."""

ROOT = Path(__file__).resolve().parent.parent


class _Thrower:
    """Random play that attempts a throw (every card of one suit) at ~45 % of leads; one
    class for all (a class made per player cost 3 % of a compiled deal's instructions)."""

    def __init__(self, seed: int) -> None:
        from shengji.engine.lead import LegalLeads
        from shengji.game.actions import Play

        self.rng = Random(seed)
        self.leads: Any = LegalLeads
        self.play: Any = Play

    def act(self, view: Any, legal: Any) -> Any:
        rng = self.rng
        plays = legal.plays
        if isinstance(plays, self.leads) and rng.random() < 0.45:
            trump = plays.trump
            suits: dict[int, list[Any]] = {}
            for card in view.hand:
                suits.setdefault(trump.suit_of(card), []).append(card)
            cards = suits[rng.choice(sorted(suits))]
            action = self.play(view.seat, tuple(cards))
            if action in legal:
                return action
        return legal.random(rng)


def _deals(kind: str, rules: Any, deals: int, seed: int) -> tuple[float, list[float]]:
    """Deals per second of ``kind`` players, and the heuristic follow decisions in µs."""
    from shengji.game.match import Match
    from shengji.game.round import Phase  # (also in the reference commits measured)
    from shengji.players import make_player
    from shengji.players.table import decide

    follows: list[float] = []
    start = time.process_time()
    for deal in range(deals):
        players = [_Thrower(seed + deal * 16 + s) if kind == "throws" else
                   make_player(kind, seed=seed + deal * 16 + s) for s in range(rules.players)]
        match = Match(rules, seed=seed + deal, max_rounds=1)
        while not match.is_over:
            seat = match.to_move
            assert seat is not None
            rnd = match.round
            if kind == "heuristic" and rnd.phase == Phase.PLAY and rnd.trick is not None and (
                    rnd.trick.plays):
                view, legal = match.view(seat), match.legal(seat)
                t = time.process_time()
                action = players[seat].act(view, legal)
                follows.append((time.process_time() - t) * 1e6)
                match.apply(action)
                continue
            match.apply(decide(match, seat, players[seat]))
    elapsed = time.process_time() - start
    return deals / elapsed, follows


def _rules(spec: dict[str, Any]) -> Any:
    from shengji.engine.rules import Rules
    from shengji.game.presets import preset

    return preset("tractor") if spec.get("decks") is None else Rules(
        decks=spec["decks"], players=spec["players"])


def worker(spec: dict[str, Any]) -> dict[str, float]:
    """Run one workload in this process (the code on ``sys.path``) and return its figure."""
    rules = _rules(spec)
    kind, deals, seed = spec["kind"], spec["deals"], spec["seed"]
    _deals(kind if kind != "follow" else "heuristic", rules, 2, seed + 99)  # warm-up
    if kind == "follow":
        _, follows = _deals("heuristic", rules, deals, seed)
        return {"value": statistics.median(follows)}
    rate, _ = _deals(kind, rules, deals, seed)
    return {"value": rate}


def _run(src: Path, spec: dict[str, Any]) -> float:
    env = dict(os.environ, PYTHONPATH=str(src), PYTHONHASHSEED="0")
    out = subprocess.run([sys.executable, __file__, "--worker", json.dumps(spec)], env=env,
                         cwd="/tmp", capture_output=True, text=True, check=False)
    if out.returncode:
        raise SystemExit(f"worker failed ({src}):\n{out.stderr}")
    value: float = json.loads(out.stdout)["value"]
    return value


def _instructions(src: Path, spec: dict[str, Any]) -> float:
    """Millions of instructions per deal (valgrind's cachegrind, which counts the same
    whatever else the machine runs): a run of ``2n`` deals less a run of the first ``n``
    (start-up and imports cancel), over ``n``."""
    counts: list[int] = []
    n: int = spec["deals"]
    for deals in (n, 2 * n):
        env = dict(os.environ, PYTHONPATH=str(src), PYTHONHASHSEED="0")
        try:
            out = subprocess.run(
                ["valgrind", "--tool=cachegrind", "--cache-sim=no",
                 "--cachegrind-out-file=/dev/null", sys.executable, __file__, "--play",
                 json.dumps(dict(spec, deals=deals))],
                env=env, cwd="/tmp", capture_output=True, text=True, check=False)
        except FileNotFoundError:
            raise SystemExit("--instructions needs valgrind (apt-get install valgrind)") from None
        found = re.search(r"I\s+refs:\s+([\d,]+)", out.stderr)
        if out.returncode or found is None:
            raise SystemExit(f"valgrind run failed ({src}):\n{out.stderr[-2000:]}")
        counts.append(int(found.group(1).replace(",", "")))
    return (counts[1] - counts[0]) / n / 1e6


def _reference(commit: str) -> Path:
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", commit], check=True,
                            capture_output=True, text=True).stdout.strip()
    path = Path(f"/tmp/shengji-ref-{commit[:10]}")
    if not path.exists():
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(path),
                        commit], check=True, capture_output=True)
    return path / "src"


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the figures with their ratios to the reference."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200, help="deals per random workload")
    parser.add_argument("--heuristic-deals", type=int, default=40,
                        help="deals per heuristic or learned workload")
    parser.add_argument("--repeat", type=int, default=2, help="runs per figure (best kept)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ref", default=REFERENCE, help="reference commit")
    parser.add_argument("--growth", action="store_true", help="1-4 decks x 4-12 players")
    parser.add_argument("--only", default="random,throws,heuristic,follow")
    parser.add_argument("--current", help="import the current code from this folder instead of "
                        "src/ (e.g. a compiled build: pip install --target DIR WHEEL)")
    parser.add_argument("--reference", help="import the reference from this folder instead of "
                        "a worktree of --ref (e.g. the reference's compiled build)")
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions per deal with valgrind instead of timing "
                        "(deterministic: the same on a busy machine; ~50x slower, so use "
                        "fewer deals, e.g. --deals 40 --heuristic-deals 20)")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--play", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        print(json.dumps(worker(json.loads(args.worker))))
        return 0
    if args.play:  # exactly the deals asked, nothing else (counted by --instructions)
        spec = json.loads(args.play)
        _deals(spec["kind"], _rules(spec), spec["deals"], spec["seed"])
        return 0
    ref = Path(args.reference) if args.reference else _reference(args.ref)
    cur = Path(args.current) if args.current else ROOT / "src"
    print(f"command: python benchmarks/bench_speed.py {' '.join(sys.argv[1:])}".rstrip())
    print(f"reference: {ref}; current: {cur}")
    rows: list[tuple[str, dict[str, Any], str]] = []
    names = {"random": "random legal play", "throws": "random, throws at ~45% of leads",
             "heuristic": "heuristic at every seat", "learned": "learned at every seat",
             "follow": "heuristic follow decision"}
    kinds = args.only.split(",")
    if args.instructions:
        kinds = [k for k in kinds if k != "follow"]  # a latency, not a count per deal
    for kind in kinds:
        deals = args.deals if kind in ("random", "throws") else args.heuristic_deals
        rows.append((names[kind], {"kind": kind, "deals": deals, "seed": args.seed},
                     "µs median" if kind == "follow" else "deals/s"))
    if args.growth:
        for decks in (1, 2, 3, 4):
            for players in (4, 6, 8, 12):
                rows.append((f"random, {decks} deck(s), {players} players",
                             {"kind": "random", "deals": max(20, args.deals // (decks * 2)),
                              "seed": args.seed, "decks": decks, "players": players},
                             "deals/s"))
    if args.instructions:
        rows = [(label, spec, "M instr") for label, spec, _ in rows]
    print(f"{'workload':40s} {'reference':>18s} {'current':>18s}  ratio")
    for label, spec, unit in rows:
        refs, curs = [], []
        measure = _instructions if args.instructions else _run
        for _ in range(1 if args.instructions else args.repeat):
            refs.append(measure(ref, spec))
            curs.append(measure(cur, spec))
        lower = unit.startswith("µs") or args.instructions
        best_ref = min(refs) if lower else max(refs)
        best_cur = min(curs) if lower else max(curs)
        ratio = best_ref / best_cur if lower else best_cur / best_ref
        print(f"{label:40s} {best_ref:8.1f} {unit:>9s} {best_cur:8.1f} {unit:>9s}  "
              f"{ratio:5.2f}x", flush=True)
    print("ratio: current speed / reference speed (for the follow decision, reference time "
          "/ current time; with --instructions, reference instructions per deal / current "
          "ones); >1 is faster")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
