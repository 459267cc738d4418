"""The lobby: the rules a room may be configured with, seats, computer players, the start,
replacing a seat, a new match, the host's kick and heir.

:class:`Lobby` is given the room's :class:`~shengji.server.state.RoomState` and a callback
that wakes the computer players (:meth:`shengji.server.autoplay.AutoPlay.wake`); its commands
run under the room's lock (:class:`shengji.server.room.Room` calls them; the sweeper calls
:meth:`Lobby.prune` only while the lock is free). Rules are checked by the engine's validation
(:func:`~shengji.server.room_rules.check_rules`), never restated here.
"""

from __future__ import annotations

import contextlib
import dataclasses
import secrets
from collections.abc import Callable

from shengji.game.config import rules_to_dict
from shengji.players import PLAYER_KINDS
from shengji.server import schemas
from shengji.server.limits import SEED_BITS
from shengji.server.members import Member, Refusal
from shengji.server.room_rules import check_rules
from shengji.server.schemas import error
from shengji.server.state import RoomState, free_seat, new_bot
from shengji.server.storage import MatchRow


class Lobby:
    """The host's and the members' commands on seats and the match's configuration: the lobby
    (before the match), the start, replacing a seat, a new match, the kick, the host's heir
    and forgetting long-gone members. Each is checked, then stored, then announced."""

    def __init__(self, state: RoomState, wake: Callable[[], None]) -> None:
        self.state = state
        self.wake = wake
        """Called when the computer players may have something to do (a match began)."""

    def _host_only(self, member: Member) -> None:
        if member.id != self.state.row.host:
            raise Refusal("not-host", "only the host may do this")

    def _host_in_lobby(self, member: Member) -> None:
        self._host_only(member)
        if self.state.row.status != "lobby":
            raise Refusal("not-in-lobby", "this can only be done before the match starts")

    def _seat_index(self, seat: int) -> int:
        seats = self.state.row.seats
        if not 0 <= seat < len(seats):
            raise Refusal("no-seat", f"there is no seat {seat} at this table "
                                     f"(seats 0..{len(seats) - 1})")
        return seat

    @staticmethod
    def _bot_kind(kind: str) -> str:
        if kind not in PLAYER_KINDS:
            raise Refusal("bad-bot", f"unknown computer player {kind!r}; choose from "
                                     + ", ".join(PLAYER_KINDS))
        return kind

    # -- seats ---------------------------------------------------------------------------

    def sit(self, member: Member, message: schemas.Sit) -> None:
        """Take a free seat (leaving the member's old one)."""
        state = self.state
        if state.row.status != "lobby":
            raise Refusal("not-in-lobby", "seats are taken before the match starts")
        seat = self._seat_index(message.seat)
        if state.row.seats[seat]["kind"] is not None:
            raise Refusal("seat-taken", f"seat {seat} is taken")
        old = state.seat_of(member)
        row = state.draft()
        if old is not None:
            row.seats[old] = free_seat()
        row.seats[seat] = {"kind": "person", "member": member.id, "bot": None}
        state.save_row(row)

    def stand(self, member: Member, message: schemas.Stand) -> None:
        """Leave the member's seat (and watch)."""
        state = self.state
        if state.row.status != "lobby":
            raise Refusal("not-in-lobby", "seats are left before the match starts")
        seat = state.seat_of(member)
        if seat is None:
            raise Refusal("not-seated", "you have no seat")
        if state.spectator_count() >= state.settings.max_spectators:
            raise Refusal("too-many-spectators",
                          f"this room already has {state.settings.max_spectators} spectators")
        row = state.draft()
        row.seats[seat] = free_seat()
        state.save_row(row)

    def configure(self, member: Member, message: schemas.Configure) -> None:
        """The host sets the preset, the table size, the rules, the suggestion player and the
        absent grace."""
        state = self.state
        self._host_in_lobby(member)
        rules, errors = check_rules(message.preset, message.table, message.rules)
        if rules is None:
            raise Refusal("bad-rules", "; ".join(f"{k}: {v}" for k, v in errors.items()))
        suggest = state.suggester if message.suggest is None else self._bot_kind(message.suggest)
        think = message.suggest_time
        if think is None:  # unchanged (a choice over this server's --bot-time is capped)
            think = state.row.config.get("suggest_time")
        elif think > state.settings.bot_time:
            raise Refusal("bad-time", f"the suggestion player may think at most "
                                      f"{state.settings.bot_time:g} seconds on this server "
                                      f"(its --bot-time), not {think:g}")
        row = state.draft()
        row.config = {"preset": message.preset, "table": message.table,
                      "rules": dict(message.rules), "suggest": suggest}
        if think is not None:  # else the search player's default
            row.config["suggest_time"] = think
        grace = state.row.config.get("absent_grace") if message.absent_grace is None else (
            message.absent_grace)
        if grace is not None:  # else the server's --absent-grace
            row.config["absent_grace"] = grace
        seats = row.seats[:message.table]
        row.seats = seats + [free_seat() for _ in range(message.table - len(seats))]
        state.save_row(row)

    def add_bot(self, member: Member, message: schemas.AddBot) -> None:
        """The host seats a computer player."""
        state = self.state
        self._host_in_lobby(member)
        seat = self._seat_index(message.seat)
        kind = self._bot_kind(message.kind)
        if state.row.seats[seat]["kind"] is not None:
            raise Refusal("seat-taken", f"seat {seat} is taken")
        row = state.draft()
        row.seats[seat] = {"kind": "bot", "member": None, "bot": kind}
        state.save_row(row)

    def remove(self, member: Member, message: schemas.Remove) -> None:
        """The host frees a seat."""
        state = self.state
        self._host_in_lobby(member)
        seat = self._seat_index(message.seat)
        if state.row.seats[seat]["kind"] is None:
            raise Refusal("seat-free", f"seat {seat} is already free")
        row = state.draft()
        row.seats[seat] = free_seat()
        state.save_row(row)

    def move(self, member: Member, message: schemas.Move) -> None:
        """The host swaps two seats."""
        state = self.state
        self._host_in_lobby(member)
        a, b = self._seat_index(message.seat), self._seat_index(message.to)
        if state.row.seats[a]["kind"] is None:
            raise Refusal("seat-free", f"seat {a} is free: nobody to move")
        row = state.draft()
        seats = row.seats
        seats[a], seats[b] = seats[b], seats[a]
        state.save_row(row)

    # -- the match -----------------------------------------------------------------------

    def start(self, member: Member, message: schemas.Start) -> None:
        """The host starts the match once every seat is taken (its rules checked again)."""
        state = self.state
        self._host_in_lobby(member)
        free = [s for s, seat in enumerate(state.row.seats) if seat["kind"] is None]
        if free:
            raise Refusal("seats-free", "every seat must be taken (by a person or a computer "
                                        f"player) first; free: {', '.join(map(str, free))}")
        config = state.row.config
        rules, errors = check_rules(config["preset"], config["table"], config["rules"])
        if rules is None:
            raise Refusal("bad-rules", "; ".join(f"{k}: {v}" for k, v in errors.items()))
        seats = state.row.seats
        seed = state.settings.seed
        stored = MatchRow(state.row.match_no, rules_to_dict(rules),
                          secrets.randbits(SEED_BITS) if seed is None else seed,
                          [state.seat_name(s) or "" for s in range(len(seats))],
                          ["human" if seat["kind"] == "person" else str(seat["bot"])
                           for seat in seats])
        row = state.draft()
        row.status = "playing"
        state.store(lambda: state.storage.start_match(state.code, stored))
        state.save_row(row)
        state.begin(stored)
        state.broadcast_room()  # with the match's level table
        state.broadcast_state()
        self.wake()

    def replace(self, member: Member, message: schemas.Replace) -> None:
        """The host hands a person's seat to a computer player during the match."""
        state = self.state
        self._host_only(member)
        if state.row.status != "playing":
            raise Refusal("not-playing", "a seat is replaced during a match")
        seat = self._seat_index(message.seat)
        kind = self._bot_kind(message.kind)
        if state.row.seats[seat]["kind"] != "person":
            raise Refusal("not-a-person", f"seat {seat} is not held by a person")
        assert state.match_row is not None
        row = state.draft()
        row.seats[seat] = {"kind": "bot", "member": None, "bot": kind}
        kinds = list(state.match_row.kinds)
        kinds[seat] = kind  # the record says who played the seat in the end
        stored = dataclasses.replace(state.match_row, kinds=kinds)
        state.store(lambda: state.storage.start_match(state.code, stored))
        state.save_row(row)
        state.match_row = stored
        state.bots[seat] = new_bot(kind)
        state.waiting.discard(seat)
        state.broadcast_state()
        self.wake()

    def new_match(self, member: Member, message: schemas.NewMatch) -> None:
        """The host returns to the lobby once the match is over."""
        state = self.state
        self._host_only(member)
        if state.row.status != "over":
            raise Refusal("not-over", "a new match starts after this one is over")
        row = state.draft()
        row.status = "lobby"
        row.match_no += 1
        state.save_row(row)
        state.match = None
        state.match_row = None
        state.bots = {}
        state.waiting, state.excused = set(), set()

    # -- members -------------------------------------------------------------------------

    def kick(self, member: Member, message: schemas.Kick) -> None:
        """The host removes a member (not one seated in the match) and closes their
        connections."""
        state = self.state
        self._host_only(member)
        gone = state.members.get(message.member)
        if gone is None:
            raise Refusal("no-member", f"there is no member {message.member!r} in this room")
        if gone is member:
            raise Refusal("not-yourself", "the host cannot kick themselves")
        seat = state.seat_of(gone)
        if seat is not None and state.row.status == "playing":
            raise Refusal("seated-in-match", f"{gone.name} holds seat {seat} in the match: "
                                             "replace the seat first")
        self._forget([gone.id])
        for conn in [c for c in state.conns if c.member is gone]:
            conn.send(error("kicked", "the host removed you from this room"))
            conn.member = None
            conn.close()
        state.broadcast_room()

    def pass_host(self) -> None:
        """If the host is away, hand the role to the first connected member (seated ones
        first); not stored: tried again at the next leave."""
        state = self.state
        host = state.row.host
        if host is None or state.connected(host):
            return
        seated = [seat["member"] for seat in state.row.seats if seat["kind"] == "person"]
        order = [*seated, *(m for m in state.members if m not in seated)]
        heir = next((m for m in order if state.connected(m)), None)
        if heir is not None:
            row = state.draft()
            row.host = heir
            with contextlib.suppress(Refusal):
                state.save_row(row)

    def _forget(self, ids: list[str]) -> None:
        """Remove members and free their seats (stored together, then in memory)."""
        state = self.state
        row = state.draft()
        row.seats = [free_seat() if seat["kind"] == "person" and seat["member"] in ids
                     else seat for seat in row.seats]
        state.store(lambda: state.storage.delete_members(state.code, ids, row))
        state.row = row
        for member_id in ids:
            del state.members[member_id]
            state.online.pop(member_id, None)
            state.chat_rates.pop(member_id, None)

    def prune(self, now: float) -> list[str]:
        """Forget members without a seat (nor the host's role) away for the member expiry;
        returns their ids."""
        state = self.state
        seated = {seat["member"] for seat in state.row.seats if seat["kind"] == "person"}
        gone = [m.id for m in state.members.values()
                if m.id not in seated and m.id != state.row.host and m.id not in state.online
                and now - m.away > state.settings.member_expiry]
        if gone:
            try:
                self._forget(gone)
            except Refusal:  # not stored: forgotten at a later sweep
                return []
        return gone
