"""Game records: write → read → replay rebuilds exactly the same match (finished or in
progress), the format is readable TOML with one action per line, and corrupted records
report the right line and reason."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time
import tomllib
from collections.abc import Callable
from pathlib import Path
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shengji.engine.cards import ALL_CARDS
from shengji.engine.rules import Rules
from shengji.game.actions import Play, parse_action
from shengji.game.deal import Deal, pack
from shengji.game.match import Match, play_random_match
from shengji.game.phase import Phase
from shengji.game.presets import PRESETS, preset
from shengji.game.record import (
    FORMAT,
    VERSION,
    Record,
    RecordError,
    load_record,
    read_record,
    replay,
    save_record,
    write_record,
)

SHORT = {"end_rank": "4"}


def _rules(name: str) -> Rules:
    if name == "finding-friends":
        return preset(name, players=5, **SHORT)
    return preset(name, **SHORT)


def partial_match(rules: Rules, seed: int, steps: int) -> Match:
    """A match after ``steps`` random legal actions (or finished earlier)."""
    match = Match(rules, seed=seed)
    rng = Random(seed)
    for _ in range(steps):
        if match.is_over:
            break
        seat = match.to_move
        assert seat is not None
        match.apply(match.legal(seat).random(rng))
    return match


def assert_same(a: Match, b: Match) -> None:
    """Two matches are in exactly the same state."""
    assert a.rules == b.rules and a.seed == b.seed and a.max_rounds == b.max_rounds
    assert a.levels == b.levels
    assert a.results == b.results
    assert a.history == b.history
    assert a.winners == b.winners and a.is_over == b.is_over
    ra, rb = a.round, b.round
    assert ra.phase == rb.phase and ra.to_move == rb.to_move and ra.dealer == rb.dealer
    assert ra.trump == rb.trump and ra.hands == rb.hands and ra.kitty == rb.kitty
    assert ra.history == rb.history and ra.captured == rb.captured and ra.tricks == rb.tricks
    for seat in range(a.rules.players):
        assert a.view(seat) == b.view(seat)


def round_trip(match: Match, **kwargs: object) -> Match:
    text = write_record(match, **kwargs)  # type: ignore[arg-type]
    again = replay(read_record(text))
    assert_same(match, again)
    return again


@pytest.mark.parametrize("name", list(PRESETS))
def test_finished_matches_round_trip(name: str) -> None:
    match = play_random_match(_rules(name), seed=7, max_rounds=2)
    assert match.is_over
    again = round_trip(match)
    assert again.is_over and len(again.results) == len(match.results)


def test_a_whole_match_to_the_end() -> None:
    match = play_random_match(Rules(end_rank="3"), seed=2)
    assert match.winners
    again = round_trip(match, names=["Ann", "Bo", "Cy", "Di"])
    assert again.winners == match.winners
    assert "win" in write_record(match).splitlines()[-3]


@pytest.mark.parametrize("steps", [0, 1, 30, 115, 140, 260])
def test_unfinished_games_resume(steps: int) -> None:
    match = partial_match(Rules(kitty_overbid=True, redeal_show="no-points"), 4, steps)
    again = round_trip(match)
    # both go on identically from here
    rng_a, rng_b = Random(99), Random(99)
    for _ in range(150):
        if match.is_over:
            break
        seat = match.to_move
        assert seat is not None and seat == again.to_move
        match.apply(match.legal(seat).random(rng_a))
        again.apply(again.legal(seat).random(rng_b))
    assert_same(match, again)


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(name=st.sampled_from(list(PRESETS)), seed=st.integers(0, 10**6),
       steps=st.integers(0, 700))
def test_round_trip_property(name: str, seed: int, steps: int) -> None:
    match = partial_match(_rules(name), seed, steps)
    round_trip(match, names=[f"P{i}" for i in range(match.rules.players)])


@pytest.mark.parametrize("seed", range(4))
def test_finding_friends_tables_round_trip(seed: int) -> None:
    rules = preset("finding-friends", players=6 + 2 * seed, end_rank="3")
    match = play_random_match(rules, seed=seed, max_rounds=1)
    round_trip(match)


def test_the_format() -> None:
    match = partial_match(Rules(), 3, 200)
    text = write_record(match, names=["Ann", "Bo", "Cy", "张三"], kinds=["human", "bot",
                                                                     "bot", "bot"])
    data = tomllib.loads(text)
    assert data["format"] == FORMAT and data["version"] == VERSION
    assert data["match"] == {"seed": 3, "names": ["Ann", "Bo", "Cy", "张三"],
                             "kinds": ["human", "bot", "bot", "bot"]}
    assert data["rules"]["players"] == 4 and data["rules"]["tuple_follow"] == "draw-out"
    assert data["play"]["actions"] == [str(a) for a in match.history]
    # one action per line, each line exactly one quoted action
    lines = text.splitlines()
    start = lines.index("actions = [")
    quoted = [ln for ln in lines[start:] if ln.startswith('  "')]
    assert len(quoted) == len(match.history)
    assert all(re.fullmatch(r'  "\d+ [a-z]+( [^"]*)?",', ln) for ln in quoted)
    assert "# round 1: dealer decided by the bidding; team levels 2 2" in text
    assert re.search(r"# round 2 in progress: \w+ phase, seat \d to move", text)
    record = read_record(text)
    assert record == Record.of(match, ["Ann", "Bo", "Cy", "张三"], ["human", "bot", "bot",
                                                                  "bot"])
    assert record.names == ("Ann", "Bo", "Cy", "张三") and record.max_rounds is None


def test_results_are_summarised_in_comments_and_comments_are_ignored() -> None:
    match = play_random_match(Rules(), seed=5, max_rounds=2)
    text = write_record(match)
    summaries = [ln for ln in text.splitlines() if "result:" in ln]
    assert len(summaries) == 2
    for line, result in zip(summaries, match.results, strict=True):
        assert line.lstrip().startswith("#")
        assert f"scored {result.points}" in line or "redeal" in line
    assert "max_rounds = 2" in text and "stopped after 2 rounds" in text
    bare = "\n".join(ln for ln in text.splitlines() if not ln.lstrip().startswith("#"))
    assert read_record(bare) == read_record(text)


def test_save_and_load(tmp_path: Path) -> None:
    match = partial_match(preset("da-bai-fen"), 8, 90)
    path = tmp_path / "game.toml"
    save_record(match, path, names=["N", "E", "S", "W"])
    record = load_record(path)
    assert record.source == str(path)
    assert_same(replay(record), match)
    path.write_text(path.read_text(encoding="utf-8").replace("seed = 8", "seed = x"),
                    encoding="utf-8")
    line = _line_of(path.read_text(encoding="utf-8"), "seed = x")
    with pytest.raises(RecordError, match=rf"game\.toml: line {line}: TOML syntax error"):
        load_record(path)
    with pytest.raises(RecordError, match="cannot read record"):
        load_record(tmp_path / "none.toml")


def test_bad_names() -> None:
    match = partial_match(Rules(), 1, 5)
    with pytest.raises(ValueError, match="one string per seat"):
        write_record(match, names=["a", "b"])


# -- corrupted records report the line ---------------------------------------------------

@pytest.fixture(scope="module")
def finished() -> tuple[Match, str]:
    match = play_random_match(Rules(), seed=21, max_rounds=1)
    return match, write_record(match)


def _error(text: str) -> RecordError:
    with pytest.raises(RecordError) as error:
        replay(read_record(text))
    return error.value


def _line_of(text: str, needle: str, nth: int = 0) -> int:
    found = [i for i, ln in enumerate(text.splitlines(), 1) if needle in ln]
    return found[nth]


def test_refused_action_names_its_line(finished: tuple[Match, str]) -> None:
    match, text = finished
    lines = text.splitlines()
    plays = [i for i, ln in enumerate(lines) if " play " in ln and ln.startswith('  "')]
    index = plays[37]
    action = parse_action(tomllib.loads(f"a = {lines[index].rstrip(',')}")["a"])
    assert isinstance(action, Play)
    # replay up to that action and find a card the seat does not hold
    before = [parse_action(tomllib.loads(f"a = {ln.rstrip(',')}")["a"])
              for ln in lines[:index] if ln.startswith('  "')]
    state = Match(match.rules, seed=match.seed, max_rounds=match.max_rounds)
    for act in before:
        state.apply(act)
    hand = state.round.hands[action.seat]
    missing = next(c for c in ALL_CARDS if hand.count(c) == 0)
    bad = f"{action.seat} play {missing}"
    lines[index] = f'  "{bad}",'
    error = _error("\n".join(lines))
    assert error.line == index + 1
    assert str(error).startswith(f"line {index + 1}: action '{bad}' refused: ")
    assert error.reason.endswith(f"refused: you do not hold {missing}")


def test_a_revoke_is_refused_with_the_follow_reason(finished: tuple[Match, str]) -> None:
    match, text = finished
    lines = text.splitlines()
    state = Match(match.rules, seed=match.seed, max_rounds=match.max_rounds)
    for index, line in enumerate(lines):
        if not line.startswith('  "'):
            continue
        action = parse_action(tomllib.loads(f"a = {line.rstrip(',')}")["a"])
        rnd = state.round
        if (isinstance(action, Play) and rnd.trick is not None and rnd.trick.lead is not None
                and len(action.cards) == 1):
            wrong = [c for c in rnd.hands[action.seat].cards()
                     if rnd.reason(Play(action.seat, (c,))) is not None]
            if wrong:
                bad = f"{action.seat} play {wrong[0]}"
                lines[index] = f'  "{bad}",'
                error = _error("\n".join(lines))
                assert error.line == index + 1
                assert error.reason.startswith(f"action '{bad}' refused: you hold ")
                assert "must be" in error.reason
                return
        state.apply(action)
    pytest.fail("no follow with a wrong card found")  # pragma: no cover


def test_action_out_of_turn(finished: tuple[Match, str]) -> None:
    _, text = finished
    line = _line_of(text, '"2 draw"', 3)
    lines = text.splitlines()
    lines[line - 1] = lines[line - 1].replace("2 draw", "1 draw")
    error = _error("\n".join(lines))
    assert error.line == line and "refused" in error.reason and "turn" in error.reason


def test_action_after_the_end(finished: tuple[Match, str]) -> None:
    _, text = finished
    lines = text.splitlines()
    last = max(i for i, ln in enumerate(lines) if ln.startswith('  "'))
    lines.insert(last + 1, '  "0 play 3H",')
    error = _error("\n".join(lines))
    assert error.line == last + 2 and "the match is over" in error.reason


def test_unreadable_action(finished: tuple[Match, str]) -> None:
    _, text = finished
    line = _line_of(text, " play ", 10)
    lines = text.splitlines()
    lines[line - 1] = re.sub(r'play [^"]+', "play 1X", lines[line - 1])
    error = _error("\n".join(lines))
    assert error.line == line
    assert error.reason.startswith("unreadable action") and "1X" in error.reason


def test_action_that_is_not_a_string(finished: tuple[Match, str]) -> None:
    _, text = finished
    line = _line_of(text, '"0 draw"', 2)
    lines = text.splitlines()
    lines[line - 1] = "  42,"
    assert _error("\n".join(lines)).line == line


def test_other_string_syntaxes_keep_line_numbers(finished: tuple[Match, str]) -> None:
    _, text = finished
    lines = text.splitlines()
    first = _line_of(text, '"1 draw"')
    lines[first - 1] = "  '1 draw', # literal string"
    target = _line_of(text, " play ", 5)
    lines[target - 1] = '  """0 paly 3H""",'
    error = _error("\n".join(lines))
    assert error.line == target and "unreadable" in error.reason


@pytest.mark.parametrize(("edit", "needle", "reason"), [
    (("players = 4", "players = 5"), "players = 5",
     "bad rules: fixed partnerships need an even"),
    (("decks = 2", "decks = 80"), "decks = 80", "decks must be at least 1 and at most 8, got 80"),
    (("tuple_follow =", "tuple_folow ="), "tuple_folow", "did you mean 'tuple_follow'"),
    (('tuple_follow = "draw-out"', 'tuple_follow = "drawout"'), "tuple_follow",
     "did you mean 'draw-out'"),
    (("decks = 2", 'decks = "two"'), "decks =", "decks expects an integer"),
    (("seed = 21\n", ""), "[match]", "missing key 'seed' in [match]"),
    (("seed = 21", "seed = 21\nseeed = 3"), "seeed", "did you mean 'seed'"),
    (("seed = 21", 'seed = "21"'), "seed =", "seed must be an integer"),
    (("seed = 21", "seed = 21\nnames = [\"a\"]"), "names =", "names must be a list of 4"),
    (('format = "shengji-record"', 'format = "pgn"'), "format =", "not a 'shengji-record'"),
    (("version = 1", "version = 9"), "version =", "version 9 is not supported"),
    (("version = 1", "version = " + "9" * 4000), "version =",
     "version an integer of 13288 bits is not supported"),
    (('format = "shengji-record"', 'format = "' + "x" * 9000 + '"'), "format =",
     "format is 'xxxxxxxxxxxxxxxxx...xxxxxxxxxxxxxxxxxx', not a 'shengji-record' record"),
    (("[play]\nactions = [", "[play]\nactoins = ["), "actoins",
     "did you mean 'actions'"),
    (("seed = 21", "seed = 21 21"), "seed = 21 21", "TOML syntax error"),
])
def test_corrupted_records_report_the_line(finished: tuple[Match, str],
                                           edit: tuple[str, str], needle: str,
                                           reason: str) -> None:
    _, text = finished
    old, new = edit
    assert old in text
    bad = text.replace(old, new, 1)
    error = _error(bad)
    assert error.line == _line_of(bad, needle), str(error)
    assert reason in error.reason, str(error)
    assert str(error).startswith(f"line {error.line}: ")


def test_missing_tables() -> None:
    error = _error('format = "shengji-record"\nversion = 1\n[match]\nseed = 1\n')
    assert "missing table [rules]" in error.reason and error.line is not None


def test_records_built_in_code_report_the_action_number() -> None:
    record = Record(Rules(), 1, None, (parse_action("0 play 3H"),))
    with pytest.raises(RecordError, match=r"^action 1: action '0 play 3H' refused: "):
        replay(record)


def test_phase_of_a_resumed_game() -> None:
    match = partial_match(Rules(), 6, 120)
    again = replay(read_record(write_record(match)))
    assert again.round.phase == match.round.phase != Phase.DONE


# -- damaged files and atomic saving (issue 9.7) ------------------------------------------

def test_records_that_are_not_text_give_one_line_errors(finished: tuple[Match, str],
                                                        tmp_path: Path) -> None:
    _, text = finished
    good = text.encode()
    cases = {
        "binary.toml": (bytes(range(256)) * 4, "not UTF-8 text (byte 0x80 at offset 128)"),
        "latin1.toml": (text.replace("match record", "récord").encode("latin-1"),
                        "line 1: not UTF-8 text (byte 0xe9"),
        "utf16.toml": (text.encode("utf-16"), "not UTF-8 text (byte 0xff at offset 0)"),
        "nul.toml": (good.replace(b"[play]", b"[pl\0ay]"), "a NUL character"),
        "deep.toml": (good + b"\nx = " + b"[" * 5000 + b"]" * 5000,
                      "nested more than 32 deep"),
        "dotted.toml": (good + b"\n" + b".".join([b"a"] * 20000) + b" = 1",
                        "a key of more than 32 dotted parts"),
        "number.toml": (good.replace(b"seed = 21", b"seed = " + b"9" * 5000),
                        "a number with too many digits"),
        "huge.toml": (good + b"#" * (16 << 20), "over the limit of 16 MiB"),
        "long-action.toml": (good.replace(b'"1 draw"', b'"1 draw' + b" " * 2000 + b'"', 1),
                             "an action of 2006 characters is too long"),
    }
    for name, (data, words) in cases.items():
        path = tmp_path / name
        path.write_bytes(data)
        for error in (_raises(lambda p=path: load_record(p)),
                      _raises(lambda d=data: read_record(d))):
            message = str(error)
            assert words in message and "\n" not in message, (name, message)
        assert str(_raises(lambda p=path: load_record(p))).startswith(str(path))
    with pytest.raises(RecordError, match="that is a folder, not a regular file"):
        load_record(tmp_path)
    with pytest.raises(RecordError, match="file name contains a NUL"):
        load_record(tmp_path / "a\0b")
    assert replay(read_record(good)).history == replay(read_record(text)).history
    assert read_record(b"\xef\xbb\xbf" + good) == read_record(text)


def _raises(call: Callable[[], object]) -> RecordError:
    with pytest.raises(RecordError) as error:
        call()
    return error.value


def test_a_failed_save_leaves_the_old_record(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.toml"
    old = play_random_match(preset("tractor", end_rank="3"), seed=1, max_rounds=1)
    save_record(old, path)
    before = path.read_bytes()
    new = play_random_match(preset("tractor", end_rank="3"), seed=2, max_rounds=1)

    def disk_full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("shengji.game.files.os.fsync", disk_full)
    with pytest.raises(OSError, match="No space left"):
        save_record(new, path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.toml"]
    monkeypatch.undo()
    path.chmod(0o640)
    save_record(new, path)
    assert load_record(path).seed == 2 and path.stat().st_mode & 0o777 == 0o640


KILLED_WRITER = """
import sys
from shengji.game.files import write_text_atomic as write
texts = [sys.argv[2] * 200_000, sys.argv[3] * 200_000]
write(sys.argv[1], texts[0])
print("ready", flush=True)
while True:
    for text in texts:
        write(sys.argv[1], text)
"""


@pytest.mark.slow
def test_a_kill_at_any_moment_leaves_a_whole_file(tmp_path: Path) -> None:
    """A writer killed at random moments while it rewrites a 4 MB file over and over:
    the file is always one whole version (a plain write leaves it torn most times)."""
    path = tmp_path / "game.toml"
    versions = {"# version one line\n" * 200_000, "# version two line\n" * 200_000}
    rng = Random(5)
    for _ in range(5):
        writer = subprocess.Popen(
            [sys.executable, "-c", KILLED_WRITER, str(path), "# version one line\n",
             "# version two line\n"], stdout=subprocess.PIPE, text=True)
        assert writer.stdout is not None and writer.stdout.readline() == "ready\n"
        time.sleep(rng.uniform(0.005, 0.1))
        writer.send_signal(signal.SIGKILL)
        writer.wait()
        writer.stdout.close()
        assert path.read_text(encoding="utf-8") in versions


# -- a match started from a given deal (issue 11) ------------------------------------------

def _dealt_match() -> Match:
    rules = Rules()
    cards = pack(rules)
    Random(9).shuffle(cards)
    hands = tuple(tuple(cards[s * 25:(s + 1) * 25]) for s in range(4))
    deal = Deal(hands, tuple(cards[100:]), first_drawer=3)
    return Match(rules, seed=4, max_rounds=2, deal=deal, dealer=2, levels=(5, 9, 5, 9))


def test_a_record_holds_the_deal_dealer_and_levels_a_match_started_from() -> None:
    match = _dealt_match()
    rng = Random(4)
    for _ in range(150):
        seat = match.to_move
        assert seat is not None
        match.apply(match.legal(seat).random(rng))
    text = write_record(match)
    assert "[deal]" in text and "dealer = 2" in text and "levels = [5, 9, 5, 9]" in text
    record = read_record(text)
    assert record.deal == match.deal and record.dealer == 2 and record.levels == (5, 9, 5, 9)
    again = replay(record)
    assert again.history == match.history
    assert [h.cards() for h in again.round.hands] == [h.cards() for h in match.round.hands]
    first = replay(read_record(text.split("actions = [")[0] + "actions = []\n"))
    assert match.deal is not None and first.round.deck == match.deal.deck()


@pytest.mark.parametrize(("edit", "message"), [
    (lambda t: t.replace("dealer = 2", "dealer = 7"), "dealer must be a seat 0..3"),
    (lambda t: t.replace("levels = [5, 9, 5, 9]", "levels = [5, 9, 6, 9]"),
     "both members of a team share a level"),
    (lambda t: t.replace("levels = [5, 9, 5, 9]", 'levels = ["5", 9, 5, 9]'),
     "levels needs one level per seat"),
    (lambda t: t.replace("first_drawer = 3", "first_drawer = 9"), "bad deal: first_drawer"),
    (lambda t: t.replace('kitty = "', 'kitty = "AS ', 1), "bad deal: the kitty holds 9"),
    (lambda t: t.replace("first_drawer = 3", "first_drawer = 3\ndealer = 1"),
     "unknown deal key"),
])
def test_a_bad_start_position_in_a_record_is_refused_with_its_line(edit: object,
                                                                   message: str) -> None:
    text = write_record(_dealt_match())
    with pytest.raises(RecordError, match=message) as error:
        read_record(edit(text))  # type: ignore[operator]
    assert error.value.line is not None
