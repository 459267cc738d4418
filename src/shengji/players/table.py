"""Seat players at a round or a match and let them play it out."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from shengji.engine.rules import Rules
from shengji.game.actions import Action
from shengji.game.legal import Legal
from shengji.game.match import Match
from shengji.game.phase import Phase
from shengji.game.round import Round
from shengji.players.base import Player
from shengji.players.heuristic import HeuristicPlayer

_DEAL: Final = Phase.DEAL
_PLAY: Final = Phase.PLAY
"""The phase as a module constant (an enum member access is a class lookup each time)."""


def only_action(legal: Legal) -> Action | None:
    """The legal action when there is exactly one (no decision to ask a player for)."""
    actions = iter(legal)
    first = next(actions, None)
    return first if next(actions, None) is None else None


def decide(game: Round | Match, seat: int, player: Player) -> Action:
    """The action of ``seat``: the only legal one, or the player's choice."""
    rnd = game if isinstance(game, Round) else game.round
    if rnd.phase is _DEAL:
        draw = rnd.only_draw(seat)  # most drawn cards: no legal set to build
        if draw is not None:
            return draw
        legal = game.legal(seat)
        if seat != rnd.drawer:  # (the drawer that may bid has a choice: draw or bid)
            forced = only_action(legal)
            if forced is not None:
                return forced
        return player.act(game.view(seat), legal)
    legal = game.legal(seat)
    if rnd.phase is _PLAY and isinstance(player, HeuristicPlayer):
        play = player.forced_play(legal)  # its play when it has no choice: no view built
        if play is not None:
            return play
    return player.act(game.view(seat), legal)


def play_round(rnd: Round, players: Sequence[Player]) -> Round:
    """Ask the seat to move for an action until the round is done; returns the round."""
    if len(players) != rnd.rules.players:
        raise ValueError(f"{rnd.rules.players} players are needed, got {len(players)}")
    while rnd.phase != Phase.DONE:
        seat = rnd.to_move
        assert seat is not None
        rnd.apply(decide(rnd, seat, players[seat]))
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
        match.apply(decide(match, seat, players[seat]))
    return match
