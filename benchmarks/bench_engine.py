"""Benchmark of the rules engine on random mid-game positions (2 decks, 4 players).

Run from the repository root::

    python benchmarks/bench_engine.py [--positions N] [--seed S] [--tricks T] [--json FILE]
    python benchmarks/bench_engine.py --profile --positions 2000   # hot spots, not timings

Each position is a fresh deal (108 cards: four hands of 25 and a kitty of 8, a
random trump, one in five no-trump) followed by a random number of complete
random tricks, so that hands are mid-game and some players are void. A lead is
then taken from one hand, cycling through every shape (single, pair, tractor,
throws of 2 to 6 units), and another seat's hand follows it. Throws are taken
as attempted (not checked against the other hands), so that followers face
every shape.

Measured per position, with ``time.perf_counter_ns`` and the garbage collector
paused (it runs between positions):

- check: ``LegalPlays(...)`` + ``reason(play)`` from scratch, for three proposed
  plays: the play drawn by ``random``, that play with one card swapped for
  another card of the hand, and random cards of the hand (the last two are
  usually illegal when following);
- description: ``LegalPlays(...)`` + ``forced`` + ``describe()``;
- random: ``LegalPlays(...)`` + ``random(rng)``;
- enumeration: ``list(legal)`` on the built set (construction excluded), only
  when the set has at most 1,000 plays: the enumeration is cut at 1,001 plays,
  and capped runs are reported on their own row;
- random complete tricks: ``Trick`` with random leads (units, and one in five a
  random set of one suit, i.e. a throw checked against all hands) and random
  legal follows (``LegalPlays.random`` then ``Trick.play``), hands updated.

Worst times are given twice: the slowest single run (which a busy machine inflates
with scheduler pauses of several ms) and ``worst*``, the five slowest positions of
the metric timed again, best of five runs each; the targets are checked against
``worst*`` (check < 50 µs median; description and random < 200 µs median, < 20 ms
worst).

A baseline (building a ``Hand`` of 25 cards, ``sorted()`` of 25 cards) is timed
in the same run so that figures can be compared across machines. Consistency is
checked on the way (the drawn play is legal and contains ``forced``; an
enumerated set has no duplicates and contains the drawn play); problems are
counted and printed.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import json
import platform
import pstats
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import islice
from random import Random
from typing import Any

from shengji.engine import (
    Card,
    Hand,
    Lead,
    LegalLeads,
    LegalPlays,
    Rank,
    Rules,
    Suit,
    Trick,
    Trump,
    format_cards,
    full_deck,
)

SHAPES = ("single", "pair", "tractor", "throw-2", "throw-3", "throw-4", "throw-5", "throw-6")
HAND_SIZE = 25
KITTY = 8
ENUM_CAP = 1000
MIN_LEFT = 8  # stop the warm-up tricks before hands get smaller than this
MAX_WARMUP_TRICKS = 14
TARGETS_US = {  # metric -> (median target, worst target), microseconds
    "check": (50.0, None),
    "description": (200.0, 20_000.0),
    "random": (200.0, 20_000.0),
}

now = time.perf_counter_ns


# -- positions -------------------------------------------------------------------------


@dataclass
class Position:
    """A dealt and partly played round, a lead and the hand that follows it."""

    trump: Trump
    hands: list[Hand]
    leader: int
    follower: int
    lead: Lead
    shape: str


def deal(rng: Random, rules: Rules) -> tuple[Trump, list[Hand]]:
    """Four hands of 25 from two shuffled decks (the kitty is set aside) and a trump."""
    deck = full_deck(rules.decks)
    rng.shuffle(deck)
    assert len(deck) == rules.players * HAND_SIZE + KITTY
    hands = [Hand(deck[i * HAND_SIZE:(i + 1) * HAND_SIZE]) for i in range(rules.players)]
    rank = rng.choice(list(Rank))
    suit = None if rng.random() < 0.2 else rng.choice(list(Suit))
    return rules.trump(rank, suit), hands


def suit_groups(hand: Hand, trump: Trump) -> dict[int, list[Card]]:
    """The hand's cards by effective suit."""
    groups: dict[int, list[Card]] = {}
    for card in hand.cards():
        groups.setdefault(trump.suit_index[card], []).append(card)
    return groups


def random_lead(hand: Hand, trump: Trump, rules: Rules, rng: Random,
                throw_share: float) -> tuple[Card, ...]:
    """A random unit of the hand or, with probability ``throw_share``, random cards of one
    suit (a throw attempt)."""
    if rules.throws and rng.random() < throw_share:
        cards = rng.choice(list(suit_groups(hand, trump).values()))
        if len(cards) >= 2:
            return tuple(rng.sample(cards, rng.randint(2, min(len(cards), 6))))
    return LegalLeads(hand, trump, rules).random(rng)


def play_trick(trump: Trump, rules: Rules, hands: list[Hand], leader: int, rng: Random,
               throw_share: float) -> int:
    """Play one complete random trick from ``leader``; update the hands; return the winner."""
    trick = Trick(trump, rules, leader)
    trick.play(random_lead(hands[leader], trump, rules, rng, throw_share), hands[leader],
               hands=hands)
    lead = trick.lead
    assert lead is not None
    for _ in range(rules.players - 1):
        seat = trick.turn
        assert seat is not None
        hand = hands[seat]
        trick.play(LegalPlays(hand, lead, trump, rules).random(rng), hand)
    for play in trick.plays:
        hands[play.seat].remove(play.cards)
    winner = trick.winner
    assert winner is not None
    return winner


def lead_of_shape(hand: Hand, shape: str, trump: Trump, rules: Rules, rng: Random
                  ) -> Lead | None:
    """A random lead of ``shape`` taken from ``hand``, or ``None`` if none was found."""
    units = list(LegalLeads(hand, trump, rules).units())
    if shape == "single":
        pool = [u for u in units if u.width == 1 and u.length == 1]
    elif shape == "pair":
        pool = [u for u in units if u.width == 2 and u.length == 1]
    elif shape == "tractor":
        pool = [u for u in units if u.length > 1]
    else:
        return throw_of(hand, int(shape.split("-")[1]), trump, rules, rng)
    if not pool:
        return None
    return Lead.from_cards(rng.choice(pool).cards, trump, rules)


def throw_of(hand: Hand, k: int, trump: Trump, rules: Rules, rng: Random) -> Lead | None:
    """A throw read as exactly ``k`` units, built from ``k`` random disjoint units of one
    suit (adjacent units may merge, so a few attempts are made)."""
    groups = [cards for cards in suit_groups(hand, trump).values() if len(cards) >= k]
    if not groups:
        return None
    for _ in range(12):
        left = Hand(rng.choice(groups))
        taken: list[Card] = []
        for _ in range(k):
            units = list(LegalLeads(left, trump, rules).units())
            if not units:
                break
            unit = rng.choice(units)
            taken += unit.cards
            left.remove(unit.cards)
        lead = Lead.from_cards(taken, trump, rules)
        if len(lead.units) == k:
            return lead
    return None


def make_position(rng: Random, rules: Rules, shape: str) -> Position | None:
    """Deal, play some random tricks, then take a lead of ``shape`` from some seat."""
    trump, hands = deal(rng, rules)
    leader = rng.randrange(rules.players)
    for _ in range(rng.randint(0, MAX_WARMUP_TRICKS)):
        if len(hands[0]) < MIN_LEFT + 6:
            break
        leader = play_trick(trump, rules, hands, leader, rng, throw_share=0.1)
    for step in range(rules.players):
        seat = (leader + step) % rules.players
        lead = lead_of_shape(hands[seat], shape, trump, rules, rng)
        if lead is not None:
            follower = rng.choice([s for s in range(rules.players) if s != seat])
            return Position(trump, hands, seat, follower, lead, shape)
    return None


def swapped(play: tuple[Card, ...], hand: Hand, rng: Random) -> tuple[Card, ...]:
    """``play`` with one card replaced by another card of the hand (often illegal)."""
    spare = Counter(hand.cards())
    spare.subtract(play)
    extra = [c for c, n in spare.items() if n > 0 and c not in play]
    if not extra:
        return play
    cards = list(play)
    cards[rng.randrange(len(cards))] = rng.choice(extra)
    return tuple(cards)


# -- statistics --------------------------------------------------------------------------


@dataclass
class Series:
    """Timings of one metric, in nanoseconds."""

    values: list[int] = field(default_factory=list)

    def add(self, ns: int) -> None:
        self.values.append(ns)

    def summary(self) -> dict[str, float]:
        v = sorted(self.values)
        if not v:
            return {"n": 0, "median_us": 0.0, "p99_us": 0.0, "worst_us": 0.0, "mean_us": 0.0}
        return {
            "n": len(v),
            "median_us": v[len(v) // 2] / 1000,
            "p99_us": v[min(len(v) - 1, (len(v) * 99) // 100)] / 1000,
            "worst_us": v[-1] / 1000,
            "mean_us": sum(v) / len(v) / 1000,
        }


@dataclass
class Slowest:
    """The positions that gave the worst times of a metric, kept to be timed again."""

    keep: int = 5
    entries: list[tuple[int, str, Callable[[], object]]] = field(default_factory=list)

    def offer(self, ns: int, describe: Callable[[], str], rerun: Callable[[], object],
              prefix: str = "") -> None:
        """Keep ``rerun`` (the timed operation, repeatable) if it is among the slowest."""
        if len(self.entries) < self.keep or ns > self.entries[-1][0]:
            self.entries.append((ns, prefix + describe(), rerun))
            self.entries.sort(key=lambda entry: -entry[0])
            del self.entries[self.keep:]

    def retime(self, repeats: int = 5) -> dict[str, object]:
        """The worst time again, as the best of ``repeats`` runs of each kept position
        (so that a scheduler hiccup during the one timed run does not count)."""
        worst, text = 0, ""
        for _, description, rerun in self.entries:
            best = min(timed(rerun) for _ in range(repeats))
            if best > worst:
                worst, text = best, description
        first = self.entries[0] if self.entries else (0, "", None)
        return {"us": first[0] / 1000, "position": first[1],
                "retimed_us": worst / 1000, "retimed_position": text}


def describe_op(hand: Hand, lead: Lead, trump: Trump, rules: Rules) -> Callable[[], object]:
    """The description operation, repeatable."""
    def run() -> object:
        legal = LegalPlays(hand, lead, trump, rules)
        return legal.forced, legal.describe()
    return run


def random_op(hand: Hand, lead: Lead, trump: Trump, rules: Rules, state: tuple[Any, ...]
              ) -> Callable[[], object]:
    """The random draw, repeatable (the generator restarts from ``state``)."""
    again = Random(0)

    def run() -> object:
        again.setstate(state)
        return LegalPlays(hand, lead, trump, rules).random(again)
    return run


def check_op(hand: Hand, lead: Lead, trump: Trump, rules: Rules, play: tuple[Card, ...]
             ) -> Callable[[], object]:
    """One check from scratch, repeatable."""
    return lambda: LegalPlays(hand, lead, trump, rules).reason(play)


def enumerate_op(legal: LegalPlays) -> Callable[[], object]:
    """The capped enumeration, repeatable."""
    return lambda: list(islice(iter(legal), ENUM_CAP + 1))


def timed(fn: Callable[[], object]) -> int:
    """Nanoseconds of one call, the garbage collector paused."""
    gc.disable()
    try:
        start = now()
        fn()
        return now() - start
    finally:
        gc.enable()


def baseline(rng: Random) -> dict[str, float]:
    """Per-call microseconds of two trivial operations (best of 7 batches of 2,000)."""
    deck = full_deck(2)
    rng.shuffle(deck)
    cards = deck[:HAND_SIZE]

    def per_call(fn: Callable[[], object]) -> float:
        best = float("inf")
        for _ in range(7):
            start = now()
            for _ in range(2000):
                fn()
            best = min(best, (now() - start) / 2000)
        return best / 1000

    return {
        "hand_25_us": per_call(lambda: Hand(cards)),
        "sorted_25_us": per_call(lambda: sorted(cards)),
    }


# -- the run ---------------------------------------------------------------------------


def measure_positions(count: int, seed: int, rules: Rules) -> dict[str, object]:
    """Time checks, descriptions, random draws and enumerations over ``count`` positions."""
    rng = Random(seed)
    draw = Random(seed + 1)  # the engine's own random draws
    series = {name: Series() for name in (
        "check", "check_legal", "check_illegal", "description", "random",
        "enumerate", "enumerate_capped")}
    by_shape = {shape: {m: Series() for m in ("check", "description", "random", "enumerate")}
                for shape in SHAPES}
    modes: Counter[str] = Counter()
    problems: list[str] = []
    slow = {m: Slowest() for m in ("check", "description", "random", "enumerate")}
    redeals = 0
    done = 0
    while done < count:
        shape = SHAPES[done % len(SHAPES)]
        position = make_position(rng, rules, shape)
        if position is None:
            redeals += 1
            continue
        done += 1
        trump, lead = position.trump, position.lead
        hand = position.hands[position.follower]

        def text(p: Position = position, h: Hand = hand) -> str:
            return (f"trump {p.trump}, lead {format_cards(p.lead.cards)} ({p.lead.describe()}),"
                    f" hand {format_cards(p.trump.sorted(h.cards()))}")

        gc.disable()
        try:
            start = now()
            legal = LegalPlays(hand, lead, trump, rules)
            forced = legal.forced
            legal.describe()
            elapsed = now() - start
            series["description"].add(elapsed)
            by_shape[shape]["description"].add(elapsed)
            slow["description"].offer(elapsed, text, describe_op(hand, lead, trump, rules))
            modes[legal.mode] += 1

            state = draw.getstate()
            start = now()
            play = LegalPlays(hand, lead, trump, rules).random(draw)
            elapsed = now() - start
            series["random"].add(elapsed)
            by_shape[shape]["random"].add(elapsed)
            slow["random"].offer(elapsed, text, random_op(hand, lead, trump, rules, state))

            proposals = [play, swapped(play, hand, rng),
                         tuple(trump.sorted(rng.sample(hand.cards(), lead.size)))]
            verdicts = []
            for proposal in proposals:
                start = now()
                why = LegalPlays(hand, lead, trump, rules).reason(proposal)
                elapsed = now() - start
                series["check"].add(elapsed)
                series["check_legal" if why is None else "check_illegal"].add(elapsed)
                by_shape[shape]["check"].add(elapsed)
                slow["check"].offer(elapsed, text, check_op(hand, lead, trump, rules, proposal),
                                    f"proposal {format_cards(proposal)}; ")
                verdicts.append(why)

            start = now()
            plays = list(islice(iter(legal), ENUM_CAP + 1))
            elapsed = now() - start
        finally:
            gc.enable()
        if len(plays) <= ENUM_CAP:
            series["enumerate"].add(elapsed)
            by_shape[shape]["enumerate"].add(elapsed)
            slow["enumerate"].offer(elapsed, text,
                                    enumerate_op(legal),
                                    f"{len(plays)} plays; ")
            distinct = {tuple(sorted(p)) for p in plays}
            if len(distinct) != len(plays):
                problems.append(f"enumeration repeats a play: {text()}")
            if tuple(sorted(play)) not in distinct:
                problems.append(f"random play {format_cards(play)} not enumerated: {text()}")
        else:
            series["enumerate_capped"].add(elapsed)
        if verdicts[0] is not None:
            problems.append(f"random play {format_cards(play)} refused ({verdicts[0]}): {text()}")
        if Counter(forced) - Counter(play):
            problems.append(f"random play {format_cards(play)} lacks forced "
                            f"{format_cards(forced)}: {text()}")
    return {
        "series": {name: s.summary() for name, s in series.items()},
        "by_shape": {shape: {m: s.summary() for m, s in metrics.items()}
                     for shape, metrics in by_shape.items()},
        "modes": dict(modes),
        "redeals": redeals,
        "problems": problems,
        "slowest": {m: s.retime() for m, s in slow.items()},
    }


def measure_tricks(count: int, seed: int, rules: Rules) -> dict[str, float]:
    """Play ``count`` random complete tricks (fresh deals as hands run out)."""
    rng = Random(seed + 2)
    times = Series()
    played = 0
    total = 0
    while played < count:
        trump, hands = deal(rng, rules)
        leader = rng.randrange(rules.players)
        while len(hands[0]) and played < count:
            gc.disable()
            try:
                start = now()
                leader = play_trick(trump, rules, hands, leader, rng, throw_share=0.2)
                elapsed = now() - start
            finally:
                gc.enable()
            times.add(elapsed)
            total += elapsed
            played += 1
    summary = times.summary()
    summary["per_second"] = played / (total / 1e9) if total else 0.0
    return summary


# -- report ----------------------------------------------------------------------------


def fmt(us: float) -> str:
    """Microseconds, compactly."""
    return f"{us:.1f}" if us < 100 else f"{us:,.0f}"


def verdict(metric: str, summary: dict[str, float], worst_us: float) -> str:
    """ok/FAIL against the targets (empty when the metric has none)."""
    median, worst = TARGETS_US.get(metric, (None, None))
    parts = []
    if median is not None:
        ok = summary["median_us"] < median
        parts.append(f"median<{fmt(median)} {'ok' if ok else 'FAIL'}")
    if worst is not None:
        ok = worst_us < worst
        parts.append(f"worst<{fmt(worst)} {'ok' if ok else 'FAIL'}")
    return ", ".join(parts)


def report(result: dict[str, object], command: str) -> str:
    """The compact table."""
    base = result["baseline"]
    assert isinstance(base, dict)
    pos = result["positions"]
    assert isinstance(pos, dict)
    series = pos["series"]
    tricks = result["tricks"]
    assert isinstance(tricks, dict)
    unit = base["hand_25_us"]
    lines = [
        f"command: {command}",
        f"python {platform.python_version()} ({platform.python_implementation()}),"
        f" {platform.machine()}, {platform.system()}; rules: Rules() defaults"
        f" (4 players, 2 decks); positions: {result['positions_count']}, seed {result['seed']}",
        f"baseline: Hand(25 cards) {base['hand_25_us']:.2f} µs,"
        f" sorted(25 cards) {base['sorted_25_us']:.2f} µs"
        f" (×base: the median divided by Hand(25 cards))",
        "worst: the slowest single run; worst*: the 5 slowest positions timed again,"
        " best of 5 runs each (targets use worst*)",
        "",
        f"{'metric':<38}{'n':>7}{'median µs':>11}{'p99 µs':>10}{'worst µs':>11}"
        f"{'worst* µs':>11}{'×base':>7}  target",
    ]
    rows = [
        ("check: build + reason(play)", "check"),
        ("  of which legal proposals", "check_legal"),
        ("  of which illegal proposals", "check_illegal"),
        ("description: build + forced + describe", "description"),
        ("random: build + random(rng)", "random"),
        (f"enumerate: list(legal), <= {ENUM_CAP} plays", "enumerate"),
        (f"  capped at {ENUM_CAP + 1} (set larger)", "enumerate_capped"),
    ]
    slowest = pos["slowest"]
    for label, key in rows:
        s = series[key]
        again = slowest[key]["retimed_us"] if key in slowest else s["worst_us"]
        retimed = fmt(again) if key in slowest else "-"
        lines.append(
            f"{label:<38}{s['n']:>7}{fmt(s['median_us']):>11}{fmt(s['p99_us']):>10}"
            f"{fmt(s['worst_us']):>11}{retimed:>11}{s['median_us'] / unit:>7.1f}"
            f"  {verdict(key, s, again)}"
        )
    lines.append(
        f"{'random complete trick':<38}{tricks['n']:>7}{fmt(tricks['median_us']):>11}"
        f"{fmt(tricks['p99_us']):>10}{fmt(tricks['worst_us']):>11}{'-':>11}"
        f"{tricks['median_us'] / unit:>7.1f}"
    )
    check = series["check"]
    lines += [
        "",
        f"checks/s (from scratch, mean): {1e6 / check['mean_us']:,.0f}    "
        f"random complete tricks/s: {tricks['per_second']:,.0f}",
        f"follower modes: {pos['modes']}; redeals: {pos['redeals']}",
        "",
        f"{'median / worst µs by lead':<12}{'check':>20}{'description':>20}{'random':>20}"
        f"{'enumerate':>20}",
    ]
    for shape, metrics in pos["by_shape"].items():
        cells = "".join(
            f"{fmt(m['median_us']) + ' / ' + fmt(m['worst_us']):>20}" for m in metrics.values()
        )
        lines.append(f"{shape:<12}{cells}")
    lines.append("")
    for metric, slow in slowest.items():
        lines.append(f"slowest {metric} (worst* {fmt(slow['retimed_us'])} µs):"
                     f" {slow['retimed_position']}")
    problems = pos["problems"]
    lines.append(f"consistency problems: {len(problems)}")
    lines += [f"  {p}" for p in problems[:10]]
    return "\n".join(lines)


def profile_ops(count: int, seed: int, rules: Rules, top: int = 10) -> str:
    """cProfile of each timed operation on its own (positions are generated first,
    untimed): the functions with the most own time, as percentages of the operation's
    profiled total, with their cumulative percentage."""
    rng, draw = Random(seed), Random(seed + 1)
    work: list[tuple[Hand, Lead, Trump, list[tuple[Card, ...]]]] = []
    while len(work) < count:
        position = make_position(rng, rules, SHAPES[len(work) % len(SHAPES)])
        if position is None:
            continue
        hand, lead, trump = position.hands[position.follower], position.lead, position.trump
        play = LegalPlays(hand, lead, trump, rules).random(draw)
        proposals = [play, swapped(play, hand, rng),
                     tuple(trump.sorted(rng.sample(hand.cards(), lead.size)))]
        work.append((hand, lead, trump, proposals))

    def check() -> None:
        for hand, lead, trump, proposals in work:
            for proposal in proposals:
                LegalPlays(hand, lead, trump, rules).reason(proposal)

    def description() -> None:
        for hand, lead, trump, _ in work:
            legal = LegalPlays(hand, lead, trump, rules)
            _ = legal.forced, legal.describe()

    def random() -> None:
        for hand, lead, trump, _ in work:
            LegalPlays(hand, lead, trump, rules).random(draw)

    def enumerate_() -> None:
        for hand, lead, trump, _ in work:
            list(islice(iter(LegalPlays(hand, lead, trump, rules)), ENUM_CAP + 1))

    def tricks() -> None:
        measure_tricks(max(100, count // 2), seed, rules)

    def name(key: tuple[str, int, str]) -> str:
        path, line, func = key
        short = path.split("/src/")[-1] if "/src/" in path else path.rsplit("/", 1)[-1]
        return f"{short}:{line}({func})"

    lines = [f"cProfile of each timed operation over {count} positions"
             f" ({max(100, count // 2)} random tricks); own% / cum% of the operation's total"]
    for label, run in (("check (build + reason), 3 proposals a position", check),
                       ("description (build + forced + describe)", description),
                       ("random (build + random)", random),
                       (f"enumerate (build + list, cut at {ENUM_CAP + 1})", enumerate_),
                       ("random complete tricks", tricks)):
        profiler = cProfile.Profile()
        profiler.runcall(run)
        rows = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
        total = sum(tt for _, _, tt, _, _ in rows.values())
        lines += ["", f"{label}: {total:.2f} s profiled",
                  f"{'own %':>7}{'cum %':>7}{'calls':>9}  function"]
        for key, (_, calls, tt, ct, _) in sorted(rows.items(), key=lambda kv: -kv[1][2])[:top]:
            lines.append(f"{100 * tt / total:>7.1f}{100 * ct / total:>7.1f}{calls:>9}  {name(key)}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=10_000, help="positions (10000)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (1)")
    parser.add_argument("--tricks", type=int, default=None,
                        help="random complete tricks to time (default: positions / 2)")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    parser.add_argument("--profile", action="store_true",
                        help="instead of timing, profile the timed operations (cProfile)")
    args = parser.parse_args(argv)
    rules = Rules()
    if args.profile:
        sys.stdout.write(profile_ops(args.positions, args.seed, rules) + "\n")
        return 0
    command = "python benchmarks/bench_engine.py " + " ".join(
        sys.argv[1:] if argv is None else argv)
    tricks = args.tricks if args.tricks is not None else max(100, args.positions // 2)
    result: dict[str, object] = {
        "command": command.strip(),
        "seed": args.seed,
        "positions_count": args.positions,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "baseline": baseline(Random(args.seed)),
    }
    started = time.perf_counter()
    result["positions"] = measure_positions(args.positions, args.seed, rules)
    result["tricks"] = measure_tricks(tricks, args.seed, rules)
    result["wall_s"] = time.perf_counter() - started
    text = report(result, command.strip())
    sys.stdout.write(text + f"\n(wall time {result['wall_s']:.1f} s)\n")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(result, out, indent=2)
    problems = result["positions"]
    assert isinstance(problems, dict)
    return 1 if problems["problems"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
