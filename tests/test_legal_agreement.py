"""The legal set is the one source of every decision: what it lists it accepts, what it
draws at random it accepts, and where the candidates of a decision can all be written
down (bids, withdrawals, draws, declarations, shows, friend calls, exposing) the ones it
accepts are exactly the ones it lists. Checked at random positions of every phase, over
every preset and a broad set of options.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations, islice
from random import Random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shengji.engine.cards import ALL_CARDS, Rank, Suit
from shengji.engine.friends import FriendCall
from shengji.engine.rules import FriendCalls
from shengji.game.actions import (
    Action,
    Bid,
    Call,
    Declare,
    Draw,
    Expose,
    Pass,
    Show,
    Withdraw,
)
from shengji.game.legal import Legal
from shengji.game.phase import Phase
from shengji.game.presets import preset
from shengji.game.round import Round

TABLES: list[tuple[str, dict[str, object]]] = [
    ("tractor", {}),
    ("tractor", {"kitty_overbid": True, "bid_reinforce_after_bury": True,
                 "bid_withdraw": True, "bid_switch_suit": True}),
    ("tractor", {"bid_after_outbid": True, "bid_reinforce_equal": True,
                 "bid_equal_override": True, "joker_bids": "decks"}),
    ("tractor", {"rainbow": 3, "bombs": 2, "redeal_show": "no-points"}),
    ("tractor-6", {"kitty_overbid": True, "kitty_overbid_by": "opponents"}),
    ("finding-friends", {"players": 5, "friend_trump_calls": True}),
    ("finding-friends", {"players": 5, "friend_calls": "colour-rank"}),
    ("finding-friends", {"players": 6, "friend_trump_calls": True,
                         "friend_call_all_held": "refused", "friend_call_points": False}),
    ("finding-friends", {"players": 7, "fluid_overbid": ("own-rank", "maker-rank",
                                                         "jokers-rank")}),
    ("da-bai-fen", {"redeal_show": "no-trumps"}),
    ("hundred", {}),
]

LISTING_LIMIT = 6_000
"""The most actions read from one listing (a bury or a play can have millions; the
enumerable decisions have far fewer)."""


def _random_position(name: str, options: dict[str, object], seed: int, steps: int) -> Round:
    rnd = Round(preset(name, **options), seed=seed, dealer=None if seed % 3 == 0 else 0)
    rng = Random(seed)
    for _ in range(steps):
        if rnd.phase == Phase.DONE:
            break
        seat = rng.choice(rnd.actors())
        rnd.apply(rnd.legal(seat).random(rng))
    return rnd


@cache
def _random_round(name: str, options: tuple[tuple[str, object], ...],
                  seed: int) -> tuple[tuple[Action, ...], dict[Phase, int]]:
    """The actions of the random round of ``seed`` (played to the end) and, for each phase
    it meets, how many actions were taken when it first met it: played once, then replayed
    for each phase asked (drawing the actions is the costly part)."""
    rnd = Round(preset(name, **dict(options)), seed=seed, dealer=0)
    rng = Random(seed)
    actions: list[Action] = []
    met = {rnd.phase: 0}
    while rnd.phase != Phase.DONE:
        action = rnd.legal(rng.choice(rnd.actors())).random(rng)
        rnd.apply(action)
        actions.append(action)
        met.setdefault(rnd.phase, len(actions))
    return tuple(actions), met


def _at_phase(name: str, options: dict[str, object], phase: Phase, tries: int = 100) -> Round:
    """The first random round (seeds 0, 1, ...) that reaches ``phase``, stopped there."""
    for seed in range(tries):
        actions, met = _random_round(name, tuple(options.items()), seed)
        if phase in met:
            rnd = Round(preset(name, **options), seed=seed, dealer=0)
            for action in actions[:met[phase]]:
                rnd.apply(action)
            assert rnd.phase == phase
            return rnd
    raise AssertionError(f"no round of {name} reached {phase}")


def _accepted(legal: Legal, candidates: list[Action]) -> set[Action]:
    return {action for action in candidates if legal.reason(action) is None}


def _call_universe(rnd: Round) -> list[FriendCall]:
    """Every call that could be written, allowed or not: every face of the pack (jokers
    too) and every colour and rank, with ordinals one past the most copies."""
    decks = rnd.rules.decks
    if rnd.rules.friend_calls == FriendCalls.ORDINAL:
        return [FriendCall(k, card=card) for card in ALL_CARDS for k in range(1, decks + 2)]
    return [FriendCall(k, colour=colour, rank=rank) for colour in ("black", "red")
            for rank in Rank for k in range(1, 2 * decks + 2)]


def _check_calls(rnd: Round, seat: int, legal: Legal, listed: list[Action]) -> None:
    singles = [c for c in _call_universe(rnd)
               if legal.reason(Call(seat, (c,) * rnd.rules.friend_count)) is None
               or (rnd.rules.friend_count > 1 and any(
                   legal.reason(Call(seat, (c, d))) is None for d in _call_universe(rnd)[:3]))]
    want = rnd.rules.friend_count
    if want == 1:
        assert {a.calls for a in listed if isinstance(a, Call)} == {(c,) for c in singles}
        return
    accepted_singles = {c for c in _call_universe(rnd)
                        if any(legal.reason(Call(seat, (c, *rest))) is None
                               for rest in _fillers(listed, c, want))}
    listed_sets = {frozenset(a.calls) for a in listed if isinstance(a, Call)}
    listed_singles = {c for calls in listed_sets for c in calls}
    assert accepted_singles == listed_singles
    # every set of different accepted calls is listed, and only those
    if len(listed_singles) <= 40:
        expected = {frozenset(combo) for combo in combinations(sorted(
            listed_singles, key=str), want)}
        assert listed_sets == expected


def _fillers(listed: list[Action], call: FriendCall, want: int) -> list[tuple[FriendCall, ...]]:
    """Other calls to complete a set with ``call``: taken from the listed sets."""
    others = {c for a in listed if isinstance(a, Call) for c in a.calls if c != call}
    pool = sorted(others, key=str)[: want + 2]
    return [combo for combo in combinations(pool, want - 1)][:4]


def _check_seat(rnd: Round, seat: int, rng: Random) -> None:
    legal = rnd.legal(seat)
    listed = list(islice(legal, LISTING_LIMIT))
    complete = len(listed) < LISTING_LIMIT
    for action in rng.sample(listed, min(len(listed), 60)):
        assert legal.reason(action) is None, (action, legal.reason(action))
        assert rnd.reason(action) is None, (action, rnd.reason(action))
    if listed:
        for _ in range(4):
            drawn = legal.random(rng)
            assert rnd.reason(drawn) is None, (drawn, rnd.reason(drawn))
    if not complete:
        return
    # the facts the set answers agree with its listing
    assert legal.can_bid == any(isinstance(a, Bid | Withdraw) for a in listed)
    assert legal.can_bid == rnd.can_bid(seat)
    calls = set(legal.calls) if len(legal.calls) >= legal.call_count else set()
    assert {c for a in listed if isinstance(a, Call) for c in a.calls} == calls
    decks, shown = rnd.rules.decks, set(listed)
    bids: list[Action] = [Bid(seat, (card,) * k) for card in ALL_CARDS
                          for k in range(1, decks + 1)]
    assert _accepted(legal, bids) == {a for a in shown if isinstance(a, Bid)}
    simple: list[Action] = [Draw(seat), Pass(seat), Withdraw(seat), Show(seat)]
    assert _accepted(legal, simple) == {a for a in shown if type(a) in (Draw, Pass, Withdraw,
                                                                         Show)}
    declares: list[Action] = [Declare(seat, suit) for suit in (*Suit, None)]
    assert _accepted(legal, declares) == {a for a in shown if isinstance(a, Declare)}
    if rnd.phase == Phase.CALL and seat == rnd.to_move:
        _check_calls(rnd, seat, legal, listed)
    if rnd.phase == Phase.EXPOSE and seat == rnd.to_move:
        hand = rnd.hands[seat].cards()
        for _ in range(20):
            cards = tuple(rng.sample(hand, rng.randint(0, min(len(hand), rnd.rules.expose + 2))))
            expose = Expose(seat, cards)
            assert (legal.reason(expose) is None) == (expose in shown or any(
                isinstance(a, Expose) and sorted(a.cards) == sorted(cards) for a in listed))


@pytest.mark.slow
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 10**6),
       steps=st.integers(0, 260))
def test_what_is_listed_is_accepted_and_what_is_accepted_is_listed(
        table: tuple[str, dict[str, object]], seed: int, steps: int) -> None:
    name, options = table
    rnd = _random_position(name, options, seed, steps)
    rng = Random(seed)
    for seat in range(rnd.rules.players):
        _check_seat(rnd, seat, rng)


def test_a_joker_friend_call_is_listed_where_trump_cards_may_be_called() -> None:
    rnd = _at_phase("finding-friends", {"players": 5, "friend_trump_calls": True}, Phase.CALL)
    seat = rnd.to_move
    assert seat is not None
    call = Call(seat, (FriendCall.parse("1st BJ"),))
    assert call in rnd.legal(seat) and call in set(rnd.legal(seat))


def test_nobody_bids_where_the_dealer_names_the_trump() -> None:
    rnd = Round(preset("hundred"), seed=1, dealer=0)
    refusal = rnd.reason("1 bid 2C")
    assert refusal is not None and refusal.key == "bid-dealer-names"
    assert not any(isinstance(a, Bid) for a in rnd.legal(1))


def test_the_same_call_twice_is_refused() -> None:
    rnd = _at_phase("finding-friends", {"players": 6}, Phase.CALL)
    seat = rnd.to_move
    assert seat is not None and rnd.rules.friend_count == 2
    listed = next(a for a in rnd.legal(seat) if isinstance(a, Call))
    first = listed.calls[0]
    assert rnd.reason(listed) is None
    refusal = rnd.reason(Call(seat, (first, first)))
    assert refusal is not None and refusal.key == "call-repeat"


PHASES_MET = [(table, phase) for table in TABLES for phase in Phase if phase != Phase.DONE]


@pytest.mark.slow
def test_every_phase_of_every_table_lists_what_it_accepts() -> None:
    met = 0
    for (name, options), phase in PHASES_MET:
        try:
            rnd = _at_phase(name, options, phase, tries=4)
        except AssertionError:  # this table never has that phase (no kitty overbid ...)
            continue
        met += 1
        rng = Random(met)
        for seat in range(rnd.rules.players):
            _check_seat(rnd, seat, rng)
    # deal, bid, kitty, play everywhere; overbid, call, show, expose, declare somewhere
    assert met >= 4 * len(TABLES) + 5
