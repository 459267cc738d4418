"""Every computer player finishes whole rounds and matches of every preset legally.

Each player is wrapped in :class:`Checked`, which asks the seat's ``legal`` about every
action before it reaches the round (the round checks it again and would raise
:class:`~shengji.game.legal.ActionError`). Finding Friends is played at 5, 6, 7 and 12
players. Rounds start with varied levels (so varied trump ranks) and with the first
round's bidding deciding the dealer or a given dealer.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from itertools import islice
from random import Random

import pytest

from shengji.engine.rules import Partnership, Rules
from shengji.game.actions import Action
from shengji.game.legal import Legal
from shengji.game.match import Match
from shengji.game.phase import Phase
from shengji.game.presets import PRESETS, preset
from shengji.game.round import Round
from shengji.game.view import SeatView
from shengji.players import (
    PLAYER_KINDS,
    LearnedPlayer,
    Player,
    make_player,
    model_note,
    play_match,
    play_round,
    player_label,
    think_worlds,
)

TABLES: list[tuple[str, int | None]] = [
    *((name, None) for name in PRESETS if name != "finding-friends"),
    *(("finding-friends", n) for n in (5, 6, 7, 12)),
]
"""Every preset; Finding Friends at several table sizes."""

KINDS = tuple(k for k in PLAYER_KINDS if k != "search")
"""Every player kind but the search player, which has its own tests with small budgets
(tests/test_search*.py): at its default budget a round takes minutes."""


def rules_of(name: str, players: int | None) -> Rules:
    return preset(name, players=players) if players is not None else preset(name)


def table_id(table: tuple[str, int | None]) -> str:
    name, players = table
    return name if players is None else f"{name}-{players}"


class Checked:
    """A player whose every action is checked against the seat's legal actions."""

    def __init__(self, player: Player, seat: int, tally: Counter[str]) -> None:
        self.player = player
        self.seat = seat
        self.tally = tally

    def act(self, view: SeatView, legal: Legal) -> Action:
        assert view.seat == self.seat and legal.seat == self.seat
        assert view.to_move == self.seat or view.phase == Phase.DEAL
        action = self.player.act(view, legal)
        why = legal.reason(action)
        assert why is None, f"{self.player!r} chose an illegal action {action}: {why}"
        self.tally[type(action).__name__] += 1
        return action


def seated(kinds: Sequence[str], seed: int, tally: Counter[str]) -> list[Player]:
    return [Checked(make_player(kind, seed=seed * 100 + s), s, tally)
            for s, kind in enumerate(kinds)]


def start_levels(rules: Rules, rng: Random) -> tuple[int, ...]:
    """Levels 2..A: shared by partners with fixed partnerships, one per player if fluid."""
    n = rules.players
    if rules.partnership == Partnership.FIXED:
        team = (rng.randint(2, 14), rng.randint(2, 14))
        return tuple(team[s % 2] for s in range(n))
    return tuple(rng.randint(2, 14) for _ in range(n))


def finished(rnd: Round) -> None:
    """A round that ended properly: scored, and every card played unless it was redealt or
    lost by a failed throw."""
    assert rnd.phase == Phase.DONE
    result = rnd.result
    assert result is not None
    if result.redeal or result.lost_by is not None:
        return
    assert all(not hand for hand in rnd.hands)
    total = 100 * rnd.rules.decks
    assert result.trick_points + result.declarer_points + result.kitty_points == total
    assert sum(sum(c.points for p in t.plays for c in p.cards) for t in rnd.tricks) == (
        result.trick_points + result.declarer_points)


ROUNDS = 6


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_every_player_finishes_rounds_of_every_preset(table: tuple[str, int | None],
                                                      kind: str) -> None:
    rules = rules_of(*table)
    rng = Random(f"{table}-{kind}")
    tally: Counter[str] = Counter()
    actions: Counter[str] = Counter()
    for seed in range(ROUNDS):
        dealer = None if seed == 0 else rng.randrange(rules.players)
        rnd = Round(rules, seed=rng.getrandbits(32), dealer=dealer,
                    levels=start_levels(rules, rng))
        finished(play_round(rnd, seated([kind] * rules.players, seed, tally)))
        actions.update(type(a).__name__ for a in rnd.history)
    assert actions["Draw"] == ROUNDS * rules.players * rules.hand_size  # whole deals
    assert tally["Play"] == actions["Play"] >= ROUNDS * rules.players  # every play asked
    assert tally["Bury"] == actions["Bury"] > 0


@pytest.mark.slow
@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_mixed_tables_finish_rounds(table: tuple[str, int | None]) -> None:
    """The three kinds at one table, in every rotation."""
    rules = rules_of(*table)
    tally: Counter[str] = Counter()
    for shift in range(len(KINDS)):
        kinds = [KINDS[(s + shift) % len(KINDS)] for s in range(rules.players)]
        rnd = Round(rules, seed=1_000 + shift, dealer=shift % rules.players)
        finished(play_round(rnd, seated(kinds, shift, tally)))
    assert tally["Play"] >= 3 * rules.players


VARIANTS: dict[str, dict[str, object]] = {
    "kitty-overbid": {"kitty_overbid": True, "kitty_overbid_takes_dealer": True},
    "no-points-in-kitty": {"kitty_points_allowed": False},
    "no-throws": {"throws": False},
    "throw-penalty": {"failed_throw": "lose-round", "throw_check": "opponents"},
    "withdraw": {"bid_withdraw": True, "bid_switch_suit": True},
    "red-fives": {"red_fives": 2, "red_five_penalty": 10},
    "no-bid-redeal": {"no_bid": "redeal"},
}


@pytest.mark.slow
@pytest.mark.parametrize("options", list(VARIANTS.values()), ids=list(VARIANTS))
def test_rule_variants_finish(options: dict[str, object]) -> None:
    """A few options the presets leave off, at a mixed table of the three kinds."""
    rules = preset("tractor", **options)
    tally: Counter[str] = Counter()
    for seed in range(3):
        kinds = [KINDS[(s + seed) % len(KINDS)] for s in range(rules.players)]
        finished(play_round(Round(rules, seed=seed, dealer=seed), seated(kinds, seed, tally)))
    assert tally["Play"] > 0


def test_colour_rank_friend_calls_finish() -> None:
    rules = preset("finding-friends", players=7, friend_calls="colour-rank",
                   friend_trump_calls=True, fluid_bidders="not-lost",
                   smaller_team_bonus=True)
    tally: Counter[str] = Counter()
    kinds = [KINDS[s % len(KINDS)] for s in range(rules.players)]
    match = play_match(rules, seated(kinds, 4, tally), seed=4, max_rounds=4)
    assert tally["Call"] >= len([r for r in match.results if not r.redeal]) > 0


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_matches_of_several_rounds(table: tuple[str, int | None]) -> None:
    """Matches (levels carried over, the dealer rotating, redeals) with ``max_rounds``."""
    rules = rules_of(*table)
    tally: Counter[str] = Counter()
    kinds = [KINDS[s % len(KINDS)] for s in range(rules.players)]
    match = play_match(rules, seated(kinds, 7, tally), seed=7, max_rounds=3)
    assert match.is_over
    assert len(match.results) == 3 or match.winners
    assert all(r.levels_before == prev.levels for prev, r in zip(
        match.results, match.results[1:], strict=False))
    assert 0 < sum(tally.values()) <= len(match.history)  # forced draws are not asked


@pytest.mark.parametrize("name", ["tractor", "da-bai-fen"])
def test_heuristic_wins_a_whole_match_against_random(name: str) -> None:
    """A match played to its end: the heuristic side (seats 0 and 2) passes the ace first."""
    rules = preset(name)
    tally: Counter[str] = Counter()
    match = play_match(rules, seated(["heuristic", "random"] * 2, 3, tally), seed=3)
    assert match.winners == (0, 2)
    assert match.results[-1].match_won_by
    assert len(match.history) >= sum(tally.values()) > 500


def test_players_reject_a_wrong_table_size() -> None:
    players = [make_player("random") for _ in range(3)]
    with pytest.raises(ValueError, match="4 players are needed, got 3"):
        play_round(Round(Rules(), seed=0), players)
    with pytest.raises(ValueError, match="4 players are needed, got 3"):
        play_match(Rules(), players, seed=0)


def test_make_player_names() -> None:
    assert [repr(make_player(k, seed=1)) for k in KINDS] == [
        "RandomPlayer()", "HeuristicPlayer(remember=True)", "HeuristicPlayer(remember=False)",
        "LearnedPlayer()"]
    with pytest.raises(ValueError, match="unknown player 'smart'; choose from random"):
        make_player("smart")


def test_odd_arguments_are_refused_saying_what_is_allowed() -> None:
    for think in (math.nan, math.inf, 61, -1, 0.05):
        with pytest.raises(ValueError, match=r"s is out of range: 0\.1 to 60 seconds"):
            make_player("search", think=think)
    for think in ("2", True, None):
        with pytest.raises(ValueError, match="a thinking time is a number of seconds"):
            think_worlds(think)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="out of range"):
        make_player("heuristic", think=100)  # checked whatever the kind
    with pytest.raises(ValueError, match="unknown player 'bogus'"):
        make_player("bogus", think=math.nan)  # the kind first
    for kind in ("random", "heuristic", "learned", "search"):
        for seed in ("abc", [1], math.nan, 1.0):
            with pytest.raises(ValueError, match="a player's seed is a whole number or None"):
                make_player(kind, seed)  # type: ignore[arg-type]
    # (the compiled build's own check of a compiled class's arguments is a TypeError)
    with pytest.raises((ValueError, TypeError), match="PlayModel"):
        LearnedPlayer(1, model="tractor")  # type: ignore[arg-type]
    with pytest.raises((ValueError, TypeError), match=r"grab must be True or False|bool"):
        LearnedPlayer(1, grab="no")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown player 'bogus'"):
        player_label("bogus")
    with pytest.raises(ValueError, match="out of range"):
        player_label("search", -5)
    with pytest.raises(ValueError, match="rules must be a Rules value"):
        model_note("learned", "tractor")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown player 'bogus'"):
        model_note("bogus", Rules())


def test_players_are_reproducible() -> None:
    """The same seeds give the same round, action for action."""
    def history() -> list[Action]:
        rnd = Round(preset("finding-friends", players=5), seed=11)
        kinds = ["heuristic", "random", "heuristic-nomem", "heuristic", "random"]
        players = [make_player(k, seed=s) for s, k in enumerate(kinds)]
        return play_round(rnd, players).history
    assert history() == history()


class FewestCardsPlayer:
    """The example of ``players/base.py``: a player written in a few lines. It looks at
    the first 50 legal actions only, since burying alone can have millions."""

    def act(self, view: SeatView, legal: Legal) -> Action:
        return min(islice(legal, 50), key=lambda a: len(getattr(a, "cards", ())))


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_a_user_written_player_plays_a_round(table: tuple[str, int | None]) -> None:
    rules = rules_of(*table)
    players: list[Player] = [FewestCardsPlayer() if s % 2 else make_player("heuristic", s)
                             for s in range(rules.players)]
    assert all(isinstance(p, Player) for p in players)
    finished(play_round(Round(rules, seed=5, dealer=0), players))


def test_a_match_with_user_written_players() -> None:
    match = play_match(Rules(), [FewestCardsPlayer() for _ in range(4)], seed=2,
                       max_rounds=2)
    assert isinstance(match, Match) and len(match.results) == 2
