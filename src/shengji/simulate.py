"""``shengji simulate``: pit players against each other over many deals.

Each deal is a match (``--matches``) or a single round (``--rounds``, a match
cut after one round). With duplicate deals (the default) every deal is played
twice with the same seed, the second time with the players moved one seat
round, so each side plays each deal from both sides and deal luck cancels out.

Statistics are kept per player *label* (the names given to ``--players``); the
columns are defined in :data:`COLUMNS` (also printed by ``shengji simulate --help``).
Deals are the independent samples of the confidence intervals.
"""

from __future__ import annotations

import json
import math
import os
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from shengji.engine.rules import Rules
from shengji.game.match import Match
from shengji.players import make_player
from shengji.players.table import decide

COLUMNS = """\
  seats          seats the player holds at each table
  levels/round   levels its seats gain per round played, averaged over the deals, with a
                 95% confidence interval; levels lost count against it
  leveling rate  its share of all the levels gained: levels gained by its seats / levels
                 gained by every seat (losses not subtracted); with two players holding
                 half the seats each, 50% is an even contest
  round wins     rounds won by its side / rounds its seats played
  match wins     matches won / games played (--matches only)
  opponents' points: the average points the opponents (attackers) take per round"""
"""What each figure of the summary means."""

LEVELING_RATE = ("leveling rate = a player's share of all levels gained (its seats' gains / "
                 "every seat's)")
"""The definition printed under the summary table."""


@dataclass(frozen=True)
class Game:
    """One played game (a match or a single round) of one deal."""

    deal: int
    swapped: bool
    labels: tuple[str, ...]
    rounds: int
    actions: int
    gained: tuple[int, ...]
    round_wins: tuple[int, ...]
    points: tuple[int, ...]
    winners: tuple[int, ...]
    levels: tuple[tuple[int, ...], ...]
    record: str = ""
    declarers: tuple[tuple[int, ...], ...] = ()
    """The declaring seats of each round (``levels[i]`` to ``levels[i + 1]``); ``()`` for a
    redeal."""


@dataclass
class LabelStats:
    """The figures of one player label."""

    label: str
    seats: int = 0
    levels_per_round: float = 0.0
    ci95: float = 0.0
    leveling_rate: float = 0.0
    round_win_rate: float = 0.0
    match_win_rate: float = 0.0


@dataclass
class Summary:
    """Everything ``simulate`` reports (also written by ``--json``)."""

    rules: str
    players: list[str]
    deals: int
    games: int
    duplicate: bool
    mode: str
    seed: int
    labels: list[LabelStats] = field(default_factory=list)
    average_opponent_points: float = 0.0
    average_rounds: float = 0.0
    average_actions: float = 0.0
    points: list[int] = field(default_factory=list)

    def to_json(self) -> str:
        """The summary as JSON."""
        return json.dumps(asdict(self), indent=2)


def deal_seed(seed: int, deal: int) -> int:
    """The seed of one deal, derived from the run's seed."""
    return (seed * 1_000_003 + deal * 7_919) % (2**48)


def play_game(rules: Rules, players: Sequence[str], seed: int, deal: int, *, swapped: bool,
              max_rounds: int | None, keep_record: bool = False) -> Game:
    """Play one deal (rotated one seat when ``swapped``) and collect its figures."""
    n = rules.players
    labels = tuple(players[(s - 1) % n] if swapped else players[s] for s in range(n))
    seated = [make_player(label, seed=deal_seed(seed, deal) + s) for s, label in
              enumerate(labels)]
    match = Match(rules, seed=deal_seed(seed, deal), max_rounds=max_rounds)
    while not match.is_over:
        seat = match.to_move
        assert seat is not None
        match.apply(decide(match, seat, seated[seat]))
    gained = [0] * n
    wins = [0] * n
    history = [tuple(int(x) for x in match.results[0].levels_before)] if match.results else []
    for result in match.results:
        for s in range(n):
            gained[s] += result.levels[s] - result.levels_before[s]
        if not result.redeal:
            side = result.declarers if result.declarers_won else result.opponents
            for s in side:
                wins[s] += 1
        history.append(tuple(result.levels))
    record = ""
    if keep_record:
        from shengji.game.record import write_record

        record = write_record(match, names=list(labels))
    return Game(deal, swapped, labels, len(match.results), len(match.history), tuple(gained),
                tuple(wins), tuple(r.points for r in match.results if not r.redeal),
                tuple(match.winners), tuple(history), record,
                tuple(() if r.redeal else tuple(r.declarers) for r in match.results))


def _play_deal(args: tuple[Rules, tuple[str, ...], int, int, bool, int | None, bool]
               ) -> list[Game]:
    rules, players, seed, deal, duplicate, max_rounds, keep = args
    games = [play_game(rules, players, seed, deal, swapped=False, max_rounds=max_rounds,
                       keep_record=keep)]
    if duplicate:
        games.append(play_game(rules, players, seed, deal, swapped=True, max_rounds=max_rounds,
                               keep_record=keep))
    return games


def run(rules: Rules, players: Sequence[str], *, deals: int, seed: int = 0,
        matches: bool = False, duplicate: bool = True, workers: int | None = None,
        keep_records: bool = False, progress: Callable[[int], None] | None = None
        ) -> list[Game]:
    """Play ``deals`` deals (each twice with ``duplicate``) on ``workers`` processes."""
    if len(players) != rules.players:
        raise ValueError(f"--players needs {rules.players} names (one per seat), "
                         f"got {len(players)}")
    for name in set(players):
        make_player(name)
    max_rounds = None if matches else 1
    jobs = [(rules, tuple(players), seed, d, duplicate, max_rounds, keep_records)
            for d in range(deals)]
    workers = workers or os.cpu_count() or 1
    games: list[Game] = []
    if workers == 1:
        for job in jobs:
            games.extend(_play_deal(job))
            if progress:
                progress(1)
    else:
        with ProcessPoolExecutor(workers) as pool:
            chunk = min(8, max(1, deals // (workers * 16)))  # small: a smooth progress bar
            for batch in pool.map(_play_deal, jobs, chunksize=chunk):
                games.extend(batch)
                if progress:
                    progress(1)
    return games


def summarize(games: Sequence[Game], rules: Rules, players: Sequence[str], *, seed: int,
              duplicate: bool, matches: bool, rules_name: str) -> Summary:
    """Turn played games into the reported figures."""
    deals = len({g.deal for g in games})
    summary = Summary(rules_name, list(players), deals, len(games), duplicate,
                      "matches" if matches else "rounds", seed)
    labels = list(dict.fromkeys(players))
    total_gain = sum(max(0, x) for g in games for x in g.gained)
    all_points = [p for g in games for p in g.points]
    for label in labels:
        stats = LabelStats(label, seats=sum(1 for p in players if p == label))
        per_deal: dict[int, list[float]] = {}
        gain = 0
        wins = rounds = won_matches = 0
        for g in games:
            seats = [s for s, lab in enumerate(g.labels) if lab == label]
            if not seats or not g.rounds:
                continue
            per_deal.setdefault(g.deal, []).append(
                sum(g.gained[s] for s in seats) / len(seats) / g.rounds)
            gain += sum(max(0, g.gained[s]) for s in seats)
            wins += sum(g.round_wins[s] for s in seats)
            rounds += g.rounds * len(seats)
            won_matches += 1 if set(seats) & set(g.winners) else 0
        samples = [sum(v) / len(v) for v in per_deal.values()]
        if samples:
            mean = sum(samples) / len(samples)
            var = sum((x - mean) ** 2 for x in samples) / max(1, len(samples) - 1)
            stats.levels_per_round = mean
            stats.ci95 = 1.96 * math.sqrt(var / len(samples))
        stats.leveling_rate = gain / total_gain if total_gain else 0.0
        stats.round_win_rate = wins / rounds if rounds else 0.0
        stats.match_win_rate = won_matches / len(games) if matches and games else 0.0
        summary.labels.append(stats)
    summary.average_opponent_points = sum(all_points) / len(all_points) if all_points else 0.0
    summary.average_rounds = sum(g.rounds for g in games) / len(games) if games else 0.0
    summary.average_actions = sum(g.actions for g in games) / len(games) if games else 0.0
    summary.points = all_points
    return summary


def print_summary(summary: Summary, out: Callable[[str], None] = print) -> None:
    """Print the summary as a table."""
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{summary.deals} deals x {2 if summary.duplicate else 1} "
                        f"({summary.mode}), rules {summary.rules}, seed {summary.seed}")
    for name in ("player", "seats", "levels/round (95% CI)", "leveling rate",
                 "round wins", "match wins"):
        table.add_column(name, justify="left" if name == "player" else "right")
    for s in summary.labels:
        table.add_row(s.label, str(s.seats), f"{s.levels_per_round:+.3f} ± {s.ci95:.3f}",
                      f"{s.leveling_rate:.1%}", f"{s.round_win_rate:.1%}",
                      f"{s.match_win_rate:.1%}" if summary.mode == "matches" else "-")
    console = Console(file=sys.stdout, width=100)
    console.print(table)
    console.print(LEVELING_RATE, highlight=False)
    console.print(f"average opponents' points {summary.average_opponent_points:.1f}; "
                  f"average length {summary.average_rounds:.2f} rounds, "
                  f"{summary.average_actions:.0f} actions")


def level_gains(games: Sequence[Game]) -> dict[tuple[str, str], Counter[int]]:
    """Levels gained in each round by each seat, counted by (label, side): side is
    ``"declarers"`` or ``"attackers"`` (the seat's side in that round; redeals left out)."""
    gains: dict[tuple[str, str], Counter[int]] = {}
    for game in games:
        for i, declarers in enumerate(game.declarers):
            if not declarers:
                continue
            before, after = game.levels[i], game.levels[i + 1]
            for seat, label in enumerate(game.labels):
                side = "declarers" if seat in declarers else "attackers"
                gains.setdefault((label, side), Counter())[after[seat] - before[seat]] += 1
    return gains


def label_levels(game: Game) -> dict[str, list[int]]:
    """The level of each label (its first seat) after each round of ``game``, from the
    level before the first round."""
    first = {label: game.labels.index(label) for label in dict.fromkeys(game.labels)}
    return {label: [levels[seat] for levels in game.levels] for label, seat in first.items()}


def figure(summary: Summary, games: Sequence[Game], rules: Rules) -> Any:
    """The plot as a matplotlib figure (needs matplotlib): the opponents' points per round
    against the target, and the levels gained per round by side (``--rounds``) or the
    levels, as ranks, through the first matches (``--matches``)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FixedLocator, FuncFormatter, MaxNLocator

    from shengji.engine.scoring import level_name

    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.5))
    top = max([*summary.points, rules.target_points]) + 10
    left.hist(summary.points, bins=range(0, top + 10, 10), color="tab:gray")
    left.axvline(rules.target_points, color="tab:red", linestyle="--",
                 label=f"target {rules.target_points}")
    left.set_title("Opponents' (attackers') points per round")
    left.set_xlabel("points")
    left.set_ylabel("rounds")
    left.legend(fontsize=8)
    left.xaxis.set_major_locator(MaxNLocator(integer=True))
    left.yaxis.set_major_locator(MaxNLocator(integer=True))
    if summary.mode == "rounds":
        gains = level_gains(games)
        values = sorted({v for counts in gains.values() for v in counts}) or [0]
        keys = sorted(gains)
        width = 0.8 / max(1, len(keys))
        colours = {label: f"C{i}" for i, label in enumerate(dict.fromkeys(summary.players))}
        for k, key in enumerate(keys):
            counts = gains[key]
            total = sum(counts.values())
            label, side = key
            right.bar([v - 0.4 + width * (k + 0.5) for v in values],
                      [100 * counts[v] / total for v in values], width,
                      label=f"{label} as {side}", color=colours[label],
                      hatch="//" if side == "attackers" else "", edgecolor="white")
        right.set_title("Levels gained per round, by side")
        right.set_xlabel("levels gained in the round")
        right.set_ylabel("% of its rounds on that side")
        right.xaxis.set_major_locator(FixedLocator(values))
    else:
        colours = {label: f"C{i}" for i, label in enumerate(dict.fromkeys(summary.players))}
        for game in games[:6]:
            for label, levels in label_levels(game).items():
                right.plot(range(len(levels)), levels, color=colours[label], alpha=0.7,
                           drawstyle="steps-post")
        for label, colour in colours.items():
            right.plot([], [], color=colour, label=label)
        right.set_title(f"Levels through the first {min(6, len(games))} matches")
        right.set_xlabel("round")
        right.set_ylabel("level")
        right.xaxis.set_major_locator(MaxNLocator(integer=True))
        ranks = range(int(rules.start_rank), int(rules.end_rank) + 1)
        right.yaxis.set_major_locator(FixedLocator(list(ranks)))
        right.yaxis.set_major_formatter(FuncFormatter(lambda v, _: level_name(int(v))))
    right.legend(fontsize=8)
    fig.tight_layout()
    return fig


def plot(summary: Summary, games: Sequence[Game], path: Path, rules: Rules) -> None:
    """Draw :func:`figure` to ``path`` (needs matplotlib; ``shengji simulate`` checks for it
    before the run)."""
    import matplotlib.pyplot as plt

    fig = figure(summary, games, rules)
    fig.savefig(path)
    plt.close(fig)
