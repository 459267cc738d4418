"""The game loop of ``shengji play``: the person at one seat, computer players at the others.

The loop asks the match who is to move: the person is shown the screen and
prompted, a computer player answers at once (its action printed, paced by
``delay``). During the deal the draw runs by itself and the person is offered
a bid whenever their hand makes a new one possible. The record is written
whenever the game waits for the person (before every prompt) and when it stops,
so ``quit``, Ctrl-C or Ctrl-D leave a game that ``--resume`` continues.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from rich.console import Console
from rich.text import Text

from shengji.engine.cards import Card
from shengji.engine.follow import LegalPlays
from shengji.engine.lead import LegalLeads
from shengji.game.actions import (
    Action,
    Bid,
    Bury,
    Call,
    Declare,
    Draw,
    Pass,
    Play,
    Show,
    Withdraw,
    parse_action,
)
from shengji.game.legal import Legal
from shengji.game.match import Match
from shengji.game.record import write_record
from shengji.game.round import Phase, Round
from shengji.game.scoresheet import RoundResult
from shengji.game.view import SeatView
from shengji.players.base import Player
from shengji.players.heuristic import HeuristicPlayer
from shengji.terminal.prompt import (
    PROMPTS,
    InputError,
    Prompter,
    Quit,
    card_tokens,
    parse_calls,
    parse_menu,
    parse_selection,
)
from shengji.terminal.screen import (
    Seating,
    bid_words,
    cards_text,
    display_order,
    display_trump,
    plural,
    render_last_trick,
    render_result,
    render_view,
    trump_words,
)

HELP = ("Commands: ? (what the rules require now, and a suggestion) · last (the previous "
        "trick) · hand (show the table again) · quit (stop; the game is saved)")


class Session:
    """One person playing a match in the terminal."""

    def __init__(self, match: Match, *, me: int, players: Sequence[Player | None],
                 names: Sequence[str], kinds: Sequence[str], record: Path, console: Console,
                 prompter: Prompter, delay: float = 0.0, label: str = "",
                 unicode: bool = True) -> None:
        self.match = match
        self.me = me
        self.players = list(players)
        self.names = tuple(names)
        self.kinds = tuple(kinds)
        self.record = record
        self.console = console
        self.prompter = prompter
        self.delay = delay
        self.label = label
        self.seating = Seating(self.names, me, unicode)
        self.hinter = HeuristicPlayer(seed=match.seed)
        self.skip_bids = False
        self.declined: set[tuple[Card, ...]] = set()
        self._saved = -1  # actions in the record last written

    # -- running ---------------------------------------------------------------------

    def run(self) -> int:
        """Play until the match ends or the person stops; returns the exit status."""
        self.save()
        try:
            self._loop()
        except (Quit, KeyboardInterrupt):
            self.save()
            self.say("")
            self.say(f"Game saved to {self.record}.", style="bold")
            self.say(f"Resume with: shengji play --resume {self.record}", style="bold")
            return 0
        self.save()
        self._match_over()
        return 0

    def _loop(self) -> None:
        match = self.match
        while not match.is_over:
            rnd = match.round
            if rnd.phase == Phase.DEAL:
                if not rnd.history:
                    self._round_start(rnd)
                self._deal_step(rnd)
                continue
            seat = rnd.to_move
            assert seat is not None
            action = self._decide() if seat == self.me else self._bot(seat)
            self._apply(action)

    @property
    def round_number(self) -> int:
        """The number of the current round (1 for the first)."""
        return len(self.match.results) + 1

    def save(self) -> None:
        """Write the record if it changed (to a temporary file first, so that an interrupted
        write never leaves half a record)."""
        done = len(self.match.history)
        if done == self._saved:
            return
        self._saved = done
        text = write_record(self.match, names=self.names, kinds=self.kinds)
        temporary = self.record.with_name(self.record.name + ".tmp")
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, self.record)

    # -- output ----------------------------------------------------------------------

    def say(self, text: str | Text, style: str = "") -> None:
        """Print one line."""
        self.console.print(text, style=style, markup=False, highlight=False)

    def view(self) -> SeatView:
        """The person's view now."""
        return self.match.view(self.me)

    def show(self, view: SeatView | None = None) -> None:
        """Print the screen for the person's decision."""
        view = view or self.view()
        self.say("")
        for line in render_view(view, self.seating, round_number=self.round_number,
                                label=self.label):
            self.say(line)

    def pause(self, factor: float = 1.0) -> None:
        """Let the person follow the computer players."""
        if self.delay > 0:
            time.sleep(self.delay * factor)

    def _who(self, seat: int, you: str, other: str) -> str:
        return f"{self.seating.name(seat)} {you if seat == self.me else other}"

    # -- the deal --------------------------------------------------------------------

    def _round_start(self, rnd: Round) -> None:
        dealer = "decided by the first bid" if rnd.dealer is None else self.seating.name(
            rnd.dealer)
        self.say("")
        self.say(f"Round {self.round_number}: dealing (dealer {dealer}).", style="bold")
        self.skip_bids = False
        self.declined = set()

    def _deal_step(self, rnd: Round) -> None:
        if not self.skip_bids:
            legal = self.match.legal(self.me)
            bids = [a for a in legal if isinstance(a, Bid)]
            if any(b.cards not in self.declined for b in bids):
                self.save()
                action = self._ask_bid(legal, bids, during_deal=True)
                if action is not None:
                    self._apply(action)
                    return
                self.declined.update(b.cards for b in bids)
        drawer = rnd.drawer
        self._apply(Draw(drawer) if drawer == self.me else self._bot(drawer))

    def _ask_bid(self, legal: Legal, bids: list[Bid], *, during_deal: bool) -> Action | None:
        """The bid menu; ``None`` means no bid (keep drawing)."""
        view = self.view()
        self.show(view)
        unicode = self.seating.unicode
        if during_deal:
            drawn = len(view.hand)
            self.say(f"You can bid ({drawn} of {view.rules.hand_size} cards drawn):",
                     style="bold")
        else:
            self.say("The deal is over: bid, or pass.", style="bold")
        for i, bid in enumerate(bids, 1):
            self.say(Text(f"  {i}) ") + cards_text(bid.cards, None, unicode)
                     + Text(f"  {bid_words(bid.cards)}"))
        can_withdraw = Withdraw(self.me) in legal
        if can_withdraw:
            self.say("  w) take back your bid")
        self.say("Enter: no bid, keep drawing · f: no more bid offers this deal" if during_deal
                 else "Enter: pass")
        words = card_tokens(c for b in bids for c in b.cards)
        while True:
            text = self.prompter.ask(PROMPTS["deal" if during_deal else "bid"], words)
            key = text.strip().lower()
            if not key:
                return None if during_deal else Pass(self.me)
            if self._command(key, legal):
                continue
            if key == "f" and during_deal:
                self.skip_bids = True
                return None
            try:
                if key == "w" and can_withdraw:
                    action: Action = Withdraw(self.me)
                elif key.isdigit():
                    choice = parse_menu(key, len(bids))
                    assert choice is not None
                    action = bids[choice]
                elif key == "pass" and not during_deal:
                    action = Pass(self.me)
                else:
                    action = Bid(self.me, parse_selection(text, ()))
            except InputError as error:
                self.say(f"{error}", style="red")
                continue
            if self._allowed(legal, action):
                return action

    # -- the person's decisions -------------------------------------------------------

    def _decide(self) -> Action:
        self.save()
        me = self.me
        legal = self.match.legal(me)
        phase = self.match.round.phase
        if phase in (Phase.BID, Phase.OVERBID):
            bids = [a for a in legal if isinstance(a, Bid)]
            if not bids and Withdraw(me) not in legal:
                self.say("You have no bid to make.")
                return Pass(me)
            action = self._ask_bid(legal, bids, during_deal=False)
            return action if action is not None else Pass(me)
        view = self.view()
        self.show(view)
        if phase == Phase.KITTY:
            size = view.rules.kitty_size
            kitty = view.kitty or ()
            self.say(Text("You took the kitty: ") + cards_text(kitty, view.trump,
                                                              self.seating.unicode))
            self.say(f"Bury {size} cards: type them (3C 4C ...) or their numbers (1 5 7 ...).",
                     style="bold")
            return self._ask("bury", legal, lambda text: Bury(me, self._cards(text)))
        if phase == Phase.CALL:
            count = view.rules.friend_count
            self.say(f"Call {count} friend card{'s' if count > 1 else ''}, e.g. "
                     f"{'1st AS, 2nd KH' if count > 1 else '1st AS'}.", style="bold")
            return self._ask("call", legal, lambda text: Call(me, parse_calls(text)))
        if phase == Phase.SHOW:
            self.say("You may show your hand to have the cards dealt again. Show it? (y/n)",
                     style="bold")
            return self._ask("show", legal, self._yes_no)
        if phase == Phase.DECLARE:
            self.say("You deal: name the trump suit (C, D, H or S) or NT for no-trump.",
                     style="bold")
            return self._ask("declare", legal, lambda text: _declare(me, text))
        plays = legal.plays
        if isinstance(plays, LegalLeads):
            self.say("Your lead: type cards (KS KS, 10h) or numbers (3 4).", style="bold")
            kind = "lead"
        else:
            assert isinstance(plays, LegalPlays)
            self.say(f"Your turn: {plays.describe()}.", style="bold")
            kind = "follow"
        return self._ask(kind, legal, lambda text: Play(me, self._cards(text)))

    def _cards(self, text: str) -> tuple[Card, ...]:
        view = self.view()
        trump = display_trump(view)
        numbered = display_order(view.hand, trump) if trump is not None else list(view.hand)
        return parse_selection(text, numbered)

    def _yes_no(self, text: str) -> Action:
        key = text.strip().lower()
        if key in ("y", "yes", "show"):
            return Show(self.me)
        if key in ("n", "no", "pass"):
            return Pass(self.me)
        raise InputError("answer y (show the hand) or n (keep it)")

    def _ask(self, kind: str, legal: Legal, parse: Callable[[str], Action]) -> Action:
        words = card_tokens(self.view().hand)
        while True:
            text = self.prompter.ask(PROMPTS[kind], words)
            if not text.strip():
                self.show()
                continue
            if self._command(text.strip().lower(), legal):
                continue
            try:
                action = parse(text)
            except InputError as error:
                self.say(f"{error}", style="red")
                continue
            if self._allowed(legal, action):
                return action

    def _allowed(self, legal: Legal, action: Action) -> bool:
        why = legal.reason(action)
        if why is None:
            return True
        self.say(f"Not allowed: {why}", style="red")
        return False

    def _command(self, key: str, legal: Legal) -> bool:
        """Handle a command word; False if ``key`` is not one."""
        if key in ("quit", "exit", "q"):
            raise Quit
        if key in ("?", "hint"):
            self._hint(legal)
        elif key == "help":
            self.say(HELP)
        elif key == "last":
            for line in render_last_trick(self.view(), self.seating):
                self.say(line)
        elif key in ("hand", "look"):
            self.show()
        else:
            return False
        return True

    def _hint(self, legal: Legal) -> None:
        plays = legal.plays
        if isinstance(plays, LegalPlays):
            self.say(f"Rules: {plays.describe()}.")
            if plays.forced:
                self.say(Text("You must play: ") + cards_text(plays.forced, plays.trump,
                                                             self.seating.unicode))
        elif isinstance(plays, LegalLeads):
            self.say("Rules: lead a single card, a pair (or longer tuple) or a tractor.")
            if plays.rules.throws:
                self.say("Or throw several of one suit at once: it fails if another player "
                         "can beat a part of it.")
        else:
            self.say(f"Rules: {legal.summary}.")
        view = self.view()
        suggestion = self.hinter.act(view, legal)
        self.say(f"Suggestion: {self._describe(suggestion, view)}", style="bold")

    def _describe(self, action: Action, view: SeatView) -> str:
        if isinstance(action, Play | Bury):
            trump = display_trump(view)
            order = display_order(view.hand, trump) if trump is not None else list(view.hand)
            numbers: list[int] = []
            for card in action.cards:
                numbers.append(next(i for i, c in enumerate(order, 1)
                                    if c == card and i not in numbers))
            cards = " ".join(str(c) for c in action.cards)
            return f"{cards} (numbers {' '.join(map(str, numbers))})"
        if isinstance(action, Bid):
            return f"bid {' '.join(str(c) for c in action.cards)}"
        if isinstance(action, Call):
            return ", ".join(str(c) for c in action.calls)
        if isinstance(action, Draw):
            return "no bid (Enter)"
        return str(action).split(" ", 1)[1]

    # -- computer players and announcements -----------------------------------------

    def _bot(self, seat: int) -> Action:
        player = self.players[seat]
        assert player is not None, f"seat {seat} has no player"
        return player.act(self.match.view(seat), self.match.legal(seat))

    def _apply(self, action: Action) -> None:
        rnd = self.match.round
        phase = rnd.phase
        tricks = len(rnd.tricks)
        friends = rnd.tracker.friends if rnd.tracker is not None else ()
        result = self.match.apply(action)
        self._announce(action, rnd, phase)
        if len(rnd.tricks) > tricks:
            record = rnd.tricks[-1]
            self.say(f"{self._who(record.winner, 'win', 'wins')} trick {len(rnd.tricks)} "
                     f"({record.points} points).", style="bold")
            self.pause(1.5)
        new = rnd.tracker.friends if rnd.tracker is not None else ()
        for seat in new:
            if seat not in friends:
                self.say(f"{self._who(seat, 'are', 'is')} a friend of "
                         f"{self.seating.name(rnd.dealer)}!", style="bold")
        if phase == Phase.DEAL and rnd.phase != Phase.DEAL:
            self.say("The deal is over.")
        if rnd.phase == Phase.KITTY and phase != Phase.KITTY and rnd.trump is not None:
            owner = rnd.kitty_owner
            assert owner is not None
            trump = trump_words(rnd.trump, self.seating.unicode)
            self.say(f"Trump is {trump}; {self._who(owner, 'take', 'takes')} the kitty.",
                     style="bold")
        if result is not None:
            self._round_over(rnd, result)

    def _announce(self, action: Action, rnd: Round, phase: Phase) -> None:
        if isinstance(action, Draw):
            return
        seat = action.seat
        unicode = self.seating.unicode
        if isinstance(action, Bid):
            line = Text(self._who(seat, "bid", "bids") + " ") + cards_text(
                action.cards, None, unicode) + Text(f" ({bid_words(action.cards)}).")
        elif isinstance(action, Pass):
            line = Text(self._who(seat, "pass", "passes") + ".")
        elif isinstance(action, Withdraw):
            line = Text(self._who(seat, "take back", "takes back") + " the bid.")
        elif isinstance(action, Bury):
            if seat == self.me:
                line = Text("You bury ") + cards_text(action.cards, rnd.trump, unicode) + "."
            else:
                line = Text(self._who(seat, "bury", "buries") + f" {len(action.cards)} cards.")
        elif isinstance(action, Call):
            line = Text(self._who(seat, "call", "calls") + " "
                        + ", ".join(str(c) for c in action.calls) + ".")
        elif isinstance(action, Show):
            line = Text(self._who(seat, "show", "shows") + " the hand: it is dealt again.")
        elif isinstance(action, Declare):
            named = action.suit.name.lower() if action.suit is not None else "no-trump"
            line = Text(self._who(seat, "name", "names") + f" the trump suit: {named}.")
        else:
            line = self._play_line(action, rnd)
        self.say(line)
        if seat != self.me:
            self.pause()

    def _play_line(self, action: Play, rnd: Round) -> Text:
        trick = rnd.trick
        unicode = self.seating.unicode
        cards = rnd.trump.sorted(action.cards) if rnd.trump is not None else action.cards
        line = Text(f"{self.seating.name(action.seat)}: ") + cards_text(cards, rnd.trump, unicode)
        if trick is not None and trick.plays and trick.plays[0].seat == action.seat and (
                trick.throw is not None and not trick.throw.valid):
            line += Text(f"  (throw failed: {trick.throw.explain()})", style="red")
        return line

    # -- the end ---------------------------------------------------------------------

    def _round_over(self, rnd: Round, result: RoundResult) -> None:
        view = rnd.view(self.me)
        shown = view.result or result
        self.say("")
        for line in shown.sheet().splitlines():
            self.say(line, style="dim")
        number = len(self.match.results)
        for summary in render_result(shown, self.seating, round_number=number,
                                     rules_players=rnd.rules.players, trump=rnd.trump):
            self.say(summary)
        self.save()
        if self.match.is_over:
            return
        while True:
            text = self.prompter.ask(PROMPTS["next"], ())
            key = text.strip().lower()
            if key in ("quit", "exit", "q"):
                raise Quit
            if not key:
                return
            self.say("Press Enter for the next round, or type quit.")

    def _match_over(self) -> None:
        match = self.match
        self.say("")
        if match.winners:
            won = self.me in match.winners
            side = self.seating.side(match.winners)
            self.say(f"Match over after {plural(len(match.results), 'round')}: {side} "
                     f"win{'' if won or len(match.winners) > 1 else 's'} the match!"
                     + (" Congratulations!" if won else ""), style="bold")
        else:
            self.say(f"The match stopped after {plural(len(match.results), 'round')}.",
                     style="bold")
        self.say(f"The record is in {self.record}.")
        self.say(f"Step through it with: shengji replay {self.record}")


def _declare(seat: int, text: str) -> Action:
    """Read the trump suit the dealer names (C, D, H, S, a symbol or NT)."""
    try:
        return parse_action(f"{seat} declare {text.strip()}")
    except ValueError:
        raise InputError(f"cannot read {text.strip()!r}: type C, D, H, S or NT") from None
