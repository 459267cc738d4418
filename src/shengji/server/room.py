"""A room: :class:`Room` handles every message of every connection, one at a time under the
room's :class:`asyncio.Lock` (a refusal becomes an ``error`` to its sender and changes nothing;
a suggestion is worked out in a thread, off the lock).

A room is composed of collaborators, each given what it needs:

- :class:`~shengji.server.state.RoomState` (``room.state``): seats, members, connections, the
  match and its action log; it writes to storage and sends the ``room`` and ``state`` messages;
- :class:`~shengji.server.lobby.Lobby` (``room.lobby``): seating, configuration, the start,
  replacing a seat, a new match, the kick, the host's heir (given the state and a wake-up
  callback);
- :class:`~shengji.server.autoplay.AutoPlay` (``room.autoplay``): the computer players' driver
  and the suggestion player (given the state and the room's lock).

How an action travels: a websocket message is read by :mod:`shengji.server.rooms` and
validated by :mod:`shengji.server.schemas` into a message model; :meth:`Room.handle` takes the
room's lock and dispatches it to the collaborator that owns it (an ``action`` to
:meth:`Room._action`, a lobby command to :class:`Lobby`); the game decides (the action is parsed
and checked by the match's :class:`~shengji.game.legal.Legal`; a lobby command's rules by the
engine's validation); :class:`RoomState` writes the change to storage, and only then broadcasts
each connection its own ``room`` or redacted ``state`` message; last the computer players are
woken (:meth:`AutoPlay.wake`), and their moves take the same path from :class:`AutoPlay`.

A connection is pending (:attr:`Room.pending`, outside ``state.conns`` and its
``max_connections``) until its ``hello`` is accepted. After every message, and when a timer
says so, the seats of people away past the absent grace are handed to stand-in computer players
and given back to those who returned (:meth:`Room._refresh_auto`).
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from shengji.engine.cards import NotationError
from shengji.game.actions import Action, parse_action
from shengji.game.config import rules_from_dict
from shengji.game.legal import ActionError
from shengji.game.match import Match
from shengji.game.record import write_record
from shengji.players import player_label
from shengji.server import schemas
from shengji.server.autoplay import AutoPlay, Suggestion
from shengji.server.limits import SUGGEST_GRACE, RateLimit, Settings
from shengji.server.lobby import Lobby
from shengji.server.members import Connection, Member, Refusal, hash_token
from shengji.server.review import REVIEW_LIMIT, Reviews
from shengji.server.schemas import error
from shengji.server.state import RoomState, chat_message, log
from shengji.server.storage import ChatRow, MatchRow, MemberRow, RoomRow, Storage

_TURN_KEYS = frozenset({"turn-of", "turn-of-nobody", "not-your-turn", "draw-turn"})
"""The keys of the engine's reasons that refuse an action because another seat (or none)
is to move: the server sends them as ``not-your-turn`` errors (else ``illegal``)."""


T = TypeVar("T")
"""What a piece of work answered off the event loop gives."""


class Room:
    """A room: its state, lobby and computer players under one lock; it reads the messages in
    (hello, actions, checks, suggestions, the next round, chat) and its connections."""

    def __init__(self, row: RoomRow, storage: Storage, settings: Settings) -> None:
        self.lock = asyncio.Lock()
        """The room's one lock: every change to the room is made under it."""
        self.state = RoomState(row, storage, settings)
        self.autoplay = AutoPlay(self.state, self.lock)
        self.lobby = Lobby(self.state, self.autoplay.wake)
        self.reviews = Reviews()
        self._timers: set[asyncio.Task[None]] = set()
        """Tasks cancelled when the room stops: the host's grace timer, suggestions,
        reviews."""
        self.pending: set[Connection] = set()
        """Connections that have not said hello yet (not in ``state.conns``: they never
        count towards ``max_connections``)."""
        self._absent: tuple[float, asyncio.Task[None]] | None = None
        """When the next seat is to be handed to a stand-in (its person away past the absent
        grace), and its timer."""
        self._record: tuple[int, str] | None = None
        """The latest finished match's number and record text."""
        lobby = self.lobby
        self._handlers: dict[type, Callable[[Member, Any], None]] = {
            schemas.Sit: lobby.sit, schemas.Stand: lobby.stand,
            schemas.Configure: lobby.configure, schemas.AddBot: lobby.add_bot,
            schemas.Remove: lobby.remove, schemas.Move: lobby.move, schemas.Start: lobby.start,
            schemas.Replace: lobby.replace, schemas.NewMatch: lobby.new_match,
            schemas.Kick: lobby.kick, schemas.NextRound: self._next_round,
            schemas.Chat: self._chat,
        }
        """Who handles each message other than ``hello``, ``action`` and ``check``."""

    @property
    def code(self) -> str:
        """The room's code."""
        return self.state.code

    @classmethod
    def restore(cls, row: RoomRow, storage: Storage, settings: Settings) -> Room:
        """Rebuild a stored room: members, chat and the match replayed from its log."""
        room = cls(row, storage, settings)
        state = room.state
        for m in storage.members(row.code):
            state.members[m.id] = Member(m.id, m.name, m.token_hash, time.time())
        state.chat.extend(storage.chat(row.code, settings.chat_history))
        if row.status != "lobby":
            stored = storage.load_match(row.code, row.match_no)
            if stored is None:
                row.status = "lobby"
            else:
                state.replay(stored)
        return room

    # -- messages in ---------------------------------------------------------------------

    async def handle(self, conn: Connection, message: schemas.ClientMessage) -> None:
        """Handle one validated message; a refusal becomes an ``error`` to ``conn`` only."""
        if isinstance(message, schemas.Suggest):
            await self._suggest(conn)
            return
        if isinstance(message, schemas.Review):
            await self._review(conn)
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
            self._refresh_auto()

    def _dispatch(self, conn: Connection, message: schemas.ClientMessage) -> None:
        if isinstance(message, schemas.Hello):
            self._hello(conn, message)
            return
        member = self._member(conn)
        if isinstance(message, schemas.ActionMessage):
            self._action(member, message.action)
        elif isinstance(message, schemas.Check):
            answer = self._check(member, message.action)
            conn.send(schemas.checked(message.action, str(answer), answer.code)
                      if isinstance(answer, Refusal) else schemas.checked(message.action, answer))
        else:
            self._handlers[type(message)](member, message)

    @staticmethod
    def _member(conn: Connection) -> Member:
        if conn.member is None:
            raise Refusal("hello-first", "say hello first: {\"type\": \"hello\", \"name\": ...}")
        return conn.member

    def _hello(self, conn: Connection, hello: schemas.Hello) -> None:
        state, settings = self.state, self.state.settings
        if conn.member is not None:
            raise Refusal("bad-message", "this connection has already said hello")
        member = None
        token = hello.token
        if token:
            digest = hash_token(token)
            member = next((m for m in state.members.values()
                           if secrets.compare_digest(m.token_hash, digest)), None)
        if member is not None:
            if state.online.get(member.id, 0) >= settings.max_member_connections:
                raise Refusal("too-many-connections", "you are connected to this room "
                              f"{settings.max_member_connections} times already; close "
                              "one of them first")
            if state.seat_of(member) is None:  # a seated person always gets back in
                self._room_for_one_more()
        else:
            self._room_for_one_more()
            name = hello.name
            key = schemas.name_key(name)
            if any(schemas.name_key(m.name) == key for m in state.members.values()):
                raise Refusal("name-taken", f"someone in this room is already called {name!r}:"
                                            " choose another name")
            if len(state.online) >= settings.max_members:
                raise Refusal("room-full", f"this room already has {settings.max_members}"
                                           " connected members")
            if state.spectator_count() >= settings.max_spectators:
                raise Refusal("too-many-spectators",
                              f"this room already has {settings.max_spectators} spectators")
            token = secrets.token_urlsafe(24)
            member = Member(secrets.token_hex(4), name, hash_token(token))
            row = None
            if state.row.host is None:  # the first member hosts: stored with the member
                row = state.draft()
                row.host = member.id
            state.store(lambda: state.storage.add_member(
                state.code, MemberRow(member.id, member.name, member.token_hash), row))
            state.members[member.id] = member
            if row is not None:
                state.row = row
        conn.member = member
        self.pending.discard(conn)
        state.conns.append(conn)
        state.online[member.id] = state.online.get(member.id, 0) + 1
        changed = state.refresh_auto(time.time())  # back: their seat is theirs again
        conn.send({"type": "welcome", "token": token, "member": member.id, "room": self.code})
        for line in state.chat:
            conn.send(chat_message(line))
        state.broadcast_room()
        if state.match is not None and changed:
            state.broadcast_state()  # (this connection's too)
        elif state.match is not None:
            conn.send(state.state_message(state.seat_of(member)))
        self._watch_host()
        self.autoplay.wake()

    def _room_for_one_more(self) -> None:
        """Refuse a ``hello`` that would take the room past ``max_connections`` (connections
        that said hello; a seated person's are not refused)."""
        most = self.state.settings.max_connections
        if len(self.state.conns) >= most:
            raise Refusal("too-many-connections", f"this room already has {most} connections; "
                                                  "try again later")

    def _next_round(self, member: Member, message: schemas.NextRound) -> None:
        state = self.state
        if message.all:
            if member.id != state.row.host:
                raise Refusal("not-host", "only the host may start the next round for everyone")
            if not state.waiting and not state.excused:
                raise Refusal("not-waiting", "nobody is waiting for the next round")
            state.waiting.clear()
            state.excused.clear()
        else:
            seat = state.seat_of(member)
            if seat is None or seat not in state.waiting:
                raise Refusal("not-waiting", "nobody is waiting for you")
            state.waiting.discard(seat)
        state.broadcast_state()
        self.autoplay.wake()

    def _chat(self, member: Member, message: schemas.Chat) -> None:
        state, settings = self.state, self.state.settings
        rate = state.chat_rates.get(member.id)
        if rate is None:
            rate = state.chat_rates[member.id] = RateLimit(settings.chat_rate,
                                                           settings.chat_burst)
        if not rate.allow():
            raise Refusal("rate", f"too many chat lines: at most {settings.chat_rate:g} per "
                                  f"second (bursts of {settings.chat_burst})")
        line = ChatRow(member.id, member.name, state.seat_of(member), message.text, time.time())
        state.storage.add_chat(self.code, line, settings.chat_history)
        state.chat.append(line)
        state.touch()
        text = json.dumps(chat_message(line))
        for conn in state.conns:
            if conn.member is not None:
                conn.send(text)

    # -- actions, checks and suggestions -------------------------------------------------

    @staticmethod
    def _parse(text: str, seat: int) -> Action:
        try:
            action = parse_action(text)
        except (NotationError, ActionError, ValueError) as problem:
            raise Refusal("bad-action", str(problem)) from None
        if action.seat != seat:
            raise Refusal("not-your-seat", f"you sit at seat {seat}: you cannot act for "
                                           f"seat {action.seat}")
        return action

    def _turn_refusal(self, match: Match, seat: int, action: Action) -> Refusal | None:
        """:meth:`RoomState.wait_refusal`, else ``not-your-turn`` with the engine's own reason
        when it refuses ``action`` because another seat (or none) is to move, or ``illegal``
        with its reason when it refuses it otherwise."""
        refusal = self.state.wait_refusal()
        if refusal is not None:
            return refusal
        why = match.legal(seat).reason(action)
        if why is None:
            return None
        return Refusal("not-your-turn" if why.key in _TURN_KEYS else "illegal", why, why)

    def _action(self, member: Member, text: str) -> None:
        match, seat = self.state.seated_match(member)
        action = self._parse(text, seat)
        refusal = self._turn_refusal(match, seat, action)
        if refusal is not None:
            raise refusal
        self.state.act(action)
        self.autoplay.wake()

    def _check(self, member: Member, text: str) -> str | Refusal | None:
        """Why the action would be refused (a :class:`Reason` when the engine says, else the
        server's :class:`Refusal`), or ``None``."""
        match, seat = self.state.seated_match(member)
        try:
            action = self._parse(text, seat)
        except Refusal as problem:
            return problem.why or problem
        refusal = self.state.wait_refusal()
        if refusal is not None:
            return refusal
        return match.legal(seat).reason(action)

    def _suggestion(self, conn: Connection) -> Action | Suggestion:
        """What ``suggest`` asks now (see :meth:`AutoPlay.suggestion`)."""
        member = self._member(conn)
        match, seat = self.state.seated_match(member)
        refusal = self.state.wait_refusal()
        if refusal is not None:
            raise refusal
        return self.autoplay.suggestion(member.id, match, seat)

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
            if not isinstance(asked, Suggestion):
                conn.send(self.state.suggestion(asked, chosen=False))
                return
        self._later(self._answer_suggestion(conn, asked))

    def _later(self, answer: Coroutine[Any, Any, None]) -> None:
        """Answer in a task of its own (the connection's other messages are read meanwhile;
        the task is cancelled if the room stops)."""
        task = asyncio.create_task(answer)
        self._timers.add(task)
        task.add_done_callback(self._timers.discard)

    async def _awaited(self, conn: Connection, work: asyncio.Future[T], limit: float,
                       late: dict[str, Any], what: str) -> T | None:
        """``work``'s result within ``limit`` seconds (it goes on regardless), else None
        once ``conn`` has been told: ``late`` (an ``error``), or the server's failure."""
        try:
            return await asyncio.wait_for(asyncio.shield(work), limit)
        except TimeoutError:
            conn.send(late)
        except Exception:
            log.exception("room %s: %s failed", self.code, what)
            conn.send(error("internal", "the server failed on this message"))
        return None

    async def _answer_suggestion(self, conn: Connection, suggestion: Suggestion) -> None:
        state = self.state
        wait = state.settings.bot_time + SUGGEST_GRACE
        late = error("suggest-timeout", f"the {player_label(state.suggester, state.suggest_time)}"
                                        f" found no suggestion within {wait:g} seconds")
        try:
            action = await self._awaited(conn, suggestion.work, wait, late, "the suggestion")
        finally:
            suggestion.awaited = False  # answered or told: the member may ask again
        if action is None:
            return
        asked = suggestion.move
        async with self.lock:
            if state.match is not asked.match or state.version != asked.version:
                conn.send(error("moved-on", "the game moved on while the suggestion was "
                                            "worked out; ask again"))
            elif asked.legal.reason(action) is not None:
                log.warning("room %s: the suggestion %s is illegal", self.code, action)
                conn.send(error("internal", "the server failed on this message"))
            else:
                conn.send(state.suggestion(action))

    async def _review(self, conn: Connection) -> None:
        """Answer ``review``: the member's own seat's review of the last finished round
        (:mod:`shengji.server.review`), sent to this connection only; made in a thread, and
        answered by a task of its own (the connection's other messages are read meanwhile)."""
        async with self.lock:
            try:
                asked = self.reviews.ask(self.state, self._member(conn))
            except Refusal as refusal:
                conn.send(error(refusal.code, str(refusal), refusal.why))
                return
        if isinstance(asked, dict):
            conn.send(asked)
        else:
            self._later(self._answer_review(conn, asked))

    async def _answer_review(self, conn: Connection,
                             making: asyncio.Future[dict[str, Any]]) -> None:
        late = error("review-timeout", f"the review took more than {REVIEW_LIMIT:g} seconds; "
                                       "ask again later")
        message = await self._awaited(conn, making, REVIEW_LIMIT, late, "the review")
        if message is not None:
            conn.send(message)

    # -- connections ---------------------------------------------------------------------

    def join(self, conn: Connection) -> None:
        """A new connection: it says hello next (until then it is only pending)."""
        self.pending.add(conn)

    async def leave(self, conn: Connection) -> None:
        """A connection closed."""
        state = self.state
        if conn in self.pending:
            self.pending.discard(conn)
            conn.close()
            return
        async with self.lock:
            if conn not in state.conns:
                return
            state.conns.remove(conn)
            conn.close()
            if conn.member is not None:
                count = state.online.pop(conn.member.id) - 1
                if count:
                    state.online[conn.member.id] = count
                else:
                    conn.member.away = time.time()
                state.broadcast_room()
                self._watch_host()
                self._watch_absent()

    # -- people away: their seats played for them ----------------------------------------

    def _refresh_auto(self) -> None:
        """Hand seats of people away past the absent grace to stand-ins, and back to those
        who returned (:meth:`RoomState.refresh_auto`); announce a change and time the next."""
        state = self.state
        if state.refresh_auto(time.time()):
            state.broadcast_room()
            if state.match is not None:
                state.broadcast_state()
            self.autoplay.wake()
        self._watch_absent()

    def _watch_absent(self) -> None:
        """Time the next hand-over: when the first person away and not yet played for reaches
        the absent grace."""
        state = self.state
        grace = state.absent_grace
        due = [away + grace for s in range(len(state.row.seats)) if s not in state.auto_seats
               and (away := state.absent_since(s)) is not None] if (
            grace > 0 and state.row.status == "playing") else []
        when = min(due) if due else None
        if self._absent is not None:
            if self._absent[0] == when:
                return
            self._absent[1].cancel()
            self._absent = None
        if when is not None:
            self._absent = (when, asyncio.create_task(self._absent_later(when - time.time())))

    async def _absent_later(self, delay: float) -> None:
        await asyncio.sleep(max(0.0, delay) + 0.01)
        async with self.lock:
            self._absent = None  # this task: not cancelled by the next timer
            self._refresh_auto()

    def _watch_host(self) -> None:
        """If the host is away, hand the role on after the grace period."""
        host = self.state.row.host
        if host is None or self.state.connected(host):
            return
        task = asyncio.create_task(self._pass_host_later())
        self._timers.add(task)
        task.add_done_callback(self._timers.discard)

    async def _pass_host_later(self) -> None:
        await asyncio.sleep(self.state.settings.host_grace)
        async with self.lock:
            self.lobby.pass_host()

    async def stop(self) -> None:
        """Stop the computer players and the timers, and close every connection."""
        self.cancel()
        await self.autoplay.stop()
        for conn in [*self.state.conns, *self.pending]:
            conn.close()

    def cancel(self) -> None:
        """Cancel the room's timers and its computer players' driver (it is being deleted)."""
        for task in list(self._timers):
            task.cancel()
        if self._absent is not None:
            self._absent[1].cancel()
            self._absent = None
        self.autoplay.cancel()

    def idle(self, now: float) -> bool:
        """True when nobody is connected and nothing happened for the idle expiry, or nobody
        joined within the unjoined expiry."""
        state, settings = self.state, self.state.settings
        if self.pending:  # someone is about to say hello
            return False
        if not state.members and now - state.row.created > settings.unjoined_expiry:
            return True
        return not state.conns and now - state.row.last_active > settings.idle_expiry

    async def record(self) -> str | None:
        """The latest finished match's record (TOML), or ``None`` if none is finished. Built in
        a thread (replaying the match), once per match: a finished match never changes."""
        state = self.state
        async with self.lock:
            if state.match is not None and state.match.is_over and state.match_row is not None:
                no, finished, stored = state.match_row.no, state.match, state.match_row
            elif state.row.match_no == 0:
                return None
            else:
                no, finished = state.row.match_no - 1, None
                loaded = state.storage.load_match(self.code, no)
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
