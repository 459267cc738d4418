"""The learned player: its forests, options, feature rows and play.

A learned player plays the heuristic's choice unless its model expects a labelled option
to do better; it reads only its view (two deals a seat cannot tell apart give the same
rows and the same play) and plays exactly as the heuristic where no model fits the rules.
"""

from __future__ import annotations

import json
import pickle
import random
import sys
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from flow_helpers import positions, stacked, swap_hidden
from learned_helpers import constant, stump, tractor_model
from shengji.engine.cards import parse_cards
from shengji.engine.choices import Partnership
from shengji.engine.follow import LegalPlays
from shengji.engine.lead import LegalLeads
from shengji.engine.rules import Rules
from shengji.engine.trick import beats
from shengji.game.actions import Bid, Bury, Draw, Pass, Play
from shengji.game.legal import Legal
from shengji.game.phase import Phase
from shengji.game.presets import preset
from shengji.game.round import Round
from shengji.game.view import SeatView
from shengji.players import HeuristicPlayer, LearnedPlayer, learned, make_player
from shengji.players.features import (
    BURY_FEATURES,
    FOLLOW_FEATURES,
    FRIEND_FEATURES,
    LEAD_FEATURES,
    bury_rows,
    columns,
    follow_rows,
    lead_rows,
)
from shengji.players.forest import Forest
from shengji.players.learned import (
    MODELS,
    check_shipped_models,
    model_for,
    model_name,
    shipped_model,
)
from shengji.players.memory import Memory, current_winner
from shengji.players.options import (
    FOLLOW_LABELS,
    bury_options,
    follow_options,
    labelled_follows,
    lead_options,
)
from shengji.players.search import SearchPlayer
from shengji.players.table import decide, play_round

# -- forests ---------------------------------------------------------------------------


def test_a_forest_adds_the_leaf_each_tree_reaches_to_its_base() -> None:
    names = ("a", "b")
    two = Forest(names, 0.5, [0, 3], [0, -1, -1, 1, -1, -1], [1.0, 0, 0, 2.0, 0, 0],
                 [1, 0, 0, 4, 0, 0], [2, 0, 0, 5, 0, 0], [0, 10.0, 20.0, 0, 1.0, 2.0])
    assert two.predict([1.0, 2.0]) == 0.5 + 10.0 + 1.0  # at most the threshold: left
    assert two.predict([1.5, 3.0]) == 0.5 + 20.0 + 2.0
    assert Forest.from_data(json.loads(json.dumps(two.to_data()))).predict([0.0, 9.0]) == 12.5
    again = pickle.loads(pickle.dumps(two))  # pickled as its lists, linked again
    assert again.to_data() == two.to_data() and again.predict([1.5, 3.0]) == 22.5


def test_threads_predicting_with_one_forest_each_get_their_own_rows_value() -> None:
    """A prediction copies its row into the forest's cells under the forest's lock: rows
    predicted at once from several threads each get their own value."""
    forest = shipped_model("tractor").follow
    rng = random.Random(3)
    rows = [[float(rng.randrange(4)) for _ in forest.features] for _ in range(40)]
    expected = [forest.predict(row) for row in rows]
    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads take turns as often as the interpreter lets them
    try:
        with ThreadPoolExecutor(4) as pool:
            for _ in range(3):
                assert list(pool.map(forest.predict, rows)) == expected
    finally:
        sys.setswitchinterval(switch)


@pytest.mark.parametrize("change, message", [
    ({"left": [0, 0, 0]}, "child"),            # a child before its parent (a cycle)
    ({"feature": [5, -1, -1]}, "feature"),     # a feature the rows do not have
    ({"roots": [7]}, "roots"),
    ({"value": [0.0]}, "one entry per node"),
    ({"value": "x"}, "not a forest"),
    ({"base": True}, "not a forest"),
    ({"value": [float("nan")] * 3}, "finite numbers"),
    ({"threshold": [float("inf"), 0.0, 0.0]}, "finite numbers"),
])
def test_a_malformed_forest_is_refused_with_what_is_wrong(change: dict[str, object],
                                                          message: str) -> None:
    data = stump(("a",), "a", 0.0, 1.0, 2.0).to_data() | change
    with pytest.raises(ValueError, match=message):
        Forest.from_data(data)


# -- options and rows ------------------------------------------------------------------


def play_positions(rules: Rules, seeds: range) -> list[tuple[Round, int]]:
    return [(rnd, seat) for seed in seeds for rnd, seat in positions(rules, seed, every=5)
            if rnd.phase == Phase.PLAY and len(rnd.hands[seat]) > 1]


@pytest.mark.parametrize("name", ["tractor", "finding-friends", "da-bai-fen"])
def test_options_are_legal_and_labelled_and_rows_fit_the_features(name: str) -> None:
    rules = preset(name)
    fluid = name == "finding-friends"  # the friends' columns after the others
    leads = follows = 0
    for rnd, seat in play_positions(rules, range(5)):
        view, legal = rnd.view(seat), rnd.legal(seat)
        plays, memory = legal.plays, Memory(view)
        if isinstance(plays, LegalLeads):
            units = lead_options(plays)
            assert [label for label, _ in units] == ["top", "low"] * (len(units) // 2)
            assert len({u.suit for _, u in units}) == len(units) // 2
            rows = lead_rows(view, plays, memory)
            assert all(len(r) == len(columns("lead", fluid)) for r in rows.rows)
            leads += 1
        else:
            assert isinstance(plays, LegalPlays)
            labelled = follow_options(view, plays)
            assert [label for label, _ in labelled] in (
                list(FOLLOW_LABELS[:2]), list(FOLLOW_LABELS))
            # each keeps the reading by which beats() says it takes the trick, if any
            state = current_winner(view, plays.trump, plays.lead)
            assert state is not None
            _, winning, lead = state
            assert [(label, cards, beats(cards, winning, lead, plays.trump, rules))
                    for label, cards in labelled] == labelled_follows(view, plays)
            default = HeuristicPlayer(1).act(view, legal)
            assert isinstance(default, Play)
            rows = follow_rows(view, plays, memory, default.cards)
            assert all(len(r) == len(columns("follow", fluid)) for r in rows.rows)
            for label, row in zip(FOLLOW_LABELS, rows.rows, strict=False):
                assert row[FOLLOW_LABELS.index(label)] == 1.0  # its own label, one-hot
                assert sum(row[:len(FOLLOW_LABELS)]) == 1.0
            follows += 1
        assert rows.options and all(Play(seat, c) in legal for c in rows.options)
    assert leads > 5 and follows > 20


def test_the_friends_columns_say_the_seats_place_the_calls_and_the_points() -> None:
    """In Finding Friends a lead's and a follow's rows end with the friends' columns: the
    seat's place after the dealer, the calls still open, the seats known to be friends, the
    points the other side still needs, and whether the option plays a called card."""
    rules = preset("finding-friends", players=5)
    assert columns("follow", True) == FOLLOW_FEATURES + FRIEND_FEATURES
    assert columns("lead", False) == LEAD_FEATURES and columns("bury", True) == BURY_FEATURES
    seen = {"plays_call": set(), "calls_open": set(), "friends_found": set()}
    for rnd, seat in play_positions(rules, range(6)):
        view, plays = rnd.view(seat), rnd.legal(seat).plays
        memory = Memory(view)
        if isinstance(plays, LegalLeads):
            rows = lead_rows(view, plays, memory)
            names = columns("lead", True)
        else:
            assert isinstance(plays, LegalPlays)
            rows = follow_rows(view, plays, memory, rows_default(rnd, seat))
            names = columns("follow", True)
        assert view.dealer is not None
        tracker = memory.tracker
        assert tracker is not None
        for cards, row in zip(rows.options, rows.rows, strict=True):
            named = dict(zip(names, row, strict=True))
            assert named["after_dealer"] == (seat - view.dealer) % 5 and named["players"] == 5
            assert named["calls_open"] == tracker.done.count(False) <= len(view.calls)
            assert named["friends_found"] == len(view.friends)
            assert named["known_side"] >= 1 and named["holds_call"] in (0.0, 1.0)
            assert named["points_needed"] == rules.target_points - view.attacker_points
            assert named["declarer_points"] == sum(view.captured) - view.attacker_points
            called = any(call.matches(c) for i, call in enumerate(tracker.calls)
                         if not tracker.done[i] for c in cards)
            assert named["plays_call"] == float(called)
            if isinstance(plays, LegalLeads):
                assert named["dealer_winning"] == 0.0
            for key in seen:
                seen[key].add(named[key])
    assert seen["plays_call"] == {0.0, 1.0} and len(seen["calls_open"]) > 1
    assert len(seen["friends_found"]) > 1


def unseen_changes(found: list[tuple[Round, int]]) -> Iterator[tuple[Round, Round, int]]:
    """(round, the round with cards the seat cannot see swapped, seat) for each position
    where such a swap exists."""
    for rnd, seat in found:
        changed = swap_hidden(rnd, seat)
        if changed is not None:
            assert changed.hands != rnd.hands and changed.view(seat) == rnd.view(seat)
            yield rnd, changed, seat


def kitty_positions(rules: Rules, seeds: range) -> list[tuple[Round, int]]:
    return [(rnd, seat) for seed in seeds for rnd, seat in positions(rules, seed, every=50)
            if rnd.phase == Phase.KITTY]


@pytest.mark.parametrize("name", ["tractor", "finding-friends", "da-bai-fen"])
def test_bury_options_are_legal_distinct_and_empty_the_shortest_plain_suit(name: str
                                                                          ) -> None:
    rules = preset(name)
    found = 0
    for rnd, seat in kitty_positions(rules, range(6)):
        view, legal = rnd.view(seat), rnd.legal(seat)
        buries = bury_options(view, legal)
        assert buries and all(b in legal for b in buries)
        assert all(len(b.cards) == rules.kitty_size for b in buries)
        assert len({tuple(sorted(b.cards)) for b in buries}) == len(buries)
        trump = view.trump
        assert trump is not None
        plain = Counter(trump.suit_of(c) for c in view.hand if not trump.is_trump(c))
        suit, length = min(plain.items(), key=lambda item: (item[1], item[0]))
        if length <= rules.kitty_size:  # the first option empties it
            kept = Counter(view.hand) - Counter(buries[0].cards)
            assert not any(trump.suit_of(c) == suit for c in kept)
        rows = bury_rows(view, [b.cards for b in buries])
        assert all(len(r) == len(BURY_FEATURES) for r in rows)
        for bury, row in zip(buries, rows, strict=True):
            named = dict(zip(BURY_FEATURES, row, strict=True))
            assert named["buried_points"] == sum(c.points for c in bury.cards)
            assert named["trumps_kept"] + named["plain_kept"] == len(view.hand) - len(bury.cards)
            assert named["buried_trumps"] == sum(trump.is_trump(c) for c in bury.cards)
        found += 1
    assert found >= 4


def test_a_learned_bury_follows_the_models_kitty_forest_and_margin() -> None:
    """A kitty forest that values burying points at +0.5 makes the player bury points
    where an option does (and as the heuristic where none does, or where the margin is
    0.5 or more); a model without a kitty forest buries as the heuristic."""
    rules = preset("tractor")
    points = stump(BURY_FEATURES, "buried_points", 0.0, 0.0, 0.5)
    eager = LearnedPlayer(1, model=tractor_model(bury=points))
    wary = LearnedPlayer(1, model=tractor_model(bury=points, bury_margin=0.5))
    plain = LearnedPlayer(1, model=tractor_model())
    changed = 0
    for rnd, seat in kitty_positions(rules, range(8)):
        view, legal = rnd.view(seat), rnd.legal(seat)
        heuristic = HeuristicPlayer(1).act(view, legal)
        assert plain.act(view, legal) == heuristic == wary.act(view, legal)
        assert isinstance(heuristic, Bury)
        options = [heuristic.cards] + [b.cards for b in bury_options(view, legal)]
        chosen = eager.act(view, legal)
        assert isinstance(chosen, Bury) and chosen in legal
        assert (sum(c.points for c in chosen.cards) > 0) == any(
            sum(c.points for c in cards) > 0 for cards in options)
        changed += chosen != heuristic
    assert changed >= 3


def test_a_learned_bury_reads_only_the_seats_view() -> None:
    rules = preset("tractor")
    player = LearnedPlayer(3, model=tractor_model(bury=stump(
        BURY_FEATURES, "buried_points", 5.0, 0.0, 0.3)))
    compared = 0
    for rnd, changed, seat in unseen_changes(kitty_positions(rules, range(6))):
        assert (player.act(rnd.view(seat), rnd.legal(seat))
                == player.act(changed.view(seat), changed.legal(seat)))
        compared += 1
    assert compared >= 4


def test_a_winning_follow_is_labelled_as_one() -> None:
    rules = preset("tractor")
    for rnd, seat in play_positions(rules, range(2)):
        view, plays = rnd.view(seat), rnd.legal(seat).plays
        if isinstance(plays, LegalPlays):
            rows = follow_rows(view, plays, Memory(view), rows_default(rnd, seat))
            wins = FOLLOW_FEATURES.index("wins")
            for i, row in enumerate(rows.rows):
                if i >= 2:  # cheapwin, strongwin, richwin take the trick
                    assert row[wins] == 1.0


def rows_default(rnd: Round, seat: int) -> tuple:  # type: ignore[type-arg]
    action = HeuristicPlayer(1).act(rnd.view(seat), rnd.legal(seat))
    assert isinstance(action, Play)
    return action.cards


@pytest.mark.parametrize("name", ["tractor", "finding-friends"])
def test_rows_and_choices_read_only_the_seats_view(name: str) -> None:
    """Two deals that differ only in cards the seat cannot see give the same rows, and a
    learned player makes the same play in both."""
    rules = preset(name)
    model = tractor_model(follow=stump(FOLLOW_FEATURES, "points", 4.0, -1.0, 0.5))
    compared = 0
    for rnd, changed, seat in unseen_changes(play_positions(rules, range(4))):
        rows = []
        for game in (rnd, changed):
            view, plays = game.view(seat), game.legal(seat).plays
            memory = Memory(view)
            if isinstance(plays, LegalLeads):
                rows.append(lead_rows(view, plays, memory).rows)
            else:
                assert isinstance(plays, LegalPlays)
                rows.append(follow_rows(view, plays, memory, rows_default(game, seat)).rows)
        assert rows[0] == rows[1]
        plays_made = [LearnedPlayer(3, model=model).act(g.view(seat), g.legal(seat))
                      for g in (rnd, changed)]
        assert plays_made[0] == plays_made[1]
        compared += 1
    assert compared >= 10


# -- the player --------------------------------------------------------------------------


def test_the_player_takes_the_option_its_model_prefers_else_the_heuristics() -> None:
    """A model that values every follow with 5 or more points at +0.5 (and everything
    else below zero) makes the player follow with points wherever it may; a model that
    expects no gain anywhere leaves it playing exactly as the heuristic."""
    rules = preset("tractor")
    greedy = LearnedPlayer(1, model=tractor_model(
        follow=stump(FOLLOW_FEATURES, "points", 4.0, -1.0, 0.5)))
    never = LearnedPlayer(1, model=tractor_model())
    changed = 0
    for rnd, seat in play_positions(rules, range(3)):
        view, legal = rnd.view(seat), rnd.legal(seat)
        heuristic = HeuristicPlayer(1).act(view, legal)
        assert never.act(view, legal) == heuristic
        plays = legal.plays
        if isinstance(plays, LegalPlays):
            labelled = follow_options(view, plays)
            richest = max(sum(c.points for c in cards) for _, cards in labelled)
            chosen = greedy.act(view, legal)
            assert isinstance(chosen, Play)
            if richest >= 5:
                assert sum(c.points for c in chosen.cards) >= 5
                changed += chosen != heuristic
            else:
                assert chosen == heuristic
    assert changed > 5


def test_an_option_must_beat_the_heuristics_choice_by_the_models_margin() -> None:
    """Every option valued at +0.3: with margins of 0.2 (leads) and 0.1 (follows) the
    player leaves the heuristic's choice wherever it is not itself an option, and the
    values it reports are less the margin of the kind; with a margin of 0.3 or more (a
    gain equal to the margin is no gain) it keeps the heuristic's choice of that kind.
    Where every option is the heuristic's choice, that play alone is valued 0 (the model
    is not asked)."""
    rules = preset("tractor")
    lead, follow = constant(LEAD_FEATURES, 0.3), constant(FOLLOW_FEATURES, 0.3)
    eager = LearnedPlayer(1, model=tractor_model(lead, follow, margins=(0.2, 0.1)))
    no_leads = LearnedPlayer(1, model=tractor_model(lead, follow, margins=(0.3, 0.0)))
    no_follows = LearnedPlayer(1, model=tractor_model(lead, follow, margins=(0.0, 0.5)))
    left = {"lead": 0, "follow": 0, "alone": 0}
    for rnd, seat in play_positions(rules, range(6)):
        view, legal = rnd.view(seat), rnd.legal(seat)
        kind = "lead" if isinstance(legal.plays, LegalLeads) else "follow"
        heuristic = HeuristicPlayer(1).act(view, legal)
        keeps, leaves = (no_leads, no_follows) if kind == "lead" else (no_follows, no_leads)
        assert keeps.act(view, legal) == heuristic
        values = dict(eager.valued(view, legal))
        expected = 0.1 if kind == "lead" else 0.2
        assert all(v == pytest.approx(expected) for p, v in values.items() if p != heuristic)
        if values[heuristic] == 0.0 and len(values) > 1:  # (not an option itself)
            assert eager.act(view, legal) != heuristic
            assert leaves.act(view, legal) != heuristic
            left[kind] += 1
        if len(values) == 1:
            assert values == {heuristic: 0.0}
            left["alone"] += 1
    assert left["lead"] >= 3 and left["follow"] >= 3 and left["alone"] >= 3


def test_a_model_with_other_margins_keeps_its_forests_and_search_plays_it() -> None:
    shipped = shipped_model("tractor")
    plain = shipped.with_margins(0.0, 0.0)
    assert (plain.lead, plain.follow) == (shipped.lead, shipped.follow)
    assert (plain.lead_margin, plain.follow_margin) == (0.0, 0.0)
    assert shipped.lead_margin > 0 and shipped.follow_margin > 0  # (chosen: docs/experiments.md)
    searching = SearchPlayer(1, iterations=1, model=plain)
    assert isinstance(searching.base, LearnedPlayer) and searching.base.model is plain


@pytest.mark.parametrize("margins", [(-0.1, 0.0), (0.0, 1.0), (0.0, float("nan"))])
def test_a_margin_outside_zero_to_one_is_refused(margins: tuple[float, float]) -> None:
    with pytest.raises(ValueError, match=r"margin .* must be a number from 0 up to 1"):
        tractor_model(margins=margins)


@pytest.mark.parametrize("name", ["finding-friends", "tractor"])
def test_without_a_model_for_the_rules_it_plays_as_the_heuristic(name: str) -> None:
    # (but for the first round's bid for the dealership, made at once by the learned player:
    # without it, the same plays as the heuristic's)
    rules = preset(name, players=5, decks=3) if name == "finding-friends" else preset(
        name, decks=3)
    assert model_for(rules) is None
    for seed in range(2):
        one = play_round(Round(rules, seed=seed), [LearnedPlayer(s, grab=False) for s in range(
            rules.players)])
        two = play_round(Round(rules, seed=seed), [HeuristicPlayer(s) for s in range(
            rules.players)])
        assert one.history == two.history


def first_bid_chance(rnd: Round, seat: int) -> tuple[SeatView, Legal]:
    """Deal (heuristic players) until ``seat`` may bid: its view and legal actions then."""
    heuristic = HeuristicPlayer(0)
    while rnd.phase in (Phase.DEAL, Phase.BID):
        mover = rnd.to_move
        assert mover is not None
        legal = rnd.legal(mover)
        if mover == seat and any(isinstance(a, Bid) for a in legal):
            return rnd.view(seat), legal
        rnd.apply(decide(rnd, mover, heuristic))
    raise AssertionError(f"seat {seat} never could bid")


def test_where_the_first_bidder_deals_it_bids_at_its_first_chance() -> None:
    # seat 1 draws a lone 2 first: too weak a trump holding for the heuristic, which draws
    # on; the learned player bids it at once, since it makes it the dealer
    view, legal = first_bid_chance(stacked(Rules(), {1: "2S"}, dealer=None), 1)
    assert LearnedPlayer(1).act(view, legal) == Bid(1, parse_cards("2S"))
    waits = HeuristicPlayer(1).act(view, legal)
    assert isinstance(waits, Draw | Pass)
    assert LearnedPlayer(1, grab=False).act(view, legal) == waits
    assert SearchPlayer(1, iterations=1, grab=False).base.act(view, legal) == waits


def test_where_the_first_pair_deals_it_bids_the_first_pair_it_holds() -> None:
    rnd = stacked(Rules(first_dealer="first-pair"), {1: "2S 2S"}, dealer=None)
    view, legal = first_bid_chance(rnd, 1)  # one 2S: a single does not take the dealership
    assert LearnedPlayer(1).act(view, legal) == HeuristicPlayer(1).act(view, legal)
    rnd.apply(Draw(1))
    view, legal = first_bid_chance(rnd, 1)
    assert LearnedPlayer(1).act(view, legal) == Bid(1, parse_cards("2S 2S"))


def test_where_the_first_joker_pair_deals_it_shows_its_jokers_at_once() -> None:
    # two small jokers: too weak a holding for the heuristic, which draws on
    rnd = stacked(Rules(first_dealer="first-joker-pair"), {1: "SJ SJ"}, dealer=None)
    view, legal = first_bid_chance(rnd, 1)
    assert LearnedPlayer(1).act(view, legal) == Bid(1, parse_cards("SJ SJ"))
    assert isinstance(HeuristicPlayer(1).act(view, legal), Draw | Pass)


def test_the_bid_for_the_dealership_reads_only_the_seats_view() -> None:
    """At each chance to bid while no dealer is set, the learned player's choice is the
    same with the pack still to deal (which it cannot see) in another order."""
    compared = grabs = 0
    heuristic = HeuristicPlayer(0)
    for seed in range(6):
        rnd = Round(Rules(), seed=seed, track_undo=False)
        while rnd.phase in (Phase.DEAL, Phase.BID):
            mover = rnd.to_move
            assert mover is not None
            view, legal = rnd.view(mover), rnd.legal(mover)
            if view.dealer is None and any(isinstance(a, Bid) for a in legal):
                changed = rnd.copy()
                rest = len(rnd.deck) - rnd.rules.kitty_size
                changed.deck = (rnd.deck[:rnd.next_card]
                                + rnd.deck[rnd.next_card:rest][::-1] + rnd.deck[rest:])
                assert changed.deck != rnd.deck and changed.view(mover) == view
                action = LearnedPlayer(1).act(view, legal)
                assert action == LearnedPlayer(1).act(changed.view(mover),
                                                      changed.legal(mover))
                compared += 1
                grabs += isinstance(action, Bid)
            rnd.apply(decide(rnd, mover, heuristic))
    assert compared >= 6 and grabs >= 3


def test_once_a_dealer_is_set_it_bids_as_the_heuristic() -> None:
    rnd = stacked(Rules(), {1: "2S"}, dealer=3)
    view, legal = first_bid_chance(rnd, 1)
    assert LearnedPlayer(1).act(view, legal) == HeuristicPlayer(1).act(view, legal)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["tractor", "finding-friends", "hundred"])
def test_learned_players_finish_rounds_with_legal_plays(name: str) -> None:
    rules = preset(name)
    for seed in range(3):
        rnd = play_round(Round(rules, seed=seed), [make_player("learned", seed=s)
                                                   for s in range(rules.players)])
        assert rnd.result is not None


@pytest.mark.parametrize(("name", "model_name"), [
    ("da-bai-fen", "da-bai-fen"), ("hundred", "da-bai-fen"), ("tractor-6", "tractor-6"),
    ("finding-friends", "finding-friends")])
def test_the_shipped_models_serve_their_presets(name: str, model_name: str) -> None:
    model = shipped_model(model_name)
    assert model_for(preset(name)) is model and not model.fits(preset("tractor"))
    fluid = name == "finding-friends"  # (the friends' columns after the others)
    assert model.lead.features == columns("lead", fluid)
    assert model.follow.features == columns("follow", fluid)
    assert model.bury is not None and model.bury.features == BURY_FEATURES
    rules = preset(name)
    rnd = play_round(Round(rules, seed=5), [make_player("learned", seed=s)
                                           for s in range(rules.players)])
    assert rnd.result is not None


def test_every_shipped_model_is_listed_with_the_tables_it_serves() -> None:
    for name, tables in MODELS.items():
        model = shipped_model(name)
        assert model.tables == tables
        assert tables[0] == (model.players, model.decks, model.partnership)
        assert model.name == name
        assert all(model_for(rules) is model for rules in (
            Rules(players=p, decks=d, partnership=Partnership(k)) for p, d, k in tables))


def test_the_shipped_models_stay_small_and_whole() -> None:
    """Each model file is at most 1 MiB compressed, 4 MiB in all; which one fits the rules
    is known without reading any (:func:`model_name`), and the installed files are whole
    (what ``shengji serve`` checks as it starts)."""
    folder = Path(learned.__file__).parent / "models"
    sizes = {path.name: path.stat().st_size for path in folder.glob("*.json.gz")}
    assert set(sizes) == {f"{name}.json.gz" for name in MODELS}
    assert max(sizes.values()) <= 1 << 20 and sum(sizes.values()) <= 4 << 20, sizes
    assert model_name(preset("hundred")) == "da-bai-fen" and model_name(
        preset("tractor", players=6)) is None
    assert check_shipped_models() == []


def test_the_shipped_tractor_model_fits_tractor_and_reads_these_features() -> None:
    model = shipped_model("tractor")
    assert "tractor" in MODELS and model_for(preset("tractor")) is model
    assert model.fits(preset("tractor", kitty_multiplier="double"))
    assert not model.fits(preset("tractor-6")) and not model.fits(preset("da-bai-fen"))
    assert model.lead.features == LEAD_FEATURES and model.follow.features == FOLLOW_FEATURES
    assert model.bury is not None and model.bury.features == BURY_FEATURES
    assert model.bury_margin > 0  # (chosen: docs/experiments.md)
    rnd = play_round(Round(preset("tractor"), seed=5), [make_player("learned", seed=s)
                                                       for s in range(4)])
    assert rnd.result is not None
    with pytest.raises(ValueError, match="no model 'nope'"):
        shipped_model("nope")


def test_decide_takes_a_learned_players_forced_plays_without_asking() -> None:
    rules = preset("tractor")
    rnd = Round(rules, seed=2)
    player = LearnedPlayer(1, model=tractor_model())
    heuristic = HeuristicPlayer(1)
    while rnd.phase != Phase.DONE:
        seat = rnd.to_move
        assert seat is not None
        action = decide(rnd, seat, player)
        assert action == decide(rnd, seat, heuristic)
        rnd.apply(action)
