"""A real ``shengji serve`` process killed with SIGKILL in the middle of a round and started
again on the same database: the people reconnect with their seat tokens, see exactly the state
they saw before the kill, and finish the round."""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.testclient import TestClient
from websockets.sync.client import ClientConnection, connect

from shengji.game.actions import parse_action
from shengji.game.config import rules_from_dict
from shengji.game.match import Match
from shengji.server.app import create_app
from shengji.server.schemas import SERVER_MESSAGE
from shengji.server.storage import MatchRow, SQLiteStorage
from test_server_protocol import (
    FAST,
    Server,
    act,
    joined,
    my_turn,
    play_round,
    serving,
    settled,
    table,
)

TIMEOUT = 20.0


class WSClient:
    """A websocket client with the interface of the protocol tests' ``Client``."""

    def __init__(self, url: str) -> None:
        self.stack = contextlib.ExitStack()
        self.ws: ClientConnection = self.stack.enter_context(connect(url, open_timeout=TIMEOUT))
        self.seen: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self.token: str | None = None

    def send(self, kind: str, /, **fields: Any) -> None:
        self.ws.send(json.dumps({"type": kind, **fields}))

    def recv(self) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.recv(timeout=TIMEOUT))
        SERVER_MESSAGE.validate_python(message)
        self.seen.append(message)
        if message["type"] == "state":
            self.state = message
        elif message["type"] == "welcome":
            self.token = message["token"]
        return message

    def until(self, test: Any) -> dict[str, Any]:
        while True:
            message = self.recv()
            if test(message):
                return message

    def expect(self, kind: str) -> dict[str, Any]:
        return self.until(lambda m: m["type"] == kind)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def serve(port: int, db: Path) -> subprocess.Popen[str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "shengji", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--db", str(db), "--deal-pace", "0", "--bot-delay", "0", "--rate", "1000",
         "--burst", "1000"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"})
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/presets", timeout=1).status_code == 200:
                return process
        except httpx.TransportError:
            time.sleep(0.05)
    process.kill()
    raise AssertionError(f"the server did not start: {process.communicate()[0]}")


@pytest.mark.slow
def test_sigkill_mid_round_loses_nothing(tmp_path: Path) -> None:
    db, port = tmp_path / "rooms.sqlite3", free_port()
    server = serve(port, db)
    try:
        code = httpx.post(f"http://127.0.0.1:{port}/api/rooms", json={
            "preset": "tractor", "table": 4, "rules": {}}).json()["room"]
        url = f"ws://127.0.0.1:{port}/ws/{code}"
        people: dict[int, WSClient] = {}
        for seat in (0, 1, 2):
            c = WSClient(url)
            c.send("hello", name=f"p{seat}")
            c.send("sit", seat=seat)
            c.until(lambda m, s=seat: m["type"] == "room" and m["you"]["seat"] == s)
            people[seat] = c
        people[0].send("add_bot", seat=3, kind="heuristic")
        people[0].send("start")
        pick = random.Random(4)
        for c in people.values():
            c.until(lambda m: settled(m, people))
        while True:  # past the bidding and the kitty, a few tricks into the play
            state = people[0].state
            assert state is not None
            if state["view"]["phase"] == "play" and len(state["view"]["tricks"]) >= 3:
                break
            mover = people[state["view"]["to_move"]]
            assert mover.state is not None and my_turn(mover.state)
            act(mover, pick)
            for c in people.values():
                c.until(lambda m: settled(m, people))
        before = {s: c.state for s, c in people.items()}
        assert before[0]["view"]["phase"] == "play"  # type: ignore[index]
        server.send_signal(signal.SIGKILL)
        server.wait(TIMEOUT)
        for c in people.values():
            c.stack.close()

        server = serve(port, db)
        again: dict[int, WSClient] = {}
        for seat, old in people.items():
            c = WSClient(url)
            c.send("hello", name="someone else", token=old.token)
            room = c.expect("room")
            assert room["you"]["seat"] == seat and room["status"] == "playing"
            assert c.expect("state") == before[seat]
            again[seat] = c
        assert play_round(again, [], pick) > 0
        sheet = again[0].state["match"]["results"][-1]  # type: ignore[index]
        assert sheet["lines"] and again[0].state["match"]["waiting"]  # type: ignore[index]
        for c in again.values():
            c.stack.close()
    finally:
        server.kill()
        server.wait(TIMEOUT)


class FailsOnTheLastAction(SQLiteStorage):
    """SQLite storage whose append of the action that ends a match fails while ``full`` (a
    full disk, or a kill just before the commit)."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.shadow: Match | None = None
        self.applied = 0
        self.full = True
        self.failed = False

    def start_match(self, code: str, match: MatchRow) -> None:
        super().start_match(code, match)
        if self.shadow is None:  # (a replace stores the match's row again)
            self.shadow = Match(rules_from_dict(match.rules), seed=match.seed)

    def append_actions(self, code: str, no: int, first: int, actions: list[str],
                       now: float, status: str | None = None, stand_in: bool = False) -> None:
        assert self.shadow is not None
        for n, text in enumerate(actions, first):
            if n == self.applied:  # (actions that failed are offered again)
                self.shadow.apply(parse_action(text))
                self.applied += 1
        if self.shadow.is_over and self.full:
            self.failed = True
            raise OSError("disk full")
        super().append_actions(code, no, first, actions, now, status, stand_in)


def test_room_is_over_only_once_the_last_action_is_logged(tmp_path: Path) -> None:
    db = tmp_path / "rooms.sqlite3"
    store = FailsOnTheLastAction(db)
    with TestClient(create_app(storage=store, settings=FAST)) as http:
        server = Server(http)
        try:
            code = server.room("tractor", 4, end_rank="2")
            host = table(server, code, [0], {1: "random", 2: "random", 3: "random"})[0]
            host.send("start")
            host.send("replace", seat=0, kind="random")
            deadline = time.monotonic() + TIMEOUT
            while not store.failed and time.monotonic() < deadline:
                time.sleep(0.02)
            assert store.failed
            room = server.live(code).state
            record = f"/api/rooms/{code}/record"
            assert http.get(record).status_code == 409  # the seed stays secret
            status = sqlite3.connect(db).execute("SELECT status FROM rooms").fetchone()
            assert status == ("playing",)
            store.full = False
            watcher = server.connect(code)
            watcher.hello("Sam")  # wakes the room: the last action is played again
            watcher.until(lambda m: m["type"] == "state" and m["match"]["over"])
            assert room.row.status == "over" and http.get(record).status_code == 200
            status = sqlite3.connect(db).execute("SELECT status FROM rooms").fetchone()
            assert status == ("over",)
        finally:
            server.close()


def test_a_thinking_time_over_a_lower_bot_time_is_capped_after_a_restart(
        tmp_path: Path) -> None:
    """A room saved with 4 s of thinking under ``--bot-time 5`` and served again under
    ``--bot-time 1``: it offers 1 s, and the host may still change the room's other
    settings (only a new time over the limit is refused)."""
    db = tmp_path / "rooms.sqlite3"
    with serving(db, FAST) as (_http, server):
        code = server.room("tractor", 4)
        host = joined(server, code, "Ann")
        host.send("configure", preset="tractor", table=4, suggest="search", suggest_time=4)
        host.until(lambda m: m["type"] == "room" and m["config"]["suggest_time"] == 4)
        token = host.token
    with serving(db, replace(FAST, bot_time=1.0)) as (_http, server):
        host = server.connect(code)
        assert host.hello("Ann", token)["config"]["suggest_time"] == 1.0
        host.send("configure", preset="tractor", table=4, absent_grace=9)
        room = host.until(lambda m: m["type"] == "room" and m["config"]["absent_grace"] == 9)
        assert room["config"]["suggest_time"] == 1.0
        refused = host.error("configure", preset="tractor", table=4, suggest_time=2)
        assert refused["code"] == "bad-time" and "at most 1 seconds" in refused["message"]
