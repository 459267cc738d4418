"""A room's people and connections: members, seat tokens, refusals and the websocket writer."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import secrets
from dataclasses import dataclass
from typing import Any

from starlette.websockets import WebSocket

from shengji.engine.reasons import Reason
from shengji.server.limits import RateLimit, Settings

CODE_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"
"""Room codes: 10 characters of a 32-letter alphabet (50 bits, from :mod:`secrets`)."""
CODE_LENGTH = 10
_OUTBOX_LIMIT = 2000
"""Messages waiting for a client that reads nothing; beyond, the connection is closed."""


def new_code() -> str:
    """A fresh unguessable room code."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def hash_token(token: str) -> str:
    """How a seat token is stored: its SHA-256 (tokens are 192 random bits)."""
    return hashlib.sha256(token.encode()).hexdigest()


class Refusal(Exception):
    """A refused message: becomes an ``error`` to its sender; nothing changed. ``why``:
    the engine's reason, when the engine refused it."""

    def __init__(self, code: str, message: str, why: Reason | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.why = why



@dataclass
class Member:
    """Someone who joined the room (seated or watching)."""

    id: str
    name: str
    token_hash: str
    away: float = 0.0
    """When the member's last connection closed (``time.time()``)."""



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

