"""Fuzz the readers of rules files and game records with damaged and edited files.

Every case is a file's bytes made from a good rules file (TOML or JSON) or a good record
by one mutation: truncated, bit-flipped, bytes inserted, deleted or duplicated, a value
swapped for one of the wrong type or out of range, an unknown key, nested lists, tables
and dotted keys, huge numbers and strings, another encoding, an edited action (records).
Rules cases go through ``load_rules(bytes)``, records through
``replay(read_record(bytes))``; one case in 64 through a real file (``load_rules(path)``,
``load_record(path)``). A case passes when it loads, or fails with a one-line
``RulesError`` (rules) or ``RecordError`` (records); anything else is a finding.

Cases are reproducible: case ``i`` of seed ``s`` depends on ``(s, i)`` only::

    python3 scripts/fuzz_files.py --count 100000 --seed 1 --jobs 2
    python3 scripts/fuzz_files.py --seed 1 --show 4711     # one case: its bytes and outcome

It prints the counts by file kind, mutation and outcome, and exits 1 on any finding.
``tests/test_files_fuzz.py`` runs the same generator for a few thousand cases.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from multiprocessing import Pool
from pathlib import Path
from random import Random

from shengji.engine.rules import RulesError
from shengji.game.config import load_rules, rules_to_dict, rules_to_toml
from shengji.game.match import Match, play_random_match
from shengji.game.presets import OPTION_NAMES, PRESETS, preset
from shengji.game.record import RecordError, load_record, read_record, replay, write_record

MAX_MESSAGE = 2000
"""The longest error message accepted (one line, and short of echoing a huge input)."""


@dataclass(frozen=True)
class Case:
    """One generated file: what it is made from, how it was damaged, and its bytes."""

    kind: str  # "rules" or "record"
    mutation: str
    data: bytes
    as_file: bool


# -- the good files -----------------------------------------------------------------------

@cache
def rules_corpus() -> tuple[bytes, ...]:
    """Good rules files: every preset in full (TOML and JSON) and as a preset name with a
    few overrides."""
    texts: list[str] = []
    for name in PRESETS:
        rules = preset(name)
        texts.append(f'preset = "{name}"\n' + rules_to_toml(rules, header=None))
        texts.append(json.dumps({"preset": name, **rules_to_dict(rules)}, indent=1))
    texts.append('# house rules\npreset = "finding-friends"\nplayers = 8\n'
                 'fluid_bidders = "not-lost"\nmandatory_ranks = ["5", "10", "K"]\n')
    texts.append('preset = "hundred"\nlevel_table = "custom"\n'
                 'custom_levels = [[0, 3], [5, 2], [20, 1], [40, 0], [60, -1]]\ndraw_at = 40\n'
                 'second_rank = "2"\nrank_suit_order = ["H", "S", "C", "D"]\n')
    texts.append('{"players": 6, "decks": 3, "tuple_follow": "protect", "target": 100}')
    return tuple(t.encode() for t in texts)


@cache
def record_corpus() -> tuple[bytes, ...]:
    """Good records: short finished matches of four presets and an unfinished one."""
    texts: list[str] = []
    for number, (name, extra) in enumerate([
            ("tractor", {}), ("da-bai-fen", {}), ("hundred", {}),
            ("finding-friends", {"players": 5})]):
        match = play_random_match(preset(name, **extra), seed=number, max_rounds=1)
        names = [f"P{seat}" for seat in range(match.rules.players)]
        texts.append(write_record(match, names=names))
    rules = preset("tractor")
    unfinished = Match(rules, seed=9)
    rng = Random(9)
    for _ in range(150):
        seat = unfinished.to_move
        assert seat is not None
        unfinished.apply(unfinished.legal(seat).random(rng))
    texts.append(write_record(unfinished, kinds=["human", "bot", "bot", "bot"]))
    return tuple(t.encode() for t in texts)


# -- values and pieces --------------------------------------------------------------------

def _nested(rng: Random, depth: int) -> str:
    opener, closer = rng.choice([("[", "]"), ("{a = ", "}")])
    return opener * depth + "1" + closer * depth


_NUMBERS = ("0", "-1", "1", "2", "3", "5", "8", "9", "12", "13", "19", "20", "21", "-5",
            "100", "201", "10000", "10001", "-10001", "2147483648", "9223372036854775808",
            "-9223372036854775809", "0x10", "0o7", "0b1", "1_000", "+4", "1e3", "4.0",
            "4.5", "-0.0", "inf", "-inf", "nan")

_HUGE_NUMBERS = ("1" + "0" * 300, "9" * 4300, "-" + "9" * 4300, "9" * 4301, "9" * 20000)


def number(rng: Random) -> str:
    """A number literal: an interesting small one, or (one time in four) a huge one."""
    return rng.choice(_HUGE_NUMBERS if rng.random() < 0.25 else _NUMBERS)


_STRINGS = ('""', '"x"', '"four"', '"protect"', '"draw-out"', '"A"', '"1"', '"T"', '"NT"',
            '"H"', '"X"', '"\\u0000"', '"\\n"', '"own-rank"', "'literal'", '"""multi\nline"""',
            '"' + "x" * 5000 + '"', '"\\ud800"', '"é♠"')


def toml_value(rng: Random) -> str:
    """A random TOML value, mostly of a type or range no option takes."""
    choice = rng.randrange(9)
    if choice == 0:
        return number(rng)
    if choice == 1:
        return rng.choice(_STRINGS)
    if choice == 2:
        return rng.choice(["true", "false", "True", "yes", "null", "None"])
    if choice == 3:
        return "[" + ", ".join(toml_value(rng) for _ in range(rng.randrange(4))) + "]"
    if choice == 4:
        return "{" + ", ".join(f"k{i} = {rng.choice(_NUMBERS[:12])}"
                               for i in range(rng.randrange(3))) + "}"
    if choice == 5:
        return _nested(rng, rng.choice([2, 5, 31, 33, 100, 999, 1001, 5000]))
    if choice == 6:
        return rng.choice(["1979-05-27", "07:32:00", "1979-05-27T07:32:00Z", "0x", "--1"])
    if choice == 7:
        return '["' + '", "'.join(rng.choice(["2", "5", "10", "K", "A", "Z"])
                                  for _ in range(rng.choice([0, 1, 2, 14, 40]))) + '"]'
    return "[" + ", ".join(f"[{rng.choice(_NUMBERS[:20])}, {rng.choice(_NUMBERS[:20])}]"
                           for _ in range(rng.choice([0, 1, 2, 3, 33]))) + "]"


def json_value(rng: Random) -> object:
    """A random JSON value, mostly of a type or range no option takes."""
    choice = rng.randrange(8)
    if choice == 0:
        return rng.choice([0, -1, 1, 3, 20, 21, 9, 10 ** 6, 2 ** 63, -(2 ** 64), 10 ** 300,
                           10 ** 4299, -(10 ** 4299)])
    if choice == 1:
        return rng.choice([0.5, 4.0, 1e300, float("inf"), float("nan"), -0.0])
    if choice == 2:
        return rng.choice(["", "four", "protect", "A", "1", "H", "\0", "x" * 5000, "é♠"])
    if choice == 3:
        return rng.choice([True, False, None])
    if choice == 4:
        return [json_value(rng) for _ in range(rng.randrange(4))]
    if choice == 5:
        return {f"k{i}": json_value(rng) for i in range(rng.randrange(3))}
    if choice == 6:  # written by _dumps: json.dumps itself recurses
        return f"{_DEEP}{rng.choice([2, 31, 33, 200, 999, 1001, 3000])}"
    return [[rng.randrange(-20, 200), rng.randrange(-20, 20)] for _ in range(rng.randrange(4))]


_DEEP = "deep nesting:"


def _dumps(table: dict[str, object]) -> bytes:
    """JSON text of ``table``, with the deep nesting that ``json_value`` asked for."""
    text = json.dumps(table)
    return re.sub(f'"{_DEEP}(\\d+)"', lambda m: "[" * int(m.group(1)) + "1"
                  + "]" * int(m.group(1)), text).encode()


def _json_table(data: bytes) -> dict[str, object] | None:
    """The JSON object of ``data``, or ``None`` when it is none (damaged already)."""
    try:
        table = json.loads(data)
    except (ValueError, RecursionError):
        return None
    return table if isinstance(table, dict) else None


def unknown_key(rng: Random) -> str:
    name = rng.choice(OPTION_NAMES)
    choice = rng.randrange(5)
    if choice == 0:
        return name[:-1]
    if choice == 1:
        return name + "s"
    if choice == 2:
        return "".join(rng.choice("abcdefghijklmnopqrstuvwxyz_") for _ in range(8))
    if choice == 3:
        return ".".join(["a"] * rng.choice([2, 32, 33, 200, 20000]))
    return '"' + name.upper() + '"'


_KEY_LINE = re.compile(rb"^([ \t]*[A-Za-z0-9_\"-]+[ \t]*=[ \t]*)(.*)$", re.MULTILINE)
_INTEGER = re.compile(rb"(?<![\w.])-?\d+(?![\w.])")
_ACTION = re.compile(rb'^[ \t]*"(\d+ [a-z]+[^"]*)",?', re.MULTILINE)


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


# -- mutations ----------------------------------------------------------------------------

def truncate(rng: Random, data: bytes) -> bytes:
    return data[:rng.randrange(len(data) + 1)]


def bit_flip(rng: Random, data: bytes) -> bytes:
    out = bytearray(data)
    for _ in range(rng.choice([1, 1, 2, 3, 8]) if out else 0):
        i = rng.randrange(len(out))
        out[i] ^= 1 << rng.randrange(8)
    return bytes(out)


_INSERTS = (b"\0", b"\xff", b"\xfe\xff", b"\xc3", b"\xe2\x82", b"[", b"]", b"{", b"}", b'"',
            b"'", b"'''", b'"""', b"\n", b"\r", b".", b"=", b"#", b"\\", b",", b" ",
            b"\t", b"\x1b", b"\xef\xbb\xbf", b"[[", b"1", b"-", b"\\u0000")


def insert_bytes(rng: Random, data: bytes) -> bytes:
    i = rng.randrange(len(data) + 1)
    if rng.random() < 0.5:
        piece = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 17)))
    else:
        piece = b"".join(rng.choice(_INSERTS) for _ in range(rng.randrange(1, 5)))
    return data[:i] + piece + data[i:]


def delete_bytes(rng: Random, data: bytes) -> bytes:
    i = rng.randrange(len(data) + 1)
    return data[:i] + data[i + rng.randrange(1, 33):]


def duplicate(rng: Random, data: bytes) -> bytes:
    i = rng.randrange(len(data) + 1)
    j = min(len(data), i + rng.randrange(1, 200))
    k = rng.randrange(len(data) + 1)
    return data[:k] + data[i:j] * rng.choice([1, 2, 50]) + data[k:]


def swap_value(rng: Random, data: bytes) -> bytes:
    """A ``key = value`` line gets another value (TOML), or a key another value (JSON)."""
    if data.lstrip().startswith(b"{"):
        table = _json_table(data)
        if not table:
            return data
        table[rng.choice(list(table))] = json_value(rng)
        return _dumps(table)
    lines = list(_KEY_LINE.finditer(data))
    if not lines:
        return data
    line = rng.choice(lines)
    return data[:line.start(2)] + toml_value(rng).encode() + data[line.end(2):]


def edit_number(rng: Random, data: bytes) -> bytes:
    numbers = list(_INTEGER.finditer(data))
    if not numbers:
        return data
    old = rng.choice(numbers)
    return data[:old.start()] + number(rng).encode() + data[old.end():]


def add_key(rng: Random, data: bytes) -> bytes:
    """An unknown (or repeated) key, or a table header, at a random line."""
    if data.lstrip().startswith(b"{"):
        table = _json_table(data)
        if table is None:
            return data
        key = rng.choice([unknown_key(rng), rng.choice(OPTION_NAMES), "preset", "format"])
        table[key] = json_value(rng)
        return _dumps(table)
    lines = _lines(data)
    choice = rng.randrange(4)
    if choice == 0:
        new = f"{unknown_key(rng)} = {toml_value(rng)}"
    elif choice == 1:
        new = f"{rng.choice(OPTION_NAMES)} = {toml_value(rng)}"
    elif choice == 2:
        new = rng.choice(["[rules]", "[match]", "[play]", "[[rules]]", "[rules.extra]",
                          "[x]", "[" + ".".join(["t"] * rng.choice([2, 40, 5000])) + "]",
                          "rules = 1", "format = 2", "version = 0", "preset = 4"])
    else:
        new = f"{unknown_key(rng)} = {{{rng.choice(OPTION_NAMES)} = {toml_value(rng)}}}"
    lines.insert(rng.randrange(len(lines) + 1), new.encode())
    return b"\n".join(lines)


def huge(rng: Random, data: bytes, limit: int) -> bytes:
    """A file just over, or far over, the reader's size limit, or a long line."""
    choice = rng.randrange(3)
    if choice == 0:
        return data + b"\n#" + b"x" * (limit - len(data))
    if choice == 1:
        return data + b"\n" + b"# padding\n" * (limit // 10 + 1)
    return data + b'\nzzz = "' + b"y" * rng.choice([10_000, 500_000]) + b'"\n'


def encoding(rng: Random, data: bytes) -> bytes:
    text = data.decode("utf-8", "replace") + "\n# é ♠ 甩牌\n"
    codec = rng.choice(["utf-16", "utf-32", "latin-1", "cp1252", "utf-8-sig", "gbk"])
    return text.encode(codec, "replace")


def binary(rng: Random, data: bytes) -> bytes:
    del data
    return bytes(rng.randrange(256) for _ in range(rng.choice([0, 1, 16, 300, 4096])))


_SEATS = ("0", "1", "3", "4", "5", "-1", "99", "x", "", "00", "9" * 900, "1.0")
_VERBS = ("draw", "bid", "withdraw", "pass", "declare", "bury", "call", "show", "play",
          "PLAY", "plya", "", "draw draw")
_CARDS = ("", "KS", "KS KS", "10H", "TH", "BJ", "SJ", "SJ SJ", "2D 2D 2D", "ZZ", "1S",
          "AS AS AS AS AS", "H", "NT", "1st AS", "2nd KH, 1st AS", "1st black A",
          "KS " * 60, "♠K", "é", "\\u0000")


def edit_action(rng: Random, data: bytes) -> bytes:
    """A record's action replaced, swapped with another, repeated, removed, or made a
    value that is not a string."""
    actions = list(_ACTION.finditer(data))
    if not actions:
        return data
    action = rng.choice(actions)
    choice = rng.randrange(5)
    if choice == 0:
        new = f"{rng.choice(_SEATS)} {rng.choice(_VERBS)} {rng.choice(_CARDS)}".strip()
        return data[:action.start(1)] + json.dumps(new)[1:-1].encode() + data[action.end(1):]
    if choice == 1:
        other = rng.choice(actions)
        first, second = sorted([action, other], key=lambda m: m.start(1))
        if first.start(1) == second.start(1):
            return data
        return (data[:first.start(1)] + second.group(1) + data[first.end(1):second.start(1)]
                + first.group(1) + data[second.end(1):])
    if choice == 2:
        line = data[action.start():action.end()]
        return data[:action.start()] + line + b"\n" + line + data[action.end():]
    if choice == 3:
        return data[:action.start()] + data[action.end():]
    value = rng.choice(["123", "true", "[]", '["0 draw"]', "{a = 1}", "1.5", '""'])
    return data[:action.start(1) - 1] + value.encode() + data[action.end(1) + 1:]


Mutation = Callable[[Random, bytes], bytes]

MUTATIONS: dict[str, tuple[int, Mutation]] = {
    "truncate": (10, truncate),
    "bit-flip": (14, bit_flip),
    "insert": (12, insert_bytes),
    "delete": (6, delete_bytes),
    "duplicate": (4, duplicate),
    "wrong-value": (16, swap_value),
    "number": (12, edit_number),
    "extra-key": (10, add_key),
    "encoding": (2, encoding),
    "binary": (1, binary),
}
"""Mutation name → (weight, function) for both kinds of file."""

ACTION_WEIGHT = 14
"""The weight of ``edit-action`` for records (next to the weights above)."""
HUGE_WEIGHT = 1
"""The weight of ``huge`` (a file over the size limit, or a long line)."""


def make_case(seed: int, index: int) -> Case:
    """Case ``index`` of the run with ``seed``: a good file, damaged once (sometimes
    twice)."""
    rng = Random(f"{seed}:{index}")
    kind = "rules" if index % 2 == 0 else "record"
    corpus = rules_corpus() if kind == "rules" else record_corpus()
    data = rng.choice(corpus)
    names = list(MUTATIONS)
    weights = [MUTATIONS[n][0] for n in names]
    if kind == "record":
        names.append("edit-action")
        weights.append(ACTION_WEIGHT)
    names.append("huge")
    weights.append(HUGE_WEIGHT)
    applied: list[str] = []
    for _ in range(2 if rng.random() < 0.2 else 1):
        name = rng.choices(names, weights)[0]
        if name == "edit-action":
            data = edit_action(rng, data)
        elif name == "huge":
            data = huge(rng, data, (1 << 20) if kind == "rules" else (16 << 20))
        else:
            data = MUTATIONS[name][1](rng, data)
        applied.append(name)
    return Case(kind, "+".join(applied), data, as_file=rng.randrange(64) == 0)


# -- running ------------------------------------------------------------------------------

def outcome(case: Case, folder: Path | None = None) -> tuple[str, str]:
    """(outcome, message): ``ok``, the name of the expected error class, or
    ``FINDING <exception>`` for anything else (an unexpected exception, a message of
    several lines or one too long)."""
    expected: type[Exception] = RulesError if case.kind == "rules" else RecordError
    try:
        if case.as_file and folder is not None:
            path = folder / ("case.json" if case.data.lstrip().startswith(b"{") else "case.toml")
            path.write_bytes(case.data)
            if case.kind == "rules":
                load_rules(path)
            else:
                replay(load_record(path))
        elif case.kind == "rules":
            load_rules(case.data)
        else:
            replay(read_record(case.data))
    except expected as error:
        message = str(error)
        if "\n" in message or len(message) > MAX_MESSAGE or not message:
            return f"FINDING bad message of {type(error).__name__}", message[:300]
        return type(error).__name__, message
    except Exception as error:  # the findings this script is for
        return f"FINDING {type(error).__name__}", f"{error}"[:300]
    return "ok", ""


def run_range(args: tuple[int, int, int]) -> tuple[Counter[tuple[str, str, str]],
                                                   list[tuple[int, str, str]]]:
    """Cases ``start``..``stop`` of ``seed``: counts by (kind, mutation, outcome) and the
    findings (index, outcome, message)."""
    seed, start, stop = args
    counts: Counter[tuple[str, str, str]] = Counter()
    findings: list[tuple[int, str, str]] = []
    with tempfile.TemporaryDirectory() as folder:
        for index in range(start, stop):
            case = make_case(seed, index)
            result, message = outcome(case, Path(folder))
            counts[(case.kind, case.mutation.split("+")[0], result)] += 1
            if result.startswith("FINDING"):
                findings.append((index, result, message))
    return counts, findings


def _chunks(count: int, size: int) -> Iterator[tuple[int, int]]:
    for start in range(0, count, size):
        yield start, min(count, start + size)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=10_000, help="cases to run")
    parser.add_argument("--seed", type=int, default=0, help="seed of the run")
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--show", type=int, default=None, metavar="INDEX",
                        help="print one case's bytes and outcome, run nothing else")
    args = parser.parse_args(argv)
    if args.count < 1 or args.jobs < 1:
        parser.error("--count and --jobs must be at least 1")
    if args.show is not None:
        case = make_case(args.seed, args.show)
        print(f"case {args.show}: {case.kind}, {case.mutation}, {len(case.data)} bytes")
        print(case.data[:4000].decode("utf-8", "backslashreplace"))
        with tempfile.TemporaryDirectory() as folder:
            print("outcome:", *outcome(case, Path(folder)))
        return 0
    started = time.perf_counter()
    rules_corpus(), record_corpus()
    counts: Counter[tuple[str, str, str]] = Counter()
    findings: list[tuple[int, str, str]] = []
    tasks = [(args.seed, a, b) for a, b in _chunks(args.count, 500)]
    Result = tuple[Counter[tuple[str, str, str]], list[tuple[int, str, str]]]
    results: Iterator[Result]
    if args.jobs == 1:
        results = map(run_range, tasks)
        pool = None
    else:
        pool = Pool(args.jobs)
        results = pool.imap_unordered(run_range, tasks)
    done = 0
    for part, found in results:
        counts.update(part)
        findings.extend(found)
        done += sum(part.values())
        print(f"\r{done}/{args.count} cases, {len(findings)} findings", end="",
              file=sys.stderr, flush=True)
    if pool is not None:
        pool.close()
        pool.join()
    print(file=sys.stderr)
    seconds = time.perf_counter() - started
    report(counts, findings, args, seconds)
    return 1 if findings else 0


def report(counts: Counter[tuple[str, str, str]], findings: list[tuple[int, str, str]],
           args: argparse.Namespace, seconds: float) -> None:
    total = sum(counts.values())
    print(f"fuzz_files: {total} cases, seed {args.seed}, {seconds:.1f} s "
          f"({total / seconds:.0f} cases/s, {args.jobs} processes)")
    by_outcome = Counter[str]()
    for (kind, _, result), n in counts.items():
        by_outcome[f"{kind} {result}"] += n
    for key, n in sorted(by_outcome.items()):
        print(f"  {key:<40} {n:>9}")
    print("by mutation (first mutation of the case):")
    mutations = sorted({(kind, mutation) for kind, mutation, _ in counts})
    for kind, mutation in mutations:
        row = {result: n for (k, m, result), n in counts.items() if (k, m) == (kind, mutation)}
        text = ", ".join(f"{result} {n}" for result, n in sorted(row.items()))
        print(f"  {kind:<7} {mutation:<12} {text}")
    print(f"findings: {len(findings)}")
    for index, result, message in sorted(findings)[:40]:
        print(f"  case {index}: {result}: {message}")


if __name__ == "__main__":
    sys.exit(main())
