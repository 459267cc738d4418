"""Loading rules from TOML and JSON (files and text): presets plus overrides, type checks,
unknown options with suggestions, contradictions, and the dict round trip."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shengji.engine.cards import Rank, Suit
from shengji.engine.rules import LevelTable, Partnership, Rules, RulesError, TupleFollow
from shengji.game.config import (
    OptionError,
    load_rules,
    rules_from_dict,
    rules_to_dict,
    rules_to_toml,
)
from shengji.game.presets import OPTION_NAMES, PRESETS, preset

TOML = """
# a house-rules file
preset = "finding-friends"
players = 8
fluid_bidders = "not-lost"
mandatory_ranks = ["5", "10", "K"]
end_rank = "A"
"""


def test_toml_text_with_a_preset() -> None:
    rules = load_rules(TOML)
    assert rules == preset("finding-friends", players=8, fluid_bidders="not-lost",
                           mandatory_ranks=("5", "10", "K"))
    assert rules.decks == 3 and rules.partnership == Partnership.FLUID
    assert rules.mandatory_ranks == (Rank.FIVE, Rank.TEN, Rank.KING)


def test_json_text_and_plain_options() -> None:
    rules = load_rules('{"decks": 3, "players": 6, "tuple_follow": "protect", '
                       '"custom_levels": [[0, 2], [5, 1], [60, 0]], "level_table": "custom"}')
    assert rules.decks == 3 and rules.tuple_follow == TupleFollow.PROTECT
    assert rules.custom_levels == ((0, 2), (5, 1), (60, 0))
    assert load_rules("") == Rules()
    assert load_rules("{}") == Rules()


def test_files_by_extension(tmp_path: Path) -> None:
    toml_file = tmp_path / "house.toml"
    toml_file.write_text(TOML, encoding="utf-8")
    json_file = tmp_path / "house.json"
    json_file.write_text(json.dumps({"preset": "da-bai-fen", "draw_at": 40}), encoding="utf-8")
    odd = tmp_path / "house.rules"
    odd.write_text('{"preset": "hundred"}', encoding="utf-8")
    assert load_rules(toml_file) == load_rules(str(toml_file)) == load_rules(TOML)
    assert load_rules(json_file) == preset("da-bai-fen", draw_at=40)
    assert load_rules(odd) == preset("hundred")
    with pytest.raises(RulesError, match="cannot read rules file"):
        load_rules(tmp_path / "missing.toml")
    with pytest.raises(RulesError, match="cannot read rules file 'no-such-house-rules'"):
        load_rules("no-such-house-rules")
    bad = tmp_path / "bad.toml"
    bad.write_text("decks = 1\nplayer = 4\n", encoding="utf-8")
    with pytest.raises(OptionError, match=r"bad\.toml: line 2: unknown option 'player'"):
        load_rules(bad)


def test_unknown_options_suggest_close_names() -> None:
    with pytest.raises(OptionError) as error:
        load_rules('players = 4\ntuple_folow = "protect"')
    assert str(error.value) == ("line 2: unknown option 'tuple_folow'; "
                                "did you mean 'tuple_follow'?")
    assert error.value.option == "tuple_folow"
    with pytest.raises(OptionError, match="did you mean 'kitty_multiplier'"):
        load_rules('{"kity_multiplier": "double"}')
    with pytest.raises(OptionError, match="did you mean 'preset'"):
        load_rules('presets = "tractor"')
    with pytest.raises(OptionError, match="options are: players, decks, partnership"):
        load_rules("qqqq = 1")


def test_type_errors_say_what_is_expected() -> None:
    cases = {
        'players = "four"': "players expects an integer (e.g. players = 4), got 'four'",
        "throws = 1": "throws expects true or false (e.g. throws = true), got 1",
        "end_rank = 15": "end_rank expects a rank",
        'end_rank = "Z"': "end_rank expects a rank",
        "tuple_follow = 3": "tuple_follow expects one of 'draw-out', 'protect', 'none'",
        'mandatory_ranks = "5"': "mandatory_ranks expects a list",
        'rank_suit_order = ["X"]': "rank_suit_order expects a suit letter",
        "custom_levels = [[0, 1, 2]]": "custom_levels expects a list of 2 values",
        'fluid_overbid = ["own-rnak"]': "did you mean 'own-rank'",
        "preset = 3": "preset expects a preset name",
        "kitty = 1.5": "kitty expects an integer",
    }
    for text, message in cases.items():
        with pytest.raises(OptionError) as error:
            load_rules(text)
        assert message in str(error.value), text
        assert str(error.value).startswith("line 1: ")
    assert load_rules("kitty = 8.0").kitty == 8  # an integral float is an integer


def test_bad_enum_values_suggest() -> None:
    with pytest.raises(OptionError, match=r"tuple_follow='drawout' is not allowed \(did you "
                                          r"mean 'draw-out'\?\); use one of"):
        load_rules('tuple_follow = "drawout"')


def test_contradictions_surface_rules_validation() -> None:
    with pytest.raises(RulesError, match="fixed partnerships need an even number of players"):
        load_rules("players = 5")
    with pytest.raises(RulesError, match="do not deal evenly"):
        load_rules('preset = "da-bai-fen"\nkitty = 5')
    with pytest.raises(RulesError, match="unknown preset 'tractr'"):
        load_rules('preset = "tractr"')


def test_syntax_errors_name_the_line() -> None:
    with pytest.raises(RulesError, match=r"^line 2: TOML syntax error"):
        load_rules("players = 4\ndecks = = 2\n")
    with pytest.raises(RulesError, match=r"^line 2: JSON syntax error"):
        load_rules('{"players": 4,\n "decks": }')


def test_json_array_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(RulesError, match="must be an object"):
        load_rules(path)


def test_rules_to_dict_is_toml_and_json_safe() -> None:
    rules = Rules(second_rank="2", rank_suit_order=("H", "S", "C", "D"), level_table="custom",
                  custom_levels=((0, 2), (40, 0)), mandatory_ranks=("10", "A"), kitty=8)
    data = rules_to_dict(rules)
    assert data["second_rank"] == "2" and data["rank_suit_order"] == ["H", "S", "C", "D"]
    assert data["custom_levels"] == [[0, 2], [40, 0]]
    assert data["mandatory_ranks"] == ["10", "A"] and data["level_table"] == "custom"
    assert "target" not in data and "friends" not in data  # None is left out
    assert set(data) <= set(OPTION_NAMES)
    assert json.loads(json.dumps(data)) == data
    assert rules_from_dict(data) == rules
    assert load_rules(rules_to_toml(rules, header=None)) == rules
    assert load_rules(json.dumps(data)) == rules
    assert rules.rank_suit_order == (Suit.HEARTS, Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS)


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_round_trips(name: str) -> None:
    rules = preset(name)
    assert rules_from_dict(rules_to_dict(rules)) == rules
    assert load_rules(rules_to_toml(rules, header=None)) == rules
    assert load_rules(f'preset = "{name}"') == rules


def test_the_rules_of_a_record_can_be_loaded() -> None:
    text = 'format = "shengji-record"\nversion = 1\n[rules]\nplayers = 6\ndecks = 3\n'
    assert load_rules(text) == preset("tractor-6")
    with pytest.raises(OptionError, match="line 4: unknown option 'player'"):
        load_rules('format = "shengji-record"\nversion = 1\n[rules]\nplayer = 6\n')


@settings(max_examples=60, deadline=None)
@given(
    decks=st.integers(1, 4),
    tuple_follow=st.sampled_from(["draw-out", "protect", "none"]),
    level_table=st.sampled_from([t.value for t in LevelTable if t != LevelTable.CUSTOM]),
    start=st.sampled_from(["2", "3", "5"]),
    end=st.sampled_from(["10", "K", "A"]),
    draw_at=st.none() | st.integers(0, 200),
    hook=st.booleans(),
)
def test_round_trip_property(decks: int, tuple_follow: str, level_table: str, start: str,
                             end: str, draw_at: int | None, hook: bool) -> None:
    rules = Rules(decks=decks, tuple_follow=tuple_follow, level_table=level_table,
                  start_rank=start, end_rank=end, draw_at=draw_at, hook_and_needle=hook)
    assert rules_from_dict(rules_to_dict(rules)) == rules
    assert load_rules(rules_to_toml(rules, header=None)) == rules
    assert load_rules(json.dumps(rules_to_dict(rules))) == rules


# -- files that are not rules text, values out of range (issue 9.5, 9.7) ------------------

def test_rules_files_that_are_not_text_give_one_line_errors(tmp_path: Path) -> None:
    good = b'preset = "tractor"\ndecks = 2\n'
    cases = {
        "binary.toml": (bytes(range(256)), "line 2: not UTF-8 text (byte 0x80 at offset 128)"),
        "utf16.toml": (good.decode().encode("utf-16"), "not UTF-8 text (byte 0xff at offset 0)"),
        "nul.toml": (good + b"players = 4\0\n", "line 3: a NUL character"),
        "deep.toml": (good + b"x = " + b"[" * 5000 + b"]" * 5000, "nested more than 32 deep"),
        "deep.json": (b'{"players": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
                      "nested more than 32 deep"),
        "table.toml": (good + b"x = " + b"{a = " * 3000 + b"1" + b"}" * 3000,
                       "nested more than 32 deep"),
        "dotted.toml": (b".".join([b"a"] * 20000) + b" = 1", "a key of more than 32 dotted"),
        "digits.toml": (b"players = " + b"9" * 5000, "a number with too many digits"),
        "digits.json": (b'{"players": ' + b"9" * 5000 + b"}", "a number with too many digits"),
        "huge.toml": (good + b"#" * (1 << 20), "over the limit of 1 MiB"),
    }
    for name, (data, words) in cases.items():
        path = tmp_path / name
        path.write_bytes(data)
        for source in (path, data):
            with pytest.raises(RulesError) as error:
                load_rules(source)
            message = str(error.value)
            assert words in message and "\n" not in message, (name, message)
    with pytest.raises(RulesError, match="file name contains a NUL"):
        load_rules("rules\0.toml")
    with pytest.raises(RulesError, match="that is a folder, not a regular file"):
        load_rules(tmp_path)
    with pytest.raises(RulesError, match="nested more than 32 deep"):
        load_rules("x = " + "[" * 5000 + "]" * 5000)
    assert load_rules(b"\xef\xbb\xbf" + good) == load_rules(good) == preset("tractor")


@pytest.mark.parametrize(("text", "message"), [
    ("players = 0", "line 1: players must be at least 2 and at most 20, got 0"),
    ("players = -3", "line 1: players must be at least 2 and at most 20, got -3"),
    ("decks = 1000000", "line 1: decks must be at least 1 and at most 8, got 1000000"),
    ("# draw\ndraw_at = -5", "line 2: draw_at must be at least 0 and at most 10000, got -5"),
    ('{\n "decks": 1,\n "big_jokers": 2\n}', "line 3: big_jokers must be at least 0 and at most 1"),
    ('level_table = "custom"\ncustom_levels = [[0, 1], [5, 99]]',
     "line 2: custom_levels: a level change of 99 must be from -12 to 12"),
    ("players = 4e400", "line 1: players expects an integer"),
    ('{"players": 1e400}', "line 1: players expects an integer (e.g. players = 4), got inf"),
    ('{"players": 1e300}', "players must be at least 2 and at most 20, got an integer of 997"),
    ('preset = "finding-friends"\nplayers = 40',
     "line 2: players must be at least 2 and at most 20"),
    pytest.param("tuple_follow = " + "'" + "x" * 100_000 + "'", "tuple_follow='xxxxxxxxxxxxx",
                 id="long-value"),
    pytest.param('"' + "k" * 100_000 + '" = 1', "unknown option 'kkkkkkkkkkkk", id="long-key"),
])
def test_out_of_range_options_name_the_line(text: str, message: str) -> None:
    with pytest.raises(RulesError) as error:
        load_rules(text)
    assert message in str(error.value), str(error.value)
    assert len(str(error.value)) < 2000 and "\n" not in str(error.value)
