"""Taking the lowest cards out of the pack so that the deal comes out even (option
``remove_low``), as an alternative to removing jokers or choosing the kitty to fit."""

from __future__ import annotations

from collections import Counter
from random import Random

import pytest

from shengji.engine.cards import Card, Hand, parse_cards
from shengji.engine.friends import (
    FriendCall,
    call_exhausted,
    exhausted_text,
    single_call_reason,
)
from shengji.engine.rules import Rules, RulesError
from shengji.engine.trump import Trump
from shengji.game.deal import pack, removed_cards
from shengji.game.phase import Phase
from shengji.game.presets import preset
from shengji.game.round import Round


def test_five_players_two_decks_and_a_kitty_of_six_lose_two_low_cards() -> None:
    with pytest.raises(RulesError, match="do not deal evenly"):
        Rules(players=5, kitty=6, partnership="fluid")
    rules = Rules(players=5, kitty=6, remove_low=True, partnership="fluid")
    assert (rules.removed_count, rules.hand_size, rules.kitty_size) == (2, 20, 6)
    rnd = Round(rules, seed=1, levels=(2,) * 5)
    assert rnd.removed == parse_cards("3C 3C")  # 2 is the trump rank: the 3s go
    assert len(rnd.deck) == 106 and Card("3C") not in rnd.deck


def test_cards_go_suit_by_suit_skipping_points_and_every_possible_trump_rank() -> None:
    rules = Rules(players=7, decks=2, kitty=5, remove_low=True, partnership="fluid")
    assert rules.removed_count == 5
    assert removed_cards(rules, []) == parse_cards("2C 2C 2D 2D 2H")
    # each Finding Friends player bids with their own level: none of those ranks goes
    rnd = Round(rules, seed=3, levels=(2, 3, 2, 2, 4, 2, 2))
    assert rnd.removed == parse_cards("6C 6C 6D 6D 6H")  # 2, 3, 4 are trump ranks; 5 scores


def test_a_round_with_removed_cards_keeps_every_card_and_all_points() -> None:
    rules = Rules(players=6, decks=3, kitty=8, remove_low=True)
    assert rules.removed_count == 4
    rng = Random(2)
    rnd = Round(rules, seed=2)
    while rnd.phase != Phase.DONE:
        seat = rnd.to_move
        assert seat is not None
        rnd.apply(rnd.legal(seat).random(rng))
    assert all(rnd.view(s).removed == rnd.removed for s in range(6))  # public
    result = rnd.result
    assert result is not None
    if not result.redeal:
        taken = sum(r.points for r in rnd.tricks) + sum(c.points for c in rnd.kitty)
        assert taken == 300
    assert Counter(pack(rules, rnd.removed)) + Counter(rnd.removed) == Counter(pack(rules))


def test_nothing_is_removed_when_the_deal_is_even() -> None:
    assert Rules(remove_low=True).removed_count == 0
    assert Round(Rules(remove_low=True), seed=1).removed == ()


def _at_the_call(rules: Rules, seed: int) -> Round:
    rng = Random(seed)
    rnd = Round(rules, seed=seed, levels=(2,) * rules.players)
    while rnd.phase != Phase.CALL:
        seat = rnd.to_move
        assert seat is not None
        rnd.apply(rnd.legal(seat).random(rng))
    return rnd


def test_a_card_taken_out_of_the_pack_cannot_be_called_as_a_friend() -> None:
    rules = preset("finding-friends", players=5, kitty=5, remove_low=True)
    rnd = _at_the_call(rules, seed=3)
    assert rnd.removed == parse_cards("3C 3C 3D")
    seat = rnd.to_move
    assert seat is not None
    legal = rnd.legal(seat)
    for call in ("1st 3C", "2nd 3C", "2nd 3D"):
        action = f"{seat} call {call}"
        why = legal.reason(action)
        assert why is not None and why.key == "call-taken-out", call
        assert action not in legal
    assert "was taken out to make the deal even" in str(legal.reason(f"{seat} call 2nd 3D"))
    listed = {str(c) for c in legal.calls}
    assert "1st 3D" in listed and not {"1st 3C", "2nd 3C", "2nd 3D"} & listed
    # listing and checking agree on every single call of the pack's faces
    for card in {str(c) for c in pack(rules)}:
        for nth in ("1st", "2nd"):
            call = f"{nth} {card}"
            assert (legal.reason(f"{seat} call {call}") is None) == (call in listed), call


def test_a_call_whose_other_copy_was_taken_out_is_left_to_the_caller() -> None:
    rules = Rules(players=5, kitty=5, remove_low=True, partnership="fluid")
    removed = Hand(parse_cards("3C 3C 3D")).counts
    held = Hand(parse_cards("3D 4S")).counts
    call = FriendCall.parse("1st 3D")
    assert call_exhausted(call, held, rules, removed=removed)
    assert not call_exhausted(call, held, rules)
    assert str(exhausted_text(call, held, rules, removed=removed)) == "you hold every 3D"
    refusing = rules.replace(friend_call_all_held="refused")
    why = single_call_reason(call, Trump.parse("2S"), refusing, held=held, removed=removed)
    assert why is not None and why.key == "call-all-held-refused"
