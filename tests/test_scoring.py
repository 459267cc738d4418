"""Scoring: level tables (every row boundary, the seeds' tables), draws, custom tables,
kitty multipliers, advancing through the levels, hook and needle."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shengji.engine import Lead, Rank, Rules, Trump
from shengji.engine.scoring import (
    Advance,
    LevelChange,
    advance,
    below_zero_step,
    hook_back,
    kitty_multiplier,
    kitty_multiplier_for,
    level_change,
    level_name,
    level_table_rows,
)
from shengji.game.match import play_random_match

FAST = settings(max_examples=80, deadline=None)

Change = tuple[int, int, bool]
"""(declarers_up, opponents_up, switch)"""

D3, D2, D1 = (3, 0, False), (2, 0, False), (1, 0, False)
SWITCH = (0, 0, True)


def opp(n: int) -> Change:
    return (0, n, True)


# Each table for one deck: (first points of the row, change). 0 and 1 stay put with
# more decks (the rows "p = 0" and "0 < p"); every other threshold is scaled by d.
TABLES: dict[str, list[tuple[int, Change]]] = {
    "standard": [(0, D3), (1, D2), (20, D1), (40, SWITCH), (60, opp(1)), (80, opp(2)),
                 (100, opp(3)), (120, opp(4)), (140, opp(5))],
    "2006": [(0, D3), (1, D2), (20, D1), (40, SWITCH), (60, opp(1)), (80, opp(2)),
             (100, opp(3))],
    "da-bai-fen": [(0, (2, 0, False)), (1, D1), (40, SWITCH), (80, opp(1)), (100, opp(2))],
    "hundred": [(0, D3), (1, D2), (20, D1), (40, SWITCH), (60, opp(1)), (80, opp(2)),
                (100, opp(3)), (120, opp(4))],
    "basic": [(0, D1), (40, SWITCH)],
}


def scaled(table: str, d: int) -> list[tuple[int, Change]]:
    return [(lo if lo <= 1 else lo * d, change) for lo, change in TABLES[table]]


def triple(change: LevelChange) -> Change:
    return (change.declarers_up, change.opponents_up, change.switch)


def boundary_cases() -> list[tuple[str, int, int, Change]]:
    cases = []
    for table in TABLES:
        for d in (1, 2, 3):
            rows = scaled(table, d)
            for i, (lo, change) in enumerate(rows):
                cases.append((table, d, lo, change))
                if i:
                    cases.append((table, d, lo - 1, rows[i - 1][1]))
                    if lo - 5 >= rows[i - 1][0]:
                        cases.append((table, d, lo - 5, rows[i - 1][1]))
            last_lo, last = rows[-1]
            if table not in ("standard", "hundred"):  # capped tables: the last row is open
                cases.append((table, d, last_lo + 1000, last))
    return cases


@pytest.mark.parametrize(("table", "decks", "points", "expected"), boundary_cases())
def test_every_row_boundary(table: str, decks: int, points: int, expected: Change) -> None:
    change = level_change(points, Rules(level_table=table, decks=decks))
    assert triple(change) == expected
    assert change.points == points and not change.draw


def test_standard_two_decks_verbatim() -> None:
    # VARIANTS: 0 → +3; 5–35 → +2; 40–75 → +1; 80–115 → switch; 120–155 → opponents +1;
    # +1 more per further 40.
    assert level_table_rows(Rules()) == [
        "0: declarers +3", "5-35: declarers +2", "40-75: declarers +1",
        "80-115: opponents take over", "120-155: opponents +1", "160-195: opponents +2",
        "200-235: opponents +3", "240+: opponents +4, +1 more per further 40",
    ]
    assert triple(level_change(280, Rules())) == opp(5)
    assert level_change(60, Rules()).row == "40-75: declarers +1"


def seed_2006(p: int, d: int) -> Change:
    """The wikipedia_2006 table, condition by condition (attackers = declarers)."""
    if p == 0:
        return D3
    if 0 < p < 20 * d:
        return D2
    if 20 * d <= p < 40 * d:
        return D1
    if 40 * d <= p < 60 * d:
        return SWITCH
    if 60 * d <= p < 80 * d:
        return opp(1)
    if 80 * d <= p < 100 * d:
        return opp(2)
    return opp(3)


@pytest.mark.parametrize("decks", [2, 3])
def test_2006_table_verbatim(decks: int) -> None:
    rules = Rules(level_table="2006", decks=decks)
    for p in range(0, 100 * decks + 200):
        assert triple(level_change(p, rules)) == seed_2006(p, decks), p


def test_da_bai_fen_verbatim() -> None:
    rules = Rules(level_table="da-bai-fen", decks=1)
    expected = {0: (2, 0, False), **dict.fromkeys(range(5, 40, 5), D1),
                **dict.fromkeys(range(40, 80, 5), SWITCH),
                **dict.fromkeys(range(80, 100, 5), opp(1)),
                **dict.fromkeys(range(100, 300, 5), opp(2))}
    for p, change in expected.items():
        assert triple(level_change(p, rules)) == change, p
    assert level_change(35, rules).row == "5-35: declarers +1"


def test_hundred_tables_verbatim() -> None:
    # the seed's first table is da bai fen's; the second, finer one is "hundred"
    first = Rules(level_table="da-bai-fen", decks=1)
    assert [triple(level_change(p, first)) for p in (0, 5, 35, 40, 75, 80, 95, 100)] == [
        (2, 0, False), D1, D1, SWITCH, SWITCH, opp(1), opp(1), opp(2)]
    rules = Rules(level_table="hundred", decks=1)
    assert level_table_rows(rules, up_to=100) == [
        "0: declarers +3", "5-15: declarers +2", "20-35: declarers +1",
        "40-55: opponents take over", "60-75: opponents +1", "80-95: opponents +2",
        "100-115: opponents +3", "120+: opponents +4, +1 more per further 20",
    ]


@pytest.mark.parametrize("table", ["standard", "2006", "da-bai-fen", "hundred", "basic"])
@pytest.mark.parametrize("decks", [1, 2, 3])
def test_rows_match_lookups(table: str, decks: int) -> None:
    rules = Rules(level_table=table, decks=decks)
    rows = level_table_rows(rules)
    for p in range(0, 100 * decks + 1, 5):
        assert level_change(p, rules).row in rows


def test_target_overrides_thresholds() -> None:
    rules = Rules(target=100)
    assert [triple(level_change(p, rules)) for p in (0, 5, 45, 50, 95, 100, 145, 150, 200)] == [
        D3, D2, D2, D1, D1, SWITCH, SWITCH, opp(1), opp(2)]
    basic = Rules(level_table="basic", target=50)
    assert triple(level_change(45, basic)) == D1 and triple(level_change(50, basic)) == SWITCH
    assert level_table_rows(basic) == ["0-45: declarers +1", "50+: opponents take over"]


def test_draw_at() -> None:
    rules = Rules(level_table="hundred", decks=1, draw_at=40)
    draw = level_change(40, rules)
    assert draw == LevelChange(40, 0, 0, True, True, "40: draw, opponents take over")
    assert triple(level_change(35, rules)) == D1
    after = level_change(45, rules)
    assert triple(after) == SWITCH and not after.draw and after.row == "45-55: opponents take over"
    assert "40: draw, opponents take over" in level_table_rows(rules)
    # a draw inside an opponents' row, and one beyond the listed points
    standard = Rules(draw_at=130)
    assert level_change(130, standard).draw
    assert level_change(125, standard).row == "120-125: opponents +1"
    assert level_change(135, standard).row == "135-155: opponents +1"
    far = Rules(draw_at=300)
    assert "300: draw, opponents take over" in level_table_rows(far)
    assert level_change(300, far).draw and level_change(295, far).opponents_up == 5


def test_custom_tables() -> None:
    rows = ((0, 2), (30, 1), (60, 0), (90, -1), (150, -3))
    rules = Rules(level_table="custom", custom_levels=rows, decks=3)
    assert [triple(level_change(p, rules)) for p in (0, 25, 30, 55, 60, 85, 90, 145, 150, 999)] == [
        D2, D2, D1, D1, SWITCH, SWITCH, opp(1), opp(1), opp(3), opp(3)]
    assert level_table_rows(rules) == [
        "0-25: declarers +2", "30-55: declarers +1", "60-85: opponents take over",
        "90-145: opponents +1", "150+: opponents +3"]
    single = Rules(level_table="custom", custom_levels=((0, 0),))
    assert triple(level_change(0, single)) == SWITCH and level_change(500, single).row == "0+: " \
        "opponents take over"


def test_negative_points_refused() -> None:
    with pytest.raises(ValueError, match="negative"):
        level_change(-5, Rules())


# kitty multipliers: (cards, lead rules' decks) -> {option: multiplier}
LEADS = {
    "single": ("AS", 2),
    "pair": ("AS AS", 2),
    "tractor": ("KS KS QS QS", 2),
    "tractor3": ("AS AS KS KS QS QS", 2),
    "throw": ("AS KS KS", 2),
    "big throw": ("AS AS KS KS QS QS 3S", 2),
    "triple": ("AD AD AD", 3),
}
EXPECTED = {
    "unit-size": {"single": 2, "pair": 4, "tractor": 8, "tractor3": 12, "throw": 4,
                  "big throw": 12, "triple": 6},
    "power": {"single": 2, "pair": 4, "tractor": 8, "tractor3": 16, "throw": 4,
              "big throw": 16, "triple": 8},
    "lead-size": {"single": 2, "pair": 4, "tractor": 8, "tractor3": 12, "throw": 6,
                  "big throw": 14, "triple": 6},
    "decks": {"single": 2, "pair": 2, "tractor": 2, "tractor3": 2, "throw": 2,
              "big throw": 2, "triple": 3},
    "double": dict.fromkeys(LEADS, 2),
}


@pytest.mark.parametrize("option", list(EXPECTED))
@pytest.mark.parametrize("lead_name", list(LEADS))
def test_kitty_multiplier(option: str, lead_name: str) -> None:
    cards, decks = LEADS[lead_name]
    lead = Lead.from_cards(cards, Trump.parse("2H"), Rules(decks=decks))
    rules = Rules(kitty_multiplier=option, decks=decks)
    assert kitty_multiplier(lead, rules) == EXPECTED[option][lead_name]
    unit = lead.largest
    assert kitty_multiplier_for(unit.width, unit.length, lead.size, rules) == \
        EXPECTED[option][lead_name]


def test_kitty_multiplier_default_rules_leads() -> None:
    lead = Lead.from_cards("KS KS QS QS", Trump.parse("2H"), Rules())
    assert kitty_multiplier(lead, Rules()) == 8
    assert kitty_multiplier_for(2, 4, 8, Rules(kitty_multiplier="power")) == 32


def adv(level: int, steps: int, declarers: bool = True, **options: object) -> Advance:
    return advance(level, steps, Rules().replace(**options), as_declarers=declarers)


def test_advance_plain() -> None:
    assert adv(2, 0) == Advance(2, False, None)
    assert adv(2, 3) == Advance(5, False, None)
    assert adv(9, 3, declarers=False) == Advance(12, False, None)


def test_advance_mandatory_seed_example() -> None:
    # "if ten is mandatory and X is on nines and goes up 3 ranks, he moves to ten"
    assert adv(9, 3, mandatory_ranks=(Rank.TEN,)) == Advance(10, False, 10)
    assert adv(9, 1, mandatory_ranks=("10",)) == Advance(10, False, None)
    assert adv(10, 3, mandatory_ranks=("10",)) == Advance(13, False, None)
    five_ten_k_a = ("5", "10", "K", "A")
    assert adv(3, 3, mandatory_ranks=five_ten_k_a, declarers=False) == Advance(5, False, 5)
    assert adv(5, 3, mandatory_ranks=five_ten_k_a) == Advance(8, False, None)
    assert adv(11, 3, mandatory_ranks=five_ten_k_a) == Advance(13, False, 13)
    assert adv(13, 2, mandatory_ranks=five_ten_k_a) == Advance(14, False, 14)


def test_passing_the_end_only_as_declarers() -> None:
    assert adv(12, 3) == Advance(14, False, None)
    assert adv(13, 1) == Advance(14, False, None)
    assert adv(14, 1) == Advance(14, True, None)
    assert adv(14, 3) == Advance(14, True, None)
    assert adv(14, 2, declarers=False) == Advance(14, False, None)
    assert adv(12, 3, declarers=False) == Advance(14, False, None)
    assert adv(9, 3, end_rank="10") == Advance(10, False, None)
    assert adv(10, 1, end_rank="10") == Advance(10, True, None)


def test_wrap() -> None:
    assert adv(14, 1, after_end="wrap") == Advance(2, False, None, wraps=1)
    assert adv(14, 3, after_end="wrap", start_rank="3") == Advance(3, False, None, wraps=1)
    assert adv(14, 1, after_end="wrap", declarers=False) == Advance(14, False, None)
    assert adv(12, 5, after_end="wrap") == Advance(14, False, None)


def test_no_trump_level() -> None:
    assert adv(13, 3, after_end="no-trump") == Advance(14, False, None)
    assert adv(14, 2, after_end="no-trump") == Advance(15, False, None)
    assert adv(14, 2, after_end="no-trump", declarers=False) == Advance(14, False, None)
    assert adv(15, 1, after_end="no-trump") == Advance(15, True, None)
    assert adv(15, 2, after_end="no-trump", declarers=False) == Advance(15, False, None)
    assert adv(10, 1, after_end="no-trump", end_rank="10") == Advance(15, False, None)


def test_advance_refuses_bad_input() -> None:
    with pytest.raises(ValueError, match="outside"):
        adv(15, 1)
    with pytest.raises(ValueError, match="outside"):
        adv(2, 1, start_rank="5")
    with pytest.raises(ValueError, match="negative"):
        adv(2, -1)


def test_hook_back() -> None:
    on = Rules(hook_and_needle=True)
    assert hook_back(11, on) == 2 and hook_back(14, on) == 11
    assert [hook_back(n, on) for n in (2, 10, 12, 13, 15)] == [None] * 5
    assert all(hook_back(n, Rules()) is None for n in range(2, 16))
    assert hook_back(11, on.replace(start_rank="5")) == 5
    assert hook_back(14, on.replace(start_rank="Q")) == 12


def test_level_name() -> None:
    assert [level_name(n) for n in range(2, 16)] == [
        "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "NT"]
    for bad in (0, 1, 16):
        with pytest.raises(ValueError):
            level_name(bad)


def goodness(change: LevelChange) -> tuple[bool, int]:
    """How well the round went for the opponents."""
    return (change.switch, change.opponents_up - change.declarers_up)


@st.composite
def table_rules(draw: st.DrawFn) -> Rules:
    decks = draw(st.integers(1, 3))
    table = draw(st.sampled_from(["standard", "2006", "da-bai-fen", "hundred", "basic",
                                  "custom"]))
    target = draw(st.none() | st.integers(5, 200))
    at_target = draw(st.booleans())
    rules = Rules(decks=decks, target=target)
    if table == "custom":
        lows = draw(st.lists(st.integers(1, 400), max_size=6, unique=True))
        deltas = draw(st.lists(st.integers(-4, 4), min_size=len(lows) + 1,
                               max_size=len(lows) + 1))
        levels = tuple(zip([0, *sorted(lows)], sorted(deltas, reverse=True), strict=True))
        return rules.replace(level_table=table, custom_levels=levels)
    return rules.replace(level_table=table, draw_at=rules.target_points if at_target else None)


@FAST
@given(table_rules(), st.integers(0, 500), st.integers(0, 200))
def test_more_points_never_hurt_the_opponents(rules: Rules, p: int, more: int) -> None:
    assert goodness(level_change(p, rules)) <= goodness(level_change(p + more, rules))


@FAST
@given(table_rules(), st.integers(0, 100).map(lambda n: 5 * n))
def test_every_lookup_is_a_listed_row(rules: Rules, p: int) -> None:
    change = level_change(p, rules)
    assert change.row in level_table_rows(rules, up_to=p)
    assert change.declarers_up == 0 or change.opponents_up == 0
    assert change.switch == (change.declarers_up == 0)


# -- advancement options (issue 11) ------------------------------------------------------

def test_mandatory_win_a_side_must_win_declaring_at_a_mandatory_rank() -> None:
    options = {"mandatory_ranks": ("5",), "mandatory_win": True}
    assert adv(3, 4, **options) == Advance(5, False, 5)           # stopped there, as before
    assert adv(5, 2, declarers=False, **options) == Advance(5, False, 5)  # not by defending
    assert adv(5, 2, **options) == Advance(7, False, None)        # a win declaring at 5
    assert adv(5, 2, declarers=False, mandatory_ranks=("5",)) == Advance(7, False, None)


def test_passing_the_end_rank_freely() -> None:
    assert adv(13, 3, declarers=False) == Advance(14, False, None)
    assert adv(13, 3, declarers=False, pass_end_freely=True) == Advance(14, True, None)
    assert adv(14, 1, declarers=False, pass_end_freely=True) == Advance(14, True, None)
    assert adv(12, 2, pass_end_freely=True) == Advance(14, False, None)  # exactly to A
    assert adv(13, 2, pass_end_freely=True, after_end="wrap") == Advance(2, False, None, 1)


def test_no_trump_then_wrap() -> None:
    assert adv(14, 1, after_end="no-trump-wrap") == Advance(15, False, None)
    assert adv(15, 1, after_end="no-trump-wrap") == Advance(2, False, None, wraps=1)
    assert adv(15, 1, declarers=False, after_end="no-trump-wrap") == Advance(15, False, None)


def test_a_wrapping_match_counts_each_seats_wraps() -> None:
    rules = Rules(end_rank="3", after_end="wrap")
    with pytest.raises(ValueError, match="never ends"):
        play_random_match(rules, seed=1)
    match = play_random_match(rules, seed=1, max_rounds=30)
    assert sum(match.wraps) > 0
    for seat in range(4):
        assert match.wraps[seat] == sum(r.wrapped.count(seat) for r in match.results)


# -- points below zero (issue 11) --------------------------------------------------------

def test_below_zero_each_step_is_one_more_level_for_the_declarers() -> None:
    rules = Rules(below_zero=True)
    assert below_zero_step(rules) == 40
    changes = [level_change(p, rules) for p in (0, -5, -40, -45, -120)]
    assert [c.declarers_up for c in changes] == [3, 4, 4, 5, 6]
    assert changes[1].row == "-40 to -5: declarers +4"
    assert not any(c.switch for c in changes)
    one_deck = Rules(decks=1, level_table="da-bai-fen", below_zero=True)
    assert level_change(-25, one_deck).row == "-40 to -25: declarers +4"
    with pytest.raises(ValueError, match="must not be negative"):
        level_change(-5, Rules())


@pytest.mark.parametrize("below", [True, False])
def test_a_kitty_taken_by_the_declarers_counts_against_the_opponents(below: bool) -> None:
    rules = Rules(kitty_to_declarers=True, below_zero=below)
    checked = 0
    for seed in range(40):
        match = play_random_match(rules, seed=seed, max_rounds=1)
        result = match.results[0]
        if result.redeal or result.lost_by is not None or result.kitty_bonus >= 0:
            continue
        # the declarers won the last trick: the multiplied kitty comes off
        assert result.kitty_bonus == -result.kitty_points * result.kitty_multiplier
        total = (result.trick_points + result.kitty_bonus + result.penalty_points
                 + result.red_five_points)
        assert result.points == (total if below else max(0, total))
        assert any("the declarers won the last trick" in line and " = -" in line
                   for line in result.lines)
        checked += 1
    assert checked > 5


def test_level_changes_do_not_depend_on_the_points_asked_before() -> None:
    """level_change keeps each table's rows for the most points asked so far: the change
    (and its row's words) of any points is the one read from rows made for them alone."""
    import random

    from shengji.engine import scoring

    rng = random.Random(1)
    for decks in (1, 2, 3):
        for table in ("standard", "2006", "hundred", "da-bai-fen", "basic"):
            for draw_at in (None, 40, 80):
                rules = Rules(decks=decks, level_table=table, draw_at=draw_at)
                points = list(range(0, 100 * decks + 200, 5))
                rng.shuffle(points)
                for p in points:
                    scoring._CHANGES.clear()  # (the rows kept for the points asked before)
                    change = level_change(p, rules)
                    scoring._CHANGES.clear()
                    scoring._TABLE_ROWS.clear()
                    assert change == level_change(p, rules), (rules, p)


# -- steps left over after a wrap or the no-trump level (leftover_steps) -------------------

def test_leftover_steps_are_dropped_by_default() -> None:
    # declarers at A win with three levels to go: the wrap uses one, two are lost
    assert adv(14, 3, after_end="wrap") == Advance(2, False, None, wraps=1)
    # reaching the no-trump level from A uses one step; the side stops there
    assert adv(14, 3, after_end="no-trump-wrap") == Advance(15, False, None)
    assert adv(15, 3, after_end="no-trump-wrap") == Advance(2, False, None, wraps=1)


def test_leftover_steps_carried_on_from_the_start_rank_after_a_wrap() -> None:
    carry = {"leftover_steps": "carry"}
    # A -> (round) 2 -> 3 -> 4
    assert adv(14, 3, after_end="wrap", **carry) == Advance(4, False, None, wraps=1)
    assert adv(14, 1, after_end="wrap", **carry) == Advance(2, False, None, wraps=1)
    assert adv(15, 2, after_end="no-trump-wrap", **carry) == Advance(3, False, None, wraps=1)
    # from a start rank of 3, and stopped by a mandatory rank on the way up again
    assert adv(14, 2, after_end="wrap", start_rank="3", **carry) == Advance(4, False, None, 1)
    assert adv(14, 4, after_end="wrap", mandatory_ranks=("3",), **carry) == (
        Advance(3, False, 3, wraps=1))
    # the opponents (not declaring at A) still stop at A: nothing to carry
    assert adv(13, 3, after_end="wrap", declarers=False, **carry) == Advance(14, False, None)


def test_leftover_steps_carried_past_the_no_trump_level_only_where_it_may_be_passed() -> None:
    carry = {"leftover_steps": "carry"}
    # the no-trump level is a barrier: declarers at A land on it, whatever is left
    assert adv(14, 3, after_end="no-trump", **carry) == Advance(15, False, None)
    # passing the end freely: K -> A -> NT -> past it, a match won
    free = {"pass_end_freely": True, **carry}
    assert adv(13, 3, after_end="no-trump", **free) == Advance(15, True, None)
    assert adv(13, 2, after_end="no-trump", **free) == Advance(15, False, None)
    # ... or round again with no-trump-wrap: K -> A -> NT -> 2 -> 3 -> 4
    assert adv(13, 5, after_end="no-trump-wrap", **free) == Advance(4, False, None, wraps=1)
    # dropped, the same advance stops at the no-trump level
    assert adv(13, 5, after_end="no-trump-wrap", pass_end_freely=True) == (
        Advance(15, False, None))


def test_carried_steps_may_go_round_twice_and_the_match_counts_both() -> None:
    rules = {"start_rank": "2", "end_rank": "3", "after_end": "wrap",
             "pass_end_freely": True, "leftover_steps": "carry"}
    # 2 -> 3 -> (round) 2 -> 3 -> (round) 2
    assert adv(2, 4, **rules) == Advance(2, False, None, wraps=2)
    match = play_random_match(Rules(**rules), seed=3, max_rounds=20)  # type: ignore[arg-type]
    for seat in range(4):
        assert match.wraps[seat] == sum(r.wrapped.count(seat) for r in match.results)
