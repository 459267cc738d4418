"""Instances of plain (not mypyc-native) frozen dataclasses, made at once.

A frozen dataclass's generated ``__init__`` sets its fields one ``object.__setattr__``
call at a time, and runs interpreted in the mypyc build. Hot paths make such objects
(plays, the heuristic's chosen actions, views, throw outcomes) with :func:`filled`
instead, from values they vouch for (no checks).
"""

from __future__ import annotations

from typing import Final, TypeVar

T = TypeVar("T")

_NEW: Final = object.__new__
_SET: Final = object.__setattr__
"""``object``'s methods, kept (a compiled ``object.__new__(...)`` looks up ``object`` and
then its method at every call)."""


def filled(cls: type[T], fields: dict[str, object]) -> T:
    """A new ``cls`` whose attributes are ``fields`` (the dictionary itself becomes the
    instance's: pass a new one). ``cls`` must be a plain class (one with a ``__dict__``)."""
    obj: T = _NEW(cls)
    _SET(obj, "__dict__", fields)
    return obj
