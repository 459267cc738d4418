"""One round as a state machine driven by the seats' actions.

Phases: ``deal`` (one card at a time in turn order; any seat may bid at any
moment) → ``bid`` (a last chance for every seat after the deal; or, when the rules
let the dealer choose, ``expose`` (each seat may show some cards, if the rules say
so) and ``declare``, the dealer naming the trump suit) → ``kitty``
(the dealer takes the kitty and buries as many cards) → ``overbid`` (bidding
after the kitty, 炒地皮, if the rules allow) → ``call`` (Finding Friends) →
``show`` (hands shown for a redeal, if the rules allow) → ``play`` (the
tricks) → ``done`` (scored).

There is one way to ask and one way to act: :meth:`Round.legal` gives a seat's
legal actions, :meth:`Round.apply` performs one (an illegal one raises
:class:`~shengji.game.legal.ActionError` and changes nothing), :meth:`Round.undo`
takes the last one back. :meth:`Round.view` is what one seat may know.

>>> import random
>>> from shengji.engine.rules import Rules
>>> rnd = Round(Rules(), seed=1)
>>> rnd.phase, rnd.to_move, len(rnd.deck)
(<Phase.DEAL: 'deal'>, 1, 108)
>>> rng = random.Random(0)
>>> while rnd.phase != Phase.DONE:
...     rnd.apply(rnd.legal(rnd.to_move).random(rng))
>>> r = rnd.result
>>> r.trick_points + r.declarer_points + r.kitty_points
200
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from enum import StrEnum
from itertools import combinations
from random import Random
from typing import TYPE_CHECKING, Final, TypeVar, cast

from shengji.engine.bidding import Bidding, takes_dealer
from shengji.engine.cards import (
    ALL_CARDS,
    Card,
    Hand,
    Rank,
    Suit,
    card_int,
    format_cards,
    missing_cards,
)
from shengji.engine.follow import LegalPlays
from shengji.engine.friends import FriendCall, FriendTracker, call_reason, single_call_reason
from shengji.engine.lead import LegalLeads, PlayError
from shengji.engine.plain import mypyc_attr
from shengji.engine.reasons import Reason
from shengji.engine.rules import (
    FirstDealer,
    FirstDraw,
    KittyJoker,
    KittyOverbidBy,
    NoBid,
    Partnership,
    RedealShow,
    Rules,
    ThrowCheck,
    TrumpChoice,
)
from shengji.engine.scoring import NO_TRUMP_LEVEL
from shengji.engine.trick import Trick
from shengji.engine.trump import Trump
from shengji.game.actions import (
    Action,
    ActionError,
    Bid,
    Bury,
    Call,
    Declare,
    Draw,
    Expose,
    Pass,
    Play,
    Show,
    Withdraw,
    as_action,
)
from shengji.game.bury import bury_limits, bury_options, bury_reason, random_bury
from shengji.game.deal import Deal, pack, removed_cards
from shengji.game.legal import Legal, PlayLegal, nothing
from shengji.game.scoresheet import RoundResult, TrickRecord, score_round, trick_record

if TYPE_CHECKING:
    from shengji.game.view import SeatView


T = TypeVar("T")

_VIEW_OF: Final[list[Callable[[Round, int], SeatView]]] = []
"""``SeatView.of`` (:meth:`Round.view` imports it once, and keeps the bound method: its
lookup on the plain class cost more than the call)."""

_DRAWS: Final[dict[int, Draw]] = {}
"""One Draw action per seat, for :meth:`Round.only_draw` and the deal's legal sets."""

_PASSES: Final[dict[int, Pass]] = {}
"""One Pass action per seat, listed by the bidding's legal sets."""

_DRAW_IDS: Final[set[int]] = set()
"""The ``id`` of each of :data:`_DRAWS` (kept alive there): :meth:`Round.apply` knows
them well-formed without reading their fields, which a forged action may have wrong."""

_BIDS: Final[dict[tuple[int, tuple[Card, ...]], Bid]] = {}
"""The Bid actions listed as options, by seat and cards (made once, listed often)."""

_DO_VERBS: Final[dict[tuple[str, ...], Reason]] = {}
"""The summaries of bidding legal sets, by their verbs (made once: a Reason renders its
text when made)."""


def _refusal(action: Action, why: str) -> str:
    return f"seat {action.seat} cannot {str(action).split(' ', 1)[1]}: {why}"


class Phase(StrEnum):
    """Where a round stands."""

    DEAL = "deal"
    BID = "bid"
    EXPOSE = "expose"
    DECLARE = "declare"
    KITTY = "kitty"
    OVERBID = "overbid"
    CALL = "call"
    SHOW = "show"
    PLAY = "play"
    DONE = "done"


# module constants for the phases tested at every action (a member access on an enum class
# costs a lookup each time)
_DEAL: Final = Phase.DEAL
_PLAY: Final = Phase.PLAY
_FACE_RANKS: Final = tuple(card.rank for card in ALL_CARDS)
"""Each face's rank (``None`` for the jokers), read without a property call per card."""
_DONE: Final = Phase.DONE
DEALER_BID_PHASES: Final = (Phase.DEAL, Phase.BID)
"""The phases in which a bid made while no dealer is set may make its bidder the dealer
(:func:`~shengji.engine.bidding.takes_dealer`): not a kitty overbid."""
_OVERBID: Final = Phase.OVERBID
_BIDDING_AFTER: Final = (Phase.BID, _OVERBID)
"""The phases of bidding after the deal, in turn."""
_BID_TURNS: Final = (*_BIDDING_AFTER, Phase.EXPOSE)
"""The phases whose turn is :attr:`Round.bid_turn`."""

_INDEX_ORDER: Final = tuple(range(len(ALL_CARDS)))
"""The faces by index: the order of a hand's view before the trump is known."""


def _faces_in_order(trump: Trump | None) -> tuple[int, ...]:
    """The faces in the order views list a hand: by the trump's order keys, strongest first
    (each face's key is its own: the low six bits are its index), else by index."""
    if trump is None:
        return _INDEX_ORDER
    keys = sorted(trump.order_keys, reverse=True)
    return tuple([key & 63 for key in keys])


_OPPONENTS: Final = ThrowCheck.OPPONENTS


def level_rank(level: int) -> Rank | None:
    """The trump rank of a level (``None`` for the no-trump level)."""
    return None if level >= NO_TRUMP_LEVEL else Rank(level)


def _bid_options(seat: int, bidding: Bidding, counts: Sequence[int],
                 dealer_chooses: bool) -> Iterator[Bid]:
    if not any(counts) or dealer_chooses:
        return
    for bid in bidding.options(seat, counts):
        action = _BIDS.get((seat, bid.cards))
        if action is None:
            if len(_BIDS) >= 4096:
                _BIDS.clear()
            action = _BIDS[(seat, bid.cards)] = Bid(seat, bid.cards)
        yield action


def _draw_action(seat: int) -> Draw:
    """``Draw(seat)``, made once (actions are immutable)."""
    draw = _DRAWS.get(seat)
    if draw is None:
        draw = _DRAWS[seat] = Draw(seat)
        _DRAW_IDS.add(id(draw))
    return draw


def _pass_action(seat: int) -> Pass:
    """``Pass(seat)``, made once."""
    action = _PASSES.get(seat)
    if action is None:
        action = _PASSES[seat] = Pass(seat)
    return action


def _shuffle(rng: Random, items: list[T]) -> None:
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


def _teams(rules: Rules) -> tuple[int, ...]:
    if rules.partnership == Partnership.FIXED:
        return tuple(s % 2 for s in range(rules.players))
    return tuple(range(rules.players))


def _assign(target: Round, source: Round) -> None:
    """Set every attribute of ``target`` to ``source``'s (``__getstate__`` lists the
    attributes both of a plain instance and of a mypyc-compiled one)."""
    state = cast("dict[str, object]", source.__getstate__())
    for name, value in state.items():
        setattr(target, name, value)


@mypyc_attr(allow_interpreted_subclasses=True)  # tests subclass Round
class Round:
    """One round, from the shuffle to the score sheet.

    ``levels`` gives every seat's level (2..14 = ranks 2..A; with fixed
    partnerships both members of a team share it). ``dealer`` is ``None`` in a
    match's first round, when the bidding decides it. ``eligible`` limits who
    may bid (fluid ``not-lost`` rule). ``seed`` fixes the shuffle: the same
    seed and actions always give the same round. A ``deal`` gives the cards
    instead of a shuffle (:class:`~shengji.game.deal.Deal`, checked against the
    rules); the seed then only draws what the deal does not say (a random first
    dealer).
    """

    def __init__(
        self,
        rules: Rules,
        *,
        seed: int = 0,
        deal: Deal | None = None,
        levels: Sequence[int] | None = None,
        dealer: int | None = None,
        eligible: Sequence[int] | None = None,
        track_undo: bool = True,
        _blank: bool = False,
    ) -> None:
        n = rules.players
        self.rules = rules
        # rules read at every draw or bid check, kept as native attributes (Rules is a plain
        # class: each read of its fields is a dictionary lookup)
        self._players = n
        self._withdraw = rules.bid_withdraw
        self._dealer_chooses = rules.trump_choice == TrumpChoice.DEALER
        self._teams = _teams(rules)
        self._fixed = rules.partnership == Partnership.FIXED
        # with fixed partnerships, each team's seats (the declarers once its seat deals)
        self._sides = tuple(tuple(s for s in range(n) if self._teams[s] == team)
                            for team in range(max(self._teams) + 1))
        self.seed = seed
        if _blank:  # an empty shell for _copy(), which sets every attribute
            return
        self.levels = tuple(levels) if levels is not None else (int(rules.start_rank),) * n
        if len(self.levels) != n:
            raise ValueError(f"levels needs one entry per seat ({n})")
        if dealer is not None and not 0 <= dealer < n:
            raise ValueError(f"dealer must be a seat 0..{n - 1}")
        self.eligible = tuple(eligible) if eligible is not None else None
        self.track_undo = track_undo
        rng = Random(seed)
        self.dealer: int | None = dealer
        trump_ranks = [*self._bid_ranks(), *([rules.second_rank] if rules.second_rank else [])]
        self.removed = removed_cards(rules, trump_ranks)
        """The low cards taken out of the pack to make the deal even (``remove_low``)."""
        if deal is None:
            deck = pack(rules, self.removed)
            _shuffle(rng, deck)
            self.deck: tuple[Card, ...] = tuple(deck)
        else:
            deal.check(rules, self.removed)
            self.deck = deal.deck()
        self.deal = deal
        """The given deal, if the round did not shuffle its own."""
        self._dealt = len(self.deck) - rules.kitty_size
        """How many cards the seats draw (the rest is the kitty)."""
        if dealer is None and rules.first_dealer == FirstDealer.RANDOM:
            self.dealer = rng.randrange(n)
        self.first_drawer = self._first_drawer(rng) if deal is None else deal.first_drawer
        self.drawer = self.first_drawer
        self.next_card = 0
        self.hands = [Hand() for _ in range(n)]
        self.phase = Phase.DEAL
        self.bidding = Bidding(rules, self._bid_ranks(), self.teams, self.eligible)
        self.bid_turn = 0
        self.passes = 0
        self.exposed: tuple[tuple[Card, ...], ...] = ((),) * n
        """The cards each seat exposed before the dealer named the trump (public)."""
        self.trump: Trump | None = None
        self.kitty: tuple[Card, ...] = self.deck[len(self.deck) - rules.kitty_size:]
        self.kitty_owner: int | None = None
        self.kitty_turned: tuple[Card, ...] = ()
        self.steals = 0
        """How many times the kitty was taken by bidding after it (炒地皮)."""
        self.tracker: FriendTracker | None = None
        self.show_queue: tuple[int, ...] = ()
        self.trick: Trick | None = None
        self.tricks: list[TrickRecord] = []
        self.captured = [0] * n
        self.penalties: list[tuple[int, int]] = []
        self.history: list[Action] = []
        self.buried_at: tuple[int, ...] = ()
        """Positions in :attr:`history` of the Bury actions (hidden from other seats)."""
        self.result: RoundResult | None = None
        self._undo: list[Round] = []
        self._legal: dict[int, Legal] = {}
        self._plays: LegalLeads | LegalPlays | None = None
        self._trust: PlayLegal | None = None
        """The legal set of the current play position: the play it drew at random is the
        one action the round takes without checking it again."""
        self._public_bids: Bidding | None = None
        self._reset_view_caches()

    def _reset_view_caches(self) -> None:
        # what views share (immutable tuples, so a view never reaches the round): each
        # seat's sorted hand with the Hand it was read from, the history and the tricks as
        # tuples (always a prefix of the lists), the history with other seats' buries hidden
        self._sorted: dict[int, tuple[Hand, tuple[Card, ...]]] = {}
        self._tricks_tuple: tuple[TrickRecord, ...] = ()
        self._view_order: tuple[Trump | None, tuple[int, ...]] = (None, _INDEX_ORDER)
        """The faces in the order views list a hand, for the trump it was read for."""
        # the history as each seat may see it (key: the seat; -1 once nothing is hidden
        # from anyone): append-only lists that views read up to their length, so a view
        # costs no copy; replaced, never changed, when undo or a copy resets these caches
        self._logs: dict[int, list[Action]] = {}
        # seat -> (bidding version, ranks, whether it had a bid then), while its cards
        # that can be shown in a bid (jokers, cards of a bid rank) have not changed since
        self._has_bid: dict[int, tuple[int, tuple[Rank, ...], bool]] = {}
        self._shows: tuple[bool, ...] | None = None
        """:meth:`_showable`, made again after each change of the bids or ranks."""
        self.view_settled: tuple[Phase, dict[str, object], int, dict[str, object]] | None = None
        """The fields of a view that no action changes once the tricks start (for the
        phase they were read in), and those with the fields that change only as a trick
        ends (for the count of finished tricks they were read at); kept by
        :meth:`SeatView.of <shengji.game.view.SeatView.of>` in the play and after it."""

    # -- seats and sides -------------------------------------------------------------

    @property
    def teams(self) -> tuple[int, ...]:
        """Each seat's team with fixed partnerships (alternate seats); seat number if fluid."""
        return self._teams

    def next_seat(self, seat: int) -> int:
        """The seat after ``seat`` in turn order."""
        return (seat + 1) % self._players

    @property
    def declarers(self) -> tuple[int, ...]:
        """The declaring side as far as it is known (the dealer's team, or dealer+friends)."""
        if self.dealer is None:
            return ()
        if self._fixed:
            return self._sides[self._teams[self.dealer]]
        friends = self.tracker.friends if self.tracker is not None else ()
        return (self.dealer, *friends)

    def known_teammates(self, seat: int) -> tuple[int, ...]:
        """The seats ``seat`` is known to play with (fixed partners, or revealed friends)."""
        if self.rules.partnership == Partnership.FIXED:
            return tuple(s for s in range(self.rules.players)
                         if s != seat and self.teams[s] == self.teams[seat])
        side = self.declarers
        if seat in side:
            return tuple(s for s in side if s != seat)
        return ()

    def _bid_ranks(self) -> list[Rank]:
        n = self.rules.players
        if self.rules.partnership == Partnership.FLUID:
            return [level_rank(lv) or self.rules.end_rank for lv in self.levels]
        level = self.levels[self.dealer] if self.dealer is not None else int(self.rules.start_rank)
        rank = level_rank(level) or self.rules.end_rank
        return [rank] * n

    def _first_drawer(self, rng: Random) -> int:
        n = self.rules.players
        start = self.dealer if self.dealer is not None else rng.randrange(n)
        how = self.rules.first_draw
        if how == FirstDraw.NEXT:
            return (start + 1) % n
        if how == FirstDraw.COUNT:
            while True:
                card = self.deck_card(rng.randrange(len(self.deck)))
                if card.rank is not None:
                    count = 1 if card.rank == Rank.ACE else int(card.rank)
                    return (start + count - 1) % n
        return start

    def deck_card(self, index: int) -> Card:
        """The card at ``index`` of the shuffled pack (for the count-off)."""
        return self.deck[index]

    # -- turn ------------------------------------------------------------------------

    @property
    def to_move(self) -> int | None:
        """The seat the round waits for (the drawer during the deal); ``None`` when done."""
        phase = self.phase
        if phase is _PLAY:
            trick = self.trick
            assert trick is not None
            return None if len(trick.plays) == trick.players else (
                (trick.leader + len(trick.plays)) % trick.players)
        if phase is _DEAL:
            return self.drawer
        if phase in _BID_TURNS:
            return self.bid_turn
        if phase == Phase.KITTY:
            return self.kitty_owner
        if phase in (Phase.CALL, Phase.DECLARE):
            return self.dealer
        if phase == Phase.SHOW:
            return self.show_queue[0]
        return None

    def actors(self) -> list[int]:
        """Every seat that has a legal action now (during the deal, anyone may bid)."""
        if self.phase == Phase.DEAL:
            return [s for s in range(self.rules.players) if s == self.drawer or (
                self.can_bid(s))]
        seat = self.to_move
        return [] if seat is None else [seat]

    # -- legal actions ---------------------------------------------------------------

    def legal(self, seat: int) -> Legal:
        """The legal actions of ``seat`` now."""
        cached = self._legal.get(seat)
        if cached is None:
            cached = self._legal[seat] = self._make_legal(seat)
        return cached

    def _make_legal(self, seat: int) -> Legal:
        phase = self.phase
        if phase is _DEAL:
            return self._legal_bidding(seat, draw=seat == self.drawer, can_pass=False)
        to_move = self.to_move
        if seat != to_move:
            return nothing(seat, Reason("turn-of-nobody", phase=str(phase))
                           if to_move is None
                           else Reason("turn-of", seat=to_move, phase=str(phase)))
        if phase is _PLAY:
            return self._legal_play(seat)
        if phase in (Phase.BID, Phase.OVERBID):
            return self._legal_bidding(seat, draw=False, can_pass=True)
        if phase == Phase.KITTY:
            return self._legal_bury(seat)
        if phase == Phase.CALL:
            return self._legal_call(seat)
        if phase == Phase.EXPOSE:
            return self._legal_expose(seat)
        if phase == Phase.DECLARE:
            options = [Declare(seat, suit) for suit in (*Suit, None)]
            return Legal(seat, lambda a: None if isinstance(a, Declare) else
                         Reason("declare-needed"),
                         lambda: iter(options), summary=Reason("do-declare"))
        assert phase is Phase.SHOW
        return Legal(seat, lambda a: None if isinstance(a, Show | Pass) else
                     Reason("show-needed"),
                     lambda: iter((Show(seat), Pass(seat))), summary=Reason("do-show"))

    def _legal_bidding(self, seat: int, *, draw: bool, can_pass: bool) -> Legal:
        # the closures hold copies (own hand, public bids), never the round
        drawer, rules, overbid = self.drawer, self.rules, self.phase is _OVERBID
        dealer_chooses = self._dealer_chooses
        bidding = self._bidding_copy()
        counts = list(self.hands[seat].counts)

        verbs = ("draw",) * draw + ("bid",) + ("pass",) * can_pass

        def reason(action: Action) -> Reason | None:
            if isinstance(action, Draw):
                return None if draw else Reason("draw-turn", seat=drawer)
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
                missing = missing_cards(counts, action.cards)
                if missing:
                    return Reason("not-held", cards=format_cards(missing))
                return bidding.reason(seat, action.cards)
            return Reason("bid-time", verbs=verbs)

        def actions() -> Iterator[Action]:
            if draw:
                yield _draw_action(seat)
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
        return Legal(seat, reason, actions, summary=summary)

    def _legal_expose(self, seat: int) -> Legal:
        counts = list(self.hands[seat].counts)
        most = min(self.rules.expose, len(self.hands[seat]))

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

        return Legal(seat, reason, actions, sample, summary=Reason("do-expose", most=most))

    def _bidding_copy(self) -> Bidding:
        """A copy of the (public) bidding for Legal objects, made again only when the
        bidding changes, so that its cache of bid options lasts."""
        copy, live = self._public_bids, self.bidding
        if copy is None or copy.version != live.version or copy.ranks != live.ranks:
            copy = self._public_bids = live.copy()
        return copy

    def _legal_bury(self, seat: int) -> Legal:
        counts = tuple(self.hands[seat].counts)
        size, max_points = bury_limits(self.rules, counts)

        def reason(action: Action) -> Reason | None:
            if not isinstance(action, Bury):
                return Reason("bury-needed", size=size)
            return bury_reason(counts, action.cards, size, max_points)

        def actions() -> Iterator[Action]:
            for cards in bury_options(counts, size, max_points):
                yield Bury(seat, cards)

        def sample(rng: Random) -> Action:
            return Bury(seat, random_bury(counts, size, max_points, rng))

        return Legal(seat, reason, actions, sample, summary=Reason("do-bury", size=size))

    def _legal_call(self, seat: int) -> Legal:
        assert self.trump is not None
        trump, rules = self.trump, self.rules

        held = tuple(self.hands[seat].counts)
        buried = tuple(Hand(self.kitty).counts) if self.kitty_owner == seat else None

        def reason(action: Action) -> Reason | None:
            if not isinstance(action, Call):
                return Reason("call-needed", n=rules.friend_count)
            return call_reason(action.calls, trump, rules, held=held, buried=buried)

        def single_calls() -> list[FriendCall]:
            if rules.friend_calls == "ordinal":
                every = [FriendCall(k, card=c) for c in ALL_CARDS[:52]
                         for k in range(1, rules.decks + 1)]
            else:
                every = [FriendCall(k, colour=colour, rank=rank) for colour in ("black", "red")
                         for rank in Rank for k in range(1, 2 * rules.decks + 1)]
            return [c for c in every if single_call_reason(c, trump, rules, held=held,
                                                             buried=buried) is None]

        def actions() -> Iterator[Action]:
            for combo in combinations(single_calls(), rules.friend_count):
                yield Call(seat, combo)

        def sample(rng: Random) -> Action:
            return Call(seat, tuple(rng.sample(single_calls(), rules.friend_count)))

        return Legal(seat, reason, actions, sample, summary=Reason("do-call"))

    def _legal_play(self, seat: int) -> Legal:
        trick = self.trick
        assert trick is not None
        legal = self._plays
        if legal is None:
            legal = self._plays = trick.legal(self.hands[seat].copy())
        # a new object for every position: a play drawn from an older one is checked in full
        play_legal = self._trust = PlayLegal(seat, legal)
        return play_legal

    def play_rules(self, seat: int) -> LegalLeads | LegalPlays:
        """The engine's legal-play object for the seat to play in the current trick."""
        if self.trick is None or self.phase != Phase.PLAY or seat != self.to_move:
            raise ActionError("it is not this seat's turn to play")
        if self._plays is None:
            self._plays = self.trick.legal(self.hands[seat].copy())
        return self._plays

    # -- acting ----------------------------------------------------------------------

    def reason(self, action: object) -> Reason | None:
        """Why ``action`` (an action or its notation) is illegal now, or ``None``; anything
        else is ``bad-input``."""
        try:
            action = as_action(action)
        except ActionError as error:
            return Reason("bad-input", error=str(error))
        if self.phase == Phase.DONE:
            return Reason("round-over")
        if not 0 <= action.seat < self.rules.players:
            return Reason("no-seat", seat=action.seat, last=self.rules.players - 1)
        return self.legal(action.seat).reason(action)

    def apply(self, action: object) -> None:
        """Perform ``action`` (an action or its notation, e.g. ``"0 play KS KS"``); raise
        :class:`ActionError` (changing nothing) if it is malformed, illegal or not an action
        at all (typed ``object``, as :meth:`Legal.reason`: a compiled build would otherwise
        refuse other types with a bare ``TypeError``)."""
        trust = self._trust
        trusted = False
        if type(action) is Draw and id(action) in _DRAW_IDS:
            pass  # made by only_draw: well-formed
        elif trust is not None and trust.vouches(action):
            trusted = True  # a play drawn or found legal here
        else:
            action = as_action(action)
        if type(action) is Draw and self.phase is _DEAL and action.seat == self.drawer:
            self._apply_draw(action)  # the drawer may always draw: nothing to check
            return
        # a vouched play is the current position's, of the seat to move
        fast = trusted or (isinstance(action, Play) and self.phase is _PLAY and (
            action.seat == self.to_move))
        if not fast:
            why = self.reason(action)
            if why is not None:
                raise ActionError(_refusal(action, why), why)
        snapshot = self._copy() if self.track_undo else None
        if fast:
            assert isinstance(action, Play)
            try:
                self._play(action, trusted)
            except PlayError as error:
                raise ActionError(_refusal(action, str(error)), error.reason) from None
        if snapshot is not None:
            self._undo.append(snapshot)
        self.history.append(action)
        self._legal = {}
        self._plays = None
        self._trust = None
        if fast:
            return
        if isinstance(action, Draw):
            self._draw()
        elif isinstance(action, Bid):
            self._bid(action)
        elif isinstance(action, Withdraw):
            self.bidding.withdraw(action.seat)
            self._shows = None
        elif isinstance(action, Pass):
            self._pass()
        elif isinstance(action, Expose):
            self._expose(action)
        elif isinstance(action, Declare):
            self._declare(action)
        elif isinstance(action, Bury):
            self._bury(action)
        elif isinstance(action, Call):
            self.tracker = FriendTracker(action.calls, action.seat, self.rules)
            self._after_call()
        elif isinstance(action, Show):
            self._finish(redeal=True)


    def _apply_draw(self, action: Draw) -> None:
        if self.track_undo:
            self._undo.append(self._copy())
        self.history.append(action)
        if self._legal:  # (most draws were never asked for a legal set: no new dict)
            self._legal = {}
        self._draw()

    def only_draw(self, seat: int) -> Draw | None:
        """During the deal, ``Draw(seat)`` when drawing is the only legal action of ``seat``
        (it is the drawer and can neither bid nor take a bid back), else ``None``; cheaper
        than listing :meth:`legal`."""
        if self.phase is not _DEAL or seat != self.drawer or self.can_bid(seat):
            return None
        return _draw_action(seat)

    def can_bid(self, seat: int) -> bool:
        """Whether ``seat`` may bid now or take its standing bid back: whether
        :meth:`legal` holds a :class:`~shengji.game.actions.Bid` or a
        :class:`~shengji.game.actions.Withdraw` for it (during the deal any seat may, in
        the bidding after it or after the kitty only the seat whose turn it is); cheaper
        than listing :meth:`legal`, the answer being kept until the bids or the seat's
        cards that can be shown in a bid change. ``False`` for a seat not at the table."""
        phase = self.phase
        if phase is not _DEAL and (seat != self.bid_turn or phase not in _BIDDING_AFTER):
            return False
        if not 0 <= seat < self._players:
            return False
        bidding = self.bidding
        if self._withdraw and phase is not _OVERBID:
            winner = bidding.winner
            if winner is not None and winner.seat == seat:
                return True
        # (the bidding's version and its very tuple of ranks: no tuple made and compared
        # per draw; an equal tuple of ranks that is another object only asks again)
        version, ranks = bidding.version, bidding.ranks
        known = self._has_bid.get(seat)
        if known is not None and known[0] == version and known[1] is ranks:
            return known[2]
        can = not self._dealer_chooses and bidding.has_option(
            seat, self.hands[seat].counts)
        self._has_bid[seat] = (version, ranks, can)
        return can

    def undo(self) -> Action:
        """Take back the last action (needs ``track_undo``); returns it."""
        if not self._undo:
            raise ActionError("nothing to undo" if self.track_undo else
                              "this round was created with track_undo=False")
        last = self.history[-1]
        previous = self._undo.pop()._copy()
        stack = self._undo
        _assign(self, previous)
        self._undo = stack
        return last

    def copy(self) -> Round:
        """An independent copy (its undo history included)."""
        other = self._copy()
        other._undo = list(self._undo)
        return other

    def _copy(self) -> Round:
        other = Round(self.rules, seed=self.seed, _blank=True)
        _assign(other, self)
        other.hands = [h.copy() for h in self.hands]
        other.bidding = self.bidding.copy()
        other.trick = self.trick.copy() if self.trick is not None else None
        other.tricks = list(self.tricks)
        other.captured = list(self.captured)
        other.penalties = list(self.penalties)
        other.history = list(self.history)
        other.tracker = self.tracker.copy() if self.tracker is not None else None
        other._undo = []
        other._legal = {}
        other._plays = None
        other._trust = None
        other._public_bids = None
        other._reset_view_caches()
        return other

    # -- phase logic -----------------------------------------------------------------

    def _draw(self) -> None:
        drawer = self.drawer
        card = self.deck[self.next_card]
        hand = self.hands[drawer]
        hand.add_card(card)
        shows = self._shows
        if shows is None:
            shows = self._shows = self._showable()
        if shows[card]:
            self._has_bid.pop(drawer, None)  # it may bid with this card
        # the seat's sorted hand is read again if a view asks for it (a seat is asked for a
        # decision at a few of its draws: inserting each card cost more than that)
        if drawer in self._sorted:  # (a native test: pop() with a default is a method call)
            del self._sorted[drawer]
        self.next_card += 1
        self.drawer = (drawer + 1) % self._players
        if self.next_card == self._dealt:
            if self._dealer_chooses:
                if self.dealer is None:
                    self.dealer = self.first_drawer
                self.phase = Phase.DECLARE
                if self.rules.expose:
                    self.phase = Phase.EXPOSE
                    self.bid_turn = self.next_seat(self.dealer)
                return
            self.phase = Phase.BID
            self.bid_turn = self.drawer
            self.passes = 0

    def _showable(self) -> tuple[bool, ...]:
        """Per face, whether a bid may show it now (a joker, a card of a seat's rank or of
        the declared rank): only such cards change a seat's bids."""
        declared = self.bidding.declaration
        ranks = {*self.bidding.ranks, declared.rank if declared is not None else None}
        return tuple([rank is None or rank in ranks for rank in _FACE_RANKS])

    def _bid(self, action: Bid) -> None:
        self.bidding.bid(action.seat, action.cards)
        self._shows = None
        if (self.dealer is None and self.phase in DEALER_BID_PHASES
                and takes_dealer(self.rules, action.cards)):
            self.dealer = action.seat
        if self.phase == Phase.OVERBID:
            self._set_trump()
            assert self.kitty_owner is not None
            self.steals += 1
            self.hands[action.seat].add(self.kitty)
            self._sorted = {}  # new cards, and maybe a new trump
            self._has_bid.pop(action.seat, None)
            self.kitty_owner = action.seat
            if self.rules.kitty_overbid_takes_dealer:
                self.dealer = action.seat
            self.phase = Phase.KITTY
            return
        if self.phase == Phase.BID:
            self.passes = 0
            self.bid_turn = self.next_seat(action.seat)

    def _pass(self) -> None:
        if self.phase == Phase.SHOW:
            self.show_queue = self.show_queue[1:]
            if not self.show_queue:
                self._start_play()
            return
        self.passes += 1
        if self.phase == Phase.OVERBID:
            stealers = self._stealers()
            if self.passes < len(stealers):
                self.bid_turn = stealers[self.passes]
            else:
                self._after_kitty()
            return
        self.bid_turn = self.next_seat(self.bid_turn)
        if self.passes >= self.rules.players:
            self._end_bidding()

    def _stealers(self) -> list[int]:
        """The seats that may bid after the kitty, in turn order from its holder's left."""
        owner, n = self.kitty_owner, self.rules.players
        assert owner is not None
        seats = [(owner + k) % n for k in range(1, n)]
        if (self.rules.kitty_overbid_by == KittyOverbidBy.OPPONENTS
                and self.rules.partnership == Partnership.FIXED):
            seats = [s for s in seats if self.teams[s] != self.teams[owner]]
        return seats

    def _set_trump(self) -> None:
        declaration = self.bidding.declaration
        assert declaration is not None
        self.trump = self.rules.trump(declaration.rank, declaration.suit)
        if self.rules.partnership == Partnership.FLUID:
            self.dealer = declaration.maker

    def _end_bidding(self) -> None:
        if self.bidding.winner is not None:
            if self.dealer is None:
                self.dealer = self.bidding.winner.seat
            self._set_trump()
        else:
            if self.dealer is None:
                self.dealer = self.first_drawer
            level = self.levels[self.dealer]
            rank = level_rank(level)
            if rank is None:
                self.trump = self.rules.trump(None)
            else:
                suit = self._kitty_suit(rank)
                if suit == "redeal":
                    self._finish(redeal=True)
                    return
                self.trump = self.rules.trump(rank, suit if isinstance(suit, Suit) else None)
            ranks = self._bid_ranks()
            self.bidding.ranks = tuple(ranks)
            self._shows = None
        self.kitty_owner = self.dealer
        assert self.dealer is not None
        self.hands[self.dealer].add(self.kitty)
        self._sorted = {}  # the trump orders the hands now
        self._has_bid.pop(self.dealer, None)
        self.phase = Phase.KITTY

    def _kitty_suit(self, rank: Rank) -> Suit | str | None:
        """Turn kitty cards for the trump suit when nobody bid; ``"redeal"`` to redeal."""
        how = self.rules.no_bid
        if how == NoBid.REDEAL:
            return "redeal"
        turned: list[Card] = []
        if how == NoBid.KITTY_FIRST:
            for card in self.kitty:
                turned.append(card)
                self.kitty_turned = tuple(turned)
                if card.suit is not None:
                    return card.suit
                if self.rules.no_bid_joker == KittyJoker.NO_TRUMP:
                    return None
                if self.rules.no_bid_joker == KittyJoker.REDEAL:
                    return "redeal"
            return None
        best: Card | None = None
        for card in self.kitty:
            turned.append(card)
            if card.rank == rank:
                self.kitty_turned = tuple(turned)
                return card.suit
            if card.rank is not None and (best is None or card.rank > (best.rank or 0)):
                best = card
        self.kitty_turned = tuple(turned)
        return best.suit if best is not None else None

    def _expose(self, action: Expose) -> None:
        exposed = list(self.exposed)
        exposed[action.seat] = action.cards
        self.exposed = tuple(exposed)
        if action.seat == self.dealer:
            self.phase = Phase.DECLARE
        else:
            self.bid_turn = self.next_seat(action.seat)

    def _declare(self, action: Declare) -> None:
        assert self.dealer is not None
        rank = level_rank(self.levels[self.dealer])
        self.trump = self.rules.trump(rank, action.suit if rank is not None else None)
        self.kitty_owner = self.dealer
        self.hands[self.dealer].add(self.kitty)
        self._sorted = {}  # the trump orders the hands now
        self._has_bid.pop(self.dealer, None)
        self.phase = Phase.KITTY

    def _bury(self, action: Bury) -> None:
        self.buried_at = (*self.buried_at, len(self.history) - 1)
        self.hands[action.seat].remove(action.cards)
        self._sorted.pop(action.seat, None)
        self._has_bid.pop(action.seat, None)
        self.kitty = tuple(action.cards)
        limit = self.rules.kitty_overbid_limit
        if self.rules.kitty_overbid and (limit is None or self.steals < limit):
            self.phase = Phase.OVERBID
            self.passes = 0
            self.bid_turn = self._stealers()[0]
        else:
            self._after_kitty()

    def _after_kitty(self) -> None:
        if self.rules.partnership == Partnership.FLUID and self.rules.friend_count:
            self.phase = Phase.CALL
            return
        self._after_call()

    def _after_call(self) -> None:
        show = self.rules.redeal_show
        if show != RedealShow.OFF:
            assert self.trump is not None and self.dealer is not None
            order = [(self.dealer + k) % self.rules.players for k in range(self.rules.players)]
            trump = self.trump
            if show == RedealShow.NO_TRUMPS:
                queue = [s for s in order if not any(trump.is_trump(c) for c in self.hands[s])]
            else:
                queue = [s for s in order if not any(c.points for c in self.hands[s])]
            if queue:
                self.show_queue = tuple(queue)
                self.phase = Phase.SHOW
                return
        self._start_play()

    def _start_play(self) -> None:
        assert self.trump is not None and self.dealer is not None
        self.phase = Phase.PLAY
        self.trick = Trick(self.trump, self.rules, self.dealer)

    def _play(self, action: Play, trusted: bool) -> None:
        """Play ``action`` (``trusted``: the current legal set vouched for it)."""
        trick = self.trick
        assert trick is not None
        seat = action.seat
        hand = self.hands[seat]
        if trick.lead is None:
            teammates = self.known_teammates(seat) if (
                self.rules.throw_check == _OPPONENTS) else ()
            trick.play(action.cards, hand, hands=self.hands, legal=self._plays,
                       teammates=teammates, trusted=trusted)
            outcome = trick.throw
            if outcome is not None and not outcome.valid:
                if outcome.penalty:
                    self.penalties.append((seat, outcome.penalty))
                if outcome.round_lost:
                    hand.remove(trick.plays[-1].cards)  # the throw lies on the table
                    self._sorted.pop(seat, None)
                    self._finish(lost_by=seat)
                    return
        else:
            trick.play(action.cards, hand, legal=self._plays, trusted=trusted)
        played = trick.plays[-1].cards
        hand.remove(played)
        cached = self._sorted.get(seat)
        if cached is not None and cached[0] is hand:
            cards = list(cached[1])
            keys = trick.trump.order_keys
            for card in played:  # removing keeps the rest in order
                at = _place(cards, keys, card)
                if at < len(cards) and cards[at] is card:
                    del cards[at]
                else:  # (not the trump's order, or an equal card that is another object)
                    cards.remove(card)
            self._sorted[seat] = (hand, tuple(cards))
        if self.tracker is not None:
            self.tracker.play(seat, played)
        if len(trick.plays) == trick.players:  # trick.is_complete
            winner = trick.winner
            assert winner is not None and trick.lead is not None
            points = trick.points
            self.captured[winner] += points
            self.tricks.append(trick_record(tuple(trick.plays), winner, points,
                                            trick.largest_unit_size, trick.lead))
            if not hand:
                self._finish()
            else:
                self.trick = Trick(trick.trump, self.rules, winner, trick.players)

    def _finish(self, *, redeal: bool = False, lost_by: int | None = None) -> None:
        self.phase = Phase.DONE
        self.result = score_round(self, redeal=redeal, lost_by=lost_by)

    # -- views -----------------------------------------------------------------------

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know now: its own hand and everything public."""
        if not _VIEW_OF:  # imported here: the view module imports this one
            from shengji.game.view import SeatView

            _VIEW_OF.append(SeatView.of)
        return _VIEW_OF[0](self, seat)

    def sorted_hand(self, seat: int) -> tuple[Card, ...]:
        """The cards of ``seat`` as its view shows them (by the trump's order, strongest
        first; by index before the trump is known); kept up to date as cards come and go,
        else listed from the hand's counts in that order (no sort)."""
        hand = self.hands[seat]
        cached = self._sorted.get(seat)
        if cached is None or cached[0] is not hand or len(cached[1]) != len(hand):
            trump = self.trump
            order = self._view_order
            if order[0] is not trump:
                order = self._view_order = (trump, _faces_in_order(trump))
            counts = hand.counts
            cards: list[Card] = []
            for face in order[1]:
                n = counts[face]
                if n == 1:
                    cards.append(ALL_CARDS[face])
                elif n:
                    cards += [ALL_CARDS[face]] * n
            cached = (hand, tuple(cards))
            self._sorted[seat] = cached
        return cached[1]

    def history_log(self, seat: int) -> tuple[list[Action], int]:
        """The history as ``seat`` may see it (other seats' buries without their cards,
        shown to all after the round if ``kitty_revealed``): the first ``length`` actions
        of ``log``. The log is shared by the views of ``seat`` and only ever grows, by
        actions ``seat`` may see, so a view takes its part without a copy; the round
        starts a new log rather than change one (undo, the kitty revealed)."""
        actions = self.history  # append-only between undos (which reset the caches)
        buried = self.buried_at
        key = seat if buried and not (self.phase is _DONE and self.rules.kitty_revealed) else -1
        logs = self._logs
        log = logs.get(key)
        if log is None:
            log = logs[key] = []
        done, length = len(log), len(actions)
        if done + 1 == length and (key < 0 or done not in buried or actions[done].seat == seat):
            log.append(actions[done])  # one action since (most views): no slice of them
        elif done < length:
            added = actions[done:]
            if key >= 0:
                for i in buried:
                    if i >= done and actions[i].seat != seat:
                        added[i - done] = Bury(actions[i].seat, ())
            log.extend(added)
        return log, length

    def tricks_tuple(self) -> tuple[TrickRecord, ...]:
        """The finished tricks as a tuple shared between views."""
        tricks = self._tricks_tuple
        if len(tricks) != len(self.tricks):
            tricks = self._tricks_tuple = tuple(self.tricks)
        return tricks

    def __repr__(self) -> str:
        return (f"<Round seed={self.seed} phase={self.phase} dealer={self.dealer} "
                f"trump={self.trump} actions={len(self.history)}>")

