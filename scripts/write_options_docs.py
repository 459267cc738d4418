"""Write the files made from the options' help (``src/shengji/engine/options_help.py``) and
from the rules primer (``docs/how-to-play.md``).

- ``docs/options.md``: the table of every rules option (``shengji.game.options_doc``);
- the generated part of ``src/shengji/server/static/options_zh.js``: the browser client's
  Chinese words of every option and choice (``shengji.server.options.options_zh_js``);
- ``src/shengji/game/how_to_play.py``: the primer for the browser's How to play page and the
  terminal's ``help rules`` (``shengji.game.primer``).

Run it after changing an option's help (or adding an option) or the primer; ``--check``
writes nothing and exits with 1 when a file is out of date (``tests/test_docs.py`` and
``tests/test_server_i18n.py`` check the same).

    python3 scripts/write_options_docs.py [--check]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from shengji.game.options_doc import options_page
from shengji.game.primer import primer_module
from shengji.server.options import with_options_zh

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "options.md"
OPTIONS_ZH = ROOT / "src" / "shengji" / "server" / "static" / "options_zh.js"
PRIMER = ROOT / "docs" / "how-to-play.md"
PRIMER_MODULE = ROOT / "src" / "shengji" / "game" / "how_to_play.py"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="only say which files are out of date (exit status 1 if any)")
    args = parser.parse_args(argv)
    js = OPTIONS_ZH.read_text(encoding="utf-8")
    wanted = {PAGE: options_page(), OPTIONS_ZH: with_options_zh(js),
              PRIMER_MODULE: primer_module(PRIMER.read_text(encoding="utf-8"))}
    stale = [path for path, text in wanted.items()
             if not path.exists() or path.read_text(encoding="utf-8") != text]
    for path in stale:
        if args.check:
            print(f"out of date: {path.relative_to(ROOT)}")
        else:
            path.write_text(wanted[path], encoding="utf-8")
            print(f"wrote {path.relative_to(ROOT)}")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
