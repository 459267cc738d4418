"""Every door refuses bad input and changes nothing: malformed, illegal, out-of-turn and
stale actions in every phase of every preset raise only ``ActionError`` and leave the
round exactly as it was (``scripts/fuzz_actions.py`` runs the same for 10^6 actions)."""

from __future__ import annotations

from collections import Counter

import pytest

from fuzz_actions import PRESET_TABLES, fuzz_round


@pytest.mark.slow
@pytest.mark.parametrize(("name", "players"), PRESET_TABLES)
def test_bad_actions_are_refused_and_change_nothing(name: str, players: int) -> None:
    counts: Counter[str] = Counter()
    phases = set()
    for seed in range(2):
        rnd = fuzz_round(name, players, seed, counts)
        phases.update(str(a).split()[1] for a in rnd.history)
    refused = sum(n for key, n in counts.items() if key.startswith("refused"))
    assert refused > 1000
    assert counts["refused malformed"] > 300
    for kind in ("Play", "Bid", "Bury", "Call", "Declare", "Draw", "Expose", "Pass", "Show",
                 "Withdraw"):
        assert counts[f"refused {kind}"] > 0, f"no {kind} was refused"
    assert {"draw", "bury", "play"} <= phases
