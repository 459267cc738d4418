"""Throws (甩牌): whether one stands, what a failed one becomes, and its penalty.

A throw stands when no checked player holds, in the led effective suit, a
higher unit of the same shape as any unit of the throw (seed wikipedia_2006).
Each unit is checked against each player separately; a void player's trumps
never make a throw fail. A rainbow throw (``rules.rainbow_throws``) fails when a checked
player holds a rainbow of as many cards as one of its rainbows, of a higher rank.

>>> from shengji.engine.trump import Trump
>>> t, r = Trump.parse("2H"), Rules()
>>> lead = Lead.from_cards("AS KS KS", t, r)
>>> outcome = check_throw(lead, {1: Hand("AS 3S"), 2: Hand("QS QS")}, t, r)
>>> outcome.valid, outcome.lead
(True, Lead('AS KS KS'))
>>> outcome = check_throw(lead, {1: Hand("AS AS")}, t, r)
>>> outcome.valid, outcome.lead, outcome.blocks[0].seat
(False, Lead('KS KS'), 1)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from shengji.engine.cards import Card, Hand, not_a
from shengji.engine.lead import Lead
from shengji.engine.plain import filled, mypyc_attr
from shengji.engine.rainbows import highest_rainbow, rainbow_unit, rank_of
from shengji.engine.reasons import Reason
from shengji.engine.rules import FailedThrow, Rules, ThrowPenalty
from shengji.engine.trump import Trump
from shengji.engine.units import LevelCounts, Unit, counts_of_suit, make_unit, placements


@mypyc_attr(native_class=False)  # a plain class even when compiled: made by _block
@dataclass(frozen=True)
class Block:
    """One unit of a throw that a player can beat, and the unit that beats it."""

    unit: Unit
    seat: int
    beaten_by: Unit
    rainbow: bool = False
    """A rainbow of a rainbow throw, beaten by a higher rainbow of as many cards: both
    units hold the rainbows' cards, ``top`` their rank (see
    :func:`~shengji.engine.rainbows.rainbow_unit`)."""

    def __str__(self) -> str:
        return self.reason

    @property
    def reason(self) -> Reason:
        """The block in words, e.g. ``seat 1 holds AS AS (pair), higher than KS KS``."""
        if self.rainbow:
            return Reason("throw-block-rainbow", seat=self.seat, cards=str(self.beaten_by),
                          n=len(self.beaten_by.cards),
                          equal=int(self.beaten_by.top == self.unit.top), unit=str(self.unit))
        return Reason("throw-block", seat=self.seat, cards=str(self.beaten_by),
                      shape=self.beaten_by.shape, equal=int(self.beaten_by.top == self.unit.top),
                      unit=str(self.unit))


@mypyc_attr(native_class=False)  # a plain class even when compiled: made by _outcome
@dataclass(frozen=True)
class ThrowOutcome:
    """The result of checking a lead against the other hands."""

    attempted: Lead
    lead: Lead
    blocks: tuple[Block, ...]
    penalty: int
    round_lost: bool

    @property
    def valid(self) -> bool:
        """True when the throw stands (always for a single unit)."""
        return not self.blocks

    @property
    def returned(self) -> tuple[Card, ...]:
        """Cards taken back into the thrower's hand."""
        left = list(self.attempted.cards)
        for card in self.lead.cards:
            left.remove(card)
        return tuple(left)

    def explain(self) -> str:
        """Why the throw failed and what is played instead."""
        return "; ".join(self.reasons())

    def reasons(self) -> tuple[Reason, ...]:
        """:meth:`explain`'s sentences: the blocks, the outcome and the penalty."""
        if self.valid:
            return (Reason("throw-stands", cards=str(self.attempted)),)
        lines = [b.reason for b in self.blocks]
        if self.round_lost:
            lines.append(Reason("throw-lost"))
        else:
            lines.append(Reason("throw-failed", cards=str(self.lead)))
        if self.penalty:
            lines.append(Reason("throw-penalty", points=self.penalty))
        return tuple(lines)


def beating_unit(unit: Unit, hand: Hand, trump: Trump, rules: Rules) -> Unit | None:
    """A unit of the same shape in ``hand`` that beats ``unit`` within its suit, if any.

    With ``throw_blocked_by_equal`` an equal unit also blocks (seed 2006, rule 2).
    """
    return _beating(unit, counts_of_suit(hand.counts, unit.suit, trump), trump, rules)


def _beating(unit: Unit, cards: LevelCounts, trump: Trump, rules: Rules) -> Unit | None:
    """:func:`beating_unit` among the cards of the unit's suit."""
    above = unit.top - 1 if rules.throw_blocked_by_equal else unit.top
    for top, faces in placements(cards, unit.width, unit.length, trump, rules, above=above):
        return make_unit(unit.suit, unit.width, top, faces)
    return None


def _highest_tuples(counts: list[int], suit: int, trump: Trump, widest: int
                    ) -> list[tuple[int, Card] | None]:
    """For each width 1..``widest`` (index), the highest level of ``suit`` at which the
    hand holds that many copies of a face, with the lowest such face there (the first
    tuple :func:`placements` gives of that width, above any level); ``None`` if none."""
    highest: list[tuple[int, Card] | None] = [None] * (widest + 1)
    levels = trump.levels
    for face in trump.suit_faces[suit]:
        n = counts[face]
        if n:
            level = levels[face]
            for width in range(1, min(n, widest) + 1):
                known = highest[width]
                if known is None or level > known[0] or (level == known[0] and face < known[1]):
                    highest[width] = (level, face)
    return highest


def check_throw(lead: Lead, others: Mapping[int, Hand], trump: Trump, rules: Rules) -> ThrowOutcome:
    """Check a lead against the hands that may challenge it (seat -> hand).

    The caller passes the hands the rules check (``rules.throw_check``: every
    other player, or only the opponents). A single unit always stands.
    """
    if not isinstance(others, Mapping):
        raise not_a("the other hands as a mapping of seat to Hand", others)
    for seat, hand in others.items():
        if not isinstance(hand, Hand):
            raise not_a(f"seat {seat}'s hand (Hand)", hand)
    if not lead.is_throw:
        return _outcome(lead, lead, (), 0, False)
    if lead.rainbow:
        return _check_rainbows(lead, others, trump, rules)
    blocks = []
    seats = sorted(others)
    suited: dict[tuple[int, int], LevelCounts] = {}  # each hand's cards of a suit, read once
    tops: dict[tuple[int, int], list[tuple[int, Card] | None]] = {}
    equal = rules.throw_blocked_by_equal
    for unit in lead.units:
        for seat in seats:
            if unit.length == 1:  # a tuple: the hand's highest of its width, found once
                highest = tops.get((seat, unit.suit))
                if highest is None:
                    highest = tops[(seat, unit.suit)] = _highest_tuples(
                        others[seat].counts, unit.suit, trump, rules.decks)
                top = highest[unit.width]
                above = unit.top - 1 if equal else unit.top
                beater = make_unit(unit.suit, unit.width, top[0], (top[1],)) if (
                    top is not None and top[0] > above) else None
            else:
                cards = suited.get((seat, unit.suit))
                if cards is None:
                    cards = suited[(seat, unit.suit)] = counts_of_suit(others[seat].counts,
                                                                       unit.suit, trump)
                beater = _beating(unit, cards, trump, rules)
            if beater is not None:
                blocks.append(_block(unit, seat, beater))
                break
    if not blocks:
        return _outcome(lead, lead, (), 0, False)
    chosen = _chosen([b.unit for b in blocks], rules)
    # strongest first, as Lead.from_cards orders them (so the two compare equal)
    forced = Lead(tuple(trump.sorted(chosen.cards)), chosen.suit, (chosen,))
    return _failed(lead, forced, tuple(blocks), rules)


def _chosen(failing: list[Unit], rules: Rules) -> Unit:
    """The beatable unit (or rainbow) that a failed throw plays, by ``failed_throw``."""
    policy = rules.failed_throw
    if policy == FailedThrow.SMALLEST:
        return min(failing, key=lambda u: (u.size, u.top))
    if policy == FailedThrow.LARGEST:
        return min(failing, key=lambda u: (-u.size, u.top))
    return min(failing, key=lambda u: (u.top, u.size))


def _failed(lead: Lead, forced: Lead, blocks: tuple[Block, ...], rules: Rules
            ) -> ThrowOutcome:
    """A failed throw's outcome: ``forced`` played (or the round lost), the penalty."""
    penalty = 0
    if rules.throw_penalty == ThrowPenalty.PER_ATTEMPT:
        penalty = rules.throw_penalty_points
    elif rules.throw_penalty == ThrowPenalty.PER_CARD:
        penalty = rules.throw_penalty_points * lead.size
    lost = rules.failed_throw == FailedThrow.LOSE_ROUND
    return _outcome(lead, lead if lost else forced, blocks, penalty, lost)


def _check_rainbows(lead: Lead, others: Mapping[int, Hand], trump: Trump, rules: Rules
                    ) -> ThrowOutcome:
    """:func:`check_throw` of a rainbow throw: each rainbow fails against a checked hand
    holding a rainbow of as many cards of a higher rank (or equal, with
    ``throw_blocked_by_equal``); a failed throw plays one beatable rainbow."""
    blocks: list[Block] = []
    equal = rules.throw_blocked_by_equal
    for rainbow in lead.rainbows:
        above = rank_of(rainbow[0]) - (1 if equal else 0)
        for seat in sorted(others):
            beater = highest_rainbow(others[seat].counts, len(rainbow), above, trump)
            if beater is not None:
                blocks.append(_block(rainbow_unit(rainbow, trump), seat,
                                     rainbow_unit(beater, trump), rainbow=True))
                break
    if not blocks:
        return _outcome(lead, lead, (), 0, False)
    # (a rainbow unit's size is its cards, its top its rank)
    chosen = _chosen([b.unit for b in blocks], rules)
    forced = Lead.from_cards(chosen.cards, trump, rules)  # a rainbow
    return _failed(lead, forced, tuple(blocks), rules)


# These make frozen dataclasses with their fields set at once [compiled build].

def _block(unit: Unit, seat: int, beaten_by: Unit, rainbow: bool = False) -> Block:
    """``Block(unit, seat, beaten_by, rainbow)``."""
    return filled(Block, {"unit": unit, "seat": seat, "beaten_by": beaten_by,
                          "rainbow": rainbow})


def _outcome(attempted: Lead, lead: Lead, blocks: tuple[Block, ...], penalty: int,
             round_lost: bool) -> ThrowOutcome:
    """``ThrowOutcome(attempted, lead, blocks, penalty, round_lost)``."""
    return filled(ThrowOutcome, {"attempted": attempted, "lead": lead, "blocks": blocks,
                                 "penalty": penalty, "round_lost": round_lost})

