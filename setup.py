"""Build script: optionally compiles the hot modules with mypyc.

The package is pure Python and installs as such by default (fast, everywhere).
``SHENGJI_COMPILE=1 python3 -m pip install --no-build-isolation .`` (after
``python3 -m pip install mypy "setuptools>=77"``) compiles the engine, the round
state machine and the table-level players with mypyc for about twice the speed. It
falls back to pure Python when mypyc or the C compiler is missing or fails. Editable
installs are always pure: compiled modules would shadow the ``.py`` files, so edits would
be ignored.
"""
# mypy: disable-error-code="import-untyped", allow-subclassing-any
# (setuptools ships no types: the build script does not require types-setuptools)

from __future__ import annotations

import os
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext

COMPILED = [
    "src/shengji/engine/bidding.py",
    "src/shengji/engine/caches.py",
    "src/shengji/engine/cards.py",
    "src/shengji/engine/follow.py",
    "src/shengji/engine/friends.py",
    "src/shengji/engine/lead.py",
    "src/shengji/engine/listing.py",
    "src/shengji/engine/mixed.py",
    "src/shengji/engine/plain.py",
    "src/shengji/engine/protect.py",
    "src/shengji/engine/rainbows.py",
    "src/shengji/engine/scoring.py",
    "src/shengji/engine/structure.py",
    "src/shengji/engine/throws.py",
    "src/shengji/engine/trick.py",
    "src/shengji/engine/trump.py",
    "src/shengji/engine/units.py",
    "src/shengji/game/actions.py",
    "src/shengji/game/legal.py",
    "src/shengji/game/match.py",
    "src/shengji/game/round.py",
    "src/shengji/game/round_calls.py",
    "src/shengji/game/round_deal.py",
    "src/shengji/game/round_declare.py",
    "src/shengji/game/round_kitty.py",
    "src/shengji/game/round_play.py",
    "src/shengji/game/scoresheet.py",
    "src/shengji/game/view.py",
    "src/shengji/players/features.py",
    "src/shengji/players/forest.py",
    "src/shengji/players/heuristic.py",
    "src/shengji/players/learned.py",
    "src/shengji/players/memory.py",
    "src/shengji/players/options.py",
    "src/shengji/players/random_player.py",
    "src/shengji/players/table.py",
    "src/shengji/players/training.py",
]
"""Modules mypyc compiles (all in one group: they call each other natively)."""

BUILD_COMMANDS = {"build", "build_ext", "bdist_wheel", "install", "editable_wheel", "develop"}
EDITABLE_COMMANDS = {"editable_wheel", "develop"}


def _flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() not in ("", "0", "false", "no")


def _pure(reason: str) -> list[object]:
    print(f"shengji: {reason}; installing pure Python", file=sys.stderr)
    return []


def _remove_inplace_binaries() -> None:
    """Delete binaries an earlier compiled editable install left next to the sources."""
    from glob import glob
    from importlib.machinery import EXTENSION_SUFFIXES

    for suffix in EXTENSION_SUFFIXES:
        for path in COMPILED:
            if os.path.exists(path[:-3] + suffix):
                os.remove(path[:-3] + suffix)
        for path in glob("src/*__mypyc" + suffix):
            os.remove(path)


def _compiler_problem() -> str | None:
    """Why no C extension can be built here, or None: a tiny C file is compiled as
    ``build_ext`` would compile one (``CC`` honoured), before mypyc spends minutes
    generating C that nothing could compile."""
    import tempfile
    from distutils.ccompiler import new_compiler  # setuptools' copy (imported above)
    from distutils.sysconfig import customize_compiler

    with tempfile.TemporaryDirectory() as folder:
        probe = os.path.join(folder, "probe.c")
        with open(probe, "w", encoding="ascii") as file:
            file.write("int shengji_probe(void) { return 0; }\n")
        compiler = new_compiler()
        try:
            customize_compiler(compiler)
            compiler.compile([probe], output_dir=folder)
        except Exception as error:  # CompileError, DistutilsExecError, no compiler at all
            command = getattr(compiler, "compiler_so", None) or ["the C compiler"]
            return (f"no working C compiler ({command[0]} could not compile a test file: "
                    f"{type(error).__name__})")
    return None


def _ext_modules() -> list[object]:
    commands = set(sys.argv[1:])
    if not commands & BUILD_COMMANDS:
        return []  # egg_info / dist_info (metadata only): no need to run mypyc
    if commands & EDITABLE_COMMANDS:
        _remove_inplace_binaries()
        return []
    if not _flag("SHENGJI_COMPILE"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        return _pure("mypyc is not available")
    problem = _compiler_problem()
    if problem:
        return _pure(problem)
    try:
        return list(mypycify(COMPILED, opt_level="3", debug_level="0", group_name="shengji"))
    except BaseException as error:  # mypyc reports its errors with SystemExit
        return _pure(f"mypyc failed ({error!r})")


class OptionalBuildExt(build_ext):
    """Compiles the extensions; if any fails, removes them all (pure Python instead)."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # CompileError, LinkError, missing compiler, ...
            print(f"shengji: compiling failed ({error}); installing pure Python",
                  file=sys.stderr)
            for ext in self.extensions:
                path = self.get_ext_fullpath(ext.name)
                if os.path.exists(path):
                    os.remove(path)
            self.extensions.clear()


setup(ext_modules=_ext_modules(), cmdclass={"build_ext": OptionalBuildExt})
