"""Browser tests of the table on a phone (with the server and player helpers of
``test_browser.py``, which tells how Chromium is driven): at 390x844 on a touch screen the
trick and the hand fit one screen at every table size, with cards wide enough to tap; and the
small things around them (the chat box, error banners, the tabs' colours, the rules in force).
Screenshots go to ``test-artifacts/browser/phone-table-*.jpg``.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from test_browser import (
    CARD_NOTATION,
    ROUND_TIMEOUT,
    Player,
    Server,
    act,
    english_words,
    screenshot,
)

pytestmark = pytest.mark.browser


TALL_PHONE = (390, 844)
"""A phone's screen for the layout checks (a touch screen)."""

FITS = """() => {
    window.scrollTo(0, 0);
    const box = (selector) => document.querySelector(selector).getBoundingClientRect();
    const cards = [...document.querySelectorAll('#hand .card-btn')];
    // what shows of each card: up to the next card of its row (layout offsets: a card lifted
    // by the pointer's hover moves in the picture, not in the layout)
    const shown = cards.map((card, i) => {
        const next = cards[i + 1];
        return next && next.offsetTop === card.offsetTop ? next.offsetLeft - card.offsetLeft
            : card.offsetWidth;
    });
    return {seats: [box('.seats').top, box('.seats').bottom],
            hand: [box('#hand').top, box('#hand').bottom], height: innerHeight,
            shown: Math.min(...shown), cards: cards.length};
}"""

HOVER_OUTSIDE_MEDIA = """() => {
    const bad = [];
    const walk = (rules, hover) => {
        for (const rule of rules) {
            if (rule.conditionText !== undefined) {
                walk(rule.cssRules, hover || /\\(hover:\\s*hover\\)/.test(rule.conditionText));
            } else if ((rule.selectorText ?? '').includes(':hover') && !hover) {
                bad.push(rule.selectorText);
            }
        }
    };
    for (const sheet of document.styleSheets) walk(sheet.cssRules, false);
    return bad;
}"""

SELECTED_TAB_COLOURS = """() => {
    const style = getComputedStyle(document.querySelector('[role=tab][aria-selected=true]'));
    return [style.color, style.backgroundColor];
}"""


def contrast(colours: list[str]) -> float:
    """The WCAG contrast ratio of two opaque CSS colours ("rgb(r, g, b)")."""
    def luminance(colour: str) -> float:
        channels = [int(c) / 255 for c in re.findall(r"\d+", colour)[:3]]
        linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    high, low = sorted((luminance(c) for c in colours), reverse=True)
    return (high + 0.05) / (low + 0.05)


def spam_chat(page: Any) -> None:
    """Send chat lines until the server refuses one (too fast): its error banner shows."""
    for n in range(12):
        page.fill("#chat-input", f"line {n}")
        page.press("#chat-input", "Enter")
        page.wait_for_timeout(100)  # the answer: the line, or the refusal
        if page.locator("#notice").count():
            break
    page.wait_for_selector("#notice")


def test_phone_table_fits_one_screen_at_every_size(quick_server: Server, chromium: Any
                                                   ) -> None:
    """At 390x844 on a touch screen, with computer players filling 6, 8 and 12 seats: the trick
    and the hand on one screen, and every card of the hand at least 24 px wide to tap. With the
    first table: the chat box empties after each line, error banners go (after a few seconds, or
    at the next action), the selected tab stays readable after a tap, and the rules in force
    (one changed by the host) are in the side panel."""
    no_shots = {f"phone-{kind}" for kind in ("bid", "declare", "expose", "play", "bury", "call")}
    for size in (6, 8, 12):
        host = Player(chromium, quick_server.url, "Host", "phone", viewport=TALL_PHONE,
                      touch=True)
        page = host.page
        page.clock.install()  # timers run as usual, and can be fast-forwarded
        rules = {"kitty_revealed": False} if size == 6 else {}
        reply = page.request.post(f"{quick_server.url}/api/rooms",
                                  data={"preset": "tractor-6", "table": size, "rules": rules})
        code = reply.json()["room"]
        page.goto(f"{quick_server.url}/r/{code}")
        page.fill("#name", host.name)
        page.click("#join-room")
        page.click(".sit[data-seat='0']")
        page.wait_for_selector(".seat-row.mine[data-seat='0']")
        if size == 6:
            page.fill("#chat-input", "first")
            page.press("#chat-input", "Enter")
            page.wait_for_selector(".chat-list li:has-text('Host: first')")
            assert page.input_value("#chat-input") == ""
            spam_chat(page)
            page.clock.fast_forward(8000)  # the banner goes by itself
            page.wait_for_selector("#notice", state="detached", timeout=2000)
            spam_chat(page)
        for seat in range(1, size):
            page.click(f".add-bot[data-seat='{seat}']")  # the next action clears the banner
            page.wait_for_selector(f".seat-row[data-seat='{seat}'] .remove")
            assert page.locator("#notice").count() == 0
        page.click("#start")
        page.wait_for_selector(".table-page")
        host.bid_rounds.add("0")  # the host passes: computer players declare
        deadline = time.monotonic() + ROUND_TIMEOUT
        while True:
            assert time.monotonic() < deadline, host.info()
            info = host.info()
            if info.get("phase") == "play" and info.get("kind") in ("lead", "follow"):
                break
            if info["sheet"]:
                page.click("#next-round-btn")
            elif not act(host, info, no_shots, "phone"):
                time.sleep(0.05)
        fits = page.evaluate(FITS)
        seats, hand, height = fits["seats"], fits["hand"], fits["height"]
        assert min(seats[0], hand[0]) >= 0 and max(seats[1], hand[1]) <= height, fits
        assert fits["cards"] > 1 and fits["shown"] >= 24, fits
        screenshot(host.page, f"phone-table-{size}", full_page=False)
        if size == 6:
            if host.info().get("tricks") == "0":
                assert page.locator("#last-trick-btn").count() == 0
            assert page.evaluate(HOVER_OUTSIDE_MEDIA) == []  # no hover left on after a tap
            page.tap("#tab-rules")
            for step in ("tap", "hover"):
                if step == "hover":
                    page.hover("#tab-rules")
                assert contrast(page.evaluate(SELECTED_TAB_COLOURS)) >= 4.5, step
            line = page.inner_text("#panel-rules li[data-option='kitty_revealed']")
            assert "kitty_revealed" in line and ": no" in line, line
            assert "players" in page.inner_text("#rules-preset")
            page.tap("#tab-chat")
            assert contrast(page.evaluate(SELECTED_TAB_COLOURS)) >= 4.5
        assert not host.errors, host.errors
        host.context.close()


REVIEW_ON_PHONE = """async (language) => {
    const { setLang } = await import('/static/i18n.js');
    const { overlay } = await import('/static/sheet.js');
    setLang(language);
    const sheet = {redeal: false, dealer: 0, declarers: [0, 2], opponents: [1, 3],
        trick_points: 55, declarer_points: 0, kitty: [], kitty_points: 0,
        kitty_multiplier: 0, kitty_bonus: 0, penalty_points: 0, red_five_points: 0, points: 55,
        change: null, levels_before: [2, 2, 2, 2], levels: [2, 2, 2, 2], next_dealer: 1,
        declarers_won: true, match_won_by: [], hooked: false, lost_by: null, lines: [],
        trump: null, tricks: [], penalties: [], steps: null, team_bonus: false, wrapped: []};
    // every kind of move, each judged worse than another of its kind: every row shows both
    const moves = [["bid", null, "0 draw", "0 bid 2S 2S"], ["show", null, "0 show", "0 pass"],
        ["bid", null, "0 withdraw", "0 pass"], ["trump", null, "0 declare NT", "0 declare H"],
        ["expose", null, "0 expose", "0 expose 10H 10H JS"],
        ["bury", null, "0 bury 10S 10S KS KS 3D 4D 5C 6C", "0 bury 3D 4D 5C 6C 7C 8C 9C 9D"],
        ["call", null, "0 call 1st AC, 2nd red K", "0 call 3rd AH, 1st black K"],
        ["lead", 3, "0 play AS AS KS KS QS QS JS JS 10S 10S", "0 play BJ"],
        ["follow", 12, "0 play 10D 10D 9D 9D", "0 play 5H 5H 3C 3C"]];
    const decisions = moves.map(([kind, trick, played, best], index) => ({round: 1, index, kind,
        trick, played: 'p', best: 'b', worlds: 8, cost: 0.75, error: 0.125, cost_worlds: 8,
        cost_levels: 0.5, levels_error: 0.1, cost_points: 25, points_error: 5, value: -1.25,
        value_error: 0.25, clear: true, mark: 'blunder', options: [
            {action: played, label: 'p', value: -1.25, levels: -1, points: -25},
            {action: best, label: 'b', value: -0.5, levels: 0, points: -50}]}));
    const S = {code: 'x', sheetAck: 0, ui: {}, room: {status: 'playing', seats: []},
               state: {view: {seat: 0, result: sheet, tricks: []},
                       match: {results: [sheet], waiting: [0], over: false, throws: []}},
               review: {type: 'review', round: 1, seat: 0,
                        analysis: {budget: 4, rounds: [{number: 1, decisions, redeal: false}]}}};
    const box = document.createElement('div');  // beside the page's own (which renders on)
    box.append(overlay(S, {}));
    document.body.append(box);
    document.getElementById('app').hidden = true;
    box.querySelector('#review-all').open = true;
    const wide = [...box.querySelectorAll('.overlay *')]
        .filter((e) => e.getBoundingClientRect().right > innerWidth + 0.5
                       || e.scrollWidth > e.clientWidth + 1)
        .map((e) => e.tagName + '.' + e.className);
    return {text: box.querySelector('#review-worse').innerText, wide};
}"""


@pytest.mark.parametrize("language", ["en", "zh"])
def test_review_reads_every_move_and_fits_a_phone(quick_server: Server, chromium: Any,
                                                  language: str) -> None:
    """The review panel on a phone: every kind of move (bids, a redeal's show, the trump, the
    friend calls, the bury, plays) in the page's words with the cards' suit symbols, and the
    table within the screen's width (no sideways scrolling inside the sheet either)."""
    player = Player(chromium, quick_server.url, "Ann", "phone", viewport=TALL_PHONE,
                    touch=True)
    player.page.goto(quick_server.url + "/")
    shown = player.page.evaluate(REVIEW_ON_PHONE, language)
    text = shown["text"]
    assert shown["wide"] == [], shown
    assert not CARD_NOTATION.search(text), text  # cards with their suit symbols
    for words in ({"en": ["no bid", "show the hand", "take the bid back", "pass", "no trump",
                          "name the trump: ♥", "expose nothing", "call 1st A♣, 2nd red K",
                          "3rd A♥, 1st black K", "bury", "A♠ A♠", "big joker", "10♦ 10♦"],
                   "zh": ["不叫", "亮牌要求重新发牌", "收回亮主", "不亮", "无主", "定主：♥",
                          "不亮牌", "叫 第 1 张 A♣、第 2 张红K", "第 3 张 A♥", "扣", "A♠ A♠",
                          "大王", "10♦ 10♦"]}[language]):
        assert words in text, (words, text)
    if language == "zh":
        assert not english_words(text), text
    screenshot(player.page, f"phone-review-{language}")
    assert not player.errors, player.errors
    player.context.close()
