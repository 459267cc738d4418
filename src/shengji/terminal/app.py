"""The ``play`` and ``replay`` commands: arguments, starting or resuming a game."""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from rich.console import Console

from shengji.engine.rules import Rules
from shengji.game.match import Match
from shengji.game.presets import PRESETS, preset
from shengji.game.record import Record, RecordError, load_record, replay
from shengji.players import PLAYER_KINDS, make_player
from shengji.players.base import Player
from shengji.terminal.prompt import PROMPTS, Prompter, Quit
from shengji.terminal.replay import replay_file
from shengji.terminal.session import Session

DEFAULT_RECORD = "shengji-game.toml"
"""Where ``shengji play`` records the game unless told otherwise."""


def add_play_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``shengji play``."""
    parser.add_argument("--preset", default="tractor",
                        help=f"rules preset: {', '.join(PRESETS)} (default: tractor)")
    parser.add_argument("--rules", help="a TOML or JSON rules file (overrides --preset)")
    parser.add_argument("--table", type=int, help="number of players (e.g. finding-friends)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the match (the deals)")
    parser.add_argument("--players", default="heuristic",
                        help="computer players for the other seats, comma-separated, repeated "
                             f"round the table ({', '.join(PLAYER_KINDS)})")
    parser.add_argument("--seat", type=int, default=None, help="your seat (default 0)")
    parser.add_argument("--rounds", type=int, default=None,
                        help="stop after this many rounds (default: play the whole match)")
    parser.add_argument("--record", help=f"record the game to this file (default "
                                         f"{DEFAULT_RECORD})")
    parser.add_argument("--resume", metavar="FILE", help="continue the game recorded in FILE")
    parser.add_argument("--fast", action="store_true", help="no pause after computer moves")
    parser.add_argument("--delay", type=float, default=0.6,
                        help="seconds to pause after each computer move (default 0.6)")
    parser.add_argument("--ascii", action="store_true", help="suits as letters (KS), not ♠")


def add_replay_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``shengji replay``."""
    parser.add_argument("file", help="a game record (shengji play writes one)")
    parser.add_argument("--all", action="store_true", help="show everything without pausing")
    parser.add_argument("--ascii", action="store_true", help="suits as letters (KS), not ♠")


def _console() -> Console:
    return Console(highlight=False)


def _unicode(console: Console, ascii_only: bool) -> bool:
    """Whether to draw suits as symbols (the terminal can show them, and --ascii is off)."""
    try:
        "♠♥♦♣◀━×·".encode(console.encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        if hasattr(sys.stdout, "reconfigure"):
            sys.stdout.reconfigure(errors="replace")  # never fail on a stray symbol
        return False
    return not ascii_only


def preset_name(rules: Rules) -> str:
    """The name of the preset ``rules`` are (``""`` if none)."""
    for name in PRESETS:
        if preset(name) == rules:
            return name
    try:  # Finding Friends at another table size
        if preset("finding-friends", players=rules.players) == rules:
            return "finding-friends"
    except ValueError:
        pass
    return ""


def _kinds(args: argparse.Namespace, players: int, me: int) -> list[str]:
    names = [p.strip() for p in args.players.split(",") if p.strip()] or ["heuristic"]
    for name in names:
        if name not in PLAYER_KINDS:
            raise ValueError(f"unknown player {name!r}; choose from {', '.join(PLAYER_KINDS)}")
    others = [s for s in range(players) if s != me]
    kinds = ["human"] * players
    for i, seat in enumerate(others):
        kinds[seat] = names[i % len(names)]
    return kinds


def _unfinished(path: Path) -> Match | None:
    """The game in progress recorded at ``path``, if there is one."""
    try:
        match = replay(load_record(path))
    except (RecordError, ValueError):
        return None
    return None if match.is_over else match


def play_main(args: argparse.Namespace) -> int:
    """Run ``shengji play``."""
    console = _console()
    unicode = _unicode(console, args.ascii)
    record_path = Path(args.record or args.resume or DEFAULT_RECORD)
    prompter = Prompter(flush=console.file.flush)
    resume = args.resume
    try:
        if not resume and record_path.exists() and _unfinished(record_path) is not None:
            console.print(f"A game in progress is saved in {record_path}. Resume it? "
                          "(Enter or y: resume; n: start a new game, overwriting it)",
                          markup=False)
            answer = prompter.ask(PROMPTS["resume"]).strip().lower()
            if answer in ("", "y", "yes"):
                resume = str(record_path)
    except (Quit, KeyboardInterrupt):
        return 0
    kinds: list[str]
    if resume:
        try:
            record = load_record(resume)
            match = replay(record)
        except RecordError as error:
            print(f"shengji play: {error}", file=sys.stderr)
            return 2
        n = record.rules.players
        saved = list(record.kinds or ())
        me = args.seat if args.seat is not None else (
            saved.index("human") if "human" in saved else 0)
        kinds = [k if k in PLAYER_KINDS else "heuristic" for k in saved] or ["heuristic"] * n
        kinds[me] = "human"
        label = preset_name(record.rules)
        console.print(f"Resuming {resume}: round {len(match.results) + 1}, "
                      f"{len(match.history)} actions so far.", markup=False)
    else:
        from shengji.cli import rules_from_args

        try:
            rules = rules_from_args(args.preset, args.rules, args.table)
            seed = args.seed if args.seed is not None else random.randrange(1_000_000)
            match = Match(rules, seed=seed, max_rounds=args.rounds)
            me = args.seat if args.seat is not None else 0
            if not 0 <= me < rules.players:
                raise ValueError(f"--seat must be a seat from 0 to {rules.players - 1}")
            kinds = _kinds(args, rules.players, me)
        except ValueError as error:
            print(f"shengji play: {error}", file=sys.stderr)
            return 2
        label = Path(args.rules).stem if args.rules else args.preset
        console.print(f"New game: {label}, seed {seed}. Recording to {record_path}.",
                      markup=False)
        console.print("Type ? at any prompt for what the rules require and a suggestion, "
                      "help for more.", markup=False)
    n = match.rules.players
    if not 0 <= me < n:
        print(f"shengji play: --seat must be a seat from 0 to {n - 1}", file=sys.stderr)
        return 2
    players: list[Player | None] = [
        None if s == me else make_player(kinds[s], seed=match.seed + s) for s in range(n)]
    names = ["You" if s == me else f"Seat {s}" for s in range(n)]
    delay = 0.0 if args.fast or not console.is_terminal else max(0.0, args.delay)
    session = Session(match, me=me, players=players, names=names, kinds=kinds,
                      record=record_path, console=console, prompter=prompter, delay=delay,
                      label=label, unicode=unicode)
    return session.run()


def replay_main(args: argparse.Namespace) -> int:
    """Run ``shengji replay``."""
    console = _console()
    try:
        record: Record = load_record(args.file)
    except RecordError as error:
        print(f"shengji replay: {error}", file=sys.stderr)
        return 2
    step = not args.all and sys.stdin.isatty()
    try:
        return replay_file(record, console=console, step=step,
                           unicode=_unicode(console, args.ascii), source=args.file)
    except KeyboardInterrupt:
        return 0
