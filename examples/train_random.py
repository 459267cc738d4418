"""Train a small policy for one seat against random players, and plot its learning curve.

    python examples/train_random.py --episodes 3000 --plot curve.png

``--plot`` needs matplotlib (``pip install "shengji[plot]"``, or ``pip install -e
".[plot]"`` in a clone); without it the curve is printed only.

The policy is linear and needs only numpy: the logit of every action id is a weighted sum
of the observation (scaled), a softmax over the ids the mask allows picks the action.
It learns by REINFORCE with a running baseline from the environment's rewards (levels
won or lost, plus points shaping: ``--shaping``). Every ``--every`` episodes the curve
records the average reward of the training episodes since the last point; the uniform
random policy's average (measured first, on the same deals) is the line to beat.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from shengji.env import SingleSeatEnv

PLOT_HINT = 'pip install "shengji[plot]" (or pip install -e ".[plot]" in a clone)'


class LinearPolicy:
    """Softmax over masked logits ``W x + b`` (``x`` the observation, scaled to ~[0, 1])."""

    def __init__(self, observation: int, actions: int, rng: np.random.Generator) -> None:
        self.w = np.zeros((actions, observation), dtype=np.float64)
        self.b = np.zeros(actions, dtype=np.float64)
        self.rng = rng

    @staticmethod
    def features(obs: NDArray[np.float32]) -> NDArray[np.float64]:
        """The observation squashed to [0, 1) (counts, levels and points alike)."""
        x = obs.astype(np.float64)
        return x / (1.0 + x)

    def act(self, x: NDArray[np.float64], mask: NDArray[np.int8], greedy: bool = False
            ) -> tuple[int, NDArray[np.float64]]:
        """An allowed id, and the probabilities over the ids."""
        logits = self.w @ x + self.b
        logits[mask == 0] = -np.inf
        logits -= logits.max()
        p = np.exp(logits)
        p /= p.sum()
        choice = int(p.argmax()) if greedy else int(self.rng.choice(len(p), p=p))
        return choice, p

    def update(self, steps: Sequence[tuple[NDArray[np.float64], int, NDArray[np.float64]]],
               advantage: float, lr: float) -> None:
        """One REINFORCE step: raise the log-probability of the actions taken in proportion
        to the advantage."""
        for x, choice, p in steps:
            grad = -p
            grad[choice] += 1.0
            self.w += lr * advantage * np.outer(grad, x)
            self.b += lr * advantage * grad


def episode(env: SingleSeatEnv, seed: int, policy: LinearPolicy | None,
            rng: np.random.Generator
            ) -> tuple[float, list[tuple[NDArray[np.float64], int, NDArray[np.float64]]]]:
    """Play one episode (``policy=None``: uniformly random ids); its return and steps."""
    obs, _ = env.reset(seed=seed)
    total, steps, done = 0.0, [], False
    while not done:
        mask = obs["action_mask"]
        if policy is None:
            choice = int(rng.choice(np.flatnonzero(mask)))
        else:
            x = policy.features(obs["observation"])
            choice, p = policy.act(x, mask)
            steps.append((x, choice, p))
        obs, reward, done, _, _ = env.step(choice)
        total += reward
    return total, steps


def train(preset: str, episodes: int, every: int, seed: int, lr: float, shaping: float
          ) -> tuple[float, list[tuple[int, float]]]:
    """The random policy's average return, and the learning curve (episode, average)."""
    env = SingleSeatEnv(preset, opponents="random", shaping=shaping)
    rng = np.random.default_rng(seed)
    baseline_runs = [episode(env, seed * 100_003 + k, None, rng)[0] for k in range(every)]
    random_average = float(np.mean(baseline_runs))
    size = env.observation_space["observation"].shape
    assert size is not None
    policy = LinearPolicy(size[0], int(env.action_space.n), rng)
    running, curve, window = random_average, [], []
    for k in range(episodes):
        total, steps = episode(env, seed * 100_003 + k, policy, rng)
        policy.update(steps, total - running, lr / max(1, len(steps)) ** 0.5)
        running += 0.05 * (total - running)
        window.append(total)
        if len(window) == every:
            curve.append((k + 1, float(np.mean(window))))
            window = []
    return random_average, curve


def plot(path: Path, random_average: float, curve: list[tuple[int, float]], title: str
         ) -> None:
    """Draw the learning curve against the random policy's average."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot([e for e, _ in curve], [r for _, r in curve], marker="o", label="linear policy")
    ax.axhline(random_average, color="tab:red", linestyle="--", label="random policy")
    ax.set_xlabel("training episodes")
    ax.set_ylabel("average return per episode")
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main(argv: Sequence[str] | None = None) -> list[tuple[int, float]]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="da-bai-fen")
    parser.add_argument("--episodes", type=int, default=3000)
    parser.add_argument("--every", type=int, default=200, help="episodes per curve point")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--lr", type=float, default=0.02)
    parser.add_argument("--shaping", type=float, default=1.0)
    parser.add_argument("--plot", help="image file to draw the curve to, e.g. curve.png "
                                       "(needs matplotlib)")
    args = parser.parse_args(argv)
    if args.plot:  # checked before the training, not after it
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            print(f"train_random.py: --plot needs matplotlib: {PLOT_HINT}", file=sys.stderr)
            raise SystemExit(2) from None
    random_average, curve = train(args.preset, args.episodes, args.every, args.seed, args.lr,
                                  args.shaping)
    print(f"random policy: {random_average:+.3f} per episode")
    for done, average in curve:
        print(f"after {done:6d} episodes: {average:+.3f}")
    if args.plot:
        plot(Path(args.plot), random_average, curve,
             f"{args.preset}: one seat against random players")
        print(f"wrote the learning curve to {args.plot}")
    return curve


if __name__ == "__main__":
    main()
