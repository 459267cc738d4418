"""The lobby's rules form: an ``OptionSpec`` for every option of
:class:`~shengji.engine.rules.Rules` (kind, choices, default and a short English doc), the
``GET /api/presets`` answer (presets, their table sizes and rules, the computer players), and
the generated part of the client's Chinese words (``static/options_zh.js``).

The docs, choices and Chinese words all come from
:data:`shengji.engine.options_help.OPTIONS`; ``python3 scripts/write_options_docs.py`` writes
:func:`options_zh_js` into ``static/options_zh.js`` (``tests/test_server_i18n.py`` checks it).
"""

from __future__ import annotations

import json
import re
import types
from typing import Any

from shengji.engine.options_help import OPTIONS
from shengji.server.schemas import MAX_SEATS

ZH_BEGIN = ("// Generated from shengji/engine/options_help.py by scripts/write_options_docs.py:"
            " do not edit.")
"""The line opening the generated part of ``static/options_zh.js``."""
ZH_END = "// End of the generated part."
"""The line closing it."""


def _js_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z_$][\w$]*", key) else json.dumps(key)


def _js_text(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def options_zh_js() -> str:
    """The generated part of ``static/options_zh.js``, from its opening line to its closing
    one: ``OPTIONS_ZH`` (option → [label, explanation]) and ``CHOICES_ZH`` ("option.value" →
    words) in Chinese, every option and choice of :data:`~shengji.engine.options_help.OPTIONS`.

    >>> print(options_zh_js().splitlines()[4])
      players: ["人数", "一桌的人数"],
    """
    lines = [ZH_BEGIN, "", "/** Option name → [label, explanation]. */",
             "export const OPTIONS_ZH = {"]
    lines += [f"  {_js_key(name)}: [{_js_text(words.label_zh)}, {_js_text(words.help_zh)}],"
              for name, words in OPTIONS.items()]
    lines += ["};", "", '/** "option.value" → the Chinese for a choice. */',
              "export const CHOICES_ZH = {"]
    lines += [f"  {_js_key(f'{name}.{value}')}: {_js_text(zh)},"
              for name, words in OPTIONS.items() for value, (_, zh) in words.choices.items()]
    lines += ["};", ZH_END]
    return "\n".join(lines) + "\n"


def with_options_zh(text: str) -> str:
    """``text`` (``static/options_zh.js``) with its generated part made anew by
    :func:`options_zh_js` (a ``ValueError`` if it has no such part)."""
    begin = text.find(ZH_BEGIN + "\n")
    end = text.find(ZH_END + "\n", begin)
    if begin < 0 or end < 0:
        raise ValueError("no generated part in this text")
    return text[:begin] + options_zh_js() + text[end + len(ZH_END) + 1:]


def option_specs() -> list[dict[str, Any]]:
    """An ``OptionSpec`` for every option of :class:`~shengji.engine.rules.Rules`."""
    import typing
    from dataclasses import fields
    from enum import StrEnum

    from shengji.engine.cards import Rank, Suit
    from shengji.engine.rules import Rules
    from shengji.game.config import rules_to_dict

    hints = typing.get_type_hints(Rules)
    defaults = rules_to_dict(Rules())
    specs: list[dict[str, Any]] = []
    for item in fields(Rules):
        hint = hints[item.name]
        inner = [a for a in typing.get_args(hint) if a is not type(None)]
        base = inner[0] if typing.get_origin(hint) in (types.UnionType,) else hint
        words = OPTIONS[item.name]
        spec: dict[str, Any] = {"name": item.name, "default": defaults.get(item.name),
                                "doc": words.help}
        if base is bool:
            spec["kind"] = "bool"
        elif base is int:
            spec["kind"] = "int"
            spec["min"] = 0
        elif base is Rank:
            spec["kind"], spec["choices"] = "rank", [str(r) for r in Rank]
        elif isinstance(base, type) and issubclass(base, StrEnum):
            spec["kind"], spec["choices"] = "choice", list(words.choices)
        elif typing.get_args(base) == (Rank, Ellipsis):
            spec["kind"], spec["choices"] = "ranks", [str(r) for r in Rank]
        elif typing.get_args(base) == (Suit, Ellipsis):
            spec["kind"], spec["choices"] = "list", [s.letter for s in Suit]
        elif words.choices:  # fluid_overbid
            spec["kind"], spec["choices"] = "list", list(words.choices)
        else:
            spec["kind"] = "list"
        specs.append(spec)
    return specs


def presets_json(bot_time: float | None = None) -> dict[str, Any]:
    """The ``GET /api/presets`` answer: presets with their table sizes and rules, the option
    specs of the lobby form and the computer players (``thinks``: the suggestion player of
    that kind takes the room's thinking time, within ``think_limits`` seconds: at most the
    server's ``bot_time``, where given)."""
    from shengji.engine.rules import RulesError
    from shengji.game.config import rules_to_dict
    from shengji.game.presets import PRESETS, preset
    from shengji.players import PLAYER_KINDS, THINK_LIMITS, THINKING_KINDS

    low, high = THINK_LIMITS
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
            "players": [{"kind": k, "description": d, "thinks": k in THINKING_KINDS}
                        for k, d in PLAYER_KINDS.items()],
            "think_limits": [low, high if bot_time is None else max(low, min(high, bot_time))]}
