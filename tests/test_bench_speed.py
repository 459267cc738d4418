"""The speed benchmark's flags: ``--instructions`` without valgrind is refused clearly."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_speed.py"


def test_instructions_without_valgrind_says_what_to_install(tmp_path: Path) -> None:
    src = str(Path(__file__).resolve().parent.parent / "src")
    out = subprocess.run(
        [sys.executable, str(SCRIPT), "--instructions", "--only", "random", "--deals", "1",
         "--current", src, "--reference", src],
        env=dict(os.environ, PATH=str(tmp_path)),  # an empty folder: no valgrind on it
        capture_output=True, text=True, check=False)
    assert out.returncode == 1
    assert "--instructions needs valgrind (apt-get install valgrind)" in out.stderr
    assert "Traceback" not in out.stderr
