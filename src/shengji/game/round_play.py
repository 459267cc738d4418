"""The play phase of a :class:`~shengji.game.round.Round`: the tricks, and the round's end.

Module-level functions taking the round (its methods call them; the round is imported
only for type checking, so no import goes back to :mod:`shengji.game.round`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from shengji.engine.cards import Card, card_int
from shengji.engine.follow import LegalPlays
from shengji.engine.lead import LegalLeads
from shengji.engine.rules import ThrowCheck
from shengji.engine.trick import Trick
from shengji.game.actions import ActionError, Play
from shengji.game.legal import PlayLegal
from shengji.game.phase import Phase
from shengji.game.scoresheet import score_round, trick_record

if TYPE_CHECKING:
    from shengji.game.round import Round

_OPPONENTS: Final = ThrowCheck.OPPONENTS
_PLAY: Final = Phase.PLAY


def start_play(rnd: Round) -> None:
    """The first trick, led by the dealer."""
    assert rnd.trump is not None and rnd.dealer is not None
    rnd.phase = _PLAY
    rnd.trick = Trick(rnd.trump, rnd.rules, rnd.dealer)


def legal_play(rnd: Round, seat: int) -> PlayLegal:
    """The legal plays of ``seat``, the seat to move."""
    trick = rnd.trick
    assert trick is not None
    legal = rnd._plays
    if legal is None:
        legal = rnd._plays = trick.legal(rnd.hands[seat].copy())
    # a new object for every position: a play drawn from an older one is checked in full
    play_legal = rnd._trust = PlayLegal(seat, legal)
    return play_legal


def play_rules(rnd: Round, seat: int) -> LegalLeads | LegalPlays:
    """:meth:`Round.play_rules <shengji.game.round.Round.play_rules>`."""
    if rnd.trick is None or rnd.phase != _PLAY or seat != rnd.to_move:
        raise ActionError("it is not this seat's turn to play")
    if rnd._plays is None:
        rnd._plays = rnd.trick.legal(rnd.hands[seat].copy())
    return rnd._plays


def play(rnd: Round, action: Play, trusted: bool) -> None:
    """Play ``action`` (``trusted``: the current legal set vouched for it)."""
    trick = rnd.trick
    assert trick is not None
    seat = action.seat
    hand = rnd.hands[seat]
    if trick.lead is None:
        teammates = rnd.known_teammates(seat) if (
            rnd.rules.throw_check == _OPPONENTS) else ()
        trick.play(action.cards, hand, hands=rnd.hands, legal=rnd._plays,
                   teammates=teammates, trusted=trusted)
        outcome = trick.throw
        if outcome is not None and not outcome.valid:
            if outcome.penalty:
                rnd.penalties.append((seat, outcome.penalty))
            if outcome.round_lost:
                hand.remove(trick.plays[-1].cards)  # the throw lies on the table
                rnd._sorted.pop(seat, None)
                finish(rnd, lost_by=seat)
                return
    else:
        trick.play(action.cards, hand, legal=rnd._plays, trusted=trusted)
    played = trick.plays[-1].cards
    hand.remove(played)
    cached = rnd._sorted.get(seat)
    if cached is not None and cached[0] is hand:
        cards = list(cached[1])
        keys = trick.trump.order_keys
        for card in played:  # removing keeps the rest in order
            at = _place(cards, keys, card)
            if at < len(cards) and cards[at] is card:
                del cards[at]
            else:  # (not the trump's order, or an equal card that is another object)
                cards.remove(card)
        rnd._sorted[seat] = (hand, tuple(cards))
    if rnd.tracker is not None:
        rnd.tracker.play(seat, played)
    if len(trick.plays) == trick.players:  # trick.is_complete
        winner = trick.winner
        assert winner is not None and trick.lead is not None
        points = trick.points
        rnd.captured[winner] += points
        rnd.tricks.append(trick_record(tuple(trick.plays), winner, points,
                                       trick.largest_unit_size, trick.lead))
        if not hand:
            finish(rnd)
        else:
            rnd.trick = Trick(trick.trump, rnd.rules, winner, trick.players)


def finish(rnd: Round, *, redeal: bool = False, lost_by: int | None = None) -> None:
    """End the round and score it (``redeal``: no score, the cards are dealt again;
    ``lost_by``: a failed throw lost the round)."""
    rnd.phase = Phase.DONE
    rnd.result = score_round(rnd, redeal=redeal, lost_by=lost_by)


def _place(cards: list[Card], keys: tuple[int, ...], card: Card) -> int:
    """Where ``card`` is in ``cards`` if they are in the trump's sorted order (``keys``, the
    trump's order keys, from the highest): a binary search, where ``list.remove`` compares
    every card before it."""
    key = keys[card_int(card)]
    low, high = 0, len(cards)
    while low < high:
        middle = (low + high) // 2
        if keys[card_int(cards[middle])] > key:
            low = middle + 1
        else:
            high = middle
    return low
