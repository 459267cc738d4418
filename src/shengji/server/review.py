""""Review this round": the analysis of a seat's decisions in the match's last finished
round (:func:`shengji.analysis.analyze`, judged from what the seat knew), asked for by that
seat's member only and sent to the connection that asked.

It is worked out in a thread of its own (one review at a time per server, so that reviews
never hold up the computer seats or the suggestions), on a record of the match taken under
the room's lock; the worlds are sampled with a fresh random seed (not the deal's). A finished
review is kept for the room until the next round finishes: asking again answers at once, and
members asking at the same time share one piece of work. During a round nothing is
analysed: a review is started only between rounds (once the next round has begun, only a
review already made or being made is answered), of the last finished round.
"""

from __future__ import annotations

import asyncio
import secrets
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

from shengji.analysis import REVIEW_BUDGET, analyze
from shengji.game.record import Record
from shengji.server.members import Member, Refusal
from shengji.server.state import RoomState

REVIEWS = ThreadPoolExecutor(max_workers=1, thread_name_prefix="review")
"""The thread reviews are worked out in (one at a time: the others queue)."""

REVIEW_LIMIT = 120.0
"""Seconds a review may take, its wait in the queue included, before the member is told."""

Key = tuple[int, int, int]
"""A review: the room's match number, the round (from 1) and the seat."""


def review_message(record: Record, seat: int, number: int, seed: int,
                   skip: frozenset[int] = frozenset()) -> dict[str, Any]:
    """The ``review`` message: ``seat``'s decisions in round ``number`` of the recorded match,
    judged from what the seat knew (:data:`~shengji.analysis.REVIEW_BUDGET` sampled deals
    per decision, from ``seed``), but those at the positions ``skip`` (a stand-in's), as
    :meth:`~shengji.analysis.Analysis.to_dict` writes it."""
    analysis = analyze(record, seat, budget=REVIEW_BUDGET, seed=seed, rounds=[number],
                       skip=skip)
    return {"type": "review", "round": number, "seat": seat, "analysis": analysis.to_dict()}


class Reviews:
    """A room's reviews: those finished (for the last finished round) and those being made."""

    def __init__(self) -> None:
        self._done: dict[Key, dict[str, Any]] = {}
        self._making: dict[Key, asyncio.Future[dict[str, Any]]] = {}

    def ask(self, state: RoomState, member: Member) -> dict[str, Any] | asyncio.Future[
            dict[str, Any]]:
        """The review of ``member``'s seat in the last finished round: the message when it
        is made, else the work that makes it (started if need be). Called under the room's
        lock; refused for a member without a seat, before any round has finished and, unless
        it is made or being made, once the next round has begun."""
        seat = state.seat_of(member)
        if seat is None:
            raise Refusal("not-seated", "only a seated player may review their own decisions")
        match = state.match
        if match is None or not match.results:
            raise Refusal("no-review", "no round has finished yet: nothing to review")
        number = len(match.results)
        key = (state.row.match_no, number, seat)
        done = self._done.get(key)
        if done is not None:
            return done
        making = self._making.get(key)
        if making is None and not (state.between_rounds or match.is_over):
            raise Refusal("round-in-play", "the next round has begun: a round is reviewed "
                                           "at its score sheet, between rounds")
        if making is None:
            work = partial(review_message, Record.of(match), seat, number, secrets.randbits(32),
                           frozenset(state.stood_in))
            making = asyncio.get_running_loop().run_in_executor(REVIEWS, work)
            self._making[key] = making
            making.add_done_callback(partial(self._finished, key))
        return making

    def _finished(self, key: Key, making: asyncio.Future[dict[str, Any]]) -> None:
        del self._making[key]
        if making.cancelled() or making.exception() is not None:
            return
        self._done[key] = making.result()
        latest = max(k[:2] for k in self._done)
        for old in [k for k in self._done if k[:2] != latest]:
            del self._done[old]  # an earlier round's: no longer asked for
