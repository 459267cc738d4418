"""The rules of a room's configuration (a preset, a table size and option overrides),
checked by the engine's own validation, and what the lobby says of them."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from shengji.engine.choices import Partnership
from shengji.engine.reasons import Reason
from shengji.engine.rules import Rules, RulesError
from shengji.game.config import rules_from_dict
from shengji.game.presets import PRESETS
from shengji.players import PLAYER_KINDS, model_note
from shengji.server import schemas


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


def config_rules(config: dict[str, Any]) -> Rules | None:
    """The rules of a stored room configuration (``preset``, ``table``, ``rules``); None if
    they are no longer valid."""
    rules, _ = check_rules(config["preset"], config["table"], config["rules"])
    return rules


def no_model_json(config: dict[str, Any]) -> dict[str, Any] | None:
    """The ``room`` message's ``no_model``: the computer players that would use a learned
    model and find none that fits the configuration's rules, with the table they lack one
    for and the notes in English (:func:`~shengji.players.model_note`); None where every
    one fits."""
    rules = config_rules(config)
    return None if rules is None else _no_model(rules)


@lru_cache(maxsize=256)
def _no_model(rules: Rules) -> dict[str, Any] | None:
    notes = {kind: model_note(kind, rules) for kind in PLAYER_KINDS}
    kinds = [kind for kind, note in notes.items() if note is not None]
    return {"kinds": kinds, "players": rules.players, "decks": rules.decks,
            "fixed": rules.partnership == Partnership.FIXED,
            "notes": [notes[kind] for kind in kinds]} if kinds else None
