"""Every door of the command line: a bad path, a pipe or a device where a file is expected,
an unwritable output, a bad ``serve`` option, a foreign database, a broken model file. Each
ends in one line on stderr and exit status 2, never a traceback or a wait, and loses
nothing already computed (``simulate`` prints its summary before reporting a failed
write). Also the wording met on the way."""

from __future__ import annotations

import gzip
import io
import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from rich.console import Console

import shengji
from shengji import arguments, cli, simulate
from shengji.engine.rules import Rules
from shengji.game import files
from shengji.game.match import Match
from shengji.game.phase import Phase
from shengji.game.presets import preset
from shengji.game.record import load_record, save_record
from shengji.players import make_player
from shengji.players.learned import PlayModel, model_data, read_model_file, shipped_model
from shengji.server.cli import database_problem, network_address
from shengji.server.storage import SQLiteStorage
from shengji.terminal import session as session_module
from shengji.terminal.app import TerminalGame, _ask_resume
from shengji.terminal.prompt import PROMPTS, Prompter, Quit
from shengji.terminal.replay import replay_file
from shengji.terminal.session import Session

GUARD = 10.0
"""Seconds a door may take before the test calls it a hang."""


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, list[str]]:
    """Run ``shengji ARGS`` in this process, in a thread that must end within
    :data:`GUARD` seconds: the exit status, stdout and the lines on stderr."""
    result: list[int] = []

    def main() -> None:
        try:
            result.append(cli.main(args))
        except SystemExit as stop:  # argparse's refusals exit
            result.append(int(stop.code or 0))

    worker = threading.Thread(target=main, daemon=True)
    worker.start()
    worker.join(GUARD)
    assert result, f"shengji {' '.join(args)} hangs"
    captured = capsys.readouterr()
    return result[0], captured.out, captured.err.splitlines()


def _one_line(lines: list[str], command: str, *parts: str) -> None:
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"shengji {command}: "), lines
    assert "Traceback" not in lines[0]
    for part in parts:
        assert part in lines[0], lines


@pytest.fixture
def places(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """Paths that are not files to read or write, by name, with the working folder at
    ``tmp_path``."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "file").write_text("a regular file\n", encoding="utf-8")
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "folder").mkdir()
    return {"pipe": str(tmp_path / "pipe"), "zero": "/dev/zero", "folder": "folder",
            "missing": "missing/x", "under-a-file": "file/x"}


@pytest.fixture
def no_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any game played or simulated fails the test."""
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("work started before the arguments were checked")

    monkeypatch.setattr(simulate, "stream", refuse)
    monkeypatch.setattr(session_module.Session, "run", refuse)


# -- inputs that are not regular files ------------------------------------------------------

@pytest.mark.parametrize("place", ["pipe", "zero", "folder"])
@pytest.mark.parametrize("args", [["replay", "{}"], ["play", "--rules", "{}"],
                                  ["play", "--resume", "{}"], ["simulate", "--rules", "{}"],
                                  ["play", "--record", "{}"], ["simulate", "--json", "{}"]])
def test_a_pipe_a_device_or_a_folder_is_refused_at_once(
        args: list[str], place: str, places: dict[str, str], no_work: None,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = places[place]
    code, _, lines = _run([a.format(path) for a in args], capsys)
    assert code == 2
    kind = {"pipe": "a named pipe", "zero": "a character device", "folder": "a folder"}[place]
    _one_line(lines, args[0], path, kind)


@pytest.mark.slow
def test_from_the_shell_a_pipe_and_stdin_are_refused_without_waiting(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")
    for args in (["replay", "pipe"], ["play", "--rules", "/dev/stdin"]):
        done = subprocess.run([sys.executable, "-m", "shengji", *args], capture_output=True,
                              text=True, cwd=tmp_path, timeout=60, stdin=subprocess.PIPE)
        assert done.returncode == 2, done.stderr
        assert len(done.stderr.splitlines()) == 1 and "not a regular file" in done.stderr


def test_reading_refuses_what_is_not_a_regular_file_unopened(places: dict[str, str]) -> None:
    for name in ("pipe", "zero", "folder"):
        with pytest.raises(files.TextFileError, match="not a regular file"):
            files.read_bytes(places[name], limit=100)
    assert files.read_bytes("file", limit=100) == b"a regular file\n"
    with pytest.raises(files.TextFileError, match="over the limit"):
        files.read_bytes("file", limit=4)


# -- outputs that cannot be written ---------------------------------------------------------

@pytest.mark.parametrize(("place", "why"), [
    ("missing", "the folder missing does not exist"),
    ("under-a-file", "file is not a folder"),
    ("folder", "that is a folder"),
    ("pipe", "that is a named pipe, not a regular file"),
    ("zero", "that is a character device, not a regular file"),
])
@pytest.mark.parametrize("option", ["play --record", "simulate --json"])
def test_an_output_that_cannot_be_written_is_refused_before_any_work(
        option: str, place: str, why: str, places: dict[str, str], no_work: None,
        capsys: pytest.CaptureFixture[str]) -> None:
    command, flag = option.split()
    code, _, lines = _run([command, flag, places[place]], capsys)
    assert code == 2
    _one_line(lines, command, f"{flag} {places[place]}", why)


@pytest.mark.parametrize(("place", "why"), [("pipe", "that is a named pipe, not a folder"),
                                            ("zero", "that is a character device, not a "
                                                     "folder"),
                                            ("under-a-file", "file is not a folder")])
def test_a_records_folder_that_cannot_be_one_is_refused_before_any_work(
        place: str, why: str, places: dict[str, str], no_work: None,
        capsys: pytest.CaptureFixture[str]) -> None:
    code, _, lines = _run(["simulate", "--records", places[place]], capsys)
    assert code == 2
    _one_line(lines, "simulate", f"--records {places[place]}", why)


def _unchecked(monkeypatch: pytest.MonkeyPatch) -> None:
    """No output is checked before the work (as if the place broke during it)."""
    monkeypatch.setattr(arguments, "output_file_problem", lambda option, name: None)
    monkeypatch.setattr(arguments, "output_folder_problem", lambda option, name: None)
    import shengji.simulate_cli as simulate_cli

    monkeypatch.setattr(simulate_cli, "output_file_problem", lambda option, name: None)
    monkeypatch.setattr(simulate_cli, "output_folder_problem", lambda option, name: None)


SIMULATE = ["simulate", "--rounds", "2", "--workers", "1", "--players", "random"]


def test_simulate_prints_its_summary_then_reports_a_failed_json_write(
        places: dict[str, str], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    _unchecked(monkeypatch)
    code, out, lines = _run([*SIMULATE, "--json", "file/summary.json"], capsys)
    assert code == 2
    assert "average opponents' points" in out   # the run's results are not lost
    _one_line(lines, "simulate", "--json file/summary.json: cannot write it")


def test_simulate_goes_on_when_a_record_cannot_be_written(
        places: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    real = files.write_text_atomic

    def flaky(path: str | Path, text: str) -> None:
        if Path(path).name == "deal00001.toml":
            raise PermissionError(13, "Permission denied")
        real(path, text)

    monkeypatch.setattr(files, "write_text_atomic", flaky)
    code, out, lines = _run([*SIMULATE, "--records", "recs", "--json", "summary.json"], capsys)
    assert code == 2
    assert "average opponents' points" in out
    assert json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))["games"] == 4
    _one_line(lines, "simulate", "--records recs: cannot write deal00001.toml: Permission "
                                 "denied (wrote 2 records before it)")
    assert sorted(p.name for p in (tmp_path / "recs").iterdir()) == [
        "deal00000-swapped.toml", "deal00000.toml"]


def test_simulate_reports_a_records_folder_it_cannot_create(
        places: dict[str, str], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    _unchecked(monkeypatch)
    monkeypatch.setattr(simulate, "stream", lambda *a, **k: pytest.fail("ran"))
    code, _, lines = _run([*SIMULATE, "--records", "file/recs"], capsys)
    assert code == 2
    _one_line(lines, "simulate", "--records file/recs: cannot create the folder")


def test_play_stops_at_once_when_its_record_cannot_be_written(
        places: dict[str, str], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    _unchecked(monkeypatch)
    code, _, lines = _run(["play", "--record", "file/game.toml", "--players", "random",
                           "--fast"], capsys)
    assert code == 2
    _one_line(lines, "play", "--record file/game.toml: cannot write the record")


def _session(tmp_path: Path, record: Path, read: Callable[[str], str]) -> tuple[Session,
                                                                                io.StringIO]:
    match = Match(preset("tractor"), seed=5)
    out = io.StringIO()
    n = match.rules.players
    return Session(match, me=0, players=[None, *(make_player("random", seed=s)
                                                 for s in range(1, n))],
                   names=["You", *(f"Seat {s}" for s in range(1, n))],
                   kinds=["human", *["random"] * (n - 1)], record=record,
                   console=Console(file=out, width=80, color_system=None),
                   prompter=Prompter(read, completion=False)), out


@pytest.mark.parametrize("mended", [False, True])
def test_a_record_failing_mid_game_is_said_and_the_game_goes_on(
        tmp_path: Path, mended: bool, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    record = folder / "game.toml"
    answers = iter(["", "quit"])

    def read(prompt: str) -> str:
        answer = next(answers)
        if answer == "":  # the folder is replaced by a file: the record cannot be written
            record.unlink()
            folder.rmdir()
            folder.write_text("in the way\n", encoding="utf-8")
        elif mended:
            folder.unlink()
            folder.mkdir()
        return answer

    session, out = _session(tmp_path, record, read)
    code = session.run()
    err = capsys.readouterr().err.splitlines()
    assert "Careful: cannot write the record" in out.getvalue()
    if mended:
        assert code == 0 and err == []
        assert "Game saved to" in out.getvalue()
        assert load_record(record).actions == tuple(session.match.history)
    else:
        assert code == 2
        _one_line(err, "play", f"--record {record}: cannot write the record")
        assert "Game saved to" not in out.getvalue()


# -- shengji serve --------------------------------------------------------------------------

@pytest.mark.parametrize(("option", "value", "allowed"), [
    ("--port", "0", "from 1 to 65535"),
    ("--port", "65536", "from 1 to 65535"),
    ("--port", "-80", "from 1 to 65535"),
    ("--port", "http", "from 1 to 65535"),
    *((option, value, allowed) for option, allowed in [
        ("--deal-pace", "from 0 to 10 seconds"), ("--bot-delay", "from 0 to 60 seconds"),
        ("--bot-time", "from 0.1 to 3600 seconds"),
        ("--hello-timeout", "more than 0 and at most 3600 seconds"),
        ("--rate", "more than 0 and at most 1000000"),
        ("--host-grace", "from 0 to 31536000 seconds"),
        ("--idle-expiry", "more than 0 and at most 31536000 seconds")]
      for value in ("nan", "inf", "-inf", "-1", "1e400")),
    *((option, "0", allowed) for option, allowed in [
        ("--max-rooms", "from 1 to"), ("--max-spectators", "from 1 to"),
        ("--max-connections", "from 1 to"), ("--max-member-connections", "from 1 to"),
        ("--rooms-per-minute", "from 1 to"), ("--burst", "from 1 to"),
        ("--max-message", "from 1024 to"), ("--rate", "more than 0"),
        ("--bot-time", "from 0.1 to"), ("--hello-timeout", "more than 0"),
        ("--idle-expiry", "more than 0")]),
    ("--max-address-connections", "-1", "from 0 to"),
    ("--seed", "-1", "from 0 to 281474976710655"),
    ("--seed", str(1 << 48), "from 0 to 281474976710655"),
    ("--seed", "x", "from 0 to 281474976710655"),
])
def test_serve_refuses_an_option_out_of_range_naming_the_range(
        option: str, value: str, allowed: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, lines = _run(["serve", f"{option}={value}"], capsys)
    assert code == 2
    _one_line(lines, "serve", f"argument {option}: ", allowed)


def test_serve_accepts_the_edges_of_each_range() -> None:
    args = cli.build_parser().parse_args([
        "serve", "--port", "65535", "--deal-pace", "0", "--bot-delay", "0",
        "--host-grace", "0", "--max-address-connections", "0", "--max-spectators", "1",
        "--rate", "0.5", "--idle-expiry", "1e-3", "--seed", str((1 << 48) - 1)])
    assert (args.port, args.deal_pace, args.max_address_connections) == (65535, 0.0, 0)
    assert args.seed == (1 << 48) - 1


def test_serve_on_every_address_prints_addresses_people_can_open(tmp_path: Path) -> None:
    """``--host 0.0.0.0`` is not an address a browser opens: the server names this
    machine's own and, where it has one, its address on the local network."""
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "shengji", "serve", "--host", "0.0.0.0", "--port", str(port),
         "--db", str(tmp_path / "rooms.db")], stdout=subprocess.PIPE, text=True,
        stdin=subprocess.DEVNULL, cwd=tmp_path)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert line.startswith(f"shengji serve: open http://127.0.0.1:{port}/"), line
    assert "0.0.0.0" not in line
    lan = network_address()
    assert (f"friends on your network open http://{lan}:{port}/" if lan
            else f"friends open this machine's network address, port {port}") in line


def _sqlite(path: Path, *tables: str) -> None:
    db = sqlite3.connect(path)
    for table in tables:
        db.execute(f"CREATE TABLE {table} (x)")
    db.commit()
    db.close()


def test_serve_never_overwrites_a_file_that_is_not_its_database(
        places: dict[str, str], tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("precious\n", encoding="utf-8")
    _sqlite(tmp_path / "other.db", "accounts", "rooms")
    _sqlite(tmp_path / "blank.db")
    SQLiteStorage(tmp_path / "ours.db").close()
    (tmp_path / "empty.db").touch()
    assert "not an SQLite database; refusing to overwrite it" in str(
        database_problem(str(notes)))
    assert "of another program (tables accounts); refusing" in str(
        database_problem(str(tmp_path / "other.db")))
    assert "that is a named pipe" in str(database_problem(places["pipe"]))
    assert "that is a character device" in str(database_problem("/dev/zero"))
    assert "that is a folder" in str(database_problem("folder"))
    assert "does not exist" in str(database_problem("missing/rooms.db"))
    for fine in ("ours.db", "blank.db", "empty.db", "new.db", ":memory:"):
        assert database_problem(str(tmp_path / fine) if fine != ":memory:" else fine) is None
    assert notes.read_text(encoding="utf-8") == "precious\n"


def test_serve_refuses_a_foreign_database_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "notes.txt").write_text("precious\n", encoding="utf-8")
    code, _, lines = _run(["serve", "--db", str(tmp_path / "notes.txt")], capsys)
    assert code == 2
    _one_line(lines, "serve", "not an SQLite database")
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "precious\n"


# -- model files ----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def model_bytes() -> bytes:
    """A real model file's bytes (the shipped model, gzip-compressed)."""
    buffer = json.dumps(shipped_model("tractor").to_data(), separators=(",", ":"))
    return gzip.compress(buffer.encode(), mtime=0)


def _refused(raw: bytes, match: str, **limit: int) -> None:
    with pytest.raises(ValueError, match=match) as error:
        model_data(raw, **limit)
    assert "\n" not in str(error.value)


@pytest.mark.slow
def test_a_broken_model_is_refused_in_one_line(model_bytes: bytes) -> None:
    _refused(model_bytes[:len(model_bytes) // 2], "damaged gzip data")
    _refused(b"\x1f\x8b" + b"\x00" * 30, "damaged gzip data")
    _refused(b"\xff\xfe\x00garbage", "neither gzip data nor UTF-8 JSON")
    _refused(b"{not json", "not a model file: Expecting")
    _refused(b"[" * 100_000 + b"]" * 100_000, "nested too deep")
    _refused(gzip.compress(b"[" * 1_000_000), "nested too deep")
    _refused(b"[" + b"9" * 10_000 + b"]", "not a model file: Exceeds the limit")
    with pytest.raises(ValueError, match="not a play model"):
        PlayModel.from_data(model_data(b'{"format": "shengji-play-model", "name": [[[]]]}'))


def test_a_model_is_inflated_no_further_than_its_limit(model_bytes: bytes) -> None:
    bomb = gzip.compress(b" " * 100_000)
    _refused(bomb, "over the limit of 1,000 bytes once decompressed", limit=1000)
    _refused(b" " * 1001, "over the limit of 1,000 bytes", limit=1000)
    assert model_data(model_bytes) == shipped_model("tractor").to_data()


@pytest.fixture(scope="module")
def damaged_install(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the installed package (pure or compiled) whose Da Bai Fen model file is
    damaged: a folder to put first on ``PYTHONPATH``."""
    package = Path(shengji.__file__).parent
    site = tmp_path_factory.mktemp("damaged")
    shutil.copytree(package, site / "shengji", ignore=shutil.ignore_patterns("__pycache__"))
    for compiled in package.parent.glob("shengji__mypyc*"):  # the compiled build's module
        shutil.copy(compiled, site)
    model = site / "shengji" / "players" / "models" / "da-bai-fen.json.gz"
    model.write_bytes(model.read_bytes()[:1000])
    return site


@pytest.mark.slow
@pytest.mark.parametrize("command", [
    ["simulate", "--preset", "da-bai-fen", "--rounds", "1", "--workers", "1",
     "--players", "learned,heuristic,learned,heuristic"],
    ["serve", "--port", "8765"],
    ["play", "--preset", "da-bai-fen", "--players", "learned", "--seed", "1"],
])
def test_a_damaged_shipped_model_is_one_line_naming_it(
        damaged_install: Path, tmp_path: Path, command: list[str]) -> None:
    """A damaged installation is said in one line, naming the file and what to do; the
    server says so before it starts (its rooms would read the models later)."""
    if command[0] == "serve":
        command += ["--db", str(tmp_path / "rooms.db")]
    env = {**os.environ, "PYTHONPATH": str(damaged_install)}
    ran = subprocess.run([sys.executable, "-m", "shengji", *command], env=env, text=True,
                         capture_output=True, timeout=120, stdin=subprocess.DEVNULL,
                         cwd=tmp_path)
    assert ran.returncode == 2, ran.stderr
    assert ran.stderr.startswith(f"shengji {command[0]}: the shipped model "
                                 "players/models/da-bai-fen.json.gz cannot be read")
    assert ran.stderr.count("\n") == 1 and "reinstall shengji" in ran.stderr


@pytest.mark.slow
def test_a_model_file_must_be_a_regular_file_of_bounded_size(
        places: dict[str, str], tmp_path: Path, model_bytes: bytes) -> None:
    for name in ("pipe", "zero", "folder"):
        with pytest.raises(ValueError, match="not a regular file"):
            read_model_file(places[name])
    saved = tmp_path / "model.json.gz"
    shipped_model("tractor").save(saved)
    assert PlayModel.load(saved).to_data() == shipped_model("tractor").to_data()
    with pytest.raises(ValueError, match="over the limit of 1000 bytes"):
        read_model_file(saved, limit=1000)


# -- wording --------------------------------------------------------------------------------

def _unfinished(tmp_path: Path) -> Path:
    rules = preset("tractor")
    match = Match(rules, seed=3)
    players = [make_player("heuristic", seed=s) for s in range(rules.players)]
    while match.round.phase != Phase.PLAY or len(match.round.tricks) < 1:
        seat = match.to_move
        assert seat is not None
        match.apply(players[seat].act(match.view(seat), match.legal(seat)))
    path = tmp_path / "game.toml"
    save_record(match, path, names=["You", "Seat 1", "Seat 2", "Seat 3"],
                kinds=["human", "heuristic", "heuristic", "heuristic"])
    return path


def test_replay_says_your_hand(tmp_path: Path) -> None:
    path = _unfinished(tmp_path)
    out = io.StringIO()
    replay_file(load_record(path), console=Console(file=out, width=80, color_system=None),
                step=False, unicode=False, source=str(path))
    text = out.getvalue()
    assert "Your hand at the first lead" in text and "(as you saw it)" in text
    assert "You's" not in text and "as You saw" not in text


def test_the_resume_prompt_says_what_enter_does(tmp_path: Path) -> None:
    saved = Match(Rules(), seed=1)
    asked = TerminalGame(Match(Rules(), seed=4), 0, ["human"] * 4, "tractor")
    seen: list[str] = []

    def enter(prompt: str) -> str:
        seen.append(prompt)
        return ""

    console = Console(file=io.StringIO())
    assert _ask_resume(console, Prompter(enter, completion=False), tmp_path, saved,
                       None) == "resume"
    assert _ask_resume(console, Prompter(enter, completion=False), tmp_path, saved,
                       asked) == "new"
    assert seen == [PROMPTS["resume"], PROMPTS["new"]]
    assert "Enter" in seen[0] and "resume" in seen[0]
    assert "Enter" in seen[1] and "new game" in seen[1]


def _helps() -> Iterator[list[str]]:
    yield ["--help"]
    for command in cli.COMMANDS:
        yield [command, "--help"]


def test_help_has_no_restructuredtext_backticks(capsys: pytest.CaptureFixture[str]) -> None:
    for args in _helps():
        with pytest.raises(SystemExit):
            cli.main(args)
        out = capsys.readouterr().out
        assert "``" not in out and ":mod:" not in out, args
    assert "shengji replay FILE: step through" in (cli.build_parser().description or "")


def test_the_dealer_who_gains_a_friend_is_you(tmp_path: Path) -> None:
    def never(prompt: str) -> str:
        raise Quit

    session, _ = _session(tmp_path, tmp_path / "game.toml", never)
    assert session._friend_of(0) == "your friend"
    assert session._friend_of(2) == "a friend of Seat 2"
