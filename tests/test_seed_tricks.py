"""The seeds' worked examples of who wins a trick, played as real tricks.

Each test quotes the seed sentence it checks (files in ``/work/shared/seeds/``).
A trick is written as one ``(cards played, hand held)`` pair per seat, leader first;
every play is checked for legality by the engine as it is made.
"""

import pytest

from shengji.engine import (
    Hand,
    Lead,
    LegalPlays,
    PlayError,
    Rules,
    ThrowBeat,
    Trick,
    Trump,
    beats,
    parse_cards,
)


def play_trick(trump: str, rules: Rules, seats: list[tuple[str, str]]) -> Trick:
    """Play ``(cards, hand)`` for seats 0, 1, ... in turn (four seats); seat 0 leads.

    The hands given are the whole table (a thrown lead is checked against them)."""
    hands = {seat: Hand(hand) for seat, (_, hand) in enumerate(seats)}
    trick = Trick(Trump.parse(trump), rules, leader=0)
    for seat, (cards, _) in enumerate(seats):
        trick.play(cards, hands[seat], hands=hands)
    return trick


def winners(trump: str, rules: Rules, seats: list[tuple[str, str]]) -> list[int]:
    """The seat winning the trick after each play (the lead's seat first)."""
    hands = {seat: Hand(hand) for seat, (_, hand) in enumerate(seats)}
    trick = Trick(Trump.parse(trump), rules, leader=0)
    after = []
    for seat, (cards, _) in enumerate(seats):
        trick.play(cards, hands[seat], hands=hands)
        assert trick.winner is not None
        after.append(trick.winner)
    return after


# -- single cards ------------------------------------------------------------------------


def test_wikipedia_single_card_trick() -> None:
    """wikipedia_sheng_ji, Single card lead: "The trick is taken by the player who put down the
    highest-ordered card of the suit used in the lead unless one or more cards from the trump
    suit were played. If trump suit cards were played, the highest trump played takes the
    trick. In case of ties, the winning card that was played the earliest wins the trick."
    """
    rules = Rules()
    no_trump = [("10S", "10S"), ("KS", "KS 3S"), ("AD", "AD 4C"), ("QS", "QS")]
    assert winners("7C", rules, no_trump) == [0, 1, 1, 1]  # A♦ is higher but not a spade
    trumped = [("10S", "10S"), ("KS", "KS"), ("2C", "2C AD"), ("7H", "7H AD")]
    assert winners("7C", rules, trumped) == [0, 1, 2, 3]  # 7♥ is a higher trump than 2♣
    tied = [("10S", "10S"), ("7S", "7S AD"), ("7H", "7H AD"), ("7D", "7D")]
    assert winners("7C", rules, tied) == [0, 1, 1, 1]  # equal sevens: the first one wins


def test_wikipedia_equal_combinations_first_wins() -> None:
    """wikipedia_sheng_ji: "If two or more equally ranked cards or combinations are played
    during a trick, the first one played wins." -- also for pairs of equal trump-rank cards."""
    seats = [("4S 4S", "4S 4S"), ("7H 7H", "7H 7H"), ("7D 7D", "7D 7D"), ("7C 7C", "7C 7C")]
    assert winners("7C", Rules(), seats) == [0, 1, 1, 3]


def test_2006_king_of_any_other_suit_ties() -> None:
    """wikipedia_2006_bashi_fen, The deck: kings and spades trump, "K♠, king of any other suit"
    ... "If two equally-ranked cards or combinations are played during a trick, the first one
    wins."
    """
    seats = [("3S", "3S"), ("KH", "KH"), ("KC", "KC"), ("KS", "KS")]
    assert winners("KS", Rules(), seats) == [0, 1, 1, 3]


def test_da_bai_fen_single_card_tricks() -> None:
    """da_bai_fen_rules: "Following players must follow suit if able, but if not may play any
    card, including trumps to the trick." ... "Tricks are won by the player who plays the
    highest trump or if not trumps, by the highest-ranked card of the suit led."
    (One deck, the first round's trump rank 2, hearts trump.)"""
    rules = Rules(decks=1)
    plain = [("10S", "10S 4S"), ("KS", "KS"), ("AD", "AD 2C"), ("3S", "3S QS")]
    assert winners("2H", rules, plain) == [0, 1, 1, 1]
    trumped = [("10S", "10S"), ("KS", "KS"), ("3H", "3H AD"), ("2C", "2C 4D")]
    assert winners("2H", rules, trumped) == [0, 1, 2, 3]
    with pytest.raises(PlayError):  # holding a spade, a trump may not be played
        play_trick("2H", rules, [("10S", "10S"), ("3H", "3H 4S")])


def test_hundred_equal_trumps_earlier_is_older() -> None:
    """hundred_da_bai_fen_variant: "If two players put equal trump cards, then the trump card
    that was laid out earlier is considered to be older." (clubs and sixes trump, the seed's
    own example trump)"""
    seats = [("3D", "3D"), ("6S", "6S 4C"), ("6H", "6H"), ("5C", "5C")]
    assert winners("6C", Rules(decks=1), seats) == [0, 1, 1, 1]


# -- pairs -------------------------------------------------------------------------------


def test_wikipedia_diamond_pair_example() -> None:
    """wikipedia_sheng_ji, Double cards lead: "Two singles may not beat a double even if they
    are both higher-ordered than the double. For example, in a round with trump 7♣, if a
    diamond double was led, (9♦-9♦) beats J♦-Q♦ (higher order, but single cards) and also
    beats J♣-Q♣ (higher order and trump suit, but single cards), but not (5♣–5♣), which is
    lower order but trump suit and matches lead structure."
    """
    seats = [
        ("9D 9D", "9D 9D 3S"),
        ("JD QD", "JD QD 4S"),  # no diamond pair: two diamond singles
        ("JC QC", "JC QC 4S"),  # void in diamonds: two trump singles
        ("5C 5C", "5C 5C 4S"),  # void in diamonds: a trump pair ruffs
    ]
    assert winners("7C", Rules(), seats) == [0, 0, 0, 3]
    trick = play_trick("7C", Rules(), seats)
    assert trick.is_complete
    assert trick.points == 10  # the two 5♣


def test_2006_only_a_higher_n_tuple_beats_an_n_tuple() -> None:
    """wikipedia_2006_bashi_fen, Multiple identical cards: "In any case, only another n-tuple of
    higher cards in the same suit or of trump can beat a lead of an n-tuple." (three decks)"""
    rules = Rules(decks=3)
    seats = [
        ("9S 9S 9S", "9S 9S 9S"),
        ("AC AC 3C", "AC AC 3C 4H"),  # trumps, but a pair and a single
        ("QS QS QS", "QS QS QS 2S"),  # a higher triple in the suit
        ("2C 2C 2C", "2C 2C 2C 4H"),  # a trump triple
    ]
    assert winners("7C", rules, seats) == [0, 0, 2, 3]


# -- tractors ----------------------------------------------------------------------------


def test_wikipedia_tractor_beaten_only_by_a_tractor() -> None:
    """wikipedia_sheng_ji, Consecutive double cards lead: "The first combination, if all
    consecutively-ranked and of a greater order than the suit lead, wins the trick. Only when
    a player does not have any other card in the suit played, then he is allowed to play cards
    of other suits, or ruff the combination with the same number of consecutively-ranked pairs
    in the trump suit."
    """
    seats = [
        ("3H 3H 4H 4H", "3H 3H 4H 4H"),
        ("9H 9H 10H 10H", "9H 9H 10H 10H 2H"),  # a higher tractor of hearts
        ("QC QC 2C 2C", "QC QC 2C 2C AS"),  # two trump pairs, not consecutive
        ("5C 5C 6C 6C", "5C 5C 6C 6C"),  # a trump tractor
    ]
    assert winners("7C", Rules(), seats) == [0, 1, 1, 3]


def test_2006_consecutive_tuples_beaten_only_by_the_same_shape() -> None:
    """wikipedia_2006_bashi_fen, Consecutive n-tuples: "In any case, the only combination that
    can beat m consecutive n-tuples is another set of m consecutive n-tuples, and not, for
    example, a set of n consecutive m-tuples." -- 333444 (2 triples) is not beaten by three
    consecutive trump pairs."""
    rules = Rules(decks=3)
    seats = [
        ("3H 3H 3H 4H 4H 4H", "3H 3H 3H 4H 4H 4H"),
        ("2C 2C 3C 3C 4C 4C", "2C 2C 3C 3C 4C 4C AS"),  # 3 consecutive trump pairs
        ("5C 5C 5C 6C 6C 6C", "5C 5C 5C 6C 6C 6C"),  # 2 consecutive trump triples
        ("AS AS KS KS QS QS", "AS AS KS KS QS QS"),
    ]
    assert winners("7C", rules, seats) == [0, 0, 2, 2]


# -- throws ------------------------------------------------------------------------------


def test_2006_throw_beaten_by_the_highest_trump_pair() -> None:
    """wikipedia_2006_bashi_fen, The highest cards in a suit: "If another player plays all trump
    on this trick, with the same number of n-tuples as the original play for every n, he can
    take the trick. If more than one player does this, then the player with the n-tuple of the
    largest rank with the greatest n played wins the trick. For example, if jacks and clubs
    are trump, the initial player leads A♠-K♠-K♠, another player plays 3♣-3♣-Q♣, and a third
    plays 3♣-4♣-4♣, the last player wins, since he had the highest double of trump."
    """
    seats = [
        ("AS KS KS", "AS KS KS 9D"),
        ("3C 3C QC", "3C 3C QC 5H"),
        ("3C 4C 4C", "3C 4C 4C 6H"),
        ("2H 3H 4H", "2H 3H 4H 8D"),
    ]
    trick = play_trick("JC", Rules(decks=3), seats)
    assert trick.throw is not None and trick.throw.valid
    assert winners("JC", Rules(decks=3), seats) == [0, 1, 2, 2]


def test_2006_throw_tie_goes_to_the_earlier_player() -> None:
    """wikipedia_2006_bashi_fen: "On the other hand, if the last player had played 3♣-3♣-A♣,
    the second player would have won, because the earlier player wins in the case of a tie."
    (Two players each holding 3♣-3♣ needs four decks.)"""
    seats = [
        ("AS KS KS", "AS KS KS 9D"),
        ("3C 3C QC", "3C 3C QC 5H"),
        ("3C 3C AC", "3C 3C AC 6H"),
        ("2H 3H 4H", "2H 3H 4H 8D"),
    ]
    assert winners("JC", Rules(decks=4), seats) == [0, 1, 1, 1]


def test_2006_throw_needs_the_same_tuples_in_trump() -> None:
    """wikipedia_2006_bashi_fen: "If another player plays all trump on this trick, with the same
    number of n-tuples as the original play for every n, he can take the trick." -- three
    trump singles do not take A♠-K♠-K♠."""
    seats = [
        ("AS KS KS", "AS KS KS 9D"),
        ("AC QC 3C", "AC QC 3C 5H"),  # three trump singles
        ("AC 3C 5H", "AC 3C 5H"),  # void in spades, short of trumps: a discard
        ("2D 3D 4D", "2D 3D 4D"),
    ]
    assert winners("JC", Rules(decks=3), seats) == [0, 0, 0, 0]


def test_wikipedia_throw_ruffs() -> None:
    """wikipedia_sheng_ji, Multiple cards combination: "Any non-trump combinations played are
    subjected to be bested (ruffed) by trump cards played by other players." ... "Consecutive
    non-trump doubles may only be ruffed by consecutive trump doubles." ... "Any combinations
    with cards that are not trump, yet do not follow the suit lead may not take the trick."
    """
    seats = [
        ("AS 9S 9S 10S 10S", "AS 9S 9S 10S 10S"),  # a tractor and a single
        ("3C 3C 5C 5C 2C", "3C 3C 5C 5C 2C AH"),  # two trump pairs, not consecutive
        ("6C 6C 8C 8C 2H", "6C 6C 8C 8C 2H"),  # a trump tractor, but a heart with it
        ("3C 3C 4C 4C 2C", "3C 3C 4C 4C 2C"),  # a trump tractor and a trump single
    ]
    trick = play_trick("7C", Rules(), seats)
    assert trick.throw is not None and trick.throw.valid
    assert winners("7C", Rules(), seats) == [0, 0, 0, 3]


def test_da_bai_fen_group_won_only_by_a_full_group_of_trumps() -> None:
    """da_bai_fen_rules: "The only way to win a trick led by a group is to have no cards of the
    suit led and play a full group of trumps."
    """
    rules = Rules(decks=1)
    seats = [
        ("AS KS", "AS KS 4D"),
        ("3H 8D", "3H 8D"),  # void in spades: one trump is not a full group
        ("QS JS", "QS JS 9S"),  # follows suit: cannot win
        ("3C 4C", "3C 4C 5D"),  # void in spades, but clubs are not trump: a discard
    ]
    assert winners("2H", rules, seats) == [0, 0, 0, 0]
    seats[3] = ("4H 5H", "4H 5H")  # void in spades: a full group of trumps
    assert winners("2H", rules, seats) == [0, 0, 0, 3]


# -- the hundred's card-by-card comparison -----------------------------------------------


def test_hundred_card_by_card_example() -> None:
    """hundred_da_bai_fen_variant: "if several cards are laid out, each separately laid out map
    must be older than one corresponding separately laid out map, for example: the first player
    laid out ♣ 6 and ♠ 6, the second player put 4 and 8, the third player put ♠ 10 and 3, and
    the fourth put ♣ 7 and ♠ 8, provided that trump cards are ranked jacks. In this case, the
    fourth player takes the laid out cards (bribe)."

    The translation lost suit symbols (the bare 4, 8 and 3 are red cards) and the lead as
    printed mixes two suits, which the same seed forbids ("several cards of the same suit").
    Our reading keeps every other printed symbol: jacks and clubs are trump (clubs as in the
    seed's other example) and the lead is two spades, ♠6 and ♠2 (the printed ♣6 read as a
    low spade). Then the second player, void in spades, discards ♥4 ♦8; the third has one
    spade, ♠10, which beats ♠6, but ♥3 beats nothing; the fourth has one spade, ♠8, which
    beats a led spade, and ♣7, a trump, beats the other: each card beats a distinct card.

    The seed has no rule that a group lead may fail, so the plays are compared with
    :func:`beats` directly (a :class:`Trick` would check the lead as a throw first).
    """
    trump = Trump.parse("JC")
    rules = Rules(decks=1, throw_beat=ThrowBeat.CARD_BY_CARD)
    lead = Lead.from_cards("6S 2S", trump, rules)
    followers = [
        ("4H 8D", "4H 8D KD"),
        ("10S 3H", "10S 3H 9D"),
        ("7C 8S", "7C 8S AH"),
    ]
    winning, winner = lead.units, 0
    for seat, (cards, hand) in enumerate(followers, start=1):
        LegalPlays(Hand(hand), lead, trump, rules).check(cards)
        reading = beats(trump.sorted(parse_cards(cards)), winning, lead, trump, rules)
        if reading is not None:
            winning, winner = reading, seat
    assert winner == 3  # the fourth player


def test_hundred_card_by_card_in_a_trick() -> None:
    """hundred_da_bai_fen_variant: "if there is no card of that kind, then you can put any
    cards" and "each separately laid out map must be older than one corresponding separately
    laid out map" -- in a real trick: the leader's partner (seat 2, not checked under
    ``throw_check="opponents"``) has one spade, A♠, and adds the trump ♣7: A♠ beats K♠ and
    ♣7 beats Q♠, so the partner takes the trick; seat 3's two spades beat only Q♠."""
    trump = Trump.parse("JC")
    rules = Rules(decks=1, throw_beat=ThrowBeat.CARD_BY_CARD, throw_check="opponents")
    hands = {0: Hand("KS QS 4D"), 1: Hand("3H 4H 5H"), 2: Hand("AS 7C 9D"),
             3: Hand("10S 2S 6H")}
    trick = Trick(trump, rules, leader=0)
    trick.play("KS QS", hands[0], hands=hands, teammates=[2])
    assert trick.throw is not None and trick.throw.valid
    trick.play("3H 4H", hands[1])
    trick.play("AS 7C", hands[2])
    trick.play("10S 2S", hands[3])
    assert trick.winner == 2


@pytest.mark.parametrize("cards, wins", [
    ("QS 9S", True),   # both spades, each above a led spade
    ("3C 4C", True),   # two trumps
    ("QS 4S", True),   # Q♠ beats 6♠, 4♠ beats 2♠
    ("4S 3S", False),  # both beat only 2♠: not a distinct card each
    ("QS 2C", True),   # Q♠ beats 6♠, the trump 2♣ beats 2♠
    ("7C 8H", False),  # a trump, but 8♥ is no spade and no trump
])
def test_hundred_card_by_card_pieces(cards: str, wins: bool) -> None:
    """hundred_da_bai_fen_variant: "each separately laid out map must be older than one
    corresponding separately laid out map" -- against the lead ♠6 ♠2 (jacks, clubs trump)."""
    trump = Trump.parse("JC")
    rules = Rules(decks=1, throw_beat=ThrowBeat.CARD_BY_CARD)
    lead = Lead.from_cards("6S 2S", trump, rules)
    reading = beats(trump.sorted(parse_cards(cards)), lead.units, lead, trump, rules)
    assert (reading is not None) == wins


# -- the kitty multiplier's input --------------------------------------------------------


@pytest.mark.parametrize("lead, size, pairs", [
    ("AS", 1, 0),
    ("AS AS", 2, 1),
    ("3H 3H 4H 4H", 4, 2),
    ("3H 3H 4H 4H 5H 5H", 6, 3),
    ("AS KS KS", 2, 1),  # a throw: its largest unit is the pair
])
def test_wikipedia_kitty_multiplier_input(lead: str, size: int, pairs: int) -> None:
    """wikipedia_sheng_ji, Concluding the deal: "The multiplier is 2^(n+1), where n is the
    largest unit of pairs played at any point during the last trick, so for example, if only
    single cards were played in the last trick, n=0 and the multiplier is 2; on the other hand,
    if three consecutive pairs were played in the last trick, n=3 and the multiplier is
    2^4=16." -- and wikipedia_2006_bashi_fen: "multiplied by two times the number of cards in
    the last trick — e.g., by 6 if the lead in the last trick was a triple"."""
    trick = Trick(Trump.parse("7C"), Rules(), leader=0)
    others = {1: Hand("2D"), 2: Hand("3D"), 3: Hand("4D")}
    trick.play(lead, Hand(lead), hands={0: Hand(lead), **others})
    assert trick.largest_unit_size == size
    n = trick.largest_unit_size // 2
    assert n == pairs
    assert 2 ** (n + 1) == {0: 2, 1: 4, 2: 8, 3: 16}[pairs]  # the seed's multipliers


def test_2006_kitty_multiplier_for_a_triple() -> None:
    """wikipedia_2006_bashi_fen, Scoring: "multiplied by two times the number of cards in the
    last trick — e.g., by 6 if the lead in the last trick was a triple"."""
    trick = Trick(Trump.parse("7C"), Rules(decks=3), leader=0)
    trick.play("9S 9S 9S", Hand("9S 9S 9S"))
    assert 2 * trick.largest_unit_size == 6
