"""Labelled candidate plays: the few leads and follows worth comparing at a decision.

Both the search player (its candidates) and the learned player (the plays its model
values) choose among these, each named by a *label* that says what kind of play it is:

- a **lead**, per effective suit held: ``top``, its strongest unit of the most cards,
  and ``low``, its lowest unit of the fewest cards (fewest points among equals);
- a **follow**: ``cheapest`` (least worth keeping, points counted against it),
  ``richest`` (most points), and where a play can take the trick, ``cheapwin``,
  ``strongwin`` and ``richwin`` (the cheapest, the strongest and the richest of the
  plays that beat the winning one).

A play's worth keeping is :func:`play_cost`: trumps most, then high plain cards.

For the kitty, :func:`bury_options` lists the buries worth comparing (unlabelled: the
learned player describes each by the hand it keeps).
"""

from __future__ import annotations

from collections import Counter
from itertools import islice
from random import Random
from typing import Final

from shengji.engine.cards import Card, card_points
from shengji.engine.follow import LegalPlays
from shengji.engine.lead import LegalLeads
from shengji.engine.trick import Beater
from shengji.engine.trump import TRUMP as _TRUMP_SUIT
from shengji.engine.trump import Trump
from shengji.engine.units import Reading, Unit
from shengji.game.actions import Bury
from shengji.game.legal import Legal
from shengji.game.view import SeatView
from shengji.players.memory import current_winner

TRUMP: Final = _TRUMP_SUIT
LEAD_LABELS: Final = ("top", "low")
"""The labels of :func:`lead_options`."""
FOLLOW_LABELS: Final = ("cheapest", "richest", "cheapwin", "strongwin", "richwin")
"""The labels of :func:`follow_options`, in the order it lists them."""
ENUMERATE: Final = 300
"""The most follows listed before the rest are sampled (40 random ones)."""


def card_cost(card: Card, trump: Trump) -> float:
    """How much a card is worth keeping: trumps most (by level), then plain cards by level."""
    level = trump.levels[card]
    return 30.0 + level * 1.5 if trump.suit_index[card] == TRUMP else float(level)


def play_cost(cards: tuple[Card, ...], trump: Trump) -> float:
    """The sum of :func:`card_cost` over ``cards``."""
    total = 0.0
    for card in cards:
        total += card_cost(card, trump)
    return total


def play_key(cards: tuple[Card, ...]) -> tuple[Card, ...]:
    """A play's cards as a multiset (sorted): equal for the same cards in any order."""
    return tuple(sorted(cards))


def lead_options(legal: LegalLeads) -> list[tuple[str, Unit]]:
    """Per effective suit held (plain suits in order, then trumps): its ``top`` unit, then
    its ``low`` unit (the same unit twice where the suit holds one)."""
    units = list(legal.units())
    found: list[tuple[str, Unit]] = []
    for suit in (0, 1, 2, 3, TRUMP):
        top: Unit | None = None
        low: Unit | None = None
        low_points = 0
        for unit in units:
            if unit.suit != suit:
                continue
            if top is None or (unit.size, unit.top) > (top.size, top.top):
                top = unit
            points = card_points(unit.cards)
            if low is None or (unit.size, unit.top, points) < (low.size, low.top, low_points):
                low, low_points = unit, points
        if top is not None and low is not None:
            found.append(("top", top))
            found.append(("low", low))
    return found


def follow_options(view: SeatView, legal: LegalPlays) -> list[tuple[str, tuple[Card, ...]]]:
    """The labelled follows (see the module docstring): the legal follows are listed up
    to :data:`ENUMERATE`, with 40 random ones beyond (seeded by the position)."""
    return [(label, cards) for label, cards, _ in labelled_follows(view, legal)]


def labelled_follows(view: SeatView, legal: LegalPlays
                     ) -> list[tuple[str, tuple[Card, ...], Reading | None]]:
    """:func:`follow_options`, each with the reading by which it beats the trick's winning
    play (``None`` where it does not)."""
    trump = legal.trump
    listed = legal.plays_if_fewer(ENUMERATE)  # (the legal set's fast path where it has one)
    if listed is not None:
        plays = listed
    else:
        plays = list(islice(iter(legal), ENUMERATE))
        rng = Random(len(view.history))
        plays.extend(legal.random(rng) for _ in range(40))
    state = current_winner(view, trump, legal.lead)
    if not plays or state is None:
        return []
    _, reading, lead = state
    costs = [play_cost(p, trump) for p in plays]
    points = [card_points(p) for p in plays]
    beater = Beater(reading, lead, trump, view.rules)  # (beats() with the engine's fast paths)
    taking = [beater.beat(p) for p in plays]
    # each order's key made once per play (the plays break ties: the first of equals wins)
    cheap_keys = [(costs[i] + 3 * points[i], plays[i]) for i in range(len(plays))]
    rich_keys = [(points[i], -costs[i], plays[i]) for i in range(len(plays))]
    indices = range(len(plays))
    chosen = [("cheapest", min(indices, key=cheap_keys.__getitem__)),
              ("richest", max(indices, key=rich_keys.__getitem__))]
    winners = [i for i in indices if taking[i] is not None]
    if winners:
        cost_keys = {i: (costs[i], plays[i]) for i in winners}
        chosen += [("cheapwin", min(winners, key=cost_keys.__getitem__)),
                   ("strongwin", max(winners, key=cost_keys.__getitem__)),
                   ("richwin", max(winners, key=rich_keys.__getitem__))]
    return [(label, plays[i], taking[i]) for label, i in chosen]


def bury_options(view: SeatView, legal: Legal) -> list[Bury]:
    """Legal buries worth comparing, each once: emptying each short plain suit (shortest
    first: its cards, then the cheapest others, points last), the cheapest cards (points
    last), the cheapest keeping every trump (points last) and the cheapest with points
    first (points hidden, trumps kept); ``[]`` before trumps are known."""
    trump = view.trump
    if trump is None:
        return []
    size = view.rules.kitty_size
    hand = list(view.hand)
    copies = Counter(hand)

    def keep(card: Card) -> float:
        return card_cost(card, trump) + 20 * (copies[card] > 1)

    def cheapest(card: Card) -> tuple[int, float]:
        return (1 if card.points else 0, keep(card))

    def keep_trumps(card: Card) -> float:
        return keep(card) + 100 * trump.is_trump(card)

    def no_trumps(card: Card) -> tuple[int, float]:
        return (1 if card.points else 0, keep_trumps(card))

    def points_first(card: Card) -> tuple[int, float]:
        return (0 if card.points else 1, keep_trumps(card))

    suits = Counter(trump.suit_of(c) for c in hand if not trump.is_trump(c))
    orders: list[list[Card]] = []
    for suit, _ in sorted(suits.items(), key=lambda item: (item[1], item[0])):
        first = sorted((c for c in hand if trump.suit_of(c) == suit), key=cheapest)
        orders.append(first + sorted((c for c in hand if trump.suit_of(c) != suit),
                                     key=cheapest))
    orders += [sorted(hand, key=key) for key in (cheapest, no_trumps, points_first)]
    found: list[Bury] = []
    seen: set[tuple[Card, ...]] = set()
    for order in orders:
        action = Bury(view.seat, tuple(order[:size]))
        key = play_key(action.cards)
        if key not in seen and action in legal:
            seen.add(key)
            found.append(action)
    return found


def bury_choices(view: SeatView, legal: Legal, default: tuple[Card, ...]
                 ) -> list[tuple[Card, ...]]:
    """The buries a kitty model compares (the learned player's and its training's): the
    heuristic's ``default`` first, then the others of :func:`bury_options`."""
    base = play_key(default)
    return [default] + [b.cards for b in bury_options(view, legal) if play_key(b.cards) != base]


__all__ = ["ENUMERATE", "FOLLOW_LABELS", "LEAD_LABELS", "bury_choices", "bury_options",
           "card_cost", "follow_options", "labelled_follows", "lead_options", "play_cost",
           "play_key"]
