"""``shengji simulate``: pit players against each other over many deals.

Each deal is a match (``--matches``) or a single round (``--rounds``, a match
cut after one round). With duplicate deals (the default) every deal is played
twice with the same seed, the second time with the players moved one seat
round, so each side plays each deal from both sides and deal luck cancels out.

Statistics are kept per player *label* (the names given to ``--players``); the
columns are defined in :data:`COLUMNS` (also printed by ``shengji simulate --help``).
Deals are the independent samples of the confidence intervals. The paired difference
between two players (:func:`deal_difference`, :func:`mean_ci95`) is the one definition of
"levels per deal" that the benchmarks use too.
"""

from __future__ import annotations

import json
import math
import os
import sys
import zlib
from collections import Counter
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from shengji.engine.rules import Rules
from shengji.game.match import Match, never_ends
from shengji.parallel import ordered_map
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
  opponents' points: the average points the opponents (attackers) take per round
  paired difference: for two players, the levels gained per seat by the first one's seats
                 less the second one's in each game, averaged over the games of a deal
                 (both seatings with duplicate deals), then over the deals, with a 95%
                 confidence interval (the deals are the independent samples)"""
"""What each figure of the summary means."""

LEVELING_RATE = ("leveling rate = a player's share of all levels gained (its seats' gains / "
                 "every seat's)")
"""The definition printed under the summary table."""


@dataclass(frozen=True)
class PlayedDeal:
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
    unfinished: bool = False
    """A match stopped at its bound of rounds (``max_rounds``) before any side won."""


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
class PairedDifference:
    """The paired difference of two player labels (:func:`deal_difference`): its mean
    per deal and the half-width of its 95% confidence interval over ``deals`` deals."""

    first: str
    second: str
    levels_per_deal: float = 0.0
    ci95: float = 0.0
    deals: int = 0


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
    max_rounds: int | None = None
    """The most rounds a match played (``--max-rounds``), or ``None``: to its end."""
    unfinished: int = 0
    """Matches stopped at ``max_rounds`` before any side won."""
    paired: list[PairedDifference] = field(default_factory=list)
    """The paired difference of every two labels, in the order of ``--players``."""

    def to_json(self) -> str:
        """The summary as JSON."""
        return json.dumps(asdict(self), indent=2)


def seat_difference(gained: Sequence[float], first: Collection[int],
                    second: Collection[int]) -> float:
    """The levels gained per seat by the seats ``first`` less those gained per seat by the
    seats ``second`` in one game (``gained``: each seat's levels gained)."""
    return (sum(gained[s] for s in first) / len(first)
            - sum(gained[s] for s in second) / len(second))


def deal_difference(games: Sequence[PlayedDeal], first: str, second: str) -> float | None:
    """The paired figure of one deal: :func:`seat_difference` of the seats of the labels
    ``first`` and ``second`` in each of the deal's games (both seatings with duplicate
    deals), averaged; ``None`` if no game seats both."""
    found = []
    for game in games:
        mine = [s for s, label in enumerate(game.labels) if label == first]
        theirs = [s for s, label in enumerate(game.labels) if label == second]
        if mine and theirs:
            found.append(seat_difference(game.gained, mine, theirs))
    return sum(found) / len(found) if found else None


def mean_ci95(samples: Sequence[float]) -> tuple[float, float]:
    """The mean of ``samples`` and the half-width of its 95% confidence interval: 1.96
    standard errors, from the sample standard deviation (0 for fewer than two samples)."""
    if not samples:
        return 0.0, 0.0
    mean = sum(samples) / len(samples)
    var = sum((x - mean) ** 2 for x in samples) / max(1, len(samples) - 1)
    return mean, 1.96 * math.sqrt(var / len(samples))


SIMULATED_WORLDS = 32
"""The deals a thinking player (``search``) samples for each decision in a simulation: a
fixed number, not a time budget, so that a run is the same for the same seed whatever the
machine's speed and load (the benchmarks' setting, whose figures the players' page quotes).
"""


def deal_seed(seed: int, deal: int) -> int:
    """The seed of one deal, derived from the run's seed."""
    return (seed * 1_000_003 + deal * 7_919) % (2**48)


def play_game(rules: Rules, players: Sequence[str], seed: int, deal: int, *, swapped: bool,
              max_rounds: int | None, keep_record: bool = False) -> PlayedDeal:
    """Play one deal (rotated one seat when ``swapped``) and collect its figures."""
    n = rules.players
    labels = tuple(players[(s - 1) % n] if swapped else players[s] for s in range(n))
    seated = [make_player(label, seed=deal_seed(seed, deal) + s, worlds=SIMULATED_WORLDS)
              for s, label in enumerate(labels)]
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
    return PlayedDeal(deal, swapped, labels, len(match.results), len(match.history),
                      tuple(gained), tuple(wins),
                      tuple(r.points for r in match.results if not r.redeal),
                      tuple(match.winners), tuple(history), record,
                      tuple(() if r.redeal else tuple(r.declarers) for r in match.results),
                      not match.winners)


Job = tuple[Rules, tuple[str, ...], int, int, bool, int | None, bool]
"""One deal to play: rules, players, seed, deal, duplicate, max rounds, keep records."""


def _play_deal(args: Job) -> list[PlayedDeal]:
    rules, players, seed, deal, duplicate, max_rounds, keep = args
    games = [play_game(rules, players, seed, deal, swapped=False, max_rounds=max_rounds,
                       keep_record=keep)]
    if duplicate:
        games.append(play_game(rules, players, seed, deal, swapped=True, max_rounds=max_rounds,
                               keep_record=keep))
    return games


def run(rules: Rules, players: Sequence[str], *, deals: int, seed: int = 0,
        matches: bool = False, duplicate: bool = True, workers: int | None = None,
        keep_records: bool = False, progress: Callable[[int], None] | None = None,
        backend: str = "process", address: str | None = None,
        max_rounds: int | None = None) -> list[PlayedDeal]:
    """Play ``deals`` deals (each twice with ``duplicate``) on ``workers`` processes (or
    Ray workers: :func:`stream`), in deal order."""
    games: list[PlayedDeal] = []
    for batch in stream(rules, players, deals=deals, seed=seed, matches=matches,
                        duplicate=duplicate, workers=workers, keep_records=keep_records,
                        backend=backend, address=address, max_rounds=max_rounds):
        games.extend(batch)
        if progress:
            progress(1)
    return games


def stream(rules: Rules, players: Sequence[str], *, deals: int, seed: int = 0,
           matches: bool = False, duplicate: bool = True, workers: int | None = None,
           keep_records: bool = False, backend: str = "process", address: str | None = None,
           max_rounds: int | None = None) -> Iterator[list[PlayedDeal]]:
    """The games of each deal, deal after deal, with a bounded number of deals in flight
    (a million-game run never holds them all). ``backend = "ray"`` plays them on a Ray
    cluster: the one at ``address``, else a local one with ``workers`` CPUs. With
    ``matches`` each match plays at most ``max_rounds`` rounds (``None``: to its end, which
    rules that never end refuse, see :func:`~shengji.game.match.never_ends`)."""
    problem = max_rounds_problem(rules, matches, max_rounds, "max_rounds")
    if problem:
        raise ValueError(problem)
    if len(players) != rules.players:
        raise ValueError(f"--players needs {rules.players} names (one per seat), "
                         f"got {len(players)}")
    for name in set(players):
        make_player(name)
    max_rounds = max_rounds if matches else 1
    jobs = ((rules, tuple(players), seed, d, duplicate, max_rounds, keep_records)
            for d in range(deals))
    yield from ordered_map(_play_deal, jobs, workers=workers or os.cpu_count() or 1,
                           backend=backend, address=address)


def max_rounds_problem(rules: Rules, matches: bool, max_rounds: int | None, bound: str
                       ) -> str | None:
    """Why a run cannot use this bound on a match's rounds (``bound`` names it), or
    ``None``: a bound is for whole matches, at least 1, and needed where matches never
    end."""
    if max_rounds is None:
        return never_ends(rules, bound) if matches else None
    if not matches:
        return f"{bound} is for whole matches (--matches)"
    if max_rounds < 1:
        return f"{bound} must be at least 1, got {max_rounds}"
    return None


def summarize(games: Sequence[PlayedDeal], rules: Rules, players: Sequence[str], *, seed: int,
              duplicate: bool, matches: bool, rules_name: str,
              max_rounds: int | None = None) -> Summary:
    """Turn played games into the reported figures."""
    tally = Tally(players, seed=seed, duplicate=duplicate, matches=matches,
                  rules_name=rules_name, max_rounds=max_rounds)
    tally.add(games)
    return tally.summary()


class Tally:
    """The figures of a run, added deal by deal, so that a stream of games
    (:func:`stream`) need not be kept; every game of a deal comes in one :meth:`add`."""

    def __init__(self, players: Sequence[str], *, seed: int, duplicate: bool, matches: bool,
                 rules_name: str, max_rounds: int | None = None) -> None:
        self.players = list(players)
        self.head = (rules_name, seed, duplicate, matches)
        self.labels = list(dict.fromkeys(players))
        self.samples: dict[str, list[float]] = {label: [] for label in self.labels}
        self.differences: dict[tuple[str, str], list[float]] = {
            (a, b): [] for i, a in enumerate(self.labels) for b in self.labels[i + 1:]}
        """Per two labels, the paired figure of each deal (:func:`deal_difference`)."""
        self.counts = {label: [0, 0, 0, 0] for label in self.labels}
        """Per label: levels gained, rounds won, rounds played, matches won."""
        self.deals = self.games = self.total_gain = self.rounds = self.actions = 0
        self.unfinished = 0
        self.max_rounds = max_rounds
        self.points: list[int] = []

    def add(self, games: Sequence[PlayedDeal]) -> None:
        """Count games (all the games of the deals they come from)."""
        by_deal: dict[int, list[PlayedDeal]] = {}
        for game in games:
            by_deal.setdefault(game.deal, []).append(game)
            self.total_gain += sum(max(0, x) for x in game.gained)
            self.points.extend(game.points)
            self.rounds += game.rounds
            self.actions += game.actions
            self.unfinished += game.unfinished
        self.deals += len(by_deal)
        self.games += len(games)
        for label in self.labels:
            counts = self.counts[label]
            for deal_games in by_deal.values():
                per_game = []
                for g in deal_games:
                    seats = [s for s, lab in enumerate(g.labels) if lab == label]
                    if not seats or not g.rounds:
                        continue
                    per_game.append(sum(g.gained[s] for s in seats) / len(seats) / g.rounds)
                    counts[0] += sum(max(0, g.gained[s]) for s in seats)
                    counts[1] += sum(g.round_wins[s] for s in seats)
                    counts[2] += g.rounds * len(seats)
                    counts[3] += 1 if set(seats) & set(g.winners) else 0
                if per_game:
                    self.samples[label].append(sum(per_game) / len(per_game))
        for (first, second), samples in self.differences.items():
            for deal_games in by_deal.values():
                figure = deal_difference(deal_games, first, second)
                if figure is not None:
                    samples.append(figure)

    def summary(self) -> Summary:
        """The figures so far."""
        rules_name, seed, duplicate, matches = self.head
        summary = Summary(rules_name, list(self.players), self.deals, self.games, duplicate,
                          "matches" if matches else "rounds", seed)
        for label in self.labels:
            stats = LabelStats(label, seats=sum(1 for p in self.players if p == label))
            stats.levels_per_round, stats.ci95 = mean_ci95(self.samples[label])
            gain, wins, rounds, won_matches = self.counts[label]
            stats.leveling_rate = gain / self.total_gain if self.total_gain else 0.0
            stats.round_win_rate = wins / rounds if rounds else 0.0
            stats.match_win_rate = won_matches / self.games if matches and self.games else 0.0
            summary.labels.append(stats)
        points = self.points
        summary.average_opponent_points = sum(points) / len(points) if points else 0.0
        summary.average_rounds = self.rounds / self.games if self.games else 0.0
        summary.average_actions = self.actions / self.games if self.games else 0.0
        summary.points = list(points)
        if matches:
            summary.max_rounds = self.max_rounds
            summary.unfinished = self.unfinished
        for (first, second), samples in self.differences.items():
            mean, ci = mean_ci95(samples)
            summary.paired.append(PairedDifference(first, second, mean, ci, len(samples)))
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
    for pair in summary.paired:
        console.print(paired_line(pair, summary), highlight=False, soft_wrap=True)
    console.print(f"average opponents' points {summary.average_opponent_points:.1f}; "
                  f"average length {summary.average_rounds:.2f} rounds, "
                  f"{summary.average_actions:.0f} actions")
    if summary.max_rounds is not None:
        console.print(f"{summary.unfinished} of {summary.games} matches stopped at the bound "
                      f"of {summary.max_rounds} rounds (--max-rounds) before a side won",
                      highlight=False)


def paired_line(pair: PairedDifference, summary: Summary) -> str:
    """The paired difference in words, e.g. ``paired difference, heuristic less random:
    +1.583 ± 0.033 levels per deal (95% CI over 1000 duplicate deals)``."""
    deals = f"{pair.deals}{' duplicate' if summary.duplicate else ''} deals"
    game = "" if summary.mode == "rounds" else " (whole matches)"
    return (f"paired difference, {pair.first} less {pair.second}: "
            f"{pair.levels_per_deal:+.3f} ± {pair.ci95:.3f} levels per deal{game} "
            f"(95% CI over {deals})")


KIND_COLOURS = {"heuristic": "tab:blue", "random": "tab:orange", "learned": "tab:green",
                "search": "tab:purple", "heuristic-nomem": "tab:cyan"}
"""The plot's colour of each player kind, whatever the order of ``--players``."""
_OTHER_COLOURS = ("tab:brown", "tab:pink", "tab:olive", "tab:red")


def kind_colour(label: str) -> str:
    """The plot's colour of a player label: its kind's (:data:`KIND_COLOURS`), else one
    chosen by the name alone (the same in every run)."""
    colour = KIND_COLOURS.get(label)
    if colour is None:
        colour = _OTHER_COLOURS[zlib.crc32(label.encode()) % len(_OTHER_COLOURS)]
    return colour


def level_gains(games: Sequence[PlayedDeal]) -> dict[tuple[str, str], Counter[int]]:
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


def label_levels(game: PlayedDeal) -> dict[str, list[int]]:
    """The level of each label (its first seat) after each round of ``game``, from the
    level before the first round."""
    first = {label: game.labels.index(label) for label in dict.fromkeys(game.labels)}
    return {label: [levels[seat] for levels in game.levels] for label, seat in first.items()}


def figure(summary: Summary, games: Sequence[PlayedDeal], rules: Rules) -> Any:
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
        colours = {label: kind_colour(label) for label in dict.fromkeys(summary.players)}
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
        colours = {label: kind_colour(label) for label in dict.fromkeys(summary.players)}
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
        ranks = range(int(rules.first_rank), int(rules.end_rank) + 1)
        right.yaxis.set_major_locator(FixedLocator(list(ranks)))
        right.yaxis.set_major_formatter(FuncFormatter(lambda v, _: level_name(int(v))))
    right.legend(fontsize=8)
    fig.tight_layout()
    return fig


def plot(summary: Summary, games: Sequence[PlayedDeal], path: Path, rules: Rules) -> None:
    """Draw :func:`figure` to ``path`` (needs matplotlib; ``shengji simulate`` checks for it
    before the run)."""
    import matplotlib.pyplot as plt

    fig = figure(summary, games, rules)
    fig.savefig(path)
    plt.close(fig)
