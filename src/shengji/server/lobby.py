"""The lobby: the rules a room may be configured with, seats, computer players, the start,
and the host's kick."""

from __future__ import annotations

import secrets
from typing import Any

from shengji.engine.reasons import Reason
from shengji.engine.rules import Rules, RulesError
from shengji.game.config import rules_from_dict, rules_to_dict
from shengji.game.presets import PRESETS
from shengji.players import PLAYER_KINDS
from shengji.server import schemas
from shengji.server.autoplay import AutoPlay
from shengji.server.members import Member, Refusal
from shengji.server.schemas import error
from shengji.server.state import free_seat
from shengji.server.storage import MatchRow


def check_rules(preset_name: str, table: int, options: dict[str, Any]
                ) -> tuple[Rules | None, dict[str, str]]:
    """The rules of a room configuration, or one message per bad field (``preset``, ``table``
    or an option name), checked by the engine's rules validation (a message is a
    :class:`~shengji.engine.reasons.Reason` where the engine made it one)."""
    if preset_name not in PRESETS:
        return None, {"preset": f"unknown preset {preset_name!r}; presets are: "
                                + ", ".join(PRESETS)}
    if not 1 <= table <= schemas.MAX_SEATS:
        return None, {"table": f"a table has 1 to {schemas.MAX_SEATS} seats"}
    base: dict[str, object] = {"preset": preset_name, "players": table}
    try:
        rules_from_dict(base)
    except RulesError as problem:
        return None, {"table": f"{preset_name} cannot be played by {table}: {problem}"}
    overrides = {k: v for k, v in options.items() if k not in ("players", "preset")}
    errors: dict[str, str] = {}
    if options.get("players", table) != table:
        errors["players"] = "the table size sets the players"
    if "preset" in options:
        errors["preset"] = "choose the preset in its own field"
    try:
        rules = rules_from_dict({**base, **overrides})
    except RulesError as problem:
        whole = problem
    else:
        return (None, errors) if errors else (rules, {})
    alone: dict[str, RulesError] = {}
    for name, value in overrides.items():
        try:
            rules_from_dict({**base, name: value})
        except RulesError as problem:
            alone[name] = problem
    if whole.option in overrides:
        # the whole set's error, and the fields wrong by themselves (not one refused alone for
        # want of another field the set gives, as level_table="custom" without custom_levels)
        alone = {name: problem for name, problem in alone.items() if problem.option == name}
        alone[whole.option] = whole
    errors.update({name: problem.why or str(problem) for name, problem in alone.items()})
    return None, errors or {whole.option or "rules": whole.why or str(whole)}


def rules_errors_json(errors: dict[str, str]) -> dict[str, Any]:
    """``{"errors": {field: English}, "why": {field: reason}}`` for :func:`check_rules`'s
    messages (``why``: those that are structured reasons, see docs/protocol.md)."""
    return {"errors": {name: str(message) for name, message in errors.items()},
            "why": {name: message.as_json() for name, message in errors.items()
                    if isinstance(message, Reason)}}


class Lobby(AutoPlay):
    """The commands of the lobby (before the match) and the host's kick."""

    def _host_only(self, member: Member) -> None:
        if member.id != self.row.host:
            raise Refusal("not-host", "only the host may do this")

    def _host_in_lobby(self, member: Member) -> None:
        self._host_only(member)
        if self.row.status != "lobby":
            raise Refusal("not-in-lobby", "this can only be done before the match starts")

    def _seat_index(self, seat: int) -> int:
        if not 0 <= seat < len(self.row.seats):
            raise Refusal("no-seat", f"there is no seat {seat} at this table "
                                     f"(seats 0..{len(self.row.seats) - 1})")
        return seat

    def _sit(self, member: Member, message: schemas.Sit) -> None:
        if self.row.status != "lobby":
            raise Refusal("not-in-lobby", "seats are taken before the match starts")
        seat = self._seat_index(message.seat)
        if self.row.seats[seat]["kind"] is not None:
            raise Refusal("seat-taken", f"seat {seat} is taken")
        old = self.seat_of(member)
        row = self._draft()
        if old is not None:
            row.seats[old] = free_seat()
        row.seats[seat] = {"kind": "person", "member": member.id, "bot": None}
        self._lobby_changed(row)

    def _stand(self, member: Member, message: schemas.Stand) -> None:
        if self.row.status != "lobby":
            raise Refusal("not-in-lobby", "seats are left before the match starts")
        seat = self.seat_of(member)
        if seat is None:
            raise Refusal("not-seated", "you have no seat")
        if self.spectator_count() >= self.settings.max_spectators:
            raise Refusal("too-many-spectators",
                          f"this room already has {self.settings.max_spectators} spectators")
        row = self._draft()
        row.seats[seat] = free_seat()
        self._lobby_changed(row)

    def _configure(self, member: Member, message: schemas.Configure) -> None:
        self._host_in_lobby(member)
        rules, errors = check_rules(message.preset, message.table, message.rules)
        if rules is None:
            raise Refusal("bad-rules", "; ".join(f"{k}: {v}" for k, v in errors.items()))
        suggest = self.suggester if message.suggest is None else self._bot_kind(message.suggest)
        row = self._draft()
        row.config = {"preset": message.preset, "table": message.table,
                      "rules": dict(message.rules), "suggest": suggest}
        seats = row.seats[:message.table]
        row.seats = seats + [free_seat() for _ in range(message.table - len(seats))]
        self._lobby_changed(row)

    def _bot_kind(self, kind: str) -> str:
        if kind not in PLAYER_KINDS:
            raise Refusal("bad-bot", f"unknown computer player {kind!r}; choose from "
                                     + ", ".join(PLAYER_KINDS))
        return kind

    def _add_bot(self, member: Member, message: schemas.AddBot) -> None:
        self._host_in_lobby(member)
        seat = self._seat_index(message.seat)
        kind = self._bot_kind(message.kind)
        if self.row.seats[seat]["kind"] is not None:
            raise Refusal("seat-taken", f"seat {seat} is taken")
        row = self._draft()
        row.seats[seat] = {"kind": "bot", "member": None, "bot": kind}
        self._lobby_changed(row)

    def _remove(self, member: Member, message: schemas.Remove) -> None:
        self._host_in_lobby(member)
        seat = self._seat_index(message.seat)
        if self.row.seats[seat]["kind"] is None:
            raise Refusal("seat-free", f"seat {seat} is already free")
        row = self._draft()
        row.seats[seat] = free_seat()
        self._lobby_changed(row)

    def _move(self, member: Member, message: schemas.Move) -> None:
        self._host_in_lobby(member)
        a, b = self._seat_index(message.seat), self._seat_index(message.to)
        if self.row.seats[a]["kind"] is None:
            raise Refusal("seat-free", f"seat {a} is free: nobody to move")
        row = self._draft()
        seats = row.seats
        seats[a], seats[b] = seats[b], seats[a]
        self._lobby_changed(row)

    def _start(self, member: Member, message: schemas.Start) -> None:
        self._host_in_lobby(member)
        free = [s for s, seat in enumerate(self.row.seats) if seat["kind"] is None]
        if free:
            raise Refusal("seats-free", "every seat must be taken (by a person or a computer "
                                        f"player) first; free: {', '.join(map(str, free))}")
        config = self.row.config
        rules, errors = check_rules(config["preset"], config["table"], config["rules"])
        if rules is None:
            raise Refusal("bad-rules", "; ".join(f"{k}: {v}" for k, v in errors.items()))
        seats = self.row.seats
        stored = MatchRow(self.row.match_no, rules_to_dict(rules), secrets.randbits(48),
                          [self._seat_name(s) or "" for s in range(len(seats))],
                          ["human" if seat["kind"] == "person" else str(seat["bot"])
                           for seat in seats])
        row = self._draft()
        row.status = "playing"
        self._store(lambda: self.storage.start_match(self.code, stored))
        self._lobby_changed(row)
        self._begin(stored)
        self._broadcast_state()
        self.wake.set()

    def _kick(self, member: Member, message: schemas.Kick) -> None:
        self._host_only(member)
        gone = self.members.get(message.member)
        if gone is None:
            raise Refusal("no-member", f"there is no member {message.member!r} in this room")
        if gone is member:
            raise Refusal("not-yourself", "the host cannot kick themselves")
        seat = self.seat_of(gone)
        if seat is not None and self.row.status == "playing":
            raise Refusal("seated-in-match", f"{gone.name} holds seat {seat} in the match: "
                                             "replace the seat first")
        self._forget([gone.id])
        for conn in [c for c in self.conns if c.member is gone]:
            conn.send(error("kicked", "the host removed you from this room"))
            conn.member = None
            conn.close()
        self._broadcast_room()

    def _forget(self, ids: list[str]) -> None:
        """Remove members and free their seats (stored together, then in memory)."""
        row = self._draft()
        row.seats = [free_seat() if seat["kind"] == "person" and seat["member"] in ids
                     else seat for seat in row.seats]
        self._store(lambda: self.storage.delete_members(self.code, ids, row))
        self.row = row
        for member_id in ids:
            del self.members[member_id]
            self.online.pop(member_id, None)
            self.chat_rates.pop(member_id, None)

    def prune(self, now: float) -> list[str]:
        """Forget members without a seat (nor the host's role) away for the member expiry;
        returns their ids."""
        seated = {seat["member"] for seat in self.row.seats if seat["kind"] == "person"}
        gone = [m.id for m in self.members.values()
                if m.id not in seated and m.id != self.row.host and m.id not in self.online
                and now - m.away > self.settings.member_expiry]
        if gone:
            try:
                self._forget(gone)
            except Refusal:  # not stored: forgotten at a later sweep
                return []
        return gone
