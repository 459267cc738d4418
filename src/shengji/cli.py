"""The ``shengji`` command.

- ``shengji play`` (the default): play a match in the terminal against computer players.
- ``shengji replay FILE``: step through a recorded game.
- ``shengji serve``: a web server to play with friends in the browser.
- ``shengji demo``: deal a random round and play one trick (the engine at work).
- ``shengji simulate``: pit computer players against each other over many deals.
- ``shengji analyze RECORD``: where a seat lost points in a recorded game.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence

from shengji.arguments import SEED_LIMIT, Parser, plain, whole_number
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


COMMANDS = ("play", "replay", "demo", "simulate", "serve", "analyze")
"""The subcommands; ``play`` is the default."""


def build_parser() -> Parser:
    """The command line."""
    parser = Parser(prog="shengji", description=plain(__doc__ or ""),
                    formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command")
    from shengji.simulate_cli import add_simulate_arguments
    from shengji.terminal.app import add_play_arguments, add_replay_arguments

    add_play_arguments(sub.add_parser("play", help="play in the terminal (the default)"))
    add_replay_arguments(sub.add_parser("replay", help="step through a recorded game"))
    from shengji.server.cli import add_serve_arguments

    add_serve_arguments(sub.add_parser("serve", help="play with friends in the browser"))
    demo_cmd = sub.add_parser("demo", help="deal a round and play one trick")
    demo_cmd.add_argument("--seed", type=whole_number(0, SEED_LIMIT - 1), default=None,
                          help="random seed for the deal")
    add_simulate_arguments(sub.add_parser("simulate",
                                          help="play computer players against each other"))
    from shengji.analyze_cli import add_analyze_arguments

    add_analyze_arguments(sub.add_parser("analyze", help="where a seat lost points in a record"))
    parser.commands.update((name, sub.choices[name]) for name in COMMANDS)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``shengji`` command."""
    words = list(sys.argv[1:] if argv is None else argv)
    if not words or words[0] not in (*COMMANDS, "-h", "--help"):
        words.insert(0, "play")  # ``shengji`` alone (or with play's options) plays
    args = build_parser().parse_command(words)
    try:
        return _run(args)
    except KeyboardInterrupt:  # Ctrl-C (a long simulate or analyze): files stay as they were
        print(f"shengji {args.command}: interrupted", file=sys.stderr)
        return 130
    except ValueError as error:
        from shengji.players.learned import ModelError

        if not isinstance(error, ModelError):
            raise
        print(f"shengji {args.command}: {error}", file=sys.stderr)  # a damaged installation
        return 2


def _run(args: argparse.Namespace) -> int:
    """Run the command ``args`` names."""
    if args.command == "analyze":
        from shengji.analyze_cli import analyze_main

        return analyze_main(args)
    if args.command == "simulate":
        from shengji.simulate_cli import simulate_main

        return simulate_main(args)
    if args.command == "serve":
        from shengji.server.cli import serve_main

        return serve_main(args)
    if args.command in ("play", "replay"):
        from shengji.terminal.app import play_main, replay_main

        return play_main(args) if args.command == "play" else replay_main(args)
    out: list[str] = []
    demo(getattr(args, "seed", None), out)
    sys.stdout.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
