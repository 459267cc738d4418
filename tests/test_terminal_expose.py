"""The Hundred's exposing in ``shengji play``: its own ``expose>`` prompt, cards or their
numbers or ``none``, and the ``?`` suggestion written as it is typed."""

from __future__ import annotations

from pathlib import Path

from shengji.game.actions import Expose
from shengji.game.match import Match
from shengji.game.phase import Phase
from shengji.game.presets import preset
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
