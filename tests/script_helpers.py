"""The project's scripts (``benchmarks/``, ``scripts/``, ``examples/``) loaded as modules and
their ``main`` run in the test's own process: what ``python3 SCRIPT ...`` would do, without
starting an interpreter."""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


def load_script(path: Path) -> ModuleType:
    """The script at ``path`` as a fresh module named after its file (registered in
    ``sys.modules``: its dataclasses look their module up), with its folder on ``sys.path``
    as when Python runs it (the modules beside it import)."""
    folder = str(path.parent)
    if folder not in sys.path:
        sys.path.append(folder)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)
    return module


@dataclass
class Ran:
    """What a run of a script's ``main`` returned and printed."""

    returncode: int
    stdout: str
    stderr: str


def run_main(capsys: pytest.CaptureFixture[str], module: ModuleType, *argv: str,
             check: bool = False) -> Ran:
    """Run ``module.main(argv)`` with its output caught (argparse's refusals as exit status
    2; any other exception fails the test, as a traceback would); ``check``: it must
    succeed."""
    capsys.readouterr()
    try:
        code = module.main(list(argv))
    except SystemExit as stop:  # argparse's refusals
        code = stop.code if isinstance(stop.code, int) else 1
    out, err = capsys.readouterr()
    if check:
        assert code == 0, err
    return Ran(code, out, err)
