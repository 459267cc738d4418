"""Actions: everything a seat can do in a round, with a text notation both ways.

One line per action, seat first: ``0 draw``, ``2 bid 2H 2H``, ``1 pass``,
``0 withdraw``, ``0 expose 3H 3H``, ``0 declare H``, ``0 bury 3C 4C 5D ...``,
``0 call 1st AS, 2nd KH``, ``3 show``, ``0 play KS KS QS QS``. Records store actions in
this notation.

>>> parse_action("2 bid 2h 2h")
Bid(seat=2, cards=(Card('2H'), Card('2H')))
>>> str(parse_action("0 call 2nd as, 1st black a"))
'0 call 2nd AS, 1st black A'

Actions are validated when they are made: a seat is a seat number, cards are
:class:`~shengji.engine.cards.Card` objects or their notation (normalised to cards),
a suit is a :class:`~shengji.engine.cards.Suit` or its letter. Anything else raises
:class:`ActionError` saying what was wrong and what is allowed.

>>> Play(0, "ks ks")
Play(seat=0, cards=(Card('KS'), Card('KS')))
>>> Play(True, "KS")
Traceback (most recent call last):
...
shengji.game.actions.ActionError: play: the seat must be a seat number (0, 1, ...), got True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from shengji.engine.cards import (
    Card,
    NotationError,
    Suit,
    format_cards,
    parse_card,
    parse_cards,
)
from shengji.engine.friends import FriendCall
from shengji.engine.plain import filled, mypyc_attr
from shengji.engine.reasons import Reason


# Plain classes even when compiled [compiled build].
@mypyc_attr(native_class=False)
class ActionError(ValueError):
    """An action was refused; the message says why and what is allowed. Nothing changed.

    ``reason`` is the rule that refused it as a :class:`~shengji.engine.reasons.Reason`
    (for a malformed action, ``bad-input`` carrying the message)."""

    def __init__(self, message: str, reason: Reason | None = None) -> None:
        super().__init__(message)
        if reason is None:
            reason = (message if isinstance(message, Reason)
                      else Reason("bad-input", error=message))
        self.reason = reason


def _check_seat(verb: str, seat: object) -> None:
    """A seat is an ``int`` itself: never ``True``, a float, a card, a suit or another
    subclass or stand-in of ``int`` (each would be written into a record that cannot be read
    back, or compare equal to a seat it is not)."""
    if type(seat) is not int:
        raise ActionError(f"{verb}: the seat must be a seat number (0, 1, ...), got {seat!r}")
    if seat < 0:
        raise ActionError(f"{verb}: the seat must be a seat number (0, 1, ...), got {seat}")


_CARDS_ALLOWED = "Card objects or card notation, e.g. 'KS KS' or ('KS', 'KS')"


def _check_cards(verb: str, cards: object) -> tuple[Card, ...]:
    """``cards`` as a tuple of cards (notation read), or :class:`ActionError`."""
    if type(cards) is tuple:
        for card in cards:
            if type(card) is not Card:
                break
        else:
            return cards  # already cards: the common case, without a generator
    try:
        if isinstance(cards, str):
            return parse_cards(cards)
        if isinstance(cards, tuple | list):
            out: list[Card] = []
            for card in cards:
                if type(card) is Card:
                    out.append(card)
                elif isinstance(card, str):
                    out.append(parse_card(card))
                else:
                    raise ActionError(f"{verb}: {card!r} is not a card; cards are "
                                      f"{_CARDS_ALLOWED}")
            return tuple(out)
    except NotationError as error:
        raise ActionError(f"{verb}: {error}") from None
    raise ActionError(f"{verb}: cards must be {_CARDS_ALLOWED}; got {cards!r}")


def _set(action: object, name: str, value: object) -> None:
    object.__setattr__(action, name, value)


def _set_cards(action: object, verb: str) -> None:
    """Check an action's ``cards`` and store them as a tuple of cards (unless they are)."""
    cards = _raw(action, "cards")
    checked = _check_cards(verb, cards)
    if checked is not cards:
        _set(action, "cards", checked)


def _raw(action: object, name: str) -> object:
    """A field as it was given, before it is checked [compiled build]."""
    return getattr(action, name)


def seat_is_int(action: object) -> bool:
    """Whether the action's ``seat`` is an ``int`` itself, read as it is stored (a compiled
    build reading ``action.seat`` as the field's type ``int`` would take ``True`` as 1)."""
    return type(_raw(action, "seat")) is int


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Draw:
    """Draw the next card of the deal (the seat whose turn it is to draw)."""

    seat: int

    def __post_init__(self) -> None:
        _check_seat("draw", _raw(self, "seat"))

    def __str__(self) -> str:
        return f"{self.seat} draw"


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Bid:
    """Show identical trump-rank cards (or jokers) to bid for trump."""

    seat: int
    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        _check_seat("bid", _raw(self, "seat"))
        _set_cards(self, "bid")

    def __str__(self) -> str:
        return f"{self.seat} bid {format_cards(self.cards)}"


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Withdraw:
    """Take back the standing bid (``bid_withdraw`` rule)."""

    seat: int

    def __post_init__(self) -> None:
        _check_seat("withdraw", _raw(self, "seat"))

    def __str__(self) -> str:
        return f"{self.seat} withdraw"


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Pass:
    """Decline to bid (after the deal, or after the kitty) or to show a hand."""

    seat: int

    def __post_init__(self) -> None:
        _check_seat("pass", _raw(self, "seat"))

    def __str__(self) -> str:
        return f"{self.seat} pass"


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Declare:
    """Name the trump suit, or no-trump (``suit=None``): the dealer, when the rules
    let the dealer choose."""

    seat: int
    suit: Suit | None

    def __post_init__(self) -> None:
        _check_seat("declare", _raw(self, "seat"))
        suit = _raw(self, "suit")
        if isinstance(suit, str):
            try:
                suit = None if suit.strip().upper() == "NT" else Suit.parse(suit)
            except NotationError as error:
                raise ActionError(f"declare: {error}, or NT for no-trump") from None
        if suit is not None and not isinstance(suit, Suit):
            raise ActionError(f"declare: the trump is a Suit (or 'C', 'D', 'H', 'S'), or None "
                              f"(or 'NT') for no-trump; got {suit!r}")
        _set(self, "suit", suit)

    def __str__(self) -> str:
        return f"{self.seat} declare {self.suit.letter if self.suit is not None else 'NT'}"


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Expose:
    """Show cards face up before the dealer names the trump (none is allowed: ``0 expose``);
    they stay in the hand (seed hundred)."""

    seat: int
    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        _check_seat("expose", _raw(self, "seat"))
        _set_cards(self, "expose")

    def __str__(self) -> str:
        return f"{self.seat} expose {format_cards(self.cards)}".rstrip()


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Bury:
    """Put cards back as the kitty (the dealer, after taking it)."""

    seat: int
    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        _check_seat("bury", _raw(self, "seat"))
        _set_cards(self, "bury")

    def __str__(self) -> str:  # (another seat's bury, its cards hidden: "N bury")
        return f"{self.seat} bury {format_cards(self.cards)}".rstrip()


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Call:
    """Call friend cards (Finding Friends)."""

    seat: int
    calls: tuple[FriendCall, ...]

    def __post_init__(self) -> None:
        _check_seat("call", _raw(self, "seat"))
        _set(self, "calls", _check_calls(_raw(self, "calls")))

    def __str__(self) -> str:
        return f"{self.seat} call {', '.join(str(c) for c in self.calls)}"


def _check_calls(calls: object) -> tuple[FriendCall, ...]:
    allowed = "friend calls (FriendCall objects) or their notation, e.g. '1st AS, 2nd KH'"
    items: Iterable[object]
    if isinstance(calls, str):
        items = [c for c in calls.split(",") if c.strip()]
    elif isinstance(calls, tuple | list):
        items = calls
    else:
        raise ActionError(f"call: the calls must be {allowed}; got {calls!r}")
    out: list[FriendCall] = []
    for call in items:
        if isinstance(call, str):
            try:
                call = FriendCall.parse(call)
            except NotationError as error:
                raise ActionError(f"call: {error}") from None
        if not isinstance(call, FriendCall):
            raise ActionError(f"call: {call!r} is not a friend call; calls are {allowed}")
        out.append(call)
    return tuple(out)


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Show:
    """Show a hand without trumps (or points) to force a redeal."""

    seat: int

    def __post_init__(self) -> None:
        _check_seat("show", _raw(self, "seat"))

    def __str__(self) -> str:
        return f"{self.seat} show"


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Play:
    """Lead or follow in the current trick."""

    seat: int
    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        _check_play(self)

    def __str__(self) -> str:
        return f"{self.seat} play {format_cards(self.cards)}"


def _check_play(play: Play) -> None:
    """:meth:`Play.__post_init__`'s checks (called directly by :func:`as_action`: a
    method call on a plain class is a lookup)."""
    _check_seat("play", _raw(play, "seat"))
    _set_cards(play, "play")


def made_play(seat: int, cards: tuple[Card, ...]) -> Play:
    """``Play(seat, cards)`` of cards taken from the engine (a legal set, a hand), as a tuple
    of cards, without the checks the constructor makes on outside input (the round checks
    the plays it is given as it checks any action)."""
    return filled(Play, {"seat": seat, "cards": cards})  # what __init__ would set


Action = Draw | Bid | Withdraw | Pass | Expose | Declare | Bury | Call | Show | Play
"""Any action of a round."""

ACTION_TYPES: Final = (Draw, Bid, Withdraw, Pass, Expose, Declare, Bury, Call, Show, Play)
"""The classes of :data:`Action`, for ``isinstance``."""


def as_action(action: object) -> Action:
    """``action`` itself if it is an action, its reading if it is notation text
    (``"0 play KS KS"``); otherwise :class:`ActionError` saying what is allowed."""
    if type(action) is Play:  # most actions
        _check_play(action)  # an object made around the constructor is checked too
        return action
    if isinstance(action, ACTION_TYPES):
        action.__post_init__()
        return action
    if isinstance(action, str):
        try:
            return parse_action(action)
        except NotationError as error:
            raise ActionError(str(error)) from None
    raise ActionError(f"expected an action ({', '.join(t.__name__ for t in ACTION_TYPES)}) or "
                      f"its notation, e.g. '0 play KS KS'; got {action!r}")

_VERBS = "draw, bid, withdraw, pass, expose, declare, bury, call, show, play"


def parse_action(text: str) -> Action:
    """Read one action in the notation; raise :class:`NotationError` saying what is wrong."""
    if not isinstance(text, str):
        raise NotationError(f"an action in notation is text, e.g. '0 play KS KS'; got {text!r}")
    try:
        return _parse_action(text)
    except ActionError as error:
        raise NotationError(f"cannot read action {text!r}: {error}") from None


def _parse_action(text: str) -> Action:
    parts = text.strip().split(None, 2)
    if len(parts) < 2 or not (parts[0].isascii() and parts[0].isdigit()):
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
    if verb == "expose":
        return Expose(seat, parse_cards(rest))
    if verb == "declare":
        if rest.strip().upper() == "NT":
            return Declare(seat, None)
        return Declare(seat, Suit.parse(rest))
    if verb == "call":
        return Call(seat, _check_calls(rest))
    raise NotationError(f"unknown action {verb!r} in {text!r}; verbs are {_VERBS}")
