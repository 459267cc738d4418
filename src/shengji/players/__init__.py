"""Computer players: the :class:`Player` protocol, random, heuristic, learned and search
players.

Players are chosen by name in the command line (``--players heuristic,random``):

>>> make_player("heuristic", seed=1), make_player("random"), make_player("heuristic-nomem")
(HeuristicPlayer(remember=True), RandomPlayer(), HeuristicPlayer(remember=False))

Learned models exist for some tables only; :func:`model_note` says where none fits:

>>> from shengji.game.presets import preset
>>> model_note("search", preset("tractor")) is None
True
>>> print(model_note("learned", preset("tractor", players=6)))
no learned model fits these rules (6 players, 2 decks): learned plays as the heuristic
>>> model_note("learned", preset("finding-friends", players=4)).split(":")[0]
'no learned model fits these rules (4 players, 2 decks, partners found in play)'
"""

from __future__ import annotations

from shengji.engine.choices import Partnership
from shengji.engine.rules import Rules
from shengji.players.base import Player, check_number, checked_seed
from shengji.players.heuristic import HeuristicPlayer
from shengji.players.learned import LearnedPlayer, model_name
from shengji.players.random_player import RandomPlayer
from shengji.players.search import (
    ENDGAME,
    LEARNED_ENDGAME,
    MAX_WORLDS,
    TIME_BUDGET,
    SearchPlayer,
)
from shengji.players.table import play_match, play_round

PLAYER_KINDS = {
    "random": "a uniformly random legal action",
    "heuristic": "rule-based play with card memory",
    "heuristic-nomem": "the heuristic player without card memory (a baseline)",
    "learned": ("the heuristic with leads, follows and the kitty chosen by a learned model, "
                "bidding at once for the first round's dealership (quick)"),
    "search": (f"the learned player with determinized Monte-Carlo search (up to {MAX_WORLDS} "
               f"sampled deals or {TIME_BUDGET:g} s per decision): in its last "
               f"{LEARNED_ENDGAME} cards where a model fits ({ENDGAME} where the partners "
               "are found in play), else in every decision"),
}

THINKING_KINDS = frozenset({"search"})
"""The kinds that take the time they are given to decide (``make_player``'s ``think``); the
others decide at once."""

THINK_LIMITS = (0.1, 60.0)
"""The least and the most seconds a thinking player may be given per decision."""


def think_worlds(think: float) -> int:
    """The most sampled deals of a search player given ``think`` seconds a decision: the
    default's :data:`~shengji.players.search.MAX_WORLDS` in its
    :data:`~shengji.players.search.TIME_BUDGET`, as many more for each second beyond (more
    time, a surer choice where the candidates stay close; racing stops the rest early).

    >>> think_worlds(0.5), think_worlds(1), think_worlds(5)
    (32, 32, 160)
    """
    check_think(think)
    return max(MAX_WORLDS, round(MAX_WORLDS * think / TIME_BUDGET))


def check_kind(kind: object) -> None:
    """A ``ValueError`` unless ``kind`` is one of :data:`PLAYER_KINDS`."""
    if kind not in PLAYER_KINDS:
        raise ValueError(f"unknown player {kind!r}; choose from {', '.join(PLAYER_KINDS)}")


def check_think(think: object) -> None:
    """A ``ValueError`` unless ``think`` is a thinking time within :data:`THINK_LIMITS`."""
    low, high = THINK_LIMITS
    if type(think) not in (int, float):
        raise ValueError(f"a thinking time is a number of seconds, got {think!r}")
    assert isinstance(think, int | float)
    if not low <= think <= high:
        raise ValueError(f"a thinking time of {think!r} s is out of range: {low:g} to "
                         f"{high:g} seconds")


def model_note(kind: str, rules: Rules) -> str | None:
    """Where ``kind`` would use a learned model and none fits ``rules``, what it does
    instead (one line, for wherever the player is chosen); else ``None``."""
    check_kind(kind)
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a Rules value, got {rules!r}")
    if kind not in ("learned", "search") or model_name(rules) is not None:
        return None
    table = (f"{rules.players} players, {rules.decks} deck{'s' if rules.decks != 1 else ''}"
             + (", partners found in play" if rules.partnership == Partnership.FLUID else ""))
    instead = ("plays as the heuristic" if kind == "learned"
               else "searches every decision on the heuristic")
    return f"no learned model fits these rules ({table}): {kind} {instead}"


def player_label(kind: str, think: float | None = None) -> str:
    """Who decides, in words, with the time a thinking kind takes (``make_player``'s
    ``think``).

    >>> player_label("search", 2.5), player_label("heuristic", 2.5)
    ('search player (up to 2.5 s)', 'heuristic player')
    """
    check_kind(kind)
    if think is not None:
        check_think(think)
    if kind in THINKING_KINDS:
        return f"{kind} player (up to {TIME_BUDGET if think is None else think:g} s)"
    return f"{kind} player"


def make_player(kind: str, seed: int | None = None, *, think: float | None = None,
                worlds: int | None = None) -> Player:
    """A player by name (see :data:`PLAYER_KINDS`). ``think``: the seconds a player of
    :data:`THINKING_KINDS` may think per decision (within :data:`THINK_LIMITS`; default
    :data:`~shengji.players.search.TIME_BUDGET`), sampling up to :func:`think_worlds` deals;
    ``worlds`` instead: the deals it samples for each decision, however long they take, so
    that its play depends on the seed alone, never on the machine's speed or load (the
    simulator's). The other kinds decide at once (``think`` and ``worlds`` given are checked
    all the same).

    >>> searching = make_player("search", think=2.5)
    >>> searching.time_budget, searching.max_worlds
    (2.5, 80)
    >>> make_player("search", worlds=32).iterations
    32
    """
    check_kind(kind)
    if think is not None:
        check_think(think)
    if worlds is not None:
        if think is not None:
            raise ValueError("give a thinking time or a number of worlds, not both")
        check_number("worlds", worlds, 1, whole=True)
    checked_seed(seed)  # (here: the compiled players' own check is a TypeError)
    if kind == "random":
        return RandomPlayer(seed)
    if kind == "heuristic":
        return HeuristicPlayer(seed)
    if kind == "heuristic-nomem":
        return HeuristicPlayer(seed, remember=False)
    if kind == "learned":
        return LearnedPlayer(seed)
    if kind == "search":
        if worlds is not None:
            return SearchPlayer(seed, iterations=worlds)
        return SearchPlayer(seed) if think is None else SearchPlayer(
            seed, time_budget=think, max_worlds=think_worlds(think))
    raise AssertionError(kind)  # (every kind of PLAYER_KINDS is made above)


__all__ = [
    "PLAYER_KINDS",
    "THINKING_KINDS",
    "THINK_LIMITS",
    "HeuristicPlayer",
    "LearnedPlayer",
    "Player",
    "RandomPlayer",
    "SearchPlayer",
    "make_player",
    "model_note",
    "play_match",
    "play_round",
    "player_label",
    "think_worlds",
]
