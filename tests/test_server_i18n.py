"""The browser client speaks Chinese without English from the server: every rules option, choice,
preset and computer player has its Chinese words in the client, every error code the server
sends has an English and a Chinese line, the rules form's errors come with the engine's
structured reasons, and the score sheet is sent as numbers the client words itself."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from dataclasses import fields
from pathlib import Path
from random import Random

import pytest

from shengji.analysis import KINDS, MARKS
from shengji.engine.lead import Lead
from shengji.engine.options_help import OPTIONS
from shengji.engine.reasons import TEMPLATES
from shengji.engine.rules import Rules
from shengji.engine.throws import check_throw
from shengji.game.actions import Play, parse_action
from shengji.game.config import rules_to_dict
from shengji.game.presets import PRESETS, preset
from shengji.game.round import Round
from shengji.players import PLAYER_KINDS, make_player
from shengji.players.table import play_match
from shengji.server.encode import result_json, view_json
from shengji.server.limits import Settings
from shengji.server.options import option_specs, options_zh_js, with_options_zh
from shengji.server.room_rules import check_rules, rules_errors_json
from shengji.server.schemas import SERVER_MESSAGE, RoundSheet
from shengji.server.state import RoomState, free_seat
from shengji.server.storage import MatchRow, RoomRow, SQLiteStorage

STATIC = Path(__file__).parent.parent / "src" / "shengji" / "server" / "static"
SERVER = STATIC.parent


def js_keys(text: str, start: str) -> set[str]:
    """The keys of the object literal that opens with the line ``start`` (up to ``};``/``},``
    at its own indentation)."""
    at = text.index(start)
    indent = len(start) - len(start.lstrip())
    end = min(i for i in (text.find("\n" + " " * indent + "};", at),
                          text.find("\n" + " " * indent + "},", at)) if i > 0)
    body = text[at + len(start):end]
    inner = " " * (indent + 2)
    return {m.group(1) or m.group(2) for m in re.finditer(
        rf'^{inner}(?:"([^"]+)"|([\w]+))\s*:', body, re.MULTILINE)}


@pytest.fixture(scope="module")
def options_zh() -> str:
    return (STATIC / "options_zh.js").read_text()


def test_every_rules_option_has_chinese_words(options_zh: str) -> None:
    names = {f.name for f in fields(Rules)}
    assert js_keys(options_zh, "export const OPTIONS_ZH = {") == names
    choices = {f"{spec['name']}.{c}" for spec in option_specs() if spec["kind"] in (
        "choice", "list") and spec.get("choices") and spec["name"] != "rank_suit_order"
        for c in spec["choices"]}
    assert choices and js_keys(options_zh, "export const CHOICES_ZH = {") == choices
    assert js_keys(options_zh, "export const PRESETS_ZH = {") == set(PRESETS)
    assert js_keys(options_zh, "export const KINDS_ZH = {") == set(PLAYER_KINDS)


def test_the_chinese_options_are_generated_from_the_help(options_zh: str) -> None:
    """``OPTIONS_ZH`` and ``CHOICES_ZH`` are the generated part of the file, made from
    ``shengji.engine.options_help`` (``python3 scripts/write_options_docs.py`` writes it)."""
    assert options_zh.count(options_zh_js()) == 1
    assert with_options_zh(options_zh) == options_zh, (
        "options_zh.js is out of date: run python3 scripts/write_options_docs.py")
    generated = options_zh_js()
    assert js_keys(generated, "export const OPTIONS_ZH = {") == set(OPTIONS)
    for name, words in OPTIONS.items():
        assert f'["{words.label_zh}", "{words.help_zh}"]' in generated
        assert all(f'"{name}.{value}": "{zh}",' in generated
                   for value, (_, zh) in words.choices.items())


def test_every_error_code_and_player_has_both_languages() -> None:
    i18n = (STATIC / "i18n.js").read_text()
    en, zh = js_keys(i18n, "  en: {"), js_keys(i18n, "  zh: {")
    assert en == zh
    sent: set[str] = set()
    for path in SERVER.glob("*.py"):
        source = path.read_text()
        sent |= set(re.findall(r'(?:Refusal|error|MessageError)\(\s*"([a-z-]+)"', source))
        sent |= set(re.findall(r'"code": "([a-z-]+)"', source))
    assert {"illegal", "not-your-turn", "busy", "rate", "too-many-rooms"} <= sent
    assert {f"err_{code}" for code in sent} <= en
    assert {f"kind_{kind}" for kind in PLAYER_KINDS} <= en
    # the review's decisions and marks (shengji.analysis)
    assert {f"reviewKind_{kind}" for kind in {*KINDS.values(), "lead", "follow"}} <= en
    assert {f"mark_{mark}" for mark, _ in MARKS} <= en
    assert {f"preset_{name}" for name in PRESETS} <= en


@pytest.mark.parametrize("name", ["tractor", "finding-friends"])
def test_the_score_sheet_is_sent_in_numbers(name: str) -> None:
    rules = preset(name, players=5 if name == "finding-friends" else 4)
    players = [make_player("heuristic", seed=s) for s in range(rules.players)]
    match = play_match(rules, players, seed=7, max_rounds=2)
    for result in match.results:
        sheet = result_json(result)
        if sheet["redeal"]:
            continue
        assert sum(t["points"] for t in sheet["tricks"]) == (
            sheet["trick_points"] + sheet["declarer_points"])
        assert sheet["trump"] is not None and sheet["trump"]["text"] == str(result.trump)
        change = result.change
        assert change is not None and sheet["steps"] == {
            "declarers": change.declarers_up, "opponents": change.opponents_up,
            "switch": change.switch, "draw": change.draw}
        assert sum(p["points"] for p in sheet["penalties"]) == sheet["penalty_points"]
        RoundSheet.model_validate(sheet)


FORM_ERRORS: list[tuple[str, int, dict[str, object], str, str]] = [
    ("finding-friends", 5, {"partnership": "fixed"}, "partnership", "rules-odd-players"),
    ("tractor", 4, {"kitty": 7}, "kitty", "rules-uneven-deal"),
    ("tractor", 2, {"partnership": "fluid"}, "partnership", "rules-no-opponents"),
    ("tractor", 4, {"friends": 1}, "friends", "rules-fixed-friends"),
    ("finding-friends", 5, {"fluid_overbid": ["own-rank", "own-rank"]}, "fluid_overbid",
     "rules-overbid-repeat"),
    ("tractor", 4, {"bombs": 1}, "bombs", "rules-bomb-one"),
    ("tractor", 4, {"rainbow": 1}, "rainbow", "rules-rainbow-one"),
    ("tractor", 4, {"expose": 2}, "expose", "rules-expose-dealer"),
    ("tractor", 4, {"start_rank": "5", "end_rank": "3"}, "start_rank", "rules-rank-order"),
    ("tractor", 4, {"start_rank": "3", "mandatory_ranks": ["2"]}, "mandatory_ranks",
     "rules-mandatory-range"),
    ("tractor", 4, {"rank_suit_order": ["H", "H"]}, "rank_suit_order", "rules-suit-repeat"),
    ("tractor", 4, {"mandatory_ranks": ["5", "5"]}, "mandatory_ranks", "rules-rank-repeat"),
    ("tractor", 4, {"level_table": "custom"}, "level_table", "rules-custom-table"),
    ("tractor", 4, {"level_table": "custom", "custom_levels": [[5, 1]]}, "custom_levels",
     "rules-custom-zero"),
    ("tractor", 4, {"level_table": "custom", "custom_levels": [[0, 1], [0, 2]]},
     "custom_levels", "rules-custom-increase"),
    ("tractor", 4, {"decks": 9}, "decks", "rules-range"),
    ("tractor", 4, {"tractor_min_width": 3}, "tractor_min_width", "rules-width"),
    ("tractor", 4, {"level_table": "custom", "custom_levels": [[0, 13]]}, "custom_levels",
     "rules-level-step"),
    ("finding-friends", 7, {"removed_ranks": ["2", "2"]}, "removed_ranks",
     "rules-removed-repeat"),
    ("finding-friends", 7, {"removed_ranks": ["5"]}, "removed_ranks", "rules-removed-point"),
    ("finding-friends", 7, {"removed_ranks": ["2", "4"]}, "removed_ranks",
     "rules-removed-lowest"),
    ("finding-friends", 7, {"removed_ranks": ["2", "3"], "mandatory_ranks": ["3"]},
     "mandatory_ranks", "rules-removed-kept"),
]
"""Rules form entries the engine refuses: preset, table, overrides, the field blamed, the key."""


@pytest.mark.parametrize(("name", "table", "overrides", "field", "key"), FORM_ERRORS)
def test_rules_form_errors_carry_the_engine_reason(name: str, table: int,
                                                   overrides: dict[str, object], field: str,
                                                   key: str) -> None:
    rules, errors = check_rules(name, table, overrides)
    assert rules is None and field in errors  # other fields may be blamed as well
    reply = rules_errors_json(errors)
    why = reply["why"][field]
    assert why["key"] == key and why["text"] == reply["errors"][field] == str(errors[field])


def test_every_cross_option_rules_error_is_reached_through_the_form() -> None:
    cross = {key for key in TEMPLATES if key.startswith("rules-") and key not in {
        "rules-unknown", "rules-type", "rules-overbid", "rules-choice", "rules-entries",
        "rules-range", "rules-width", "rules-level-rows", "rules-level-points",
        "rules-level-step"}}
    assert cross <= {key for *_, key in FORM_ERRORS}


def failed_throw(rnd: Round, seat: int, rng: Random) -> Play | None:
    """A lead of ``seat`` that is a throw the other hands make fail, if one is found."""
    trump = rnd.trump
    assert trump is not None
    hand = rnd.hands[seat].cards()
    others = {s: rnd.hands[s] for s in range(rnd.rules.players) if s != seat}
    for _ in range(40):
        suit = trump.suit_index[rng.choice(hand)]
        cards = [c for c in hand if trump.suit_index[c] == suit]
        if len(cards) < 2:
            continue
        play = Play(seat, tuple(rng.sample(cards, rng.randint(2, min(4, len(cards))))))
        if rnd.reason(play) is not None:
            continue
        lead = Lead.from_cards(play.cards, trump, rnd.rules)
        if lead.is_throw and not check_throw(lead, others, trump, rnd.rules).valid:
            return play
    return None


@pytest.mark.parametrize("overrides", [{}, {"failed_throw": "lose-round"}])
def test_a_failed_throw_is_sent_with_its_reasons(tmp_path: Path,
                                                 overrides: dict[str, object]) -> None:
    rules = rules_to_dict(preset("tractor", throw_penalty="per-attempt", **overrides))
    stored = MatchRow(1, rules, 5, ["a", "b", "c", "d"], ["person"] * 4)

    def room() -> RoomState:
        row = RoomRow("THROWS", {"preset": "tractor", "table": 4, "rules": {}}, None,
                      [free_seat() for _ in range(4)], "playing", 1, 0.0, 0.0)
        made = RoomState(row, SQLiteStorage(tmp_path / "rooms.sqlite3"), Settings())
        made.begin(stored)
        return made

    live, rng = room(), Random(1)
    match = live.match
    assert match is not None
    expected: list[dict[str, object]] = []
    while not expected:
        rnd, seat = match.round, match.to_move
        assert seat is not None and not match.is_over
        trick = rnd.trick
        action = None
        if trick is not None and trick.lead is None and rnd.trump is not None:
            action = failed_throw(rnd, seat, rng)
        number = (len(match.results) + 1, len(rnd.tricks) + 1)
        live.apply(action or match.legal(seat).random(rng))
        stored.actions.append(str(action or rnd.history[-1]))
        if action is not None:
            assert trick is not None and trick.throw is not None
            expected = [{"round": number[0], "seat": seat, "trick": number[1],
                         "why": [why.as_json() for why in trick.throw.reasons()]}]
            keys = [why.key for why in trick.throw.reasons()]
            assert keys[0] == "throw-block" and keys[-2:] in (
                ["throw-failed", "throw-penalty"], ["throw-lost", "throw-penalty"])
        for watcher in (0, 1, None):  # every seat and the spectators
            message = json.loads(live.state_message(watcher))
            SERVER_MESSAGE.validate_python(message)
            assert message["match"]["throws"] == expected
    replayed = room()  # a restart replays the log: the same throws
    for text in stored.actions:
        replayed.apply(parse_action(text))
    assert json.loads(replayed.state_message(2))["match"]["throws"] == expected


THROW_HARNESS = """
const store = new Map([["shengji.lang", process.argv[3]]]);
globalThis.localStorage = { getItem: (k) => store.get(k) ?? null,
                            setItem: (k, v) => store.set(k, v) };
globalThis.navigator = { language: "en-US" };
globalThis.Node = class {};
const element = () => Object.assign(new Node(), { dataset: {}, append() {}, setAttribute() {} });
globalThis.document = { documentElement: {}, createElement: element,
                        createTextNode: (text) => Object.assign(new Node(), { text }) };
const { throwText } = await import(process.argv[2]);
const { logEntries } = await import(process.argv[2].replace("words.js", "side.js"));
let input = "";
for await (const chunk of process.stdin) input += chunk;
const S = JSON.parse(input);
const log = logEntries(S).map((e) => (typeof e === "string" ? e : e.trick ?? e.throw ?? e[0]));
console.log(JSON.stringify({ texts: S.state.match.throws.map((f) => throwText(S, f)), log }));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to run words.js")
def test_a_failed_throw_is_worded_in_both_languages_in_the_event_log(tmp_path: Path) -> None:
    rules = preset("tractor", throw_penalty="per-attempt")
    rnd, rng = Round(rules, seed=3), Random(3)
    while True:  # random play up to a lead that is a failed throw
        seat, trick = rnd.to_move, rnd.trick
        assert seat is not None
        if trick is not None and trick.lead is None and (play := failed_throw(rnd, seat, rng)):
            break
        rnd.apply(rnd.legal(seat).random(rng))
    number = len(rnd.tricks) + 1
    rnd.apply(play)
    assert trick.throw is not None
    failed = {"round": 1, "seat": play.seat, "trick": number,
              "why": [why.as_json() for why in trick.throw.reasons()]}
    seats = [{"kind": "person", "name": f"P{s}"} for s in range(4)]
    view = view_json(rnd.view(0))
    state = {"view": view, "match": {"round": 1, "throws": [failed]}}
    harness = tmp_path / "harness.mjs"
    harness.write_text(THROW_HARNESS, encoding="utf-8")
    texts, logs = {}, {}
    for lang in ("en", "zh"):
        result = subprocess.run(
            ["node", str(harness), (STATIC / "words.js").as_uri(), lang], capture_output=True,
            text=True, timeout=60, check=True,
            input=json.dumps({"room": {"seats": seats}, "state": state}))
        answer = json.loads(result.stdout)
        texts[lang], logs[lang] = answer["texts"][0], answer["log"]
    # the event log: the throw's words right after its lead, once
    at = logs["zh"].index(texts["zh"])
    assert logs["zh"][at - 1] == f"P{play.seat} 出 " and logs["zh"].count(texts["zh"]) == 1
    assert logs["en"][at] == texts["en"] and logs["en"][at - 1] == f"P{play.seat} plays "
    # the engine's English, naming the seats by their names and the cards with suit symbols
    english = re.sub(r"\bseat (\d+)\b", r"P\1", trick.throw.explain())
    english = re.sub(r"\b(10|[2-9JQKA])([CDHS])\b",
                     lambda m: m[1] + dict(zip("CDHS", "♣♦♥♠", strict=True))[m[2]], english)
    english = english.replace("BJ", "big joker").replace("SJ", "small joker")
    assert texts["en"] == f"P{play.seat}'s throw: " + english
    zh = texts["zh"]
    assert zh.startswith(f"P{play.seat} 甩牌：") and "甩牌失败：改出" in zh and "罚分" in zh, zh
    blocker = trick.throw.blocks[0].seat
    assert f"P{blocker}有" in zh and not re.search("[a-z]{2}", zh), zh  # no English word
