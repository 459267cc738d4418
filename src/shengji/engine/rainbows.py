"""Rainbow throws (``rules.rainbow_throws``): two or more rainbows led together.

A rainbow (``rules.rainbow``) is one card of one rank in each of at least ``rules.rainbow``
effective suits (the trump suit counting as one). With ``rainbow_throws`` and ``throws``
a lead may hold several rainbows, as a throw holds several pairs. It is read one way,
rank by rank in *layers*: a rank's first rainbow takes one card of every effective suit
in which the lead holds that rank, the next one card of every suit holding a second copy,
and so on; every layer must be a rainbow (at least ``rules.rainbow`` cards), and there
must be two rainbows or more (one is a plain rainbow lead). The rainbows are kept largest
first, the highest rank first among equals (:func:`read_rainbow_throw`).

A follower plays as many cards as were led, among them as many disjoint rainbows of the
led sizes as the hand allows, the largest size first (a rainbow of 4 answers one of 3, as
a triple answers a pair): the hand's *value* is the largest vector, compared
lexicographically, of the numbers of rainbows of each led size (at most as many as led)
that disjoint cards of the hand form, and a play is legal when it reaches the same value
(:class:`RainbowFollow`). Rainbows are of one rank each, so the value is found rank by
rank: rainbows of sizes ``r`` fit in a rank's effective suits holding ``c`` cards each
exactly when (Gale-Ryser) the ``k`` largest sizes sum to at most ``sum(min(c, k))`` for
every ``k``.

A follower's play wins only if it splits into rainbows of exactly the led sizes, then as
``rules.throw_beat`` says (:func:`beat_rainbows`).

>>> from shengji.engine.trump import Trump
>>> t, r = Trump.parse("2H"), Rules(rainbow=2, rainbow_throws=True)
>>> [" ".join(map(str, rainbow)) for rainbow in read_rainbow_throw(
...     [Card(c) for c in "9S 9S 9D 9C 9D QS QC".split()], t, r)]
['9S 9D 9C', 'QS QC', '9S 9D']
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations, product
from random import Random
from typing import Final

from shengji.engine.caches import remember
from shengji.engine.cards import ALL_CARDS, SMALL_JOKER_ID, Card, Rank, Suit
from shengji.engine.rules import Rules, ThrowBeat
from shengji.engine.trump import Trump
from shengji.engine.units import Reading, Unit, make_unit

Rainbows = tuple[tuple[Card, ...], ...]
"""Rainbows, each strongest card first, the largest first (the highest rank among equals)."""
Value = tuple[int, ...]
"""Rainbows of each led size, the largest size first."""
Groups = tuple[tuple[Card, ...], ...]
"""One rank's faces grouped by effective suit."""

_GROUPS: Final[dict[int, tuple[Trump, tuple[Groups, ...]]]] = {}


def rank_groups(trump: Trump) -> tuple[Groups, ...]:
    """For each rank (at ``rank - 2``) its four faces grouped by effective suit, the
    strongest face first in each group (a trump rank's faces are one group)."""
    found = _GROUPS.get(id(trump))
    if found is not None and found[0] is trump:
        return found[1]
    table: list[Groups] = []
    for rank in Rank:
        by_suit: dict[int, list[Card]] = {}
        for suit in Suit:
            face = Card.of(rank, suit)
            by_suit.setdefault(trump.suit_index[face], []).append(face)
        table.append(tuple(tuple(trump.sorted(by_suit[s])) for s in sorted(by_suit)))
    groups = tuple(table)
    remember(_GROUPS, id(trump), (trump, groups), 16)
    return groups


def rank_of(card: Card) -> int:
    """A card's rank as 0 (2) .. 12 (ace); the card must not be a joker."""
    return card % 13


def order_rainbows(found: Sequence[Sequence[Card]], trump: Trump) -> Rainbows:
    """Rainbows in their kept order: each strongest card first, the largest first, the
    highest rank first among equals."""
    ordered = [tuple(trump.sorted(r)) for r in found]
    ordered.sort(key=lambda r: (-len(r), -rank_of(r[0]), tuple([-int(c) for c in r])))
    return tuple(ordered)


def read_rainbow_throw(cards: Sequence[Card], trump: Trump, rules: Rules) -> Rainbows | None:
    """The rainbows of a rainbow throw, read in layers (see the module), or ``None`` if the
    cards are not two rainbows or more (or ``rainbow_throws`` is off)."""
    least = rules.rainbow
    if not least or not rules.rainbow_throws or len(cards) < 2 * least:
        return None
    suits = trump.suit_index
    by_rank: dict[int, dict[int, list[Card]]] = {}
    for card in cards:
        if card >= SMALL_JOKER_ID:
            return None
        by_suit = by_rank.setdefault(rank_of(card), {})
        by_suit.setdefault(suits[card], []).append(card)
    found: list[tuple[Card, ...]] = []
    for by_suit in by_rank.values():
        piles = [trump.sorted(pile) for pile in by_suit.values()]
        depth = max([len(pile) for pile in piles])
        if sum([1 for pile in piles if len(pile) == depth]) < least:
            return None  # the last layer is not a rainbow
        for i in range(depth):
            found.append(tuple([pile[i] for pile in piles if len(pile) > i]))
    if len(found) < 2:
        return None
    return order_rainbows(found, trump)


def rainbow_sizes(led: Rainbows) -> tuple[Value, Value]:
    """The distinct sizes of ``led`` (largest first) and how many rainbows have each."""
    sizes: list[int] = []
    counts: list[int] = []
    for rainbow in led:
        if sizes and sizes[-1] == len(rainbow):
            counts[-1] += 1
        else:
            sizes.append(len(rainbow))
            counts.append(1)
    return tuple(sizes), tuple(counts)


# -- listing leads -----------------------------------------------------------------------


def _throw_choices(counts: Sequence[int], trump: Trump, rules: Rules
                   ) -> list[list[tuple[tuple[Card, ...], int]]]:
    """For each rank that can form a rainbow, every choice of its cards that reads as whole
    layers (nothing first), with its number of layers."""
    least = rules.rainbow
    found: list[list[tuple[tuple[Card, ...], int]]] = []
    for groups in rank_groups(trump):
        faces: list[Card] = []
        where: list[int] = []
        for g, group in enumerate(groups):
            for face in group:
                if counts[face]:
                    faces.append(face)
                    where.append(g)
        if len({*where}) < least:
            continue
        choices: list[tuple[tuple[Card, ...], int]] = [((), 0)]
        for pick in product(*[range(counts[f] + 1) for f in faces]):
            piles = [0] * len(groups)
            for g, k in zip(where, pick, strict=True):
                piles[g] += k
            depth = max(piles)
            if depth and sum([1 for n in piles if n == depth]) >= least:
                choices.append((tuple([f for f, k in zip(faces, pick, strict=True)
                                       for _ in range(k)]), depth))
        if len(choices) > 1:
            found.append(choices)
    return found


def rainbow_throws(counts: Sequence[int], trump: Trump, rules: Rules
                   ) -> Iterator[tuple[Card, ...]]:
    """Every distinct rainbow throw of the held ``counts``, lazily, each strongest card
    first (none unless ``rainbow``, ``rainbow_throws`` and ``throws``)."""
    if not (rules.rainbow and rules.rainbow_throws and rules.throws):
        return
    choices = _throw_choices(counts, trump, rules)
    if sum([max([depth for _, depth in choice]) for choice in choices]) < 2:
        return
    for combo in product(*choices):
        layers = 0
        for _, depth in combo:
            layers += depth
        if layers >= 2:
            yield tuple(trump.sorted([c for cards, _ in combo for c in cards]))


def random_rainbow_throw(counts: Sequence[int], trump: Trump, rules: Rules, rng: Random,
                         ) -> tuple[tuple[Card, ...], int]:
    """The number of rainbow throws held (as :func:`rainbow_throws` lists them) and one
    of them drawn uniformly (``()`` when none; ``rng`` is not used then)."""
    if not (rules.rainbow and rules.rainbow_throws and rules.throws):
        return (), 0
    choices = _throw_choices(counts, trump, rules)
    total, ones = 1, 0
    for choice in choices:
        total *= len(choice)
        ones += sum([1 for _, depth in choice if depth == 1])
    count = total - 1 - ones  # less nothing and the single rainbows
    if count <= 0:
        return (), 0
    for _ in range(1000):  # (rejection: uniform over the throws)
        combo = [choice[rng.randrange(len(choice))] for choice in choices]
        if sum([depth for _, depth in combo]) >= 2:
            return tuple(trump.sorted([c for cards, _ in combo for c in cards])), count
    return next(rainbow_throws(counts, trump, rules)), count  # pragma: no cover


def throw_completable(chosen: Sequence[int], held: Sequence[int], trump: Trump,
                      rules: Rules) -> bool:
    """Whether the ``chosen`` cards (per-face counts, within ``held``) can still be
    completed from ``held`` to a rainbow throw: each rank's chosen cards fit under layers
    deep enough, and the ranks can give two layers or more."""
    if not (rules.rainbow and rules.rainbow_throws and rules.throws):
        return False
    if chosen[SMALL_JOKER_ID] or chosen[SMALL_JOKER_ID + 1]:
        return False
    least = rules.rainbow
    layers = 0
    for groups in rank_groups(trump):
        low, have = 0, []
        for group in groups:
            got = n = 0
            for face in group:
                got += chosen[face]
                n += held[face]
            have.append(n)
            low = max(low, got)
        depth = max(low, 1)
        if sum([1 for n in have if n >= depth]) < least:
            if low:
                return False
            continue
        while sum([1 for n in have if n >= depth + 1]) >= least:
            depth += 1
        layers += depth
    return layers >= 2


# -- following ---------------------------------------------------------------------------


def _fits(rows: Sequence[int], held: Sequence[int]) -> bool:
    """Whether rainbows of sizes ``rows`` (largest first) fit, disjoint, in effective
    suits holding ``held`` cards (Gale-Ryser with the suits' counts as bounds)."""
    total = 0
    for k, size in enumerate(rows, 1):
        total += size
        room = 0
        for n in held:
            room += n if n < k else k
        if total > room:
            return False
    return True


def _usages(rows: Sequence[int], held: Sequence[int]) -> list[tuple[int, ...]]:
    """Every way rainbows of sizes ``rows`` can use exactly ``u[e] <= held[e]`` cards of
    each effective suit (Gale-Ryser, exact)."""
    most = len(rows)
    return [tuple(use) for use in product(*[range(min(n, most) + 1) for n in held])
            if _exact(rows, use)]


def _exact(rows: Sequence[int], use: Sequence[int]) -> bool:
    """Whether rainbows of sizes ``rows`` can take exactly ``use[e]`` cards of each
    effective suit (Gale-Ryser)."""
    if sum(use) != sum(rows):
        return False
    total = 0
    for k, n in enumerate(sorted(use, reverse=True), 1):
        total += n
        if total > sum([r if r < k else k for r in rows]):
            return False
    return True


_TABLES: Final[dict[tuple[Value, Value, tuple[tuple[int, int], ...]], dict[Value, int]]] = {}
"""The tables :func:`_rank_table` made."""


def _rank_table(sizes: Value, caps: Value, suits: tuple[tuple[int, int], ...]
                ) -> dict[Value, int]:
    """For one rank whose effective suits hold ``suits`` (cards, credited cards; credited
    cards are held), every vector of numbers of rainbows of ``sizes`` (at most ``caps``)
    that disjoint cards of the rank form, with the most credited cards such rainbows can
    take."""
    key = (sizes, caps, suits)
    found = _TABLES.get(key)
    if found is not None:
        return found
    held = [n for n, _ in suits]
    credits = [w for _, w in suits]
    credited = any(credits)
    total, width = sum(held), len(held)
    table: dict[Value, int] = {}
    ranges = [range(min(cap, total // size) + 1 if size <= width else 1)
              for size, cap in zip(sizes, caps, strict=True)]
    for pick in product(*ranges):
        rows = [size for size, k in zip(sizes, pick, strict=True) for _ in range(k)]
        if sum(rows) > total or not _fits(rows, held):
            continue
        best = 0
        if credited and rows:
            for use in _usages(rows, held):
                got = 0
                for u, w in zip(use, credits, strict=True):
                    got += u if u < w else w
                best = max(best, got)
        table[tuple(pick)] = best
    return remember(_TABLES, key, table, 4096)


class RainbowFollow:
    """What a hand (per-face ``counts``) owes a rainbow throw (``led``, its rainbows):
    the check, the forced cards, the pool, completion and the legal plays."""

    def __init__(self, counts: list[int], led: Rainbows, trump: Trump, rules: Rules) -> None:
        self.counts = counts
        self.trump = trump
        self.count = sum([len(r) for r in led])
        self.sizes, self.caps = rainbow_sizes(led)
        self.least = self.sizes[-1]
        self.groups = rank_groups(trump)
        self.size = sum(counts)
        self.target: Value = max(self._states(counts, None))
        """The hand's value: a legal play reaches it."""
        self.total = sum([n * s for n, s in zip(self.target, self.sizes, strict=True)])
        """The cards of the rainbows the target asks for."""

    @property
    def holds(self) -> bool:
        """Whether the hand can answer any led rainbow."""
        return self.total > 0

    def needed(self) -> tuple[int, ...]:
        """The sizes of the rainbows a legal play holds, largest first."""
        return tuple([s for s, n in zip(self.sizes, self.target, strict=True)
                      for _ in range(n)])

    def _suits(self, groups: Groups, held: Sequence[int], credit: Sequence[int] | None
               ) -> tuple[tuple[int, int], ...]:
        """The (cards, credited cards) of each effective suit of one rank that holds any."""
        suits: list[tuple[int, int]] = []
        for group in groups:
            n = w = 0
            for face in group:
                n += held[face]
                if credit is not None:
                    w += credit[face]
            if n:
                suits.append((n, w))
        suits.sort(reverse=True)
        return tuple(suits)

    def _states(self, held: Sequence[int], credit: Sequence[int] | None) -> dict[Value, int]:
        """Every value that disjoint rainbows of ``held`` form (at most as many of each size
        as led), with the most ``credit`` cards (per face, within ``held``) they can take."""
        caps, sizes = self.caps, self.sizes
        states: dict[Value, int] = {(0,) * len(sizes): 0}
        for groups in self.groups:
            suits = self._suits(groups, held, credit)
            if len(suits) < self.least:
                continue
            table = _rank_table(sizes, caps, suits)
            if len(table) <= 1:
                continue
            merged: dict[Value, int] = {}
            for have, got in states.items():
                for more, extra in table.items():
                    sum_ = tuple([a + b for a, b in zip(have, more, strict=True)])
                    if any([a > c for a, c in zip(sum_, caps, strict=True)]):
                        continue
                    if merged.get(sum_, -1) < got + extra:
                        merged[sum_] = got + extra
            states = merged
        return states

    def _value(self, held: Sequence[int]) -> Value:
        return max(self._states(held, None))

    def legal(self, played: Sequence[Card]) -> bool:
        """Whether a play of as many held cards as were led reaches the target."""
        counts = [0] * len(self.counts)
        for card in played:
            counts[card] += 1
        return self._value(counts) == self.target

    def can_complete(self, chosen: Sequence[Card]) -> bool:
        """Whether held cards ``chosen`` (no more than were led) can be completed to a
        legal play: some rainbows reaching the target share enough cards with them."""
        credit = [0] * len(self.counts)
        for card in chosen:
            credit[card] += 1
        got = self._states(self.counts, credit).get(self.target)
        return got is not None and self.total - got <= self.count - len(chosen)

    def _live(self, face: Card) -> bool:
        """Whether the face's rank can form a rainbow of a led size in the hand."""
        if face >= SMALL_JOKER_ID:
            return False
        return len(self._suits(self.groups[rank_of(face)], self.counts, None)) >= self.least

    def forced(self) -> list[Card]:
        """Cards every legal play holds: the copies of a face without which the hand,
        with enough cards left, no longer reaches the target."""
        spare = self.size - self.count
        forced: list[Card] = []
        cut = list(self.counts)
        for face in ALL_CARDS:
            n = self.counts[face]
            if not n:
                continue
            most = min(n, spare)  # copies left out of some legal play
            if self._live(face):
                while most > 0:
                    cut[face] = n - most
                    if self._value(cut) == self.target:
                        break
                    most -= 1
                cut[face] = n
            forced += [face] * (n - most)
        return forced

    def pool(self) -> list[Card]:
        """Every card some legal play holds, as many copies as one holds at most."""
        pool: list[Card] = []
        for face in ALL_CARDS:
            most = min(self.counts[face], self.count)
            if most and not self._live(face):
                most = min(most, self.count - self.total)
            else:
                while most > 0 and not self.can_complete([face] * most):
                    most -= 1
            pool += [face] * most
        return pool

    def plays(self) -> Iterator[tuple[Card, ...]]:
        """Every distinct legal play once, lazily, each strongest card first."""
        faces = self.trump.sorted([c for c in ALL_CARDS if self.counts[c]])
        walk = _Walk(self, faces)
        if walk.completes(0, self.count):
            yield from walk.rec(0, self.count)

    def _packing(self, rng: Random | None) -> list[Card]:
        """Cards of disjoint rainbows reaching the target (drawn with ``rng``, else the
        first found)."""
        sizes, caps, counts = self.sizes, self.caps, self.counts
        zero = (0,) * len(sizes)
        ranks: list[tuple[Groups, dict[Value, int]]] = []
        for groups in self.groups:
            live = tuple([g for g in groups if any([counts[f] for f in g])])
            if len(live) < self.least:
                continue
            table = _rank_table(sizes, caps, self._suits(live, counts, None))
            if len(table) > 1:
                ranks.append((live, table))
        reach: list[set[Value]] = [set() for _ in range(len(ranks))] + [{zero}]
        for i in range(len(ranks) - 1, -1, -1):
            for have in reach[i + 1]:
                for more in ranks[i][1]:
                    sum_ = tuple([a + b for a, b in zip(have, more, strict=True)])
                    if all([a <= c for a, c in zip(sum_, caps, strict=True)]):
                        reach[i].add(sum_)
        cards: list[Card] = []
        sofar = zero
        for i, (live, table) in enumerate(ranks):
            options = sorted([more for more in table if tuple([
                t - a - b for t, a, b in zip(self.target, sofar, more, strict=True)])
                in reach[i + 1]], reverse=True)
            more = options[rng.randrange(len(options))] if rng is not None else options[0]
            sofar = tuple([a + b for a, b in zip(sofar, more, strict=True)])
            if not any(more):
                continue
            rows = [s for s, k in zip(sizes, more, strict=True) for _ in range(k)]
            held = [sum([counts[f] for f in g]) for g in live]
            uses = _usages(rows, held)
            use = uses[rng.randrange(len(uses))] if rng is not None else uses[0]
            for group, k in zip(live, use, strict=True):
                pile = [f for f in group for _ in range(counts[f])]
                cards += rng.sample(pile, k) if rng is not None else pile[:k]
        return cards

    def example(self) -> tuple[Card, ...]:
        """The cards of some rainbows reaching the target."""
        return tuple(self.trump.sorted(self._packing(None)))

    def random(self, rng: Random) -> tuple[Card, ...]:
        """A random legal play: rainbows reaching the target, then any held cards."""
        play = self._packing(rng)
        left = list(self.counts)
        for card in play:
            left[card] -= 1
        rest = [f for f in ALL_CARDS for _ in range(left[f])]
        play += rng.sample(rest, self.count - len(play))
        return tuple(self.trump.sorted(play))


class _Walk:
    """One listing of :meth:`RainbowFollow.plays`: the faces strongest first, the most
    copies of each first, a branch entered only if a legal play completes it (exact)."""

    def __init__(self, follow: RainbowFollow, faces: list[Card]) -> None:
        self.follow = follow
        self.faces = faces
        self.caps = list(follow.counts)
        """The hand, the faces decided holding the copies chosen."""
        self.credit = [0] * len(follow.counts)
        """The copies chosen of the faces decided."""
        self.chosen: list[Card] = []
        self.tail = [0] * (len(faces) + 1)
        for i in range(len(faces) - 1, -1, -1):
            self.tail[i] = self.tail[i + 1] + follow.counts[faces[i]]

    def completes(self, i: int, need: int) -> bool:
        """Whether a legal play holds the chosen copies of the faces before ``i`` (exactly)
        and ``need`` more cards of the faces from ``i`` on."""
        if self.tail[i] < need:
            return False
        follow = self.follow
        got = follow._states(self.caps, self.credit).get(follow.target)
        return got is not None and follow.total - got <= need

    def rec(self, i: int, need: int) -> Iterator[tuple[Card, ...]]:
        if need == 0:
            yield tuple(self.follow.trump.sorted(self.chosen))
            return
        face = self.faces[i]
        n = self.caps[face]
        for k in range(min(n, need), -1, -1):
            self.caps[face] = self.credit[face] = k
            if self.completes(i + 1, need - k):
                self.chosen.extend([face] * k)
                yield from self.rec(i + 1, need - k)
                del self.chosen[len(self.chosen) - k:]
        self.caps[face], self.credit[face] = n, 0


# -- the trick ---------------------------------------------------------------------------


def _fill(rows: Sequence[int], at: int, piles: list[list[Card]],
          out: list[tuple[Card, ...]]) -> bool:
    """Split the cards of ``piles`` (one rank, by effective suit) into rainbows of sizes
    ``rows[at:]`` (each taking one card of ``size`` piles), into ``out``."""
    if at == len(rows):
        return not any(piles)
    order = sorted([e for e in range(len(piles)) if piles[e]], key=lambda e: -len(piles[e]))
    for pick in combinations(order, rows[at]):  # the fullest piles first
        taken = [piles[e].pop() for e in pick]
        out.append(tuple(taken))
        if _fill(rows, at + 1, piles, out):
            return True
        out.pop()
        for e, card in zip(pick, taken, strict=True):
            piles[e].append(card)
    return False


class _Splits:
    """The splits of a play into rainbows of exactly the led sizes, one per way of giving
    the sizes to the ranks (a class, not a closure: see units._Matching)."""

    def __init__(self, ranks: list[list[list[Card]]], sizes: Value, trump: Trump) -> None:
        self.ranks = ranks
        self.sizes = sizes
        self.trump = trump
        self.found: list[Rainbows] = []
        self.rows: list[list[int]] = []

    def rec(self, i: int, left: list[int]) -> None:
        if i == len(self.ranks):
            if any(left):
                return
            rainbows: list[tuple[Card, ...]] = []
            for piles, rows in zip(self.ranks, self.rows, strict=True):
                copy = [list(p) for p in piles]
                assert _fill(rows, 0, copy, rainbows)
            self.found.append(order_rainbows(rainbows, self.trump))
            return
        piles = self.ranks[i]
        held = [len(p) for p in piles]
        cards = sum(held)
        for pick in product(*[range(k + 1) for k in left]):
            rows = [s for s, k in zip(self.sizes, pick, strict=True) for _ in range(k)]
            if sum(rows) != cards or not _exact(rows, held):
                continue
            self.rows.append(rows)
            self.rec(i + 1, [a - b for a, b in zip(left, pick, strict=True)])
            self.rows.pop()


def rainbow_splits(cards: Sequence[Card], led: Rainbows, trump: Trump) -> list[Rainbows]:
    """The ways (one per way of giving the led sizes to the ranks) to split ``cards`` into
    rainbows of exactly the sizes of ``led``, each in the kept order."""
    if len(cards) != sum([len(r) for r in led]):
        return []
    suits = trump.suit_index
    by_rank: dict[int, dict[int, list[Card]]] = {}
    for card in cards:
        if card >= SMALL_JOKER_ID:
            return []
        by_suit = by_rank.setdefault(rank_of(card), {})
        by_suit.setdefault(suits[card], []).append(card)
    sizes, counts = rainbow_sizes(led)
    ranks = [[by_rank[q][s] for s in sorted(by_rank[q])] for q in sorted(by_rank)]
    search = _Splits(ranks, sizes, trump)
    search.rec(0, list(counts))
    return search.found


def _wins(mine: list[int], theirs: list[int], rules: Rules) -> bool:
    """Whether rainbows of ranks ``mine`` beat ``theirs`` (both in the kept order, of the
    same sizes)."""
    if rules.throw_beat in (ThrowBeat.LARGEST_UNIT, ThrowBeat.HIGHEST_CARD):
        # the largest rainbow's rank (with the tiebreak, then the next one's ...)
        return mine > theirs if rules.throw_tiebreak else mine[0] > theirs[0]
    # every rainbow beats its counterpart: the same size, the highest first
    return all([a > b for a, b in zip(mine, theirs, strict=True)])


def beat_rainbows(cards: Sequence[Card], current: Reading, led: Rainbows, trump: Trump,
                  rules: Rules) -> Reading | None:
    """The reading with which ``cards`` beat the ``current`` winning reading of a rainbow
    throw ``led``, or ``None``. Readings of a rainbow throw are the cards as singles,
    rainbow after rainbow in the kept order (the lead's own reading too)."""
    theirs: list[int] = []
    at = 0
    for rainbow in led:
        theirs.append(rank_of(current[at].cards[0]))
        at += len(rainbow)
    best: Rainbows | None = None
    strongest: list[int] = []
    for split in rainbow_splits(cards, led, trump):
        mine = [rank_of(r[0]) for r in split]
        if _wins(mine, theirs, rules) and (best is None or mine > strongest):
            best, strongest = split, mine
    if best is None:
        return None
    return rainbow_reading(best, trump)


def rainbow_reading(rainbows: Rainbows, trump: Trump) -> Reading:
    """Rainbows (in the kept order) read as singles, rainbow after rainbow."""
    suits, levels = trump.suit_index, trump.levels
    return tuple([make_unit(suits[c], 1, levels[c], (c,)) for r in rainbows for c in r])


def rainbow_unit(cards: tuple[Card, ...], trump: Trump) -> Unit:
    """One rainbow as a unit (for a throw's blocks): ``top`` is its rank (0: 2 .. 12: ace),
    ``cards`` its cards; it has no shape of its own."""
    return Unit(trump.suit_index[cards[0]], 1, len(cards), rank_of(cards[0]), cards)


def highest_rainbow(counts: Sequence[int], size: int, above: int, trump: Trump
                    ) -> tuple[Card, ...] | None:
    """A rainbow of ``size`` cards in ``counts`` of the highest rank held above rank
    ``above`` (0: 2 .. 12: ace), if any."""
    groups = rank_groups(trump)
    for q in range(len(groups) - 1, above, -1):
        found: list[Card] = []
        for group in groups[q]:
            for face in group:
                if counts[face]:
                    found.append(face)
                    break
        if len(found) >= size:
            return tuple(trump.sorted(found[:size]))
    return None
