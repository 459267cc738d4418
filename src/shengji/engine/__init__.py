"""The rules engine: cards, trump order, combinations, following, throws and tricks.

Pure Python, no I/O, no dependencies. Each rule lives in the module named for it:

- :mod:`~shengji.engine.cards`: cards, hands and the text notation
- :mod:`~shengji.engine.trump`: trump order, effective suits, levels (adjacency)
- :mod:`~shengji.engine.rules`: the :class:`Rules` value and its options
- :mod:`~shengji.engine.units`: singles, tuples, tractors and readings
- :mod:`~shengji.engine.lead`: what may be led, and the lead's reading
- :mod:`~shengji.engine.follow`: following obligations, the legal set
- :mod:`~shengji.engine.structure`: the structure value a follow must reach
- :mod:`~shengji.engine.rainbows`: rainbow throws (several rainbows led together)
- :mod:`~shengji.engine.throws`: throw validity, failed throws, penalties
- :mod:`~shengji.engine.trick`: a trick, its winner and points
"""

from shengji.engine import bidding, friends, lead, scoring, throws, trick, trump, units
from shengji.engine.cards import (
    ALL_CARDS,
    BIG_JOKER,
    SMALL_JOKER,
    Card,
    Hand,
    NotationError,
    Rank,
    Suit,
    format_cards,
    full_deck,
    parse_card,
    parse_cards,
)
from shengji.engine.follow import LegalPlays
from shengji.engine.lead import Lead, LegalLeads, PlayError
from shengji.engine.pickling import pickle_by_constructor
from shengji.engine.rules import (
    FailedThrow,
    Rules,
    RulesError,
    ThrowBeat,
    ThrowCheck,
    ThrowPenalty,
    TractorFollow,
    TupleFollow,
)
from shengji.engine.throws import Block, ThrowOutcome, check_throw
from shengji.engine.trick import Trick, TrickPlay, beats
from shengji.engine.trump import TRUMP, Trump, suit_name
from shengji.engine.units import Reading, Unit, as_unit, readings

# frozen dataclasses pickle through their constructor (the compiled build needs it)
pickle_by_constructor(bidding, friends, lead, scoring, throws, trick, trump, units)

__all__ = [
    "ALL_CARDS",
    "BIG_JOKER",
    "SMALL_JOKER",
    "TRUMP",
    "Block",
    "Card",
    "FailedThrow",
    "Hand",
    "Lead",
    "LegalLeads",
    "LegalPlays",
    "NotationError",
    "PlayError",
    "Rank",
    "Reading",
    "Rules",
    "RulesError",
    "Suit",
    "ThrowBeat",
    "ThrowCheck",
    "ThrowOutcome",
    "ThrowPenalty",
    "TractorFollow",
    "Trick",
    "TrickPlay",
    "Trump",
    "TupleFollow",
    "Unit",
    "as_unit",
    "beats",
    "check_throw",
    "format_cards",
    "full_deck",
    "parse_card",
    "parse_cards",
    "readings",
    "suit_name",
]
