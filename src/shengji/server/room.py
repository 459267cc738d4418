"""A room: :class:`Room` handles every message of every connection, one at a time under the
room's :class:`asyncio.Lock` (a refusal becomes an ``error`` to its sender and changes nothing;
a suggestion is worked out in a thread, off the lock).

It builds on :class:`~shengji.server.lobby.Lobby` (lobby commands),
:class:`~shengji.server.autoplay.AutoPlay` (computer players, the paced deal) and
:class:`~shengji.server.state.RoomState` (state, action log, messages out).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import secrets
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from shengji.engine.cards import NotationError
from shengji.game.actions import Action, Draw, parse_action
from shengji.game.config import rules_from_dict
from shengji.game.legal import ActionError
from shengji.game.match import Match
from shengji.game.phase import Phase
from shengji.game.record import write_record
from shengji.players.table import only_action
from shengji.server import schemas
from shengji.server.autoplay import Decision
from shengji.server.limits import RateLimit, Settings
from shengji.server.lobby import Lobby
from shengji.server.members import Connection, Member, Refusal, hash_token
from shengji.server.schemas import error
from shengji.server.state import chat_message, log, new_bot
from shengji.server.storage import ChatRow, MatchRow, MemberRow, RoomRow, Storage

SUGGESTIONS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="suggest")
"""The threads suggestions are worked out in, apart from the computer players' (many people
asking at once queue here, and the seats' players never wait behind them)."""

_TURN_KEYS = frozenset({"turn-of", "turn-of-nobody", "not-your-turn"})
"""The keys of the engine's reasons that refuse an action because another seat (or none)
is to move: the server sends them as ``not-your-turn`` errors (else ``illegal``)."""


class Room(Lobby):
    """A room: lobby, match, computer players, chat and connections, under one lock."""

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

    # -- messages in ---------------------------------------------------------------------

    async def handle(self, conn: Connection, message: schemas.ClientMessage) -> None:
        """Handle one validated message; a refusal becomes an ``error`` to ``conn`` only."""
        if isinstance(message, schemas.Suggest):
            await self._suggest(conn)
            return
        async with self.lock:
            try:
                self._dispatch(conn, message)
            except Refusal as refusal:
                conn.send(error(refusal.code, str(refusal), refusal.why))
            except ActionError as refusal:
                conn.send(error("illegal", str(refusal), refusal.reason))
            except Exception:
                log.exception("room %s: failed on %r", self.code, message)
                conn.send(error("internal", "the server failed on this message"))

    def _dispatch(self, conn: Connection, message: schemas.ClientMessage) -> None:
        if isinstance(message, schemas.Hello):
            self._hello(conn, message)
            return
        member = self._member(conn)
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
            answer = self._check(member, message.action)
            conn.send(schemas.checked(message.action, str(answer), answer.code)
                      if isinstance(answer, Refusal) else schemas.checked(message.action, answer))
        else:
            handlers[type(message)](member, message)

    @staticmethod
    def _member(conn: Connection) -> Member:
        if conn.member is None:
            raise Refusal("hello-first", "say hello first: {\"type\": \"hello\", \"name\": ...}")
        return conn.member

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
            conn.send(chat_message(line))
        self._broadcast_room()
        if self.match is not None:
            conn.send(self.state_message(self.seat_of(member)))
        self._watch_host()
        self.wake.set()

    def _replace(self, member: Member, message: schemas.Replace) -> None:
        self._host_only(member)
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
        self.bots[seat] = new_bot(kind)
        self.waiting.discard(seat)
        self._broadcast_state()
        self.wake.set()

    def _new_match(self, member: Member, message: schemas.NewMatch) -> None:
        self._host_only(member)
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
        text = json.dumps(chat_message(line))
        for conn in self.conns:
            if conn.member is not None:
                conn.send(text)

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

    def _wait_refusal(self) -> Refusal | None:
        """The server's own wait between rounds (everyone reads the score sheet)."""
        if self.waiting:
            return Refusal("not-your-turn", "the next round starts once everyone has read "
                                            "the score sheet")
        return None

    def _turn_refusal(self, match: Match, seat: int, action: Action) -> Refusal | None:
        """:meth:`_wait_refusal`, else ``not-your-turn`` with the engine's own reason when
        it refuses ``action`` because another seat (or none) is to move."""
        refusal = self._wait_refusal()
        if refusal is not None:
            return refusal
        why = match.legal(seat).reason(action)
        if why is not None and why.key in _TURN_KEYS:
            return Refusal("not-your-turn", why, why)
        return None

    def _action(self, member: Member, text: str) -> None:
        match, seat = self._seated_match(member)
        action = self._parse(text, seat)
        refusal = self._turn_refusal(match, seat, action)
        if refusal is not None:
            raise refusal
        self._act(action)

    def _check(self, member: Member, text: str) -> str | Refusal | None:
        """Why the action would be refused (a :class:`Reason` when the engine says, else the
        server's :class:`Refusal`), or ``None``."""
        match, seat = self._seated_match(member)
        try:
            action = self._parse(text, seat)
        except Refusal as problem:
            return problem.why or problem
        refusal = self._wait_refusal()
        if refusal is not None:
            return refusal
        return match.legal(seat).reason(action)

    def _suggestion(self, conn: Connection) -> Action | Decision:
        """What ``suggest`` asks now: the action itself when there is no choice, else the
        decision for the room's suggestion player (made off the event loop)."""
        member = self._member(conn)
        match, seat = self._seated_match(member)
        refusal = self._wait_refusal()
        if refusal is not None:
            raise refusal
        legal = match.legal(seat)
        if not legal:  # the engine's reason: another seat's turn, or nothing to do now
            why = legal.reason(Draw(seat))
            raise Refusal("not-your-turn", why or "nothing to do now", why)
        if member.id in self._thinking:
            raise Refusal("busy", "your last suggestion is still being worked out")
        rnd = match.round
        draw = rnd.only_draw(seat) if rnd.phase is Phase.DEAL else None
        if draw is not None:
            return draw
        forced = only_action(legal) if rnd.phase is Phase.DEAL else None
        if forced is not None:
            return forced
        return Decision(match, self.version, seat, new_bot(self.suggester), match.view(seat),
                        legal)

    async def _suggest(self, conn: Connection) -> None:
        """Answer ``suggest``: the suggestion player's choice, worked out in a thread with the
        room's lock released, for at most ``bot_time`` (one at a time per member), and
        answered by a task of its own (the connection's other messages are read meanwhile)."""
        async with self.lock:
            try:
                asked = self._suggestion(conn)
            except Refusal as refusal:
                conn.send(error(refusal.code, str(refusal), refusal.why))
                return
            except Exception:
                log.exception("room %s: failed on a suggestion", self.code)
                conn.send(error("internal", "the server failed on this message"))
                return
            if not isinstance(asked, Decision):
                conn.send({"type": "suggestion", "action": str(asked)})
                return
            assert conn.member is not None
            future = self._start_thinking(asked, conn.member.id, SUGGESTIONS)
        task = asyncio.create_task(self._answer_suggestion(conn, asked, future))
        self._timers.add(task)  # the connection reads on meanwhile
        task.add_done_callback(self._timers.discard)

    async def _answer_suggestion(self, conn: Connection, asked: Decision,
                                 future: asyncio.Future[Action]) -> None:
        limit = self.settings.bot_time
        try:
            action = await asyncio.wait_for(asyncio.shield(future), limit)
        except TimeoutError:
            conn.send(error("suggest-timeout", f"the {self.suggester} player found no "
                                               f"suggestion within {limit:g} seconds"))
            return
        except Exception:
            log.exception("room %s: the suggestion failed", self.code)
            conn.send(error("internal", "the server failed on this message"))
            return
        async with self.lock:
            if self.match is not asked.match or self.version != asked.version:
                conn.send(error("moved-on", "the game moved on while the suggestion was "
                                            "worked out; ask again"))
            elif asked.legal.reason(action) is not None:
                log.warning("room %s: the suggestion %s is illegal", self.code, action)
                conn.send(error("internal", "the server failed on this message"))
            else:
                conn.send({"type": "suggestion", "action": str(action)})

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

