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
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, fields
from enum import StrEnum
from functools import cached_property

from shengji.engine.cards import Rank, Suit
from shengji.engine.trump import Trump


class RulesError(ValueError):
    """An option is unknown, out of range or contradicts another."""


class TupleFollow(StrEnum):
    """What a led n-tuple (or the tuples of a tractor or throw) forces out of a follower."""

    DRAW_OUT = "draw-out"
    """Pairs draw out triples: a held n-tuple must be played, even from a larger tuple;
    failing that any cards of the suit (seed 2006, rule 1: "Otherwise, a player must
    follow suit with any n cards")."""
    PROTECT = "protect"
    """Longer tuples are protected: only tuples no longer than the led one are forced,
    as many cards locked in them as possible (seed 2006, rule 2)."""
    NONE = "none"
    """Suit only: no structure obligation at all."""


class TractorFollow(StrEnum):
    """What a led tractor forces out of a follower."""

    TRACTOR = "tractor"
    """A held tractor of the same shape, else as many tuples as possible, else singles."""
    TUPLES = "tuples"
    """Any tuples of the led width will do; a held tractor is not forced (seed 2006)."""
    TRACTOR_ONLY = "tractor-only"
    """Only a tractor draws a tractor: without one, no structure is forced."""
    LONGEST = "longest"
    """A held tractor, else the longest shorter tractor, then as many tuples as possible."""


class ThrowCheck(StrEnum):
    """Whose hands can make a throw fail."""

    ALL = "all"
    """Every other player, partner included."""
    OPPONENTS = "opponents"
    """Only the thrower's opponents."""


class FailedThrow(StrEnum):
    """What a failed throw becomes."""

    LOWEST = "lowest"
    """The lowest beatable unit is played; the rest goes back to the hand."""
    SMALLEST = "smallest"
    """The beatable unit with the fewest cards (lowest among equals)."""
    LARGEST = "largest"
    """The beatable unit with the most cards (lowest among equals)."""
    LOSE_ROUND = "lose-round"
    """The thrower's side loses the round (seed da_bai_fen)."""


class ThrowPenalty(StrEnum):
    """Points given to the opponents for a failed throw."""

    NONE = "none"
    PER_ATTEMPT = "per-attempt"
    PER_CARD = "per-card"


class ThrowBeat(StrEnum):
    """How a throw is beaten (always by a play of the same structure)."""

    LARGEST_UNIT = "largest-unit"
    """The highest top card of the largest unit wins; earlier wins ties (seed 2006)."""
    EVERY_UNIT = "every-unit"
    """Every unit must beat its counterpart."""
    HIGHEST_CARD = "highest-card"
    """The highest single card decides."""
    CARD_BY_CARD = "card-by-card"
    """Each card must beat a distinct card of the winning play (seed hundred)."""


class Partnership(StrEnum):
    """How sides are formed."""

    FIXED = "fixed"
    """Fixed partnerships: alternate seats form two teams (Tractor, Bashi Fen)."""
    FLUID = "fluid"
    """Finding Friends: the dealer calls cards; whoever plays them joins."""


class TrumpChoice(StrEnum):
    """How the trump suit is chosen."""

    BID = "bid"
    """Players bid for it by showing trump-rank cards during the deal."""
    DEALER = "dealer"
    """Nobody bids: after the deal the dealer names the suit, or no-trump (seed hundred)."""


class FirstDraw(StrEnum):
    """Who draws the first card of the deal."""

    DEALER = "dealer"
    """The dealer (or, in the first round, a random seat) after a cut."""
    NEXT = "next"
    """The player after the dealer in turn order (seed da_bai_fen)."""
    COUNT = "count"
    """Counted off from the dealer by a face-up card, A=1..K=13, jokers turned again
    (seed wikipedia)."""


class JokerBids(StrEnum):
    """Whether jokers can be bid for a no-trump round."""

    IDENTICAL = "identical"
    """Two or more identical jokers bid no-trump; a single joker is never a bid."""
    DECKS = "decks"
    """A joker bid needs as many identical jokers as there are decks."""
    OFF = "off"
    """Jokers cannot be bid."""


class NoBid(StrEnum):
    """What happens when nobody bids during the deal."""

    KITTY_RANK = "kitty-rank"
    """Turn kitty cards one at a time until a trump-rank card sets the suit; else the
    highest card's suit, the first of equals (seeds da_bai_fen, wikipedia)."""
    KITTY_FIRST = "kitty-first"
    """Turn only the first kitty card; its suit is trump (a joker: see no_bid_joker)."""
    REDEAL = "redeal"
    """Reshuffle and deal again."""


class KittyJoker(StrEnum):
    """With ``no_bid = kitty-first``, what a turned joker does."""

    NEXT = "next"
    NO_TRUMP = "no-trump"
    REDEAL = "redeal"


class FirstDealer(StrEnum):
    """How the first round's dealer is chosen."""

    FIRST_BIDDER = "first-bidder"
    """The first player to bid becomes dealer (seed wikipedia)."""
    FIRST_PAIR = "first-pair"
    """The first player to bid a pair (or more) of trump-rank cards."""
    FIRST_JOKER_PAIR = "first-joker-pair"
    """The first player to show a pair of identical jokers."""
    RANDOM = "random"
    """A random seat (a cut)."""


class RedealShow(StrEnum):
    """Which hands may be shown to force a redeal."""

    OFF = "off"
    NO_TRUMPS = "no-trumps"
    NO_POINTS = "no-points"


class KittyMultiplier(StrEnum):
    """The multiplier on the kitty's points when the opponents win the last trick."""

    UNIT_SIZE = "unit-size"
    """2 × the cards in the largest unit of the last trick (single ×2, pair ×4)."""
    POWER = "power"
    """2^(n+1), n the pairs in the largest unit (seed wikipedia: ×2, ×4, ×8, ×16)."""
    LEAD_SIZE = "lead-size"
    """2 × the number of cards led (seed wikipedia_2006)."""
    DECKS = "decks"
    """× the number of decks (seed wikipedia_2006)."""
    DOUBLE = "double"
    """× 2 always (seed da_bai_fen)."""


class LevelTable(StrEnum):
    """How the opponents' points turn into level changes (see ``engine/scoring.py``)."""

    STANDARD = "standard"
    TABLE_2006 = "2006"
    DA_BAI_FEN = "da-bai-fen"
    HUNDRED = "hundred"
    BASIC = "basic"
    CUSTOM = "custom"


class FriendCalls(StrEnum):
    """How the dealer calls friends in Finding Friends."""

    ORDINAL = "ordinal"
    """A precise copy: "the second A♠" (seed wikipedia_2006)."""
    COLOUR_RANK = "colour-rank"
    """Colour and rank: "black aces": the first players to play them join."""


class FriendCallAllHeld(StrEnum):
    """A call that the caller's own cards leave to nobody else (every copy held)."""

    ALONE = "alone"
    """Allowed: the caller is warned and plays alone for that call."""
    REFUSED = "refused"
    """Refused: the caller must call a card another player can play."""


class FluidBidders(StrEnum):
    """Who may bid in a fluid game."""

    ALL = "all"
    NOT_LOST = "not-lost"
    """Only players who did not lose the previous round (seed wikipedia_2006)."""


class DealerRotation(StrEnum):
    """Who deals the next round."""

    STANDARD = "standard"
    """Declarers win: the next player of the declaring side after the dealer (the
    dealer's partner with 4 players); opponents win: the player after the dealer."""
    WINNER_NEXT = "winner-next"
    """The next player after the dealer on the side that won the round."""


class AfterEnd(StrEnum):
    """What passing the end rank means."""

    WIN = "win"
    WRAP = "wrap"
    """Levels wrap round to the start rank and the match goes on."""
    NO_TRUMP = "no-trump"
    """One more level after the end rank, played with jokers only as trump."""


FLUID_OVERBIDS = ("own-rank", "maker-rank", "jokers-rank", "jokers-only")
"""Overbids of seed wikipedia_2006's fluid games, rules (1)-(4)."""


@dataclass(frozen=True)
class Rules:
    """A table's rules. Every field is an option; the README lists them all."""

    # table and deck
    players: int = 4
    decks: int = 2
    partnership: Partnership = Partnership.FIXED
    kitty: int | None = None
    big_jokers: int | None = None
    small_jokers: int | None = None
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
    # dealing and bidding
    trump_choice: TrumpChoice = TrumpChoice.BID
    first_draw: FirstDraw = FirstDraw.DEALER
    first_dealer: FirstDealer = FirstDealer.FIRST_BIDDER
    bid_reinforce: bool = True
    bid_switch_suit: bool = False
    bid_equal_override: bool = False
    bid_withdraw: bool = False
    joker_bids: JokerBids = JokerBids.IDENTICAL
    fluid_overbid: tuple[str, ...] = ("own-rank",)
    fluid_bidders: FluidBidders = FluidBidders.ALL
    no_bid: NoBid = NoBid.KITTY_RANK
    no_bid_joker: KittyJoker = KittyJoker.NEXT
    redeal_show: RedealShow = RedealShow.OFF
    redeal_dealer_partner: bool = False
    kitty_overbid: bool = False
    kitty_overbid_takes_dealer: bool = False
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
    smaller_team_bonus: bool = False
    # scoring and levels
    target: int | None = None
    level_table: LevelTable = LevelTable.STANDARD
    custom_levels: tuple[tuple[int, int], ...] = ()
    draw_at: int | None = None
    red_five_penalty: int = 0
    # the match
    start_rank: Rank = Rank.TWO
    end_rank: Rank = Rank.ACE
    after_end: AfterEnd = AfterEnd.WIN
    mandatory_ranks: tuple[Rank, ...] = ()
    hook_and_needle: bool = False
    dealer_rotation: DealerRotation = DealerRotation.STANDARD

    def __post_init__(self) -> None:
        for item in fields(self):
            kind = _ENUM_FIELDS.get(item.name)
            if kind is None:
                continue
            value = getattr(self, item.name)
            try:
                object.__setattr__(self, item.name, kind(value))
            except ValueError:
                allowed = ", ".join(repr(str(v)) for v in kind)
                raise RulesError(
                    f"{item.name}={value!r} is not allowed; use one of {allowed}"
                ) from None
        for name in ("start_rank", "end_rank"):
            object.__setattr__(self, name, _rank(getattr(self, name), name))
        object.__setattr__(self, "mandatory_ranks",
                           tuple(_rank(r, "mandatory_ranks") for r in self.mandatory_ranks))
        object.__setattr__(self, "custom_levels",
                           tuple((int(a), int(b)) for a, b in self.custom_levels))
        object.__setattr__(self, "fluid_overbid", tuple(self.fluid_overbid))
        if self.second_rank is not None:
            object.__setattr__(self, "second_rank", _rank(self.second_rank, "second_rank"))
        if self.rank_suit_order is not None:
            try:
                order = tuple(s if isinstance(s, Suit) else Suit.parse(str(s))
                              for s in self.rank_suit_order)
            except ValueError as error:
                raise RulesError(f"rank_suit_order: {error}") from None
            if len(set(order)) != len(order):
                raise RulesError("rank_suit_order must not repeat a suit")
            object.__setattr__(self, "rank_suit_order", order)
        self._validate()

    def _validate(self) -> None:
        cards = self.deck_size
        checks = [
            (self.players >= 2, f"players must be at least 2, got {self.players}"),
            (self.decks >= 1, f"decks must be at least 1, got {self.decks}"),
            (self.tractor_min_width >= 1, "tractor_min_width must be at least 1"),
            (
                self.tractor_min_width <= max(2, self.decks),
                f"tractor_min_width is {self.tractor_min_width} but there are only "
                f"{self.decks} decks (at most {self.decks} identical cards)",
            ),
            (self.tractor_min_length >= 2, "tractor_min_length must be at least 2"),
            (self.red_fives in (0, 1, 2), "red_fives must be 0 (off), 1 (5♥) or 2 (5♥, 5♦)"),
            (self.throw_penalty_points >= 0, "throw_penalty_points must not be negative"),
            (
                self.partnership == Partnership.FLUID or self.players % 2 == 0,
                f"fixed partnerships need an even number of players, got {self.players}",
            ),
            (
                all(0 <= (n or 0) <= self.decks for n in (self.big_jokers, self.small_jokers)),
                f"big_jokers and small_jokers must be between 0 and decks ({self.decks})",
            ),
            (
                0 <= self.kitty_size < cards and (cards - self.kitty_size) % self.players == 0,
                f"a kitty of {self.kitty_size} leaves {cards - self.kitty_size} cards, which "
                f"do not deal evenly to {self.players} players",
            ),
            (
                (cards - self.kitty_size) // self.players >= 1,
                "too few cards for the players",
            ),
            (
                self.friend_count <= self.players - 2,
                f"{self.friend_count} friends leave no opponents at {self.players} players",
            ),
            (
                self.partnership == Partnership.FLUID or self.friends in (None, 0),
                "friends are called only with partnership='fluid'",
            ),
            (
                all(o in FLUID_OVERBIDS for o in self.fluid_overbid),
                f"fluid_overbid takes {', '.join(FLUID_OVERBIDS)}; got {self.fluid_overbid}",
            ),
            (self.start_rank <= self.end_rank, "start_rank must not be above end_rank"),
            (
                all(self.start_rank <= r <= self.end_rank for r in self.mandatory_ranks),
                "mandatory_ranks must lie between start_rank and end_rank",
            ),
            (
                (self.level_table == LevelTable.CUSTOM) == bool(self.custom_levels),
                "custom_levels is given exactly when level_table='custom'",
            ),
            (
                not self.custom_levels or self.custom_levels[0][0] == 0,
                "custom_levels must start at 0 points",
            ),
            (
                all(a[0] < b[0] for a, b in zip(
                    self.custom_levels, self.custom_levels[1:], strict=False)),
                "custom_levels thresholds must increase",
            ),
            (self.target_points > 0, "target must be positive"),
            (self.red_five_penalty >= 0, "red_five_penalty must not be negative"),
        ]
        for ok, message in checks:
            if not ok:
                raise RulesError(message)

    @cached_property
    def joker_counts(self) -> tuple[int, int]:
        """(big, small) jokers in the pack."""
        big = self.decks if self.big_jokers is None else self.big_jokers
        small = self.decks if self.small_jokers is None else self.small_jokers
        return big, small

    @cached_property
    def deck_size(self) -> int:
        """Cards in the pack."""
        return 52 * self.decks + sum(self.joker_counts)

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
    def hand_size(self) -> int:
        """Cards dealt to each player."""
        return (self.deck_size - self.kitty_size) // self.players

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
        return Trump(rank, suit, second_rank=second, red_fives=self.red_fives,
                     rank_suit_order=self.rank_suit_order)

    def replace(self, **changes: object) -> Rules:
        """A copy with some options changed (validated again)."""
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]


def _rank(value: object, name: str) -> Rank:
    try:
        if isinstance(value, str):
            return Rank.parse(value)
        return Rank(int(value))  # type: ignore[call-overload]
    except ValueError:
        raise RulesError(f"{name}: {value!r} is not a rank (2-10, J, Q, K, A)") from None


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
    "level_table": LevelTable,
    "friend_calls": FriendCalls,
    "friend_call_all_held": FriendCallAllHeld,
    "dealer_rotation": DealerRotation,
    "after_end": AfterEnd,
}
