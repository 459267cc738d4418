"""Time bounds for tests that must answer "at once": the CPU time of this process, with the
garbage collector paused, so that a busy machine (another worker, a browser) or a collection
of objects other tests left behind never fails them. The bounds are generous sanity checks
against a return of exponential work; the benchmarks measure speed."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

T = TypeVar("T")


@contextmanager
def within(seconds: float, what: str = "the block") -> Iterator[None]:
    """Assert that the block takes less than ``seconds`` of this process's CPU time."""
    collecting = gc.isenabled()
    gc.disable()
    start = time.process_time()
    try:
        yield
    finally:
        spent = time.process_time() - start
        if collecting:
            gc.enable()
    assert spent < seconds, f"{what} took {spent:.2f} s of CPU time (bound {seconds} s)"


def timed(query: Callable[[], T], what: str, seconds: float) -> T:
    """``query()``, asserted to take less than ``seconds`` of CPU time."""
    with within(seconds, what):
        return query()
