"""The lobby's rules form: an ``OptionSpec`` for every option of
:class:`~shengji.engine.rules.Rules` (kind, choices, default and a short English doc) and the
``GET /api/presets`` answer (presets, their table sizes and rules, the computer players)."""

from __future__ import annotations

import enum
import functools
import re
import types
from typing import Any

from shengji.server.schemas import MAX_SEATS

_DOCS: dict[str, str] = {
    "players": "table size", "decks": "number of decks",
    "partnership": "fixed partners (alternate seats) or Finding Friends",
    "kitty": "kitty size (empty: derived from the deal)",
    "big_jokers": "big jokers in the pack (empty: one per deck)",
    "small_jokers": "small jokers in the pack (empty: one per deck)",
    "tractor_min_width": "smallest tuple in a tractor (1: consecutive singles)",
    "tractor_min_length": "fewest consecutive tuples in a tractor",
    "tractor_high_trumps": "trump-rank cards and jokers may be part of tractors",
    "red_fives": "red-five variant: 5♥ (and 5♦) above the jokers",
    "second_rank": "a second trump rank below the first",
    "rank_suit_order": "off-suit trump-rank cards ordered by suit (highest first)",
    "throws": "throws (甩牌) may be led",
    "throw_mixed": "a throw may mix unit shapes",
    "throw_blocked_by_equal": "an equal unit elsewhere also makes a throw fail",
    "throw_penalty_points": "points of a throw penalty",
    "bid_reinforce": "a bidder may reinforce their own bid",
    "bid_switch_suit": "a bidder may switch to another suit",
    "bid_equal_override": "an equal bid (2+ cards) of a higher suit overrides",
    "bid_withdraw": "bids may be taken back",
    "fluid_overbid": "Finding Friends overbids allowed",
    "redeal_dealer_partner": "after a shown-hand redeal the dealer's partner deals",
    "kitty_overbid": "bidding after the kitty (炒地皮)",
    "kitty_overbid_takes_dealer": "an overbid after the kitty makes the bidder dealer",
    "kitty_points_allowed": "point cards may be buried",
    "kitty_revealed": "the kitty is shown after the round",
    "friends": "friends called (empty: by table size)",
    "friend_trump_calls": "trump cards may be called as friends",
    "friend_caller_counts": "the caller's own play of a called card uses the call up",
    "smaller_team_bonus": "a bonus level for a smaller declaring team",
    "target": "points the opponents need (empty: 40 × decks)",
    "custom_levels": "custom level table: rows of [min points, change]",
    "draw_at": "exactly this many points is a draw (empty: none)",
    "red_five_penalty": "points for a captured red five",
    "start_rank": "the rank levels start at", "end_rank": "passing this rank wins",
    "mandatory_ranks": "ranks that cannot be skipped",
    "hook_and_needle": "hook and needle: a trump-rank J in the last trick sends J back to 2",
}


@functools.cache
def _field_docs() -> dict[str, str]:
    """The docstrings written under the fields of :class:`~shengji.engine.rules.Rules`
    (their first sentence)."""
    import ast
    import inspect

    from shengji.engine.rules import Rules

    try:
        body = ast.parse(inspect.getsource(Rules)).body[0]
    except (OSError, TypeError):  # no source (a compiled build)
        return {}
    assert isinstance(body, ast.ClassDef)
    docs: dict[str, str] = {}
    for item, after in zip(body.body, body.body[1:], strict=False):
        if (isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)
                and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)
                and isinstance(after.value.value, str)):
            text = re.sub(r":\w+:`~?([^`]*)`", r"\1", " ".join(after.value.value.split()))
            docs[item.target.id] = text.replace("``", "").split(". ")[0].split("; ")[0].rstrip(".")
    return docs


def _doc(name: str, hint: Any) -> str:
    if name in _DOCS:
        return _DOCS[name]
    written = _field_docs().get(name)
    if written:
        return written
    if isinstance(hint, type) and issubclass(hint, enum.Enum) and hint.__doc__:
        return hint.__doc__.strip().splitlines()[0]
    return name.replace("_", " ")


def option_specs() -> list[dict[str, Any]]:
    """An ``OptionSpec`` for every option of :class:`~shengji.engine.rules.Rules`."""
    import typing
    from dataclasses import fields
    from enum import StrEnum

    from shengji.engine.cards import Rank, Suit
    from shengji.engine.rules import FLUID_OVERBIDS, Rules
    from shengji.game.config import rules_to_dict

    hints = typing.get_type_hints(Rules)
    defaults = rules_to_dict(Rules())
    specs: list[dict[str, Any]] = []
    for item in fields(Rules):
        hint = hints[item.name]
        inner = [a for a in typing.get_args(hint) if a is not type(None)]
        base = inner[0] if typing.get_origin(hint) in (types.UnionType,) else hint
        spec: dict[str, Any] = {"name": item.name, "default": defaults.get(item.name),
                                "doc": _doc(item.name, base)}
        if base is bool:
            spec["kind"] = "bool"
        elif base is int:
            spec["kind"] = "int"
            spec["min"] = 0
        elif base is Rank:
            spec["kind"], spec["choices"] = "rank", [str(r) for r in Rank]
        elif isinstance(base, type) and issubclass(base, StrEnum):
            spec["kind"], spec["choices"] = "choice", [str(v) for v in base]
        elif typing.get_args(base) == (Rank, Ellipsis):
            spec["kind"], spec["choices"] = "ranks", [str(r) for r in Rank]
        elif typing.get_args(base) == (Suit, Ellipsis):
            spec["kind"], spec["choices"] = "list", [s.letter for s in Suit]
        elif item.name == "fluid_overbid":
            spec["kind"], spec["choices"] = "list", list(FLUID_OVERBIDS)
        else:
            spec["kind"] = "list"
        specs.append(spec)
    return specs


def presets_json() -> dict[str, Any]:
    """The ``GET /api/presets`` answer: presets with their table sizes and rules, the option
    specs of the lobby form and the computer players."""
    from shengji.engine.rules import RulesError
    from shengji.game.config import rules_to_dict
    from shengji.game.presets import PRESETS, preset
    from shengji.players import PLAYER_KINDS

    presets = []
    for name, description in PRESETS.items():
        tables = []
        for n in range(4, MAX_SEATS + 1):
            try:
                preset(name, players=n)
            except RulesError:
                continue
            tables.append(n)
        presets.append({"name": name, "description": description, "tables": tables,
                        "rules": rules_to_dict(preset(name))})
    return {"presets": presets, "options": option_specs(),
            "players": [{"kind": k, "description": d} for k, d in PLAYER_KINDS.items()]}
