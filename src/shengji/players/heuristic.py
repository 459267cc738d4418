"""A heuristic player that plays like a careful human, for every preset.

Its habits, each one a method below and a scenario test:

- **bidding**: bids a suit when its trump-rank cards plus the suit, jokers and
  other rank cards make a long enough trump holding for the cards drawn so far;
  never overbids its own side;
- **burying**: keeps trumps, pairs, aces and kings; buries low cards of its
  shortest plain suits (making voids), points only when nothing else is left;
- **calling friends**: calls the next copy of an ace (then a king) it does not
  hold every copy of, in its shortest plain suits, never a trump card;
- **leading**: cashes sure winners (units no unseen card can beat), throws them
  together when the whole throw is sure, draws trumps (largest units first)
  when it holds most of them, leads suits its partner is void in, otherwise
  leads low plain cards, and leads low trumps before jokers and trump-rank
  cards when it has nothing else;
- **following**: feeds points to a partner who is winning and, as far as it
  knows (no higher card unseen, no opponent still to play proven void), cannot
  be beaten; wins with its cheapest winning play when the trick is worth it
  (its strongest when that is not safe and the trick holds 10 points or more);
  otherwise plays its cheapest cards;
- **memory**: remembers every card played and every proven void (turn it off
  with ``remember=False`` to measure what memory is worth);
- **the last trick**: keeps a high trump for it when the kitty is rich.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from random import Random
from typing import Final, cast

from shengji.engine.caches import bound, remember
from shengji.engine.cards import ALL_CARDS, Card, Rank, Suit, card_int, card_ints
from shengji.engine.cards import SMALL_JOKER_ID as _SMALL_JOKER_ID
from shengji.engine.follow import LegalPlays
from shengji.engine.friends import FriendCall
from shengji.engine.lead import LegalLeads
from shengji.engine.rules import (
    MAX_DECKS,
    FriendCalls,
)
from shengji.engine.trick import Beater, beats, single_readings
from shengji.engine.trump import TRUMP as _TRUMP_SUIT
from shengji.engine.trump import Trump
from shengji.engine.units import (
    Reading,
    Unit,
    UnitSpec,
    counts_of_suit,
    make_unit,
    placements,
    unit_blocks,
)
from shengji.game.actions import (
    Action,
    Bid,
    Bury,
    Call,
    Declare,
    Draw,
    Expose,
    Pass,
    Play,
    Show,
    made_play,
)
from shengji.game.legal import Legal
from shengji.game.phase import Phase
from shengji.game.view import SeatView
from shengji.players.base import checked_seed
from shengji.players.memory import Memory, TrickLog, current_winner

# module constants are Final [compiled build]
_ENUMERATE_LIMIT: Final = 80
_WIDTHS: Final = MAX_DECKS + 1
"""More than the widest tuple (one copy of a face per deck)."""
TRUMP: Final = _TRUMP_SUIT
SMALL_JOKER_ID: Final = _SMALL_JOKER_ID
_PLAY: Final = Phase.PLAY
_BIDDING: Final = (Phase.DEAL, Phase.BID, Phase.OVERBID)
_POINTS: Final = tuple(Card(i).points for i in range(54))
"""The points of each face."""


def _spend(counts: Counter[Card], card: Card) -> bool:
    """Take one ``card`` from ``counts`` if one is left (True if taken)."""
    if counts[card] > 0:
        counts[card] -= 1
        return True
    return False


class HeuristicPlayer:
    """A rule-based player; ``remember=False`` forgets played cards and voids."""

    def __init__(self, seed: int | None = None, *, remember: bool = True) -> None:
        self._seed = checked_seed(seed)
        self._rng: Random | None = None
        self.remember = remember
        self.log = TrickLog()
        self._trump_tables: _Tables | None = None
        self._listed: tuple[LegalPlays, list[tuple[Card, ...]] | None] | None = None
        """The follows :meth:`forced_play` listed, for the legal set they were listed from
        (read again by :meth:`follow` on that set)."""

    def __repr__(self) -> str:
        return f"HeuristicPlayer(remember={self.remember})"

    @property
    def rng(self) -> Random:
        """The player's random source, seeded when first needed (most deals never draw:
        seeding costs more than a decision)."""
        rng = self._rng
        if rng is None:
            rng = self._rng = Random(self._seed)
        return rng

    def act(self, view: SeatView, legal: Legal) -> Action:
        """Choose an action for the seat's current decision."""
        phase = view.phase
        if phase == _PLAY:  # the most frequent decision, asked first
            return self._play(view, legal)
        if phase in _BIDDING:
            return self.bid(view, legal)
        if phase == Phase.EXPOSE:
            return self.expose(view)
        if phase == Phase.DECLARE:
            return self.declare(view)
        if phase == Phase.KITTY:
            return self.bury(view, legal)
        if phase == Phase.CALL:
            return self.call(view, legal)
        if phase == Phase.SHOW:
            return Show(view.seat) if Show(view.seat) in legal else Pass(view.seat)
        return self._play(view, legal)

    def forced_play(self, legal: Legal) -> Play | None:
        """The play :meth:`act` would choose where the seat has no choice, found without a
        view (none needs building): the last card led, the only follow listed, or every
        card forced; ``None`` where there is a choice or this cannot tell cheaply."""
        plays = legal.plays
        if isinstance(plays, LegalLeads):
            hand = plays.hand
            return made_play(legal.seat, tuple(hand.cards())) if len(hand) == 1 else None
        if not isinstance(plays, LegalPlays) or plays.bombs:
            return None
        mode = plays.mode
        if mode == "follow":
            listed = plays.plays_if_fewer(_ENUMERATE_LIMIT)
            self._listed = (plays, listed)
            return made_play(legal.seat, listed[0]) if listed and len(listed) == 1 else None
        if mode == "short" or mode == "free":
            # the heuristic's candidates would be the forced cards alone (nothing to fill)
            forced = plays.forced
            return made_play(legal.seat, forced) if len(forced) == plays.count else None
        return None

    def _play(self, view: SeatView, legal: Legal) -> Action:
        """A lead or a follow."""
        plays = legal.plays
        if isinstance(plays, LegalLeads):
            return made_play(legal.seat, self.lead(view, plays))
        assert isinstance(plays, LegalPlays)
        return made_play(legal.seat, self.follow(view, plays))

    # -- bidding ---------------------------------------------------------------------

    def bid(self, view: SeatView, legal: Legal) -> Action:
        """Bid when the suit makes a strong trump holding; otherwise draw or pass."""
        me = view.seat
        standing = view.bids[-1] if view.bids else None
        if view.phase is Phase.OVERBID and legal.summary.key == "do-reinforce":
            # its own bid after burying (bid_reinforce_after_bury): the strongest
            # reinforcement where the others may bid for the kitty next, else a pass
            shown = [a for a in legal if isinstance(a, Bid)]
            return shown[-1] if shown and view.rules.kitty_overbid else _pass_action(me)
        hand = view.hand
        drawn = max(len(hand), 1)
        expected = view.rules.hand_size
        need = 0.33 * drawn + (1.5 if drawn < expected * 0.5 else 0)
        if standing is not None:
            need += 1.0
        tally = _HandTally(hand)
        if (standing is not None and view.rules.partnership == "fixed" and (
                standing[0] % 2 == me % 2)) or tally.strongest(hand) < need:
            # no bid over the own side, nor one too weak (a bid shows a card held)
            draw = _draw_action(me)
            return draw if draw in legal else _pass_action(me)
        bids: list[Bid] = []
        can_draw = False  # drawing is legal exactly when the listing holds it
        for action in legal:
            if isinstance(action, Bid):
                bids.append(action)
            elif isinstance(action, Draw):
                can_draw = True
        fallback: Action = _draw_action(me) if can_draw else _pass_action(me)
        if not bids:
            return fallback
        bid = tally.strongest_bid(bids)
        return bid if tally.bid_strength(bid) >= need else fallback

    def expose(self, view: SeatView) -> Action:
        """Before the dealer names trump: the dealer's partner shows its longest suit (its
        highest cards first) to suggest it; everyone else shows nothing."""
        partner = view.dealer is not None and view.dealer != view.seat and (
            view.rules.partnership == "fixed" and (view.dealer - view.seat) % 2 == 0)
        if not partner:
            return Expose(view.seat, ())
        suit = max(Suit, key=lambda s: _suit_strength(view.hand, s))
        cards = sorted((c for c in view.hand if c.suit == suit), reverse=True)
        return Expose(view.seat, tuple(cards[:view.rules.expose]))

    def declare(self, view: SeatView) -> Action:
        """As a dealer naming trump: the suit with the most cards (and points), counting
        the cards the partner exposed."""
        partner = [c for s in view.declarers if s != view.seat for c in view.exposed[s]]
        return Declare(view.seat, max(Suit, key=lambda s: _suit_strength(
            (*view.hand, *partner), s)))

    # -- kitty -----------------------------------------------------------------------

    def bury(self, view: SeatView, legal: Legal) -> Action:
        """Bury low cards of short plain suits, keeping trumps, pairs, aces and points."""
        return self.bury_keeping(view, legal, ())

    def bury_keeping(self, view: SeatView, legal: Legal, keep: Sequence[Card]) -> Action:
        """:meth:`bury`, keeping the cards ``keep`` names too (a world sampler's burier,
        known to have played them after the bury)."""
        trump = view.trump
        assert trump is not None
        size = view.rules.kitty_size
        faces = card_ints(view.hand)
        index, levels = trump.suit_index, trump.levels
        counts = [0] * 54
        suit_len = [0] * 5
        for card in faces:
            counts[card] += 1
            suit_len[index[card]] += 1
        # each card's keep value (pairs, aces and kings are kept; points go only when no
        # other plain card is left), sorted with the card as (value, card) keys (plain
        # loops, no key function [compiled build])
        keyed: list[tuple[float, int]] = []
        for card in faces:
            suit, level = index[card], levels[card]
            if suit == TRUMP:
                value = 10_000.0 + level
            else:
                value = level * 2.0 + suit_len[suit] * 3.0  # below 200
                if counts[card] > 1:
                    value += 400
                if level >= trump.suit_size(suit) - 2:
                    value += 400
                if _POINTS[card]:
                    value += 200
            keyed.append((value, card))
        keyed.sort()
        ordered = [ALL_CARDS[card] for _, card in keyed]
        if keep:
            kept = Counter(keep)
            ordered = [c for c in ordered if not _spend(kept, c)]
        action = Bury(view.seat, tuple(ordered[:size]))
        if action in legal:
            return action
        plain = [c for c in ordered if not _POINTS[c]]
        choice = tuple((plain + [c for c in ordered if _POINTS[c]])[:size])
        action = Bury(view.seat, choice)
        return action if action in legal else legal.random(self.rng)

    # -- friends ---------------------------------------------------------------------

    def call(self, view: SeatView, legal: Legal) -> Action:
        """Call aces (then kings) the dealer does not hold, shortest suits first."""
        trump = view.trump
        assert trump is not None
        rules = view.rules
        want = rules.friend_count
        held = Counter(view.hand)
        suit_len = Counter(trump.suit_of(c) for c in view.hand)
        calls: list[FriendCall] = []
        for rank in (Rank.ACE, Rank.KING, Rank.QUEEN):
            cards = sorted((Card.of(rank, s) for s in range(4)),
                           key=lambda c: suit_len[trump.suit_of(c)])
            for card in cards:
                if len(calls) == want:
                    break
                if trump.is_trump(card) and not rules.friend_trump_calls:
                    continue
                if rules.friend_calls == FriendCalls.COLOUR_RANK:
                    suit = card.suit
                    assert suit is not None
                    colour = "red" if suit.is_red else "black"
                    mine = sum(n for c, n in held.items() if c.rank == rank and c.suit is not None
                               and c.suit.is_red == suit.is_red)
                    if any(c.colour == colour and c.rank == rank for c in calls):
                        continue
                    calls.append(FriendCall(mine + 1, colour=colour, rank=rank))
                elif held[card] < rules.decks:
                    calls.append(FriendCall(held[card] + 1, card=card))
        action = Call(view.seat, tuple(calls))
        return action if action in legal else legal.random(self.rng)

    # -- leading ---------------------------------------------------------------------

    def lead(self, view: SeatView, legal: LegalLeads) -> tuple[Card, ...]:
        """Choose a lead (see the module docstring for the order of preferences)."""
        trump = legal.trump
        memory = Memory(view, remember=self.remember, log=self.log)
        units = _lead_units(legal, self._tables(trump))
        reserve = self._reserve(view, memory)
        plain = [u for u in units if u.suit != TRUMP]
        side = memory.side()
        voids = memory.voids
        ruffed = {suit for s in range(memory.players) if s not in side for suit in voids[s]}
        sure = [u for u in plain if u.suit not in ruffed and not memory.beaten(u.suit, u, trump)]
        if sure:
            throw = self._throw(sure, memory, legal)
            if throw is not None:
                return throw
            points = _POINTS
            keys = [(u.size, u.width, sum([points[c] for c in card_ints(u.cards)]), u.top)
                    for u in sure]
            return sure[keys.index(max(keys))].cards  # (the first greatest, as max())
        trumps = [u for u in units if u.suit == TRUMP and (
            not reserve or reserve.isdisjoint(u.cards))]
        if trumps and memory.declaring() and self._trump_majority(view, memory):
            return _first_least(trumps, [(-u.size, _high(u, trump), u.top) for u in trumps])
        partners = [s for s in side if s != memory.seat]
        for seat in partners:
            for suit in sorted(memory.voids[seat]):
                if suit == TRUMP:
                    continue
                options = [u for u in plain if u.suit == suit and u.size == 1]
                if options:
                    return _first_least(options, [(_POINTS[u.cards[0]], u.top)
                                                  for u in options])
        if plain:
            lengths = [0] * 5  # single units per effective suit
            for u in plain:
                if u.size == 1:
                    lengths[u.suit] += 1
            pairs = [u for u in plain if u.width >= 2 and u.top < trump.suit_size(u.suit) - 3]
            if pairs:
                return _first_least(pairs, [(-u.size, u.top) for u in pairs])
            singles = [u for u in plain if u.size == 1]
            return _first_least(singles, [(_POINTS[u.cards[0]] > 0, -lengths[u.suit], u.top)
                                          for u in singles])
        if trumps:
            return _first_least(trumps, [(_high(u, trump), -u.size, u.top) for u in trumps])
        return _first_least(units, [(u.top, -u.size) for u in units])

    def _throw(self, sure: list[Unit], memory: Memory, legal: LegalLeads
               ) -> tuple[Card, ...] | None:
        if not legal.rules.throws:
            return None
        by_suit: dict[int, list[Unit]] = {}
        for unit in sure:
            by_suit.setdefault(unit.suit, []).append(unit)
        best: tuple[Card, ...] | None = None
        held = legal.hand.counts
        for units in by_suit.values():
            if len(units) < 2:
                continue
            counts: dict[Card, int] = {}  # the copies the units take, by first use
            for unit in units:
                for card in unit.cards:
                    counts[card] = counts.get(card, 0) + 1
            cards: list[Card] = []
            for card, n in counts.items():
                k = held[card]
                cards.extend([card] * (n if n < k else k))
            if len(cards) <= 1:
                continue
            try:
                lead = legal.lead(tuple(cards))  # read once if it is then led
            except ValueError:
                continue
            if not any(memory.beaten(u.suit, u, legal.trump) for u in lead.units) and (
                    best is None or len(cards) > len(best)):
                best = tuple(cards)
        return best

    def _trump_majority(self, view: SeatView, memory: Memory) -> bool:
        trump = memory.trump
        assert trump is not None
        index = trump.suit_index
        mine = sum([1 for c in view.hand if index[c] == TRUMP])
        counts, unseen = memory.unseen, 0
        for face in card_ints(trump.suit_faces[TRUMP]):
            unseen += counts[face]
        return mine >= max(4, unseen)

    def _reserve(self, view: SeatView, memory: Memory) -> frozenset[Card]:
        """A high trump kept for the last trick when the kitty is rich."""
        trump, kitty = memory.trump, view.kitty
        if trump is None or kitty is None:
            return _NO_CARDS
        hand = view.hand
        if len(hand) <= 1:
            return _NO_CARDS
        points = 0
        for card in card_ints(kitty):  # (plain loops [compiled build])
            points += _POINTS[card]
        if points < 15:
            return _NO_CARDS
        index, levels = trump.suit_index, trump.levels
        kept, level = -1, -1  # the first trump of the highest level
        for i, card in enumerate(card_ints(hand)):
            if index[card] == TRUMP and levels[card] > level:
                kept, level = i, levels[card]
        return frozenset((hand[kept],)) if kept >= 0 else _NO_CARDS

    # -- following -------------------------------------------------------------------

    def follow(self, view: SeatView, legal: LegalPlays) -> tuple[Card, ...]:
        """Choose a follow: feed a safe partner, win cheaply when worth it, else play low."""
        trump = legal.trump
        candidates = self._candidates(view, legal)
        first = candidates[0]
        if len(candidates) == 1 or candidates.count(first) == len(candidates):
            return first  # one choice (every card forced, or one follow listed)
        memory = Memory(view, remember=self.remember, log=self.log)
        state = current_winner(view, trump, legal.lead)
        assert state is not None
        winner, reading, lead = state
        side = memory.side()
        rules, players, seat, trick = memory.rules, memory.players, memory.seat, memory.trick
        after = [(seat + k) % players for k in range(1, players - len(trick))]
        last = not after
        points = _POINTS
        reserve = self._reserve(view, memory)
        table = self._tables(trump).costs
        costs: list[float] = []
        worths: list[int] = []
        if lead.size == 1 and not reserve:  # the sums of one card
            for play in _int_plays(candidates):
                card = play[0]
                costs.append(table[card])
                worths.append(points[card])
        else:  # (the sums in card order, as sum() adds them)
            for play in _int_plays(candidates):
                total, gain = 0.0, 0
                for card in play:
                    total += table[card] + 100 if card in reserve else table[card]
                    gain += points[card]
                costs.append(total)
                worths.append(gain)
        # each choice below is the first best candidate in the candidates' order

        partner_winning = winner in side
        if partner_winning and (last or memory.safe(reading, after, side, lead)):
            best = 0  # the first of the greatest worth, then the lowest cost
            for i in range(1, len(candidates)):
                if worths[i] > worths[best] or (
                        worths[i] == worths[best] and costs[i] < costs[best]):
                    best = i
            return candidates[best]
        if not partner_winning:
            spare = reserve if reserve and len(view.hand) > lead.size else None
            cheap = -1
            reading_after: Reading = reading
            if lead.size == 1 and not lead.rainbow:
                # a single led: the cheapest card that beats the winning one, read from its
                # suit and level (beats_single)
                cur = reading[0]
                now, top = cur.suit, cur.top
                suits, levels = trump.suit_index, trump.levels
                for i, play in enumerate(_int_plays(candidates)):
                    card = play[0]
                    if spare is not None and card in spare:
                        continue  # kept for the last trick
                    suit = suits[card]
                    if ((suit == now and levels[card] > top) or (
                            suit == TRUMP and now != TRUMP)) and (
                            cheap < 0 or costs[i] < costs[cheap]):
                        cheap = i
                if cheap >= 0:
                    reading_after = single_readings(trump)[candidates[cheap][0]]
            else:
                beater = Beater(reading, lead, trump, rules)
                for i in sorted(range(len(candidates)), key=costs.__getitem__):  # stable
                    play = candidates[i]
                    if spare is not None and not spare.isdisjoint(play):
                        continue  # kept for the last trick
                    better = beater.beat(play)
                    if better is not None:
                        cheap, reading_after = i, better
                        break
            if cheap >= 0:
                trick_points = sum(points[c] for p in trick for c in p.cards)
                worth = trick_points + sum(points[c] for c in lead.cards) > 0 or last or (
                    len(view.hand) <= lead.size)
                if worth or costs[cheap] < 12 * lead.size:
                    if last or memory.safe(reading_after, after, side, lead):
                        return candidates[cheap]
                    if trick_points >= 10:
                        beater = Beater(reading, lead, trump, rules)
                        winning = [p for p in candidates if (
                            spare is None or spare.isdisjoint(p)) and beater.beat(p) is not None]
                        return max(winning, key=lambda p: sum(
                            trump.level(c) + (50 if trump.is_trump(c) else 0) for c in p))
        best, value = 0, costs[0] + 3 * worths[0]  # the first of the lowest value
        for i in range(1, len(candidates)):
            other = costs[i] + 3 * worths[i]
            if other < value:
                best, value = i, other
        return candidates[best]

    def _tables(self, trump: Trump) -> _Tables:
        """The per-face tables of ``trump`` (kept while the trump lasts)."""
        tables = self._trump_tables
        if tables is None or tables.trump is not trump:
            tables = self._trump_tables = _tables(trump)
        return tables

    def _candidates(self, view: SeatView, legal: LegalPlays) -> list[tuple[Card, ...]]:
        """A small set of legal plays worth comparing."""
        trump = legal.trump
        mode = legal.mode
        if mode == "follow":
            known = self._listed
            if known is not None and known[0] is legal:
                listed = known[1]
            else:
                listed = legal.plays_if_fewer(_ENUMERATE_LIMIT)
            self._listed = None
            if listed is not None:
                return listed
        n = legal.count
        forced = legal.forced
        need = n - len(forced)
        results: list[tuple[Card, ...]] = []
        # with no bombs, any n held cards are legal when void, and any n holding every
        # card of the suit when short (which the forced cards are)
        checked = mode == "follow" or mode == "rainbow" or mode == "rainbows" or bool(
            legal.bombs)
        if need == 0:  # the cheapest and the richest fillings: nothing but the forced cards
            _offer(results, forced, legal, checked)
            _offer(results, forced, legal, checked)
        else:
            if forced:  # the hand less the forced cards, each face's copies where it first is
                left = list(legal.hand.counts)
                for card in forced:
                    left[card] -= 1
                pool = []
                for card in view.hand:
                    k = left[card]
                    if k > 0:
                        pool += [card] * k
                        left[card] = 0
            else:
                pool = list(view.hand)  # sorted: equal cards together, as the count lists them
            tables = self._tables(trump)
            for order in (tables.cheap, tables.rich):
                _offer(results, forced + _first_by(pool, order, need), legal, checked)
            if mode == "free" and not forced:  # trumps that fill the whole play
                extra = self._trump_plays(view, legal, pool)
                if extra is not None:
                    _offer(results, extra, legal, checked)
        if mode == "follow" or mode == "rainbows":  # (a rainbow throw: its rainbows drawn)
            sample = set(results)
            for _ in range(40):
                sample.add(legal.random(self.rng))
            results = list(sample)
        if not results:
            results.append(legal.random(self.rng))
        return results


    def _trump_plays(self, view: SeatView, legal: LegalPlays, pool: list[Card]
                     ) -> tuple[Card, ...] | None:
        """The cheapest trump unit that beats a one-unit lead, or else the lowest trumps
        (when void in the led suit), if any."""
        trump, n = legal.trump, legal.count
        state = current_winner(view, trump, legal.lead)
        assert state is not None
        _, reading, lead = state
        if len(lead.units) == 1:
            unit = lead.units[0]
            if unit.size == 1 and not lead.rainbow:
                # the lowest trump that beats the winning single
                cur = reading[0]
                above = cur.top if cur.suit == TRUMP else -1
                counts = legal.hand.counts
                for level, faces in enumerate(trump.faces_at[TRUMP]):
                    if level > above:
                        mine = [f for f in faces if counts[f]]
                        if mine:
                            return (mine[0],)
            else:
                held = counts_of_suit(legal.hand.counts, TRUMP, trump)
                options = list(placements(held, unit.width, unit.length, trump, view.rules))
                for _, faces in sorted(options, key=lambda o: o[0]):
                    cards = tuple(f for f in faces for _ in range(unit.width))
                    if beats(cards, tuple(reading), lead, trump, view.rules) is not None:
                        return cards
        else:
            trumps = sorted((c for c in pool if trump.is_trump(c)), key=trump.level)
            if len(trumps) >= n:
                return tuple(trumps[:n])
        return None


def _first_least(units: list[Unit], keys: Sequence[tuple[int, ...]]) -> tuple[Card, ...]:
    """The cards of the unit of the least of ``keys`` (one per unit, in order), the first of
    equals: ``min(units, key=...)`` without a key function called per unit."""
    return units[keys.index(min(keys))].cards


def _int_plays(plays: list[tuple[Card, ...]]) -> list[tuple[int, ...]]:
    """``plays`` themselves, their cards typed as ints (see
    :func:`~shengji.engine.cards.card_ints`)."""
    return cast("list[tuple[int, ...]]", plays)


def _first_by(pool: list[Card], order: tuple[int, ...], need: int) -> tuple[Card, ...]:
    """``tuple(sorted(pool, key=order.__getitem__)[:need])``, sorting ints (the key's rank,
    then the card's place in the pool: the same stable order) [compiled build]."""
    size = len(pool)
    if need == 1 and size:  # the first of the lowest rank: no list of keys
        best, low = 0, order[card_int(pool[0])]
        for i in range(1, size):
            rank = order[card_int(pool[i])]
            if rank < low:
                best, low = i, rank
        return (pool[best],)
    keys = [order[card_int(card)] * size + i for i, card in enumerate(pool)]
    keys.sort()
    return tuple([pool[key % size] for key in keys[:need]])


def _offer(results: list[tuple[Card, ...]], play: tuple[Card, ...], legal: LegalPlays,
           checked: bool) -> None:
    """Add ``play`` to ``results`` if it has the count to play and (where ``checked``) is
    legal."""
    if len(play) == legal.count and (not checked or play in legal):
        results.append(play)


_NO_CARDS: Final[frozenset[Card]] = frozenset()

_DRAWS: Final[list[Draw]] = []
_PASSES: Final[list[Pass]] = []
"""Draw and pass actions by seat, made once and shared."""


def _draw_action(seat: int) -> Draw:
    """``Draw(seat)``, made once per seat."""
    while len(_DRAWS) <= seat:
        _DRAWS.append(Draw(len(_DRAWS)))
    return _DRAWS[seat]


def _pass_action(seat: int) -> Pass:
    """``Pass(seat)``, made once per seat."""
    while len(_PASSES) <= seat:
        _PASSES.append(Pass(len(_PASSES)))
    return _PASSES[seat]


_UNITS: Final[dict[UnitSpec, Unit]] = {}
"""Tractors made from their specs (a unit depends on its spec alone; shared by all
players)."""


def _lead_units(legal: LegalLeads, tables: _Tables) -> list[Unit]:
    """``list(legal.units())`` (:func:`~shengji.engine.units.unit_specs` order), each unit
    made once and then shared (the tuples in ``tables``, the tractors in :data:`_UNITS`)."""
    made, tuples = _UNITS, tables.tuples
    bound(made, 20_001)
    trump = legal.trump
    levels = trump.levels
    units: list[Unit] = []
    for suit, width, held, tractors in unit_blocks(legal.hand.counts, trump, legal.rules):
        for face in held:
            key = card_int(face) * _WIDTHS + width
            unit = tuples[key]
            if unit is None:
                unit = tuples[key] = make_unit(suit, width, levels[face], (face,))
            units.append(unit)
        for top, faces in tractors:
            spec = (suit, width, top, faces)
            unit = made.get(spec)
            if unit is None:
                unit = made[spec] = make_unit(suit, width, top, faces)
            units.append(unit)
    return units


class _Tables:
    """Per-face tables of one trump: :func:`_card_cost`, and ranks that sort faces as the
    keys ``(cost, face)`` (cheapest first) and ``(-points, cost)`` (richest first; equal
    keys, equal ranks) do."""

    def __init__(self, trump: Trump) -> None:
        self.trump = trump
        costs = tuple(_card_cost(card, trump) for card in ALL_CARDS)  # (Card(i): an enum call)
        self.costs = costs
        cheap = [0] * 54
        for rank, face in enumerate(sorted(range(54), key=lambda c: (costs[c], c))):
            cheap[face] = rank
        self.cheap = tuple(cheap)
        keys = sorted({(-_POINTS[c], costs[c]) for c in range(54)})
        ranks = {key: rank for rank, key in enumerate(keys)}  # (not keys.index: a scan)
        self.rich = tuple(ranks[(-_POINTS[c], costs[c])] for c in range(54))
        self.tuples: list[Unit | None] = [None] * (54 * _WIDTHS)
        """The tuple units (singles too) made so far, at ``face * _WIDTHS + width`` (a
        face's suit and level are the trump's)."""


_TABLES: Final[dict[int, _Tables]] = {}
"""The tables of the trumps seen last, by the trump's identity (each kept alive by its
tables; keyed by identity [compiled build])."""


def _tables(trump: Trump) -> _Tables:
    """The :class:`_Tables` of ``trump`` (shared by the players of a round)."""
    tables = _TABLES.get(id(trump))
    if tables is None or tables.trump is not trump:
        tables = remember(_TABLES, id(trump), _Tables(trump), 32)
    return tables


def _card_cost(card: Card, trump: Trump) -> float:
    if trump.is_trump(card):
        return 20.0 + trump.level(card) * 1.5
    return trump.level(card) * 1.0 + (4 if trump.level(card) >= trump.suit_size(
        trump.suit_of(card)) - 1 else 0)


def _high(unit: Unit, trump: Trump) -> bool:
    return any(trump.high[c] for c in unit.cards)


class _HandTally:
    """A hand's cards counted by rank, by suit and by face, read once per bid decision."""

    def __init__(self, hand: tuple[Card, ...]) -> None:
        self.ranks = [0] * 15
        self.suits = [0] * 4
        self.faces = [0] * 54
        self.jokers = 0
        for card in card_ints(hand):
            if card >= SMALL_JOKER_ID:
                self.jokers += 1
                continue
            self.ranks[card % 13 + 2] += 1
            self.suits[card // 13] += 1
            self.faces[card] += 1

    def bid_strength(self, bid: Bid) -> float:
        """How strong a trump holding the bid's suit (or no-trump) makes of this hand."""
        return self.strength(bid.cards[0])

    def strength(self, card: int) -> float:
        """:meth:`bid_strength` of a bid showing ``card``."""
        if card >= SMALL_JOKER_ID:  # no rank: no rank cards
            return self.jokers * 1.5 - 1
        rank_cards = self.ranks[card % 13 + 2]
        suit_cards = self.suits[card // 13] - self.faces[card]
        return suit_cards + 1.5 * (rank_cards + self.jokers)

    def strongest_bid(self, bids: Sequence[Bid]) -> Bid:
        """:func:`strongest_bid` for this tally's hand."""
        best = bids[0]
        top = self.bid_strength(best)
        for bid in bids[1:]:
            strength = self.bid_strength(bid)
            if strength > top:
                best, top = bid, strength
        return best

    def strongest(self, hand: tuple[Card, ...]) -> float:
        """The greatest :meth:`strength` of the cards of ``hand`` (this tally's): no bid,
        which shows cards held, is stronger."""
        best = float("-inf")
        for card in card_ints(hand):
            strength = self.strength(card)
            if strength > best:
                best = strength
        return best


def strongest_bid(hand: tuple[Card, ...], bids: Sequence[Bid]) -> Bid:
    """The first of ``bids`` (not empty) that makes the strongest trump holding of
    ``hand``: most cards of the suit shown and of trump ranks and jokers."""
    return _HandTally(hand).strongest_bid(bids)


def _suit_strength(cards: Sequence[Card], suit: Suit) -> tuple[int, int]:
    """How good ``suit`` would be as trump for these cards: how many, then their points."""
    held = [c for c in cards if c.suit == suit]
    return len(held), sum(c.points for c in held)
