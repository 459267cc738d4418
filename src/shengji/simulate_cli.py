"""``shengji simulate``: its arguments and what runs them (the games are played by
:mod:`shengji.simulate`)."""

from __future__ import annotations

import argparse
import re
import tempfile
from collections.abc import Callable
from pathlib import Path

from shengji.arguments import (
    SEED_LIMIT,
    TABLE_SIZES,
    clashing_files,
    output_file_problem,
    output_folder_problem,
    player_names,
    plot_problem,
    progress_bar,
    report,
    rules_from_args,
    whole_number,
)
from shengji.engine.rules import Rules
from shengji.parallel import BACKENDS, BackendError, backend_problem


def add_simulate_arguments(sim: argparse.ArgumentParser) -> None:
    """The arguments of ``shengji simulate``."""
    from shengji.game.options_doc import options_epilog
    from shengji.simulate import COLUMNS

    sim.formatter_class = argparse.RawDescriptionHelpFormatter
    sim.epilog = "The figures reported, per player:\n" + COLUMNS + "\n\n" + options_epilog()
    sim.add_argument("--preset", default="tractor", help="rules preset (default: tractor)")
    sim.add_argument("--rules", help="a TOML or JSON rules file (overrides --preset)")
    sim.add_argument("--table", type=whole_number(*TABLE_SIZES),
                     help="number of players, 2 to 12 (e.g. finding-friends)")
    sim.add_argument("--players", default="heuristic,random",
                     help="player per seat, comma-separated, repeated round the table "
                          "(random, heuristic, heuristic-nomem, learned, search)")
    count = sim.add_mutually_exclusive_group()
    count.add_argument("--rounds", type=whole_number(1), default=100,
                       help="deals played as single rounds (default 100)")
    count.add_argument("--matches", type=whole_number(1), help="deals played as whole matches")
    sim.add_argument("--max-rounds", type=whole_number(1), default=None,
                     help="with --matches: stop a match after this many rounds (needed where "
                          "matches never end, after_end = wrap); the summary says how many "
                          "stopped")
    sim.add_argument("--seed", type=whole_number(0, SEED_LIMIT - 1), default=0,
                     help="seed of the run (reproducible)")
    sim.add_argument("--workers", type=whole_number(1, 256), default=None,
                     help="processes (default: all cores)")
    sim.add_argument("--backend", choices=BACKENDS, default="process",
                     help="local processes (default) or a Ray cluster (pip install "
                          "\"shengji[ray]\", or pip install -e \".[ray]\" in a clone); "
                          "the same results for the same seed")
    sim.add_argument("--address", help="with --backend ray: the cluster to join, e.g. "
                                       "auto or ray://head:10001 (default: a local one)")
    sim.add_argument("--no-duplicate", action="store_true",
                     help="play each deal once instead of twice with the sides swapped")
    sim.add_argument("--json", help="write the summary as JSON to this file (with the "
                                    "paired differences)")
    sim.add_argument("--records", help="keep every game's record in this folder")
    sim.add_argument("--plot", help="draw points and levels to this image, e.g. points.png "
                                    "(needs matplotlib: pip install \"shengji[plot]\", or "
                                    "pip install -e \".[plot]\" in a clone)")


RECORD_NAME = re.compile(r"deal\d{5,}(?:-swapped)?\.toml")
"""The names of the game records ``--records`` writes (:func:`record_name`)."""


def record_name(deal: int, swapped: bool) -> str:
    """The file name of a deal's record in the ``--records`` folder."""
    return f"deal{deal:05d}{'-swapped' if swapped else ''}.toml"


def simulate_problems(args: argparse.Namespace) -> list[str]:
    """Every problem with the output arguments of ``shengji simulate``, one line each."""
    problems = []
    if args.json is not None:
        problems.append(output_file_problem("--json", args.json))
    if args.records is not None:
        problems.append(output_folder_problem("--records", args.records)
                        if args.records else "--records needs a folder name")
    if args.plot is not None:
        problems.append(plot_problem(args.plot))
    problems += clashing_files([("--rules", args.rules)],
                               [("--json", args.json), ("--plot", args.plot)])
    if args.records and args.json and RECORD_NAME.fullmatch(Path(args.json).name) and (
            Path(args.json).resolve().parent == Path(args.records).resolve()):
        problems.append(f"--json {args.json}: --records writes the game records there "
                        f"(deal00000.toml...); name another")  # (a plot is never .toml)
    return [p for p in problems if p]


def simulate_main(args: argparse.Namespace) -> int:
    """Run ``shengji simulate``."""
    from shengji import simulate
    from shengji.game.files import write_bytes_atomic, write_text_atomic
    from shengji.players import model_note

    problems = simulate_problems(args)
    backend = backend_problem(args.backend, args.address)
    if backend:
        problems.append(backend)
    try:
        rules: Rules | None = rules_from_args(args.preset, args.rules, args.table)
    except ValueError as error:
        problems.append(str(error))
        rules = None
    try:
        names = player_names(args.players, rules.players if rules is not None else None)
    except ValueError as error:
        problems.append(str(error))
        names = []
    if rules is not None and names:
        names = [names[s % len(names)] for s in range(rules.players)]
    matches = args.matches is not None
    if rules is not None:
        bound = simulate.max_rounds_problem(rules, matches, args.max_rounds, "--max-rounds N")
        if bound:
            problems.append(bound + (" (the most rounds a match plays)"
                                     if "never ends" in bound else ""))
    if problems or rules is None:
        return report("simulate", problems)
    for name in dict.fromkeys(names):  # a player without its model says so, and plays on
        note = model_note(name, rules)
        if note is not None:
            print(f"note: {note}")
    deals = args.matches if matches else args.rounds
    # a stream: each deal's games are counted (and their records written) as they come;
    # only --plot keeps them
    tally = simulate.Tally(names, seed=args.seed, duplicate=not args.no_duplicate,
                           matches=matches, rules_name=args.rules or args.preset,
                           max_rounds=args.max_rounds)
    games: list[simulate.PlayedDeal] = []
    written = 0
    failed: list[str] = []  # what could not be written, reported after the summary
    folder = Path(args.records) if args.records else None
    if folder is not None:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            return report("simulate", [f"--records {args.records}: cannot create the folder: "
                                       f"{error.strerror or error}"])
    try:
        with progress_bar(deals, "deals") as advance:
            for batch in simulate.stream(
                    rules, names, deals=deals, seed=args.seed, matches=matches,
                    duplicate=not args.no_duplicate, workers=args.workers,
                    keep_records=folder is not None, backend=args.backend,
                    address=args.address, max_rounds=args.max_rounds):
                tally.add(batch)
                for game in batch:
                    if folder is not None and not failed:
                        name = record_name(game.deal, game.swapped)
                        why = _write(write_text_atomic, folder / name, game.record)
                        if why:  # the run goes on; the records stop
                            failed.append(f"--records {args.records}: cannot write {name}: "
                                          f"{why} (wrote {written} records before it)")
                        else:
                            written += 1
                if args.plot:
                    games.extend(batch)
                advance(1)
    except BackendError as error:
        return report("simulate", [str(error)])
    summary = tally.summary()
    simulate.print_summary(summary)
    if folder is not None and not failed:
        print(f"wrote {written} game records to {folder}")
    if args.json:
        why = _write(write_text_atomic, Path(args.json), summary.to_json())
        if why:
            failed.append(f"--json {args.json}: cannot write it: {why}")
        else:
            print(f"wrote the summary (JSON) to {args.json}")
    if args.plot:
        def draw(path: Path, _: str) -> None:  # drawn aside, then written atomically
            with tempfile.TemporaryDirectory() as aside:
                drawn = Path(aside) / f"plot{path.suffix}"
                simulate.plot(summary, games, drawn, rules)
                write_bytes_atomic(path, drawn.read_bytes())

        why = _write(draw, Path(args.plot), "")
        if why:
            failed.append(f"--plot {args.plot}: cannot draw it: {why}")
        else:
            print(f"wrote the plot to {args.plot}")
    return report("simulate", failed) if failed else 0


def _write(write: Callable[[Path, str], object], path: Path, text: str) -> str | None:
    """Run ``write(path, text)``; why it failed in words, or ``None`` if it did not."""
    try:
        write(path, text)
    except OSError as error:
        return error.strerror or str(error)
    return None
