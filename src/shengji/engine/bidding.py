"""Bidding for trump (亮主) during the deal, and after the kitty (炒地皮).

A bid shows identical cards: cards of a trump rank (they name the trump suit)
or, for a no-trump round, identical jokers. More cards beat fewer; at equal
count jokers beat suited cards and the big joker beats the small one (so an
equal-count suited bid can never unseat jokers). A bidder may reinforce their
own bid with more copies; nobody may reinforce a partner's bid; a player who
has bid may not switch to another card unless ``bid_switch_suit`` (or, once outbid,
``bid_after_outbid``); with ``bid_reinforce_equal`` an outbid player may reinforce to
the standing suited bid's count and so take the bid back.

>>> from shengji.engine.rules import Rules
>>> from shengji.engine.cards import Hand, Rank
>>> bidding = Bidding(Rules(), ranks=[Rank.NINE] * 4, teams=[0, 1, 0, 1])
>>> bidding.bid(0, "9H"); print(bidding.reason(1, "9C"))
a bid of 1 card does not beat 9H (seat 0): show more cards (or jokers)
>>> bidding.bid(1, "9C 9C"); bidding.bid(0, "9H 9H")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
shengji.engine.bidding.BidError: a bid of 2 cards does not beat 9C 9C (seat 1): show more ...
>>> bidding.winner, bidding.declaration
(TrumpBid(1, '9C 9C'), Declaration(rank=<Rank.NINE: 9>, suit=<Suit.CLUBS: 0>, maker=1))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from shengji.engine.caches import remember
from shengji.engine.cards import (
    BIG_JOKER,
    FACES,
    SMALL_JOKER,
    Card,
    Rank,
    Suit,
    format_cards,
    parse_cards,
)
from shengji.engine.reasons import Param, Reason
from shengji.engine.rules import FirstDealer, JokerBids, Partnership, Rules

_Why = tuple[str, dict[str, Param]]
"""A refusal's reason key and parameters, before its text is rendered."""


def _why(key: str, **params: Param) -> _Why:
    return key, params


class BidError(ValueError):
    """A bid was refused; the message says why and what would be allowed."""

    @property
    def reason(self) -> Reason:
        """The message as a :class:`~shengji.engine.reasons.Reason`."""
        why = self.args[0] if self.args else ""
        return why if isinstance(why, Reason) else Reason("bad-input", error=str(why))


_SUIT_ORDER: Final = {Suit.DIAMONDS: 0, Suit.CLUBS: 1, Suit.HEARTS: 2, Suit.SPADES: 3}
"""Suit order for equal-count overrides (♠ > ♥ > ♣ > ♦)."""


@dataclass(frozen=True)
class TrumpBid:
    """Identical cards shown by ``seat`` to name trump."""

    seat: int
    cards: tuple[Card, ...]

    @property
    def card(self) -> Card:
        """The card shown (all copies are this face)."""
        return self.cards[0]

    @property
    def count(self) -> int:
        """How many copies are shown."""
        return len(self.cards)

    @property
    def is_joker(self) -> bool:
        """True for a no-trump bid with jokers."""
        return self.card.is_joker

    def __str__(self) -> str:
        return format_cards(self.cards)

    def __repr__(self) -> str:
        return f"TrumpBid({self.seat}, {str(self)!r})"


@dataclass(frozen=True)
class Declaration:
    """What the winning bid declares: the trump rank and suit, and the trumpmaker."""

    rank: Rank | None
    suit: Suit | None
    maker: int


class Bidding:
    """The bids of one round and the rules that judge the next one.

    ``ranks`` gives each seat's own trump rank (its team's level in fixed
    partnerships, its own level in Finding Friends); ``teams`` gives each
    seat's team for fixed partnerships (ignored for fluid ones). ``eligible``
    lists the seats allowed to bid (fluid ``not-lost`` rule); ``None`` means all.
    """

    def __init__(self, rules: Rules, ranks: Sequence[Rank], teams: Sequence[int] | None = None,
                 eligible: Iterable[int] | None = None) -> None:
        self.rules = rules
        self._fluid = rules.partnership == Partnership.FLUID
        """(read at every bid judged: a Rules field and an enum member are lookups)"""
        self.ranks = tuple(ranks)
        self.teams = tuple(teams) if teams is not None else tuple(range(len(ranks)))
        self.eligible = frozenset(range(len(ranks)) if eligible is None else eligible)
        self.bids: list[TrumpBid] = []
        self._declaration: list[Declaration] = []
        self._options: dict[object, tuple[TrumpBid, ...]] = {}
        self._version = 0
        # whether (seat, card, copies) may bid, for the bids and ranks in _allowed_at
        self._allowed: dict[tuple[int, Card, int], bool] = {}
        self._allowed_at: tuple[int, tuple[Rank, ...]] = (-1, ())
        self._shown: tuple[int, tuple[tuple[int, tuple[Card, ...]], ...]] = (0, ())
        self._faces: tuple[tuple[tuple[Rank, ...], Rank | None] | None, tuple[Card, ...]] = (
            None, ())

    @property
    def winner(self) -> TrumpBid | None:
        """The bid standing now, if any."""
        return self.bids[-1] if self.bids else None

    @property
    def declaration(self) -> Declaration | None:
        """The trump rank, suit and trumpmaker the standing bid declares."""
        return self._declaration[-1] if self._declaration else None

    @property
    def shown(self) -> tuple[tuple[int, tuple[Card, ...]], ...]:
        """The standing bids as ``(seat, cards)``, oldest first (made once per version)."""
        version, shown = self._shown
        if version != self._version:
            shown = tuple((b.seat, b.cards) for b in self.bids)
            self._shown = (self._version, shown)
        return shown

    @property
    def version(self) -> int:
        """Counts the changes (bids and withdrawals): equal versions of one bidding mean
        the same bids."""
        return self._version

    def copy(self) -> Bidding:
        """An independent copy."""
        other = Bidding(self.rules, self.ranks, self.teams, self.eligible)
        other.bids = list(self.bids)
        other._declaration = list(self._declaration)
        other._version = self._version
        return other

    def _strength(self, card: Card, count: int) -> tuple[int, int]:
        """How strong a bid of ``count`` copies of ``card`` is (compared as tuples)."""
        if card == BIG_JOKER:
            tier = 20
        elif card == SMALL_JOKER:
            tier = 10
        elif self.rules.bid_equal_override and count >= 2:
            suit = card.suit
            tier = _SUIT_ORDER[suit] if suit is not None else 0
        else:
            tier = 0
        return (count, tier)

    def _declare(self, seat: int, card: Card, count: int) -> Declaration | _Why:
        """The declaration a bid of ``count`` copies of ``card`` by ``seat`` would make, or
        why it cannot be made (ignoring strength)."""
        rules = self.rules
        current = self.declaration
        fluid = self._fluid
        if card.is_joker:
            if rules.joker_bids == JokerBids.OFF:
                return _why("bid-no-jokers")
            need = rules.decks if rules.joker_bids == JokerBids.DECKS else 2
            if count < need:
                return _why("bid-joker-count", need=need)
            if fluid and current is not None:
                if "jokers-rank" in rules.fluid_overbid:
                    return _declaration(current.rank, None, current.maker)
                if "jokers-only" in rules.fluid_overbid:
                    return _declaration(None, None, seat)
                return _why("bid-fluid-own-rank")
            if fluid and "jokers-only" in rules.fluid_overbid and "jokers-rank" not in (
                    rules.fluid_overbid):
                return _declaration(None, None, seat)
            return _declaration(self.ranks[seat], None, seat)
        suit = card.suit
        assert suit is not None
        if not fluid or current is None:
            rank = self.ranks[seat]
            if card.rank != rank:
                return _why("bid-rank", rank=str(rank))
            return _declaration(rank, suit, seat)
        if card.rank == self.ranks[seat] and "own-rank" in rules.fluid_overbid:
            return _declaration(card.rank, suit, seat)
        if card.rank == current.rank and "maker-rank" in rules.fluid_overbid:
            return _declaration(current.rank, suit, current.maker)
        own, maker = "own-rank" in rules.fluid_overbid, "maker-rank" in rules.fluid_overbid
        if own and maker:
            return _why("bid-overbid-either", own=str(self.ranks[seat]),
                        maker=str(current.rank))
        if own:
            return _why("bid-overbid-own", own=str(self.ranks[seat]))
        if maker:
            return _why("bid-overbid-maker", maker=str(current.rank))
        return _why("bid-fluid-fixed")

    def reason(self, seat: int, cards: str | Iterable[Card | str]) -> Reason | None:
        """Why ``seat`` may not bid ``cards`` now, or ``None`` (holding them is the caller's
        check)."""
        why = self._refusal(seat, parse_cards(cards))
        return None if why is None else Reason(why[0], **why[1])

    def _refusal(self, seat: int, shown: tuple[Card, ...]) -> _Why | None:
        """:meth:`reason`'s key and parameters, its text not rendered (for listing)."""
        if not shown:
            return _why("bid-empty")
        if len(set(shown)) > 1:
            return _why("bid-identical")
        if len(shown) > self.rules.decks:
            return _why("bid-copies", decks=self.rules.decks)
        if seat not in self.eligible:
            return _why("bid-ineligible")
        card, count = shown[0], len(shown)
        made = self._declare(seat, card, count)
        if not isinstance(made, Declaration):
            return made
        current = self.winner
        if current is None:
            return None
        mine = [b for b in self.bids if b.seat == seat]
        outbid = bool(mine) and current.seat != seat
        if mine and mine[-1].card != card and not (
                self.rules.bid_switch_suit or (outbid and self.rules.bid_after_outbid)):
            return _why("bid-switch", card=str(mine[-1].card))
        if (outbid and self.rules.bid_reinforce_equal and mine[-1].card == card
                and not current.is_joker and mine[-1].count < count == current.count):
            return None  # reinforced to the standing bid's count: the earlier bidder stands
        if current.seat == seat and current.card == card:
            if not self.rules.bid_reinforce:
                return _why("bid-reinforce-off")
            if count <= current.count:
                return _why("bid-reinforce-more", count=current.count)
            return None
        fixed = self.rules.partnership == Partnership.FIXED
        if fixed and current.card == card and self.teams[current.seat] == self.teams[seat]:
            return _why("bid-reinforce-partner")
        if self._strength(card, count) <= self._strength(current.card, current.count):
            return _why("bid-weak", count=count, bid=str(current), seat=current.seat)
        return None

    def bid(self, seat: int, cards: str | Iterable[Card | str]) -> None:
        """Make a bid; raise :class:`BidError` (changing nothing) if it is not allowed."""
        why = self.reason(seat, cards)
        if why is not None:
            raise BidError(why)
        bid = TrumpBid(seat, parse_cards(cards))
        made = self._declare(seat, bid.card, bid.count)
        assert isinstance(made, Declaration)
        self.bids.append(bid)
        self._declaration.append(made)
        self._version += 1

    def reinforcement_reason(self, seat: int, cards: str | Iterable[Card | str]
                             ) -> Reason | None:
        """Why ``seat`` may not reinforce the standing bid with ``cards`` (the whole bid
        shown again, with more copies), or ``None``: only the standing bid's own bidder,
        with more copies of its card (at most one per deck). This is the bid after the bury
        (``bid_reinforce_after_bury``); holding the cards is the caller's check."""
        shown = parse_cards(cards)
        current = self.winner
        if current is None or current.seat != seat:
            return Reason("reinforce-not-yours")
        if not shown or len(set(shown)) > 1 or shown[0] != current.card:
            return Reason("reinforce-card", card=str(current.card))
        if len(shown) > self.rules.decks:
            return Reason("bid-copies", decks=self.rules.decks)
        if len(shown) <= current.count:
            return Reason("bid-reinforce-more", count=current.count)
        return None

    def reinforcements(self, seat: int, counts: Sequence[int]) -> list[TrumpBid]:
        """Every reinforcement :meth:`reinforcement_reason` allows ``seat`` from a hand of
        per-face ``counts``, fewest copies first."""
        current = self.winner
        if current is None or current.seat != seat:
            return []
        most = min(counts[current.card], self.rules.decks)
        return [_shown_bid(seat, current.card, n) for n in range(current.count + 1, most + 1)]

    def reinforce(self, seat: int, cards: str | Iterable[Card | str]) -> None:
        """Reinforce the standing bid (see :meth:`reinforcement_reason`; raise
        :class:`BidError`, changing nothing, if it is not allowed); the declaration stays."""
        why = self.reinforcement_reason(seat, cards)
        if why is not None:
            raise BidError(why)
        self.bids.append(TrumpBid(seat, parse_cards(cards)))
        self._declaration.append(self._declaration[-1])
        self._version += 1

    def withdraw(self, seat: int) -> None:
        """Take back the standing bid (only with ``bid_withdraw``, only its bidder)."""
        if not self.rules.bid_withdraw:
            raise BidError(Reason("withdraw-off"))
        if self.winner is None or self.winner.seat != seat:
            raise BidError(Reason("withdraw-not-yours"))
        self.bids.pop()
        self._declaration.pop()
        self._version += 1

    def _shown_faces(self) -> tuple[Card, ...]:
        """The faces a bid may show now (jokers, the cards of the seats' ranks and of the
        declared rank), made again only when those ranks change."""
        declared = self._declaration[-1] if self._declaration else None
        shown = (self.ranks, declared.rank if declared is not None else None)
        if self._faces[0] != shown:
            ranks = set(self.ranks)
            if shown[1] is not None:
                ranks.add(shown[1])
            self._faces = (shown, _bid_faces(frozenset(ranks)))
        return self._faces[1]

    def _allowed_now(self) -> dict[tuple[int, Card, int], bool]:
        """Whether (seat, card, copies) may bid, for the bids standing now."""
        if self._allowed_at != (self._version, self.ranks):
            self._allowed = {}
            self._allowed_at = (self._version, self.ranks)
        return self._allowed

    def has_option(self, seat: int, counts: Sequence[int]) -> bool:
        """Whether :meth:`options` would list a bid, found without listing them."""
        allowed = self._allowed_now()
        for card in self._shown_faces():
            for n in range(1, counts[card] + 1):
                ok = allowed.get((seat, card, n))
                if ok is None:
                    ok = allowed[(seat, card, n)] = self._refusal(seat, (card,) * n) is None
                if ok:
                    return True
        return False

    def options(self, seat: int, counts: Sequence[int]) -> list[TrumpBid]:
        """Every bid ``seat`` could make now from a hand of per-face ``counts``."""
        held = tuple([(card, counts[card]) for card in self._shown_faces() if counts[card]])
        key = (seat, self.ranks, self._version, held)
        cached = self._options.get(key)
        if cached is not None:
            return list(cached)
        result = []
        allowed = self._allowed_now()
        for card, n_held in held:
            for n in range(1, n_held + 1):
                ok = allowed.get((seat, card, n))
                if ok is None:  # a hand that grows by a card asks the same bids again
                    ok = allowed[(seat, card, n)] = self._refusal(seat, (card,) * n) is None
                if ok:
                    result.append(_shown_bid(seat, card, n))
        remember(self._options, key, tuple(result), 257)
        return result


def takes_dealer(rules: Rules, cards: Sequence[Card]) -> bool:
    """Whether a bid showing ``cards``, made while no dealer is set (the first round,
    during the deal or the bidding after it), makes its bidder the dealer
    (``first_dealer``: any bid, a pair or more, a pair of jokers; never when the first
    dealer is drawn by lot)."""
    how = rules.first_dealer
    return (how == FirstDealer.FIRST_BIDDER
            or (how == FirstDealer.FIRST_PAIR and len(cards) >= 2)
            or (how == FirstDealer.FIRST_JOKER_PAIR and cards[0].is_joker))


_SHOWN: Final[dict[tuple[int, Card, int], TrumpBid]] = {}
"""Bids listed as options, by seat, face and copies (a TrumpBid is immutable: made once; its
dataclass ``__init__`` [compiled build])."""


def _shown_bid(seat: int, card: Card, count: int) -> TrumpBid:
    """``TrumpBid(seat, (card,) * count)``, made once."""
    key = (seat, card, count)
    bid = _SHOWN.get(key)
    if bid is None:
        bid = remember(_SHOWN, key, TrumpBid(seat, (card,) * count), 4096)
    return bid


_DECLARATIONS: Final[dict[tuple[Rank | None, Suit | None, int], Declaration]] = {}


def _declaration(rank: Rank | None, suit: Suit | None, maker: int) -> Declaration:
    """``Declaration(rank, suit, maker)``, made once (bids are judged often; it is
    immutable)."""
    found = _DECLARATIONS.get((rank, suit, maker))
    if found is None:
        found = _DECLARATIONS[(rank, suit, maker)] = Declaration(rank, suit, maker)
    return found


@lru_cache(maxsize=64)
def _bid_faces(ranks: frozenset[Rank]) -> tuple[Card, ...]:
    """The faces that can be shown in a bid when these ranks are trump ranks."""
    return tuple(c for c in (Card(i) for i in range(FACES)) if c.rank is None or c.rank in ranks)
