"""The environment's game driver: action ids, decisions built id by id, rewards.

:class:`Game` runs a :class:`~shengji.game.match.Match` for the environments
(:mod:`shengji.env.aec`, :mod:`shengji.env.single`). It needs no numpy: the
observation encoding lives in :mod:`shengji.env.encoding`.

**Action ids** (one ``Discrete`` space, :class:`Layout`): ``0..53`` a card (the engine's
card index: ``2C 3C .. AC 2D .. AS SJ BJ``), ``54`` done, ``55`` pass (also "no bid now"
during the deal), ``56`` withdraw, ``57`` show, ``58..62`` declare C, D, H, S, NT, then
the ordinals ``1st..`` of friend calls (``2 × decks`` of them), the colours black and
red, and the ranks 2..A. Multi-card actions (bids, exposures, buries, leads, follows) are
built card by card; ``done`` ends one where it may stop. A selection is submitted without
it only where its size is public (a follow or bury of the full size, an exposure of the
most cards, a lead of the whole hand, a bid of ``decks`` copies), so that the steps a
seat takes tell the others nothing about its hand (``turns="hand"``: wherever no card
can join it). A friend call is an ordinal then a card (``ordinal`` calls) or an ordinal,
a colour and a rank.

**Turns reveal nothing** (``turns="public"``, the default): which seat is asked, and
when, depends only on public information and the seats' own choices, never on a hidden
card. Cards are drawn automatically; a seat's knowledge changes during the deal only when
it draws or when somebody bids or withdraws, so it is asked then: after each of its own
draws, and (in seat order from the bidder's left) after another seat's bid or withdrawal,
every seat that the public state lets bid (the bidding, the rules and its number of
cards: :meth:`Game.may_bid`) gets a *bid window*: build a bid, withdraw, or ``pass`` (no
bid now), whether or not its hand holds a bid. After the deal the bidding goes round as in
the round itself. Where the rules let a seat show its hand for a redeal
(``redeal_show``), every seat is asked in turn from the dealer (show, where its hand
qualifies, or pass), not only the seats whose hands qualify. ``turns="hand"`` asks only
the seats whose hands can bid or show (fewer steps, as the engine itself asks), but then
the turn order tells every seat who holds a bid card or qualifies to show: for experiments
that do not care about that leak only.

**Rewards**, given when a round ends to every seat at once (in Finding Friends too, when
the sides are final; never at a friend's reveal): a seat's levels gained in the round
minus the average levels gained by the seats of the other side (so ``±change`` for a
fixed team, shared by both partners; ``0`` for a redeal). With ``shaping = w`` the
attackers also get ``+w × points / target`` and the declarers ``-w × points / target``
for the attackers' points: after each trick they win with fixed partnerships (the rest,
kitty and penalties, at the round's end); at the round's end in Finding Friends.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import index

from shengji.engine.caches import remember
from shengji.engine.cards import ALL_CARDS, Card, Rank, Suit
from shengji.engine.friends import FriendCall
from shengji.engine.lead import LegalLeads
from shengji.engine.rules import (
    FriendCalls,
    Partnership,
    RedealShow,
    Rules,
    TrumpChoice,
)
from shengji.game.actions import (
    Action,
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
)
from shengji.game.deal import Deal, pack_counts
from shengji.game.legal import Legal
from shengji.game.match import Match, never_ends
from shengji.game.phase import Phase
from shengji.game.round import Round
from shengji.game.scoresheet import RoundResult
from shengji.players.base import Player
from shengji.players.table import decide

from .selection import (
    OptionsSelector,
    Selector,
)

DONE, PASS, WITHDRAW, SHOW = 54, 55, 56, 57
DECLARE = 58
"""``58..62``: declare clubs, diamonds, hearts, spades, no-trump."""
ORDINAL = 63
"""The first ordinal id (1st); ``2 × decks`` of them."""

TURNS = ("public", "hand")
"""The ``turns`` options: who is asked during the deal and the show phase."""

KINDS = ("none", "bid-window", "bid", "overbid", "expose", "declare", "bury", "call",
         "show", "lead", "follow")
"""The kinds of decision, in the order of the observation's one-hot."""



def as_action_id(value: object) -> int:
    """``value`` as an action id: an integer (Python's or numpy's), else ``ValueError``
    (a float or text is never read as an id)."""
    if isinstance(value, bool):
        raise ValueError(f"an action id is an integer, got {value!r}")
    try:
        return index(value)  # type: ignore[arg-type]
    except TypeError:
        kind = "None" if value is None else type(value).__name__
        raise ValueError(f"an action id is an integer, got {kind}") from None


class Layout:
    """The action ids for one set of rules (their number depends on the decks only)."""

    def __init__(self, rules: Rules) -> None:
        self.ordinals = 2 * rules.decks
        self.colour = ORDINAL + self.ordinals
        """Ids of the colours black, red."""
        self.rank = self.colour + 2
        """Ids of the ranks 2..A (13)."""
        self.size = self.rank + 13

    def describe(self, action_id: int) -> str:
        """The id in words, e.g. ``card AS``, ``done``, ``ordinal 2``."""
        if 0 <= action_id < 54:
            return f"card {ALL_CARDS[action_id]}"
        names = {DONE: "done", PASS: "pass", WITHDRAW: "withdraw", SHOW: "show"}
        if action_id in names:
            return names[action_id]
        if DECLARE <= action_id < ORDINAL:
            return "declare " + ("C", "D", "H", "S", "NT")[action_id - DECLARE]
        if ORDINAL <= action_id < self.colour:
            return f"ordinal {action_id - ORDINAL + 1}"
        if self.colour <= action_id < self.rank:
            return ("colour black", "colour red")[action_id - self.colour]
        if self.rank <= action_id < self.size:
            return f"rank {Rank(action_id - self.rank + 2)}"
        raise ValueError(f"there is no action id {action_id} (ids are 0..{self.size - 1})")


class Decision:
    """One seat's decision in progress: its kind, the simple ids allowed (while nothing is
    chosen) and the selection built so far."""

    __slots__ = ("_legal", "_round", "calls", "colour", "idle", "ids", "kind", "ordinal",
                 "seat", "selector", "simple", "step", "valid_calls")

    def __init__(self, seat: int, kind: str, rnd: Round, legal: Legal | None = None, *,
                 simple: dict[int, Action] | None = None,
                 selector: Selector | None = None, idle: bool = False) -> None:
        self.seat = seat
        self.kind = kind
        self.idle = idle
        """True when the round does not wait for this seat (a bid window, a show turn the
        round skips): ``pass`` then changes nothing in the round."""
        self._round = rnd
        self._legal = legal
        self.simple: dict[int, Action] = {} if simple is None else simple
        self.selector = selector
        self.calls: list[FriendCall] = []
        self.ordinal: int | None = None
        self.colour: str | None = None
        self.valid_calls: frozenset[FriendCall] = frozenset()
        self.step = 0
        """Ids taken in this decision so far."""
        self.ids: list[int] | None = None
        """The ids allowed now, once computed (cleared by every id taken)."""

    @property
    def legal(self) -> Legal:
        """The engine's legal actions of the seat at this decision."""
        if self._legal is None:
            self._legal = self._round.legal(self.seat)
        return self._legal

    @property
    def started(self) -> bool:
        """True once a card (or part of a call) was chosen: simple ids are closed."""
        return bool(self.selector is not None and self.selector.cards) or bool(
            self.calls) or self.ordinal is not None

    def __repr__(self) -> str:
        chosen = " ".join(map(str, self.selector.cards)) if self.selector is not None else ""
        return f"Decision(seat={self.seat}, kind={self.kind!r}, chosen={chosen!r})"


_BUILT: dict[str, Callable[[int, tuple[Card, ...]], Action]] = {
    "bid-window": Bid, "bid": Bid, "overbid": Bid, "expose": Expose, "bury": Bury,
    "lead": Play, "follow": Play}
"""The action a selection of cards makes, per kind of decision."""

_PLAYING = (Phase.SHOW, Phase.PLAY)
"""The phases after the trump, the kitty and the calls are settled."""


class Game:
    """A match driven by action ids, one decision at a time.

    ``bots`` maps seats to players (:mod:`shengji.players`) that act on their own; the
    other seats decide through :meth:`step`. ``rounds`` limits an episode (``None``: the
    whole match). ``turns`` says who is asked during the deal and the show phase:
    ``"public"`` (an order that reveals no hidden card) or ``"hand"`` (the seats whose
    hands can act; see the module's description)."""

    def __init__(self, rules: Rules, *, rounds: int | None = 1, shaping: float = 0.0,
                 bots: dict[int, Player] | None = None, turns: str = "public") -> None:
        endless = never_ends(rules, "rounds")
        if rounds is None and endless:
            raise ValueError(endless)
        if rounds is not None and rounds < 1:
            raise ValueError(f"rounds must be at least 1 (or None: the whole match), got "
                             f"{rounds}")
        if turns not in TURNS:
            raise ValueError(f"turns must be {' or '.join(map(repr, TURNS))}, got {turns!r}")
        self.turns = turns
        self._public = turns == "public"
        self.rules = rules
        self.layout = Layout(rules)
        self.rounds = rounds
        self.shaping = shaping
        self.bots = dict(bots or {})
        self.n = rules.players
        self.match: Match | None = None
        self.decision: Decision | None = None
        self.windows: list[int] = []
        """Seats still to get a bid window during the deal, in order."""
        self.shows: list[int] = []
        """Seats still to be asked whether they show their hand for a redeal, in order."""
        self.rewards = [0.0] * self.n
        """Rewards since :meth:`take_rewards` was last called, per seat."""
        self.rewarded = False
        """True when :attr:`rewards` may hold something since :meth:`take_rewards`."""
        self._shaped = 0.0  # attackers' shaping given so far this round
        self.version = 0
        """Counts the actions applied (and resets)."""
        self._draws = [Draw(s) for s in range(self.n)]
        self._passes = [Pass(s) for s in range(self.n)]
        self._plays: dict[int, Play] = {}
        """Plays of one card, made once per seat and card (actions are immutable)."""
        self._fewest: tuple[Round | None, int, list[int]] = (None, -1, [])
        self._fewest_known: dict[tuple[object, ...], list[int]] = {}

    # -- the episode -------------------------------------------------------------------

    def reset(self, seed: int, deal: Deal | None = None) -> None:
        """Start a new episode (a match cut after ``rounds`` rounds) from ``seed``;
        ``deal`` gives the first round's cards (:class:`~shengji.game.deal.DealError` if
        they do not fit the rules)."""
        self.match = Match(self.rules, seed=seed, max_rounds=self.rounds, deal=deal)
        self.version += 1
        self.decision = None
        self.windows = []
        self.shows = []
        self.rewards = [0.0] * self.n
        self.rewarded = False
        self._shaped = 0.0
        self._advance()

    @property
    def round(self) -> Round:
        """The round in play."""
        if self.match is None:
            raise RuntimeError("no episode yet: call reset() first")
        return self.match.round

    @property
    def over(self) -> bool:
        """True when the episode has ended."""
        return self.match is None or self.match.is_over

    @property
    def showing(self) -> bool:
        """True while seats are asked whether they show for a redeal though the round has
        gone on to the play (no seat left whose hand may show): the seats are shown the
        show phase until the last is asked."""
        d = self.decision
        return d is not None and d.kind == "show" and d.idle and (
            self.round.phase is Phase.PLAY)

    @property
    def seat(self) -> int | None:
        """The seat to decide now (``None`` when the episode is over)."""
        return None if self.decision is None else self.decision.seat

    def take_rewards(self) -> list[float]:
        """The rewards since the last call, per seat, and reset them."""
        out, self.rewards = self.rewards, [0.0] * self.n
        self.rewarded = False
        return out

    # -- ids ---------------------------------------------------------------------------

    def allowed(self) -> list[int]:
        """The ids allowed now for the deciding seat (empty when the episode is over)."""
        d = self.decision
        if d is None:
            return []
        ids = d.ids
        if ids is None:
            ids = d.ids = self._compute_allowed(d)
        return list(ids)

    def mask(self, seat: int) -> bytearray:
        """The allowed ids of ``seat`` as one byte per id (1 allowed; all 0 when it is not
        deciding)."""
        out = bytearray(self.layout.size)
        d = self.decision
        if d is not None and d.seat == seat:
            ids = d.ids
            if ids is None:
                ids = d.ids = self._compute_allowed(d)
            for i in ids:
                out[i] = 1
        return out

    def _compute_allowed(self, d: Decision) -> list[int]:
        if d.kind == "call":
            return self._call_ids(d)
        selector = d.selector
        ids: list[int] = [] if selector is None else list(map(index, selector.addable()))
        if d.simple and not d.started:
            ids.extend(d.simple)
            ids.sort()
        elif selector is not None and selector.cards and selector.complete():
            ids.append(DONE)
        return ids

    def step(self, action_id: int) -> None:
        """Act with one id; raise ``ValueError`` (changing nothing) if it is not allowed."""
        action_id = as_action_id(action_id)
        d = self.decision
        if d is None:
            raise ValueError("the episode is over: call reset()")
        allowed = d.ids
        if allowed is None:
            allowed = d.ids = self._compute_allowed(d)
        if action_id not in allowed:
            raise ValueError(
                f"action id {action_id} is not allowed now (seat {d.seat}, {d.kind}); "
                f"allowed: {', '.join(self.layout.describe(i) for i in allowed)}")
        d.step += 1
        d.ids = None
        if d.kind == "call":
            self._call_step(d, action_id)
            return
        if d.idle and action_id == PASS:  # nothing happens in the round
            if d.kind == "bid-window":
                self.windows.pop(0)
            self.decision = None
            self._advance()
            return
        selector = d.selector
        if selector is None or (action_id >= DONE and not selector.cards):
            self._act(d.simple[action_id])
            return
        if action_id != DONE:
            selector.add(ALL_CARDS[action_id])
            ids = self._compute_allowed(d)
            if ids and (ids[0] < DONE or not self._ends_alone(d, selector.cards)):
                d.ids = ids  # a card may still be added, or done must end it
                return
        cards = selector.cards
        if len(cards) == 1 and d.kind in ("lead", "follow"):
            key = d.seat * 54 + cards[0]
            play = self._plays.get(key)
            if play is None:
                play = self._plays[key] = Play(d.seat, (cards[0],))
            self._act(play)
            return
        self._act(_BUILT[d.kind](d.seat, tuple(cards)))

    def action_ids(self, action: Action) -> list[int]:
        """The ids that make ``action`` at the current decision, cards in the order given
        (``done`` where the selection is not submitted by itself)."""
        d = self.decision
        if d is None:
            return []
        for action_id, simple in d.simple.items():
            if simple == action:
                return [action_id]
        if isinstance(action, Call):
            ids: list[int] = []
            for call in action.calls:
                ids.append(ORDINAL + call.ordinal - 1)
                if call.card is not None:
                    ids.append(int(call.card))
                else:
                    assert call.colour is not None and call.rank is not None
                    ids.append(self.layout.colour + (call.colour == "red"))
                    ids.append(self.layout.rank + int(call.rank) - 2)
            return ids
        cards: tuple[Card, ...] = getattr(action, "cards", ())
        ids = [int(c) for c in cards]
        if d.selector is not None:
            trial = d.selector.clone()
            for card in cards:
                trial.add(card)
            if trial.addable() or not self._ends_alone(d, trial.cards):
                ids.append(DONE)
        return ids

    def _ends_alone(self, d: Decision, cards: Sequence[Card]) -> bool:
        """Whether a selection that no card can join is submitted without ``done``.

        With ``turns="public"`` only where its size is public (a follow, a bury, an
        exposure of the most cards, a lead of the whole hand, a bid of as many copies as
        may be shown), so that the steps a seat takes never tell the others whether its
        hand could have added a card (another card of the suit led, another copy of the
        card bid); with ``turns="hand"`` always."""
        kind = d.kind
        if not self._public or kind in ("follow", "bury", "expose"):
            return True
        if kind == "lead":
            return len(cards) == len(self.round.hands[d.seat])
        rules = self.rules
        return len(cards) >= min(rules.decks, pack_counts(rules)[cards[0]])

    # -- driving the match -------------------------------------------------------------

    def _act(self, action: Action) -> None:
        """Apply a seat's built action, then go on to the next decision."""
        self._apply(action)
        self._advance()

    def _apply(self, action: Action) -> None:
        match = self.match
        assert match is not None
        rnd = match.round
        tricks = len(rnd.tricks)
        phase = rnd.phase
        self.decision = None
        result = match.apply(action)
        self.version += 1
        if phase is Phase.DEAL:
            self._after_deal_action(rnd, action)
        elif (result is None and phase not in _PLAYING and rnd.phase in _PLAYING
              and rnd.rules.redeal_show != RedealShow.OFF):
            self._ask_shows(rnd)
        if self.shaping and rnd.rules.partnership == Partnership.FIXED and len(
                rnd.tricks) > tricks:
            record = rnd.tricks[-1]
            if record.winner not in rnd.declarers and record.points:
                self._shape(rnd.declarers, record.points)
        if result is not None:
            self.shows = []
            self._score(result)

    def _ask_shows(self, rnd: Round) -> None:
        """The round reached the showing for a redeal (or skipped it): every seat is asked
        in turn from the dealer (``turns="public"``), or only those the round asks."""
        if not self._public:
            return  # the round's own show queue
        dealer = rnd.dealer
        assert dealer is not None
        self.shows = [(dealer + k) % self.n for k in range(self.n)]

    def _after_deal_action(self, rnd: Round, action: Action) -> None:
        """Open bid windows: for the drawer after its draw, for the others after a bid."""
        if rnd.phase is not Phase.DEAL:
            self.windows = []
            return
        seat = action.seat
        asks = self.may_bid if self._public else self._can_bid
        if type(action) is Draw:
            if seat not in self.bots and asks(rnd, seat):
                self.windows.append(seat)
        elif isinstance(action, Bid | Withdraw):
            order = [(seat + k) % self.n for k in range(1, self.n)]
            self.windows = [s for s in order if s not in self.bots and asks(rnd, s)]

    def may_bid(self, rnd: Round, seat: int) -> bool:
        """True when the public state lets ``seat`` bid or withdraw now, during the deal:
        some bid the bidding would accept from it fits in its number of cards, or it may
        take its standing bid back. It never depends on a hidden card, and it is True
        whenever the seat's hand has a bid: it opens the bid windows of
        ``turns="public"``."""
        rules = rnd.rules
        if rules.trump_choice == TrumpChoice.DEALER:
            return False
        bidding = rnd.bidding
        if rules.bid_withdraw:
            winner = bidding.winner
            if winner is not None and winner.seat == seat:
                return True
        state = self._fewest
        if state[0] is not rnd or state[1] != bidding.version:
            state = self._fewest = (rnd, bidding.version, self._fewest_cards(rnd))
        return 0 < state[2][seat] <= len(rnd.hands[seat])

    def _fewest_cards(self, rnd: Round) -> list[int]:
        """Per seat, the fewest cards of a bid the bidding accepts now from it, whatever
        cards it holds (its options with the whole pack in hand; ``0``: none). The
        answer depends only on the rules, the seats' ranks and the bids standing, so it
        is kept for bids seen before."""
        bidding, rules = rnd.bidding, rnd.rules
        key = (rules, bidding.ranks, bidding.teams, bidding.eligible, bidding.shown)
        fewest = self._fewest_known.get(key)
        if fewest is None:
            pack = pack_counts(rules)
            fewest = [min((len(bid.cards) for bid in bidding.options(seat, pack)), default=0)
                      for seat in range(self.n)]
            remember(self._fewest_known, key, fewest, 4096)
        return fewest

    def _can_bid(self, rnd: Round, seat: int) -> bool:
        """True when ``seat``'s hand may bid or withdraw now (:meth:`Round.can_bid`)."""
        return rnd.can_bid(seat)

    def _advance(self) -> None:
        """Play automatic actions (draws, bots) until a seat must decide."""
        match = self.match
        assert match is not None
        bots = self.bots
        while not match.is_over:
            rnd = match.round
            if self.shows:
                seat = self.shows.pop(0)
                asked = rnd.phase is Phase.SHOW and rnd.show_queue[0] == seat
                bot = bots.get(seat)
                if bot is not None:
                    if asked:
                        self._apply(decide(match, seat, bot))
                    continue
                if not asked:  # its hand may not show: it is asked all the same
                    self.decision = Decision(seat, "show", rnd,
                                             simple={PASS: self._passes[seat]}, idle=True)
                    return
                if self._start(rnd, seat, window=False):
                    return
                continue
            if rnd.phase is Phase.DEAL:
                if self.windows:
                    seat = self.windows[0]
                    if self._start(rnd, seat, window=True):
                        return
                    continue
                drawer = rnd.drawer
                bot = bots.get(drawer)
                if bot is not None:
                    self._apply(decide(match, drawer, bot))
                else:
                    self._draw(match, rnd)
                continue
            mover = rnd.to_move
            assert mover is not None
            bot = bots.get(mover)
            if bot is not None:
                self._apply(decide(match, mover, bot))
                continue
            if self._start(rnd, mover, window=False):
                return
        self.decision = None

    def _draw(self, match: Match, rnd: Round) -> None:
        """Draw for the seats the driver plays until one may bid, a bot is to draw or the
        deal ends (:meth:`_apply` for draws, without what a draw cannot do)."""
        bots, draws = self.bots, self._draws
        drawer = rnd.drawer
        while True:
            result = match.apply(draws[drawer])
            assert result is None, "a draw never ends a round"
            self.version += 1
            if rnd.phase is not Phase.DEAL:
                self.windows = []
                return
            if self.may_bid(rnd, drawer) if self._public else self._can_bid(rnd, drawer):
                self.windows.append(drawer)
                return
            drawer = rnd.drawer
            if drawer in bots:
                return

    def _start(self, rnd: Round, seat: int, *, window: bool) -> bool:
        """Set up ``seat``'s decision; False if it was made at once (nothing to choose)."""
        phase = rnd.phase
        d: Decision
        legal: Legal
        if phase is Phase.PLAY:
            legal = rnd.legal(seat)
            kind = "lead" if type(legal.plays) is LegalLeads else "follow"
            d = Decision(seat, kind, rnd, legal, selector=legal.selector())
        elif window and not self._can_bid(rnd, seat):  # asked though its hand has no bid
            d = Decision(seat, "bid-window", rnd, simple={PASS: self._passes[seat]},
                         selector=OptionsSelector(rnd.hands[seat].counts, ()), idle=True)
        elif phase in (Phase.DEAL, Phase.BID, Phase.OVERBID):
            legal = rnd.legal(seat)
            d = Decision(seat, "bid-window" if window else str(phase), rnd, legal, idle=window)
            for action in legal:
                if isinstance(action, Withdraw):
                    d.simple[WITHDRAW] = action
                elif isinstance(action, Pass):
                    d.simple[PASS] = action
            if window:
                d.simple[PASS] = self._passes[seat]  # no bid now: handled by the driver
            d.selector = legal.selector()  # among the bids listed
        elif phase is Phase.EXPOSE:  # up to legal.expose_limit cards
            legal = rnd.legal(seat)
            d = Decision(seat, "expose", rnd, legal, selector=legal.selector(),
                         simple={DONE: Expose(seat, ())})
        elif phase is Phase.DECLARE:
            d = Decision(seat, "declare", rnd, simple={
                DECLARE + i: Declare(seat, suit) for i, suit in enumerate((*Suit, None))})
        elif phase is Phase.KITTY:
            legal = rnd.legal(seat)
            assert legal.bury is not None
            d = Decision(seat, "bury", rnd, legal, selector=legal.selector())
            if legal.bury.size == 0:
                d.simple[DONE] = Bury(seat, ())
        elif phase is Phase.CALL:
            d = Decision(seat, "call", rnd)
            d.valid_calls = frozenset(d.legal.calls)  # every single call allowed
        else:
            assert phase is Phase.SHOW, phase
            d = Decision(seat, "show", rnd, simple={SHOW: Show(seat), PASS: Pass(seat)})
        self.decision = d
        if DONE in d.simple and self.allowed() == [DONE]:  # nothing to choose: made at once
            self._apply(d.simple[DONE])
            return False
        return True

    # -- friend calls ------------------------------------------------------------------

    def _call_ids(self, d: Decision) -> list[int]:
        layout = self.layout
        valid = d.valid_calls.difference(d.calls)  # each call of a set a different one
        if d.ordinal is None:
            return sorted({ORDINAL + c.ordinal - 1 for c in valid})
        if self.rules.friend_calls == FriendCalls.ORDINAL:
            return sorted(int(c.card) for c in valid if c.ordinal == d.ordinal
                          and c.card is not None)
        if d.colour is None:
            return sorted({layout.colour + (c.colour == "red") for c in valid
                           if c.ordinal == d.ordinal})
        return sorted({layout.rank + int(c.rank) - 2 for c in valid
                       if c.ordinal == d.ordinal and c.colour == d.colour
                       and c.rank is not None})

    def _call_step(self, d: Decision, action_id: int) -> None:
        layout = self.layout
        if d.ordinal is None:
            d.ordinal = action_id - ORDINAL + 1
            return
        if self.rules.friend_calls == FriendCalls.ORDINAL:
            call = FriendCall(d.ordinal, card=ALL_CARDS[action_id])
        elif d.colour is None:
            d.colour = ("black", "red")[action_id - layout.colour]
            return
        else:
            call = FriendCall(d.ordinal, colour=d.colour, rank=Rank(action_id - layout.rank + 2))
        d.calls.append(call)
        d.ordinal = d.colour = None
        if len(d.calls) == self.rules.friend_count:
            self._act(Call(d.seat, tuple(d.calls)))

    # -- rewards -----------------------------------------------------------------------

    def _shape(self, declarers: Sequence[int], points: int) -> None:
        value = self.shaping * points / self.rules.target_points
        self.rewarded = True
        self._shaped += value
        for s in range(self.n):
            self.rewards[s] += -value if s in declarers else value

    def _score(self, result: RoundResult) -> None:
        shaped, self._shaped = self._shaped, 0.0
        self.rewarded = True
        if result.redeal:
            return
        sides = (tuple(result.declarers), tuple(result.opponents))
        gain = [result.levels[s] - result.levels_before[s] for s in range(self.n)]
        for own, other in (sides, sides[::-1]):
            against = sum(gain[s] for s in other) / len(other) if other else 0.0
            for s in own:
                self.rewards[s] += gain[s] - against
        if self.shaping:
            rest = self.shaping * result.points / self.rules.target_points - shaped
            for s in range(self.n):
                self.rewards[s] += -rest if s in result.declarers else rest
