"""The ``shengji`` command. For now: deal a random round and play one trick."""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence

from shengji.engine import (
    TRUMP,
    Hand,
    Rank,
    Rules,
    Suit,
    Trick,
    full_deck,
)


def demo(seed: int | None, out: list[str]) -> None:
    """Deal four hands of a two-deck game, show them in trump order, play one trick."""
    rng = random.Random(seed)
    rules = Rules()
    deck = full_deck(rules.decks)
    rng.shuffle(deck)
    kitty_size = 8
    per_hand = (len(deck) - kitty_size) // rules.players
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


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``shengji`` command."""
    parser = argparse.ArgumentParser(prog="shengji", description=__doc__)
    parser.add_argument("--seed", type=int, default=None, help="random seed for the deal")
    args = parser.parse_args(argv)
    out: list[str] = []
    demo(args.seed, out)
    sys.stdout.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
