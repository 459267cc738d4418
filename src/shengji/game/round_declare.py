"""The ``expose`` and ``declare`` phases of a :class:`~shengji.game.round.Round`, where
the rules let the dealer name the trump (``trump_choice = dealer``, the Hundred): each
seat may expose some cards (``expose``), then the dealer names the suit and takes the
kitty.

Module-level functions taking the round (imported only for type checking).
"""

from __future__ import annotations

from collections.abc import Iterator
from random import Random
from typing import TYPE_CHECKING

from shengji.engine.cards import ALL_CARDS, Suit, format_cards, missing_cards
from shengji.engine.reasons import Reason
from shengji.game.actions import Action, Declare, Expose
from shengji.game.bury import bury_options
from shengji.game.legal import Legal
from shengji.game.phase import Phase
from shengji.game.round_deal import level_rank
from shengji.game.round_kitty import take_kitty
from shengji.game.selection import ExposeSelector

if TYPE_CHECKING:
    from shengji.game.round import Round


def legal_expose(rnd: Round, seat: int) -> Legal:
    """Up to :attr:`~shengji.game.legal.Legal.expose_limit` cards of the hand, none
    included."""
    counts = list(rnd.hands[seat].counts)
    most = min(rnd.rules.expose, len(rnd.hands[seat]))

    def reason(action: Action) -> Reason | None:
        if not isinstance(action, Expose):
            return Reason("expose-needed", most=most)
        if len(action.cards) > most:
            return Reason("expose-count", most=most, given=len(action.cards))
        missing = missing_cards(counts, action.cards)
        return Reason("not-held", cards=format_cards(missing)) if missing else None

    def actions() -> Iterator[Action]:
        for size in range(most + 1):
            for cards in bury_options(counts, size, size):
                yield Expose(seat, cards)

    def sample(rng: Random) -> Action:
        cards = [c for c in ALL_CARDS for _ in range(counts[c])]
        return Expose(seat, tuple(rng.sample(cards, rng.randint(0, most))))

    return Legal(seat, reason, actions, sample, summary=Reason("do-expose", most=most),
                 expose_limit=most, selector=lambda: ExposeSelector(counts, most))


def expose(rnd: Round, action: Expose) -> None:
    """The cards are shown; the next seat exposes, or after the dealer, the dealer
    declares."""
    exposed = list(rnd.exposed)
    exposed[action.seat] = action.cards
    rnd.exposed = tuple(exposed)
    if action.seat == rnd.dealer:
        rnd.phase = Phase.DECLARE
    else:
        rnd.bid_turn = rnd.next_seat(action.seat)


def legal_declare(seat: int) -> Legal:
    """A suit, or no trump suit."""
    options = [Declare(seat, suit) for suit in (*Suit, None)]
    return Legal(seat, lambda a: None if isinstance(a, Declare) else
                 Reason("declare-needed"),
                 lambda: iter(options), summary=Reason("do-declare"))


def declare(rnd: Round, action: Declare) -> None:
    """The trump of the dealer's level in the suit named; the dealer takes the kitty."""
    assert rnd.dealer is not None
    rank = level_rank(rnd.levels[rnd.dealer])
    rnd.trump = rnd.rules.trump(rank, action.suit if rank is not None else None)
    take_kitty(rnd, rnd.dealer)
