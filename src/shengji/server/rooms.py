"""Rooms: the lobby, the match, computer players, chat, and every connection's messages.

A :class:`Room` owns one :class:`asyncio.Lock`; every message of every connection is handled
under it, so a room changes one message at a time. An action is checked by the engine
(:meth:`shengji.game.Match.apply` refuses it with an :class:`ActionError`, changing nothing),
written to the room's action log (:mod:`shengji.server.storage`) and only then answered: every
connection gets its own redacted ``state`` (:func:`shengji.game.Match.view` of its seat;
spectators the public part only). Computer players and the paced deal run in a task per room
through the same checks. :class:`Rooms` holds every live room, rebuilds them from storage on
start and deletes idle ones.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import dataclasses
import hashlib
import json
import logging
import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from shengji.engine.cards import NotationError
from shengji.engine.rules import Rules, RulesError
from shengji.game.actions import Action, Draw, parse_action
from shengji.game.config import rules_from_dict, rules_to_dict
from shengji.game.legal import ActionError, Legal
from shengji.game.match import Match
from shengji.game.presets import PRESETS
from shengji.game.record import write_record
from shengji.game.round import Phase
from shengji.game.view import SeatView
from shengji.players import PLAYER_KINDS, make_player
from shengji.players.base import Player
from shengji.players.heuristic import HeuristicPlayer
from shengji.players.table import decide, only_action
from shengji.server import schemas
from shengji.server.limits import RateLimit, Settings
from shengji.server.schemas import MessageError, error
from shengji.server.storage import ChatRow, MatchRow, MemberRow, RoomRow, Storage

log = logging.getLogger("shengji.server")

CODE_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"
"""Room codes: 10 characters of a 32-letter alphabet (50 bits, from :mod:`secrets`)."""
CODE_LENGTH = 10
_OUTBOX_LIMIT = 2000
"""Messages waiting for a client that reads nothing; beyond, the connection is closed."""
_BATCH_LIMIT = 500
"""Automatic actions applied in one go when there is no pace to keep (then others get a turn)."""


def new_code() -> str:
    """A fresh unguessable room code."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def hash_token(token: str) -> str:
    """How a seat token is stored: its SHA-256 (tokens are 192 random bits)."""
    return hashlib.sha256(token.encode()).hexdigest()


class Refusal(Exception):
    """A refused message: becomes an ``error`` to its sender; nothing changed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def check_rules(preset_name: str, table: int, options: dict[str, Any]
                ) -> tuple[Rules | None, dict[str, str]]:
    """The rules of a room configuration, or one message per bad field (``preset``, ``table``
    or an option name), checked by the engine's rules validation."""
    if preset_name not in PRESETS:
        return None, {"preset": f"unknown preset {preset_name!r}; presets are: "
                                + ", ".join(PRESETS)}
    if not 1 <= table <= schemas.MAX_SEATS:
        return None, {"table": f"a table has 1 to {schemas.MAX_SEATS} seats"}
    base: dict[str, object] = {"preset": preset_name, "players": table}
    try:
        rules_from_dict(base)
    except RulesError as problem:
        return None, {"table": f"{preset_name} cannot be played by {table}: {problem}"}
    overrides = {k: v for k, v in options.items() if k != "players"}
    if options.get("players", table) == table and "preset" not in options:
        try:
            return rules_from_dict({**base, **overrides}), {}
        except RulesError:
            pass  # find the fields to blame
    errors: dict[str, str] = {}
    for name, value in options.items():
        if name == "players":
            if value != table:
                errors[name] = "the table size sets the players"
            continue
        if name == "preset":
            errors[name] = "choose the preset in its own field"
            continue
        try:
            rules_from_dict({**base, name: value})
        except RulesError as problem:
            errors[name] = str(problem)
    if errors:
        return None, errors
    try:
        rules_from_dict({**base, **overrides})
    except RulesError as problem:
        return None, {getattr(problem, "option", None) or "rules": str(problem)}
    raise AssertionError("unreachable: the whole set was refused")  # pragma: no cover


@dataclass
class Member:
    """Someone who joined the room (seated or watching)."""

    id: str
    name: str
    token_hash: str
    away: float = 0.0
    """When the member's last connection closed (``time.time()``)."""


@dataclass(frozen=True)
class Decision:
    """What a computer player needs to choose off the event loop: its seat's view and legal
    actions (self-contained: they hold no reference to the round), and the room's
    :attr:`Room.version` when they were taken."""

    match: Match
    version: int
    seat: int
    player: Player
    view: SeatView
    legal: Legal


class Connection:
    """One websocket: its member (after ``hello``), its rate limit and its outgoing queue."""

    def __init__(self, websocket: WebSocket, settings: Settings) -> None:
        self.websocket = websocket
        self.member: Member | None = None
        self.rate = RateLimit(settings.rate, settings.burst)
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False

    def send(self, message: dict[str, Any] | str) -> None:
        """Queue a message (a dict, or JSON text already encoded)."""
        if self.closed:
            return
        if self.outbox.qsize() >= _OUTBOX_LIMIT:
            self.close()
            return
        self.outbox.put_nowait(message if isinstance(message, str) else json.dumps(message))

    def close(self) -> None:
        """Stop sending (the writer ends after what is queued)."""
        if not self.closed:
            self.closed = True
            self.outbox.put_nowait(None)

    async def write(self) -> None:
        """Send queued messages in order until closed."""
        while True:
            text = await self.outbox.get()
            if text is None:
                with contextlib.suppress(Exception):
                    await self.websocket.close()
                return
            try:
                await self.websocket.send_text(text)
            except Exception:  # the client went away: the reader ends the connection
                self.closed = True
                return


class Room:
    """A room: lobby, match, computer players, chat and connections, under one lock."""

    def __init__(self, row: RoomRow, storage: Storage, settings: Settings) -> None:
        self.row = row
        self.storage = storage
        self.settings = settings
        self.lock = asyncio.Lock()
        self.members: dict[str, Member] = {}
        self.conns: list[Connection] = []
        self.online: dict[str, int] = {}
        """Open connections of each member who said hello."""
        self.match: Match | None = None
        self.match_row: MatchRow | None = None
        self.logged = 0
        """Actions of the current match in the log."""
        self.version = 0
        """Actions applied to the room's matches (a computer player's choice made off the
        loop is applied only if nothing changed meanwhile)."""
        self._thinking: dict[int, asyncio.Future[Action]] = {}
        self._record: tuple[int, str] | None = None
        """The latest finished match's number and record text."""
        self.bots: dict[int, Player] = {}
        self.results: dict[int | None, list[dict[str, Any]]] = {}
        """Every finished round's sheet as each seat (``None``: spectators) may see it."""
        self.waiting: set[int] = set()
        """Person seats still reading the score sheet before the next deal."""
        self.chat: deque[ChatRow] = deque(maxlen=settings.chat_history)
        self.chat_rates: dict[str, RateLimit] = {}
        """Each member's chat rate limit (whatever connection they write from)."""
        self.wake = asyncio.Event()
        self.driver: asyncio.Task[None] | None = None
        self.encoded = schemas.EncodeCache()
        self._timers: set[asyncio.Task[None]] = set()
        self._encoded_round: object = None

    @property
    def code(self) -> str:
        """The room's code."""
        return self.row.code

    # -- building ----------------------------------------------------------------------------

    @classmethod
    def restore(cls, row: RoomRow, storage: Storage, settings: Settings) -> Room:
        """Rebuild a stored room: members, chat and the match replayed from its log."""
        room = cls(row, storage, settings)
        for m in storage.members(row.code):
            room.members[m.id] = Member(m.id, m.name, m.token_hash, time.time())
        room.chat.extend(storage.chat(row.code, settings.chat_history))
        if row.status != "lobby":
            stored = storage.load_match(row.code, row.match_no)
            if stored is None:
                row.status = "lobby"
            else:
                room._begin(stored)
                for text in stored.actions:
                    room._apply(parse_action(text))
                room.logged = len(stored.actions)
                room._after_replay()
        return room

    def _begin(self, stored: MatchRow) -> None:
        self.version += 1
        self.match_row = stored
        self.match = Match(rules_from_dict(stored.rules), seed=stored.seed)
        self.results = {s: [] for s in (*range(self.match.rules.players), None)}
        self.waiting = set()
        self.logged = 0
        self.bots = {s: make_player(seat["bot"], seed=secrets.randbits(32))
                     for s, seat in enumerate(self.row.seats) if seat["kind"] == "bot"}

    def _after_replay(self) -> None:
        match = self.match
        assert match is not None
        self.row.status = "over" if match.is_over else "playing"
        if not match.is_over and match.results and not match.round.history:
            self.waiting = self._person_seats()

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

    # -- seats ---------------------------------------------------------------------------

    def _person_seats(self) -> set[int]:
        return {s for s, seat in enumerate(self.row.seats) if seat["kind"] == "person"}

    def seat_of(self, member: Member) -> int | None:
        """The member's seat, if any."""
        for s, seat in enumerate(self.row.seats):
            if seat["kind"] == "person" and seat["member"] == member.id:
                return s
        return None

    def _connected(self, member_id: str) -> bool:
        return member_id in self.online

    def spectator_count(self) -> int:
        """Connected members without a seat."""
        seated = {seat["member"] for seat in self.row.seats if seat["kind"] == "person"}
        return sum(1 for m in self.members if m not in seated and self._connected(m))

    def _seat_name(self, s: int) -> str | None:
        seat = self.row.seats[s]
        if seat["kind"] == "person":
            return self.members[seat["member"]].name
        if seat["kind"] == "bot":
            return f"{str(seat['bot']).capitalize()} {s}"
        return None

    def _touch(self) -> None:
        self.row.last_active = time.time()

    # -- messages out --------------------------------------------------------------------

    def room_message(self, conn: Connection, shared: dict[str, Any]) -> dict[str, Any]:
        """The ``room`` message for one connection (``shared``: its part common to every
        connection, from :meth:`_room_shared`)."""
        member = conn.member
        return {**shared,
                "you": {"member": member.id if member else "",
                        "seat": self.seat_of(member) if member else None,
                        "host": member is not None and member.id == self.row.host}}

    def _room_shared(self) -> dict[str, Any]:
        seated = {seat["member"] for seat in self.row.seats if seat["kind"] == "person"}
        return {
            "type": "room", "code": self.code, "status": self.row.status, "host": self.row.host,
            "seats": [{"seat": s, "name": self._seat_name(s), "kind": seat["kind"],
                       "bot": seat["bot"],
                       "connected": seat["kind"] == "bot" or (
                           seat["kind"] == "person" and self._connected(seat["member"]))}
                      for s, seat in enumerate(self.row.seats)],
            "spectators": [m.name for m in self.members.values()
                           if m.id not in seated and self._connected(m.id)],
            "watchers": [{"member": m.id, "name": m.name} for m in self.members.values()
                         if m.id not in seated and self._connected(m.id)],
            "config": self.row.config,
        }

    def _broadcast_room(self) -> None:
        shared = self._room_shared()
        for conn in self.conns:
            if conn.member is not None:
                conn.send(self.room_message(conn, shared))

    def state_message(self, seat: int | None) -> str:
        """The ``state`` message of ``seat`` (``None``: a spectator), as JSON text."""
        match = self.match
        assert match is not None
        legal = None
        rnd = match.round
        if rnd is not self._encoded_round:
            self.encoded.clear()
            self._encoded_round = rnd
        if seat is None:
            public = next(s for s in range(match.rules.players) if s != rnd.kitty_owner)
            view = schemas.view_json(schemas.spectator_view(match.view(public)), spectator=True,
                                     cache=self.encoded)
        else:
            seat_view = match.view(seat)
            view = schemas.view_json(seat_view, cache=self.encoded)
            if not self.waiting and not match.is_over:
                legal = schemas.legal_json(match.legal(seat), seat_view)
        info = {"round": len(match.results) + (0 if match.is_over else 1),
                "levels": list(match.levels), "results": self.results[seat],
                "over": match.is_over, "winners": list(match.winners),
                "waiting": sorted(self.waiting)}
        return json.dumps({"type": "state", "view": view, "legal": legal, "match": info})

    def _broadcast_state(self) -> None:
        if self.match is None:
            return
        cache: dict[int | None, str] = {}
        for conn in self.conns:
            if conn.member is None:
                continue
            seat = self.seat_of(conn.member)
            if seat not in cache:
                cache[seat] = self.state_message(seat)
            conn.send(cache[seat])

    # -- the match -----------------------------------------------------------------------

    def _apply(self, action: Action) -> None:
        """Apply one action to the match (raises ActionError, changing nothing, if refused);
        keeps each seat's score sheets and starts the wait between rounds."""
        match = self.match
        assert match is not None
        rnd = match.round
        result = match.apply(action)
        self.version += 1
        if result is None:
            return
        for seat in range(match.rules.players):
            sheet = rnd.view(seat).result
            assert sheet is not None
            self.results[seat].append(schemas.result_json(sheet))
        public = next(s for s in range(match.rules.players) if s != rnd.kitty_owner)
        sheet = rnd.view(public).result
        assert sheet is not None
        self.results[None].append(schemas.result_json(sheet))
        if not match.is_over:  # the room is "over" once the last action is logged
            self.waiting = self._person_seats()

    def _commit(self, actions: list[Action]) -> None:
        """Write applied actions to the log (committed before anyone hears of them)."""
        if not actions:
            return
        assert self.match_row is not None and self.match is not None
        self._touch()
        over = self.match.is_over
        try:
            self.storage.append_actions(self.code, self.match_row.no, self.logged,
                                        [str(a) for a in actions], self.row.last_active,
                                        status="over" if over else None)
        except Exception:
            log.exception("room %s: could not log actions; rebuilding from the log", self.code)
            self._rebuild()
            raise Refusal("storage", "the server could not save this; nothing changed") from None
        self.logged += len(actions)
        if over:
            self.row.status = "over"

    def _rebuild(self) -> None:
        """Rebuild the match from the stored log (after a failure left it in doubt)."""
        stored = self.storage.load_match(self.code, self.row.match_no)
        if stored is None:
            return
        self._begin(stored)
        for text in stored.actions:
            self._apply(parse_action(text))
        self.logged = len(stored.actions)
        self._after_replay()

    def _act(self, action: Action) -> None:
        """Apply, log and announce one checked action; unexpected engine failures leave the
        room as its log says."""
        try:
            self._apply(action)
        except ActionError:
            raise
        except Exception:
            log.exception("room %s: the engine failed on %s", self.code, action)
            self._rebuild()
            raise Refusal("internal", "the server could not apply this action; "
                                      "nothing changed") from None
        self._commit([action])
        self._broadcast_state()
        self.wake.set()

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

    async def _think(self, decision: Decision) -> Action | None:
        """The computer player's choice, computed in a thread (the room's lock is not held);
        ``None`` if it failed or took longer than ``bot_time`` (one decision at a time per
        player: a player still thinking about an earlier one is not asked again)."""
        player = decision.player
        if self._thinking.get(id(player)) is not None:
            return None
        future = asyncio.ensure_future(asyncio.to_thread(player.act, decision.view,
                                                         decision.legal))
        self._thinking[id(player)] = future
        future.add_done_callback(lambda _: self._thinking.pop(id(player), None))
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

    # -- messages in ---------------------------------------------------------------------

    async def handle(self, conn: Connection, message: schemas.ClientMessage) -> None:
        """Handle one validated message; a refusal becomes an ``error`` to ``conn`` only."""
        async with self.lock:
            try:
                self._dispatch(conn, message)
            except Refusal as refusal:
                conn.send(error(refusal.code, str(refusal)))
            except ActionError as refusal:
                conn.send(error("illegal", str(refusal)))
            except Exception:
                log.exception("room %s: failed on %r", self.code, message)
                conn.send(error("internal", "the server failed on this message"))

    def _dispatch(self, conn: Connection, message: schemas.ClientMessage) -> None:
        if isinstance(message, schemas.Hello):
            self._hello(conn, message)
            return
        member = conn.member
        if member is None:
            raise Refusal("hello-first", "say hello first: {\"type\": \"hello\", \"name\": ...}")
        handlers: dict[type, Callable[[Member, Any], None]] = {
            schemas.Sit: self._sit, schemas.Stand: self._stand,
            schemas.Configure: self._configure, schemas.AddBot: self._add_bot,
            schemas.Remove: self._remove, schemas.Move: self._move, schemas.Start: self._start,
            schemas.Replace: self._replace, schemas.NewMatch: self._new_match,
            schemas.NextRound: self._next_round, schemas.Chat: self._chat,
            schemas.Kick: self._kick,
        }
        if isinstance(message, schemas.ActionMessage):
            self._action(member, message.action)
        elif isinstance(message, schemas.Check):
            conn.send({"type": "checked", "action": message.action,
                       "reason": self._check(member, message.action)})
        elif isinstance(message, schemas.Suggest):
            conn.send({"type": "suggestion", "action": self._suggest(member)})
        else:
            handlers[type(message)](member, message)

    def _hello(self, conn: Connection, hello: schemas.Hello) -> None:
        if conn.member is not None:
            raise Refusal("bad-message", "this connection has already said hello")
        member = None
        token = hello.token
        if token:
            digest = hash_token(token)
            member = next((m for m in self.members.values()
                           if secrets.compare_digest(m.token_hash, digest)), None)
        if member is not None:
            if self.online.get(member.id, 0) >= self.settings.max_member_connections:
                raise Refusal("too-many-connections", "you are connected to this room "
                              f"{self.settings.max_member_connections} times already; close "
                              "one of them first")
        else:
            name = hello.name
            key = schemas.name_key(name)
            if any(schemas.name_key(m.name) == key for m in self.members.values()):
                raise Refusal("name-taken", f"someone in this room is already called {name!r}; "
                                            "choose another name (or rejoin with your token)")
            if len(self.online) >= self.settings.max_members:
                raise Refusal("room-full", f"this room already has {self.settings.max_members}"
                                           " connected members")
            if self.spectator_count() >= self.settings.max_spectators:
                raise Refusal("too-many-spectators",
                              f"this room already has {self.settings.max_spectators} spectators")
            token = secrets.token_urlsafe(24)
            member = Member(secrets.token_hex(4), name, hash_token(token))
            row = None
            if self.row.host is None:  # the first member hosts: stored with the member
                row = self._draft()
                row.host = member.id
            self._store(lambda: self.storage.add_member(
                self.code, MemberRow(member.id, member.name, member.token_hash), row))
            self.members[member.id] = member
            if row is not None:
                self.row = row
        conn.member = member
        self.online[member.id] = self.online.get(member.id, 0) + 1
        conn.send({"type": "welcome", "token": token, "member": member.id, "room": self.code})
        for line in self.chat:
            conn.send(_chat_message(line))
        self._broadcast_room()
        if self.match is not None:
            conn.send(self.state_message(self.seat_of(member)))
        self._watch_host()
        self.wake.set()

    def _host_in_lobby(self, member: Member) -> None:
        if member.id != self.row.host:
            raise Refusal("not-host", "only the host may do this")
        if self.row.status != "lobby":
            raise Refusal("not-in-lobby", "this can only be done before the match starts")

    def _seat_index(self, seat: int) -> int:
        if not 0 <= seat < len(self.row.seats):
            raise Refusal("no-seat", f"there is no seat {seat} at this table "
                                     f"(seats 0..{len(self.row.seats) - 1})")
        return seat

    def _draft(self) -> RoomRow:
        """A copy of the room's row to change; :meth:`_lobby_changed` stores it, then makes it
        the room's (a failed save leaves the room as it was)."""
        row = copy.deepcopy(self.row)
        row.last_active = time.time()
        return row

    def _store(self, write: Callable[[], None]) -> None:
        try:
            write()
        except Exception:
            log.exception("room %s: could not save", self.code)
            raise Refusal("storage", "the server could not save this; nothing changed") from None

    def _lobby_changed(self, row: RoomRow) -> None:
        self._store(lambda: self.storage.save_room(row))
        self.row = row
        self._broadcast_room()

    def _sit(self, member: Member, message: schemas.Sit) -> None:
        if self.row.status != "lobby":
            raise Refusal("not-in-lobby", "seats are taken before the match starts")
        seat = self._seat_index(message.seat)
        if self.row.seats[seat]["kind"] is not None:
            raise Refusal("seat-taken", f"seat {seat} is taken")
        old = self.seat_of(member)
        row = self._draft()
        if old is not None:
            row.seats[old] = _free()
        row.seats[seat] = {"kind": "person", "member": member.id, "bot": None}
        self._lobby_changed(row)

    def _stand(self, member: Member, message: schemas.Stand) -> None:
        if self.row.status != "lobby":
            raise Refusal("not-in-lobby", "seats are left before the match starts")
        seat = self.seat_of(member)
        if seat is None:
            raise Refusal("not-seated", "you have no seat")
        if self.spectator_count() >= self.settings.max_spectators:
            raise Refusal("too-many-spectators",
                          f"this room already has {self.settings.max_spectators} spectators")
        row = self._draft()
        row.seats[seat] = _free()
        self._lobby_changed(row)

    def _configure(self, member: Member, message: schemas.Configure) -> None:
        self._host_in_lobby(member)
        rules, errors = check_rules(message.preset, message.table, message.rules)
        if rules is None:
            raise Refusal("bad-rules", "; ".join(f"{k}: {v}" for k, v in errors.items()))
        row = self._draft()
        row.config = {"preset": message.preset, "table": message.table,
                      "rules": dict(message.rules)}
        seats = row.seats[:message.table]
        row.seats = seats + [_free() for _ in range(message.table - len(seats))]
        self._lobby_changed(row)

    def _bot_kind(self, kind: str) -> str:
        if kind not in PLAYER_KINDS:
            raise Refusal("bad-bot", f"unknown computer player {kind!r}; choose from "
                                     + ", ".join(PLAYER_KINDS))
        return kind

    def _add_bot(self, member: Member, message: schemas.AddBot) -> None:
        self._host_in_lobby(member)
        seat = self._seat_index(message.seat)
        kind = self._bot_kind(message.kind)
        if self.row.seats[seat]["kind"] is not None:
            raise Refusal("seat-taken", f"seat {seat} is taken")
        row = self._draft()
        row.seats[seat] = {"kind": "bot", "member": None, "bot": kind}
        self._lobby_changed(row)

    def _remove(self, member: Member, message: schemas.Remove) -> None:
        self._host_in_lobby(member)
        seat = self._seat_index(message.seat)
        if self.row.seats[seat]["kind"] is None:
            raise Refusal("seat-free", f"seat {seat} is already free")
        row = self._draft()
        row.seats[seat] = _free()
        self._lobby_changed(row)

    def _move(self, member: Member, message: schemas.Move) -> None:
        self._host_in_lobby(member)
        a, b = self._seat_index(message.seat), self._seat_index(message.to)
        if self.row.seats[a]["kind"] is None:
            raise Refusal("seat-free", f"seat {a} is free: nobody to move")
        row = self._draft()
        seats = row.seats
        seats[a], seats[b] = seats[b], seats[a]
        self._lobby_changed(row)

    def _start(self, member: Member, message: schemas.Start) -> None:
        self._host_in_lobby(member)
        free = [s for s, seat in enumerate(self.row.seats) if seat["kind"] is None]
        if free:
            raise Refusal("seats-free", "every seat must be taken (by a person or a computer "
                                        f"player) first; free: {', '.join(map(str, free))}")
        config = self.row.config
        rules, errors = check_rules(config["preset"], config["table"], config["rules"])
        if rules is None:
            raise Refusal("bad-rules", "; ".join(f"{k}: {v}" for k, v in errors.items()))
        seats = self.row.seats
        stored = MatchRow(self.row.match_no, rules_to_dict(rules), secrets.randbits(48),
                          [self._seat_name(s) or "" for s in range(len(seats))],
                          ["human" if seat["kind"] == "person" else str(seat["bot"])
                           for seat in seats])
        row = self._draft()
        row.status = "playing"
        self._store(lambda: self.storage.start_match(self.code, stored))
        self._lobby_changed(row)
        self._begin(stored)
        self._broadcast_state()
        self.wake.set()

    def _replace(self, member: Member, message: schemas.Replace) -> None:
        if member.id != self.row.host:
            raise Refusal("not-host", "only the host may do this")
        if self.row.status != "playing":
            raise Refusal("not-playing", "a seat is replaced during a match")
        seat = self._seat_index(message.seat)
        kind = self._bot_kind(message.kind)
        if self.row.seats[seat]["kind"] != "person":
            raise Refusal("not-a-person", f"seat {seat} is not held by a person")
        assert self.match_row is not None
        row = self._draft()
        row.seats[seat] = {"kind": "bot", "member": None, "bot": kind}
        kinds = list(self.match_row.kinds)
        kinds[seat] = kind  # the record says who played the seat in the end
        stored = dataclasses.replace(self.match_row, kinds=kinds)
        self._store(lambda: self.storage.start_match(self.code, stored))
        self._lobby_changed(row)
        self.match_row = stored
        self.bots[seat] = make_player(kind, seed=secrets.randbits(32))
        self.waiting.discard(seat)
        self._broadcast_state()
        self.wake.set()

    def _new_match(self, member: Member, message: schemas.NewMatch) -> None:
        if member.id != self.row.host:
            raise Refusal("not-host", "only the host may do this")
        if self.row.status != "over":
            raise Refusal("not-over", "a new match starts after this one is over")
        row = self._draft()
        row.status = "lobby"
        row.match_no += 1
        self._lobby_changed(row)
        self.match = None
        self.match_row = None
        self.bots = {}
        self.waiting = set()

    def _next_round(self, member: Member, message: schemas.NextRound) -> None:
        if message.all:
            if member.id != self.row.host:
                raise Refusal("not-host", "only the host may start the next round for everyone")
            self.waiting.clear()
        else:
            seat = self.seat_of(member)
            if seat is None or seat not in self.waiting:
                raise Refusal("not-waiting", "nobody is waiting for you")
            self.waiting.discard(seat)
        self._broadcast_state()
        self.wake.set()

    def _chat(self, member: Member, message: schemas.Chat) -> None:
        settings = self.settings
        rate = self.chat_rates.get(member.id)
        if rate is None:
            rate = self.chat_rates[member.id] = RateLimit(settings.chat_rate, settings.chat_burst)
        if not rate.allow():
            raise Refusal("rate", f"too many chat lines: at most {settings.chat_rate:g} per "
                                  f"second (bursts of {settings.chat_burst})")
        line = ChatRow(member.id, member.name, self.seat_of(member), message.text, time.time())
        self.storage.add_chat(self.code, line, settings.chat_history)
        self.chat.append(line)
        self._touch()
        text = json.dumps(_chat_message(line))
        for conn in self.conns:
            if conn.member is not None:
                conn.send(text)

    def _kick(self, member: Member, message: schemas.Kick) -> None:
        if member.id != self.row.host:
            raise Refusal("not-host", "only the host may do this")
        gone = self.members.get(message.member)
        if gone is None:
            raise Refusal("no-member", f"there is no member {message.member!r} in this room")
        if gone is member:
            raise Refusal("not-yourself", "the host cannot kick themselves")
        seat = self.seat_of(gone)
        if seat is not None and self.row.status == "playing":
            raise Refusal("seated-in-match", f"{gone.name} holds seat {seat} in the match: "
                                             "replace the seat first")
        self._forget([gone.id])
        for conn in [c for c in self.conns if c.member is gone]:
            conn.send(error("kicked", "the host removed you from this room"))
            conn.member = None
            conn.close()
        self._broadcast_room()

    def _forget(self, ids: list[str]) -> None:
        """Remove members and free their seats (stored together, then in memory)."""
        row = self._draft()
        row.seats = [_free() if seat["kind"] == "person" and seat["member"] in ids else seat
                     for seat in row.seats]
        self._store(lambda: self.storage.delete_members(self.code, ids, row))
        self.row = row
        for member_id in ids:
            del self.members[member_id]
            self.online.pop(member_id, None)
            self.chat_rates.pop(member_id, None)

    def prune(self, now: float) -> list[str]:
        """Forget members without a seat (nor the host's role) away for the member expiry;
        returns their ids."""
        seated = {seat["member"] for seat in self.row.seats if seat["kind"] == "person"}
        gone = [m.id for m in self.members.values()
                if m.id not in seated and m.id != self.row.host and m.id not in self.online
                and now - m.away > self.settings.member_expiry]
        if gone:
            try:
                self._forget(gone)
            except Refusal:  # not stored: forgotten at a later sweep
                return []
        return gone

    def _seated_match(self, member: Member) -> tuple[Match, int]:
        seat = self.seat_of(member)
        if seat is None:
            raise Refusal("not-seated", "only a seated player may do this")
        if self.match is None or self.row.status != "playing":
            raise Refusal("not-playing", "no match is being played")
        return self.match, seat

    def _parse(self, text: str, seat: int) -> Action:
        try:
            action = parse_action(text)
        except (NotationError, ActionError, ValueError) as problem:
            raise Refusal("bad-action", str(problem)) from None
        if action.seat != seat:
            raise Refusal("not-your-seat", f"you sit at seat {seat}: you cannot act for "
                                           f"seat {action.seat}")
        return action

    def _turn_refusal(self, match: Match, seat: int) -> Refusal | None:
        if self.waiting:
            return Refusal("not-your-turn", "the next round starts once everyone has read "
                                            "the score sheet")
        rnd = match.round
        if rnd.phase != Phase.DEAL and rnd.to_move != seat:
            return Refusal("not-your-turn", f"it is seat {rnd.to_move}'s turn "
                                            f"({rnd.phase} phase)")
        return None

    def _action(self, member: Member, text: str) -> None:
        match, seat = self._seated_match(member)
        action = self._parse(text, seat)
        refusal = self._turn_refusal(match, seat)
        if refusal is not None:
            raise refusal
        self._act(action)

    def _check(self, member: Member, text: str) -> str | None:
        match, seat = self._seated_match(member)
        try:
            action = self._parse(text, seat)
        except Refusal as problem:
            return str(problem)
        refusal = self._turn_refusal(match, seat)
        if refusal is not None:
            return str(refusal)
        return match.legal(seat).reason(action)

    def _suggest(self, member: Member) -> str:
        match, seat = self._seated_match(member)
        refusal = self._turn_refusal(match, seat)
        if refusal is not None:
            raise refusal
        legal = match.legal(seat)
        if not legal:
            raise Refusal("not-your-turn", legal.reason(Draw(seat)) or "nothing to do now")
        return str(decide(match, seat, HeuristicPlayer(secrets.randbits(32))))

    # -- connections ---------------------------------------------------------------------

    async def join(self, conn: Connection) -> bool:
        """A new connection (it says hello next); False if the room has as many as it may."""
        async with self.lock:
            if len(self.conns) >= self.settings.max_connections:
                return False
            self.conns.append(conn)
            return True

    async def leave(self, conn: Connection) -> None:
        """A connection closed."""
        async with self.lock:
            if conn not in self.conns:
                return
            self.conns.remove(conn)
            conn.close()
            if conn.member is not None:
                count = self.online.pop(conn.member.id) - 1
                if count:
                    self.online[conn.member.id] = count
                else:
                    conn.member.away = time.time()
                self._broadcast_room()
                self._watch_host()

    def _watch_host(self) -> None:
        """If the host is away, hand the role on after the grace period."""
        host = self.row.host
        if host is None or self._connected(host):
            return
        task = asyncio.create_task(self._pass_host_later())
        self._timers.add(task)
        task.add_done_callback(self._timers.discard)

    async def _pass_host_later(self) -> None:
        await asyncio.sleep(self.settings.host_grace)
        async with self.lock:
            host = self.row.host
            if host is None or self._connected(host):
                return
            seated = [seat["member"] for seat in self.row.seats if seat["kind"] == "person"]
            order = [*seated, *(m for m in self.members if m not in seated)]
            heir = next((m for m in order if self._connected(m)), None)
            if heir is not None:
                row = self._draft()
                row.host = heir
                with contextlib.suppress(Refusal):  # not stored: tried again at the next leave
                    self._lobby_changed(row)

    def idle(self, now: float) -> bool:
        """True when nobody is connected and nothing happened for the idle expiry, or nobody
        joined within the unjoined expiry."""
        if not self.members and now - self.row.created > self.settings.unjoined_expiry:
            return True
        return not self.conns and now - self.row.last_active > self.settings.idle_expiry

    async def record(self) -> str | None:
        """The latest finished match's record (TOML), or ``None`` if none is finished. Built in
        a thread (replaying the match), once per match: a finished match never changes."""
        async with self.lock:
            if self.match is not None and self.match.is_over and self.match_row is not None:
                no, finished, stored = self.match_row.no, self.match, self.match_row
            elif self.row.match_no == 0:
                return None
            else:
                no, finished = self.row.match_no - 1, None
                loaded = self.storage.load_match(self.code, no)
                if loaded is None:
                    return None
                stored = loaded
            if self._record is not None and self._record[0] == no:
                return self._record[1]
        text = await asyncio.to_thread(_write_record, finished, stored)
        if text is not None:
            self._record = (no, text)
        return text


def _write_record(match: Match | None, stored: MatchRow) -> str | None:
    """A finished match's record (``match``, or replayed from ``stored``); ``None`` if the
    stored match is not over."""
    if match is None:
        match = Match(rules_from_dict(stored.rules), seed=stored.seed)
        for text in stored.actions:
            match.apply(parse_action(text))
    return write_record(match, stored.names, stored.kinds) if match.is_over else None


def _free() -> dict[str, Any]:
    return {"kind": None, "member": None, "bot": None}


def _chat_message(line: ChatRow) -> dict[str, Any]:
    return {"type": "chat", "member": line.member, "name": line.name, "seat": line.seat,
            "text": line.text, "time": line.time}


class Rooms:
    """Every live room of a server: creation, restoring from storage, expiry, connections."""

    def __init__(self, storage: Storage, settings: Settings) -> None:
        self.storage = storage
        self.settings = settings
        self.rooms: dict[str, Room] = {}
        self._sweeper: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Rebuild every stored room (expired ones are deleted) and start the sweeper."""
        now = time.time()
        for row in self.storage.load_rooms():
            if now - row.last_active > self.settings.idle_expiry:
                self.storage.delete_room(row.code)
                continue
            try:
                room = Room.restore(row, self.storage, self.settings)
            except Exception:
                log.exception("room %s could not be restored; it is kept in storage", row.code)
                continue
            self.rooms[row.code] = room
            room.start_driver()
        self._sweeper = asyncio.create_task(self._sweep())

    async def stop(self) -> None:
        """Stop every room's tasks."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        for room in self.rooms.values():
            await room.stop()

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(min(60.0, max(1.0, self.settings.idle_expiry / 10)))
            self.expire(time.time())

    def expire(self, now: float) -> list[str]:
        """Delete idle rooms and forget long-gone members; returns the deleted rooms' codes."""
        for room in self.rooms.values():
            if not room.lock.locked():
                room.prune(now)
        gone = [code for code, room in self.rooms.items() if room.idle(now)]
        for code in gone:
            room = self.rooms.pop(code)
            if room.driver is not None:
                room.driver.cancel()
            self.storage.delete_room(code)
        return gone

    def create(self, preset_name: str, table: int, options: dict[str, Any]) -> str:
        """Open a room; raises :class:`Refusal` (``bad-rules`` with the field messages as JSON,
        or ``too-many-rooms``)."""
        rules, errors = check_rules(preset_name, table, options)
        if rules is None:
            raise Refusal("bad-rules", json.dumps(errors))
        if len(self.rooms) >= self.settings.max_rooms:
            raise Refusal("too-many-rooms", f"this server already has {self.settings.max_rooms} "
                                            "rooms; try again later")
        code = new_code()
        while code in self.rooms:
            code = new_code()
        now = time.time()
        row = RoomRow(code, {"preset": preset_name, "table": table, "rules": dict(options)},
                      None, [_free() for _ in range(table)], "lobby", 0, now, now)
        self.storage.save_room(row)
        room = Room(row, self.storage, self.settings)
        self.rooms[code] = room
        room.start_driver()
        return code

    async def serve(self, code: str, websocket: WebSocket) -> None:
        """Run one websocket connection to room ``code`` until it closes."""
        await websocket.accept()
        room = self.rooms.get(code)
        if room is None:
            await websocket.send_text(json.dumps(error("no-room", f"there is no room {code!r} "
                                                       "(it may have expired)")))
            await websocket.close(code=4404)
            return
        conn = Connection(websocket, self.settings)
        if not await room.join(conn):
            await websocket.send_text(json.dumps(error(
                "too-many-connections", f"this room already has {self.settings.max_connections}"
                " connections; try again later")))
            await websocket.close(code=1013)
            return
        writer = asyncio.create_task(conn.write())
        limit = self.settings.max_message
        hello_by = time.monotonic() + self.settings.hello_timeout
        try:
            while not conn.closed:
                if conn.member is None:
                    try:
                        event = await asyncio.wait_for(websocket.receive(),
                                                       max(0.0, hello_by - time.monotonic()))
                    except TimeoutError:
                        conn.send(error("hello-timeout", "say hello within "
                                        f"{self.settings.hello_timeout:g} seconds"))
                        conn.close()
                        break
                else:
                    event = await websocket.receive()
                if event["type"] == "websocket.disconnect":
                    break
                text = event.get("text")
                if text is None:
                    size = len(event.get("bytes") or b"")
                    conn.send(error("too-big", f"messages are at most {limit} bytes") if
                              size > limit else error("bad-message", "send JSON text frames"))
                    continue
                if len(text) > limit // 4 and len(text.encode()) > limit:
                    conn.send(error("too-big", f"messages are at most {limit} bytes"))
                    continue
                if not conn.rate.allow():
                    conn.send(error("rate", f"too many messages: at most {self.settings.rate:g}"
                                            f" per second (bursts of {self.settings.burst})"))
                    continue
                try:
                    message = schemas.read_client_message(text)
                except MessageError as problem:
                    conn.send(error(problem.code, str(problem)))
                    continue
                await room.handle(conn, message)
        except WebSocketDisconnect:
            pass
        finally:
            await room.leave(conn)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, timeout=1.0)
            writer.cancel()
