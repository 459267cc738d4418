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

This module holds :class:`Round` itself (its state, turns, legal sets and actions
dispatched by phase, undo and copies, the view's parts); each phase's rules are
module-level functions taking the round, one module per phase, each importing the
later phases' modules only (never this one, but for type checking):

- :mod:`shengji.game.round_deal`: ``deal``, ``bid`` and the bids of ``overbid`` (the
  shuffle, draws, bids, reinforcements, withdrawals, passes, :meth:`Round.can_bid`, the
  end of the bidding);
- :mod:`shengji.game.round_declare`: ``expose`` and ``declare`` (the dealer names the
  trump);
- :mod:`shengji.game.round_kitty`: ``kitty`` (taking it, the bury) and the turns of
  ``overbid`` after it;
- :mod:`shengji.game.round_calls`: ``call`` (Finding Friends) and ``show``;
- :mod:`shengji.game.round_play`: ``play`` and ``done`` (the tricks, the score).

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

from collections.abc import Sequence
from random import Random
from typing import Final, cast

from shengji.engine.bidding import Bidding
from shengji.engine.cards import ALL_CARDS, Card, Hand, Rank
from shengji.engine.follow import LegalPlays
from shengji.engine.friends import FriendTracker
from shengji.engine.lead import LegalLeads, PlayError
from shengji.engine.plain import mypyc_attr
from shengji.engine.reasons import Reason
from shengji.engine.rules import FirstDealer, Partnership, Rules, TrumpChoice
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
    seat_is_int,
)
from shengji.game.deal import Deal, pack, removed_cards
from shengji.game.legal import Legal, PlayLegal, nothing
from shengji.game.phase import Phase
from shengji.game.round_calls import call, legal_call, legal_show, pass_show, show
from shengji.game.round_deal import DRAW_IDS as _DRAW_IDS
from shengji.game.round_deal import (
    bid_ranks,
    draw_action,
    draw_card,
    legal_bidding,
    legal_reinforce,
    level_rank,
    pass_bid,
    pick_first_drawer,
    place_bid,
    withdraw_bid,
)
from shengji.game.round_deal import can_bid as _can_bid
from shengji.game.round_deal import shuffle as _shuffle
from shengji.game.round_declare import declare, expose, legal_declare, legal_expose
from shengji.game.round_kitty import bury, legal_bury
from shengji.game.round_play import legal_play, play
from shengji.game.round_play import play_rules as _play_rules
from shengji.game.scoresheet import RoundResult, TrickRecord
from shengji.game.view import SeatView

__all__ = ["Phase", "Round", "level_rank", "pack"]

_VIEW_OF: Final = SeatView.of
"""``SeatView.of``, the bound method kept (its lookup on the plain class cost more than the
call)."""


def _refusal(action: Action, why: str) -> str:
    return f"seat {action.seat} cannot {str(action).split(' ', 1)[1]}: {why}"


# module constants for the phases tested at every action (a member access on an enum class
# costs a lookup each time)
_DEAL: Final = Phase.DEAL
_PLAY: Final = Phase.PLAY
_DONE: Final = Phase.DONE
_BID_TURNS: Final = (Phase.BID, Phase.OVERBID, Phase.EXPOSE)
"""The phases whose turn is :attr:`Round.bid_turn`."""
_BIDDING: Final = (Phase.BID, Phase.OVERBID)
"""The phases of bidding after the deal."""

_INDEX_ORDER: Final = tuple(range(len(ALL_CARDS)))
"""The faces by index: the order of a hand's view before the trump is known."""


def _faces_in_order(trump: Trump | None) -> tuple[int, ...]:
    """The faces in the order views list a hand: by the trump's order keys, strongest first
    (each face's key is its own: the low six bits are its index), else by index."""
    if trump is None:
        return _INDEX_ORDER
    keys = sorted(trump.order_keys, reverse=True)
    return tuple([key & 63 for key in keys])


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
    match's first round, when the bidding decides it, and in a round after a redeal under
    ``redeal_first_bidder``, whose ``shuffler`` deals the cards (the seat after it draws
    first) and leads if nobody bids. ``eligible`` limits who
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
        shuffler: int | None = None,
        _blank: bool = False,
    ) -> None:
        n = rules.players
        self.rules = rules
        # rules read at every draw or bid check, kept as attributes [compiled build]
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
        self.levels = tuple(levels) if levels is not None else (int(rules.first_rank),) * n
        if len(self.levels) != n:
            raise ValueError(f"levels needs one entry per seat ({n})")
        for name, seat in (("dealer", dealer), ("shuffler", shuffler)):
            if seat is not None and not 0 <= seat < n:
                raise ValueError(f"{name} must be a seat 0..{n - 1}")
        self.shuffler = shuffler
        self.eligible = tuple(eligible) if eligible is not None else None
        self.track_undo = track_undo
        rng = Random(seed)
        self.dealer: int | None = dealer
        trump_ranks = [*bid_ranks(self), *([rules.second_rank] if rules.second_rank else [])]
        self.removed = removed_cards(rules, trump_ranks)
        """The low cards taken out of the pack to make the deal even (``remove_low``; the
        ``removed_ranks`` are not in the pack at all)."""
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
        if dealer is None and shuffler is None and rules.first_dealer == FirstDealer.RANDOM:
            self.dealer = rng.randrange(n)
        self.first_drawer = pick_first_drawer(self, rng) if deal is None else (
            deal.first_drawer)
        self.drawer = self.first_drawer
        self.next_card = 0
        self.hands = [Hand() for _ in range(n)]
        self.phase = Phase.DEAL
        self.bidding = Bidding(rules, bid_ranks(self), self.teams, self.eligible)
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
        self.reinforcing = False
        """The kitty's holder may reinforce their standing bid now, after burying
        (``bid_reinforce_after_bury``; the phase is ``overbid``, its turn the holder's)."""
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
        """Per face, whether a bid may show it now (``round_deal._showable``), made again
        after each change of the bids or ranks."""
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
            return legal_bidding(self, seat, draw=seat == self.drawer, can_pass=False)
        to_move = self.to_move
        if seat != to_move:
            return nothing(seat, Reason("turn-of-nobody", phase=str(phase))
                           if to_move is None
                           else Reason("turn-of", seat=to_move, phase=str(phase)))
        if phase is _PLAY:
            return legal_play(self, seat)
        if phase in _BIDDING:
            if self.reinforcing:
                return legal_reinforce(self, seat)
            return legal_bidding(self, seat, draw=False, can_pass=True)
        if phase == Phase.KITTY:
            return legal_bury(self, seat)
        if phase == Phase.CALL:
            return legal_call(self, seat)
        if phase == Phase.EXPOSE:
            return legal_expose(self, seat)
        if phase == Phase.DECLARE:
            return legal_declare(seat)
        assert phase is Phase.SHOW
        return legal_show(seat)

    def play_rules(self, seat: int) -> LegalLeads | LegalPlays:
        """The engine's legal-play object for the seat to play in the current trick."""
        return _play_rules(self, seat)

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
        at all (typed ``object``, as :meth:`Legal.reason` [compiled build])."""
        trust = self._trust
        trusted = False
        if type(action) is Draw and id(action) in _DRAW_IDS and seat_is_int(action):
            pass  # made by only_draw: well-formed (unless its seat was changed since)
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
                play(self, action, trusted)
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
            draw_card(self)
        elif isinstance(action, Bid):
            place_bid(self, action)
        elif isinstance(action, Withdraw):
            withdraw_bid(self, action)
        elif isinstance(action, Pass):
            if self.phase == Phase.SHOW:
                pass_show(self)
            else:
                pass_bid(self)
        elif isinstance(action, Expose):
            expose(self, action)
        elif isinstance(action, Declare):
            declare(self, action)
        elif isinstance(action, Bury):
            bury(self, action)
        elif isinstance(action, Call):
            call(self, action)
        elif isinstance(action, Show):
            show(self)

    def _apply_draw(self, action: Draw) -> None:
        if self.track_undo:
            self._undo.append(self._copy())
        self.history.append(action)
        if self._legal:  # (most draws were never asked for a legal set: no new dict)
            self._legal = {}
        draw_card(self)

    def only_draw(self, seat: int) -> Draw | None:
        """During the deal, ``Draw(seat)`` when drawing is the only legal action of ``seat``
        (it is the drawer and can neither bid nor take a bid back), else ``None``; cheaper
        than listing :meth:`legal`."""
        if self.phase is not _DEAL or seat != self.drawer or _can_bid(self, seat):
            return None
        return draw_action(seat)

    def can_bid(self, seat: int) -> bool:
        """Whether ``seat`` may bid now or take its standing bid back: whether
        :meth:`legal` holds a :class:`~shengji.game.actions.Bid` or a
        :class:`~shengji.game.actions.Withdraw` for it (during the deal any seat may, in
        the bidding after it or after the kitty only the seat whose turn it is); cheaper
        than listing :meth:`legal`, the answer being kept until the bids or the seat's
        cards that can be shown in a bid change. ``False`` for a seat not at the table."""
        return _can_bid(self, seat)

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

    # -- views -----------------------------------------------------------------------

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know now: its own hand and everything public."""
        return _VIEW_OF(self, seat)

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

