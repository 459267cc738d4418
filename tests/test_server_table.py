"""What the server sends the table beyond the moves (docs/protocol.md): the finished round on
the table between rounds (its last trick, every trick and its result in the view), the level
table from the engine's scoring, each card's suit as the engine sees it, notation without
trailing spaces, and the seats of people away played for them past the absent grace."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from shengji.engine.cards import Card
from shengji.engine.scoring import level_change
from shengji.engine.trump import TRUMP, Trump
from shengji.game.actions import Bury
from shengji.game.config import rules_from_dict
from shengji.game.match import Match
from shengji.server.state import level_table_json
from test_server_protocol import (
    FAST,
    Client,
    Server,
    act,
    joined,
    play_round,
    serving,
    settled,
    table,
)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    with serving(tmp_path / "rooms.sqlite3") as (_http, wrapper):
        yield wrapper


def test_between_rounds_the_view_is_the_finished_round(server: Server) -> None:
    """Once the last trick is played everyone gets the finished round's view: phase ``done``,
    every trick with its plays (the last one included), ``result`` the seat's own sheet, and
    ``match.round`` its number; after ``next_round`` the new round's view."""
    code = server.room("tractor", 4)
    people = table(server, code, [0, 2], {1: "random", 3: "heuristic"})
    spectator = joined(server, code, "Watcher")
    people[0].send("start")
    play_round(people, [spectator], random.Random(2))
    for c in [*people.values(), spectator]:
        state = c.state
        assert state is not None
        view, info = state["view"], state["match"]
        assert view["phase"] == "done" and info["round"] == 1 and state["legal"] is None
        assert view["result"] == info["results"][-1]  # the seat's own sheet, in the view
        tricks = view["tricks"]
        sheet = view["result"]
        if sheet["redeal"]:
            continue
        assert [(t["winner"], t["points"]) for t in tricks] == [
            (t["winner"], t["points"]) for t in sheet["tricks"]]
        last = tricks[-1]  # the last trick, with every seat's cards
        assert sorted(p["seat"] for p in last["plays"]) == [0, 1, 2, 3]
        assert all(p["cards"] for p in last["plays"])
        assert all(line == line.rstrip() for line in view["history"])
    for seat, c in people.items():
        c.send("next_round")
        c.until(lambda m, s=seat: m["type"] == "state" and s not in m["match"]["waiting"])
    state = people[0].until(lambda m: m["type"] == "state" and m["view"]["phase"] != "done")
    assert state["view"]["result"] is None and state["match"]["round"] == 2


@pytest.mark.parametrize(("preset", "size", "rules"), [
    ("tractor", 4, {}), ("da-bai-fen", 4, {}), ("tractor-6", 6, {}),
    ("tractor", 4, {"level_table": "custom", "custom_levels": [[0, 2], [35, 1], [70, 0],
                                                                [90, -2]]}),
    ("tractor", 4, {"decks": 1, "level_table": "hundred", "draw_at": 40}),
])
def test_the_level_table_comes_from_the_engines_scoring(preset: str, size: int,
                                                        rules: dict[str, Any]) -> None:
    """``room.level_table``: each row starts where the engine's ``level_change`` first gives
    its outcome, and holds up to the next row (up to ``max``, the card points of the pack)."""
    resolved = rules_from_dict({"preset": preset, "players": size, **rules})
    levels = level_table_json(resolved)
    rows = levels["rows"]
    assert rows[0]["points"] == 0 and levels["max"] >= 100

    def outcome(points: int) -> tuple[int, int, bool, bool]:
        change = level_change(points, resolved)
        return change.declarers_up, change.opponents_up, change.switch, change.draw

    for row, after in zip(rows, [*rows[1:], None], strict=True):
        end = after["points"] if after else levels["max"] + 1
        expected = (row["declarers"], row["opponents"], row["switch"], row["draw"])
        assert all(outcome(p) == expected for p in range(row["points"], end))
        assert row["points"] == 0 or outcome(row["points"] - 1) != expected
    switch = next(row["points"] for row in rows if row["switch"])
    assert switch == (40 if rules.get("draw_at") else resolved.target_points if (
        rules.get("level_table") != "custom") else 70)


def test_the_room_carries_the_level_table_and_the_state_the_hands_suits(server: Server) -> None:
    code = server.room("tractor", 4)
    people = table(server, code, [0], {1: "random", 2: "random", 3: "random"})
    host = people[0]
    host.send("start")
    drive(people, lambda: in_play(host), random.Random(1))
    state = host.state
    assert state is not None
    rules = rules_from_dict({"preset": "tractor", "players": 4})
    room = next(m for m in reversed(host.seen) if m["type"] == "room")
    assert room["level_table"] == level_table_json(rules)
    assert all(m["level_table"] is None for m in host.seen  # in the lobby: none
               if m["type"] == "room" and m["status"] == "lobby")
    view = state["view"]
    trump = Trump.parse(view["trump"]["text"])
    cards = [Card(c) for c in view["hand"]]
    expected = ["T" if trump.suit_of(c) == TRUMP else str(c)[-1] for c in cards]
    assert view["hand_suits"] == expected
    # (a hand holds a trump but, at no trump, perhaps none of the jokers and rank cards)
    assert "T" in expected or view["trump"]["suit"] is None


def test_notation_has_no_trailing_spaces() -> None:
    """Another seat's bury (its cards hidden) is written ``"N bury"``, with no trailing
    space, and so is everything the server sends."""
    assert str(Bury(0, ())) == "0 bury"
    with serving() as (_http, server):
        code = server.room("tractor", 4)
        people = table(server, code, [0, 1], {2: "random", 3: "random"})
        people[0].send("start")
        histories: list[str] = []
        drive(people, lambda: in_play(people[0]), random.Random(1))
        for c in people.values():
            assert c.state is not None
            histories += c.state["view"]["history"]
        assert any(line.split()[1:] == ["bury"] for line in histories), histories
        assert all(line == line.strip() for line in histories)


def grace_settings(grace: float = 0.3) -> Any:
    return replace(FAST, absent_grace=grace)


def drive(people: dict[int, Client], done: Any, pick: random.Random) -> None:
    """Let ``people`` act whenever the table waits for one of them, until ``done()``."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for c in people.values():
            while c.ws._send_rx.statistics().current_buffer_used:  # what came meanwhile
                c.recv()
            if c.state is None or not settled(c.state, people):
                c.until(lambda m: settled(m, people))
        if done():
            return
        state = next(iter(people.values())).state
        assert state is not None
        info = state["match"]
        if info["waiting"]:
            for seat in info["waiting"]:
                people[seat].send("next_round")
        else:
            act(people[state["view"]["to_move"]], pick)
        for c in people.values():
            c.until(lambda m: settled(m, people))
    raise AssertionError("the table did not get there in time")


def in_play(c: Client) -> bool:
    return c.state is not None and c.state["view"]["phase"] == "play"


def seat_one_acted(c: Client) -> bool:
    state = c.state
    return state is not None and any(
        line.startswith("1 ") and line.split()[1] != "draw" for line in state["view"]["history"])


def test_an_absent_persons_seat_is_played_for_them_until_they_return() -> None:
    with serving(":memory:", grace_settings()) as (_http, server):
        code = server.room("tractor", 4)
        people = table(server, code, [0, 1], {2: "random", 3: "random"})
        ann, bob = people[0], people[1]
        assert ann.seen[-1]["config"]["absent_grace"] == 0.3  # the server's default
        bob.ws.close()
        ann.until(lambda m: m["type"] == "room" and not m["seats"][1]["connected"])
        ann.send("start")
        room = ann.until(lambda m: m["type"] == "room" and m["seats"][1]["auto"])
        assert [s["auto"] for s in room["seats"]] == [False, True, False, False]
        pick = random.Random(4)
        # the stand-in plays Bob's seat; between rounds nobody waits for him
        drive({0: ann}, lambda: bool(ann.state and ann.state["match"]["waiting"]), pick)
        assert seat_one_acted(ann)
        assert ann.state is not None and ann.state["match"]["waiting"] == [0]
        assert server.live(code).state.match_row.kinds[1] == "human"  # type: ignore[union-attr]
        # Bob comes back to the score sheet: his seat is his again, the table waits for him
        # to read the sheet (he may review the round), and for his turns
        back = joined(server, code, "p1", token=bob.token)
        assert back.seen[-1]["seats"][1] == {**room["seats"][1], "connected": True,
                                             "auto": False}
        ann.until(lambda m: m["type"] == "room" and not m["seats"][1]["auto"])
        sheet = back.until(lambda m: m["type"] == "state")
        assert sheet["match"]["waiting"] == [0, 1] and sheet["view"]["result"] is not None
        live = server.live(code).state
        assert live.between_rounds and live.excused == set()
        # the stand-in's moves are known as such (and kept in the log): Bob's review leaves
        # them out
        assert live.stood_in and live.match is not None and live.match_row is not None
        assert {live.match.history[i].seat for i in live.stood_in} == {1}
        stored = live.storage.load_match(code, live.match_row.no)
        assert stored is not None and stored.stand_ins == sorted(live.stood_in)
        back.send("review")
        review = back.expect("review")["analysis"]["rounds"][0]
        assert review["skipped"] > 0
        assert not {d["index"] for d in review["decisions"]} & live.stood_in
        ann.send("next_round")
        ann.until(lambda m: m["type"] == "state" and m["match"]["waiting"] == [1])
        back.send("next_round")  # the next round begins once Bob has read the sheet too
        for c in (ann, back):
            c.until(lambda m: m["type"] == "state" and not m["match"]["waiting"])
        both = {0: ann, 1: back}
        drive(both, lambda: bool(back.state and back.state["legal"]
                                 and back.state["legal"]["kind"] != "deal"), pick)
        assert back.state is not None and back.state["view"]["to_move"] == 1
        act(back, pick)
        back.until(lambda m: m["type"] == "state" and m["legal"] is None)


def test_the_host_sets_the_absent_grace_and_zero_means_never() -> None:
    with serving(":memory:", grace_settings(0.2)) as (_http, server):
        code = server.room("tractor", 4)
        people = table(server, code, [0, 1], {2: "random", 3: "random"})
        ann, bob = people[0], people[1]
        assert bob.error("configure", preset="tractor", table=4, absent_grace=0)["code"] == (
            "not-host")
        refused = ann.error("configure", preset="tractor", table=4, absent_grace=-1)
        assert refused["code"] == "bad-message"
        ann.send("configure", preset="tractor", table=4, absent_grace=0)
        ann.until(lambda m: m["type"] == "room" and m["config"]["absent_grace"] == 0)
        ann.send("configure", preset="tractor", table=4)  # unchanged when not given
        room = ann.until(lambda m: m["type"] == "room" and m["config"].get("suggest"))
        assert room["config"]["absent_grace"] == 0
        bob.ws.close()
        ann.send("start")
        ann.expect("state")
        time.sleep(0.6)
        ann.send("chat", text="still there?")
        ann.expect("chat")
        assert server.live(code).state.auto_seats == set()
        assert not any(m["type"] == "room" and any(s["auto"] for s in m["seats"])
                       for m in ann.seen)


def test_a_server_seed_deals_every_room_the_same_cards() -> None:
    """``--seed N``: every match is dealt from N (the same deck in every room); without it,
    each match gets its own secret seed."""
    decks = {}
    for seed in (12345, None):
        with serving(":memory:", replace(FAST, seed=seed)) as (_http, server):
            matches = []
            for _ in range(2):
                code = server.room("tractor", 4)
                host = table(server, code, [0], {1: "random", 2: "random", 3: "random"})[0]
                host.send("start")
                host.until(lambda m: m["type"] == "state")
                match = server.live(code).state.match
                assert match is not None
                matches.append((match.seed, match.round.deck))
            decks[seed] = matches
    (seed_a, deck_a), (seed_b, deck_b) = decks[12345]
    assert seed_a == seed_b == 12345 and deck_a == deck_b
    assert deck_a == Match(rules_from_dict({"preset": "tractor"}), seed=12345).round.deck
    (seed_a, deck_a), (seed_b, deck_b) = decks[None]
    assert seed_a != seed_b and deck_a != deck_b
