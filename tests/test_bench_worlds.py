"""The worlds benchmark: both ways of imagining the kitty measured on the same positions,
the share of the hidden cards a world places right, bad counts refused in one line."""

from __future__ import annotations

import re

import pytest

from script_helpers import ROOT, load_script, run_main
from shengji.game.match import Match

SCRIPT = ROOT / "benchmarks" / "bench_worlds.py"


def test_reading_the_kitty_brings_the_worlds_kitty_nearer_the_real_one(
        capsys: pytest.CaptureFixture[str]) -> None:
    out = run_main(capsys, load_script(SCRIPT), "--rounds", "8", "--worlds", "4",
                   check=True).stdout
    found = re.findall(r"(random kitty|read_kitty): ([\d.]+) points, ([\d.]+) of 6 cards "
                       r"in the real kitty, 0 worlds not found", out)
    assert [way for way, _, _ in found] == ["random kitty", "read_kitty"], out
    (_, _, random_cards), (_, _, read_cards) = found
    assert float(read_cards) > float(random_cards) + 0.5, out
    shares = [float(x) for x in re.findall(r"([\d.]+)% of the hidden cards where the real "
                                           r"deal has them", out)]
    assert len(shares) == 2 and 0 < shares[0] < shares[1] < 100, out


def test_the_real_deal_as_every_world_places_every_hidden_card_right(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The measure itself: worlds that are copies of the real round score 100 %."""
    script = load_script(SCRIPT)
    matches: list[Match] = []

    def match(*args: object, **kwargs: object) -> Match:
        matches.append(Match(*args, **kwargs))  # type: ignore[arg-type]
        return matches[-1]

    monkeypatch.setattr(script, "Match", match)
    monkeypatch.setattr(script, "sample_world",
                        lambda knowledge, rng, read_kitty: matches[-1].round.copy())
    out = run_main(capsys, script, "--rounds", "3", "--worlds", "2", check=True).stdout
    assert out.count("6.00 of 6 cards in the real kitty") == 2, out
    assert out.count("100.0% of the hidden cards where the real deal has them") == 2, out


@pytest.mark.parametrize("flag", ["--rounds", "--worlds"])
def test_counts_below_one_are_refused(capsys: pytest.CaptureFixture[str], flag: str) -> None:
    ran = run_main(capsys, load_script(SCRIPT), flag, "0")
    assert ran.returncode == 2 and "must be at least 1" in ran.stderr
