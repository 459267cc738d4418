"""Actions: everything a seat can do in a round, with a text notation both ways.

One line per action, seat first: ``0 draw``, ``2 bid 2H 2H``, ``1 pass``,
``0 withdraw``, ``0 declare H``, ``0 bury 3C 4C 5D ...``, ``0 call 1st AS, 2nd KH``, ``3 show``,
``0 play KS KS QS QS``. Records store actions in this notation.

>>> parse_action("2 bid 2h 2h")
Bid(seat=2, cards=(Card('2H'), Card('2H')))
>>> str(parse_action("0 call 2nd as, 1st black a"))
'0 call 2nd AS, 1st black A'
"""

from __future__ import annotations

from dataclasses import dataclass

from shengji.engine.cards import Card, NotationError, Suit, format_cards, parse_cards
from shengji.engine.friends import FriendCall


@dataclass(frozen=True)
class Draw:
    """Draw the next card of the deal (the seat whose turn it is to draw)."""

    seat: int

    def __str__(self) -> str:
        return f"{self.seat} draw"


@dataclass(frozen=True)
class Bid:
    """Show identical trump-rank cards (or jokers) to bid for trump."""

    seat: int
    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return f"{self.seat} bid {format_cards(self.cards)}"


@dataclass(frozen=True)
class Withdraw:
    """Take back the standing bid (``bid_withdraw`` rule)."""

    seat: int

    def __str__(self) -> str:
        return f"{self.seat} withdraw"


@dataclass(frozen=True)
class Pass:
    """Decline to bid (after the deal, or after the kitty) or to show a hand."""

    seat: int

    def __str__(self) -> str:
        return f"{self.seat} pass"


@dataclass(frozen=True)
class Declare:
    """Name the trump suit, or no-trump (``suit=None``): the dealer, when the rules
    let the dealer choose."""

    seat: int
    suit: Suit | None

    def __str__(self) -> str:
        return f"{self.seat} declare {self.suit.letter if self.suit is not None else 'NT'}"


@dataclass(frozen=True)
class Bury:
    """Put cards back as the kitty (the dealer, after taking it)."""

    seat: int
    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return f"{self.seat} bury {format_cards(self.cards)}"


@dataclass(frozen=True)
class Call:
    """Call friend cards (Finding Friends)."""

    seat: int
    calls: tuple[FriendCall, ...]

    def __str__(self) -> str:
        return f"{self.seat} call {', '.join(str(c) for c in self.calls)}"


@dataclass(frozen=True)
class Show:
    """Show a hand without trumps (or points) to force a redeal."""

    seat: int

    def __str__(self) -> str:
        return f"{self.seat} show"


@dataclass(frozen=True)
class Play:
    """Lead or follow in the current trick."""

    seat: int
    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return f"{self.seat} play {format_cards(self.cards)}"


Action = Draw | Bid | Withdraw | Pass | Declare | Bury | Call | Show | Play
"""Any action of a round."""

_VERBS = "draw, bid, withdraw, pass, declare, bury, call, show, play"


def parse_action(text: str) -> Action:
    """Read one action in the notation; raise :class:`NotationError` saying what is wrong."""
    parts = text.strip().split(None, 2)
    if len(parts) < 2 or not parts[0].isdigit():
        raise NotationError(f"cannot read action {text!r}: expected 'SEAT VERB [CARDS]', "
                            f"e.g. '0 play KS KS' (verbs: {_VERBS})")
    seat, verb = int(parts[0]), parts[1].lower()
    rest = parts[2] if len(parts) > 2 else ""
    simple: dict[str, type[Draw | Withdraw | Pass | Show]] = {
        "draw": Draw, "withdraw": Withdraw, "pass": Pass, "show": Show}
    if verb in simple:
        if rest:
            raise NotationError(f"'{verb}' takes no cards, got {rest!r}")
        return simple[verb](seat)
    with_cards: dict[str, type[Bid | Bury | Play]] = {"bid": Bid, "bury": Bury, "play": Play}
    if verb in with_cards:
        cards = parse_cards(rest)
        if not cards:
            raise NotationError(f"'{verb}' needs cards, e.g. '{seat} {verb} 2H'")
        return with_cards[verb](seat, cards)
    if verb == "declare":
        if rest.strip().upper() == "NT":
            return Declare(seat, None)
        return Declare(seat, Suit.parse(rest))
    if verb == "call":
        calls = tuple(FriendCall.parse(c) for c in rest.split(",") if c.strip())
        return Call(seat, calls)
    raise NotationError(f"unknown action {verb!r} in {text!r}; verbs are {_VERBS}")
