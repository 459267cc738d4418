"""Helpers for the game-flow tests: stacked decks, dealing, state fingerprints, positions of
heuristic rounds and deals that differ only in cards a seat cannot see.

A *stacked* round is an ordinary :class:`Round` started from a given
:class:`~shengji.game.deal.Deal` that deals chosen cards to chosen seats (the rest of each
hand and of the kitty is filled from the remaining cards of the pack). Everything after that
goes through the public protocol: ``apply(Draw(...))``, ``apply(Bid(...))`` ...
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from random import Random
from typing import Any

from shengji.engine.cards import Card, parse_cards
from shengji.engine.rules import Rules
from shengji.game.actions import Bury, Draw, Pass
from shengji.game.deal import Deal
from shengji.game.phase import Phase
from shengji.game.round import Round, pack
from shengji.players.heuristic import HeuristicPlayer
from shengji.players.table import decide


def stacked(rules: Rules, hands: Mapping[int, str] | Sequence[str] = (), kitty: str = "", *,
            dealer: int | None = 0, levels: Sequence[int] | None = None, seed: int = 0,
            fill_seed: int = 0, **kwargs: Any) -> Round:
    """A round whose deal gives each seat the cards named in ``hands`` (first, in that
    order) and puts ``kitty``'s cards (in that order) at the bottom as the kitty."""
    rnd = Round(rules, seed=seed, levels=levels, dealer=dealer, **kwargs)  # its first drawer
    n, size, k = rules.players, rules.hand_size, rules.kitty_size
    wanted = dict(hands) if isinstance(hands, Mapping) else dict(enumerate(hands))
    pool = Counter(pack(rules))
    chosen: dict[int, list[Card]] = {}
    for seat in range(n):
        cards = list(parse_cards(wanted.get(seat, "")))
        assert len(cards) <= size, f"seat {seat} is given more than {size} cards"
        chosen[seat] = cards
    bottom = list(parse_cards(kitty))
    assert len(bottom) <= k, f"the kitty holds {k} cards"
    for card in [c for cards in chosen.values() for c in cards] + bottom:
        assert pool[card] > 0, f"the pack has no more {card}"
        pool[card] -= 1
    rest = sorted(pool.elements())
    Random(fill_seed).shuffle(rest)
    for seat in range(n):
        while len(chosen[seat]) < size:
            chosen[seat].append(rest.pop())
    while len(bottom) < k:
        bottom.append(rest.pop())
    assert not rest
    deal = Deal(tuple(tuple(chosen[s]) for s in range(n)), tuple(bottom), rnd.first_drawer)
    return Round(rules, seed=seed, deal=deal, levels=levels, dealer=dealer, **kwargs)


def deal(rnd: Round, leave: int = 0) -> None:
    """Draw cards in turn until only ``leave`` cards of the deal are left to draw."""
    while rnd.phase == Phase.DEAL and (
            len(rnd.deck) - rnd.rules.kitty_size - rnd.next_card > leave):
        rnd.apply(Draw(rnd.drawer))


def pass_round(rnd: Round) -> None:
    """Every seat passes in turn while the round waits in the bid or overbid phase."""
    phase = rnd.phase
    while rnd.phase == phase and phase in (Phase.BID, Phase.OVERBID):
        seat = rnd.to_move
        assert seat is not None
        rnd.apply(Pass(seat))


def fingerprint(rnd: Round) -> tuple[object, ...]:
    """Everything that makes up a round's state, as comparable values."""
    tracker = rnd.tracker
    trick = rnd.trick
    return (
        rnd.phase, rnd.to_move, rnd.next_card, rnd.drawer, rnd.dealer, rnd.trump,
        tuple(tuple(h.counts) for h in rnd.hands),
        tuple(rnd.bidding.bids), rnd.bidding.declaration, rnd.bidding.ranks,
        rnd.bid_turn, rnd.passes, rnd.kitty, rnd.kitty_owner, rnd.kitty_turned,
        None if tracker is None else (tracker.calls, tuple(tracker.seen),
                                      tuple(tracker.done), tracker.friends),
        rnd.show_queue,
        None if trick is None else (trick.leader, tuple(trick.plays), trick.winner, trick.lead),
        tuple(rnd.tricks), tuple(rnd.captured), tuple(rnd.penalties), tuple(rnd.history),
        rnd.result, rnd.reinforcing, rnd.steals,
    )


def positions(rules: Rules, seed: int, every: int) -> list[tuple[Round, int]]:
    """Positions of a heuristic round: (copy of the round, seat to decide) every
    ``every`` actions, in every phase."""
    rnd = Round(rules, seed=seed, dealer=None if seed % 2 else seed % rules.players,
                track_undo=False)
    players = [HeuristicPlayer(seed * 10 + s) for s in range(rules.players)]
    found = []
    count = 0
    while rnd.phase != Phase.DONE:
        seat = rnd.to_move
        assert seat is not None
        count += 1
        if count % every == 0 or rnd.phase not in (Phase.DEAL, Phase.PLAY):
            found.append((rnd.copy(), seat))
        rnd.apply(decide(rnd, seat, players[seat]))
    return found


def swap_hidden(rnd: Round, seat: int) -> Round | None:
    """The same round with two other seats' unplayed cards of one suit swapped (or an
    other seat's card swapped with a kitty card the seat cannot see): a different deal
    that the seat cannot tell from the real one."""
    trump = rnd.trump
    if trump is None:
        return None
    others = [s for s in range(rnd.rules.players) if s != seat]
    for a in others:
        for b in others:
            if a >= b:
                continue
            for card in rnd.hands[a].cards():
                for other in rnd.hands[b].cards():
                    if card != other and trump.suit_of(card) == trump.suit_of(other):
                        changed = rnd.copy()
                        changed.hands[a].remove((card,))
                        changed.hands[a].add((other,))
                        changed.hands[b].remove((other,))
                        changed.hands[b].add((card,))
                        return changed
    return None


ENDGAME_LEVELS = (9, 5, 9, 5)
"""The levels of :func:`endgame_round`'s seats (the dealer's side plays 9s)."""


def endgame_round(hands: Sequence[str]) -> Round:
    """A tractor round in the play phase where seat ``i`` holds exactly ``hands[i]`` (seat
    0 deals and has buried every other card: a kitty of up to a hundred cards), seat 0 to
    lead."""
    size = len(hands[0].split())
    rules = Rules(kitty=108 - 4 * size)
    rnd = stacked(rules, list(hands), kitty="9S", dealer=0, levels=ENDGAME_LEVELS)
    deal(rnd)
    pass_round(rnd)
    rest = rnd.hands[0].copy()
    rest.remove(parse_cards(hands[0]))
    rnd.apply(Bury(0, tuple(rest.cards())))
    assert rnd.phase == Phase.PLAY
    return rnd
