"""The kitty, Finding Friends and the end of a round, on short crafted rounds.

A *short* round uses a huge kitty so that each seat holds only a couple of cards: the
dealer picks the whole kitty up and buries all but the cards the test wants to play
(``flow_helpers.stacked`` puts the chosen cards in the chosen hands). Nobody bids; the
first kitty card is a trump-rank card, which sets the trump suit (``no_bid = kitty-rank``).
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random

import pytest

from flow_helpers import deal, pass_round, stacked
from shengji.engine.cards import Card, Hand, Rank, Suit, parse_cards
from shengji.engine.friends import FriendCall, call_reason, exhausted_calls, exhausted_text
from shengji.engine.rules import Rules
from shengji.game.actions import Bury, Call, Play, parse_action
from shengji.game.legal import ActionError
from shengji.game.match import play_random_match
from shengji.game.phase import Phase
from shengji.game.round import Round
from shengji.game.scoresheet import RoundResult
from shengji.terminal.screen import Seating, render_result


def short_round(rules: Rules, hands: Sequence[str], kitty_first: str, *, dealer: int = 0,
                levels: Sequence[int] | None = None) -> Round:
    """Deal ``hands`` (the dealer's entry is what it keeps), let nobody bid, and have the
    dealer bury everything else."""
    rnd = stacked(rules, list(hands), kitty=kitty_first, dealer=dealer, levels=levels)
    deal(rnd)
    pass_round(rnd)
    assert rnd.phase == Phase.KITTY and rnd.kitty_owner == dealer
    rest = rnd.hands[dealer].copy()
    rest.remove(parse_cards(hands[dealer]))
    rnd.apply(Bury(dealer, tuple(rest.cards())))
    return rnd


def play(rnd: Round, *lines: str) -> RoundResult | None:
    for line in lines:
        rnd.apply(parse_action(line))
    return rnd.result


# -- burying -----------------------------------------------------------------------------

def test_bury_exactly_the_kitty_size() -> None:
    rnd = stacked(Rules(), {0: "9S"}, dealer=0, levels=(9, 5, 9, 5))
    deal(rnd)
    pass_round(rnd)
    assert rnd.phase == Phase.KITTY and len(rnd.hands[0]) == 33
    cards = rnd.hands[0].cards()
    for wrong in (cards[:7], cards[:9], ()):
        with pytest.raises(ActionError, match="bury exactly 8"):
            rnd.apply(Bury(0, tuple(wrong)))
    absent = next(c for c in map(Card, range(54)) if c not in rnd.hands[0])
    with pytest.raises(ActionError, match="do not hold"):
        rnd.apply(Bury(0, (absent, *cards[:7])))
    with pytest.raises(ActionError):
        rnd.apply(Bury(1, tuple(rnd.hands[1].cards()[:8])))
    rnd.apply(Bury(0, tuple(cards[:8])))
    assert len(rnd.hands[0]) == 25 and rnd.kitty == tuple(cards[:8])
    one = stacked(Rules(decks=1), {}, kitty="2S", dealer=0)
    deal(one)
    pass_round(one)
    assert len(one.hands[0]) == 18
    with pytest.raises(ActionError, match="bury exactly 6"):
        one.apply(Bury(0, tuple(one.hands[0].cards()[:8])))


def test_point_cards_may_not_be_buried() -> None:
    """With ``kitty_points_allowed=False`` point cards go in only when the hand has too few
    other cards: here the dealer holds all 12 point cards of the deck among 24 cards and
    must bury 14, so exactly 2 point cards may (must) go in."""
    rules = Rules(decks=1, kitty=14, kitty_points_allowed=False)
    rnd = stacked(rules, {0: "KC KD KH KS 10C 10D 10H 10S 5C 5D"}, kitty="2S 5H 5S",
                  dealer=0)
    deal(rnd)
    pass_round(rnd)
    hand = rnd.hands[0].cards()
    plain = [c for c in hand if not c.points]
    points = [c for c in hand if c.points]
    assert (len(hand), len(plain)) == (24, 12)
    with pytest.raises(ActionError, match="may not be buried"):
        rnd.apply(Bury(0, (*plain[:11], *points[:3])))
    rnd.apply(Bury(0, (*plain, *points[:2])))
    assert sum(1 for c in rnd.kitty if c.points) == 2
    easy = stacked(Rules(decks=1, kitty_points_allowed=False), {0: "KC"}, kitty="2S",
                   dealer=0)
    deal(easy)
    pass_round(easy)
    cards = easy.hands[0].cards()
    with pytest.raises(ActionError, match="may not be buried"):
        easy.apply(Bury(0, (Card("KC"), *[c for c in cards if not c.points][:5])))
    for seed in range(20):
        bury = easy.legal(0).random(Random(seed))
        assert isinstance(bury, Bury) and not any(c.points for c in bury.cards)


def test_kitty_is_seen_only_by_its_owner() -> None:
    rnd = stacked(Rules(), {0: "9S"}, dealer=0, levels=(9, 5, 9, 5))
    deal(rnd)
    pass_round(rnd)
    kitty = rnd.kitty
    assert rnd.view(0).kitty == kitty                   # picked up: the owner sees it
    assert all(rnd.view(s).kitty is None for s in (1, 2, 3))
    buried = tuple(rnd.hands[0].cards()[:8])
    rnd.apply(Bury(0, buried))
    assert rnd.view(0).kitty == buried
    for seat in (1, 2, 3):
        view = rnd.view(seat)
        assert view.kitty is None and view.hidden_cards() == 3 * 25 + 8
        assert view.history[-1] == Bury(0, ())          # the bury, without its cards
    assert rnd.view(0).history[-1] == Bury(0, buried)


@pytest.mark.parametrize("revealed", [True, False])
def test_kitty_at_the_end_of_the_round(revealed: bool) -> None:
    rules = Rules(kitty=100, kitty_revealed=revealed)
    rnd = short_round(rules, ["AC AC", "3C 3C", "4D 5D", "6D 7D"], "9S",
                      levels=(9, 5, 9, 5))
    play(rnd, "0 play AC AC", "1 play 3C 3C", "2 play 4D 5D", "3 play 6D 7D")
    assert rnd.phase == Phase.DONE
    assert rnd.view(0).kitty == rnd.kitty
    for seat in (1, 2, 3):
        view = rnd.view(seat)
        assert view.result is not None
        if revealed:
            assert view.kitty == rnd.kitty and view.result.kitty == rnd.kitty
        else:
            assert view.kitty is None and view.result.kitty == ()
            assert "(hidden)" in view.result.sheet()
            assert view.history[-5] == Bury(0, ())


# -- the kitty multiplier ------------------------------------------------------------------

def test_kitty_counts_only_when_the_opponents_win_the_last_trick() -> None:
    rules = Rules(kitty=100)
    kept = short_round(rules, ["AC AC", "3C 3C", "4D 5D", "6D 7D"], "9S",
                       levels=(9, 5, 9, 5))
    result = play(kept, "0 play AC AC", "1 play 3C 3C", "2 play 4D 5D", "3 play 6D 7D")
    assert result is not None and result.declarers == (0, 2)
    assert (result.kitty_points, result.kitty_multiplier, result.kitty_bonus) == (195, 0, 0)
    assert result.points == 0 and result.declarers_won
    assert result.levels == (12, 5, 12, 5)              # 0 points: declarers +3
    assert "not counted" in result.sheet()
    lost = short_round(rules, ["3C 3C", "AC AC", "4D 5D", "6D 7D"], "9S",
                       levels=(9, 5, 9, 5))
    result = play(lost, "0 play 3C 3C", "1 play AC AC", "2 play 4D 5D", "3 play 6D 7D")
    assert result is not None
    assert (result.trick_points, result.kitty_points) == (5, 195)
    assert (result.kitty_multiplier, result.kitty_bonus, result.points) == (4, 780, 785)
    sheet = result.sheet()
    assert "Kitty" in sheet and "195 points x 4" in sheet and "= 780" in sheet
    assert not result.declarers_won and result.next_dealer == 1


def test_the_last_trick_may_count_once_for_each_of_its_cards() -> None:
    """Seed hundred's variant: the opponents' last trick counts times its cards (8 here)."""
    rules = Rules(kitty=100, last_trick_multiplier=True)
    lost = short_round(rules, ["3C 3C", "KC KC", "4D 5D", "6D 7D"], "9S", levels=(9, 5, 9, 5))
    result = play(lost, "0 play 3C 3C", "1 play KC KC", "2 play 4D 5D", "3 play 6D 7D")
    assert result is not None and result.trick_points == 25
    assert result.last_trick_bonus == 25 * 7
    assert result.points == 25 * 8 + result.kitty_bonus
    assert "Last trick: 25 points x 8 cards (the opponents won it) = 200: +175" in (
        result.sheet())
    seating = Seating(("You", "Seat 1", "Seat 2", "Seat 3"), 0, False)
    screen = "\n".join(str(line) for line in render_result(
        result, seating, round_number=1, rules_players=4, trump=lost.trump, tricks=lost.tricks))
    assert "Last trick, counted once for each of its cards: +175 to the opponents" in screen
    kept = short_round(rules, ["KC KC", "3C 3C", "4D 5D", "6D 7D"], "9S", levels=(9, 5, 9, 5))
    result = play(kept, "0 play KC KC", "1 play 3C 3C", "2 play 4D 5D", "3 play 6D 7D")
    assert result is not None and result.last_trick_bonus == 0 and result.points == 0


def test_only_the_last_trick_decides_the_kitty() -> None:
    rules = Rules(kitty=92)                              # four cards each: two tricks
    first_lost = short_round(rules, ["AC AC 3D 3D", "AD AD 2C 2C", "4H 4H 6H 6H",
                                     "7H 7H 8H 8H"], "9S", levels=(9, 5, 9, 5))
    result = play(first_lost, "0 play 3D 3D", "1 play AD AD", "2 play 4H 4H",
                  "3 play 7H 7H", "1 play 2C 2C", "2 play 6H 6H", "3 play 8H 8H",
                  "0 play AC AC")
    assert result is not None and [t.winner for t in first_lost.tricks] == [1, 0]
    assert result.kitty_multiplier == 0 and result.points == 0
    last_lost = short_round(rules, ["AD AD 3C 3C", "2D 2D AC AC", "4H 4H 6H 6H",
                                    "7H 7H 8H 8H"], "9S", levels=(9, 5, 9, 5))
    result = play(last_lost, "0 play AD AD", "1 play 2D 2D", "2 play 4H 4H",
                  "3 play 7H 7H", "0 play 3C 3C", "1 play AC AC", "2 play 6H 6H",
                  "3 play 8H 8H")
    assert result is not None and [t.winner for t in last_lost.tricks] == [0, 1]
    assert (result.kitty_points, result.kitty_multiplier, result.points) == (200, 4, 800)


@pytest.mark.parametrize(("multiplier", "single", "pair", "tractor"), [
    ("unit-size", 2, 4, 8),
    ("power", 2, 4, 8),
    ("lead-size", 2, 4, 8),
    ("decks", 2, 2, 2),
    ("double", 2, 2, 2),
])
def test_multiplier_kinds(multiplier: str, single: int, pair: int, tractor: int) -> None:
    for hands, lines, expected in [
        (["3C 4D", "AC 5D", "4H 6H", "7H 8H"],
         ["0 play 3C", "1 play AC", "2 play 4H", "3 play 7H",
          "1 play 5D", "2 play 6H", "3 play 8H", "0 play 4D"], single),
        (["3C 3C", "AC AC", "4H 4H", "7H 7H"],
         ["0 play 3C 3C", "1 play AC AC", "2 play 4H 4H", "3 play 7H 7H"], pair),
        (["3C 3C 4C 4C", "QC QC KC KC", "4H 4H 5H 5H", "7H 7H 8H 8H"],
         ["0 play 3C 3C 4C 4C", "1 play QC QC KC KC", "2 play 4H 4H 5H 5H",
          "3 play 7H 7H 8H 8H"], tractor),
    ]:
        rules = Rules(kitty=108 - 4 * len(hands[0].split()), kitty_multiplier=multiplier)
        rnd = short_round(rules, hands, "9S", levels=(9, 5, 9, 5))
        result = play(rnd, *lines)
        assert result is not None and rnd.tricks[-1].winner == 1
        assert result.kitty_multiplier == expected, (multiplier, hands)
        assert result.kitty_bonus == result.kitty_points * expected


# -- red fives, a lost round ----------------------------------------------------------------

def test_captured_red_five_penalty() -> None:
    rules = Rules(kitty=100, red_fives=1, red_five_penalty=10)
    rnd = short_round(rules, ["8D 8C", "5H 3C", "5H 4C", "6D 7D"], "9S", dealer=1,
                      levels=(5, 9, 5, 9))
    result = play(rnd, "1 play 5H", "2 play 5H", "3 play 6D", "0 play 8D",
                  "1 play 3C", "2 play 4C", "3 play 7D", "0 play 8C")
    assert result is not None and [t.winner for t in rnd.tricks] == [1, 0]
    assert result.red_five_points == -10                # the opponents' 5♥ was captured
    assert result.kitty_bonus == 190 * 2
    assert result.points == 0 + 380 - 10
    assert "Captured red fives: -10" in result.sheet()


@pytest.mark.parametrize("side", ["declarers", "opponents"])
def test_failed_throw_loses_the_round(side: str) -> None:
    """Seed da_bai_fen: a group lead that another player could beat loses the round and
    the other side scores the maximum."""
    rules = Rules(decks=1, kitty=42, failed_throw="lose-round", level_table="da-bai-fen")
    if side == "declarers":
        rnd = short_round(rules, ["KC QC 3H", "AC 3D 4D", "4H 5D 6D", "6H 7D 8D"], "2S",
                          levels=(2, 2, 2, 2))
        thrower, lines = 0, ["0 play KC QC"]
    else:                                              # seat 2 wins a trick, then throws
        rnd = short_round(rules, ["5H 8D 9D", "3H AC 4D", "AH KC QC", "4H 6D 7D"], "2S",
                          dealer=1, levels=(2, 2, 2, 2))
        thrower, lines = 2, ["1 play 3H", "2 play AH", "3 play 4H", "0 play 5H",
                             "2 play KC QC"]
    result = play(rnd, *lines)
    assert result is not None and result.lost_by == thrower and rnd.phase == Phase.DONE
    assert "round is lost" in result.sheet()
    assert "not counted (the round was lost)" in result.sheet()
    if side == "declarers":
        assert result.points == 100 and not result.declarers_won
        assert result.levels == (2, 4, 2, 4)           # 100+: opponents +2
    else:
        assert result.points == 0 and result.declarers_won
        assert result.levels == (2, 4, 2, 4)           # 0: declarers (1, 3) +2
    assert not rnd.hands[thrower].holds(parse_cards("KC QC"))   # the throw is on the table
    with pytest.raises(ActionError):
        rnd.apply(Play(thrower + 1, rnd.hands[thrower + 1].cards()[:1]))


# -- Finding Friends ---------------------------------------------------------------------------

FIVE = Rules(players=5, partnership="fluid", kitty=98)     # two cards each, one friend
SIX = Rules(players=6, partnership="fluid", kitty=96)      # two cards each, two friends


def calls(text: str) -> tuple[FriendCall, ...]:
    return tuple(FriendCall.parse(c) for c in text.split(","))


def test_friend_calls_are_checked() -> None:
    rnd = short_round(FIVE, ["3C 3D", "6C 6D", "AC 7D", "8C 8D", "10C 10D"], "9S",
                      levels=(9,) * 5)
    assert rnd.phase == Phase.CALL and rnd.to_move == 0
    for text, why in [("1st AS", "trump"), ("1st 9H", "trump"), ("3rd AC", "only 2"),
                      ("1st AC, 1st KC", "exactly 1"), ("1st black A", "precise card")]:
        with pytest.raises(ActionError, match=why):
            rnd.apply(Call(0, calls(text)))
    with pytest.raises(ActionError):
        rnd.apply(Call(1, calls("1st AC")))
    with pytest.raises(ActionError):
        rnd.apply(Play(0, parse_cards("3C")))             # no play before the call
    assert all(not any(FriendCall.parse("AS") == c for c in a.calls)
               for a in rnd.legal(0) if isinstance(a, Call))
    trumps = short_round(FIVE.replace(friend_trump_calls=True),
                         ["3C 3D", "6C 6D", "AC 7D", "8C 8D", "10C 10D"], "9S",
                         levels=(9,) * 5)
    trumps.apply(Call(0, calls("2nd AS")))
    assert trumps.phase == Phase.PLAY
    colour = short_round(FIVE.replace(friend_calls="colour-rank"),
                         ["3C 3D", "6C 6D", "AC 7D", "8C 8D", "10C 10D"], "9S",
                         levels=(9,) * 5)
    with pytest.raises(ActionError, match="colour and rank"):
        colour.apply(Call(0, calls("1st AC")))
    with pytest.raises(ActionError, match="only 4"):
        colour.apply(Call(0, calls("5th red A")))
    colour.apply(Call(0, calls("4th red A")))


@pytest.mark.parametrize(("option", "refused_calls", "allowed_calls"), [
    ("friend_call_points", ["1st KC", "2nd 10D", "1st 5H"], ["1st QC", "1st AC", "2nd 4D"]),
    ("friend_call_top", ["1st AC", "2nd AD"], ["1st KC", "1st QH"]),
])
def test_friend_call_restrictions(option: str, refused_calls: list[str],
                                  allowed_calls: list[str]) -> None:
    """House rules: no point cards may be called; the highest card of a suit (an A, or
    a K when the trump rank is A) may not be called."""
    rules = FIVE.replace(**{option: False})
    rnd = short_round(rules, ["3C 3D", "6C 6D", "AC 7D", "8C 8D", "10C 10D"], "9S",
                      levels=(9,) * 5)
    for text in refused_calls:
        with pytest.raises(ActionError, match="point card" if "points" in option else "highest"):
            rnd.apply(Call(0, calls(text)))
    assert all(Call(0, calls(text)) in rnd.legal(0) for text in allowed_calls)
    assert all(not any(str(c) in refused_calls for c in a.calls)
               for a in rnd.legal(0) if isinstance(a, Call))
    assert Call(0, calls(allowed_calls[0])) in short_round(
        FIVE, ["3C 3D", "6C 6D", "AC 7D", "8C 8D", "10C 10D"], "9S", levels=(9,) * 5).legal(0)


def test_the_highest_card_is_the_king_when_aces_are_trump() -> None:
    rules = FIVE.replace(friend_call_top=False)
    rnd = short_round(rules, ["3C 3D", "6C 6D", "KC 7D", "8C 8D", "10C 10D"], "AS",
                      levels=(14,) * 5)
    with pytest.raises(ActionError, match="highest card of its suit"):
        rnd.apply(Call(0, calls("1st KC")))
    rnd.apply(Call(0, calls("1st QC")))


def test_a_friend_is_revealed_by_playing_the_called_card() -> None:
    rnd = short_round(FIVE, ["3C 3D", "6C 6D", "AC 7D", "8C 8D", "10C 10D"], "9S",
                      levels=(9,) * 5)
    rnd.apply(Call(0, calls("1st AC")))
    assert all(rnd.view(s).calls == calls("1st AC") for s in range(5))
    play(rnd, "0 play 3C", "1 play 6C")
    assert rnd.declarers == (0,) and all(rnd.view(s).friends == () for s in range(5))
    play(rnd, "2 play AC")
    for seat in range(5):
        view = rnd.view(seat)
        assert view.friends == (2,) and view.declarers == (0, 2)
    result = play(rnd, "3 play 8C", "4 play 10C",
                  "2 play 7D", "3 play 8D", "4 play 10D", "0 play 3D", "1 play 6D")
    assert result is not None
    assert result.declarers == (0, 2) and result.opponents == (1, 3, 4)
    assert [t.winner for t in rnd.tricks] == [2, 4]
    assert (result.trick_points, result.declarer_points) == (10, 10)
    assert (result.kitty_points, result.kitty_multiplier, result.points) == (180, 2, 370)
    assert not result.declarers_won
    assert result.levels == (9, 14, 9, 14, 14)          # 370: +7, stopped at A


@pytest.mark.parametrize("caller_counts", [True, False])
def test_the_callers_own_play(caller_counts: bool) -> None:
    rules = FIVE.replace(friend_caller_counts=caller_counts, smaller_team_bonus=True)
    rnd = short_round(rules, ["AC AD", "3C 3D", "AC 4D", "6C 6D", "7C 7D"], "9S",
                      levels=(9,) * 5)
    rnd.apply(Call(0, calls("1st AC")))
    play(rnd, "0 play AC", "1 play 3C", "2 play AC")
    assert rnd.declarers == ((0,) if caller_counts else (0, 2))
    result = play(rnd, "3 play 6C", "4 play 7C",
                  "0 play AD", "1 play 3D", "2 play 4D", "3 play 6D", "4 play 7D")
    assert result is not None and result.declarers_won and result.points == 0
    if caller_counts:
        # the dealer alone: +3 for no points, +1 for the smaller team
        assert result.levels == (13, 9, 9, 9, 9)
        assert "Smaller declaring team" in result.sheet()
    else:
        assert result.levels == (12, 9, 12, 9, 9)
        assert "Smaller" not in result.sheet()


@pytest.mark.parametrize("bonus", [True, False])
def test_two_called_cards_by_one_player_join_once(bonus: bool) -> None:
    rules = SIX.replace(smaller_team_bonus=bonus)
    rnd = short_round(rules, ["3C 3C", "4C 4C", "5D 6D", "AC AC", "7D 8D", "JD QD"],
                      "9S", levels=(9,) * 6)
    assert rules.friend_count == 2
    rnd.apply(Call(0, calls("1st AC, 2nd AC")))
    result = play(rnd, "0 play 3C 3C", "1 play 4C 4C", "2 play 5D 6D", "3 play AC AC")
    assert rnd.tracker is not None and rnd.tracker.friends == (3,) and rnd.tracker.settled
    result = play(rnd, "4 play 7D 8D", "5 play JD QD")
    assert result is not None and result.declarers == (0, 3)
    assert result.declarers_won and result.points == 0
    up = 4 if bonus else 3
    assert result.levels == tuple(9 + up if s in (0, 3) else 9 for s in range(6))


def test_colour_rank_calls() -> None:
    rules = FIVE.replace(friend_calls="colour-rank")
    rnd = short_round(rules, ["3H 3D", "AH 6D", "4H AD", "7H 7D", "8H 8D"], "9S",
                      levels=(9,) * 5)
    rnd.apply(Call(0, calls("2nd red A")))
    play(rnd, "0 play 3H", "1 play AH", "2 play 4H", "3 play 7H", "4 play 8H")
    assert rnd.declarers == (0,)                         # the first red ace: not yet
    play(rnd, "1 play 6D", "2 play AD")
    assert rnd.declarers == (0, 2) and rnd.view(4).friends == (2,)


def test_smaller_team_bonus_needs_the_option_and_a_win() -> None:
    rules = FIVE.replace(smaller_team_bonus=True)
    rnd = short_round(rules, ["3C 3D", "AC 6D", "4C 7D", "6C AD", "7C 8D"], "9S",
                      levels=(9,) * 5)
    rnd.apply(Call(0, calls("1st KH")))                  # nobody plays it
    result = play(rnd, "0 play 3C", "1 play AC", "2 play 4C", "3 play 6C", "4 play 7C",
                  "1 play 6D", "2 play 7D", "3 play AD", "4 play 8D", "0 play 3D")
    assert result is not None and result.declarers == (0,)
    assert not result.declarers_won                      # the kitty: 200 points x 2
    assert "Smaller" not in result.sheet()


# -- a call only the caller can complete (friend_call_all_held) ------------------------------

def held(text: str) -> list[int]:
    return Hand(text).counts


@pytest.mark.parametrize(("call", "hand", "kitty", "caller_counts", "exhausted"), [
    ("1st AS", "AS AS KH", "", True, True),        # every copy: nobody else plays one
    ("2nd AS", "AS AS", "", False, True),
    ("1st AS", "AS KH", "", True, False),          # the other copy is out there
    ("2nd AS", "AS KH", "", True, False),          # the caller's AS first, then another's
    ("2nd AS", "AS KH", "", False, True),          # the caller's does not count: one left
    ("1st AS", "AS KH", "", False, False),
    ("1st AS", "AS KH", "AS", True, True),         # the other copy is in the kitty
    ("2nd AS", "KH", "AS", True, True),            # only one AS can ever be played
    ("1st AS", "KH", "AS", True, False),
    ("1st black A", "AS AS AC AC", "", True, True),
    ("4th black A", "AS AS AC", "", True, False),
    ("4th black A", "AS AS AC", "", False, True),
])
def test_calls_only_the_caller_can_complete(call: str, hand: str, kitty: str,
                                            caller_counts: bool, exhausted: bool) -> None:
    rules = FIVE.replace(friend_caller_counts=caller_counts)
    found = exhausted_calls(calls(call), held(hand), rules,
                            buried=held(kitty) if kitty else None)
    assert found == (calls(call) if exhausted else ())


def test_exhausted_calls_are_explained() -> None:
    assert exhausted_text(FriendCall.parse("1st AS"), held("AS AS"), FIVE) == "you hold every AS"
    assert exhausted_text(FriendCall.parse("1st AS"), held("AS"), FIVE, held("AS")) == (
        "you hold or buried every AS")
    assert exhausted_text(FriendCall.parse("2nd AS"), held("AS"),
                          FIVE.replace(friend_caller_counts=False)) == (
        "you hold 1 of the 2 AS: the 2nd AS cannot be another player's")


@pytest.mark.parametrize("option", ["alone", "refused"])
def test_call_reason_follows_friend_call_all_held(option: str) -> None:
    rules = FIVE.replace(friend_call_all_held=option)
    trump = rules.trump(Rank.NINE, Suit.DIAMONDS)
    mine = held("AS AS 3C")
    assert call_reason(calls("1st AS"), trump, rules) is None     # without a hand: no check
    assert call_reason(calls("1st AC"), trump, rules, held=mine) is None
    why = call_reason(calls("1st AS"), trump, rules, held=mine)
    if option == "alone":
        assert why is None                                     # allowed: the caller plays alone
    else:
        assert why == ("you hold every AS, so nobody else can be the friend of the 1st AS: "
                       "call a card another player can play")
    six = SIX.replace(friend_call_all_held=option)
    both = call_reason(calls("1st AS, 1st KH"), trump, six, held=mine)
    assert (both is None) == (option == "alone")


def test_friend_call_all_held_in_rules_files() -> None:
    from shengji.game.config import load_rules, rules_from_dict, rules_to_dict

    rules = load_rules('preset = "finding-friends"\nfriend_call_all_held = "refused"')
    assert rules.friend_call_all_held == "refused"
    assert Rules().friend_call_all_held == "alone"
    assert rules_from_dict(rules_to_dict(rules)) == rules
    with pytest.raises(ValueError, match="'alone', 'refused'"):
        load_rules('preset = "finding-friends"\nfriend_call_all_held = "never"')


def test_a_call_of_cards_the_caller_holds_in_a_round() -> None:
    """A call of cards only the caller holds is refused under "refused" (and never listed
    or drawn as a legal call) and makes no friend under "alone"."""
    hands = ["AC AC", "3C 3D", "6C 4D", "6D 7D", "7C 8D"]
    refused = short_round(FIVE.replace(friend_call_all_held="refused"), hands, "9S",
                          levels=(9,) * 5)
    with pytest.raises(ActionError, match="you hold every AC"):
        refused.apply(Call(0, calls("1st AC")))
    listed = [a for a in refused.legal(0) if isinstance(a, Call)]
    assert listed and Call(0, calls("1st AC")) not in listed
    rng = Random(1)
    assert all(refused.legal(0).random(rng) in refused.legal(0) for _ in range(50))
    alone = short_round(FIVE, hands, "9S", levels=(9,) * 5)
    alone.apply(Call(0, calls("1st AC")))
    play(alone, "0 play AC", "1 play 3C", "2 play 6C", "3 play 6D", "4 play 7C")
    assert alone.declarers == (0,)


# -- score sheet, hook and needle, mandatory ranks -------------------------------------------

def test_score_sheet_explains_the_round() -> None:
    rules = Rules(kitty=100)
    rnd = short_round(rules, ["3C 3C", "AC AC", "4D 5D", "6D 7D"], "9S",
                      levels=(9, 5, 9, 5))
    result = play(rnd, "0 play 3C 3C", "1 play AC AC", "2 play 4D 5D", "3 play 6D 7D")
    assert result is not None
    lines = result.sheet().splitlines()
    assert lines[0].startswith("Trump 9S; dealer seat 0; declarers 0, 2; opponents 1, 3")
    assert "Trick 1: seat 1 (opponents) takes 5." in lines
    assert "Opponents' points in tricks: 5." in lines
    assert any(line.startswith("Kitty ") and "x 4" in line and "pair" in line
               for line in lines)
    assert any(line.startswith("Opponents' total: 785") for line in lines)
    assert "Seat 1: 5 -> A." in lines and "Seat 3: 5 -> A." in lines
    assert lines[-1] == "Next dealer: seat 1."


def hook_round(level: int, rank_cards: str, *, hook: bool = True) -> RoundResult:
    """Declarers (0, 2) at ``level`` win the round (a table where they always go up one)
    but seat 1 wins the last trick with ``rank_cards``' second card."""
    rules = Rules(decks=1, kitty=46, hook_and_needle=hook, level_table="custom",
                  custom_levels=((0, 1), (10000, 0)))
    first, second = rank_cards.split()
    rnd = short_round(rules, ["2C 3C", f"{first} {second}", "5C 6C", "7C 8C"],
                      f"{first[:-1]}D", levels=(level, 5, level, 5))
    result = play(rnd, "0 play 2C", f"1 play {first}", "2 play 5C", "3 play 7C",
                  f"1 play {second}", "2 play 6C", "3 play 8C", "0 play 3C")
    assert result is not None and result.declarers_won
    return result


def test_hook_from_jack_back_to_two() -> None:
    result = hook_round(11, "JS JH")
    assert result.hooked and result.levels == (2, 5, 2, 5)
    assert "Hook and needle" in result.sheet()
    assert not hook_round(11, "JS JH", hook=False).hooked


def test_needle_from_ace_back_to_jack_and_no_match_win() -> None:
    result = hook_round(14, "AS AH")
    assert result.hooked and result.levels == (11, 5, 11, 5)
    assert result.match_won_by == ()                     # needled back: the match goes on
    plain = hook_round(14, "AS AH", hook=False)
    assert plain.match_won_by == (0, 2) and plain.levels == (14, 5, 14, 5)


def test_hook_in_finding_friends_only_at_the_rounds_rank() -> None:
    """A friend at A in a round played at J is not needled back: the needle is for rounds
    at A (VARIANTS: "at rank J ... the declarers go back to 2 (A sends back to J)")."""
    rules = FIVE.replace(hook_and_needle=True, level_table="custom",
                         custom_levels=((0, 1), (10000, 0)))
    rnd = short_round(rules, ["3C 3D", "JS JH", "AC 4D", "6C 6D", "7C 7D"], "JD",
                      levels=(11, 5, 13, 5, 5))
    rnd.apply(Call(0, calls("1st AC")))
    result = play(rnd, "0 play 3C", "1 play JS", "2 play AC", "3 play 6C", "4 play 7C",
                  "1 play JH", "2 play 4D", "3 play 6D", "4 play 7D", "0 play 3D")
    assert result is not None and result.declarers == (0, 2) and result.declarers_won
    assert result.hooked and result.levels == (2, 5, 14, 5, 5)


def test_no_hook_without_a_rank_card_or_at_other_levels() -> None:
    rules = Rules(decks=1, kitty=46, hook_and_needle=True, level_table="custom",
                  custom_levels=((0, 1), (10000, 0)))
    rnd = short_round(rules, ["2C 3C", "QD AD", "5C 6C", "7C 8C"], "JD",
                      levels=(11, 5, 11, 5))
    result = play(rnd, "0 play 2C", "1 play QD", "2 play 5C", "3 play 7C",
                  "1 play AD", "2 play 6C", "3 play 8C", "0 play 3C")
    assert result is not None and not result.hooked and result.levels == (12, 5, 12, 5)
    other = hook_round(10, "10S 10H")
    assert not other.hooked and other.levels == (11, 5, 11, 5)


def test_mandatory_rank_stops_an_advance() -> None:
    for mandatory, expected in [((), 7), (("5",), 5), (("6",), 6)]:
        rules = Rules(kitty=100, mandatory_ranks=mandatory)
        rnd = short_round(rules, ["AC AC", "3C 3C", "4D 6D", "7D 8D"], "4S",
                          levels=(4, 9, 4, 9))
        result = play(rnd, "0 play AC AC", "1 play 3C 3C", "2 play 4D 6D", "3 play 7D 8D")
        assert result is not None and result.points == 0
        assert result.levels == (expected, 9, expected, 9)
        assert f"Seat 0: 4 -> {expected}." in result.sheet()


@pytest.mark.parametrize("seed", [1, 2])
def test_mandatory_ranks_in_a_match(seed: int) -> None:
    rules = Rules(mandatory_ranks=("5", "10", "K"))
    match = play_random_match(rules, seed=seed)
    assert match.winners
    winner = match.winners[0]
    visited = {r.levels[winner] for r in match.results}
    assert {5, 10, 13, 14} <= visited                   # every mandatory rank was played
    for result in match.results:
        for before, after in zip(result.levels_before, result.levels, strict=True):
            assert not any(before < m < after for m in (5, 10, 13))
