"""The rules value: every option of a table's house rules, with validation.

One frozen :class:`Rules` value configures a table's house rules. Options are
plain strings (``StrEnum``) so that rules read from TOML/JSON map directly.
Defaults are the most common modern Tractor rules (4 players, 2 decks).

>>> Rules().decks, Rules(decks=3).tuple_follow
(2, <TupleFollow.DRAW_OUT: 'draw-out'>)
>>> Rules(tractor_min_width=5)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
shengji.engine.rules.RulesError: tractor_min_width is 5 but there are only 2 decks ...
>>> Rules(players=0)
Traceback (most recent call last):
...
shengji.engine.rules.RulesError: players must be at least 2 and at most 20, got 0
"""

from __future__ import annotations

import dataclasses
import reprlib
from collections.abc import Callable
from dataclasses import dataclass, fields
from enum import StrEnum
from functools import cached_property

from shengji.engine.caches import remember
from shengji.engine.cards import Rank, Suit
from shengji.engine.choices import (  # the options' choices, re-exported (__all__)
    AfterEnd,
    DealerRotation,
    FailedThrow,
    FirstDealer,
    FirstDraw,
    FluidBidders,
    FriendCallAllHeld,
    FriendCalls,
    JokerBids,
    KittyJoker,
    KittyMultiplier,
    KittyOverbidBy,
    LeftoverSteps,
    LevelTable,
    NoBid,
    Partnership,
    RedealShow,
    ThrowBeat,
    ThrowCheck,
    ThrowPenalty,
    TractorFollow,
    TrumpChoice,
    TupleFollow,
)
from shengji.engine.reasons import Param, Reason
from shengji.engine.trump import Trump

__all__ = [
    "FLUID_OVERBIDS",
    "MAX_DECKS",
    "MAX_LEVEL_ROWS",
    "MAX_LEVEL_STEP",
    "MAX_PENALTY",
    "MAX_PLAYERS",
    "MAX_POINTS",
    "MAX_TRACTOR_LENGTH",
    "AfterEnd",
    "DealerRotation",
    "FailedThrow",
    "FirstDealer",
    "FirstDraw",
    "FluidBidders",
    "FriendCallAllHeld",
    "FriendCalls",
    "JokerBids",
    "KittyJoker",
    "KittyMultiplier",
    "KittyOverbidBy",
    "LeftoverSteps",
    "LevelTable",
    "NoBid",
    "Partnership",
    "RedealShow",
    "Rules",
    "RulesError",
    "ThrowBeat",
    "ThrowCheck",
    "ThrowPenalty",
    "TractorFollow",
    "TrumpChoice",
    "TupleFollow",
    "short_repr",
]


class RulesError(ValueError):
    """An option is unknown, out of range or contradicts another; ``option`` names the
    option to blame where there is one (readers of files use it to point at its line);
    ``why`` is the message as a :class:`~shengji.engine.reasons.Reason` (key and
    parameters, for other languages) when it was made as one (every error of
    :class:`Rules`)."""

    def __init__(self, message: str, option: str | None = None) -> None:
        super().__init__(message)
        self.option = option
        self.why = message if isinstance(message, Reason) else None


FLUID_OVERBIDS = ("own-rank", "maker-rank", "jokers-rank", "jokers-only")
"""Overbids of seed wikipedia_2006's fluid games, rules (1)-(4)."""


MAX_PLAYERS = 20
"""The most players at one table."""
MAX_DECKS = 8
"""The most decks in one pack."""
MAX_TRACTOR_LENGTH = 12
"""The largest ``tractor_min_length``."""
MAX_PENALTY = 200
"""The largest ``throw_penalty_points`` and ``red_five_penalty``."""
MAX_LEVEL_STEP = 12
"""The largest level change of one ``custom_levels`` row, either way (2 to A is 12 levels)."""
MAX_LEVEL_ROWS = 32
"""The most rows of ``custom_levels``."""
MAX_POINTS = 10_000
"""The largest points option (``target``, ``draw_at``, ``custom_levels``): far past the
100 points of a deck, as the kitty multiplier can take a round past the pack's own."""


@dataclass(frozen=True)
class Rules:
    """A table's rules. Every field is an option; what each does, its values and its help in
    English and Chinese are in :data:`shengji.engine.options_help.OPTIONS` (the one source of
    the options' help, listed in ``docs/options.md``).

    Every option is checked when the value is made: booleans must be ``bool``, integers
    ``int`` within the range their help gives (``_RANGES``), enum options one of their
    strings, ranks a :class:`Rank` or its notation. A bad option raises :class:`RulesError`
    naming the option (``error.option``), the value and what is allowed.
    """

    # table and deck
    players: int = 4
    decks: int = 2
    partnership: Partnership = Partnership.FIXED
    kitty: int | None = None
    big_jokers: int | None = None
    small_jokers: int | None = None
    remove_low: bool = False
    removed_ranks: tuple[Rank, ...] = ()
    # combinations and play
    tractor_min_width: int = 2
    tractor_min_length: int = 2
    tractor_high_trumps: bool = True
    red_fives: int = 0
    second_rank: Rank | None = None
    rank_suit_order: tuple[Suit, ...] | None = None
    tuple_follow: TupleFollow = TupleFollow.DRAW_OUT
    tractor_follow: TractorFollow = TractorFollow.TRACTOR
    throws: bool = True
    throw_mixed: bool = True
    throw_blocked_by_equal: bool = False
    throw_check: ThrowCheck = ThrowCheck.ALL
    failed_throw: FailedThrow = FailedThrow.LOWEST
    throw_penalty: ThrowPenalty = ThrowPenalty.NONE
    throw_penalty_points: int = 10
    throw_beat: ThrowBeat = ThrowBeat.LARGEST_UNIT
    bombs: int = 0
    bomb_follow_suit: bool = False
    rainbow: int = 0
    rainbow_throws: bool = False
    throw_tiebreak: bool = False
    # dealing and bidding
    trump_choice: TrumpChoice = TrumpChoice.BID
    expose: int = 0
    first_draw: FirstDraw = FirstDraw.DEALER
    first_dealer: FirstDealer = FirstDealer.FIRST_BIDDER
    bid_reinforce: bool = True
    bid_switch_suit: bool = False
    bid_equal_override: bool = False
    bid_withdraw: bool = False
    bid_after_outbid: bool = False
    bid_reinforce_equal: bool = False
    bid_reinforce_after_bury: bool = False
    joker_bids: JokerBids = JokerBids.IDENTICAL
    fluid_overbid: tuple[str, ...] = ("own-rank",)
    fluid_bidders: FluidBidders = FluidBidders.ALL
    no_bid: NoBid = NoBid.KITTY_RANK
    no_bid_joker: KittyJoker = KittyJoker.NEXT
    redeal_show: RedealShow = RedealShow.OFF
    redeal_dealer_partner: bool = False
    redeal_first_bidder: bool = False
    kitty_overbid: bool = False
    kitty_overbid_takes_dealer: bool = False
    kitty_overbid_by: KittyOverbidBy = KittyOverbidBy.OTHERS
    kitty_overbid_limit: int | None = None
    # kitty
    kitty_points_allowed: bool = True
    kitty_multiplier: KittyMultiplier = KittyMultiplier.UNIT_SIZE
    kitty_revealed: bool = True
    # friends (fluid partnerships)
    friends: int | None = None
    friend_calls: FriendCalls = FriendCalls.ORDINAL
    friend_trump_calls: bool = False
    friend_caller_counts: bool = True
    friend_call_all_held: FriendCallAllHeld = FriendCallAllHeld.ALONE
    friend_call_points: bool = True
    friend_call_top: bool = True
    smaller_team_bonus: bool = False
    # scoring and levels
    target: int | None = None
    level_table: LevelTable = LevelTable.STANDARD
    custom_levels: tuple[tuple[int, int], ...] = ()
    draw_at: int | None = None
    below_zero: bool = False
    kitty_to_declarers: bool = False
    last_trick_multiplier: bool = False
    red_five_penalty: int = 0
    # the match
    start_rank: Rank = Rank.TWO
    end_rank: Rank = Rank.ACE
    after_end: AfterEnd = AfterEnd.WIN
    leftover_steps: LeftoverSteps = LeftoverSteps.DROP
    mandatory_ranks: tuple[Rank, ...] = ()
    mandatory_win: bool = False
    pass_end_freely: bool = False
    hook_and_needle: bool = False
    dealer_rotation: DealerRotation = DealerRotation.STANDARD

    def __post_init__(self) -> None:
        for item in fields(self):
            name = item.name
            value = getattr(self, name)
            converted = _convert(name, str(item.type), value)
            if converted is not value:
                object.__setattr__(self, name, converted)
        if list(self.removed_ranks) != sorted(self.removed_ranks):  # any order, kept sorted
            object.__setattr__(self, "removed_ranks", tuple(sorted(self.removed_ranks)))
        self._check_removed()
        self._check_ranges()
        self._validate()

    def _check_removed(self) -> None:
        """``removed_ranks`` (sorted): no rank twice, no point rank, the lowest from 2 up
        (before the ranges: the pack's size depends on it)."""
        removed = self.removed_ranks
        if len(set(removed)) != len(removed):
            raise RulesError(Reason("rules-removed-repeat"), "removed_ranks")
        for rank in removed:
            if rank in _POINT_RANKS:
                raise RulesError(Reason("rules-removed-point", rank=str(rank)), "removed_ranks")
        if removed != tuple(Rank)[:len(removed)]:
            raise RulesError(Reason("rules-removed-lowest",
                                    ranks=", ".join(str(r) for r in removed)), "removed_ranks")

    def _check_ranges(self) -> None:
        """Every integer option within its range (``players`` and ``decks`` first: the
        other ranges depend on them)."""
        for name, bounds in _RANGES.items():
            value = getattr(self, name)
            if value is None:
                continue
            low, high, why = bounds(self)
            if low <= value <= high:
                continue
            if name == "tractor_min_width" and value > high:
                raise RulesError(Reason("rules-width", value=short_repr(value),
                                        decks=self.decks, high=high), name)
            raise RulesError(Reason("rules-range", option=name, low=low, high=high, why=why,
                                    value=short_repr(value)), name)
        levels = self.custom_levels
        if len(levels) > MAX_LEVEL_ROWS:
            raise RulesError(Reason("rules-level-rows", n=len(levels), most=MAX_LEVEL_ROWS),
                             "custom_levels")
        for low, change in levels:
            if not 0 <= low <= MAX_POINTS:
                raise RulesError(Reason("rules-level-points", value=short_repr(low),
                                        most=MAX_POINTS), "custom_levels")
            if not -MAX_LEVEL_STEP <= change <= MAX_LEVEL_STEP:
                raise RulesError(Reason("rules-level-step", value=short_repr(change),
                                        low=-MAX_LEVEL_STEP, high=MAX_LEVEL_STEP),
                                 "custom_levels")

    def _validate(self) -> None:
        cards = self.deck_size
        removed = self.removed_ranks
        second = () if self.second_rank is None else (self.second_rank,)
        for option, ranks in (("end_rank", (self.end_rank,)), ("second_rank", second),
                              ("mandatory_ranks", self.mandatory_ranks)):
            for rank in ranks:
                if rank in removed:  # (end_rank kept and start_rank <= end_rank: a level)
                    raise RulesError(Reason("rules-removed-kept", option=option,
                                            rank=str(rank)), option)
        checks: list[tuple[bool, str, str, dict[str, Param]]] = [
            (self.partnership == Partnership.FLUID or self.players % 2 == 0,
             "players", "rules-odd-players", {"players": self.players}),
            (self.remove_low or (cards - self.kitty_size) % self.players == 0,
             "kitty", "rules-uneven-deal", {"kitty": self.kitty_size,
                                            "left": cards - self.kitty_size,
                                            "players": self.players}),
            (self.friend_count <= self.players - 2,
             "friends", "rules-no-opponents", {"n": self.friend_count, "players": self.players}),
            (self.partnership == Partnership.FLUID or self.friends in (None, 0),
             "friends", "rules-fixed-friends", {}),
            (len(set(self.fluid_overbid)) == len(self.fluid_overbid),
             "fluid_overbid", "rules-overbid-repeat", {"overbids": self.fluid_overbid}),
            (self.bombs != 1, "bombs", "rules-bomb-one", {}),
            (self.rainbow != 1, "rainbow", "rules-rainbow-one", {}),
            (not self.expose or self.trump_choice == TrumpChoice.DEALER,
             "expose", "rules-expose-dealer", {}),
            (self.start_rank <= self.end_rank,
             "start_rank", "rules-rank-order", {"start": str(self.start_rank),
                                                "end": str(self.end_rank)}),
            (all(self.start_rank <= r <= self.end_rank for r in self.mandatory_ranks),
             "mandatory_ranks", "rules-mandatory-range", {}),
            (len(set(self.rank_suit_order or ())) == len(self.rank_suit_order or ()),
             "rank_suit_order", "rules-suit-repeat", {}),
            (len(set(self.mandatory_ranks)) == len(self.mandatory_ranks),
             "mandatory_ranks", "rules-rank-repeat", {}),
            ((self.level_table == LevelTable.CUSTOM) == bool(self.custom_levels),
             "custom_levels", "rules-custom-table", {}),
            (not self.custom_levels or self.custom_levels[0][0] == 0,
             "custom_levels", "rules-custom-zero", {}),
            (all(a[0] < b[0] for a, b in zip(
                self.custom_levels, self.custom_levels[1:], strict=False)),
             "custom_levels", "rules-custom-increase", {}),
        ]
        for ok, option, key, params in checks:
            if not ok:
                raise RulesError(Reason(key, **params), option)

    @cached_property
    def joker_counts(self) -> tuple[int, int]:
        """(big, small) jokers in the pack."""
        big = self.decks if self.big_jokers is None else self.big_jokers
        small = self.decks if self.small_jokers is None else self.small_jokers
        return big, small

    @cached_property
    def deck_size(self) -> int:
        """Cards in the pack: ``decks`` decks less their ``removed_ranks``, and the jokers."""
        return (52 - 4 * len(self.removed_ranks)) * self.decks + sum(self.joker_counts)

    @cached_property
    def first_rank(self) -> Rank:
        """The first level: ``start_rank``, or the lowest rank kept above it when
        ``removed_ranks`` takes it out. Matches start here, and levels wrap and hook back
        to it.

        >>> Rules().first_rank, Rules(removed_ranks=(2, 3)).first_rank
        (<Rank.TWO: 2>, <Rank.FOUR: 4>)
        >>> Rules(removed_ranks=(2,), start_rank=5).first_rank
        <Rank.FIVE: 5>
        """
        return min(r for r in Rank if r >= self.start_rank and r not in self.removed_ranks)

    @cached_property
    def kitty_size(self) -> int:
        """The kitty: as given, else the remainder of an even deal, made at least 5 by
        taking one more round of cards (8 for 4 players and 2 decks, 6 for one deck)."""
        if self.kitty is not None:
            return self.kitty
        size = self.deck_size % self.players
        while size < 5 and size + self.players < self.deck_size:
            size += self.players
        return size

    @cached_property
    def removed_count(self) -> int:
        """With ``remove_low``: the cards taken out of the pack so that the rest less the
        kitty deals evenly, the lowest first: every copy of 2♣, then 2♦, 2♥, 2♠, 3♣ ...,
        skipping point cards and the round's possible trump ranks (and starting above the
        ``removed_ranks``, which are not in the pack)."""
        return (self.deck_size - self.kitty_size) % self.players if self.remove_low else 0

    @cached_property
    def hand_size(self) -> int:
        """Cards dealt to each player."""
        return (self.deck_size - self.removed_count - self.kitty_size) // self.players

    @cached_property
    def friend_count(self) -> int:
        """Friends the dealer calls: as given, else one per two players beyond the
        first four (one for 4-5 players, two for 6-7, ...); none with fixed partners."""
        if self.partnership == Partnership.FIXED:
            return 0
        if self.friends is not None:
            return self.friends
        return max(1, (self.players - 2) // 2)

    @cached_property
    def target_points(self) -> int:
        """Points the opponents need to take the deal: as given, else 40 × decks."""
        return 40 * self.decks if self.target is None else self.target

    def trump(self, rank: Rank | None, suit: Suit | None = None) -> Trump:
        """The round's trump under these rules (applies the red-five variant)."""
        second = self.second_rank if rank is not None and self.second_rank != rank else None
        key = (rank, suit, second, self.red_fives, self.rank_suit_order)
        trump = _TRUMPS.get(key)
        if trump is None:  # a Trump is immutable: rounds share one per key
            trump = remember(_TRUMPS, key, Trump(rank, suit, second_rank=second,
                                                 red_fives=self.red_fives,
                                                 rank_suit_order=self.rank_suit_order), 4096)
        return trump

    def replace(self, **changes: object) -> Rules:
        """A copy with some options changed (validated again; an unknown name is a
        :class:`RulesError` too)."""
        for name in changes:
            if name not in _OPTION_NAMES:
                raise RulesError(Reason("rules-unknown", name=short_repr(name)), name)
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]


def short_repr(value: object) -> str:
    """``repr(value)`` cut short for messages: long strings, lists, deep nesting and huge
    integers are abbreviated, so that an error message stays one short line.

    >>> short_repr("x" * 100)
    "'xxxxxxxxxxxxxxxxx...xxxxxxxxxxxxxxxxxx'"
    >>> short_repr([[[[1]]]]), short_repr(10 ** 5000)
    ('[[[[...]]]]', 'an integer of 16610 bits')
    """
    if isinstance(value, int) and value.bit_length() > 128:
        return f"an integer of {value.bit_length()} bits"
    return _SHORT.repr(value)


_POINT_RANKS = (Rank.FIVE, Rank.TEN, Rank.KING)
"""The ranks of the point cards (never removed: see ``removed_ranks``)."""

_TRUMPS: dict[tuple[Rank | None, Suit | None, Rank | None, int, tuple[Suit, ...] | None],
              Trump] = {}
"""The trumps :meth:`Rules.trump` compiled, by their options."""

_SHORT = reprlib.Repr()
_SHORT.maxstring = 40
_SHORT.maxother = 40
_SHORT.maxlong = 40
_SHORT.maxlevel = 3


def _wrong(name: str, value: object, kind: str) -> RulesError:
    """``name`` must be of ``kind`` (see ``rules-type`` in :mod:`~shengji.engine.reasons`)."""
    return RulesError(Reason("rules-type", option=name, kind=kind, value=short_repr(value)),
                      name)


def _rank(value: object, name: str) -> Rank:
    if isinstance(value, Rank):
        return value
    try:
        if isinstance(value, str):
            return Rank.parse(value)
        if isinstance(value, int) and not isinstance(value, bool):
            return Rank(value)
    except ValueError:
        pass
    raise _wrong(name, value, "rank")


def _suit(value: object, name: str) -> Suit:
    if isinstance(value, Suit):
        return value
    if isinstance(value, str):
        try:
            return Suit.parse(value)
        except ValueError:
            pass
    raise _wrong(name, value, "suit")


def _sequence(name: str, value: object, most: int, kind: str) -> tuple[object, ...]:
    if not isinstance(value, list | tuple):
        raise _wrong(name, value, kind)
    if len(value) > most:
        raise RulesError(Reason("rules-entries", option=name, n=len(value), most=most), name)
    return tuple(value)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _level_row(value: object) -> tuple[int, int]:
    if isinstance(value, list | tuple) and len(value) == 2 and all(map(_is_int, value)):
        return int(value[0]), int(value[1])
    raise _wrong("custom_levels", value, "row")


def _overbid(value: object) -> str:
    if isinstance(value, str) and value in FLUID_OVERBIDS:
        return value
    raise RulesError(Reason("rules-overbid", allowed=FLUID_OVERBIDS, value=short_repr(value)),
                     "fluid_overbid")


def _convert(name: str, kind: str, value: object) -> object:
    """One option checked for its type (``kind``: the field's annotation) and normalised:
    enums from their strings, ranks and suits from their notation, lists to tuples."""
    if kind.endswith(" | None"):
        if value is None:
            return None
        kind = kind.removesuffix(" | None")
    enum = _ENUM_FIELDS.get(name)
    if enum is not None:
        try:
            return enum(value)  # type: ignore[arg-type]
        except (ValueError, TypeError):
            raise RulesError(Reason("rules-choice", option=name, value=short_repr(value),
                                    allowed=tuple(str(v) for v in enum)), name) from None
    if kind == "bool":
        if not isinstance(value, bool):
            raise _wrong(name, value, "bool")
        return value
    if kind == "int":
        if not _is_int(value):
            raise _wrong(name, value, "int")
        return value
    if kind == "Rank":
        return _rank(value, name)
    if kind == "tuple[Rank, ...]":
        return tuple(_rank(r, name) for r in _sequence(name, value, 13, "ranks"))
    if kind == "tuple[Suit, ...]":
        return tuple(_suit(s, name) for s in _sequence(name, value, 4, "suits"))
    if kind == "tuple[str, ...]":
        return tuple(_overbid(o) for o in _sequence(name, value, len(FLUID_OVERBIDS),
                                                    "overbids"))
    if kind == "tuple[tuple[int, int], ...]":
        return tuple(_level_row(row) for row in _sequence(name, value, MAX_LEVEL_ROWS,
                                                          "rows"))
    raise AssertionError(f"option {name} of unknown type {kind}")  # pragma: no cover


_RANGES: dict[str, Callable[[Rules], tuple[int, int, tuple[Param, ...]]]] = {
    "players": lambda r: (2, MAX_PLAYERS, ()),
    "decks": lambda r: (1, MAX_DECKS, ()),
    "big_jokers": lambda r: (0, r.decks, ("per-deck",)),
    "small_jokers": lambda r: (0, r.decks, ("per-deck",)),
    "kitty": lambda r: (0, r.deck_size - r.players, ("pack", r.deck_size)),
    "tractor_min_width": lambda r: (1, max(2, r.decks), ()),
    "tractor_min_length": lambda r: (2, MAX_TRACTOR_LENGTH, ()),
    "red_fives": lambda r: (0, 2, ("red-fives",)),
    "throw_penalty_points": lambda r: (0, MAX_PENALTY, ()),
    "bombs": lambda r: (0, r.decks, ("bombs",)),
    "rainbow": lambda r: (0, 4, ("rainbow",)),
    "expose": lambda r: (0, r.hand_size, ("hand",)),
    "kitty_overbid_limit": lambda r: (1, 100, ()),
    "friends": lambda r: (0, r.players - 2, ("friends", r.players)),
    "target": lambda r: (5, MAX_POINTS, ()),
    "draw_at": lambda r: (0, MAX_POINTS, ()),
    "red_five_penalty": lambda r: (0, MAX_PENALTY, ()),
}
"""The range of every integer option, in the order checked, with what explains it (the
``bound`` of reason ``rules-range``)."""

_OPTION_NAMES = frozenset(f.name for f in fields(Rules))


_ENUM_FIELDS: dict[str, type[StrEnum]] = {
    "tuple_follow": TupleFollow,
    "tractor_follow": TractorFollow,
    "throw_check": ThrowCheck,
    "failed_throw": FailedThrow,
    "throw_penalty": ThrowPenalty,
    "throw_beat": ThrowBeat,
    "partnership": Partnership,
    "trump_choice": TrumpChoice,
    "first_draw": FirstDraw,
    "first_dealer": FirstDealer,
    "joker_bids": JokerBids,
    "fluid_bidders": FluidBidders,
    "no_bid": NoBid,
    "no_bid_joker": KittyJoker,
    "redeal_show": RedealShow,
    "kitty_multiplier": KittyMultiplier,
    "kitty_overbid_by": KittyOverbidBy,
    "level_table": LevelTable,
    "friend_calls": FriendCalls,
    "friend_call_all_held": FriendCallAllHeld,
    "dealer_rotation": DealerRotation,
    "after_end": AfterEnd,
    "leftover_steps": LeftoverSteps,
}
