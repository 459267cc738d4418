"""The follows listed directly: the legal set's fast path where the lead asks for little.

:meth:`~shengji.engine.follow.LegalPlays.plays_if_fewer` lists every legal play of a small
set. Where the lead asks for no structure, for one pair, or (two decks, pairs drawn out or
broken down) for pairs and singles only, or for tractors the hand cannot match (their
places count pairs), a follow is any cards of the led suit holding as many pairs as the
hand can give: :func:`quick_follows` lists those face by face, without the structure
search, in the legal set's own order (most copies of the strongest faces first).
``tests/test_listing.py`` checks it against the plain listing.
"""

from __future__ import annotations

from math import comb
from typing import TYPE_CHECKING

from shengji.engine.cards import Card, card_ints
from shengji.engine.rules import TractorFollow, TupleFollow

if TYPE_CHECKING:
    from shengji.engine.follow import LegalPlays


def quick_follows(legal: LegalPlays, limit: int) -> list[tuple[Card, ...]] | None:
    """The legal follows of ``legal`` (mode ``follow``, no bombs) where the lead asks for
    little (see the module), or ``None`` where the structure search must list them. A list
    of ``limit`` items or more says only that there are that many (it may hold other
    items)."""
    counts, size, rules = legal.hand.counts, legal.count, legal.rules
    strong = legal.trump.strongest_faces[legal.suit]
    faces: list[Card] = []
    held: list[int] = []  # (by position: no Card index below)
    for i, index in enumerate(card_ints(strong)):  # (index: a face as an int, not a Card)
        k = counts[index]
        if k:
            faces.append(strong[i])
            held.append(k)
    if size == 1:
        return [(f,) for f in faces]
    pairs = 0  # the pairs a follow must hold
    target = legal.target
    if any(target):
        units = legal.lead.units
        if len(units) == 1 and units[0].width == 2 and units[0].length == 1 and not (
                rules.decks > 2 and rules.tuple_follow == TupleFollow.PROTECT):
            # a pair led, and a pair held: the pairs are the follows
            return [(f, f) for i, f in enumerate(faces) if held[i] >= 2]
        # the value's entries for the led tractors (none where a tractor counts as pairs)
        tractors = 0
        if rules.tractor_follow != TractorFollow.TUPLES:
            for unit in units:
                tractors += unit.length > 1
        if rules.decks != 2 or rules.tuple_follow not in (
                TupleFollow.DRAW_OUT, TupleFollow.BREAKDOWN) or len(target) != tractors + 1 or (
                any(target[:tractors])) or any(u.width > 2 for u in units) or any(
                k > 2 for k in held):
            return None
        # pairs and singles led, or tractors the hand cannot match (no play can: their
        # places count pairs): as many of the pair places as the hand can fill
        pairs = target[tractors]
    elif comb(len(faces), size) >= limit:
        # no structure to give: every choice of ``size`` cards of the suit (at least as
        # many as the choices of ``size`` distinct faces)
        return [()] * limit
    found: list[tuple[Card, ...]] = []
    if size == 2 and not pairs:  # most such follows: :func:`_list_follows` unrolled
        for i, face in enumerate(faces):
            if held[i] >= 2:
                found.append((face, face))
            for other in faces[i + 1:]:
                found.append((face, other))
        return found
    tail = [0] * (len(faces) + 1)
    doubles = [0] * (len(faces) + 1)  # the faces held twice from ``i`` on
    for i in range(len(faces) - 1, -1, -1):
        tail[i] = tail[i + 1] + held[i]
        doubles[i] = doubles[i + 1] + (held[i] >= 2)
    _list_follows(_Listing(faces, held, tail, doubles, pairs, found, [], limit), 0, size, 0)
    return found


class _Listing:
    """What :func:`_list_follows` reads and fills (not a closure [compiled build])."""

    def __init__(self, faces: list[Card], held: list[int], tail: list[int],
                 doubles: list[int], pairs: int, found: list[tuple[Card, ...]],
                 chosen: list[Card], limit: int) -> None:
        self.faces = faces
        self.held = held
        """The copies held of each of ``faces``."""
        self.tail = tail
        """The cards held of ``faces[i:]``."""
        self.doubles = doubles
        """The faces of ``faces[i:]`` held twice."""
        self.pairs = pairs
        """The pairs a follow must hold."""
        self.found = found
        self.chosen = chosen
        self.limit = limit


def _list_follows(listing: _Listing, i: int, need: int, held: int) -> bool:
    """List the follows completing ``listing.chosen`` with ``need`` cards of
    ``listing.faces[i:]`` (``held`` pairs so far); False once the limit is reached."""
    found, chosen = listing.found, listing.chosen
    if need == 0:
        found.append(tuple(chosen))
        return len(found) < listing.limit
    face = listing.faces[i]
    most = listing.held[i]
    after, twos, pairs = listing.tail[i + 1], listing.doubles[i + 1], listing.pairs
    for k in range(most if most < need else need, -1, -1):
        rest, got = need - k, held + (k == 2)
        half = rest // 2
        if after >= rest and got + (twos if twos < half else half) >= pairs:
            for _ in range(k):  # (appended and popped one by one [compiled build])
                chosen.append(face)
            more = _list_follows(listing, i + 1, rest, got)
            for _ in range(k):
                chosen.pop()
            if not more:
                return False
    return True
