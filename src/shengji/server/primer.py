"""The browser's *How to play* page (``GET /how-to-play``): the rules primer as HTML.

The primer's one source is ``docs/how-to-play.md``, copied into the package as
:data:`shengji.game.how_to_play.HOW_TO_PLAY` (:mod:`shengji.game.primer` says how). This
module renders it once, with markdown-it-py (which rich, a dependency, is built on), into a
self-contained page: the table's colours, red hearts and diamonds, and a link back to the
lobby. The page is English, as the primer is.
"""

from __future__ import annotations

import html
import re
from functools import cache

from markdown_it import MarkdownIt

from shengji.game.how_to_play import HOW_TO_PLAY

__all__ = ["how_to_play_html"]

_RED = re.compile(r"(?:10|[2-9JQKA])?[♥♦]|BJ")
"""A red card or suit as the primer writes it (the big joker is red)."""

_STYLE = """
body { font: 16px/1.55 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0;
       color: #1d232a; background: #fbfaf6; }
header { background: #17533a; color: #fff; padding: .6rem 1rem; }
header a { color: #fff; font-weight: 700; text-decoration: none; }
main { max-width: 52rem; margin: 0 auto; padding: 1rem 1.25rem 3rem; background: #fff; }
h1, h2, h3 { color: #17533a; line-height: 1.25; }
table { border-collapse: collapse; margin: 1rem 0; display: block; overflow-x: auto; }
th, td { border: 1px solid #cfdcd4; padding: .3rem .6rem; text-align: left; vertical-align: top; }
th { background: #e8f0eb; }
code { background: #eef2ef; padding: 0 .25rem; border-radius: 3px; }
.red { color: #c8231c; }
"""


def _red_cards(fragment: str) -> str:
    """Red suits in red, outside tags (text between ``>`` and ``<``)."""
    return re.sub(r">([^<]+)<", lambda m: ">" + _RED.sub(
        lambda c: f'<span class="red">{c.group(0)}</span>', m.group(1)) + "<", fragment)


@cache
def how_to_play_html() -> str:
    """The whole page, rendered once."""
    body = MarkdownIt("commonmark", {"html": False}).enable("table").render(HOW_TO_PLAY)
    title = next((line[2:] for line in HOW_TO_PLAY.splitlines() if line.startswith("# ")),
                 "How to play")
    return ("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<title>{html.escape(title)} · 升级</title>\n<link rel=\"icon\" href=\"data:,\">\n"
            f"<style>{_STYLE}</style>\n</head>\n<body>\n"
            "<header><a href=\"/\">升级 Sheng Ji</a></header>\n"
            f"<main>\n{_red_cards(body)}</main>\n</body>\n</html>\n")
