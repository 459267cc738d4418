"""What the ``shengji`` commands share to check their arguments before any work starts: the
argparse types, the parser whose errors are one line, the problems of output paths, the
one-line report and the rules named on the command line (a preset or a rules file)."""

from __future__ import annotations

import argparse
import math
import os
import re
import stat
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn

from shengji.engine.rules import Rules
from shengji.game.files import file_kind, longest_name

TABLE_SIZES = (2, 12)
"""The table sizes ``--table`` accepts (the rules may narrow them: fixed partnerships need
an even number)."""

SEED_LIMIT = 2**63
"""Seeds run from 0 to ``SEED_LIMIT - 1`` (a record stores the seed as a TOML integer)."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr and exit with status 2."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.commands: dict[str, argparse.ArgumentParser] = {}
        """The subcommands' parsers, by name (filled by whoever adds them)."""

    def parse_command(self, words: Sequence[str]) -> argparse.Namespace:
        """``parse_args`` where a word no option takes is refused by the subcommand that
        was given it (``shengji analyze: unrecognized arguments: ...``)."""
        args, extra = self.parse_known_args(words)
        if extra:
            chosen = self.commands.get(getattr(args, "command", None) or "", self)
            chosen.error(f"unrecognized arguments: {' '.join(extra)}")
        return args

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


def _figure(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:g}"


def number(low: float, high: float, *, above: bool = False,
           unit: str = "") -> Callable[[str], float]:
    """An argparse type: a finite number from ``low`` (more than ``low`` if ``above``) to
    ``high``, of ``unit`` (e.g. ``seconds``); NaN and infinities are refused."""
    tail = f" {unit}" if unit else ""
    allowed = (f"more than {_figure(low)} and at most {_figure(high)}{tail}" if above
               else f"from {_figure(low)} to {_figure(high)}{tail}")

    def convert(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"expected a number {allowed}, got {text!r}") from None
        if not (math.isfinite(value) and low <= value <= high) or (above and value == low):
            raise argparse.ArgumentTypeError(f"must be {allowed}, got {text.strip()}")
        return value

    return convert


seconds = number(0, 10, unit="seconds")
"""An argparse type: a number of seconds from 0 to 10."""


def plain(text: str) -> str:
    """A docstring as plain text for ``--help``: ````code```` loses its backticks."""
    return re.sub(r"``(.+?)``", r"\1", text)


def _writable_folder(folder: Path) -> str | None:
    """Why files cannot be created in ``folder`` (an existing path), or ``None``."""
    if not folder.is_dir():
        return f"{folder} is not a folder"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"cannot write in the folder {folder}"
    return None


def output_file_problem(option: str, name: str) -> str | None:
    """Why the file ``name`` given to ``option`` cannot be written, or ``None``."""
    if not name:
        return f"{option} needs a file name"
    path = Path(name)
    try:
        folder_named = path.is_dir()
    except OSError as error:  # a name the system refuses outright (too long)
        return f"{option} {name}: {error.strerror or error}"
    if folder_named:
        return f"{option} {name}: that is a folder; name a file in it"
    try:
        mode: int | None = os.stat(path).st_mode
    except (OSError, ValueError):  # missing (or unnamable): the folder decides
        mode = None
    if mode is not None and not stat.S_ISREG(mode):  # a pipe, a device: never replaced
        return f"{option} {name}: that is {file_kind(mode)}, not a regular file"
    folder = path.parent
    if not folder.exists():
        return f"{option} {name}: the folder {folder} does not exist"
    longest = longest_name(folder)
    if len(os.fsencode(path.name)) > longest:
        return f"{option} {name}: the file name is too long (at most {longest} bytes here)"
    why = _writable_folder(folder)
    if why is None and path.exists() and not os.access(path, os.W_OK):
        why = f"cannot overwrite {name}"
    return f"{option} {name}: {why}" if why else None


def output_folder_problem(option: str, name: str) -> str | None:
    """Why the folder ``name`` given to ``option`` cannot be written (or created)."""
    path = Path(name)
    if path.exists() and not path.is_dir():
        mode = path.stat().st_mode
        kind = "a file" if stat.S_ISREG(mode) else file_kind(mode)
        return f"{option} {name}: that is {kind}, not a folder"
    existing = path
    while not existing.exists():  # the folders to create hang off an existing one
        existing = existing.parent
    why = _writable_folder(existing)
    return f"{option} {name}: {why}" if why else None


NEEDS_PROGRAMS = frozenset(("pgf",))
"""Image formats matplotlib draws only with other programs (LaTeX): not offered."""


def plot_problem(name: str) -> str | None:
    """Why ``--plot name`` cannot be drawn (matplotlib missing, unknown image format)."""
    try:
        from matplotlib.backend_bases import FigureCanvasBase
    except ImportError:
        return ('--plot needs matplotlib: pip install "shengji[plot]" (or pip install -e '
                '".[plot]" in a clone)')
    if not name:
        return "--plot needs a file name, e.g. points.png"
    formats = sorted(set(FigureCanvasBase.get_supported_filetypes()) - NEEDS_PROGRAMS)
    suffix = Path(name).suffix.lower().lstrip(".")
    if suffix not in formats:
        return (f"--plot {name}: name the image with its format, e.g. points.png "
                f"({', '.join(formats)})")
    return output_file_problem("--plot", name)


def _same_file(one: str, other: str) -> bool:
    """Whether two names name one file (existing, or to be created)."""
    try:
        return os.path.samefile(one, other)
    except (OSError, ValueError):  # one is yet to be made: compare where they lead
        return os.path.realpath(one) == os.path.realpath(other)


def clashing_files(inputs: Sequence[tuple[str, str | None]],
                   outputs: Sequence[tuple[str, str | None]]) -> list[str]:
    """The outputs (option, file name; ``None``: not given) that name a file an input or
    an earlier output names too: writing them would destroy it. One line each."""
    problems = []
    named = [(option, name) for option, name in inputs if name]
    for option, name in outputs:
        if not name:
            continue
        other = next((o for o, n in named if _same_file(n, name)), None)
        if other is not None:
            problems.append(f"{option} {name}: that is the file of {other}; name another")
        named.append((option, name))
    return problems


def player_names(text: str, seats: int | None = None) -> list[str]:
    """The computer players ``--players`` names (comma-separated, repeated round the
    seats), checked: one or more, each a kind of :data:`~shengji.players.PLAYER_KINDS`, at
    most ``seats`` of them where the seats are known; a ``ValueError`` says what is wrong."""
    from shengji.players import PLAYER_KINDS

    choose = f"choose from {', '.join(PLAYER_KINDS)}"
    names = [p.strip() for p in text.split(",")]
    if not any(names):
        raise ValueError(f"--players needs player names; {choose}")
    if not all(names):
        raise ValueError(f"--players {text}: a name is missing between commas; {choose}")
    unknown = next((n for n in names if n not in PLAYER_KINDS), None)
    if unknown is not None:
        raise ValueError(f"--players: unknown player {unknown!r}; {choose}")
    if seats is not None and len(names) > seats:
        raise ValueError(f"--players names {len(names)} players for {seats} computer "
                         f"seat{'s' if seats != 1 else ''}: name at most {seats} (they are "
                         "repeated round the seats)")
    return names


def report(command: str, problems: Sequence[str]) -> int:
    """Print each problem on its own line (``shengji CMD: ...``); the exit status 2."""
    for problem in problems:
        print(f"shengji {command}: {problem}", file=sys.stderr)
    return 2


def rules_from_args(preset_name: str, rules_file: str | None, players: int | None) -> Rules:
    """The rules chosen on the command line (a preset, or a rules file, whose table size
    ``players`` (``--table``) may only repeat); a ``ValueError`` says what is wrong."""
    from shengji.game.config import load_rules
    from shengji.game.presets import preset

    if rules_file:
        rules = load_rules(Path(rules_file))
        if players is not None and players != rules.players:
            raise ValueError(f"--table {players}: the rules file {rules_file} is for "
                             f"{rules.players} players; leave --table out, or change "
                             f"players in the file")
        return rules
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
