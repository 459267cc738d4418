"""``shengji simulate``: reproducible figures, duplicate deals, the statistics, the command.

The statistics are checked on hand-made games whose figures are worked out below; the
rest plays a few real single-round deals (fast: a tractor round takes a few hundredths
of a second).
"""

from __future__ import annotations

import importlib.util
import io
import json
import math
import os
import signal
import statistics
import subprocess
import sys
import time
from dataclasses import asdict
from pathlib import Path
from types import SimpleNamespace

import pytest

from shengji import cli, simulate
from shengji.engine.rules import Rules
from shengji.game.presets import preset
from shengji.game.record import load_record, read_record, replay
from shengji.players import make_player
from shengji.players import search as search_module
from shengji.simulate import PlayedDeal, deal_seed

H, R = "heuristic", "random"
SEATS = [H, R, H, R]


# -- reproducibility -----------------------------------------------------------------------

def figures(games: list[PlayedDeal], rules: Rules, players: list[str], seed: int
            ) -> dict[str, object]:
    summary = simulate.summarize(games, rules, players, seed=seed, duplicate=True,
                                 matches=False, rules_name="tractor")
    return asdict(summary)


def test_a_fixed_seed_gives_the_same_figures() -> None:
    rules = Rules()
    one = simulate.run(rules, SEATS, deals=3, seed=9, workers=1)
    again = simulate.run(rules, SEATS, deals=3, seed=9, workers=1)
    assert one == again
    assert figures(one, rules, SEATS, 9) == figures(again, rules, SEATS, 9)
    other = simulate.run(rules, SEATS, deals=3, seed=10, workers=1)
    assert [g.points for g in other] != [g.points for g in one]


def test_the_number_of_workers_does_not_change_the_figures() -> None:
    rules = preset("da-bai-fen")
    ticks: list[int] = []
    alone = simulate.run(rules, SEATS, deals=4, seed=2, workers=1, progress=ticks.append)
    shared = simulate.run(rules, SEATS, deals=4, seed=2, workers=2)
    assert alone == shared
    assert figures(alone, rules, SEATS, 2) == figures(shared, rules, SEATS, 2)
    assert ticks == [1] * 4                       # one tick per deal


@pytest.mark.slow
@pytest.mark.parametrize("workers", [2, 3])
def test_more_deals_than_the_window_in_deal_order_whatever_the_workers(workers: int) -> None:
    """Past the window of deals in flight (4 per worker), with their records:
    the same games, in the same order, as on one worker."""
    rules = Rules()
    deals = 4 * workers + 3
    alone, shared = (simulate.run(rules, [R] * 4, deals=deals, seed=11,
                                  keep_records=True, workers=w) for w in (1, workers))
    assert [(g.deal, g.swapped) for g in shared] == [(d, s) for d in range(deals)
                                                     for s in (False, True)]
    assert shared == alone
    # real games, a different one each deal (with the same player at every seat, the
    # swapped game is the same game)
    assert len({g.record for g in alone}) == deals and all(g.actions > 100 for g in alone)


@pytest.mark.slow
def test_the_command_writes_the_same_files_whatever_the_workers(tmp_path: Path) -> None:
    outputs = []
    for workers in ("1", "3"):
        out, folder = tmp_path / f"w{workers}.json", tmp_path / f"records{workers}"
        code = cli.main(["simulate", "--rounds", "9", "--players", "heuristic,random",
                         "--seed", "21", "--workers", workers, "--json", str(out),
                         "--records", str(folder)])
        assert code == 0
        files = {f.name: f.read_bytes() for f in sorted(folder.iterdir())}
        outputs.append((out.read_bytes(), files))
    assert len(outputs[0][1]) == 18
    assert outputs[0] == outputs[1]


# -- duplicate deals -----------------------------------------------------------------------

def test_duplicate_deals_swap_the_sides() -> None:
    """Each deal is played twice from the same seed, the second time with the players
    moved one seat round: at four seats the two sides trade places."""
    rules = Rules()
    games = simulate.run(rules, SEATS, deals=2, seed=5, workers=1, keep_records=True)
    assert [(g.deal, g.swapped) for g in games] == [(0, False), (0, True), (1, False),
                                                   (1, True)]
    for plain, swapped in (games[0:2], games[2:4]):
        assert plain.labels == (H, R, H, R)
        assert swapped.labels == (R, H, R, H)
        assert swapped.labels == plain.labels[-1:] + plain.labels[:-1]
        records = [read_record(g.record) for g in (plain, swapped)]
        assert records[0].seed == records[1].seed == deal_seed(5, plain.deal)
        assert [r.names for r in records] == [plain.labels, swapped.labels]
        first = [replay(r).results[0] for r in records]
        assert first[0].levels_before == first[1].levels_before
    assert deal_seed(5, 0) != deal_seed(5, 1)


def test_duplicate_deals_rotate_by_one_seat_at_five() -> None:
    rules = preset("finding-friends", players=5)
    names = [H, R, "heuristic-nomem", R, R]
    games = simulate.run(rules, names, deals=1, seed=1, workers=1, keep_records=True)
    plain, swapped = games
    assert plain.labels == tuple(names)
    assert swapped.labels == (R, H, R, "heuristic-nomem", R)
    assert read_record(plain.record).seed == read_record(swapped.record).seed
    single = simulate.run(rules, names, deals=1, seed=1, workers=1, duplicate=False)
    assert single == [PlayedDeal(**{**asdict(plain), "record": ""})]


def test_run_checks_the_players_first() -> None:
    with pytest.raises(ValueError, match="needs 4 names"):
        simulate.run(Rules(), [H, R], deals=1)
    with pytest.raises(ValueError, match="unknown player 'smart'"):
        simulate.run(Rules(), [H, R, H, "smart"], deals=1, workers=1)


# -- the statistics ------------------------------------------------------------------------

def hand_made() -> list[PlayedDeal]:
    """Two deals, each played both ways; deal 1 is a two-round match in which seats 0 and 2
    of the swapped game lose a level (it counts against their average, not as a loss of
    the levelling total)."""
    return [
        PlayedDeal(0, False, (H, R, H, R), 1, 100, (2, 0, 2, 0), (1, 0, 1, 0), (30,), (0, 2),
             ((2, 2, 2, 2), (4, 2, 4, 2))),
        PlayedDeal(0, True, (R, H, R, H), 1, 120, (0, 1, 0, 1), (0, 1, 0, 1), (90,), (1, 3),
             ((2, 2, 2, 2), (2, 3, 2, 3))),
        PlayedDeal(1, False, (H, R, H, R), 2, 210, (1, 3, 1, 3), (1, 1, 1, 1), (40, 100), (),
             ((2, 2, 2, 2), (3, 2, 3, 2), (3, 5, 3, 5))),
        PlayedDeal(1, True, (R, H, R, H), 2, 170, (-1, 2, -1, 2), (0, 2, 0, 2), (85, 120), (0, 2),
             ((3, 2, 3, 2), (3, 4, 3, 4), (2, 4, 2, 4))),
    ]


def test_levels_per_round_and_leveling_rate_by_hand() -> None:
    summary = simulate.summarize(hand_made(), Rules(), SEATS, seed=0, duplicate=True,
                                 matches=True, rules_name="tractor")
    assert (summary.deals, summary.games, summary.mode) == (2, 4, "matches")
    heuristic, random_ = summary.labels
    assert (heuristic.label, heuristic.seats, random_.label, random_.seats) == (H, 2, R, 2)
    # levels per round, per deal (the mean of its two games), then over the deals:
    # heuristic: deal 0 (2+2)/2/1 = 2 and (1+1)/2/1 = 1 -> 1.5; deal 1 (1+1)/2/2 = 0.5 and
    # (2+2)/2/2 = 1 -> 0.75; mean 1.125, sample sd 0.375*sqrt(2), ci 1.96*0.375.
    assert heuristic.levels_per_round == pytest.approx(1.125)
    assert heuristic.ci95 == pytest.approx(1.96 * 0.375)
    # random: deal 0 -> 0; deal 1: (3+3)/2/2 = 1.5 and (-1-1)/2/2 = -0.5 -> 0.5.
    assert random_.levels_per_round == pytest.approx(0.25)
    assert random_.ci95 == pytest.approx(1.96 * math.sqrt(0.125 / 2))
    # levelling rate: levels won (losses not subtracted): heuristic 4+2+2+4 = 12, random
    # 0+0+6+0 = 6, of 18.
    assert heuristic.leveling_rate == pytest.approx(12 / 18)
    assert random_.leveling_rate == pytest.approx(6 / 18)
    # rounds won per round played per seat: heuristic 2+2+2+4 of 2+2+4+4, random 2 of 12.
    assert heuristic.round_win_rate == pytest.approx(10 / 12)
    assert random_.round_win_rate == pytest.approx(2 / 12)
    # match wins: heuristic in games 0 and 1, random in game 3, nobody in game 2.
    assert heuristic.match_win_rate == pytest.approx(2 / 4)
    assert random_.match_win_rate == pytest.approx(1 / 4)
    assert summary.points == [30, 90, 40, 100, 85, 120]
    assert summary.average_opponent_points == pytest.approx(465 / 6)
    assert summary.average_rounds == pytest.approx(1.5)
    assert summary.average_actions == pytest.approx(150)


def test_rounds_mode_and_a_single_label() -> None:
    games = [g for g in hand_made() if g.deal == 0]
    summary = simulate.summarize(games, Rules(), SEATS, seed=0, duplicate=True,
                                 matches=False, rules_name="tractor")
    heuristic, random_ = summary.labels
    assert heuristic.match_win_rate == random_.match_win_rate == 0.0   # rounds: no matches
    assert heuristic.ci95 == 0.0                  # one deal: no spread to speak of
    assert heuristic.leveling_rate == 1.0 and random_.leveling_rate == 0.0
    mirror = PlayedDeal(0, False, (H,) * 4, 2, 300, (3, 0, 3, 0), (1, 1, 1, 1), (60, 85), (),
                  ((2, 2, 2, 2), (4, 2, 4, 2), (5, 2, 5, 2)))
    alone = simulate.summarize([mirror], Rules(), [H] * 4, seed=0, duplicate=False,
                               matches=False, rules_name="tractor")
    (only,) = alone.labels                        # (3+0+3+0)/4 seats/2 rounds
    assert (only.seats, only.levels_per_round, only.leveling_rate) == (4, 0.75, 1.0)
    assert only.round_win_rate == 0.5 and alone.deals == 1


def test_summary_json_round_trips() -> None:
    summary = simulate.summarize(hand_made(), Rules(), SEATS, seed=3, duplicate=True,
                                 matches=True, rules_name="tractor")
    data = json.loads(summary.to_json())
    assert data["labels"][0]["leveling_rate"] == pytest.approx(12 / 18)
    assert data == json.loads(json.dumps(asdict(summary)))


# -- the command ---------------------------------------------------------------------------

def test_simulate_command_writes_json_and_replayable_records(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, folder = tmp_path / "summary.json", tmp_path / "records"
    code = cli.main(["simulate", "--rounds", "4", "--players", "heuristic,random",
                     "--workers", "1", "--seed", "3", "--json", str(out),
                     "--records", str(folder)])
    assert code == 0
    assert "levels/round" in capsys.readouterr().out
    data = json.loads(out.read_text(encoding="utf-8"))
    assert (data["deals"], data["games"], data["mode"], data["seed"]) == (4, 8, "rounds", 3)
    assert data["players"] == SEATS and [s["label"] for s in data["labels"]] == [H, R]
    assert sum(s["leveling_rate"] for s in data["labels"]) == pytest.approx(1.0)
    files = sorted(folder.iterdir())
    assert [f.name for f in files] == sorted(
        f"deal{d:05d}{suffix}.toml" for d in range(4) for suffix in ("", "-swapped"))
    points: list[int] = []
    for deal in range(4):
        for suffix, names in (("", SEATS), ("-swapped", [R, H, R, H])):
            record = load_record(folder / f"deal{deal:05d}{suffix}.toml")
            assert record.seed == deal_seed(3, deal) and record.max_rounds == 1
            assert list(record.names or ()) == names
            match = replay(record)
            assert match.is_over and len(match.results) == 1
            assert list(match.history) == list(record.actions)
            points.extend(r.points for r in match.results if not r.redeal)
    assert data["points"] == points               # the replays give the same rounds
    again = simulate.run(Rules(), SEATS, deals=4, seed=3, workers=1)
    assert [p for g in again for p in g.points] == points


@pytest.mark.slow
def test_simulate_command_plots(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    image = tmp_path / "plot.png"
    code = cli.main(["simulate", "--preset", "da-bai-fen", "--rounds", "2", "--workers",
                     "1", "--plot", str(image)])
    assert code == 0
    assert image.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(("players", "message"), [
    ("heuristic,smart", "unknown player 'smart'; choose from random, heuristic"),
    ("heuristic,random,random,random,random", "--players names 5 players for 4 computer "
                                              "seats: name at most 4"),
    (" , ", "--players needs player names; choose from random"),
])
def test_bad_player_names_exit_with_2(players: str, message: str,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["simulate", "--rounds", "1", "--workers", "1", "--players", players])
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("shengji simulate: ") and message in err
    assert "Traceback" not in err


@pytest.mark.slow
def test_bad_players_from_the_shell(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "shengji", "simulate", "--rounds", "1",
                           "--players", "heuristc"], capture_output=True, text=True,
                          cwd=tmp_path, timeout=60)
    assert done.returncode == 2
    assert "unknown player 'heuristc'" in done.stderr and "Traceback" not in done.stderr


def test_finding_friends_table_from_the_command(tmp_path: Path) -> None:
    out = tmp_path / "ff.json"
    code = cli.main(["simulate", "--preset", "finding-friends", "--table", "5", "--rounds",
                     "1", "--workers", "1", "--players", "heuristic,random,heuristic-nomem",
                     "--no-duplicate", "--json", str(out)])
    assert code == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["players"] == [H, R, "heuristic-nomem", H, R] and data["games"] == 1
    assert [(s["label"], s["seats"]) for s in data["labels"]] == [
        (H, 2), (R, 2), ("heuristic-nomem", 1)]


# -- what the figures mean, the progress bar, the plot ----------------------------------------

def test_the_leveling_rate_is_defined_in_the_output_and_the_help(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["simulate", "--rounds", "1", "--workers", "1", "--players", "random"]) == 0
    out = capsys.readouterr().out
    assert "leveling rate" in out
    assert ("leveling rate = a player's share of all levels gained (its seats' gains / every "
            "seat's)") in " ".join(out.split())
    with pytest.raises(SystemExit):
        cli.main(["simulate", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert ("leveling rate its share of all the levels gained: levels gained by its seats / "
            "levels gained by every seat (losses not subtracted)") in help_text
    assert "levels/round levels its seats gain per round played" in help_text


SLOW_SIMULATE = """\
import sys, time
from shengji import cli, simulate
play = simulate.play_game
def slow(*args, **kwargs):
    time.sleep(float(sys.argv[1]))
    return play(*args, **kwargs)
simulate.play_game = slow
sys.exit(cli.main(["simulate", *sys.argv[2:]]))
"""
"""``shengji simulate`` with each game made to last at least ``argv[1]`` seconds, so the
progress bar's test does not depend on the speed of the machine or of the build."""


def _simulate_in_a_terminal(pause: float, args: list[str]) -> str:
    import os
    import re

    import pexpect

    env = dict(os.environ, TERM="xterm", COLUMNS="80", LINES="24")
    child = pexpect.spawn(sys.executable, ["-c", SLOW_SIMULATE, str(pause), "--workers", "1",
                                           *args], env=env, encoding="utf-8",
                          dimensions=(24, 80), timeout=120)
    child.logfile_read = io.StringIO()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", child.logfile_read.getvalue())


@pytest.mark.slow
def test_a_progress_bar_on_runs_longer_than_a_second() -> None:
    import re

    long = _simulate_in_a_terminal(0.025, ["--rounds", "40", "--players", "random"])
    counts = re.findall(r"(\d+)/40 deals", long)             # 80 games: 2 s at least
    assert counts and counts == sorted(counts, key=int)   # it moves forward
    assert "levels/round" in long
    short = _simulate_in_a_terminal(0.0, ["--rounds", "1", "--players", "random"])
    assert not re.search(r"\d+/1 deals", short)


@pytest.mark.slow
def test_games_know_the_declarers_of_each_round() -> None:
    rules = Rules()
    games = simulate.run(rules, SEATS, deals=3, seed=4, workers=1, keep_records=True,
                         matches=True)
    for game in games:
        results = replay(read_record(game.record)).results
        assert game.declarers == tuple(() if r.redeal else r.declarers for r in results)
        assert len(game.levels) == len(game.declarers) + 1


def test_level_gains_by_side() -> None:
    rules = Rules()
    games = simulate.run(rules, SEATS, deals=4, seed=2, workers=1)
    gains = simulate.level_gains(games)
    assert set(gains) == {(H, "declarers"), (H, "attackers"), (R, "declarers"),
                          (R, "attackers")}
    rounds = sum(1 for g in games for d in g.declarers if d)
    assert sum(sum(c.values()) for c in gains.values()) == 4 * rounds   # every seat, once
    assert all(isinstance(v, int) for c in gains.values() for v in c)
    assert all(v >= 0 for (label, side), c in gains.items() for v in c)
    made = PlayedDeal(0, False, (H, R, H, R), 1, 10, (1, 0, 1, 0), (1, 0, 1, 0), (20,), (),
                ((2, 2, 2, 2), (3, 2, 3, 2)), declarers=((0, 2),))
    assert simulate.level_gains([made]) == {(H, "declarers"): {1: 2}, (R, "attackers"): {0: 2}}


@pytest.mark.slow
def test_the_plot_of_rounds_keeps_sides_apart_on_integer_axes() -> None:
    pytest.importorskip("matplotlib")
    rules = Rules()
    games = simulate.run(rules, SEATS, deals=3, seed=1, workers=1)
    summary = simulate.summarize(games, rules, SEATS, seed=1, duplicate=True, matches=False,
                                 rules_name="tractor")
    fig = simulate.figure(summary, games, rules)
    left, right = fig.axes
    assert "attackers" in left.get_title() and left.get_legend_handles_labels()[1] == [
        "target 80"]
    labels = right.get_legend_handles_labels()[1]
    assert sorted(labels) == sorted(f"{p} as {side}" for p in (H, R)
                                    for side in ("declarers", "attackers"))
    assert all(float(t).is_integer() for t in right.get_xticks())
    assert all(float(t).is_integer() for t in left.get_xticks())


@pytest.mark.slow
def test_the_plot_of_matches_shows_levels_as_ranks() -> None:
    pytest.importorskip("matplotlib")
    rules = preset("da-bai-fen")
    games = simulate.run(rules, SEATS, deals=1, seed=1, workers=1, matches=True)
    summary = simulate.summarize(games, rules, SEATS, seed=1, duplicate=True, matches=True,
                                 rules_name="da-bai-fen")
    fig = simulate.figure(summary, games, rules)
    right = fig.axes[1]
    fig.canvas.draw()
    ranks = [t.get_text() for t in right.get_yticklabels()]
    assert ranks == ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    assert all(float(t).is_integer() for t in right.get_xticks())
    assert set(right.get_legend_handles_labels()[1]) == {H, R}


# -- matches that never end (after_end = wrap) ---------------------------------------------

def _wrap_rules(tmp_path: Path) -> str:
    path = tmp_path / "wrap.toml"
    path.write_text('preset = "tractor"\nafter_end = "wrap"\nend_rank = "4"\n', encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("after_end", ["wrap", "no-trump-wrap"])
def test_endless_matches_are_refused_before_any_work_without_a_bound(
        after_end: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "endless.toml"
    path.write_text(f'preset = "tractor"\nafter_end = "{after_end}"\n', encoding="utf-8")
    out = tmp_path / "summary.json"
    code = cli.main(["simulate", "--rules", str(path), "--matches", "3", "--workers", "1",
                     "--players", "random", "--json", str(out)])
    assert code == 2
    err = capsys.readouterr().err
    assert err == (f"shengji simulate: a match with after_end='{after_end}' never ends: give "
                   "--max-rounds N (the most rounds a match plays)\n")
    assert not out.exists()
    with pytest.raises(ValueError, match="never ends: give max_rounds"):
        next(simulate.stream(Rules(after_end=after_end), [R] * 4, deals=1, matches=True))


def test_endless_matches_play_to_the_bound_and_say_how_many_stopped(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "summary.json"
    code = cli.main(["simulate", "--rules", _wrap_rules(tmp_path), "--matches", "2",
                     "--max-rounds", "3", "--workers", "1", "--players", "random",
                     "--json", str(out)])
    assert code == 0
    printed = capsys.readouterr().out
    summary = json.loads(out.read_text(encoding="utf-8"))
    assert summary["max_rounds"] == 3 and summary["games"] == 4
    assert summary["unfinished"] == 4 and summary["average_rounds"] == 3.0
    assert "4 of 4 matches stopped at the bound of 3 rounds (--max-rounds)" in printed


def test_a_bound_on_ordinary_matches_counts_only_the_matches_it_cut() -> None:
    rules = Rules(end_rank="3")
    games = simulate.run(rules, [R] * 4, deals=3, matches=True, workers=1, max_rounds=4)
    summary = simulate.summarize(games, rules, [R] * 4, seed=0, duplicate=True, matches=True,
                                 rules_name="short", max_rounds=4)
    # the third deal's two matches end in 3 rounds; the others are cut at 4
    assert [(g.rounds, g.unfinished) for g in games] == [(4, True)] * 4 + [(3, False)] * 2
    assert summary.unfinished == 4 and summary.max_rounds == 4


def test_the_bound_is_for_matches_only(capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["simulate", "--rounds", "1", "--max-rounds", "3", "--players", "random"])
    assert code == 2
    assert "--max-rounds N is for whole matches (--matches)" in capsys.readouterr().err


@pytest.mark.parametrize("options", [
    'rainbow = 3\nrainbow_throws = true\n',
    'bid_reinforce_after_bury = true\nkitty_overbid = true\n',
    'after_end = "wrap"\nend_rank = "3"\nleftover_steps = "carry"\n',
    'partnership = "fluid"\nplayers = 7\nkitty = 9\nremoved_ranks = ["2"]\n',
])
def test_the_house_rules_play_in_simulate(options: str, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "house.toml"
    path.write_text('preset = "tractor"\n' + options, encoding="utf-8")
    wrap = "wrap" in options
    code = cli.main(["simulate", "--rules", str(path), "--workers", "1", "--players",
                     "heuristic,random", *(["--matches", "1", "--max-rounds", "3"] if wrap
                                           else ["--rounds", "2"])])
    assert code == 0, capsys.readouterr().err
    assert "levels/round" in capsys.readouterr().out


# -- the paired difference, the files written, the colours ---------------------------------

def test_the_paired_difference_by_hand() -> None:
    summary = simulate.summarize(hand_made(), Rules(), SEATS, seed=0, duplicate=True,
                                 matches=True, rules_name="tractor")
    (pair,) = summary.paired
    # per game, heuristic's levels per seat less random's: deal 0: 2 - 0 and 1 - 0 -> 1.5;
    # deal 1 (matches: the whole match's levels): 1 - 3 and 2 - (-1) -> 0.5; mean 1, sample
    # sd sqrt(0.5), ci 1.96 * sqrt(0.5 / 2)
    assert (pair.first, pair.second, pair.deals) == (H, R, 2)
    assert pair.levels_per_deal == pytest.approx(1.0)
    assert pair.ci95 == pytest.approx(1.96 * 0.5)
    assert simulate.deal_difference(hand_made()[:2], R, H) == pytest.approx(-1.5)
    assert simulate.deal_difference(hand_made()[:2], H, "search") is None
    assert simulate.mean_ci95([]) == (0.0, 0.0) and simulate.mean_ci95([2.0]) == (2.0, 0.0)
    alone = simulate.summarize(hand_made()[:1], Rules(), [H] * 4, seed=0, duplicate=False,
                               matches=False, rules_name="tractor")
    assert alone.paired == []                      # one label: nothing to pair


def test_the_paired_difference_is_the_benchmarks_levels_per_deal() -> None:
    """The benchmarks' figure: per deal, the levels gained per seat by one player's seats
    less the other's, averaged over the deal's two seatings; deals the samples."""
    rules = preset("da-bai-fen")
    games = simulate.run(rules, SEATS, deals=6, seed=3, workers=1)
    summary = simulate.summarize(games, rules, SEATS, seed=3, duplicate=True, matches=False,
                                 rules_name="da-bai-fen")
    per_deal = []
    for deal in range(6):
        diffs = []
        for game in (g for g in games if g.deal == deal):
            mine = [game.gained[s] for s in range(4) if game.labels[s] == H]
            theirs = [game.gained[s] for s in range(4) if game.labels[s] == R]
            diffs.append(statistics.fmean(mine) - statistics.fmean(theirs))
        per_deal.append(statistics.fmean(diffs))
    (pair,) = summary.paired
    assert pair.levels_per_deal == pytest.approx(statistics.fmean(per_deal))
    assert pair.ci95 == pytest.approx(1.96 * statistics.stdev(per_deal) / math.sqrt(6))


@pytest.mark.slow
def test_the_command_prints_the_paired_difference_and_names_the_files_it_wrote(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, folder = tmp_path / "summary.json", tmp_path / "records"
    args = ["simulate", "--rounds", "3", "--players", "heuristic,random", "--workers", "1",
            "--seed", "2", "--json", str(out), "--records", str(folder)]
    plotting = importlib.util.find_spec("matplotlib") is not None
    image = tmp_path / "plot.png"
    assert cli.main(args + (["--plot", str(image)] if plotting else [])) == 0
    printed = capsys.readouterr().out
    data = json.loads(out.read_text(encoding="utf-8"))
    (pair,) = data["paired"]
    assert (pair["first"], pair["second"], pair["deals"]) == (H, R, 3)
    line = (f"paired difference, heuristic less random: {pair['levels_per_deal']:+.3f} ± "
            f"{pair['ci95']:.3f} levels per deal (95% CI over 3 duplicate deals)")
    assert line in printed.splitlines()
    wrote = [text for text in printed.splitlines() if text.startswith("wrote ")]
    assert wrote == [f"wrote 6 game records to {folder}",
                     f"wrote the summary (JSON) to {out}",
                     *([f"wrote the plot to {image}"] if plotting else [])]


@pytest.mark.slow
def test_plot_colours_follow_the_player_kind() -> None:
    pytest.importorskip("matplotlib")
    from matplotlib.colors import to_hex

    assert simulate.kind_colour("heuristic") == "tab:blue"
    assert simulate.kind_colour("someone") == simulate.kind_colour("someone")
    rules = preset("da-bai-fen")
    colours = []
    for players in ([H, R, H, R], [R, H, R, H]):
        games = simulate.run(rules, players, deals=1, seed=1, workers=1, matches=True)
        summary = simulate.summarize(games, rules, players, seed=1, duplicate=True,
                                     matches=True, rules_name="da-bai-fen")
        right = simulate.figure(summary, games, rules).axes[1]
        handles, labels = right.get_legend_handles_labels()
        colours.append({label: to_hex(h.get_color()) for h, label in zip(handles, labels,
                                                                          strict=True)})
    assert colours[0] == colours[1] == {H: to_hex("tab:blue"), R: to_hex("tab:orange")}


def test_a_player_without_its_model_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    """No learned model fits tractor at six players with two decks: the run says what the
    learned player does instead (once), and plays on; where one fits (tractor, da-bai-fen,
    Finding Friends), nothing is said."""
    for table, noted in ((["tractor", "--table", "6"], True), (["tractor"], False),
                         (["da-bai-fen"], False), (["finding-friends"], False)):
        code = cli.main(["simulate", "--preset", *table, "--rounds", "1", "--workers", "1",
                         "--players", "learned,heuristic", "--seed", "2"])
        out = capsys.readouterr().out
        notes = [line for line in out.splitlines() if line.startswith("note: ")]
        assert code == 0 and "levels/round" in out
        assert notes == (["note: no learned model fits these rules (6 players, 2 decks): "
                          "learned plays as the heuristic"] if noted else [])


@pytest.mark.slow
def test_the_search_player_simulates_the_same_whatever_the_load(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A simulation's search player samples a fixed number of deals per decision, never a
    time budget: a slow machine (here a clock that runs fast) plays the same games. (On
    this deal a player thinking against the clock plays otherwise.)"""
    rules = preset("da-bai-fen")
    players = ["search", "heuristic"] * 2
    quiet = simulate.play_game(rules, players, 6, 0, swapped=False, max_rounds=1)
    ticks = iter(range(10**9))  # every reading of the clock a second later
    monkeypatch.setattr(search_module, "time",
                        SimpleNamespace(perf_counter=lambda: float(next(ticks))))
    loaded = simulate.play_game(rules, players, 6, 0, swapped=False, max_rounds=1)
    assert loaded == quiet


def test_a_thinking_player_takes_a_time_or_a_number_of_worlds() -> None:
    assert make_player("search", worlds=32).iterations == 32
    with pytest.raises(ValueError, match="not both"):
        make_player("search", think=1.0, worlds=8)
    with pytest.raises(ValueError, match="worlds"):
        make_player("search", worlds=0)
    make_player("heuristic", worlds=8)  # decides at once: checked, not used


@pytest.mark.slow
@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_stops_a_run_in_one_line(workers: str, tmp_path: Path) -> None:
    """A terminal's Ctrl-C reaches every process of the command: the workers leave it to
    the parent, which says it was interrupted, without a traceback, and leaves no file
    half written."""
    run = subprocess.Popen(
        [sys.executable, "-m", "shengji", "simulate", "--rounds", "20000", "--workers",
         workers, "--records", str(tmp_path / "games")], stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(4)
    os.killpg(run.pid, signal.SIGINT)
    _, err = run.communicate(timeout=60)
    assert run.returncode == 130, err
    assert err.strip().endswith("shengji simulate: interrupted") and "Traceback" not in err
    games = tmp_path / "games"
    assert not games.exists() or not [p for p in games.iterdir() if p.suffix == ".tmp"]
