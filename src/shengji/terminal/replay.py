"""``shengji replay FILE``: step through a recorded game, finished or not.

The record is replayed action by action and shown in steps: the deal (with
the bids), the bidding, the kitty (and friend calls), every hand at the first
lead, each trick, each round's score sheet. Enter shows the next step, ``q``
quits. A finished game replays with everything shown (every hand and kitty). An
unfinished one (``shengji play`` records the game while it waits for the person)
replays only what the recording seat may know (the record's ``kinds`` say which
seat is the person): its own hand and kitty, and everything public; the seed,
from which every hand could be dealt again, is not shown.
"""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

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
)
from shengji.game.match import Match
from shengji.game.phase import Phase
from shengji.game.record import Record, RecordError, replay
from shengji.game.round import Round
from shengji.terminal.prompt import Prompter, Quit
from shengji.terminal.screen import (
    Seating,
    bid_words,
    call_text,
    cards_text,
    dealer_rule,
    plural,
    render_result,
    render_trick,
    rule,
    trump_words,
    wrap_cards,
)

PROMPT = "replay> "
"""The prompt between steps (Enter: next, q: quit)."""


class Replayer:
    """Shows a record step by step."""

    def __init__(self, record: Record, *, console: Console, prompter: Prompter | None,
                 unicode: bool = True, source: str = "") -> None:
        self.record = record
        self.console = console
        self.prompter = prompter
        n = record.rules.players
        names = record.names or tuple(f"Seat {s}" for s in range(n))
        # a simulator's record names its seats by their players' kinds: tell them apart
        self.seating = Seating(tuple(f"{name} {s}" if names.count(name) > 1 else name
                                     for s, name in enumerate(names)), -1, unicode)
        self.source = source
        self.lines: list[Text] = []
        self.viewer = viewer_of(record)
        """The seat whose view an unfinished game is replayed from (``None``: show all;
        ``-1``: public information only)."""

    def say(self, text: str | Text, style: str = "") -> None:
        """Add a line to the current step."""
        self.lines.append(text if isinstance(text, Text) else Text(text, style=style))

    def step(self) -> None:
        """Print the step and wait for Enter (raises :class:`Quit` on ``q``)."""
        for line in self.lines:
            self.console.print(line, markup=False, highlight=False)
        self.lines = []
        if self.prompter is None:
            return
        while True:
            key = self.prompter.ask(PROMPT).strip().lower()
            if key in ("q", "quit", "exit"):
                raise Quit
            if not key:
                return
            self.console.print("Enter: next step · q: quit", markup=False, highlight=False)

    def run(self) -> int:
        """Replay the whole record; returns the exit status."""
        record = self.record
        name = self.source or "a record"
        if self.viewer is None:
            self.say(f"Replay of {name}: seed {record.seed}, {record.rules.players} players, "
                     f"{len(record.actions)} actions.", style="bold")
        else:
            viewer = self.seating.name(self.viewer) if self.viewer >= 0 else ""
            seen = ("as you saw it" if viewer == "You" else f"as {viewer} saw it" if viewer
                    else "public information only")
            self.say(f"Replay of {name}, an unfinished game ({seen}): "
                     f"{record.rules.players} players, {len(record.actions)} actions.",
                     style="bold")
        if self.prompter is not None:
            self.say("Enter: next step · q: quit")
        match = Match(record.rules, seed=record.seed, max_rounds=record.max_rounds)
        try:
            for index, action in enumerate(record.actions):
                self._apply(match, action, index)
            self._end(match)
        except Quit:
            return 0
        except RecordError as error:
            self.step_quietly()
            self.console.print(f"shengji replay: {error}", markup=False, highlight=False)
            return 2
        return 0

    def step_quietly(self) -> None:
        """Print what is pending without waiting."""
        for line in self.lines:
            self.console.print(line, markup=False, highlight=False)
        self.lines = []

    def _apply(self, match: Match, action: Action, index: int) -> None:
        rnd = match.round
        if rnd.phase == Phase.DEAL and not rnd.history:
            self._round_header(rnd, len(match.results) + 1)
        phase = rnd.phase
        why = "the match is over" if match.is_over else rnd.reason(action)
        if why is not None:
            lines = self.record.action_lines
            line = lines[index] if lines is not None else None
            raise RecordError(line, f"action {str(action)!r} refused: {why}", self.record.source)
        tricks = len(rnd.tricks)
        result = match.apply(action)
        self._describe(action, rnd)
        if len(rnd.tricks) > tricks:
            record = rnd.tricks[-1]
            assert rnd.trump is not None
            self.lines += render_trick(
                record.plays, rnd.trump, self.seating,
                title=f"Trick {len(rnd.tricks)}, won by {self.seating.whom(record.winner)} "
                      f"({record.points} points)", winner=record.winner, points=record.points,
                mark="won")
            self.step()
        elif rnd.phase != phase:
            if phase == Phase.DEAL:
                self.say(f"The deal is over ({len(rnd.history)} actions).")
            if rnd.phase == Phase.PLAY:
                self._hands(rnd)
            self.step()
        if result is not None:
            if self.viewer is not None:  # a seat's view: the kitty as that seat saw it
                observer = self.viewer if self.viewer >= 0 else next(
                    s for s in range(rnd.rules.players) if s != rnd.kitty_owner)
                result = rnd.view(observer).result or result
            self.say("")
            self.lines += render_result(result, self.seating, round_number=len(match.results),
                                        rules_players=rnd.rules.players, trump=rnd.trump,
                                        tricks=rnd.tricks)
            self.step()

    def _round_header(self, rnd: Round, number: int) -> None:
        dealer = dealer_rule(rnd.rules) if rnd.dealer is None else self.seating.name(
            rnd.dealer)
        self.say(rule(f"Round {number} · dealer: {dealer}", self.seating.unicode))

    def _describe(self, action: Action, rnd: Round) -> None:
        name = self.seating.name(action.seat)
        unicode = self.seating.unicode
        if isinstance(action, Draw | Play):
            return
        if isinstance(action, Bid):
            drawn = f" (card {rnd.next_card} of the deal)" if rnd.phase == Phase.DEAL else ""
            self.say(Text(f"{name}: bid ") + cards_text(action.cards, None, unicode)
                     + Text(f", {bid_words(action.cards)}{drawn}"))
        elif isinstance(action, Pass):
            self.say(f"{name}: pass")
        elif isinstance(action, Withdraw):
            self.say(f"{name}: take back the bid")
        elif isinstance(action, Bury):
            if self.viewer is None or action.seat == self.viewer:
                self.lines += wrap_cards(f"{name}: bury ", action.cards, rnd.trump, unicode)
            else:
                self.say(f"{name}: bury {plural(len(action.cards), 'card')}")
        elif isinstance(action, Call):
            self.say(f"{name}: call {', '.join(call_text(c, unicode) for c in action.calls)}")
        elif isinstance(action, Show):
            self.say(f"{name}: show the hand for a redeal")
        elif isinstance(action, Expose):
            self.say(Text(f"{name}: expose ") + (cards_text(action.cards, None, unicode)
                                                 if action.cards else Text("nothing")))
        elif isinstance(action, Declare):
            named = action.suit.name.lower() if action.suit is not None else "no trump suit"
            self.say(f"{name}: name the trump suit: {named}")
        if rnd.phase == Phase.KITTY and isinstance(action, Bid | Pass) and rnd.trump:
            owner = rnd.kitty_owner
            assert owner is not None
            self.say(f"Trump {trump_words(rnd.trump, unicode)}; the kitty goes to "
                     f"{self.seating.whom(owner)}.", style="bold")

    def _hands(self, rnd: Round) -> None:
        assert rnd.trump is not None
        seats = range(rnd.rules.players) if self.viewer is None else (
            [self.viewer] if self.viewer >= 0 else [])
        if not seats:
            return
        self.say("The hands at the first lead:" if self.viewer is None else
                 f"{self.seating.whose(self.viewer)} hand at the first lead:", style="bold")
        width = max(len(n) for n in self.seating.names)
        for seat in seats:
            hand = rnd.view(seat).hand
            self.lines += wrap_cards(f"{self.seating.name(seat):<{width}}  ", hand, rnd.trump,
                                     self.seating.unicode)

    def _end(self, match: Match) -> None:
        if match.winners:
            self.say(f"The match is over, won by {self.seating.side(match.winners)}.",
                     style="bold")
        elif match.is_over:
            self.say(f"The match stopped after {plural(len(match.results), 'round')}.",
                     style="bold")
        else:
            rnd = match.round
            if rnd.trick is not None and rnd.trick.plays and rnd.trump is not None:
                self.lines += render_trick(rnd.trick.plays, rnd.trump, self.seating,
                                           title=f"Trick {len(rnd.tricks) + 1} (unfinished)",
                                           winner=rnd.trick.winner)
            self.say(f"End of the record: round {len(match.results) + 1}, {rnd.phase} phase, "
                     f"{self.seating.name(rnd.to_move)} to move.", style="bold")
            self.say(f"Continue it with: shengji play --resume {self.source}")
        self.step_quietly()


def viewer_of(record: Record) -> int | None:
    """Whose view ``record`` replays from: ``None`` (everything) for a finished game, else
    the person's seat (``-1`` if the record names none: public information only)."""
    try:
        if replay(record).is_over:
            return None
    except (RecordError, ValueError):
        pass
    kinds = list(record.kinds or ())
    return kinds.index("human") if "human" in kinds else -1


def replay_file(record: Record, *, console: Console, step: bool, unicode: bool,
                source: str, prompter: Prompter | None = None) -> int:
    """Show ``record``; pause between steps if ``step``."""
    ask = (prompter or Prompter(flush=console.file.flush)) if step else None
    return Replayer(record, console=console, prompter=ask, unicode=unicode,
                    source=source).run()

