"""The ``shengji serve`` protocol (docs/protocol.md) through Starlette's websocket test client.

Rooms, hello/welcome, seat tokens, host-only commands, computer players, whole rounds of every
preset, chat, every kind of refusal, and the leak check: every ``state`` message the server
sends, to every seat and to spectators, is computed a second time with the hidden cards (other
hands, the undealt deck, a kitty the seat may not see) shuffled, and must not change.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import json
import random
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from starlette.testclient import TestClient, WebSocketTestSession

from shengji.game.presets import preset
from shengji.game.record import read_record, replay
from shengji.players import model_note
from shengji.server.app import create_app
from shengji.server.limits import Settings
from shengji.server.room import Room
from shengji.server.schemas import SERVER_MESSAGE
from shengji.server.storage import MemberRow, RoomRow, SQLiteStorage

FAST = Settings(deal_pace=0, bot_delay=0, rate=10_000, burst=10_000)
TIMEOUT = 20.0


# -- helpers ---------------------------------------------------------------------------------

class Client:
    """One websocket connection: every message received is validated against the protocol."""

    def __init__(self, ws: WebSocketTestSession) -> None:
        self.ws = ws
        self.seen: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self.token: str | None = None
        self.member: str | None = None

    def send(self, kind: str, /, **fields: Any) -> None:
        self.ws.send_text(json.dumps({"type": kind, **fields}))

    def recv(self) -> dict[str, Any]:
        rx = self.ws._send_rx  # the test client's queue, read with a timeout

        async def receive() -> Any:
            with anyio.fail_after(TIMEOUT):
                return await rx.receive()

        event = self.ws.portal.call(receive)
        assert event["type"] == "websocket.send", event
        message: dict[str, Any] = json.loads(event["text"])
        SERVER_MESSAGE.validate_python(message)
        self.seen.append(message)
        if message["type"] == "state":
            self.state = message
        elif message["type"] == "welcome":
            self.token, self.member = message["token"], message["member"]
        return message

    def until(self, test: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        while True:
            message = self.recv()
            if test(message):
                return message

    def expect(self, kind: str) -> dict[str, Any]:
        return self.until(lambda m: m["type"] == kind)

    def error(self, kind: str, /, **fields: Any) -> dict[str, Any]:
        """Send a message that must be refused; returns the error."""
        self.send(kind, **fields)
        return self.until(lambda m: m["type"] == "error")

    def hello(self, name: str, token: str | None = None) -> dict[str, Any]:
        self.send("hello", name=name, token=token)
        return self.until(lambda m: m["type"] in ("room", "error"))


class Server:
    """A test client with helpers to open rooms and connections."""

    def __init__(self, client: TestClient) -> None:
        self.http = client
        self.app = client.app
        self._stack: list[Any] = []

    def room(self, preset: str = "tractor", table: int = 4, **rules: Any) -> str:
        answer = self.http.post("/api/rooms", json={"preset": preset, "table": table,
                                                    "rules": rules})
        assert answer.status_code == 201, answer.text
        code: str = answer.json()["room"]
        return code

    def connect(self, code: str) -> Client:
        ws = self.http.websocket_connect(f"/ws/{code}")
        self._stack.append(ws)
        return Client(ws.__enter__())

    def live(self, code: str) -> Room:
        room: Room = self.app.state.rooms.rooms[code]  # type: ignore[attr-defined]
        return room

    def close(self) -> None:
        for ws in reversed(self._stack):
            with contextlib.suppress(Exception):
                ws.__exit__(None, None, None)


@contextlib.contextmanager
def serving(db: str | Path = ":memory:", settings: Settings = FAST
            ) -> Iterator[tuple[TestClient, Server]]:
    """A running app (rooms in ``db``) with its test client and a :class:`Server` on it."""
    with TestClient(create_app(db, settings)) as http:
        wrapper = Server(http)
        try:
            yield http, wrapper
        finally:
            wrapper.close()


def joined(server: Server, code: str, name: str, token: str | None = None) -> Client:
    """A new connection to room ``code`` that said hello as ``name`` (and was welcomed)."""
    client = server.connect(code)
    assert client.hello(name, token)["type"] == "room"
    return client


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    app = create_app(tmp_path / "rooms.sqlite3", FAST)
    with TestClient(app) as client:
        wrapper = Server(client)
        try:
            yield wrapper
        finally:
            wrapper.close()


def table(server: Server, code: str, people: list[int], bots: dict[int, str]
          ) -> dict[int, Client]:
    """Seat people (named p0, p1... after their seat) and bots; the first person hosts."""
    clients: dict[int, Client] = {}
    for seat in people:
        c = server.connect(code)
        assert c.hello(f"p{seat}")["type"] == "room"
        c.send("sit", seat=seat)
        c.until(lambda m, s=seat: m["type"] == "room" and m["you"]["seat"] == s)
        clients[seat] = c
    host = clients[people[0]]
    for seat, kind in bots.items():
        host.send("add_bot", seat=seat, kind=kind)
        host.until(lambda m, s=seat: m["type"] == "room" and m["seats"][s]["kind"] == "bot")
    return clients


def my_turn(message: dict[str, Any]) -> bool:
    return message["type"] == "state" and message["legal"] is not None and (
        message["legal"]["kind"] != "deal")


def only_one(state: dict[str, Any]) -> bool:
    """Whether the seat of ``state`` has one legal action (read from what the client is
    told: the options listed, a follow's forced cards, a lead from one card)."""
    legal = state["legal"]
    options = legal["options"]
    if options is not None:
        return len(options) == 1
    if legal["kind"] == "follow":
        return len(legal["forced"]) == legal["count"]
    return legal["kind"] == "lead" and len(state["view"]["hand"]) == 1


def a_choice(c: Client) -> dict[str, Any]:
    """The state of ``c``'s next turn with a choice: a turn with one legal action is played
    on the way (as the suggestion answers it)."""
    while True:
        state = c.until(my_turn)
        if not only_one(state):
            return state
        c.send("suggest")
        c.send("action", action=c.expect("suggestion")["action"])


def settled(message: dict[str, Any], people: dict[int, Client]) -> bool:
    """A state after which nothing happens until a person acts (or the round is over)."""
    if message["type"] != "state":
        return False
    info, view = message["match"], message["view"]
    return bool(info["waiting"]) or info["over"] or (
        view["phase"] != "deal" and view["to_move"] in people)


def act(c: Client, pick: random.Random) -> str:
    """Choose an action as a person would: a listed option, or the suggestion."""
    assert c.state is not None
    legal = c.state["legal"]
    options = legal["options"]
    if options and pick.random() < 0.5:
        action: str = pick.choice(options)
    else:
        c.send("suggest")
        answer = c.expect("suggestion")
        action = answer["action"]
        # nobody chose an only legal action (in every phase); else the suggestion player did
        assert (answer["by"] is None) == only_one(c.state), (answer, legal)
    c.send("check", action=action)
    assert c.expect("checked") == {"type": "checked", "action": action, "reason": None}
    c.send("action", action=action)
    return action


def play_round(people: dict[int, Client], watchers: list[Client], pick: random.Random) -> int:
    """Play until the round is over (the server waits for the next round); people act from
    their own state. Returns the number of people's actions."""
    everyone = [*people.values(), *watchers]

    def started(m: dict[str, Any]) -> bool:
        return settled(m, people) and not m["match"]["waiting"]

    for c in everyone:
        if c.state is None or not started(c.state):
            c.until(started)
    actions = 0
    while True:
        state = next(iter(people.values())).state
        assert state is not None
        if state["match"]["waiting"] or state["match"]["over"]:
            return actions
        mover = people[state["view"]["to_move"]]
        assert mover.state is not None and my_turn(mover.state)
        act(mover, pick)
        actions += 1
        for c in everyone:
            c.until(lambda m: settled(m, people))


# -- tests ------------------------------------------------------------------------------------

def test_presets_and_rules_check(server: Server) -> None:
    presets = server.http.get("/api/presets").json()
    names = [p["name"] for p in presets["presets"]]
    assert names == ["tractor", "tractor-6", "finding-friends", "da-bai-fen", "hundred"]
    assert 5 in presets["presets"][2]["tables"] and 5 not in presets["presets"][0]["tables"]
    options = {o["name"]: o for o in presets["options"]}
    assert options["tuple_follow"]["kind"] == "choice" and options["throws"]["kind"] == "bool"
    assert {p["kind"] for p in presets["players"]} >= {"random", "heuristic"}
    bad = server.http.post("/api/rules/check", json={
        "preset": "tractor", "table": 4,
        "rules": {"decks": "two", "tuple_follow": "strict", "throws": False}}).json()
    assert bad["ok"] is False and set(bad["errors"]) == {"decks", "tuple_follow"}
    assert "integer" in bad["errors"]["decks"] and "draw-out" in bad["errors"]["tuple_follow"]
    good = server.http.post("/api/rules/check", json={
        "preset": "finding-friends", "table": 8, "rules": {"fluid_bidders": "not-lost"}}).json()
    assert good["ok"] and good["rules"]["decks"] == 3 and good["errors"] == {}
    together = server.http.post("/api/rules/check", json={  # valid only together
        "preset": "tractor", "table": 4,
        "rules": {"level_table": "custom", "custom_levels": [[0, 1], [40, 0]]}}).json()
    assert together["ok"], together
    alone = server.http.post("/api/rules/check", json={
        "preset": "tractor", "table": 4, "rules": {"level_table": "custom"}}).json()
    assert list(alone["errors"]) == ["level_table"]
    assert alone["why"]["level_table"]["key"] == "rules-custom-table"
    assert bad["why"] == {}  # type errors of the rules reader: English only
    for option in presets["options"]:
        assert option["doc"] and not option["doc"].startswith(("bool(", "int(")), option
    answer = server.http.post("/api/rooms", json={"preset": "tractor", "table": 5, "rules": {}})
    assert answer.status_code == 400 and "table" in answer.json()["errors"]
    answer = server.http.post("/api/rooms", json={"preset": "tractor", "table": 4,
                                                   "rules": {"kitty": 7}})
    assert answer.status_code == 400 and answer.json()["why"]["kitty"]["params"] == {
        "kitty": 7, "left": 101, "players": 4}
    answer = server.http.post("/api/rooms", json={"preset": "nope", "table": 4, "rules": {}})
    assert answer.status_code == 400 and "preset" in answer.json()["errors"]


def test_no_room_and_pages(server: Server) -> None:
    c = server.connect("doesnotexist")
    assert c.recv()["code"] == "no-room"
    assert server.http.get("/api/rooms/doesnotexist/record").status_code == 404


def test_hello_welcome_tokens_and_reconnect(server: Server) -> None:
    code = server.room()
    ann = server.connect(code)
    ann.send("sit", seat=0)
    assert ann.recv()["code"] == "hello-first"
    room = ann.hello("Ann")
    welcome = ann.seen[1]
    assert welcome["type"] == "welcome" and welcome["room"] == code and len(welcome["token"]) >= 32
    assert room["you"] == {"member": welcome["member"], "seat": None, "host": True}
    ann.send("sit", seat=2)
    assert ann.until(lambda m: m["type"] == "room")["you"]["seat"] == 2
    bob = server.connect(code)
    assert bob.hello("ANN")["code"] == "name-taken"  # a seated player's name takes nothing
    assert bob.hello("Bob")["you"] == {"member": bob.member, "seat": None, "host": False}
    assert bob.token != ann.token and ann.token not in json.dumps(bob.seen)
    ann.ws.close()
    room = bob.until(lambda m: m["type"] == "room" and not m["seats"][2]["connected"])
    assert room["seats"][2]["name"] == "Ann"
    again = server.connect(code)
    room = again.hello("whatever", token=ann.token)
    assert room["you"] == {"member": welcome["member"], "seat": 2, "host": True}
    assert again.token == ann.token
    stranger = server.connect(code)
    assert stranger.hello("Eve", token="not-a-token")["you"]["seat"] is None
    db = sqlite3.connect(server.app.state.rooms.storage.db.execute(  # type: ignore[attr-defined]
        "PRAGMA database_list").fetchone()[2])
    stored = [t for (t,) in db.execute("SELECT token_hash FROM members")]
    assert ann.token not in stored and len(stored) == 3 and all(len(t) == 64 for t in stored)


def test_host_only_and_lobby(server: Server) -> None:
    code = server.room()
    host = server.connect(code)
    assert host.hello("Host")["no_model"] is None  # tractor: the learned model fits
    guest = server.connect(code)
    guest.hello("Guest")
    for kind, fields in [("configure", {"preset": "tractor", "table": 4, "rules": {}}),
                         ("add_bot", {"seat": 1, "kind": "random"}), ("remove", {"seat": 1}),
                         ("move", {"seat": 0, "to": 1}), ("start", {}),
                         ("replace", {"seat": 0, "kind": "random"}), ("new_match", {}),
                         ("next_round", {"all": True})]:
        assert guest.error(kind, **fields)["code"] == "not-host", kind
    bad = host.error("configure", preset="tractor", table=4, rules={"decks": 0})
    assert bad["code"] == "bad-rules" and "decks" in bad["message"]
    host.send("configure", preset="finding-friends", table=5, rules={"friends": 1, "decks": 1})
    room = host.until(lambda m: m["type"] == "room" and len(m["seats"]) == 5)
    assert room["config"] == {"preset": "finding-friends", "table": 5,
                              "rules": {"friends": 1, "decks": 1}, "suggest": "heuristic",
                              "suggest_time": 1.0, "absent_grace": 60.0}
    # where the player is chosen, the lobby says which players no learned model fits (the
    # Finding Friends model serves the preset's decks, two at five players, not one)
    rules = preset("finding-friends", players=5, friends=1, decks=1)
    assert room["no_model"] == {"kinds": ["learned", "search"], "players": 5,
                                "decks": rules.decks, "fixed": False,
                                "notes": [model_note("learned", rules),
                                          model_note("search", rules)]}
    assert host.error("add_bot", seat=1, kind="genius")["code"] == "bad-bot"
    assert host.error("add_bot", seat=7, kind="random")["code"] == "no-seat"
    guest.send("sit", seat=1)
    guest.until(lambda m: m["type"] == "room" and m["you"]["seat"] == 1)
    assert host.error("sit", seat=1)["code"] == "seat-taken"
    assert host.error("add_bot", seat=1, kind="random")["code"] == "seat-taken"
    host.send("move", seat=1, to=4)
    room = guest.until(lambda m: m["type"] == "room" and m["you"]["seat"] == 4)
    assert room["seats"][1]["kind"] is None and room["seats"][4]["name"] == "Guest"
    host.send("add_bot", seat=0, kind="heuristic")
    room = host.until(lambda m: m["type"] == "room" and m["seats"][0]["kind"] == "bot")
    assert room["seats"][0]["name"] == "Heuristic 0" and room["seats"][0]["connected"]
    assert host.error("start")["code"] == "seats-free"
    host.send("remove", seat=4)
    guest.until(lambda m: m["type"] == "room" and m["seats"][4]["kind"] is None)
    assert guest.seen[-1]["you"]["seat"] is None
    assert host.error("remove", seat=4)["code"] == "seat-free"
    guest.send("sit", seat=2)
    guest.until(lambda m: m["type"] == "room" and m["you"]["seat"] == 2)
    guest.send("stand")
    guest.until(lambda m: m["type"] == "room" and m["you"]["seat"] is None)
    assert guest.error("stand")["code"] == "not-seated"


def test_refusals_change_nothing(server: Server) -> None:
    code = server.room()
    people = table(server, code, [0, 1], {2: "heuristic", 3: "random"})
    people[0].send("start")
    play_state = {s: c.until(lambda m: settled(m, people)) for s, c in people.items()}
    room = server.live(code).state
    assert room.match is not None
    history = list(room.match.history)
    to_move = play_state[0]["view"]["to_move"]
    mover, other = people[to_move], people[1 - to_move]
    checks = [
        ("{not json", "bad-message"), ("[1, 2]", "bad-message"),
        ("[" * 5000 + "]" * 5000, "bad-message"),  # too deep for the JSON reader
        (json.dumps({"type": "dance"}), "unknown-type"),
        (json.dumps({"type": "chat", "text": "x", "extra": 1}), "bad-message"),
        (json.dumps({"type": "sit", "seat": "1"}), "bad-message"),
        (json.dumps({"type": "chat", "text": "x" * 501}), "bad-message"),
        (json.dumps({"type": "chat", "text": "x" * 20_000}), "too-big"),
        (json.dumps({"type": "hello", "name": "again"}), "bad-message"),
        (json.dumps({"type": "action", "action": "0 dance"}), "bad-action"),
        (json.dumps({"type": "action", "action": f"{to_move} play 1S"}), "bad-action"),
        (json.dumps({"type": "action", "action": f"{1 - to_move} pass"}), "not-your-seat"),
        (json.dumps({"type": "action", "action": f"{to_move} bury 2C"}), "illegal"),
        (json.dumps({"type": "sit", "seat": 3}), "not-in-lobby"),
    ]
    heard = len(other.seen)
    for text, expected in checks:
        mover.ws.send_text(text)
        got = mover.until(lambda m: m["type"] == "error")
        assert got["code"] == expected, (text, got)
    mover.ws.send_bytes(b"{}")
    assert mover.until(lambda m: m["type"] == "error")["code"] == "bad-message"
    assert other.error("action", action=f"{1 - to_move} pass")["code"] == "not-your-turn"
    other.send("check", action=f"{1 - to_move} pass")
    assert other.expect("checked")["reason"].startswith("it is seat")
    assert room.match.history == history
    # nobody else heard of any of it: the other person got only its own answers
    assert [m["type"] for m in other.seen[heard:]] == ["error", "checked"]


def test_rate_limit() -> None:
    app = create_app(":memory:", Settings(deal_pace=0, bot_delay=0, rate=1, burst=3))
    with TestClient(app) as http:
        server = Server(http)
        try:
            c = server.connect(server.room())
            c.hello("Ann")  # takes the first of 3 tokens
            for _ in range(3):
                c.send("chat", text="hi")
            got = [c.until(lambda m: m["type"] in ("chat", "error")) for _ in range(3)]
            assert [m["type"] for m in got] == ["chat", "chat", "error"]
            assert got[2]["code"] == "rate" and "per second" in got[2]["message"]
        finally:
            server.close()


def test_chat(server: Server) -> None:
    code = server.room()
    ann = server.connect(code)
    ann.hello("Ann")
    ann.send("sit", seat=1)
    ann.until(lambda m: m["type"] == "room" and m["you"]["seat"] == 1)
    bob = server.connect(code)
    bob.hello("Bob")
    ann.send("chat", text="  hello 你好  ")
    line = bob.expect("chat")
    assert (line["name"], line["seat"], line["text"]) == ("Ann", 1, "hello 你好")
    assert ann.expect("chat")["text"] == "hello 你好"
    late = server.connect(code)
    late.send("hello", name="Cy")
    assert late.recv()["type"] == "welcome"
    assert late.recv()["text"] == "hello 你好"  # the history comes right after welcome
    assert ann.error("chat", text="   ")["code"] == "bad-message"


@pytest.mark.slow
def test_replace_record_and_new_match(server: Server) -> None:
    code = server.room("tractor", 4, end_rank="2")
    people = table(server, code, [0, 1], {2: "random", 3: "random"})
    host, guest = people[0], people[1]
    assert server.http.get(f"/api/rooms/{code}/record").status_code == 409
    host.send("start")
    host.until(lambda m: settled(m, people))
    assert server.http.get(f"/api/rooms/{code}/record").status_code == 409
    host.send("replace", seat=1, kind="heuristic")
    room = guest.until(lambda m: m["type"] == "room" and m["seats"][1]["kind"] == "bot")
    assert room["you"]["seat"] is None and room["seats"][1]["name"] == "Heuristic 1"
    assert guest.error("action", action="1 pass")["code"] == "not-seated"
    assert host.error("new_match")["code"] == "not-over"
    mid_round = host.error("next_round", all=True)  # nobody waits: refused, nothing sent
    assert mid_round["code"] == "not-waiting" and "nobody is waiting" in mid_round["message"]
    alone = {0: host}
    pick = random.Random(1)
    while True:
        play_round(alone, [], pick)
        if host.state["match"]["over"]:  # type: ignore[index]
            break
        host.send("next_round")
    assert host.state["match"]["winners"]  # type: ignore[index]
    answer = server.http.get(f"/api/rooms/{code}/record")
    assert answer.status_code == 200
    record = read_record(answer.text)
    assert replay(record).winners == tuple(host.state["match"]["winners"])  # type: ignore[index]
    assert record.names == ("p0", "p1", "Random 2", "Random 3")
    assert record.kinds == ("human", "heuristic", "random", "random")  # seat 1 was replaced
    host.send("new_match")
    room = host.until(lambda m: m["type"] == "room" and m["status"] == "lobby")
    assert room["seats"][1]["kind"] == "bot"
    assert server.http.get(f"/api/rooms/{code}/record").status_code == 200
    host.send("start")
    host.until(lambda m: m["type"] == "state" and not m["match"]["results"])


def test_actions_are_logged_before_the_reply(server: Server, tmp_path: Path) -> None:
    code = server.room()
    people = table(server, code, [0, 1, 2, 3], {})
    people[0].send("start")
    db = sqlite3.connect(tmp_path / "rooms.sqlite3")
    pick = random.Random(3)
    for c in people.values():
        c.until(lambda m: settled(m, people))
    for _ in range(30):
        seat = people[0].state["view"]["to_move"]  # type: ignore[index]
        action = act(people[seat], pick)
        reply = people[seat].expect("state")  # the acknowledgement: the action is logged
        assert reply["view"]["history"][-1] == action
        logged = [a for (a,) in db.execute(
            "SELECT action FROM actions WHERE room = ? ORDER BY n", (code,))]
        assert logged[-1] == action
        for c in people.values():
            if c is not people[seat]:
                c.until(lambda m: settled(m, people))
    room = server.live(code).state
    assert room.match is not None
    assert logged == [str(a) for a in room.match.history]


def test_names_are_normalised_and_compared_folded(server: Server) -> None:
    code = server.room()
    ann = server.connect(code)
    assert ann.hello("\uff21nn")["spectators"] == ["Ann"]  # fullwidth A: NFKC makes it A
    for name in ("ANN", "\uff41nn", " ann "):
        assert server.connect(code).hello(name)["code"] == "name-taken"
    for name in ("Bo\u200bb", "Bo\u2028b", "\ue000Bob", "Bob\x07", "\u0378Bob"):
        refusal = server.connect(code).hello(name)
        assert refusal["code"] == "bad-message" and "U+" in refusal["message"], name


class FailingSaves(SQLiteStorage):
    """Storage whose room and member writes fail while ``failing``."""

    failing = False

    def save_room(self, room: RoomRow) -> None:
        if self.failing:
            raise OSError("disk full")
        super().save_room(room)

    def add_member(self, code: str, member: MemberRow, room: RoomRow | None = None) -> None:
        if self.failing:
            raise OSError("disk full")
        super().add_member(code, member, room)


def test_a_failed_save_changes_nothing(tmp_path: Path) -> None:
    store = FailingSaves(tmp_path / "rooms.sqlite3")
    with TestClient(create_app(storage=store, settings=FAST)) as http:
        server = Server(http)
        try:
            code = server.room()
            room = server.live(code).state
            store.failing = True
            ann = server.connect(code)
            assert ann.hello("Ann")["code"] == "storage"
            assert room.members == {} and room.row.host is None
            store.failing = False
            ann.hello("Ann")
            store.failing = True
            before = copy.deepcopy(room.row)
            for kind, fields in [("sit", {"seat": 0}), ("add_bot", {"seat": 1, "kind": "random"}),
                                 ("configure", {"preset": "tractor", "table": 6, "rules": {}})]:
                assert ann.error(kind, **fields)["code"] == "storage"
                assert room.row == before
        finally:
            server.close()


def bid_turn_of(seat: int, message: dict[str, Any]) -> bool:
    """A state of the bidding round where ``seat`` is to bid or pass."""
    return message["type"] == "state" and message["view"]["phase"] == "bid" and (
        message["view"]["to_move"] == seat)


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "size"), [("tractor", 4), ("tractor-6", 6),
                                              ("finding-friends", 5), ("da-bai-fen", 4)])
def test_every_person_may_bid_after_an_instant_deal(server: Server, preset: str,
                                                    size: int) -> None:
    """With no deal pace the deal ends at once, then the engine's bidding round after the deal
    asks every person in turn, with every bid their whole hand allows."""
    code = server.room(preset, size)
    people = table(server, code, list(range(size)), {})
    people[0].send("start")
    asked: list[int] = []
    while True:
        state = people[0].until(lambda m: m["type"] == "state" and (
            m["view"]["phase"] != "deal" or m["match"]["waiting"]))
        view = state["view"]
        if view["phase"] != "bid":
            break
        seat = view["to_move"]
        mover = people[seat]
        mine = state if seat == 0 else mover.until(functools.partial(bid_turn_of, seat))
        assert mine["legal"]["kind"] == "bid" and f"{seat} pass" in mine["legal"]["options"]
        level = mine["view"]["levels"][seat]
        rank = {11: "J", 12: "Q", 13: "K", 14: "A"}.get(level, str(level))
        if any(card[:-1] == rank for card in mine["view"]["hand"]) and not view["bids"]:
            assert any(" bid " in o for o in mine["legal"]["options"]), mine["legal"]
        asked.append(seat)
        mover.send("action", action=f"{seat} pass")
    assert sorted(asked) == list(range(size))  # nobody bid: everyone was asked once


def test_people_bid_during_a_paced_deal(tmp_path: Path) -> None:
    """With a deal pace, a person is offered a bid as soon as a drawn card allows one (while
    the cards still arrive), and the bid is taken."""
    settings = Settings(deal_pace=0.02, bot_delay=0, rate=10_000, burst=10_000)
    with TestClient(create_app(tmp_path / "rooms.sqlite3", settings)) as http:
        server = Server(http)
        try:
            code = server.room("tractor", 4)
            people = table(server, code, [0, 1, 2, 3], {})
            people[0].send("start")

            def can_bid(m: dict[str, Any]) -> bool:  # holds a 2 (the level) during the deal
                return m["view"]["phase"] == "deal" and any(
                    card[:-1] == "2" for card in m["view"]["hand"])

            first = None
            while first is None:  # every state reaches all four: read them in step
                states = [c.until(lambda m: m["type"] == "state") for c in people.values()]
                assert states[0]["view"]["phase"] == "deal", "nobody drew a 2 during the deal"
                first = next((m for m in states if can_bid(m)), None)
            seat = first["view"]["seat"]
            bid = next(o for o in first["legal"]["options"] if o.startswith(f"{seat} bid 2"))
            people[seat].send("action", action=bid)
            after = people[seat].until(lambda m: m["type"] == "state" and bool(m["view"]["bids"]))
            assert after["view"]["bids"][-1][0] == seat
        finally:
            server.close()


def test_the_search_player_suggests_when_the_host_chooses_it(server: Server) -> None:
    code = server.room("tractor", 4)
    host = table(server, code, [0], {1: "heuristic", 2: "heuristic", 3: "heuristic"})[0]
    assert host.seen[-1]["config"]["suggest_time"] == 1.0  # the search player's default
    # the lobby's box offers what the server allows: at most its --bot-time (5 s here)
    assert server.http.get("/api/presets").json()["think_limits"] == [0.1, 5.0]
    too_long = host.error("configure", preset="tractor", table=4, suggest="search",
                          suggest_time=30)
    assert too_long["code"] == "bad-time" and "at most 5 seconds" in too_long["message"]
    too_short = host.error("configure", preset="tractor", table=4, suggest_time=0.01)
    assert "suggest_time" in too_short["message"] and "0.1" in too_short["message"]
    host.send("configure", preset="tractor", table=4, suggest="search", suggest_time=0.2)
    host.until(lambda m: m["type"] == "room" and m["config"]["suggest"] == "search")
    assert host.seen[-1]["config"]["suggest_time"] == 0.2
    host.send("start")
    state = a_choice(host)
    room = [m for m in host.seen if m["type"] == "room"][-1]
    assert room["status"] == "playing" and room["no_model"] is None
    host.send("suggest")
    answer = host.expect("suggestion")
    action = answer["action"]
    assert (answer["by"], answer["time"]) == ("search", 0.2)  # who, and for how long
    assert state["legal"]["options"] is None or action in state["legal"]["options"]
    host.send("check", action=action)
    assert host.expect("checked")["reason"] is None


def test_check_says_the_code_of_a_server_refusal(server: Server) -> None:
    code = server.room("tractor", 4)
    host = table(server, code, [0], {1: "random", 2: "random", 3: "random"})[0]
    host.send("start")
    host.until(my_turn)
    for action, expected in (("0 play ZZ", "bad-action"), ("1 pass", "not-your-seat")):
        host.send("check", action=action)
        answer = host.expect("checked")
        assert answer["code"] == expected and answer["reason"] and "why" not in answer
    host.send("check", action="0 play BJ BJ BJ")  # the engine's refusal: its reason, no code
    answer = host.expect("checked")
    assert answer["reason"] and "code" not in answer


def test_a_draw_of_the_seat_to_move_after_the_deal_names_no_seat_turn(server: Server) -> None:
    """A draw sent as the deal ended (a paced deal's race: the last card was drawn meanwhile)
    by the seat that is to move (the first to bid) is refused with what it may do now, never
    "it is seat N's turn to draw" naming that same seat; a draw of another seat than the one
    to move is out of turn."""
    code = server.room("tractor", 4)
    people = table(server, code, [0, 1, 2, 3], {})
    people[0].send("start")
    state = people[0].until(lambda m: m["type"] == "state" and m["view"]["phase"] == "bid")
    seat = state["view"]["to_move"]
    mover, other = people[seat], people[(seat + 1) % 4]
    for client in people.values():
        if client.state is None or client.state["view"]["phase"] != "bid":
            client.until(lambda m: m["type"] == "state" and m["view"]["phase"] == "bid")
    refused = mover.error("action", action=f"{seat} draw")
    assert refused["code"] == "illegal", refused
    assert f"seat {seat}'s turn" not in refused["message"]
    assert refused["why"]["key"] == "bid-time" and refused["message"] == refused["why"]["text"]
    assert set(refused["why"]["params"]["verbs"]) == {"bid", "pass"}
    mover.send("check", action=f"{seat} draw")
    checked = mover.expect("checked")
    assert checked["why"]["key"] == "bid-time" and f"seat {seat}'s" not in checked["reason"]
    late = other.error("action", action=f"{(seat + 1) % 4} draw")
    assert late["code"] == "not-your-turn" and late["why"]["key"] == "turn-of", late
    mover.send("action", action=f"{seat} pass")  # the seat may still act: nothing changed
    after = mover.until(lambda m: m["type"] == "state" and m["view"]["to_move"] != seat)
    assert f"{seat} pass" in after["view"]["history"]


@pytest.mark.parametrize("path", ["/api/rooms", "/api/rules/check"])
@pytest.mark.parametrize("body", [
    '{"preset": "tractor", "table": NaN, "rules": {}}',
    '{"preset": "tractor", "table": 4, "rules": {"decks": Infinity}}',
    '{"preset": "tractor", "table": 4, "rules": {"decks": -Infinity}}',
    '{"preset": "tractor", "table": 4, "rules": {"level_table": "custom", '
    '"custom_levels": [[0, NaN]]}}',
    '{"preset": "tractor", "table": 4, "rules": {"kitty": 1e400}}',
])
def test_json_numbers_that_are_not_finite_get_a_clear_400(path: str, body: str) -> None:
    with TestClient(create_app(":memory:", FAST), raise_server_exceptions=False) as http:
        answer = http.post(path, content=body, headers={"Content-Type": "application/json"})
        assert answer.status_code == 400, answer.text
        assert "finite" in answer.json()["error"] and "NaN" in answer.json()["error"]
        # the same request with finite numbers is answered as usual
        good = http.post(path, json={"preset": "tractor", "table": 4, "rules": {}})
        assert good.status_code in (200, 201)


@pytest.mark.parametrize("path", ["/api/rooms", "/api/rules/check"])
def test_json_nested_too_deeply_gets_a_clear_400(path: str) -> None:
    body = '{"preset": "tractor", "table": 4, "rules": ' + "[" * 3000 + "]" * 3000 + "}"
    with TestClient(create_app(":memory:", FAST), raise_server_exceptions=False) as http:
        answer = http.post(path, content=body, headers={"Content-Type": "application/json"})
        assert answer.status_code == 400, answer.text
        assert answer.json()["error"] == "the JSON body is nested too deeply"


def test_a_taken_name_is_refused_without_talk_of_tokens(server: Server) -> None:
    code = server.room("tractor", 4)
    joined(server, code, "Ann")
    refusal = server.connect(code).hello("ann")
    assert refusal["code"] == "name-taken" and "token" not in refusal["message"]
    assert "choose another name" in refusal["message"]
