"""The server's limits: rooms, spectators, members, idle expiry (message size and rate are in
the protocol tests), and ``shengji serve``'s option checks."""

from __future__ import annotations

import argparse
import contextlib
import socket
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from shengji.cli import main
from shengji.game.actions import Action
from shengji.game.legal import Legal
from shengji.game.view import SeatView
from shengji.players import make_player
from shengji.server import room as room_module
from shengji.server import state as state_module
from shengji.server.app import create_app
from shengji.server.cli import add_serve_arguments, forwarded_allow_ips
from shengji.server.limits import RateLimit, Settings
from test_server_protocol import FAST, TIMEOUT, Client, a_choice, joined, serving, table


@contextlib.contextmanager
def sockets(http: TestClient, code: str) -> Iterator[Callable[[str], Client]]:
    """``connect(address)`` opens a websocket to room ``code`` as from that client address
    (``X-Forwarded-For``, the test client being a trusted proxy); all are closed at the end."""
    opened: list[Any] = []

    def connect(address: str) -> Client:
        ws = http.websocket_connect(f"/ws/{code}", headers={"X-Forwarded-For": address})
        opened.append(ws)
        return Client(ws.__enter__())

    try:
        yield connect
    finally:
        for ws in reversed(opened):
            with contextlib.suppress(Exception):
                ws.__exit__(None, None, None)



def test_room_limit() -> None:
    with TestClient(create_app(":memory:", Settings(max_rooms=2))) as http:
        body = {"preset": "tractor", "table": 4}
        for _ in range(2):
            assert http.post("/api/rooms", json=body).status_code == 201
        answer = http.post("/api/rooms", json=body)
        assert answer.status_code == 503 and answer.json()["code"] == "too-many-rooms"
        assert "2 rooms" in answer.json()["errors"]["room"]


def test_spectator_and_member_limits() -> None:
    with serving(":memory:", Settings(max_spectators=1, max_members=4)) as (_http, server):
        code = server.room()
        ann = joined(server, code, "Ann")
        bob = server.connect(code)
        refusal = bob.hello("Bob")
        assert refusal["code"] == "too-many-spectators" and "1 spectators" in refusal["message"]
        ann.send("sit", seat=0)
        ann.until(lambda m: m["type"] == "room" and m["you"]["seat"] == 0)
        assert bob.hello("Bob")["type"] == "room"  # Ann has a seat now
        assert ann.error("stand")["code"] == "too-many-spectators"
        bob.send("sit", seat=1)
        bob.until(lambda m: m["type"] == "room" and m["you"]["seat"] == 1)
        cy = server.connect(code)
        assert cy.hello("Cy")["type"] == "room"
        assert server.connect(code).hello("Eve")["code"] == "too-many-spectators"
        cy.ws.close()  # a spectator who left makes room for another
        bob.until(lambda m: m["type"] == "room" and m["spectators"] == [])
        assert server.connect(code).hello("Di")["type"] == "room"
        assert server.connect(code).hello("Fay")["code"] == "too-many-spectators"


def test_idle_rooms_expire(tmp_path: Path) -> None:
    db = tmp_path / "rooms.sqlite3"
    with serving(db, Settings(idle_expiry=60)) as (http, server):
        idle, busy = server.room(), server.room()
        watcher = server.connect(busy)
        watcher.hello("Ann")
        rooms = http.app.state.rooms  # type: ignore[attr-defined]
        assert rooms.expire(time.time()) == []
        assert rooms.expire(time.time() + 61) == [idle]  # the busy one has a connection
        assert server.connect(idle).recv()["code"] == "no-room"
        stored = [c for (c,) in sqlite3.connect(db).execute("SELECT code FROM rooms")]
        assert stored == [busy]
    # a room that expired while the server was down is deleted on start
    with TestClient(create_app(db, Settings(idle_expiry=0))) as http:
        assert http.app.state.rooms.rooms == {}  # type: ignore[attr-defined]
    assert sqlite3.connect(db).execute("SELECT COUNT(*) FROM rooms").fetchone() == (0,)


def test_rate_limit_refills() -> None:
    bucket = RateLimit(rate=1000, burst=2)
    assert bucket.allow() and bucket.allow() and not bucket.allow()
    time.sleep(0.01)
    assert bucket.allow()


def test_serve_refuses_bad_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for option, value in (("--port", "70000"), ("--rate", "-1")):
        with pytest.raises(SystemExit) as stop:
            main(["serve", option, value])
        assert stop.value.code == 2
        assert f"argument {option}: must be" in capsys.readouterr().err
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert main(["serve", "--port", str(port), "--db", str(tmp_path / "x.sqlite3")]) == 2
    assert "cannot listen on 127.0.0.1" in capsys.readouterr().err


def test_host_role_passes_on_after_the_grace() -> None:
    with serving(":memory:", Settings(host_grace=0.05)) as (_http, server):
        code = server.room()
        ann = joined(server, code, "Ann")
        joined(server, code, "Sam")
        bob = joined(server, code, "Bob")
        bob.send("sit", seat=2)
        bob.until(lambda m: m["type"] == "room" and m["you"]["seat"] == 2)
        ann.ws.close()
        room = bob.until(lambda m: m["type"] == "room" and m["you"]["host"])
        assert room["host"] == bob.member  # a seated person before a spectator
        back = server.connect(code)
        assert back.hello("Ann", token=ann.token)["you"]["host"] is False


class Thinking(threading.Event):
    """Set when a slow player starts thinking; ``threads`` names the threads it thought in."""

    def __init__(self) -> None:
        super().__init__()
        self.threads: list[str] = []


class SlowPlayer:
    """A computer player that thinks for ``seconds`` (a stand-in for the search player)."""

    def __init__(self, seconds: float, thinking: Thinking) -> None:
        self.seconds = seconds
        self.thinking = thinking

    def act(self, view: SeatView, legal: Legal) -> Action:
        self.thinking.threads.append(threading.current_thread().name)
        self.thinking.set()
        time.sleep(self.seconds)
        return next(iter(legal))


def slow_search(monkeypatch: pytest.MonkeyPatch) -> Thinking:
    """Make the ``search`` player a :class:`SlowPlayer` of 2.5 s; the event is set when one
    starts thinking."""
    thinking = Thinking()
    monkeypatch.setattr(state_module, "make_player", lambda kind, seed, think=None: SlowPlayer(
        2.5, thinking) if kind == "search" else make_player(kind, seed))
    return thinking


@pytest.mark.slow
def test_slow_bots_think_off_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    thinking = slow_search(monkeypatch)
    with serving(":memory:", replace(FAST, bot_time=0.5)) as (http, server):
        code = server.room()
        host = table(server, code, [0], {1: "search", 2: "search", 3: "search"})[0]
        host.send("start")
        host.send("replace", seat=0, kind="search")  # only computer players
        assert thinking.wait(TIMEOUT)
        began = time.monotonic()
        while host.ws._send_rx.statistics().current_buffer_used:
            host.recv()  # what was sent before the bot began to think
        assert http.get("/api/presets").status_code == 200
        assert time.monotonic() - began < 1.0  # answered while the bot thinks
        # past bot_time a random legal action is played for it: the match goes on
        host.expect("state")
        assert time.monotonic() - began < 2.0


def test_suggestions_think_off_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    thinking = slow_search(monkeypatch)
    with serving(":memory:", replace(FAST, bot_time=0.5)) as (_http, server):
        code = server.room()
        host = table(server, code, [0], {1: "random", 2: "random", 3: "random"})[0]
        assert host.seen[-1]["config"]["suggest"] == "heuristic"
        refusal = host.error("configure", preset="tractor", table=4, suggest="nobody")
        assert refusal["code"] == "bad-bot"
        host.send("configure", preset="tractor", table=4, suggest="search")
        host.until(lambda m: m["type"] == "room" and m["config"]["suggest"] == "search")
        host.send("start")
        a_choice(host)
        host.send("suggest")
        assert thinking.wait(TIMEOUT)
        began = time.monotonic()
        assert host.error("suggest")["code"] == "busy"  # one suggestion at a time
        host.send("chat", text="still here")
        assert host.expect("chat")["text"] == "still here"  # the room answers meanwhile
        late = host.expect("error")
        assert late["code"] == "suggest-timeout" and late["message"] == (
            "the search player (up to 0.5 s) found no suggestion within 1.5 seconds")
        assert time.monotonic() - began < 2.3  # bot_time and a second's grace
        # Asked again for the same position: the member waits for the same work again (no
        # "busy", no second search), answered when it ends.
        host.send("suggest")
        again = host.expect("suggestion")
        assert again["by"] == "search" and time.monotonic() - began >= 2.3
        host.send("suggest")  # and once more: its result at once
        assert host.expect("suggestion")["action"] == again["action"]
        assert len(thinking.threads) == 1 and thinking.threads[0].startswith("suggest")


def test_connection_limits_and_hello_timeout() -> None:
    settings = replace(FAST, max_connections=3, max_member_connections=2, hello_timeout=0.3)
    with serving(":memory:", settings) as (_http, server):
        code = server.room()
        ann = server.connect(code)
        assert ann.hello("Ann")["type"] == "room"
        again = server.connect(code)
        assert again.hello("Ann", token=ann.token)["type"] == "room"
        third = server.connect(code)
        refusal = third.hello("Ann", token=ann.token)
        assert refusal["code"] == "too-many-connections" and "2 times" in refusal["message"]
        joined(server, code, "Bob")  # the room's third connection that said hello
        full = server.connect(code).hello("Cy")  # a fourth: refused at its hello
        assert full["code"] == "too-many-connections" and "3 connections" in full["message"]
        assert third.recv()["code"] == "hello-timeout"  # it never said hello (accepted)
        with pytest.raises(WebSocketDisconnect):
            third.ws.receive_text()
        again.ws.close()
        assert server.connect(code).hello("Ann", token=ann.token)["type"] == "room"


@pytest.mark.slow
def test_silent_sockets_never_lock_a_room() -> None:
    """Sockets that have not said hello do not count towards ``max_connections`` (only those
    that did), are closed at the hello timeout, and are limited per client address (16 by
    default); a seated person always gets back in with their token."""
    assert Settings().max_address_pending == 16
    settings = replace(FAST, max_connections=3, hello_timeout=1.0,
                       forwarded_allow_ips="testclient")
    with serving(":memory:", settings) as (http, server):
        code = server.room()
        with sockets(http, code) as connect:
            ann = connect("1.1.1.1")
            assert ann.hello("Ann")["type"] == "room"
            ann.send("sit", seat=0)
            ann.until(lambda m: m["type"] == "room" and m["you"]["seat"] == 0)
            silent = [connect(f"10.0.0.{k % 3}") for k in range(12)]  # 4 times the room's cap
            bob = connect("2.2.2.2")
            assert bob.hello("Bob")["type"] == "room"
            assert connect("3.3.3.3").hello("Cy")["type"] == "room"
            refused = connect("4.4.4.4").hello("Di")  # three connections said hello
            assert refused["code"] == "too-many-connections"
            tab = connect("1.1.1.1")  # Ann, seated, in another tab: let in all the same
            assert tab.hello("Ann", token=ann.token)["you"]["seat"] == 0
            for sock in silent:  # closed at the hello timeout
                assert sock.recv()["code"] == "hello-timeout"
                with pytest.raises(WebSocketDisconnect):
                    sock.ws.receive_text()
            # at most 16 from one address without a hello (the default), others unaffected
            waiting = [connect("9.9.9.9") for _ in range(16)]
            over = connect("9.9.9.9").recv()
            assert over["code"] == "too-many-connections" and "said hello" in over["message"]
            assert connect("5.5.5.5").hello("Eve")["code"] == "too-many-connections"  # cap
            tab.ws.close()
            bob.ws.close()
            ann.until(lambda m: m["type"] == "room" and m["spectators"] == ["Cy"])
            assert waiting[0].hello("Fay")["type"] == "room"  # it said hello: one fewer
            assert connect("9.9.9.9").hello("Gus")["code"] == "too-many-connections"


def test_a_hundred_silent_sockets_refuse_nobody() -> None:
    """With the default limits, 100 sockets that never say hello (from 7 addresses, at most 16
    each) leave the room open to a seated person reconnecting and to a newcomer."""
    settings = replace(FAST, forwarded_allow_ips="testclient")
    assert settings.max_connections == 100
    with serving(":memory:", settings) as (http, server):
        code = server.room()
        ann = joined(server, code, "Ann")
        ann.send("sit", seat=0)
        ann.until(lambda m: m["type"] == "room" and m["you"]["seat"] == 0)
        ann.ws.close()
        with sockets(http, code) as connect:
            for k in range(100):
                connect(f"10.0.0.{k % 7}")
            back = joined(server, code, "Ann", token=ann.token)
            assert back.member == ann.member and back.seen[-1]["you"]["seat"] == 0
            joined(server, code, "Bob")


def test_members_who_left_make_room_and_are_forgotten(tmp_path: Path) -> None:
    db = tmp_path / "rooms.sqlite3"
    with serving(db, replace(FAST, max_members=2, member_expiry=60)) as (http, server):
        code = server.room()
        ann = joined(server, code, "Ann")
        bob = joined(server, code, "Bob")
        bob.ws.close()
        ann.until(lambda m: m["type"] == "room" and m["spectators"] == ["Ann"])
        cy = server.connect(code)
        assert cy.hello("Cy")["type"] == "room"  # Bob is away: 2 members connected
        refusal = server.connect(code).hello("Di")
        assert refusal["code"] == "room-full" and "2 connected" in refusal["message"]
        rooms = http.app.state.rooms  # type: ignore[attr-defined]
        rooms.expire(time.time() + 30)
        assert len(server.live(code).state.members) == 3
        rooms.expire(time.time() + 61)  # Bob is forgotten, the others are connected
        assert sorted(m.name for m in server.live(code).state.members.values()) == ["Ann", "Cy"]
        stored = sqlite3.connect(db).execute("SELECT COUNT(*) FROM members").fetchone()
        assert stored == (2,)
        cy.ws.close()
        ann.until(lambda m: m["type"] == "room" and m["spectators"] == ["Ann"])
        back = server.connect(code)
        assert back.hello("Bob", token=bob.token)["type"] == "room"
        assert back.member != bob.member  # a new member: the old token is forgotten


def test_host_kicks_a_member() -> None:
    with serving(":memory:", FAST) as (_http, server):
        code = server.room()
        ann = joined(server, code, "Ann")
        bob = joined(server, code, "Bob")
        bob.send("sit", seat=1)
        bob.until(lambda m: m["type"] == "room" and m["you"]["seat"] == 1)
        assert bob.error("kick", member=ann.member)["code"] == "not-host"
        assert ann.error("kick", member=ann.member)["code"] == "not-yourself"
        assert ann.error("kick", member="nobody")["code"] == "no-member"
        ann.send("kick", member=bob.member)
        assert bob.expect("error")["code"] == "kicked"
        with pytest.raises(WebSocketDisconnect):
            bob.ws.receive_text()
        room = ann.until(lambda m: m["type"] == "room" and m["seats"][1]["kind"] is None)
        assert room["spectators"] == ["Ann"]
        assert room["watchers"] == [{"member": ann.member, "name": "Ann"}]
        again = server.connect(code)
        assert again.hello("Bob", token=bob.token)["type"] == "room"
        assert again.member != bob.member


def test_room_creation_rate_and_unjoined_rooms_expire() -> None:
    with serving(":memory:", replace(FAST, room_creation=2)) as (http, server):
        unjoined, joined = server.room(), server.room()
        answer = http.post("/api/rooms", json={"preset": "tractor", "table": 4})
        assert answer.status_code == 429 and answer.json()["code"] == "rate"
        watcher = server.connect(joined)
        watcher.hello("Ann")
        watcher.ws.close()
        rooms = http.app.state.rooms  # type: ignore[attr-defined]
        assert rooms.expire(time.time() + 60) == []
        assert rooms.expire(time.time() + 601) == [unjoined]


@pytest.mark.slow
def test_record_is_built_once_in_a_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    threads: list[threading.Thread] = []
    real = room_module.write_record

    def counted(*args: Any) -> str:
        threads.append(threading.current_thread())
        return real(*args)

    monkeypatch.setattr(room_module, "write_record", counted)
    with serving(":memory:", FAST) as (http, server):
        code = server.room("tractor", 4, end_rank="2")
        host = table(server, code, [0], {1: "random", 2: "random", 3: "random"})[0]
        host.send("start")
        host.send("replace", seat=0, kind="random")
        host.until(lambda m: m["type"] == "state" and m["match"]["over"])
        record = f"/api/rooms/{code}/record"
        first = http.get(record)
        assert first.status_code == 200 and http.get(record).text == first.text
        assert http.portal is not None
        loop_thread = http.portal.call(threading.get_ident)
        assert len(threads) == 1 and threads[0].ident != loop_thread


def test_chat_rate_is_per_member_and_storage_keeps_the_last_lines(tmp_path: Path) -> None:
    db = tmp_path / "rooms.sqlite3"
    settings = replace(FAST, chat_rate=0.01, chat_burst=3, chat_history=2)
    with serving(db, settings) as (_http, server):
        code = server.room()
        ann = joined(server, code, "Ann")
        tab = server.connect(code)
        tab.hello("Ann", token=ann.token)
        for n, c in enumerate([ann, tab, ann]):
            c.send("chat", text=f"line {n}")
            c.expect("chat")
        refusal = tab.error("chat", text="one more")  # a second tab shares the limit
        assert refusal["code"] == "rate" and "chat" in refusal["message"]
        lines = sqlite3.connect(db).execute("SELECT text FROM chat ORDER BY id").fetchall()
        assert lines == [("line 1",), ("line 2",)]


def test_http_bounds_table_and_body_size() -> None:
    with TestClient(create_app(":memory:", FAST)) as http:
        for path in ("/api/rooms", "/api/rules/check"):
            answer = http.post(path, json={"preset": "tractor", "table": 13, "rules": {}})
            assert answer.status_code in (200, 400) and "1 to 12" in answer.json()["errors"][
                "table"]
        big = {"preset": "tractor", "table": 4, "rules": {"x": "a" * 70_000}}
        assert http.post("/api/rooms", json=big).status_code == 413

        def chunks() -> Iterator[bytes]:  # no content-length
            yield b'{"preset": "tractor", "table": 4, "rules": {"x": "'
            yield from (b"a" * 10_000 for _ in range(10))
            yield b'"}}'

        assert http.post("/api/rooms", content=chunks(),
                         headers={"content-type": "application/json"}).status_code == 413


def test_database_is_private_and_zero_limits_are_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "rooms.sqlite3"
    with TestClient(create_app(db, FAST)) as http:
        assert http.post("/api/rooms", json={"preset": "tractor", "table": 4}).status_code == 201
        for path in tmp_path.iterdir():
            assert path.stat().st_mode & 0o777 == 0o600, path
    for option, allowed in (("--max-message", "from 1024 to"), ("--rate", "more than 0")):
        with pytest.raises(SystemExit) as stop:
            main(["serve", option, "0", "--db", str(db)])
        assert stop.value.code == 2
        assert f"argument {option}: must be {allowed}" in capsys.readouterr().err


def test_per_address_limits_see_forwarded_for_only_from_trusted_proxies() -> None:
    def created(http: TestClient, forwarded: str) -> int:
        answer = http.post("/api/rooms", json={"preset": "tractor", "table": 4},
                           headers={"X-Forwarded-For": forwarded})
        status: int = answer.status_code
        return status

    # the test client connects from "testclient": trusted, X-Forwarded-For names the client
    with TestClient(create_app(":memory:", replace(FAST, room_creation=1,
                                                   forwarded_allow_ips="testclient"))) as http:
        assert [created(http, a) for a in ("1.2.3.4", "1.2.3.4", "5.6.7.8")] == [201, 429, 201]
    for trusted in (None, "10.0.0.1"):  # no proxy trusted, or another one: the header is ignored
        settings = replace(FAST, room_creation=1, forwarded_allow_ips=trusted)
        with TestClient(create_app(":memory:", settings)) as http:
            assert [created(http, a) for a in ("1.2.3.4", "5.6.7.8")] == [201, 429]


def test_serve_options_for_a_reverse_proxy(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    assert "--proxy-headers" in capsys.readouterr().out
    parser = argparse.ArgumentParser()
    add_serve_arguments(parser)
    assert forwarded_allow_ips(parser.parse_args([])) is None
    assert forwarded_allow_ips(parser.parse_args(["--proxy-headers"])) == "127.0.0.1,::1"
    assert forwarded_allow_ips(parser.parse_args(["--forwarded-allow-ips", "10.0.0.0/8"])) == (
        "10.0.0.0/8")


def test_serve_options_for_pending_sockets_and_absent_players(
        capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser()
    add_serve_arguments(parser)
    args = parser.parse_args([])
    assert (args.max_address_pending, args.absent_grace) == (16, 60.0)
    args = parser.parse_args(["--max-address-pending", "0", "--absent-grace", "0"])
    assert (args.max_address_pending, args.absent_grace) == (0, 0.0)
    for option, value in (("--absent-grace", "-1"), ("--absent-grace", "86401"),
                          ("--max-address-pending", "-2"),
                          ("--bot-time", "0.05")):  # (less than a suggestion may be given)
        with pytest.raises(SystemExit):
            parser.parse_args([option, value])
        assert f"argument {option}: must be" in capsys.readouterr().err


def test_connections_per_address() -> None:
    settings = replace(FAST, max_address_connections=2, forwarded_allow_ips="testclient")
    with serving(":memory:", settings) as (http, server):
        code = server.room()
        with sockets(http, code) as connect:
            ann, bob = connect("1.2.3.4"), connect("1.2.3.4")
            assert ann.hello("Ann")["type"] == "room" and bob.hello("Bob")["type"] == "room"
            refused = connect("1.2.3.4").recv()
            assert refused["code"] == "too-many-connections" and "one address" in refused[
                "message"]
            assert connect("5.6.7.8").hello("Cy")["type"] == "room"  # another client
            bob.ws.close()
            ann.until(lambda m: m["type"] == "room" and "Bob" not in m["spectators"])
            assert connect("1.2.3.4").hello("Di")["type"] == "room"  # Bob's place is free
