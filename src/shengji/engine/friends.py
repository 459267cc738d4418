"""Finding Friends (找朋友): calling friend cards and revealing friends in play.

The dealer calls cards (seed wikipedia_2006): "the first A♠", "the second
K♥" (``ordinal`` calls, never a trump card by default), or a colour and rank,
"a black ace" (``colour-rank`` calls: the n-th black ace played counts). The
player who plays the called copy joins the dealer. The caller's own play of a
called copy uses the call up (``friend_caller_counts``, no friend) or is
ignored; a player who is already a friend uses a call up without adding one.

A call that the caller's own cards leave to nobody else (the caller holds every
copy, or too many for another player ever to play the called one) makes no friend:
:func:`exhausted_calls` finds such calls; ``friend_call_all_held`` either allows
them (the caller plays alone for that call) or refuses them.

>>> from shengji.engine.trump import Trump
>>> call = FriendCall.parse("2nd AS")
>>> call, str(FriendCall.parse("1 black A"))
(FriendCall.parse('2nd AS'), '1st black A')
>>> tracker = FriendTracker((call,), caller=0, rules=Rules(partnership="fluid", players=5))
>>> tracker.play(3, [Card("AS")]), tracker.play(2, [Card("AS")]), tracker.friends
([], [2], (2,))
>>> from shengji.engine.cards import Hand
>>> held = Hand("AS AS KH").counts
>>> exhausted_calls([FriendCall.parse("1st AS"), FriendCall.parse("1st KH")], held, Rules())
(FriendCall.parse('1st AS'),)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from shengji.engine.cards import (
    ALL_CARDS,
    BIG_JOKER,
    SMALL_JOKER,
    Card,
    NotationError,
    Rank,
    parse_card,
)
from shengji.engine.reasons import Reason
from shengji.engine.rules import FriendCallAllHeld, FriendCalls, Rules
from shengji.engine.trump import Trump

_ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th`` ..."""
    return _ORDINALS.get(n, f"{n}th")


@dataclass(frozen=True)
class FriendCall:
    """One call: the ``ordinal``-th copy of ``card`` played, or the ``ordinal``-th card of
    ``colour`` (``"red"``/``"black"``) and ``rank``."""

    ordinal: int
    card: Card | None = None
    colour: str | None = None
    rank: Rank | None = None

    def __post_init__(self) -> None:
        if (self.card is None) == (self.colour is None):
            raise ValueError("a call names either a card or a colour and rank")
        if self.colour is not None and (self.colour not in ("red", "black") or self.rank is None):
            raise ValueError("a colour call needs colour 'red' or 'black' and a rank")
        if self.ordinal < 1:
            raise ValueError("the ordinal of a call starts at 1")

    def matches(self, card: Card) -> bool:
        """True if playing ``card`` counts towards this call."""
        if self.card is not None:
            return card == self.card
        suit = card.suit
        return suit is not None and card.rank == self.rank and (
            suit.is_red == (self.colour == "red"))

    @classmethod
    def parse(cls, text: str) -> FriendCall:
        """Read ``2nd AS``, ``1 AS``, ``AS`` (first), ``1st black A`` or ``red 10``."""
        match = re.fullmatch(r"\s*(?:(\d+)(?:st|nd|rd|th)?\s+)?(.+?)\s*", text, re.IGNORECASE)
        if match is None:
            raise NotationError(f"cannot read friend call {text!r}")
        number = int(match.group(1) or 1)
        body = match.group(2).strip()
        colour = re.fullmatch(r"(red|black)\s+(\S+)", body, re.IGNORECASE)
        try:
            if colour:
                return cls(number, colour=colour.group(1).lower(), rank=Rank.parse(colour.group(2)))
            return cls(number, card=parse_card(body))
        except (NotationError, ValueError) as error:
            raise NotationError(
                f"cannot read friend call {text!r} ({error}); write e.g. '2nd AS' or "
                "'1st black A'"
            ) from None

    def __str__(self) -> str:
        what = str(self.card) if self.card is not None else f"{self.colour} {self.rank}"
        return f"{ordinal(self.ordinal)} {what}"

    def __repr__(self) -> str:
        return f"FriendCall.parse({str(self)!r})"


def _copies(call: FriendCall, counts: Sequence[int]) -> int:
    """How many of ``counts`` (per face) match ``call``."""
    return sum(counts[card] for card in ALL_CARDS if counts[card] and call.matches(card))


def _full_pack_copies(call: FriendCall, rules: Rules) -> int:
    """How many cards of the full pack match ``call``, before any are taken out."""
    big, small = rules.joker_counts
    if call.card == BIG_JOKER:
        return big
    if call.card == SMALL_JOKER:
        return small
    return rules.decks * (1 if call.card is not None else 2)


def _pack_copies(call: FriendCall, rules: Rules, removed: Sequence[int] | None) -> int:
    """How many cards of the pack match ``call``, less the ``removed`` ones (per face:
    the low cards taken out to make the deal even, ``remove_low``)."""
    out = _copies(call, removed) if removed is not None else 0
    return _full_pack_copies(call, rules) - out


def call_exhausted(call: FriendCall, held: Sequence[int], rules: Rules,
                   buried: Sequence[int] | None = None, *,
                   removed: Sequence[int] | None = None) -> bool:
    """True if nobody but the caller can ever complete ``call``: the caller holds
    (``held``, per face) or buried (``buried``) so many matching cards that no other
    player can play the called copy (``removed``: the cards taken out of the pack)."""
    mine = _copies(call, held)
    gone = _copies(call, buried) if buried is not None else 0
    others = _pack_copies(call, rules, removed) - mine - gone
    if rules.friend_caller_counts:  # the caller's own plays count towards the ordinal
        return others < 1 or call.ordinal > others + mine
    return call.ordinal > others


def exhausted_calls(calls: Sequence[FriendCall], held: Sequence[int], rules: Rules, *,
                    buried: Sequence[int] | None = None,
                    removed: Sequence[int] | None = None) -> tuple[FriendCall, ...]:
    """The calls that the caller's own cards leave to nobody else (see
    :func:`call_exhausted`): each of them makes no friend."""
    return tuple(c for c in calls if call_exhausted(c, held, rules, buried, removed=removed))


def exhausted_text(call: FriendCall, held: Sequence[int], rules: Rules,
                   buried: Sequence[int] | None = None, *,
                   removed: Sequence[int] | None = None) -> Reason:
    """Why ``call`` (exhausted) can make no friend, e.g. ``you hold every AS``."""
    return _exhausted(call, held, rules, buried, removed, refused=False)


def _exhausted(call: FriendCall, held: Sequence[int], rules: Rules,
               buried: Sequence[int] | None, removed: Sequence[int] | None, *,
               refused: bool) -> Reason:
    """:func:`exhausted_text`, or (``refused``) the refusal of that call."""
    what = str(call.card) if call.card is not None else f"{call.colour} {call.rank}"
    mine = _copies(call, held) + (_copies(call, buried) if buried is not None else 0)
    total = _pack_copies(call, rules, removed)
    did_bury = int(buried is not None and bool(_copies(call, buried)))
    if mine >= total and refused:
        return Reason("call-all-held-refused", buried=did_bury, what=what, call=str(call))
    if mine >= total:
        return Reason("call-all-held", buried=did_bury, what=what)
    return Reason("call-some-held-refused" if refused else "call-some-held", buried=did_bury,
                  mine=mine, total=total, what=what, call=str(call))


def call_reason(calls: Sequence[FriendCall], trump: Trump, rules: Rules, *,
                held: Sequence[int] | None = None,
                buried: Sequence[int] | None = None,
                removed: Sequence[int] | None = None) -> Reason | None:
    """Why the dealer may not make these calls, or ``None``.

    ``held`` (the caller's hand, counts per face) and ``buried`` (the kitty the caller
    buried, per face) let ``friend_call_all_held = "refused"`` refuse a call that only
    the caller could complete (:func:`exhausted_calls`); ``removed`` (per face: the low
    cards the round took out of the pack, ``remove_low``) refuses a call of a copy that
    is not in the pack."""
    want = rules.friend_count
    if len(calls) != want:
        return Reason("call-count", n=want)
    for call in calls:
        why = single_call_reason(call, trump, rules, held=held, buried=buried,
                                 removed=removed)
        if why is not None:
            return why
    if len(set(calls)) != len(calls):
        return Reason("call-repeat")
    return None


def single_call_reason(call: FriendCall, trump: Trump, rules: Rules, *,
                       held: Sequence[int] | None = None,
                       buried: Sequence[int] | None = None,
                       removed: Sequence[int] | None = None) -> Reason | None:
    """Why the dealer may not make this one call, or ``None`` (see :func:`call_reason`).

    >>> trump = Trump.parse("2S")
    >>> single_call_reason(FriendCall.parse("1st KH"), trump, Rules(friend_call_points=False))
    'KH is a point card: point cards (5, 10, K) may not be called'
    >>> single_call_reason(FriendCall.parse("1st AH"), trump, Rules(friend_call_top=False))
    'AH is the highest card of its suit: it may not be called'
    """
    if rules.friend_calls == FriendCalls.ORDINAL and call.card is None:
        return Reason("call-card-only")
    if rules.friend_calls == FriendCalls.COLOUR_RANK and call.card is not None:
        return Reason("call-colour-only")
    what = str(call.card) if call.card is not None else f"{call.colour} {call.rank}"
    rank = call.card.rank if call.card is not None else call.rank
    if rank is not None and rank in rules.removed_ranks:
        return Reason("call-removed", what=what)
    if call.card is not None:
        copies = _full_pack_copies(call, rules)
        if call.ordinal > copies:
            return Reason("call-copies", decks=copies, card=str(call.card))
        if trump.is_trump(call.card) and not rules.friend_trump_calls:
            return Reason("call-trump", card=str(call.card))
    elif call.ordinal > 2 * rules.decks:
        return Reason("call-colour-copies", n=2 * rules.decks, colour=str(call.colour),
                      rank=str(call.rank))
    left = _pack_copies(call, rules, removed)
    if call.ordinal > left:
        return Reason("call-taken-out", out=_full_pack_copies(call, rules) - left,
                      what=what, call=str(call))
    if not rules.friend_call_points and rank in (Rank.FIVE, Rank.TEN, Rank.KING):
        return Reason("call-points", what=what)
    top = Rank.KING if trump.rank == Rank.ACE else Rank.ACE
    if not rules.friend_call_top and rank == top:
        return Reason("call-top", what=what)
    if (held is not None and rules.friend_call_all_held == FriendCallAllHeld.REFUSED
            and call_exhausted(call, held, rules, buried, removed=removed)):
        return _exhausted(call, held, rules, buried, removed, refused=True)
    return None


def allowed_calls(trump: Trump, rules: Rules, *, held: Sequence[int] | None = None,
                  buried: Sequence[int] | None = None,
                  removed: Sequence[int] | None = None) -> list[FriendCall]:
    """Every single call :func:`single_call_reason` accepts: "the k-th" copy of every face
    of the pack (jokers too, where trump cards may be called) with ``friend_calls =
    ordinal``, else every colour and rank up to ``2 × decks`` copies. A set of calls is
    legal when each of its calls is (:func:`call_reason`); listing and checking agree.

    >>> rules = Rules(players=5, partnership="fluid")
    >>> len(allowed_calls(Trump.parse("2S"), rules))  # 36 plain faces, 2 copies each
    72
    >>> calls = allowed_calls(Trump.parse("2S"), rules.replace(friend_trump_calls=True))
    >>> len(calls), calls[-1]
    (108, FriendCall.parse('2nd BJ'))
    """
    if rules.friend_calls == FriendCalls.ORDINAL:
        every = [FriendCall(k, card=card) for card in ALL_CARDS
                 for k in range(1, rules.decks + 1)]
    else:
        every = [FriendCall(k, colour=colour, rank=rank) for colour in ("black", "red")
                 for rank in Rank for k in range(1, 2 * rules.decks + 1)]
    return [call for call in every
            if single_call_reason(call, trump, rules, held=held, buried=buried,
                                  removed=removed) is None]


class FriendTracker:
    """Counts called cards as they are played and reveals friends."""

    def __init__(self, calls: Sequence[FriendCall], caller: int, rules: Rules) -> None:
        self.calls = tuple(calls)
        self.caller = caller
        self.rules = rules
        self.seen = [0] * len(self.calls)
        self.done = [False] * len(self.calls)
        self.friends: tuple[int, ...] = ()

    def copy(self) -> FriendTracker:
        """An independent copy."""
        other = FriendTracker(self.calls, self.caller, self.rules)
        other.seen = list(self.seen)
        other.done = list(self.done)
        other.friends = self.friends
        return other

    def play(self, seat: int, cards: Iterable[Card]) -> list[int]:
        """Record ``seat`` playing ``cards``; returns the seats revealed as friends now."""
        revealed: list[int] = []
        for card in cards:
            for i, call in enumerate(self.calls):
                if self.done[i] or not call.matches(card):
                    continue
                if seat == self.caller and not self.rules.friend_caller_counts:
                    continue
                self.seen[i] += 1
                if self.seen[i] == call.ordinal:
                    self.done[i] = True
                    if seat != self.caller and seat not in self.friends:
                        self.friends = (*self.friends, seat)
                        revealed.append(seat)
        return revealed

    @property
    def settled(self) -> bool:
        """True once every call has been used up (the sides are known)."""
        return all(self.done)
