"""``shengji simulate``: pit players against each other over many deals.

Each deal is a match (``--matches``) or a single round (``--rounds``, a match
cut after one round). With duplicate deals (the default) every deal is played
twice with the same seed, the second time with the players moved one seat
round, so each side plays each deal from both sides and deal luck cancels out.

Statistics are kept per player *label* (the names given to ``--players``):
levels gained per round with a 95% confidence interval (deals are the
independent samples), the leveling rate (levels won by a label ÷ levels won by
all), round and match win rates, the opponents' average points and the
average length.
"""

from __future__ import annotations

import json
import math
import os
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

from shengji.engine.rules import Rules
from shengji.game.match import Match
from shengji.players import make_player
from shengji.players.table import decide


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
                tuple(match.winners), tuple(history), record)


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
            for batch in pool.map(_play_deal, jobs, chunksize=max(1, deals // (workers * 8))):
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
    console.print(f"average opponents' points {summary.average_opponent_points:.1f}; "
                  f"average length {summary.average_rounds:.2f} rounds, "
                  f"{summary.average_actions:.0f} actions")


def plot(summary: Summary, games: Sequence[Game], path: Path) -> None:
    """Draw the opponents' points and the level progression (needs matplotlib)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:  # pragma: no cover - depends on the optional extra
        raise SystemExit("--plot needs matplotlib: pip install 'shengji[plot]'") from None
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
    left.hist(summary.points, bins=range(0, max([*summary.points, 0]) + 15, 10))
    left.set_title("Opponents' points per round")
    left.set_xlabel("points")
    left.set_ylabel("rounds")
    for game in games[:8]:
        right.plot([lv[0] for lv in game.levels], label=f"deal {game.deal} seat 0 "
                   f"({game.labels[0]})")
    right.set_title("Level of seat 0 through each game")
    right.set_xlabel("round")
    right.set_ylabel("level (2..14)")
    right.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path)
