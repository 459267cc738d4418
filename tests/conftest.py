"""Suite-wide test settings.

``slow`` (registered in pyproject.toml) marks the tests that take a second or more each: the
inner loop ``python3 -m pytest -m "not slow"`` leaves them out; the plain ``python3 -m pytest``
(and CI) runs them all. The browser tests are all slow.

The suite runs on pytest-xdist workers (``-n auto --dist loadgroup`` in pyproject.toml). The
browser tests (a server, a bot and chromium each: more than a core) and the tests that wait on
a short timeout share one ``xdist_group``: one worker runs them one after the other, so that a
timeout never runs out beside a browser, and chromium is started once. Tests that must answer
"at once" bound their own CPU time instead (``tests/timing.py``): a busy machine cannot fail
them. ``-n auto`` starts one worker more than the machine has cores: the browser tests and the
servers' tests spend much of their time waiting (on chromium, a paced deal, a bot's delay)
with their core idle, and the extra worker fills those waits (on two cores the suite took
5:19 instead of 5:57).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from typing import Any

import pytest

# pytest rewrites the asserts of every test module on import and caches the result as
# bytecode in __pycache__, unless PYTHONDONTWRITEBYTECODE is set (as on this project's machines):
# then every xdist worker would rewrite all of them again on every run (about 6 s each).
sys.dont_write_bytecode = False

ONE_WORKER = "browser-and-timed"

TIMED = {  # module: its tests that wait on a short timeout or for work off the event loop
    "test_server_limits.py": {"test_connection_limits_and_hello_timeout",  # 0.3 s hello
                              "test_slow_bots_think_off_the_event_loop",
                              "test_suggestions_think_off_the_event_loop"},
}


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto``: one worker more than pytest-xdist's own count of the cores, on every
    platform (``PYTEST_XDIST_AUTO_NUM_WORKERS``, when set, is taken as it is)."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # (xdist's own hook reads it)
    from xdist.plugin import pytest_xdist_auto_num_workers as cores

    return cores(config) + 1


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        browser = item.get_closest_marker("browser") is not None
        if browser:
            item.add_marker(pytest.mark.slow)
        name = getattr(item, "originalname", item.name)
        if browser or name in TIMED.get(item.path.name, ()):
            item.add_marker(pytest.mark.xdist_group(ONE_WORKER))


# -- the browser tests' fixtures (tests/test_browser*.py; imported there, so lazily here) ------

@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """Headless chromium (Debian's, driven by Playwright) for one module's browser tests."""
    from test_browser import ARTIFACTS, CHROMIUM, sync_api

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM)
        yield launched
        launched.close()


QUICK_SEED = 1
"""The quick server's deals: the same at every run, so that what a browser test meets (an
illegal selection to try, a trick to look back at) does not depend on luck."""


@pytest.fixture(scope="module")
def quick_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A ``shengji serve`` (its own database) that deals at once and whose computer players
    act at once, for one module's browser tests; its deals follow :data:`QUICK_SEED`."""
    from test_browser import Server

    srv = Server(tmp_path_factory.mktemp("serve"), "--deal-pace", "0", "--bot-delay", "0",
                 "--seed", str(QUICK_SEED))
    yield srv
    srv.stop()
