"""The choices of the house-rule options: one ``StrEnum`` per option whose value is one of
a few named rules (``Rules.tuple_follow``, ``Rules.after_end`` ...).

Each member's value is the string a rules file, the lobby form and the command line use.
What each choice does, in English and Chinese, is in the options' help,
:data:`shengji.engine.options_help.OPTIONS` (the one source: ``docs/options.md`` lists it).
:mod:`shengji.engine.rules` re-exports them all.
"""

from __future__ import annotations

from enum import StrEnum


class TupleFollow(StrEnum):
    """The choices of ``Rules.tuple_follow``."""

    DRAW_OUT = "draw-out"
    PROTECT = "protect"
    NONE = "none"
    BREAKDOWN = "breakdown"


class TractorFollow(StrEnum):
    """The choices of ``Rules.tractor_follow``."""

    TRACTOR = "tractor"
    TUPLES = "tuples"
    TRACTOR_ONLY = "tractor-only"
    LONGEST = "longest"


class ThrowCheck(StrEnum):
    """The choices of ``Rules.throw_check``."""

    ALL = "all"
    OPPONENTS = "opponents"
    NONE = "none"


class FailedThrow(StrEnum):
    """The choices of ``Rules.failed_throw``."""

    LOWEST = "lowest"
    SMALLEST = "smallest"
    LARGEST = "largest"
    LOSE_ROUND = "lose-round"


class ThrowPenalty(StrEnum):
    """The choices of ``Rules.throw_penalty``."""

    NONE = "none"
    PER_ATTEMPT = "per-attempt"
    PER_CARD = "per-card"


class ThrowBeat(StrEnum):
    """The choices of ``Rules.throw_beat``."""

    LARGEST_UNIT = "largest-unit"
    EVERY_UNIT = "every-unit"
    HIGHEST_CARD = "highest-card"
    CARD_BY_CARD = "card-by-card"


class Partnership(StrEnum):
    """The choices of ``Rules.partnership``."""

    FIXED = "fixed"
    FLUID = "fluid"


class TrumpChoice(StrEnum):
    """The choices of ``Rules.trump_choice``."""

    BID = "bid"
    DEALER = "dealer"


class FirstDraw(StrEnum):
    """The choices of ``Rules.first_draw``."""

    DEALER = "dealer"
    NEXT = "next"
    COUNT = "count"


class JokerBids(StrEnum):
    """The choices of ``Rules.joker_bids``."""

    IDENTICAL = "identical"
    DECKS = "decks"
    OFF = "off"


class NoBid(StrEnum):
    """The choices of ``Rules.no_bid``."""

    KITTY_RANK = "kitty-rank"
    KITTY_FIRST = "kitty-first"
    REDEAL = "redeal"


class KittyJoker(StrEnum):
    """The choices of ``Rules.no_bid_joker``."""

    NEXT = "next"
    NO_TRUMP = "no-trump"
    REDEAL = "redeal"


class FirstDealer(StrEnum):
    """The choices of ``Rules.first_dealer``."""

    FIRST_BIDDER = "first-bidder"
    FIRST_PAIR = "first-pair"
    FIRST_JOKER_PAIR = "first-joker-pair"
    RANDOM = "random"


class RedealShow(StrEnum):
    """The choices of ``Rules.redeal_show``."""

    OFF = "off"
    NO_TRUMPS = "no-trumps"
    NO_POINTS = "no-points"


class KittyOverbidBy(StrEnum):
    """The choices of ``Rules.kitty_overbid_by``."""

    OTHERS = "others"
    OPPONENTS = "opponents"


class KittyMultiplier(StrEnum):
    """The choices of ``Rules.kitty_multiplier``."""

    UNIT_SIZE = "unit-size"
    POWER = "power"
    LEAD_SIZE = "lead-size"
    DECKS = "decks"
    DOUBLE = "double"


class LevelTable(StrEnum):
    """The choices of ``Rules.level_table``."""

    STANDARD = "standard"
    TABLE_2006 = "2006"
    DA_BAI_FEN = "da-bai-fen"
    HUNDRED = "hundred"
    BASIC = "basic"
    CUSTOM = "custom"


class FriendCalls(StrEnum):
    """The choices of ``Rules.friend_calls``."""

    ORDINAL = "ordinal"
    COLOUR_RANK = "colour-rank"


class FriendCallAllHeld(StrEnum):
    """The choices of ``Rules.friend_call_all_held``."""

    ALONE = "alone"
    REFUSED = "refused"


class FluidBidders(StrEnum):
    """The choices of ``Rules.fluid_bidders``."""

    ALL = "all"
    NOT_LOST = "not-lost"


class DealerRotation(StrEnum):
    """The choices of ``Rules.dealer_rotation``."""

    STANDARD = "standard"
    WINNER_NEXT = "winner-next"


class AfterEnd(StrEnum):
    """The choices of ``Rules.after_end``."""

    WIN = "win"
    WRAP = "wrap"
    NO_TRUMP = "no-trump"
    NO_TRUMP_WRAP = "no-trump-wrap"


class LeftoverSteps(StrEnum):
    """The choices of ``Rules.leftover_steps``."""

    DROP = "drop"
    CARRY = "carry"
