"""A trick from the lead to the last follower: legality, the winner, the points.

Who wins (seed wikipedia, §Tricks): only a play of the lead's structure, all
in the led suit or all in trump, can win; a trump play beats the led suit;
among equals the earlier play wins. A play that can be read several ways wins
if any reading does. Throws are beaten under ``rules.throw_beat`` (and
``rules.throw_tiebreak``). With ``rules.bombs``, a bomb beats every other play; on a
rainbow lead (``rules.rainbow``) only a rainbow of a higher rank wins; on a rainbow
throw (``rules.rainbow_throws``) only rainbows of exactly the led sizes, compared under
``rules.throw_beat`` (see :func:`~shengji.engine.rainbows.beat_rainbows`).

>>> from shengji.engine.trump import Trump
>>> trick = Trick(Trump.parse("7C"), Rules(), leader=0)
>>> trick.play("9D 9D", Hand("9D 9D 3S"))
>>> trick.play("QD JD", Hand("QD JD"))          # two singles never beat a pair
>>> trick.play("QC JC", Hand("QC JC 4D"))       # void in diamonds; trumps, but not a pair
Traceback (most recent call last):
...
shengji.engine.lead.PlayError: you hold only 1 diamond (4D): play it before other cards
>>> trick.play("QC JC", Hand("QC JC"))
>>> trick.play("5C 5C", Hand("5C 5C"))          # a trump pair ruffs
>>> trick.winner, trick.points
(3, 10)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from shengji.engine.caches import remember
from shengji.engine.cards import (
    ALL_CARDS,
    Card,
    Hand,
    card_ints,
    card_points,
    format_cards,
    not_a,
    parse_cards,
)
from shengji.engine.follow import LegalPlays
from shengji.engine.lead import Lead, LegalLeads, PlayError, is_rainbow
from shengji.engine.plain import filled, is_plain, mypyc_attr
from shengji.engine.rainbows import beat_rainbows
from shengji.engine.reasons import Reason
from shengji.engine.rules import Rules, ThrowBeat, ThrowCheck
from shengji.engine.structure import Structure, structure_of
from shengji.engine.throws import ThrowOutcome, check_throw
from shengji.engine.trump import TRUMP, Trump
from shengji.engine.units import (
    LevelCounts,
    Reading,
    Unit,
    as_unit,
    give,
    level_counts,
    make_unit,
    placements,
    take,
    unit_order,
)


@mypyc_attr(acyclic=True)  # holds a seat and cards, never a way back to itself: no GC tracking
@dataclass(frozen=True, init=False)
class TrickPlay:
    """One seat's cards in a trick."""

    seat: int
    cards: tuple[Card, ...]

    # its own __init__, a store per field [compiled build]
    def __init__(self, seat: int, cards: tuple[Card, ...]) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "cards", cards)

    def __reduce__(self) -> tuple[type[TrickPlay], tuple[int, tuple[Card, ...]]]:
        """Pickle and copy a play by its fields (a compiled play has no ``__dict__``)."""
        return TrickPlay, (self.seat, self.cards)

    def __str__(self) -> str:
        return f"{self.seat}: {format_cards(self.cards)}"


_PLAIN: Final = is_plain(TrickPlay)
"""Plays are plain Python objects (pure Python) [compiled build]."""


def _play(seat: int, cards: tuple[Card, ...]) -> TrickPlay:
    """``TrickPlay(seat, cards)``, made by :func:`~shengji.engine.plain.filled` in pure
    Python [compiled build]."""
    if _PLAIN:
        return filled(TrickPlay, {"seat": seat, "cards": cards})
    return TrickPlay(seat, cards)


class Trick:
    """One trick, played seat by seat from ``leader`` (seats 0..players-1 in turn order)."""

    def __init__(self, trump: Trump, rules: Rules, leader: int, players: int | None = None
                 ) -> None:
        self.trump = trump
        self.rules = rules
        self.players = rules.players if players is None else players
        if not isinstance(leader, int) or isinstance(leader, bool):
            raise not_a("the leader's seat (an integer)", leader)
        if not 0 <= leader < self.players:
            raise ValueError(f"the leader must be a seat from 0 to {self.players - 1}, "
                             f"got {leader}")
        self.leader = leader
        self.lead: Lead | None = None
        self.plays: list[TrickPlay] = []
        self.throw: ThrowOutcome | None = None
        self._winner = 0  # index into plays
        self._winning_reading: Reading = ()
        self._structure: Structure | None = None
        self._bombs = rules.bombs > 0  # (read once per trick: rules are a plain object)

    @property
    def turn(self) -> int | None:
        """The seat to play next, or ``None`` when the trick is complete."""
        if self.is_complete:
            return None
        return (self.leader + len(self.plays)) % self.players

    @property
    def is_complete(self) -> bool:
        """True once every seat has played."""
        return len(self.plays) == self.players

    @property
    def winner(self) -> int | None:
        """The seat winning the trick so far (the final winner once complete)."""
        # (the plays are in turn order from the leader: no attribute of the play read)
        return (self.leader + self._winner) % self.players if self.plays else None

    @property
    def winning_play(self) -> TrickPlay | None:
        """The play currently winning."""
        return self.plays[self._winner] if self.plays else None

    @property
    def points(self) -> int:
        """Card points in the trick so far."""
        total = 0
        for play in self.plays:
            total += card_points(play.cards)
        return total

    @property
    def largest_unit_size(self) -> int:
        """Cards in the lead's largest unit (1 single, 2 pair, 4 two-pair tractor ...)."""
        return self.lead.largest.size if self.lead else 0

    def legal(self, hand: Hand) -> LegalLeads | LegalPlays:
        """The legal plays of the seat to move, holding ``hand``."""
        if self.lead is None:
            return LegalLeads(hand, self.trump, self.rules)
        return self._follow(hand)

    def _follow(self, hand: Hand) -> LegalPlays:
        """The follow obligations of ``hand``, sharing this trick's lead structure."""
        assert self.lead is not None
        if self._structure is None:
            self._structure = structure_of(self.lead, self.trump, self.rules)
        return LegalPlays(hand, self.lead, self.trump, self.rules, self._structure)

    def play(
        self,
        cards: str | Iterable[Card | str],
        hand: Hand,
        *,
        hands: Sequence[Hand] | Mapping[int, Hand] | None = None,
        teammates: Iterable[int] = (),
        reading: Reading | None = None,
        legal: LegalLeads | LegalPlays | None = None,
        trusted: bool = False,
    ) -> None:
        """Play ``cards`` from ``hand`` for the seat to move (the hand is not changed).

        Leading a throw needs ``hands`` (every seat's hand, by seat) to check it;
        ``teammates`` are left out of the check when ``rules.throw_check`` is
        ``opponents``, and every hand when it is ``none`` (a throw always stands).
        After a failed throw :attr:`throw` says what happened and only the forced unit
        is recorded as played. ``legal`` may pass the
        :meth:`legal` object of this position (built for ``hand`` or an equal copy),
        to save building it again and reading a lead it checked again; ``trusted``
        skips the check for a play drawn from that object itself.
        Raises :class:`~shengji.engine.lead.PlayError` and changes nothing if
        illegal.
        """
        if len(self.plays) == self.players:
            raise PlayError("the trick is complete")
        if not isinstance(hand, Hand):
            raise not_a("the hand it is played from (Hand)", hand)
        seat = (self.leader + len(self.plays)) % self.players
        # a trusted play is an action's own tuple of cards
        played = cards if trusted and type(cards) is tuple else parse_cards(cards)
        if self.lead is None:
            if not trusted and not hand.holds(played):
                raise PlayError(Reason("not-held", cards=format_cards(played)))
            if isinstance(legal, LegalLeads) and reading is None:
                lead = legal.lead(played)
            else:
                lead = Lead.from_cards(played, self.trump, self.rules, reading)
            if lead.is_throw:
                if hands is None:
                    raise PlayError("a throw needs the other hands to be checked")
                table = dict(hands) if isinstance(hands, Mapping) else dict(enumerate(hands))
                check = self.rules.throw_check
                skip = set(teammates) if check == ThrowCheck.OPPONENTS else set()
                others = {} if check == ThrowCheck.NONE else {
                    s: h for s, h in table.items() if s != seat and s not in skip}
                self.throw = check_throw(lead, others, self.trump, self.rules)
                lead = self.throw.lead
            self.lead = lead
            self.plays.append(_play(seat, lead.cards))
            self._winner = 0
            self._winning_reading = lead.units
            return
        if not trusted:
            if not isinstance(legal, LegalPlays) or legal.lead is not self.lead:
                legal = self._follow(hand)
            legal.check(played)
        lead, trump = self.lead, self.trump
        if len(played) == 1 and len(lead.cards) == 1 and not lead.rainbow and not self._bombs:
            # one card on one card: :func:`beats` decided from the suits and levels alone
            ordered: tuple[Card, ...] = played
            card, current = played[0], self._winning_reading[0]
            suit, level = trump.suit_index[card], trump.levels[card]
            reading = (make_unit(suit, 1, level, (card,)),) if (
                level > current.top if suit == current.suit else suit == TRUMP) else None
        else:
            ordered = played if len(played) == 1 else tuple(trump.sorted(played))
            reading = beats(ordered, self._winning_reading, lead, trump, self.rules)
        self.plays.append(_play(seat, ordered))
        if reading is not None:
            self._winner = len(self.plays) - 1
            self._winning_reading = reading

    def copy(self) -> Trick:
        """An independent copy (for search)."""
        other = Trick(self.trump, self.rules, self.leader, self.players)
        other.lead = self.lead
        other.plays = list(self.plays)
        other.throw = self.throw
        other._winner = self._winner
        other._winning_reading = self._winning_reading
        other._structure = self._structure
        return other

    def undo(self) -> TrickPlay:
        """Take back the last play (for search); returns it."""
        if not self.plays:
            raise PlayError("nothing to undo")
        last = self.plays.pop()
        if not self.plays:
            self.lead = None
            self._structure = None
            self.throw = None
            self._winner = 0
            self._winning_reading = ()
        elif self._winner == len(self.plays):
            self._recompute()
        return last

    def _recompute(self) -> None:
        plays = self.plays
        assert self.lead is not None
        self.plays = plays[:1]
        self._winner = 0
        self._winning_reading = self.lead.units
        for play in plays[1:]:
            reading = self._beats(play.cards)
            self.plays.append(play)
            if reading is not None:
                self._winner = len(self.plays) - 1
                self._winning_reading = reading

    def _beats(self, cards: tuple[Card, ...]) -> Reading | None:
        """The reading with which ``cards`` beats the current winner, or ``None``."""
        assert self.lead is not None
        return beats(cards, self._winning_reading, self.lead, self.trump, self.rules)

    def __str__(self) -> str:
        return " | ".join(str(p) for p in self.plays)

    def __repr__(self) -> str:
        return f"<Trick {self} winner={self.winner}>"


def beats(cards: Sequence[Card], current: Reading, lead: Lead, trump: Trump, rules: Rules
          ) -> Reading | None:
    """The reading of ``cards`` that beats the ``current`` winning reading, if any."""
    if rules.bombs:
        bomb = _bomb(cards, trump, rules)
        current_bomb = len(current) == 1 and _bomb(current[0].cards, trump, rules) is not None
        if bomb is not None or current_bomb:
            # a bomb beats every other play; bombs: size, then trumps, then rank
            if bomb is None or (current_bomb and _bomb_key(bomb) <= _bomb_key(current[0])):
                return None
            return (bomb,)
    if lead.rainbow:  # only a rainbow of a higher rank wins
        if len(lead.rainbows) > 1:  # a rainbow throw: rainbows of the led sizes
            return beat_rainbows(cards, current, lead.rainbows, trump, rules)
        if not is_rainbow(cards, trump, rules):
            return None
        mine, theirs = cards[0].rank, current[0].cards[0].rank
        assert mine is not None and theirs is not None
        if mine <= theirs:
            return None
        return tuple(make_unit(trump.suit_index[c], 1, trump.levels[c], (c,))
                     for c in trump.sorted(cards))
    throw = len(lead.units) > 1  # lead.is_throw (a rainbow returned above)
    if throw and rules.throw_beat == ThrowBeat.CARD_BY_CARD:
        # seed hundred: cards are compared one by one, so a player short of the led suit
        # may win with led-suit cards and trumps together
        return _card_by_card(cards, current, lead.suit, trump)
    suits = trump.suit_index
    faces = card_ints(tuple(cards))  # (the cards as ints [compiled build])
    first = faces[0]
    suit = suits[first]
    if suit != lead.suit and suit != TRUMP:
        return None
    one_face = True  # (copies of the first card only)
    for face in faces:
        if suits[face] != suit:
            return None
        if face != first:
            one_face = False
    if suit != current[0].suit and suit != TRUMP:
        return None
    if not throw:
        width = len(faces)
        if width <= rules.decks and one_face:
            # one face (a single, a pair...) on a tuple: no unit made unless it wins
            level, led, other = trump.levels[first], lead.units[0], current[0]
            if led.width != width or led.length != 1 or not (
                    level > other.top if suit == other.suit else suit == TRUMP):
                return None
            return (make_unit(suit, width, level, (cards[0],)),)
        unit = as_unit(cards, trump, rules)
        if unit is None or unit.shape != lead.units[0].shape:
            return None
        return (unit,) if _unit_beats(unit, current[0]) else None
    counts = level_counts(cards, trump)[suit]
    winning = [r for r in matching_readings(counts, suit, lead, trump, rules)
               if _reading_beats(r, current, rules)]
    # keep the strongest winning reading: later plays must beat the play at its best
    return max(winning, key=lambda r: _reading_strength(r, rules)) if winning else None

def beats_single(play: tuple[Card, ...], current: Unit, trump: Trump) -> Reading | None:
    """:func:`beats` for one card following one card (of the led suit or trump: bombs,
    rainbows and throws are several cards), ``current`` winning."""
    card = play[0]
    suit, level = trump.suit_index[card], trump.levels[card]
    if (suit == current.suit and level > current.top) or (
            suit == TRUMP and current.suit != TRUMP):
        return single_readings(trump)[card]
    return None


_SINGLES: Final[dict[int, tuple[Trump, tuple[Reading, ...]]]] = {}
"""The single-card readings of each trump seen, by the trump's identity (a Trump is a
dataclass: keyed by identity [compiled build])."""


def single_readings(trump: Trump) -> tuple[Reading, ...]:
    """Per face, its reading as a single under ``trump`` (made once per trump)."""
    known = _SINGLES.get(id(trump))
    if known is None or known[0] is not trump:
        known = remember(_SINGLES, id(trump), (trump, tuple(
            (make_unit(trump.suit_index[c], 1, trump.levels[c], (c,)),) for c in ALL_CARDS)),
            256)
    return known[1]


class Beater:
    """:func:`beats` against one winning ``reading``, for many plays (:meth:`beat`): the
    cases that need no reading of the play are decided from the suits and faces alone
    (``tests/test_beater.py`` checks it against :func:`beats`)."""

    def __init__(self, reading: Reading, lead: Lead, trump: Trump, rules: Rules) -> None:
        self.reading, self.lead, self.trump, self.rules = reading, lead, trump, rules
        self.cur = cur = reading[0]
        self.led, self.now = lead.suit, cur.suit
        self.single = lead.size == 1
        self.simple = simple = not lead.rainbow and not (
            lead.is_throw and rules.throw_beat == ThrowBeat.CARD_BY_CARD)
        self.plain = plain = simple and not rules.bombs
        self.width = lead.units[0].width
        self.tuple_led = plain and not lead.is_throw and lead.units[0].length == 1
        self.lowest = min([u.top for u in reading])

    def beat(self, play: tuple[Card, ...]) -> Reading | None:
        """What ``play`` reads as if it beats the winner, else ``None``."""
        trump = self.trump
        if len(play) == 1 and self.single and self.simple:
            return beats_single(play, self.cur, trump)
        if self.tuple_led:  # only the same tuple (copies of one face) can beat it
            face, width, now = play[0], self.width, self.now
            if len(play) != width or play.count(face) != width:
                return None
            suit, level = trump.suit_index[face], trump.levels[face]
            if (suit == now and level > self.cur.top) or (suit == TRUMP and now != TRUMP):
                return (make_unit(suit, width, level, (face,)),)  # (play is width faces)
            return None
        if self.plain:
            suits = trump.suit_index
            suit = suits[play[0]]
            if (suit != self.led and suit != TRUMP) or (suit != self.now and suit != TRUMP):
                return None
            for card in play:
                if suits[card] != suit:
                    return None
            if suit == self.now:  # in the winner's suit, some unit must top one of the winner's
                levels, lowest = trump.levels, self.lowest
                for card in play:
                    if levels[card] > lowest:
                        break
                else:
                    return None
        return beats(play, self.reading, self.lead, trump, self.rules)


def _bomb(cards: Sequence[Card], trump: Trump, rules: Rules) -> Unit | None:
    """The cards as a bomb (``rules.bombs`` or more identical cards), or ``None``."""
    if len(cards) < rules.bombs or any(c != cards[0] for c in cards):
        return None
    face = cards[0]
    return make_unit(trump.suit_index[face], len(cards), trump.levels[face], (face,))


def _bomb_key(bomb: Unit) -> tuple[int, bool, int]:
    return (bomb.size, bomb.suit == TRUMP, bomb.top)


def _unit_beats(unit: Unit, other: Unit) -> bool:
    if unit.suit != other.suit:
        return unit.suit == TRUMP
    return unit.top > other.top


def _reading_beats(reading: Reading, current: Reading, rules: Rules) -> bool:
    policy = rules.throw_beat
    mine, theirs = reading[0].suit, current[0].suit
    if mine != theirs:
        return mine == TRUMP
    if policy == ThrowBeat.LARGEST_UNIT:
        if rules.throw_tiebreak:
            return _tops(reading) > _tops(current)
        return _largest_top(reading) > _largest_top(current)
    if policy == ThrowBeat.HIGHEST_CARD:
        return max(u.top for u in reading) > max(u.top for u in current)
    # every unit beats its counterpart of the same shape
    for shape in {u.shape for u in current}:
        a = sorted((u.top for u in reading if u.shape == shape), reverse=True)
        b = sorted((u.top for u in current if u.shape == shape), reverse=True)
        if any(x <= y for x, y in zip(a, b, strict=True)):
            return False
    return True


def _reading_strength(reading: Reading, rules: Rules) -> tuple[int, ...]:
    """How strong a reading is under the throw rule (to pick a play's best reading)."""
    if rules.throw_beat == ThrowBeat.LARGEST_UNIT:
        return _tops(reading) if rules.throw_tiebreak else (_largest_top(reading),)
    if rules.throw_beat == ThrowBeat.HIGHEST_CARD:
        return (max(u.top for u in reading),)
    return tuple(u.top for u in sorted(reading, key=lambda u: (unit_order(u)[:3], -u.top)))


def _tops(reading: Reading) -> tuple[int, ...]:
    """The units' tops, largest unit first (the highest first among equal shapes): the
    first is :func:`_largest_top`, the rest break its ties (``throw_tiebreak``)."""
    return tuple(u.top for u in sorted(reading, key=unit_order))


def _largest_top(reading: Reading) -> int:
    largest = min(reading, key=unit_order)
    return max(u.top for u in reading if u.shape == largest.shape)


def _card_by_card(cards: Sequence[Card], current: Reading, led: int, trump: Trump
                  ) -> Reading | None:
    """Seed hundred: each card beats a distinct card of the current winning play
    (a trump beats any card of the led suit; a card of another plain suit beats nothing)."""
    def strength(card: Card) -> int:
        suit = trump.suit_index[card]
        if suit == TRUMP:
            return 1000 + trump.levels[card]
        return trump.levels[card] if suit == led else -1

    mine = sorted(strength(c) for c in cards)
    theirs = sorted(strength(c) for u in current for c in u.cards)
    j = 0
    for target in theirs:
        while j < len(mine) and mine[j] <= target:
            j += 1
        if j == len(mine):
            return None
        j += 1
    suit = trump.suit_index[cards[0]]
    top = max(trump.levels[c] for c in cards)
    return (make_unit(suit, 1, top, tuple(cards)),) if len(cards) == 1 else tuple(
        make_unit(trump.suit_index[c], 1, trump.levels[c], (c,)) for c in cards)


def matching_readings(cards: LevelCounts, suit: int, lead: Lead, trump: Trump, rules: Rules
                      ) -> list[Reading]:
    """Every reading of ``cards`` with exactly the lead's unit shapes (any reading may win)."""
    needed: dict[tuple[int, int], int] = {}
    for unit in lead.units:
        needed[unit.shape] = needed.get(unit.shape, 0) + 1
    # a quick refusal (most plays on a throw): each unit of width w or more takes w copies
    # of each of its faces, so a reading needs, for each width w of the lead, as many
    # w-copy slots in the faces (a face of n copies gives n // w) as such units have faces
    for width in {w for w, _ in needed}:
        if width > 1:
            slots = 0
            for by_face in cards.values():
                for n in by_face.values():
                    slots += n // width
            for (w, length), k in needed.items():
                if w >= width:
                    slots -= length * k
            if slots < 0:
                return []
    search = _Matching(needed, {lv: dict(f) for lv, f in cards.items()}, suit, trump, rules)
    search.rec()
    return search.found


class _Matching:
    """One search of :func:`matching_readings` (a class, not a closure [compiled build])."""

    def __init__(self, needed: dict[tuple[int, int], int], work: LevelCounts, suit: int,
                 trump: Trump, rules: Rules) -> None:
        self.needed = needed
        self.work = work
        self.suit = suit
        self.trump = trump
        self.rules = rules
        self.found: list[Reading] = []
        self.chosen: list[Unit] = []

    def rec(self) -> None:
        """Read the cards left in ``work`` as the units still ``needed``."""
        work, needed, chosen, trump = self.work, self.needed, self.chosen, self.trump
        if not work:
            self.found.append(tuple(sorted(chosen, key=unit_order)))
            return
        bottom = min(work)
        face = min(work[bottom])
        for (width, length), left in needed.items():
            if not left or work[bottom][face] < width:
                continue
            window = {lv: work[lv] for lv in range(bottom, bottom + length) if lv in work}
            for top, faces in placements(window, width, length, trump, self.rules):
                if top != bottom + length - 1 or faces[0] != face:
                    continue
                needed[(width, length)] -= 1
                take(work, trump, faces, width)
                chosen.append(make_unit(self.suit, width, top, faces))
                self.rec()
                chosen.pop()
                give(work, trump, faces, width)
                needed[(width, length)] += 1
