"""Issue 11's play rules, as scenarios: cards in notation and the expected ruling.

Each test fails without the fix or option it names.
"""

from shengji.engine import Hand, Lead, LegalPlays, Rules, Trump, TupleFollow, parse_cards


def legal(lead: str, hand: str, rules: Rules, trump: Trump) -> LegalPlays:
    """The legal follows of ``hand`` to the cards ``lead``."""
    return LegalPlays(Hand(hand), Lead.from_cards(lead, trump, rules), trump, rules)


def plays(legal_plays: LegalPlays) -> set[tuple[str, ...]]:
    """Every legal play, each as a sorted tuple of card names."""
    return {tuple(sorted(str(card) for card in play)) for play in legal_plays}


def cards(*texts: str) -> set[tuple[str, ...]]:
    """Plays written in the notation, in the form :func:`plays` returns."""
    return {tuple(sorted(str(card) for card in parse_cards(text))) for text in texts}


# -- protected tuples count for the structure they hold when played ------------------------

PROTECT_4 = Rules(decks=4, tuple_follow=TupleFollow.PROTECT)


def test_a_protected_quadruple_played_whole_counts_as_two_pairs() -> None:
    """Trump 4S: 2S 2S 3S 3S is a tractor of trumps. The quadruple 2S is protected (not
    forced), but the player may choose to play it, and it holds two pairs' worth."""
    follow = legal("2S 2S 3S 3S", "2S 2S 2S 2S 3S 5S 5S", PROTECT_4, Trump.parse("4S"))
    assert follow.reason("2S 2S 5S 3S") is None  # a pair split off the quadruple
    assert follow.reason("2S 2S 2S 2S") is None  # the whole quadruple: refused before
    assert follow.reason("2S 3S 5S 5S") is None  # the held pair
    assert follow.reason("2S 2S 2S 3S") is None  # a pair split off, and a single


def test_a_protected_quadruple_still_is_not_forced() -> None:
    """Protect keeps its meaning: only the pair is forced, not the quadruple."""
    follow = legal("KS KS", "9S 9S 9S 9S 8S 8S 3S", PROTECT_4, Trump.parse("2H"))
    assert plays(follow) == cards("8S 8S", "9S 9S")


def test_a_protected_triple_played_whole_counts_as_a_pair_of_a_tractor() -> None:
    """Three decks, no trump: 6C 6C 7C 7C is a tractor whether the play takes two or all
    three of the 7C (the triple was protected, so its whole was refused before)."""
    rules = Rules(decks=3, tuple_follow=TupleFollow.PROTECT)
    follow = legal("5C 5C 4C 4C 3C", "2C 2C 6C 6C 7C 7C 7C", rules, Trump(None))
    assert follow.reason("6C 6C 7C 7C 7C") is None
    assert follow.reason("6C 6C 7C 7C 2C") is None
    assert follow.reason("2C 2C 6C 6C 7C") is None
    assert follow.reason("2C 6C 7C 7C 7C") is not None
