"""Where rooms live between restarts: a small :class:`Storage` interface and its SQLite version.

A room is its lobby (configuration, host, seats), its members (names and hashed seat tokens),
its matches (rules, seed, names) and, per match, an append-only log of actions in the record
notation (and the positions of those a stand-in computer player chose for an absent person).
:meth:`Storage.append_actions` commits before it returns, and the server calls it before it
acknowledges an action, so a crash loses no acknowledged action: on start every live room is
rebuilt by replaying its log. SQLite runs in WAL mode with ``synchronous=NORMAL``: a committed
action survives the server process being killed (an operating-system crash or power loss may
lose the last ones). Another backend (PostgreSQL) implements the same methods.
"""

from __future__ import annotations

import json
import os
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol


@dataclass
class RoomRow:
    """A room's lobby: ``seats`` holds one ``{"kind", "member", "bot"}`` dict per seat."""

    code: str
    config: dict[str, Any]
    host: str | None
    seats: list[dict[str, Any]]
    status: str
    match_no: int
    created: float
    last_active: float


@dataclass(frozen=True)
class MemberRow:
    """A member of a room: ``token_hash`` is the SHA-256 of the seat token."""

    id: str
    name: str
    token_hash: str


@dataclass(frozen=True)
class MatchRow:
    """A match as started: enough, with its action log, to rebuild it (and its record)."""

    no: int
    rules: dict[str, Any]
    seed: int
    names: list[str]
    kinds: list[str]
    actions: list[str] = field(default_factory=list)
    stand_ins: list[int] = field(default_factory=list)
    """The positions in ``actions`` (from 0) that a stand-in chose for an absent person."""


@dataclass(frozen=True)
class ChatRow:
    """One chat line."""

    member: str
    name: str
    seat: int | None
    text: str
    time: float


class Storage(Protocol):
    """What the rooms need from a database."""

    def save_room(self, room: RoomRow) -> None:
        """Insert or update a room's lobby row."""

    def delete_room(self, code: str) -> None:
        """Forget a room and everything in it."""

    def load_rooms(self) -> list[RoomRow]:
        """Every stored room."""

    def add_member(self, code: str, member: MemberRow, room: RoomRow | None = None) -> None:
        """Add a member to a room (and save ``room``'s row, in the same transaction)."""

    def members(self, code: str) -> list[MemberRow]:
        """A room's members, in the order they joined."""

    def delete_members(self, code: str, ids: list[str], room: RoomRow) -> None:
        """Forget members of a room and save its row, in one transaction."""

    def start_match(self, code: str, match: MatchRow) -> None:
        """Store a match as it starts (its seed never leaves the server before it ends), or
        store its row again (the seats' kinds after a ``replace``), keeping its action log."""

    def load_match(self, code: str, no: int) -> MatchRow | None:
        """A stored match with its whole action log."""

    def append_actions(self, code: str, no: int, first: int, actions: list[str],
                       now: float, status: str | None = None, stand_in: bool = False) -> None:
        """Append actions ``first``, ``first + 1``... of match ``no`` (and set the room's
        ``status`` if given; ``stand_in``: a stand-in chose them for an absent person) in one
        transaction, committed on return."""

    def add_chat(self, code: str, line: ChatRow, keep: int) -> None:
        """Store a chat line, keeping the room's last ``keep`` lines only."""

    def chat(self, code: str, limit: int) -> list[ChatRow]:
        """The last ``limit`` chat lines, oldest first."""

    def close(self) -> None:
        """Release the database."""


_SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY, config TEXT NOT NULL, host TEXT, seats TEXT NOT NULL,
    status TEXT NOT NULL, match_no INTEGER NOT NULL, created REAL NOT NULL,
    last_active REAL NOT NULL);
CREATE TABLE IF NOT EXISTS members (
    room TEXT NOT NULL, n INTEGER NOT NULL, id TEXT NOT NULL, name TEXT NOT NULL,
    token_hash TEXT NOT NULL, PRIMARY KEY (room, id));
CREATE TABLE IF NOT EXISTS matches (
    room TEXT NOT NULL, no INTEGER NOT NULL, rules TEXT NOT NULL, seed INTEGER NOT NULL,
    names TEXT NOT NULL, kinds TEXT NOT NULL, PRIMARY KEY (room, no));
CREATE TABLE IF NOT EXISTS actions (
    room TEXT NOT NULL, no INTEGER NOT NULL, n INTEGER NOT NULL, action TEXT NOT NULL,
    PRIMARY KEY (room, no, n));
CREATE TABLE IF NOT EXISTS stand_ins (
    room TEXT NOT NULL, no INTEGER NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (room, no, n));
CREATE TABLE IF NOT EXISTS chat (
    id INTEGER PRIMARY KEY AUTOINCREMENT, room TEXT NOT NULL, member TEXT NOT NULL,
    name TEXT NOT NULL, seat INTEGER, text TEXT NOT NULL, time REAL NOT NULL);
CREATE INDEX IF NOT EXISTS chat_room ON chat (room, id);
"""


class SQLiteStorage:
    """:class:`Storage` in one SQLite file (``":memory:"`` for a throwaway server)."""

    def __init__(self, path: str | Path) -> None:
        if str(path) != ":memory:":  # readable by its owner only (SQLite gives its WAL files
            os.close(os.open(path, os.O_CREAT | os.O_RDWR, 0o600))  # the same mode)
        self.db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(_SCHEMA)

    def _write(self, sql: str, *rows: tuple[Any, ...]) -> None:
        with self.db:  # one transaction, committed on leaving
            self.db.execute("BEGIN")
            self.db.executemany(sql, rows)

    def save_room(self, room: RoomRow) -> None:
        """Insert or update a room's lobby row."""
        with self.db:
            self.db.execute("BEGIN")
            self._save_room(room)

    def _save_room(self, room: RoomRow) -> None:
        self.db.execute("INSERT OR REPLACE INTO rooms VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        (room.code, json.dumps(room.config), room.host, json.dumps(room.seats),
                         room.status, room.match_no, room.created, room.last_active))

    def delete_room(self, code: str) -> None:
        """Forget a room and everything in it."""
        with self.db:
            self.db.execute("BEGIN")
            for table in ("rooms", "members", "matches", "actions", "stand_ins", "chat"):
                column = "code" if table == "rooms" else "room"
                self.db.execute(f"DELETE FROM {table} WHERE {column} = ?", (code,))

    def load_rooms(self) -> list[RoomRow]:
        """Every stored room."""
        rows = self.db.execute("SELECT code, config, host, seats, status, match_no, created,"
                               " last_active FROM rooms ORDER BY created").fetchall()
        return [RoomRow(code, json.loads(config), host, json.loads(seats), status, no, created,
                        active)
                for code, config, host, seats, status, no, created, active in rows]

    def add_member(self, code: str, member: MemberRow, room: RoomRow | None = None) -> None:
        """Add a member to a room (and save ``room``'s row, in the same transaction)."""
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute("INSERT INTO members VALUES (?, (SELECT COALESCE(MAX(n) + 1, 0)"
                            " FROM members WHERE room = ?), ?, ?, ?)",
                            (code, code, member.id, member.name, member.token_hash))
            if room is not None:
                self._save_room(room)

    def members(self, code: str) -> list[MemberRow]:
        """A room's members, in the order they joined."""
        rows = self.db.execute("SELECT id, name, token_hash FROM members WHERE room = ?"
                               " ORDER BY n", (code,)).fetchall()
        return [MemberRow(*row) for row in rows]

    def delete_members(self, code: str, ids: list[str], room: RoomRow) -> None:
        """Forget members of a room and save its row, in one transaction."""
        with self.db:
            self.db.execute("BEGIN")
            self.db.executemany("DELETE FROM members WHERE room = ? AND id = ?",
                                [(code, i) for i in ids])
            self._save_room(room)

    def start_match(self, code: str, match: MatchRow) -> None:
        """Store a match as it starts."""
        self._write("INSERT OR REPLACE INTO matches VALUES (?, ?, ?, ?, ?, ?)",
                    (code, match.no, json.dumps(match.rules), match.seed,
                     json.dumps(match.names), json.dumps(match.kinds)))

    def load_match(self, code: str, no: int) -> MatchRow | None:
        """A stored match with its whole action log."""
        row = self.db.execute("SELECT rules, seed, names, kinds FROM matches WHERE room = ?"
                              " AND no = ?", (code, no)).fetchone()
        if row is None:
            return None
        actions = [a for (a,) in self.db.execute(
            "SELECT action FROM actions WHERE room = ? AND no = ? ORDER BY n", (code, no))]
        stand_ins = [n for (n,) in self.db.execute(
            "SELECT n FROM stand_ins WHERE room = ? AND no = ? ORDER BY n", (code, no))]
        return MatchRow(no, json.loads(row[0]), row[1], json.loads(row[2]), json.loads(row[3]),
                        actions, stand_ins)

    def append_actions(self, code: str, no: int, first: int, actions: list[str],
                       now: float, status: str | None = None, stand_in: bool = False) -> None:
        """Append actions to match ``no``'s log and touch the room (setting its ``status`` if
        given), in one transaction."""
        with self.db:
            self.db.execute("BEGIN")
            self.db.executemany("INSERT INTO actions VALUES (?, ?, ?, ?)",
                                [(code, no, first + i, a) for i, a in enumerate(actions)])
            if stand_in:
                self.db.executemany("INSERT INTO stand_ins VALUES (?, ?, ?)",
                                    [(code, no, first + i) for i in range(len(actions))])
            self.db.execute("UPDATE rooms SET last_active = ?, status = COALESCE(?, status)"
                            " WHERE code = ?", (now, status, code))

    def add_chat(self, code: str, line: ChatRow, keep: int) -> None:
        """Store a chat line and drop the room's older ones beyond ``keep``, in one
        transaction."""
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute("INSERT INTO chat (room, member, name, seat, text, time)"
                            " VALUES (?, ?, ?, ?, ?, ?)",
                            (code, line.member, line.name, line.seat, line.text, line.time))
            self.db.execute("DELETE FROM chat WHERE room = ? AND id NOT IN (SELECT id FROM chat"
                            " WHERE room = ? ORDER BY id DESC LIMIT ?)", (code, code, keep))

    def chat(self, code: str, limit: int) -> list[ChatRow]:
        """The last ``limit`` chat lines, oldest first."""
        rows = self.db.execute("SELECT member, name, seat, text, time FROM chat WHERE room = ?"
                               " ORDER BY id DESC LIMIT ?", (code, limit)).fetchall()
        return [ChatRow(*row) for row in reversed(rows)]

    def close(self) -> None:
        """Close the database."""
        self.db.close()
