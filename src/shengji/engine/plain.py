"""Plain (not mypyc-native) objects: which classes are, and their instances made at once.

The mypyc build makes a compiled module's classes native; ``@mypyc_attr(...)`` keeps one
plain (``native_class=False``) or tunes a native one (``acyclic=True``, ...). The modules
import the decorator from here.

A frozen dataclass's generated ``__init__`` sets its fields one ``object.__setattr__``
call at a time, and runs interpreted in the mypyc build. Hot paths make such objects
(plays, the heuristic's chosen actions, throw outcomes; views in pure Python) with
:func:`filled` instead, from values they vouch for (no checks).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, TypeVar

try:  # re-exported (as): mypyc knows the decorator by its full name, which the import keeps
    from mypy_extensions import mypyc_attr as mypyc_attr
except ImportError:  # only a mypyc build reads the decorator; pure Python ignores it
    def mypyc_attr(*attrs: str, **kwattrs: object) -> Any:  # type: ignore[misc]
        """Stands in for ``mypy_extensions.mypyc_attr``: leaves the class as it is."""
        return lambda cls: cls

T = TypeVar("T")

_NEW: Final = object.__new__
"""``object.__new__``, kept (a compiled ``object.__new__(...)`` looks up ``object`` and
then its method at every call)."""

_SETTERS: Final[dict[type, Callable[[object, dict[str, object]], None]]] = {}
"""Per class, the setter of its instances' attribute dictionary (its ``__dict__``
descriptor's ``__set__``: cheaper to call than ``object.__setattr__``)."""


def is_plain(cls: type) -> bool:
    """Whether ``cls``'s instances have a ``__dict__`` (a native class's, in the mypyc build,
    do not). Modules read it once into a constant and make hot instances with :func:`filled`
    where it is true, by the class's compiled ``__init__`` where not."""
    return cls.__dictoffset__ != 0


def filled(cls: type[T], fields: dict[str, object]) -> T:
    """A new ``cls`` whose attributes are ``fields`` (the dictionary itself becomes the
    instance's: pass a new one). ``cls`` must be plain (:func:`is_plain`)."""
    obj: T = _NEW(cls)
    setter = _SETTERS.get(cls)
    if setter is None:
        setter = _SETTERS[cls] = _dict_setter(cls)
    setter(obj, fields)
    return obj


def _dict_setter(cls: type) -> Callable[[object, dict[str, object]], None]:
    """The ``__set__`` of the ``__dict__`` descriptor ``cls`` has (from its class or the
    first base that gives its instances a dictionary)."""
    for klass in cls.__mro__:
        descriptor = vars(klass).get("__dict__")
        if descriptor is not None:
            setter: Callable[[object, dict[str, object]], None] = descriptor.__set__
            return setter
    raise TypeError(f"{cls.__name__} instances have no attribute dictionary")
