"""What the learned player's model reads of a lead or a follow: one row of numbers per
labelled option (:mod:`shengji.players.options`), from the seat's view alone.

A row describes the position (the trick so far, the seat's hand, what it remembers of
the cards played, the points taken) and the option (its label, points, strength, suit).
Where the friends are found in play (Finding Friends), a lead's and a follow's rows go on
with :data:`FRIEND_FEATURES` (the seat's place, the calls, the sides known).
A bury's row (:data:`BURY_FEATURES`) describes the hand it keeps and the cards it buries.
The names of the columns are :func:`columns` (:data:`FOLLOW_FEATURES`,
:data:`LEAD_FEATURES` and :data:`BURY_FEATURES`, the friends' after them); a model is
trained on exactly these rows (``scripts/train_learned.py``) and read with them
(:class:`~shengji.players.learned.LearnedPlayer`), so this module is the one place that
says what they mean. Nothing here reads a hidden card: a row depends only on the view.
"""

from __future__ import annotations

from typing import Final

from shengji.engine.cards import Card, card_points
from shengji.engine.follow import LegalPlays
from shengji.engine.lead import LegalLeads
from shengji.engine.trick import beats
from shengji.engine.trump import TRUMP as _TRUMP_SUIT
from shengji.engine.trump import Trump
from shengji.engine.units import Unit
from shengji.game.view import SeatView
from shengji.players.memory import Memory, current_winner
from shengji.players.options import (
    FOLLOW_LABELS,
    labelled_follows,
    lead_options,
    play_cost,
)

TRUMP: Final = _TRUMP_SUIT

FOLLOW_FEATURES: Final = (
    *FOLLOW_LABELS,          # the option's label (1 for its own, 0 for the others)
    "in_trick",              # plays made in the trick before this one
    "after",                 # seats still to play after this one
    "partner_winning",       # the trick's winner is on the seat's (known) side
    "trump_led",             # the led suit is trumps
    "held_in_suit",          # the seat's cards of the led suit
    "lead_size",             # cards led
    "trick_points",          # points in the trick so far
    "default_wins",          # the heuristic's choice would take the trick now
    "default_points",        # points in the heuristic's choice
    "declaring",             # the seat is (or will be) a declarer
    "hand_size",             # cards in the seat's hand
    "safe",                  # nobody still to play can beat the winning play (as known)
    "opponent_after_void",   # an opponent still to play is void in the led suit
    "unseen_in_suit",        # unseen cards of the led suit
    "ruffed",                # the winning play is trumps on a plain lead
    "points_in_suit",        # points among the seat's cards of the led suit
    "trumps_held",           # the seat's trumps
    "kitty_points",          # points in the kitty the seat buried (-1 if unknown)
    "attacker_points",       # points the non-declaring seats have taken
    "points",                # points in the option
    "wins",                  # the option would take the trick now
    "safe_win",              # ... and nobody still to play could beat it (as known)
    "trumps",                # trumps in the option
    "cost",                  # the option's worth keeping (options.play_cost)
)
"""The columns of a follow's row."""

LEAD_FEATURES: Final = (
    "top",                   # 1 for the suit's top unit, 0 for its low one
    "declaring",
    "hand_size",
    "trumps_held",
    "unseen_trumps",         # unseen trumps
    "kitty_points",
    "attacker_points",
    "trump",                 # the option is trumps
    "size",                  # its cards
    "width",                 # copies of each face (1 single, 2 pair ...)
    "sure",                  # no unseen unit beats it, nor may an opponent ruff it
    "points",
    "opponent_void",         # an opponent is void in its suit
    "partner_void",          # a known partner is void in its suit
    "suit_length",           # the seat's cards of its suit
    "unseen_in_suit",        # unseen cards of its suit
    "height",                # its top level over the levels of its suit (0 to 1)
)
"""The columns of a lead's row."""


BURY_FEATURES: Final = (
    "trumps_kept",           # trumps left in the hand
    "shortest",              # the plain suits' lengths in the hand, shortest first
    "second_shortest",
    "second_longest",
    "longest",
    "voids",                 # plain suits the hand lacks
    "buried_points",
    "buried_point_cards",
    "buried_trumps",
    "buried_high",           # plain cards of the two highest levels of their suit buried
    "pairs_kept",            # plain faces of which the hand keeps two or more
    "broken",                # faces buried of which the hand keeps a copy
    "pairs_buried",          # faces buried two or more at once
    "trump_pairs_kept",
    "points_kept",
    "high_kept",             # plain cards of the two highest levels of their suit kept
    "buried_cost",           # the buried cards' worth keeping (options.card_cost)
    "plain_kept",            # plain cards left in the hand
    "singletons",            # plain suits of one card left
    "doubletons",            # plain suits of two cards left
)
"""The columns of a bury's row."""
FEATURES: Final = {"lead": LEAD_FEATURES, "follow": FOLLOW_FEATURES, "bury": BURY_FEATURES}
"""The columns of each kind of decision's rows (the kinds a model's forests serve) where
the partnerships are fixed."""

FRIEND_FEATURES: Final = (
    "after_dealer",          # the seat's place after the dealer (0: the dealer)
    "players",               # seats at the table
    "calls_open",            # friend calls not yet answered
    "friends_found",         # seats known to be the dealer's friends
    "known_side",            # seats the seat knows on its side, itself included
    "holds_call",            # the seat holds a called card that will make it a friend
    "dealer_winning",        # the dealer's play wins the trick so far (0 at a lead)
    "points_needed",         # points the non-declaring seats still need to win the round
    "declarer_points",       # points the declaring seats have taken
    "plays_call",            # the option plays a card of a call not yet answered
)
"""The columns after a lead's and a follow's where the friends are found in play."""


def columns(kind: str, fluid: bool) -> tuple[str, ...]:
    """The columns of ``kind``'s rows (a key of :data:`FEATURES`); ``fluid``: the friends
    are found in play (``Rules.partnership`` fluid), where a lead's and a follow's rows
    end with :data:`FRIEND_FEATURES`."""
    names: tuple[str, ...] = FEATURES[kind]
    return names + FRIEND_FEATURES if fluid and kind != "bury" else names


class Rows:
    """The options of one decision and the model's rows for them (same order)."""

    def __init__(self, options: list[tuple[Card, ...]], rows: list[list[float]]) -> None:
        self.options = options
        self.rows = rows


def _suit_count(cards: tuple[Card, ...], suit: int, trump: Trump) -> int:
    index = trump.suit_index
    found = 0
    for card in cards:
        if index[card] == suit:
            found += 1
    return found


def _unseen_in(memory: Memory, suit: int, trump: Trump) -> int:
    """The unseen cards of ``suit`` (from the memory's counts by level, read once)."""
    found = 0
    for by_face in memory.unseen_in(suit, trump).values():
        for count in by_face.values():
            found += count
    return found


def _common(view: SeatView, memory: Memory) -> tuple[float, float, float]:
    """(declaring, kitty points or -1, points taken by the non-declaring seats)."""
    kitty = view.kitty
    taken = 0
    declarers = view.declarers
    for seat, points in enumerate(view.captured):
        if seat not in declarers:
            taken += points
    return (1.0 if memory.declaring() else 0.0,
            float(card_points(kitty)) if kitty is not None else -1.0, float(taken))


def _friends(view: SeatView, memory: Memory, side: set[int], winner: int | None
             ) -> list[float]:
    """The position's :data:`FRIEND_FEATURES` (all but the option's ``plays_call``);
    ``side``: the seats known on the seat's side (``memory.side()``, read once by the
    caller); ``winner``: the seat winning the trick so far (``None`` at a lead)."""
    players = view.rules.players
    dealer = view.dealer
    tracker = memory.tracker
    open_calls = 0
    if tracker is not None:
        for done in tracker.done:
            if not done:
                open_calls += 1
    taken = view.attacker_points
    declared = sum(view.captured) - taken
    return [
        float((view.seat - dealer) % players) if dealer is not None else 0.0,
        float(players), float(open_calls), float(len(view.friends)),
        float(len(side)), 1.0 if memory.holds_call() else 0.0,
        1.0 if winner is not None and winner == dealer else 0.0,
        float(view.rules.target_points - taken), float(declared),
    ]


def _plays_call(cards: tuple[Card, ...], memory: Memory) -> float:
    """1 if ``cards`` hold a card of a friend call not yet answered."""
    tracker = memory.tracker
    if tracker is None:
        return 0.0
    for i, call in enumerate(tracker.calls):
        if not tracker.done[i]:
            for card in cards:
                if call.matches(card):
                    return 1.0
    return 0.0


def follow_rows(view: SeatView, legal: LegalPlays, memory: Memory,
                default: tuple[Card, ...]) -> Rows:
    """The labelled follows and their rows (:func:`columns`); ``default`` is the
    heuristic's choice."""
    trump = legal.trump
    labelled = labelled_follows(view, legal)
    state = current_winner(view, trump, legal.lead)
    if not labelled or state is None:
        return Rows([], [])
    winner, reading, lead = state
    players = view.rules.players
    trick = view.trick
    seat = view.seat
    after = [(seat + k) % players for k in range(1, players - len(trick))]
    side = memory.side()
    led = lead.suit
    voids = memory.voids
    hand = view.hand
    declaring, kitty_points, taken = _common(view, memory)
    points_in_suit = 0
    for card in hand:
        if trump.suit_index[card] == led:
            points_in_suit += card.points
    trick_points = 0
    for play in trick:
        trick_points += card_points(play.cards)
    opponent_after_void = 0.0
    for s in after:
        if s not in side and led in voids[s]:
            opponent_after_void = 1.0
    position = [
        float(len(trick)), float(len(after)),
        1.0 if winner in side and winner != seat else 0.0,
        1.0 if led == TRUMP else 0.0,
        float(_suit_count(hand, led, trump)), float(lead.size), float(trick_points),
        1.0 if beats(default, reading, lead, trump, view.rules) is not None else 0.0,
        float(card_points(default)),
        declaring, float(len(hand)),
        1.0 if memory.safe(reading, after, side, lead) else 0.0,
        opponent_after_void, float(_unseen_in(memory, led, trump)),
        1.0 if reading[0].suit == TRUMP and led != TRUMP else 0.0,
        float(points_in_suit), float(_suit_count(hand, TRUMP, trump)), kitty_points, taken,
    ]
    friends = _friends(view, memory, side, winner) if memory.fluid else None
    options: list[tuple[Card, ...]] = []
    rows: list[list[float]] = []
    for label, cards, better in labelled:
        safe_win = better is not None and memory.safe(better, after, side, lead)
        row = [1.0 if label == name else 0.0 for name in FOLLOW_LABELS]
        row += position
        row += [float(card_points(cards)), 1.0 if better is not None else 0.0,
                1.0 if safe_win else 0.0, float(_suit_count(cards, TRUMP, trump)),
                play_cost(cards, trump)]
        if friends is not None:
            row += friends
            row.append(_plays_call(cards, memory))
        options.append(cards)
        rows.append(row)
    return Rows(options, rows)


def lead_rows(view: SeatView, legal: LegalLeads, memory: Memory) -> Rows:
    """The labelled leads and their rows (:func:`columns`)."""
    trump = legal.trump
    hand = view.hand
    side = memory.side()
    voids = memory.voids
    players = view.rules.players
    declaring, kitty_points, taken = _common(view, memory)
    trumps_held = float(_suit_count(hand, TRUMP, trump))
    unseen_trumps = float(_unseen_in(memory, TRUMP, trump))
    options: list[tuple[Card, ...]] = []
    rows: list[list[float]] = []
    unseen: dict[int, float] = {}  # (each suit's top and low unit: counted once)
    friends = _friends(view, memory, side, None) if memory.fluid else None
    for label, unit in lead_options(legal):
        suit = unit.suit
        if suit not in unseen:
            unseen[suit] = float(_unseen_in(memory, suit, trump))
        opponent_void = partner_void = False
        for s in range(players):
            if suit in voids[s]:
                if s not in side:
                    opponent_void = True
                elif s != view.seat:
                    partner_void = True
        sure = not memory.beaten(suit, unit, trump) and (suit == TRUMP or not opponent_void)
        row = [
            1.0 if label == "top" else 0.0, declaring, float(len(hand)), trumps_held,
            unseen_trumps, kitty_points, taken, 1.0 if suit == TRUMP else 0.0,
            float(unit.size), float(unit.width), 1.0 if sure else 0.0,
            float(card_points(unit.cards)), 1.0 if opponent_void else 0.0,
            1.0 if partner_void else 0.0, float(_suit_count(hand, suit, trump)),
            unseen[suit], _height(unit, trump),
        ]
        if friends is not None:
            row += friends
            row.append(_plays_call(unit.cards, memory))
        rows.append(row)
        options.append(unit.cards)
    return Rows(options, rows)


def option_rows(view: SeatView, plays: LegalLeads | LegalPlays, memory: Memory,
                default: tuple[Card, ...]) -> tuple[str, Rows]:
    """The decision's kind (``"lead"`` or ``"follow"``) and its labelled options' rows
    (:func:`lead_rows` or :func:`follow_rows`; ``default`` is the heuristic's choice)."""
    if isinstance(plays, LegalLeads):
        return "lead", lead_rows(view, plays, memory)
    return "follow", follow_rows(view, plays, memory, default)


def bury_rows(view: SeatView, buries: list[tuple[Card, ...]]) -> list[list[float]]:
    """A row (:data:`BURY_FEATURES`) for each of ``buries`` (cards from the seat's hand,
    which holds the kitty), in order."""
    trump = view.trump
    assert trump is not None
    index, levels = trump.suit_index, trump.levels
    held: dict[Card, int] = {}
    for card in view.hand:
        held[card] = held.get(card, 0) + 1
    rows: list[list[float]] = []
    for cards in buries:
        buried: dict[Card, int] = {}
        for card in cards:
            buried[card] = buried.get(card, 0) + 1
        lengths = [0] * 5
        points_kept = high_kept = pairs_kept = trump_pairs = 0
        for card, count in held.items():
            n = count - buried.get(card, 0)
            if n <= 0:
                continue
            suit = index[card]
            lengths[suit] += n
            points_kept += card.points * n
            if suit == TRUMP:
                trump_pairs += n >= 2
            else:
                pairs_kept += n >= 2
                high_kept += n if levels[card] >= trump.suit_size(suit) - 2 else 0
        points = point_cards = trumps = high = broken = pairs = 0
        for card, n in buried.items():
            suit = index[card]
            points += card.points * n
            point_cards += n if card.points else 0
            if suit == TRUMP:
                trumps += n
            elif levels[card] >= trump.suit_size(suit) - 2:
                high += n
            broken += held[card] > n
            pairs += n >= 2
        plain = sorted(lengths[:4])
        rows.append([float(v) for v in (
            lengths[TRUMP], *plain, plain.count(0), points, point_cards, trumps, high,
            pairs_kept, broken, pairs, trump_pairs, points_kept, high_kept)]
            + [play_cost(cards, trump), float(sum(plain)), float(plain.count(1)),
               float(plain.count(2))])
    return rows


def _height(unit: Unit, trump: Trump) -> float:
    size = trump.suit_size(unit.suit)
    return unit.top / (size - 1) if size > 1 else 1.0


__all__ = ["BURY_FEATURES", "FEATURES", "FOLLOW_FEATURES", "FRIEND_FEATURES", "LEAD_FEATURES",
           "Rows", "bury_rows", "columns", "follow_rows", "lead_rows", "option_rows"]
