"""What ``?`` says at the bid, trump, call and show prompts: what may be done, and why.

Each function turns one seat's view (and, for bids, its legal actions) into lines
of plain text; the rules' own reasons explain each card that cannot be bid.
"""

from __future__ import annotations

from shengji.engine.cards import BIG_JOKER, SMALL_JOKER, Card, Rank, Suit
from shengji.engine.friends import FriendCall, exhausted_calls, exhausted_text
from shengji.engine.rules import FriendCallAllHeld, FriendCalls, JokerBids, Partnership, Rules
from shengji.game.actions import Bid
from shengji.game.legal import Legal
from shengji.game.round import level_rank
from shengji.game.view import SeatView
from shengji.terminal.screen import Seating, held_at_call, plural, symbols

_OVERBIDS = {
    "own-rank": "cards of your own rank",
    "maker-rank": "cards of the trumpmaker's rank (another suit)",
    "jokers-rank": "identical jokers (no trump suit, the trumpmaker's rank)",
    "jokers-only": "identical jokers (only jokers are trumps)",
}


def bid_rank(view: SeatView) -> Rank:
    """The rank ``view``'s seat bids with (its own level in Finding Friends, else the
    dealer's team's level, the start rank while nobody deals yet)."""
    rules = view.rules
    if rules.partnership == Partnership.FLUID:
        level = view.levels[view.seat]
    elif view.dealer is not None:
        level = view.levels[view.dealer]
    else:
        level = int(rules.first_rank)
    return level_rank(level) or rules.end_rank


def _cards(cards: tuple[Card, ...], seating: Seating) -> str:
    return " ".join(c.unicode() if seating.unicode else str(c) for c in cards)


def bid_help(view: SeatView, legal: Legal, seating: Seating) -> list[str]:
    """The bidding rules that apply now, the standing bid, the bids the seat can make
    (numbered as in the menu) and why each other trump-rank card or joker it holds
    cannot be bid."""
    rules = view.rules
    rank = bid_rank(view)
    lines = [f"Rules: a bid shows cards of the trump rank ({rank} for you): one card names "
             "its suit as trump, and more identical cards beat fewer."]
    jokers = {JokerBids.OFF: "Jokers cannot be bid.",
              JokerBids.IDENTICAL: "Two or more identical jokers bid no trump suit; at equal "
                                   "count jokers beat suited cards, the big joker the small.",
              JokerBids.DECKS: f"{rules.decks} identical jokers bid no trump suit; jokers beat "
                               "suited cards of the same count."}[rules.joker_bids]
    lines.append(jokers)
    more = []
    if rules.bid_equal_override:
        more.append("at equal count (2 or more) ♠ > ♥ > ♣ > ♦" if seating.unicode
                    else "at equal count (2 or more) S > H > C > D")
    more.append("you may reinforce your own bid with more copies" if rules.bid_reinforce
                else "a bid may not be reinforced")
    if not rules.bid_switch_suit:
        more.append("once you have bid you may not switch to another card")
    if rules.partnership == Partnership.FIXED:
        more.append("nobody may reinforce a partner's bid")
    else:
        more.append("once trump is declared, an overbid shows "
                    + " or ".join(_OVERBIDS[o] for o in rules.fluid_overbid))
    lines.append(("; ".join(more)).capitalize() + ".")
    if view.bids:
        seat, cards = view.bids[-1]
        lines.append(f"Standing bid: {seating.name(seat)} {_cards(cards, seating)} "
                     f"({plural(len(cards), 'card')}).")
    else:
        lines.append("Nobody has bid yet.")
    options = [a for a in legal if isinstance(a, Bid)]
    if options:
        menu = ", ".join(f"{i}) {_cards(b.cards, seating)}" for i, b in enumerate(options, 1))
        lines.append(f"You can bid: {menu}.")
    ranks = {rank}
    if view.bids and rules.partnership == Partnership.FLUID:
        shown = view.bids[-1][1][0].rank
        if shown is not None:
            ranks.add(shown)
    counts: dict[Card, int] = {}
    for card in view.hand:
        if card in (BIG_JOKER, SMALL_JOKER) or card.rank in ranks:
            counts[card] = counts.get(card, 0) + 1
    biddable = {b.cards[0] for b in options}
    for card, n in counts.items():
        if card in biddable:
            continue
        why = legal.reason(Bid(view.seat, (card,) * n))
        if why is not None:
            lines.append(symbols(f"You cannot bid {_cards((card,) * n, seating)}: {why}.",
                                 seating.unicode))
    if not counts:
        lines.append(f"You hold no {rank} and no joker: you have nothing to bid yet.")
    return lines


def declare_help(view: SeatView, seating: Seating) -> list[str]:
    """The dealer naming the trump suit: what each choice makes trump, and the hand's
    suits."""
    rank = level_rank(view.levels[view.seat])
    if rank is None:
        what = "Only the jokers are trumps at the no-trump level, whatever you name."
    else:
        what = (f"C, D, H or S makes that suit trump, with every {rank} and the jokers; "
                f"NT makes no suit trump: only the {rank}s and the jokers are.")
    by_suit = {suit: sum(1 for c in view.hand if c.suit == suit and c.rank != rank)
               for suit in Suit}
    jokers = sum(1 for c in view.hand if c.is_joker)
    ranked = sum(1 for c in view.hand if rank is not None and c.rank == rank)
    suits = " · ".join(f"{suit.symbol if seating.unicode else suit.letter} {n}"
                       for suit, n in sorted(by_suit.items(), key=lambda x: -x[1]))
    return [f"Rules: you deal and name the trump suit now (type C, D, H, S or NT). {what}",
            f"Your hand: {suits}; {plural(ranked, 'rank card')}, {plural(jokers, 'joker')}."]


def call_help(view: SeatView, seating: Seating) -> list[str]:
    """Calling friends: how a call makes a friend, which calls are allowed, and which calls
    the seat's own cards leave to nobody else."""
    rules = view.rules
    n = rules.friend_count
    if rules.friend_calls == FriendCalls.ORDINAL:
        how = ("a call names a card and which copy of it: '2nd AH' is the second A♥ played; "
               f"there {'is 1 copy' if rules.decks == 1 else f'are {rules.decks} copies'} of "
               "each card")
    else:
        how = ("a call names a colour and rank: '1st black A' is the first black ace played; "
               f"there are {2 * rules.decks} of each")
    lines = [f"Rules: call {plural(n, 'friend card')} (type e.g. {_example(rules)}): whoever "
             f"plays the called card joins your side; {how}."]
    rest = []
    if rules.friend_calls == FriendCalls.ORDINAL and not rules.friend_trump_calls:
        rest.append("trump cards may not be called")
    rest.append("your own play of a called card counts towards its number"
                if rules.friend_caller_counts else "your own plays of a called card do not count")
    lines.append(("; ".join(rest)).capitalize() + ".")
    held, buried, removed = held_at_call(view)
    dead = [c for c in _common_calls(view)
            if exhausted_calls((c,), held, rules, buried=buried, removed=removed)]
    if dead:
        alone = ("refused under these rules" if rules.friend_call_all_held ==
                 FriendCallAllHeld.REFUSED else "allowed, but it makes no friend: you would "
                                                "play alone for it")
        shown = "; ".join(symbols(exhausted_text(c, held, rules, buried, removed=removed),
                                  seating.unicode)
                          for c in dead)
        lines.append(f"Your own cards leave these calls to nobody else ({alone}): {shown}.")
    return lines


def _example(rules: Rules) -> str:
    if rules.friend_calls == FriendCalls.ORDINAL:
        return "1st AH, 2nd KS" if rules.friend_count > 1 else "1st AH"
    return "1st black A, 1st red K" if rules.friend_count > 1 else "1st black A"


def _common_calls(view: SeatView) -> list[FriendCall]:
    """The first copy of every ace and king (the usual calls), to check against the hand."""
    trump, rules = view.trump, view.rules
    calls: list[FriendCall] = []
    for rank in (Rank.ACE, Rank.KING):
        if rules.friend_calls == FriendCalls.ORDINAL:
            for suit in Suit:
                card = Card(f"{rank}{suit.letter}")
                if trump is None or not trump.is_trump(card) or rules.friend_trump_calls:
                    calls.append(FriendCall(1, card=card))
        else:
            calls += [FriendCall(1, colour=colour, rank=rank) for colour in ("black", "red")]
    return calls


def show_help(view: SeatView) -> list[str]:
    """Showing a hand for a redeal."""
    what = "no trumps" if str(view.rules.redeal_show) == "no-trumps" else "no point cards"
    return [f"Rules: your hand has {what}: showing it (y) throws the hand in and the cards "
            "are dealt again; n keeps it and the round goes on."]
