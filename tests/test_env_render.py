"""The environment's text rendering (one seat's view) and its global state (every hand)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

import numpy as np
from pettingzoo.test import render_test
from pettingzoo.test.state_test import test_state_space as state_space_test

from shengji.env import Encoder, Game, SingleSeatEnv, env, resolve_rules
from shengji.env.render import render_table
from shengji.env.state import StateEncoder, state_layout
from shengji.game.phase import Phase
from shengji.terminal.screen import card_label
from test_env import PRESET_NAMES, hidden_change


def walk(name: str, seed: int, rounds: int = 2) -> Iterator[Game]:
    """A game of ``name`` at random moments of random episodes; the caller puts back what
    it changes before the next moment."""
    rng = random.Random(seed)
    game = Game(resolve_rules(name), rounds=rounds)
    for _ in range(3):
        game.reset(rng.getrandbits(32))
        while not game.over:
            if rng.random() < 0.08:
                yield game
            game.step(rng.choice(game.allowed()))


def table(game: Game) -> tuple[object, ...]:
    """Which cards lie where: the hands, the kitty and the deck (in any order)."""
    rnd = game.round
    hands = [list(rnd.hands[s].counts) for s in range(game.rules.players)]
    return (hands, sorted(map(int, rnd.kitty)), sorted(map(int, rnd.deck)))


@pytest.mark.slow
@pytest.mark.parametrize("name", PRESET_NAMES)
def test_rendering_never_changes_with_the_cards_the_seat_cannot_see(name: str) -> None:
    """Two games that differ only in another seat's hand, the kitty the seat does not hold
    or the cards still to deal render the same for the seat to move."""
    rng = random.Random(name)
    changed = 0
    for game in walk(name, 5):
        seat = game.seat
        assert seat is not None
        text, before = render_table(game, seat), table(game)
        back = hidden_change(game, seat, rng)
        if back is None:
            continue
        assert table(game) != before
        assert render_table(game, seat) == text, (name, seat, game.round.phase)
        back()
        assert table(game) == before
        changed += 1
        hand = game.round.hands[seat].cards()
        assert all(card_label(card) in text for card in hand)
    assert changed >= 5


def test_rendering_shows_the_kitty_to_its_holder_only() -> None:
    game = Game(resolve_rules("tractor"))
    game.reset(3)
    rng = random.Random(3)
    while game.round.kitty_owner is None:
        game.step(rng.choice(game.allowed()))
    owner = game.round.kitty_owner
    for seat in range(4):
        assert ("Kitty (yours)" in render_table(game, seat)) == (seat == owner)
    assert "seed" not in render_table(game, owner).lower()


def test_render_modes_of_both_environments(capsys: pytest.CaptureFixture[str]) -> None:
    render_test(lambda render_mode: env("da-bai-fen", render_mode=render_mode))
    capsys.readouterr()
    one = SingleSeatEnv("da-bai-fen", seat=1, render_mode="ansi")
    one.reset(seed=2)
    text = one.render()
    assert isinstance(text, str) and "you are seat 1" in text and "You decide" in text
    shown = SingleSeatEnv("da-bai-fen", seat=1, render_mode="human")
    obs, _ = shown.reset(seed=2)
    assert shown.render() is None and capsys.readouterr().out.strip() == text
    shown.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert "you are seat 1" in capsys.readouterr().out          # printed after each step
    assert env("tractor").render() is None                       # no render_mode: nothing
    with pytest.raises(ValueError, match="render_mode 'rgb' is not supported"):
        SingleSeatEnv(render_mode="rgb")


@pytest.mark.filterwarnings("ignore:Environment's maximum state space value is infinity")
@pytest.mark.parametrize("name", ["tractor", "finding-friends", "hundred"])
def test_state_shape_dtype_and_space_are_stable(name: str) -> None:
    game = env(name)
    space = game.state_space
    before = game.state()                          # before any reset: nobody deciding
    assert before.shape == space.shape and before[-1] == 1.0
    layout = state_layout(game.rules)
    assert sum(size for _, size in layout.values()) == space.shape[0]
    rng = random.Random(1)
    for seed in (1, 2):
        game.reset(seed=seed)
        for _agent in game.agent_iter():
            state = game.state()
            assert state.shape == space.shape and state.dtype == np.float32
            assert space.contains(state)
            obs, _, terminated, truncated, _ = game.last()
            action = None if terminated or truncated else rng.choice(
                list(np.flatnonzero(obs["action_mask"])))
            game.step(action)
        assert game.state().shape == space.shape
    state_space_test(game)


@pytest.mark.slow
def test_state_shows_the_whole_table() -> None:
    """Every hand, the kitty and the cards still to deal are in the state, and the seat
    deciding; a hidden change moves the state but no observation of the seat deciding."""
    rules = resolve_rules("tractor")
    rng = random.Random(4)
    seen = 0
    for game in walk("tractor", 8, rounds=1):
        states = StateEncoder(Encoder(rules))
        state = states.encode(game)
        at = {name: offset for name, (offset, _) in states.blocks.items()}
        rnd = game.round
        for seat in range(4):
            row = at["hands"] + seat * 54
            assert state[row:row + 54].tolist() == rnd.hands[seat].counts
        cards = state[at["hands"]:at["hands"] + 4 * 54].reshape(4, 54).sum(axis=0)
        cards += state[at["kitty"]:at["kitty"] + 54] + state[at["undealt"]:at["undealt"] + 54]
        played = sum(len(p.cards) for t in rnd.tricks for p in t.plays) + sum(
            len(p.cards) for p in (rnd.trick.plays if rnd.trick is not None else ()))
        taken = len(rnd.kitty) if rnd.phase is Phase.KITTY else 0  # in hand and kitty
        assert cards.sum() + played - taken == len(rnd.deck)  # every card, once
        seat = game.seat
        assert seat is not None and state[at["decider"] + seat] == 1.0
        observed = Encoder(rules).encode(game, seat)
        back = hidden_change(game, seat, rng)
        if back is not None:
            assert not np.array_equal(states.encode(game), state)
            assert np.array_equal(Encoder(rules).encode(game, seat), observed)
            back()
            seen += 1
    assert seen >= 3
