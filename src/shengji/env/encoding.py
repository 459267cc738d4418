"""The observation: one seat's knowledge as a fixed-size ``float32`` vector.

Seats are *relative*: index ``k`` of a per-seat block is the seat ``k`` places after the
observer (``0`` is the observer itself). Cards are the engine's 54 card indices (``2C 3C ..
AC 2D .. AS SJ BJ``); a card block holds counts. The blocks, in order (:func:`layout`
gives their offsets for a set of rules; ``n`` = players, ``F`` = friends called, ``K`` =
``2 × decks`` ordinals):

=============  ===============  ==========================================================
block          size             content
=============  ===============  ==========================================================
phase          10               the round's phase (deal, bid, expose, declare, kitty,
                                overbid, call, show, play, done), one-hot; ``show``
                                while seats are still asked whether they show for a
                                redeal (:attr:`~.core.Game.showing`)
decision       11               what the observer is deciding (:data:`~.core.KINDS`), or
                                ``none`` when it is not its turn
hand           54               the observer's hand
selection      54               the cards chosen so far for the action being built
levels         n                each seat's level (2..14 = 2..A, 15 = no-trump level)
dealer         n + 1            the dealer, one-hot (last: not known yet)
trump          20               trump rank 2..A (13) + none, suit C D H S (4) + none,
                                trump known
trump_cards    54               1 for every card that is trump (once the trump is known)
bids           n × 54 + n + 1   each seat's latest standing bid; the winning bidder
                                (last: none)
exposed        n × 54           the cards each seat exposed (the Hundred)
kitty          54               the kitty, only for the seat holding it (the dealer, or
                                whoever took it by bidding after it), as in the views
turned         54               kitty cards turned up when nobody bid
played         n × 54           every card each seat has played this round
trick          n × 54 + n + 1   the current trick's plays; its leader (last: none)
captured       n                points each seat took in tricks
calls          F × (K+71)       each friend call: ordinal, card, colour, rank (13 + none),
                                and 1 once it is used up; while the dealer builds its
                                calls, the calls so far
friends        n                seats revealed as the dealer's friends
sizes          n + 2            cards in each hand; cards left to deal; tricks played
=============  ===============  ==========================================================

Nothing here depends on a card the observer may not see: other hands, the cards still to
deal and the kitty (unless the observer holds it) only enter through their
sizes. The tests check it by changing those cards and comparing observations.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from shengji.engine.friends import FriendCall
from shengji.engine.rules import Rules
from shengji.engine.trump import Trump
from shengji.game.actions import Bid, Draw, Pass, Withdraw
from shengji.game.phase import Phase
from shengji.game.round import Round

from .core import KINDS, Game
from .selection import suit_faces

PHASES = tuple(Phase)
_PHASE_INDEX = {phase: i for i, phase in enumerate(PHASES)}
_KIND_INDEX = {kind: i for i, kind in enumerate(KINDS)}
_BIDDING = (Phase.DEAL, Phase.BID)
"""The phases whose actions update observations in place (besides the play)."""
_BIDDING_ACTIONS = (Draw, Bid, Withdraw, Pass)


def layout(rules: Rules) -> dict[str, tuple[int, int]]:
    """The (offset, size) of every block of the observation for ``rules``."""
    n = rules.players
    calls = rules.friend_count * (2 * rules.decks + 54 + 2 + 14 + 1)
    sizes = {
        "phase": len(PHASES), "decision": len(KINDS), "hand": 54, "selection": 54,
        "levels": n, "dealer": n + 1, "trump": 20, "trump_cards": 54,
        "bids": n * 54 + n + 1, "exposed": n * 54, "kitty": 54, "turned": 54,
        "played": n * 54, "trick": n * 54 + n + 1, "captured": n, "calls": calls,
        "friends": n, "sizes": n + 2,
    }
    return blocks(sizes)


def blocks(sizes: dict[str, int]) -> dict[str, tuple[int, int]]:
    """The (offset, size) of each block of a vector made of blocks of ``sizes``, in order."""
    out: dict[str, tuple[int, int]] = {}
    at = 0
    for name, size in sizes.items():
        out[name] = (at, size)
        at += size
    return out


class _Synced:
    """How far one seat's observation has been brought: the round, its history length and
    phase, and the plays counted (finished tricks, plays of the current trick)."""

    __slots__ = ("friends", "history", "obs", "phase", "plays", "round", "tricks")

    def __init__(self, rnd: Round, obs: NDArray[np.float32], plays: int) -> None:
        self.round = rnd
        self.obs = obs
        self.history = len(rnd.history)
        self.phase = rnd.phase
        self.tricks = len(rnd.tricks)
        self.plays = plays
        self.friends: tuple[tuple[int, ...], tuple[bool, ...]] | None = None
        """The revealed friends and used-up calls written (Finding Friends)."""


class Encoder:
    """Encodes one seat's view of a :class:`~.core.Game`.

    Each seat's public part is kept and brought up to date with the actions taken since
    the seat was last encoded: draws, bids, withdrawals and passes (the deal and the
    bidding, and the deal's end) and plays change a few entries; any other action (the
    kitty, exposures, calls...), another new phase or a new round encodes the seat's view
    again from scratch. Building an action card by card changes only the selection."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.blocks = layout(rules)
        last = list(self.blocks.values())[-1]
        self.size = last[0] + last[1]
        n = rules.players
        self._order = [[(seat + k) % n for k in range(n)] for seat in range(n)]
        """Per observer: relative index -> absolute seat."""
        self._where = [[(s - seat) % n for s in range(n)] for seat in range(n)]
        """Per observer: absolute seat -> relative index."""
        self._synced: list[_Synced | None] = [None] * n
        self._trump: Trump | None = None
        self._trump_row = np.zeros(54, dtype=np.float32)
        """The ``trump_cards`` block of the last trump seen."""
        b = self.blocks
        self._at = {name: b[name][0] for name in b}

    def encode(self, game: Game, seat: int, *, decider: bool = False
               ) -> NDArray[np.float32]:
        """The observation of ``seat`` (a new array). With ``decider`` the decision, the
        selection and the friend call in progress are those of the seat deciding, whoever
        it is (for the global state, :mod:`shengji.env.state`: never an observation)."""
        obs = self._base(game, seat).copy()
        d = game.decision
        at = self._at
        if d is not None and (d.seat == seat or decider):
            obs[at["decision"] + _KIND_INDEX[d.kind]] = 1.0
            if d.selector is not None and d.selector.cards:
                sel = at["selection"]
                for card in d.selector.cards:
                    obs[sel + card] += 1.0
            if d.kind == "call":
                self._calls(obs, [(c, False) for c in d.calls], d.ordinal, d.colour)
        else:
            obs[at["decision"]] = 1.0
        if game.showing:  # the round already plays: shown as the show phase it was
            n = self.rules.players
            obs[at["phase"] + _PHASE_INDEX[Phase.PLAY]] = 0.0
            obs[at["phase"] + _PHASE_INDEX[Phase.SHOW]] = 1.0
            leader = at["trick"] + n * 54
            obs[leader:leader + n + 1] = 0.0
            obs[leader + n] = 1.0
        return obs

    def _base(self, game: Game, seat: int) -> NDArray[np.float32]:
        """The seat's public part, brought up to date (kept: do not change it)."""
        rnd = game.round
        synced = self._synced[seat]
        if synced is None or synced.round is not rnd:
            return self._rebuild(rnd, seat)
        done = synced.history
        history = rnd.history
        if done == len(history):
            return synced.obs
        phase = rnd.phase
        if phase is not synced.phase:
            # the deal's last draw starts the bidding and changes nothing else shown
            if synced.phase is not Phase.DEAL or phase is not Phase.BID:
                return self._rebuild(rnd, seat)
            at = self._at["phase"]
            synced.obs[at + _PHASE_INDEX[Phase.DEAL]] = 0.0
            synced.obs[at + _PHASE_INDEX[Phase.BID]] = 1.0
            synced.phase = phase
        if phase is Phase.PLAY:  # nothing but plays happens in the play phase
            self._update_plays(rnd, seat, synced)
        elif phase in _BIDDING and all(
                type(history[k]) in _BIDDING_ACTIONS for k in range(done, len(history))):
            self._update_bidding(rnd, seat, synced)
        else:
            return self._rebuild(rnd, seat)
        synced.history = len(history)
        return synced.obs

    def _rebuild(self, rnd: Round, seat: int) -> NDArray[np.float32]:
        obs = self._public(rnd, seat)
        synced = self._synced[seat] = _Synced(rnd, obs, self._count_played(rnd, seat, obs))
        if rnd.tracker is not None:
            synced.friends = (rnd.tracker.friends, tuple(rnd.tracker.done))
        return obs

    def _sizes(self, rnd: Round, seat: int, obs: NDArray[np.float32]) -> None:
        """Cards in each hand, cards left to deal, tricks played."""
        n = self.rules.players
        at = self._at["sizes"]
        hands = rnd.hands
        for k, s in enumerate(self._order[seat]):
            obs[at + k] = len(hands[s])
        dealt = len(rnd.deck) - self.rules.kitty_size
        obs[at + n] = max(0, dealt - rnd.next_card) if rnd.phase is Phase.DEAL else 0
        obs[at + n + 1] = len(rnd.tricks)

    def _update_bidding(self, rnd: Round, seat: int, synced: _Synced) -> None:
        """Draws, bids, withdrawals and passes only since the last update (the deal and
        the bidding after it): the hand, the sizes, the bids and the dealer."""
        obs = synced.obs
        history = rnd.history
        drawn = mine = bids = False
        for k in range(synced.history, len(history)):
            action = history[k]
            kind = type(action)
            if kind is Draw:
                drawn = True
                mine = mine or action.seat == seat
            elif kind is not Pass:
                bids = True
        if mine:
            at = self._at["hand"]
            obs[at:at + 54] = rnd.hands[seat].counts
        if drawn:
            self._sizes(rnd, seat, obs)
        if bids:
            self._bids(rnd, seat, obs)

    def _bids(self, rnd: Round, seat: int, obs: NDArray[np.float32], *,
              fresh: bool = False) -> None:
        """Each seat's standing bid, the winning bidder and the dealer (``fresh``: the
        blocks are still zero)."""
        n = self.rules.players
        where = self._where[seat]
        at = self._at["bids"]
        dealer = self._at["dealer"]
        if not fresh:
            obs[at:at + n * 54 + n + 1] = 0.0
            obs[dealer:dealer + n + 1] = 0.0
        bids = rnd.bidding.bids
        latest = {bid.seat: bid for bid in bids}  # each seat's latest bid
        for s, bid in latest.items():
            row = at + where[s] * 54
            for card in bid.cards:
                obs[row + card] += 1.0
        winner = bids[-1].seat if bids else None
        obs[at + n * 54 + (where[winner] if winner is not None else n)] = 1.0
        obs[dealer + (where[rnd.dealer] if rnd.dealer is not None else n)] = 1.0

    def _update_plays(self, rnd: Round, seat: int, synced: _Synced) -> None:
        """Plays only since the last update: the played cards, the observer's hand, the
        hand sizes, the trick, the points taken, the friends, the tricks played."""
        obs = synced.obs
        where = self._where[seat]
        played, sizes, hand = self._at["played"], self._at["sizes"], self._at["hand"]
        tricks = rnd.tricks
        t, p = synced.tricks, synced.plays
        trick = rnd.trick
        assert trick is not None
        new = [play for record in tricks[t:] for play in record.plays]
        new = new[p:] + list(trick.plays if t < len(tricks) else trick.plays[p:])
        for play in new:
            k = where[play.seat]
            row = played + k * 54
            for card in play.cards:
                obs[row + card] += 1.0
            if k == 0:
                for card in play.cards:
                    obs[hand + card] -= 1.0
        hands = rnd.hands
        for k, s in enumerate(self._order[seat]):
            obs[sizes + k] = len(hands[s])
        tat = self._at["trick"]
        if t < len(tricks):  # the trick shown is over: show the current one
            n = self.rules.players
            obs[tat:tat + n * 54 + n + 1] = 0.0
            obs[tat + n * 54 + where[trick.leader]] = 1.0
            shown = trick.plays
            captured = self._at["captured"]
            for record in tricks[t:]:
                obs[captured + where[record.winner]] = rnd.captured[record.winner]
            obs[sizes + n + 1] = len(tricks)
        else:
            shown = trick.plays[p:]
        for play in shown:
            row = tat + where[play.seat] * 54
            for card in play.cards:
                obs[row + card] += 1.0
        synced.tricks, synced.plays = len(tricks), len(trick.plays)
        tracker = rnd.tracker
        if tracker is not None:
            friends = (tracker.friends, tuple(tracker.done))
            if friends != synced.friends:
                self._friends(rnd, seat, obs)
                synced.friends = friends

    def _friends(self, rnd: Round, seat: int, obs: NDArray[np.float32]) -> None:
        tracker = rnd.tracker
        assert tracker is not None
        self._calls(obs, list(zip(tracker.calls, tracker.done, strict=True)), None, None)
        at = self._at["friends"]
        n = self.rules.players
        obs[at:at + n] = 0.0
        where = self._where[seat]
        for s in tracker.friends:
            obs[at + where[s]] = 1.0

    def _count_played(self, rnd: Round, seat: int, obs: NDArray[np.float32]) -> int:
        """Write every card played this round into ``played`` (and the current trick into
        ``trick``); returns the plays of the current trick counted."""
        if rnd.phase is not Phase.PLAY and not rnd.tricks:
            return 0
        n = self.rules.players
        at = self._at["played"]
        where = self._where[seat]
        for record in rnd.tricks:
            for play in record.plays:
                row = at + where[play.seat] * 54
                for card in play.cards:
                    obs[row + card] += 1.0
        trick = rnd.trick
        tat = self._at["trick"]
        if trick is None or rnd.phase is not Phase.PLAY:
            return 0
        for play in trick.plays:
            k = where[play.seat] * 54
            for card in play.cards:
                obs[at + k + card] += 1.0
                obs[tat + k + card] += 1.0
        obs[tat + n * 54 + n] = 0.0
        obs[tat + n * 54 + where[trick.leader]] = 1.0
        return len(trick.plays)

    def _public(self, rnd: Round, seat: int) -> NDArray[np.float32]:
        """The seat's public part from scratch (the played cards and the trick aside:
        :meth:`_count_played`)."""
        n = self.rules.players
        at = self._at
        obs = np.zeros(self.size, dtype=np.float32)
        order = self._order[seat]
        where = self._where[seat]

        obs[at["phase"] + _PHASE_INDEX[rnd.phase]] = 1.0
        hand = at["hand"]
        obs[hand:hand + 54] = rnd.hands[seat].counts
        levels = at["levels"]
        for k, s in enumerate(order):
            obs[levels + k] = rnd.levels[s]
        self._bids(rnd, seat, obs, fresh=True)
        trump = rnd.trump
        if trump is not None:
            tr = at["trump"]
            obs[tr + (int(trump.rank) - 2 if trump.rank is not None else 13)] = 1.0
            obs[tr + 14 + (int(trump.suit) if trump.suit is not None else 4)] = 1.0
            obs[tr + 19] = 1.0
            if self._trump is not trump:
                self._trump = trump
                self._trump_row = np.zeros(54, dtype=np.float32)
                self._trump_row[list(suit_faces(trump)[4])] = 1.0
            cards = at["trump_cards"]
            obs[cards:cards + 54] = self._trump_row
        exposed = at["exposed"]
        for s, shown in enumerate(rnd.exposed):
            for card in shown:
                obs[exposed + where[s] * 54 + card] += 1.0
        if rnd.kitty_owner == seat:
            kitty = at["kitty"]
            for card in rnd.kitty:
                obs[kitty + card] += 1.0
        turned = at["turned"]
        for card in rnd.kitty_turned:
            obs[turned + card] += 1.0
        obs[at["trick"] + n * 54 + n] = 1.0  # no trick: :meth:`_count_played` may change it
        captured = at["captured"]
        for k, s in enumerate(order):
            if rnd.captured[s]:
                obs[captured + k] = rnd.captured[s]
        if rnd.tracker is not None:
            self._friends(rnd, seat, obs)
        self._sizes(rnd, seat, obs)
        return obs

    def _calls(self, obs: NDArray[np.float32], calls: list[tuple[object, bool]],
               ordinal: int | None, colour: str | None) -> None:
        """Write friend calls (and a call in progress) into the ``calls`` block."""
        at, size = self.blocks["calls"]
        if not size:
            return
        k = 2 * self.rules.decks
        width = k + 54 + 2 + 14 + 1
        obs[at:at + size] = 0.0
        for i, (call, done) in enumerate(calls):
            assert isinstance(call, FriendCall)
            row = at + i * width
            obs[row + call.ordinal - 1] = 1.0
            if call.card is not None:
                obs[row + k + call.card] = 1.0
                obs[row + k + 56 + 13] = 1.0
            else:
                assert call.rank is not None
                obs[row + k + 54 + (call.colour == "red")] = 1.0
                obs[row + k + 56 + int(call.rank) - 2] = 1.0
            obs[row + width - 1] = float(done)
        if ordinal is not None and len(calls) < self.rules.friend_count:
            row = at + len(calls) * width
            obs[row + ordinal - 1] = 1.0
            if colour is not None:
                obs[row + k + 54 + (colour == "red")] = 1.0
