"""Computer players and the paced deal: the task each room runs to play them.

The driver applies the actions that need no decision (a person's card of the deal, a computer
player's only legal action) at the deal pace, and asks computer players for the others in a
thread with the room's lock released (a choice is applied only if the room did not change
meanwhile, and a player thinking longer than ``bot_time`` gets a random legal action).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from concurrent.futures import Executor
from dataclasses import dataclass

from shengji.game.actions import Action, Draw
from shengji.game.legal import ActionError, Legal
from shengji.game.match import Match
from shengji.game.phase import Phase
from shengji.game.view import SeatView
from shengji.players.base import Player
from shengji.players.table import only_action
from shengji.server.members import Refusal
from shengji.server.state import RoomState, log

_BATCH_LIMIT = 500
"""Automatic actions applied in one go when there is no pace to keep (then others get a turn)."""


@dataclass(frozen=True)
class Decision:
    """What a computer player needs to choose off the event loop: its seat's view and legal
    actions (self-contained: they hold no reference to the round), and the room's
    :attr:`RoomState.version` when they were taken."""

    match: Match
    version: int
    seat: int
    player: Player
    view: SeatView
    legal: Legal


class AutoPlay(RoomState):
    """A room's driver task: computer players and the paced deal."""

    def start_driver(self) -> None:
        """Start the task that plays computer players and paces the deal."""
        if self.driver is None:
            self.driver = asyncio.create_task(self._drive())
            self.wake.set()

    async def stop(self) -> None:
        """Stop the driver and the timers, and close every connection."""
        for task in list(self._timers):
            task.cancel()
        if self.driver is not None:
            self.driver.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.driver
            self.driver = None
        for conn in self.conns:
            conn.close()

    def _auto_delay(self) -> float | None:
        """The pause before the next automatic action, or ``None`` if people must act."""
        match = self.match
        if (match is None or match.is_over or self.waiting or not self.conns
                or self.row.status != "playing"):
            return None
        seat = match.to_move
        if seat is None:
            return None
        kind = self.row.seats[seat]["kind"]
        dealing = match.round.phase == Phase.DEAL
        if kind == "bot":
            return self.settings.deal_pace if dealing else self.settings.bot_delay
        return self.settings.deal_pace if dealing else None

    def _forced(self, seat: int) -> Action | None:
        """The action of ``seat`` when it needs no decision: a person's draw during the deal,
        or a computer player's only legal action of the deal (as :func:`decide` does)."""
        match = self.match
        assert match is not None
        if self.row.seats[seat]["kind"] != "bot":
            return Draw(seat)
        rnd = match.round
        if rnd.phase is not Phase.DEAL:
            return None
        draw = rnd.only_draw(seat)
        return draw if draw is not None else only_action(match.legal(seat))

    def _run_auto(self, paced: bool) -> bool | Decision:
        """Apply automatic actions that need no decision (one if ``paced``), log them and
        announce them. Returns the :class:`Decision` a computer player must make next (made
        off the event loop), True when done, False if an action failed (the room is then as
        its log says, and waits to be woken)."""
        applied: list[Action] = []
        decision: Decision | None = None
        try:
            while self._auto_delay() is not None and len(applied) < _BATCH_LIMIT:
                match = self.match
                assert match is not None and match.to_move is not None
                seat = match.to_move
                action = self._forced(seat)
                if action is None:
                    decision = Decision(match, self.version, seat, self.bots[seat],
                                        match.view(seat), match.legal(seat))
                    break
                self._apply(action)
                applied.append(action)
                if paced:
                    break
        except Exception:
            log.exception("room %s: automatic action failed", self.code)
            self._rebuild()
            self._broadcast_state()
            return False
        self._commit(applied)
        if applied:
            self._broadcast_state()
        return decision if decision is not None and not (paced and applied) else True

    def _start_thinking(self, decision: Decision, key: int | str,
                        pool: Executor | None = None) -> asyncio.Future[Action]:
        """Start the player's choice in a thread of ``pool`` (default: the event loop's),
        registered under ``key`` until it ends (whether or not anyone still waits for it: a
        thread cannot be stopped)."""
        future = asyncio.get_running_loop().run_in_executor(
            pool, decision.player.act, decision.view, decision.legal)
        self._thinking[key] = future
        future.add_done_callback(lambda _: self._thinking.pop(key, None))
        return future

    async def _think(self, decision: Decision) -> Action | None:
        """The computer player's choice, computed in a thread (the room's lock is not held);
        ``None`` if it failed or took longer than ``bot_time`` (one decision at a time per
        player: a player still thinking about an earlier one is not asked again)."""
        if self._thinking.get(id(decision.player)) is not None:
            return None
        future = self._start_thinking(decision, id(decision.player))
        try:
            return await asyncio.wait_for(asyncio.shield(future), self.settings.bot_time)
        except TimeoutError:
            log.warning("room %s: bot at seat %d took longer than %g s", self.code,
                        decision.seat, self.settings.bot_time)
        except Exception:
            log.exception("room %s: bot at seat %d failed", self.code, decision.seat)
        return None

    def _decided(self, decision: Decision, action: Action | None) -> bool:
        """Apply a computer player's choice (a random legal action if it had none or chose an
        illegal one) unless the room changed while it thought. False if it failed."""
        if (self.match is not decision.match or self.version != decision.version
                or self._auto_delay() is None or self.bots.get(decision.seat) is not
                decision.player):
            return True  # the room moved on: the driver looks again
        match, seat = decision.match, decision.seat
        legal = match.legal(seat)
        if action is not None and (action.seat != seat or legal.reason(action) is not None):
            log.warning("room %s: bot at seat %d chose %s, refused", self.code, seat, action)
            action = None
        if action is None:
            action = legal.random(secrets.SystemRandom())
        try:
            self._act(action)
        except (Refusal, ActionError):
            return False
        return True

    async def _drive(self) -> None:
        """Play computer players and draw for people at the deal pace, until cancelled."""
        while True:
            await self.wake.wait()
            self.wake.clear()
            while True:
                delay = self._auto_delay()
                if delay is None:
                    break
                if delay > 0:
                    await asyncio.sleep(delay)
                async with self.lock:
                    try:
                        ok = self._run_auto(paced=delay > 0)
                    except Refusal:  # the log could not be written
                        ok = False
                if isinstance(ok, Decision):
                    action = await self._think(ok)
                    async with self.lock:
                        ok = self._decided(ok, action)
                if not ok:
                    break
                await asyncio.sleep(0)
