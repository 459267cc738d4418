"""The documentation keeps up with the code: every rules option is in ``docs/options.md``, which
is generated from the options' help (``shengji.engine.options_help``) and linked from the
README. After changing an option's help: ``python3 scripts/write_options_docs.py``."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

from shengji.engine.options_help import OPTIONS
from shengji.engine.rules import Rules
from shengji.game.options_doc import options_page, options_table

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PAGE = ROOT / "docs" / "options.md"


def test_the_options_page_is_generated_from_the_help() -> None:
    assert PAGE.read_text(encoding="utf-8") == options_page(), (
        "docs/options.md is out of date: run python3 scripts/write_options_docs.py")


def test_every_rules_option_has_one_row_of_the_table() -> None:
    rows = options_table().splitlines()[2:]
    assert [row.split(" | ")[0] for row in rows] == [f"| `{f.name}`" for f in fields(Rules)]
    for row, words in zip(rows, OPTIONS.values(), strict=True):
        assert words.help in row and words.details in row
        assert all(f"`{value}`: {en}" in row for value, (en, _) in words.choices.items())


def test_the_readme_links_the_options_page() -> None:
    text = README.read_text(encoding="utf-8")
    assert "[docs/options.md](docs/options.md)" in text
    assert not [line for line in text.splitlines() if line.startswith("| `players`")], (
        "the README keeps no option table of its own")
