"""The Hundred's exposing in ``shengji play``: its own ``expose>`` prompt, cards or their
numbers or ``none``, the ``?`` suggestion written as it is typed, and every exposure (and
the trump named) said as it happens and in a replay."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console

from shengji.game.actions import Declare, Expose
from shengji.game.match import Match
from shengji.game.phase import Phase
from shengji.game.presets import preset
from shengji.game.record import read_record, write_record
from shengji.players import make_player
from shengji.terminal.replay import replay_file
from test_terminal import _flat, _scripted, _until


def _exposing(seed: int = 1) -> tuple[Match, int]:
    match = Match(preset("hundred"), seed=seed)
    _until(match, lambda m: m.round.phase == Phase.EXPOSE)
    seat = match.to_move
    assert seat is not None
    return match, seat


def test_expose_has_its_prompt_and_takes_cards_or_none(tmp_path: Path) -> None:
    match, seat = _exposing()
    hand = match.view(seat).hand
    card = next(c for c in hand if not c.is_joker)
    session, out = _scripted(match, seat, ["", "?", "9Z", f"expose {card}"], tmp_path,
                             unicode=False)
    assert session._decide() == Expose(seat, (card,))
    text = _flat(out.getvalue())
    limit = match.legal(seat).expose_limit
    assert "Before the dealer names the trump you may show up to" in text and str(limit) in text
    assert "expose> " in text and "action> " not in text
    assert "Suggestion (heuristic player): expose" in text and "(type " in text
    assert "cannot read" in text.lower() or "9z" in text.lower()  # a bad card, said so
    session, _ = _scripted(match, seat, ["none"], tmp_path)
    assert session._decide() == Expose(seat, ())


def test_every_exposure_is_announced_nothing_shown_said_so(tmp_path: Path) -> None:
    match, seat = _exposing()
    watcher = (seat + 1) % match.rules.players
    session, out = _scripted(match, watcher, [], tmp_path, unicode=False)
    session.delay = 0
    card = next(c for c in match.round.hands[seat] if not c.is_joker)
    session._announce(Expose(seat, ()), match.round, Phase.EXPOSE)
    session._announce(Expose(seat, (card,)), match.round, Phase.EXPOSE)
    text = out.getvalue()
    assert f"Seat {seat} exposes nothing." in text and f"Seat {seat} exposes {card}." in text


def test_a_replay_shows_the_exposures_and_the_trump_named(tmp_path: Path) -> None:
    """A simulator's record names the seats by their players' kinds: the replay tells the
    seats apart by number."""
    match = Match(preset("hundred"), seed=2)
    players = [make_player("heuristic", seed=s) for s in range(4)]
    while match.round.phase != Phase.PLAY:
        seat = match.to_move
        assert seat is not None
        match.apply(players[seat].act(match.view(seat), match.legal(seat)))
    record = read_record(write_record(match, names=["heuristic"] * 4))
    out = io.StringIO()
    replay_file(record, console=Console(file=out, width=80, color_system=None), step=False,
                unicode=False, source="sim.toml")
    text = out.getvalue()
    exposed = [a for a in match.round.history if isinstance(a, Expose)]
    declared = [a for a in match.round.history if isinstance(a, Declare)]
    assert len(exposed) == 4 and len(declared) == 1
    for action in exposed:
        shown = " ".join(str(c) for c in action.cards) if action.cards else "nothing"
        assert f"heuristic {action.seat}: expose {shown}" in text, text
    suit = declared[0].suit
    named = suit.name.lower() if suit is not None else "no trump suit"
    assert f"heuristic {declared[0].seat}: name the trump suit: {named}" in text
