"""Following a lead: the check of one play, the legal set, and its enumeration.

The rules, in order (seeds wikipedia and wikipedia_2006):

1. Play as many cards as were led.
2. Follow the led effective suit as far as possible: a player holding more
   cards of it than were led plays only that suit; one holding fewer plays
   all of them and fills with anything.
3. Match the lead's structure as far as the hand allows: a play's *structure
   value* must reach the best the hand could (:mod:`shengji.engine.structure`).

:class:`LegalPlays` answers all three questions about one hand and one lead:
``play in legal`` (one fast check), :meth:`LegalPlays.reason` (why not, in
words), the compact description (:attr:`~LegalPlays.forced`,
:attr:`~LegalPlays.pool`, :meth:`~LegalPlays.describe`), a lazy generator of
every distinct legal play, and :meth:`~LegalPlays.random`.

Every query stays fast with many decks: the check, the description and ``random``
cost a few structure evaluations, ``forced`` a bisection on the copies of each face,
and the listing walks the plays face by face entering a branch only if some legal
play completes it (decided exactly: more cards never lower a play's structure value,
under ``protect`` too, see :mod:`shengji.engine.protect`), so that the first play and
each next one come without a dead end. Listing *every* play can still take long: a void
hand holding many cards has astronomically many.

>>> from shengji.engine.trump import Trump
>>> t, r = Trump.parse("2H"), Rules()
>>> lead = Lead.from_cards("KS KS", t, r)
>>> legal = LegalPlays(Hand("9S 9S 8S AC"), lead, t, r)
>>> "9S 9S" in legal
True
>>> print(legal.reason("9S 8S"))
you hold 1 pair in spades (9S 9S): a pair led must be followed by as many pairs as you can play
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from itertools import islice
from random import Random

from shengji.engine.cards import (
    ALL_CARDS,
    Card,
    Hand,
    card_int,
    format_cards,
    missing_cards,
    not_a,
    parse_cards,
)
from shengji.engine.lead import Lead, PlayError, rainbows
from shengji.engine.listing import quick_follows
from shengji.engine.protect import protect_completes
from shengji.engine.rainbows import RainbowFollow
from shengji.engine.reasons import Param, Reason, suit_code
from shengji.engine.rules import Rules, TupleFollow
from shengji.engine.structure import Structure, Used, Value, structure_of
from shengji.engine.trump import Trump
from shengji.engine.units import LevelCounts, counts_of_suit, take


class LegalPlays:
    """Every legal way for ``hand`` to follow ``lead``, described without listing it.

    ``mode`` is ``"free"`` (void in the led suit: any cards), ``"short"`` (all
    led-suit cards are forced, the rest is free), ``"follow"`` (only led-suit
    cards, with structure obligations) or, on a rainbow lead, ``"rainbow"`` (the
    hand holds a rainbow as large: one must be played; else ``"free"``) and, on a rainbow
    throw, ``"rainbows"`` (the hand can answer some of its rainbows: see
    :class:`~shengji.engine.rainbows.RainbowFollow`; else ``"free"``).
    """

    def __init__(self, hand: Hand, lead: Lead, trump: Trump, rules: Rules,
                 structure: Structure | None = None) -> None:
        if not isinstance(hand, Hand):
            raise not_a("a hand (Hand)", hand)
        self.hand = hand
        self.lead = lead
        self.trump = trump
        self.rules = rules
        self.count = len(lead.cards)  # lead.size
        self.suit = lead.suit
        counts = hand.counts
        # the cards held of the led suit by level are read when first needed (most follows
        # of one card never need them): the count alone decides the mode
        held = 0
        for face in trump.suit_faces[lead.suit]:
            held += counts[face]
        self.suit_count = held
        self._by_level: LevelCounts | None = None
        self._rainbows: tuple[tuple[Card, ...], ...] = ()
        self._throw: RainbowFollow | None = None
        if lead.rainbow and len(lead.rainbows) > 1:  # a rainbow throw
            self._throw = RainbowFollow(counts, lead.rainbows, trump, rules)
            self.mode = "rainbows" if self._throw.holds else "free"
        elif lead.rainbow:
            self._rainbows = tuple(rainbows(counts, self.count, trump, rules))
            self.mode = "rainbow" if self._rainbows else "free"
        elif self.suit_count == 0:
            self.mode = "free"
        elif self.suit_count <= self.count:
            self.mode = "short"
        else:
            self.mode = "follow"
        self._structure = structure if structure is not None else structure_of(lead, trump,
                                                                                rules)
        self._target: Value | None = None  # found when first asked (a random draw needs none)
        self._used: Used = []
        self.bombs: tuple[tuple[Card, ...], ...] = ()
        """Bombs legal only as bombs (``rules.bombs``): plays of one face that the
        follow rules alone refuse."""
        if rules.bombs and self.count >= rules.bombs and self.mode != "free":
            counts, suits = hand.counts, trump.suit_index
            self.bombs = tuple(
                (face,) * self.count for face in self.trump.sorted(
                    c for c in ALL_CARDS if counts[c] >= self.count
                    and (not rules.bomb_follow_suit or suits[c] == self.suit))
                if self._follow_reason((face,) * self.count) is not None)

    @property
    def _suit_cards(self) -> LevelCounts:
        """The hand's cards of the led suit by level (read once)."""
        found = self._by_level
        if found is None:
            found = self._by_level = counts_of_suit(self.hand.counts, self.suit, self.trump)
        return found

    @property
    def target(self) -> Value:
        """The best structure value the hand can reach: a legal play reaches it."""
        if self._target is None:
            self._target = ()
            if self.mode == "follow" and not self._structure.trivial:
                self._target, self._used = self._structure.best(self._suit_cards)
        return self._target

    @property
    def _example(self) -> Used:
        """The cards with which the hand reaches :attr:`target`."""
        if self._target is None:
            _ = self.target
        return self._used

    # -- the check -------------------------------------------------------------------

    def reason(self, cards: str | Iterable[Card | str]) -> Reason | None:
        """Why ``cards`` is not a legal follow, in a player's words; ``None`` if it is."""
        try:
            played = parse_cards(cards)
        except ValueError as error:
            return Reason("bad-input", error=str(error))
        if len(played) != self.count:
            return Reason("follow-count", n=self.count)
        missing = missing_cards(self.hand.counts, played)
        if missing:
            return Reason("not-held", cards=format_cards(missing))
        if self.bombs and tuple(played) in self.bombs:
            return None
        return self._follow_reason(played)

    def _follow_reason(self, played: Sequence[Card]) -> Reason | None:
        """:meth:`reason` for a play of the right count of held cards, bombs aside."""
        if self.mode == "free":
            return None
        if self._throw is not None and self.mode == "rainbows":
            if self._throw.legal(played):
                return None
            return Reason("follow-rainbows", rainbows=self._throw.needed(),
                          cards=format_cards(self._throw.example()),
                          lead=lead_param(self.lead))
        if self.mode == "rainbow":
            if tuple(self.trump.sorted(played)) in self._rainbows:
                return None
            return Reason("follow-rainbow", cards=format_cards(self._rainbows[0]),
                          n=self.count)
        suits = self.trump.suit_index
        in_suit = [c for c in played if suits[c] == self.suit]
        if self.mode == "short":
            if len(in_suit) < self.suit_count:
                return Reason("follow-short", held=self.suit_count, suit=suit_code(self.suit),
                              cards=format_cards(self._suit_list()))
            return None
        if len(in_suit) < self.count:
            off = format_cards(c for c in played if suits[c] != self.suit)
            if self.count == 1:
                return Reason("follow-suit-one", held=self.suit_count,
                              suit=suit_code(self.suit), played=off)
            return Reason("follow-suit", held=self.suit_count, suit=suit_code(self.suit),
                          n=self.count, played=off)
        target = self.target
        if self._structure.trivial or not any(target):
            return None  # (a value is never below zero: a hand that reaches none passes)
        value, _ = self._structure.best(_group(played, self.trump), broken=self._broken(played),
                                        enough=target)
        if value >= target:
            return None
        return self._explain(value)

    def __contains__(self, cards: object) -> bool:
        if isinstance(cards, str | tuple | list):
            return self.reason(cards) is None
        return False

    def _broken(self, played: Iterable[Card]) -> frozenset[Card]:
        """Faces of which the play takes fewer copies than the hand holds."""
        taken: dict[Card, int] = {}
        for card in played:
            taken[card] = taken.get(card, 0) + 1
        return frozenset(f for f, n in taken.items() if n < self.hand.counts[f])

    def check(self, cards: str | Iterable[Card | str]) -> None:
        """Raise :class:`~shengji.engine.lead.PlayError` with the reason if illegal."""
        why = self.reason(cards)
        if why is not None:
            raise PlayError(why)

    def _explain(self, value: Value) -> Reason:
        index = next(i for i, (a, b) in enumerate(zip(value, self.target, strict=True)) if a < b)
        tractors = len(self._structure.tractors)
        # in protect mode the second count (cards locked) includes the first (full-size tuples)
        shown = {index, index - 1} if self._structure.exact and index > tractors else {index}
        example = format_cards(
            f for i, faces, width in self._example if i in shown
            for f in faces for _ in range(width)
        )
        suit = suit_code(self.suit)
        want = self.target[index]
        if index < tractors:
            led = self._structure.tractors[index]
            shape = self._structure.tractor_shape(index, want)
            if shape == led.shape:
                return Reason("follow-tractor", shape=shape, suit=suit, cards=example)
            key = ("follow-tractor-shorter" if shape[0] == led.width
                   else "follow-tractor-narrower")
            return Reason(key, shape=shape, led=led.shape, suit=suit, cards=example)
        if self._structure.exact and index == tractors:
            return Reason("follow-protect", want=want, suit=suit, cards=example,
                          lead=lead_param(self.lead), played=value[index])
        if self._structure.exact:
            return Reason("follow-locked", want=want, suit=suit, cards=example,
                          played=value[index])
        return Reason("follow-tuples", want=want, width=self._structure.widths[index - tractors],
                      suit=suit, cards=example, lead=lead_param(self.lead))

    def _suit_list(self) -> list[Card]:
        return [f for lv in sorted(self._suit_cards, reverse=True)
                for f, n in sorted(self._suit_cards[lv].items()) for _ in range(n)]

    # -- the description -------------------------------------------------------------

    @property
    def forced(self) -> tuple[Card, ...]:
        """Cards every legal play contains (with multiplicity)."""
        forced = self._forced()
        if not self.bombs:
            return forced
        common = Counter(forced)
        for bomb in self.bombs:
            common &= Counter(bomb)
        return tuple(self.trump.sorted(common.elements()))

    def _forced(self) -> tuple[Card, ...]:
        """Cards every legal play contains, bombs aside."""
        if self._throw is not None and self.mode == "rainbows":
            return tuple(self.trump.sorted(self._throw.forced()))
        if self.mode == "rainbow":
            common = Counter(self._rainbows[0])
            for play in self._rainbows[1:]:
                common &= Counter(play)
            return tuple(self.trump.sorted(common.elements()))
        if self.mode == "free" or self.mode == "short":
            # when the other cards held, less every copy of any one face, fill the play,
            # nothing is forced but the led suit's cards when short (read from the counts)
            size, count, counts = len(self.hand), self.count, self.hand.counts
            if size - max(counts) >= count:
                if self.mode == "free":
                    return ()
                faces, mine = self.trump.suit_faces[self.suit], []
                for i in range(len(faces) - 1, -1, -1):  # the trump's sorted order
                    face = faces[i]
                    mine += [face] * counts[card_int(face)]
                return tuple(mine)
        if self.mode != "follow" or self._structure.trivial:
            # Only the count constrains the choice: a face is forced as far as the other
            # cards it may be chosen from cannot fill the play without it.
            suits, counts = self.trump.suit_index, self.hand.counts
            held = [c for c in ALL_CARDS if counts[c]]  # the Card objects, not built
            if self.mode == "free":
                forced = _forced_by_count(held, counts, self.count)
            elif self.mode == "short":
                others = [f for f in held if suits[f] != self.suit]
                forced = self._suit_list() + _forced_by_count(
                    others, counts, self.count - self.suit_count)
            else:
                in_suit = [f for f in held if suits[f] == self.suit]
                forced = _forced_by_count(in_suit, counts, self.count)
            return tuple(self.trump.sorted(forced))
        forced = []
        # The structure value only grows with the cards (tuples are counted exactly), so a
        # play without ``s`` copies of a face exists exactly when the suit without them
        # still reaches the target and holds enough cards: the copies that the example
        # play (which reaches the target) leaves unused can go, as far as the count allows;
        # how many more can go is found by bisection. (Under protect only a play's value
        # grows so: the suit must still hold a witness; the example, the hand's, is used
        # where it is one.)
        used: dict[Card, int] = {}
        for _, faces, width in self._example:
            for f in faces:
                used[f] = used.get(f, 0) + width
        trusted = self.rules.tuple_follow != TupleFollow.PROTECT or protect_completes(
            self._structure, _group([f for f, k in used.items() for _ in range(k)],
                                    self.trump), used, self.hand.counts, self.target, 0)
        room = self.suit_count - self.count
        for by_face in self._suit_cards.values():
            for face, n in by_face.items():
                low = min(n - used.get(face, 0), room) if trusted else 0
                high = min(n, room)
                while low < high:
                    mid = (low + high + 1) // 2
                    if self._feasible_without(face, mid):
                        low = mid
                    else:
                        high = mid - 1
                forced += [face] * (n - low)
        return tuple(self.trump.sorted(forced))

    def _feasible_without(self, face: Card, copies: int) -> bool:
        if self.suit_count - copies < self.count:
            return False
        counts = list(self.hand.counts)
        counts[face] -= copies
        cards = counts_of_suit(counts, self.suit, self.trump)
        if self.rules.tuple_follow == TupleFollow.PROTECT:  # a witness within the count
            return protect_completes(self._structure, cards, {}, self.hand.counts,
                                     self.target, self.count)
        value, _ = self._structure.best(cards, enough=self.target)
        return value >= self.target

    @property
    def pool(self) -> tuple[Card, ...]:
        """Cards a legal play may contain: the led suit when following (and bombs), else
        the hand."""
        if self.mode == "follow":
            suits = self.trump.suit_index
            return tuple(self.trump.sorted(self._suit_list() + [
                c for bomb in self.bombs for c in bomb if suits[c] != self.suit]))
        if self._throw is not None and self.mode == "rainbows":
            pool = Counter(self._throw.pool())
            for bomb in self.bombs:
                pool |= Counter(bomb)
            return tuple(self.trump.sorted(pool.elements()))
        if self.mode == "rainbow":
            held = {c for play in (*self._rainbows, *self.bombs) for c in play}
            return tuple(self.trump.sorted(c for c in held for _ in range(
                max(play.count(c) for play in (*self._rainbows, *self.bombs)))))
        return tuple(self.trump.sorted(self.hand.cards()))

    def describe(self) -> Reason:
        """The obligations in words, e.g. ``play 4 spades, including 2 pairs``."""
        suit = suit_code(self.suit)
        n = self.count
        if self.mode == "free" and self._throw is not None:
            return Reason("must-any-rainbows", n=n, size=self._throw.least)
        if self.mode == "free" and self.lead.rainbow:
            return Reason("must-any-rainbow", n=n)
        if self.mode == "free":
            return Reason("must-any", n=n, suit=suit)
        bomb = n if self.bombs else 0
        if self.mode == "rainbow":
            return Reason("must-rainbow", n=n, bomb=bomb)
        if self._throw is not None:
            return Reason("must-rainbows", n=n, rainbows=self._throw.needed(), bomb=bomb)
        if self.mode == "short":
            return Reason("must-short", suit=suit, cards=format_cards(self._suit_list()),
                          rest=n - self.suit_count, bomb=bomb)
        parts: list[Param] = []
        tractors = len(self._structure.tractors)
        for i in range(len(self._structure.labels)):
            want = self.target[i] if i < len(self.target) else 0
            if want == 0:
                continue
            if i < tractors:
                parts.append(("tractor", *self._structure.tractor_shape(i, want)))
            elif self._structure.exact:
                if i > tractors and want == self.target[i - 1]:
                    continue  # all the locked cards are in full-size tuples: said already
                parts.append(("led-size" if i == tractors else "locked", want))
            else:
                parts.append(("tuples", want, self._structure.widths[i - tractors]))
        return Reason("must-follow", n=n, suit=suit, needs=tuple(parts), bomb=bomb)

    def can_complete(self, cards: str | Iterable[Card | str]) -> bool:
        """Whether the selection can still be completed to a legal play (for interfaces)."""
        chosen = parse_cards(cards)
        if len(chosen) > self.count or missing_cards(self.hand.counts, chosen):
            return False
        if self.mode == "free":
            return True
        if any(not Counter(chosen) - Counter(play) for play in (*self.bombs, *self._rainbows)):
            return True
        if self.mode == "rainbow":
            return False
        if self._throw is not None:
            return self._throw.can_complete(chosen)
        suits = self.trump.suit_index
        off = sum(1 for c in chosen if suits[c] != self.suit)
        if self.mode == "short":
            return off <= self.count - self.suit_count
        if off:
            return False
        return any(True for _ in self._search(self.hand, chosen))

    # -- enumeration -----------------------------------------------------------------

    def __iter__(self) -> Iterator[tuple[Card, ...]]:
        """Every distinct legal play once, lazily, each sorted strongest first."""
        if self.mode == "free":
            yield from _multisets(self.hand.counts, self.count, self.trump, None)
        elif self.mode == "rainbow":
            yield from self._rainbows
        elif self._throw is not None:
            yield from self._throw.plays()
        elif self.mode == "short":
            forced = tuple(self.trump.sorted(self._suit_list()))
            suits = self.trump.suit_index
            for rest in _multisets(self.hand.counts, self.count - self.suit_count,
                                   self.trump, self.suit, exclude=True):
                # rest is sorted strongest first and holds no led-suit card: the forced
                # cards go between the higher effective suits and the lower ones
                k = 0
                while k < len(rest) and suits[rest[k]] > self.suit:
                    k += 1
                yield rest[:k] + forced + rest[k:]
        else:
            yield from self._search(self.hand, ())
        yield from self.bombs

    def plays_if_fewer(self, limit: int) -> list[tuple[Card, ...]] | None:
        """Every legal play, in the listing's order, where there are fewer than ``limit``;
        ``None`` where there are more. Listed directly (:mod:`shengji.engine.listing`)
        where the lead asks for little structure."""
        found = None
        if self.mode == "follow" and not self.bombs:
            found = quick_follows(self, limit)
        if found is None:
            found = list(islice(self, limit))
        return found if len(found) < limit else None

    def _search(self, hand: Hand, at_least: tuple[Card, ...]) -> Iterator[tuple[Card, ...]]:
        """The legal plays of ``hand`` holding ``at_least``, in decreasing order of the
        copies taken of each face (strongest face first).

        Each branch is entered only if some legal play completes it
        (:meth:`Structure.completion_cost` decides exactly, under ``protect``
        :func:`~shengji.engine.protect.protect_completes`), so the walk never backtracks
        without a play: the first play and each next one cost at most faces × copies calls
        of that test."""
        structure = self._structure
        suit_cards = counts_of_suit(hand.counts, self.suit, self.trump)
        faces = [(f, n) for lv in sorted(suit_cards, reverse=True)
                 for f, n in sorted(suit_cards[lv].items())]
        low = {c: 0 for c, _ in faces}
        for c in at_least:
            if c not in low:
                return
            low[c] += 1
        if any(low[f] > n for f, n in faces):
            return
        tail = [0] * (len(faces) + 1)
        lows = [0] * (len(faces) + 1)
        for i in range(len(faces) - 1, -1, -1):
            tail[i] = tail[i + 1] + faces[i][1]
            lows[i] = lows[i + 1] + low[faces[i][0]]
        trump, target, count = self.trump, self.target, self.count
        # a hand that reaches no structure (target all zeros) may play any cards of the suit
        unbound = structure.trivial or not any(target)
        protect = self.rules.tuple_follow == TupleFollow.PROTECT
        chosen: list[Card] = []

        def completes(i: int, need: int) -> bool:
            """Whether a legal play holds ``chosen`` (faces before ``i``, exactly) and
            ``need`` more cards of the faces from ``i`` on (at least their ``low``)."""
            if tail[i] < need or lows[i] > need:
                return False
            if unbound:
                return True
            cards = _group(chosen, trump)
            free = {f: cards[trump.levels[f]][f] for f in set(chosen)}
            for f, n in faces[i:]:
                cards.setdefault(trump.levels[f], {})[f] = n
                if low[f]:
                    free[f] = low[f]
            if protect:
                return protect_completes(structure, cards, free, self.hand.counts, target,
                                         need - lows[i])
            cost = structure.completion_cost(cards, free, target, need - lows[i])
            return cost is not None

        def rec(i: int, need: int) -> Iterator[tuple[Card, ...]]:
            if need == 0:  # (under protect, the test that stops at the first witness)
                if unbound or (completes(len(faces), 0) if protect else structure.best(
                        _group(chosen, trump), broken=self._broken(chosen),
                        enough=target)[0] >= target):
                    yield tuple(chosen)
                return
            face, n = faces[i]
            for k in range(min(n, need), low[face] - 1, -1):
                chosen.extend([face] * k)
                rest = need - k
                if completes(i + 1, rest) if rest else not lows[i + 1]:
                    yield from rec(i + 1, rest)
                del chosen[len(chosen) - k:]

        if completes(0, count):
            yield from rec(0, count)

    def random(self, rng: Random) -> tuple[Card, ...]:
        """A random legal play (each call draws anew from ``rng``)."""
        # one card: rng.sample(cards, 1) draws randrange(len(cards)) and takes that card,
        # which is found here without listing the cards (the same draw, the same card)
        if self.mode == "free":
            if self.count == 1:
                return (self.hand.card_at(rng.randrange(len(self.hand))),)
            return tuple(self.trump.sorted(rng.sample(self.hand.cards(), self.count)))
        if self.mode == "rainbow":
            return self._rainbows[rng.randrange(len(self._rainbows))]
        if self._throw is not None:
            return self._throw.random(rng)
        if self.mode == "short":
            others = [c for c in self.hand.cards() if self.trump.suit_index[c] != self.suit]
            extra = rng.sample(others, self.count - self.suit_count)
            return tuple(self.trump.sorted(self._suit_list() + extra))
        if self._structure.trivial:  # no structure to match: any cards of the suit
            # (the suit's faces by level, weakest first: the order of its table by level)
            counts, faces = self.hand.counts, self.trump.suit_faces[self.suit]
            if self.count == 1:
                index = rng.randrange(self.suit_count)
                for face in faces:
                    n = counts[face]
                    if index < n:
                        return (face,)
                    index -= n
            rest = [f for f in faces for _ in range(counts[f])]
            return tuple(self.trump.sorted(rng.sample(rest, self.count)))
        if self._structure.tractors and self._target is None:
            # finding the target takes and gives back tractors, which reorders the suit's
            # table; the draws below follow the table's order as it was always drawn
            _ = self.target
        cards = {lv: dict(faces) for lv, faces in self._suit_cards.items()}
        _, used = self._structure.best(cards, rng)
        play = [f for _, faces, width in used for f in faces for _ in range(width)]
        for card in play:
            take(cards, self.trump, (card,), 1)
        rest = [f for by_face in cards.values() for f, n in by_face.items() for _ in range(n)]
        play += rng.sample(rest, self.count - len(play))
        return tuple(self.trump.sorted(play))

    def __repr__(self) -> str:
        return f"<LegalPlays {self.describe()!r} on {self.lead}>"


def lead_param(lead: Lead) -> Param:
    """A lead as a reason parameter: ``("rainbow", n)``, ``("rainbows", n, n, ...)``,
    ``("unit", shape)`` or ``("throw", shape, ...)`` (see :mod:`shengji.engine.reasons`)."""
    if len(lead.rainbows) > 1:
        return ("rainbows", *(len(r) for r in lead.rainbows))
    if lead.rainbow:
        return ("rainbow", len(lead.cards))
    return ("throw" if lead.is_throw else "unit", *(u.shape for u in lead.units))


def _group(cards: Iterable[Card], trump: Trump) -> LevelCounts:
    result: LevelCounts = {}
    levels = trump.levels
    for card in cards:  # (get, not setdefault with a new dict [compiled build])
        level = levels[card_int(card)]
        by_face = result.get(level)
        if by_face is None:
            result[level] = {card: 1}
        else:
            by_face[card] = by_face.get(card, 0) + 1
    return result


def _forced_by_count(faces: list[Card], counts: list[int], size: int) -> list[Card]:
    """The copies every choice of ``size`` cards from ``faces`` must contain."""
    total = sum(counts[f] for f in faces)
    return [f for f in faces for _ in range(max(0, size - (total - counts[f])))]


def _multisets(counts: list[int], size: int, trump: Trump, suit: int | None,
               exclude: bool = False) -> Iterator[tuple[Card, ...]]:
    """Every distinct multiset of ``size`` cards from ``counts`` (optionally leaving out
    one effective suit), each sorted strongest first."""
    faces = [Card(i) for i, n in enumerate(counts) if n
             and not (exclude and trump.suit_index[i] == suit)]
    faces.sort(key=lambda c: (trump.key(c), c), reverse=True)
    held = [counts[f] for f in faces]
    tail = [0] * (len(faces) + 1)
    for i in range(len(faces) - 1, -1, -1):
        tail[i] = tail[i + 1] + held[i]
    if tail[0] < size:
        return
    # An odometer over the copies taken of each face, in decreasing lexicographic order
    # (a depth-first search taking the most copies first) but without nested generators,
    # whose cost per play grows with the number of faces.
    taken = [0] * len(faces)
    chosen: list[Card] = []

    def fill(i: int, need: int) -> None:  # the most copies of each face from ``i`` on
        while need:
            k = held[i] if held[i] < need else need
            taken[i] = k
            chosen.extend([faces[i]] * k)
            need -= k
            i += 1

    fill(0, size)
    while True:
        yield tuple(chosen)
        after = 0  # copies taken of the faces after ``i``
        i = len(faces) - 1
        while i >= 0 and not (taken[i] and tail[i + 1] > after):
            after += taken[i]
            taken[i] = 0
            i -= 1
        if i < 0:
            return
        taken[i] -= 1
        del chosen[len(chosen) - after - 1:]
        fill(i + 1, after + 1)
