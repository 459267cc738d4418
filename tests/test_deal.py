"""Deals as data: a round started from given hands, kitty and draw order."""

from __future__ import annotations

from random import Random

import pytest

from shengji.engine.cards import Card, parse_cards
from shengji.engine.rules import Rules
from shengji.game.actions import Bid, Draw
from shengji.game.deal import Deal, DealError, pack
from shengji.game.phase import Phase
from shengji.game.presets import preset
from shengji.game.round import Round


def full_deal(rules: Rules, seed: int = 0, first_drawer: int = 0) -> Deal:
    """A deal of the whole pack, in a shuffled order."""
    cards = pack(rules)
    Random(seed).shuffle(cards)
    size, n = rules.hand_size, rules.players
    hands = tuple(tuple(cards[s * size:(s + 1) * size]) for s in range(n))
    return Deal(hands, tuple(cards[n * size:]), first_drawer)


@pytest.mark.parametrize("name", ["tractor", "da-bai-fen", "finding-friends", "hundred"])
def test_a_round_deals_exactly_the_given_cards(name: str) -> None:
    rules = preset(name)
    deal = full_deal(rules, seed=3, first_drawer=1)
    rnd = Round(rules, deal=deal, dealer=0)
    assert rnd.first_drawer == 1 and rnd.kitty == deal.kitty
    while rnd.phase == Phase.DEAL:
        rnd.apply(Draw(rnd.drawer))
    for seat, hand in enumerate(deal.hands):
        assert rnd.hands[seat].cards() == sorted(hand)


def test_cards_arrive_in_the_given_order_so_bids_can_be_made_during_the_deal() -> None:
    rules = Rules()
    base = full_deal(rules, seed=5)
    hands = [list(h) for h in base.hands]
    owner = next(s for s in range(4) if Card("2H") in hands[s] and Card("2H") != hands[2][0])
    # swap a 2H into seat 2's first draw
    at = hands[owner].index(Card("2H"))
    hands[owner][at], hands[2][0] = hands[2][0], hands[owner][at]
    deal = Deal(tuple(tuple(h) for h in hands), base.kitty, first_drawer=2)
    rnd = Round(rules, deal=deal, dealer=0)
    assert Bid(2, (Card("2H"),)) not in rnd.legal(2)
    rnd.apply(Draw(2))
    assert rnd.hands[2].cards() == [Card("2H")]
    assert Bid(2, (Card("2H"),)) in rnd.legal(2)


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: Deal(d.hands[:3], d.kitty), "3 hands; these rules seat 4"),
    (lambda d: Deal((d.hands[0][1:], *d.hands[1:]), d.kitty + d.hands[0][:1]),
     "seat 0 holds 24 cards"),
    (lambda d: Deal(d.hands, (*d.kitty[1:], Card("AS"))), "more than the pack holds of AS"),
    (lambda d: Deal(d.hands, d.kitty, first_drawer=4), "first_drawer is 4"),
])
def test_a_deal_that_does_not_fit_the_rules_is_refused(change: object, message: str) -> None:
    deal = change(full_deal(Rules()))  # type: ignore[operator]
    with pytest.raises(DealError, match=message):
        Round(Rules(), deal=deal)


def test_deals_read_and_write_as_plain_values() -> None:
    deal = full_deal(preset("da-bai-fen"), seed=8, first_drawer=3)
    again = Deal.from_dict(deal.to_dict())
    assert again == deal
    assert Round(preset("da-bai-fen"), deal=again).deck == deal.deck()


@pytest.mark.parametrize(("data", "message"), [
    ({"hands": "AS", "kitty": ""}, "deal.hands must be a list"),
    ({"hands": ["AS"], "kitty": 5}, "deal.kitty must be a string"),
    ({"hands": ["AS"], "kitty": "", "first_drawer": "1"}, "first_drawer must be a seat"),
    ({"hands": ["1S"], "kitty": ""}, "cannot read card '1S'"),
    ({"hands": [], "kitty": "", "dealer": 0}, "unknown deal key"),
])
def test_bad_deal_data_is_refused_clearly(data: dict[str, object], message: str) -> None:
    with pytest.raises(DealError, match=message):
        Deal.from_dict(data)


def test_a_deal_is_read_from_notation() -> None:
    deal = Deal.parse(["AS KS", "QS JS"], "10S")
    assert deal.hands == (parse_cards("AS KS"), parse_cards("QS JS"))
    assert deal.deck() == parse_cards("AS QS KS JS 10S")
