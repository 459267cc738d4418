"""The build (setup.py): which modules are compiled, that a compiled test run really imports
them, and that a source install without a C compiler falls back to pure Python.

``.ci/run`` runs the suite twice: with ``SHENGJI_EXPECT_COMPILED=0`` against the editable
(pure Python) install, then with ``SHENGJI_EXPECT_COMPILED=1`` against the mypyc build; a
run that silently imported the other kind fails here.
"""

from __future__ import annotations

import ast
import importlib
import os
import shutil
import subprocess
import sys
import zipfile
from importlib.machinery import EXTENSION_SUFFIXES
from importlib.metadata import version
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def compiled_modules() -> list[str]:
    """The module names of ``setup.COMPILED`` (read from setup.py, which cannot be imported:
    it runs ``setup()``)."""
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "COMPILED" for t in node.targets):
            paths: list[str] = ast.literal_eval(node.value)
            return [p.removeprefix("src/").removesuffix(".py").replace("/", ".")
                    for p in paths]
    raise AssertionError("setup.py has no COMPILED list")


def test_the_compiled_modules_exist() -> None:
    names = compiled_modules()
    assert "shengji.engine.follow" in names and "shengji.players.heuristic" in names
    for name in names:
        assert (ROOT / "src" / (name.replace(".", "/") + ".py")).is_file(), name


@pytest.mark.skipif(os.environ.get("SHENGJI_EXPECT_COMPILED") is None,
                    reason="SHENGJI_EXPECT_COMPILED (0 or 1) not set: build kind not checked")
def test_the_run_imports_the_build_it_expects() -> None:
    """Every module of ``COMPILED`` is an extension module in a compiled run, its source
    file in a pure one (a stale binary in src/ would shadow edited sources)."""
    compiled = os.environ["SHENGJI_EXPECT_COMPILED"] == "1"
    import shengji

    package = Path(shengji.__file__).resolve().parent
    if compiled:
        assert package != ROOT / "src" / "shengji", "the compiled run imports src/"
    for name in compiled_modules():
        path = importlib.import_module(name).__file__
        assert path is not None
        is_binary = path.endswith(tuple(EXTENSION_SUFFIXES))
        assert is_binary == compiled, f"{name} imported from {path}"


def _setuptools_major() -> int:
    return int(version("setuptools").split(".")[0])


@pytest.mark.slow
@pytest.mark.parametrize("compiler", ["/bin/false", "/nonexistent/cc"])
def test_no_c_compiler_installs_pure_python_with_a_message(tmp_path: Path,
                                                           compiler: str) -> None:
    """``SHENGJI_COMPILE=1`` with a compiler that fails or is missing: a pure wheel, and the
    reason on the build's output (shown by ``pip install -v``)."""
    pytest.importorskip("mypyc", reason="mypy is not installed")
    if _setuptools_major() < 77:
        pytest.skip("the build needs setuptools>=77 (pyproject's license field)")
    source = tmp_path / "source"
    source.mkdir()
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(ROOT / "src", source / "src",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.egg-info"))
    env = dict(os.environ, SHENGJI_COMPILE="1", CC=compiler)
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "-v", "--no-build-isolation",
                           "--no-deps", "--no-cache-dir", "-w", str(tmp_path / "out"), "."],
                          cwd=source, env=env, capture_output=True, text=True, timeout=300)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-3000:]
    assert "shengji: no working C compiler" in output and "installing pure Python" in output
    (wheel,) = (tmp_path / "out").glob("*.whl")
    assert wheel.name.endswith("-py3-none-any.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    assert "shengji/engine/follow.py" in names
    assert not [n for n in names if n.endswith((".so", ".pyd"))]
