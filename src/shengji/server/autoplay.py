"""Computer players: the task each room runs to play its computer seats and pace the deal,
and the suggestion player's choices.

:class:`AutoPlay` is given the room's :class:`~shengji.server.state.RoomState` and the room's
lock. Its driver applies the actions that need no decision (a person's card of the deal, a
computer player's only legal action) at the deal pace, and asks computer players for the others
in a thread with the room's lock released (a choice is applied only if the room did not change
meanwhile, and a player thinking longer than ``bot_time`` gets a random legal action). A
person's seat is played the same way while its person is away past the absent grace (the
stand-ins of :attr:`RoomState.auto_seats <shengji.server.state.RoomState.auto_seats>`), until
they return. Whatever changes the room calls :meth:`AutoPlay.wake` so the driver looks again.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass

from shengji.game.actions import Action, Draw
from shengji.game.legal import ActionError, Legal
from shengji.game.match import Match
from shengji.game.phase import Phase
from shengji.game.view import SeatView
from shengji.players.base import Player
from shengji.players.table import only_action
from shengji.server.members import Refusal
from shengji.server.state import RoomState, log, new_bot

_BATCH_LIMIT = 500
"""Automatic actions applied in one go when there is no pace to keep (then others get a turn)."""

SUGGESTIONS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="suggest")
"""The threads suggestions are worked out in, apart from the computer players' (many people
asking at once queue here, and the seats' players never wait behind them)."""


@dataclass(frozen=True)
class PendingMove:
    """A move a computer player (a seat's, or the suggestion player) is to choose off the event
    loop: its seat's view and legal actions (self-contained: they hold no reference to the
    round), and the room's :attr:`RoomState.version` when they were taken."""

    match: Match
    version: int
    seat: int
    player: Player
    view: SeatView
    legal: Legal


@dataclass
class Suggestion:
    """A member's suggestion: the move it is for and the work choosing it (in a thread of
    :data:`SUGGESTIONS`). ``awaited`` while the member waits for its answer; after that (it was
    answered, or the member was told it took too long) a ``suggest`` for the same position
    waits for the same work again, or takes its result, rather than start another."""

    move: PendingMove
    work: asyncio.Future[Action]
    awaited: bool = True

    @property
    def failed(self) -> bool:
        """Whether the work ended without a choice (its player failed)."""
        work = self.work
        return work.done() and (work.cancelled() or work.exception() is not None)


class AutoPlay:
    """A room's computer players: the driver task (computer seats, the paced deal) and the
    choices being worked out in threads."""

    def __init__(self, state: RoomState, lock: asyncio.Lock) -> None:
        self.state = state
        self.lock = lock
        """The room's lock: the driver takes it to change the room."""
        self.driver: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._thinking: dict[int, asyncio.Future[Action]] = {}
        """Computer players' choices being made in threads (by the player's ``id``)."""
        self._suggestions: dict[str, Suggestion] = {}
        """Each member's latest suggestion (by the member's id)."""

    def wake(self) -> None:
        """The room changed: the driver looks again for automatic actions."""
        self._wake.set()

    def start(self) -> None:
        """Start the task that plays computer players and paces the deal."""
        if self.driver is None:
            self.driver = asyncio.create_task(self._drive())
            self._wake.set()

    def cancel(self) -> None:
        """Cancel the driver (the room is being deleted)."""
        if self.driver is not None:
            self.driver.cancel()

    async def stop(self) -> None:
        """Cancel the driver and wait for it to end."""
        if self.driver is not None:
            self.driver.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.driver
            self.driver = None

    # -- the driver ----------------------------------------------------------------------

    def _auto_delay(self) -> float | None:
        """The pause before the next automatic action, or ``None`` if people must act."""
        state = self.state
        match = state.match
        if (match is None or match.is_over or state.waiting or not state.conns
                or state.row.status != "playing"):
            return None
        seat = match.to_move
        if seat is None:
            return None
        dealing = match.round.phase == Phase.DEAL
        if state.player_of(seat) is not None:  # a computer seat, or an absent person's
            return state.settings.deal_pace if dealing else state.settings.bot_delay
        return state.settings.deal_pace if dealing else None

    def _forced(self, seat: int) -> Action | None:
        """The action of ``seat`` when it needs no decision: a person's draw during the deal,
        or a computer player's only legal action of the deal (as :func:`decide` does)."""
        match = self.state.match
        assert match is not None
        if self.state.player_of(seat) is None:
            return Draw(seat)
        rnd = match.round
        if rnd.phase is not Phase.DEAL:
            return None
        draw = rnd.only_draw(seat)
        return draw if draw is not None else only_action(match.legal(seat))

    def _run_auto(self, paced: bool) -> bool | PendingMove:
        """Apply automatic actions that need no decision (one if ``paced``), log them and
        announce them. Returns the :class:`PendingMove` a computer player must choose next
        (off the event loop), True when done, False if an action failed (the room is then as
        its log says, and waits to be woken)."""
        state = self.state
        applied: list[Action] = []
        pending: PendingMove | None = None
        try:
            while self._auto_delay() is not None and len(applied) < _BATCH_LIMIT:
                match = state.match
                assert match is not None and match.to_move is not None
                seat = match.to_move
                action = self._forced(seat)
                if action is None:
                    player = state.player_of(seat)
                    assert player is not None
                    pending = PendingMove(match, state.version, seat, player,
                                          match.view(seat), match.legal(seat))
                    break
                state.apply(action)
                applied.append(action)
                if paced:
                    break
        except Exception:
            log.exception("room %s: automatic action failed", state.code)
            state.rebuild()
            state.broadcast_state()
            return False
        state.commit(applied)
        if applied:
            state.broadcast_state()
        return pending if pending is not None and not (paced and applied) else True

    async def _think(self, move: PendingMove) -> Action | None:
        """The computer player's choice, computed in a thread (the room's lock is not held);
        ``None`` if it failed or took longer than ``bot_time`` (one move at a time per
        player: a player still thinking about an earlier one is not asked again)."""
        key = id(move.player)
        if self._thinking.get(key) is not None:
            return None
        future = self._start_thinking(move)
        self._thinking[key] = future
        future.add_done_callback(lambda _: self._thinking.pop(key, None))
        bot_time = self.state.settings.bot_time
        try:
            return await asyncio.wait_for(asyncio.shield(future), bot_time)
        except TimeoutError:
            log.warning("room %s: bot at seat %d took longer than %g s", self.state.code,
                        move.seat, bot_time)
        except Exception:
            log.exception("room %s: bot at seat %d failed", self.state.code, move.seat)
        return None

    def _chosen(self, move: PendingMove, action: Action | None) -> bool:
        """Apply a computer player's choice (a random legal action if it had none or chose an
        illegal one) unless the room changed while it thought. False if it failed."""
        state = self.state
        if (state.match is not move.match or state.version != move.version
                or self._auto_delay() is None or state.player_of(move.seat) is not
                move.player):
            return True  # the room moved on: the driver looks again
        match, seat = move.match, move.seat
        legal = match.legal(seat)
        if action is not None and (action.seat != seat or legal.reason(action) is not None):
            log.warning("room %s: bot at seat %d chose %s, refused", state.code, seat, action)
            action = None
        if action is None:
            action = legal.random(secrets.SystemRandom())
        try:
            state.act(action, stand_in=seat in state.stand_ins)
        except (Refusal, ActionError):
            return False
        self.wake()
        return True

    async def _drive(self) -> None:
        """Play computer players and draw for people at the deal pace, until cancelled."""
        while True:
            await self._wake.wait()
            self._wake.clear()
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
                if isinstance(ok, PendingMove):
                    action = await self._think(ok)
                    async with self.lock:
                        ok = self._chosen(ok, action)
                if not ok:
                    break
                await asyncio.sleep(0)

    # -- thinking in threads -------------------------------------------------------------

    @staticmethod
    def _start_thinking(move: PendingMove, pool: Executor | None = None
                        ) -> asyncio.Future[Action]:
        """Start the player's choice in a thread of ``pool`` (default: the event loop's); it
        runs to its end whether or not anyone still waits for it (a thread cannot be
        stopped)."""
        return asyncio.get_running_loop().run_in_executor(
            pool, move.player.act, move.view, move.legal)

    def suggestion(self, member_id: str, match: Match, seat: int) -> Action | Suggestion:
        """What ``suggest`` asks of the member's ``seat`` now: the action itself when it is the
        only legal one, else the member's :class:`Suggestion` for this position (the room's
        suggestion player, choosing in a thread of :data:`SUGGESTIONS`: started now, or the
        one already made or being made for this position); refused when the engine allows the
        seat nothing now, or the member still waits for an answer."""
        legal = match.legal(seat)
        if not legal:  # the engine's reason: another seat's turn, or nothing to do now
            why = legal.reason(Draw(seat))
            raise Refusal("not-your-turn", why or "nothing to do now", why)
        last = self._suggestions.get(member_id)
        if last is not None and last.awaited:
            raise Refusal("busy", "your last suggestion is still being worked out")
        rnd = match.round
        draw = rnd.only_draw(seat) if rnd.phase is Phase.DEAL else None
        forced = draw if draw is not None else only_action(legal)
        if forced is not None:
            return forced
        if (last is not None and not last.failed and last.move.match is match
                and last.move.version == self.state.version and last.move.seat == seat):
            last.awaited = True
            return last
        move = PendingMove(match, self.state.version, seat,
                           new_bot(self.state.suggester, self.state.suggest_time),
                           match.view(seat), legal)
        made = Suggestion(move, self._start_thinking(move, SUGGESTIONS))
        self._suggestions[member_id] = made
        return made
