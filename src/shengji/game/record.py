"""Game records: a whole match (or a game in progress) as a human-readable TOML file.

A match is deterministic from its rules, its seed and its actions, so a record
holds exactly those (plus optional player names and kinds) and replaying it
rebuilds the match, finished or not: a saved game can be resumed. The format::

    # Sheng Ji match record. Replay with shengji.game.record.load_record + replay.
    format = "shengji-record"   # always this name
    version = 1                 # the version of this format

    [match]
    seed = 42                   # the match seed: every shuffle follows from it
    max_rounds = 3              # optional: the match stops after this many rounds
    names = ["Ann", "Bo", "Cy", "Di"]        # optional, one per seat
    kinds = ["human", "bot", "bot", "bot"]   # optional, one per seat
    dealer = 0                  # optional: the first dealer (else the bidding decides)
    levels = [5, 9, 5, 9]       # optional: every seat's level at the start (15 = NT)

    [rules]                     # every option of the Rules (see config.rules_to_dict)
    players = 4
    decks = 2
    ...

    [deal]                      # optional: the first round's cards instead of a shuffle
    hands = ["2H 3H ...", ...]  # one hand per seat, in the order its cards are drawn
    kitty = "..."
    first_drawer = 1

    [play]
    actions = [                 # every action of the match, one per line, in order
      # round 1: dealer decided by the first bid; levels 2 2 2 2
      "1 draw",
      "2 draw",
      "2 bid 2H",
      ...
      # round 1 result: trump 2H; dealer 2; opponents 1, 3 took 85 points ...
    ]

Actions use the one-line notation of :mod:`shengji.game.actions` (``SEAT VERB
[CARDS]``). Comments are ignored on reading; the writer adds round headers and
result summaries as comments for people. A bad record raises :class:`RecordError`
naming the line: TOML syntax, a missing key, a bad option, an unreadable action,
or an action the game refuses.

>>> from shengji.engine.rules import Rules
>>> from shengji.game.match import play_random_match
>>> match = play_random_match(Rules(end_rank="3"), seed=5, max_rounds=1)
>>> text = write_record(match, names=["Ann", "Bo", "Cy", "Di"])
>>> again = replay(read_record(text))
>>> again.levels == match.levels and again.history == match.history
True
>>> read_record(text.replace('"0 play', '"0 plya', 1))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
shengji.game.record.RecordError: line ...: unreadable action '0 plya ...': unknown action 'plya' ...
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shengji.engine.cards import NotationError
from shengji.engine.rules import Partnership, Rules, RulesError, short_repr
from shengji.game.actions import Action, parse_action
from shengji.game.config import (
    key_lines,
    rules_from_dict,
    rules_to_toml,
    toml_error_position,
    toml_value,
)
from shengji.game.deal import Deal, DealError
from shengji.game.files import TextFileError, check_text, decode_text, read_text, write_text_atomic
from shengji.game.legal import ActionError
from shengji.game.match import Match
from shengji.game.presets import suggest
from shengji.game.round import Round, level_rank
from shengji.game.scoresheet import RoundResult

FORMAT = "shengji-record"
"""The ``format`` name every record carries."""
VERSION = 1
"""The version of the format this module writes (and the newest it reads)."""
RECORD_FILE_LIMIT = 16 << 20
"""The largest record read, in bytes (characters): 16 MiB, some thousand rounds."""
MAX_ACTION_LENGTH = 1000
"""The longest action string read (a play of a whole 8-deck hand is some 150)."""


class RecordError(ValueError):
    """A record could not be read or replayed; the message starts with ``line N:``.

    ``line`` is the line number (1-based, ``None`` when unknown) and ``reason`` the
    message without it.
    """

    def __init__(self, line: int | None, reason: str, source: str | None = None) -> None:
        where = f"line {line}: " if line is not None else ""
        prefix = f"{source}: " if source else ""
        super().__init__(f"{prefix}{where}{reason}")
        self.line = line
        self.reason = reason
        self.source = source


@dataclass(frozen=True)
class Record:
    """What a record holds: enough to rebuild the match exactly."""

    rules: Rules
    seed: int
    names: tuple[str, ...] | None
    actions: tuple[Action, ...]
    kinds: tuple[str, ...] | None = None
    max_rounds: int | None = None
    deal: Deal | None = None
    """The first round's cards, when the match started from a given deal."""
    dealer: int | None = None
    """The first dealer, when given (else the bidding decides it)."""
    levels: tuple[int, ...] | None = None
    """Every seat's level at the start, when not the start rank."""
    action_lines: tuple[int, ...] | None = field(default=None, compare=False, repr=False)
    """The line of each action in the text it was read from (for error messages)."""
    source: str | None = field(default=None, compare=False, repr=False)
    """The file it was read from, if any (for error messages)."""

    @classmethod
    def of(cls, match: Match, names: Sequence[str] | None = None,
           kinds: Sequence[str] | None = None) -> Record:
        """The record of ``match`` as it stands."""
        start = int(match.rules.first_rank)
        levels = None if all(lv == start for lv in match.start_levels) else match.start_levels
        return cls(match.rules, match.seed, _seats("names", names, match.rules),
                   tuple(match.history), _seats("kinds", kinds, match.rules),
                   match.max_rounds, match.deal, match.first_dealer, levels)

    def match(self) -> Match:
        """A new match at this record's start (no action applied yet)."""
        return Match(self.rules, seed=self.seed, max_rounds=self.max_rounds, deal=self.deal,
                     dealer=self.dealer, levels=self.levels)


def _seats(what: str, values: Sequence[str] | None, rules: Rules) -> tuple[str, ...] | None:
    if values is None:
        return None
    if isinstance(values, str) or len(values) != rules.players:
        raise ValueError(f"{what} needs one string per seat ({rules.players})")
    return tuple(str(v) for v in values)


# -- writing ------------------------------------------------------------------------------

def _levels(levels: Sequence[int]) -> str:
    return " ".join(str(level_rank(lv) or "NT") for lv in levels)


def _round_header(number: int, rnd: Round, fixed: bool) -> str:
    dealer = ("decided by the bidding" if rnd.dealer is None else f"seat {rnd.dealer}")
    levels = rnd.levels[:2] if fixed else rnd.levels
    label = "team levels" if fixed else "levels"
    return f"  # round {number}: dealer {dealer}; {label} {_levels(levels)}"


def _round_summary(number: int, rnd: Round, result: RoundResult) -> str:
    if result.redeal:
        return (f"  # round {number} result: redeal, no score; next dealer seat "
                f"{result.next_dealer}")
    change = result.change.row if result.change is not None else ""
    seats = ", ".join(map(str, result.opponents))
    text = (f"  # round {number} result: trump {rnd.trump}; dealer seat {result.dealer}; "
            f"opponents {seats} scored {result.points} ({change}); levels "
            f"{_levels(result.levels_before)} -> {_levels(result.levels)}; next dealer seat "
            f"{result.next_dealer}")
    if result.match_won_by:
        text += f"; seats {', '.join(map(str, result.match_won_by))} win the match"
    return text


def write_record(match: Match, names: Sequence[str] | None = None,
                 kinds: Sequence[str] | None = None) -> str:
    """The match (finished or in progress) as record text (TOML).

    ``names`` and ``kinds`` (e.g. ``"human"``, ``"bot"``) give one string per seat.
    """
    record = Record.of(match, names, kinds)
    out = [
        "# Sheng Ji match record (shengji-record). Replay it with shengji.game.record:",
        "# replay(load_record(path)). One action per line in the action notation",
        "# 'SEAT VERB [CARDS]'; comments are for people and ignored on reading.",
        f"format = {toml_value(FORMAT)}",
        f"version = {VERSION}",
        "",
        "[match]",
        f"seed = {record.seed}",
    ]
    if record.max_rounds is not None:
        out.append(f"max_rounds = {record.max_rounds}")
    if record.names is not None:
        out.append(f"names = {toml_value(list(record.names))}")
    if record.kinds is not None:
        out.append(f"kinds = {toml_value(list(record.kinds))}")
    if record.dealer is not None:
        out.append(f"dealer = {record.dealer}")
    if record.levels is not None:
        out.append(f"levels = {toml_value(list(record.levels))}")
    out += ["", rules_to_toml(record.rules, header="[rules]").rstrip("\n")]
    if record.deal is not None:
        out += ["", "[deal]                      # the first round's cards, in the order drawn"]
        out += [f"{key} = {toml_value(value)}" for key, value in record.deal.to_dict().items()]
    out += ["", "[play]", "actions = ["]
    out += _action_lines(record)
    out += ["]", ""]
    return "\n".join(out)


def _action_lines(record: Record) -> list[str]:
    """The actions, one per line, with round headers and results as comments (found by
    replaying the match as it goes)."""
    fixed = record.rules.partnership == Partnership.FIXED
    lines: list[str] = []
    game = record.match()
    number = 1
    lines.append(_round_header(number, game.round, fixed))
    for action in record.actions:
        rnd = game.round
        result = game.apply(action)
        lines.append(f"  {json.dumps(str(action), ensure_ascii=False)},")
        if result is not None:
            lines.append(_round_summary(number, rnd, result))
            number += 1
            if not game.is_over:
                lines.append(_round_header(number, game.round, fixed))
    if game.winners:
        lines.append(f"  # the match is over: seats {', '.join(map(str, game.winners))} win")
    elif game.is_over:
        lines.append(f"  # the match stopped after {len(game.results)} rounds (max_rounds)")
    else:
        to_move = game.to_move
        lines.append(f"  # round {number} in progress: {game.round.phase} phase, seat "
                     f"{to_move} to move")
    return lines


def save_record(match: Match, path: str | Path, names: Sequence[str] | None = None,
                kinds: Sequence[str] | None = None) -> None:
    """Write the match's record to ``path`` (UTF-8), atomically: a crash at any moment
    leaves the old file or the new one (:func:`shengji.game.files.write_text_atomic`)."""
    write_text_atomic(path, write_record(match, names, kinds))


# -- reading ------------------------------------------------------------------------------

def _action_positions(text: str, start: int) -> list[int]:
    """The line of every string in the array that opens on line ``start`` (1-based).

    A small scanner over TOML array syntax: strings (basic, literal, multi-line),
    comments, commas and whitespace.
    """
    lines: list[int] = []
    offsets = [0]
    for line in text.splitlines(keepends=True):
        offsets.append(offsets[-1] + len(line))
    pos = offsets[start - 1]
    bracket = text.find("[", text.find("=", pos))
    if bracket < 0:
        return lines
    i = bracket + 1
    n = len(text)

    def line_of(index: int) -> int:
        lo, hi = 0, len(offsets) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if offsets[mid] <= index:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1

    while i < n:
        ch = text[i]
        if ch in " \t\r\n,":
            i += 1
        elif ch == "#":
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif ch == "]":
            break
        elif text.startswith('"""', i) or text.startswith("'''", i):
            quote = text[i:i + 3]
            lines.append(line_of(i))
            end = text.find(quote, i + 3)
            i = n if end < 0 else end + 3
            while i < n and text[i] == quote[0]:
                i += 1
        elif ch == '"':
            lines.append(line_of(i))
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
            i += 1
        elif ch == "'":
            lines.append(line_of(i))
            end = text.find("'", i + 1)
            i = n if end < 0 else end + 1
        else:  # a value that is not a string: skip to the next separator
            lines.append(line_of(i))
            while i < n and text[i] not in ",]\n":
                i += 1
    return lines


class _Reader:
    """Reads the parsed TOML with line numbers for messages."""

    def __init__(self, text: str, source: str | None) -> None:
        self.text = text
        self.source = source
        try:
            self.data: dict[str, Any] = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            line, message = toml_error_position(error)
            if line is None:
                line = max(1, text.count("\n"))
            raise RecordError(line, f"TOML syntax error: {message} (a record is the TOML "
                              "file that shengji play or simulate --records writes)",
                              source) from None
        except RecursionError:  # check_text refuses deep nesting first: a backstop
            raise RecordError(None, "TOML error: lists or tables nested too deep",
                              source) from None
        except ValueError:  # tomllib's int() of a number of over 4300 digits
            raise RecordError(None, "TOML error: a number with too many digits",
                              source) from None
        self.keys, self.tables = key_lines(text)

    def error(self, line: int | None, reason: str) -> RecordError:
        return RecordError(line, reason, self.source)

    def line(self, table: str, key: str | None = None) -> int:
        if key is not None and (table, key) in self.keys:
            return self.keys[(table, key)]
        return self.tables.get(table, 1)

    def table(self, name: str) -> dict[str, Any]:
        value = self.data.get(name)
        if value is None:
            raise self.error(max(1, self.text.count("\n")), f"missing table [{name}]")
        if not isinstance(value, dict):
            raise self.error(self.line("", name), f"{name} must be a table ([{name}])")
        return value

    def get(self, table: str, key: str, kind: type | tuple[type, ...], what: str,
            required: bool = True) -> Any:
        data = self.data if table == "" else self.table(table)
        if key not in data:
            if not required:
                return None
            where = f"in [{table}]" if table else "at the top"
            raise self.error(self.line(table), f"missing key {key!r} {where} ({what})")
        value = data[key]
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
            raise self.error(self.line(table, key),
                             f"{key} must be {what}, got {short_repr(value)}")
        return value

    def check_keys(self, table: str, allowed: tuple[str, ...]) -> None:
        data = self.data if table == "" else self.table(table)
        for key in data:
            if key not in allowed:
                close = suggest(key, list(allowed))
                hint = f"; did you mean {' or '.join(map(repr, close))}?" if close else (
                    f"; keys are {', '.join(allowed)}")
                where = f"in [{table}]" if table else "at the top"
                raise self.error(self.line(table, key),
                                 f"unknown key {short_repr(key)} {where}{hint}")


def read_record(text: str | bytes, source: str | None = None) -> Record:
    """Read record text, or a record file's bytes (does not replay it: :func:`replay`
    does).

    Raises a one-line :class:`RecordError` naming the line for TOML syntax errors,
    missing or unknown keys, bad rules options and unreadable actions; a text over
    :data:`RECORD_FILE_LIMIT`, bytes that are not UTF-8, a NUL character or nesting too
    deep are refused before parsing.
    """
    try:
        if isinstance(text, bytes):
            text = decode_text(text, limit=RECORD_FILE_LIMIT)
        else:
            check_text(text, limit=RECORD_FILE_LIMIT)
    except TextFileError as error:
        raise RecordError(None, str(error), source) from None
    reader = _Reader(text, source)
    reader.check_keys("", ("format", "version", "match", "rules", "deal", "play"))
    fmt = reader.get("", "format", str, f'the format name "{FORMAT}"')
    if fmt != FORMAT:
        raise reader.error(reader.line("", "format"),
                           f"format is {short_repr(fmt)}, not a {FORMAT!r} record")
    version = reader.get("", "version", int, "an integer")
    if not 1 <= version <= VERSION:
        raise reader.error(reader.line("", "version"),
                           f"record version {short_repr(version)} is not supported (this "
                           f"program reads versions 1 to {VERSION})")
    reader.check_keys("match", ("seed", "max_rounds", "names", "kinds", "dealer", "levels"))
    seed = reader.get("match", "seed", int, "an integer")
    max_rounds = reader.get("match", "max_rounds", int, "a positive integer", required=False)
    if max_rounds is not None and max_rounds < 1:
        raise reader.error(reader.line("match", "max_rounds"), "max_rounds must be positive")
    rules_table = reader.table("rules")
    try:
        rules = rules_from_dict(rules_table)
    except RulesError as error:
        line = reader.line("rules", error.option)
        raise reader.error(line, f"bad rules: {error}") from None
    seats: dict[str, tuple[str, ...] | None] = {}
    for key in ("names", "kinds"):
        value = reader.get("match", key, list, "a list of strings, one per seat",
                           required=False)
        if value is not None and (len(value) != rules.players or not all(
                isinstance(v, str) for v in value)):
            raise reader.error(reader.line("match", key),
                               f"{key} must be a list of {rules.players} strings, one per seat")
        seats[key] = tuple(value) if value is not None else None
    dealer, levels, deal = _start(reader, rules)
    reader.check_keys("play", ("actions",))
    raw = reader.get("play", "actions", list, "a list of action strings")
    start = reader.line("play", "actions")
    lines = _action_positions(text, start)
    if len(lines) != len(raw):  # the scanner lost its way: point at the array
        lines = [start] * len(raw)
    actions: list[Action] = []
    for item, line in zip(raw, lines, strict=True):
        if not isinstance(item, str):
            raise reader.error(line, f"an action must be a string in the action notation, "
                                     f"e.g. \"0 play KS\", got {short_repr(item)}")
        if len(item) > MAX_ACTION_LENGTH:
            raise reader.error(line, f"an action of {len(item)} characters is too long (at "
                                     f"most {MAX_ACTION_LENGTH})")
        try:
            actions.append(parse_action(item))
        except NotationError as error:
            raise reader.error(line, f"unreadable action {short_repr(item)}: {error}") from None
    return Record(rules, seed, seats["names"], tuple(actions), seats["kinds"], max_rounds,
                  deal, dealer, levels, tuple(lines), source)


def _start(reader: _Reader, rules: Rules) -> tuple[int | None, tuple[int, ...] | None,
                                                   Deal | None]:
    """The optional start position: ``dealer`` and ``levels`` in [match], the [deal]
    table; each checked against the rules."""
    dealer = reader.get("match", "dealer", int, f"a seat 0..{rules.players - 1}",
                        required=False)
    if dealer is not None and not 0 <= dealer < rules.players:
        raise reader.error(reader.line("match", "dealer"),
                           f"dealer must be a seat 0..{rules.players - 1}, got {dealer}")
    raw_levels = reader.get("match", "levels", list, "a list of levels, one per seat",
                            required=False)
    levels = tuple(raw_levels) if raw_levels is not None else None
    try:
        Match(rules, seed=0, levels=levels)  # checks the levels
    except ValueError as error:
        raise reader.error(reader.line("match", "levels"), str(error)) from None
    deal = None
    if "deal" in reader.data:
        table = reader.table("deal")
        try:
            deal = Deal.from_dict(table)
            Match(rules, seed=0, deal=deal, dealer=dealer, levels=levels)  # checks the cards
        except DealError as error:
            raise reader.error(reader.line("deal"), f"bad deal: {error}") from None
    return dealer, levels, deal


def load_record(path: str | Path) -> Record:
    """Read the record file at ``path`` (errors name the file and the line; a file over
    :data:`RECORD_FILE_LIMIT`, not UTF-8 or holding a NUL byte is refused unread)."""
    source = str(path).replace("\0", "\\0")
    try:
        text = read_text(path, limit=RECORD_FILE_LIMIT)
    except OSError as error:
        raise RecordError(None, f"cannot read record: {error.strerror}", source) from None
    except TextFileError as error:
        raise RecordError(None, str(error), source) from None
    return read_record(text, source=source)


def replay(record: Record) -> Match:
    """The match rebuilt by applying every action of ``record`` in order.

    Works for unfinished games too (the match is left where the record ends, so play
    can go on). Raises :class:`RecordError` naming the line of the first action the
    game refuses, and why.
    """
    match = record.match()
    for index, action in enumerate(record.actions):
        line = record.action_lines[index] if record.action_lines is not None else None
        if match.is_over:
            why: str | None = "the match is over"
        else:
            why = match.round.reason(action)
        if why is None:
            try:
                match.apply(action)
            except ActionError as error:  # pragma: no cover - reason() said yes
                why = str(error)
        if why is not None:
            where = "" if line is not None else f"action {index + 1}: "
            raise RecordError(line, f"{where}action {str(action)!r} refused: {why}",
                              record.source)
    return match
