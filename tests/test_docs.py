"""The documentation keeps up with the code: every rules option is in the README."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

from shengji.engine.rules import Rules

README = Path(__file__).resolve().parent.parent / "README.md"


def test_every_rules_option_is_in_the_readme_tables() -> None:
    text = README.read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    missing = [f.name for f in fields(Rules) if not any(f"`{f.name}`" in row for row in rows)]
    assert not missing, f"options missing from the README's option tables: {missing}"
