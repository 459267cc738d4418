"""The ``shengji`` command.

- ``shengji play`` (the default): play a match in the terminal against computer players.
- ``shengji replay FILE``: step through a recorded game.
- ``shengji demo``: deal a random round and play one trick (the engine at work).
- ``shengji simulate``: pit computer players against each other over many deals.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from pathlib import Path

from shengji.engine import TRUMP, Hand, Rank, Rules, Suit, Trick, full_deck


def demo(seed: int | None, out: list[str]) -> None:
    """Deal four hands of a two-deck game, show them in trump order, play one trick."""
    rng = random.Random(seed)
    rules = Rules()
    deck = full_deck(rules.decks)
    rng.shuffle(deck)
    per_hand = rules.hand_size
    hands = [Hand(deck[i * per_hand:(i + 1) * per_hand]) for i in range(rules.players)]
    kitty = deck[rules.players * per_hand:]
    trump = rules.trump(rng.choice(list(Rank)), rng.choice(list(Suit)))
    suit = trump.suit.name.lower() if trump.suit is not None else "none"
    out.append(f"Trump: {trump} (rank {trump.rank}, suit {suit})")
    out.append(f"Trump order, highest first: {trump.order_text(TRUMP)}")
    for seat, hand in enumerate(hands):
        groups: dict[int, list[str]] = {}
        for card in trump.sorted(hand.cards()):
            groups.setdefault(trump.suit_of(card), []).append(card.unicode())
        text = "  ".join(" ".join(cards) for _, cards in sorted(groups.items(), reverse=True))
        out.append(f"Seat {seat}: {text}")
    out.append(f"Kitty: {' '.join(c.unicode() for c in kitty)}")
    trick = Trick(trump, rules, leader=0)
    while trick.turn is not None:
        hand = hands[trick.turn]
        legal = trick.legal(hand)
        cards = legal.random(rng)
        trick.play(cards, hand, hands=hands)
        played = trick.plays[-1]
        hand.remove(played.cards)
        out.append(f"Seat {played.seat} plays {' '.join(c.unicode() for c in played.cards)}")
    out.append(f"Seat {trick.winner} wins the trick with {trick.points} points.")


def rules_from_args(preset_name: str, rules_file: str | None, players: int | None) -> Rules:
    """The rules chosen on the command line (a preset, or a rules file)."""
    from shengji.game.config import load_rules
    from shengji.game.presets import preset

    if rules_file:
        return load_rules(Path(rules_file))
    overrides: dict[str, object] = {}
    if players is not None:
        overrides["players"] = players
    return preset(preset_name, **overrides)


def simulate_main(args: argparse.Namespace) -> int:
    """Run ``shengji simulate``."""
    from rich.progress import Progress

    from shengji import simulate

    try:
        rules = rules_from_args(args.preset, args.rules, args.table)
    except ValueError as error:
        print(f"shengji simulate: {error}", file=sys.stderr)
        return 2
    names = [p.strip() for p in args.players.split(",") if p.strip()]
    if not names:
        from shengji.players import PLAYER_KINDS

        print(f"shengji simulate: --players needs player names; choose from "
              f"{', '.join(PLAYER_KINDS)}", file=sys.stderr)
        return 2
    if len(names) < rules.players:
        names = [names[s % len(names)] for s in range(rules.players)]
    matches = args.matches is not None
    deals = args.matches if matches else args.rounds
    try:
        with Progress(transient=True, disable=not sys.stderr.isatty()) as bar:
            task = bar.add_task("playing", total=deals)
            games = simulate.run(
                rules, names, deals=deals, seed=args.seed, matches=matches,
                duplicate=not args.no_duplicate, workers=args.workers,
                keep_records=args.records is not None,
                progress=lambda k: bar.advance(task, k))
    except ValueError as error:
        print(f"shengji simulate: {error}", file=sys.stderr)
        return 2
    label = args.rules or args.preset
    summary = simulate.summarize(games, rules, names, seed=args.seed,
                                 duplicate=not args.no_duplicate, matches=matches,
                                 rules_name=label)
    simulate.print_summary(summary)
    if args.json:
        Path(args.json).write_text(summary.to_json(), encoding="utf-8")
    if args.records:
        folder = Path(args.records)
        folder.mkdir(parents=True, exist_ok=True)
        for game in games:
            name = f"deal{game.deal:05d}{'-swapped' if game.swapped else ''}.toml"
            (folder / name).write_text(game.record, encoding="utf-8")
    if args.plot:
        simulate.plot(summary, games, Path(args.plot))
    return 0


COMMANDS = ("play", "replay", "demo", "simulate")
"""The subcommands; ``play`` is the default."""


def build_parser() -> argparse.ArgumentParser:
    """The command line."""
    parser = argparse.ArgumentParser(prog="shengji", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command")
    from shengji.terminal.app import add_play_arguments, add_replay_arguments

    add_play_arguments(sub.add_parser("play", help="play in the terminal (the default)"))
    add_replay_arguments(sub.add_parser("replay", help="step through a recorded game"))
    demo_cmd = sub.add_parser("demo", help="deal a round and play one trick")
    demo_cmd.add_argument("--seed", type=int, default=None, help="random seed for the deal")
    sim = sub.add_parser("simulate", help="play computer players against each other")
    sim.add_argument("--preset", default="tractor", help="rules preset (default: tractor)")
    sim.add_argument("--rules", help="a TOML or JSON rules file (overrides --preset)")
    sim.add_argument("--table", type=int, help="number of players (e.g. finding-friends)")
    sim.add_argument("--players", default="heuristic,random",
                     help="player per seat, comma-separated, repeated round the table "
                          "(random, heuristic, heuristic-nomem)")
    count = sim.add_mutually_exclusive_group()
    count.add_argument("--rounds", type=int, default=100, help="deals played as single rounds")
    count.add_argument("--matches", type=int, help="deals played as whole matches")
    sim.add_argument("--seed", type=int, default=0, help="seed of the run (reproducible)")
    sim.add_argument("--workers", type=int, default=None, help="processes (default: all cores)")
    sim.add_argument("--no-duplicate", action="store_true",
                     help="play each deal once instead of twice with the sides swapped")
    sim.add_argument("--json", help="write the summary as JSON to this file")
    sim.add_argument("--records", help="keep every game's record in this folder")
    sim.add_argument("--plot", help="draw points and levels to this image (needs matplotlib)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``shengji`` command."""
    words = list(sys.argv[1:] if argv is None else argv)
    if not words or words[0] not in (*COMMANDS, "-h", "--help"):
        words.insert(0, "play")  # ``shengji`` alone (or with play's options) plays
    args = build_parser().parse_args(words)
    if args.command == "simulate":
        return simulate_main(args)
    if args.command in ("play", "replay"):
        from shengji.terminal.app import play_main, replay_main

        return play_main(args) if args.command == "play" else replay_main(args)
    out: list[str] = []
    demo(getattr(args, "seed", None), out)
    sys.stdout.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
