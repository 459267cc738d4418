"""The search player in ``shengji play``: the default opponents, ``--players heuristic``, and
``--hints search`` (the ``?`` suggestion made by the search player)."""

from __future__ import annotations

import argparse
import io
from pathlib import Path

import pytest
from rich.console import Console

from shengji.game.actions import Play
from shengji.game.match import Match
from shengji.game.phase import Phase
from shengji.game.presets import preset
from shengji.players import (
    HeuristicPlayer,
    SearchPlayer,
    make_player,
    player_label,
    think_worlds,
)
from shengji.players.search import MAX_WORLDS
from shengji.players.table import decide
from shengji.terminal.app import (
    DEFAULT_PLAYER,
    _new_game,
    add_play_arguments,
    model_notes,
    play_main,
)
from shengji.terminal.prompt import Prompter
from shengji.terminal.session import Session


def _args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_play_arguments(parser)
    return parser.parse_args(list(argv))


def test_the_default_opponents_are_search_players() -> None:
    assert DEFAULT_PLAYER == "search"
    problems: list[str] = []
    game = _new_game(_args("--seed", "3"), problems)
    assert not problems and game is not None
    assert game.kinds == ["human", "search", "search", "search"]
    quick = _new_game(_args("--seed", "3", "--players", "heuristic", "--seat", "1"), problems)
    assert not problems and quick is not None
    assert quick.kinds == ["heuristic", "human", "heuristic", "heuristic"]


def test_an_unknown_hint_player_is_refused_before_anything(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]
                                                             ) -> None:
    record = tmp_path / "game.toml"
    code = play_main(_args("--hints", "oracle", "--record", str(record)))
    assert code == 2 and not record.exists()
    assert "--hints: unknown player 'oracle'; choose from random, " in capsys.readouterr().err


def test_a_hint_time_for_a_player_that_does_not_think_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "game.toml"
    code = play_main(_args("--hints", "heuristic", "--hint-time", "5", "--record", str(record)))
    assert code == 2 and not record.exists()
    err = capsys.readouterr().err
    assert "--hint-time is for the players that think (search): --hints heuristic suggests " \
        "at once" in err and err.count("\n") == 1


def test_suggestions_without_a_model_for_the_table_say_so() -> None:
    """Six players of two decks have no learned model: the suggestions' player says so when
    the game starts, as the seats' players do (once for a kind both use)."""
    rules = preset("tractor", players=6)
    note = "no learned model fits these rules (6 players, 2 decks): learned plays as the " \
           "heuristic."
    assert model_notes(["human", *["heuristic"] * 5], "learned", rules) == [
        f"Note (suggestions): {note}"]
    assert model_notes(["human", *["learned"] * 5], "learned", rules) == [f"Note: {note}"]
    assert model_notes(["human", *["heuristic"] * 5], "heuristic", rules) == []
    assert model_notes(["human", *["learned"] * 3], "search", preset("tractor")) == []


def test_the_hint_players_thinking_time_is_bounded(capsys: pytest.CaptureFixture[str]) -> None:
    assert _args("--hints", "search", "--hint-time", "2.5").hint_time == 2.5
    for bad in ("0", "61", "nan", "soon"):
        with pytest.raises(SystemExit) as stop:
            _args("--hint-time", bad)
        assert stop.value.code == 2
        err = capsys.readouterr().err
        assert "--hint-time" in err and "0.1 to 60 seconds" in err, err
    player = make_player("search", think=2.5)
    assert isinstance(player, SearchPlayer) and player.time_budget == 2.5
    # more time, more deals (as many a second as the default's): 60 s is not 2 s again
    assert (player.max_worlds, think_worlds(60), think_worlds(0.1)) == (80, 1920, MAX_WORLDS)
    assert repr(make_player("heuristic", think=2.5)) == "HeuristicPlayer(remember=True)"
    with pytest.raises(ValueError, match=r"a thinking time of 0\.01 s is out of range: 0\.1 to 60"):
        make_player("search", think=0.01)
    assert player_label("search", 2.5) == "search player (up to 2.5 s)"
    assert player_label("search") == "search player (up to 1 s)"


def test_the_hint_is_the_search_players_choice(tmp_path: Path) -> None:
    """At a follow the ``?`` suggestion names the search player's play, and typing it plays
    it."""
    match = Match(preset("tractor"), seed=4)
    bots = [HeuristicPlayer(match.seed + s) for s in range(4)]
    while True:  # to a follow of seat 0 that the search player searches
        seat = match.to_move
        assert seat is not None
        trick = match.round.trick
        if seat == 0 and match.round.phase == Phase.PLAY and trick is not None and trick.plays:
            probe = SearchPlayer(match.seed, iterations=3)
            expected = probe.act(match.view(0), match.legal(0))
            if probe.last is not None:
                break
        match.apply(decide(match, seat, bots[seat]))
    assert isinstance(expected, Play)
    hinter = SearchPlayer(match.seed, iterations=3)
    out = io.StringIO()
    typed = iter(["?", " ".join(str(c) for c in expected.cards)])

    def read(prompt: str) -> str:
        answer = next(typed, None)
        if answer is None:
            raise EOFError
        out.write(prompt + answer + "\n")
        return answer

    others = [make_player("heuristic", seed=s) for s in (1, 2, 3)]
    session = Session(match, me=0, players=[None, *others],
                      names=["You", "Seat 1", "Seat 2", "Seat 3"],
                      kinds=["human", "heuristic", "heuristic", "heuristic"],
                      record=tmp_path / "game.toml",
                      console=Console(file=out, width=80, color_system=None, highlight=False),
                      prompter=Prompter(read, completion=False), unicode=False,
                      hinter=hinter, hint_by="search player (up to 3 worlds)")
    action = session._decide()
    assert action == expected
    assert hinter.last is not None and hinter.last.worlds == 3
    assert "Suggestion (search player (up to 3 worlds)): " in out.getvalue()


@pytest.mark.parametrize(("players", "said"), [
    ("", "--players needs player names; choose from random, "),
    (" , ", "--players needs player names"),
    ("search,,random", "--players search,,random: a name is missing between commas"),
    ("heuristic,random,learned,search", "--players names 4 players for 3 computer seats: "
                                        "name at most 3"),
    ("genius", "--players: unknown player 'genius'; choose from random, "),
])
def test_the_computer_players_named_are_checked_before_anything(
        players: str, said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """As in ``shengji simulate``: an empty list is not the default, and no name is dropped."""
    record = tmp_path / "game.toml"
    assert play_main(_args("--players", players, "--record", str(record))) == 2
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1 and not record.exists(), err


def test_a_table_without_its_model_names_its_partnership() -> None:
    notes = model_notes(["human", *["learned"] * 3], "heuristic",
                        preset("finding-friends", players=4))
    assert notes == ["Note: no learned model fits these rules (4 players, 2 decks, partners "
                     "found in play): learned plays as the heuristic."]


def test_a_command_word_with_more_after_it_is_not_read_as_cards(tmp_path: Path) -> None:
    match = Match(preset("tractor"), seed=4)
    bots = [HeuristicPlayer(match.seed + s) for s in range(4)]
    while not (match.to_move == 0 and match.round.phase == Phase.PLAY):
        seat = match.to_move
        assert seat is not None
        match.apply(decide(match, seat, bots[seat]))
    expected = bots[0].act(match.view(0), match.legal(0))
    assert isinstance(expected, Play)
    typed = iter(["? x", "help foo", "review", "last 2",
                  " ".join(str(c) for c in expected.cards)])
    out = io.StringIO()

    def read(prompt: str) -> str:
        answer = next(typed, None)
        if answer is None:
            raise EOFError
        return answer

    session = Session(match, me=0, players=[None, *bots[1:]],
                      names=["You", "Seat 1", "Seat 2", "Seat 3"],
                      kinds=["human", "heuristic", "heuristic", "heuristic"],
                      record=tmp_path / "game.toml",
                      console=Console(file=out, width=200, color_system=None, highlight=False),
                      prompter=Prompter(read, completion=False), unicode=False)
    assert session._decide() == expected
    text = out.getvalue()
    assert "? takes nothing after it: type ? alone" in text
    assert "help takes nothing after it: type help alone (or help rules)" in text
    assert "review is offered at the score sheet, after a round" in text
    assert "last takes nothing after it" in text and "cannot read card" not in text
