"""Positions to train a play model on (:mod:`shengji.players.learned`).

Rounds are played, and at each lead and follow of the *learning* seats every labelled
option (:mod:`shengji.players.options`) and the heuristic's choice are played in the
real deal (at the kitty: every bury of ``bury_options`` and the heuristic's), each round
then finished by the same players; an option's *gain* is its
:func:`~shengji.players.search.round_value` for the seat less that of the heuristic's
choice. A :class:`Sample` holds the decision's rows (:mod:`shengji.players.features`)
and gains: a model learns the gain from the row.

With no model, every seat is a heuristic player and every seat learns. With a model
(the next step of policy iteration), the learning seats (one side, alternating from
round to round) play it and the others the heuristic, in the rounds and in every
finishing of them: the new model learns what each option is worth with the old one
playing on after it, beside its partners and against heuristic opponents. Everything is
reproducible from the seed and the round numbers.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Iterable, Iterator
from typing import Final

from shengji.engine.cards import Card
from shengji.engine.rules import Partnership, Rules
from shengji.game.actions import Bury, Play, made_play
from shengji.game.phase import Phase
from shengji.game.round import Round
from shengji.players.features import FEATURES, bury_rows, option_rows
from shengji.players.heuristic import HeuristicPlayer
from shengji.players.learned import LearnedPlayer, PlayModel
from shengji.players.memory import Memory
from shengji.players.options import bury_choices, play_key
from shengji.players.search import round_value
from shengji.players.table import decide


class Sample:
    """One decision: its kind (one of :data:`KINDS`), a row per option and each option's
    gain over the heuristic's choice (a bury's rows start with the heuristic's, gain 0)."""

    def __init__(self, kind: str, rows: list[list[float]], gains: list[float]) -> None:
        self.kind = kind
        self.rows = rows
        self.gains = gains


def round_seed(seed: int, number: int) -> int:
    """The deal of round ``number`` of a run seeded ``seed``."""
    return (seed * 1_000_003 + number * 7_919 + 17) % (2**48)


KINDS: Final = tuple(FEATURES)
"""The kinds of decision a sample may be: ``lead``, ``follow`` and ``bury``."""


def collect(rules: Rules, seed: int, rounds: Iterable[int], model: PlayModel | None = None,
            kinds: Collection[str] = KINDS) -> Iterator[Sample]:
    """The samples of the given rounds (see the module docstring), of the given ``kinds``
    of decision only (the others are played, not valued)."""
    unknown = set(kinds) - set(KINDS)
    if unknown:
        raise ValueError(f"no kind of decision {sorted(unknown)}; the kinds are "
                         f"{', '.join(KINDS)}")
    for number in rounds:
        yield from _round(rules, round_seed(seed, number), number % 2, model, kinds)


Chunk = tuple[Rules, int, str, tuple[str, ...], int, int]
"""Rounds to collect on a worker: the rules, the run's seed, the model file the learning
seats play (``""``: none), the kinds of decision valued, the first round and the round
after the last."""


def collect_chunk(chunk: Chunk) -> list[tuple[str, list[list[float]], list[float]]]:
    """:func:`collect` of a :data:`Chunk` of rounds, each sample as (kind, rows, gains):
    the job of a worker process or a Ray task (the model file is read where it runs, once
    per process while it stays the same file)."""
    rules, seed, path, kinds, first, end = chunk
    model = _model(path) if path else None
    return [(s.kind, s.rows, s.gains)
            for s in collect(rules, seed, range(first, end), model, kinds)]


_LOADED: Final[dict[tuple[str, int, int], PlayModel]] = {}


def _model(path: str) -> PlayModel:
    """The model in file ``path``, read again only if the file changed (its size or time)."""
    found = os.stat(path)
    key = (path, found.st_size, found.st_mtime_ns)
    model = _LOADED.get(key)
    if model is None:
        _LOADED.clear()
        model = _LOADED[key] = PlayModel.load(path)
    return model


def _learning(rules: Rules, seat: int, side: int, model: PlayModel | None) -> bool:
    """True if ``seat`` learns (and plays ``model``) in a round whose learning side is
    ``side``: every seat without a model or in rules without fixed partnerships."""
    return model is None or rules.partnership != Partnership.FIXED or seat % 2 == side


def _players(rules: Rules, seed: int, side: int, model: PlayModel | None
             ) -> list[HeuristicPlayer]:
    # (bidding as the heuristic, as the shipped model's rounds were played)
    return [LearnedPlayer(seed + s, model=model, grab=False) if model is not None
            and _learning(rules, s, side, model) else HeuristicPlayer(seed + s)
            for s in range(rules.players)]


def _round(rules: Rules, seed: int, side: int, model: PlayModel | None,
           kinds: Collection[str]) -> Iterator[Sample]:
    rnd = Round(rules, seed=seed, track_undo=False)
    players = _players(rules, seed, side, model)
    baseline = [HeuristicPlayer(seed + s) for s in range(rules.players)]
    while rnd.phase != Phase.DONE:
        seat = rnd.to_move
        assert seat is not None
        sample: Sample | None = None
        if _learning(rules, seat, side, model):
            if rnd.phase == Phase.PLAY and ("lead" if _leading(rnd) else "follow") in kinds:
                sample = _sample(rnd, seat, baseline[seat], seed, side, model)
            elif rnd.phase == Phase.KITTY and "bury" in kinds:
                sample = _bury_sample(rnd, seat, baseline[seat], seed, side, model)
        if sample is not None:
            yield sample
        rnd.apply(decide(rnd, seat, players[seat]))


def _leading(rnd: Round) -> bool:
    return rnd.trick is not None and not rnd.trick.plays


def _sample(rnd: Round, seat: int, heuristic: HeuristicPlayer, seed: int, side: int,
            model: PlayModel | None) -> Sample | None:
    view = rnd.view(seat)
    if len(view.hand) <= 1:
        return None
    legal = rnd.legal(seat)
    default = heuristic.act(view, legal)
    assert isinstance(default, Play)
    plays = legal.plays
    assert plays is not None
    kind, rows = option_rows(view, plays, Memory(view), default.cards)
    values: dict[tuple[Card, ...], float] = {}
    base = play_key(default.cards)
    for cards in [default.cards, *rows.options]:
        key = play_key(cards)
        if key not in values:
            values[key] = _finish(rnd, made_play(seat, cards), seat, seed, side, model)
    if len(values) < 2:
        return None
    return Sample(kind, rows.rows, [values[play_key(c)] - values[base] for c in rows.options])


def _bury_sample(rnd: Round, seat: int, heuristic: HeuristicPlayer, seed: int, side: int,
                 model: PlayModel | None) -> Sample | None:
    """The buries of ``bury_choices`` (the heuristic's first), each with its gain over
    the heuristic's (0 for it)."""
    view = rnd.view(seat)
    legal = rnd.legal(seat)
    default = heuristic.act(view, legal)
    if not isinstance(default, Bury):
        return None
    options = bury_choices(view, legal, default.cards)
    if len(options) < 2:
        return None
    values = [_finish(rnd, Bury(seat, cards), seat, seed, side, model) for cards in options]
    return Sample("bury", bury_rows(view, options), [v - values[0] for v in values])


def _finish(rnd: Round, play: Play | Bury, seat: int, seed: int, side: int,
            model: PlayModel | None) -> float:
    """``play`` made in a copy of ``rnd``, the round finished by fresh players."""
    world = rnd.copy()
    world.apply(play)
    players = _players(rnd.rules, seed * 31 + len(rnd.history), side, model)
    while world.phase != Phase.DONE:
        mover = world.to_move
        assert mover is not None
        world.apply(decide(world, mover, players[mover]))
    return round_value(world, seat)


__all__ = ["KINDS", "Chunk", "Sample", "collect", "collect_chunk", "round_seed"]
