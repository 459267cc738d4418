"""Views, actions and rules survive pickling in both builds (worker processes receive
them so). The compiled build cannot restore a frozen dataclass field by field, so
every frozen dataclass of a compiled module pickles through its constructor."""

from __future__ import annotations

import ast
import copyreg
import importlib
import pickle
from pathlib import Path

import pytest

import shengji.game
import shengji.players
from shengji.engine.pickling import frozen_dataclasses
from shengji.game import Phase, Round
from shengji.game.presets import preset
from shengji.players import make_player
from shengji.players.table import decide
from shengji.players.worlds import Knowledge

SETUP = Path(__file__).resolve().parent.parent / "setup.py"


def compiled_modules() -> list[str]:
    """The module names setup.py compiles with mypyc."""
    tree = ast.parse(SETUP.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "COMPILED":
            paths = ast.literal_eval(node.value)
            return [p.removeprefix("src/").removesuffix(".py").replace("/", ".") for p in paths]
    raise AssertionError("setup.py has no COMPILED list")


def test_every_frozen_dataclass_of_a_compiled_module_pickles_by_constructor() -> None:
    assert shengji.game and shengji.players  # imported: the packages register theirs
    found = 0
    for name in compiled_modules():
        for cls in frozen_dataclasses(importlib.import_module(name)):
            assert cls in copyreg.dispatch_table, f"{name}.{cls.__name__} is not registered"
            found += 1
    assert found >= 15


@pytest.mark.parametrize(("name", "table"), [
    ("tractor", 4), ("tractor-6", 6), ("finding-friends", 5), ("da-bai-fen", 4),
    ("hundred", 4),
])
def test_views_actions_and_knowledge_round_trip(name: str, table: int) -> None:
    rules = preset(name, players=table)
    rnd = Round(rules, seed=5)
    players = [make_player("heuristic", seed=seat) for seat in range(rules.players)]
    checked = 0
    step = 0
    while rnd.phase != Phase.DONE:
        seat = rnd.to_move
        assert seat is not None
        action = decide(rnd, seat, players[seat])
        if step % 5 == 0:
            view = rnd.view(seat)
            knowledge = Knowledge.of(view)
            copy = pickle.loads(pickle.dumps((view, knowledge, action, rules)))
            assert copy[0] == view and repr(copy[0]) == repr(view)
            assert copy[1] == knowledge
            assert copy[2] == action and copy[3] == rules
            checked += 1
        rnd.apply(action)
        step += 1
    result = rnd.result
    assert pickle.loads(pickle.dumps(result)) == result
    assert checked > 10
