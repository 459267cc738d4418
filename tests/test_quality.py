"""The code stays ruff-clean and mypy --strict clean, with no import circles and no source file
over 800 lines (part of the test command)."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_is_clean() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "src", "tests", "benchmarks", "scripts",
         "examples"],
        cwd=ROOT, capture_output=True, text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow
def test_mypy_strict_is_clean() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def _imports(path: Path, modules: set[str]) -> set[str]:
    """The project modules ``path`` imports anywhere (functions included), except under
    ``if TYPE_CHECKING:``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {id(node) for block in ast.walk(tree) if isinstance(block, ast.If)
                   and "TYPE_CHECKING" in ast.dump(block.test) for node in ast.walk(block)}
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                name = f"{node.module}.{alias.name}"
                found.add(name if name in modules else node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found & modules


@pytest.mark.slow
def test_no_import_circles() -> None:
    """No module imports, even inside a function, one that imports it back (directly or
    through others): the layers go one way."""
    src = ROOT / "src"
    paths = {".".join(p.relative_to(src).with_suffix("").parts).removesuffix(".__init__"): p
             for p in src.rglob("*.py")}
    graph = {name: _imports(path, set(paths)) - {name} for name, path in paths.items()}
    circles = []
    for start in graph:
        stack, seen = [(start, (start,))], set()
        while stack:
            node, trail = stack.pop()
            for nxt in graph[node]:
                if nxt == start:
                    circles.append(" -> ".join((*trail, start)))
                elif nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, (*trail, nxt)))
    assert not circles, circles[:5]


def test_no_source_file_is_over_800_lines() -> None:
    """Modules a reader can hold in one sitting: Python and the browser client's scripts."""
    src = ROOT / "src" / "shengji"
    long = {str(p.relative_to(ROOT)): n for p in [*src.rglob("*.py"), *src.rglob("*.js")]
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 800}
    assert not long, long
