"""The worlds benchmark: both ways of imagining the kitty measured on the same positions,
bad counts refused in one line."""

from __future__ import annotations

import re

import pytest

from script_helpers import ROOT, load_script, run_main

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


@pytest.mark.parametrize("flag", ["--rounds", "--worlds"])
def test_counts_below_one_are_refused(capsys: pytest.CaptureFixture[str], flag: str) -> None:
    ran = run_main(capsys, load_script(SCRIPT), flag, "0")
    assert ran.returncode == 2 and "must be at least 1" in ran.stderr
