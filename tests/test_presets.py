"""Presets: each builds, its key figures follow the seeds and the VARIANTS.md tables,
overrides work and are validated, unknown names are reported with suggestions;
describe_rules puts every non-default option in words."""

from __future__ import annotations

import pytest

from shengji.engine.cards import Rank, Suit
from shengji.engine.rules import (
    DealerRotation,
    FailedThrow,
    FirstDraw,
    FriendCalls,
    JokerBids,
    KittyMultiplier,
    LevelTable,
    Partnership,
    RedealShow,
    Rules,
    RulesError,
    ThrowBeat,
    ThrowCheck,
    TupleFollow,
)
from shengji.game.match import play_random_match
from shengji.game.presets import (
    OPTION_NAMES,
    PRESETS,
    ZHAO_PENGYOU_TABLE,
    OptionError,
    describe_rules,
    preset,
)


def test_every_preset_builds_and_is_described() -> None:
    assert list(PRESETS) == ["tractor", "tractor-6", "finding-friends", "da-bai-fen", "hundred"]
    for name, line in PRESETS.items():
        rules = preset(name)
        assert isinstance(rules, Rules)
        assert line and "\n" not in line
        assert all(isinstance(text, str) and text for text in describe_rules(rules))


def test_tractor_is_the_default() -> None:
    rules = preset("tractor")
    assert rules == Rules()
    assert (rules.players, rules.decks, rules.hand_size, rules.kitty_size) == (4, 2, 25, 8)
    assert rules.partnership == Partnership.FIXED and rules.target_points == 80
    assert describe_rules(rules) == []


def test_tractor_6() -> None:
    rules = preset("tractor-6")
    assert (rules.players, rules.decks, rules.hand_size, rules.kitty_size) == (6, 3, 26, 6)
    assert rules.partnership == Partnership.FIXED and rules.friend_count == 0
    assert rules.target_points == 120


# players: (decks, red, black, cards each, total) from VARIANTS.md
ZHAO_PENGYOU = {
    5: (2, 2, 2, 20, 108), 6: (2, 2, 2, 17, 108), 7: (2, 0, 0, 14, 104),
    8: (3, 2, 0, 19, 158), 9: (3, 3, 0, 17, 159), 10: (3, 0, 0, 15, 156),
    11: (3, 2, 2, 14, 160), 12: (4, 2, 0, 17, 210),
}


@pytest.mark.parametrize("players", sorted(ZHAO_PENGYOU))
def test_finding_friends_follows_the_zhao_pengyou_table(players: int) -> None:
    decks, red, black, each, total = ZHAO_PENGYOU[players]
    rules = preset("finding-friends", players=players)
    assert ZHAO_PENGYOU_TABLE[players] == (decks, red, black)
    assert (rules.decks, rules.big_jokers, rules.small_jokers) == (decks, red, black)
    assert rules.deck_size == total and rules.hand_size == each
    assert rules.kitty_size == total - each * players
    assert rules.kitty_size == (8 if players == 5 else 6)
    # one friend for 4-5 players, two for 6-7, ... (seed 2006)
    assert rules.friend_count == (players - 2) // 2
    assert rules.partnership == Partnership.FLUID


def test_finding_friends_follows_the_2006_seed() -> None:
    rules = preset("finding-friends")
    assert rules.players == 6
    assert rules.friend_calls == FriendCalls.ORDINAL and not rules.friend_trump_calls
    assert rules.fluid_overbid == ("own-rank", "maker-rank", "jokers-rank")
    assert rules.dealer_rotation == DealerRotation.WINNER_NEXT
    assert rules.level_table == LevelTable.TABLE_2006


def test_finding_friends_overrides() -> None:
    # explicit decks override the table (jokers then default to the decks)
    rules = preset("finding-friends", players=8, decks=4)
    assert rules.decks == 4 and rules.joker_counts == (4, 4)
    # explicit jokers override the table's
    rules = preset("finding-friends", players=9, big_jokers=2, small_jokers=2)
    assert rules.joker_counts == (2, 2) and rules.decks == 3
    # outside the table: one deck per two players
    assert preset("finding-friends", players=4).decks == 2
    assert preset("finding-friends", players=14).decks == 7
    rules = preset("finding-friends", players=7, friend_calls="colour-rank",
                   friend_trump_calls=True, fluid_bidders="not-lost")
    assert rules.friend_calls == FriendCalls.COLOUR_RANK
    with pytest.raises(OptionError, match="players must be an integer"):
        preset("finding-friends", players="six")


def test_da_bai_fen() -> None:
    rules = preset("da-bai-fen")
    assert (rules.players, rules.decks, rules.hand_size, rules.kitty_size) == (4, 1, 12, 6)
    assert rules.target_points == 40
    assert rules.level_table == LevelTable.DA_BAI_FEN
    assert rules.failed_throw == FailedThrow.LOSE_ROUND
    assert rules.throw_check == ThrowCheck.ALL
    assert rules.first_draw == FirstDraw.NEXT
    assert rules.redeal_show == RedealShow.NO_TRUMPS and rules.redeal_dealer_partner
    assert rules.kitty_multiplier == KittyMultiplier.DOUBLE
    assert rules.joker_bids == JokerBids.OFF


def test_hundred() -> None:
    rules = preset("hundred")
    assert (rules.players, rules.decks, rules.hand_size, rules.kitty_size) == (4, 1, 12, 6)
    assert rules.throw_beat == ThrowBeat.CARD_BY_CARD
    assert rules.tuple_follow == TupleFollow.NONE
    assert rules.level_table == LevelTable.DA_BAI_FEN
    finer = preset("hundred", level_table="hundred", draw_at=40, second_rank="2",
                   rank_suit_order=("H", "S", "C", "D"))
    assert finer.level_table == LevelTable.HUNDRED and finer.draw_at == 40
    assert finer.second_rank == Rank.TWO
    assert finer.rank_suit_order == (Suit.HEARTS, Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS)
    text = " ".join(describe_rules(finer))
    assert describe_rules(Rules(throw_penalty_points=5)) == [
        "a throw penalty, when on, is 5 points"]
    assert "second trump rank: 2" in text and "draw" in text and "Hundred's finer" in text


def test_overrides_are_validated_by_rules() -> None:
    assert preset("tractor", end_rank="5").end_rank == Rank.FIVE
    assert preset("tractor-6", decks=2).hand_size == 17
    with pytest.raises(RulesError, match="even number of players"):
        preset("tractor", players=5)
    with pytest.raises(RulesError, match="tuple_follow='strict' is not allowed"):
        preset("da-bai-fen", tuple_follow="strict")


def test_unknown_override_names_suggest_options() -> None:
    with pytest.raises(OptionError, match=r"unknown option 'player'; did you mean 'players'") as e:
        preset("tractor", player=6)
    assert e.value.option == "player"
    with pytest.raises(RulesError, match="options are: players, decks"):
        preset("tractor", zzzzzz=1)


def test_unknown_preset_lists_the_names() -> None:
    with pytest.raises(RulesError) as error:
        preset("finding-freinds")
    message = str(error.value)
    assert "did you mean 'finding-friends'" in message
    assert all(name in message for name in PRESETS)
    with pytest.raises(RulesError, match="presets are: tractor, tractor-6"):
        preset("bridge")
    # spelling variants of a name are accepted
    assert preset("Finding Friends") == preset("finding_friends") == preset("finding-friends")


def test_describe_rules_phrases_every_option() -> None:
    changed = Rules(
        players=6, decks=3, partnership="fluid", kitty=15, big_jokers=1, small_jokers=2,
        remove_low=True,
        tractor_min_width=3, tractor_min_length=3, tractor_high_trumps=False, red_fives=2,
        removed_ranks=("2",), second_rank="4", rank_suit_order=("S", "H"), tuple_follow="protect",
        tractor_follow="longest", throws=False, throw_mixed=False, throw_blocked_by_equal=True,
        throw_check="opponents", failed_throw="largest", throw_penalty="per-card",
        throw_penalty_points=5, throw_beat="every-unit", bombs=3, bomb_follow_suit=True, rainbow=4,
        rainbow_throws=True, throw_tiebreak=True,
        trump_choice="dealer", expose=3,
        first_draw="count",
        first_dealer="random", bid_reinforce=False, bid_switch_suit=True,
        bid_equal_override=True, bid_withdraw=True, bid_after_outbid=True,
        bid_reinforce_equal=True, bid_reinforce_after_bury=True, joker_bids="decks",
        fluid_overbid=("own-rank", "jokers-only"), fluid_bidders="not-lost", no_bid="kitty-first",
        no_bid_joker="no-trump", redeal_show="no-points", redeal_dealer_partner=True,
        redeal_first_bidder=True,
        kitty_overbid=True, kitty_overbid_takes_dealer=True, kitty_overbid_by="opponents",
        kitty_overbid_limit=2, kitty_points_allowed=False,
        kitty_multiplier="power", kitty_revealed=False, friends=1, friend_calls="colour-rank",
        friend_trump_calls=True, friend_caller_counts=False, friend_call_all_held="refused",
        friend_call_points=False, friend_call_top=False,
        smaller_team_bonus=True,
        target=100, level_table="custom", custom_levels=((0, 1), (50, 0), (90, -1)), draw_at=50,
        below_zero=True, kitty_to_declarers=True, last_trick_multiplier=True,
        mandatory_win=True, pass_end_freely=True,
        red_five_penalty=20, start_rank="3", end_rank="K", after_end="wrap",
        leftover_steps="carry",
        mandatory_ranks=("5", "10"), hook_and_needle=True, dealer_rotation="winner-next",
    )
    default = Rules()
    assert all(getattr(changed, n) != getattr(default, n) for n in OPTION_NAMES)
    lines = describe_rules(changed)
    # the four deck options make one line, the throw penalty and its points one, the
    # custom table and its rows one; every other option one line each
    assert len(lines) == len(OPTION_NAMES) - 5
    assert not any(":" in line and line.split(":")[0] in OPTION_NAMES for line in lines)
    assert "3 decks (147 cards, 1 red and 2 black jokers): 22 cards each, a kitty of 15" in lines
    assert "every card of rank 2 is taken out of the pack; levels skip it" in lines
    assert "a failed throw gives the opponents 5 points per card thrown" in lines
    assert ("custom level table: 0+: declarers +1; 50+: opponents take over; "
            "90+: opponents +1") in lines


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_plays(name: str) -> None:
    rules = preset(name, end_rank="3") if name != "finding-friends" else preset(
        name, players=7, end_rank="3")
    match = play_random_match(rules, seed=11, max_rounds=3)
    assert match.results
