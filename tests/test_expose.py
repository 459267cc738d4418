"""The Hundred's exposing (seed hundred_da_bai_fen_variant): "Each player must open up
to 6 of their cards and put them in clear form in front of him ... After that, the
sender establishes a trump suit." Option ``expose``: each player in turn from the
dealer's left, the dealer last, shows up to that many cards; they stay in the hand."""

from __future__ import annotations

import pytest

from shengji.engine.cards import parse_cards
from shengji.engine.rules import Rules, RulesError
from shengji.game.actions import Declare, Expose, parse_action
from shengji.game.legal import ActionError
from shengji.game.phase import Phase
from shengji.game.presets import preset
from shengji.game.round import Round
from shengji.players import HeuristicPlayer


def dealt(rules: Rules, seed: int = 2, dealer: int = 1) -> Round:
    rnd = Round(rules, seed=seed, dealer=dealer)
    while rnd.phase == Phase.DEAL:
        rnd.apply(f"{rnd.drawer} draw")
    return rnd


def test_the_hundred_exposes_up_to_six_cards_from_the_dealers_left_dealer_last() -> None:
    rnd = dealt(preset("hundred"))
    assert rnd.rules.expose == 6
    order = []
    while rnd.phase == Phase.EXPOSE:
        seat = rnd.to_move
        assert seat is not None
        order.append(seat)
        rnd.apply(Expose(seat, tuple(rnd.hands[seat].cards()[:seat])))
    assert order == [2, 3, 0, 1]
    assert rnd.phase == Phase.DECLARE and rnd.to_move == 1
    for seat in range(4):
        shown = rnd.view((seat + 1) % 4).exposed[seat]  # every seat sees every exposure
        assert len(shown) == seat and all(c in rnd.hands[seat] for c in shown)


def test_exposing_is_limited_to_held_cards_and_the_count() -> None:
    rnd = dealt(preset("hundred", expose=2))
    seat = rnd.to_move
    assert seat is not None
    hand = rnd.hands[seat].cards()
    legal = rnd.legal(seat)
    assert Expose(seat, ()) in legal and Expose(seat, tuple(hand[:2])) in legal
    assert "at most 2 cards" in (legal.reason(Expose(seat, tuple(hand[:3]))) or "")
    absent = next(c for c in parse_cards("2C 2D 2H 2S 3C 3D") if c not in rnd.hands[seat])
    assert "do not hold" in (legal.reason(Expose(seat, (absent,))) or "")
    with pytest.raises(ActionError):
        rnd.apply(Declare(rnd.dealer or 0, None))  # not yet: exposing first
    assert len(list(legal)) == 1 + len(set(hand)) + len(
        {tuple(sorted((a, b))) for i, a in enumerate(hand) for b in hand[i + 1:]})


def test_expose_notation_both_ways() -> None:
    assert parse_action("3 expose") == Expose(3, ())
    assert str(Expose(3, ())) == "3 expose"
    assert str(parse_action("0 expose 3h ks")) == "0 expose 3H KS"


def test_expose_needs_the_dealer_to_choose_trump() -> None:
    with pytest.raises(RulesError, match="expose is for trump_choice='dealer'"):
        Rules(expose=3)
    with pytest.raises(RulesError, match="expose must be at least 0 and at most 12"):
        preset("hundred", expose=13)


def test_the_heuristic_dealer_names_the_suit_its_partner_exposed() -> None:
    rnd = dealt(preset("hundred"), seed=11, dealer=0)
    players = [HeuristicPlayer(s) for s in range(4)]
    while rnd.phase == Phase.EXPOSE:
        seat = rnd.to_move
        assert seat is not None
        rnd.apply(players[seat].act(rnd.view(seat), rnd.legal(seat)))
    partner = rnd.exposed[2]
    assert partner and rnd.exposed[1] == rnd.exposed[3] == ()
    assert len({c.suit for c in partner}) == 1
    choice = players[0].act(rnd.view(0), rnd.legal(0))
    assert isinstance(choice, Declare)
    suit = partner[0].suit
    own = sum(1 for c in rnd.hands[0] if c.suit == suit)
    best = max(sum(1 for c in rnd.hands[0] if c.suit == s) for s in {c.suit for c in rnd.hands[0]}
               if s is not None)
    assert choice.suit == suit or own + len(partner) <= best
