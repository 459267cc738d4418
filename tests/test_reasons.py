"""Reasons with keys (``shengji.engine.reasons``): the English text of every refusal as before,
every reason that random play produces registered and rendered again from its JSON form, and
the browser's Chinese templates (``server/static/reasons.js``) complete and exact."""

from __future__ import annotations

import json
import pickle
import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path
from random import Random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fuzz_actions import PRESET_TABLES, _random_call, malformed, well_formed
from shengji.engine import (
    ALL_CARDS,
    Hand,
    Lead,
    LegalPlays,
    Rank,
    Rules,
    RulesError,
    TractorFollow,
    Trump,
    TupleFollow,
)
from shengji.engine.bidding import BidError
from shengji.engine.friends import FriendCall
from shengji.engine.lead import LegalLeads, PlayError
from shengji.engine.reasons import (
    FORMATTERS,
    TEMPLATES,
    Param,
    Reason,
    parse_template,
    placeholders,
    render,
)
from shengji.engine.throws import check_throw
from shengji.game.actions import (
    Action,
    ActionError,
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
from shengji.game.phase import Phase
from shengji.game.presets import preset
from shengji.game.round import Round
from test_properties_follow import VARIANTS, positions, rules_for, submultisets

STATIC = Path(__file__).resolve().parents[1] / "src" / "shengji" / "server" / "static"


def _block(name: str) -> list[str]:
    """The lines of the object literal ``const NAME = {`` ... ``};`` in reasons.js."""
    lines = (STATIC / "reasons.js").read_text(encoding="utf-8").splitlines()
    start = lines.index(f"const {name} = {{")
    return lines[start + 1:lines.index("};", start)]


def chinese_templates() -> dict[str, str]:
    """The Chinese template of every key, as reasons.js writes them (one per line)."""
    found = {}
    for line in _block("ZH"):
        match = re.fullmatch(r'\s*"([\w-]+)": ("(?:[^"\\]|\\.)*"),', line)
        assert match, f"unexpected line in ZH: {line!r}"
        found[match[1]] = json.loads(match[2])
    return found


def check(reason: object) -> Reason:
    """``reason`` is a registered Reason whose text comes back from its JSON form."""
    assert isinstance(reason, Reason), f"{reason!r} is a plain {type(reason).__name__}"
    assert reason.key in TEMPLATES
    data = json.loads(json.dumps(reason.as_json()))
    assert data["text"] == str(reason)
    assert render(data["key"], data["params"]) == str(reason)
    return reason


# -- the registry and the Chinese templates ---------------------------------------------------

def test_every_key_has_a_chinese_template_with_exactly_its_parameters() -> None:
    zh = chinese_templates()
    assert sorted(zh) == sorted(TEMPLATES)
    for key, template in zh.items():
        assert placeholders(template) == placeholders(TEMPLATES[key]), key
        assert "".join(p for p in parse_template(template) if isinstance(p, str)).count(
            "{") == 0, f"{key}: a brace that is not a field"


def test_templates_use_only_the_formatters_both_sides_define() -> None:
    js = {m[1] for line in _block("FORMAT") if (m := re.match(r"  (\w+): ", line))}
    assert js == set(FORMATTERS)
    for templates in (TEMPLATES, chinese_templates()):
        for key, template in templates.items():
            for piece in parse_template(template):
                if isinstance(piece, tuple) and piece[3] is not None:
                    assert piece[3] in FORMATTERS, f"{key}: unknown formatter {piece[3]}"


# -- the Reason type ---------------------------------------------------------------------------

@pytest.mark.parametrize(("reason", "text"), [
    (Reason("follow-count", n=1), "play 1 card: 1 was led"),
    (Reason("follow-short", held=2, suit="T", cards="BJ 2H"),
     "you hold only 2 trumps (BJ 2H): play all of them before other cards"),
    (Reason("follow-tuples", want=1, width=2, suit="D", cards="JD JD",
            lead=("throw", (2, 2), (1, 1))),
     "you hold 1 pair in diamonds (JD JD): a throw of tractor of 2 pairs + single led must be "
     "followed by as many pairs as you can play"),
    (Reason("must-follow", n=4, suit="S", needs=(("tractor", 2, 2), ("tuples", 1, 3)), bomb=0),
     "play 4 spades, including a tractor of 2 pairs and 1 triple"),
    (Reason("must-follow", n=6, suit="H", needs=(("led-size", 4),), bomb=6),
     "play 6 hearts, including 4 cards in tuples of the led size, or a bomb of 6 identical cards"),
    (Reason("must-short", suit="C", cards="5C", rest=2, bomb=0),
     "play all your clubs (5C) and any 2 other cards"),
    (Reason("lead-reading", cards="3S 3S 4S", reading=((1, 3),)),
     "3S 3S 4S cannot be read as sequence of 3"),
    (Reason("bid-time", verbs=("draw", "bid", "pass")), "now is the time to draw or bid or pass"),
    (Reason("call-some-held", buried=1, mine=1, total=2, what="black A", call="2nd black A"),
     "you hold or buried 1 of the 2 black A: the 2nd black A cannot be another player's"),
    (Reason("call-taken-out", out=2, what="3C", call="1st 3C"),
     "the 1st 3C is not in the pack: 2 3C were taken out to make the deal even"),
    (Reason("throw-block", seat=1, cards="AS AS", shape=(2, 1), equal=0, unit="KS KS"),
     "seat 1 holds AS AS (pair), higher than KS KS"),
])
def test_english_text(reason: Reason, text: str) -> None:
    assert reason == text
    check(reason)


def test_a_reason_is_a_str_with_its_key_and_params() -> None:
    why = Reason("no-seat", seat=2**60, last=3)
    assert isinstance(why, str) and why == f"there is no seat {2**60} (seats are 0..3)"
    assert hash(why) == hash(f"there is no seat {2**60} (seats are 0..3)")
    assert why.as_json() == {"key": "no-seat", "params": {"seat": str(2**60), "last": 3},
                             "text": str(why)}  # too large for JavaScript: sent as text
    check(why)
    again = pickle.loads(pickle.dumps(why))
    assert (again, again.key, dict(again.params)) == (why, "no-seat", {"seat": 2**60, "last": 3})
    with pytest.raises(TypeError, match="takes"):
        Reason("no-seat", seat=1)
    with pytest.raises(KeyError):
        Reason("no-such-key")


def test_errors_carry_the_reason() -> None:
    t, rules = Trump.parse("2H"), Rules()
    with pytest.raises(PlayError) as play:
        Lead.from_cards("AS KS 2H", t, rules)
    assert play.value.reason.key == "lead-suits"
    assert str(play.value) == "a lead must be all of one suit: 2H is trumps but AS is spades"
    rnd = Round(preset("tractor"), seed=3)
    bidder = rnd.drawer
    with pytest.raises(ActionError) as action:
        rnd.apply(f"{bidder} bid 3S")
    assert action.value.reason.key in ("not-held", "bid-rank")
    assert str(action.value).endswith(action.value.reason)
    with pytest.raises(ActionError) as malformed_action:
        rnd.apply("0 plya KS")
    assert malformed_action.value.reason.key == "bad-input"
    assert BidError("x").reason == Reason("bad-input", error="x")


# -- rules errors ------------------------------------------------------------------------------

BAD_RULES: list[dict[str, object]] = [
    {"throws": 3}, {"players": "4"}, {"start_rank": "Z"}, {"rank_suit_order": ("X",)},
    {"mandatory_ranks": "5"}, {"rank_suit_order": "H"}, {"fluid_overbid": "own-rank"},
    {"custom_levels": 5}, {"custom_levels": ((0, 1, 2),)}, {"fluid_overbid": ("nope",)},
    {"tuple_follow": "x"}, {"mandatory_ranks": ("5",) * 14},
    {"players": 1}, {"big_jokers": 3}, {"kitty": 300}, {"red_fives": 3}, {"bombs": 3},
    {"rainbow": 6}, {"expose": 99, "trump_choice": "dealer"}, {"decks": 1, "tractor_min_width": 3},
    {"decks": 3, "tractor_min_width": 4}, {"partnership": "fluid", "players": 5, "friends": 4},
    {"level_table": "custom", "custom_levels": ((-1, 1),)},
    {"level_table": "custom", "custom_levels": ((0, 13),)},
    {"players": 5}, {"kitty": 7}, {"partnership": "fluid", "players": 2},
    {"friends": 1}, {"fluid_overbid": ("own-rank", "own-rank")}, {"bombs": 1}, {"rainbow": 1},
    {"expose": 2}, {"start_rank": "5", "end_rank": "3"},
    {"end_rank": "K", "mandatory_ranks": ("A",)},
    {"rank_suit_order": ("H", "H")}, {"mandatory_ranks": ("5", "5")}, {"level_table": "custom"},
    {"level_table": "custom", "custom_levels": ((5, 1),)},
    {"level_table": "custom", "custom_levels": ((0, 1), (0, 2))},
    {"removed_ranks": ("2", "2")}, {"removed_ranks": ("5",)}, {"removed_ranks": ("3",)},
    {"removed_ranks": ("2",), "end_rank": "2"},
]
"""Rules that :class:`Rules` refuses, one or more for every ``rules-*`` key it raises."""


def rules_errors() -> list[Reason]:
    """The reason of every refusal of :data:`BAD_RULES`, and of an unknown option."""
    found = []
    for options in BAD_RULES:
        with pytest.raises(RulesError) as error:
            Rules(**options)  # type: ignore[arg-type]
        assert error.value.why is not None and error.value.why == str(error.value), options
        found.append(error.value.why)
    with pytest.raises(RulesError) as unknown:
        Rules().replace(player=4)
    assert unknown.value.why is not None
    return [*found, unknown.value.why]


def test_every_rules_error_carries_its_reason() -> None:
    seen = {check(why).key for why in rules_errors()}
    raised = {key for key in TEMPLATES if key.startswith("rules-")}
    # custom_levels over 32 rows is refused as a list too long ("rules-entries") first
    assert seen == raised - {"rules-level-rows"}
    assert Reason("rules-range", option="friends", low=0, high=3, why=("friends", 5),
                  value="4") == ("friends must be at least 0 and at most 3 (at 5 players, "
                                 "leaving opponents), got 4")


# -- every reason of random play ---------------------------------------------------------------

CORE_KEYS = {
    "follow-count", "not-held", "follow-short", "follow-suit", "follow-suit-one",
    "follow-tuples", "follow-protect", "must-any", "must-follow", "must-short", "lead-suits",
    "lead-mixed", "lead-no-throws", "bid-time", "bid-rank", "bid-weak", "bid-copies",
    "bid-empty", "bid-identical", "bid-switch", "bid-joker-count", "bid-no-jokers",
    "bid-reinforce-more", "bid-reinforce-off", "bid-reinforce-partner", "bid-overbid-either",
    "withdraw-off", "withdraw-not-yours", "call-card-only", "call-colour-only", "call-copies",
    "call-colour-copies", "call-trump", "call-needed", "throw-block", "throw-failed",
    "throw-lost", "throw-stands", "throw-penalty", "turn-of", "turn-of-nobody", "draw-turn",
    "deal-no-pass", "declare-needed", "show-needed", "expose-needed", "bury-needed",
    "play-needed", "no-seat", "bad-input", "do-verbs", "do-lead", "do-bury",
}
"""Keys that the random rounds below meet (the test checks it: they stay exercised)."""


def mover_actions(rnd: Round, seat: int, rng: Random) -> list[Action]:
    """Actions of every kind for the seat to move, from its own cards (so that the rules,
    not the cards held, refuse most of them)."""
    hand = rnd.hands[seat].cards()
    counts = Counter(hand)
    rules = rnd.rules
    calls = [FriendCall(k, card=rng.choice(ALL_CARDS[:52])) for k in (1, 1, 2, rules.decks + 1)]
    calls += [FriendCall(k, colour=rng.choice(("red", "black")), rank=rng.choice(list(Rank)))
              for k in (1, 2, 2 * rules.decks + 1)]
    actions: list[Action] = [
        Draw(seat), Pass(seat), Withdraw(seat), Show(seat), Declare(seat, None),
        Expose(seat, tuple(rng.sample(hand, min(len(hand), rules.expose + 1)))),
        Bury(seat, tuple(rng.sample(hand, min(len(hand), rng.choice((rules.kitty_size,) * 3 + (
            rules.kitty_size + 1,)))))),
        Call(seat, tuple(rng.sample(calls, min(len(calls), rules.friend_count)))),
        Call(seat, tuple(rng.sample(calls, min(len(calls), rules.friend_count + 1)))),
    ]
    for face, held in counts.items():
        actions.append(Bid(seat, (face,) * rng.randint(1, held)))
    if rnd.phase == Phase.CALL:  # one call repeated: refused for that call's own reason
        actions += [Call(seat, (call,) * rules.friend_count)
                    for call in (_random_call(rng, rules.decks) for _ in range(40))]
    return actions


def reasons_of_round(name: str, players: int, seed: int, **overrides: object) -> list[Reason]:
    """Every reason a fuzzed round produces: for bad actions of every kind, the mover's
    actions of every kind, bids of every size, random plays of the right size (from the hand
    and from the led suit), random leads of one suit (and the failed throws among them), the
    summaries and the errors of refused actions."""
    rnd = Round(preset(name, players=players, **overrides), seed=seed, dealer=seed % players)
    rng = Random(seed)
    found: list[Reason] = []
    while rnd.phase != Phase.DONE:
        seat = rnd.to_move
        assert seat is not None
        legal = rnd.legal(seat)
        found.append(legal.summary)
        batch = [*malformed(rnd, rng), *well_formed(rnd, rng), *mover_actions(rnd, seat, rng)]
        hand = rnd.hands[seat].cards()
        for _ in range(3):
            face = rng.choice(ALL_CARDS)
            why = rnd.bidding.reason(seat, (face,) * rng.randint(0, rnd.rules.decks + 1))
            if why is not None:
                found.append(why)
        plays, trump = legal.plays, rnd.trump
        if isinstance(plays, LegalPlays):
            assert trump is not None
            suit = [c for c in hand if trump.suit_index[c] == plays.suit]
            for pool in (hand, suit) * 6:
                if len(pool) >= plays.count:
                    batch.append(Play(seat, tuple(rng.sample(pool, plays.count))))
        elif isinstance(plays, LegalLeads):
            assert trump is not None
            others = {s: rnd.hands[s] for s in range(players) if s != seat}
            for _ in range(6):
                suit = [c for c in hand if trump.suit_index[c] == trump.suit_index[hand[0]]]
                cards = rng.sample(suit, min(len(suit), rng.randint(2, 6)))
                batch.append(Play(seat, tuple(rng.sample(hand, min(len(hand), 3)))))
                try:
                    lead = Lead.from_cards(cards, trump, rnd.rules)
                except PlayError as error:
                    found.append(error.reason)
                    continue
                found.extend(check_throw(lead, others, trump, rnd.rules).reasons())
                rng.shuffle(hand)
        for action in batch:
            why = rnd.reason(action)  # type: ignore[arg-type]
            if why is not None:
                found.append(why)
        try:
            rnd.apply(batch[-1])  # type: ignore[arg-type]
        except ActionError as error:
            found.append(error.reason)
        else:
            rnd.undo()
        rnd.apply(legal.random(rng))
    found.append(check(rnd.legal(0).reason(Draw(0))))
    return found


HOUSE_RULES: list[tuple[str, int, dict[str, object]]] = [
    ("tractor", 4, {"tuple_follow": "protect", "throw_penalty": "per-card", "bombs": 2,
                    "kitty_points_allowed": False, "bid_reinforce": False, "bid_withdraw": True}),
    ("tractor", 4, {"rainbow": 4, "throws": False, "joker_bids": "off"}),
    ("tractor", 4, {"throw_mixed": False, "failed_throw": "lose-round", "decks": 3}),
    ("finding-friends", 5, {"friend_call_points": False, "friend_call_top": False,
                            "friend_call_all_held": "refused"}),
    ("finding-friends", 6, {"friend_calls": "colour-rank", "friend_trump_calls": False}),
]
"""Presets with house rules that make the rarer refusals happen."""


@pytest.mark.slow
def test_every_reason_of_random_rounds_is_registered_and_renders_from_json() -> None:
    seen: Counter[str] = Counter()
    for name, players in PRESET_TABLES:
        for why in reasons_of_round(name, players, 0):
            seen[check(why).key] += 1
    for name, players, overrides in HOUSE_RULES:
        for why in reasons_of_round(name, players, 0, **overrides):
            seen[check(why).key] += 1
    assert set(seen) >= CORE_KEYS, sorted(CORE_KEYS - set(seen))


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_follow_and_lead_reasons_over_random_positions(data: st.DataObject) -> None:
    variant = data.draw(st.sampled_from(sorted(VARIANTS)))
    rules = data.draw(rules_for(data.draw(st.sampled_from(list(TupleFollow))),
                                data.draw(st.sampled_from(list(TractorFollow))), variant))
    pos = data.draw(positions(rules))
    legal = LegalPlays(pos.hand, pos.lead, pos.trump, pos.rules)
    check(legal.describe())
    counts = Counter(pos.hand.cards())
    for size in {legal.count, legal.count - 1}:
        for play in submultisets(counts, size):
            why = legal.reason([ALL_CARDS[c] for c in play])
            if why is not None:
                check(why)
    leads = LegalLeads(Hand(pos.hand.cards()), pos.trump, pos.rules)
    for play in list(submultisets(counts, min(3, len(counts))))[:40]:
        why = leads.reason([ALL_CARDS[c] for c in play])
        if why is not None:
            check(why)


# -- the Chinese rendering (needs node) ----------------------------------------------------------

SAMPLE: dict[str, Param] = {
    "n": 2, "cards": "JD JD", "held": 3, "suit": "H", "played": "5S 6C", "shape": (2, 2),
    "led": (2, 3), "want": 2, "width": 2, "lead": ("throw", (2, 2), (1, 1)),
    "rest": 1, "bomb": 2, "needs": (("tractor", 2, 2), ("tuples", 1, 2)), "first": "2H",
    "first_suit": "T", "other": "AS", "other_suit": "S", "reading": ((2, 1), (1, 1)),
    "need": 2, "rank": "10", "own": "9", "maker": "J", "decks": 2, "card": "AS", "count": 2,
    "bid": "9H 9H", "seat": 1, "colour": "black", "what": "black A", "buried": 1, "mine": 1,
    "total": 2, "call": "2nd AS", "equal": 1, "unit": "KS KS", "points": 10, "size": 8,
    "given": 5, "phase": "kitty", "verbs": ("draw", "bid"), "most": 6, "last": 3,
    "error": "cannot read card 'XX'", "name": "'player'", "option": "kitty", "kind": "rank",
    "value": "300", "allowed": ("own-rank", "maker-rank"), "low": 0, "high": 104,
    "why": ("pack", 108), "players": 5, "kitty": 8, "left": 100, "start": "5", "end": "3",
    "overbids": ("own-rank", "own-rank"), "ranks": "2, 4", "rainbows": (4, 3), "out": 1,
}
"""A value for every parameter name, to render each key once."""
OVERRIDES: dict[str, dict[str, Param]] = {
    "follow-protect": {"played": 1}, "follow-locked": {"played": 1}, "other-seat": {"own": 2}}

HARNESS = """
const store = new Map([["shengji.lang", "zh"]]);
globalThis.localStorage = { getItem: (k) => store.get(k) ?? null,
                            setItem: (k, v) => store.set(k, v) };
globalThis.navigator = { language: "zh-CN" };
globalThis.document = { documentElement: {} };
const { reasonText } = await import(process.argv[2]);
let input = "";
for await (const chunk of process.stdin) input += chunk;
console.log(JSON.stringify(JSON.parse(input).map((why) => reasonText(why, why.text))));
"""


def every_key() -> list[Reason]:
    """One reason of every key, from :data:`SAMPLE`."""
    return [Reason(key, **{name: OVERRIDES.get(key, {}).get(name, SAMPLE[name])
                           for name in placeholders(template)})
            for key, template in TEMPLATES.items()]


def test_every_key_renders_from_json() -> None:
    for why in every_key():
        check(why)


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to run reasons.js")
def test_chinese_rendering_of_every_key(tmp_path: Path) -> None:
    reasons = every_key() + rules_errors() + reasons_of_round("tractor", 4, 0)[:300]
    harness = tmp_path / "harness.mjs"
    harness.write_text(HARNESS, encoding="utf-8")
    result = subprocess.run(
        ["node", str(harness), (STATIC / "reasons.js").as_uri()], capture_output=True,
        text=True, timeout=60, check=True,
        input=json.dumps([why.as_json() for why in reasons]))
    for why, text in zip(reasons, json.loads(result.stdout), strict=True):
        if why.key == "bad-input":
            assert text == why.params["error"]
            continue
        assert re.search(r"[\u4e00-\u9fff]", text), (why.key, text)
        assert not re.search(r"[{}]|undefined|NaN|\[object", text), (why.key, text)
    by_key = dict(zip([w.key for w in reasons], json.loads(result.stdout), strict=True))
    assert by_key["follow-tuples"] == (
        "你的红桃里有2个对子（J♦ J♦）：首家出了甩牌（2连对拖拉机＋单张），能跟几个对子就必须跟几个")
    assert by_key["must-follow"] == (
        "出2张红桃，其中要有一个2连对拖拉机和1个对子，或者出2张相同的牌作炸弹")
    assert by_key["turn-of"] == "现在轮到1 号座（扣底阶段）"
