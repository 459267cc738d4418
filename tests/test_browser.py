"""Browser tests: real `shengji serve` processes driven through the browser client by headless
Chromium (Playwright with Debian's `chromium`; `playwright install` cannot download here).

Players act only by clicking the UI: bid buttons, Suggest then Play / Bury / Call, the score
sheet's Next round. Screenshots of every phase (at the player's size) and of the main pages at
desktop (1280x800) and phone (375x812) width go to `test-artifacts/browser/`. Select these
tests with `-m browser` (or skip them with `-m "not browser"`).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.browser

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts" / "browser"
SIZES = {"desktop": (1280, 800), "phone": (375, 812)}
CARD_NOTATION = re.compile(r"\b(?:10|[2-9JQKA])[CDHS]\b")
"""A card in the record notation ("KC"): the page shows cards with suit symbols ("K♣")."""
SEAT_NUMBER = re.compile(r"\bseat \d", re.IGNORECASE)
"""A seat by its number: messages name the players."""
ROUND_TIMEOUT = 90.0
"""Seconds one round may take before the test gives up."""
FRIENDS_SEED = 152
"""The paced server's seed: in the Finding Friends test's first round (five players, one
deck) the two people hold every 2 dealt, so a person makes the trump, deals and calls
(checked by :func:`people_hold_every_trump_rank_card`)."""


def _chromium() -> str | None:
    for candidate in (os.environ.get("SHENGJI_CHROMIUM"), "/usr/bin/chromium",
                      shutil.which("chromium"), shutil.which("chromium-browser")):
        if candidate and Path(candidate).is_file():
            return candidate
    return None


CHROMIUM = _chromium()
if CHROMIUM is None:
    pytest.skip("chromium not found (apt-get install chromium, or set SHENGJI_CHROMIUM)",
                allow_module_level=True)


def english_words(text: str, names: tuple[str, ...] = ()) -> list[str]:
    """English words in a text meant to be Chinese, but for links and the players' ``names`` (or
    room codes; card ranks, JSON and NT are not words)."""
    words = re.findall(r"[A-Za-z]*[a-z]{2,}[A-Za-z]*", re.sub(r"\S+://\S+", "", text))
    return [w for w in words if w not in names]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Server:
    """A `shengji serve` subprocess on a free port with its own database."""

    def __init__(self, tmp: Path, *extra: str) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = (tmp / f"serve-{self.port}.log").open("w")
        self.command = [sys.executable, "-m", "shengji", "serve", "--port", str(self.port),
                        "--db", str(tmp / f"rooms-{self.port}.sqlite3"), *extra]
        self.process = self._start()

    def _start(self) -> subprocess.Popen[bytes]:
        process = subprocess.Popen(self.command, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(f"{self.url}/api/presets", timeout=2) as reply:
                    json.load(reply)
                return process
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    process.kill()
                    self.log.close()
                    raise RuntimeError("shengji serve did not start") from None
                time.sleep(0.1)

    def kill_and_restart(self) -> None:
        """SIGKILL the server and start it again on the same port and database."""
        self.process.kill()
        self.process.wait()
        self.process = self._start()

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()


@pytest.fixture(scope="module")
def paced_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server that deals at a pace, so that people can bid during the deal."""
    srv = Server(tmp_path_factory.mktemp("serve"), "--deal-pace", "0.02", "--bot-delay", "0",
                 "--seed", str(FRIENDS_SEED))
    yield srv
    srv.stop()


class Player:
    """One browser context (one person) and what the test saw it do."""

    def __init__(self, browser: Any, base: str, name: str, size: str = "desktop",
                 locale: str = "en-US", viewport: tuple[int, int] | None = None,
                 touch: bool = False) -> None:
        self.viewport = viewport or SIZES[size]
        width, height = self.viewport
        self.context = browser.new_context(viewport={"width": width, "height": height},
                                           locale=locale, has_touch=touch)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.base = base
        self.name = name
        self.size = size
        self.bid_rounds: set[str] = set()
        self.greedy = False
        """Bid the largest bid whenever one is offered (else: bid once a round)."""
        self.kinds: set[str] = set()

    def info(self) -> dict[str, Any]:
        """The client's state as it exposes it on <body> (phase, kind, version...)."""
        info: dict[str, Any] = self.page.evaluate("""() => ({
            ...document.body.dataset,
            sheet: !!document.querySelector('#next-round-btn'),
            over: !!document.querySelector('#match-over'),
        })""")
        return info

    def wait_change(self, version: str, timeout: float = 15000) -> None:
        self.page.wait_for_function("v => document.body.dataset.version !== v", arg=version,
                                    timeout=timeout)

    def join(self, code: str, seat: int) -> None:
        """Open the room's link, type a name, take a seat."""
        self.page.goto(f"{self.base}/r/{code}")
        self.page.fill("#name", self.name)
        self.page.click("#join-room")
        self.page.click(f".sit[data-seat='{seat}']")
        self.page.wait_for_selector(f".seat-row.mine[data-seat='{seat}']")


def screenshot(page: Any, name: str, full_page: bool = True) -> None:
    """Save a screenshot of the page as ``test-artifacts/browser/NAME.jpg`` (JPEG: chromium
    encodes a full page as PNG with several times the CPU, and a test's shots then cost a
    fifth of its time)."""
    page.screenshot(path=str(ARTIFACTS / f"{name}.jpg"), type="jpeg", quality=85,
                    full_page=full_page)


def shoot(player: Player, name: str) -> None:
    """Save a screenshot of the page at desktop and at phone width."""
    page = player.page
    own = player.viewport
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        screenshot(page, f"{name}-{size}")
    page.set_viewport_size({"width": own[0], "height": own[1]})


def create_room(host: Player, preset: str = "tractor", table: int | None = None,
                unchecked: tuple[str, ...] = (), filled: dict[str, str] | None = None,
                checked: tuple[str, ...] = ()) -> str:
    """Create a room from the home page's form (`unchecked` and `checked`: option checkboxes
    to clear and to tick, as `name=value`; `filled`: option fields to type in, by option
    name); returns the room code."""
    page = host.page
    page.goto(host.base + "/")
    page.fill("#name", host.name)
    page.select_option("#preset", preset)
    if table is not None:
        page.select_option("#table", str(table))
    if unchecked or checked or filled:
        page.click(".rules-form summary")
        for box in unchecked:
            name, value = box.split("=")
            page.uncheck(f"input[name='{name}'][value='{value}']")
        for box in checked:
            name, value = box.split("=")
            page.check(f"input[name='{name}'][value='{value}']")
        for name, value in (filled or {}).items():
            page.fill(f"#opt-{name}", value)
            page.press(f"#opt-{name}", "Tab")
    page.wait_for_selector("#rules-status:has-text('valid')")
    page.click("#create-room")
    page.wait_for_url("**/r/*")
    code: str = page.url.rsplit("/", 1)[1]
    page.click(".sit[data-seat='0']")
    page.wait_for_selector(".seat-row.mine[data-seat='0']")
    return code


def act(player: Player, info: dict[str, Any], shots: set[str], prefix: str) -> bool:
    """Make this player's move through the UI if it has one; True if it acted."""
    page = player.page
    kind = info.get("kind", "")
    version = info["version"]
    if info["sheet"] or info["over"]:
        return False
    if not kind:
        return False
    player.kinds.add(kind)
    round_key = info.get("results", "0")
    if kind in ("deal", "bid"):
        bids: list[str] = page.eval_on_selector_all(
            ".bid-option", "els => els.map((e) => e.dataset.action)")
        if bids and (player.greedy or round_key not in player.bid_rounds):
            player.bid_rounds.add(round_key)
            snap(player, shots, f"{prefix}-bid")
            target = f".bid-option[data-action='{max(bids, key=lambda b: len(b.split()))}']"
        elif page.locator("#pass-btn").count():
            snap(player, shots, f"{prefix}-bid")
            target = "#pass-btn"
        else:
            return False
        try:  # during a paced deal the offer may be gone (outbid, or the deal ended) meanwhile
            page.click(target, timeout=2000)
            player.wait_change(version, 5000)
        except sync_api.TimeoutError:
            return False
        return True
    elif kind == "declare":
        snap(player, shots, f"{prefix}-declare")
        page.locator(".declare-option").first.click()
    elif kind == "expose":
        # Show one card (checked by the server) the first time, nothing afterwards.
        if "exposed" not in player.kinds:
            player.kinds.add("exposed")
            page.click("#hand .card-btn >> nth=0")
            page.wait_for_selector("#expose-btn:not([disabled])", timeout=15000)
            snap(player, shots, f"{prefix}-expose")
            page.click("#expose-btn")
        else:
            page.click("#expose-none-btn")
    elif kind == "show":
        page.locator(".pass-option").first.click()
    else:
        button = {"bury": "#bury-btn", "call": "#call-btn"}.get(kind, "#play-btn")
        page.click("#suggest-btn")
        page.wait_for_selector(f"{button}:not([disabled])", timeout=15000)
        snap(player, shots, f"{prefix}-{'play' if kind in ('lead', 'follow') else kind}")
        page.click(button)
    player.wait_change(version)
    return True


def snap(player: Player, shots: set[str], name: str) -> None:
    """The first screenshot of a phase (``name``), at the player's own size (``shoot`` takes
    the pages worth seeing at both)."""
    if name not in shots:
        shots.add(name)
        screenshot(player.page, f"{name}-{player.size}")


def play_round(players: list[Player], shots: set[str], prefix: str,
               during: Any = None) -> None:
    """Drive every player through the UI until each has the round's score sheet on screen."""
    start = {p.name: int(p.info().get("results", "0")) for p in players}
    deadline = time.monotonic() + ROUND_TIMEOUT
    while time.monotonic() < deadline:
        infos = [(p, p.info()) for p in players]
        if all(int(i.get("results", "0")) > start[p.name] and (i["sheet"] or i["over"])
               for p, i in infos):
            return
        acted = False
        for player in players:
            info = player.info()  # as it is now: the players before may have moved
            if during is not None:
                during(player, info)
                info = player.info()  # the hook may have changed the page (reload, restart)
            acted = act(player, info, shots, prefix) or acted
        if not acted:
            time.sleep(0.05)
    raise AssertionError(f"the round did not finish in {ROUND_TIMEOUT} s: "
                         + "; ".join(f"{p.name}: {p.info()}" for p in players))


def check_illegal(player: Player, info: dict[str, Any],
                  chinese: tuple[str, ...] | None = None) -> bool:
    """On a follow turn, select as many cards as were led from one end of the hand, then from
    the other; when that is illegal the engine's reason shows and Play stays disabled (False:
    both were legal).
    ``chinese``: the page is in Chinese, and the reason and the prompt must hold no English
    words but these names."""
    page = player.page
    if info.get("kind") != "follow":
        return False
    led = int(page.evaluate("""() => Math.max(0, ...[...document.querySelectorAll(
        '.seat-play:not(.done)')].map((el) => el.querySelectorAll('.card').length))"""))
    cards = page.locator("#hand .card-btn")
    count = cards.count()
    if not 0 < led < count:
        return False
    reason = ""
    # the cards at one end of the hand, then the other, then the middle (a seat not void
    # in the led suit is refused one of them almost always)
    for first in dict.fromkeys((count - led, 0, (count - led) // 2)):
        # The first card by keyboard (focus, Space), the others by mouse.
        cards.nth(first).focus()
        page.keyboard.press("Space")
        assert cards.nth(first).get_attribute("aria-pressed") == "true"
        for i in range(first + 1, first + led):
            # near the top left corner, which a player sees: on a phone the next card in the
            # row covers the right part, and a click at the centre can land on it
            cards.nth(i).click(position={"x": 6, "y": 8})
        page.wait_for_function("""() => {
            const r = document.querySelector('#reason');
            return r && !/Checking|检查中/.test(r.textContent) && (r.textContent === ''
                || r.classList.contains('refused'));
        }""", timeout=10000)
        reason = page.text_content("#reason") or ""
        if reason.strip():
            break
        page.click("#clear-btn")
    if reason.strip():
        assert page.is_disabled("#play-btn")
        for text in (reason, page.inner_text("#prompt")):
            # cards with suit symbols, players by name, as everywhere on the page
            assert not CARD_NOTATION.search(text) and not SEAT_NUMBER.search(text), text
            if chinese is not None:
                assert not english_words(text, chinese), text
        # The ? helper shows what the rules require (and any forced cards).
        page.click("#help-btn")
        assert page.locator("#help-panel").is_visible()
        summary = re.split(r": |：", page.inner_text("#prompt"), maxsplit=1)[-1]
        assert summary in page.inner_text("#help-panel")
        shoot(player, "illegal-selection")
        page.click("#help-btn")
        page.click("#clear-btn")
    return bool(reason.strip())


def test_four_people_play_a_round_of_tractor(quick_server: Server, chromium: Any) -> None:
    server, browser = quick_server, chromium
    shots: set[str] = set()
    # Bob's browser speaks Chinese: his UI follows navigator.language.
    players = [Player(browser, server.url, name, size, locale) for name, size, locale in
               (("Alice", "desktop", "en-US"), ("Bob", "phone", "zh-CN"),
                ("Chen", "desktop", "en-US"), ("Dana", "phone", "en-US"))]
    host = players[0]
    host.page.goto(server.url + "/")
    host.page.wait_for_selector("#create-room")
    shoot(host, "home")
    # One deck without its 2s, 3s and 4s (9 cards each, levels from 5): the round is a third
    # as long as with the preset's two decks, the table the same.
    code = create_room(host, filled={"decks": "1"},
                       checked=("removed_ranks=2", "removed_ranks=3", "removed_ranks=4"))
    for seat, player in enumerate(players[1:], start=1):
        player.join(code, seat)
    players[1].page.wait_for_selector("#lang-switch:has-text('English')")
    host.page.wait_for_selector("#start:not([disabled])")
    shoot(host, "lobby")
    lobby_zh = players[1].page.inner_text("main").replace(code, "")
    assert not english_words(lobby_zh, tuple(p.name for p in players)), lobby_zh
    shoot(players[1], "lobby-zh")
    host.page.click("#start")
    for player in players:
        player.page.wait_for_selector(".table-page")
    # No trick is over yet: the last trick is not offered.
    host.page.wait_for_selector("#tab-log")
    assert host.page.locator("#last-trick-btn").count() == 0

    state = {"illegal": False, "illegal_zh": False, "reloaded": False, "mid": False,
             "double": False, "named": False}
    names = tuple(p.name for p in players)

    def during(player: Player, info: dict[str, Any]) -> None:
        page = player.page
        if info.get("phase") != "play" or info["sheet"]:
            return
        on_table = int(page.evaluate(
            "() => document.querySelectorAll('.seat-play:not(.done) .card').length"))
        if not state["named"] and player is players[0] and not info.get("kind"):
            # A card picked out of turn: the reason names the player to move, by name.
            page.click("#hand .card-btn >> nth=0", position={"x": 6, "y": 8})
            page.wait_for_selector("#reason.refused")
            reason = page.inner_text("#reason")
            assert not SEAT_NUMBER.search(reason) and any(n in reason for n in names), reason
            page.click("#clear-btn")
            state["named"] = True
        if not state["double"] and player is players[2] and info.get("kind") in (
                "lead", "follow"):
            # A double click on Play plays once: no second play, no error.
            page.click("#suggest-btn")
            page.wait_for_selector("#play-btn:not([disabled])")
            # the suggestion names who made it (nobody: the only legal play)
            assert page.inner_text("#suggested-by") in ("Suggested by Heuristic",
                                                        "Your only legal move")
            hand = page.locator("#hand .card-btn").count()
            chosen = page.locator("#hand .card-btn.selected").count()
            page.dblclick("#play-btn")
            page.wait_for_function(
                "n => document.querySelectorAll('#hand .card-btn').length === n",
                arg=hand - chosen)
            page.wait_for_timeout(400)  # a second play would be refused by now
            assert page.locator("#notice").count() == 0, page.inner_text("#notice")
            assert page.locator("#hand .card-btn").count() == hand - chosen
            state["double"] = True
            return
        zh = player is players[1]  # Bob's refused selection: reason and prompt in Chinese
        if on_table and (not state["illegal"] or (zh and not state["illegal_zh"])):
            refused = check_illegal(player, info, names if zh else None)
            state["illegal"] = state["illegal"] or refused
            state["illegal_zh"] = state["illegal_zh"] or (refused and zh)
        if not state["mid"] and on_table >= 2 and info.get("kind") == "follow" and int(
                info.get("tricks", "0")) >= 4 and player.size == "desktop":
            state["mid"] = True
            page.click("#suggest-btn")
            page.wait_for_selector("#play-btn:not([disabled])")
            shoot(player, "table-mid-round")
            page.click("#last-trick-btn")
            shoot(player, "last-trick")
            page.click("#last-trick-btn")
            shoot(players[1], "table-mid-round-zh")
            table_zh = players[1].page.inner_text("main")
            assert not english_words(table_zh, tuple(p.name for p in players)), table_zh
        if state["illegal"] and not state["reloaded"] and on_table and player is players[1]:
            # A reload in the middle of a trick: the same seat, hand and trick come back.
            hand = page.locator("#hand .card-btn").count()
            plays = page.inner_text(".seat-grid")
            page.reload()
            page.wait_for_selector(".table-page")
            page.wait_for_selector(f"#hand .card-btn >> nth={hand - 1}")
            assert page.locator("#hand .card-btn").count() == hand
            assert page.locator(".seat-panel.me[data-seat='1']").count() == 1
            assert page.inner_text(".seat-grid") == plays
            # play goes to the right: seat 2 plays after seat 1 and sits on its right
            positions = {seat: page.get_attribute(f".seat-panel[data-seat='{seat}']", "data-pos")
                         for seat in range(4)}
            assert positions == {1: "bottom", 2: "right", 3: "top", 0: "left"}, positions
            state["reloaded"] = True

    play_round(players, shots, "tractor", during)
    assert all(state.values()), state
    for player in players:
        assert player.page.locator("#sheet").is_visible()
    sheet = players[0].page.inner_text("#sheet")
    assert "Round 1 over" in sheet and "Next dealer" in sheet
    shoot(players[0], "tractor-sheet")
    shoot(players[1], "tractor-sheet-zh")
    zh_sheet = players[1].page.inner_text("#sheet")
    assert "第 1 局结束" in zh_sheet and "下一局庄家" in zh_sheet
    assert not english_words(zh_sheet, names), zh_sheet  # built from the sheet's numbers
    assert {"tractor-play", "tractor-bury"} <= shots
    assert {"lead", "follow", "bury"} <= set().union(*(p.kinds for p in players))
    # Every person reads the sheet; then the next round is dealt.
    for player in players:
        player.page.click("#next-round-btn")
    players[0].page.wait_for_function("() => document.body.dataset.phase !== 'deal' "
                                      "|| document.body.dataset.kind !== ''", timeout=15000)
    # The score sheet, once closed, opens again from the side panel (and closes).
    page = players[0].page
    page.wait_for_selector("#sheet", state="detached")
    page.click("#sheet-btn")
    assert "Round 1 over" in page.inner_text("#sheet")
    page.click("#close-sheet-btn")
    page.wait_for_selector("#sheet", state="detached")
    for player in players:
        assert not player.errors, player.errors
        player.context.close()


QUICK_BIDDER = """() => {
    const bid = () => {
        const button = document.querySelector('.bid-option');
        const round = document.body.dataset.results;
        if (button && document.body.dataset.phase === 'deal' && window.bidRound !== round) {
            window.bidRound = round;
            button.click();
        }
    };
    new MutationObserver(bid).observe(document.body, {subtree: true, childList: true});
}"""


def people_hold_every_trump_rank_card(rules: dict[str, object], seed: int,
                                      people: tuple[int, ...]) -> bool:
    """Whether the first round of a match of ``rules`` dealt from ``seed`` gives every
    trump-rank card dealt to a seat to one of ``people`` (and at least one to them): only
    people can bid, and the computer players' seats none."""
    from flow_helpers import deal
    from shengji.game.config import rules_from_dict
    from shengji.game.match import Match

    resolved = rules_from_dict(rules)
    rnd = Match(resolved, seed=seed).round
    deal(rnd)
    rank = resolved.start_rank
    held = [sum(1 for card in rnd.hands[seat].cards() if card.rank == rank)
            for seat in range(resolved.players)]
    return sum(held[s] for s in people) > 0 and all(
        not n for s, n in enumerate(held) if s not in people)


def test_friends_seed_deals_the_trump_rank_to_the_people_only() -> None:
    assert people_hold_every_trump_rank_card(
        {"preset": "finding-friends", "players": 5, "decks": 1}, FRIENDS_SEED, (0, 1))


def test_finding_friends_with_computer_players(paced_server: Server, chromium: Any) -> None:
    server, browser = paced_server, chromium
    shots: set[str] = set()
    host = Player(browser, server.url, "Mei", "desktop")
    guest = Player(browser, server.url, "Lars", "phone", "zh-CN")  # reads Chinese
    host.greedy = guest.greedy = True
    # No overbids: the first bid makes the trump and its bidder calls; the server's seed deals
    # the 2s of the first round to the people only, so one of them deals and calls friends.
    # One deck (10 cards each): a round is half as long as with the preset's two.
    code = create_room(host, "finding-friends", 5, unchecked=("fluid_overbid=own-rank",),
                       filled={"decks": "1"})
    for seat in (2, 3, 4):
        host.page.click(f".add-bot[data-seat='{seat}']")
        host.page.wait_for_selector(f".seat-row[data-seat='{seat}'] .remove")
    guest.join(code, 1)
    # The guest reads the rules in force (in Chinese): the one the host changed, and its value.
    guest.page.wait_for_selector("#lobby-rules li[data-option='fluid_overbid']")
    rules = guest.page.inner_text("#lobby-rules")
    assert "找朋友反主" in rules and "找朋友" in rules, rules
    assert not english_words(rules), rules
    # No learned model fits five players: the lobby says so where the players are chosen.
    note = host.page.inner_text("#model-note")
    assert "5 players" in note and "Learned, Search" in note, note
    assert "5 人" in guest.page.inner_text("#model-note")
    # Chat in the lobby reaches the other person; the box is empty again after each line.
    host.page.fill("#chat-input", "hello 你好")
    host.page.press("#chat-input", "Enter")
    guest.page.wait_for_selector(".chat-list li:has-text('hello 你好')")
    assert host.page.input_value("#chat-input") == ""
    host.page.locator("#chat-input").press_sequentially("again")  # typed into the same box
    host.page.press("#chat-input", "Enter")
    guest.page.wait_for_selector(".chat-list li:has-text('Mei: again')")
    assert guest.page.locator(".chat-list li:has-text('你好again')").count() == 0
    for player in (host, guest):
        # A person quick to bid: the moment a bid button appears during the deal, click it.
        player.page.evaluate(QUICK_BIDDER)
    host.page.wait_for_selector("#start:not([disabled])")
    host.page.click("#start")
    seen_calls: list[str] = []

    def during(player: Player, info: dict[str, Any]) -> None:
        if info.get("phase") == "play" and not info["sheet"] and player.page.locator(
                "#calls").count():
            seen_calls.append(player.page.inner_text("#calls"))
            if player is guest:  # the calls, the log, computer players' names: all Chinese
                text = player.page.inner_text("main")
                assert not english_words(text, ("Mei", "Lars")), text

    play_round([host, guest], shots, "friends", during)
    assert "over" in host.page.inner_text("#sheet")
    assert seen_calls, "a friend call was made and shown"
    assert "call" in host.kinds | guest.kinds, "a person called friends"
    assert "friends-call" in shots
    assert not guest.errors, guest.errors
    # Lars leaves for good: the host starts the next round for everyone and gives his seat to
    # a computer player, which plays the round with Mei.
    guest.context.close()
    host.page.click("#next-round-btn")
    host.page.wait_for_selector(".seat-panel[data-seat='1'] .replace")
    host.page.click("#start-all-prompt")
    host.page.click(".seat-panel[data-seat='1'] .replace")
    host.page.wait_for_selector(".seat-panel[data-seat='1'] .badge:has-text('computer')")
    play_round([host], shots, "friends")
    assert not host.errors, host.errors
    host.context.close()


def test_rules_form_seats_spectator_hundred_restart_match_over_and_new_match(
        tmp_path: Path, chromium: Any) -> None:
    browser = chromium
    server = Server(tmp_path, "--deal-pace", "0", "--bot-delay", "0")
    try:
        hundred_match(server, browser)
    finally:
        server.stop()


def hundred_match(server: Server, browser: Any) -> None:
    host = Player(browser, server.url, "Ana", "desktop")
    watcher = Player(browser, server.url, "Wen", "phone")
    page = host.page
    page.goto(server.url + "/")
    page.wait_for_selector("#create-room")
    assert page.evaluate("() => import('/static/i18n.js').then((m) => m.missingKeys())") == {
        "zh": [], "en": []}
    # The engine's English reasons as shown: players by name, cards with suit symbols.
    assert page.evaluate("""() => import('/static/reasons.js').then((m) => [
        m.reasonText({key: 'turn-of', params: {seat: 2, phase: 'play'},
                      text: "it is seat 2's turn (play phase)"}, '', (seat) => `Chen${seat}`),
        m.reasonText({key: 'not-held', params: {cards: '10C KC BJ'},
                      text: 'you do not hold 10C KC BJ'})])""") == [
        "it is Chen2's turn (play phase)", "you do not hold 10♣ K♣ big joker"]
    page.click("#lang-switch")
    page.wait_for_selector("#create-room:has-text('创建房间')")
    shoot(host, "home-zh")
    # The rules form in Chinese: every option, choice and the preset's description in Chinese.
    page.click(".rules-form summary")
    page.wait_for_selector("#opt-decks-label:has-text('副数')")
    assert not english_words(page.inner_text("#create-form")), page.inner_text("#create-form")
    shoot(host, "rules-zh")
    page.fill("#opt-decks", "99")  # a refused value: its range in Chinese
    page.press("#opt-decks", "Tab")
    page.wait_for_selector("#opt-decks-error:has-text('必须在1到8之间')")
    page.fill("#opt-bombs", "1")  # refused with another option's words: the engine's reason
    page.press("#opt-bombs", "Tab")
    page.wait_for_selector("#opt-bombs-error:has-text('一张牌不算炸弹')")
    assert not english_words(page.inner_text("#opt-bombs-error")), page.inner_text(
        "#opt-bombs-error")
    page.fill("#opt-bombs", "")
    page.press("#opt-bombs", "Tab")
    page.fill("#opt-decks", "")
    page.press("#opt-decks", "Tab")
    page.wait_for_selector("#rules-status:has-text('规则有效')")
    page.click(".rules-form summary")
    page.click("#lang-switch")
    page.wait_for_selector("#create-room:has-text('Create room')")
    page.fill("#name", "   ")
    page.click("#create-room")  # a blank name: refused with a message, nothing created
    page.wait_for_selector("#name-error")
    assert page.url.endswith("/")
    page.fill("#name", host.name)
    page.select_option("#preset", "hundred")
    page.click(".rules-form summary")
    # A bad value gets the rules validation's message next to its field; Create is disabled.
    page.fill("#opt-decks", "99")
    page.press("#opt-decks", "Tab")
    page.wait_for_selector("#opt-decks-error")
    assert "decks" in page.inner_text("#opt-decks-error")
    assert page.is_disabled("#create-room")
    shoot(host, "rules-error")
    page.fill("#opt-decks", "")
    page.press("#opt-decks", "Tab")
    # Levels start at A and the declarers always go up (a custom level table: options valid
    # only together): the first round wins the match.
    page.select_option("#opt-start_rank", "A")
    page.select_option("#opt-level_table", "custom")
    page.fill("#opt-custom_levels", "[[0, 1]]")
    page.press("#opt-custom_levels", "Tab")
    page.wait_for_selector("#rules-status:has-text('valid')")
    assert not page.locator("#opt-decks-error").count()
    page.click("#create-room")
    page.wait_for_url("**/r/*")
    code = page.url.rsplit("/", 1)[1]
    page.click(".sit[data-seat='0']")
    # The host seats a computer player, moves it, removes it, then fills the table.
    page.click(".add-bot[data-seat='1']")
    page.wait_for_selector(".seat-row[data-seat='1'] .remove")
    page.select_option("#move-1", "2")
    page.click(".seat-row[data-seat='1'] button:has-text('Move')")
    page.wait_for_selector(".seat-row[data-seat='2'] .remove")
    assert page.locator(".sit[data-seat='1']").count() == 1
    page.click(".seat-row[data-seat='2'] .remove")
    page.wait_for_selector(".sit[data-seat='2']")
    watcher.page.goto(f"{server.url}/r/{code}")
    watcher.page.fill("#name", "ANA")  # taken (names compare case-blind): refused
    watcher.page.click("#join-room")
    refusal = watcher.page.inner_text("#join-name .error")
    assert "another name" in refusal and "token" not in refusal, refusal
    watcher.page.wait_for_selector("#conn-status", state="detached")  # no empty status pill
    watcher.page.fill("#name", watcher.name)
    watcher.page.click("#join-room")
    watcher.page.wait_for_selector("text=You are watching")
    page.wait_for_selector("text=Spectators: 1")
    for seat in (1, 2, 3):
        page.click(f".add-bot[data-seat='{seat}']")
        page.wait_for_selector(f".seat-row[data-seat='{seat}'] .remove")
    # The host picks the player behind the Suggest button; the others see which.
    watcher.page.wait_for_selector("#suggester:has-text('Heuristic')")
    page.select_option("#suggester", "search")
    watcher.page.wait_for_selector("#suggester:has-text('Search')")
    page.fill("#suggest-time", "0.5")  # the search player's thinking time: the host's choice
    page.locator("#suggest-time").blur()
    watcher.page.wait_for_selector("#suggester:has-text('Search, up to 0.5 s')")
    page.select_option("#suggester", "heuristic")
    watcher.page.wait_for_selector("#suggester:has-text('Heuristic')")
    page.click("#start")
    watcher.page.wait_for_selector(".table-page")
    assert watcher.page.locator("#hand").count() == 0
    shots: set[str] = set()
    restarted: list[int] = []

    def during(player: Player, info: dict[str, Any]) -> None:
        # The server is killed mid-round and started again: the browser reconnects by itself
        # and the round goes on from where it was.
        if restarted or info.get("phase") != "play" or int(info.get("tricks", "0")) < 2:
            return
        hand = page.locator("#hand .card-btn").count()
        server.kill_and_restart()
        player.wait_change(info["version"], 20000)  # a state from the new server process
        page.wait_for_selector("#conn-status.open")
        page.wait_for_function("n => document.querySelectorAll('#hand .card-btn').length === n",
                               arg=hand, timeout=10000)
        restarted.append(hand)

    play_round([host], shots, "hundred", during)
    # A computer player dealt no trumps shows its hand for a redeal (the Hundred allows it):
    # that round ends without a score, and the next one is played.
    while not host.info()["over"]:
        assert page.locator("#sheet p:has-text('Redeal')").count(), page.inner_text("#sheet")
        page.click("#next-round-btn")
        page.wait_for_selector("#next-round-btn", state="detached")
        play_round([host], shots, "hundred", during)
    page.wait_for_selector("#match-over")
    shoot(host, "match-over")
    assert "exposed" in host.kinds, "the Hundred's exposing was played through the UI"
    assert restarted, "the server was restarted mid-round"
    watcher.page.wait_for_selector("#match-over")
    # the match-over sheet can be closed (the side panel and chat are reachable again) and
    # opened again from the side panel
    watcher.page.click("#close-sheet-btn")
    watcher.page.wait_for_selector("#sheet", state="detached")
    watcher.page.click("#sheet-btn")
    watcher.page.wait_for_selector("#match-over")
    watcher.page.keyboard.press("Escape")  # Esc closes a sheet that has a close button
    watcher.page.wait_for_selector("#sheet", state="detached")
    record = page.request.get(f"{server.url}/api/rooms/{code}/record")
    assert record.ok and "shengji-record" in record.text()
    assert page.get_attribute("#download-record", "href") == f"/api/rooms/{code}/record"
    page.click("#new-match-btn")
    page.wait_for_selector("#start")
    watcher.page.wait_for_selector(".seats-list")
    # the host sends the spectator away for good: the list empties, the spectator is told
    page.click(".watcher-row button.kick")
    page.wait_for_selector("text=Spectators: 0")
    watcher.page.wait_for_selector("text=The host has sent you away", timeout=10000)
    page.wait_for_timeout(1500)  # the spectator's page does not come back by itself
    assert page.locator(".watcher-row").count() == 0
    # nor does opening the room's link again join by itself: the join form is shown
    watcher.page.goto(f"{server.url}/r/{code}")
    watcher.page.wait_for_selector("#join-room")
    page.wait_for_timeout(1000)
    assert page.locator(".watcher-row").count() == 0
    for player in (host, watcher):
        assert not player.errors, player.errors
        player.context.close()

