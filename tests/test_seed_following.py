"""The seeds' worked examples of what a follower must play.

Each test quotes the seed sentence it checks (files in ``/work/shared/seeds/``).
``legal_plays`` lists every legal follow, so a test can say "the only legal play is ...".
"""

import pytest

from shengji.engine import (
    Hand,
    Lead,
    LegalPlays,
    Rules,
    TractorFollow,
    Trump,
    TupleFollow,
    parse_cards,
)

SEVEN_CLUBS = Trump.parse("7C")


def legal(lead: str, hand: str, rules: Rules, trump: Trump = SEVEN_CLUBS) -> LegalPlays:
    """The legal follows of ``hand`` to the cards ``lead``."""
    return LegalPlays(Hand(hand), Lead.from_cards(lead, trump, rules), trump, rules)


def plays(legal_plays: LegalPlays) -> set[tuple[str, ...]]:
    """Every legal play, each as a sorted tuple of card names (order-free comparison)."""
    return {tuple(sorted(str(card) for card in play)) for play in legal_plays}


def cards(*texts: str) -> set[tuple[str, ...]]:
    """Plays written in the notation, in the form :func:`plays` returns."""
    return {tuple(sorted(str(card) for card in parse_cards(text))) for text in texts}


# -- single cards ------------------------------------------------------------------------


def test_wikipedia_single_lead_follow_suit() -> None:
    """wikipedia_sheng_ji, Single card lead: "Subsequent players must follow lead's suit if they
    have cards in the same suit; if a trump card is used to lead the trick, the other players
    must play a trump card, if they still have any."
    """
    rules = Rules()
    assert plays(legal("KS", "3S 9S AH", rules)) == cards("3S", "9S")
    # 7♥ is a trump when 7♣ is: it answers a trump lead, and does not follow hearts
    assert plays(legal("AC", "7H 3H", rules)) == cards("7H")
    assert plays(legal("AH", "7H 3D", rules)) == cards("7H", "3D")


def test_2006_king_of_clubs_does_not_follow_clubs() -> None:
    """wikipedia_2006_bashi_fen: "suppose that kings and spades are trump ... Note that the
    king of clubs is no longer considered a club, but part of the trump suit." -- a player
    whose only "club" is K♣ is void in clubs and may play anything."""
    trump = Trump.parse("KS")
    follow = legal("AC", "KC 3D", Rules(), trump)
    assert follow.mode == "free"
    assert plays(follow) == cards("KC", "3D")


# -- pairs and n-tuples ------------------------------------------------------------------


def test_wikipedia_pair_lead_follow() -> None:
    """wikipedia_sheng_ji, Double cards lead: "the other players must also follow by matching
    suit and structure (double cards), if possible; for players who do not have double cards
    in the suit lead, they must play separate cards in the same suit if they have them. If they
    have no cards in the lead suit, they may play any cards from other suits, or a double from
    the trump suit to "ruff" the trick."
    """
    rules = Rules()
    assert plays(legal("KS KS", "9S 9S 8S AC", rules)) == cards("9S 9S")
    no_pair = legal("KS KS", "9S 8S 4S AC", rules)
    assert plays(no_pair) == cards("9S 8S", "9S 4S", "8S 4S")
    void = legal("KS KS", "5C 5C AH", rules)
    assert plays(void) == cards("5C 5C", "5C AH")


def test_wikipedia_short_of_the_led_suit() -> None:
    """wikipedia_sheng_ji, Tricks: "Follow lead's suit, using additional cards from lead's suit
    to match lead's card count; this may be supplemented by additional cards from other suits
    if needed to match lead's card count". da_bai_fen_rules says the same of a group: "if
    unable to completely follow suit any card may be used in the group."
    """
    short = legal("KS KS", "9S AC 3D", Rules())
    assert plays(short) == cards("9S AC", "9S 3D")
    assert "AC 3D" not in short
    group = legal("AS KS QS", "9S AC 3D 4D", Rules(decks=1), Trump.parse("2H"))
    assert all("9S" in play for play in plays(group))
    assert len(plays(group)) == 3


def test_2006_rule_1_pairs_draw_out_triples() -> None:
    """wikipedia_2006_bashi_fen, Multiple identical cards, rule 1 ("Doubles force out
    triples"): "If a player has an n-tuple in the same suit, he must play it, even if this
    n-tuple is part of an m-tuple, where m>n." (``TupleFollow.DRAW_OUT``, the default)."""
    rules = Rules(decks=3, tuple_follow=TupleFollow.DRAW_OUT)
    assert plays(legal("8S 8S", "9S 9S 9S 2S QS", rules)) == cards("9S 9S")


def test_2006_rule_1_otherwise_any_n_cards_of_the_suit() -> None:
    """wikipedia_2006_bashi_fen, rule 1: "Otherwise, a player must follow suit with any n
    cards. If the player has fewer than n cards of the suit, he must play all of his cards in
    that suit and enough additional cards to add up to n." and "If a player is out of the suit
    of the lead, he may play any n cards. He may take the trick by playing an n-tuple of trump,
    but he does not have to play an n-tuple under any circumstances."
    """
    rules = Rules(decks=3, tuple_follow=TupleFollow.DRAW_OUT)
    assert plays(legal("8S 8S 8S", "9S 9S 2S QS", rules)) == cards(
        "9S 9S 2S", "9S 9S QS", "9S 2S QS"
    )
    assert plays(legal("8S 8S 8S", "9S 2H 2H", rules)) == cards("9S 2H 2H")
    void = legal("8S 8S 8S", "2C 2C 2C 3H", rules)
    assert cards("2C 2C 2C", "2C 2C 3H") <= plays(void)


def test_2006_rule_2_longer_tuples_are_protected() -> None:
    """wikipedia_2006_bashi_fen, rule 2 ("Triples force out doubles"): "If a player has an
    n-tuple in the same suit, he must play it, but only if this n-tuple is not part of an
    m-tuple, where m>n. Of course, he can still play it if he wants to."
    (``TupleFollow.PROTECT``)."""
    rules = Rules(decks=3, tuple_follow=TupleFollow.PROTECT)
    # a pair of its own must be played (or, by choice, a pair broken out of the triple:
    # "he can still play it if he wants to") -- never two singles
    assert plays(legal("8S 8S", "9S 9S 9S 4S 4S 2S QS", rules)) == cards("4S 4S", "9S 9S")
    # ... but a pair inside a triple is not forced -- and may still be played
    only_triple = plays(legal("8S 8S", "9S 9S 9S 2S QS", rules))
    assert only_triple == cards("9S 9S", "9S 2S", "9S QS", "2S QS")


def test_2006_rule_2_quadruple_led_triple_and_two_doubles() -> None:
    """wikipedia_2006_bashi_fen, rule 2: "If a player has k-tuples in the same suit, where k<n,
    he must play them so as to play the largest possible amount of cards locked in these
    k-tuples. For example, if a quadruple is lead, and the player has a triple, two doubles,
    and some number of single cards in the same suit, he must play the two doubles."
    """
    rules = Rules(decks=4, tuple_follow=TupleFollow.PROTECT)
    follow = legal("8S 8S 8S 8S", "3S 3S 3S 5S 5S 9S 9S QS KS", rules)
    assert plays(follow) == cards("5S 5S 9S 9S")


def test_2006_rule_2_quadruple_led_triple_and_one_double() -> None:
    """wikipedia_2006_bashi_fen, rule 2: "If he only has a triple, a double, and some singles,
    he must play the triple and a single." (Four cards cannot lock both: 3 beats 2.)"""
    rules = Rules(decks=4, tuple_follow=TupleFollow.PROTECT)
    follow = legal("8S 8S 8S 8S", "3S 3S 3S 5S 5S QS KS", rules)
    assert plays(follow) == cards("3S 3S 3S 5S", "3S 3S 3S QS", "3S 3S 3S KS")
    assert "3S 3S 5S 5S" not in follow  # a double plus part of the triple locks only 2


def test_2006_rule_2_quadruple_led_double_and_singles() -> None:
    """wikipedia_2006_bashi_fen, rule 2: "Finally, if he only has a double and singles, he must
    play the double and two singles."
    """
    rules = Rules(decks=4, tuple_follow=TupleFollow.PROTECT)
    follow = legal("8S 8S 8S 8S", "5S 5S QS KS 2S", rules)
    assert plays(follow) == cards("5S 5S QS KS", "5S 5S QS 2S", "5S 5S KS 2S")


# -- tractors ----------------------------------------------------------------------------


def test_wikipedia_tractor_follow_order() -> None:
    """wikipedia_sheng_ji, Consecutive double cards lead: "the other players must follow suit
    by playing cards according to the following priority, if they have them: Other
    consecutively-ranked doubles (tractor) in the same suit; Other doubles in the same suit;
    Other singles in the same suit"."""
    rules = Rules()
    lead = "3H 3H 4H 4H"
    assert plays(legal(lead, "9H 9H 10H 10H 5H 6H 8H", rules)) == cards("9H 9H 10H 10H")
    # 8♥ and 6♥ are adjacent with 7♣ trump: still a tractor
    assert plays(legal(lead, "6H 6H 8H 8H 5H JH", rules)) == cards("6H 6H 8H 8H")
    assert plays(legal(lead, "9H 9H JH JH 5H 6H", rules)) == cards("9H 9H JH JH")
    assert plays(legal(lead, "9H 9H 5H 6H 8H", rules)) == cards(
        "9H 9H 8H 6H", "9H 9H 8H 5H", "9H 9H 6H 5H"
    )
    singles = legal(lead, "9H 5H 6H 8H AH", rules)
    assert len(plays(singles)) == 5  # any four of the five hearts


def test_2006_tractor_follow_variants() -> None:
    """wikipedia_2006_bashi_fen, Consecutive n-tuples: "According to some rules, if a player
    also has m consecutive n-tuples along with other n-tuples, he must play this combination,
    but according to others, this player may play any m n-tuples." -- ``TractorFollow.TRACTOR``
    (the default) and ``TractorFollow.TUPLES``."""
    hand = "9H 9H JH JH QH QH 5H 6H"
    tractor = legal("3H 3H 4H 4H", hand, Rules(tractor_follow=TractorFollow.TRACTOR))
    assert plays(tractor) == cards("JH JH QH QH")
    tuples = legal("3H 3H 4H 4H", hand, Rules(tractor_follow=TractorFollow.TUPLES))
    assert plays(tuples) == cards("JH JH QH QH", "9H 9H QH QH", "9H 9H JH JH")


def test_2006_rule_2_tractor_of_triples_with_one_triple() -> None:
    """wikipedia_2006_bashi_fen: "If (2) is followed, and a player has no n-tuples, he must play
    as many k-tuples as fit into the whole combination. For example, if 333444 of hearts has
    been led, and a player has one triple and several doubles and singles of hearts, he must
    play the triple, a double, and a single."
    """
    rules = Rules(decks=3, tuple_follow=TupleFollow.PROTECT)
    follow = legal("3H 3H 3H 4H 4H 4H", "5H 5H 5H 9H 9H JH JH 2H QH", rules)
    expected = {
        f"5H 5H 5H {double} {single}"
        for double in ("9H 9H", "JH JH")
        for single in ("2H", "QH", "9H", "JH")
        if single not in double
    }
    assert plays(follow) == cards(*expected)
    assert "9H 9H JH JH 5H 5H" not in follow  # three doubles, but the triple broken


def test_2006_rule_2_tractor_of_triples_with_three_doubles() -> None:
    """wikipedia_2006_bashi_fen: "However, if he has no triples but three doubles of hearts, he
    must play all three doubles."
    """
    rules = Rules(decks=3, tuple_follow=TupleFollow.PROTECT)
    follow = legal("3H 3H 3H 4H 4H 4H", "9H 9H JH JH KH KH 2H QH", rules)
    assert plays(follow) == cards("9H 9H JH JH KH KH")


def test_2006_rule_2_three_triples_with_a_triple_and_three_doubles() -> None:
    """wikipedia_2006_bashi_fen: "Also, if 333444555 of hearts had been led instead, and a
    player has a triple and three doubles along with some singles of hearts, he must play the
    triple and the three doubles."
    """
    rules = Rules(decks=3, tuple_follow=TupleFollow.PROTECT)
    follow = legal("3H 3H 3H 4H 4H 4H 5H 5H 5H", "6H 6H 6H 9H 9H JH JH KH KH 2H QH", rules)
    assert plays(follow) == cards("6H 6H 6H 9H 9H JH JH KH KH")


def test_2006_throw_followed_as_if_split_into_units() -> None:
    """wikipedia_2006_bashi_fen, The highest cards in a suit: "other players must follow suit to
    the extent possible, playing cards in such a way that if the trick were split up into
    single n-tuples their plays would still be valid."
    """
    rules = Rules(decks=3)
    follow = legal("AS KS KS", "5S 5S 9S 3S 4D", rules, Trump.parse("JC"))
    assert plays(follow) == cards("5S 5S 9S", "5S 5S 3S")


@pytest.mark.parametrize("hand", ["9D 9D 3S", "QD JD", "AC QC JC 5C 5C"])
def test_every_follow_plays_as_many_cards_as_led(hand: str) -> None:
    """wikipedia_2006_bashi_fen, Play: "As a general rule, a player must always play the number
    of cards that was led." (hundred_da_bai_fen_variant: "Each subsequent player must put the
    same number of cards")."""
    follow = legal("9D 9D", hand, Rules())
    assert plays(follow)
    assert all(len(play) == 2 for play in plays(follow))
    assert follow.reason(hand.split()[0]) is not None
