"""The ``play`` and ``replay`` commands: arguments, starting or resuming a game."""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console

from shengji.arguments import (
    SEED_LIMIT,
    TABLE_SIZES,
    number,
    player_names,
    seconds,
    whole_number,
)
from shengji.engine.rules import Rules
from shengji.game.match import Match
from shengji.game.presets import PRESETS, preset
from shengji.game.record import Record, RecordError, load_record, replay
from shengji.players import (
    PLAYER_KINDS,
    THINK_LIMITS,
    THINKING_KINDS,
    make_player,
    model_note,
    player_label,
    think_worlds,
)
from shengji.players.base import Player
from shengji.players.search import TIME_BUDGET
from shengji.terminal.prompt import PROMPTS, Prompter, Quit
from shengji.terminal.replay import replay_file
from shengji.terminal.session import Session

DEFAULT_RECORD = "shengji-game.toml"
"""Where ``shengji play`` records the game unless told otherwise."""

DEFAULT_PLAYER = "search"
"""The computer players of ``shengji play`` unless ``--players`` names others: the search
player (median decision time within its 1 s budget); ``--players heuristic`` is quicker."""


GAME_OPTIONS = ("preset", "rules", "table", "seed", "players", "seat", "rounds")
"""The options that choose the game (given, they start a new game rather than resume)."""


def add_play_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``shengji play``."""
    from shengji.game.options_doc import options_epilog

    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = options_epilog()
    parser.add_argument("--preset", help=f"rules preset: {', '.join(PRESETS)} (default: tractor)")
    parser.add_argument("--rules", help="a TOML or JSON rules file (overrides --preset)")
    parser.add_argument("--table", type=whole_number(*TABLE_SIZES),
                        help="number of players, 2 to 12 (e.g. finding-friends)")
    parser.add_argument("--seed", type=whole_number(0, SEED_LIMIT - 1), default=None,
                        help="seed of the match (the deals)")
    parser.add_argument("--players",
                        help="computer players for the other seats, comma-separated, repeated "
                             f"round the table ({', '.join(PLAYER_KINDS)}; default "
                             f"{DEFAULT_PLAYER}, up to a second a move; heuristic plays at "
                             "once)")
    parser.add_argument("--hints", default="heuristic", metavar="KIND",
                        help="the computer player that makes the suggestions of ? "
                             f"({', '.join(PLAYER_KINDS)}; default heuristic, at once; "
                             "search thinks up to --hint-time)")
    parser.add_argument("--hint-time", type=number(*THINK_LIMITS, unit="seconds"),
                        default=None, metavar="SECONDS",
                        help="seconds the search player may think per suggestion, "
                             f"{THINK_LIMITS[0]:g} to {THINK_LIMITS[1]:g} (default "
                             f"{TIME_BUDGET:g}; up to {think_worlds(1)} sampled deals a "
                             "second)")
    parser.add_argument("--seat", type=whole_number(0), default=None,
                        help="your seat (default 0)")
    parser.add_argument("--rounds", type=whole_number(1), default=None,
                        help="stop after this many rounds (default: play the whole match)")
    parser.add_argument("--record", help=f"record the game to this file (default "
                                         f"{DEFAULT_RECORD})")
    parser.add_argument("--resume", metavar="FILE", help="continue the game recorded in FILE")
    parser.add_argument("--fast", action="store_true", help="no pause after computer moves")
    parser.add_argument("--delay", type=seconds, default=0.6,
                        help="seconds to pause after each computer move, 0 to 10 (default 0.6)")
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


def _kinds(names_text: str | None, players: int, me: int) -> list[str]:
    """Each seat's player: ``me`` the human, the others those ``--players`` names (default
    :data:`DEFAULT_PLAYER`) round the table; a ``ValueError`` says what is wrong."""
    others = [s for s in range(players) if s != me]
    names = ([DEFAULT_PLAYER] if names_text is None
             else player_names(names_text, len(others)))
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


@dataclass
class TerminalGame:
    """The game ``shengji play`` is about to play."""

    match: Match
    me: int
    kinds: list[str]
    label: str


def _new_game(args: argparse.Namespace, problems: list[str]) -> TerminalGame | None:
    """The new game the options ask for; what is wrong with them goes to ``problems``."""
    from shengji.arguments import rules_from_args

    try:
        rules = rules_from_args(args.preset or "tractor", args.rules, args.table)
    except ValueError as error:
        problems.append(str(error))
        if args.players is not None:  # the names alone can still be checked
            try:
                player_names(args.players)
            except ValueError as names_error:
                problems.append(str(names_error))
        return None
    me = args.seat if args.seat is not None else 0
    if not 0 <= me < rules.players:
        problems.append(f"--seat must be a seat from 0 to {rules.players - 1}, got {me}")
        me = 0
    try:
        kinds = _kinds(args.players, rules.players, me)
    except ValueError as error:
        problems.append(str(error))
    if problems:
        return None
    seed = args.seed if args.seed is not None else random.randrange(1_000_000)
    label = Path(args.rules).stem if args.rules else (args.preset or "tractor")
    return TerminalGame(Match(rules, seed=seed, max_rounds=args.rounds), me, kinds, label)


def _resumed(args: argparse.Namespace, path: str, problems: list[str]) -> TerminalGame | None:
    """The game recorded in ``path``, with ``--seat`` and ``--players`` applied."""
    try:
        record = load_record(path)
        match = replay(record)
    except (RecordError, OSError) as error:
        problems.append(str(error))
        return None
    n = record.rules.players
    saved = list(record.kinds or ())
    me = args.seat if args.seat is not None else (
        saved.index("human") if "human" in saved else 0)
    if not 0 <= me < n:
        problems.append(f"--seat must be a seat from 0 to {n - 1}, got {me}")
        return None
    if args.players is not None:
        try:
            kinds = _kinds(args.players, n, me)
        except ValueError as error:
            problems.append(str(error))
            return None
    else:
        kinds = [k if k in PLAYER_KINDS else "heuristic" for k in saved] or ["heuristic"] * n
        kinds[me] = "human"
    return TerminalGame(match, me, kinds, preset_name(record.rules))


def play_main(args: argparse.Namespace) -> int:
    """Run ``shengji play``: check every option first, then start, resume or ask."""
    from shengji.arguments import clashing_files, output_file_problem, report

    console = _console()
    unicode = _unicode(console, args.ascii)
    given = [f"--{name}" for name in GAME_OPTIONS if getattr(args, name) is not None]
    problems: list[str] = []
    record_name = args.record or args.resume or DEFAULT_RECORD
    unwritable = output_file_problem("--record", record_name)
    if unwritable and (args.record or not args.resume):
        problems.append(unwritable)
    problems += clashing_files([("--rules", args.rules)], [("--record", record_name)])
    if args.hints not in PLAYER_KINDS:
        problems.append(f"--hints: unknown player {args.hints!r}; choose from "
                        f"{', '.join(PLAYER_KINDS)}")
    elif args.hint_time is not None and args.hints not in THINKING_KINDS:
        problems.append(f"--hint-time is for the players that think ("
                        f"{', '.join(sorted(THINKING_KINDS))}): --hints {args.hints} "
                        "suggests at once")
    game: TerminalGame | None = None
    if args.resume:
        fixed = [g for g in given if g not in ("--seat", "--players")]
        if fixed:
            problems.append(f"--resume continues the recorded game as it was: "
                            f"{', '.join(fixed)} cannot change it")
        game = _resumed(args, args.resume, problems)
    else:
        game = _new_game(args, problems)
    if problems or game is None:
        return report("play", problems)
    record_path = Path(record_name)
    resuming = bool(args.resume)
    saved = None if args.resume or not record_path.exists() else _unfinished(record_path)
    if saved is not None:
        try:
            choice = _ask_resume(console, Prompter(flush=console.file.flush), record_path,
                                 saved, game if given else None)
        except (Quit, KeyboardInterrupt):
            return 0
        if choice == "quit":
            return 0
        if choice == "resume":
            game = _resumed(args, str(record_path), problems)
            if game is None:
                return report("play", problems)
            resuming = True
    match, me, kinds = game.match, game.me, game.kinds
    if resuming:
        console.print(f"Resuming {record_path}: round {len(match.results) + 1}, "
                      f"{len(match.history)} actions so far.", markup=False)
    else:
        console.print(f"New game: {game.label}, seed {match.seed}. Recording to {record_path}.",
                      markup=False)
        console.print("Type ? at any prompt for what the rules require and a suggestion, "
                      "help for more.", markup=False)
    for line in model_notes(game.kinds, args.hints, match.rules):
        console.print(line, markup=False)
    n = match.rules.players
    players: list[Player | None] = [
        None if s == me else make_player(kinds[s], seed=match.seed + s) for s in range(n)]
    names = ["You" if s == me else f"Seat {s}" for s in range(n)]
    delay = 0.0 if args.fast or not console.is_terminal else args.delay
    session = Session(match, me=me, players=players, names=names, kinds=kinds,
                      record=record_path, console=console, prompter=Prompter(
                          flush=console.file.flush), delay=delay, label=game.label,
                      unicode=unicode, hinter=make_player(args.hints, seed=match.seed,
                                                          think=args.hint_time),
                      hint_by=player_label(args.hints, args.hint_time))
    return session.run()


def model_notes(kinds: Sequence[str], hints: str, rules: Rules) -> list[str]:
    """The notes a game starts with where the seats' players or the suggestions' (``hints``)
    would use a learned model and none fits ``rules`` (:func:`~shengji.players.model_note`)."""
    lines = []
    for kind in dict.fromkeys(k for k in kinds if k != "human"):
        note = model_note(kind, rules)
        if note is not None:
            lines.append(f"Note: {note}.")
    note = model_note(hints, rules)
    if note is not None and hints not in kinds:
        lines.append(f"Note (suggestions): {note}.")
    return lines


def _ask_resume(console: Console, prompter: Prompter, path: Path, saved: Match,
                asked: TerminalGame | None) -> str:
    """Offer the game in progress saved at ``path``: ``"resume"``, ``"new"`` or ``"quit"``.
    With ``asked`` (the person gave options) Enter starts that game; without, Enter resumes."""
    console.print(f"A game in progress is saved in {path} (round {len(saved.results) + 1}, "
                  f"{len(saved.history)} actions).", markup=False)
    if asked is not None:
        console.print(f"Start the new game you asked for ({asked.label}, seed "
                      f"{asked.match.seed}), overwriting it?", markup=False)
        console.print("Enter or y: new game · r: resume the saved game instead · q: quit",
                      markup=False)
        answers = {"": "new", "y": "new", "yes": "new", "n": "resume", "r": "resume",
                   "resume": "resume"}
    else:
        console.print("Resume it? Enter or y: resume · n: start a new game, overwriting it · "
                      "q: quit", markup=False)
        answers = {"": "resume", "y": "resume", "yes": "resume", "r": "resume",
                   "resume": "resume", "n": "new", "no": "new", "new": "new"}
    answers.update({"q": "quit", "quit": "quit"})
    while True:
        answer = prompter.ask(PROMPTS["new" if asked is not None else "resume"])
        answer = answer.strip().lower()
        if answer in answers:
            return answers[answer]
        console.print("Answer " + ("Enter, r or q." if asked is not None else "Enter, n or q."),
                      markup=False)


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
