"""``shengji simulate`` and the trainer's collection on Ray, and the streamed summary: the
same results for the same seed whatever the backend and the number of workers."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from script_helpers import ROOT, load_script, run_main
from shengji import simulate
from shengji.cli import main
from shengji.game.presets import preset
from shengji.parallel import address_problem, ordered_map
from shengji.players.training import collect_chunk

# one pytest-xdist worker runs them all, in order: the first checks that no Ray instance runs
# yet, the others start one (a second one, started at once on another worker, would be found)
pytestmark = pytest.mark.xdist_group("ray")

RULES = preset("da-bai-fen")
PLAYERS = ["heuristic", "random"] * 2


def summary_json(games: list[simulate.PlayedDeal]) -> str:
    return simulate.summarize(games, RULES, PLAYERS, seed=3, duplicate=True, matches=False,
                              rules_name="da-bai-fen").to_json()


def test_stream_in_deal_order_and_tally_equals_summarize() -> None:
    one = simulate.run(RULES, PLAYERS, deals=6, seed=3, workers=1)
    two = simulate.run(RULES, PLAYERS, deals=6, seed=3, workers=2)
    assert one == two
    assert [g.deal for g in one] == [d for d in range(6) for _ in range(2)]
    tally = simulate.Tally(PLAYERS, seed=3, duplicate=True, matches=False,
                           rules_name="da-bai-fen")
    for batch in simulate.stream(RULES, PLAYERS, deals=6, seed=3, workers=2):
        tally.add(batch)
    assert tally.summary().to_json() == summary_json(one)


def test_unknown_backend_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown backend 'spark'"):
        simulate.run(RULES, PLAYERS, deals=1, backend="spark")


@pytest.mark.slow
def test_no_cluster_at_the_address_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    """(Before the local instance below is started.)"""
    pytest.importorskip("ray", reason="Ray is not installed: Ray tests skipped")
    os.environ.pop("RAY_ADDRESS", None)  # "auto" then finds no running instance
    assert main(["simulate", "--rounds", "1", "--backend", "ray", "--address", "auto"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("shengji simulate: cannot start or join the Ray cluster at")
    assert "Traceback" not in err


@pytest.mark.parametrize("address", ["127.0.0.1:1", "ray://127.0.0.1:1",
                                     "nohost.invalid:6379"])
def test_an_address_where_nothing_answers_is_one_line_at_once(
        address: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Ray would retry an unreachable cluster for minutes, printing warnings; the simulator
    tries the address first and says so in one line."""
    pytest.importorskip("ray", reason="Ray is not installed: Ray tests skipped")
    assert address_problem(address) is not None
    assert main(["simulate", "--rounds", "1", "--backend", "ray", "--address", address]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"shengji simulate: cannot join the Ray cluster at {address!r}: "
                          "nothing answers at ") and err.count("\n") == 1


def test_addresses_ray_resolves_itself_are_left_to_it() -> None:
    assert address_problem("auto") is None and address_problem("local") is None


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray = pytest.importorskip(
        "ray", reason="Ray is not installed (pip install 'shengji[ray]'): Ray tests skipped")
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             configure_logging=False)
    yield
    ray.shutdown()


@pytest.mark.slow
def test_ray_backend_gives_the_process_results(local_ray: None) -> None:
    on_ray = simulate.run(RULES, PLAYERS, deals=6, seed=3, workers=2, backend="ray")
    assert on_ray == simulate.run(RULES, PLAYERS, deals=6, seed=3, workers=1)
    assert simulate.run(RULES, PLAYERS, deals=6, seed=3, workers=1, backend="ray") == on_ray


@pytest.mark.slow
def test_ray_from_the_command_line(local_ray: None, tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    outputs = []
    for backend in ("ray", "process"):
        out = tmp_path / f"{backend}.json"
        records = tmp_path / backend
        code = main(["simulate", "--preset", "da-bai-fen", "--rounds", "4", "--seed", "5",
                     "--workers", "2", "--backend", backend, "--json", str(out),
                     "--records", str(records)])
        assert code == 0
        outputs.append(json.loads(out.read_text()))
        assert len(list(records.glob("*.toml"))) == 8
    assert outputs[0] == outputs[1]
    capsys.readouterr()


def test_address_needs_the_ray_backend(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--rounds", "1", "--address", "auto"]) == 2
    assert "--address is for --backend ray" in capsys.readouterr().err


def test_jobs_come_back_in_their_order_on_one_or_more_processes() -> None:
    jobs = [(RULES, 3, "", ("bury",), i, i + 1) for i in range(3)]
    one = list(ordered_map(collect_chunk, jobs, workers=1))
    assert list(ordered_map(collect_chunk, jobs, workers=2)) == one
    assert [[kind for kind, _, _ in samples] for samples in one] == [["bury"]] * 3
    assert [s for part in one for s in part] == collect_chunk((RULES, 3, "", ("bury",), 0, 3))
    with pytest.raises(ValueError, match="unknown backend 'spark'; choose from process, ray"):
        next(ordered_map(collect_chunk, jobs, workers=1, backend="spark"))


@pytest.mark.slow
def test_ray_runs_a_builtin_function_as_a_job(local_ray: None) -> None:
    """A compiled function (as the compiled build's ``collect_chunk`` is) is a builtin, which
    ``ray.remote`` does not take: the jobs run through a plain function."""
    assert list(ordered_map(abs, [-3, 2, -1], workers=2, backend="ray")) == [3, 2, 1]
    with pytest.raises(ValueError, match="the workers must be at least 1, got 0"):
        next(ordered_map(abs, [-3], workers=0))


@pytest.mark.slow
def test_training_rows_on_ray_are_those_of_local_processes(
        local_ray: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``scripts/train_learned.py collect --backend ray``: the same rows and gains, in the
    same order, as on processes (30 rounds: two chunks of the collection)."""
    np = pytest.importorskip("numpy")
    trainer = load_script(ROOT / "scripts" / "train_learned.py")
    found = []
    for backend in ("ray", "process"):
        out = tmp_path / f"{backend}.npz"
        run_main(capsys, trainer, "collect", "--preset", "da-bai-fen", "--rounds", "30",
                 "--seed", "3", "--workers", "2", "--kinds", "lead,follow,bury",
                 "--backend", backend, "--out", str(out), check=True)
        with np.load(out) as data:
            found.append({name: data[name] for name in data.files})
    on_ray, on_processes = found
    assert on_ray.keys() == on_processes.keys()
    assert len(on_ray["follow_y"]) > 300 and len(on_ray["bury_y"]) >= 25
    for name in on_ray:
        assert np.array_equal(on_ray[name], on_processes[name]), name
