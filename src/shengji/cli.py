"""The ``shengji`` command.

- ``shengji play`` (the default): play a match in the terminal against computer players.
- ``shengji replay FILE``: step through a recorded game.
- ``shengji serve``: a web server to play with friends in the browser.
- ``shengji demo``: deal a random round and play one trick (the engine at work).
- ``shengji simulate``: pit computer players against each other over many deals.
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import os
import random
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import NoReturn

from shengji.engine import TRUMP, Hand, Rank, Rules, Suit, Trick, full_deck


def demo(seed: int | None, out: list[str]) -> None:
    """Deal four hands of a two-deck game, show them in trump order, play one trick."""
    rng = random.Random(seed)
    rules = Rules()
    deck = full_deck(rules.decks)
    rng.shuffle(deck)
    per_hand = rules.hand_size
    hands = [Hand(deck[i * per_hand:(i + 1) * per_hand]) for i in range(rules.players)]
    kitty = deck[rules.players * per_hand:]
    trump = rules.trump(rng.choice(list(Rank)), rng.choice(list(Suit)))
    suit = trump.suit.name.lower() if trump.suit is not None else "none"
    out.append(f"Trump: {trump} (rank {trump.rank}, suit {suit})")
    out.append(f"Trump order, highest first: {trump.order_text(TRUMP)}")
    for seat, hand in enumerate(hands):
        groups: dict[int, list[str]] = {}
        for card in trump.sorted(hand.cards()):
            groups.setdefault(trump.suit_of(card), []).append(card.unicode())
        text = "  ".join(" ".join(cards) for _, cards in sorted(groups.items(), reverse=True))
        out.append(f"Seat {seat}: {text}")
    out.append(f"Kitty: {' '.join(c.unicode() for c in kitty)}")
    trick = Trick(trump, rules, leader=0)
    while trick.turn is not None:
        hand = hands[trick.turn]
        legal = trick.legal(hand)
        cards = legal.random(rng)
        trick.play(cards, hand, hands=hands)
        played = trick.plays[-1]
        hand.remove(played.cards)
        out.append(f"Seat {played.seat} plays {' '.join(c.unicode() for c in played.cards)}")
    out.append(f"Seat {trick.winner} wins the trick with {trick.points} points.")


# -- checking arguments before any work starts ----------------------------------------

TABLE_SIZES = (2, 12)
"""The table sizes ``--table`` accepts (the rules may narrow them: fixed partnerships need
an even number, the Finding Friends table runs from 5 to 12)."""

SEED_LIMIT = 2**63
"""Seeds run from 0 to ``SEED_LIMIT - 1`` (a record stores the seed as a TOML integer)."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr and exit with status 2."""

    def error(self, message: str) -> NoReturn:
        """Print ``shengji CMD: message`` and exit with status 2."""
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def whole_number(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high`` (no limit if ``None``)."""
    allowed = f"from {low} to {high}" if high is not None else f"at least {low}"

    def convert(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"expected a whole number {allowed}, got {text!r}") from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"must be {allowed}, got {value}")
        return value

    return convert


def seconds(text: str) -> float:
    """An argparse type: a number of seconds from 0 to 10."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds (e.g. 0.5), got {text!r}") from None
    if not math.isfinite(value) or not 0 <= value <= 10:
        raise argparse.ArgumentTypeError(f"must be from 0 to 10 seconds, got {text}")
    return value


def _writable_folder(folder: Path) -> str | None:
    """Why files cannot be created in ``folder`` (an existing path), or ``None``."""
    if not folder.is_dir():
        return f"{folder} is not a folder"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"cannot write in the folder {folder}"
    return None


def output_file_problem(option: str, name: str) -> str | None:
    """Why the file ``name`` given to ``option`` cannot be written, or ``None``."""
    path = Path(name)
    if path.is_dir():
        return f"{option} {name}: that is a folder; name a file in it"
    folder = path.parent
    if not folder.exists():
        return f"{option} {name}: the folder {folder} does not exist"
    why = _writable_folder(folder)
    if why is None and path.exists() and not os.access(path, os.W_OK):
        why = f"cannot overwrite {name}"
    return f"{option} {name}: {why}" if why else None


def output_folder_problem(option: str, name: str) -> str | None:
    """Why the folder ``name`` given to ``option`` cannot be written (or created)."""
    path = Path(name)
    if path.exists() and not path.is_dir():
        return f"{option} {name}: that is a file, not a folder"
    existing = path
    while not existing.exists():  # the folders to create hang off an existing one
        existing = existing.parent
    why = _writable_folder(existing)
    return f"{option} {name}: {why}" if why else None


def plot_problem(name: str) -> str | None:
    """Why ``--plot name`` cannot be drawn (matplotlib missing, unknown image format)."""
    try:
        from matplotlib.backend_bases import FigureCanvasBase
    except ImportError:
        return "--plot needs matplotlib: pip install 'shengji[plot]'"
    formats = sorted(FigureCanvasBase.get_supported_filetypes())
    suffix = Path(name).suffix.lower().lstrip(".")
    if suffix not in formats:
        return (f"--plot {name}: name the image with its format, e.g. points.png "
                f"({', '.join(formats)})")
    return output_file_problem("--plot", name)


def report(command: str, problems: Sequence[str]) -> int:
    """Print each problem on its own line (``shengji CMD: ...``); the exit status 2."""
    for problem in problems:
        print(f"shengji {command}: {problem}", file=sys.stderr)
    return 2


def rules_from_args(preset_name: str, rules_file: str | None, players: int | None) -> Rules:
    """The rules chosen on the command line (a preset, or a rules file)."""
    from shengji.game.config import load_rules
    from shengji.game.presets import preset

    if rules_file:
        return load_rules(Path(rules_file))
    overrides: dict[str, object] = {}
    if players is not None:
        overrides["players"] = players
    return preset(preset_name, **overrides)


@contextmanager
def progress_bar(total: int, unit: str, *, after: float = 1.0) -> Iterator[Callable[[int], None]]:
    """A progress bar on stderr (a terminal only) that appears once the work has taken
    ``after`` seconds; yields the function that advances it."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    console = Console(stderr=True)
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TextColumn(unit), TimeElapsedColumn(), TextColumn("left"),
                  TimeRemainingColumn(), console=console, transient=True,
                  disable=not console.is_terminal) as bar:
        task = bar.add_task("playing", total=total, visible=False)
        timer = threading.Timer(after, lambda: bar.update(task, visible=True))
        timer.daemon = True
        timer.start()
        try:
            yield lambda k: bar.advance(task, k)
        finally:
            timer.cancel()


def simulate_problems(args: argparse.Namespace) -> list[str]:
    """Every problem with the output arguments of ``shengji simulate``, one line each."""
    problems = []
    if args.json:
        problems.append(output_file_problem("--json", args.json))
    if args.records:
        problems.append(output_folder_problem("--records", args.records))
    if args.plot:
        problems.append(plot_problem(args.plot))
    return [p for p in problems if p]


def simulate_main(args: argparse.Namespace) -> int:
    """Run ``shengji simulate``."""
    from shengji import simulate
    from shengji.game.files import write_text_atomic
    from shengji.players import PLAYER_KINDS, make_player

    problems = simulate_problems(args)
    if args.backend == "ray" and importlib.util.find_spec("ray") is None:
        problems.append("--backend ray needs Ray: pip install 'shengji[ray]'")
    elif args.address and args.backend != "ray":
        problems.append("--address is for --backend ray")
    try:
        rules: Rules | None = rules_from_args(args.preset, args.rules, args.table)
    except ValueError as error:
        problems.append(str(error))
        rules = None
    names = [p.strip() for p in args.players.split(",") if p.strip()]
    if not names:
        problems.append(f"--players needs player names; choose from {', '.join(PLAYER_KINDS)}")
    for name in dict.fromkeys(names):
        try:
            make_player(name)
        except ValueError as error:
            problems.append(str(error))
    if rules is not None and names:
        if len(names) < rules.players:
            names = [names[s % len(names)] for s in range(rules.players)]
        elif len(names) > rules.players:
            problems.append(f"--players needs {rules.players} names (one per seat), "
                            f"got {len(names)}")
    matches = args.matches is not None
    if rules is not None:
        bound = simulate.max_rounds_problem(rules, matches, args.max_rounds, "--max-rounds N")
        if bound:
            problems.append(bound + (" (the most rounds a match plays)"
                                     if "never ends" in bound else ""))
    if problems or rules is None:
        return report("simulate", problems)
    deals = args.matches if matches else args.rounds
    # a stream: each deal's games are counted (and their records written) as they come;
    # only --plot keeps them
    tally = simulate.Tally(names, seed=args.seed, duplicate=not args.no_duplicate,
                           matches=matches, rules_name=args.rules or args.preset,
                           max_rounds=args.max_rounds)
    games: list[simulate.Game] = []
    folder = Path(args.records) if args.records else None
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
    try:
        with progress_bar(deals, "deals") as advance:
            for batch in simulate.stream(
                    rules, names, deals=deals, seed=args.seed, matches=matches,
                    duplicate=not args.no_duplicate, workers=args.workers,
                    keep_records=folder is not None, backend=args.backend,
                    address=args.address, max_rounds=args.max_rounds):
                tally.add(batch)
                for game in batch:
                    if folder is not None:
                        name = f"deal{game.deal:05d}{'-swapped' if game.swapped else ''}.toml"
                        write_text_atomic(folder / name, game.record)
                if args.plot:
                    games.extend(batch)
                advance(1)
    except simulate.BackendError as error:
        return report("simulate", [str(error)])
    summary = tally.summary()
    simulate.print_summary(summary)
    if args.json:
        write_text_atomic(Path(args.json), summary.to_json())
    if args.plot:
        simulate.plot(summary, games, Path(args.plot), rules)
    return 0


COMMANDS = ("play", "replay", "demo", "simulate", "serve")
"""The subcommands; ``play`` is the default."""


def build_parser() -> argparse.ArgumentParser:
    """The command line."""
    parser = Parser(prog="shengji", description=__doc__,
                    formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command")
    from shengji.simulate import COLUMNS
    from shengji.terminal.app import add_play_arguments, add_replay_arguments

    add_play_arguments(sub.add_parser("play", help="play in the terminal (the default)"))
    add_replay_arguments(sub.add_parser("replay", help="step through a recorded game"))
    from shengji.server.cli import add_serve_arguments

    add_serve_arguments(sub.add_parser("serve", help="play with friends in the browser"))
    demo_cmd = sub.add_parser("demo", help="deal a round and play one trick")
    demo_cmd.add_argument("--seed", type=whole_number(0, SEED_LIMIT - 1), default=None,
                          help="random seed for the deal")
    sim = sub.add_parser("simulate", help="play computer players against each other",
                         formatter_class=argparse.RawDescriptionHelpFormatter,
                         epilog="The figures reported, per player:\n" + COLUMNS)
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
    sim.add_argument("--backend", choices=("process", "ray"), default="process",
                     help="local processes (default) or a Ray cluster (pip install "
                          "'shengji[ray]'); the same results for the same seed")
    sim.add_argument("--address", help="with --backend ray: the cluster to join, e.g. "
                                       "auto or ray://head:10001 (default: a local one)")
    sim.add_argument("--no-duplicate", action="store_true",
                     help="play each deal once instead of twice with the sides swapped")
    sim.add_argument("--json", help="write the summary as JSON to this file")
    sim.add_argument("--records", help="keep every game's record in this folder")
    sim.add_argument("--plot", help="draw points and levels to this image, e.g. points.png "
                                    "(needs matplotlib)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``shengji`` command."""
    words = list(sys.argv[1:] if argv is None else argv)
    if not words or words[0] not in (*COMMANDS, "-h", "--help"):
        words.insert(0, "play")  # ``shengji`` alone (or with play's options) plays
    args = build_parser().parse_args(words)
    if args.command == "simulate":
        return simulate_main(args)
    if args.command == "serve":
        from shengji.server.cli import serve_main

        return serve_main(args)
    if args.command in ("play", "replay"):
        from shengji.terminal.app import play_main, replay_main

        return play_main(args) if args.command == "play" else replay_main(args)
    out: list[str] = []
    demo(getattr(args, "seed", None), out)
    sys.stdout.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
