"""Jobs run on local processes or on a Ray cluster, their results in the jobs' order.

The simulator (``shengji simulate``) and the learned player's trainer
(``scripts/train_learned.py collect``) share :func:`ordered_map`: each job is independent
and reproducible from what it carries (a seed, round or deal numbers), so the results are
the same whatever the backend and the number of workers. At most a few jobs per worker are
in flight, so a run of a million jobs never holds them all.
"""

from __future__ import annotations

import importlib.util
import signal
import socket
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, TypeVar

J = TypeVar("J")
R = TypeVar("R")

BACKENDS = ("process", "ray")
"""Where the jobs run: local processes, or a Ray cluster (:data:`RAY_HINT`)."""

RAY_HINT = 'pip install "shengji[ray]" (or pip install -e ".[ray]" in a clone)'
"""How to install Ray, from a package index or a clone."""


def backend_problem(backend: str, address: str | None) -> str | None:
    """Why a command's ``--backend``/``--address`` cannot run here (Ray missing, an address
    without Ray), else ``None``."""
    if backend == "ray" and importlib.util.find_spec("ray") is None:
        return f"--backend ray needs Ray: {RAY_HINT}"
    if address and backend != "ray":
        return "--address is for --backend ray"
    return None


class BackendError(RuntimeError):
    """The backend could not run the jobs (e.g. no Ray cluster at the address given)."""


def ordered_map(function: Callable[[J], R], jobs: Iterable[J], *, workers: int,
                backend: str = "process", address: str | None = None) -> Iterator[R]:
    """``function(job)`` for each job, in the jobs' order: in this process where
    ``workers`` is 1, else on ``workers`` local processes, or with ``backend = "ray"`` on
    the Ray cluster at ``address`` (else a local Ray instance with ``workers`` CPUs).
    ``function`` must be importable by name (a module's top-level function)."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; choose from {', '.join(BACKENDS)}")
    if workers < 1:
        raise ValueError(f"the workers must be at least 1, got {workers}")
    if backend == "ray":
        yield from _on_ray(function, jobs, workers, address)
    elif workers == 1:
        yield from map(function, jobs)
    else:
        with ProcessPoolExecutor(workers, initializer=_leave_ctrl_c) as pool:
            try:
                yield from _in_order(pool.submit, function, jobs, 4 * workers)
            except BaseException:  # Ctrl-C, or the caller stopped: drop the jobs not begun
                pool.shutdown(wait=True, cancel_futures=True)
                raise


def _leave_ctrl_c() -> None:
    """A worker process ignores Ctrl-C: the terminal sends it to every process of the
    command, and the parent alone stops the run (without a traceback from each worker)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _in_order(submit: Callable[[Callable[[J], R], J], Future[R]], function: Callable[[J], R],
              jobs: Iterable[J], window: int) -> Iterator[R]:
    """Results of ``jobs`` in order, at most ``window`` of them submitted and not taken."""
    pending: deque[Future[R]] = deque()
    for job in jobs:
        pending.append(submit(function, job))
        if len(pending) >= window:
            yield pending.popleft().result()
    while pending:
        yield pending.popleft().result()


def _call(function: Callable[[J], R], job: J) -> R:
    """``function(job)``: the task Ray runs (a function of this module's, where ``function``
    may be one mypyc compiled, which ``ray.remote`` does not take; it travels by name)."""
    return function(job)


def address_problem(address: str, timeout: float = 5.0) -> str | None:
    """Why nothing answers at a Ray cluster's ``address`` (``HOST:PORT`` or
    ``ray://HOST:PORT``), or ``None``: it answers, or it is ``auto`` (or another form Ray
    resolves itself). A TCP connection is tried for at most ``timeout`` seconds."""
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not port.isdigit() or not host:
        return None
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            return None
    except OSError as error:
        why = error.strerror or str(error) or type(error).__name__
        return f"nothing answers at {host}:{port} ({why})"


def _on_ray(function: Callable[[J], R], jobs: Iterable[J], workers: int,
            address: str | None) -> Iterator[R]:
    try:
        import ray
    except ImportError:
        raise ValueError(f"--backend ray needs Ray: {RAY_HINT}") from None
    started = not ray.is_initialized()
    if started:
        unreachable = address_problem(address) if address else None
        if unreachable:  # Ray itself would retry for minutes, printing warnings
            raise BackendError(f"cannot join the Ray cluster at {address!r}: {unreachable}")
        try:
            ray.init(address=address, num_cpus=None if address else workers,
                     include_dashboard=False, log_to_driver=False, configure_logging=False)
        except (ConnectionError, RuntimeError, ValueError) as error:
            where = f"the Ray cluster at {address!r}" if address else "a local Ray instance"
            first = str(error).strip().splitlines()[0] if str(error).strip() else ""
            raise BackendError(f"cannot start or join {where}: {first[:200]}") from None
    try:
        remote: Any = ray.remote(_call)  # (not ``function`` itself: Ray refuses compiled ones)
        window = 4 * workers
        pending: deque[Any] = deque()
        for job in jobs:
            pending.append(remote.remote(function, job))
            if len(pending) >= window:
                yield ray.get(pending.popleft())
        while pending:
            yield ray.get(pending.popleft())
    finally:
        if started:
            ray.shutdown()


__all__ = ["BACKENDS", "RAY_HINT", "BackendError", "address_problem", "backend_problem",
           "ordered_map"]
