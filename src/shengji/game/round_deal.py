"""The deal and the bidding of a :class:`~shengji.game.round.Round`: the ``deal`` (one
card at a time; any seat may bid at any moment), the ``bid`` phase after it, the bids of
the ``overbid`` phase (bidding after the kitty, 炒地皮, and the holder's reinforcement
after the bury), withdrawals, passes, :func:`can_bid`, and the end of the bidding (the
trump of the winning bid, or of the kitty turned when nobody bid).

Module-level functions taking the round (imported only for type checking).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from random import Random
from typing import TYPE_CHECKING, Final, TypeVar

from shengji.engine.bidding import Bidding, TrumpBid, takes_dealer
from shengji.engine.caches import remember
from shengji.engine.cards import ALL_CARDS, Card, Rank, Suit, format_cards, missing_cards
from shengji.engine.reasons import Reason
from shengji.engine.rules import FirstDraw, KittyJoker, NoBid, Partnership
from shengji.engine.scoring import NO_TRUMP_LEVEL
from shengji.game.actions import Action, Bid, Draw, Pass, Withdraw
from shengji.game.legal import Legal
from shengji.game.phase import DEALER_BID_PHASES, Phase
from shengji.game.round_kitty import after_bury, after_kitty, stealers, take_kitty
from shengji.game.round_play import finish
from shengji.game.selection import OptionsSelector, Selector

if TYPE_CHECKING:
    from shengji.game.round import Round

T = TypeVar("T")

_DRAWS: Final[dict[int, Draw]] = {}
"""One Draw action per seat, for :meth:`Round.only_draw
<shengji.game.round.Round.only_draw>` and the deal's legal sets."""

_PASSES: Final[dict[int, Pass]] = {}
"""One Pass action per seat, listed by the bidding's legal sets."""

DRAW_IDS: Final[set[int]] = set()
"""The ``id`` of each of :data:`_DRAWS` (kept alive there): :meth:`Round.apply
<shengji.game.round.Round.apply>` knows them well-formed without reading their fields,
which a forged action may have wrong."""

_BIDS: Final[dict[tuple[int, tuple[Card, ...]], Bid]] = {}
"""The Bid actions listed as options, by seat and cards (made once, listed often)."""

_DO_VERBS: Final[dict[tuple[str, ...], Reason]] = {}
"""The summaries of bidding legal sets, by their verbs (made once: a Reason renders its
text when made)."""

# module constants for the phases tested at every draw (a member access on an enum class
# costs a lookup each time)
_DEAL: Final = Phase.DEAL
_OVERBID: Final = Phase.OVERBID
_BIDDING_AFTER: Final = (Phase.BID, _OVERBID)
"""The phases of bidding after the deal, in turn."""
_FACE_RANKS: Final = tuple(card.rank for card in ALL_CARDS)
"""Each face's rank (``None`` for the jokers), read without a property call per card."""


def level_rank(level: int) -> Rank | None:
    """The trump rank of a level (``None`` for the no-trump level)."""
    return None if level >= NO_TRUMP_LEVEL else Rank(level)


# -- the shuffle and the first drawer ----------------------------------------------------

def shuffle(rng: Random, items: list[T]) -> None:
    """``rng.shuffle(items)``, the same swaps from the same random bits (the standard
    library's algorithm: ``Random.shuffle`` and ``_randbelow_with_getrandbits``), without
    the interpreted code per card (a fifth of a compiled deal's making)."""
    getrandbits = rng.getrandbits
    n = len(items)
    k = n.bit_length()
    for i in range(n - 1, 0, -1):
        bound = i + 1
        while bound < 1 << (k - 1):  # k = bound.bit_length()
            k -= 1
        r = getrandbits(k)
        while r >= bound:
            r = getrandbits(k)
        items[i], items[r] = items[r], items[i]


def bid_ranks(rnd: Round) -> list[Rank]:
    """Each seat's rank for bids: the dealer's, else (fluid partnerships, or while the
    bidding decides the dealer) its own level's."""
    rules = rnd.rules
    if rules.partnership == Partnership.FLUID or rnd.dealer is None:
        return [level_rank(lv) or rules.end_rank for lv in rnd.levels]
    rank = level_rank(rnd.levels[rnd.dealer]) or rules.end_rank
    return [rank] * rules.players


def pick_first_drawer(rnd: Round, rng: Random) -> int:
    """The seat that draws first (``first_draw``; the count-off turns cards with
    :meth:`Round.deck_card <shengji.game.round.Round.deck_card>`)."""
    n = rnd.rules.players
    start = rnd.dealer if rnd.dealer is not None else (
        rnd.shuffler if rnd.shuffler is not None else rng.randrange(n))
    how = rnd.rules.first_draw
    if how == FirstDraw.NEXT:
        return (start + 1) % n
    if how == FirstDraw.COUNT:
        while True:
            card = rnd.deck_card(rng.randrange(len(rnd.deck)))
            if card.rank is not None:
                count = 1 if card.rank == Rank.ACE else int(card.rank)
                return (start + count - 1) % n
    return start


# -- actions made once -------------------------------------------------------------------

def draw_action(seat: int) -> Draw:
    """``Draw(seat)``, made once (actions are immutable)."""
    draw = _DRAWS.get(seat)
    if draw is None:
        draw = _DRAWS[seat] = Draw(seat)
        DRAW_IDS.add(id(draw))
    return draw


def _pass_action(seat: int) -> Pass:
    """``Pass(seat)``, made once."""
    action = _PASSES.get(seat)
    if action is None:
        action = _PASSES[seat] = Pass(seat)
    return action


def _bid_options(seat: int, bidding: Bidding, counts: Sequence[int],
                 dealer_chooses: bool) -> Iterator[Bid]:
    if not any(counts) or dealer_chooses:
        return
    yield from _bid_actions(seat, bidding.options(seat, counts))


def _bid_actions(seat: int, bids: Iterable[TrumpBid]) -> Iterator[Bid]:
    """The actions showing ``bids`` (made once per seat and cards)."""
    for bid in bids:
        action = _BIDS.get((seat, bid.cards))
        if action is None:
            action = remember(_BIDS, (seat, bid.cards), Bid(seat, bid.cards), 4096)
        yield action


def _bids_selector(counts: Sequence[int], actions: Callable[[], Iterator[Action]]
                   ) -> Callable[[], Selector]:
    """The selector of a bidding decision: among the bids ``actions`` lists."""
    return lambda: OptionsSelector(counts, [a.cards for a in actions() if isinstance(a, Bid)])


# -- legal actions -----------------------------------------------------------------------

def bidding_copy(rnd: Round) -> Bidding:
    """A copy of the (public) bidding for Legal objects, made again only when the
    bidding changes, so that its cache of bid options lasts."""
    copy, live = rnd._public_bids, rnd.bidding
    if copy is None or copy.version != live.version or copy.ranks != live.ranks:
        copy = rnd._public_bids = live.copy()
    return copy


def legal_bidding(rnd: Round, seat: int, *, draw: bool, can_pass: bool) -> Legal:
    """Bids, a withdrawal, and a draw (the drawer, during the deal) or a pass (after it)."""
    # the closures hold copies (own hand, public bids), never the round
    drawer, rules, overbid = rnd.drawer, rnd.rules, rnd.phase is _OVERBID
    dealing = rnd.phase is _DEAL
    dealer_chooses = rnd._dealer_chooses
    bidding = bidding_copy(rnd)
    counts = list(rnd.hands[seat].counts)

    verbs = ("draw",) * draw + ("bid",) + ("pass",) * can_pass

    def reason(action: Action) -> Reason | None:
        if isinstance(action, Draw):  # (after the deal: nothing to draw, whose turn it is)
            if draw:
                return None
            return Reason("draw-turn", seat=drawer) if dealing else Reason("bid-time",
                                                                            verbs=verbs)
        if isinstance(action, Pass):
            return None if can_pass else Reason("deal-no-pass")
        if isinstance(action, Withdraw):
            if not rules.bid_withdraw:
                return Reason("withdraw-off")
            if overbid:
                return Reason("withdraw-settled")
            winner = bidding.winner
            return None if winner is not None and winner.seat == seat else (
                Reason("withdraw-not-yours"))
        if isinstance(action, Bid):
            if dealer_chooses:  # as _bid_options lists none
                return Reason("bid-dealer-names")
            missing = missing_cards(counts, action.cards)
            if missing:
                return Reason("not-held", cards=format_cards(missing))
            return bidding.reason(seat, action.cards)
        return Reason("bid-time", verbs=verbs)

    def actions() -> Iterator[Action]:
        if draw:
            yield draw_action(seat)
        if can_pass:
            yield _pass_action(seat)
        yield from _bid_options(seat, bidding, counts, dealer_chooses)
        winner = bidding.winner
        if rules.bid_withdraw and not overbid and winner is not None and (
                winner.seat == seat):  # reason(Withdraw(seat)) is None, without its text
            yield Withdraw(seat)

    summary = _DO_VERBS.get(verbs)
    if summary is None:
        summary = _DO_VERBS[verbs] = Reason("do-verbs", verbs=verbs)
    return Legal(seat, reason, actions, summary=summary, can_bid=can_bid(rnd, seat),
                 selector=_bids_selector(counts, actions))


def legal_reinforce(rnd: Round, seat: int) -> Legal:
    """After the bury, the holder's reinforcement of their bid, or a pass."""
    bidding = bidding_copy(rnd)
    counts = list(rnd.hands[seat].counts)
    winner = bidding.winner
    assert winner is not None

    def reason(action: Action) -> Reason | None:
        if isinstance(action, Pass):
            return None
        if isinstance(action, Bid):
            missing = missing_cards(counts, action.cards)
            if missing:
                return Reason("not-held", cards=format_cards(missing))
            return bidding.reinforcement_reason(seat, action.cards)
        return Reason("do-reinforce", card=str(winner.card))

    def actions() -> Iterator[Action]:
        yield _pass_action(seat)
        yield from _bid_actions(seat, bidding.reinforcements(seat, counts))

    return Legal(seat, reason, actions,
                 summary=Reason("do-reinforce", card=str(winner.card)),
                 can_bid=can_bid(rnd, seat), selector=_bids_selector(counts, actions))


def can_bid(rnd: Round, seat: int) -> bool:
    """:meth:`Round.can_bid <shengji.game.round.Round.can_bid>`."""
    phase = rnd.phase
    if phase is not _DEAL and (seat != rnd.bid_turn or phase not in _BIDDING_AFTER):
        return False
    if not 0 <= seat < rnd._players:
        return False
    bidding = rnd.bidding
    if rnd.reinforcing:
        return bool(bidding.reinforcements(seat, rnd.hands[seat].counts))
    if rnd._withdraw and phase is not _OVERBID:
        winner = bidding.winner
        if winner is not None and winner.seat == seat:
            return True
    # (the bidding's version and its very tuple of ranks: no tuple made and compared
    # per draw; an equal tuple of ranks that is another object only asks again)
    version, ranks = bidding.version, bidding.ranks
    known = rnd._has_bid.get(seat)
    if known is not None and known[0] == version and known[1] is ranks:
        return known[2]
    can = not rnd._dealer_chooses and bidding.has_option(seat, rnd.hands[seat].counts)
    rnd._has_bid[seat] = (version, ranks, can)
    return can


# -- acting --------------------------------------------------------------------------

def draw_card(rnd: Round) -> None:
    """The drawer takes the next card; after the last, the bidding (or the Hundred's
    exposing and declaring) begins."""
    drawer = rnd.drawer
    card = rnd.deck[rnd.next_card]
    hand = rnd.hands[drawer]
    hand.add_card(card)
    shows = rnd._shows
    if shows is None:
        shows = rnd._shows = _showable(rnd)
    if shows[card]:
        rnd._has_bid.pop(drawer, None)  # it may bid with this card
    # the seat's sorted hand is read again if a view asks for it (a seat is asked for a
    # decision at a few of its draws: inserting each card cost more than that)
    if drawer in rnd._sorted:  # (a test, not pop() with a default [compiled build])
        del rnd._sorted[drawer]
    rnd.next_card += 1
    rnd.drawer = (drawer + 1) % rnd._players
    if rnd.next_card == rnd._dealt:
        if rnd._dealer_chooses:
            if rnd.dealer is None:
                rnd.dealer = rnd.first_drawer
            rnd.phase = Phase.DECLARE
            if rnd.rules.expose:
                rnd.phase = Phase.EXPOSE
                rnd.bid_turn = rnd.next_seat(rnd.dealer)
            return
        rnd.phase = Phase.BID
        rnd.bid_turn = rnd.drawer
        rnd.passes = 0


def _showable(rnd: Round) -> tuple[bool, ...]:
    """Per face, whether a bid may show it now (a joker, a card of a seat's rank or of
    the declared rank): only such cards change a seat's bids."""
    declared = rnd.bidding.declaration
    ranks = {*rnd.bidding.ranks, declared.rank if declared is not None else None}
    return tuple([rank is None or rank in ranks for rank in _FACE_RANKS])


def place_bid(rnd: Round, action: Bid) -> None:
    """A bid (during or after the deal), an overbid taking the kitty, or the holder's
    reinforcement after the bury."""
    if rnd.reinforcing:
        rnd.bidding.reinforce(action.seat, action.cards)
        rnd.reinforcing = False
        after_bury(rnd)
        return
    rnd.bidding.bid(action.seat, action.cards)
    rnd._shows = None
    if (rnd.dealer is None and rnd.phase in DEALER_BID_PHASES
            and takes_dealer(rnd.rules, action.cards)):
        rnd.dealer = action.seat
        rnd.bidding.ranks = tuple(bid_ranks(rnd))  # the bids that follow are at its level
    if rnd.phase == _OVERBID:
        set_trump(rnd)
        assert rnd.kitty_owner is not None
        rnd.steals += 1
        take_kitty(rnd, action.seat)
        if rnd.rules.kitty_overbid_takes_dealer:
            rnd.dealer = action.seat
        return
    if rnd.phase == Phase.BID:
        rnd.passes = 0
        rnd.bid_turn = rnd.next_seat(action.seat)


def withdraw_bid(rnd: Round, action: Withdraw) -> None:
    rnd.bidding.withdraw(action.seat)
    rnd._shows = None


def pass_bid(rnd: Round) -> None:
    """A pass in the bidding after the deal, after the kitty, or of the reinforcement."""
    if rnd.reinforcing:
        rnd.reinforcing = False
        after_bury(rnd)
        return
    rnd.passes += 1
    if rnd.phase == _OVERBID:
        seats = stealers(rnd)
        if rnd.passes < len(seats):
            rnd.bid_turn = seats[rnd.passes]
        else:
            after_kitty(rnd)
        return
    rnd.bid_turn = rnd.next_seat(rnd.bid_turn)
    if rnd.passes >= rnd.rules.players:
        end_bidding(rnd)


def set_trump(rnd: Round) -> None:
    """The trump of the winning declaration (whose maker deals, in Finding Friends)."""
    declaration = rnd.bidding.declaration
    assert declaration is not None
    rnd.trump = rnd.rules.trump(declaration.rank, declaration.suit)
    if rnd.rules.partnership == Partnership.FLUID:
        rnd.dealer = declaration.maker


def end_bidding(rnd: Round) -> None:
    """Everyone passed: the trump of the winning bid, or, when nobody bid, of the
    dealer's level and a suit from the kitty (or a redeal); the dealer takes the kitty."""
    if rnd.bidding.winner is not None:
        if rnd.dealer is None:
            rnd.dealer = rnd.bidding.winner.seat
        set_trump(rnd)
    else:
        if rnd.dealer is None:
            rnd.dealer = rnd.shuffler if rnd.shuffler is not None else rnd.first_drawer
        level = rnd.levels[rnd.dealer]
        rank = level_rank(level)
        if rank is None:
            rnd.trump = rnd.rules.trump(None)
        else:
            suit = _kitty_suit(rnd, rank)
            if suit == "redeal":
                finish(rnd, redeal=True)
                return
            rnd.trump = rnd.rules.trump(rank, suit if isinstance(suit, Suit) else None)
        rnd.bidding.ranks = tuple(bid_ranks(rnd))
        rnd._shows = None
    assert rnd.dealer is not None
    take_kitty(rnd, rnd.dealer)


def _kitty_suit(rnd: Round, rank: Rank) -> Suit | str | None:
    """Turn kitty cards for the trump suit when nobody bid; ``"redeal"`` to redeal."""
    how = rnd.rules.no_bid
    if how == NoBid.REDEAL:
        return "redeal"
    turned: list[Card] = []
    if how == NoBid.KITTY_FIRST:
        for card in rnd.kitty:
            turned.append(card)
            rnd.kitty_turned = tuple(turned)
            if card.suit is not None:
                return card.suit
            if rnd.rules.no_bid_joker == KittyJoker.NO_TRUMP:
                return None
            if rnd.rules.no_bid_joker == KittyJoker.REDEAL:
                return "redeal"
        return None
    best: Card | None = None
    for card in rnd.kitty:
        turned.append(card)
        if card.rank == rank:
            rnd.kitty_turned = tuple(turned)
            return card.suit
        if card.rank is not None and (best is None or card.rank > (best.rank or 0)):
            best = card
    rnd.kitty_turned = tuple(turned)
    return best.suit if best is not None else None
