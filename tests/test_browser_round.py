"""Browser tests of the end of a round and the table's comforts (with the server and player
helpers of ``test_browser.py``, which tells how Chromium is driven): the last trick and every
trick of the round at its end, the result read from the view, the turn cue (title, beep,
vibration, a remembered mute switch), the points bar against the engine's level table, the
hand's sort orders, the keyboard shortcuts, and a computer playing the seat of a player away.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from shengji.game.config import rules_from_dict
from shengji.server.state import level_table_json
from test_browser import ROUND_TIMEOUT, Player, Server, act, screenshot

pytestmark = pytest.mark.browser

RULES = {"decks": 1, "level_table": "custom", "custom_levels": [[0, 2], [35, 1], [70, 0],
                                                                  [90, -2]]}
"""One deck (12 cards each: a short round) and a level table of its own: the points bar's marks
can only come from the server."""

FAKE_SOUND = """() => {
    window.__beeps = 0;
    window.__buzz = [];
    class FakeContext {
        constructor() { this.state = 'running'; this.currentTime = 0; this.destination = {}; }
        resume() { return Promise.resolve(); }
        createOscillator() {
            return { type: '', frequency: { value: 0 }, connect: (n) => n,
                     start() { window.__beeps += 1; }, stop() {} };
        }
        createGain() {
            return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} },
                     connect: (n) => n };
        }
    }
    window.AudioContext = FakeContext;
    navigator.vibrate = (pattern) => { window.__buzz.push(pattern); return true; };
}"""
"""WebAudio and navigator.vibrate recorded instead of heard and felt."""

TURN_KINDS = ("bid", "declare", "bury", "call", "lead", "follow", "expose", "show")


def open_room(player: Player, rules: dict[str, Any], bots: tuple[int, ...]) -> str:
    """A Tractor room of 4 with ``rules``, the player at seat 0, computer players at ``bots``."""
    page = player.page
    reply = page.request.post(f"{player.base}/api/rooms",
                              data={"preset": "tractor", "table": 4, "rules": rules})
    code: str = reply.json()["room"]
    page.goto(f"{player.base}/r/{code}")
    page.fill("#name", player.name)
    page.click("#join-room")
    page.click(".sit[data-seat='0']")
    page.wait_for_selector(".seat-row.mine[data-seat='0']")
    for seat in bots:
        page.click(f".add-bot[data-seat='{seat}']")
        page.wait_for_selector(f".seat-row[data-seat='{seat}'] .remove")
    return code


def until(player: Player, test: Any, what: str, others: tuple[Player, ...] = ()) -> None:
    """Act for ``player`` (and ``others``) through the UI until ``test(info)`` holds."""
    deadline = time.monotonic() + ROUND_TIMEOUT
    while time.monotonic() < deadline:
        info = player.info()
        if test(info):
            return
        acted = act(player, info, set(), "round")
        for other in others:
            acted = act(other, other.info(), set(), "round") or acted
        if not acted:
            time.sleep(0.05)
    raise AssertionError(f"{what}: not within {ROUND_TIMEOUT} s; {player.info()}")


def my_turn(info: dict[str, Any]) -> bool:
    return info.get("kind", "") in TURN_KINDS and not info["sheet"]


def counts(page: Any) -> dict[str, int]:
    data = page.evaluate("() => ({...document.body.dataset, beeps2: window.__beeps, "
                         "buzz2: window.__buzz.length})")
    return {key: int(data.get(key) or 0) for key in ("cues", "beeps", "buzzes", "beeps2",
                                                     "buzz2")}


def shown_hand(page: Any) -> list[dict[str, Any]]:
    cards: list[dict[str, Any]] = page.eval_on_selector_all("#hand .card-btn", """els =>
        els.map((e) => ({index: Number(e.dataset.index), card: e.dataset.card,
                         suit: e.dataset.suit, selected: e.getAttribute('aria-pressed')}))""")
    return cards


def printed(card: str) -> str:
    return "JOKER" if card in ("BJ", "SJ") else card[-1]


def check_sorts(page: Any) -> None:
    """Every sort order: the engine's groups (trumps first) or the printed suits, each group
    high to low (the engine's order) or low to high."""
    engine = shown_hand(page)
    assert [c["index"] for c in engine] == list(range(len(engine)))
    assert engine[0]["suit"] in ("T", "C", "D", "H", "S")
    for sort in ("trumps_asc", "suits_desc", "suits_asc", "trumps_desc"):
        page.select_option("#sort-hand", sort)
        shown = shown_hand(page)
        key = (lambda c: c["suit"]) if sort.startswith("trumps") else (
            lambda c: printed(c["card"]))
        groups: list[list[int]] = []
        for c in shown:
            if groups and key(engine[groups[-1][0]]) == key(c):
                groups[-1].append(c["index"])
            else:
                groups.append([c["index"]])
        assert len({key(engine[g[0]]) for g in groups}) == len(groups), (sort, shown)
        for g in groups:  # within a group: the engine's order, or its reverse
            assert g == sorted(g, reverse=sort.endswith("asc")), (sort, g)
        if sort.startswith("suits"):
            order = ["JOKER", "S", "H", "C", "D"]
            firsts = [order.index(key(engine[g[0]])) for g in groups]
            assert firsts == sorted(firsts), (sort, shown)
        else:  # the engine's groups in the engine's order
            starts = [min(g) for g in groups]
            assert starts == sorted(starts), (sort, shown)
    page.select_option("#sort-hand", "suits_asc")
    page.reload()
    page.wait_for_selector("#hand .card-btn")
    assert page.input_value("#sort-hand") == "suits_asc"


def check_keys(page: Any) -> None:
    """Rank keys select, Escape clears, ? opens the shortcuts, typing in the chat is left
    alone; S suggests and Enter plays."""
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    shown = shown_hand(page)
    first = shown[0]["card"]
    rank = "0" if first.startswith("10") else first[0].lower() if first not in ("BJ", "SJ") else (
        "b" if first == "BJ" else "x")
    same = [c["index"] for c in shown if c["card"] == first or (
        first not in ("BJ", "SJ") and c["card"][:-1] == first[:-1])]
    page.keyboard.press(rank)
    page.wait_for_selector(f"#card-{same[0]}[aria-pressed='true']")
    for _ in same[1:]:
        page.keyboard.press(rank)
    page.wait_for_function("n => document.querySelectorAll('#hand .selected').length === n",
                           arg=len(same))
    page.keyboard.press(rank)  # all of that rank selected: the key clears them
    page.wait_for_function("() => !document.querySelector('#hand .selected')")
    page.keyboard.press(rank)
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.querySelector('#hand .selected')")
    page.keyboard.press("?")
    page.wait_for_selector("#help-panel #shortcuts")
    assert "Enter: play" in page.inner_text("#help-panel")
    page.keyboard.press("?")
    page.wait_for_selector("#help-panel", state="detached")
    page.click("#tab-chat")
    page.focus("#chat-input")
    page.keyboard.press(rank)  # typing: not a shortcut
    assert page.input_value("#chat-input") == rank
    assert page.locator("#hand .selected").count() == 0
    page.fill("#chat-input", "")
    page.click("#tab-log")
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    hand = page.locator("#hand .card-btn").count()
    page.keyboard.press("s")
    page.wait_for_selector("#play-btn:not([disabled])")
    page.keyboard.press("Enter")
    page.wait_for_function("n => document.querySelectorAll('#hand .card-btn').length < n",
                           arg=hand)


def test_the_end_of_a_round_and_the_comforts_of_the_table(quick_server: Server, chromium: Any
                                                          ) -> None:
    server = quick_server
    ann = Player(chromium, server.url, "Ann", "desktop")
    page = ann.page
    page.add_init_script(f"({FAKE_SOUND})()")
    open_room(ann, RULES, (1, 2, 3))
    page.click("#start")
    page.wait_for_selector(".table-page")
    # The turn cue: the title bar, a beep and a vibration when the table waits for Ann.
    until(ann, my_turn, "Ann's first turn")
    page.wait_for_function("() => document.title === '● Your turn — shengji'")
    first = counts(page)
    assert first["cues"] >= 1 and first["beeps"] >= 1 and first["beeps2"] >= 1
    assert first["buzzes"] >= 1 and first["buzz2"] >= 1
    page.click("#mute-switch")
    assert page.get_attribute("#mute-switch", "aria-pressed") == "true"
    before = counts(page)
    version = ann.info()["version"]
    assert act(ann, ann.info(), set(), "round")
    ann.wait_change(version)
    until(ann, lambda i: my_turn(i) and int(i["version"]) > int(version), "Ann's next turn")
    page.wait_for_function("n => Number(document.body.dataset.cues) > n", arg=before["cues"])
    muted = counts(page)
    assert (muted["beeps"], muted["buzzes"]) == (before["beeps"], before["buzzes"])
    # The points bar: the marks are the server's level table, from the engine.
    rows = level_table_json(rules_from_dict({"preset": "tractor", "players": 4, **RULES}))
    until(ann, lambda i: i.get("phase") == "play" and i.get("kind") in ("lead", "follow"),
          "Ann's first play")
    marks = page.eval_on_selector_all("#points-bar .seg", "els => els.map((e) => "
                                      "Number(e.dataset.points))")
    assert marks == [row["points"] for row in rows["rows"]] == [0, 35, 70, 90]
    assert page.get_attribute("#points-bar .bar", "aria-valuemax") == "100"
    page.reload()  # the mute switch is remembered
    page.wait_for_selector("#mute-switch[aria-pressed='true']")
    page.wait_for_selector("#hand .card-btn")
    check_sorts(page)
    check_keys(page)
    screenshot(page, "round-comforts")
    # Mid-round: the Tricks tab lists every finished trick, the latest first.
    until(ann, lambda i: int(i.get("tricks", "0")) >= 2 and not i["sheet"], "two tricks")
    page.click("#tab-tricks")
    count = int(ann.info()["tricks"])
    page.wait_for_selector(f"#tricks-list .trick-item[data-trick='{count}']")
    assert page.locator("#tricks-list .trick-item").first.get_attribute("data-trick") == str(
        count)
    assert "Ann" in page.inner_text("#tricks-list")
    page.click("#tab-log")
    # The end of the round: the last trick on the table and on the sheet, every trick too.
    until(ann, lambda i: i["sheet"] or i["over"], "the end of the round")
    assert page.evaluate("() => document.body.dataset.phase") == "done"
    tricks = int(ann.info()["tricks"])  # every trick of the round (a throw takes several cards)
    assert tricks >= 2
    assert page.locator(".seat-play.done .card-row").count() == 4
    last = page.locator("#sheet-last-trick .trick-plays li")
    assert last.count() == 4 and "Ann" in page.inner_text("#sheet-last-trick")
    page.click("#sheet-tricks summary")
    assert page.locator("#sheet-tricks-list .trick-item").count() == tricks
    valued = page.get_attribute("#points-bar .bar", "aria-valuenow")
    assert valued is not None and f"{int(valued)}" in page.inner_text("#sheet .total")
    screenshot(page, "round-end-tricks")
    # The top bar stays in reach above the sheet: the language switches there and back.
    english = page.inner_text("#sheet")
    page.click("#lang-switch")
    page.wait_for_function("t => document.querySelector('#sheet').innerText !== t",
                           arg=english)
    assert "局" in page.inner_text("#sheet")
    page.click("#lang-switch")
    page.wait_for_selector("#review-btn:has-text('Review this round')")
    # "Review this round": Ann's own decisions, judged by the server, on the sheet.
    page.click("#review-btn")
    page.wait_for_selector("#review-panel", timeout=60_000)
    summary = page.inner_text("#review-summary")
    found = re.search(r"^Decisions judged: (\d+)\. Inaccuracies: \d+", summary)
    assert found, summary
    page.click("#review-all summary")
    judged = int(found.group(1))
    assert page.locator("#review-all-table tbody tr").count() == judged > 0
    screenshot(page, "round-review")
    assert not ann.errors, ann.errors
    ann.context.close()


SHEET_FROM_VIEW = """async () => {
    const { overlay } = await import('/static/sheet.js');
    const sheet = (points) => ({redeal: false, dealer: 0, declarers: [0, 2], opponents: [1, 3],
        trick_points: points, declarer_points: 0, kitty: [], kitty_points: 0,
        kitty_multiplier: 0, kitty_bonus: 0, penalty_points: 0, red_five_points: 0, points,
        change: null, levels_before: [2, 2, 2, 2], levels: [2, 2, 2, 2], next_dealer: 1,
        declarers_won: true, match_won_by: [], hooked: false, lost_by: null, lines: [],
        trump: null, tricks: [], penalties: [], steps: null, team_bonus: false, wrapped: []});
    const S = {code: 'x', sheetAck: 0, ui: {}, room: {status: 'playing', seats: []},
               state: {view: {seat: 0, result: sheet(55), tricks: []},
                       match: {results: [sheet(15)], waiting: [0], over: false, throws: []}}};
    const fromView = overlay(S, {}).textContent;
    S.state.view.result = null;  // a sheet opened again later: the match's
    const fromMatch = overlay(S, {}).textContent;
    S.review = {type: 'review', round: 1, seat: 0,  // a round without a choice of the seat's
                analysis: {budget: 4, rounds: [{number: 1, decisions: [], redeal: true}]}};
    const none = overlay(S, {}).textContent;
    S.review.analysis.rounds[0] = {number: 1, decisions: [], redeal: false, skipped: 3};
    return [fromView, fromMatch, none, overlay(S, {}).textContent];  // played for the seat
}"""


def test_the_sheet_reads_the_result_from_the_view(quick_server: Server, chromium: Any) -> None:
    server = quick_server
    player = Player(chromium, server.url, "Ann", "desktop")
    player.page.goto(server.url + "/")
    from_view, from_match, reviewed, away = player.page.evaluate(SHEET_FROM_VIEW)
    assert "took 55" in from_view and "took 15" not in from_view
    assert "took 15" in from_match
    # The review is offered between rounds only: a sheet opened again once the next round
    # is in play (the match's, no finished round in the view) has no button.
    assert "Review this round" in from_view
    assert "Review this round" not in from_match
    assert "You had no choice to make in this round" in reviewed
    assert "Decisions judged" not in reviewed
    assert "made for you while you were away (3) are not judged" in away
    assert "You had no choice" not in away
    player.context.close()


def test_a_computer_plays_for_a_player_away_until_they_return(quick_server: Server,
                                                              chromium: Any) -> None:
    server = quick_server
    host = Player(chromium, server.url, "Mei", "desktop")
    guest = Player(chromium, server.url, "Lars", "desktop")
    code = open_room(host, {"decks": 1}, (2, 3))
    guest.join(code, 1)
    # The host sets the grace in the lobby; the guest reads it.
    host.page.fill("#absent-grace", "1")
    host.page.press("#absent-grace", "Tab")
    guest.page.wait_for_selector("#absent-grace:has-text('after 1 s')")
    host.page.click("#start")
    guest.page.wait_for_selector(".table-page")
    guest.page.close()  # Lars goes away (his token stays in the browser)
    host.page.wait_for_selector(".seat-panel[data-seat='1'] .auto-badge", timeout=15000)
    assert "played by the computer" in host.page.inner_text(".seat-panel[data-seat='1']")
    screenshot(host.page, "round-auto-seat")
    until(host, lambda i: int(i.get("tricks", "0")) >= 1, "a trick with Lars's seat played")
    guest.page = guest.context.new_page()  # Lars is back: his seat is his again
    guest.page.goto(f"{server.url}/r/{code}")
    guest.page.wait_for_selector(".table-page")
    guest.page.wait_for_selector(".seat-panel.me[data-seat='1']")
    host.page.wait_for_selector(".seat-panel[data-seat='1'] .auto-badge", state="detached",
                                timeout=15000)
    until(guest, lambda i: i.get("kind") in ("lead", "follow") or i["sheet"],
          "Lars's own turn", (host,))
    assert not host.errors and not guest.errors, (host.errors, guest.errors)
    host.context.close()
    guest.context.close()


def test_a_suggestion_overtaken_by_a_play_is_dropped_quietly(quick_server: Server,
                                                             chromium: Any) -> None:
    """Ann sets the search player's time in the lobby's box (within the server's limits) and
    asks it (3 s to think) for a suggestion, then plays a card of her own meanwhile: the late
    answer (the game moved on) brings no error, and her play went through."""
    ann = Player(chromium, quick_server.url, "Ann", "desktop")
    page = ann.page
    open_room(ann, {"decks": 1}, (1, 2, 3))
    page.select_option("#suggester", "search")
    page.wait_for_selector("#suggest-time")
    # the box offers up to the server's --bot-time (5 s): a time out of its limits is not
    # sent, and the box shows the room's again
    assert page.get_attribute("#suggest-time", "max") == "5"
    for wrong in ("9", "0", "-1"):
        page.fill("#suggest-time", wrong)
        page.press("#suggest-time", "Tab")
        assert page.input_value("#suggest-time") == "1"
    page.fill("#suggest-time", "3")
    page.press("#suggest-time", "Tab")
    page.wait_for_timeout(500)  # the room's answer (a refusal would put back 1 s)
    assert page.input_value("#suggest-time") == "3"
    page.click("#start")
    until(ann, lambda i: i.get("kind") == "lead" and not i["sheet"], "Ann's lead")
    cards = page.locator("#hand .card-btn").count()
    page.click("#suggest-btn")
    page.wait_for_selector("#suggest-btn[disabled]")  # thinking
    page.click("#hand .card-btn >> nth=-1")
    page.click("#play-btn")
    page.wait_for_function("n => document.querySelectorAll('#hand .card-btn').length < n",
                           arg=cards)
    page.wait_for_selector("#suggest-btn:not([disabled])", timeout=10_000)  # answered
    page.wait_for_timeout(300)
    assert page.locator("#notice").count() == 0, page.inner_text("#notice")
    assert not ann.errors, ann.errors
    ann.context.close()
