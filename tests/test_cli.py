"""The command line checks every argument before any work starts: a bad one is reported
on one line (``shengji CMD: ...``), with exit status 2, and nothing is played or written."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from shengji import cli, simulate
from shengji.terminal import session


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str]]:
    """Run ``shengji ARGS`` in this process: the exit status and the lines on stderr."""
    try:
        code = cli.main(args)
    except SystemExit as stop:  # argparse's refusals exit
        code = int(stop.code or 0)
    captured = capsys.readouterr()
    return code, captured.err.splitlines()


@pytest.fixture(autouse=True)
def no_work(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Any game played or simulated fails the test: every refusal comes before."""
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("work started before the arguments were checked")

    monkeypatch.setattr(simulate, "run", refuse)
    monkeypatch.setattr(simulate, "stream", refuse)
    monkeypatch.setattr(session.Session, "run", refuse)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_text("a file, not a folder\n", encoding="utf-8")


@pytest.mark.slow
@pytest.mark.parametrize(("args", "message"), [
    (["play", "--table", "0"], "argument --table: must be from 2 to 12, got 0"),
    (["play", "--table", "-2"], "argument --table: must be from 2 to 12, got -2"),
    (["play", "--table", "six"], "argument --table: expected a whole number from 2 to 12"),
    (["play", "--rounds", "-1"], "argument --rounds: must be at least 1, got -1"),
    (["play", "--rounds", "0"], "argument --rounds: must be at least 1, got 0"),
    (["play", "--seed", "-1"], "argument --seed: must be from 0 to"),
    (["play", "--delay", "nan"], "argument --delay: must be from 0 to 10 seconds, got nan"),
    (["play", "--delay", "-1"], "argument --delay: must be from 0 to 10 seconds"),
    (["play", "--seat", "4"], "--seat must be a seat from 0 to 3, got 4"),
    (["play", "--record", "missing/game.toml"],
     "--record missing/game.toml: the folder missing does not exist"),
    (["play", "--record", "."], "--record .: that is a folder; name a file in it"),
    (["play", "--resume", "missing.toml"], "missing.toml"),
    (["play", "--players", "heuristic,smart"], "unknown player 'smart'"),
    (["play", "--preset", "bridge"], "unknown preset 'bridge'"),
    (["play", "--rules", "missing.toml"], "missing.toml"),
    (["play", "--preset", "tractor", "--table", "5"], "even number of players"),
    (["--table", "0"], "argument --table: must be from 2 to 12, got 0"),   # play is the default
    (["simulate", "--table", "0"], "argument --table: must be from 2 to 12, got 0"),
    (["simulate", "--rounds", "0"], "argument --rounds: must be at least 1, got 0"),
    (["simulate", "--rounds", "-1"], "argument --rounds: must be at least 1, got -1"),
    (["simulate", "--matches", "0"], "argument --matches: must be at least 1, got 0"),
    (["simulate", "--workers", "0"], "argument --workers: must be from 1 to 256, got 0"),
    (["simulate", "--json", "missing/out.json"],
     "--json missing/out.json: the folder missing does not exist"),
    (["simulate", "--plot", "missing/plot.png"],
     "--plot missing/plot.png: the folder missing does not exist"),
    (["simulate", "--plot", "plot.xyz"], "--plot plot.xyz: name the image with its format"),
    (["simulate", "--records", "notes.txt"], "--records notes.txt: that is a file, not a folder"),
    (["simulate", "--json", ""], "--json needs a file name"),
    (["simulate", "--records", ""], "--records needs a folder name"),
    (["simulate", "--json", "a.png", "--plot", "a.png"],
     "--plot a.png: that is the file of --json; name another"),
    (["simulate", "--json", "x" * 300], "--json " + "x" * 300 + ": File name too long"),
    (["simulate", "--players", "heuristic,smart"], "unknown player 'smart'"),
    (["simulate", "--zz"], "unrecognized arguments: --zz (see shengji simulate --help)"),
    (["--zz", "extra"], "unrecognized arguments: --zz extra (see shengji play --help)"),
])
def test_a_bad_argument_is_one_line_and_exit_2(args: list[str], message: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    if "--plot" in args:
        pytest.importorskip("matplotlib")
    code, lines = _run(args, capsys)
    assert code == 2
    assert len(lines) == 1, lines
    command = "simulate" if args[0] == "simulate" else "play"
    assert lines[0].startswith(f"shengji {command}: ") and message in lines[0], lines


@pytest.mark.parametrize("command", [["play", "--record"], ["simulate", "--json"],
                                     ["simulate", "--plot"]])
def test_an_output_never_overwrites_the_rules_file(command: list[str], tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    rules = tmp_path / "house.png"  # (a name any output would take)
    rules.write_text('preset = "da-bai-fen"\n', encoding="utf-8")
    code, lines = _run([command[0], "--rules", str(rules), command[1], str(rules)], capsys)
    assert (code, lines) == (2, [f"shengji {command[0]}: {command[1]} {rules}: that is the "
                                 "file of --rules; name another"])
    assert rules.read_text(encoding="utf-8") == 'preset = "da-bai-fen"\n'


def test_every_problem_is_reported_at_once(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    code, lines = _run(["simulate", "--rounds", "1000000", "--json", "missing/a.json",
                        "--plot", "missing/b.png", "--records", "notes.txt", "--players",
                        "nobody"], capsys)
    assert code == 2
    assert [line.split(":")[1].split()[0] for line in lines] == [
        "--json", "--records", "--plot", "--players"]


def test_plot_without_matplotlib_is_refused_first(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.backend_bases", None)
    code, lines = _run(["simulate", "--rounds", "1000000", "--plot", "plot.png"], capsys)
    assert (code, lines) == (2, ["shengji simulate: --plot needs matplotlib: "
                                 'pip install "shengji[plot]" (or pip install -e ".[plot]" '
                                 "in a clone)"])


def test_resume_cannot_change_the_recorded_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines = _run(["play", "--resume", "missing.toml", "--preset", "hundred", "--seed",
                        "3"], capsys)
    assert code == 2
    assert lines[0] == ("shengji play: --resume continues the recorded game as it was: "
                        "--preset, --seed cannot change it")
    assert len(lines) == 2 and "missing.toml" in lines[1]


@pytest.mark.slow
@pytest.mark.parametrize("args", [
    ["play", "--table", "-2"],                           # used to hang
    ["simulate", "--rounds", "100000", "--json", "missing/out.json"],   # used to run first
])
def test_from_the_shell_no_traceback_and_no_wait(args: list[str], tmp_path: Path) -> None:
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "shengji", *args], capture_output=True,
                          text=True, cwd=tmp_path, timeout=60, stdin=subprocess.DEVNULL)
    assert time.monotonic() - start < 20
    assert done.returncode == 2
    assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]   # nothing written


def test_no_output_takes_the_name_of_a_record_to_be_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--json`` in the ``--records`` folder under a record's name would be written over
    by it (or write over it): refused before any game is played."""
    recs = tmp_path / "recs"
    recs.mkdir()
    for name in ("deal00000.toml", "deal00001-swapped.toml"):
        code, lines = _run(["simulate", "--records", str(recs), "--json", str(recs / name)],
                           capsys)
        assert (code, lines) == (2, [f"shengji simulate: --json {recs / name}: --records "
                                     "writes the game records there (deal00000.toml...); "
                                     "name another"])
    assert list(recs.iterdir()) == []


@pytest.mark.parametrize("command", ["play", "simulate"])
def test_a_table_size_against_the_rules_file_is_refused(
        command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rules = tmp_path / "two.toml"
    rules.write_text('preset = "tractor"\nplayers = 2\n', encoding="utf-8")
    code, lines = _run([command, "--rules", str(rules), "--table", "6"], capsys)
    assert (code, lines) == (2, [f"shengji {command}: --table 6: the rules file {rules} is for "
                                 "2 players; leave --table out, or change players in the file"])
