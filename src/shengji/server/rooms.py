"""Every live room of a server (:class:`Rooms`): creation, restoring from storage, idle
expiry, and the websocket loop of each connection (connections per address, size, rate and
hello limits) that hands each valid message to its :class:`~shengji.server.room.Room`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from shengji.server import schemas
from shengji.server.limits import Settings
from shengji.server.members import Connection, Refusal, new_code
from shengji.server.room import Room
from shengji.server.room_rules import check_rules, rules_errors_json
from shengji.server.schemas import MessageError, error
from shengji.server.state import free_seat, log
from shengji.server.storage import RoomRow, Storage


class Rooms:
    """Every live room of a server: creation, restoring from storage, expiry, connections."""

    def __init__(self, storage: Storage, settings: Settings) -> None:
        self.storage = storage
        self.settings = settings
        self.rooms: dict[str, Room] = {}
        self.addresses: dict[str, int] = {}
        """Open websocket connections per client address."""
        self.unsaid: dict[str, int] = {}
        """Open websocket connections per client address that have not said hello yet."""
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
            room.autoplay.start()
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
                room.lobby.prune(now)
        gone = [code for code, room in self.rooms.items() if room.idle(now)]
        for code in gone:
            room = self.rooms.pop(code)
            room.cancel()
            self.storage.delete_room(code)
        return gone

    def create(self, preset_name: str, table: int, options: dict[str, Any]) -> str:
        """Open a room; raises :class:`Refusal` (``bad-rules`` with the field messages as JSON,
        ``{"errors", "why"}``, or ``too-many-rooms``)."""
        rules, errors = check_rules(preset_name, table, options)
        if rules is None:
            raise Refusal("bad-rules", json.dumps(rules_errors_json(errors)))
        if len(self.rooms) >= self.settings.max_rooms:
            raise Refusal("too-many-rooms", f"this server already has {self.settings.max_rooms} "
                                            "rooms; try again later")
        code = new_code()
        while code in self.rooms:
            code = new_code()
        now = time.time()
        row = RoomRow(code, {"preset": preset_name, "table": table, "rules": dict(options)},
                      None, [free_seat() for _ in range(table)], "lobby", 0, now, now)
        self.storage.save_room(row)
        room = Room(row, self.storage, self.settings)
        self.rooms[code] = room
        room.autoplay.start()
        return code

    async def serve(self, code: str, websocket: WebSocket) -> None:
        """Run one websocket connection to room ``code`` until it closes (refused when its
        client address has ``max_address_connections`` open already, or
        ``max_address_pending`` that have not said hello)."""
        await websocket.accept()
        address = websocket.client.host if websocket.client else ""
        settings = self.settings
        most, unsaid = settings.max_address_connections, settings.max_address_pending
        if most and self.addresses.get(address, 0) >= most:
            why = f"at most {most} connections from one address; close some first"
        elif unsaid and self.unsaid.get(address, 0) >= unsaid:
            why = (f"at most {unsaid} connections from one address that have not said hello; "
                   "try again in a moment")
        else:
            why = None
        if why is not None:
            await websocket.send_text(json.dumps(error("too-many-connections", why)))
            await websocket.close(code=1013)
            return
        self.addresses[address] = self.addresses.get(address, 0) + 1
        self.unsaid[address] = self.unsaid.get(address, 0) + 1
        waiting = [True]  # counted in unsaid until it says hello (or closes)

        def greeted() -> None:
            if waiting[0]:
                waiting[0] = False
                _count_down(self.unsaid, address)

        try:
            await self._serve(code, websocket, greeted)
        finally:
            greeted()
            _count_down(self.addresses, address)

    async def _serve(self, code: str, websocket: WebSocket, greeted: Callable[[], None]
                     ) -> None:
        room = self.rooms.get(code)
        if room is None:
            await websocket.send_text(json.dumps(error("no-room", f"there is no room {code!r} "
                                                       "(it may have expired)")))
            await websocket.close(code=4404)
            return
        conn = Connection(websocket, self.settings)
        room.join(conn)
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
                if conn.member is not None:
                    greeted()
        except WebSocketDisconnect:
            pass
        finally:
            await room.leave(conn)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, timeout=1.0)
            writer.cancel()


def _count_down(counts: dict[str, int], address: str) -> None:
    """One connection fewer from ``address`` (forgotten at none)."""
    left = counts.pop(address) - 1
    if left:
        counts[address] = left
