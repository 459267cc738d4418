"""Benchmark: how like the real kitty the search's imagined kitty is, and what a world costs.

``python benchmarks/bench_worlds.py [--preset P] [--table N] [--rounds N] [--worlds W]``

Plays ``--rounds`` rounds of heuristic players (round ``i`` dealt by seed ``i``) to a lead
in the play at a random trick (the second to the ninth), and there, for the seat to lead
(or the next one, if that is the seat that buried the kitty), samples ``--worlds`` worlds
of its view with a random hidden kitty and as many with ``read_kitty`` (the kitty a
heuristic burier would have buried, :func:`~shengji.players.worlds.sample_world`). It
prints, for each, the points the worlds' kitties hold on average, how many of their cards
lie in the real kitty, the worlds not found and the milliseconds a world took; and the
points of the real kitties; and, for the whole deal, the share of the cards the seat does
not hold (the other hands and the kitty) that the worlds place where the real deal has them:
the yardstick of any better way to imagine the hidden cards. Both ways run on the same
positions in the same process, so their times compare.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from random import Random

from shengji.game.match import Match
from shengji.game.phase import Phase
from shengji.game.presets import preset
from shengji.players.heuristic import HeuristicPlayer
from shengji.players.table import decide
from shengji.players.worlds import Knowledge, hidden_places, sample_world


def measure(name: str, table: int | None, rounds: int, worlds: int) -> list[str]:
    """The lines the script prints (see the module docstring)."""
    rules = preset(name, players=table) if table else preset(name)
    # per way: worlds, points, kitty cards right, worlds missed, seconds, hidden cards right
    # and hidden cards in all
    totals = {read: [0, 0, 0, 0, 0.0, 0, 0] for read in (False, True)}
    real: list[int] = []
    for deal in range(rounds):
        match = Match(rules, seed=deal, max_rounds=1)
        players = [HeuristicPlayer(s) for s in range(rules.players)]
        stop = Random(deal).randrange(2, 10)
        while not match.is_over:
            rnd = match.round
            if rnd.phase == Phase.PLAY and len(rnd.tricks) == stop and (
                    rnd.trick is None or not rnd.trick.plays):
                break
            seat = match.to_move
            assert seat is not None
            match.apply(decide(match, seat, players[seat]))
        if match.is_over:
            continue
        rnd = match.round
        seat = rnd.to_move
        assert seat is not None
        if seat == rnd.kitty_owner:
            seat = (seat + 1) % rules.players
        kitty = Counter(rnd.kitty)
        real.append(sum(c.points for c in rnd.kitty))
        truth = hidden_places(rnd, seat)
        hidden = sum(cards.total() for cards in truth.values())
        knowledge = Knowledge.of(rnd.view(seat))
        for read, total in totals.items():
            for w in range(worlds):
                start = time.perf_counter()
                world = sample_world(knowledge, Random(w), read_kitty=read)
                total[4] += time.perf_counter() - start
                if world is None:
                    total[3] += 1
                    continue
                total[0] += 1
                total[1] += sum(c.points for c in world.kitty)
                total[2] += (Counter(world.kitty) & kitty).total()
                imagined = hidden_places(world, seat)
                total[5] += sum((imagined[p] & cards).total() for p, cards in truth.items())
                total[6] += hidden
    if not real:
        return ["no round reached the play"]
    lines = [f"{name}{f'/{table}' if table else ''}: {len(real)} positions, the real kitty "
             f"holds {sum(real) / len(real):.2f} points on average"]
    for read, (found, points, cards, missed, seconds, placed, held) in totals.items():
        lines.append(f"  {'read_kitty' if read else 'random kitty'}: {points / found:.2f} "
                     f"points, {cards / found:.2f} of {rules.kitty_size} cards in the real "
                     f"kitty, {missed} worlds not found, "
                     f"{1000 * seconds / (found + missed):.2f} ms a world; "
                     f"{100 * placed / held:.1f}% of the hidden cards where the real deal "
                     "has them")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="da-bai-fen")
    parser.add_argument("--table", type=int, default=None, help="players (finding-friends)")
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--worlds", type=int, default=20, help="worlds per position and way")
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.worlds < 1:
        parser.error("--rounds and --worlds must be at least 1")
    print("\n".join(measure(args.preset, args.table, args.rounds, args.worlds)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
