"""Train two policies against each other: one plays seats 0 and 2, the other seats 1 and 3.

    python examples/train_two_policies.py --episodes 400 --every 100

Each policy is linear and needs only numpy: the logit of every action id is a weighted sum
of the seat's observation (scaled), a softmax over the ids the mask allows picks the
action. Both learn at once, in the PettingZoo environment, by REINFORCE with a running
baseline per team from their own seats' rewards (levels won or lost, plus points shaping:
``--shaping``). Every ``--every`` episodes it prints how often each team won those rounds
(gained more levels than the other); at the end, how often each policy beats the uniformly
random ids, the untrained start of both.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray

from shengji.env import env, raw_env

Step = tuple[NDArray[np.float64], int, NDArray[np.float64]]
"""One decision: the features, the id chosen, the probabilities over the ids."""
TEAMS = ("A", "B")
"""Team A holds the even seats, team B the odd ones."""


class LinearPolicy:
    """Softmax over masked logits ``W x + b`` (``x`` the observation, scaled to [0, 1))."""

    def __init__(self, observation: int, actions: int, rng: np.random.Generator) -> None:
        self.w = np.zeros((actions, observation), dtype=np.float64)
        self.b = np.zeros(actions, dtype=np.float64)
        self.rng = rng

    def act(self, obs: NDArray[np.float32], mask: NDArray[np.int8]) -> Step:
        """Sample an allowed id; the step to learn from."""
        x = obs.astype(np.float64)
        x /= 1.0 + x
        logits = self.w @ x + self.b
        logits[mask == 0] = -np.inf
        p = np.exp(logits - logits.max())
        p /= p.sum()
        return x, int(self.rng.choice(len(p), p=p)), p

    def update(self, steps: Sequence[Step], advantage: float, lr: float) -> None:
        """One REINFORCE step: raise the log-probability of the ids taken in proportion to
        the advantage."""
        for x, choice, p in steps:
            grad = -p
            grad[choice] += 1.0
            self.w += lr * advantage * np.outer(grad, x)
            self.b += lr * advantage * grad


def episode(game: raw_env, seed: int, policies: Sequence[LinearPolicy | None],
            rng: np.random.Generator) -> tuple[list[float], list[list[Step]], int]:
    """Play one episode, ``policies[seat % 2]`` at each seat (``None``: uniformly random
    ids): each seat's return and steps, and the winner (0 team A, 1 team B, -1 even)."""
    game.reset(seed=seed)
    n = len(game.possible_agents)
    returns: list[float] = [0.0] * n
    steps: list[list[Step]] = [[] for _ in range(n)]
    for agent in game.agent_iter():
        obs, reward, terminated, truncated, _ = game.last()
        seat = game.agent_name_mapping[agent]
        returns[seat] += reward
        if terminated or truncated:
            game.step(None)
            continue
        policy = policies[seat % 2]
        if policy is None:
            choice = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        else:
            step = policy.act(obs["observation"], obs["action_mask"])
            steps[seat].append(step)
            choice = step[1]
        game.step(choice)
    match = game.game.match
    assert match is not None
    gains = [sum(r.levels[s] - r.levels_before[s] for r in match.results) for s in (0, 1)]
    winner = -1 if gains[0] == gains[1] else int(gains[1] > gains[0])
    return returns, steps, winner


def win_rate(game: raw_env, policy: LinearPolicy, team: int, episodes: int, seed: int,
             rng: np.random.Generator) -> float:
    """How often ``policy`` at ``team``'s seats wins against uniformly random ids."""
    policies: list[LinearPolicy | None] = [None, None]
    policies[team] = policy
    wins = sum(episode(game, seed + k, policies, rng)[2] == team for k in range(episodes))
    return wins / max(1, episodes)


def main(argv: Sequence[str] | None = None) -> list[tuple[int, float, float]]:
    """Train, print the win rates as they go; the curve: (episodes, A's rate, B's rate)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="da-bai-fen", help="a preset of 4 seats, fixed teams")
    parser.add_argument("--episodes", type=int, default=400)
    parser.add_argument("--every", type=int, default=100, help="episodes per line")
    parser.add_argument("--eval", type=int, default=50,
                        help="episodes of each policy against random ids at the end")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--lr", type=float, default=0.02)
    parser.add_argument("--shaping", type=float, default=1.0)
    args = parser.parse_args(argv)
    game = env(args.preset, shaping=args.shaping)
    if len(game.possible_agents) != 4:
        parser.error(f"--preset {args.preset} has {len(game.possible_agents)} seats, not 4")
    rng = np.random.default_rng(args.seed)
    observations, actions = game.observation_space("seat_0"), game.action_space("seat_0")
    assert isinstance(observations, spaces.Dict) and isinstance(actions, spaces.Discrete)
    size = observations["observation"].shape
    assert size is not None
    policies = [LinearPolicy(size[0], int(actions.n), rng) for _ in TEAMS]
    baselines = [0.0, 0.0]
    curve: list[tuple[int, float, float]] = []
    window: list[int] = []
    for k in range(args.episodes):
        returns, steps, winner = episode(game, args.seed * 100_003 + k, policies, rng)
        for team, policy in enumerate(policies):
            seats = range(team, len(returns), 2)
            for seat in seats:
                lr = args.lr / max(1, len(steps[seat])) ** 0.5
                policy.update(steps[seat], returns[seat] - baselines[team], lr)
            mean = sum(returns[s] for s in seats) / len(seats)
            baselines[team] += 0.05 * (mean - baselines[team])
        window.append(winner)
        if len(window) == args.every or k + 1 == args.episodes:
            a, b = (window.count(t) / len(window) for t in (0, 1))
            curve.append((k + 1, a, b))
            print(f"episodes {k + 2 - len(window):5d}-{k + 1:<5d} team A (seats 0, 2) won "
                  f"{a:4.0%}, team B (seats 1, 3) {b:4.0%}, even {1 - a - b:4.0%}", flush=True)
            window = []
    if args.eval:
        for team, name in enumerate(TEAMS):
            rate = win_rate(game, policies[team], team, args.eval, 7_919 * (args.seed + 1), rng)
            print(f"policy {name} against uniformly random ids: wins {rate:.0%} of "
                  f"{args.eval} rounds")
    return curve


if __name__ == "__main__":
    main()
