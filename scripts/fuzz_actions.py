"""The long action fuzz run: malformed, illegal, out-of-turn and stale actions in every
phase of every preset, until ``--actions`` bad actions have been tried.

Every refused action must raise only ``ActionError`` and leave the round exactly as it
was; an accepted one must have been legal (it is undone). Prints the counts by outcome.

    python3 scripts/fuzz_actions.py --actions 1000000 --seed 1
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from fuzz_actions import PRESET_TABLES, fuzz_round


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=1_000_000,
                        help="bad actions to try (default 1,000,000)")
    parser.add_argument("--seed", type=int, default=1, help="first round seed (default 1)")
    args = parser.parse_args(argv)
    if args.actions < 1:
        parser.error("--actions must be at least 1")
    counts: Counter[str] = Counter()
    start = time.perf_counter()
    seed, rounds = args.seed, 0
    while sum(n for key, n in counts.items() if key != "legal actions played") < args.actions:
        name, players = PRESET_TABLES[rounds % len(PRESET_TABLES)]
        fuzz_round(name, players, seed, counts)
        seed += 1
        rounds += 1
    tried = sum(n for key, n in counts.items() if key != "legal actions played")
    print(f"{tried:,} bad actions tried in {rounds:,} rounds of "
          f"{len(PRESET_TABLES)} preset tables, {time.perf_counter() - start:.0f} s; "
          "no exception but ActionError, no refused action changed a round")
    for key, n in sorted(counts.items()):
        print(f"  {key:<24} {n:>12,}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
