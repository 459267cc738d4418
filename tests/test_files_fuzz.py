"""Fuzzing that stays: damaged and edited rules files and records give only RulesError (rules)
or RecordError (records), with a one-line message, never another exception (issue 9).

The generator is ``scripts/fuzz_files.py``, which runs it for as many cases as asked."""

from __future__ import annotations

from collections import Counter
from types import ModuleType

import pytest

from script_helpers import ROOT, load_script

SCRIPT = ROOT / "scripts" / "fuzz_files.py"
CASES = 2400
"""Cases per run (some 10 s): half rules files, half records."""


@pytest.fixture(scope="module")
def fuzz() -> ModuleType:
    return load_script(SCRIPT)


@pytest.mark.slow
def test_damaged_files_give_only_the_readers_errors(fuzz: ModuleType) -> None:
    counts, findings = fuzz.run_range((2026, 0, CASES))
    assert not findings, "\n".join(f"case {i} (seed 2026): {result}: {message}"
                                   for i, result, message in findings[:10])
    outcomes = Counter[tuple[str, str]]()
    mutations = Counter[str]()
    for (kind, mutation, result), n in counts.items():
        outcomes[(kind, result)] += n
        mutations[mutation] += n
    assert sum(counts.values()) == CASES
    # every mutation ran, and both kinds of file both loaded and failed
    assert set(mutations) >= {*fuzz.MUTATIONS, "edit-action", "huge"}
    for kind, error in (("rules", "RulesError"), ("record", "RecordError")):
        assert outcomes[(kind, "ok")] > 0 and outcomes[(kind, error)] > 0
    assert outcomes[("rules", "OptionError")] > 0


def test_cases_are_reproducible(fuzz: ModuleType) -> None:
    assert fuzz.make_case(7, 123) == fuzz.make_case(7, 123)
    assert fuzz.make_case(7, 123) != fuzz.make_case(8, 123)


def test_the_script_reports_counts(fuzz: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    assert fuzz.main(["--count", "40", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("fuzz_files: 40 cases, seed 3") and "findings: 0" in out
