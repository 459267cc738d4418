"""The leak check: every state message a seat or a spectator is sent, computed again with the
cards it may not see shuffled among their hidden places, must not change (whole rounds of every
preset, people, computer players and a spectator at the table)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from shengji.engine.cards import Hand
from shengji.game.match import Match
from shengji.game.phase import Phase
from shengji.server.state import RoomState
from test_server_protocol import Server, play_round, server, settled, table

__all__ = ["server"]  # (the fixture, shared with test_server_protocol.py)


def shuffle_hidden(match: Match, seat: int | None, rng: random.Random) -> Match:
    """A copy of ``match`` where every card ``seat`` may not see is shuffled among its hidden
    places (other hands, the undealt deck, a buried kitty that is not the seat's)."""
    other = match.copy()
    rnd = other.round
    players = rnd.rules.players
    hidden_seats = [s for s in range(players) if s != seat]
    pool = [card for s in hidden_seats for card in rnd.hands[s].cards()]
    undealt = list(rnd.deck[rnd.next_card:]) if rnd.phase == Phase.DEAL else []
    owner = rnd.kitty_owner
    buried = owner is not None and owner != seat and rnd.buried_at and not (
        rnd.phase == Phase.DONE and rnd.rules.kitty_revealed)
    kitty = list(rnd.kitty) if buried else []
    pool += undealt + kitty
    rng.shuffle(pool)
    at = 0
    for s in hidden_seats:
        size = len(rnd.hands[s])
        rnd.hands[s] = Hand(pool[at:at + size])
        at += size
    if undealt:
        rnd.deck = rnd.deck[:rnd.next_card] + tuple(pool[at:at + len(undealt)])
        at += len(undealt)
        rnd.kitty = rnd.deck[len(rnd.deck) - rnd.rules.kitty_size:]
    if kitty:
        rnd.kitty = tuple(pool[at:at + len(kitty)])
    return other


class LeakLog:
    """What the leak check found: failures, and how many messages it recomputed."""

    def __init__(self) -> None:
        self.failures: list[str] = []
        self.checks = 0


@pytest.fixture
def leaks(monkeypatch: pytest.MonkeyPatch) -> LeakLog:
    """Check every state message at the moment it is sent (see :func:`shuffle_hidden`)."""
    found = LeakLog()
    original = RoomState.state_message
    rng = random.Random(5)

    def checked(self: RoomState, seat: int | None) -> str:
        text = original(self, seat)
        match = self.match
        assert match is not None
        self.match = shuffle_hidden(match, seat, rng)  # (a new shuffle for every message)
        try:
            again = original(self, seat)
        finally:
            self.match = match
        found.checks += 1
        if again != text:
            found.failures.append(f"seat {seat}: {text[:300]} != {again[:300]}")
        message = json.loads(text)
        view = message["view"]
        if seat is None:
            if view["seat"] is not None or view["hand"] or message["legal"] is not None:
                found.failures.append(f"a spectator sees a seat's cards: {text[:300]}")
            if view["kitty"] is not None and view["phase"] != "done":
                found.failures.append("a spectator sees the kitty")
            if view["phase"] != "done" and any(  # done: shown to all with kitty_revealed
                    len(a.split()) > 2 and a.split()[1] == "bury" for a in view["history"]):
                found.failures.append("a spectator sees buried cards")
        elif len(view["hand"]) != view["hand_sizes"][seat]:
            found.failures.append(f"seat {seat}: the hand does not match its size")
        if '"seed"' in text or '"deck"' in text:
            found.failures.append("the seed or the deck in a state message")
        return text

    monkeypatch.setattr(RoomState, "state_message", checked)
    return found


# -- tests ------------------------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize(("preset", "size", "people", "rules"), [
    ("tractor", 4, [0, 1], {}),
    ("tractor", 4, [1, 2], {"kitty_revealed": False}),
    ("tractor-6", 6, [0, 3], {}),
    ("finding-friends", 5, [0, 2], {}),
    ("da-bai-fen", 4, [0, 1], {}),
    ("hundred", 4, [0, 3], {}),
    ("tractor", 4, [0, 1], {"bid_reinforce_after_bury": True, "kitty_overbid": True,
                            "leftover_steps": "carry", "after_end": "wrap"}),
    ("tractor", 4, [0, 1], {"rainbow": 2, "rainbow_throws": True}),
    ("finding-friends", 7, [0, 2], {"kitty": 5, "removed_ranks": ["2"]}),
])
def test_whole_rounds_with_leak_check(server: Server, leaks: LeakLog, preset: str, size: int,
                                      people: list[int], rules: dict[str, Any]) -> None:
    code = server.room(preset, size, **rules)
    bots = {s: ("heuristic" if s % 2 else "random") for s in range(size) if s not in people}
    clients = table(server, code, people, bots)
    spectator = server.connect(code)
    spectator.hello("Watcher")
    host = clients[people[0]]
    host.send("start")
    pick = random.Random(size)
    done = 0
    while done < 2:  # two rounds (a redeal counts as one)
        assert play_round(clients, [spectator], pick) > 0
        done += 1
        sheet = host.state["match"]["results"][-1]  # type: ignore[index]
        assert sheet["lines"] and len(spectator.state["match"]["results"]) == done  # type: ignore[index]
        for c in clients.values():
            assert c.state["legal"] is None  # type: ignore[index]
            assert c.error("action", action="0 draw")["code"] in ("not-your-turn",
                                                                  "not-your-seat")
        for seat, c in clients.items():
            c.send("next_round")
            c.until(lambda m, s=seat: m["type"] == "state" and s not in m["match"]["waiting"])
    assert leaks.failures == []
    assert leaks.checks > 100


@pytest.fixture
def leaky(monkeypatch: pytest.MonkeyPatch) -> None:
    """State messages whose history also shows the next seat's hand (installed before the
    check)."""
    original = RoomState.state_message

    def leaking(self: RoomState, seat: int | None) -> str:
        message = json.loads(original(self, seat))
        assert self.match is not None
        nxt = ((seat or 0) + 1) % self.match.rules.players
        message["view"]["history"].append(f"{nxt} show {self.match.round.hands[nxt]}")
        return json.dumps(message)

    monkeypatch.setattr(RoomState, "state_message", leaking)


def test_the_check_finds_a_planted_leak(server: Server, leaky: None, leaks: LeakLog) -> None:
    code = server.room("tractor", 4)
    clients = table(server, code, [0], {1: "random", 2: "random", 3: "random"})
    clients[0].send("start")
    clients[0].until(lambda m: settled(m, clients))
    assert leaks.checks > 0 and leaks.failures
