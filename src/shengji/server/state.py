"""A room's state and its messages out: seats, the match and its action log, and each
connection's redacted ``room`` and ``state`` messages.

:class:`RoomState` is the data every collaborator of a :class:`shengji.server.room.Room`
shares (the lobby, :mod:`shengji.server.lobby`; computer players,
:mod:`shengji.server.autoplay`): it is handed to each of them, and changed only under the
room's lock. An action is checked by the engine (:meth:`shengji.game.Match.apply` refuses it
with an :class:`ActionError`, changing nothing), written to the room's action log
(:mod:`shengji.server.storage`) and only then announced (:meth:`RoomState.act`): every
connection gets its own redacted ``state`` (:func:`shengji.game.Match.view` of its seat;
spectators :meth:`shengji.game.view.SeatView.spectator`, the view of no seat).
"""

from __future__ import annotations

import copy
import json
import logging
import secrets
import time
from collections import deque
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from shengji.engine.rules import Rules
from shengji.engine.scoring import level_change
from shengji.game.actions import Action, parse_action
from shengji.game.config import rules_from_dict
from shengji.game.deal import pack
from shengji.game.legal import ActionError
from shengji.game.match import Match
from shengji.game.round import Round
from shengji.game.view import SeatView
from shengji.players import THINKING_KINDS, make_player
from shengji.players.base import Player
from shengji.players.search import TIME_BUDGET
from shengji.server import encode
from shengji.server.limits import RateLimit, Settings
from shengji.server.members import Connection, Member, Refusal
from shengji.server.room_rules import no_model_json
from shengji.server.storage import ChatRow, MatchRow, RoomRow, Storage

log = logging.getLogger("shengji.server")

DEFAULT_SUGGESTER = "heuristic"
"""The computer player whose choice ``suggest`` answers unless the host chose another."""
STAND_IN = "heuristic"
"""The computer player that plays the seat of a person away past the absent grace."""


class RoomState:
    """A room's state (changed under the room's lock): its stored row (seats, configuration,
    host), members, connections, the match and its log, chat; and its messages out."""

    def __init__(self, row: RoomRow, storage: Storage, settings: Settings) -> None:
        self.row = row
        self.storage = storage
        self.settings = settings
        self.members: dict[str, Member] = {}
        self.conns: list[Connection] = []
        self.online: dict[str, int] = {}
        """Open connections of each member who said hello."""
        self.match: Match | None = None
        self.match_row: MatchRow | None = None
        self.logged = 0
        """Actions of the current match in the log."""
        self.version = 0
        """Actions applied to the room's matches (a computer player's choice made off the
        loop is applied only if nothing changed meanwhile)."""
        self.bots: dict[int, Player] = {}
        self.results: dict[int | None, list[dict[str, Any]]] = {}
        """Every finished round's sheet as each seat (``None``: spectators) may see it."""
        self.waiting: set[int] = set()
        """Person seats still reading the score sheet before the next deal."""
        self.excused: set[int] = set()
        """Person seats not waited for at this score sheet because a computer player plays
        them (their person away): waited for again if their person returns before the next
        round begins."""
        self.finished: Round | None = None
        """The round that ended last: shown (its last trick, every trick, its result in the
        view) while people read its score sheet."""
        self.level_table: dict[str, Any] | None = None
        """The match's level table (the ``room`` message's ``level_table``), from the
        engine's scoring."""
        self.auto_seats: set[int] = set()
        """Person seats played by a computer player while their person is away (past the
        absent grace); announced in the ``room`` message (``seats[].auto``)."""
        self.stand_ins: dict[int, Player] = {}
        """The computer player of each seat of :attr:`auto_seats`."""
        self.stood_in: set[int] = set()
        """The positions in the match's actions (from 0) that a stand-in chose: the reviews
        leave them out (the person did not choose them)."""
        self.chat: deque[ChatRow] = deque(maxlen=settings.chat_history)
        self.chat_rates: dict[str, RateLimit] = {}
        """Each member's chat rate limit (whatever connection they write from)."""
        self.encoded = encode.EncodeCache()
        self._encoded_round: object = None

    @property
    def code(self) -> str:
        """The room's code."""
        return self.row.code

    @property
    def suggester(self) -> str:
        """The kind of computer player that answers ``suggest`` (a room option)."""
        return str(self.row.config.get("suggest") or DEFAULT_SUGGESTER)

    @property
    def suggest_time(self) -> float:
        """Seconds the suggestion player may think, where its kind thinks (a room option,
        else the search player's default), within the server's ``bot_time`` (a room saved
        under a larger one keeps its choice, capped)."""
        chosen = self.row.config.get("suggest_time")
        return min(float(chosen) if chosen is not None else TIME_BUDGET,
                   self.settings.bot_time)

    def suggestion(self, action: Action, chosen: bool = True) -> dict[str, Any]:
        """The ``suggestion`` message of ``action``: who suggested it, and how long it could
        think (``chosen`` False: the only action, nobody chose it)."""
        kind = self.suggester
        return {"type": "suggestion", "action": str(action), "by": kind if chosen else None,
                "time": self.suggest_time if chosen and kind in THINKING_KINDS else None}

    @property
    def absent_grace(self) -> float:
        """Seconds a seated person may be away before a computer player plays for them (a
        room option, else the server's ``absent_grace``; 0: never)."""
        grace = self.row.config.get("absent_grace")
        return float(grace) if grace is not None else self.settings.absent_grace

    # -- seats ---------------------------------------------------------------------------

    def person_seats(self) -> set[int]:
        """The seats held by people."""
        return {s for s, seat in enumerate(self.row.seats) if seat["kind"] == "person"}

    def seat_of(self, member: Member) -> int | None:
        """The member's seat, if any."""
        for s, seat in enumerate(self.row.seats):
            if seat["kind"] == "person" and seat["member"] == member.id:
                return s
        return None

    def connected(self, member_id: str) -> bool:
        """Whether the member has an open connection that said hello."""
        return member_id in self.online

    def spectator_count(self) -> int:
        """Connected members without a seat."""
        seated = {seat["member"] for seat in self.row.seats if seat["kind"] == "person"}
        return sum(1 for m in self.members if m not in seated and self.connected(m))

    def seat_name(self, s: int) -> str | None:
        """The name shown for seat ``s`` (``None``: free)."""
        seat = self.row.seats[s]
        if seat["kind"] == "person":
            return self.members[seat["member"]].name
        if seat["kind"] == "bot":
            return f"{str(seat['bot']).capitalize()} {s}"
        return None

    def player_of(self, seat: int) -> Player | None:
        """The computer player of ``seat``: its own, or the stand-in of an absent person."""
        bot = self.bots.get(seat)
        return bot if bot is not None else self.stand_ins.get(seat)

    def absent_since(self, seat: int) -> float | None:
        """When the person of ``seat`` left (``None``: connected, or not a person's seat)."""
        seat_row = self.row.seats[seat]
        if seat_row["kind"] != "person" or self.connected(seat_row["member"]):
            return None
        return self.members[seat_row["member"]].away

    def refresh_auto(self, now: float) -> bool:
        """Hand the seats of people away for the absent grace to stand-in computer players,
        and give those whose person is back to them; True if :attr:`auto_seats` changed (the
        caller announces it). A seat played for its person is not waited for between
        rounds, until its person returns to the score sheet (:attr:`excused`)."""
        grace = self.absent_grace
        seats: set[int] = set()
        match = self.match
        if grace > 0 and match is not None and not match.is_over and (
                self.row.status == "playing"):
            for s in range(len(self.row.seats)):
                away = self.absent_since(s)
                if away is not None and now - away >= grace:
                    seats.add(s)
        if seats == self.auto_seats:
            return False
        for s in seats - self.auto_seats:
            self.stand_ins[s] = new_bot(STAND_IN)
        for s in self.auto_seats - seats:
            del self.stand_ins[s]
        back = self.auto_seats - seats
        self.auto_seats = seats
        if self.between_rounds:
            self.waiting |= back & self.excused & self.person_seats()
            self.excused = (self.excused - back) | (self.waiting & seats)
        self.waiting -= seats
        return True

    def touch(self) -> None:
        """Note activity (the room's idle expiry starts again)."""
        self.row.last_active = time.time()

    # -- messages out --------------------------------------------------------------------

    def room_message(self, conn: Connection, shared: dict[str, Any]) -> dict[str, Any]:
        """The ``room`` message for one connection (``shared``: its part common to every
        connection, from :meth:`room_shared`)."""
        member = conn.member
        return {**shared,
                "you": {"member": member.id if member else "",
                        "seat": self.seat_of(member) if member else None,
                        "host": member is not None and member.id == self.row.host}}

    def room_shared(self) -> dict[str, Any]:
        """The part of the ``room`` message common to every connection."""
        seated = {seat["member"] for seat in self.row.seats if seat["kind"] == "person"}
        return {
            "type": "room", "code": self.code, "status": self.row.status, "host": self.row.host,
            "seats": [{"seat": s, "name": self.seat_name(s), "kind": seat["kind"],
                       "bot": seat["bot"],
                       "connected": seat["kind"] == "bot" or (
                           seat["kind"] == "person" and self.connected(seat["member"])),
                       "auto": s in self.auto_seats}
                      for s, seat in enumerate(self.row.seats)],
            "spectators": [m.name for m in self.members.values()
                           if m.id not in seated and self.connected(m.id)],
            "watchers": [{"member": m.id, "name": m.name} for m in self.members.values()
                         if m.id not in seated and self.connected(m.id)],
            "config": {**self.row.config, "suggest": self.suggester,
                       "suggest_time": self.suggest_time, "absent_grace": self.absent_grace},
            "level_table": self.level_table if self.match is not None and (
                self.row.status != "lobby") else None,
            "no_model": no_model_json(self.row.config) if self.row.status == "lobby" else None,
        }

    def broadcast_room(self) -> None:
        """Send every connection that said hello its ``room`` message."""
        shared = self.room_shared()
        for conn in self.conns:
            if conn.member is not None:
                conn.send(self.room_message(conn, shared))

    @property
    def between_rounds(self) -> bool:
        """Whether a round has finished and the next has not begun (no action made in it
        yet; the match not over): the score sheet's time."""
        match = self.match
        return (match is not None and bool(match.results) and not match.is_over
                and not match.round.history)

    def shown_round(self) -> Round:
        """The round the ``state`` messages show: the one that ended while people read its
        score sheet (:attr:`waiting`), else the match's."""
        match = self.match
        assert match is not None
        finished = self.finished
        if self.waiting and finished is not None and self.between_rounds:
            return finished
        return match.round

    def state_message(self, seat: int | None) -> str:
        """The ``state`` message of ``seat`` (``None``: a spectator), as JSON text. Between
        rounds the view is the finished round's (its last trick, every trick and its result),
        and ``match.round`` its number."""
        match = self.match
        assert match is not None
        legal = None
        rnd = self.shown_round()
        if rnd is not self._encoded_round:
            self.encoded.clear()
            self._encoded_round = rnd
        if seat is None:
            view = encode.view_json(SeatView.spectator(rnd), cache=self.encoded)
        else:
            seat_view = rnd.view(seat)
            view = encode.view_json(seat_view, cache=self.encoded)
            if not self.waiting and not match.is_over:
                legal = encode.legal_json(match.legal(seat), seat_view)
        number = len(match.results) + (0 if match.is_over or rnd is not match.round else 1)
        info = {"round": number, "levels": list(match.levels), "results": self.results[seat],
                "over": match.is_over, "winners": list(match.winners),
                "waiting": sorted(self.waiting), "throws": recent_throws(match)}
        return json.dumps({"type": "state", "view": view, "legal": legal, "match": info})

    def broadcast_state(self) -> None:
        """Send every connection that said hello the ``state`` message of its seat."""
        if self.match is None:
            return
        cache: dict[int | None, str] = {}
        for conn in self.conns:
            if conn.member is None:
                continue
            seat = self.seat_of(conn.member)
            if seat not in cache:
                cache[seat] = self.state_message(seat)
            conn.send(cache[seat])

    # -- the match -----------------------------------------------------------------------

    def begin(self, stored: MatchRow) -> None:
        """Start the stored match (no action applied yet), with fresh computer players."""
        self.version += 1
        self.match_row = stored
        self.match = Match(rules_from_dict(stored.rules), seed=stored.seed)
        self.results = {s: [] for s in (*range(self.match.rules.players), None)}
        self.waiting, self.excused = set(), set()
        self.finished = None
        self.level_table = level_table_json(self.match.rules)
        self.logged = 0
        self.bots = {s: new_bot(seat["bot"]) for s, seat in enumerate(self.row.seats)
                     if seat["kind"] == "bot"}
        self.auto_seats, self.stand_ins, self.stood_in = set(), {}, set()

    def replay(self, stored: MatchRow) -> None:
        """Rebuild the stored match from its log (a restart, or a failure that left the match
        in doubt): the room is as its log says."""
        self.begin(stored)
        for text in stored.actions:
            self.apply(parse_action(text))
        self.logged = len(stored.actions)
        self.stood_in = set(stored.stand_ins)
        match = self.match
        assert match is not None
        self.row.status = "over" if match.is_over else "playing"
        if self.between_rounds:
            self.wait_for_people()

    def seated_match(self, member: Member) -> tuple[Match, int]:
        """The match being played and the member's seat in it (else a refusal)."""
        seat = self.seat_of(member)
        if seat is None:
            raise Refusal("not-seated", "only a seated player may do this")
        if self.match is None or self.row.status != "playing":
            raise Refusal("not-playing", "no match is being played")
        return self.match, seat

    def wait_refusal(self) -> Refusal | None:
        """The server's own wait between rounds (everyone reads the score sheet)."""
        if self.waiting:
            return Refusal("not-your-turn", "the next round starts once everyone has read "
                                            "the score sheet")
        return None

    def apply(self, action: Action) -> None:
        """Apply one action to the match (raises ActionError, changing nothing, if refused);
        keeps each seat's score sheets and starts the wait between rounds."""
        match = self.match
        assert match is not None
        rnd = match.round
        result = match.apply(action)
        self.version += 1
        if result is None:
            return
        self.finished = rnd
        for seat in range(match.rules.players):
            sheet = rnd.view(seat).result
            assert sheet is not None
            self.results[seat].append(encode.result_json(sheet))
        sheet = SeatView.spectator(rnd).result
        assert sheet is not None
        self.results[None].append(encode.result_json(sheet))
        if not match.is_over:  # the room is "over" once the last action is logged
            self.wait_for_people()

    def wait_for_people(self) -> None:
        """A round has finished: wait for its people to read the score sheet (those away and
        played for are :attr:`excused`)."""
        people = self.person_seats()
        self.waiting, self.excused = people - self.auto_seats, people & self.auto_seats

    def commit(self, actions: list[Action], stand_in: bool = False) -> None:
        """Write applied actions to the log (committed before anyone hears of them;
        ``stand_in``: a stand-in chose them for an absent person)."""
        if not actions:
            return
        assert self.match_row is not None and self.match is not None
        self.touch()
        over = self.match.is_over
        try:
            self.storage.append_actions(self.code, self.match_row.no, self.logged,
                                        [str(a) for a in actions], self.row.last_active,
                                        status="over" if over else None, stand_in=stand_in)
        except Exception:
            log.exception("room %s: could not log actions; rebuilding from the log", self.code)
            self.rebuild()
            raise Refusal("storage", "the server could not save this; nothing changed") from None
        if stand_in:
            self.stood_in.update(range(self.logged, self.logged + len(actions)))
        self.logged += len(actions)
        if over:
            self.row.status = "over"

    def rebuild(self) -> None:
        """Rebuild the match from the stored log (after a failure left it in doubt)."""
        stored = self.storage.load_match(self.code, self.row.match_no)
        if stored is None:
            return
        self.replay(stored)

    def act(self, action: Action, stand_in: bool = False) -> None:
        """Apply, log and announce one action (the engine refuses it with an
        :class:`ActionError`, changing nothing; ``stand_in``: a stand-in chose it for an absent
        person); unexpected engine failures leave the room as its log says. The caller wakes
        the computer players."""
        try:
            self.apply(action)
        except ActionError:
            raise
        except Exception:
            log.exception("room %s: the engine failed on %s", self.code, action)
            self.rebuild()
            raise Refusal("internal", "the server could not apply this action; "
                                      "nothing changed") from None
        self.commit([action], stand_in)
        self.broadcast_state()

    # -- the room's row ------------------------------------------------------------------

    def draft(self) -> RoomRow:
        """A copy of the room's row to change; :meth:`save_row` stores it, then makes it the
        room's (a failed save leaves the room as it was)."""
        row = copy.deepcopy(self.row)
        row.last_active = time.time()
        return row

    def store(self, write: Callable[[], None]) -> None:
        """Run a storage write; a failure is a ``storage`` refusal (nothing changed)."""
        try:
            write()
        except Exception:
            log.exception("room %s: could not save", self.code)
            raise Refusal("storage", "the server could not save this; nothing changed") from None

    def save_row(self, row: RoomRow) -> None:
        """Store ``row`` (a :meth:`draft`), make it the room's and announce it."""
        self.store(lambda: self.storage.save_room(row))
        self.row = row
        self.broadcast_room()


def new_bot(kind: str, think: float | None = None) -> Player:
    """A fresh computer player of ``kind`` for a seat (``think``: as :func:`make_player`)."""
    return make_player(kind, seed=secrets.randbits(32), think=think)


@lru_cache(maxsize=64)
def level_table_json(rules: Rules) -> dict[str, Any]:
    """The ``room`` message's ``level_table``: the rows of the level table of ``rules``
    from 0 up to the card points of the pack (:func:`~shengji.game.deal.pack`), each from the
    first points the engine's scoring (:func:`~shengji.engine.scoring.level_change`) gives
    its outcome for (made once per rules: shared, never changed)."""
    top = max(sum(card.points for card in pack(rules)), rules.draw_at or 0)
    rows: list[dict[str, Any]] = []
    last: tuple[int, int, bool, bool] | None = None
    for points in range(top + 1):
        change = level_change(points, rules)
        outcome = (change.declarers_up, change.opponents_up, change.switch, change.draw)
        if outcome != last:
            rows.append({"points": points, "declarers": change.declarers_up,
                         "opponents": change.opponents_up, "switch": change.switch,
                         "draw": change.draw})
            last = outcome
    return {"max": top, "rows": rows}


def recent_throws(match: Match) -> list[dict[str, Any]]:
    """``match.throws`` of ``state``: the match's failed throws
    (:attr:`~shengji.game.match.Match.failed_throws`) of the round of the latest one and
    the round before it, for the event log and the score sheet; every seat sees them, as
    the blocking cards are shown at the table."""
    throws = match.failed_throws
    if not throws:
        return []
    since = throws[-1].round - 1
    return [{"round": t.round, "seat": t.seat, "trick": t.trick,
             "why": [why.as_json() for why in t.reasons]} for t in throws if t.round >= since]


def free_seat() -> dict[str, Any]:
    """A free seat's row."""
    return {"kind": None, "member": None, "bot": None}


def chat_message(line: ChatRow) -> dict[str, Any]:
    """A ``chat`` message."""
    return {"type": "chat", "member": line.member, "name": line.name, "seat": line.seat,
            "text": line.text, "time": line.time}
