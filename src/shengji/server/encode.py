"""The JSON encoders of a seat's view, its legal actions and a round's result: the plain
dicts of the ``state`` message (:class:`~shengji.server.schemas.StateMessage` describes
them; built directly, fast enough to send after every action)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import islice
from typing import Any

from shengji.engine.cards import Card, Suit
from shengji.engine.follow import LegalPlays
from shengji.engine.lead import LegalLeads
from shengji.engine.rules import FriendCalls
from shengji.engine.trump import TRUMP, Trump
from shengji.game.legal import Legal
from shengji.game.phase import Phase
from shengji.game.scoresheet import RoundResult, TrickRecord
from shengji.game.view import SeatView


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
        "last_trick_bonus": result.last_trick_bonus, "next_bid_for": result.next_bid_for,
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
