"""Every websocket message of ``docs/protocol.md`` as a pydantic model, and the JSON encoders
of a seat's view and legal actions.

Incoming messages are read with :func:`read_client_message`, which refuses anything that is
not exactly one of the client messages (bad JSON, unknown type, unknown or mistyped field) with a
:class:`MessageError` carrying the protocol's error code. Outgoing ``state`` messages are built
as plain dicts by :func:`view_json`, :func:`legal_json` and :func:`result_json` (fast enough to
send after every action); :data:`SERVER_MESSAGE` validates any outgoing message (the tests run
every message they receive through it).
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterable, Sequence
from itertools import islice
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    TypeAdapter,
    ValidationError,
)

from shengji.engine.cards import Card, Suit
from shengji.engine.follow import LegalPlays
from shengji.engine.lead import LegalLeads
from shengji.engine.reasons import Reason
from shengji.engine.rules import FriendCalls
from shengji.engine.trump import TRUMP, Trump
from shengji.game.legal import Legal
from shengji.game.phase import Phase
from shengji.game.scoresheet import RoundResult, TrickRecord
from shengji.game.view import SeatView
from shengji.players import THINK_LIMITS

MAX_SEATS = 12
"""The largest table the engine deals for."""

_BAD_NAME_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Co", "Cn"})


def _clean_name(name: str) -> str:
    """A name in NFKC form, trimmed; refuses control, format, separator-line/paragraph,
    private-use and unassigned characters."""
    name = unicodedata.normalize("NFKC", name).strip()
    if not 1 <= len(name) <= 24:
        raise ValueError("a name has 1 to 24 characters")
    bad = next((c for c in name if unicodedata.category(c) in _BAD_NAME_CATEGORIES), None)
    if bad is not None:
        raise ValueError(f"a name may not contain the character U+{ord(bad):04X}")
    return name


def name_key(name: str) -> str:
    """What two names must not share in one room: their NFKC case-folded form."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


Name = Annotated[str, StringConstraints(max_length=100), AfterValidator(_clean_name)]
SeatNo = Annotated[int, Field(ge=0, lt=MAX_SEATS)]
Word = Annotated[str, StringConstraints(min_length=1, max_length=40)]
MAX_GRACE = 86_400
"""The longest ``absent_grace`` a host may set, in seconds (a day)."""
ActionText = Annotated[str, StringConstraints(min_length=1, max_length=1000)]
ChatText = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=500)]


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class Hello(_In):
    """First message of a connection: a known ``token`` re-attaches its seat."""

    type: Literal["hello"]
    token: Annotated[str, StringConstraints(max_length=100)] | None = None
    name: Name
    lang: Literal["en", "zh"] = "en"


class Sit(_In):
    """Take a free seat (before the start)."""

    type: Literal["sit"]
    seat: SeatNo


class Stand(_In):
    """Leave one's seat and watch (before the start)."""

    type: Literal["stand"]


class Configure(_In):
    """Host: choose the preset, the table size and option overrides, and the computer player
    that answers ``suggest`` (unchanged if null; before the start)."""

    type: Literal["configure"]
    preset: Word
    table: Annotated[int, Field(ge=1, le=MAX_SEATS)]
    rules: dict[str, Any] = Field(default_factory=dict)
    suggest: Word | None = None
    suggest_time: Annotated[float, Field(ge=THINK_LIMITS[0], le=THINK_LIMITS[1])] | None = None
    """Seconds the suggestion player may think, where it thinks (at most the server's
    ``bot_time``; unchanged if null)."""
    absent_grace: Annotated[int, Field(ge=0, le=MAX_GRACE)] | None = None
    """Seconds a seated person may be away before a computer player plays for them (0:
    never; unchanged if null)."""


class AddBot(_In):
    """Host: seat a computer player of ``kind`` (before the start)."""

    type: Literal["add_bot"]
    seat: SeatNo
    kind: Word


class Remove(_In):
    """Host: free a seat (before the start)."""

    type: Literal["remove"]
    seat: SeatNo


class Move(_In):
    """Host: move the occupant of ``seat`` to ``to`` (swapping if taken; before the start)."""

    type: Literal["move"]
    seat: SeatNo
    to: SeatNo


class Start(_In):
    """Host: start the match (every seat filled)."""

    type: Literal["start"]


class Replace(_In):
    """Host, during a match: a computer player of ``kind`` takes a person's seat."""

    type: Literal["replace"]
    seat: SeatNo
    kind: Word


class ActionMessage(_In):
    """A seated member's action in the record notation (``"0 play KS KS"``)."""

    type: Literal["action"]
    action: ActionText


class Check(_In):
    """Ask whether an action is legal now (answered with ``checked``)."""

    type: Literal["check"]
    action: ActionText


class Suggest(_In):
    """Ask for the room's suggestion player's choice now (answered with ``suggestion``)."""

    type: Literal["suggest"]


class Chat(_In):
    """Say something to the room."""

    type: Literal["chat"]
    text: ChatText


class Kick(_In):
    """Host: remove a member (not seated in a match being played) from the room for good."""

    type: Literal["kick"]
    member: Annotated[str, StringConstraints(min_length=1, max_length=40)]


class NewMatch(_In):
    """Host, after the match: back to the lobby with the same seats for a new match."""

    type: Literal["new_match"]


class NextRound(_In):
    """Between rounds: this person has read the score sheet (``all``: the host, for everyone)."""

    type: Literal["next_round"]
    all: bool = False


ClientMessage = (Hello | Sit | Stand | Configure | AddBot | Remove | Move | Start | Replace
                 | ActionMessage | Check | Suggest | Chat | Kick | NewMatch | NextRound)
"""Any message a client may send."""

_CLIENT = TypeAdapter[ClientMessage](Annotated[ClientMessage, Field(discriminator="type")])
CLIENT_TYPES: tuple[str, ...] = ("hello", "sit", "stand", "configure", "add_bot", "remove",
                                 "move", "start", "replace", "action", "check", "suggest",
                                 "chat", "kick", "new_match", "next_round")


class MessageError(ValueError):
    """A refused message: ``code`` is the protocol's error code, the text says why."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def read_client_message(text: str) -> ClientMessage:
    """Parse and validate one client message; raise :class:`MessageError` if it is not one."""
    try:
        data = json.loads(text)
    except ValueError:
        raise MessageError("bad-message", "the message is not valid JSON") from None
    except RecursionError:
        raise MessageError("bad-message", "the message is nested too deeply") from None
    if not isinstance(data, dict):
        raise MessageError("bad-message", "a message is a JSON object with a \"type\"")
    kind = data.get("type")
    if kind not in CLIENT_TYPES:
        raise MessageError("unknown-type", f"unknown message type {kind!r}; types are: "
                           + ", ".join(CLIENT_TYPES))
    try:
        return _CLIENT.validate_python(data)
    except ValidationError as error:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc'][1:]) or 'message'}: {e['msg']}"
            for e in error.errors(include_url=False))
        raise MessageError("bad-message", f"bad {kind} message: {problems}") from None


# -- server messages -------------------------------------------------------------------------

class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Welcome(_Out):
    """The connection's member: keep ``token``, it proves the seat."""

    type: Literal["welcome"]
    token: str
    member: str
    room: str


class SeatInfo(_Out):
    """One seat of the table as everyone sees it."""

    seat: int
    name: str | None
    kind: Literal["person", "bot"] | None
    bot: str | None
    connected: bool
    auto: bool
    """A computer player plays this person's seat while they are away (``absent_grace``)."""


class Watcher(_Out):
    """A connected member without a seat (the host may ``kick`` them by ``member``)."""

    member: str
    name: str


class You(_Out):
    """Who this connection is."""

    member: str
    seat: int | None
    host: bool


class RoomConfig(_Out):
    """The room's rules: a preset, the table size and option overrides; ``suggest``: the
    computer player whose choice the Suggest button shows."""

    preset: str
    table: int
    rules: dict[str, Any]
    suggest: str
    suggest_time: float
    """Seconds the suggestion player may think (where its kind thinks)."""
    absent_grace: float
    """Seconds a seated person may be away before a computer player plays for them until they
    return (0: never)."""


class LevelRowJSON(_Out):
    """A row of the level table: the opponents' points from which it applies, and what it
    gives (as :class:`LevelSteps`)."""

    points: int
    declarers: int
    opponents: int
    switch: bool
    draw: bool


class LevelTableJSON(_Out):
    """The room's level table, from the engine's scoring for its rules: each row from its
    first points, lowest first, up to ``max`` points (all the card points of the pack)."""

    max: int
    rows: list[LevelRowJSON]


class RoomMessage(_Out):
    """The room: lobby, seats, spectators, configuration."""

    type: Literal["room"]
    code: str
    status: Literal["lobby", "playing", "over"]
    host: str | None
    you: You
    seats: list[SeatInfo]
    spectators: list[str]
    watchers: list[Watcher]
    config: RoomConfig
    level_table: LevelTableJSON | None
    """The match's level table (null in the lobby)."""


class TrumpJSON(_Out):
    """The trump: ``text`` in the notation (``"2H"``, ``"7NT"``, ``"NT"``)."""

    text: str
    rank: str | None
    suit: str | None


class PlayJSON(_Out):
    """One seat's cards in a trick."""

    seat: int
    cards: list[str]


class TrickJSON(_Out):
    """The trick on the table."""

    leader: int
    plays: list[PlayJSON]
    winner: int | None


class DoneTrickJSON(_Out):
    """A finished trick."""

    plays: list[PlayJSON]
    winner: int
    points: int


class TrickPoints(_Out):
    """A finished trick on the score sheet: who won it and its points."""

    winner: int
    points: int


class Penalty(_Out):
    """A failed throw on the score sheet: the thrower and the points it gave the opponents
    (negative: taken from them)."""

    seat: int
    points: int


class LevelSteps(_Out):
    """What the level table gave: levels up for each side, whether the opponents take over
    the deal, whether it was a draw."""

    declarers: int
    opponents: int
    switch: bool
    draw: bool


class RoundSheet(_Out):
    """A round's score sheet (``kitty`` is ``[]`` for seats that may not see it); ``lines``
    is the sheet in English, the other fields the same in numbers (for any language)."""

    redeal: bool
    dealer: int
    declarers: list[int]
    opponents: list[int]
    trick_points: int
    declarer_points: int
    kitty: list[str]
    kitty_points: int | None
    kitty_multiplier: int
    kitty_bonus: int
    penalty_points: int
    red_five_points: int
    points: int
    change: str | None
    levels_before: list[int]
    levels: list[int]
    next_dealer: int
    declarers_won: bool
    match_won_by: list[int]
    hooked: bool
    lost_by: int | None
    lines: list[str]
    trump: TrumpJSON | None
    tricks: list[TrickPoints]
    penalties: list[Penalty]
    steps: LevelSteps | None
    team_bonus: bool
    wrapped: list[int]


class ViewJSON(_Out):
    """The JSON form of :class:`~shengji.game.view.SeatView` (``seat`` null: a spectator)."""

    seat: int | None
    phase: str
    to_move: int | None
    hand: list[str]
    hand_sizes: list[int]
    levels: list[int]
    dealer: int | None
    declarers: list[int]
    trump: TrumpJSON | None
    bids: list[tuple[int, list[str]]]
    exposed: list[list[str]]
    kitty_turned: list[str]
    kitty: list[str] | None
    calls: list[str]
    friends: list[int]
    trick: TrickJSON | None
    tricks: list[DoneTrickJSON]
    captured: list[int]
    attacker_points: int
    target: int
    history: list[str]
    result: RoundSheet | None
    hand_suits: list[str] | None
    """Each card of ``hand``: ``"T"`` if it is a trump, else its suit letter (the engine's
    effective suit); null before the trump is known."""


class CallsJSON(_Out):
    """What a friend call may name."""

    count: int
    ordinals: list[int]
    colour: bool
    trumps: bool


class ReasonJSON(_Out):
    """An engine reason for any language: its key and parameters (``shengji.engine.reasons``;
    the browser's Chinese is in ``static/reasons.js``) and its English text."""

    key: str
    params: dict[str, Any]
    text: str


class LegalJSON(_Out):
    """What a seat may do now (the server's ``check`` is the only judge)."""

    summary: str
    summary_why: ReasonJSON
    kind: str
    """``deal``, ``bid``, ``expose``, ``declare``, ``bury``, ``call``, ``show``, ``lead`` or
    ``follow`` (a phase the engine gains later: its name)."""
    options: list[str] | None
    count: int | None
    forced: list[str]
    calls: CallsJSON | None


class FailedThrowJSON(_Out):
    """A failed throw: the match round and the trick (from 1), the thrower, and why it failed
    and what happened instead (reasons ``throw-block`` ..., ``throw-failed`` or
    ``throw-lost``, ``throw-penalty``)."""

    round: int
    seat: int
    trick: int
    why: list[ReasonJSON]


class MatchJSON(_Out):
    """The match around the round: levels, every finished round's sheet, who still reads it."""

    round: int
    levels: list[int]
    results: list[RoundSheet]
    over: bool
    winners: list[int]
    waiting: list[int]
    throws: list[FailedThrowJSON]


class StateMessage(_Out):
    """The whole redacted state of one connection."""

    type: Literal["state"]
    view: ViewJSON
    legal: LegalJSON | None
    match: MatchJSON


class ChatMessage(_Out):
    """A chat line (``seat`` null for a spectator); ``time`` in Unix seconds."""

    type: Literal["chat"]
    member: str
    name: str
    seat: int | None
    text: str
    time: float


class Checked(_Out):
    """The answer to ``check``: ``reason`` is null when the action is legal now."""

    type: Literal["checked"]
    action: str
    reason: str | None
    why: ReasonJSON | None = None
    """The reason structured, when the engine gave it."""
    code: str | None = None
    """The error code, when the server refused it before the engine (``not-your-turn`` between
    rounds, ``bad-action``, ``not-your-seat``)."""


class Suggestion(_Out):
    """The answer to ``suggest``, in the record notation, and who suggested it: the room's
    suggestion player and, where it thinks, its time (null where the action was the only
    one)."""

    type: Literal["suggestion"]
    action: str
    by: str | None
    time: float | None


class ErrorMessage(_Out):
    """A refused message; nothing changed."""

    type: Literal["error"]
    code: str
    message: str
    why: ReasonJSON | None = None
    """The engine's reason structured, when the engine refused the message."""


ServerMessage = (Welcome | RoomMessage | StateMessage | ChatMessage | Checked | Suggestion
                 | ErrorMessage)
"""Any message the server sends."""

SERVER_MESSAGE = TypeAdapter[ServerMessage](Annotated[ServerMessage,
                                                      Field(discriminator="type")])
"""Validates an outgoing message (``SERVER_MESSAGE.validate_python(data)``)."""


def error(code: str, message: str, why: Reason | None = None) -> dict[str, Any]:
    """An ``error`` message (``why``: the engine's reason, if it refused)."""
    if why is None:
        return {"type": "error", "code": code, "message": message}
    return {"type": "error", "code": code, "message": message, "why": why.as_json()}


def checked(action: str, reason: str | None, code: str | None = None) -> dict[str, Any]:
    """The answer to ``check`` (with ``why`` when the reason is the engine's, ``code`` when it
    is the server's refusal)."""
    if isinstance(reason, Reason):
        return {"type": "checked", "action": action, "reason": reason, "why": reason.as_json()}
    if code is not None:
        return {"type": "checked", "action": action, "reason": reason, "code": code}
    return {"type": "checked", "action": action, "reason": reason}


# -- encoders --------------------------------------------------------------------------------

def card_list(cards: Iterable[Card]) -> list[str]:
    """Cards as notation strings."""
    return [str(c) for c in cards]


def _trump(trump: Trump | None) -> dict[str, Any] | None:
    if trump is None:
        return None
    return {"text": str(trump), "rank": str(trump.rank) if trump.rank is not None else None,
            "suit": trump.suit.letter if trump.suit is not None else None}


def result_json(result: RoundResult) -> dict[str, Any]:
    """A score sheet as JSON (the result as the seat's view gives it: kitty hidden or not)."""
    change = result.change
    return {
        "redeal": result.redeal, "dealer": result.dealer,
        "declarers": list(result.declarers), "opponents": list(result.opponents),
        "trick_points": result.trick_points, "declarer_points": result.declarer_points,
        "kitty": card_list(result.kitty), "kitty_points": result.kitty_points,
        "kitty_multiplier": result.kitty_multiplier, "kitty_bonus": result.kitty_bonus,
        "penalty_points": result.penalty_points, "red_five_points": result.red_five_points,
        "points": result.points,
        "change": result.change.row if result.change is not None else None,
        "levels_before": list(result.levels_before), "levels": list(result.levels),
        "next_dealer": result.next_dealer, "declarers_won": result.declarers_won,
        "match_won_by": list(result.match_won_by), "hooked": result.hooked,
        "lost_by": result.lost_by, "lines": list(result.lines),
        "trump": _trump(result.trump),
        "tricks": [{"winner": w, "points": p} for w, p in result.trick_winners],
        "penalties": [{"seat": s, "points": p} for s, p in result.penalties],
        "steps": None if change is None else {
            "declarers": change.declarers_up, "opponents": change.opponents_up,
            "switch": change.switch, "draw": change.draw},
        "team_bonus": result.team_bonus, "wrapped": list(result.wrapped),
    }


class EncodeCache:
    """The JSON of a match's actions and finished tricks, kept while they live: the views
    of a round share these objects, so each is written once instead of once per message.
    Entries hold their object, so an id is never reused while it is a key."""

    def __init__(self) -> None:
        self._texts: dict[int, tuple[object, str]] = {}
        self._tricks: dict[int, tuple[object, dict[str, Any]]] = {}
        self._hands: dict[int, tuple[object, object, list[str], list[str] | None]] = {}
        self._histories: dict[int, tuple[tuple[object, ...], list[str]]] = {}

    def clear(self) -> None:
        """Forget everything (a new round: the old objects are gone from the views)."""
        self._texts.clear()
        self._tricks.clear()
        self._hands.clear()
        self._histories.clear()

    def history(self, view: SeatView) -> list[str]:
        """The view's history in the notation: a seat's history only grows, so the actions
        already written for its last view are taken as they were (when they are the same
        objects: a tuple comparison, by identity first) and only the new ones are written.
        Shared: never modified."""
        history = view.history
        known = self._histories.get(view.seat)
        if known is not None:
            actions, texts = known
            done = len(actions)
            if len(history) == done and history == actions:
                return texts
            if len(history) > done and history[:done] == actions:
                text = self.text
                texts = texts + [text(a) for a in history[done:]]
                self._histories[view.seat] = (history, texts)
                return texts
        text = self.text
        texts = [text(a) for a in history]
        self._histories[view.seat] = (history, texts)
        return texts

    def hand(self, view: SeatView) -> tuple[list[str], list[str] | None]:
        """The view's hand as notation and :func:`_hand_suits`, once per hand and trump (a
        round's views share a seat's hand until it changes; shared: never modified)."""
        hand, trump = view.hand, view.trump
        entry = self._hands.get(id(hand))
        if entry is None or entry[1] is not trump:
            entry = self._hands[id(hand)] = (hand, trump, card_list(hand), _hand_suits(view))
        return entry[2], entry[3]

    def text(self, action: object) -> str:
        """:func:`notation` of the action, once per action object."""
        entry = self._texts.get(id(action))
        if entry is None:
            entry = self._texts[id(action)] = (action, str(action))
        return entry[1]

    def trick(self, record: TrickRecord) -> dict[str, Any]:
        """A finished trick's JSON, once per record (shared: never modified)."""
        entry = self._tricks.get(id(record))
        if entry is None:
            entry = self._tricks[id(record)] = (record, {
                "plays": [{"seat": p.seat, "cards": card_list(p.cards)} for p in record.plays],
                "winner": record.winner, "points": record.points})
        return entry[1]


def view_json(view: SeatView, *, spectator: bool = False,
              cache: EncodeCache | None = None) -> dict[str, Any]:
    """The JSON form of a seat's view (``seat`` null for the view of no seat,
    :meth:`SeatView.spectator <shengji.game.view.SeatView.spectator>`, or with
    ``spectator``). A ``cache`` kept across the views of a round saves time."""
    if cache is None:
        cache = EncodeCache()
    rules = view.rules
    hand, suits = cache.hand(view)
    trick = None
    if view.trick_leader is not None:
        trick = {"leader": view.trick_leader,
                 "plays": [{"seat": p.seat, "cards": card_list(p.cards)} for p in view.trick],
                 "winner": view.trick_winner}
    return {
        "seat": None if spectator or view.is_spectator else view.seat,
        "phase": str(view.phase),
        "to_move": view.to_move,
        "hand": hand,
        "hand_sizes": list(view.hand_sizes),
        "levels": list(view.levels),
        "dealer": view.dealer,
        "declarers": list(view.declarers),
        "trump": _trump(view.trump),
        "bids": [[seat, card_list(cards)] for seat, cards in view.bids],
        "exposed": [card_list(cards) for cards in view.exposed],
        "kitty_turned": card_list(view.kitty_turned),
        "kitty": card_list(view.kitty) if view.kitty is not None else None,
        "calls": [str(c) for c in view.calls],
        "friends": list(view.friends),
        "trick": trick,
        "tricks": [cache.trick(t) for t in view.tricks],
        "captured": list(view.captured),
        "attacker_points": view.attacker_points,
        "target": rules.target_points,
        "history": cache.history(view),
        "result": result_json(view.result) if view.result is not None else None,
        "hand_suits": suits,
    }


def _hand_suits(view: SeatView) -> list[str] | None:
    """The engine's effective suit of each card of the hand (``"T"``: a trump)."""
    trump = view.trump
    if trump is None:
        return None
    letters, suits = _SUIT_LETTERS, trump.suit_index
    return [letters[suits[card]] for card in view.hand]


_SUIT_LETTERS: tuple[str, ...] = tuple(
    "T" if i == TRUMP else Suit(i).letter for i in range(TRUMP + 1))
"""Each effective suit's letter (:data:`~shengji.engine.trump.TRUMP`: ``"T"``)."""


_KINDS = {Phase.DEAL: "deal", Phase.BID: "bid", Phase.OVERBID: "bid", Phase.DECLARE: "declare",
          Phase.KITTY: "bury", Phase.CALL: "call", Phase.SHOW: "show", Phase.EXPOSE: "expose"}
_LISTED_LIMIT = 200
"""Listed options are the few actions of the deal, bidding, declaring and showing."""


def legal_json(legal: Legal, view: SeatView) -> dict[str, Any] | None:
    """What the seat may do now, for the buttons; ``None`` when it has nothing to do."""
    phase = view.phase
    rules = view.rules
    options: list[str] | None = None
    count: int | None = None
    forced: Sequence[Card] = ()
    calls: dict[str, Any] | None = None
    if phase == Phase.PLAY and view.to_move == view.seat:
        plays = legal.plays
        if isinstance(plays, LegalPlays):
            kind, count, forced = "follow", plays.count, plays.forced
        elif isinstance(plays, LegalLeads):
            kind = "lead"
        else:
            return None
    elif phase != Phase.DONE:
        kind = _KINDS.get(phase, str(phase))
        if kind == "bury":
            if legal.bury is None:
                return None
            count = legal.bury.size
        elif kind == "expose":
            count = legal.expose_limit
            if count is None:
                return None
        elif kind == "call":
            if not legal.call_count:
                return None
            calls = {"count": legal.call_count,
                     "ordinals": sorted({call.ordinal for call in legal.calls}),
                     "colour": rules.friend_calls == FriendCalls.COLOUR_RANK,
                     "trumps": rules.friend_trump_calls}
        else:
            options = [str(a) for a in islice(legal, _LISTED_LIMIT)]
            if not options:
                return None
    else:
        return None
    summary = legal.summary
    return {"summary": summary, "summary_why": summary.as_json(), "kind": kind,
            "options": options, "count": count, "forced": card_list(forced), "calls": calls}
