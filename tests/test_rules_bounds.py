"""Every option of Rules is typed and bounded: a value out of range or of the wrong type is
refused with a RulesError naming the option, the value and what is allowed (issue 9.5), and
the extremes that are allowed really play."""

from __future__ import annotations

import re
from dataclasses import fields

import pytest

from shengji.engine.cards import Rank
from shengji.engine.rules import (
    MAX_DECKS,
    MAX_PLAYERS,
    MAX_POINTS,
    FriendCalls,
    Rules,
    RulesError,
)
from shengji.game.match import play_random_match
from shengji.game.presets import preset
from timing import within

FLUID = {"partnership": "fluid"}

# option, a value too low (or None), a value too high, other options, words of the message
OUT_OF_RANGE: list[tuple[str, int | None, int, dict[str, object], str]] = [
    ("players", 1, MAX_PLAYERS + 2, {}, "at least 2 and at most 20"),
    ("decks", 0, MAX_DECKS + 1, {}, "at least 1 and at most 8"),
    ("kitty", -1, 200, {}, "at least 0 and at most 104"),
    ("big_jokers", -1, 3, {}, "at least 0 and at most 2 (one per deck)"),
    ("small_jokers", -1, 3, {}, "at least 0 and at most 2 (one per deck)"),
    ("tractor_min_width", 0, 3, {}, "2"),
    ("tractor_min_length", 1, 13, {}, "at least 2 and at most 12"),
    ("red_fives", -1, 3, {}, "at least 0 and at most 2"),
    ("throw_penalty_points", -1, 201, {}, "at least 0 and at most 200"),
    ("friends", -1, 5, {"players": 6, **FLUID}, "at least 0 and at most 4"),
    ("target", 4, MAX_POINTS + 1, {}, "at least 5 and at most 10000"),
    ("draw_at", -5, MAX_POINTS + 1, {}, "at least 0 and at most 10000"),
    ("red_five_penalty", -1, 201, {}, "at least 0 and at most 200"),
    ("expose", -1, 26, {}, "at least 0 and at most 25 (the hand size)"),
    ("kitty_overbid_limit", 0, 101, {}, "at least 1 and at most 100"),
    ("bombs", -1, 3, {}, "at least 0 and at most 2"),
    ("rainbow", -1, 5, {}, "at least 0 and at most 4"),
]


@pytest.mark.parametrize(("name", "low", "high", "others", "words"), OUT_OF_RANGE)
def test_integer_options_out_of_range_are_refused(name: str, low: int | None, high: int,
                                                  others: dict[str, object],
                                                  words: str) -> None:
    for value in (low, high, 10 ** 6, -(10 ** 6)):
        if value is None:
            continue
        with pytest.raises(RulesError) as error:
            Rules(**{**others, name: value})  # type: ignore[arg-type]
        assert error.value.option == name
        message = str(error.value)
        assert name in message and str(value) in message and "\n" not in message
    with pytest.raises(RulesError, match=re.escape(words)):
        Rules(**{**others, name: high})  # type: ignore[arg-type]


def test_every_integer_option_has_a_range() -> None:
    """No integer option takes any integer: a million either way is refused by each."""
    integers = [f.name for f in fields(Rules) if str(f.type) in ("int", "int | None")]
    assert {name for name, *_ in OUT_OF_RANGE} == set(integers)
    for name in integers:
        for value in (10 ** 6, -(10 ** 6)):
            with pytest.raises(RulesError) as error:
                Rules(**{name: value})  # type: ignore[arg-type]
            assert error.value.option == name


def test_the_reported_hangs_and_crashes_are_refused_at_once() -> None:
    with within(1.0, "the refusals"):
        for options in ({"players": 0}, {"players": -1}, {"players": -3}, {"decks": 10 ** 6},
                        {"decks": -1}, {"draw_at": -5}, {"players": 10 ** 9}):
            with pytest.raises(RulesError):
                Rules(**options)  # type: ignore[arg-type]


@pytest.mark.parametrize(("name", "value", "words"), [
    ("players", "4", "players must be an integer, got '4'"),
    ("players", 4.0, "players must be an integer"),
    ("players", True, "players must be an integer"),
    ("kitty", "8", "kitty must be an integer"),
    ("throws", 1, "throws must be true or false, got 1"),
    ("kitty_revealed", "yes", "kitty_revealed must be true or false"),
    ("tuple_follow", 3, "tuple_follow=3 is not allowed; use one of"),
    ("tuple_follow", ["protect"], "tuple_follow=['protect'] is not allowed"),
    ("end_rank", 2.5, "end_rank must be a rank"),
    ("end_rank", [14], "end_rank must be a rank"),
    ("end_rank", True, "end_rank must be a rank"),
    ("second_rank", "1", "second_rank must be a rank"),
    ("mandatory_ranks", "10", "mandatory_ranks must be a list of ranks, got '10'"),
    ("mandatory_ranks", ["5", "5"], "must not repeat a rank"),
    ("mandatory_ranks", [str(r) for r in Rank] + ["2"], "at most 13 are allowed"),
    ("rank_suit_order", "HS", "rank_suit_order must be a list of suits"),
    ("rank_suit_order", ["H", "X"], "rank_suit_order must be a suit"),
    ("rank_suit_order", ["H", "H"], "must not repeat a suit"),
    ("rank_suit_order", ["H", "S", "C", "D", "H"], "at most 4 are allowed"),
    ("fluid_overbid", "own-rank", "fluid_overbid must be a list of overbids"),
    ("fluid_overbid", ["own-rank", "own-rank"], "must not repeat an overbid"),
    ("fluid_overbid", ["everything"], "fluid_overbid must be a list of overbids among"),
])
def test_options_of_the_wrong_type_are_refused(name: str, value: object, words: str) -> None:
    with pytest.raises(RulesError, match=re.escape(words)) as error:
        Rules(**{name: value})  # type: ignore[arg-type]
    assert error.value.option == name


@pytest.mark.parametrize(("levels", "words"), [
    ([(0, 1), (50, "0")], "rows of two integers"),
    ([(0, 1, 2)], "rows of two integers"),
    ([0, 1], "rows of two integers"),
    ("0 1", "custom_levels must be a list of rows"),
    ([(0, 1), (MAX_POINTS + 5, 0)], "points 10005 must be from 0 to 10000"),
    ([(0, 13)], "a level change of 13 must be from -12 to 12"),
    ([(0, -13)], "a level change of -13"),
    ([(n, 0) for n in range(0, 165, 5)], "at most 32 are allowed"),
    ([(5, 1)], "must start at 0 points"),
    ([(0, 1), (0, 0)], "thresholds must increase"),
])
def test_custom_levels_are_bounded(levels: object, words: str) -> None:
    with pytest.raises(RulesError, match=re.escape(words)) as error:
        Rules(level_table="custom", custom_levels=levels)  # type: ignore[arg-type]
    assert error.value.option == "custom_levels"


def test_contradictions_name_the_option() -> None:
    cases: list[tuple[dict[str, object], str]] = [
        ({"players": 5}, "players"),
        ({"kitty": 7}, "kitty"),
        ({"friends": 1}, "friends"),
        ({"start_rank": "K", "end_rank": "Q"}, "start_rank"),
        ({"mandatory_ranks": ["A"], "end_rank": "K"}, "mandatory_ranks"),
        ({"custom_levels": [(0, 1)]}, "custom_levels"),
    ]
    for options, option in cases:
        with pytest.raises(RulesError) as error:
            Rules(**options)  # type: ignore[arg-type]
        assert error.value.option == option, options


def test_messages_stay_short_for_huge_values() -> None:
    for value in ("x" * 100_000, list(range(100_000)), 10 ** 5000, [[[[[[[1]]]]]]]):
        with pytest.raises(RulesError) as error:
            Rules(players=value)  # type: ignore[arg-type]
        assert len(str(error.value)) < 120 and "\n" not in str(error.value)
    for name, _, _, others, _ in OUT_OF_RANGE:
        for value in (10 ** 300, -(10 ** 300)):
            with pytest.raises(RulesError) as error:
                Rules(**{**others, name: value})  # type: ignore[arg-type]
            assert "an integer of 997 bits" in str(error.value)
            assert len(str(error.value)) < 150, str(error.value)


def test_replace_refuses_unknown_names() -> None:
    with pytest.raises(RulesError, match="unknown option 'player'") as error:
        Rules().replace(player=6)
    assert error.value.option == "player"


def test_every_field_is_checked_for_its_type() -> None:
    """A value no option takes (an object) is refused by every option, not stored."""
    for item in fields(Rules):
        with pytest.raises(RulesError) as error:
            Rules(**{item.name: object()})
        assert error.value.option == item.name


@pytest.mark.parametrize("rules", [
    Rules(players=MAX_PLAYERS, decks=MAX_DECKS),
    Rules(players=MAX_PLAYERS, decks=1),
    Rules(players=2, decks=MAX_DECKS, kitty=0, big_jokers=0, small_jokers=0,
          tractor_min_width=MAX_DECKS, tractor_min_length=12),
    preset("finding-friends", players=MAX_PLAYERS, friend_calls=FriendCalls.COLOUR_RANK),
    preset("finding-friends", players=3, friends=0),
    Rules(target=5, draw_at=MAX_POINTS, red_fives=2, red_five_penalty=200,
          throw_penalty="per-card", throw_penalty_points=200),
    Rules(level_table="custom", custom_levels=((0, 12), (5, -12), (MAX_POINTS, 0))),
], ids=["20p-8d", "20p-1d", "2p-8d", "ff-20p", "ff-3p", "points", "custom"])
def test_the_extremes_play(rules: Rules) -> None:
    match = play_random_match(rules, seed=7, max_rounds=1)
    assert len(match.results) == 1


def test_finding_friends_keeps_its_deck_default_in_range() -> None:
    assert preset("finding-friends", players=18).decks == MAX_DECKS
    assert preset("finding-friends", players=20).decks == MAX_DECKS
    with pytest.raises(RulesError, match="players must be at least 2 and at most 20, got 21"):
        preset("finding-friends", players=21)


def test_no_rainbow_of_five_can_form() -> None:
    # one rank's cards fall in the four plain suits, or trumps for the trump suit's card
    with pytest.raises(RulesError, match="at most 4 effective suits") as refused:
        Rules(rainbow=5)
    assert refused.value.option == "rainbow"
    assert Rules(rainbow=4).rainbow == 4
