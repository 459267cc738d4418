"""The documentation keeps up with the code: every rules option is in ``docs/options.md``, which
is generated from the options' help (``shengji.engine.options_help``) and linked from the
README. After changing an option's help: ``python3 scripts/write_options_docs.py``.

The README stays short and points into ``docs/``, the pages of the documentation site
(``mkdocs.yml``; CI builds it with ``mkdocs build --strict``): their links resolve, their
examples run, and the rules primer the product shows is the page ``docs/how-to-play.md``."""

from __future__ import annotations

import doctest
import re
import tomllib
import unicodedata
from dataclasses import fields
from pathlib import Path

import pytest

from shengji.engine.options_help import OPTIONS
from shengji.engine.rules import Rules
from shengji.game.config import load_rules, rules_to_dict
from shengji.game.how_to_play import HOW_TO_PLAY
from shengji.game.options_doc import example, options_page, options_table
from shengji.game.primer import primer_module, product_text
from shengji.server.primer import how_to_play_html

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


# -- the README, the documentation site's pages and what is generated from them ---------------

DOCS = ROOT / "docs"
PAGES = sorted(DOCS.glob("*.md"))
LINK = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]\(([^)\s]+)\)")
"""A Markdown link or image: its target."""


def _prose(text: str) -> str:
    """``text`` without its fenced code blocks and code spans (links there are not links)."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.MULTILINE | re.DOTALL)
    return re.sub(r"`[^`\n]*`", "", text)


def _slug(heading: str) -> str:
    """A heading's anchor as the site makes it (MkDocs' ``toc``; GitHub's agrees on ASCII)."""
    text = re.sub(r"`|\*|_", "", heading)
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def _anchors(path: Path) -> set[str]:
    text = re.sub(r"^```.*?^```", "", path.read_text(encoding="utf-8"),
                  flags=re.MULTILINE | re.DOTALL)
    return {_slug(m.group(1)) for m in re.finditer(r"^#{1,6} (.+)$", text, re.MULTILINE)}


def test_the_readme_is_short_and_undated() -> None:
    """The README says what the project is and points into ``docs/``: at most 12,000
    characters, no dated measurements, no issues, no paths outside the repository."""
    text = README.read_text(encoding="utf-8")
    assert len(text) <= 12_000, f"the README has {len(text):,} characters; move some to docs/"
    assert not re.search(r"\b20\d\d-\d\d-\d\d\b", text), "dated logs belong in docs/experiments.md"
    assert not re.search(r"\bissues?\b", text, re.IGNORECASE)
    assert "../" not in text and "/tmp/" not in text


def test_the_quick_start_is_two_commands() -> None:
    text = README.read_text(encoding="utf-8")
    start = text.index("## Quick start")
    block = text[text.index("```sh\n", start) + 6:text.index("```", text.index("```sh", start) + 5)]
    commands = [line.split("#")[0].strip() for line in block.splitlines()]
    assert commands == ["python3 -m pip install . && shengji serve",
                        'python3 -m pip install -e ".[dev]" && python3 -m pytest']


def test_no_page_names_an_issue() -> None:
    for path in [README, *PAGES]:
        found = re.findall(r"\bissues? ?#?\d+", path.read_text(encoding="utf-8"), re.IGNORECASE)
        assert not found, f"{path.name}: {found}"


@pytest.mark.parametrize("path", [README, *PAGES], ids=lambda p: p.name)
def test_every_relative_link_resolves(path: Path) -> None:
    """Links between the README and the pages are relative ``.md`` files, so they work on
    GitHub and on the site; a page of the site links only inside ``docs/`` (``mkdocs build
    --strict`` refuses the rest too, in CI)."""
    for target in LINK.findall(_prose(path.read_text(encoding="utf-8"))):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):
            continue  # a web address
        file, _, anchor = target.partition("#")
        linked = (path.parent / file).resolve() if file else path
        assert linked.exists(), f"{path.name} links {target}: no such file"
        if path.parent == DOCS:
            assert linked.parent == DOCS, f"{path.name} links {target}, outside docs/"
        if anchor and linked.suffix == ".md":
            assert anchor in _anchors(linked), f"{path.name} links {target}: no such heading"


def test_the_site_shows_every_page() -> None:
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    listed = set(re.findall(r":\s*([\w-]+\.md)\s*$", config, re.MULTILINE))
    assert listed == {path.name for path in PAGES}, "mkdocs.yml's nav and docs/ differ"
    assert "strict: true" in config


@pytest.mark.parametrize("path", [p for p in PAGES if ">>> " in p.read_text(encoding="utf-8")],
                         ids=lambda p: p.name)
def test_the_examples_of_the_pages_run(path: Path) -> None:
    """Every ``>>>`` example of a page runs, in order (each page in a namespace of its own),
    as the README's do."""
    if path.name == "env.md":
        pytest.importorskip("pettingzoo", reason="the environment needs the rl extra")
    failed, tried = doctest.testfile(str(path), module_relative=False, verbose=False,
                                     optionflags=doctest.NORMALIZE_WHITESPACE
                                     | doctest.ELLIPSIS, encoding="utf-8")
    assert tried > 0 and failed == 0


def test_the_primer_in_the_package_is_the_page() -> None:
    """The browser's How to play page and the terminal's ``help rules`` show
    ``docs/how-to-play.md`` (``shengji.game.primer``)."""
    module = ROOT / "src" / "shengji" / "game" / "how_to_play.py"
    page = (DOCS / "how-to-play.md").read_text(encoding="utf-8")
    assert module.read_text(encoding="utf-8") == primer_module(page), (
        "src/shengji/game/how_to_play.py is out of date: run python3 scripts/write_options_docs.py")
    product = product_text(page)
    assert product == HOW_TO_PLAY and "](" not in product.replace("](https://", "")


def test_the_primer_page_of_the_server() -> None:
    """``shengji serve`` serves the primer at ``/how-to-play``, which the browser page's
    How to play link opens (``static/app.js``, words in ``static/i18n.js``)."""
    page = how_to_play_html()
    assert page.startswith("<!doctype html>") and "<h1>How to play Sheng Ji</h1>" in page
    assert '<span class="red">2♥</span>' in page and "<table>" in page
    assert ".md" not in page  # no links to pages the server does not have
    from starlette.testclient import TestClient

    from shengji.server.app import create_app
    from shengji.server.limits import Settings

    with TestClient(create_app(":memory:", Settings())) as http:
        served = http.get("/how-to-play")
    assert served.status_code == 200 and served.text == page
    assert served.headers["content-type"].startswith("text/html")
    static = ROOT / "src" / "shengji" / "server" / "static"
    assert 'href: "/how-to-play"' in (static / "app.js").read_text(encoding="utf-8")
    assert (static / "i18n.js").read_text(encoding="utf-8").count("howToPlay:") == 2


@pytest.mark.parametrize("name", [f.name for f in fields(Rules)])
def test_each_option_example_loads_and_sets_the_option(name: str) -> None:
    text = example(name)
    if not text.startswith("preset"):
        text = 'preset = "tractor"\n' + text
    rules = load_rules(text)
    key, _, value = text.splitlines()[-1].partition(" = ")
    assert key == name
    assert rules_to_dict(rules)[name] == tomllib.loads(f"v = {value}")["v"]
    base = load_rules(text.splitlines()[0])  # the preset alone
    assert rules_to_dict(base).get(name) != rules_to_dict(rules)[name], "not another value"


@pytest.mark.slow
def test_the_options_page_example_loads() -> None:
    block = re.search(r"```toml\n(.*?)```", options_page(), re.DOTALL)
    assert block is not None
    rules = load_rules(block.group(1))
    assert rules.red_fives == 2 and rules.kitty_overbid and rules.throw_penalty_points == 10
