"""The environments' text rendering (``render_mode="ansi"`` or ``"human"``): the table as
one seat sees it, drawn from that seat's :class:`~shengji.game.view.SeatView` by the
terminal client's screen functions (:mod:`shengji.terminal.screen`).

It shows the round, the trump, the dealer, the levels, the points taken, the trick, the
seat's own hand, the kitty only where that seat holds it, and the decision it is building
(the cards chosen so far and the ids allowed). Never the seed, another seat's hand or
the cards still to deal: what it draws comes from the seat's view and its own decision.
"""

from __future__ import annotations

from dataclasses import replace

from rich.text import Text

from shengji.engine.cards import ALL_CARDS
from shengji.engine.trump import suit_name
from shengji.game.phase import Phase
from shengji.game.view import SeatView
from shengji.terminal.screen import (
    Seating,
    call_text,
    card_label,
    cards_text,
    display_trump,
    hand_groups,
    plural,
    render_current_trick,
    render_header,
    render_result,
)

from .core import Game

WIDTH = 80
"""The width the table is laid out for."""


def render_table(game: Game, seat: int | None, *, unicode: bool = True) -> str:
    """The table as ``seat`` sees it, as plain text (``None``: as a spectator sees it,
    e.g. once the episode is over: no hand, the kitty as the seats without it see it)."""
    if game.match is None:
        return "No episode yet: call reset()."
    rnd = game.round
    view = rnd.view(seat) if seat is not None else SeatView.spectator(rnd)
    if game.showing:  # the seats are still asked whether they show: as they see it
        view = replace(view, phase=Phase.SHOW)
    n = game.rules.players
    names = tuple("You" if s == seat else f"Seat {s}" for s in range(n))
    seating = Seating(names, seat if seat is not None else -1, unicode)
    results = len(game.match.results)
    number = results + 1 if view.result is None else results
    lines = render_header(view, seating, round_number=number)
    lines += render_current_trick(view, seating)
    trump = display_trump(view)
    if view.hand and trump is not None:
        lines.append(Text(f"Your hand ({plural(len(view.hand), 'card')}):"))
        for suit, cards in hand_groups(view.hand, trump):
            lines.append(Text(f"  {suit_name(suit).capitalize():<9}")
                         + cards_text(cards, trump, unicode))
    if view.kitty is not None and view.result is None:
        lines.append(Text("Kitty (yours): ") + cards_text(view.kitty, trump, unicode))
    lines += _decision(game, seat, unicode)
    if view.result is not None:
        lines += render_result(view.result, seating, round_number=number, rules_players=n,
                               trump=view.trump, tricks=view.tricks)
    text = "\n".join(line.plain.rstrip() for line in lines)
    return text.replace(" (type last to see it)", "")  # (the terminal's command)


def _decision(game: Game, seat: int | None, unicode: bool) -> list[Text]:
    """What ``seat`` is deciding, if it is its turn: the kind, what it chose so far, the
    ids allowed now."""
    d = game.decision
    if d is None or d.seat != seat:
        return []
    chosen = []
    if d.selector is not None and d.selector.cards:
        chosen.append(" ".join(card_label(c, unicode) for c in d.selector.cards))
    chosen += [call_text(call, unicode) for call in d.calls]
    if d.ordinal is not None:  # a friend call in progress
        chosen.append(f"ordinal {d.ordinal}" + (f" {d.colour}" if d.colour else ""))
    allowed = [card_label(ALL_CARDS[i], unicode) if i < len(ALL_CARDS)
               else game.layout.describe(i) for i in game.allowed()]
    line = f"You decide: {d.kind}" + (f" · chosen so far: {', '.join(chosen)}" if chosen
                                      else "")
    return [Text(line), Text(f"Allowed: {' '.join(allowed)}")]
