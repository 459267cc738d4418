"""Benchmark: the heuristic player's own decision time against an earlier version of it, on
the same decisions of the same games, with the same rules engine (issue 12, "Speed").

``python benchmarks/bench_heuristic.py [--deals N] [--preset NAME] [--ref COMMIT]``

The reference player is the heuristic (``players/heuristic.py`` and ``players/memory.py``)
of ``--ref`` (default: the commit before the heuristic's speed work), read with ``git
show`` and imported under other module names, so both players run against the engine of
the working tree. Whole deals are played as ``shengji simulate`` plays them (every seat's
view and legal actions handed to its player); at each decision both players, seated
alike and seeded alike, are asked, alternately first, and must choose the same action
(the run stops otherwise), so the timing covers the player alone: not the engine's views,
legal sets or moves. Times are the process's CPU time (``time.process_time``), per
decision: leads, follows, and the other decisions (bids, kitty, friend calls). The
current player is the installed ``shengji`` (``PYTHONPATH`` may name a compiled build; the
reference always runs as pure Python).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
import types
from pathlib import Path
from typing import Any

REFERENCE = "4762b8c"
"""The last commit before the heuristic's speed work."""

ROOT = Path(__file__).resolve().parent.parent


def reference_player(commit: str) -> type:
    """The ``HeuristicPlayer`` class of ``commit``, importable beside the current one."""
    sources = {}
    for name in ("memory", "heuristic"):
        sources[name] = subprocess.run(
            ["git", "-C", str(ROOT), "show", f"{commit}:src/shengji/players/{name}.py"],
            check=True, capture_output=True, text=True).stdout
    with tempfile.TemporaryDirectory(prefix="bench-heuristic-") as name:
        folder = Path(name)
        for module_name, text in sources.items():
            text = text.replace("shengji.players.memory", "_reference_memory")
            (folder / f"_reference_{module_name}.py").write_text(text)
        sys.path.insert(0, str(folder))
        try:  # both modules are read now: the folder may go
            module: types.ModuleType = __import__("_reference_heuristic")
        finally:
            sys.path.remove(str(folder))
    player: type = module.HeuristicPlayer
    return player


def run(deals: int, preset_name: str, reference: type
        ) -> dict[str, tuple[list[float], list[float]]]:
    """Per kind of decision, the reference's and the current player's times in µs."""
    from shengji.engine.lead import LegalLeads
    from shengji.game.match import Match
    from shengji.game.presets import preset
    from shengji.game.round import Phase  # (also in the reference commits measured)
    from shengji.players.heuristic import HeuristicPlayer

    rules = preset(preset_name)
    clock = time.process_time
    times: dict[str, tuple[list[float], list[float]]] = {
        kind: ([], []) for kind in ("follow", "lead", "other")}
    for deal in range(deals):
        seats: tuple[list[Any], list[Any]] = (
            [reference(1 + deal * 16 + s) for s in range(rules.players)],
            [HeuristicPlayer(1 + deal * 16 + s) for s in range(rules.players)])
        match = Match(rules, seed=1 + deal, max_rounds=1)
        while not match.is_over:
            seat = match.to_move
            assert seat is not None
            rnd = match.round
            draw = rnd.only_draw(seat) if rnd.phase is Phase.DEAL else None
            if draw is not None:
                match.apply(draw)
                continue
            view, legal = match.view(seat), match.legal(seat)
            kind = "other"
            if rnd.phase is Phase.PLAY:
                kind = "lead" if isinstance(legal.plays, LegalLeads) else "follow"
            actions = []
            for which in ((0, 1) if deal % 2 else (1, 0)):
                start = clock()
                actions.append(seats[which][seat].act(view, legal))
                times[kind][which].append((clock() - start) * 1e6)
            if actions[0] != actions[1]:
                raise SystemExit(f"deal {deal}, seat {seat}: the players differ "
                                 f"({actions[0]} / {actions[1]})")
            match.apply(actions[0])
    return times


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the figures with their ratios to the reference."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--preset", default="tractor")
    parser.add_argument("--ref", default=REFERENCE, help="reference commit")
    args = parser.parse_args(argv)
    times = run(args.deals, args.preset, reference_player(args.ref))
    print(f"command: python benchmarks/bench_heuristic.py {' '.join(sys.argv[1:])}".rstrip())
    print(f"{'decisions':18s} {'reference median':>17s} {'current median':>15s}  ratio  "
          f"{'reference total':>16s} {'current total':>14s}  ratio")
    for kind, (ref, cur) in times.items():
        if not ref:
            continue
        label = f"{kind} ({len(ref)})"
        ref_median, cur_median = statistics.median(ref), statistics.median(cur)
        print(f"{label:18s} {ref_median:14.1f} µs {cur_median:12.1f} µs  "
              f"{ref_median / cur_median:4.2f}x {sum(ref) / 1e3:13.1f} ms "
              f"{sum(cur) / 1e3:11.1f} ms  {sum(ref) / sum(cur):4.2f}x")
    print("every decision was the same for both players; ratio: reference time / current "
          "time (>1 is faster)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
