"""Drawing one seat's view of the table as compact rich text (80x24 friendly).

Everything here is a pure function from a :class:`~shengji.game.view.SeatView`
(plus the names at the table) to lines of :class:`rich.text.Text`, so the
screen can be printed, recorded and tested without a terminal. The hand is
numbered in the order shown; :func:`display_order` gives that order, so that
the number the person types picks the card they see.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rich.text import Text

from shengji.engine.cards import Card, Hand, Suit
from shengji.engine.friends import FriendCall, exhausted_calls, exhausted_text
from shengji.engine.rules import FirstDealer, Partnership, Rules, TrumpChoice
from shengji.engine.scoring import level_name
from shengji.engine.trick import TrickPlay
from shengji.engine.trump import TRUMP, Trump, suit_name
from shengji.game.phase import Phase
from shengji.game.round import level_rank
from shengji.game.scoresheet import RoundResult, TrickRecord
from shengji.game.view import SeatView
from shengji.players.memory import current_winner

WIDTH = 80
"""The screen width everything is laid out for."""

GROUP_ORDER = (TRUMP, Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)
"""Hand groups top to bottom: trumps, then the plain suits alternating colours."""

_LABEL = 9  # width of the group label column of the hand


@dataclass(frozen=True)
class Seating:
    """Who sits where: display names by seat, the person's seat, how to draw cards."""

    names: tuple[str, ...]
    me: int
    unicode: bool = True

    def name(self, seat: int | None) -> str:
        """The display name of ``seat``."""
        return "nobody" if seat is None else self.names[seat]

    def whose(self, seat: int) -> str:
        """The possessive of ``seat``'s name: ``Your`` for ``You``, else ``Seat 2's``."""
        name = self.name(seat)
        return "Your" if name == "You" else f"{name}'s"

    def whom(self, seat: int) -> str:
        """``seat``'s name after a preposition: ``you`` for ``You``."""
        name = self.name(seat)
        return "you" if name == "You" else name

    def side(self, seats: Iterable[int]) -> str:
        """Several seats by name: ``You & Seat 2``."""
        return " & ".join(self.name(s) for s in seats) or "nobody"


def rule(title: str, unicode: bool = True, width: int = WIDTH) -> Text:
    """A bold title line drawn across the screen: ``━━ Round 2 ━━━━...``."""
    bar = "━" if unicode else "="
    return Text(f"{bar * 2} {title} ".ljust(width, bar), style="bold")


def plural(count: int, word: str) -> str:
    """``1 card``, ``2 cards``."""
    return f"{count} {word}{'' if count == 1 else 's'}"


# -- cards ----------------------------------------------------------------------------

def card_label(card: Card, unicode: bool = True) -> str:
    """``10♥`` (or ``10H``); jokers ``SJ``/``BJ``."""
    return card.unicode() if unicode else str(card)


_NOTATION = re.compile(r"(?<![\w♠♥♦♣])(10|[2-9JQKA])([CDHS])(?![\w♠♥♦♣])")


def symbols(text: str, unicode: bool = True) -> str:
    """``text`` with the cards written in notation (``JD``) drawn with suit symbols
    (``J♦``), as the screen draws them; unchanged if not ``unicode``."""
    if not unicode:
        return text
    return _NOTATION.sub(lambda m: m.group(1) + Suit.parse(m.group(2)).symbol, text)


def card_style(card: Card, trump: Trump | None) -> str:
    """Red for hearts, diamonds and the big joker; bold for trumps."""
    red = card.suit.is_red if card.suit is not None else str(card) == "BJ"
    style = "red" if red else ""
    if trump is not None and trump.is_trump(card):
        style = f"bold {style}".strip()
    return style


def card_text(card: Card, trump: Trump | None, unicode: bool = True) -> Text:
    """One card, coloured."""
    return Text(card_label(card, unicode), style=card_style(card, trump))


def cards_text(cards: Iterable[Card], trump: Trump | None, unicode: bool = True) -> Text:
    """Cards separated by spaces, coloured."""
    return Text(" ").join(card_text(c, trump, unicode) for c in cards)


def wrap_cards(prefix: str, cards: Sequence[Card], trump: Trump | None, unicode: bool = True,
               width: int = WIDTH) -> list[Text]:
    """``prefix`` then the cards, wrapped to ``width`` under the first card."""
    indent = len(prefix)
    lines: list[Text] = []
    line, used = Text(prefix), indent
    for card in cards:
        label = card_label(card, unicode)
        if used + len(label) > width and used > indent:
            line.rstrip()
            lines.append(line)
            line, used = Text(" " * indent), indent
        line += card_text(card, trump, unicode) + Text(" ")
        used += len(label) + 1
    line.rstrip()
    lines.append(line)
    return lines


def display_trump(view: SeatView) -> Trump | None:
    """The trump to sort the hand by: the round's, or during the bidding the one the
    standing bid (or, with no bid yet, the seat's trump rank alone) would make."""
    if view.trump is not None:
        return view.trump
    rules = view.rules
    levels = view.levels
    fixed = rules.partnership == Partnership.FIXED
    level = levels[view.dealer] if fixed and view.dealer is not None else levels[view.seat]
    rank = level_rank(level)
    if view.bids:
        card = view.bids[-1][1][0]
        if card.rank is not None:
            return rules.trump(card.rank, card.suit)
    return rules.trump(rank) if rank is not None else rules.trump(None)


def hand_groups(hand: Iterable[Card], trump: Trump) -> list[tuple[int, list[Card]]]:
    """The hand by effective suit (trumps first), each group strongest first."""
    ordered = trump.sorted(hand)
    groups = []
    for suit in GROUP_ORDER:
        cards = [c for c in ordered if trump.suit_of(c) == suit]
        if cards:
            groups.append((int(suit), cards))
    return groups


def display_order(hand: Iterable[Card], trump: Trump) -> list[Card]:
    """The hand in the order it is shown and numbered (number ``k`` is index ``k-1``)."""
    return [c for _, cards in hand_groups(hand, trump) for c in cards]


def render_hand(hand: Sequence[Card], trump: Trump, unicode: bool = True,
                width: int = WIDTH) -> list[Text]:
    """The numbered hand, one group per line (wrapped under its label)."""
    lines: list[Text] = []
    number = 0
    for suit, cards in hand_groups(hand, trump):
        label = suit_name(suit).capitalize()
        line = Text(f"{label:<{_LABEL}}", style="bold" if suit == TRUMP else "")
        used = _LABEL
        for card in cards:
            number += 1
            item = Text(f"{number}:", style="dim") + card_text(card, trump, unicode)
            if used + len(item) + 1 > width and used > _LABEL:
                lines.append(line)
                line = Text(" " * _LABEL)
                used = _LABEL
            line += item + Text(" ")
            used += len(item) + 1
        line.rstrip()
        lines.append(line)
    return lines


# -- the table ---------------------------------------------------------------------------

def trump_words(trump: Trump, unicode: bool = True) -> str:
    """``2♥ (rank 2, hearts)``, ``7NT (rank 7, no trump suit)``, ``NT (jokers only)``."""
    if trump.rank is None:
        return "NT (jokers only)"
    suit = trump.suit.name.lower() if trump.suit is not None else "no trump suit"
    shown = trump.notation() if trump.suit is None or not unicode else (
        f"{trump.rank}{trump.suit.symbol}")
    return f"{shown} (rank {trump.rank}, {suit})"


def _levels_line(view: SeatView, seating: Seating) -> Text:
    rules = view.rules
    n = rules.players
    declarers = set(view.declarers)
    if rules.partnership == Partnership.FIXED:
        teams = [[s for s in range(n) if s % 2 == t] for t in (seating.me % 2, 1 - seating.me % 2)]
        parts = []
        for team in teams:
            role = ""
            if declarers:
                role = "declarers, " if team[0] in declarers else "opponents, "
            parts.append(f"{seating.side(team)} ({role}level {level_name(view.levels[team[0]])})")
        return Text("Teams: " + " vs ".join(parts))
    levels = " · ".join(f"{seating.name(s)} {level_name(view.levels[s])}" for s in range(n))
    return Text(f"Levels: {levels}")


def held_at_call(view: SeatView) -> tuple[list[int], list[int] | None, list[int] | None]:
    """The caller's cards when the friends were called (its hand and the cards it has
    played since, per face), the kitty it buried (per face, if it sees it) and the cards
    taken out of the pack (per face, if any: ``remove_low``)."""
    played = [c for record in view.tricks for play in record.plays if play.seat == view.seat
              for c in play.cards]
    played += [c for play in view.trick if play.seat == view.seat for c in play.cards]
    held = Hand([*view.hand, *played]).counts
    return (held, Hand(view.kitty).counts if view.kitty is not None else None,
            Hand(view.removed).counts if view.removed else None)


def own_dead_calls(view: SeatView) -> tuple[FriendCall, ...]:
    """The friend calls of ``view``'s seat that its own cards leave to nobody else (only
    the caller knows them; empty for everybody else)."""
    if view.seat != view.dealer or not view.calls:
        return ()
    held, buried, removed = held_at_call(view)
    return exhausted_calls(view.calls, held, view.rules, buried=buried, removed=removed)


def _friends_line(view: SeatView, seating: Seating) -> Text | None:
    if view.rules.partnership == Partnership.FIXED or view.dealer is None:
        return None
    if not view.calls:
        if view.trump is None:
            return None
        return Text(f"Declarer: {seating.name(view.dealer)} (friends not called yet)")
    dead = own_dead_calls(view)
    calls = ", ".join(call_text(c, seating.unicode) + (" (no friend)" if c in dead else "")
                      for c in view.calls)
    if dead and len(dead) == len(view.calls) and not view.friends:
        held, buried, removed = held_at_call(view)
        why = "; ".join(symbols(exhausted_text(c, held, view.rules, buried, removed=removed),
                                seating.unicode)
                        for c in dead)
        return Text(f"Friends called: {calls} · you play alone ({why})")
    found = seating.side(view.friends) if view.friends else "none yet"
    return Text(f"Friends called: {calls} · revealed: {found}")


def call_text(call: FriendCall, unicode: bool = True) -> str:
    """A friend call as the screen shows it: ``1st A♠``, ``2nd black A``."""
    return symbols(str(call), unicode)


def dealer_rule(rules: Rules) -> str:
    """Who deals a round whose dealer is not known before the bidding."""
    if rules.trump_choice == TrumpChoice.DEALER:
        return "the first to draw"
    if rules.partnership == Partnership.FLUID:
        return "the winning bidder"
    first = {FirstDealer.FIRST_PAIR: "the first to bid a pair",
             FirstDealer.FIRST_JOKER_PAIR: "the first to bid jokers"}.get(rules.first_dealer)
    if first is not None:
        return f"{first}, else the winning bidder"
    return "the first bidder"


def dealer_words(view: SeatView, seating: Seating) -> str:
    """The dealer for the header: a name, or who will deal while the bidding decides."""
    fluid = view.rules.partnership == Partnership.FLUID
    if view.dealer is None or (fluid and view.trump is None):
        return dealer_rule(view.rules)
    return seating.name(view.dealer)


def _points_line(view: SeatView, seating: Seating) -> Text:
    rules = view.rules
    taken = view.attacker_points if view.declarers else 0
    text = f"Opponents' points: {taken} (they need {rules.target_points})"
    if rules.partnership != Partnership.FIXED:
        each = " · ".join(f"{seating.name(s)} {view.captured[s]}"
                          for s in range(rules.players))
        text = f"Points: {each}\n{text}"
    return Text(text)


def render_header(view: SeatView, seating: Seating, *, round_number: int,
                  label: str = "") -> list[Text]:
    """Round, trump, dealer, teams and levels, friends, points."""
    title = f"Round {round_number}" + (f" · {label}" if label else "") + (
        f" · you are seat {seating.me}" if seating.names[seating.me] == "You" else "")
    lines = [rule(title, seating.unicode)]
    dealer = dealer_words(view, seating)
    dealer = f"dealer {dealer}" if dealer in seating.names else f"dealer: {dealer}"
    if view.trump is not None:
        trump = f"Trump {trump_words(view.trump, seating.unicode)}"
    else:
        shown = display_trump(view)
        rank = f"rank {shown.rank}" if shown is not None and shown.rank else "no rank"
        trump = f"Trump not settled ({rank})"
    if view.bids and view.phase in (Phase.DEAL, Phase.BID, Phase.OVERBID, Phase.KITTY):
        seat, cards = view.bids[-1]
        bid = Text(" · bid: ") + Text(f"{seating.name(seat)} ") + cards_text(
            cards, None, seating.unicode)
    else:
        bid = Text("")
    lines.append(Text(f"{trump} · {dealer}") + bid)
    lines.append(_levels_line(view, seating))
    friends = _friends_line(view, seating)
    if friends is not None:
        lines.append(friends)
    if view.phase in (Phase.PLAY, Phase.DONE):
        lines.extend(_points_line(view, seating).split("\n"))
    return lines


def render_trick(plays: Sequence[TrickPlay], trump: Trump, seating: Seating, *,
                 title: str, winner: int | None, points: int | None = None,
                 mark: str = "winning") -> list[Text]:
    """A trick, one line per play, the winning play marked."""
    if points is None:
        points = sum(c.points for p in plays for c in p.cards)
    lines = [Text(title, style="bold")]
    width = max((len(seating.name(p.seat)) for p in plays), default=0)
    arrow = "◀" if seating.unicode else "<-"
    for play in plays:
        line = Text(f"  {seating.name(play.seat):<{width}}  ") + cards_text(
            play.cards, trump, seating.unicode)
        if play.seat == winner:
            line += Text(f"  {arrow} {mark}", style="bold")
        lines.append(line)
    return lines


def render_current_trick(view: SeatView, seating: Seating) -> list[Text]:
    """The trick on the table (who led, who is winning, its points) or who leads next."""
    trump = view.trump
    number = len(view.tricks) + 1
    if trump is None or view.phase != Phase.PLAY:
        return []
    state = current_winner(view, trump)
    if state is None:
        leader = seating.name(view.trick_leader)
        verb = "lead" if leader == "You" else "leads"
        line = Text(f"Trick {number}: {leader} {verb}.", style="bold")
        if view.tricks:
            last = view.tricks[-1]
            line += Text(f" Last trick: {seating.name(last.winner)} took {last.points} "
                         "points (type last to see it).")
        return [line]
    winner = state[0]
    points = sum(c.points for p in view.trick for c in p.cards)
    title = f"Trick {number} · {points} points on the table"
    return render_trick(view.trick, trump, seating, title=title, winner=winner, points=points)


def render_last_trick(view: SeatView, seating: Seating) -> list[Text]:
    """The previous trick, or a note that there is none."""
    if not view.tricks or view.trump is None:
        return [Text("No trick has been played yet this round.")]
    record: TrickRecord = view.tricks[-1]
    title = (f"Trick {len(view.tricks)}: {seating.name(record.winner)} won it "
             f"({record.points} points)")
    return render_trick(record.plays, view.trump, seating, title=title, winner=record.winner,
                        points=record.points, mark="won")


def render_view(view: SeatView, seating: Seating, *, round_number: int, label: str = "",
                width: int = WIDTH) -> list[Text]:
    """The whole screen for one decision: header, trick, hand."""
    lines = render_header(view, seating, round_number=round_number, label=label)
    lines += render_current_trick(view, seating)
    trump = display_trump(view)
    if view.hand and trump is not None:
        lines.append(Text(f"Your hand ({plural(len(view.hand), 'card')}):", style="bold"))
        lines += render_hand(view.hand, trump, seating.unicode, width)
    return lines


# -- the end of a round -------------------------------------------------------------------

def render_result(result: RoundResult, seating: Seating, *, round_number: int,
                  rules_players: int, trump: Trump | None,
                  tricks: Sequence[TrickRecord] = ()) -> list[Text]:
    """The score sheet of a finished round, in the screen's words: the points taken in
    ``tricks`` (the round's tricks, if given), the kitty, penalties, the total and the
    level table's row, the verdict, the level changes and the next dealer."""
    head = rule(f"Round {round_number} over", seating.unicode)
    if result.redeal:
        nxt = seating.name(result.next_dealer)
        return [head, Text("The hand was thrown in: no score. " + (
            f"{nxt} deals the cards; the first to bid becomes the dealer."
            if result.next_bid_for else f"Next dealer: {nxt}."))]
    lines = [head]
    lines.append(Text(f"Declarers: {seating.side(result.declarers)} · opponents: "
                      f"{seating.side(result.opponents)}"))
    taken = [f"trick {i} {seating.name(r.winner)} {r.points}" for i, r in enumerate(tricks, 1)
             if r.points and r.winner in result.opponents]
    lines.append(Text(f"Opponents' points in tricks: {result.trick_points}"
                      + (f" ({', '.join(taken)})" if taken else "")))
    kitty = Text("Kitty: ") + (cards_text(result.kitty, trump, seating.unicode)
                               if result.kitty else Text("hidden"))
    if result.kitty_points is not None:
        kitty += Text(f" ({plural(result.kitty_points, 'point')})")
    if result.kitty_multiplier:
        times = "×" if seating.unicode else "x"
        led = f" ({tricks[-1].lead.describe()} led)" if tricks else ""
        kitty += Text(f" {times} {result.kitty_multiplier} = {result.kitty_bonus} to the "
                      f"opponents: they won the last trick{led}")
    elif result.lost_by is not None:
        kitty += Text(", not counted: the round was lost")
    else:
        kitty += Text(", not counted: the declarers won the last trick")
    lines.append(kitty)
    if result.last_trick_bonus:
        lines.append(Text(f"Last trick, counted once for each of its cards: "
                          f"{result.last_trick_bonus:+d} to the opponents"))
    if result.penalty_points:
        lines.append(Text(f"Failed throws: {result.penalty_points:+d} to the opponents"))
    if result.red_five_points:
        lines.append(Text(f"Captured red fives: {result.red_five_points:+d} to the opponents"))
    if result.lost_by is not None:
        lines.append(Text(f"{seating.name(result.lost_by)}: the throw failed and the round "
                          "is lost"))
    row = f" · level table {result.change.row}" if result.change is not None else ""
    lines.append(Text(f"Opponents' total: {result.points}{row}"))
    if any(line.startswith("Smaller declaring team") for line in result.lines):
        lines.append(Text("Smaller declaring team: one bonus level"))
    if result.hooked:
        lines.append(Text("Hook and needle: the opponents won the last trick with a trump-rank "
                          "card"))
    declarers = seating.side(result.declarers)
    if result.declarers_won:
        verdict = f"The declarers ({declarers}) keep the deal: the opponents took {result.points}."
    else:
        verdict = (f"The opponents ({seating.side(result.opponents)}) win the deal with "
                   f"{result.points} points.")
    lines.append(Text(verdict, style="bold"))
    changed = [s for s in range(rules_players) if result.levels[s] != result.levels_before[s]]
    if changed:
        moves: dict[tuple[int, int], list[int]] = {}
        for s in changed:
            moves.setdefault((result.levels_before[s], result.levels[s]), []).append(s)
        text = "; ".join(f"{seating.side(seats)} from {level_name(a)} to {level_name(b)}"
                         for (a, b), seats in moves.items())
        lines.append(Text(f"Levels: {text}"))
    else:
        lines.append(Text("Levels: no change"))
    lines.append(Text(f"Next dealer: {seating.name(result.next_dealer)}"))
    if result.match_won_by:
        lines.append(Text(f"{seating.side(result.match_won_by)} pass the last rank and win "
                          "the match!", style="bold"))
    return lines


def bid_words(cards: Sequence[Card]) -> str:
    """What a bid of ``cards`` declares, in words."""
    card = cards[0]
    if card.is_joker:
        return "no trump suit"
    suit = card.suit
    assert suit is not None
    return f"trump {suit.name.lower()}"
