"""The single-seat Gymnasium environment and the training example."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import numpy as np
from gymnasium.utils.env_checker import check_env

from script_helpers import ROOT, load_script
from shengji.env import SingleSeatEnv
from shengji.players import Player, SearchPlayer


def run_episode(env: SingleSeatEnv, seed: int) -> tuple[float, int]:
    obs, _ = env.reset(seed=seed)
    rng = random.Random(seed)
    total, steps, done = 0.0, 0, False
    while not done:
        allowed = [i for i, ok in enumerate(obs["action_mask"]) if ok]
        assert allowed
        obs, reward, done, truncated, _ = env.step(rng.choice(allowed))
        assert not truncated
        total += reward
        steps += 1
    return total, steps


@pytest.mark.parametrize(("name", "opponents"), [
    ("tractor", "heuristic"), ("finding-friends", "random"), ("hundred", "random")])
def test_one_seat_against_players(name: str, opponents: str) -> None:
    env = SingleSeatEnv(name, seat=1, opponents=opponents)
    total, steps = run_episode(env, 3)
    assert steps > 0
    assert run_episode(env, 3) == (total, steps)  # the same seed: the same episode


def test_search_opponents_from_a_factory_with_a_small_budget() -> None:
    """A factory makes each opponent from the episode's seed: the search player with a
    budget small enough for quick experiments, the same episode for the same seed."""
    made: list[int] = []

    def search(seed: int) -> Player:
        made.append(seed)
        return SearchPlayer(seed, iterations=1, candidates=2)

    env = SingleSeatEnv("da-bai-fen", seat=2, opponents=["random", search, "heuristic"])
    first = run_episode(env, 5)
    assert len(made) == 1 and first[1] > 0
    assert run_episode(env, 5) == first and made[1] == made[0]


def test_observations_lie_in_the_space_and_illegal_ids_are_refused() -> None:
    env = SingleSeatEnv("da-bai-fen")
    obs, _ = env.reset(seed=4)
    rng = random.Random(4)
    done = False
    while not done:
        assert env.observation_space.contains(obs)
        allowed = [i for i, ok in enumerate(obs["action_mask"]) if ok]
        refused = next(i for i in range(int(env.action_space.n)) if i not in allowed)
        with pytest.raises(ValueError, match="not allowed now"):
            env.step(refused)
        obs, _, done, _, _ = env.step(rng.choice(allowed))


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match=r"seat must be 0\.\.3"):
        SingleSeatEnv(seat=4)
    with pytest.raises(ValueError, match="unknown player 'genius'"):
        SingleSeatEnv(opponents="genius")
    with pytest.raises(ValueError, match="one player name or 3 names"):
        SingleSeatEnv(opponents=["random"])
    with pytest.raises(ValueError, match="a player name or a factory, got 7"):
        SingleSeatEnv(opponents=["random", 7, "random"])  # type: ignore[list-item]


@pytest.mark.slow
def test_training_example_tiny_budget(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    module = load_example("train_random")
    image = tmp_path / "curve.png"
    curve = module.main(["--episodes", "20", "--every", "10", "--plot", str(image)])
    assert [done for done, _ in curve] == [10, 20]
    assert image.stat().st_size > 1000


def test_turns_hand_asks_fewer_and_plays_the_same() -> None:
    """``turns="hand"`` (no leak here: only this seat is asked) spares the seat's windows
    without a bid; a seat that passes wherever it may plays the same round either way."""
    outcomes = []
    for turns in ("public", "hand"):
        env = SingleSeatEnv("tractor", seat=2, opponents="heuristic", turns=turns)
        obs, _ = env.reset(seed=6)
        steps, total, done = 0, 0.0, False
        while not done:
            allowed = [i for i, ok in enumerate(obs["action_mask"]) if ok]
            obs, reward, done, _, _ = env.step(55 if 55 in allowed else allowed[0])
            steps, total = steps + 1, total + reward
        match = env.game.match
        assert match is not None and match.results
        outcomes.append((steps, total, [str(a) for a in match.history]))
    (public, public_total, public_history), (hand, hand_total, hand_history) = outcomes
    assert public > hand and public_total == hand_total and public_history == hand_history
    with pytest.raises(ValueError, match="turns must be"):
        SingleSeatEnv(turns="fast")


def load_example(name: str) -> Any:
    return load_script(ROOT / "examples" / f"{name}.py")


@pytest.mark.filterwarnings("ignore::UserWarning")  # no spec: other render modes untested
@pytest.mark.parametrize("render_mode", [None, "ansi"])
def test_gymnasium_check_env_passes(render_mode: str | None) -> None:
    check_env(SingleSeatEnv("da-bai-fen", illegal=-1.0, render_mode=render_mode))


def test_an_illegal_id_ends_the_episode_where_asked() -> None:
    env = SingleSeatEnv("da-bai-fen", illegal=-2.0)
    obs, _ = env.reset(seed=4)
    refused = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    version = env.game.version
    obs, reward, terminated, truncated, info = env.step(refused)
    assert (reward, terminated, truncated, info) == (-2.0, True, False, {"illegal": refused})
    assert env.game.version == version             # nothing played
    with pytest.raises(ValueError, match="the episode is over"):
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert run_episode(env, 4)[1] > 0              # a reset starts afresh


def test_training_example_checks_for_matplotlib_before_training(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    module = load_example("train_random")
    monkeypatch.setitem(sys.modules, "matplotlib", None)

    def no_training(*args: object) -> None:
        raise AssertionError("trained before checking for matplotlib")

    monkeypatch.setattr(module, "train", no_training)
    with pytest.raises(SystemExit) as stop:
        module.main(["--plot", "curve.png"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err == ('train_random.py: --plot needs matplotlib: pip install "shengji[plot]" '
                   '(or pip install -e ".[plot]" in a clone)\n')


def test_multi_agent_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    module = load_example("train_two_policies")
    curve = module.main(["--episodes", "2", "--every", "1", "--eval", "1"])
    assert [done for done, _, _ in curve] == [1, 2]
    assert all(0.0 <= a + b <= 1.0 for _, a, b in curve)
    out = capsys.readouterr().out
    assert "team A (seats 0, 2) won" in out and "policy B against uniformly random ids" in out
