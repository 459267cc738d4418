"""Frozen dataclasses pickle through their constructor, in both builds.

The compiled build (mypyc) restores a pickled object by setting its fields one by
one, which a frozen dataclass refuses (``FrozenInstanceError``); the search player's
worker processes and the Ray backend receive views, actions and rules by pickle.
:func:`pickle_by_constructor` registers, for every frozen dataclass a module defines,
a reducer that rebuilds the object from its ``__init__`` fields (derived fields are
computed again by ``__post_init__``). The pure build pickles the same way, so both
builds exchange the same pickles.
"""

from __future__ import annotations

import copyreg
import dataclasses
from collections.abc import Callable
from types import ModuleType
from typing import Any


def _rebuild(cls: type[Any], fields: dict[str, object]) -> object:
    return cls(**fields)


def _reduce(obj: Any) -> tuple[Callable[..., object], tuple[object, ...]]:
    cls = type(obj)
    return (_rebuild, (cls, {f.name: getattr(obj, f.name)
                             for f in dataclasses.fields(cls) if f.init}))


def frozen_dataclasses(module: ModuleType) -> list[type[Any]]:
    """The frozen dataclasses ``module`` defines (not those it imports)."""
    return [value for value in vars(module).values()
            if isinstance(value, type) and value.__module__ == module.__name__
            and dataclasses.is_dataclass(value) and value.__dataclass_params__.frozen]  # type: ignore[attr-defined]


def pickle_by_constructor(*modules: ModuleType) -> None:
    """Make every frozen dataclass of ``modules`` pickle through its constructor."""
    for module in modules:
        for cls in frozen_dataclasses(module):
            copyreg.pickle(cls, _reduce)
