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
                                overbid, call, show, play, done), one-hot
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

from shengji.engine.rules import Rules
from shengji.engine.trump import Trump
from shengji.game.round import Phase, Round

from .core import KINDS, Game

PHASES = tuple(Phase)
_PHASE_INDEX = {phase: i for i, phase in enumerate(PHASES)}
_KIND_INDEX = {kind: i for i, kind in enumerate(KINDS)}


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
    out: dict[str, tuple[int, int]] = {}
    at = 0
    for name, size in sizes.items():
        out[name] = (at, size)
        at += size
    return out


class Encoder:
    """Encodes one seat's view of a :class:`~.core.Game` (public parts cached per
    position, so building an action card by card re-encodes only the selection)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.blocks = layout(rules)
        last = list(self.blocks.values())[-1]
        self.size = last[0] + last[1]
        self._cache: dict[int, NDArray[np.float32]] = {}
        self._key = -1
        self._round: Round | None = None
        self._played_abs = np.zeros((rules.players, 54), dtype=np.float32)
        self._tricks_seen = 0
        self._trump: Trump | None = None
        self._trump_row = np.zeros(54, dtype=np.float32)

    def encode(self, game: Game, seat: int) -> NDArray[np.float32]:
        """The observation of ``seat``."""
        key = game.version
        if key != self._key:
            self._cache = {}
            self._key = key
        base = self._cache.get(seat)
        if base is None:
            base = self._cache[seat] = self._public(game, seat)
        obs = base.copy()
        d = game.decision
        if d is not None and d.seat == seat:
            at = self.blocks["decision"][0]
            obs[at + _KIND_INDEX[d.kind]] = 1.0
            if d.selector is not None and d.selector.cards:
                at = self.blocks["selection"][0]
                for card in d.selector.cards:
                    obs[at + card] += 1.0
            if d.kind == "call":
                self._calls(obs, [(c, False) for c in d.calls], d.ordinal, d.colour)
        else:
            obs[self.blocks["decision"][0]] = 1.0
        return obs

    def _played(self, game: Game) -> NDArray[np.float32]:
        """The cards each seat played in the finished tricks of the round (absolute seats),
        brought up to date trick by trick."""
        rnd = game.round
        if rnd is not self._round:
            self._round = rnd
            self._played_abs = np.zeros((self.rules.players, 54), dtype=np.float32)
            self._tricks_seen = 0
        played = self._played_abs
        for record in rnd.tricks[self._tricks_seen:]:
            for play in record.plays:
                row = played[play.seat]
                for card in play.cards:
                    row[card] += 1.0
        self._tricks_seen = len(rnd.tricks)
        return played

    def _public(self, game: Game, seat: int) -> NDArray[np.float32]:
        rnd = game.round
        n = self.rules.players
        blocks = self.blocks
        obs = np.zeros(self.size, dtype=np.float32)
        order = [(seat + k) % n for k in range(n)]  # relative index k -> absolute seat
        where = {s: k for k, s in enumerate(order)}  # absolute seat -> relative index

        obs[blocks["phase"][0] + _PHASE_INDEX[rnd.phase]] = 1.0
        at = blocks["hand"][0]
        obs[at:at + 54] = rnd.hands[seat].counts
        at = blocks["levels"][0]
        obs[at:at + n] = [rnd.levels[s] for s in order]
        at = blocks["dealer"][0]
        obs[at + (where[rnd.dealer] if rnd.dealer is not None else n)] = 1.0
        trump = rnd.trump
        at = blocks["trump"][0]
        if trump is not None:
            obs[at + (int(trump.rank) - 2 if trump.rank is not None else 13)] = 1.0
            obs[at + 14 + (int(trump.suit) if trump.suit is not None else 4)] = 1.0
            obs[at + 19] = 1.0
            at = blocks["trump_cards"][0]
            if self._trump is not trump:
                self._trump = trump
                self._trump_row = np.array([s == 4 for s in trump.suit_index], np.float32)
            obs[at:at + 54] = self._trump_row
        at = blocks["bids"][0]
        for bid in rnd.bidding.bids:
            row = at + where[bid.seat] * 54
            obs[row:row + 54] = 0.0
            for card in bid.cards:
                obs[row + card] += 1.0
        winner = rnd.bidding.winner
        obs[at + n * 54 + (where[winner.seat] if winner is not None else n)] = 1.0
        at = blocks["exposed"][0]
        for s, cards in enumerate(rnd.exposed):
            for card in cards:
                obs[at + where[s] * 54 + card] += 1.0
        if rnd.kitty_owner == seat:
            at = blocks["kitty"][0]
            for card in rnd.kitty:
                obs[at + card] += 1.0
        at = blocks["turned"][0]
        for card in rnd.kitty_turned:
            obs[at + card] += 1.0
        at = blocks["played"][0]
        obs[at:at + n * 54] = self._played(game)[order].ravel()
        trick = rnd.trick
        tat = blocks["trick"][0]
        if trick is not None and rnd.phase == Phase.PLAY:
            for play in trick.plays:
                k = where[play.seat] * 54
                for card in play.cards:
                    obs[at + k + card] += 1.0
                    obs[tat + k + card] += 1.0
            obs[tat + n * 54 + where[trick.leader]] = 1.0
        else:
            obs[tat + n * 54 + n] = 1.0
        at = blocks["captured"][0]
        obs[at:at + n] = [rnd.captured[s] for s in order]
        tracker = rnd.tracker
        if tracker is not None:
            self._calls(obs, list(zip(tracker.calls, tracker.done, strict=True)), None, None)
            at = blocks["friends"][0]
            for s in tracker.friends:
                obs[at + where[s]] = 1.0
        at = blocks["sizes"][0]
        obs[at:at + n] = [len(rnd.hands[s]) for s in order]
        dealt = len(rnd.deck) - self.rules.kitty_size
        obs[at + n] = max(0, dealt - rnd.next_card) if rnd.phase == Phase.DEAL else 0
        obs[at + n + 1] = len(rnd.tricks)
        return obs

    def _calls(self, obs: NDArray[np.float32], calls: list[tuple[object, bool]],
               ordinal: int | None, colour: str | None) -> None:
        """Write friend calls (and a call in progress) into the ``calls`` block."""
        from shengji.engine.friends import FriendCall

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
