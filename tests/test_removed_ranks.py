"""Taking whole ranks out of every deck (option ``removed_ranks``): a large table removes
every 2 (or every 2 and 3, or 2, 3 and 4) so that the deal comes out even.

The pack, the kitty and the hands count without the removed cards; nobody is dealt one,
calls one as a friend or counts one as still out. No point card is ever removed, so a
deck still holds 100 points. Levels skip the removed ranks: the match starts at the
lowest rank kept, and levels wrap and hook back to it.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shengji.engine.cards import Card, Rank, parse_cards
from shengji.engine.friends import FriendCall, single_call_reason
from shengji.engine.rules import Rules, RulesError
from shengji.engine.scoring import advance, hook_back
from shengji.engine.trump import Trump
from shengji.env.core import Game
from shengji.game.actions import Call
from shengji.game.config import load_rules, rules_from_dict, rules_to_dict
from shengji.game.deal import Deal, DealError, pack, pack_counts, removed_cards
from shengji.game.match import Match, play_random_match
from shengji.game.phase import Phase
from shengji.game.record import load_record, read_record, replay, save_record, write_record
from shengji.game.round import Round
from shengji.players.base import Player
from shengji.players.heuristic import HeuristicPlayer
from shengji.players.memory import Memory
from shengji.players.random_player import RandomPlayer
from shengji.players.table import decide


def seven(**changes: object) -> Rules:
    """Seven players, two decks and a kitty of 9: 99 cards do not deal to 7 seats, but
    without the eight 2s the other 91 give each seat 13."""
    return Rules(players=7, decks=2, kitty=9, partnership="fluid", removed_ranks=(2,),
                 **changes)  # type: ignore[arg-type]


def card_places(rnd: Round) -> Counter[Card]:
    """Every card of the round, counted once in each place it is (hands, the undealt
    deck or the kitty, the tricks), and the low cards ``remove_low`` took out."""
    places: Counter[Card] = Counter(rnd.removed)
    for hand in rnd.hands:
        places.update(hand.cards())
    if rnd.kitty_owner is None:
        places.update(rnd.deck[rnd.next_card:])
    elif rnd.phase != Phase.KITTY:
        places.update(rnd.kitty)
    trick = rnd.trick
    if trick is not None and not trick.is_complete:
        for play in trick.plays:
            places.update(play.cards)
    for record in rnd.tricks:
        for play in record.plays:
            places.update(play.cards)
    return places


def check_round(rnd: Round) -> None:
    """A finished round kept every card of its pack, dealt no removed rank, and its
    points (tricks, kitty, hands left) total 100 per deck."""
    rules = rnd.rules
    assert rnd.phase == Phase.DONE
    places = card_places(rnd)
    assert places == Counter(pack(rules)), "a card is missing or in two places"
    assert not any(c.rank in rules.removed_ranks for c in places)
    assert sum(c.points for c in places.elements()) == 100 * rules.decks
    assert Counter(rnd.deck) + Counter(rnd.removed) == Counter(pack(rules))
    assert all(lv >= rules.first_rank for lv in rnd.levels)
    result = rnd.result
    assert result is not None
    if not result.redeal and result.lost_by is None:
        assert result.trick_points + result.declarer_points + result.kitty_points == (
            100 * rules.decks)


def play_match_checked(rules: Rules, players: list[Player], seed: int,
                       max_rounds: int) -> Match:
    """A match between ``players``, every round checked as it ends."""
    match = Match(rules, seed=seed, max_rounds=max_rounds)
    rnd = match.round
    assert match.levels == (int(rules.first_rank),) * rules.players
    while not match.is_over:
        seat = match.to_move
        assert seat is not None
        match.apply(decide(match, seat, players[seat]))
        if match.round is not rnd or match.is_over:
            check_round(rnd)
            rnd = match.round
        assert all(int(rules.first_rank) <= lv for lv in match.levels)
    return match


# -- the pack, the kitty and the hands ---------------------------------------------------

def test_seven_players_and_two_decks_deal_evenly_once_the_twos_are_out() -> None:
    with pytest.raises(RulesError, match="a kitty of 9 leaves 99 cards, which do not deal"):
        Rules(players=7, decks=2, kitty=9, partnership="fluid")
    rules = seven()
    assert (rules.deck_size, rules.kitty_size, rules.hand_size) == (100, 9, 13)
    cards = Counter(pack(rules))
    assert sum(cards.values()) == 100 and not any(c.rank == Rank.TWO for c in cards)
    assert cards[Card("3H")] == 2 and cards[Card("BJ")] == 2 and cards[Card("SJ")] == 2
    assert sum(c.points for c in cards.elements()) == 200  # every point card is kept
    assert pack_counts(rules)[Card("2S")] == 0 and pack_counts(rules)[Card("3S")] == 2


def test_the_kitty_and_the_hands_are_worked_out_from_the_smaller_pack() -> None:
    assert (Rules(players=7, partnership="fluid").kitty_size,
            Rules(players=7, partnership="fluid").hand_size) == (10, 14)
    seven = Rules(players=7, partnership="fluid", removed_ranks=(2,))
    assert (seven.deck_size, seven.kitty_size, seven.hand_size) == (100, 9, 13)
    ten = Rules(players=10, decks=3, partnership="fluid", removed_ranks=(2, 3))
    assert (ten.deck_size, ten.kitty_size, ten.hand_size) == (138, 8, 13)
    one = Rules(decks=1, removed_ranks=(2, 3, 4))
    assert (one.deck_size, one.kitty_size, one.hand_size) == (42, 6, 9)


def test_the_kitty_may_hold_at_most_the_smaller_pack_less_one_card_per_player() -> None:
    assert Rules(decks=1, removed_ranks=(2, 3, 4), kitty=38).hand_size == 1
    with pytest.raises(RulesError, match=r"at most 38 \(the 42 cards of the pack less one "
                                         r"per player\), got 39"):
        Rules(decks=1, removed_ranks=(2, 3, 4), kitty=39)


def test_no_deal_holds_a_removed_card() -> None:
    rules = seven()
    for seed in range(5):
        rnd = Round(rules, seed=seed)
        assert Counter(rnd.deck) == Counter(pack(rules))
        assert not any(c.rank == Rank.TWO for c in rnd.deck)


def test_a_given_deal_with_a_removed_card_is_refused() -> None:
    rules = seven()
    cards = pack(rules)
    cards[cards.index(Card("3H"))] = Card("2H")
    deal = Deal(tuple(tuple(cards[13 * s:13 * s + 13]) for s in range(7)), tuple(cards[91:]))
    with pytest.raises(DealError, match="more than the pack holds of 2H; none left of 3H"):
        deal.check(rules)


# -- levels --------------------------------------------------------------------------------

def test_the_match_starts_at_the_lowest_rank_kept() -> None:
    rules = seven()
    assert rules.first_rank == Rank.THREE
    assert Match(rules, seed=1).levels == (3,) * 7
    assert Round(rules, seed=1).levels == (3,) * 7
    assert Rules(removed_ranks=(2, 3)).first_rank == Rank.FOUR
    assert Rules(removed_ranks=(2, 3), start_rank=3).first_rank == Rank.FOUR
    assert Rules(removed_ranks=(2,), start_rank=5).first_rank == Rank.FIVE
    with pytest.raises(ValueError, match="each from 3 to A"):
        Match(rules, seed=1, levels=(2,) * 7)


def test_a_level_of_a_removed_rank_is_no_level() -> None:
    with pytest.raises(ValueError, match=r"outside this match's levels \(3..A\)"):
        advance(2, 1, seven(), as_declarers=True)
    assert advance(3, 2, seven(), as_declarers=True).level == 5


def test_a_wrap_lands_on_the_lowest_rank_kept() -> None:
    rules = seven(after_end="wrap")
    wrapped = advance(14, 2, rules, as_declarers=True)
    assert (wrapped.level, wrapped.wrapped, wrapped.passed_end) == (3, True, False)
    four = Rules(removed_ranks=(2, 3), after_end="no-trump-wrap")
    assert advance(15, 1, four, as_declarers=True).level == 4


def test_hook_and_needle_sends_a_jack_back_to_the_lowest_rank_kept() -> None:
    rules = Rules(hook_and_needle=True, removed_ranks=(2, 3, 4))
    assert (hook_back(11, rules), hook_back(14, rules)) == (5, 11)


# -- what may be removed -----------------------------------------------------------------

@pytest.mark.parametrize(("options", "option", "key", "message"), [
    ({"removed_ranks": (5,)}, "removed_ranks", "rules-removed-point",
     "removed_ranks cannot take out 5: point cards (5, 10, K) are never removed"),
    ({"removed_ranks": (2, 3, 4, 5)}, "removed_ranks", "rules-removed-point",
     "removed_ranks cannot take out 5: point cards (5, 10, K) are never removed"),
    ({"removed_ranks": (3,)}, "removed_ranks", "rules-removed-lowest",
     "removed_ranks must be the lowest ranks from 2 up, without a gap (none, 2, 2 and 3, "
     "or 2 to 4), got 3"),
    ({"removed_ranks": (2, 4)}, "removed_ranks", "rules-removed-lowest",
     "removed_ranks must be the lowest ranks from 2 up, without a gap (none, 2, 2 and 3, "
     "or 2 to 4), got 2, 4"),
    ({"removed_ranks": (2, 2)}, "removed_ranks", "rules-removed-repeat",
     "removed_ranks must not repeat a rank"),
    ({"removed_ranks": (2,), "end_rank": 2}, "end_rank", "rules-removed-kept",
     "end_rank cannot be 2: removed_ranks takes that rank out of the pack"),
    ({"removed_ranks": (2, 3), "end_rank": 3}, "end_rank", "rules-removed-kept",
     "end_rank cannot be 3: removed_ranks takes that rank out of the pack"),
    ({"removed_ranks": (2, 3), "mandatory_ranks": (8, 3)}, "mandatory_ranks",
     "rules-removed-kept",
     "mandatory_ranks cannot be 3: removed_ranks takes that rank out of the pack"),
    ({"removed_ranks": (2,), "second_rank": 2}, "second_rank", "rules-removed-kept",
     "second_rank cannot be 2: removed_ranks takes that rank out of the pack"),
])
def test_refused_removals_say_why(options: dict[str, object], option: str, key: str,
                                  message: str) -> None:
    with pytest.raises(RulesError) as error:
        Rules(**options)  # type: ignore[arg-type]
    assert (str(error.value), error.value.option) == (message, option)
    assert error.value.why is not None and error.value.why.key == key


def test_removed_ranks_may_be_given_in_any_order_and_in_notation() -> None:
    rules = Rules(removed_ranks=("3", 2))
    assert rules.removed_ranks == (Rank.TWO, Rank.THREE)
    assert rules == Rules(removed_ranks=(2, 3))
    assert load_rules('removed_ranks = ["3", "2"]') == rules
    again = rules_from_dict(rules_to_dict(seven()))
    assert again == seven() and again.removed_ranks == (Rank.TWO,)


def test_a_rules_file_with_a_bad_removal_names_its_line() -> None:
    with pytest.raises(RulesError, match="line 2: end_rank cannot be 3: removed_ranks"):
        load_rules('removed_ranks = ["2", "3"]\nend_rank = "3"')


# -- friend calls --------------------------------------------------------------------------

def test_a_removed_card_cannot_be_called() -> None:
    trump, rules = Trump.parse("4S"), seven()
    why = single_call_reason(FriendCall.parse("1st 2H"), trump, rules)
    assert why == ("2H is not in the pack (its rank is one of removed_ranks): it may not be "
                   "called")
    assert why is not None and why.key == "call-removed"
    assert single_call_reason(FriendCall.parse("1st 3H"), trump, rules) is None
    colours = seven(friend_calls="colour-rank")
    assert single_call_reason(FriendCall.parse("1st red 2"), trump, colours) is not None
    assert single_call_reason(FriendCall.parse("1st red 3"), trump, colours) is None


def _round_at_the_call(rules: Rules, seed: int) -> Round:
    rnd = Round(rules, seed=seed)
    rng = Random(seed)
    while rnd.phase != Phase.CALL:
        seat = rnd.to_move
        assert seat is not None and rnd.phase != Phase.DONE
        rnd.apply(rnd.legal(seat).random(rng))
    return rnd


@pytest.mark.parametrize("calls", ["ordinal", "colour-rank"])
def test_no_call_of_a_removed_card_is_offered(calls: str) -> None:
    rules = seven(friend_calls=calls, friends=1)
    rnd = _round_at_the_call(rules, seed=4)
    seat = rnd.to_move
    assert seat is not None
    legal = rnd.legal(seat)
    offered = [call for action in legal if isinstance(action, Call) for call in action.calls]
    assert offered and not any(Card("2S").rank in (c.rank, c.card and c.card.rank)
                               for c in offered)
    two = FriendCall(1, card=Card("2H")) if calls == "ordinal" else FriendCall(
        1, colour="red", rank=Rank.TWO)
    assert legal.reason(Call(seat, (two,))) is not None


def test_the_learning_environment_offers_no_call_of_a_removed_card() -> None:
    game = Game(seven(), rounds=1)
    game.reset(4)
    rng = Random(4)
    while game.decision is None or game.decision.kind != "call":
        assert not game.over
        game.step(rng.choice(game.allowed()))
    valid = game.decision.valid_calls
    assert valid and not any(c.card is not None and c.card.rank == Rank.TWO for c in valid)


# -- the players count the right pack --------------------------------------------------------

def test_a_players_memory_counts_no_removed_card_as_still_out() -> None:
    rnd = Round(seven(), seed=2)
    rng = Random(2)
    while rnd.phase != Phase.PLAY:
        seat = rnd.to_move
        assert seat is not None
        rnd.apply(rnd.legal(seat).random(rng))
    seat = rnd.to_move
    assert seat is not None
    view = rnd.view(seat)
    kitty = 9 if rnd.kitty_owner == seat else 0
    for remember in (True, False):
        unseen = Memory(view, remember=remember).unseen
        assert unseen[Card("2H")] == 0 and sum(unseen) == 100 - 13 - kitty


# -- whole matches -------------------------------------------------------------------------

def test_a_match_of_heuristic_players_without_the_twos() -> None:
    rules = seven(end_rank=6)
    players: list[Player] = [HeuristicPlayer(seed) for seed in range(7)]
    match = play_match_checked(rules, players, seed=1, max_rounds=12)
    assert len(match.results) >= 2
    assert all(min(r.levels_before) >= 3 for r in match.results)


def test_rounds_of_random_players_without_the_twos_and_threes_wrapping_to_four() -> None:
    rules = Rules(players=6, decks=3, removed_ranks=(2, 3), end_rank=5, after_end="wrap")
    assert (rules.deck_size, rules.kitty_size, rules.hand_size) == (138, 6, 22)
    players: list[Player] = [RandomPlayer(seed) for seed in range(6)]
    match = play_match_checked(rules, players, seed=3, max_rounds=10)
    assert len(match.results) == 10
    assert all(4 <= lv <= 5 for r in match.results for lv in r.levels)


# -- with remove_low -----------------------------------------------------------------------

def test_remove_low_takes_out_the_lowest_cards_kept_on_top() -> None:
    plain = Rules(players=5, kitty=8, partnership="fluid", remove_low=True)
    assert plain.removed_count == 0  # 100 cards deal to 5
    rules = Rules(players=5, kitty=8, partnership="fluid", remove_low=True,
                  removed_ranks=(2, 3))
    assert (rules.deck_size, rules.removed_count, rules.hand_size) == (92, 4, 16)
    assert removed_cards(rules) == parse_cards("4C 4C 4D 4D")
    rnd = Round(rules, seed=1)
    assert rnd.levels == (4,) * 5
    assert rnd.removed == parse_cards("6C 6C 6D 6D")  # 4 is every seat's trump rank; 5 scores
    rng = Random(1)
    while rnd.phase != Phase.DONE:
        seat = rnd.to_move
        assert seat is not None
        rnd.apply(rnd.legal(seat).random(rng))
    check_round(rnd)
    assert all(v.removed == rnd.removed for v in map(rnd.view, range(5)))


# -- records -------------------------------------------------------------------------------

RECORDED = Rules(players=5, kitty=8, partnership="fluid", remove_low=True,
                 removed_ranks=(2, 3), end_rank=6)


def _same(a: Match, b: Match) -> None:
    assert (a.rules, a.seed, a.levels, a.results, a.history, a.winners) == (
        b.rules, b.seed, b.levels, b.results, b.history, b.winners)
    assert a.round.hands == b.round.hands and a.round.removed == b.round.removed
    for seat in range(a.rules.players):
        assert a.view(seat) == b.view(seat)


def test_a_record_writes_the_option_and_replays_the_same() -> None:
    match = play_random_match(RECORDED, seed=3, max_rounds=3)
    text = write_record(match)
    assert 'removed_ranks = ["2", "3"]' in text
    assert "\nlevels = " not in text  # the match started at its first level, 4
    assert "levels 4 4 4 4 4" in text
    again = replay(read_record(text))
    _same(match, again)


def test_a_record_saved_part_way_loads_back_and_plays_on_the_same(tmp_path: Path) -> None:
    match = Match(RECORDED, seed=5, max_rounds=2)
    rng = Random(5)
    for _ in range(150):
        seat = match.to_move
        assert seat is not None
        match.apply(match.legal(seat).random(rng))
    path = tmp_path / "game.toml"
    save_record(match, path)
    assert "\nlevels = " not in path.read_text()
    again = replay(load_record(path))
    _same(match, again)
    assert again.start_levels == (4,) * 5
    assert not any(c.rank in (Rank.TWO, Rank.THREE) for c in again.round.deck)
    while not match.is_over:
        seat = match.to_move
        assert seat is not None
        action = match.legal(seat).random(rng)
        match.apply(action)
        again.apply(action)
    _same(match, again)


# -- any table -------------------------------------------------------------------------------

@settings(max_examples=20, deadline=None)
@given(players=st.integers(3, 10), decks=st.integers(1, 3), removed=st.integers(1, 3),
       kitty=st.none() | st.integers(0, 12), fixed=st.booleans(), seed=st.integers(0, 2**32))
def test_any_table_without_its_lowest_ranks_keeps_every_card_and_every_point(
        players: int, decks: int, removed: int, kitty: int | None, fixed: bool,
        seed: int) -> None:
    rules = Rules(players=players, decks=decks, kitty=kitty, remove_low=kitty is not None,
                  partnership="fixed" if fixed and players % 2 == 0 else "fluid",
                  removed_ranks=tuple(Rank)[:removed], start_rank=2)
    assert rules.deck_size == (52 - 4 * removed) * decks + 2 * decks
    assert rules.first_rank == 2 + removed
    full = pack(rules)
    assert len(full) == rules.deck_size
    assert sum(c.points for c in full) == 100 * decks
    rnd = Round(rules, seed=seed)
    assert len(rnd.deck) == rules.deck_size - rules.removed_count
    rng = Random(seed)
    while rnd.phase != Phase.DONE:
        seat = rnd.to_move
        assert seat is not None
        rnd.apply(rnd.legal(seat).random(rng))
    check_round(rnd)
