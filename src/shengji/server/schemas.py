"""Every websocket message of ``docs/protocol.md`` as a pydantic model.

Incoming messages are read with :func:`read_client_message`, which refuses anything that is
not exactly one of the client messages (bad JSON, unknown type, unknown or mistyped field) with a
:class:`MessageError` carrying the protocol's error code. Outgoing ``state`` messages are built
as plain dicts by :mod:`shengji.server.encode` (fast enough to send after every action);
:data:`SERVER_MESSAGE` validates any outgoing message (the tests run every message they receive
through it).
"""

from __future__ import annotations

import json
import unicodedata
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

from shengji.engine.reasons import Reason
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


class Review(_In):
    """Ask for the review of one's own decisions in the last finished round (answered with
    ``review``, to this connection only)."""

    type: Literal["review"]


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
                 | ActionMessage | Check | Suggest | Review | Chat | Kick | NewMatch | NextRound)
"""Any message a client may send."""

_CLIENT = TypeAdapter[ClientMessage](Annotated[ClientMessage, Field(discriminator="type")])
CLIENT_TYPES: tuple[str, ...] = ("hello", "sit", "stand", "configure", "add_bot", "remove",
                                 "move", "start", "replace", "action", "check", "suggest",
                                 "review", "chat", "kick", "new_match", "next_round")


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
    no_model: NoModel | None
    """In the lobby, the computer players no learned model fits the rules for (null where
    every one fits, and during a match)."""


class NoModel(_Out):
    """The computer players that would use a learned model and find none for the room's
    table (they fall back on the heuristic): their kinds, the table's players and decks,
    whether its partners are fixed (else found in play), and one English note per kind."""

    kinds: list[str]
    players: int
    decks: int
    fixed: bool
    notes: list[str]


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
    last_trick_bonus: int
    next_bid_for: bool


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


class ReviewMessage(_Out):
    """The review of the asking seat's decisions in a finished round: ``analysis`` as
    ``shengji analyze --json`` writes it (:meth:`shengji.analysis.Analysis.to_dict`)."""

    type: Literal["review"]
    round: int
    seat: int
    analysis: dict[str, Any]


class ErrorMessage(_Out):
    """A refused message; nothing changed."""

    type: Literal["error"]
    code: str
    message: str
    why: ReasonJSON | None = None
    """The engine's reason structured, when the engine refused the message."""


ServerMessage = (Welcome | RoomMessage | StateMessage | ChatMessage | Checked | Suggestion
                 | ReviewMessage | ErrorMessage)
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
