"""``shengji play`` and ``shengji replay``: the input parsers, the screen, and the real
program driven through a pseudo-terminal (pexpect) as a person would."""

from __future__ import annotations

import io
import os
import re
import signal
import subprocess
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

import pexpect
import pytest
from rich.console import Console
from rich.text import Text

from flow_helpers import deal, pass_round, stacked
from shengji.engine.cards import ALL_CARDS, Card, Suit, parse_cards
from shengji.engine.friends import FriendCall
from shengji.engine.rules import Rules
from shengji.engine.trump import Trump
from shengji.game.actions import Bid, Bury, Call, Declare, Draw, Pass, Play
from shengji.game.match import Match
from shengji.game.phase import Phase
from shengji.game.presets import preset
from shengji.game.record import load_record, read_record, replay, save_record, write_record
from shengji.players import make_player
from shengji.players.base import Player
from shengji.terminal.prompt import (
    COMMANDS,
    PROMPTS,
    InputError,
    Prompter,
    Quit,
    card_tokens,
    complete,
    parse_calls,
    parse_menu,
    parse_selection,
)
from shengji.terminal.replay import viewer_of
from shengji.terminal.screen import (
    Seating,
    display_order,
    render_hand,
    render_last_trick,
    render_result,
    render_view,
    symbols,
    wrap_cards,
)
from shengji.terminal.session import Session, number_ranges, strip_verb

# -- the input parsers ---------------------------------------------------------------------

HAND = parse_cards("BJ 2H AS KS KS 10D")


def test_cards_in_notation_any_case() -> None:
    assert parse_selection("ks KS 10d bj", HAND) == parse_cards("KS KS 10D BJ")
    assert parse_selection("Th, a♠", HAND) == parse_cards("10H AS")


def test_numbers_and_ranges_pick_the_cards_shown() -> None:
    assert parse_selection("1 3", HAND) == parse_cards("BJ AS")
    assert parse_selection("4-6", HAND) == parse_cards("KS KS 10D")
    assert parse_selection("2 ks", HAND) == parse_cards("2H KS")


@pytest.mark.parametrize(("text", "message"), [
    ("7", "no card number 7"),
    ("0", "no card number 0"),
    ("1 1", "chosen twice"),
    ("3-1", "from low to high"),
    ("1S", "cannot read card '1S'"),
    ("", "type cards"),
])
def test_bad_selections_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(InputError, match=re.escape(message)):
        parse_selection(text, HAND)


def test_menu_and_calls() -> None:
    assert parse_menu("", 3) is None
    assert parse_menu(" 2 ", 3) == 1
    with pytest.raises(InputError, match="from 1 to 3"):
        parse_menu("4", 3)
    calls = parse_calls("1st AS, 2nd kh")
    assert [str(c) for c in calls] == ["1st AS", "2nd KH"]
    with pytest.raises(InputError, match="friend call"):
        parse_calls("1st XX")
    with pytest.raises(InputError):
        parse_calls(" , ")


def test_completion_of_card_tokens_and_commands() -> None:
    tokens = card_tokens(HAND)
    assert tokens == ["10D", "2H", "AS", "BJ", "KS"]
    assert complete("k", tokens) == ["KS"]
    assert complete("", ["KS", "AS"]) == ["AS", "KS"]
    assert complete("1", tokens) == ["10D"]
    prompter = Prompter(lambda prompt: "", completion=False)
    prompter.ask("play> ", tokens)
    assert prompter._complete("q", 0) == "quit"
    assert prompter._complete("b", 0) == "BJ"
    assert prompter._complete("b", 1) is None
    assert set(COMMANDS) <= set(prompter._words)


def test_end_of_input_is_a_quit() -> None:
    def closed(prompt: str) -> str:
        raise EOFError

    with pytest.raises(Quit):
        Prompter(closed, completion=False).ask("play> ")


# -- the screen -----------------------------------------------------------------------------

def _to_play(name: str, seed: int, tricks: int = 0, **options: object) -> Match:
    """A match of heuristic players stopped in the play phase after ``tricks`` tricks."""
    rules = preset(name, **options)
    match = Match(rules, seed=seed)
    players = [make_player("heuristic", seed=s) for s in range(rules.players)]
    while match.round.phase != Phase.PLAY or len(match.round.tricks) < tricks or (
            match.round.trick is not None and len(match.round.trick.plays) < 2):
        seat = match.to_move
        assert seat is not None
        match.apply(players[seat].act(match.view(seat), match.legal(seat)))
    return match


def _text(lines: Iterable[Text]) -> str:
    console = Console(record=True, width=80, file=io.StringIO(), color_system=None)
    for line in lines:
        console.print(line)
    return console.export_text()


def _seating(players: int, me: int = 0, unicode: bool = True) -> Seating:
    return Seating(tuple("You" if s == me else f"Seat {s}" for s in range(players)), me,
                   unicode)


def test_screen_of_a_trick_in_progress_fits_80_columns() -> None:
    match = _to_play("tractor", seed=3, tricks=2)
    view = match.view(0)
    text = _text(render_view(view, _seating(4), round_number=1, label="tractor"))
    assert all(len(line) <= 80 for line in text.splitlines()), text
    assert "Round 1 · tractor · you are seat 0" in text
    assert view.trump is not None and f"Trump {view.trump.rank}" in text
    assert "Teams: You & Seat 2" in text
    assert "Opponents' points:" in text and "(they need 80)" in text
    assert "Trick 3 ·" in text and "◀ winning" in text
    assert f"Your hand ({len(view.hand)} cards):" in text
    assert "Trumps" in text


def test_numbers_on_screen_are_the_display_order() -> None:
    trump = Trump.parse("2H")
    hand = parse_cards("3C 2S BJ AH KS 5D 2H 10S AC")
    order = display_order(hand, trump)
    assert [str(c) for c in order] == ["BJ", "2H", "2S", "AH", "KS", "10S", "AC", "3C", "5D"]
    text = _text(render_hand(hand, trump, unicode=False))
    assert text.splitlines() == [
        "Trumps   1:BJ 2:2H 3:2S 4:AH",
        "Spades   5:KS 6:10S",
        "Clubs    7:AC 8:3C",
        "Diamonds 9:5D",
    ]
    for number, card in enumerate(order, 1):
        assert f"{number}:{card}" in text
    assert parse_selection("1 5", order) == (Card("BJ"), Card("KS"))


def test_a_long_hand_wraps_under_its_label() -> None:
    trump = Trump.parse("2H")
    hand = parse_cards("AS AS KS KS QS QS JS JS 10S 10S 9S 9S 8S 8S 7S 7S 6S 6S")
    lines = _text(render_hand(hand, trump)).splitlines()
    assert len(lines) == 2 and all(len(line) <= 80 for line in lines)
    assert lines[1].startswith(" " * 9) and lines[0].startswith("Spades")
    wrapped = _text(wrap_cards("Seat 1  ", hand * 2, trump)).splitlines()
    assert len(wrapped) > 1 and all(len(line) <= 80 for line in wrapped)


def test_finding_friends_screen_shows_calls_and_everyones_points() -> None:
    match = _to_play("finding-friends", seed=1, tricks=3)
    view = match.view(0)
    text = _text(render_view(view, _seating(6), round_number=1, label="finding-friends"))
    assert all(len(line) <= 80 for line in text.splitlines()), text
    assert "Friends called: 1st" in text
    assert "Levels: You 2 · Seat 1 2" in text
    assert "Points: You " in text
    last = _text(render_last_trick(view, _seating(6)))
    assert "Trick 3:" in last and "◀ won" in last


def test_round_result_rendering() -> None:
    rules = preset("tractor")
    match = Match(rules, seed=5)
    players = [make_player("heuristic", seed=s) for s in range(4)]
    while not match.results:
        seat = match.to_move
        assert seat is not None
        match.apply(players[seat].act(match.view(seat), match.legal(seat)))
    result = match.results[0]
    text = _text(render_result(result, _seating(4), round_number=1, rules_players=4,
                               trump=None))
    assert all(len(line) <= 80 for line in text.splitlines()), text
    assert "Round 1 over" in text and "Kitty:" in text and "Next dealer:" in text
    assert f"took {result.points}" in text or f"with {result.points} points" in text


# -- the real program in a pseudo-terminal -----------------------------------------------------

TIMEOUT = 30


def _interactive() -> None:
    """In the child, before it starts: Ctrl-C interrupts, as at a terminal. A test run
    started in the background (a shell's ``&``) ignores SIGINT, and a child inherits that;
    Python then keeps it ignored, and a Ctrl-C sent to the game would do nothing."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _spawn(args: list[str], cwd: Path) -> pexpect.spawn:
    env = dict(os.environ, NO_COLOR="1", TERM="dumb", COLUMNS="80", LINES="24")
    child = pexpect.spawn(sys.executable, ["-m", "shengji", *args], cwd=str(cwd), env=env,
                          encoding="utf-8", dimensions=(24, 80), timeout=TIMEOUT,
                          preexec_fn=_interactive)
    child.logfile_read = io.StringIO()  # the whole transcript, for checks and failures
    child.delaybeforesend = None
    return child


def _bidding_seed() -> int:
    """A seed where seat 0 is offered a bid during the deal and, taking the first offer and
    passing afterwards, wins it and takes the kitty (found the way the session plays)."""
    rules = preset("tractor")
    for seed in range(1, 60):
        match = Match(rules, seed=seed)
        bots: list[Player] = [make_player("heuristic", seed=seed + s) for s in range(4)]
        bid = False
        while match.round.phase == Phase.DEAL:
            options = [a for a in match.legal(0) if isinstance(a, Bid)]
            if options and not bid:
                match.apply(options[0])
                bid = True
                continue
            drawer = match.round.drawer
            match.apply(Draw(0) if drawer == 0 else bots[drawer].act(
                match.view(drawer), match.legal(drawer)))
        while match.round.phase == Phase.BID:
            seat = match.to_move
            assert seat is not None
            match.apply(Pass(0) if seat == 0 else bots[seat].act(match.view(seat),
                                                                  match.legal(seat)))
        if bid and match.round.kitty_owner == 0:
            return seed
    raise AssertionError("no seed gives seat 0 a winning bid")


SUGGESTION = r"Suggestion \([^)]*\): [\s\S]*?\(type ([^)]*?)(?:\s+or\s+([^)]*))?\)"
"""A suggestion: what is shown, then what to type (numbers, or notation)."""


def _suggestion(child: pexpect.spawn, *, notation: bool = False) -> str:
    """Ask for a hint; the card numbers it says to type (or the cards in notation)."""
    child.sendline("?")
    child.expect(SUGGESTION)
    return " ".join(str(child.match.group(2 if notation else 1)).split())


PLAY_PROMPTS = [PROMPTS["deal"], PROMPTS["bury"], PROMPTS["lead"], PROMPTS["follow"],
                PROMPTS["next"], PROMPTS["call"], PROMPTS["show"]]


def _play_until(child: pexpect.spawn, stop: str, *, decisions: int = 1000) -> None:
    """Answer every prompt with the suggestion (no bids) until prompt ``stop`` appears."""
    for _ in range(decisions):
        index = child.expect([re.escape(p) for p in PLAY_PROMPTS])
        prompt = PLAY_PROMPTS[index]
        if prompt == stop:
            return
        if prompt == PROMPTS["deal"]:
            child.sendline("")
        elif prompt == PROMPTS["show"]:
            child.sendline("n")
        elif prompt == PROMPTS["next"]:
            child.sendline("")
        else:
            cards = _suggestion(child)
            child.expect_exact(prompt)
            child.sendline(cards)
    raise AssertionError(f"{stop!r} never came")


def _play_one_round(child: pexpect.spawn) -> None:
    """Play a ``--rounds 1`` game to its end: no bids, the suggestion at every other prompt."""
    prompts = [*PLAY_PROMPTS, PROMPTS["bid"], PROMPTS["end"]]
    for _ in range(1000):
        index = child.expect_exact([*prompts, "The match stopped after 1 round."])
        if index == len(prompts):
            return
        prompt = prompts[index]
        if prompt == PROMPTS["deal"] and "You can bid (" in child.before:
            child.sendline("f")  # no more bid offers this deal
        elif prompt in (PROMPTS["deal"], PROMPTS["next"], PROMPTS["bid"], PROMPTS["end"]):
            child.sendline("")
        elif prompt == PROMPTS["show"]:
            child.sendline("n")
        else:
            cards = _suggestion(child)
            child.expect_exact(prompt)
            child.sendline(cards)
    raise AssertionError("the round never ended")


@pytest.mark.slow
def test_bid_bury_illegal_lead_hint_and_quit(tmp_path: Path) -> None:
    seed = _bidding_seed()  # (found with heuristic players: the search player's learned
    # base bids at its first chance in tractor's first round, and may deal before seat 0)
    child = _spawn(["play", "--seed", str(seed), "--fast", "--players", "heuristic"],
                   tmp_path)
    child.expect_exact(f"New game: tractor, seed {seed}. Recording to shengji-game.toml.")
    child.expect_exact("You can bid (")
    child.expect_exact("  1) ")
    child.expect_exact("Enter: no bid, keep drawing · f: no more bid offers this deal")
    child.expect_exact(PROMPTS["deal"])
    child.sendline("1")
    child.expect(r"You bid (\S+)")
    while child.expect_exact([PROMPTS["bid"], PROMPTS["bury"]]) == 0:
        child.sendline("")  # no more bids: keep drawing, then pass
    screen = child.before  # the screen before the bury prompt
    assert "Your hand (33 cards):" in screen and "You took the kitty:" in screen
    assert "Bury 8 cards" in screen and "Trumps " in screen
    child.sendline("1 2")
    child.expect_exact("Not allowed: bury exactly 8 cards (you gave 2)")
    child.expect_exact(PROMPTS["bury"])
    child.sendline("ZZ")
    child.expect_exact("cannot read card 'ZZ'")
    cards = _suggestion(child)
    child.expect_exact(PROMPTS["bury"])
    child.sendline(cards)
    child.expect_exact("You bury ")
    child.expect_exact("Trick 1: You lead.")
    child.expect(r"Your hand \(25 cards\):")
    child.expect_exact(PROMPTS["lead"])
    child.sendline("1 25")  # a trump and a plain card cannot be led together
    child.expect_exact("Not allowed: a lead must be all of one suit:")
    child.expect_exact(PROMPTS["lead"])
    child.sendline("?")
    child.expect_exact("Rules: lead a single card, a pair (or longer tuple) or a tractor.")
    child.expect(SUGGESTION)
    lead = " ".join(child.match.group(2).split())   # the cards in notation
    child.expect_exact(PROMPTS["lead"])
    child.sendline(lead.lower())
    child.expect_exact("You: ")
    child.expect_exact("trick 1 (")
    child.expect_exact([PROMPTS["lead"], PROMPTS["follow"]])
    child.sendline("last")
    child.expect(r"Trick 1: .* won it")
    child.sendline("qui\t")  # tab-completes to quit
    child.expect_exact("Game saved to shengji-game.toml.")
    child.expect_exact("Resume with: shengji play --resume shengji-game.toml")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    match = replay(load_record(tmp_path / "shengji-game.toml"))
    assert match.round.phase == Phase.PLAY and len(match.round.tricks) == 1
    assert any(str(a).startswith("0 bid ") for a in match.history)


@pytest.mark.slow
def test_quit_with_ctrl_c_then_resume_and_finish_the_round(tmp_path: Path) -> None:
    child = _spawn(["play", "--seed", "3", "--fast", "--players", "heuristic"], tmp_path)
    for _ in range(3):
        _play_until(child, PROMPTS["follow"])
        cards = _suggestion(child)
        child.expect_exact(PROMPTS["follow"])
        child.sendline(cards)
    _play_until(child, PROMPTS["follow"])
    child.sendintr()
    child.expect_exact("Resume with: shengji play --resume shengji-game.toml")
    child.expect(pexpect.EOF)
    saved = replay(load_record(tmp_path / "shengji-game.toml"))
    hand = len(saved.view(0).hand)
    assert saved.round.phase == Phase.PLAY and saved.to_move == 0

    child = _spawn(["play", "--resume", "shengji-game.toml", "--fast"], tmp_path)
    child.expect_exact(f"Resuming shengji-game.toml: round 1, {len(saved.history)} actions")
    child.expect_exact(f"Your hand ({hand} cards):")
    _play_until(child, PROMPTS["next"])
    text = child.before
    assert "Round 1 over" in text and "Next dealer:" in text and "Kitty:" in text
    assert text.count("Opponents' total:") == 1          # one score sheet, in one style
    assert "(opponents) takes" not in text and "Trump 2" not in text.split("over")[-1]
    child.sendeof()  # Ctrl-D also saves and stops
    child.expect_exact("Resume with: shengji play --resume shengji-game.toml")
    child.expect(pexpect.EOF)
    finished = replay(load_record(tmp_path / "shengji-game.toml"))
    assert len(finished.results) == 1
    assert finished.history[:len(saved.history)] == saved.history


@pytest.mark.slow
def test_shengji_alone_plays_and_ends_a_short_match(tmp_path: Path) -> None:
    child = _spawn(["--seed", "5", "--fast", "--rounds", "1", "--ascii", "--players",
                    "heuristic"], tmp_path)
    child.expect_exact("New game: tractor, seed 5.")
    _play_one_round(child)
    child.expect_exact("Step through it with: shengji replay shengji-game.toml")
    child.expect(pexpect.EOF)
    transcript = child.logfile_read.getvalue()
    assert "Round 1 over" in transcript and "Trumps " in transcript
    assert transcript.count("You can bid (") <= 1
    assert not set("♠♥♦♣") & set(transcript)
    wide = [line for line in transcript.splitlines() if len(line) > 80]
    assert not wide, wide[:3]  # every screen fits an 80-column terminal

    replayer = _spawn(["replay", "shengji-game.toml"], tmp_path)
    replayer.expect_exact("Round 1 · dealer")
    steps = 0
    while replayer.expect([r"Trick 1, won by", re.escape("replay> ")]) == 1:
        steps += 1
        replayer.sendline("")
    assert steps >= 2  # the deal, the bidding, the kitty ... each a step
    replayer.expect_exact("replay> ")
    replayer.sendline("q")
    replayer.expect(pexpect.EOF)
    replayer.close()
    assert replayer.exitstatus == 0


def _hand_lines(transcript: str, name: str) -> list[str]:
    """The lines of ``transcript`` that show ``name``'s hand (not a trick: those indent)."""
    return [line for line in transcript.splitlines() if line.startswith(f"{name}  ")]


@pytest.mark.slow
@pytest.mark.parametrize("options", [
    'rainbow = 2\nrainbow_throws = true\n',
    'bid_reinforce_after_bury = true\nkitty_overbid = true\n',
    'partnership = "fluid"\nplayers = 7\nkitty = 9\nremoved_ranks = ["2"]\n',
])
def test_the_house_rules_play_in_the_terminal(options: str, tmp_path: Path) -> None:
    (tmp_path / "house.toml").write_text('preset = "tractor"\n' + options, encoding="utf-8")
    child = _spawn(["--rules", "house.toml", "--seed", "2", "--fast", "--rounds", "1",
                    "--ascii", "--players", "heuristic"], tmp_path)
    _play_one_round(child)
    child.expect(pexpect.EOF)
    transcript = child.logfile_read.getvalue()
    assert "Round 1 over" in transcript and "Traceback" not in transcript
    if "removed_ranks" in options:
        assert " 2C" not in transcript and " 2S" not in transcript


@pytest.mark.slow
def test_replay_of_an_unfinished_game_shows_only_the_persons_view(tmp_path: Path) -> None:
    match = _to_play("tractor", seed=3, tricks=1)
    kinds = ["heuristic", "human", "heuristic", "heuristic"]
    save_record(match, tmp_path / "game.toml", kinds=kinds)
    child = _spawn(["replay", "game.toml", "--all", "--ascii"], tmp_path)
    child.expect_exact("an unfinished game (as Seat 1 saw it)")
    child.expect_exact("Seat 1's hand at the first lead:")
    child.expect_exact("Trick 1, won by")
    child.expect_exact("(unfinished)")
    child.expect_exact("Continue it with: shengji play --resume game.toml")
    child.expect(pexpect.EOF)
    transcript = child.logfile_read.getvalue()
    assert "seed" not in transcript                    # the seed would deal every hand again
    assert _hand_lines(transcript, "Seat 1")
    for seat in (0, 2, 3):
        assert not _hand_lines(transcript, f"Seat {seat}"), seat
    owner = match.round.kitty_owner
    assert owner is not None and owner != 1
    assert f"Seat {owner}: bury 8 cards" in transcript       # not which cards
    buried = " ".join(str(c) for c in match.round.kitty)
    assert buried not in transcript


def test_whose_view_a_record_replays_from() -> None:
    match = _to_play("tractor", seed=3, tricks=1)
    assert viewer_of(read_record(write_record(match, kinds=["bot", "bot", "human", "bot"]))) == 2
    assert viewer_of(read_record(write_record(match))) == -1     # nobody named: public only
    finished = Match(preset("da-bai-fen"), seed=2, max_rounds=1)
    _until(finished, lambda m: m.is_over)
    assert viewer_of(read_record(write_record(finished, kinds=["human", *["bot"] * 3]))) is None


@pytest.mark.slow
def test_replay_of_a_finished_game_shows_everything(tmp_path: Path) -> None:
    rules = preset("tractor")
    match = Match(rules, seed=4, max_rounds=1)
    players = [make_player("heuristic", seed=s) for s in range(4)]
    while not match.is_over:
        seat = match.to_move
        assert seat is not None
        match.apply(players[seat].act(match.view(seat), match.legal(seat)))
    save_record(match, tmp_path / "game.toml", kinds=["human", *["heuristic"] * 3])
    child = _spawn(["replay", "game.toml", "--all"], tmp_path)
    child.expect_exact("Replay of game.toml: seed 4")
    child.expect_exact("The hands at the first lead:")
    child.expect_exact("The match stopped after 1 round.")
    child.expect(pexpect.EOF)
    transcript = child.logfile_read.getvalue()
    assert all(_hand_lines(transcript, f"Seat {seat}") for seat in range(4))
    assert transcript.count("Round 1 over") == 1
    assert "Opponents' total:" in transcript


@pytest.mark.slow
def test_an_unfinished_game_is_offered_for_resuming(tmp_path: Path) -> None:
    match = _to_play("tractor", seed=3, tricks=1)
    save_record(match, tmp_path / "shengji-game.toml", kinds=["human", *["heuristic"] * 3])
    child = _spawn(["play", "--fast"], tmp_path)
    child.expect_exact("A game in progress is saved in shengji-game.toml (round 1, "
                       f"{len(match.history)} actions).")
    child.expect_exact("Resume it? Enter or y: resume")
    child.expect_exact(PROMPTS["resume"])
    child.sendline("")
    child.expect_exact(f"Resuming shengji-game.toml: round 1, {len(match.history)} actions")
    child.expect_exact([PROMPTS["lead"], PROMPTS["follow"]])
    child.sendline("quit")
    child.expect(pexpect.EOF)
    again = replay(load_record(tmp_path / "shengji-game.toml"))
    assert again.history[:len(match.history)] == match.history


def _unfinished_record(tmp_path: Path) -> Match:
    match = _to_play("tractor", seed=3, tricks=1)
    save_record(match, tmp_path / "shengji-game.toml", kinds=["human", *["heuristic"] * 3])
    return match


@pytest.mark.slow
def test_options_start_the_game_they_ask_for_over_an_unfinished_one(tmp_path: Path) -> None:
    saved = _unfinished_record(tmp_path)
    child = _spawn(["play", "--preset", "da-bai-fen", "--seed", "4", "--fast"], tmp_path)
    child.expect_exact(f"A game in progress is saved in shengji-game.toml (round 1, "
                       f"{len(saved.history)} actions).")
    child.expect_exact("Start the new game you asked for (da-bai-fen, seed 4), overwriting it?")
    child.expect_exact("Enter or y: new game · r: resume the saved game instead · q: quit")
    child.expect_exact(PROMPTS["new"])
    child.sendline("")
    child.expect_exact("New game: da-bai-fen, seed 4. Recording to shengji-game.toml.")
    child.expect_exact(PLAY_PROMPTS)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    record = load_record(tmp_path / "shengji-game.toml")
    assert record.seed == 4 and record.rules == preset("da-bai-fen")
    assert record.kinds == ("human", "search", "search", "search")  # the default opponents


@pytest.mark.slow
def test_resuming_stays_one_keystroke_away(tmp_path: Path) -> None:
    saved = _unfinished_record(tmp_path)
    child = _spawn(["play", "--preset", "da-bai-fen", "--seed", "4", "--fast"], tmp_path)
    child.expect_exact(PROMPTS["new"])
    child.sendline("r")
    child.expect_exact(f"Resuming shengji-game.toml: round 1, {len(saved.history)} actions")
    child.expect_exact([PROMPTS["lead"], PROMPTS["follow"]])
    child.sendline("quit")
    child.expect(pexpect.EOF)
    again = replay(load_record(tmp_path / "shengji-game.toml"))
    assert again.history[:len(saved.history)] == saved.history and again.rules == saved.rules


@pytest.mark.slow
def test_bad_options_are_reported_before_any_question(tmp_path: Path) -> None:
    _unfinished_record(tmp_path)
    before = (tmp_path / "shengji-game.toml").read_bytes()
    child = _spawn(["play", "--seed", "4", "--seat", "9", "--players", "smart"], tmp_path)
    child.expect(pexpect.EOF)
    child.close()
    transcript = child.logfile_read.getvalue()
    assert child.exitstatus == 2
    lines = transcript.splitlines()
    assert len(lines) == 2
    assert lines[0] == "shengji play: --seat must be a seat from 0 to 3, got 9"
    assert lines[1].startswith("shengji play: --players: unknown player 'smart'; choose from ")
    assert (tmp_path / "shengji-game.toml").read_bytes() == before


# -- the session with scripted answers: what to type, hints, friends, text ---------------------

def _bots(match: Match) -> list[Player]:
    return [make_player("heuristic", seed=match.seed + s) for s in range(match.rules.players)]


def _until(match: Match, stop: Callable[[Match], bool], quiet: int | None = None) -> None:
    """Heuristic players play until ``stop``; seat ``quiet`` only draws during the deal."""
    bots = _bots(match)
    while not stop(match):
        rnd = match.round
        seat = rnd.drawer if rnd.phase == Phase.DEAL else match.to_move
        assert seat is not None
        match.apply(Draw(seat) if seat == quiet and rnd.phase == Phase.DEAL else
                    bots[seat].act(match.view(seat), match.legal(seat)))


def _scripted(match: Match, me: int, answers: list[str], tmp_path: Path, *,
              unicode: bool = True) -> tuple[Session, io.StringIO]:
    """A session whose person types ``answers`` one by one (then Ctrl-D)."""
    out = io.StringIO()
    console = Console(file=out, width=80, color_system=None, highlight=False)
    feed = iter(answers)

    def read(prompt: str) -> str:
        out.write(prompt)
        answer = next(feed, None)
        if answer is None:
            raise EOFError
        out.write(answer + "\n")
        return answer

    n = match.rules.players
    session = Session(match, me=me, players=[None if s == me else bot for s, bot in
                                             enumerate(_bots(match))],
                      names=["You" if s == me else f"Seat {s}" for s in range(n)],
                      kinds=["human" if s == me else "heuristic" for s in range(n)],
                      record=tmp_path / "game.toml", console=console,
                      prompter=Prompter(read, completion=False), unicode=unicode)
    return session, out


def test_the_words_of_the_hints_are_accepted_at_the_bid_prompt(tmp_path: Path) -> None:
    """The hint writes ``pass`` and ``bid 2D``; both are accepted as typed."""
    match = Match(preset("tractor"), seed=2)
    _until(match, lambda m: m.round.phase == Phase.BID and m.to_move == 0 and any(
        isinstance(a, Bid) for a in m.legal(0)), quiet=0)
    session, out = _scripted(match.copy() if hasattr(match, "copy") else match, 0,
                             ["?", "pass"], tmp_path)
    assert session._decide() == Pass(0)
    text = out.getvalue()
    assert "Rules: a bid shows cards of the trump rank (2 for you)" in text
    assert "You can bid: 1) " in text and "Standing bid: " in text
    bid = next(a for a in match.legal(0) if isinstance(a, Bid))
    typed = "bid " + " ".join(str(c) for c in bid.cards).lower()
    session, out = _scripted(match, 0, [typed], tmp_path)
    assert session._decide() == bid


def test_a_bid_typed_as_the_hint_writes_it_during_the_deal(tmp_path: Path) -> None:
    match = Match(preset("tractor"), seed=2)
    _until(match, lambda m: any(isinstance(a, Bid) for a in m.legal(0)), quiet=0)
    bid = next(a for a in match.legal(0) if isinstance(a, Bid))
    session, out = _scripted(match, 0, ["?", "bid " + " ".join(map(str, bid.cards))],
                             tmp_path)
    session._deal_step(match.round)
    assert match.history[-1] == bid
    text = out.getvalue()
    assert "Rules: a bid shows cards of the trump rank" in text and "Nobody has bid yet." in text
    assert "Suggestion (heuristic player): " in text


def test_declare_as_the_hint_writes_it(tmp_path: Path) -> None:
    match = Match(preset("hundred"), seed=1)
    _until(match, lambda m: m.round.phase == Phase.DECLARE)
    dealer = match.to_move
    assert dealer is not None
    session, out = _scripted(match, dealer, ["?", "declare c"], tmp_path)
    action = session._decide()
    assert isinstance(action, Declare) and action.suit == Suit.CLUBS
    text = out.getvalue()
    assert "Rules: you deal and name the trump suit now (type C, D, H, S or NT)." in text
    assert "Your hand: " in text and "Suggestion (heuristic player): declare " in text


def _calling(seed: int = 1, **options: object) -> tuple[Match, int, Card]:
    """A Finding Friends match (5 players) at the friend call, the caller's seat and a
    plain card of which the caller holds both copies."""
    match = Match(preset("finding-friends", players=5, **options), seed=seed)
    _until(match, lambda m: m.round.phase == Phase.CALL)
    caller = match.to_move
    rnd = match.round
    assert caller is not None and rnd.trump is not None
    card = next(c for c in ALL_CARDS[:52] if rnd.hands[caller].counts[c] == 2
                and not rnd.trump.is_trump(c))
    return match, caller, card


def _flat(text: str) -> str:
    """``text`` with the console's line wrapping undone (words joined by single spaces)."""
    return " ".join(text.split())


def test_calling_a_card_the_caller_holds_every_copy_of_warns(tmp_path: Path) -> None:
    match, caller, card = _calling()
    session, out = _scripted(match, caller, ["?", f"call 1st {card}", "n",
                                             f"1st {card}", "y"], tmp_path, unicode=False)
    action = session._decide()
    assert action == Call(caller, (FriendCall(1, card=card),))
    text = _flat(out.getvalue())
    assert "Rules: call 1 friend card (type e.g. 1st AH): whoever plays the called card " \
           "joins your side" in text
    assert f"Careful: you hold every {card}. Nobody else can be the friend of 1st {card}: " \
           "you would play alone." in text
    assert text.count(PROMPTS["confirm"].strip()) == 2    # n: asked again; y: made
    session._apply(action)
    mine = _text(render_view(match.view(caller), _seating(5, caller, False), round_number=1))
    assert f"Friends called: 1st {card} (no friend) · you play alone (you hold every " \
           f"{card})" in _flat(mine)
    for other in (s for s in range(5) if s != caller):    # the others do not know
        theirs = _text(render_view(match.view(other), _seating(5, other, False),
                                   round_number=1))
        assert f"Friends called: 1st {card} · revealed: none yet" in theirs
        assert "no friend" not in theirs and "alone" not in theirs


def test_calling_a_card_the_caller_holds_every_copy_of_is_refused(tmp_path: Path) -> None:
    match, caller, card = _calling(friend_call_all_held="refused")
    other = next(c for c in ALL_CARDS[:52] if not match.round.hands[caller].counts[c]
                 and match.round.trump is not None and not match.round.trump.is_trump(c))
    session, out = _scripted(match, caller, ["?", f"1st {card}", f"1st {other}"], tmp_path,
                             unicode=False)
    assert session._decide() == Call(caller, (FriendCall(1, card=other),))
    text = _flat(out.getvalue())
    assert (f"Not allowed: you hold every {card}, so nobody else can be the friend of the "
            f"1st {card}: call a card another player can play") in text
    assert "refused under these rules" in text


def test_a_failed_throw_is_said_once_with_suit_symbols(tmp_path: Path) -> None:
    rules = Rules(kitty=100)
    match = Match(rules, seed=0)
    rnd = stacked(rules, ["KS QS", "AS 3C", "4D 5D", "6D 7D"], kitty="9S", dealer=0,
                  levels=(9, 5, 9, 5))
    deal(rnd)
    pass_round(rnd)
    rest = rnd.hands[0].copy()
    rest.remove(parse_cards("KS QS"))
    rnd.apply(Bury(0, tuple(rest.cards())))
    match.round = rnd
    session, out = _scripted(match, 0, [], tmp_path)
    session._apply(Play(0, parse_cards("KS QS")))
    line = out.getvalue()
    assert line.count("throw failed") == 1, line
    assert "Q♠" in line and "QS" not in line


def test_round_start_says_who_deals_when_the_bidding_decides(tmp_path: Path) -> None:
    ff = Match(preset("finding-friends", players=5), seed=1)
    session, out = _scripted(ff, 0, [], tmp_path)
    session._round_start(ff.round)
    assert "Round 1: dealing (dealer: the winning bidder)." in out.getvalue()
    header = _text(render_view(ff.view(0), _seating(5), round_number=1))
    assert "Trump not settled (rank 2) · dealer: the winning bidder" in header
    tractor = Match(preset("tractor"), seed=1)
    session, out = _scripted(tractor, 0, [], tmp_path)
    session._round_start(tractor.round)
    assert "(dealer: the first bidder)." in out.getvalue()


def test_small_texts() -> None:
    assert number_ranges([13]) == "13"
    assert number_ranges([17, 12, 13, 15, 16]) == "12 13 15-17"
    assert symbols("you hold 1 pair in diamonds (JD JD) and 10S, BJ") == (
        "you hold 1 pair in diamonds (J♦ J♦) and 10♠, BJ")
    assert symbols("JD", unicode=False) == "JD"
    assert strip_verb("bid 2d 2d", "bid") == "2d 2d" and strip_verb("bid", "bid") == "bid"
    assert strip_verb("Declare C", "declare") == "C"


def test_help_rules_prints_how_to_play(tmp_path: Path) -> None:
    """``help rules`` at any prompt prints the rules primer (``docs/how-to-play.md``), then the
    prompt asks again; ``help`` names it."""
    match = Match(preset("tractor"), seed=1)
    session, out = _scripted(match, 0, [], tmp_path)
    assert session._command("help", match.legal(0)) and "help rules" in out.getvalue()
    assert session._command("help  rules", match.legal(0))
    text = out.getvalue()
    for words in ("How to play Sheng Ji", "The goal: climb from 2 to A", "Finding Friends",
                  "Da Bai Fen", "The Hundred", "BJ > SJ > 2♥"):
        assert words in text
    assert ".md" not in text  # the page's links to other pages are words here


@pytest.mark.slow
def test_play_says_when_no_model_fits_the_opponents(tmp_path: Path) -> None:
    """Learned opponents in tractor for six with two decks (no model fits): the game says so
    as it starts, and plays on (here until the end of input, a quit)."""
    done = subprocess.run([sys.executable, "-m", "shengji", "play", "--preset", "tractor",
                           "--table", "6", "--players", "learned",
                           "--record", str(tmp_path / "g.toml")],
                          input="", capture_output=True, text=True, timeout=120,
                          env={**os.environ, "COLUMNS": "200"})
    assert done.returncode == 0, done.stderr
    assert ("Note: no learned model fits these rules (6 players, 2 decks): learned plays as "
            "the heuristic.") in done.stdout
