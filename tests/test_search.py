"""The search player: positions where search must find the clearly right play, the same
action for the same seed, results that do not depend on the number of worker processes,
and whole rounds of every preset with search seats.

Play positions use *short* rounds (as in ``test_heuristic.py``): a huge kitty leaves each
seat a handful of cards. Nobody bids; the first kitty card, 9♠, makes spades trump with
the dealer's rank 9 (levels 9/5/9/5). The dealer (seat 0) buries everything but the
cards the test gives it. Seats 0 and 2 are partners (the declarers).
"""

from __future__ import annotations

import math
from collections import Counter
from itertools import islice
from typing import Literal

import pytest

from flow_helpers import endgame_round
from shengji.engine.cards import Card, parse_cards
from shengji.engine.rules import Rules
from shengji.game.actions import Action, Bid, Draw, Play, parse_action
from shengji.game.legal import Legal
from shengji.game.phase import Phase
from shengji.game.presets import PRESETS, preset
from shengji.game.round import Round
from shengji.players import (
    PLAYER_KINDS,
    HeuristicPlayer,
    LearnedPlayer,
    SearchPlayer,
    make_player,
)
from shengji.players.learned import model_for
from shengji.players.search import (
    ENDGAME,
    LEARNED_ENDGAME,
    MODEL_PHASES,
    RACE,
    READ_KITTY,
    ROLLOUTS,
    Z,
    _position_seed,
    candidates,
    checkpoints,
    choose,
    endgame_for,
    evaluate_many,
    finish,
    raced,
    rollout_policy,
    survivors,
    verdict,
)
from shengji.players.table import decide, play_round
from shengji.players.worlds import Knowledge


def has_choice(legal: Legal) -> bool:
    """Whether ``legal`` holds two actions or more: ``len(list(legal)) > 1`` without listing
    every bury of a kitty (millions of them)."""
    return len(list(islice(legal, 2))) > 1


def play(rnd: Round, *lines: str) -> Round:
    for line in lines:
        rnd.apply(parse_action(line))
    return rnd


def searched(rnd: Round, player: SearchPlayer) -> Counter[Card]:
    """The cards the search player plays for the seat to move; checks that the search ran
    and that the chosen play has the best mean value of the candidates."""
    seat = rnd.to_move
    assert seat is not None
    action = player.act(rnd.view(seat), rnd.legal(seat))
    assert isinstance(action, Play) and action in rnd.legal(seat)
    stats = player.last
    assert stats is not None and stats.worlds >= 10
    assert stats.means[stats.choice] == max(stats.means)
    return Counter(action.cards)


def cards(text: str) -> Counter[Card]:
    return Counter(parse_cards(text))


def test_cashes_a_sure_winner_before_the_opponents_can_ruff() -> None:
    """The dealer's A♥ is sure (the other A♥ is in its kitty) while every hand may still
    hold a heart; the opponents hold trumps to ruff it later. Search cashes it now. (With
    learned rollouts, the default, the other candidates' means come out ahead of it in
    this position's 24 worlds, none with confidence: the model never met four-card hands
    beside a 92-card kitty; the player keeps its model's A♥.)"""
    rnd = endgame_round(["AH 3D 4D 6C", "5H 3S 7D 8C", "JH 6H 8D 10C", "10H 4S 10D JC"])
    assert searched(rnd, SearchPlayer(1, iterations=24, rollouts="heuristic")) == cards("AH")
    action = SearchPlayer(1, iterations=24).act(rnd.view(0), rnd.legal(0))
    assert isinstance(action, Play) and Counter(action.cards) == cards("AH")


def test_feeds_points_to_a_partner_sure_to_win() -> None:
    """Seat 3 plays last and its partner holds the trick with A♥: it adds its K♥."""
    rnd = play(endgame_round(["3H 4D 4C", "AH 5D 5C", "4H 6D 6C", "KH 6H 7H"]),
               "0 play 3H", "1 play AH", "2 play 4H")
    assert searched(rnd, SearchPlayer(1, iterations=24)) == cards("KH")


def test_saves_the_kitty_with_a_trump_on_the_last_trick() -> None:
    """Two cards left, a kitty of 100 cards rich in points. The dealer's partner (seat 2,
    void in clubs) could ruff seat 1's K♣ with its big joker, but then leads its 4♥ to the
    last trick and the opponents take the kitty, doubled. Search discards the 4♥ and keeps
    the joker to win the last trick. The heuristic, which does not see the kitty, takes
    the 10 points."""
    rnd = play(endgame_round(["3C 5D", "KC 6D", "BJ 4H", "6C 7D"]), "0 play 3C", "1 play KC")
    assert searched(rnd, SearchPlayer(1, iterations=24)) == cards("4H")
    heuristic = HeuristicPlayer(1).act(rnd.view(2), rnd.legal(2))
    assert isinstance(heuristic, Play) and Counter(heuristic.cards) == cards("BJ")


def test_the_same_seed_gives_the_same_action_whatever_the_workers() -> None:
    """With an iteration budget the figures of every candidate are the same for 1, 2 or 3
    worker processes (5 worlds do not split evenly) and whatever the time budget."""
    rnd = endgame_round(["AH 3D 4D 6C", "5H 3S 7D 8C", "JH 6H 8D 10C", "10H 4S 10D JC"])
    view, legal = rnd.view(0), rnd.legal(0)
    results = []
    for workers, seconds in ((1, 1.0), (1, 1e-6), (2, 1.0), (3, 1e-6)):
        player = SearchPlayer(7, iterations=5, workers=workers, time_budget=seconds)
        action = player.act(view, legal)
        assert player.last is not None and player.last.tried == 5
        results.append((action, player.last.means, player.last.worlds))
        player.close()
    assert results[0][1] != [0.0] * len(results[0][1])
    assert all(r == results[0] for r in results)
    other = SearchPlayer(8, iterations=5)
    other.act(view, legal)
    assert other.last is not None and other.last.means != results[0][1]  # the seed matters


@pytest.mark.slow
def test_rounds_are_the_same_whatever_the_workers() -> None:
    """A whole round with two search seats comes out the same with 1 and 2 workers."""
    def game(workers: int) -> tuple[Action, ...]:
        players = [SearchPlayer(10 + s, iterations=2, candidates=3, workers=workers)
                   if s % 2 == 0 else HeuristicPlayer(s) for s in range(4)]
        rnd = play_round(Round(preset("tractor"), seed=5, dealer=0, track_undo=False),
                         players)
        for p in players:
            if isinstance(p, SearchPlayer):
                p.close()
        return tuple(rnd.history)

    assert game(1) == game(2)


def test_candidates_start_with_the_heuristic_choice_and_are_legal() -> None:
    rnd = endgame_round(["AH 3D 4D 6C", "5H 3S 7D 8C", "JH 6H 8D 10C", "10H 4S 10D JC"])
    view, legal = rnd.view(0), rnd.legal(0)
    default = HeuristicPlayer(1).act(view, legal)
    found = candidates(view, legal, default, 5)
    assert found[0] == default and 2 <= len(found) <= 5
    assert all(a in legal for a in found)
    assert len({tuple(sorted(getattr(a, "cards", ()))) for a in found}) == len(found)


def test_bids_are_searched_when_a_bid_may_be_made() -> None:
    """During the deal the seat draws as the heuristic does until it may bid; then search
    (in every decision: no endgame rule) compares the heuristic's choice, drawing on and
    each bid, on whole sampled rounds."""
    rnd = Round(preset("tractor"), seed=3, track_undo=False)
    heuristics = [HeuristicPlayer(s) for s in range(4)]
    searched_bids = 0
    while rnd.phase == Phase.DEAL:
        seat = rnd.to_move
        assert seat is not None
        view, legal = rnd.view(seat), rnd.legal(seat)
        default = heuristics[seat].act(view, legal)
        bids = [a for a in legal if isinstance(a, Bid)]
        if seat == 0:
            player = SearchPlayer(1, iterations=3, candidates=8, endgame=None)
            action = player.act(view, legal)
            if not bids:
                assert player.last is None and action == Draw(0)
            else:
                options = candidates(view, legal, default, 8)
                assert options[0] == default and Draw(0) in options
                assert set(bids) <= set(options) and all(a in legal for a in options)
                assert player.last is not None and player.last.worlds == 3
                assert len(player.last.means) == len(options)
                searched_bids += 1
        rnd.apply(default)
    assert searched_bids >= 2


def test_phases_limit_search_to_the_phases_named() -> None:
    """``phases=(Phase.PLAY,)`` (no endgame rule): bids are the base player's, unsearched;
    plays are searched."""
    rnd = Round(preset("tractor"), seed=3, track_undo=False)
    base = LearnedPlayer(1)
    player = SearchPlayer(1, iterations=3, phases=(Phase.PLAY,), endgame=None)
    assert player.phases == {Phase.PLAY}
    asked = searched_plays = 0
    while rnd.phase != Phase.DONE and searched_plays < 3:
        seat = rnd.to_move
        assert seat is not None
        view, legal = rnd.view(seat), rnd.legal(seat)
        if seat == 0 and has_choice(legal):
            action = player.act(view, legal)
            if rnd.phase == Phase.PLAY:
                searched_plays += player.last is not None
            else:  # a bid or the kitty: the base's choice, no search
                asked += 1
                assert player.last is None and action == base.act(view, legal)
            rnd.apply(action)
            continue
        rnd.apply(HeuristicPlayer(seat).act(view, legal))
    assert asked and searched_plays == 3


@pytest.mark.slow
def test_where_a_model_fits_search_takes_only_the_endgames_leads_and_follows() -> None:
    """In tractor (the shipped model fits) the bids, the kitty and the plays made with more
    than ``endgame`` cards in hand are the learned player's, unsearched; the plays made
    with ``endgame`` cards or fewer are searched. Without the rule (``endgame=None``) every
    decision with a choice is. By default the endgame is 20 cards where learned players
    finish the side's rollouts, 12 where heuristic ones do (and where the friends are
    found in play)."""
    rules = preset("tractor")
    assert model_for(rules) is not None and SearchPlayer(1).endgame == "auto"
    assert endgame_for(rules, "learned") == LEARNED_ENDGAME == 20
    assert endgame_for(rules, "heuristic") == ENDGAME == 12
    assert endgame_for(preset("finding-friends", players=5), "learned") == ENDGAME
    cases: list[tuple[int | Literal["auto"] | None, str | None, int | None]] = [
        ("auto", None, 20), ("auto", "heuristic", 12), (6, None, 6), (None, None, None)]
    for endgame, rollouts, cards in cases:
        rnd = Round(rules, seed=3, dealer=0, track_undo=False)
        player = SearchPlayer(1, iterations=2, endgame=endgame, rollouts=rollouts)
        base = LearnedPlayer(1)
        phases = set()
        while rnd.phase != Phase.DONE:
            seat = rnd.to_move
            assert seat is not None
            view, legal = rnd.view(seat), rnd.legal(seat)
            if seat != 0 or not has_choice(legal):
                rnd.apply(decide(rnd, seat, HeuristicPlayer(seat)))
                continue
            action = player.act(view, legal)
            inside = cards is None or (rnd.phase == Phase.PLAY
                                       and len(view.hand) <= cards)
            if player.last is None:
                assert action == base.act(view, legal)
            else:
                assert inside
                phases.add(rnd.phase)
            assert inside == player.searches(view)
            rnd.apply(action)
        assert Phase.PLAY in phases
        assert phases == {Phase.PLAY} if cards is not None else Phase.KITTY in phases
    assert endgame_for(preset("tractor-6"), "learned") == LEARNED_ENDGAME
    for bad in (0, -1, "all", True, 12.0):
        with pytest.raises(ValueError, match="endgame must be at least 1 card"):
            SearchPlayer(1, endgame=bad)  # type: ignore[arg-type]


def test_where_a_model_fits_phases_named_are_searched_beside_the_endgame() -> None:
    """``phases=(Phase.KITTY,)`` in tractor: the dealer's bury is searched (named), its
    plays are not (the play is not named), whatever the endgame."""
    rnd = Round(preset("tractor"), seed=3, dealer=0, track_undo=False)
    player = SearchPlayer(1, iterations=2, phases=(Phase.KITTY,))
    searched_phases = set()
    while rnd.phase != Phase.DONE:
        seat = rnd.to_move
        assert seat is not None
        if seat == 0 and has_choice(rnd.legal(0)):
            action = player.act(rnd.view(0), rnd.legal(0))
            if player.last is not None:
                searched_phases.add(rnd.phase)
            rnd.apply(action)
            continue
        rnd.apply(decide(rnd, seat, HeuristicPlayer(seat)))
    assert searched_phases == {Phase.KITTY}


def test_with_one_deck_the_default_searches_the_kitty_too() -> None:
    """Da Bai Fen's model names the kitty (:data:`MODEL_PHASES`): the dealer's bury is
    searched beside the endgame by default, and not where ``phases`` names others."""
    rules = preset("da-bai-fen")
    model = model_for(rules)
    assert model is not None and MODEL_PHASES[model.name] == {Phase.KITTY}
    for phases, kitty in (((), True), ((Phase.PLAY,), False)):
        rnd = Round(rules, seed=3, dealer=0, track_undo=False)
        player = SearchPlayer(1, iterations=2, phases=phases)
        searched = set()
        while rnd.phase != Phase.DONE:
            seat = rnd.to_move
            assert seat is not None
            if seat == 0 and has_choice(rnd.legal(0)):
                view = rnd.view(0)
                action = player.act(view, rnd.legal(0))
                assert player.searches(view) == (view.phase == Phase.PLAY
                                                 or (kitty and view.phase == Phase.KITTY))
                if player.last is not None:
                    searched.add(rnd.phase)
                rnd.apply(action)
                continue
            rnd.apply(decide(rnd, seat, HeuristicPlayer(seat)))
        assert searched == ({Phase.KITTY, Phase.PLAY} if kitty else {Phase.PLAY})


def test_the_default_reads_the_kitty_where_it_was_measured_to_gain() -> None:
    """Where the Da Bai Fen or the Finding Friends model fits (:data:`READ_KITTY`), the
    default player imagines a kitty it did not see buried as a heuristic burier would;
    elsewhere (tractor's models) at random, unless ``read_kitty`` says otherwise."""
    assert {"da-bai-fen", "finding-friends"} == READ_KITTY
    for name, default in (("da-bai-fen", True), ("hundred", True), ("finding-friends", True),
                          ("tractor", False), ("tractor-6", False)):
        rules = preset(name)
        assert SearchPlayer(1).reads_kitty(rules) is default
        assert SearchPlayer(1, read_kitty=not default).reads_kitty(rules) is not default
    assert not SearchPlayer(1, learned=False).reads_kitty(preset("da-bai-fen"))


def test_read_kitty_reaches_every_worker_s_worlds() -> None:
    """``read_kitty`` (the worlds' hidden kitty buried as a heuristic burier would) gives
    the same figures with one worker process and with two, and other figures than a
    random kitty, at a Da Bai Fen follow of a seat that did not bury."""
    rules = preset("da-bai-fen")
    rnd = Round(rules, seed=4, dealer=0, track_undo=False)
    while not (rnd.phase == Phase.PLAY and rnd.to_move not in (None, 0)
               and len(rnd.tricks) >= 2 and has_choice(rnd.legal(rnd.to_move))):
        seat = rnd.to_move
        assert seat is not None
        rnd.apply(decide(rnd, seat, HeuristicPlayer(seat)))
    seat = rnd.to_move
    assert seat is not None
    view, legal = rnd.view(seat), rnd.legal(seat)
    means = {}
    for read, workers in ((True, 1), (True, 2), (False, 1)):
        player = SearchPlayer(3, iterations=6, workers=workers, read_kitty=read,
                              endgame=None)
        player.act(view, legal)
        player.close()
        assert player.last is not None and player.last.worlds == 6
        means[read, workers] = player.last.means
    assert means[True, 1] == means[True, 2] != means[False, 1]


def test_unknown_phases_are_refused_with_the_allowed_ones() -> None:
    with pytest.raises(ValueError, match="phases must be among bid, call, deal, declare"):
        SearchPlayer(1, phases=(Phase.SHOW,))


def test_registered_as_a_player_kind() -> None:
    assert "search" in PLAYER_KINDS
    assert isinstance(make_player("search", seed=1), SearchPlayer)


def test_bad_budgets_are_refused() -> None:
    for options in ({"iterations": 0}, {"time_budget": 0.0}, {"workers": 0}):
        with pytest.raises(ValueError):
            SearchPlayer(1, **options)


TABLES = [*((name, {}) for name in PRESETS if name != "finding-friends"),
          ("finding-friends", {"players": 5}), ("finding-friends", {"players": 6})]


@pytest.mark.slow
@pytest.mark.parametrize("table", TABLES, ids=lambda t: f"{t[0]}{t[1].get('players', '')}")
def test_every_preset_plays_a_round_with_a_search_seat(
        table: tuple[str, dict[str, object]]) -> None:
    name, options = table
    rules = preset(name, **options)
    search = SearchPlayer(3, iterations=2, candidates=2)
    seats = [search if s == 0 else HeuristicPlayer(s) for s in range(rules.players)]
    searched_phases = set()
    decided = set()
    rnd = Round(rules, seed=21, dealer=0, track_undo=False)
    while rnd.phase != Phase.DONE:
        seat = rnd.to_move
        assert seat is not None
        action = decide(rnd, seat, seats[seat])
        assert action in rnd.legal(seat)
        if seats[seat] is search:
            decided.add(rnd.phase)
            if search.last is not None:
                searched_phases.add(rnd.phase)
        rnd.apply(action)
    assert Phase.PLAY in searched_phases
    model = model_for(rules)
    if model is not None:  # the endgame's plays, and the phases the model names
        assert searched_phases == {Phase.PLAY} | (
            decided & MODEL_PHASES.get(model.name, frozenset()))
    else:  # the kitty bury, the friend call and the Hundred's trump are searched too
        assert decided & {Phase.KITTY, Phase.CALL, Phase.DECLARE} <= searched_phases
    assert rnd.result is not None


def test_the_dealer_searches_the_bury_the_call_and_the_trump() -> None:
    """Seat 0 deals (and keeps the kitty): in the Hundred it names the trump and buries,
    in Finding Friends it buries and calls its friend, each decision searched (with the
    endgame rule off, as where no model fits)."""
    for rules, phases in ((preset("hundred"), {Phase.DECLARE, Phase.KITTY}),
                          (preset("finding-friends", players=5), {Phase.KITTY, Phase.CALL})):
        search = SearchPlayer(3, iterations=2, candidates=3, endgame=None)
        seats = [search if s == 0 else HeuristicPlayer(s) for s in range(rules.players)]
        rnd = Round(rules, seed=21, dealer=0, track_undo=False)
        found = set()
        while rnd.phase not in (Phase.PLAY, Phase.DONE):
            seat = rnd.to_move
            assert seat is not None
            action = decide(rnd, seat, seats[seat])
            if seats[seat] is search and search.last is not None:
                found.add(rnd.phase)
                assert search.last.worlds == 2 and len(search.last.means) >= 2
            rnd.apply(action)
        assert phases <= found


@pytest.mark.slow
@pytest.mark.parametrize(("workers", "worlds"), [(1, 5), (2, 5), (2, 70)])
def test_a_time_budget_stops_at_max_worlds_with_the_worlds_of_that_many_iterations(
        workers: int, worlds: int) -> None:
    """Under a time budget that is not reached, a decision uses ``max_worlds`` worlds:
    the very worlds, figures and choice of ``iterations=max_worlds`` (racing included)."""
    rnd = play(endgame_round(["3C 5D", "KC 6D", "BJ 4H", "6C 7D"]), "0 play 3C", "1 play KC")
    view, legal = rnd.view(2), rnd.legal(2)
    timed = SearchPlayer(3, time_budget=60.0, max_worlds=worlds, workers=workers)
    counted = SearchPlayer(3, iterations=worlds)
    assert timed.act(view, legal) == counted.act(view, legal)
    timed.close()
    assert timed.last is not None and counted.last is not None
    assert timed.last.tried == worlds and timed.last.means == counted.last.means
    assert repr(timed) == f"SearchPlayer(time_budget=60.0, max_worlds={worlds})"
    with pytest.raises(ValueError, match="max_worlds must be a whole number of at least 1"):
        SearchPlayer(3, max_worlds=0)


def test_racing_stops_rolling_out_candidates_clearly_worse_than_the_default() -> None:
    """From 32 worlds on, and at each doubling, a candidate whose gain over the default
    has an upper bound (mean + ``race`` standard errors) at or below zero is dropped;
    :func:`verdict` chooses among those left as :func:`choose` does."""
    assert checkpoints(8) == [8] and checkpoints(32) == [32]
    assert checkpoints(64) == [32, 64] and checkpoints(200) == [32, 64, 128, 200]
    # candidate 1 always loses a level; 2 gains half a level; 3 is a noisy tie
    rows = [[0.0, -1.0, 0.5 + (0.1 if i % 2 else -0.1), 0.2 if i % 2 else -0.2]
            for i in range(64)]
    assert survivors(rows[:32], [0, 1, 2, 3], 1.0) == [0, 2, 3]
    assert survivors(rows[:32], [0, 1, 2, 3], None) == [0, 1, 2, 3]
    assert verdict(rows, 1.5, 1.0) == choose(rows, 1.5) == 2
    assert raced(rows, 1.0) == ([0, 2, 3], 32 * 4 + 32 * 3)  # candidate-worlds played out
    assert raced(rows, None) == ([0, 1, 2, 3], 64 * 4)
    # a candidate dropped at 32 worlds is not chosen for what later worlds would say
    turning = [[0.0, -1.0, 0.1 if i % 2 else 0.0] for i in range(32)] + [
        [0.0, 10.0, 0.1 if i % 2 else 0.0] for i in range(32)]
    assert choose(turning, 1.5) == 1
    assert verdict(turning, 1.5, 1.0) == 2 and verdict(turning, 1.5, None) == 1
    # only the default left: the default, and no more worlds
    assert verdict([[0.0, -1.0]] * 40, 0.0, 1.0) == 0
    assert raced([[0.0, -1.0]] * 40, 1.0) == ([0], 64)


@pytest.mark.slow
@pytest.mark.parametrize("position", [
    (["AH 3D 4D 6C", "5H 3S 7D 8C", "JH 6H 8D 10C", "10H 4S 10D JC"], ()),
    (["3H 4D 4C", "AH 5D 5C", "4H 6D 6C", "KH 6H 7H"], ("0 play 3H", "1 play AH", "2 play 4H")),
    (["3C 5D", "KC 6D", "BJ 4H", "6C 7D"], ("0 play 3C", "1 play KC")),
])
def test_a_raced_search_makes_the_choice_verdict_makes_from_every_world(
        position: tuple[list[str], tuple[str, ...]]) -> None:
    """The player rolls out only the candidates still in the race (stopping where only
    the default is left), and chooses what :func:`verdict` chooses from every
    candidate's value in each of the same worlds."""
    hands, moves = position
    rnd = play(endgame_round(hands), *moves)
    seat = rnd.to_move
    assert seat is not None
    view, legal = rnd.view(seat), rnd.legal(seat)
    player = SearchPlayer(3, iterations=80, learned=False)
    action = player.act(view, legal)
    stats = player.last
    assert stats is not None and stats.tried in (32, 64, 80)
    options = candidates(view, legal, HeuristicPlayer(3).act(view, legal), 5)
    key = _position_seed(3, view)
    found = evaluate_many(Knowledge.of(view), options,
                          [key * 1_000_003 + i for i in range(80)])
    rows = [r for r in found if r is not None]
    assert stats.worlds == len(rows[:stats.tried])
    assert action == options[verdict(rows[:stats.tried], Z, RACE)]
    if stats.tried < 80:  # stopped early: only the default was left
        assert verdict(rows, Z, RACE) == 0
    # each candidate's mean is over the worlds it was rolled out in, the default's over all
    assert stats.means[0] == sum(r[0] for r in rows[:stats.tried]) / stats.worlds
    unraced = SearchPlayer(3, iterations=80, race=None, learned=False)
    assert unraced.act(view, legal) == options[choose(rows, Z)]
    assert unraced.last is not None and unraced.last.means == [
        sum(r[i] for r in rows) / 80 for i in range(len(options))]


def test_bad_decision_settings_are_refused() -> None:
    for name, value in (("race", -1.0), ("z", -0.5), ("prior", -0.1), ("z", math.nan),
                        ("prior", "1")):
        with pytest.raises(ValueError, match=f"{name} must be a number of at least 0, got"):
            SearchPlayer(3, **{name: value})  # type: ignore[arg-type]
    for name, value in (("iterations", math.inf), ("iterations", math.nan),
                        ("iterations", 2.5), ("max_worlds", math.nan), ("candidates", 2.5),
                        ("workers", math.nan), ("iterations", True)):
        with pytest.raises(ValueError, match=f"{name} must be a whole number of at least 1"):
            SearchPlayer(3, **{name: value})  # type: ignore[arg-type]
    for name, value in (("time_budget", math.nan), ("time_budget", 0)):
        with pytest.raises(ValueError, match="time_budget must be a number more than 0"):
            SearchPlayer(3, **{name: value})  # type: ignore[arg-type]
    for name, value in (("learned", None), ("grab", "no"), ("read_kitty", "yes")):
        with pytest.raises(ValueError, match=f"{name} must be True or False"):
            SearchPlayer(3, **{name: value})  # type: ignore[arg-type]
    for options, said in (({"infer": "yes"}, "infer must be an Inference, a Refine or None"),
                          ({"model": "tractor"}, "model must be a PlayModel"),
                          ({"seed": "abc"}, "seed is a whole number or None"),
                          ({"seed": math.nan}, "seed is a whole number or None")):
        with pytest.raises(ValueError, match=said):
            SearchPlayer(**options)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="rollouts must be one of heuristic, learned"):
        SearchPlayer(3, rollouts="random")


def test_a_prior_shift_weighs_against_overriding_the_default() -> None:
    """Candidate 1 gains about 0.5 over the default in every world: it is chosen unless
    the prior puts it more than that below the default."""
    rows = [[0.0, 0.5 + 0.01 * (i % 3)] for i in range(12)]
    assert choose(rows, Z) == 1
    assert choose(rows, Z, shift=[0.0, -0.2]) == 1
    assert choose(rows, Z, shift=[0.0, -0.6]) == 0


@pytest.mark.slow
def test_search_starts_from_the_learned_players_choice_and_its_best_options() -> None:
    """With a model for the rules the default is the learned player's play and the
    candidates are the plays the model values most; with ``learned=False``, the
    heuristic's."""
    rules = preset("tractor")
    checked = 0
    for seed in range(2):
        rnd = Round(rules, seed=seed, track_undo=False)
        players = [HeuristicPlayer(s) for s in range(4)]
        while rnd.phase != Phase.DONE:
            seat = rnd.to_move
            assert seat is not None
            if rnd.phase == Phase.PLAY and len(rnd.hands[seat]) > 1:
                view, legal = rnd.view(seat), rnd.legal(seat)
                learned = LearnedPlayer(5)
                valued = learned.valued(view, legal)
                one = SearchPlayer(5, iterations=1)  # one world never overrides
                assert one.act(view, legal) == valued[0][0] == LearnedPlayer(5).act(view, legal)
                plain = SearchPlayer(5, iterations=1, learned=False)
                assert plain.act(view, legal) == HeuristicPlayer(5).act(view, legal)
                checked += 1
            rnd.apply(decide(rnd, seat, players[seat]))
    assert checked > 50


def test_learned_rollouts_finish_the_round_with_learned_players_on_the_seats_side() -> None:
    """Where partners are fixed and a model fits, the seat's side finishes a rollout as the
    learned player and the other side as the heuristic; elsewhere the heuristic plays
    every seat."""
    assert rollout_policy(Rules(), "learned") == "learned"
    assert rollout_policy(Rules(), "heuristic") == "heuristic"
    assert rollout_policy(preset("finding-friends", players=5), "learned") == "heuristic"
    assert rollout_policy(preset("da-bai-fen", players=6), "learned") == "heuristic"  # no model
    assert SearchPlayer(1).rollouts == "learned"
    assert SearchPlayer(1, learned=False).rollouts == "heuristic"
    for rules, left, learned_seats in ((Rules(), 12, True),
                                       (preset("finding-friends", players=5), 10, False)):
        game = Round(rules, seed=4)  # (played on until seat 1 holds ``left`` cards or fewer)
        while not (game.phase == Phase.PLAY and len(game.hands[1]) <= left):
            mover = game.to_move
            assert mover is not None
            game.apply(decide(game, mover, HeuristicPlayer(mover)))
        seat = game.to_move
        assert seat is not None
        first = decide(game, seat, HeuristicPlayer(0))
        players = rules.players
        for rollouts in ROLLOUTS:
            done = finish(game, first, seat, 7, rollouts)
            replay = game.copy()
            replay.apply(first)
            learned = [LearnedPlayer(7 + s, grab=False) for s in range(players)]
            heuristic = [HeuristicPlayer(7 + s) for s in range(players)]
            differ = 0
            for action in done.history[len(replay.history):]:
                mover = replay.to_move
                assert mover is not None
                side = (rollouts == "learned" and learned_seats
                        and replay.teams[mover] == replay.teams[seat])
                expected = decide(replay, mover, (learned if side else heuristic)[mover])
                assert action == expected
                if side and decide(replay, mover, heuristic[mover]) != expected:
                    differ += 1
                replay.apply(action)
            # (the model's own plays were made where learned players finished the round)
            assert (differ > 0) == (rollouts == "learned" and learned_seats)
    rnd = endgame_round(["AH 3D 4D 6C", "5H 3S 7D 8C", "JH 6H 8D 10C", "10H 4S 10D JC"])
    view, legal = rnd.view(0), rnd.legal(0)
    player = SearchPlayer(1, iterations=6, rollouts="learned")
    action = player.act(view, legal)
    assert action in legal and player.last is not None and player.last.worlds == 6
    knowledge = Knowledge.of(view)
    options = [Play(0, c) for c in (parse_cards("AH"), parse_cards("3D"))]
    assert len(evaluate_many(knowledge, options, [1, 2], None, "learned")) == 2


@pytest.mark.slow
@pytest.mark.parametrize("workers", [1, 2])
def test_plays_with_a_time_budget(workers: int) -> None:
    """Without an iteration budget a decision stops before a batch of worlds that would
    end past the time budget (the first batch always runs)."""
    rnd = endgame_round(["AH 3D 4D 6C", "5H 3S 7D 8C", "JH 6H 8D 10C", "10H 4S 10D JC"])
    player = SearchPlayer(1, time_budget=0.3, workers=workers)
    view, legal = rnd.view(0), rnd.legal(0)
    player.act(view, legal)
    assert player.last is not None and player.last.tried >= workers
    assert player.last.seconds < 1.5  # 0.3 s and one batch of small worlds, with slack
    played = play_round(rnd, [player] + [HeuristicPlayer(s) for s in (1, 2, 3)])
    player.close()
    assert played.phase == Phase.DONE
