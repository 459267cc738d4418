"""Reading the person's input: card lists, hand numbers, menus, friend calls, completion.

The parsers are pure functions (tested without a terminal); :class:`Prompter`
reads one line with :func:`input`, with readline tab-completion of card tokens
where readline is available.

>>> from shengji.engine.cards import parse_cards
>>> hand = parse_cards("BJ 2H AS KS KS")
>>> parse_selection("ks 1", hand)
(Card('KS'), Card('BJ'))
>>> parse_selection("2-3", hand)
(Card('2H'), Card('AS'))
>>> complete("k", ["KS", "KH", "AS"])
['KH', 'KS']
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterable, Sequence

from shengji.engine.cards import Card, NotationError, parse_card
from shengji.engine.friends import FriendCall

PROMPTS = {
    "deal": "bid> ",
    "bid": "bid> ",
    "bury": "bury> ",
    "call": "call> ",
    "declare": "trump> ",
    "expose": "expose> ",
    "show": "show> ",
    "lead": "lead> ",
    "follow": "play> ",
    "next": "next round> ",
    "end": "end> ",
    "resume": "resume (Enter)> ",
    "new": "new game (Enter)> ",
    "confirm": "sure> ",
    "other": "action> ",
}
"""The prompt of each decision: stable strings that scripts (and tests) can wait for."""

COMMANDS = ("?", "help", "last", "quit")
"""Words every prompt understands besides its own input."""


class InputError(ValueError):
    """The input could not be read; the message says what was expected."""


class Quit(Exception):
    """The person asked to stop (``quit``, Ctrl-D)."""


def parse_selection(text: str, numbered: Sequence[Card]) -> tuple[Card, ...]:
    """Cards typed as notation (``KS 10h bj``) and/or hand numbers (``3 7``, ``4-6``).

    Numbers pick the card shown with that number in ``numbered`` (1-based); a number
    may be used once. Cards in notation are taken as typed (the rules check that the
    hand holds them).
    """
    tokens = [t for t in re.split(r"[\s,]+", text.strip()) if t]
    if not tokens:
        raise InputError("type cards (e.g. KS KS or 10h) or their numbers (e.g. 3 4)")
    cards: list[Card] = []
    used: set[int] = set()
    for token in tokens:
        span = re.fullmatch(r"(\d+)(?:-(\d+))?", token)
        if span is None:
            try:
                cards.append(parse_card(token))
            except NotationError as error:
                raise InputError(str(error)) from None
            continue
        first = int(span.group(1))
        last = int(span.group(2)) if span.group(2) else first
        if last < first:
            raise InputError(f"{token}: a range goes from low to high, e.g. 3-5")
        for number in range(first, last + 1):
            if not 1 <= number <= len(numbered):
                raise InputError(f"there is no card number {number}: your cards are numbered "
                                 f"1 to {len(numbered)}")
            if number in used:
                raise InputError(f"card number {number} is chosen twice")
            used.add(number)
            cards.append(numbered[number - 1])
    return tuple(cards)


def parse_menu(text: str, size: int) -> int | None:
    """The menu entry chosen (0-based), ``None`` for an empty answer."""
    key = text.strip()
    if not key:
        return None
    if not key.isdigit() or not 1 <= int(key) <= size:
        raise InputError(f"choose a number from 1 to {size}")
    return int(key) - 1


def parse_calls(text: str) -> tuple[FriendCall, ...]:
    """Friend calls separated by commas: ``1st AS, 2nd KH`` (or ``black A``)."""
    parts = [p for p in text.split(",") if p.strip()]
    if not parts:
        raise InputError("call friends like: 1st AS, 2nd KH")
    try:
        return tuple(FriendCall.parse(p) for p in parts)
    except NotationError as error:
        raise InputError(str(error)) from None


def card_tokens(cards: Iterable[Card]) -> list[str]:
    """The distinct notation tokens of ``cards`` (for completion)."""
    return sorted({str(c) for c in cards})


def complete(prefix: str, words: Iterable[str]) -> list[str]:
    """The words starting with ``prefix`` (case-insensitive), sorted."""
    key = prefix.upper()
    return sorted(w for w in set(words) if w.upper().startswith(key))


class Prompter:
    """Reads lines from the person, with tab-completion when readline is available."""

    def __init__(self, read: Callable[[str], str] = input, flush: Callable[[], None] | None = None,
                 *, completion: bool | None = None) -> None:
        self._read = read
        self._flush = flush
        self._words: list[str] = []
        use = sys.stdin.isatty() if completion is None else completion
        self.readline = _install_completion(self._complete) if use else False

    def _complete(self, text: str, state: int) -> str | None:
        options = complete(text, self._words)
        return options[state] if state < len(options) else None

    def ask(self, prompt: str, words: Iterable[str] = ()) -> str:
        """One line; ``words`` are offered by tab-completion. Raises :class:`Quit` on EOF."""
        self._words = [*words, *COMMANDS]
        if self._flush is not None:
            self._flush()
        try:
            return self._read(prompt)
        except EOFError:
            raise Quit from None


def _install_completion(completer: Callable[[str, int], str | None]) -> bool:
    try:
        import readline
    except ImportError:  # pragma: no cover - Windows without pyreadline
        return False
    readline.set_completer(completer)
    readline.set_completer_delims(" \t,")
    if "libedit" in (readline.__doc__ or ""):  # pragma: no cover - macOS
        readline.parse_and_bind("bind ^I rl_complete")
    else:
        readline.parse_and_bind("tab: complete")
    return True
