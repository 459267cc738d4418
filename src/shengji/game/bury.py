"""Burying the kitty: how many cards, how many of them may score, and the legal choices.

The dealer, holding the kitty, buries as many cards as the kitty has. With
``kitty_points_allowed = False`` point cards (5, 10, K) may be buried only as far
as the hand has too few other cards. Listing every legal bury by filtering all
combinations of the hand is far too slow when point cards are banned (most
combinations are refused); :func:`bury_options` walks the distinct multisets
directly and never visits a refused one.

>>> from shengji.engine.cards import Hand
>>> counts = Hand("5S 5S KS 3C 4C").counts
>>> [" ".join(map(str, b)) for b in bury_options(counts, 3, 1)]
['3C 4C 5S', '3C 4C KS']
>>> bury_reason(counts, Hand("5S KS 3C").cards(), 3, 1)
'point cards (5, 10, K) may not be buried under these rules'
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from random import Random
from typing import NamedTuple

from shengji.engine.cards import ALL_CARDS, Card, format_cards, missing_cards
from shengji.engine.reasons import Reason
from shengji.engine.rules import Rules


class BuryLimits(NamedTuple):
    """What a bury must be: ``size`` cards, at most ``point_limit`` of them point cards."""

    size: int
    point_limit: int


def bury_limits(rules: Rules, hand_counts: Sequence[int]) -> BuryLimits:
    """(cards to bury, the most point cards they may include) for the hand holding the
    kitty (its 54 per-face counts)."""
    size = rules.kitty_size
    if rules.kitty_points_allowed:
        return BuryLimits(size, size)
    plain = sum(n for card, n in zip(ALL_CARDS, hand_counts, strict=True) if n and not card.points)
    return BuryLimits(size, max(0, size - plain))


def bury_reason(hand_counts: Sequence[int], cards: Sequence[Card], size: int,
                max_points: int) -> Reason | None:
    """Why burying ``cards`` is refused, in a player's words; ``None`` if it is legal."""
    if len(cards) != size:
        return Reason("bury-count", size=size, given=len(cards))
    missing = missing_cards(list(hand_counts), tuple(cards))
    if missing:
        return Reason("not-held", cards=format_cards(missing))
    if sum(1 for card in cards if card.points) > max_points:
        return Reason("bury-points")
    return None


def bury_options(hand_counts: Sequence[int], size: int, max_points: int
                 ) -> Iterator[tuple[Card, ...]]:
    """Every distinct legal bury once, lazily, each sorted by card index, in increasing
    order of those tuples (the order of ``itertools.combinations`` over the hand's
    cards with repeats dropped).

    A depth-first walk over the faces in index order, most copies first, that enters a
    face only if the faces after it can still complete the bury within the point limit:
    it never backtracks without a result, so each bury costs O(faces)."""
    faces = [i for i, n in enumerate(hand_counts) if n]
    count = len(faces)
    held = [hand_counts[f] for f in faces]
    scoring = [bool(ALL_CARDS[f].points) for f in faces]
    plain_after = [0] * (count + 1)  # copies of non-point faces from index i on
    points_after = [0] * (count + 1)
    for i in range(count - 1, -1, -1):
        plain_after[i] = plain_after[i + 1] + (0 if scoring[i] else held[i])
        points_after[i] = points_after[i + 1] + (held[i] if scoring[i] else 0)

    def room(i: int, points_left: int) -> int:
        """The most cards faces ``i``.. can add with ``points_left`` point cards allowed."""
        return plain_after[i] + min(points_after[i], points_left)

    if size < 0 or max_points < 0 or room(0, max_points) < size:
        return
    taken = [0] * count

    def fill(i: int, need: int, points_left: int) -> None:
        """Take the most copies of each face from ``i`` on (the later faces can always
        complete the rest: taking one more copy lowers what they need by one and what
        they can give by at most one)."""
        while need:
            k = min(held[i], need, points_left) if scoring[i] else min(held[i], need)
            taken[i] = k
            need -= k
            if scoring[i]:
                points_left -= k
            i += 1

    fill(0, size, max_points)
    while True:
        yield tuple(ALL_CARDS[f] for f, k in zip(faces, taken, strict=True) for _ in range(k))
        # the next bury: the last face that can give up one copy, the later faces
        # completing the rest within the point limit
        after = 0  # copies taken of the faces after i
        points = sum(k for k, s in zip(taken, scoring, strict=True) if s)  # up to face i
        i = count - 1
        while i >= 0:
            k = taken[i]
            if k:
                points_left = max_points - points + (1 if scoring[i] else 0)
                if room(i + 1, points_left) > after:
                    break
                after += k
                points -= k if scoring[i] else 0
                taken[i] = 0
            i -= 1
        if i < 0:
            return
        taken[i] -= 1
        fill(i + 1, after + 1, points_left)


def random_bury(hand_counts: Sequence[int], size: int, max_points: int, rng: Random
                ) -> tuple[Card, ...]:
    """A random legal bury: as many non-point cards as the limit requires, drawn at
    random, the rest at random (not uniform over the distinct multisets)."""
    cards = [ALL_CARDS[i] for i, n in enumerate(hand_counts) for _ in range(n)]
    if max_points < size:
        plain = [c for c in cards if not c.points]
        scoring = [c for c in cards if c.points]
        take = rng.sample(plain, min(size, len(plain)))
        take += rng.sample(scoring, size - len(take))
        return tuple(take)
    return tuple(rng.sample(cards, size))
