"""Every rules option is documented once, in ``shengji.engine.options_help``: each has its
English help, Chinese label and help, and each choice its English and Chinese words; the lobby
form, the client's Chinese words, the rules in words, the docs page and ``--help`` are made
from it, and nothing reads source code at run time."""

from __future__ import annotations

import ast
import inspect
import re
import typing
from dataclasses import fields
from enum import StrEnum
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from shengji import cli
from shengji.engine.options_help import OPTIONS, OptionHelp
from shengji.engine.rules import _RANGES, FLUID_OVERBIDS, Rules, RulesError
from shengji.game.options_doc import options_epilog, options_page
from shengji.game.presets import describe_rules
from shengji.server.app import create_app
from shengji.server.limits import Settings
from shengji.server.options import option_specs, options_zh_js, presets_json

HINTS = typing.get_type_hints(Rules)
NAMES = [f.name for f in fields(Rules)]
CJK = re.compile("[\u4e00-\u9fff]")


def enum_of(name: str) -> type[StrEnum] | None:
    hint = HINTS[name]
    return hint if isinstance(hint, type) and issubclass(hint, StrEnum) else None


def test_every_option_has_its_help_in_field_order() -> None:
    assert list(OPTIONS) == NAMES
    assert all(isinstance(words, OptionHelp) for words in OPTIONS.values())


@pytest.mark.parametrize("name", NAMES)
def test_the_help_is_complete(name: str) -> None:
    words = OPTIONS[name]
    for text in (words.help, words.label_zh, words.help_zh):
        assert text and text == text.strip() and "\n" not in text, (name, text)
    assert len(words.help) <= 80, "the help is one short line (the form, --help)"
    assert CJK.search(words.label_zh) and CJK.search(words.help_zh)
    assert words.details == words.details.strip()
    if words.details:
        assert words.details.endswith((".", ")")), words.details
    optional = type(None) in typing.get_args(HINTS[name])
    assert bool(words.unset) == optional, "an optional option says what unset means"
    written = HINTS[name] is bool or bool(words.choices)
    assert bool(words.values) != written, "values are written where the type does not say"


@pytest.mark.parametrize("name", NAMES)
def test_every_choice_is_worded_in_both_languages(name: str) -> None:
    words = OPTIONS[name]
    enum = enum_of(name)
    if enum is not None:
        assert list(words.choices) == [str(value) for value in enum]
    elif name == "fluid_overbid":
        assert tuple(words.choices) == FLUID_OVERBIDS
    else:
        assert not words.choices
    for value, (en, zh) in words.choices.items():
        assert en and zh and en != zh and "\n" not in en + zh, (name, value)
        assert not CJK.search(en), (name, value)


def test_the_integer_ranges_are_the_engines() -> None:
    """An integer option whose bounds do not depend on the others says them (``low–high``)."""
    for name, bounds in _RANGES.items():
        low, high, _ = bounds(Rules())
        if bounds(Rules(players=6, decks=3))[:2] != (low, high):
            continue  # depends on the table: said in words
        values = OPTIONS[name].values
        assert re.search(rf"\b{high}\b", values) and re.search(rf"\b{low}\b", values), (
            name, values)


def test_the_lobby_form_takes_its_docs_and_choices_from_the_help() -> None:
    specs = option_specs()
    assert [spec["name"] for spec in specs] == NAMES
    for spec in specs:
        words = OPTIONS[spec["name"]]
        assert spec["doc"] == words.help
        if words.choices:
            assert spec["choices"] == list(words.choices)
    assert presets_json()["options"] == specs
    # the thinking time the form offers: 0.1 to 60 s, at most the server's --bot-time
    assert presets_json()["think_limits"] == presets_json(100)["think_limits"] == [0.1, 60.0]
    assert presets_json(2.5)["think_limits"] == [0.1, 2.5]


def test_the_chinese_words_served_to_the_browser_are_the_helps() -> None:
    with TestClient(create_app(":memory:", Settings())) as http:
        served = http.get("/static/options_zh.js")
    assert served.status_code == 200
    assert options_zh_js() in served.text
    for name, words in OPTIONS.items():
        key = name if name.isidentifier() else f'"{name}"'
        assert f'  {key}: ["{words.label_zh}", "{words.help_zh}"],\n' in served.text
        for value, (_, zh) in words.choices.items():
            assert f'  "{name}.{value}": "{zh}",\n' in served.text


def test_the_rules_in_words_take_each_choices_words() -> None:
    default = Rules()
    for name, words in OPTIONS.items():
        if enum_of(name) is None:
            continue
        for value, (en, _) in words.choices.items():
            if value == getattr(default, name):
                continue
            try:
                lines = describe_rules(Rules(**{name: value, "throw_penalty_points": 7}))
            except RulesError:  # needs another option (a custom level table)
                assert (name, value) == ("level_table", "custom")
                continue
            assert en.replace("`throw_penalty_points`", "7") in " ".join(lines), (name, value)


def test_help_lists_every_option_with_its_help(capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("play", "simulate"):
        with pytest.raises(SystemExit):
            cli.main([command, "--help"])
        text = " ".join(capsys.readouterr().out.split())
        assert "--rules FILE" in text and "docs/options.md" in text
        for name, words in OPTIONS.items():
            assert f" {name} {words.help}" in text, (command, name)
        assert " ".join(options_epilog().split()) in text


def test_nothing_reads_source_code(monkeypatch: pytest.MonkeyPatch) -> None:
    """The form, the Chinese words, the docs and the rules in words are the same without
    source code (a compiled or frozen build): nothing parses it at run time."""
    specs, js, page = option_specs(), options_zh_js(), options_page()
    words = describe_rules(Rules(tuple_follow="none", bombs=2, throw_penalty="per-card"))

    def no_source(*args: object, **kwargs: object) -> typing.NoReturn:
        raise OSError("no source here")

    monkeypatch.setattr(inspect, "getsource", no_source)
    monkeypatch.setattr(inspect, "getsourcelines", no_source)
    monkeypatch.setattr(ast, "parse", no_source)
    assert option_specs() == specs and options_zh_js() == js and options_page() == page
    assert describe_rules(Rules(tuple_follow="none", bombs=2, throw_penalty="per-card")) == words
    assert [spec["doc"] for spec in specs] == [w.help for w in OPTIONS.values()]
    for module in ("server/options.py", "game/options_doc.py", "engine/options_help.py",
                   "game/presets.py"):
        source = (Path(__file__).parent.parent / "src" / "shengji" / module).read_text(
            encoding="utf-8")
        assert not re.search(r"\b(getsource|ast\.parse|__doc__)\b", source), module
