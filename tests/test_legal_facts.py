"""The facts a legal set answers (``can_bid``, ``expose_limit``, ``bury``, ``calls``,
``can_complete``, ``selector``) agree with what it accepts and lists: buries of every
size against the bury's size and point limit, exposures against the limit, single calls
against the calls accepted, and every partial selection of a small hand against the
listing (brute force)."""

from __future__ import annotations

from collections import Counter
from itertools import combinations, product
from random import Random

import pytest

from shengji.engine.cards import ALL_CARDS, Card, Hand, Rank
from shengji.engine.friends import FriendCall
from shengji.engine.rules import FriendCalls, Rules
from shengji.game.actions import Bid, Bury, Call, Expose, Withdraw
from shengji.game.bury import BuryLimits
from shengji.game.legal import Legal
from shengji.game.phase import Phase
from shengji.game.presets import preset
from shengji.game.round import Round


def _at_phase(rules: Rules, phase: Phase, seed: int = 0, tries: int = 60) -> Round:
    """The first random round from ``seed`` on that reaches ``phase``, stopped there."""
    for attempt in range(seed, seed + tries):
        rnd = Round(rules, seed=attempt, dealer=0)
        rng = Random(attempt)
        while rnd.phase not in (phase, Phase.DONE):
            rnd.apply(rnd.legal(rng.choice(rnd.actors())).random(rng))
        if rnd.phase == phase:
            return rnd
    raise AssertionError(f"no round reached {phase}")


def _sub_multisets(cards: list[Card], most: int) -> list[tuple[Card, ...]]:
    """Every distinct sub-multiset of ``cards`` of at most ``most`` cards."""
    counts = Counter(cards)
    faces = sorted(counts)
    found = []
    for take in product(*(range(counts[f] + 1) for f in faces)):
        if sum(take) <= most:
            found.append(tuple(f for f, k in zip(faces, take, strict=True) for _ in range(k)))
    return found


def _held_by_some(selection: tuple[Card, ...], options: list[tuple[Card, ...]]) -> bool:
    want = Counter(selection)
    return any(not want - Counter(option) for option in options)


def _check_selection(legal: Legal, options: list[tuple[Card, ...]],
                     selections: list[tuple[Card, ...]]) -> None:
    """``can_complete`` is whether a listed action holds the selection; the selector's
    addable cards are those that keep it so, and it is complete on a listed action."""
    listed = {tuple(sorted(o)) for o in options}
    for selection in selections:
        expected = _held_by_some(selection, options)
        assert legal.can_complete(selection) == expected, (selection, expected)
        if expected:
            pick = legal.selector()
            for card in selection:
                assert card in pick.addable(), (selection, card)
                pick.add(card)
            assert pick.complete() == (tuple(sorted(selection)) in listed), selection


# -- bury -----------------------------------------------------------------------------

BURY_TABLES = [preset("tractor"), preset("tractor", kitty_points_allowed=False),
               preset("finding-friends", players=5, kitty_points_allowed=False),
               preset("tractor-6")]


@pytest.mark.parametrize("rules", BURY_TABLES, ids=range(len(BURY_TABLES)))
def test_the_bury_size_and_point_limit_are_what_reason_accepts(rules: Rules) -> None:
    rnd = _at_phase(rules, Phase.KITTY)
    seat = rnd.to_move
    assert seat is not None
    legal = rnd.legal(seat)
    bury = legal.bury
    assert isinstance(bury, BuryLimits) and bury.size == rules.kitty_size
    assert (legal.expose_limit, legal.calls, legal.call_count) == (None, (), 0)
    hand = rnd.hands[seat].cards()
    points = [c for c in hand if c.points]
    plain = [c for c in hand if not c.points]
    rng = Random(len(hand))
    for size in range(len(hand) + 1):  # buries of every size
        for _ in range(12):
            cards = tuple(rng.sample(hand, size))
            accepted = size == bury.size and sum(1 for c in cards if c.points) <= (
                bury.point_limit)
            assert (legal.reason(Bury(seat, cards)) is None) == accepted, (size, cards)
    # the point limit is exact: as many point cards are accepted, one more is refused
    most = bury.point_limit
    if most < len(points) and bury.size - most <= len(plain):
        at_limit = (*points[:most], *plain[:bury.size - most])
        assert legal.reason(Bury(seat, at_limit)) is None
        if bury.size - most - 1 >= 0:
            over = (*points[:most + 1], *plain[:bury.size - most - 1])
            assert legal.reason(Bury(seat, over)) is not None
    assert rnd.legal((seat + 1) % rules.players).bury is None


@pytest.mark.slow
@pytest.mark.parametrize("allowed", [True, False])
def test_can_complete_a_bury_is_what_some_legal_bury_holds(allowed: bool) -> None:
    """Brute force on small hands: the kitty's holder is given a few cards."""
    rules = preset("tractor", kitty_points_allowed=allowed)
    deck = [c for c in ALL_CARDS[:52] for _ in range(2)]
    for seed in range(6):
        rnd = _at_phase(rules, Phase.KITTY, seed)
        seat = rnd.to_move
        assert seat is not None
        rng = Random(seed)
        rnd.hands[seat] = Hand(rng.sample(deck, rules.kitty_size + rng.randint(0, 3)))
        legal = rnd.legal(seat)
        hand = rnd.hands[seat].cards()
        options = [a.cards for a in legal if isinstance(a, Bury)]
        assert options and all(legal.reason(Bury(seat, o)) is None for o in options)
        selections = _sub_multisets(hand, rules.kitty_size + 1)
        _check_selection(legal, options, selections)
        assert not legal.can_complete([*hand, *hand][:len(hand) + 1])  # more than held


# -- expose ---------------------------------------------------------------------------

def test_the_expose_limit_is_what_reason_accepts() -> None:
    rnd = _at_phase(preset("hundred"), Phase.EXPOSE)
    seat = rnd.to_move
    assert seat is not None
    legal = rnd.legal(seat)
    most = legal.expose_limit
    assert most == min(rnd.rules.expose, len(rnd.hands[seat])) and legal.bury is None
    hand = rnd.hands[seat].cards()
    rng = Random(3)
    for size in range(len(hand) + 1):
        cards = tuple(rng.sample(hand, size))
        assert (legal.reason(Expose(seat, cards)) is None) == (size <= most), size
        assert legal.can_complete(cards) == (size <= most), size
    assert legal.can_complete(()) and legal.selector().complete()
    missing = next(c for c in ALL_CARDS if c not in hand)
    assert not legal.can_complete((missing,))
    pick = legal.selector()
    for card in hand[:most]:
        pick.add(card)
    assert pick.addable() == [] and pick.complete()


# -- friend calls ---------------------------------------------------------------------

CALL_TABLES = [preset("finding-friends", players=5),
               preset("finding-friends", players=5, friend_trump_calls=True),
               preset("finding-friends", players=5, friend_calls="colour-rank"),
               preset("finding-friends", players=6, friend_call_all_held="refused",
                      friend_call_points=False)]


def _call_universe(rules: Rules) -> list[FriendCall]:
    if rules.friend_calls == FriendCalls.ORDINAL:
        return [FriendCall(k, card=c) for c in ALL_CARDS for k in range(1, rules.decks + 2)]
    return [FriendCall(k, colour=colour, rank=rank) for colour in ("black", "red")
            for rank in Rank for k in range(1, 2 * rules.decks + 2)]


@pytest.mark.parametrize("rules", CALL_TABLES, ids=range(len(CALL_TABLES)))
def test_the_calls_are_the_single_calls_reason_accepts(rules: Rules) -> None:
    rnd = _at_phase(rules, Phase.CALL)
    seat = rnd.to_move
    assert seat is not None
    legal = rnd.legal(seat)
    calls = legal.calls
    assert legal.call_count == rules.friend_count and len(set(calls)) == len(calls)
    assert calls is legal.calls  # listed once
    universe = _call_universe(rules)
    allowed = set(calls)
    assert allowed <= set(universe)
    if legal.call_count == 1:
        accepted = {c for c in universe if legal.reason(Call(seat, (c,))) is None}
        assert accepted == allowed
    else:
        assert legal.call_count == 2
        partner = calls[0]
        accepted = {c for c in universe if c != partner
                    and legal.reason(Call(seat, (partner, c))) is None}
        assert accepted == allowed - {partner}
        assert legal.reason(Call(seat, (partner, partner))) is not None
    listed = {c for a in legal if isinstance(a, Call) for c in a.calls}
    assert listed == allowed
    for call in calls:  # each with its ordinal, and its card or its colour and rank
        assert call.ordinal >= 1 and (call.card is not None or (
            call.colour is not None and call.rank is not None))
    assert not legal.can_complete(()) and rnd.legal((seat + 1) % rules.players).calls == ()


# -- bidding --------------------------------------------------------------------------

BID_TABLES = [preset("tractor"),
              preset("tractor", bid_withdraw=True, kitty_overbid=True,
                     bid_reinforce_after_bury=True),
              preset("finding-friends", players=5), preset("hundred")]


@pytest.mark.slow
@pytest.mark.parametrize("rules", BID_TABLES, ids=range(len(BID_TABLES)))
def test_can_bid_and_bid_selections_agree_with_the_listing(rules: Rules) -> None:
    checked = 0
    for seed in range(3):
        rnd = Round(rules, seed=seed, dealer=None if seed == 0 else 0)
        rng = Random(seed)
        while rnd.phase not in (Phase.PLAY, Phase.DONE):
            for seat in range(rules.players):
                legal = rnd.legal(seat)
                if rnd.phase == Phase.KITTY:  # (buries: too many to list)
                    assert not legal.can_bid and not rnd.can_bid(seat)
                    continue
                listed = list(legal)
                can = any(isinstance(a, Bid | Withdraw) for a in listed)
                assert legal.can_bid == can == rnd.can_bid(seat), (seat, rnd.phase)
                if rng.random() < 0.1 and rnd.phase in (Phase.DEAL, Phase.BID,
                                                          Phase.OVERBID):
                    bids = [a.cards for a in listed if isinstance(a, Bid)]
                    hand = [c for c in rnd.hands[seat].cards() if c.rank in (
                        None, *rnd.bidding.ranks)]
                    selections = _sub_multisets(hand, rules.decks + 1)[:300]
                    _check_selection(legal, bids, selections)
                    checked += 1
            rnd.apply(rnd.legal(rng.choice(rnd.actors())).random(rng))
    assert checked > 0


# -- the play -------------------------------------------------------------------------

PLAY_TABLES = [preset("tractor"), preset("tractor", throws=False),
               preset("tractor", throw_mixed=False), preset("tractor", rainbow=3, bombs=2),
               preset("finding-friends", players=5)]


@pytest.mark.slow
@pytest.mark.parametrize("rules", PLAY_TABLES, ids=range(len(PLAY_TABLES)))
def test_can_complete_a_play_is_what_some_legal_play_holds(rules: Rules) -> None:
    """Brute force over every partial selection once the hands are small."""
    checked = 0
    for seed in range(3):
        rnd = Round(rules, seed=seed, dealer=0)
        rng = Random(seed)
        while rnd.phase != Phase.DONE:
            seat = rnd.to_move
            assert seat is not None
            legal = rnd.legal(seat)
            hand = rnd.hands[seat].cards()
            if rnd.phase == Phase.PLAY and len(hand) <= 7:
                options = list(legal.plays or ())
                selections = _sub_multisets(hand, len(hand))
                _check_selection(legal, options, selections)
                assert legal.bury is None and not legal.can_bid
                checked += 1
            rnd.apply(legal.random(rng))
    assert checked > 10


def test_can_complete_reads_notation_and_refuses_cards_not_held() -> None:
    rnd = _at_phase(preset("tractor"), Phase.PLAY)
    seat = rnd.to_move
    assert seat is not None
    legal = rnd.legal(seat)
    card = rnd.hands[seat].cards()[0]
    assert legal.can_complete(str(card)) and legal.can_complete([str(card)])
    missing = next(c for c in ALL_CARDS if c not in rnd.hands[seat].cards())
    assert not legal.can_complete((missing,))


def test_combinations_of_a_small_bury_match_the_listing() -> None:
    """The listing of a bury holds exactly the combinations reason accepts."""
    rules = preset("tractor", kitty_points_allowed=False)
    rnd = _at_phase(rules, Phase.KITTY)
    seat = rnd.to_move
    assert seat is not None
    deck = [c for c in ALL_CARDS[:52] for _ in range(2)]
    rnd.hands[seat] = Hand(Random(9).sample(deck, rules.kitty_size + 2))
    legal = rnd.legal(seat)
    accepted = {tuple(sorted(c)) for c in combinations(rnd.hands[seat].cards(),
                                                       rules.kitty_size)
                if legal.reason(Bury(seat, c)) is None}
    assert accepted == {tuple(sorted(a.cards)) for a in legal if isinstance(a, Bury)}
