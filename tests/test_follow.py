"""Following a lead: the suit, the structure under each option, and the refusals.

Jacks and hearts are trump throughout (``JH``), so spades run A K Q 10 9 .. 2.
"""

import random
from itertools import combinations

import pytest

from shengji.engine import (
    Hand,
    Lead,
    LegalPlays,
    PlayError,
    Rules,
    TractorFollow,
    Trump,
    TupleFollow,
    format_cards,
    parse_cards,
)

JACK_HEARTS = Trump.parse("JH")
THREE_DECKS = Rules(decks=3)
FOUR_DECKS = Rules(players=8, decks=4)


def legal(lead: str, hand: str, rules: Rules | None = None,
          trump: Trump = JACK_HEARTS) -> LegalPlays:
    rules = rules or Rules()
    return LegalPlays(Hand(hand), Lead.from_cards(lead, trump, rules), trump, rules)


def plays(legal_plays: LegalPlays) -> set[str]:
    """Every legal play, each written sorted (order-free)."""
    return {" ".join(sorted(str(c) for c in play)) for play in legal_plays}


def cards(*texts: str) -> set[str]:
    return {" ".join(sorted(str(c) for c in parse_cards(text))) for text in texts}


def brute_force(legal_plays: LegalPlays) -> set[str]:
    """Every sub-multiset of the hand of the lead's size that ``reason`` accepts."""
    hand = legal_plays.hand.cards()
    found = set()
    for indices in combinations(range(len(hand)), legal_plays.count):
        play = [hand[i] for i in indices]
        if legal_plays.reason(play) is None:
            found.add(" ".join(sorted(str(c) for c in play)))
    return found


# -- the suit ----------------------------------------------------------------------------


def test_a_follower_must_follow_the_led_suit() -> None:
    follow = legal("KS", "9S 8S AC KC")
    assert follow.mode == "follow"
    assert plays(follow) == cards("9S", "8S")


def test_a_follower_who_leaves_the_suit_is_told_which_suit_and_which_card() -> None:
    why = legal("KS", "9S 8S AC KC").reason("AC")
    assert why == "you hold 2 spades: the card must be a spade (you played AC)"


def test_a_follower_short_in_the_suit_plays_all_of_it_and_anything_else() -> None:
    follow = legal("KS KS", "9S AC KC")
    assert follow.mode == "short"
    assert plays(follow) == cards("9S AC", "9S KC")


def test_a_follower_short_in_the_suit_is_told_to_play_all_of_it() -> None:
    why = legal("KS KS", "9S AC KC").reason("AC KC")
    assert why == "you hold only 1 spade (9S): play it before other cards"


def test_a_follower_void_in_the_suit_may_play_anything() -> None:
    follow = legal("KS KS", "AC KC 3D")
    assert follow.mode == "free"
    assert plays(follow) == cards("AC KC", "AC 3D", "KC 3D")


def test_a_void_follower_need_not_ruff_with_a_trump_pair() -> None:
    """Seed 2006: out of the suit "he does not have to play an n-tuple under any
    circumstances"."""
    assert plays(legal("KS KS", "3H 3H AC")) == cards("3H 3H", "3H AC")


def test_a_trump_lead_is_followed_with_trumps_rank_cards_and_jokers_included() -> None:
    """J♠ and the small joker are trumps when J♥ is: they follow a trump lead."""
    assert plays(legal("3H", "JS SJ AS")) == cards("JS", "SJ")


def test_a_trump_rank_card_does_not_follow_its_printed_suit() -> None:
    """J♠ is a trump, so a player whose only "spade" is J♠ is void in spades."""
    follow = legal("KS", "JS 3D")
    assert follow.mode == "free"
    assert plays(follow) == cards("JS", "3D")


def test_a_follower_plays_as_many_cards_as_were_led() -> None:
    follow = legal("KS KS", "9S 8S 7S")
    assert follow.reason("9S") == "play 2 cards: 2 were led"
    assert follow.reason("9S 8S 7S") == "play 2 cards: 2 were led"
    assert legal("KS", "9S 8S").reason("9S 8S") == "play 1 card: 1 was led"


def test_a_follower_cannot_play_cards_not_held() -> None:
    assert legal("KS", "9S 8S").reason("QS") == "you do not hold QS"


def test_check_raises_the_reason() -> None:
    with pytest.raises(PlayError, match="the card must be a spade"):
        legal("KS", "9S 8S AC").check("AC")


# -- a pair (n-tuple) led ----------------------------------------------------------------


def test_a_pair_lead_forces_a_held_pair() -> None:
    assert plays(legal("KS KS", "9S 9S 8S AC")) == cards("9S 9S")


def test_a_pair_refusal_names_the_suit_the_pair_and_the_rule() -> None:
    why = legal("KS KS", "9S 9S 8S AC").reason("9S 8S")
    assert why == (
        "you hold 1 pair in spades (9S 9S): a pair led must be followed by as many pairs"
        " as you can play"
    )


def test_a_pair_lead_without_a_pair_takes_any_cards_of_the_suit() -> None:
    assert plays(legal("KS KS", "9S 8S 3S AC")) == cards("9S 8S", "9S 3S", "8S 3S")


def test_draw_out_policy_forces_a_pair_out_of_a_triple() -> None:
    """Seed 2006, rule 1: "he must play it, even if this n-tuple is part of an m-tuple"."""
    rules = Rules(decks=3, tuple_follow=TupleFollow.DRAW_OUT)
    assert plays(legal("KS KS", "9S 9S 9S 8S 3S", rules)) == cards("9S 9S")


def test_protect_policy_does_not_force_a_pair_out_of_a_triple() -> None:
    """Seed 2006, rule 2: the pair is forced "only if this n-tuple is not part of an
    m-tuple"."""
    rules = Rules(decks=3, tuple_follow=TupleFollow.PROTECT)
    assert plays(legal("KS KS", "9S 9S 9S 8S 3S", rules)) == cards(
        "9S 9S", "9S 8S", "9S 3S", "8S 3S"
    )


def test_protect_policy_forces_a_real_pair_but_allows_one_split_off_a_triple() -> None:
    """Seed 2006, rule 2: a held pair is forced; a pair out of the triple "he can still
    play ... if he wants to"."""
    rules = Rules(decks=3, tuple_follow=TupleFollow.PROTECT)
    follow = legal("KS KS", "9S 9S 9S 8S 8S 3S", rules)
    assert plays(follow) == cards("8S 8S", "9S 9S")
    assert follow.reason("9S 3S") == (
        "you hold 2 cards in spades in tuples of the led size (8S 8S): a pair led must be"
        " followed by those, longer tuples being protected (you played 0 such cards)"
    )


def test_none_policy_only_asks_for_the_suit() -> None:
    rules = Rules(tuple_follow=TupleFollow.NONE)
    follow = legal("KS KS", "9S 9S 8S AC", rules)
    assert plays(follow) == cards("9S 9S", "9S 8S")
    assert follow.describe() == "play 2 spades"


def test_draw_out_policy_forces_a_triple_out_of_a_quadruple_with_four_decks() -> None:
    assert plays(legal("KS KS KS", "9S 9S 9S 9S 8S 8S 3S", FOUR_DECKS)) == cards("9S 9S 9S")


def test_draw_out_policy_lets_either_triple_answer_a_triple() -> None:
    assert plays(legal("KS KS KS", "9S 9S 9S 9S 8S 8S 8S 3S", FOUR_DECKS)) == cards(
        "9S 9S 9S", "8S 8S 8S"
    )


def test_draw_out_policy_without_a_quadruple_asks_only_for_the_suit() -> None:
    """Seed 2006, rule 1: "Otherwise, a player must follow suit with any n cards" -- a
    quadruple led draws out no triples or pairs."""
    follow = legal("KS KS KS KS", "9S 9S 9S 8S 8S 6S 6S", FOUR_DECKS)
    assert follow.describe() == "play 4 spades"
    assert "9S 8S 6S 6S" in follow


def test_protect_policy_with_four_decks_plays_the_pair_and_keeps_the_quadruple() -> None:
    """Seed 2006, rule 2: a triple led on a quadruple, a pair and a single: the quadruple
    is protected, so the pair (and any card) is the obligation."""
    rules = FOUR_DECKS.replace(tuple_follow=TupleFollow.PROTECT)
    follow = legal("KS KS KS", "9S 9S 9S 9S 8S 8S 3S", rules)
    assert plays(follow) == cards("8S 8S 3S", "8S 8S 9S", "9S 9S 9S")


def test_protect_policy_prefers_two_doubles_to_a_triple_under_a_quadruple() -> None:
    """Seed 2006, rule 2: "if a quadruple is lead, and the player has a triple, two
    doubles, and some number of single cards in the same suit, he must play the two
    doubles"."""
    rules = FOUR_DECKS.replace(tuple_follow=TupleFollow.PROTECT)
    follow = legal("KS KS KS KS", "9S 9S 9S 8S 8S 6S 6S 4S 3S", rules)
    assert plays(follow) == cards("8S 8S 6S 6S")
    why = follow.reason("9S 9S 9S 3S")
    assert why == (
        "you can lock 4 cards in tuples of spades (6S 6S 8S 8S): play as many cards in"
        " tuples as the lead's structure allows (you locked 3)"
    )


def test_protect_policy_plays_a_triple_and_a_single_when_the_double_cannot_join() -> None:
    """Seed 2006, rule 2: "If he only has a triple, a double, and some singles, he must
    play the triple and a single"."""
    rules = FOUR_DECKS.replace(tuple_follow=TupleFollow.PROTECT)
    follow = legal("KS KS KS KS", "9S 9S 9S 8S 8S 4S 3S", rules)
    assert plays(follow) == cards("9S 9S 9S 8S", "9S 9S 9S 4S", "9S 9S 9S 3S")


def test_protect_policy_plays_a_double_and_two_singles_with_only_a_double() -> None:
    """Seed 2006, rule 2: "if he only has a double and singles, he must play the double and
    two singles"."""
    rules = FOUR_DECKS.replace(tuple_follow=TupleFollow.PROTECT)
    follow = legal("KS KS KS KS", "9S 9S 5S 4S 3S", rules)
    assert plays(follow) == cards("9S 9S 5S 4S", "9S 9S 5S 3S", "9S 9S 4S 3S")
    assert follow.forced == parse_cards("9S 9S")


# -- a tractor led -----------------------------------------------------------------------

TRACTOR = "KS KS QS QS"


def test_tractor_policy_forces_a_held_tractor() -> None:
    rules = Rules(tractor_follow=TractorFollow.TRACTOR)
    assert plays(legal(TRACTOR, "9S 9S 8S 8S 5S 5S 3S", rules)) == cards("9S 9S 8S 8S")


def test_tractor_refusal_names_the_suit_the_tractor_and_the_rule() -> None:
    why = legal(TRACTOR, "9S 9S 8S 8S 5S 5S 3S").reason("9S 9S 5S 5S")
    assert why == (
        "you hold a tractor of 2 pairs in spades (8S 8S 9S 9S): a tractor of 2 pairs led"
        " must be followed by one"
    )


def test_tractor_policy_without_a_tractor_forces_as_many_pairs_as_held() -> None:
    rules = Rules(tractor_follow=TractorFollow.TRACTOR)
    follow = legal(TRACTOR, "9S 9S 5S 5S 4S 3S", rules)
    assert plays(follow) == cards("9S 9S 5S 5S")
    assert follow.reason("9S 9S 4S 3S") == (
        "you hold 2 pairs in spades (5S 5S 9S 9S): a tractor of 2 pairs led must be followed"
        " by as many pairs as you can play"
    )


def test_tractor_policy_without_pairs_takes_singles() -> None:
    assert plays(legal(TRACTOR, "9S 9S 5S 4S 3S")) == cards(
        "9S 9S 5S 4S", "9S 9S 5S 3S", "9S 9S 4S 3S"
    )


def test_tuples_policy_takes_any_pairs_instead_of_the_tractor() -> None:
    """Seed 2006: "according to others, this player may play any m n-tuples"."""
    rules = Rules(tractor_follow=TractorFollow.TUPLES)
    follow = legal(TRACTOR, "9S 9S 8S 8S 5S 5S 3S", rules)
    assert plays(follow) == cards("9S 9S 8S 8S", "9S 9S 5S 5S", "8S 8S 5S 5S")
    assert follow.describe() == "play 4 spades, including 2 pairs"


def test_tractor_only_policy_forces_a_held_tractor() -> None:
    rules = Rules(tractor_follow=TractorFollow.TRACTOR_ONLY)
    assert plays(legal(TRACTOR, "9S 9S 8S 8S 5S 5S 3S", rules)) == cards("9S 9S 8S 8S")


def test_tractor_only_policy_forces_nothing_without_a_tractor() -> None:
    """Only a tractor draws a tractor: held pairs are not forced."""
    rules = Rules(tractor_follow=TractorFollow.TRACTOR_ONLY)
    follow = legal(TRACTOR, "9S 9S 5S 5S 4S 3S", rules)
    assert "9S 5S 4S 3S" in follow
    assert follow.describe() == "play 4 spades"
    assert len(plays(follow)) == 8


def test_longest_policy_forces_the_longest_shorter_tractor() -> None:
    rules = Rules(tractor_follow=TractorFollow.LONGEST)
    follow = legal("KS KS QS QS 10S 10S", "9S 9S 8S 8S 5S 5S 3S 3S 4S", rules)
    assert plays(follow) == cards("9S 9S 8S 8S 5S 5S", "9S 9S 8S 8S 3S 3S")
    assert follow.reason("9S 9S 5S 5S 3S 3S") == (
        "you hold a tractor of 2 pairs in spades (8S 8S 9S 9S): with no tractor of 3 pairs,"
        " the longest shorter tractor must be played"
    )


def test_tractor_policy_does_not_force_a_shorter_tractor() -> None:
    rules = Rules(tractor_follow=TractorFollow.TRACTOR)
    follow = legal("KS KS QS QS 10S 10S", "9S 9S 8S 8S 5S 5S 3S 3S 4S", rules)
    assert plays(follow) == cards(
        "9S 9S 8S 8S 5S 5S", "9S 9S 8S 8S 3S 3S", "9S 9S 5S 5S 3S 3S", "8S 8S 5S 5S 3S 3S"
    )


def test_a_triple_tractor_under_protect_takes_the_triple_a_double_and_a_single() -> None:
    """Seed 2006, rule 2: "if 333444 of hearts has been led, and a player has one triple
    and several doubles and singles of hearts, he must play the triple, a double, and a
    single"."""
    rules = THREE_DECKS.replace(tuple_follow=TupleFollow.PROTECT)
    follow = legal("AS AS AS KS KS KS", "9S 9S 9S 6S 6S 5S 5S 3S 3S 2S", rules)
    assert "9S 9S 9S 6S 6S 2S" in follow
    assert "6S 6S 5S 5S 3S 3S" not in follow
    assert all(play.count(parse_cards("9S")[0]) == 3 for play in follow)
    assert follow.describe() == (
        "play 6 spades, including 3 cards in tuples of the led size and 5 cards in tuples"
    )


def test_a_triple_tractor_under_protect_takes_three_doubles_without_a_triple() -> None:
    """Seed 2006, rule 2: "if he has no triples but three doubles of hearts, he must play
    all three doubles"."""
    rules = THREE_DECKS.replace(tuple_follow=TupleFollow.PROTECT)
    assert plays(legal("AS AS AS KS KS KS", "6S 6S 5S 5S 3S 3S 2S", rules)) == cards(
        "6S 6S 5S 5S 3S 3S"
    )


def test_draw_out_policy_triple_tractor_without_triples_asks_only_for_the_suit() -> None:
    """Seed 2006, rule 1 with a tractor: triples are drawn out, and without them "any n
    cards"; smaller tuples are forced only under rule 2 (``protect``)."""
    follow = legal("AS AS AS KS KS KS", "9S 9S 8S 8S 5S 3S 2S", THREE_DECKS)
    assert follow.describe() == "play 6 spades"
    assert "9S 8S 8S 5S 3S 2S" in follow


# -- a throw led -------------------------------------------------------------------------


def test_a_throw_lead_forces_its_tractor_first() -> None:
    follow = legal("AS AS KS KS 7S", "9S 9S 8S 8S 5S 5S 3S 2S")
    assert plays(follow) == cards("9S 9S 8S 8S 5S", "9S 9S 8S 8S 3S", "9S 9S 8S 8S 2S")


def test_a_throw_of_two_pairs_forces_two_pairs() -> None:
    follow = legal("AS AS QS QS 7S", "9S 9S 8S 8S 3S 2S")
    assert plays(follow) == cards("9S 9S 8S 8S 3S", "9S 9S 8S 8S 2S")
    assert follow.reason("9S 9S 8S 3S 2S") == (
        "you hold 2 pairs in spades (8S 8S 9S 9S): a throw of pair + pair + single led must"
        " be followed by as many pairs as you can play"
    )


def test_a_throw_matches_its_largest_component_first() -> None:
    """A triple + pair + single thrown (three decks): the triple is matched before the pair,
    so two pairs and a single do not do when a triple is held."""
    follow = legal("AS AS AS QS QS 7S", "9S 9S 9S 8S 8S 5S 5S 3S", THREE_DECKS)
    assert "9S 9S 9S 5S 5S 3S" in follow
    assert "9S 9S 9S 8S 8S 3S" in follow
    why = follow.reason("9S 9S 8S 8S 5S 5S")
    assert why == (
        "you hold 1 triple in spades (9S 9S 9S): a throw of triple + pair + single led must"
        " be followed by as many triples as you can play"
    )


def test_a_throw_under_protect_matches_each_component_with_tuples_of_its_size() -> None:
    rules = THREE_DECKS.replace(tuple_follow=TupleFollow.PROTECT)
    follow = legal("AS AS AS QS QS 7S", "9S 9S 9S 8S 5S 5S 3S 2S", rules)
    assert plays(follow) == cards("9S 9S 9S 5S 5S 8S", "9S 9S 9S 5S 5S 3S", "9S 9S 9S 5S 5S 2S")
    assert follow.reason("9S 9S 9S 8S 3S 2S") == (
        "you hold 5 cards in spades in tuples of the led size (5S 5S 9S 9S 9S): a throw of"
        " triple + pair + single led must be followed by those, longer tuples being protected"
        " (you played 3 such cards)"
    )


# -- the description: forced, pool, describe --------------------------------------------


def test_describe_forced_and_pool_of_a_pair_lead() -> None:
    follow = legal("KS KS", "9S 9S 8S AC")
    assert follow.describe() == "play 2 spades, including 1 pair"
    assert follow.forced == parse_cards("9S 9S")
    assert follow.pool == parse_cards("9S 9S 8S")


def test_describe_forced_and_pool_when_short() -> None:
    follow = legal("KS KS", "9S AC KC")
    assert follow.describe() == "play all your spades (9S) and any 1 other card"
    assert follow.forced == parse_cards("9S")
    assert set(follow.pool) == set(parse_cards("9S AC KC"))


def test_describe_forced_and_pool_when_void() -> None:
    follow = legal("KS KS", "AC KC")
    assert follow.describe() == "play any 2 cards: you have no spades"
    assert sorted(follow.forced) == sorted(parse_cards("AC KC"))
    assert sorted(follow.pool) == sorted(parse_cards("AC KC"))


def test_describe_forced_and_pool_of_a_tractor_lead() -> None:
    follow = legal(TRACTOR, "9S 9S 8S 8S 5S 5S 3S AC")
    assert follow.describe() == "play 4 spades, including a tractor of 2 pairs"
    assert sorted(follow.forced) == sorted(parse_cards("9S 9S 8S 8S"))
    assert "AC" not in format_cards(follow.pool)


def test_forced_is_empty_when_the_choice_is_free_within_the_suit() -> None:
    follow = legal("KS", "9S 8S AC")
    assert follow.forced == ()
    assert follow.describe() == "play 1 spade"


def test_can_complete_tells_an_interface_whether_a_selection_can_still_become_legal() -> None:
    follow = legal(TRACTOR, "9S 9S 8S 8S 5S 5S 3S AC")
    assert follow.can_complete("9S 8S")
    assert not follow.can_complete("5S")
    assert not follow.can_complete("AC")


# -- enumeration and random plays --------------------------------------------------------

POSITIONS = [
    ("KS", "9S 8S AC KC", Rules()),
    ("KS KS", "9S AC KC 3D", Rules()),
    ("KS KS", "AC KC 3D QD", Rules()),
    (TRACTOR, "9S 9S 8S 8S 5S 5S 3S", Rules(tractor_follow=TractorFollow.TUPLES)),
    (TRACTOR, "9S 9S 5S 5S 4S 3S 2S", Rules(tractor_follow=TractorFollow.TRACTOR_ONLY)),
    ("AS AS KS KS 7S", "9S 9S 8S 8S 5S 5S 3S 2S", Rules()),
    ("KS KS", "9S 9S 9S 8S 8S 3S", Rules(decks=3, tuple_follow=TupleFollow.PROTECT)),
]


@pytest.mark.parametrize(("lead", "hand", "rules"), POSITIONS)
def test_iteration_lists_every_legal_play_once(lead: str, hand: str, rules: Rules) -> None:
    follow = legal(lead, hand, rules)
    listed = [" ".join(sorted(str(c) for c in play)) for play in follow]
    assert len(listed) == len(set(listed))
    assert set(listed) == brute_force(follow)


@pytest.mark.parametrize(("lead", "hand", "rules"), POSITIONS)
def test_random_draws_only_legal_plays(lead: str, hand: str, rules: Rules) -> None:
    follow = legal(lead, hand, rules)
    rng = random.Random(7)
    for _ in range(100):
        play = follow.random(rng)
        assert follow.reason(play) is None, format_cards(play)


@pytest.mark.parametrize(("lead", "hand", "rules"), POSITIONS[:-1])
def test_random_reaches_every_legal_play(lead: str, hand: str, rules: Rules) -> None:
    follow = legal(lead, hand, rules)
    rng = random.Random(7)
    drawn = {" ".join(sorted(str(c) for c in follow.random(rng))) for _ in range(300)}
    assert drawn == plays(follow)


def test_random_never_volunteers_to_break_a_protected_tuple() -> None:
    """Under ``protect`` a pair split off a triple is legal but never forced; a random
    play takes the obligation (the held pair) rather than break the triple."""
    follow = legal(*POSITIONS[-1])
    rng = random.Random(7)
    assert {format_cards(follow.random(rng)) for _ in range(50)} == {"8S 8S"}
