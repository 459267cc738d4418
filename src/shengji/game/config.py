"""Rules from files and text: TOML or JSON, a preset plus option overrides.

A rules file is one table (TOML) or object (JSON). ``preset`` names a preset
(:mod:`shengji.game.presets`, default ``tractor``); every other key is an option
of :class:`~shengji.engine.rules.Rules`. Enum options are strings
(``tuple_follow = "protect"``), ranks are strings (``end_rank = "A"``,
``mandatory_ranks = ["5", "10", "K"]``), suits are letters, tuples are lists
(``custom_levels = [[0, 2], [5, 1], [40, 0]]``)::

    # rules.toml
    preset = "finding-friends"
    players = 8
    fluid_bidders = "not-lost"

>>> r = load_rules('preset = "finding-friends"\\nplayers = 8')
>>> r.players, r.decks, r.friend_count
(8, 3, 3)
>>> load_rules('{"decks": 3, "tuple_follow": "protect"}').tuple_follow
<TupleFollow.PROTECT: 'protect'>
>>> load_rules("player = 6")
Traceback (most recent call last):
...
shengji.game.presets.OptionError: line 1: unknown option 'player'; did you mean 'players'?
>>> load_rules('players = "four"')
Traceback (most recent call last):
...
shengji.game.presets.OptionError: line 1: players expects an integer (e.g. players = 4), got 'four'

:func:`rules_to_dict` writes every option TOML/JSON-safe and
:func:`rules_from_dict` reads it back:

>>> rules_from_dict(rules_to_dict(Rules(second_rank="2", mandatory_ranks=("10",)))).second_rank
<Rank.TWO: 2>
"""

from __future__ import annotations

import json
import re
import tomllib
import types
import typing
from collections.abc import Mapping
from enum import Enum, StrEnum
from pathlib import Path
from typing import Any

from shengji.engine.cards import Rank, Suit
from shengji.engine.rules import FLUID_OVERBIDS, Rules, RulesError, short_repr
from shengji.game.files import TextFileError, check_text, decode_text, read_text
from shengji.game.presets import OPTION_NAMES, OptionError, preset, suggest, unknown_option

__all__ = [
    "RULES_FILE_LIMIT",
    "OptionError",
    "load_rules",
    "parse_rules_text",
    "rules_from_dict",
    "rules_to_dict",
    "rules_to_toml",
    "toml_error_position",
    "toml_value",
]

RULES_FILE_LIMIT = 1 << 20
"""The largest rules file (or text) read, in bytes (characters): 1 MiB."""

_HINTS: dict[str, Any] = typing.get_type_hints(Rules)

_EXAMPLES: dict[str, str] = {
    "players": "4", "decks": "2", "kitty": "8", "target": "80", "friends": "2",
    "start_rank": '"2"', "end_rank": '"A"', "second_rank": '"2"',
    "mandatory_ranks": '["5", "10", "K"]', "removed_ranks": '["2", "3"]',
    "rank_suit_order": '["H", "S", "C", "D"]',
    "custom_levels": "[[0, 2], [5, 1], [40, 0], [80, -1]]",
    "fluid_overbid": '["own-rank", "maker-rank"]',
}


def _example(name: str, hint: Any) -> str:
    if name in _EXAMPLES:
        return f" (e.g. {name} = {_EXAMPLES[name]})"
    if hint is bool:
        return f" (e.g. {name} = true)"
    if hint is int:
        return f" (e.g. {name} = 2)"
    return ""


def _type_error(name: str, hint: Any, what: str, value: object) -> OptionError:
    return OptionError(f"{name} expects {what}{_example(name, hint)}, got {short_repr(value)}",
                       name)


def _convert(name: str, value: object, hint: Any) -> object:
    """Check and convert one option value read from TOML/JSON to what Rules takes."""
    origin = typing.get_origin(hint)
    if origin in (types.UnionType, typing.Union):
        inner = [a for a in typing.get_args(hint) if a is not type(None)]
        if value is None:
            return None
        return _convert(name, value, inner[0])
    if hint is bool:
        if not isinstance(value, bool):
            raise _type_error(name, hint, "true or false", value)
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int | float) or (
                isinstance(value, float) and not value.is_integer()):
            raise _type_error(name, hint, "an integer", value)
        return int(value)
    if hint is Rank:
        if isinstance(value, bool) or not isinstance(value, str | int):
            raise _type_error(name, hint, 'a rank ("2".."10", "J", "Q", "K", "A")', value)
        try:
            return Rank.parse(str(value))
        except ValueError:
            raise _type_error(name, hint, 'a rank ("2".."10", "J", "Q", "K", "A")',
                              value) from None
    if hint is Suit:
        if not isinstance(value, str):
            raise _type_error(name, hint, 'a suit letter ("C", "D", "H", "S")', value)
        try:
            return Suit.parse(value)
        except ValueError:
            raise _type_error(name, hint, 'a suit letter ("C", "D", "H", "S")', value) from None
    if isinstance(hint, type) and issubclass(hint, StrEnum):
        allowed = [str(v) for v in hint]
        if not isinstance(value, str):
            raise _type_error(name, hint, "one of " + ", ".join(map(repr, allowed)), value)
        if value not in allowed:
            close = suggest(value, allowed)
            hint_text = f" (did you mean {' or '.join(map(repr, close))}?)" if close else ""
            choices = ", ".join(map(repr, allowed))
            raise OptionError(f"{name}={short_repr(value)} is not allowed{hint_text}; use one "
                              f"of {choices}", name)
        return value
    if hint is str:
        if not isinstance(value, str):
            raise _type_error(name, hint, "a string", value)
        if name == "fluid_overbid" and value not in FLUID_OVERBIDS:
            close = suggest(value, list(FLUID_OVERBIDS))
            hint_text = f" (did you mean {' or '.join(map(repr, close))}?)" if close else ""
            raise OptionError(f"fluid_overbid: {short_repr(value)} is not an overbid"
                              f"{hint_text}; use " + ", ".join(map(repr, FLUID_OVERBIDS)), name)
        return value
    if origin is tuple:
        args = typing.get_args(hint)
        if not isinstance(value, list | tuple):
            raise _type_error(name, hint, "a list", value)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_convert(name, v, args[0]) for v in value)
        if len(value) != len(args):
            raise _type_error(name, hint, f"a list of {len(args)} values per entry", value)
        return tuple(_convert(name, v, a) for v, a in zip(value, args, strict=True))
    raise OptionError(f"{name}: cannot read option of type {hint}", name)  # pragma: no cover


def rules_from_dict(data: Mapping[str, object]) -> Rules:
    """Rules from a mapping as read from TOML/JSON: an optional ``preset`` name plus
    option overrides. Unknown options, values of the wrong type and contradictions raise
    :class:`RulesError` (an :class:`OptionError` naming the option where there is one).

    A game record (``format = "shengji-record"``) is accepted too: its ``rules`` table.
    """
    if isinstance(data.get("format"), str) and isinstance(data.get("rules"), Mapping):
        inner = data["rules"]
        assert isinstance(inner, Mapping)
        data = inner
    name = data.get("preset")
    if name is not None and not isinstance(name, str):
        raise OptionError(f"preset expects a preset name (a string), got {short_repr(name)}",
                          "preset")
    options: dict[str, object] = {}
    for key, value in data.items():
        if key == "preset":
            continue
        if key not in OPTION_NAMES:
            raise unknown_option(key, ("preset",))
        options[key] = _convert(key, value, _HINTS[key])
    if name is None:
        return Rules().replace(**options)
    return preset(name, **options)


def _plain(value: object) -> object:
    if isinstance(value, bool | int) and not isinstance(value, Enum):
        return value
    if isinstance(value, Rank | Suit | StrEnum):
        return str(value)
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


def rules_to_dict(rules: Rules) -> dict[str, object]:
    """Every option, TOML/JSON-safe: enums as strings, ranks as ``"10"``/``"A"``, suits as
    letters, tuples as lists; options that are ``None`` (derived) are left out.

    >>> d = rules_to_dict(Rules())
    >>> d["players"], d["tuple_follow"], d["end_rank"], d["mandatory_ranks"], "kitty" in d
    (4, 'draw-out', 'A', [], False)
    """
    out: dict[str, object] = {}
    for name in OPTION_NAMES:
        value = getattr(rules, name)
        if value is not None:
            out[name] = _plain(value)
    return out


# -- TOML out -----------------------------------------------------------------------------

def toml_value(value: object) -> str:
    """One value in TOML syntax (strings, booleans, integers and lists of them)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(int(value))
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {value!r} as TOML")


def rules_to_toml(rules: Rules, *, header: str | None = "[rules]") -> str:
    """The rules as TOML lines (every option), under ``header`` (``None``: top level).

    >>> print(rules_to_toml(Rules(), header=None).splitlines()[0])
    players = 4
    """
    lines = [header] if header else []
    lines += [f"{k} = {toml_value(v)}" for k, v in rules_to_dict(rules).items()]
    return "\n".join(lines) + "\n"


# -- reading text -------------------------------------------------------------------------

_TABLE_RE = re.compile(r"^\s*\[\s*([A-Za-z0-9_.\"' -]+?)\s*\]\s*(#.*)?$")
_KEY_RE = re.compile(r"^\s*([A-Za-z0-9_-]+|\"[^\"]*\")\s*=")


def key_lines(text: str) -> tuple[dict[tuple[str, str], int], dict[str, int]]:
    """Where keys are in a TOML text: ``{(table, key): line}`` and ``{table: line}``
    (1-based; the top level is table ``""``). A light scan for error messages: it
    follows ``[table]`` headers and ``key =`` lines, skipping multi-line strings."""
    keys: dict[tuple[str, str], int] = {}
    tables: dict[str, int] = {}
    table = ""
    in_string: str | None = None
    for number, line in enumerate(text.splitlines(), 1):
        if in_string is not None:
            if line.count(in_string) % 2 == 1:
                in_string = None
            continue
        header = _TABLE_RE.match(line)
        if header and not line.lstrip().startswith("[["):
            table = header.group(1).strip().strip("\"'")
            tables.setdefault(table, number)
            continue
        key = _KEY_RE.match(line)
        if key:
            keys.setdefault((table, key.group(1).strip('"')), number)
            rest = line[key.end():]
            for quote in ('"""', "'''"):
                if rest.count(quote) % 2 == 1:
                    in_string = quote
    return keys, tables


def _with_line(error: RulesError, text: str | None, table: str = "") -> RulesError:
    """``error`` with the line of its option prefixed, when the text shows it."""
    if text is None or error.option is None:
        return error
    keys, _ = key_lines(text)
    line = keys.get((table, error.option))
    if line is None:
        return error
    return OptionError(f"line {line}: {error}", error.option)


def toml_error_position(error: tomllib.TOMLDecodeError) -> tuple[int | None, str]:
    """(line, message without the position) of a TOML syntax error."""
    text = str(error)
    match = re.search(r"\s*\(at line (\d+), column \d+\)|\s*\(at end of document\)", text)
    if match is None:
        return None, text
    line = int(match.group(1)) if match.group(1) else None
    return line, text[:match.start()] + text[match.end():]


def parse_rules_text(text: str, fmt: str | None = None) -> dict[str, Any]:
    """Read a TOML (or JSON, when ``fmt == "json"`` or the text starts with ``{``) table.

    Text that is too long, holds a NUL character or nests too deep is refused first
    (:func:`shengji.game.files.check_text`); numbers too long to read are errors too.
    """
    try:
        check_text(text, limit=RULES_FILE_LIMIT)
    except TextFileError as error:
        raise RulesError(str(error)) from None
    kind = fmt or ("json" if text.lstrip().startswith("{") else "toml")
    if kind == "json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise RulesError(f"line {error.lineno}: JSON syntax error: {error.msg}") from None
        except (ValueError, RecursionError) as error:  # a huge integer; nesting (backstop)
            raise RulesError(f"JSON error: {_first_line(error)}") from None
        if not isinstance(data, dict):
            raise RulesError("rules in JSON must be an object, e.g. {\"players\": 6}")
        return data
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        line, message = toml_error_position(error)
        where = f"line {line}: " if line is not None else ""
        raise RulesError(f"{where}TOML syntax error: {message}") from None
    except (ValueError, RecursionError) as error:  # a huge integer; nesting (backstop)
        raise RulesError(f"TOML error: {_first_line(error)}") from None


def _first_line(error: BaseException) -> str:
    """What a parser's error other than a syntax error says, in one line (Python's
    message for an over-long integer names ``sys.set_int_max_str_digits``, no help)."""
    if isinstance(error, RecursionError):
        return "lists or tables nested too deep"
    text = (str(error).splitlines() or [type(error).__name__])[0]
    return "a number with too many digits" if "digits" in text else text


def load_rules(source: str | Path | bytes) -> Rules:
    """Rules from a TOML or JSON file (a :class:`Path`, or a string that cannot be TOML or
    JSON text: one line without ``=``, ``{`` or ``[``), from TOML/JSON text, or from the
    bytes of a file (e.g. one uploaded).

    The format follows the extension (``.json``; anything else is TOML unless it starts
    with ``{``). Errors are one-line :class:`RulesError`s naming the file and line where
    known; a file is refused before parsing when it is over :data:`RULES_FILE_LIMIT`
    bytes, not UTF-8, holds a NUL byte or nests too deep.
    """
    if isinstance(source, bytes):
        try:
            text = decode_text(source, limit=RULES_FILE_LIMIT)
        except TextFileError as error:
            raise RulesError(f"rules file: {error}") from None
        return _rules_from_text(text, None)
    path: Path | None = None
    if isinstance(source, Path):
        path = source
    elif source.strip() and not any(mark in source for mark in ("\n", "=", "{", "[")):
        path = Path(source.strip())  # no TOML or JSON text is a single word: a file name
    if path is None:
        assert isinstance(source, str)
        return _rules_from_text(source, None)
    try:
        text = read_text(path, limit=RULES_FILE_LIMIT)
    except OSError as error:
        raise RulesError(f"cannot read rules file {str(path)!r}: {error.strerror}") from None
    except TextFileError as error:
        raise RulesError(f"{path}: {error}") from None
    fmt = "json" if path.suffix.lower() == ".json" else None
    try:
        return _rules_from_text(text, fmt)
    except OptionError as error:
        raise OptionError(f"{path}: {error}", error.option) from None
    except RulesError as error:
        raise RulesError(f"{path}: {error}") from None


def _rules_from_text(text: str, fmt: str | None) -> Rules:
    data = parse_rules_text(text, fmt)
    is_json = fmt == "json" or text.lstrip().startswith("{")
    table = "rules" if isinstance(data.get("format"), str) else ""
    try:
        return rules_from_dict(data)
    except RulesError as error:
        if is_json:
            raise _json_line(error, text) from None
        raise _with_line(error, text, table) from None


def _json_line(error: RulesError, text: str) -> RulesError:
    if error.option is None:
        return error
    for number, line in enumerate(text.splitlines(), 1):
        if f'"{error.option}"' in line:
            return OptionError(f"line {number}: {error}", error.option)
    return error
