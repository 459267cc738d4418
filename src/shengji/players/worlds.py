"""Sampled worlds: concrete rounds consistent with everything one seat knows.

A search player cannot look at the hidden cards, so it imagines them: it deals the
cards it has not seen to the other hands (and to the kitty or the undealt pack) at
random, under what the seat has seen:

- its own hand, every card played, the kitty if it buried it, the removed cards;
- proven voids: a seat that did not follow the led suit with as many cards as the
  lead holds none of that suit;
- proven missing pairs (when the rules draw pairs out): a seat that followed a lead of
  pairs in suit with fewer pairs held no other pair then, so it holds no pair of that
  suit now, nor a copy of a card of it that it played alone then or has played since;
- cards a seat must still hold: cards it bid with or exposed (less those it has
  played since), the cards of a failed throw, the kitty cards turned face up, the
  kitty the seat buried when another seat took it by bidding after the kitty;
- the hand sizes.

The sampled cards are then put back in time: each hand becomes the hand it was dealt
(the cards it holds now, those it has played, the kitty it picked up less the cards it
buried) and the whole public history is replayed from that deal through
:class:`~shengji.game.deal.Deal` and :class:`~shengji.game.round.Round`. The replay is
the exact check: a world in which any recorded action would be illegal (a pair not
followed by a seat that held one under the active follow rules, a throw that would
have failed or succeeded otherwise, a bid with cards not yet drawn, a redeal show
skipped) is rejected and sampled again. Only :class:`~shengji.game.view.SeatView`
is read, never the real round.

Legal is not likely: most worlds dealt this way are ones in which the other seats, had
they been heuristic players, would have played otherwise (in heuristic rounds, 10 of 11
sampled worlds disagree with the last two plays of the other seats). :class:`Inference`
asks the heuristic, during the replay, what it would have played at the other seats'
last plays and keeps a world with a chance that falls with each disagreement: rejection
sampling of the deals those plays make likely. It costs a replay per try.

The kitty a seat did not see buried is, dealt at random, as likely to hold points and
trumps as any hand, where players bury what they can spare. With ``read_kitty`` the
replay lets a heuristic player in the burier's seat choose that bury from the cards the
world dealt it, keeping the cards the burier has played since (it held them after the
bury); the world is rejected as any other if the rest of the history then becomes
impossible (a suit the burier showed it lacks still in its hand). Rejecting worlds
whose plain heuristic bury would have held a card played since instead was as strong
in Da Bai Fen and cost eight times the sampling (docs/experiments.md).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from random import Random
from typing import Final, TypeAlias

from shengji.engine.cards import ALL_CARDS, Card
from shengji.engine.rules import TractorFollow, TupleFollow
from shengji.game.actions import ActionError, Bid, Bury, Draw, Expose, Play
from shengji.game.deal import Deal, DealError, pack_counts
from shengji.game.phase import Phase
from shengji.game.round import Round
from shengji.game.view import SeatView
from shengji.players.heuristic import HeuristicPlayer
from shengji.players.memory import rainbow_led, shows_void

KITTY_TRIES: Final = 20
"""Tries, with ``read_kitty``, at a world whose hidden buries are the heuristic's (nearly
every first try succeeds), before those that deal the kitty at random."""
_PRE_KITTY = (Phase.BID, Phase.EXPOSE, Phase.DECLARE)
_KITTY = "kitty"
_UNDEALT = "undealt"


@dataclass(frozen=True)
class Knowledge:
    """What one seat knows about the hidden cards, derived from its view alone."""

    view: SeatView
    pool: tuple[Card, ...]
    """The cards the seat has not seen (other hands, the hidden kitty, the undealt pack)."""
    sizes: dict[int | str, int]
    """How many hidden cards each place holds: seats, ``"kitty"``, ``"undealt"``."""
    voids: dict[int, frozenset[int]]
    """Effective suits (0-3 plain, 4 trump) each other seat is proven void in."""
    unpaired: dict[int, frozenset[int]]
    """Effective suits in which a seat holds no two equal cards: it followed a lead of
    pairs in full without playing as many pairs (``tuple_follow = "draw-out"``)."""
    must: dict[int, Counter[Card]]
    """Cards each other seat is known to hold now (the seat that buried the hidden kitty
    may have buried them: they go to its hand or the kitty in proportion to their
    sizes)."""
    played: dict[int, Counter[Card]]
    """The cards each seat has played (what left its hand)."""
    pair_limits: dict[int, Counter[Card]]
    """In a seat's unpaired suits, the most hidden copies of a card it may hold where that
    is not 1: a card it played alone in the trick that proved it held no more pairs, or
    played since, cannot be hidden in its hand too (the two would have made a pair)."""
    bid_order: tuple[tuple[tuple[int, Card], ...], ...]
    """Per seat, each copy of a card it bid with during the deal and how many cards it had
    drawn when it first needed it, earliest first (the replayed deal must give it them
    by then)."""

    @classmethod
    def of(cls, view: SeatView) -> Knowledge:
        """Everything ``view`` reveals about the hidden cards."""
        rules, me, n = view.rules, view.seat, view.rules.players
        unseen = Counter({ALL_CARDS[i]: k for i, k in
                          enumerate(pack_counts(rules, view.removed)) if k})
        unseen.subtract(view.hand)
        played: dict[int, Counter[Card]] = {s: Counter() for s in range(n)}
        plays = [p for record in view.tricks for p in record.plays] + list(view.trick)
        for play in plays:
            played[play.seat].update(play.cards)
            unseen.subtract(play.cards)
        buried = any(isinstance(a, Bury) for a in view.history)
        sizes: dict[int | str, int] = {s: view.hand_sizes[s] for s in range(n) if s != me}
        if view.phase == Phase.DEAL:
            sizes[_UNDEALT] = sum(unseen.values()) - sum(view.hand_sizes) + view.hand_sizes[me]
        elif view.phase in _PRE_KITTY or (buried and view.phase != Phase.KITTY):
            if view.kitty is None:
                sizes[_KITTY] = rules.kitty_size
            else:
                unseen.subtract(view.kitty)
        pool = tuple(sorted(unseen.elements()))
        if len(pool) != sum(sizes.values()):
            raise ValueError("the view's card counts do not add up")  # an engine bug
        voids, unpaired, limits = _voids(view)
        return cls(view, pool, sizes, voids, unpaired, _must(view, played), played, limits,
                   _bid_deadlines(view))


def _voids(view: SeatView) -> tuple[dict[int, frozenset[int]], dict[int, frozenset[int]],
                                    dict[int, Counter[Card]]]:
    """Seats proven void in an effective suit (they followed it short); seats proven to
    hold no pair in it (they followed a lead of pairs with fewer pairs, when the rules
    force pairs out), with the limits that the cards they have played in it since (and
    in that trick) put on the hidden copies (:attr:`Knowledge.pair_limits`)."""
    trump, rules = view.trump, view.rules
    seats = range(rules.players)
    found: dict[int, set[int]] = {s: set() for s in seats}
    unpaired: dict[int, set[int]] = {s: set() for s in seats}
    limits: dict[int, Counter[Card]] = {s: Counter() for s in seats}
    if trump is None:
        return ({s: frozenset() for s in seats}, {s: frozenset() for s in seats}, limits)
    proofs: list[tuple[int, int, int, Counter[Card]]] = []  # (trick, seat, suit, followed)
    pairs_forced = rules.tuple_follow in (TupleFollow.DRAW_OUT, TupleFollow.BREAKDOWN)
    tricks = [r.plays for r in view.tricks] + ([view.trick] if view.trick else [])
    index = trump.suit_index
    for number, trick in enumerate(tricks):
        lead = trick[0].cards
        suit = index[lead[0]]
        shape = Counter(Counter(lead).values())
        pairs_led = shape[2] if pairs_forced and set(shape) <= {1, 2} else 0
        if pairs_led and rainbow_led(lead, trump, rules):  # rainbows owe no pairs
            pairs_led = 0
        if pairs_led and rules.tractor_follow == TractorFollow.TRACTOR_ONLY:
            pairs_led = 0
        for play in trick[1:]:
            followed = [c for c in play.cards if index[c] == suit]
            if shows_void(lead, play.cards, trump, rules):
                found[play.seat].add(suit)
            elif len(followed) == len(lead) and pairs_led and sum(
                    1 for k in Counter(followed).values() if k >= 2) < pairs_led:
                if suit not in unpaired[play.seat]:
                    proofs.append((number, play.seat, suit, Counter(followed)))
                unpaired[play.seat].add(suit)
    for number, seat, suit, then in proofs:  # the first proof per seat and suit
        # the hand then held: the cards followed, those played since and the hidden ones;
        # its pairs were those it played: (shown + hidden) // 2 <= played // 2 per card
        shown = Counter(then)
        for later in tricks[number + 1:]:
            for play in later:
                if play.seat == seat:
                    shown.update(c for c in play.cards if index[c] == suit)
        for card, k in shown.items():
            limits[seat][card] = max(0, 2 * (then[card] // 2) + 1 - k)
    return ({s: frozenset(v) for s, v in found.items()},
            {s: frozenset(v) for s, v in unpaired.items()}, limits)


def _must(view: SeatView, played: dict[int, Counter[Card]]) -> dict[int, Counter[Card]]:
    """Cards each seat has shown (bids, exposes, failed throws, the turned kitty) and not
    played since."""
    n = view.rules.players
    shown: dict[int, Counter[Card]] = {s: Counter() for s in range(n)}

    def need(seat: int, cards: Sequence[Card], spent: Counter[Card]) -> None:
        held = Counter(cards)
        held.subtract(spent)
        for card, k in held.items():
            if k > shown[seat][card]:
                shown[seat][card] = k

    later: dict[int, Counter[Card]] = {s: Counter(c) for s, c in played.items()}
    records = [p for r in view.tricks for p in r.plays] + list(view.trick)
    attempts = [a for a in view.history if isinstance(a, Play)]
    for action, record in zip(attempts, records, strict=False):
        if tuple(action.cards) != tuple(record.cards):  # a failed throw: all were held
            need(action.seat, action.cards, later[action.seat])
        later[action.seat].subtract(record.cards)
    owners = [a.seat for a in view.history if isinstance(a, Bury)]
    if view.phase == Phase.KITTY and view.to_move is not None:
        owners.append(view.to_move)
    # a seat whose kitty was taken by a later bid may have buried what it showed
    passed_on = set(owners[:-1]) - set(owners[-1:])
    for event in view.history:
        if isinstance(event, Bid | Expose) and event.seat not in passed_on:
            need(event.seat, event.cards, played[event.seat])
    if view.kitty_turned and owners and owners[0] not in passed_on:
        need(owners[0], view.kitty_turned, played[owners[0]])
    mine = [a for a in view.history if isinstance(a, Bury) and a.cards]
    if mine and len(owners) >= 2 and owners[-2] == view.seat and owners[-1] != view.seat:
        # the seat's own kitty was taken by the last holder: it holds (or buried) them
        need(owners[-1], mine[-1].cards, played[owners[-1]])
    return {s: +c for s, c in shown.items() if s != view.seat}


def sample_world(knowledge: Knowledge, rng: Random, *, tries: int = 60,
                 infer: PlayReading | None = None, read_kitty: bool = False
                 ) -> Round | None:
    """A round in the seat's current position with the hidden cards dealt at random
    under everything it knows; ``None`` if ``tries`` attempts all failed the check.
    With an :class:`Inference`, a world is kept with the chance that the heuristic would
    have made the other seats' recent plays in it; after ``infer.tries`` attempts it is
    kept without that test. With a :class:`Refine`, the world found is then moved towards
    the other seats' plays (:func:`refine`). With ``read_kitty`` the first
    :data:`KITTY_TRIES` tries, before the ``tries``, bury what the heuristic would have
    buried in the world wherever the seat did not see the bury (see the module
    docstring); the later ones deal the kitty at random."""
    attempts = 0
    rejecting = infer if isinstance(infer, Inference) else None
    reading = KITTY_TRIES if read_kitty else 0
    for n in range(reading + tries + (rejecting.tries if rejecting is not None else 0)):
        places = _deal_hidden(knowledge, rng)
        if places is None:
            continue
        attempts += 1
        judge = (_Rejection(knowledge, rejecting, rng)
                 if rejecting is not None and attempts <= rejecting.tries else None)
        read = n < reading
        world = _replay(knowledge, places, rng, judge, read)
        if world is not None:
            if isinstance(infer, Refine):
                return refine(knowledge, places, world, rng, infer, read)
            return world
    return None


@dataclass(frozen=True)
class Inference:
    """Worlds weighed by the other seats' plays: each of their last ``plays`` plays (in
    the tricks of the round) that the heuristic player would not have made in a world
    keeps that world only with chance ``keep`` (so a world survives with chance
    ``keep`` to the number of such plays: rejection sampling of the posterior under a
    heuristic model of the other seats, softened for players who are not heuristic)."""

    keep: float = 0.3
    plays: int = 4
    tries: int = 40
    """Attempts with the test; later attempts keep any consistent world."""

    def __post_init__(self) -> None:
        if not 0.0 <= self.keep <= 1.0:
            raise ValueError("keep must be between 0 and 1")
        if self.plays < 0 or self.tries < 0:
            raise ValueError("plays and tries must not be negative")


@dataclass(frozen=True)
class Refine:
    """Worlds moved towards the other seats' plays by a Markov chain (Metropolis
    sampling of the worlds weighed by ``keep`` to the number of *mismatches*: the other
    seats' plays in the round's tricks that the heuristic player would not have made in
    the world). From a sampled world, ``steps`` times: swap two hidden cards between two
    places where the seat's knowledge allows it, and keep the swap with chance ``keep``
    to the mismatches it adds (always if it adds none). It stops early at a world with
    no mismatch. Each step replays the history (judging only the two seats changed).
    The defaults are the setting docs/experiments.md measures."""

    steps: int = 400
    keep: float = 0.0

    def __post_init__(self) -> None:
        if not 0.0 <= self.keep <= 1.0:
            raise ValueError("keep must be between 0 and 1")
        if self.steps < 0:
            raise ValueError("steps must not be negative")



PlayReading: TypeAlias = Inference | Refine
"""A way to read the other seats' plays into the worlds (``infer`` of
:func:`sample_world` and of the search player)."""

class _Rejection:
    """Judges the other seats' last plays for :class:`Inference`: each play the heuristic
    would not have made rejects the world unless a draw under ``keep`` spares it."""

    def __init__(self, knowledge: Knowledge, how: Inference, rng: Random) -> None:
        self.indices = _judged(knowledge.view.history, knowledge.view.seat, how.plays)
        self.keep = how.keep
        self.rng = rng
        self.models: dict[int, HeuristicPlayer] = {}

    def __call__(self, world: Round, action: Play) -> bool:
        if _heuristic_makes(self.models, world, action):
            return True
        return self.rng.random() < self.keep


class _Count:
    """Counts, for :class:`Refine`, the plays of some seats that the heuristic would not
    have made; gives up (rejects the world) past ``limit`` of them."""

    def __init__(self, history: Sequence[object], seats: Sequence[int], limit: float) -> None:
        self.indices = frozenset(i for i, a in enumerate(history)
                                 if isinstance(a, Play) and a.seat in seats)
        self.limit = limit
        self.found: dict[int, int] = dict.fromkeys(seats, 0)
        self.models: dict[int, HeuristicPlayer] = {}

    def __call__(self, world: Round, action: Play) -> bool:
        if _heuristic_makes(self.models, world, action):
            return True
        self.found[action.seat] += 1
        return sum(self.found.values()) <= self.limit


def _heuristic_makes(models: dict[int, HeuristicPlayer], world: Round, action: Play) -> bool:
    """True if a heuristic player in ``action``'s seat would make that play in ``world``."""
    seat = action.seat
    player = models.get(seat)
    if player is None:
        player = models[seat] = HeuristicPlayer(seat)
    model = player.act(world.view(seat), world.legal(seat))
    return isinstance(model, Play) and Counter(model.cards) == Counter(action.cards)


def refine(knowledge: Knowledge, places: dict[int | str, list[Card]], world: Round,
           rng: Random, how: Refine, read_kitty: bool = False) -> Round:
    """``world`` (dealt as ``places``) moved by ``how.steps`` steps of the chain of
    :class:`Refine`; each world passed is consistent with everything the seat knows (and,
    with ``read_kitty``, replayed with the heuristic's buries, as ``world`` was)."""
    view = knowledge.view
    trump = view.trump
    seats = [p for p in places if isinstance(p, int)]
    keys = [p for p in places if places[p]]
    if trump is None or view.phase != Phase.PLAY or len(keys) < 2 or how.steps == 0:
        return world
    count = _Count(view.history, seats, math.inf)
    if _replay(knowledge, places, rng, count, read_kitty) is None:
        return world  # cannot happen: the world was just replayed
    found = count.found
    index, voids = trump.suit_index, knowledge.voids
    for _ in range(how.steps):
        if not any(found.values()):
            break
        a, b = rng.sample(keys, 2)
        i, j = rng.randrange(len(places[a])), rng.randrange(len(places[b]))
        x, y = places[a][i], places[b][j]
        if x == y or (isinstance(b, int) and index[x] in voids[b]) or (
                isinstance(a, int) and index[y] in voids[a]):
            continue
        touched = [p for p in (a, b) if isinstance(p, int)]
        before = sum(found[s] for s in touched)
        u = rng.random()
        slack = (math.inf if how.keep >= 1.0 else 0 if how.keep <= 0.0 or u <= 0.0
                 else math.floor(math.log(u) / math.log(how.keep)))
        moved = {p: list(cards) for p, cards in places.items()}
        moved[a][i], moved[b][j] = y, x
        count = _Count(view.history, touched, before + slack)
        replayed = _replay(knowledge, moved, rng, count, read_kitty)
        if replayed is not None:
            places, world = moved, replayed
            found.update(count.found)
    return world


def _deal_hidden(knowledge: Knowledge, rng: Random) -> dict[int | str, list[Card]] | None:
    """The hidden cards dealt to their places: shown cards first, then the rest one card at
    a time, most constrained first, to a place not void in its suit (weighted by room)."""
    view = knowledge.view
    room = dict(knowledge.sizes)
    places: dict[int | str, list[Card]] = {p: [] for p in room}
    rest = Counter(knowledge.pool)
    buriers = [a.seat for a in view.history if isinstance(a, Bury)]
    holder = buriers[-1] if buriers and _KITTY in room else None
    for seat, shown in knowledge.must.items():
        for card, k in shown.items():
            for _ in range(k):
                place: int | str = seat
                if seat == holder and rng.randrange(room[seat] + room[_KITTY]) >= room[seat]:
                    place = _KITTY  # the kitty holder may have buried it
                if room.get(place, 0) <= 0 or rest[card] <= 0:
                    return None
                places[place].append(card)
                room[place] -= 1
                rest[card] -= 1
    cards = list(rest.elements())
    rng.shuffle(cards)
    trump = view.trump
    allowed: dict[int, list[int | str]] = {}
    for suit in range(5):
        allowed[suit] = [p for p in room if not (isinstance(p, int)
                                                  and suit in knowledge.voids[p])]
    suit_of = (lambda c: trump.suit_index[c]) if trump is not None else (lambda c: 0)
    cards.sort(key=lambda c: len(allowed[suit_of(c)]))
    unpaired, limits = knowledge.unpaired, knowledge.pair_limits
    held = {p: Counter(got) for p, got in places.items()}
    for card in cards:
        suit = suit_of(card)
        options = [p for p in allowed[suit] if room[p] > 0 and not (
            isinstance(p, int) and suit in unpaired[p]
            and held[p][card] >= limits[p].get(card, 1))]
        if not options:
            return None
        pick = rng.randrange(sum(room[p] for p in options))
        for place in options:
            pick -= room[place]
            if pick < 0:
                break
        places[place].append(card)
        held[place][card] += 1
        room[place] -= 1
    for hidden in places.values():
        rng.shuffle(hidden)
    return places


def _replay(knowledge: Knowledge, places: dict[int | str, list[Card]],
            rng: Random, judge: _Rejection | _Count | None = None,
            read_kitty: bool = False) -> Round | None:
    """Put the sampled cards back in time (the deal, the kitties picked up and buried),
    replay the public history from that deal and check that it comes out as seen; a
    ``judge`` asked at each play it lists may reject the world; with ``read_kitty`` each
    bury the seat did not see is the heuristic's in the world."""
    view = knowledge.view
    rules, me, n = view.rules, view.seat, view.rules.players
    k = rules.kitty_size
    now: dict[int, Counter[Card]] = {s: Counter(places.get(s, ())) for s in range(n)}
    now[me] = Counter(view.hand)
    history = list(view.history)
    draws = [a.seat for a in history if isinstance(a, Draw)]
    first = draws[0] if draws else (view.to_move if view.to_move is not None else 0)
    buries = [(i, a) for i, a in enumerate(history) if isinstance(a, Bury)]
    if view.phase == Phase.DEAL:
        deal = _deal_phase_deal(knowledge, now, places[_UNDEALT], first)
        hidden_buries: dict[int, tuple[Card, ...]] = {}
    else:
        built = _unbury(knowledge, now, places, buries, rng)
        if built is None:
            return None
        hands, kitty, hidden_buries = built
        orders = [_draw_order(knowledge, s, hands[s], rng) for s in range(n)]
        if any(o is None for o in orders) or len(kitty) != k:
            return None
        deal = Deal(tuple(tuple(o) for o in orders if o is not None), tuple(kitty), first)
    try:
        world = Round(rules, deal=deal, levels=view.levels, dealer=_first_dealer(view),
                      track_undo=False)
        judged = judge.indices if judge is not None else frozenset()
        for i, action in enumerate(history):
            if i in hidden_buries:
                action = (_heuristic_bury(world, action.seat, knowledge.played)
                          if read_kitty else Bury(action.seat, hidden_buries[i]))
            if i in judged and judge is not None and isinstance(action, Play) and (
                    not judge(world, action)):
                return None
            world.apply(action)
    except (ActionError, DealError):
        return None
    return world if _agrees(world, view) else None


def _heuristic_bury(world: Round, seat: int, played: dict[int, Counter[Card]]) -> Bury:
    """The bury a heuristic player in ``seat`` would make in ``world`` now, keeping the
    cards the seat is known to play later (``played``)."""
    view = world.view(seat)
    if view.phase != Phase.KITTY:  # (the history puts every bury in the kitty phase)
        raise ActionError(f"seat {seat} is not burying in the replay")
    action = HeuristicPlayer(seat).bury_keeping(view, world.legal(seat),
                                                tuple(played[seat].elements()))
    if not isinstance(action, Bury):  # the replay stands at that seat's bury
        raise ActionError(f"seat {seat} is not burying in the replay")
    return action


def _judged(history: Sequence[object], me: int, count: int) -> frozenset[int]:
    """The indices in ``history`` of the other seats' last ``count`` plays."""
    found: list[int] = []
    for i in range(len(history) - 1, -1, -1):
        if len(found) >= count:
            break
        action = history[i]
        if isinstance(action, Play) and action.seat != me:
            found.append(i)
    return frozenset(found)


def _first_dealer(view: SeatView) -> int | None:
    """The dealer to start the replay with (a dealer set later by the bidding gives the
    same replay)."""
    return view.dealer


def _deal_phase_deal(knowledge: Knowledge, now: dict[int, Counter[Card]],
                     undealt: list[Card], first: int) -> Deal:
    """During the deal: the hands drawn so far, then the undealt cards in pack order."""
    view = knowledge.view
    n, k = view.rules.players, view.rules.kitty_size
    rng = Random(0)  # order within a hand only matters for bids; _draw_order sets it
    hands = [_draw_order(knowledge, s, list(now[s].elements()), rng) or [] for s in range(n)]
    drawn = sum(view.hand_sizes)
    for j, card in enumerate(undealt[:len(undealt) - k]):
        hands[(first + drawn + j) % n].append(card)
    return Deal(tuple(tuple(h) for h in hands), tuple(undealt[len(undealt) - k:]), first)


def _unbury(knowledge: Knowledge, now: dict[int, Counter[Card]],
            places: dict[int | str, list[Card]], buries: list[tuple[int, Bury]],
            rng: Random) -> tuple[list[list[Card]], list[Card], dict[int, tuple[Card, ...]]] | None:
    """The dealt hands and the original kitty, found by walking back through the
    buries and kitty pick-ups; also the cards of the buries the seat did not see."""
    view = knowledge.view
    n, k = view.rules.players, view.rules.kitty_size
    history = view.history
    pool = {s: now[s] + knowledge.played[s] for s in range(n)}
    owners = [a.seat for _, a in buries]
    pending = view.phase == Phase.KITTY
    if pending and view.to_move is not None:
        owners.append(view.to_move)
    hidden: dict[int, tuple[Card, ...]] = {}
    if not owners:  # before the kitty is picked up
        return [list(pool[s].elements()) for s in range(n)], list(places[_KITTY]), hidden
    # the kitty lying buried now (the last bury), if no pick-up is pending
    last: tuple[Card, ...] | None = None
    if not pending:
        index, bury = buries[-1]
        if bury.cards:
            last = tuple(bury.cards)
        elif view.kitty is not None:
            last = tuple(view.kitty)
        else:
            last = tuple(places[_KITTY])
            hidden[index] = last
    picked = len(owners)  # pick-ups, one per owner
    for j in range(picked - 1, -1, -1):
        owner = owners[j]
        if j < len(buries):  # undo the bury j: its cards were in the owner's hand
            index, bury = buries[j]
            cards = last if last is not None else ()
            pool[owner].update(cards)
        # undo pick-up j: the kitty picked up (bury j-1, or the original kitty)
        end = buries[j][0] if j < len(buries) else len(history)
        keep = Counter[Card]()
        for action in history[:end]:
            if isinstance(action, Bid | Expose) and action.seat == owner:
                for card, c in Counter(action.cards).items():
                    keep[card] = max(keep[card], c)
        known = (tuple(view.kitty) if pending and j == picked - 1 and view.kitty is not None
                 else tuple(buries[j - 1][1].cards) if j > 0 else ())
        if known:  # the kitty the seat picked up (it sees it) or buried itself
            taken = known
            if Counter(taken) - pool[owner]:
                return None
        else:
            first_cards = Counter(view.kitty_turned) if j == 0 else Counter[Card]()
            if first_cards - pool[owner]:
                return None
            free = pool[owner] - first_cards - keep
            spare = list(free.elements())
            rng.shuffle(spare)
            need = k - sum(first_cards.values())
            if need > len(spare):
                return None
            taken = tuple(first_cards.elements()) + tuple(spare[:need])
            if j > 0:
                hidden[buries[j - 1][0]] = taken
        pool[owner].subtract(taken)
        last = taken
    assert last is not None
    return [list(pool[s].elements()) for s in range(n)], list(last), hidden


def _draw_order(knowledge: Knowledge, seat: int, cards: list[Card],
                rng: Random) -> list[Card] | None:
    """The seat's cards in an order that lets it make each bid of the deal when it made
    it (cards needed earliest first), the others shuffled; ``None`` if impossible."""
    if len(cards) == 0:
        return []
    early = knowledge.bid_order[seat]
    rest = Counter(cards)
    for position, (due, card) in enumerate(early):
        if rest[card] <= 0 or position >= due:
            return None
        rest[card] -= 1
    others = list(rest.elements())
    rng.shuffle(others)
    return [c for _, c in early] + others


def _bid_deadlines(view: SeatView) -> tuple[tuple[tuple[int, Card], ...], ...]:
    """Per seat, the cards it bid with during the deal, each copy with the number of cards
    it had drawn when it first needed it, earliest first."""
    n = view.rules.players
    deadline: list[dict[tuple[Card, int], int]] = [{} for _ in range(n)]
    drawn = [0] * n
    for action in view.history:
        if isinstance(action, Draw):
            drawn[action.seat] += 1
        elif isinstance(action, Bid) and drawn[action.seat] < view.rules.hand_size:
            seat = action.seat
            for card, c in Counter(action.cards).items():
                for copy in range(c):
                    deadline[seat].setdefault((card, copy), drawn[seat])
    return tuple(tuple((due, card) for (card, _), due in sorted(
        d.items(), key=lambda i: (i[1], i[0]))) for d in deadline)


def _agrees(world: Round, view: SeatView) -> bool:
    """True if the replayed world shows the seat exactly what its view shows."""
    if world.phase != view.phase or world.to_move != view.to_move:
        return False
    if tuple(len(h) for h in world.hands) != view.hand_sizes:
        return False
    if Counter(world.hands[view.seat].cards()) != Counter(view.hand):
        return False
    if [(r.plays, r.winner) for r in world.tricks] != [(r.plays, r.winner) for r in view.tricks]:
        return False
    trick = tuple(world.trick.plays) if world.trick is not None else ()
    return trick == view.trick and tuple(world.captured) == view.captured


def hidden_places(world: Round, seat: int) -> dict[int | str, Counter[Card]]:
    """What ``seat`` cannot see in ``world``: the other hands and the kitty (for tests and
    benchmarks)."""
    places: dict[int | str, Counter[Card]] = {s: Counter(h.cards()) for s, h in
                                               enumerate(world.hands) if s != seat}
    places[_KITTY] = Counter(world.kitty)
    return places


__all__ = ["KITTY_TRIES", "Inference", "Knowledge", "PlayReading", "Refine", "hidden_places",
           "refine", "sample_world"]
