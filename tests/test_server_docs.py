"""``docs/protocol.md`` is enough to write a client from: every message and field the server
reads or sends, every error code, every computer player ``add_bot`` takes, every verb of the
action notation, every ``shengji serve`` limit and the size of every field, as the server has
them."""

from __future__ import annotations

import argparse
import json
import re
import typing
from pathlib import Path

import pytest
from pydantic import BaseModel

from shengji.game import actions
from shengji.players import PLAYER_KINDS
from shengji.server import members, schemas
from shengji.server.app import MAX_BODY
from shengji.server.cli import add_serve_arguments
from shengji.server.limits import Settings

ROOT = Path(__file__).resolve().parent.parent
PROTOCOL = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
SERVER = ROOT / "src" / "shengji" / "server"


def section(title: str) -> str:
    """The text of the section under the heading ``title`` (up to the next heading)."""
    rest = PROTOCOL[PROTOCOL.index(f"# {title}\n"):]
    end = re.search(r"\n#{2,3} ", rest)
    return rest[:end.start()] if end else rest


def models(union: object) -> list[type[BaseModel]]:
    return [m for m in typing.get_args(union) if isinstance(m, type) and issubclass(m, BaseModel)]


def fields_of(model: type[BaseModel]) -> set[str]:
    return set(model.model_fields)


def test_every_client_message_and_field_is_documented() -> None:
    table = section("Client → server")
    for model in models(schemas.ClientMessage):
        kind = typing.get_args(model.model_fields["type"].annotation)[0]
        row = next((line for line in table.splitlines() if line.startswith(f"| `{kind}` |")),
                   None)
        assert row is not None, kind
        for name in fields_of(model) - {"type"}:
            assert f"`{name}`" in row, (kind, name)


@pytest.mark.parametrize("model", [
    schemas.Welcome, schemas.RoomMessage, schemas.SeatInfo, schemas.You, schemas.RoomConfig,
    schemas.StateMessage, schemas.MatchJSON, schemas.LevelTableJSON, schemas.LevelRowJSON,
    schemas.ViewJSON, schemas.RoundSheet, schemas.LegalJSON, schemas.ChatMessage,
    schemas.Checked, schemas.Suggestion, schemas.ErrorMessage, schemas.FailedThrowJSON,
    schemas.CallsJSON, schemas.LevelSteps])
def test_every_field_the_server_sends_is_documented(model: type[BaseModel]) -> None:
    for name in fields_of(model) - {"type"}:
        assert re.search(rf'`{name}`|"{name}"|\b{name}\b', PROTOCOL), (model.__name__, name)


def test_every_error_code_is_documented() -> None:
    sent: set[str] = set()
    for path in SERVER.glob("*.py"):
        source = path.read_text(encoding="utf-8")
        sent |= set(re.findall(r'(?:Refusal|error|MessageError)\(\s*"([a-z-]+)"', source))
        sent |= set(re.findall(r'"code": "([a-z-]+)"', source))
    table = section("Error codes")
    assert {"too-many-connections", "hello-timeout", "illegal"} <= sent
    assert all(f"`{code}`" in table for code in sent), sorted(
        c for c in sent if f"`{c}`" not in table)


def test_add_bot_lists_every_computer_player() -> None:
    row = next(line for line in section("Client → server").splitlines()
               if line.startswith("| `add_bot` |"))
    assert all(f"`{kind}`" in row for kind in PLAYER_KINDS), row


def test_every_verb_of_the_action_notation_is_documented() -> None:
    notation = section("Action notation")
    for verb in actions._VERBS.split(", "):
        assert f"`N {verb}" in notation, verb
    assert "trailing spaces" in notation and '`"N bury"`' in notation


def test_every_serve_limit_is_documented() -> None:
    parser = argparse.ArgumentParser()
    add_serve_arguments(parser)
    limits = section("Limits (`shengji serve` options)")
    wanted = {option for action in parser._actions for option in action.option_strings
              if option.startswith("--") and option not in (
                  "--help", "--host", "--port", "--db", "--proxy-headers",
                  "--forwarded-allow-ips", "--deal-pace", "--bot-delay", "--seed")}
    assert all(f"`{option}" in limits for option in wanted), sorted(
        o for o in wanted if f"`{o}" not in limits)
    defaults = Settings()
    assert f"| `--max-address-pending N` | {defaults.max_address_pending}:" in limits
    assert f"| `--absent-grace SECONDS` | {defaults.absent_grace:g} " in limits
    assert f"| `--max-message BYTES` | {defaults.max_message} |" in limits


def accepted(message: dict[str, object]) -> bool:
    try:
        schemas.read_client_message(json.dumps(message))
    except schemas.MessageError:
        return False
    return True


@pytest.mark.parametrize(("kind", "field", "most", "base"), [
    ("hello", "token", 100, {"name": "Ann"}), ("hello", "name", 24, {}),
    ("action", "action", 1000, {}), ("check", "action", 1000, {}), ("chat", "text", 500, {}),
    ("kick", "member", 40, {}), ("add_bot", "kind", 40, {"seat": 1}),
    ("configure", "preset", 40, {"table": 4}), ("configure", "suggest", 40,
                                                {"preset": "tractor", "table": 4}),
])
def test_the_documented_sizes_are_the_servers(kind: str, field: str, most: int,
                                              base: dict[str, object]) -> None:
    sizes = " ".join(section("Client → server").split())
    assert re.search(rf"`{field}`[^.;]*?{'at most' if field == 'token' else '1 to'} {most} "
                     "characters", sizes), (field, most)
    assert accepted({"type": kind, **base, field: "x" * most})
    assert not accepted({"type": kind, **base, field: "x" * (most + 1)})


def test_the_documented_numbers_are_the_servers() -> None:
    sizes = " ".join(section("Client → server").split())
    assert f"`seat` and `to` 0 to {schemas.MAX_SEATS - 1}" in sizes
    assert f"`table` 1 to {schemas.MAX_SEATS}" in sizes
    assert f"`absent_grace` 0 to {schemas.MAX_GRACE}" in sizes
    assert accepted({"type": "sit", "seat": schemas.MAX_SEATS - 1})
    assert not accepted({"type": "sit", "seat": schemas.MAX_SEATS})
    grace = {"type": "configure", "preset": "tractor", "table": 4}
    assert accepted({**grace, "absent_grace": schemas.MAX_GRACE})
    assert not accepted({**grace, "absent_grace": schemas.MAX_GRACE + 1})
    assert f"at most `--max-message` bytes (default {Settings().max_message})" in sizes
    assert MAX_BODY == 64 * 1024 and "64 KiB" in PROTOCOL
    assert f"at most {members._OUTBOX_LIMIT} messages wait" in " ".join(PROTOCOL.split())


def test_the_end_of_a_round_says_where_the_result_is() -> None:
    end = section("The end of a round")
    assert "`view.result`" in end and "`view.tricks`" in end and "`match.results`" in end
