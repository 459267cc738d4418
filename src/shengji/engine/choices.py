"""The choices of the house-rule options: one ``StrEnum`` per option whose value is one of
a few named rules (``Rules.tuple_follow``, ``Rules.after_end`` ...).

Each member's value is the string a rules file, the lobby form and the command line use;
its docstring says what the rule does. :mod:`shengji.engine.rules` re-exports them all.
"""

from __future__ import annotations

from enum import StrEnum


class TupleFollow(StrEnum):
    """What a led n-tuple (or the tuples of a tractor or throw) forces out of a follower."""

    DRAW_OUT = "draw-out"
    """Pairs draw out triples: a held n-tuple must be played, even from a larger tuple;
    failing that any cards of the suit (seed 2006, rule 1: "Otherwise, a player must
    follow suit with any n cards")."""
    PROTECT = "protect"
    """Longer tuples are protected: only tuples no longer than the led one are forced,
    as many cards locked in them as possible (seed 2006, rule 2). A protected tuple
    the player chooses to play counts for the structure it holds (a 4-tuple as two
    pairs, a triple as a pair of a tractor)."""
    NONE = "none"
    """Suit only: no structure obligation at all."""
    BREAKDOWN = "breakdown"
    """Draw-out, and an unmatched tuple breaks down: the places of a led n-tuple that
    the follower cannot match take the widest tuples held, then the next widest (a
    triple with no triple held draws a pair, then a single; a 4-tuple a triple, else
    pairs); a led tractor with no tractor of its shape draws a tractor of the next
    narrower tuples (triples, then pairs; under ``tractor_follow="longest"`` the widest
    first, then the longest), then tuples widest first in the places left. The same as
    draw-out with two decks."""


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


class KittyOverbidBy(StrEnum):
    """Who may bid after the kitty is buried (``kitty_overbid``, 炒地皮)."""

    OTHERS = "others"
    """Every player but the one who just buried."""
    OPPONENTS = "opponents"
    """Only the other side of the player who just buried (fixed partnerships; with fluid
    partnerships, every other player)."""


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
    NO_TRUMP_WRAP = "no-trump-wrap"
    """The no-trump level after the end rank, then the levels wrap round to the start
    rank (endless play; the match counts each side's wraps)."""


class LeftoverSteps(StrEnum):
    """What becomes of the steps left when an advance passes the top level (a wrap, the
    no-trump level, or ``pass_end_freely``) with steps to spare."""

    DROP = "drop"
    """They are lost: the advance stops where it wrapped or at the no-trump level."""
    CARRY = "carry"
    """They carry on: from the start rank after a wrap, past the no-trump level where the
    side may pass it (each barrier passed uses one step)."""
