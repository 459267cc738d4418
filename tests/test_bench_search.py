"""The strength benchmark's own machinery (``benchmarks/bench_search.py``): its figures mean
what they say, and bad flags are refused."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from script_helpers import ROOT, Ran, load_script, run_main
from shengji.game.phase import Phase
from shengji.game.presets import preset
from shengji.players.learned import shipped_model
from shengji.players.search import RACE, Z, verdict

SCRIPT = ROOT / "benchmarks" / "bench_search.py"
SHORT_DA_BAI_FEN = preset("da-bai-fen", removed_ranks=(2, 3, 4))
"""Da Bai Fen's table (its model fits) with 9 cards a hand: the logs' tests play whole deals."""


def _bench() -> ModuleType:
    return load_script(SCRIPT)


Capsys = pytest.CaptureFixture[str]


def script(capsys: Capsys, *argv: str, check: bool = False) -> Ran:
    """Run the script's ``main`` on ``argv`` in this process; ``check``: it must succeed."""
    return run_main(capsys, _bench(), *argv, check=check)


@pytest.mark.slow
@pytest.mark.parametrize("solo", [False, True])
def test_one_world_search_is_the_heuristic_so_every_deal_scores_zero(solo: bool) -> None:
    # one world never overrides the heuristic's choice: the games with and without search
    # are the same games only if each seat's players are seeded alike, as the figure needs
    # (without a model the learned base is the heuristic, but for the first round's bid)
    bench = _bench()
    rules = preset("da-bai-fen", players=6)  # no model fits
    for deal in range(2):
        figure, times, overrides = bench.play_deal(rules, 7 + deal, bench.Budget(1, 1.0),
                                                   bench.Setting(grab=False), solo=solo)
        assert figure == 0.0
        assert overrides == 0
        assert times  # search was asked


@pytest.mark.slow
def test_games_with_a_dealer_set_have_no_bid_for_the_dealership() -> None:
    # the learned base without a model (six players, one deck) differs from the heuristic
    # only in the first round's bid for the dealership: with the dealer set, one world
    # scores zero again (two deals: the second is one where the bid makes a difference)
    bench = _bench()
    rules = preset("da-bai-fen", players=6)
    grabbed = [bench.play_deal(rules, 7 + deal, bench.Budget(1, 1.0))[0] for deal in range(2)]
    assert any(figure != 0.0 for figure in grabbed)
    for deal in range(2):
        figure, _, _ = bench.play_deal(rules, 7 + deal, bench.Budget(1, 1.0),
                                       bench.Setting(set_dealer=True))
        assert figure == 0.0


@pytest.mark.slow
def test_solo_and_two_game_figures_differ_when_search_overrides() -> None:
    bench = _bench()
    rules = preset("da-bai-fen", players=6)  # no model fits: every decision searched
    found = {bench.play_deal(rules, 3, bench.Budget(2, 1.0), solo=solo)[2] > 0
             for solo in (False, True)}
    assert found == {True}  # two worlds do override: the figures measure real choices


def test_a_negative_z_is_refused_with_a_clear_error() -> None:
    out = subprocess.run([sys.executable, str(SCRIPT), "--z", "-1"], capture_output=True,
                         text=True, check=False)  # as a script, once
    assert out.returncode == 2
    assert "--z must be 0 or more, got -1.0" in out.stderr


@pytest.mark.slow
def test_a_logged_run_resumes_where_it_stopped_with_the_same_figures(tmp_path: Path) -> None:
    # a run of hours must survive being stopped: deals already in the log are not played
    # again, and the figures equal those of one uninterrupted run (here of two deals,
    # stopped after the first)
    bench = _bench()
    rules = SHORT_DA_BAI_FEN
    budget = bench.Budget(2, 1.0)
    log = str(tmp_path / "deals.jsonl")
    key = {"preset": "da-bai-fen"}
    whole = bench.run(rules, budget, 2, 5, 1)
    first = bench.run(rules, budget, 1, 5, 1, log=log, key=key)
    with open(log, "a", encoding="utf-8") as out:
        out.write('{"key": {"pres')  # a run stopped while writing its line
    resumed = bench.run(rules, budget, 2, 5, 1, log=log, key=key)
    assert first["per_deal"] == whole["per_deal"][:1]
    assert resumed["resumed"] == 1
    assert resumed["per_deal"] == whole["per_deal"]
    assert resumed["decisions"] == whole["decisions"]
    assert resumed["overrides"] == whole["overrides"]
    report = bench.run(rules, budget, 10, 5, 1, log=log, key=key, play=False)
    assert report["per_deal"] == whole["per_deal"]  # only the 2 deals it holds, none played
    packed = log + ".gz"  # a stored log (benchmarks/results/) reads the same
    with open(log, "rb") as plain, gzip.open(packed, "wb") as out:
        out.write(plain.read())
    stored = bench.run(rules, budget, 2, 5, 1, log=packed, key=key, play=False)
    assert stored["per_deal"] == whole["per_deal"]
    with pytest.raises(ValueError, match="holds none of these deals"):
        bench.run(rules, bench.Budget(3, 1.0), 2, 5, 1, log=log, key=key, play=False)


def test_the_log_names_the_learned_base_only_where_a_model_fits_the_rules() -> None:
    # where no model fits, the learned base is the heuristic: its logs are the same deals
    bench = _bench()
    # (and the shipped model's margins and kitty margin: logs without them were played by
    # the models without them)
    model = shipped_model("tractor")
    assert model.bury is not None
    named = {"base": "learned", "margins": [0.07, 0.02], "bury": model.bury_margin,
             "trees": 150, "grab": True}
    assert bench.Setting().key(preset("tractor")) == {**named, "prior": 1.0, "endgame": 20,
                                                      "rollouts": "learned"}
    # (the endgame is the player's own, 20 cards with learned rollouts, else 12)
    assert bench.Setting(rollouts="heuristic").key(preset("tractor"))["endgame"] == 12
    assert bench.Setting(endgame=12).key(preset("tractor"))["endgame"] == 12
    # (an endgame of the whole hand or more searches every play: recorded as the hand, so
    # Da Bai Fen's 12-card logs read back whatever the default endgame)
    for endgame in (12, 16, "auto"):
        assert bench.Setting(endgame=endgame).key(preset("da-bai-fen"))["endgame"] == 12
    assert bench.Setting(prior=0.0, endgame=None, rollouts="heuristic").key(
        preset("tractor")) == named
    # (the models shipped before 2026-12-02 had 400 trees a forest: their logs name none)
    assert "trees" not in bench.Setting(trees=400).key(preset("tractor"))
    assert "bury" not in bench.Setting(bury=False).key(preset("tractor"))
    # ... and whether it bids at once for the first round's dealership (where the first
    # bidder deals, and the games do not start with a dealer set)
    assert "grab" not in bench.Setting(grab=False).key(preset("tractor"))
    six = preset("da-bai-fen", players=6)  # no model fits
    assert bench.Setting().key(six) == {"grab": True}
    assert bench.Setting(set_dealer=True).key(six) == {"set_dealer": True}
    one_deck = shipped_model("da-bai-fen")  # da-bai-fen and the Hundred
    assert bench.Setting().key(preset("hundred")) == {
        "base": "learned", "margins": [0.07, 0.02], "bury": one_deck.bury_margin,
        "prior": 1.0, "endgame": 12, "rollouts": "learned",  # (12 cards a hand)
        "phases": "kitty,play",  # (the model's phases: its logs before had the play alone)
        "read_kitty": True}  # (the model reads the kitty: its logs before had a random one)
    assert "phases" not in bench.Setting(phases=(Phase.PLAY,)).key(preset("hundred"))
    # ... and the worlds' kitty read from its burier (logs without: a random kitty)
    assert "read_kitty" not in bench.Setting(read_kitty=False).key(preset("hundred"))
    assert "read_kitty" not in bench.Setting().key(preset("tractor"))
    assert bench.Setting(read_kitty=True).key(preset("tractor"))["read_kitty"] is True
    assert "phases" not in bench.Setting(endgame=None).key(preset("hundred"))
    # (the rollouts are named only where learned players can finish them: fixed partners
    # and a model; logs without: heuristic rollouts)
    assert "rollouts" not in bench.Setting().key(preset("finding-friends", players=5))
    assert bench.Setting(learned=False).key(preset("tractor")) == {}


@pytest.mark.slow
@pytest.mark.parametrize(("stored", "deals", "worlds", "seed", "fix", "figure", "hint"), [
    # docs/experiments.md's 1,000-deal figure of search on the heuristic base, read again
    ("tractor-32w-seed7-compiled", "1000", "32", "7", ["--base", "heuristic"],
     "+0.318 ± 0.032 levels per deal over 1000 duplicate deals", "needs --base heuristic"),
    # docs/experiments.md's figure of the learned player before its model had margins
    ("tractor-learned-1w-seed7-compiled", "200", "1", "7",
     ["--margins", "0,0", "--no-bury", "--no-grab", "--trees", "400"],
     "+0.405 ± 0.066 levels per deal over 200 duplicate deals",
     "--margins 0,0 --no-bury --no-grab"),
    # ... and with margins, before the kitty forest
    ("tractor-learned-margins-1w-seed13-compiled", "1000", "1", "13", ["--no-bury", "--no-grab",
                                                                       "--trees", "400"],
     "+0.420 ± 0.027 levels per deal over 1000 duplicate deals", "--no-bury --no-grab"),
    # ... and with the kitty forest, before the first round's bid at once
    ("tractor-learned-kitty-1w-seed13-compiled", "1000", "1", "13",
     ["--no-grab", "--trees", "400"],
     "+0.429 ± 0.029 levels per deal over 1000 duplicate deals", "--no-grab"),
    # ... and 32 worlds searching every decision, before the endgame rule
    ("tractor-learned-grab-32w-seed13-compiled", "1000", "32", "13",
     ["--endgame", "off", "--trees", "400", "--rollouts", "heuristic"],
     "+0.476 ± 0.050 levels per deal over 429 duplicate deals", "--endgame off"),
    # ... and the default player before the learned rollouts
    ("tractor-endgame-150-32w-seed13-compiled", "1000", "32", "13",
     ["--rollouts", "heuristic"],
     "+0.622 ± 0.032 levels per deal over 1000 duplicate deals", "--rollouts heuristic"),
    # ... and with learned rollouts, searching the last 12 cards
    ("tractor-learned-rollouts-32w-seed13-compiled", "1000", "32", "13",
     ["--endgame", "12"],
     "+0.660 ± 0.033 levels per deal over 1000 duplicate deals", "--endgame 12"),
])
def test_a_stored_log_of_an_earlier_player_reports_with_the_flags_that_name_it(
        stored: str, deals: str, worlds: str, seed: str, fix: list[str], figure: str,
        hint: str, capsys: Capsys) -> None:
    log = SCRIPT.parent / "results" / f"{stored}.jsonl.gz"
    flags = ["--report", "--log", str(log), "--deals", deals, "--iterations", worlds,
             "--seed", seed]
    out = script(capsys, *flags, *fix, check=True)
    assert figure in out.stdout
    refused = script(capsys, *flags)
    assert refused.returncode == 2 and hint in refused.stderr


def test_the_one_deck_logs_read_back_by_the_phases_they_searched(capsys: Capsys) -> None:
    # the default searches Da Bai Fen's kitty too and reads the hidden kitty into its
    # worlds: its log reads back with no flag; the logs from before, of a random hidden
    # kitty with --read-kitty off, and of the endgame's plays alone also with --phases play
    # (and they are refused without)
    flags = ["--report", "--preset", "da-bai-fen", "--deals", "1000", "--iterations", "32",
             "--seed", "13", "--log"]
    results = SCRIPT.parent / "results"
    new = str(results / "da-bai-fen-read-kitty-32w-seed13-compiled.jsonl.gz")
    out = script(capsys, *flags, new, check=True)
    assert "+0.439 ± 0.024 levels per deal over 1000 duplicate deals" in out.stdout
    kitty = str(results / "da-bai-fen-kitty-32w-seed13-compiled.jsonl.gz")
    out = script(capsys, *flags, kitty, "--read-kitty", "off", check=True)
    assert "+0.417 ± 0.025 levels per deal over 1000 duplicate deals" in out.stdout
    old = str(results / "da-bai-fen-learned-rollouts-32w-seed13-compiled.jsonl.gz")
    out = script(capsys, *flags, old, "--phases", "play", "--read-kitty", "off", check=True)
    assert "+0.386 ± 0.026 levels per deal over 1000 duplicate deals" in out.stdout
    for log in (kitty, old):
        refused = script(capsys, *flags, log)
        assert refused.returncode == 2 and "worlds (the same day) --read-kitty off" in (
            refused.stderr)


@pytest.mark.slow
def test_the_stored_log_of_the_default_player_reports_the_readmes_figure(
        capsys: Capsys) -> None:
    # the measure: 1,000 duplicate deals at the default budget (32 worlds), read
    # back with today's default settings (the endgame rule among them)
    log = (SCRIPT.parent / "results"
           / "tractor-learned-rollouts-endgame20-32w-seed13-compiled.jsonl.gz")
    out = script(capsys, "--report", "--log", str(log), "--deals", "1000", "--iterations",
                 "32", "--seed", "13", check=True)
    assert "+0.706 ± 0.032 levels per deal over 1000 duplicate deals" in out.stdout
    # (the log of the 400-tree model shipped before, read with the flags that name it)
    old = SCRIPT.parent / "results" / "tractor-endgame-32w-seed13-compiled.jsonl.gz"
    out = script(capsys, "--report", "--log", str(old), "--deals", "1000", "--iterations",
                 "32", "--seed", "13", "--trees", "400", "--rollouts", "heuristic",
                 check=True)
    assert "+0.643 ± 0.031 levels per deal over 1000 duplicate deals" in out.stdout


@pytest.mark.slow
@pytest.mark.parametrize(("bad", "said"), [
    (["--margins", "0.1"], "two numbers"), (["--margins", "0,1"], "from 0 up to 1"),
    (["--model", "/no/such.json"], "--model"), (["--endgame", "0"], "number of cards"),
    (["--endgame", "all"], "auto or off, got 'all'")])
def test_bad_margins_or_model_files_are_refused_in_one_line(bad: list[str], said: str,
                                                              capsys: Capsys) -> None:
    out = script(capsys, "--deals", "1", *bad)
    assert out.returncode == 2 and said in out.stderr and "Traceback" not in out.stderr


@pytest.mark.slow
def test_two_logs_of_the_same_deals_are_paired_by_deal(tmp_path: Path, capsys: Capsys
                                                       ) -> None:
    # two budgets' logs of the same deals: each one's figure over the deals both hold (the
    # two of the other, not the third of the one), and the paired difference; logs of other
    # deals or of several settings are refused
    bench = _bench()
    rules = SHORT_DA_BAI_FEN
    key = {"preset": "da-bai-fen", "table": None}
    one, two = str(tmp_path / "one.jsonl"), str(tmp_path / "two.jsonl")
    a = bench.run(rules, bench.Budget(1, 1.0), 3, 5, 1, log=one, key=key)
    b = bench.run(rules, bench.Budget(2, 1.0), 2, 5, 1, log=two, key=key)
    lines = bench.compare_logs(one, two)
    mine, theirs = a["per_deal"][:2], b["per_deal"]
    paired = [x - y for x, y in zip(mine, theirs, strict=True)]
    assert lines == [f"2 deals of both logs: {sum(mine) / 2:+.3f} ± {bench.ci95(mine):.3f} "
                     f"(1 world) against {sum(theirs) / 2:+.3f} ± {bench.ci95(theirs):.3f} "
                     f"(2 worlds) levels per deal; paired {sum(paired) / 2:+.3f} "
                     f"± {bench.ci95(paired):.3f}"]
    out = script(capsys, "--report", "--log", one, "--against", two)
    assert out.returncode == 0 and out.stdout.strip() == lines[0]
    other = str(tmp_path / "other.jsonl")  # (its seed is refused before its one deal counts)
    bench.run(rules, bench.Budget(1, 1.0), 1, 6, 1, log=other, key=key)
    with pytest.raises(ValueError, match="not of the same deals \\(seed 5 against 6\\)"):
        bench.compare_logs(one, other)
    with open(two, encoding="utf-8") as second, open(one, "a", encoding="utf-8") as first:
        first.write(second.read())  # a second setting: the lines its run would append
    out = script(capsys, "--report", "--log", one, "--against", two)
    assert out.returncode == 2
    assert f"--report --against: {one} holds 2 settings; pairing needs one" in out.stderr


def test_report_without_a_log_is_refused_with_a_clear_error(capsys: Capsys) -> None:
    out = script(capsys, "--report")
    assert out.returncode == 2
    assert "--report reads a --log FILE: name one" in out.stderr


def test_truth_json_holds_each_positions_rows_and_real_values(tmp_path: Path) -> None:
    # the rows and real values let other decision rules be tried without playing again
    bench = _bench()
    out = str(tmp_path / "truth.json")
    figures = bench.truth(preset("da-bai-fen"), [2, 3], 4, 3, 1, True, None, out)
    with open(out, encoding="utf-8") as f:
        found = json.load(f)
    positions = found["positions"]
    assert len(positions) == 4 == len(found["gains"]["3"])
    for position in positions:
        assert position["phase"] in ("lead", "follow")  # plays are counted by kind
        assert len(position["rows"]) == 3  # the most worlds of the curve
        assert all(len(row) == len(position["real"]) for row in position["rows"])
    # the gains stored are those the rule picks from the stored rows
    for budget in ("2", "3"):
        assert found["gains"][budget] == [
            p["real"][verdict(p["rows"][:int(budget)], Z, RACE)] - p["real"][0]
            for p in positions]
    assert figures[3]["all"][2] == 4


def test_unknown_phases_are_refused_with_a_clear_error(capsys: Capsys) -> None:
    out = script(capsys, "--phases", "play,plays")
    assert out.returncode == 2
    assert "--phases: 'plays' is not one of bid, call, declare, kitty, play" in out.stderr


def test_score_rules_reads_a_truth_file_and_scores_the_default_z_as_truth_did(
        tmp_path: Path) -> None:
    bench = _bench()
    out = str(tmp_path / "truth.json")
    figures = bench.truth(preset("da-bai-fen"), [4], 6, 3, 1, True, None, out)
    lines = bench.score_rules(out)
    assert lines[0] == "6 positions, up to 4 worlds each"
    head = f"  4 worlds, z {Z:.1f}: "
    default = next(line for line in lines if line.startswith(head))
    assert default.startswith(f"{head}{figures[4]['all'][0]:+.4f} ")
    assert any(line.startswith("the best candidate in the real deal") for line in lines)


def test_score_refuses_a_file_that_is_not_a_truth_file(tmp_path: Path, capsys: Capsys
                                                         ) -> None:
    bad = tmp_path / "x.json"
    bad.write_text("[1, 2]", encoding="utf-8")
    out = script(capsys, "--score", str(bad))
    assert out.returncode == 2
    assert f"--score: {bad} is not a --truth --json file" in out.stderr


@pytest.mark.slow
def test_against_pairs_two_truth_files_of_the_same_positions(tmp_path: Path, capsys: Capsys
                                                              ) -> None:
    # the same positions with other worlds (here: the rows of one file reversed) are scored
    # position by position against each other; a file of other positions is refused
    bench = _bench()
    first, second = str(tmp_path / "a.json"), str(tmp_path / "b.json")
    figures = bench.truth(preset("da-bai-fen"), [4], 6, 3, 1, True, None, first)
    with open(first, encoding="utf-8") as f:
        found = json.load(f)
    for position in found["positions"]:
        position["rows"] = position["rows"][::-1]
    with open(second, "w", encoding="utf-8") as f:
        json.dump(found, f)
    lines = bench.compare_truth(first, second)
    assert lines[0] == f"6 positions, up to 4 worlds each (0 with fewer); {first} less {second}"
    gains = [p["real"][verdict(p["rows"], Z, RACE)] - p["real"][0]
             for p in found["positions"]]
    whole = next(line for line in lines if line.startswith("  4 worlds, all (6): "))
    mean = sum(gains) / 6
    assert whole.startswith(f"  4 worlds, all (6): {figures[4]['all'][0]:+.4f} against "
                            f"{mean:+.4f}; paired {figures[4]['all'][0] - mean:+.4f} ")
    assert any(" lead (" in line or " follow (" in line for line in lines)
    found["positions"][0]["real"][0] += 1.0
    with open(second, "w", encoding="utf-8") as f:
        json.dump(found, f)
    out = script(capsys, "--score", first, "--against", second)
    assert out.returncode == 2
    assert "are not --truth --json files of the same positions" in out.stderr


def test_against_without_score_is_refused(capsys: Capsys) -> None:
    out = script(capsys, "--against", "b.json")
    assert out.returncode == 2
    assert "--against is read with --score FILE" in out.stderr


@pytest.mark.slow
@pytest.mark.parametrize("value", ["x", "-1", "nan"])
def test_a_bad_race_is_refused_with_a_clear_error(value: str, capsys: Capsys) -> None:
    out = script(capsys, "--race", value)
    assert out.returncode == 2
    assert (f"--race takes standard errors (0 or more, e.g. {RACE:g}) or off, got {value!r}"
            in out.stderr)


@pytest.mark.slow
@pytest.mark.parametrize(("flags", "message"), [
    (["--infer", "0.3,4", "--refine", "400,0.0"], "--infer and --refine are two ways"),
    (["--refine", "120"], "--refine takes STEPS,KEEP (e.g. 400,0.0)"),
    (["--refine", "120,1.5"], "--refine takes STEPS,KEEP (e.g. 400,0.0)"),
])
def test_bad_refine_flags_are_refused_with_a_clear_error(flags: list[str], message: str,
                                                          capsys: Capsys) -> None:
    out = script(capsys, *flags)
    assert out.returncode == 2
    assert message in out.stderr


@pytest.mark.slow
def test_the_curve_is_read_from_a_log_and_plotted(tmp_path: Path, capsys: Capsys) -> None:
    # a curve's budgets share one log; --report reads them all back and --plot draws them
    log, png = tmp_path / "curve.jsonl", tmp_path / "curve.png"
    flags = ["--preset", "da-bai-fen", "--deals", "1", "--seed", "3", "--curve", "1,2",
             "--log", str(log)]
    played = script(capsys, *flags, check=True)
    out = script(capsys, *flags, "--report", "--plot", str(png), check=True)
    assert " 1 world: " in out.stdout and " 2 worlds: " in out.stdout
    assert out.stdout.count("read from the log") == 2
    figures = [line.split(" levels")[0] for line in played.stdout.splitlines() if "world" in line]
    assert figures == [line.split(" levels")[0] for line in out.stdout.splitlines()
                       if "world" in line]
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
