"""A trick: whose play wins, under each way of beating a throw, and its bookkeeping."""

import pytest

from shengji.engine import (
    Hand,
    PlayError,
    Rules,
    ThrowBeat,
    Trick,
    Trump,
    format_cards,
)

JACK_HEARTS = Trump.parse("JH")
JACK_CLUBS = Trump.parse("JC")
SEVEN_CLUBS = Trump.parse("7C")


def play_out(plays: list[str], trump: Trump = JACK_HEARTS, rules: Rules | None = None,
             hands: dict[int, str] | None = None, leader: int = 0) -> Trick:
    """Play each seat's cards in turn (four seats); each seat holds exactly its play unless
    ``hands`` says otherwise. A throw is checked against the other seats' held cards."""
    trick = Trick(trump, rules or Rules(), leader=leader)
    held = {(leader + i) % trick.players: Hand(p) for i, p in enumerate(plays)}
    for seat, text in (hands or {}).items():
        held[seat] = Hand(text)
    for cards in plays:
        seat = trick.turn
        assert seat is not None
        trick.play(cards, held[seat], hands=held)
    return trick


# -- who wins ----------------------------------------------------------------------------


def test_the_highest_card_of_the_led_suit_wins() -> None:
    assert play_out(["9S", "KS", "3S", "QS"]).winner == 1


def test_ties_go_to_the_earlier_play() -> None:
    """Seed wikipedia: "In case of ties, the winning card that was played the earliest wins
    the trick"."""
    assert play_out(["AS", "AS", "3S", "4S"]).winner == 0


def test_equal_trump_rank_cards_tie_and_the_earlier_wins() -> None:
    assert play_out(["3H", "JS", "JD", "2H"]).winner == 1


def test_a_trump_beats_the_led_suit() -> None:
    assert play_out(["AS", "2H", "KS", "QS"]).winner == 1


def test_a_higher_trump_overtrumps() -> None:
    assert play_out(["AS", "2H", "JD", "QS"]).winner == 2


def test_a_card_of_another_plain_suit_never_wins() -> None:
    assert play_out(["3S", "AD", "AC", "2S"]).winner == 0


def test_in_a_trump_led_trick_the_highest_trump_wins() -> None:
    assert play_out(["3H", "SJ", "BJ", "JH"]).winner == 2


def test_two_singles_never_beat_a_pair() -> None:
    """Seed wikipedia (7♣ trump, 9♦9♦ led): 9♦9♦ beats J♦-Q♦ and J♣-Q♣ (higher and even
    trump, but single cards), but not 5♣5♣, lower but trump and a pair."""
    trick = play_out(["9D 9D", "QD JD", "QC JC"], trump=SEVEN_CLUBS)
    assert trick.winner == 0
    trick = play_out(["9D 9D", "QD JD", "QC JC", "5C 5C"], trump=SEVEN_CLUBS)
    assert trick.winner == 3


def test_a_ruff_wins_only_with_the_leads_structure() -> None:
    """Seed wikipedia: "Consecutive non-trump doubles may only be ruffed by consecutive
    trump doubles": two trump pairs that are not consecutive do not beat a tractor."""
    trick = play_out(["KS KS QS QS", "3H 3H 5H 5H", "2S 2S 3S 3S"])
    assert trick.winner == 0
    trick = play_out(["KS KS QS QS", "3H 3H 5H 5H", "3H 3H 4H 4H"])
    assert trick.winner == 2


def test_a_higher_tractor_of_the_led_suit_wins() -> None:
    trick = play_out(["4S 4S 5S 5S", "QS QS 10S 10S", "AS AS KS KS"])
    assert trick.winner == 2


def test_mixed_suits_never_win() -> None:
    trick = play_out(["KS KS", "AS 2H", "3S 3S"], hands={1: "AS 2H"})
    assert trick.winner == 0


def test_winning_play_is_the_play_of_the_winner() -> None:
    trick = play_out(["9S", "KS", "3S"])
    assert trick.winning_play is not None
    assert trick.winning_play.seat == 1
    assert format_cards(trick.winning_play.cards) == "KS"


# -- beating a throw ---------------------------------------------------------------------
# Seed 2006 (jacks and clubs trump): A♠-K♠-K♠ is led; the others are void in spades.


def test_a_throw_is_beaten_only_by_trumps_of_its_structure() -> None:
    trick = play_out(["AS KS KS", "3C 5C 7C"], JACK_CLUBS)
    assert trick.winner == 0
    trick = play_out(["AS KS KS", "3C 3C 5C"], JACK_CLUBS)
    assert trick.winner == 1


def test_largest_unit_policy_highest_pair_wins() -> None:
    """Seed 2006: "another player plays 3♣-3♣-Q♣, and a third plays 3♣-4♣-4♣, the last
    player wins, since he had the highest double of trump"."""
    rules = Rules(throw_beat=ThrowBeat.LARGEST_UNIT)
    assert play_out(["AS KS KS", "3C 3C QC", "3C 4C 4C"], JACK_CLUBS, rules).winner == 2


def test_largest_unit_policy_ties_go_to_the_earlier_play() -> None:
    """Seed 2006: "if the last player had played 3♣-3♣-A♣, the second player would have
    won, because the earlier player wins in the case of a tie"."""
    rules = Rules(throw_beat=ThrowBeat.LARGEST_UNIT)
    assert play_out(["AS KS KS", "3C 3C QC", "3C 3C AC"], JACK_CLUBS, rules).winner == 1


def test_every_unit_policy_needs_every_unit_higher() -> None:
    rules = Rules(throw_beat=ThrowBeat.EVERY_UNIT)
    # the pair 4♣4♣ beats 3♣3♣ but the single 3♣ does not beat Q♣
    assert play_out(["AS KS KS", "3C 3C QC", "3C 4C 4C"], JACK_CLUBS, rules).winner == 1
    # 5♣5♣ beats 3♣3♣ and 6♣ beats 4♣
    assert play_out(["AS KS KS", "3C 3C 4C", "5C 5C 6C"], JACK_CLUBS, rules).winner == 2


def test_highest_card_policy_compares_the_top_cards_only() -> None:
    rules = Rules(throw_beat=ThrowBeat.HIGHEST_CARD)
    # A♣ is higher than Q♣: the lower pair does not matter
    assert play_out(["AS KS KS", "4C 4C QC", "3C 3C AC"], JACK_CLUBS, rules).winner == 2
    # Q♣ is higher than the pair 4♣4♣ that would win under largest-unit
    assert play_out(["AS KS KS", "3C 3C QC", "3C 4C 4C"], JACK_CLUBS, rules).winner == 1


def test_card_by_card_policy_needs_each_card_to_beat_a_distinct_card() -> None:
    """Seed hundred (one deck): "each separately laid out card must be older than one
    corresponding separately laid out card"."""
    rules = Rules(decks=1, throw_beat=ThrowBeat.CARD_BY_CARD)
    # 9♣ beats 8♣ but 3♣ beats neither 4♣ nor 8♣
    trick = play_out(["AS KS", "4C 8C", "9C 3C"], JACK_CLUBS, rules)
    assert trick.winner == 1
    # 5♣ beats 4♣ and 9♣ beats 8♣
    trick = play_out(["AS KS", "4C 8C", "9C 5C"], JACK_CLUBS, rules)
    assert trick.winner == 2


def test_card_by_card_differs_from_largest_unit() -> None:
    rules = Rules(decks=1, throw_beat=ThrowBeat.LARGEST_UNIT)
    assert play_out(["AS KS", "4C 8C", "9C 3C"], JACK_CLUBS, rules).winner == 2


def test_any_winning_reading_counts() -> None:
    """A trump ruff of a two-pair throw (A♠A♠ Q♠Q♠, not consecutive) with 3♥3♥4♥4♥: the
    ruff is also a tractor, but read as two pairs it has the throw's structure."""
    trick = play_out(["AS AS QS QS", "3H 3H 4H 4H"])
    assert trick.winner == 1


def test_a_tractor_in_a_throw_needs_a_trump_tractor() -> None:
    trick = play_out(["AS AS KS KS 9S", "3H 3H 5H 5H 6H"])
    assert trick.winner == 0
    trick = play_out(["AS AS KS KS 9S", "3H 3H 4H 4H 6H"])
    assert trick.winner == 1


# -- points and the kitty multiplier's unit ----------------------------------------------


def test_points_count_kings_tens_and_fives_of_every_play() -> None:
    assert play_out(["5S", "KS", "10S", "3S"]).points == 25


def test_points_include_cards_of_losing_plays() -> None:
    trick = play_out(["AS", "KD", "10D", "5C"])
    assert trick.winner == 0
    assert trick.points == 25


@pytest.mark.parametrize(
    ("lead", "size"),
    [("AS", 1), ("AS AS", 2), ("AS AS KS KS", 4), ("AS AS KS KS 9S", 4), ("AS QS QS", 2)],
)
def test_largest_unit_size_is_the_leads_largest_unit(lead: str, size: int) -> None:
    trick = play_out([lead])
    assert trick.largest_unit_size == size


def test_largest_unit_size_of_a_failed_throw_is_the_forced_units() -> None:
    trick = play_out(["AS KS KS 9S", "10S"], hands={1: "10S 3C"})
    assert trick.throw is not None and not trick.throw.valid
    assert trick.lead is not None and format_cards(trick.lead.cards) == "9S"
    assert trick.largest_unit_size == 1
    assert trick.winner == 1


def test_an_empty_trick_has_no_winner_points_or_unit() -> None:
    trick = Trick(JACK_HEARTS, Rules(), leader=0)
    assert trick.winner is None and trick.winning_play is None
    assert trick.points == 0 and trick.largest_unit_size == 0


# -- turn order, completion, undo --------------------------------------------------------


def test_seats_play_in_turn_from_the_leader_wrapping_around() -> None:
    """No seat can play out of turn: ``Trick.play`` always plays for :attr:`Trick.turn`."""
    trick = Trick(JACK_HEARTS, Rules(), leader=2)
    turns = []
    for cards in ["3S", "4S", "5S", "6S"]:
        turns.append(trick.turn)
        trick.play(cards, Hand(cards))
    assert turns == [2, 3, 0, 1]
    assert [p.seat for p in trick.plays] == [2, 3, 0, 1]
    assert trick.is_complete and trick.turn is None


def test_no_one_plays_to_a_complete_trick() -> None:
    trick = play_out(["3S", "4S", "5S", "6S"])
    with pytest.raises(PlayError, match="the trick is complete"):
        trick.play("7S", Hand("7S"))
    assert len(trick.plays) == 4


def test_undo_takes_back_the_last_play_and_its_win() -> None:
    trick = play_out(["9S", "KS", "3S", "AS"])
    assert trick.winner == 3
    last = trick.undo()
    assert last.seat == 3 and format_cards(last.cards) == "AS"
    assert trick.winner == 1
    assert trick.turn == 3 and not trick.is_complete


def test_undo_of_a_losing_play_keeps_the_winner() -> None:
    trick = play_out(["9S", "KS", "3S"])
    trick.undo()
    assert trick.winner == 1
    assert trick.points == 10


def test_undo_of_the_lead_empties_the_trick() -> None:
    trick = play_out(["AS KS KS 9S", "10S"], hands={1: "10S 3C"})
    trick.undo()
    trick.undo()
    assert trick.lead is None and trick.throw is None and trick.plays == []
    assert trick.turn == 0


def test_undo_of_an_empty_trick_is_refused() -> None:
    with pytest.raises(PlayError, match="nothing to undo"):
        Trick(JACK_HEARTS, Rules(), leader=0).undo()


# -- an illegal play changes nothing -----------------------------------------------------


def test_an_illegal_follow_leaves_the_trick_unchanged() -> None:
    trick = play_out(["KS KS", "3S 3S"])
    with pytest.raises(PlayError, match=r"you hold 1 pair in spades \(9S 9S\)"):
        trick.play("9S AS", Hand("9S 9S AS"))
    assert [format_cards(p.cards) for p in trick.plays] == ["KS KS", "3S 3S"]
    assert trick.winner == 0 and trick.turn == 2


def test_a_lead_of_cards_not_held_is_refused() -> None:
    trick = Trick(JACK_HEARTS, Rules(), leader=0)
    with pytest.raises(PlayError, match="you do not hold AS"):
        trick.play("AS", Hand("KS"))
    assert trick.lead is None and trick.turn == 0


def test_a_lead_of_two_suits_is_refused() -> None:
    trick = Trick(JACK_HEARTS, Rules(), leader=0)
    with pytest.raises(PlayError, match="a lead must be all of one suit"):
        trick.play("AS 2H", Hand("AS 2H"))
    assert trick.lead is None and trick.plays == []


def test_the_hand_is_not_changed_by_playing() -> None:
    hand = Hand("9S 9S AS")
    trick = play_out(["KS KS"])
    trick.play("9S 9S", hand)
    assert hand == Hand("9S 9S AS")


def test_a_ruff_of_a_throw_counts_at_its_best_reading() -> None:
    """7H 7H QC JC 4C 4C can ruff a pair-and-singles throw with 4C 4C or with 7H 7H as the
    pair; it stands at its best reading, so a later A♣ A♣ pair cannot overtake it."""
    trump, rules = Trump.parse("7C"), Rules()
    hands = [Hand("QD JD 6D 5D 5D 3D KD"), Hand("7H 7H QC JC 4C 4C"),
             Hand("7C 7D AC AC KC 2C"), Hand("BJ SJ 7D JC 9C 10H")]
    trick = Trick(trump, rules, leader=0)
    trick.play("QD JD 6D 5D 5D 3D", hands[0], hands=hands)
    for seat in (1, 2, 3):
        trick.play(hands[seat].cards(), hands[seat])
    assert trick.winner == 1


@pytest.mark.slow
def test_readings_refused_at_once_are_those_the_search_finds_none_of() -> None:
    """matching_readings refuses a play whose faces lack the copies the lead's units need;
    the readings are the search's own (random follows to throws, 2-4 decks)."""
    import random

    from shengji.engine import Card, Lead, LegalLeads
    from shengji.engine.trick import _Matching, matching_readings
    from shengji.engine.units import level_counts

    rng = random.Random(5)
    refused = checked = 0
    while checked < 600:
        rules = Rules(decks=rng.choice([2, 3, 4]))
        trump = Trump.parse(rng.choice(["2H", "5S", "AC"]))
        pack = [Card(i) for i in range(54) for _ in range(rules.decks)]
        rng.shuffle(pack)
        units = list(LegalLeads(Hand(pack[:30]), trump, rules).units())
        suit = rng.choice(sorted({u.suit for u in units}))
        same = [u for u in units if u.suit == suit]
        cards: list[Card] = []
        for unit in rng.sample(same, min(2, len(same))):  # a throw of two units (or one)
            if not set(unit.cards) & set(cards):
                cards += unit.cards
        try:
            lead = Lead.from_cards(tuple(cards), trump, rules)
        except PlayError:
            continue
        faces = [c for c in pack[30:] if trump.suit_of(c) == suit]
        if len(lead.units) < 2 or len(faces) < len(cards):
            continue
        counts = level_counts(rng.sample(faces, len(cards)), trump)[suit]
        needed: dict[tuple[int, int], int] = {}
        for unit in lead.units:
            needed[unit.shape] = needed.get(unit.shape, 0) + 1
        search = _Matching(needed, {lv: dict(f) for lv, f in counts.items()}, suit, trump,
                           rules)
        search.rec()
        found = matching_readings(counts, suit, lead, trump, rules)
        assert found == search.found
        checked += 1
        refused += not found
    assert refused > 100


def test_one_card_on_one_card_wins_exactly_when_beats_says_so() -> None:
    """A trick judges one card played on a one-card lead from suits and levels alone; each
    play's winner is the one :func:`beats` gives, for every pair of faces and a few trumps
    (the second card played on the first, then a third on the winner of the two)."""
    import random

    from shengji.engine import Card
    from shengji.engine.trick import beats

    rng = random.Random(11)
    faces = [Card(i) for i in range(54)]
    for trump in (JACK_HEARTS, SEVEN_CLUBS, Trump.parse("2NT"), Trump.parse("AS")):
        rules = Rules()
        for led in faces:
            for _ in range(6):
                second, third = rng.choice(faces), rng.choice(faces)
                trick = Trick(trump, rules, leader=0)
                trick.play((led,), Hand([led]))
                lead = trick.lead
                assert lead is not None
                for seat, card in ((1, second), (2, third)):
                    current, winner = trick._winning_reading, trick.winner
                    trick.play((card,), Hand([card]))
                    won = beats((card,), current, lead, trump, rules) is not None
                    assert trick.winner == (seat if won else winner), (trump, led, card)
