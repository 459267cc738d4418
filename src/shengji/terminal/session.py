"""The game loop of ``shengji play``: the person at one seat, computer players at the others.

The loop asks the match who is to move: the person is shown the screen and
prompted, a computer player answers at once (its action printed, paced by
``delay``). During the deal the draw runs by itself and the person is offered
a bid whenever their hand makes a new one possible. The record is written
whenever the game waits for the person (before every prompt) and when it stops,
so ``quit``, Ctrl-C or Ctrl-D leave a game that ``--resume`` continues.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from rich.console import Console
from rich.markdown import Markdown
from rich.text import Text

from shengji.engine.cards import Card
from shengji.engine.follow import LegalPlays
from shengji.engine.friends import exhausted_calls, exhausted_text
from shengji.engine.lead import LegalLeads
from shengji.game.actions import (
    Action,
    Bid,
    Bury,
    Call,
    Declare,
    Draw,
    Expose,
    Pass,
    Play,
    Show,
    Withdraw,
    parse_action,
)
from shengji.game.how_to_play import HOW_TO_PLAY
from shengji.game.legal import Legal
from shengji.game.match import Match
from shengji.game.phase import Phase
from shengji.game.record import save_record
from shengji.game.round import Round
from shengji.game.scoresheet import RoundResult
from shengji.game.view import SeatView
from shengji.players.base import Player
from shengji.players.heuristic import HeuristicPlayer
from shengji.terminal.hints import bid_help, call_help, declare_help, show_help
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
    call_text,
    cards_text,
    dealer_words,
    display_order,
    display_trump,
    held_at_call,
    plural,
    render_last_trick,
    render_result,
    render_view,
    symbols,
    trump_words,
)

COMMAND_WORDS = frozenset(("?", "hint", "help", "last", "hand", "look", "quit", "exit"))
"""The command words of a decision's prompt, each alone (``help rules`` is the one with a
second word): :meth:`Session._command`."""
HELP = ("Commands: ? (what the rules require now, and a suggestion) · last (the previous "
        "trick) · hand (show the table again) · help rules (how to play Sheng Ji) · quit "
        "(stop; the game is saved) · at the score sheet: review (how you played the round)")

VERBS = {"deal": "bid", "bid": "bid", "bury": "bury", "call": "call", "declare": "declare",
         "expose": "expose", "lead": "play", "follow": "play"}
"""The action word that may start the answer at each prompt (``bid 2D``, ``declare C``,
``call 1st AS``, ``play KS KS``), as the suggestions write them."""


def number_ranges(numbers: Sequence[int]) -> str:
    """Card numbers as typed: sorted, runs of three or more as ranges (``3 5-7``)."""
    runs: list[list[int]] = []
    for n in sorted(numbers):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return " ".join(f"{r[0]}-{r[-1]}" if len(r) > 2 else " ".join(map(str, r)) for r in runs)


def strip_verb(text: str, verb: str) -> str:
    """``text`` without a leading ``verb`` (``bid 2D`` -> ``2D``)."""
    head, _, rest = text.strip().partition(" ")
    return rest.strip() if head.lower() == verb and rest.strip() else text.strip()


class Session:
    """One person playing a match in the terminal."""

    def __init__(self, match: Match, *, me: int, players: Sequence[Player | None],
                 names: Sequence[str], kinds: Sequence[str], record: Path, console: Console,
                 prompter: Prompter, delay: float = 0.0, label: str = "",
                 unicode: bool = True, hinter: Player | None = None,
                 hint_by: str = "heuristic player") -> None:
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
        self.hinter = hinter if hinter is not None else HeuristicPlayer(seed=match.seed)
        """The player whose choice ``?`` suggests (``--hints``)."""
        self.hint_by = hint_by
        """Who suggests, in words (``--hints`` and ``--hint-time``)."""
        self.skip_bids = False
        self.declined: set[tuple[Card, ...]] = set()
        self._saved = -1  # actions in the record last written
        self.unsaved: str | None = None
        """Why the record could not be written last time (``None``: it is up to date)."""
        self._thought = 0.0  # seconds the last computer move took to choose

    # -- running ---------------------------------------------------------------------

    def run(self) -> int:
        """Play until the match ends or the person stops; returns the exit status: 2 (with
        one line on stderr) where the record could not be written, at the start or the end
        (a failure in between is said on screen and the game goes on)."""
        self.save()
        if self.unsaved is not None:  # nothing played yet: stop at once
            return self._unsaved_status()
        try:
            self._loop()
        except (Quit, KeyboardInterrupt):
            self.save()
            self.say("")
            if self.unsaved is None:
                self.say(f"Game saved to {self.record}.", style="bold")
                self.say(f"Resume with: shengji play --resume {self.record}", style="bold")
            return self._unsaved_status()
        self.save()
        self._match_over()
        return self._unsaved_status()

    def _unsaved_status(self) -> int:
        if self.unsaved is None:
            return 0
        print(f"shengji play: --record {self.record}: {self.unsaved}", file=sys.stderr)
        return 2

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
        """Write the record if it changed (atomically: an interrupted write never leaves
        half a record)."""
        done = len(self.match.history)
        if done == self._saved:
            return
        try:
            save_record(self.match, self.record, names=self.names, kinds=self.kinds)
        except OSError as error:
            why = f"cannot write the record: {error.strerror or error}"
            if why != self.unsaved and self._saved >= 0:  # (at the start: stderr only)
                self.say(f"Careful: {why}; the game goes on, and the record is tried again "
                         "after each move.", style="red")
            self.unsaved = why
            return
        self._saved = done
        self.unsaved = None

    # -- output ----------------------------------------------------------------------

    def say(self, text: str | Text, style: str = "") -> None:
        """Print one line."""
        self.console.print(text, style=style, markup=False, highlight=False)

    def rules_primer(self) -> None:
        """Print how to play Sheng Ji (``help rules``): the primer of the documentation,
        ``docs/how-to-play.md``, as the terminal shows Markdown."""
        self.console.print(Markdown(HOW_TO_PLAY, hyperlinks=False))

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
        """Let the person follow the computer players (the time the last computer move
        took to choose counts towards the pause)."""
        wait = self.delay * factor - self._thought
        self._thought = 0.0
        if self.delay > 0 and wait > 0:
            time.sleep(wait)

    def _who(self, seat: int, you: str, other: str) -> str:
        return f"{self.seating.name(seat)} {you if seat == self.me else other}"

    def _friend_of(self, seat: int | None) -> str:
        """``your friend`` or ``a friend of Seat 2``."""
        return "your friend" if seat == self.me else f"a friend of {self.seating.name(seat)}"

    # -- the deal --------------------------------------------------------------------

    def _round_start(self, rnd: Round) -> None:
        dealer = dealer_words(rnd.view(self.me), self.seating)
        self.say("")
        self.say(f"Round {self.round_number}: dealing (dealer: {dealer}).", style="bold")
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
        words = ["pass", "bid", *card_tokens(c for b in bids for c in b.cards)]
        while True:
            text = self.prompter.ask(PROMPTS["deal" if during_deal else "bid"], words)
            key = text.strip().lower()
            if key in ("", "pass", "no bid"):
                return None if during_deal else Pass(self.me)
            if self._command(key, legal):
                continue
            if key == "f" and during_deal:
                self.skip_bids = True
                return None
            body = strip_verb(text, "bid")
            try:
                if key in ("w", "withdraw") and can_withdraw:
                    action: Action = Withdraw(self.me)
                elif body.isdigit():
                    choice = parse_menu(body, len(bids))
                    assert choice is not None
                    action = bids[choice]
                else:
                    action = Bid(self.me, parse_selection(body, ()))
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
            return self._call(view, legal)
        if phase == Phase.SHOW:
            self.say("You may show your hand to have the cards dealt again. Show it? (y/n)",
                     style="bold")
            return self._ask("show", legal, self._yes_no)
        if phase == Phase.DECLARE:
            self.say("You deal: name the trump suit (C, D, H or S) or NT for no-trump.",
                     style="bold")
            return self._ask("declare", legal, lambda text: _declare(me, text))
        if phase == Phase.EXPOSE:
            self.say(f"Before the dealer names the trump you may show up to "
                     f"{plural(legal.expose_limit or 0, 'card')} (they stay in your hand): "
                     "type them (9C 8C) or their numbers, or none.", style="bold")
            return self._ask("expose", legal, lambda text: Expose(
                me, () if text.strip().lower() in ("none", "pass") else self._cards(text)))
        plays = legal.plays
        if isinstance(plays, LegalLeads):
            self.say("Your lead: type cards (KS KS, 10h) or numbers (3 4).", style="bold")
            kind = "lead"
        elif isinstance(plays, LegalPlays):
            self.say(symbols(f"Your turn: {plays.describe()}.", self.seating.unicode),
                     style="bold")
            kind = "follow"
        else:  # a decision without a screen of its own: typed as the action is written
            self.say(f"Your turn: {legal.summary}. Type the action as ? suggests it.",
                     style="bold")
            return self._ask("other", legal, lambda text: _action(me, text))
        return self._ask(kind, legal, lambda text: Play(me, self._cards(text)))

    def _call(self, view: SeatView, legal: Legal) -> Action:
        """Ask for the friend calls; a call that the person's own cards leave to nobody
        else is refused or, if the rules allow it, made only once confirmed."""
        rules, trump = view.rules, view.trump
        assert trump is not None
        held, buried, removed = held_at_call(view)
        example = self.hinter.act(view, legal)
        text = (", ".join(str(c) for c in example.calls) if isinstance(example, Call)
                and not exhausted_calls(example.calls, held, rules, buried=buried,
                                        removed=removed) else "")
        count = plural(rules.friend_count, "friend card")
        self.say(f"Call {count}" + (f": type e.g. {text}" if text else "") + ". Whoever "
                 "plays a called card joins you (? explains).", style="bold")

        while True:
            action = self._ask("call", legal, lambda answer: Call(self.me, parse_calls(answer)))
            assert isinstance(action, Call)
            dead = exhausted_calls(action.calls, held, rules, buried=buried, removed=removed)
            if not dead:
                return action
            why = "; ".join(symbols(exhausted_text(c, held, rules, buried, removed=removed),
                                    self.seating.unicode) for c in dead)
            alone = ("you would play alone" if len(dead) == len(action.calls)
                     else "you would have fewer friends")
            self.say(f"Careful: {why}. Nobody else can be the friend of "
                     f"{', '.join(call_text(c, self.seating.unicode) for c in dead)}: {alone}. "
                     "Call it anyway? (y: yes; n or Enter: call again)", style="red")
            if self.prompter.ask(PROMPTS["confirm"]).strip().lower() in ("y", "yes"):
                return action

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
        verb = VERBS.get(kind)
        words = [*([verb] if verb else []), *card_tokens(self.view().hand)]
        while True:
            text = self.prompter.ask(PROMPTS[kind], words)
            if not text.strip():
                self.show()
                continue
            if self._command(text.strip().lower(), legal):
                continue
            try:
                action = parse(strip_verb(text, verb) if verb else text)
            except InputError as error:
                self.say(f"{error}", style="red")
                continue
            if self._allowed(legal, action):
                return action

    def _allowed(self, legal: Legal, action: Action) -> bool:
        why = legal.reason(action)
        if why is None:
            return True
        self.say(f"Not allowed: {symbols(why, self.seating.unicode)}", style="red")
        return False

    def _command(self, key: str, legal: Legal) -> bool:
        """Handle a command (a command word with more after it, or ``review`` away from
        the score sheet, is answered as such, not read as cards); False if ``key`` is not
        one."""
        if key in ("quit", "exit", "q"):
            raise Quit
        words = key.split()
        if not words:
            return False
        if words in (["help", "rules"], ["rules"]):
            self.rules_primer()
        elif words[0] == "review":
            self.say("review is offered at the score sheet, after a round", style="red")
        elif words[0] not in COMMAND_WORDS:
            return False
        elif len(words) > 1:
            self.say(f"{words[0]} takes nothing after it: type {words[0]} alone"
                     + (" (or help rules)" if words[0] == "help" else ""), style="red")
        elif key in ("?", "hint"):
            self._hint(legal)
        elif key == "help":
            self.say(HELP)
        elif key == "last":
            for line in render_last_trick(self.view(), self.seating):
                self.say(line)
        else:  # hand, look
            self.show()
        return True

    def _hint(self, legal: Legal) -> None:
        view = self.view()
        unicode = self.seating.unicode
        plays = legal.plays
        phase = view.phase
        if isinstance(plays, LegalPlays):
            self.say(symbols(f"Rules: {plays.describe()}.", unicode))
            if plays.forced:
                self.say(Text("You must play: ") + cards_text(plays.forced, plays.trump,
                                                             unicode))
        elif isinstance(plays, LegalLeads):
            self.say("Rules: lead a single card, a pair (or longer tuple) or a tractor.")
            if plays.rules.throws:
                self.say("Or throw several of one suit at once: it fails if another player "
                         "can beat a part of it.")
        elif phase in (Phase.DEAL, Phase.BID, Phase.OVERBID):
            for line in bid_help(view, legal, self.seating):
                self.say(line)
        elif phase == Phase.CALL:
            for line in call_help(view, self.seating):
                self.say(line)
        elif phase == Phase.DECLARE:
            for line in declare_help(view, self.seating):
                self.say(line)
        elif phase == Phase.SHOW:
            for line in show_help(view):
                self.say(line)
        elif phase == Phase.KITTY:
            self.say(f"Rules: {legal.summary}; the kitty's points go to the opponents, "
                     "multiplied, if they win the last trick.")
        else:
            self.say(f"Rules: {legal.summary}.")
        suggestion = self.hinter.act(view, legal)
        self.say(f"Suggestion ({self.hint_by}): {self._describe(suggestion, view, legal)}",
                 style="bold")

    def _describe(self, action: Action, view: SeatView, legal: Legal) -> str:
        """The suggestion as the screen shows it, then what to type to make it."""
        unicode = self.seating.unicode
        typed: list[str] = []
        if isinstance(action, Play | Bury | Expose) and action.cards:
            trump = display_trump(view)
            order = display_order(view.hand, trump) if trump is not None else list(view.hand)
            numbers: list[int] = []
            for card in action.cards:
                numbers.append(next(i for i, c in enumerate(order, 1)
                                    if c == card and i not in numbers))
            shown = " ".join(c.unicode() if unicode else str(c) for c in action.cards)
            typed = [number_ranges(numbers), " ".join(str(c) for c in action.cards)]
        elif isinstance(action, Bid):
            shown = symbols(f"bid {' '.join(str(c) for c in action.cards)}", unicode)
            menu = [a for a in legal if isinstance(a, Bid)]  # numbered as the bid menu
            typed = [str(menu.index(action) + 1)] if action in menu else []
            typed.append(f"bid {' '.join(str(c) for c in action.cards)}")
        elif isinstance(action, Call):
            shown = ", ".join(call_text(c, unicode) for c in action.calls)
            typed = [", ".join(str(c) for c in action.calls)]
        elif isinstance(action, Draw):
            shown, typed = "no bid", ["Enter"]
        elif isinstance(action, Pass):
            shown = "pass" if view.phase != Phase.SHOW else "keep the hand"
            typed = ["Enter" if view.phase != Phase.SHOW else "n"]
        elif isinstance(action, Show):
            shown, typed = "show the hand", ["y"]
        elif isinstance(action, Withdraw):
            shown, typed = "take back your bid", ["w"]
        elif isinstance(action, Expose):
            shown, typed = "expose nothing", ["none"]
        elif isinstance(action, Declare):
            suit = action.suit
            shown = "declare " + ("NT (no trump suit)" if suit is None else
                                  f"{suit.symbol if unicode else suit.letter} "
                                  f"({suit.name.lower()})")
            typed = ["declare " + ("NT" if suit is None else suit.letter)]
        else:
            shown = str(action).split(" ", 1)[1]
        typed = [t for t in dict.fromkeys(typed) if t != shown]
        return f"{shown} (type {' or '.join(typed)})" if typed else shown

    # -- computer players and announcements -----------------------------------------

    def _bot(self, seat: int) -> Action:
        player = self.players[seat]
        assert player is not None, f"seat {seat} has no player"
        start = time.perf_counter()
        action = player.act(self.match.view(seat), self.match.legal(seat))
        self._thought = time.perf_counter() - start
        return action

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
                self.say(f"{self._who(seat, 'are', 'is')} "
                         f"{self._friend_of(rnd.dealer)}!", style="bold")
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
                        + ", ".join(call_text(c, unicode) for c in action.calls) + ".")
        elif isinstance(action, Show):
            line = Text(self._who(seat, "show", "shows") + " the hand: it is dealt again.")
        elif isinstance(action, Declare):
            named = action.suit.name.lower() if action.suit is not None else "no-trump"
            line = Text(self._who(seat, "name", "names") + f" the trump suit: {named}.")
        elif isinstance(action, Play):
            line = self._play_line(action, rnd)
        elif isinstance(action, Expose):
            line = Text(self._who(seat, "expose", "exposes") + " ") + (
                cards_text(action.cards, None, unicode) if action.cards else Text("nothing")
            ) + Text(".")
        else:
            line = Text(f"{self.seating.name(seat)}: "
                        + symbols(str(action).split(" ", 1)[1], unicode))
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
            line += Text(f"  ({symbols(trick.throw.explain(), unicode)})", style="red")
        return line

    # -- the end ---------------------------------------------------------------------

    def _round_over(self, rnd: Round, result: RoundResult) -> None:
        view = rnd.view(self.me)
        shown = view.result or result
        self.say("")
        number = len(self.match.results)
        for line in render_result(shown, self.seating, round_number=number,
                                  rules_players=rnd.rules.players, trump=rnd.trump,
                                  tricks=view.tricks):
            self.say(line)
        self.save()
        then = "the end of the match" if self.match.is_over else "the next round"
        self.say(f"Enter: {then} · review: how you played this round · quit")
        while True:
            try:
                text = self.prompter.ask(PROMPTS["end" if self.match.is_over else "next"], ())
            except (Quit, KeyboardInterrupt):
                if self.match.is_over:  # nothing left to save or resume: the match's end
                    return
                raise
            key = text.strip().lower()
            if key in ("quit", "exit", "q") and not self.match.is_over:
                raise Quit
            if not key or key in ("quit", "exit", "q"):
                return
            if key == "review":  # the analysis of this round's decisions (shengji.analysis)
                from shengji.analyze_cli import review

                review(self.match, self.me, self.console, names=self.names)
                continue
            self.say(f"Press Enter for {then}, type review (how you played this round), "
                     "or type quit.")

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
        if self.unsaved is None:
            self.say(f"The record is in {self.record}.")
            self.say(f"Step through it with: shengji replay {self.record}")


def _action(seat: int, text: str) -> Action:
    """Any action typed in its notation, without the seat (``expose 2S``)."""
    try:
        return parse_action(f"{seat} {text.strip()}")
    except ValueError as error:
        raise InputError(str(error)) from None


def _declare(seat: int, text: str) -> Action:
    """Read the trump suit the dealer names (C, D, H, S, a symbol or NT)."""
    try:
        return parse_action(f"{seat} declare {text.strip()}")
    except ValueError:
        raise InputError(f"cannot read {text.strip()!r}: type C, D, H, S or NT") from None
