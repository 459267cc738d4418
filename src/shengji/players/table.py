"""Seat players at a round or a match and let them play it out."""

from __future__ import annotations

from collections.abc import Sequence

from shengji.engine.rules import Rules
from shengji.game.match import Match
from shengji.game.round import Phase, Round
from shengji.players.base import Player


def play_round(rnd: Round, players: Sequence[Player]) -> Round:
    """Ask the seat to move for an action until the round is done; returns the round."""
    if len(players) != rnd.rules.players:
        raise ValueError(f"{rnd.rules.players} players are needed, got {len(players)}")
    while rnd.phase != Phase.DONE:
        seat = rnd.to_move
        assert seat is not None
        rnd.apply(players[seat].act(rnd.view(seat), rnd.legal(seat)))
    return rnd


def play_match(rules: Rules, players: Sequence[Player], *, seed: int,
               max_rounds: int | None = None) -> Match:
    """Play a whole match between ``players`` (one per seat)."""
    if len(players) != rules.players:
        raise ValueError(f"{rules.players} players are needed, got {len(players)}")
    match = Match(rules, seed=seed, max_rounds=max_rounds)
    while not match.is_over:
        seat = match.to_move
        assert seat is not None
        match.apply(players[seat].act(match.view(seat), match.legal(seat)))
    return match
