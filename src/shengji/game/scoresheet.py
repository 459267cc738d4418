"""The end of a round: the opponents' points, the level changes, the next dealer,
and a score sheet that explains them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from shengji.engine.cards import Card, format_cards
from shengji.engine.lead import Lead
from shengji.engine.plain import filled, is_plain
from shengji.engine.rules import DealerRotation, Partnership, Rules
from shengji.engine.scoring import (
    LevelChange,
    advance,
    hook_back,
    kitty_multiplier,
    level_change,
    level_name,
)
from shengji.engine.trick import TrickPlay
from shengji.engine.trump import Trump

if TYPE_CHECKING:
    from shengji.game.round import Round


@dataclass(frozen=True, init=False)
class TrickRecord:
    """A finished trick: the plays in order, the winner, its points."""

    plays: tuple[TrickPlay, ...]
    winner: int
    points: int
    largest_unit: int
    lead: Lead

    # its own __init__, a store per field [compiled build]
    def __init__(self, plays: tuple[TrickPlay, ...], winner: int, points: int, largest_unit: int,
                 lead: Lead) -> None:
        object.__setattr__(self, "plays", plays)
        object.__setattr__(self, "winner", winner)
        object.__setattr__(self, "points", points)
        object.__setattr__(self, "largest_unit", largest_unit)
        object.__setattr__(self, "lead", lead)

    def __reduce__(self) -> tuple[type[TrickRecord], tuple[object, ...]]:
        """Pickle and copy a record by its fields (a compiled record has no ``__dict__``)."""
        return TrickRecord, (self.plays, self.winner, self.points, self.largest_unit,
                             self.lead)

    def __str__(self) -> str:
        body = "  ".join(f"{p.seat}: {format_cards(p.cards)}" for p in self.plays)
        return f"{body}  -> seat {self.winner} ({self.points} pts)"


_PLAIN: Final = is_plain(TrickRecord)
"""Trick records are plain Python objects (pure Python) [compiled build]."""


def trick_record(plays: tuple[TrickPlay, ...], winner: int, points: int, largest_unit: int,
                 lead: Lead) -> TrickRecord:
    """``TrickRecord(plays, winner, points, largest_unit, lead)``, made by
    :func:`~shengji.engine.plain.filled` in pure Python [compiled build]."""
    if _PLAIN:
        return filled(TrickRecord, {"plays": plays, "winner": winner, "points": points,
                                    "largest_unit": largest_unit, "lead": lead})
    return TrickRecord(plays, winner, points, largest_unit, lead)


@dataclass(frozen=True)
class RoundResult:
    """How a round ended and what it changed."""

    redeal: bool
    dealer: int
    declarers: tuple[int, ...]
    opponents: tuple[int, ...]
    trick_points: int
    """Points the opponents took in tricks."""
    declarer_points: int
    """Points the declarers took in tricks."""
    kitty: tuple[Card, ...]
    kitty_points: int | None
    """The kitty's points; ``None`` in the view of a seat that may not know them (the kitty
    is not revealed and did not count)."""
    kitty_multiplier: int
    """0 when the kitty did not count (the declarers won the last trick)."""
    kitty_bonus: int
    penalty_points: int
    """Net points added to the opponents for failed throws (negative if theirs)."""
    red_five_points: int
    """Net points added to the opponents for captured red fives."""
    points: int
    """The opponents' total, looked up in the level table (below 0 only with
    ``below_zero``)."""
    change: LevelChange | None
    levels_before: tuple[int, ...]
    levels: tuple[int, ...]
    next_dealer: int
    declarers_won: bool
    match_won_by: tuple[int, ...]
    hooked: bool
    lost_by: int | None
    lines: tuple[str, ...]
    wrapped: tuple[int, ...] = ()
    """Seats whose level went round to the start rank (``wrap``, ``no-trump-wrap``), once
    per time round (twice only when ``leftover_steps = carry`` takes a seat round twice)."""
    trump: Trump | None = field(default=None, repr=False)
    """The round's trump (``None`` for a redeal)."""
    trick_winners: tuple[tuple[int, int], ...] = field(default=(), repr=False)
    """Every trick's winner and points, in order (these four: the sheet's lines in numbers,
    left out of the ``repr`` that pins whole games)."""
    penalties: tuple[tuple[int, int], ...] = field(default=(), repr=False)
    """Each failed throw's seat and the points it gave the opponents (negative: taken)."""
    team_bonus: bool = field(default=False, repr=False)
    """A smaller declaring team won one bonus level (``smaller_team_bonus``)."""
    next_bid_for: bool = field(default=False, repr=False)
    """After a redeal under ``redeal_first_bidder``: the next round's dealer is bid for, as
    in a first round; :attr:`next_dealer` deals its cards (and leads if nobody bids)."""
    last_trick_bonus: int = field(default=0, repr=False)
    """Points added to the opponents' for the last trick they won counting as many times as
    it has cards (``last_trick_multiplier``): its points times one less than its cards."""

    def sheet(self) -> str:
        """The score sheet in words."""
        return "\n".join(self.lines)


def _next_on_side(dealer: int, side: tuple[int, ...], players: int) -> int:
    for k in range(1, players + 1):
        seat = (dealer + k) % players
        if seat in side:
            return seat
    return dealer


def score_round(rnd: Round, *, redeal: bool = False, lost_by: int | None = None) -> RoundResult:
    """Score a finished round (or record a redeal)."""
    rules: Rules = rnd.rules
    n = rules.players
    dealer = rnd.dealer if rnd.dealer is not None else rnd.first_drawer
    levels = tuple(rnd.levels)
    if redeal:
        nxt = dealer
        fixed = rules.partnership == Partnership.FIXED
        if rules.redeal_dealer_partner and fixed:
            nxt = (dealer + 2) % n if n > 2 else dealer
        bid_for = rules.redeal_first_bidder and fixed
        note = ("The hand is thrown in and dealt again: no points, no level change.",
                f"Seat {nxt} deals; the first to bid becomes the dealer." if bid_for else
                f"Next dealer: seat {nxt}.")
        return RoundResult(True, dealer, (), (), 0, 0, rnd.kitty, 0, 0, 0, 0, 0, 0, None,
                           levels, levels, nxt, False, (), False, None, note,
                           next_bid_for=bid_for)
    declarers = rnd.declarers
    opponents = tuple(s for s in range(n) if s not in declarers)
    lines: list[str] = []
    trump = rnd.trump
    lines.append(f"Trump {trump}; dealer seat {dealer}; declarers "
                 f"{', '.join(map(str, declarers))}; opponents {', '.join(map(str, opponents))}.")
    for i, record in enumerate(rnd.tricks, 1):
        if record.points:
            side = "opponents" if record.winner in opponents else "declarers"
            lines.append(f"Trick {i}: seat {record.winner} ({side}) takes {record.points}.")
    trick_points = sum(rnd.captured[s] for s in opponents)
    declarer_points = sum(rnd.captured[s] for s in declarers)
    lines.append(f"Opponents' points in tricks: {trick_points}.")
    kitty_points = sum(c.points for c in rnd.kitty)
    multiplier = bonus = 0
    last = rnd.tricks[-1] if rnd.tricks and lost_by is None else None
    if last is not None and last.winner in opponents:
        multiplier = kitty_multiplier(last.lead, rules)
        bonus = kitty_points * multiplier
        lines.append(f"Kitty {format_cards(rnd.kitty)}: {kitty_points} points x {multiplier}"
                     f" (opponents won the last trick, led {last.lead.describe()}) = {bonus}.")
    elif last is not None and rules.kitty_to_declarers:
        multiplier = kitty_multiplier(last.lead, rules)
        bonus = -kitty_points * multiplier
        lines.append(f"Kitty {format_cards(rnd.kitty)}: {kitty_points} points x {multiplier}"
                     f" (the declarers won the last trick, led {last.lead.describe()}) ="
                     f" {bonus} to the opponents.")
    else:
        why = "the declarers won the last trick" if lost_by is None else "the round was lost"
        lines.append(f"Kitty {format_cards(rnd.kitty)}: {kitty_points} points, not counted"
                     f" ({why}).")
    last_bonus = 0
    if last is not None and rules.last_trick_multiplier and last.winner in opponents:
        cards = sum(len(play.cards) for play in last.plays)
        last_bonus = last.points * (cards - 1)
        lines.append(f"Last trick: {last.points} points x {cards} cards (the opponents won "
                     f"it) = {last.points * cards}: {last_bonus:+d} to the opponents.")
    penalty = 0
    penalties: list[tuple[int, int]] = []
    for seat, pts in rnd.penalties:
        signed = pts if seat in declarers else -pts
        penalty += signed
        penalties.append((seat, signed))
        lines.append(f"Failed throw by seat {seat}: {signed:+d} to the opponents.")
    red = _red_five_points(rnd, declarers)
    if red:
        lines.append(f"Captured red fives: {red:+d} to the opponents.")
    total = trick_points + bonus + last_bonus + penalty + red
    if not rules.below_zero:
        total = max(0, total)
    if lost_by is not None:
        total = 100 * rules.decks if lost_by in declarers else 0
        lines.append(f"Seat {lost_by}'s throw failed: the round is lost "
                     f"({'opponents' if lost_by in declarers else 'declarers'} score the maximum).")
    change = level_change(total, rules)
    lines.append(f"Opponents' total: {total} ({change.row}).")
    new = list(levels)
    won = not change.switch
    passed: list[int] = []
    wrapped: list[int] = []
    winners = declarers if won else opponents
    steps = change.declarers_up if won else change.opponents_up
    team_bonus = bool(won and rules.partnership == Partnership.FLUID and rules.smaller_team_bonus
                      and steps and len(declarers) < 1 + rules.friend_count)
    if team_bonus:
        steps += 1
        lines.append("Smaller declaring team: one bonus level.")
    played_level = levels[dealer]
    for seat in winners:
        # only a side playing its own level can pass the end rank (a Finding Friends
        # partner at A who wins a round played at 7 stays at A)
        moved = advance(levels[seat], steps, rules,
                        as_declarers=won and levels[seat] == played_level)
        new[seat] = moved.level
        if moved.passed_end:
            passed.append(seat)
        wrapped.extend([seat] * moved.wraps)
    hooked = False
    if last is not None and last.winner in opponents and trump is not None and trump.rank:
        winning = next(p for p in last.plays if p.seat == last.winner)
        if any(c.rank == trump.rank for c in winning.cards):
            for seat in declarers:
                back = hook_back(levels[seat], rules)
                if back is not None and levels[seat] == trump.rank:  # hooked at this rank
                    new[seat] = back
                    hooked = True
                    if seat in passed:  # needled back from A: no match win
                        passed.remove(seat)
            if hooked:
                lines.append(f"Hook and needle: the declarers go back to "
                             f"{level_name(new[declarers[0]])}.")
    for seat in range(n):
        if new[seat] != levels[seat]:
            lines.append(f"Seat {seat}: {level_name(levels[seat])} -> {level_name(new[seat])}.")
    if passed:
        lines.append(f"Seats {', '.join(map(str, passed))} pass {level_name(levels[passed[0]])}"
                     " and win the match.")
    if wrapped:
        lines.append(f"Seats {', '.join(map(str, dict.fromkeys(wrapped)))} go round to "
                     f"{level_name(int(rules.first_rank))} again.")
    nxt = _next_dealer(rules, dealer, declarers, opponents, won)
    lines.append(f"Next dealer: seat {nxt}.")
    return RoundResult(False, dealer, declarers, opponents, trick_points, declarer_points,
                       rnd.kitty, kitty_points, multiplier, bonus, penalty, red, total, change,
                       levels, tuple(new), nxt, won, tuple(passed), hooked, lost_by,
                       tuple(lines), tuple(wrapped), trump,
                       tuple((t.winner, t.points) for t in rnd.tricks), tuple(penalties),
                       team_bonus, last_trick_bonus=last_bonus)


def _next_dealer(rules: Rules, dealer: int, declarers: tuple[int, ...],
                 opponents: tuple[int, ...], won: bool) -> int:
    n = rules.players
    if rules.partnership == Partnership.FIXED and rules.dealer_rotation == DealerRotation.STANDARD:
        return _next_on_side(dealer, declarers, n) if won else (dealer + 1) % n
    return _next_on_side(dealer, declarers if won else opponents, n)


def _red_five_points(rnd: Round, declarers: tuple[int, ...]) -> int:
    rules = rnd.rules
    if not rules.red_fives or not rules.red_five_penalty:
        return 0
    reds = {Card("5H")} | ({Card("5D")} if rules.red_fives == 2 else set())
    total = 0
    for record in rnd.tricks:
        winner_declares = record.winner in declarers
        for play in record.plays:
            owner_declares = play.seat in declarers
            if owner_declares == winner_declares:
                continue
            count = sum(1 for c in play.cards if c in reds)
            total += count * rules.red_five_penalty * (1 if owner_declares else -1)
    return total
