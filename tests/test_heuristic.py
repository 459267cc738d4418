"""The heuristic player, one scenario per habit listed in its module docstring.

Every position is a real :class:`Round` driven through the public protocol: the pack is
stacked (``flow_helpers.stacked``) so that chosen seats hold chosen cards, and the
player is asked for its action with the seat's own ``view`` and ``legal``, exactly as at
a table. Each scenario is paired with a contrast (a slightly different position, or the
player without memory) in which the habit must *not* fire, so that a player without the
habit fails the test.

Play positions use *short* rounds: a huge kitty leaves each seat a handful of cards.
Nobody bids; the first kitty card, 9♠, makes spades trump with the dealer's rank 9
(levels 9/5/9/5), so the trumps are the jokers, the four 9s and the spades. The dealer
(seat 0) picks the kitty up and buries everything but the cards the test gives it, so
the dealer knows where every card is except those in the other three hands; the other
seats also count the (hidden) kitty as unseen. Seats 0 and 2 are partners (the
declarers), against seats 1 and 3.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from random import Random

import pytest

from flow_helpers import deal, pass_round, stacked
from shengji.engine.cards import Card, Hand, Rank, Suit, parse_cards
from shengji.engine.friends import FriendCall
from shengji.engine.lead import LegalLeads
from shengji.engine.rules import Rules
from shengji.engine.trump import Trump
from shengji.game.actions import Action, Bid, Bury, Call, Draw, Pass, Play, parse_action
from shengji.game.phase import Phase
from shengji.game.presets import preset
from shengji.game.round import Round
from shengji.players import HeuristicPlayer
from test_fast_paths import SHORTCUT_RULES

LEVELS = (9, 5, 9, 5)


def short_round(hands: Sequence[str], *, kitty: str = "9S", **options: object) -> Round:
    """A round in the play phase where seat ``i`` holds exactly ``hands[i]`` (equal sizes).

    ``kitty`` lists the first kitty cards (the first one names trump); the rest of the
    pack lies in the dealer's kitty."""
    size = len(hands[0].split())
    assert all(len(h.split()) == size for h in hands)
    rules = Rules(kitty=108 - 4 * size).replace(**options)
    rnd = stacked(rules, list(hands), kitty=kitty, dealer=0, levels=LEVELS)
    deal(rnd)
    pass_round(rnd)
    assert (rnd.phase, rnd.kitty_owner) == (Phase.KITTY, 0)
    rest = rnd.hands[0].copy()
    rest.remove(parse_cards(hands[0]))
    rnd.apply(Bury(0, tuple(rest.cards())))
    assert rnd.phase == Phase.PLAY and str(rnd.trump) == "9S"
    return rnd


def play(rnd: Round, *lines: str) -> Round:
    """Apply actions written in the record notation (``"1 play AH"``)."""
    for line in lines:
        rnd.apply(parse_action(line))
    return rnd


def choice(rnd: Round, player: HeuristicPlayer | None = None) -> Action:
    """What the player chooses for the seat to move, from that seat's view."""
    seat = rnd.to_move
    assert seat is not None
    legal = rnd.legal(seat)
    action = (player or HeuristicPlayer(seed=1)).act(rnd.view(seat), legal)
    assert action in legal
    return action


def played(rnd: Round, player: HeuristicPlayer | None = None) -> Counter[Card]:
    """The cards the player plays for the seat to move (as a multiset)."""
    action = choice(rnd, player)
    assert isinstance(action, Play)
    return Counter(action.cards)


def cards(text: str) -> Counter[Card]:
    return Counter(parse_cards(text))


def forgetful() -> HeuristicPlayer:
    """The heuristic player without card memory."""
    return HeuristicPlayer(seed=1, remember=False)


# -- bidding -------------------------------------------------------------------------------
# Full tractor deals at level 2 (trump rank 2); seat 0 deals and draws first, so it is the
# seat asked after every fourth card and first in the bidding after the deal.

LONG_HEARTS = ("2H AH KH QH JH 10H 8H 7H 2C 3C 4C 6C 7C 3D 4D 6D 7D 8D 3S 4S 6S 7S 8S "
               "9S 9C")
"""A 2♥ with seven more hearts (and a 2♣ with five clubs)."""
WEAK_HEARTS = ("2H AH 5H 3H 10C 4C 6C 7C 8C 3D 4D 6D 7D 8D JD 4S 6S 7S 8S 9S 9C QC QD KD "
               "QS")
"""A lone 2♥ with three more hearts."""


def test_bids_the_suit_of_a_long_holding_with_the_trump_rank_card() -> None:
    rnd = stacked(Rules(), {0: LONG_HEARTS}, dealer=0)
    deal(rnd, leave=60)                               # seat 0 holds its first 10 cards
    assert rnd.phase == Phase.DEAL and rnd.to_move == 0 and len(rnd.hands[0]) == 10
    assert choice(rnd) == Bid(0, parse_cards("2H"))  # hearts, not the shorter clubs
    rnd = stacked(Rules(), {0: LONG_HEARTS}, dealer=0)
    deal(rnd)
    assert rnd.phase == Phase.BID and rnd.to_move == 0
    assert choice(rnd) == Bid(0, parse_cards("2H"))


def test_does_not_bid_a_weak_holding() -> None:
    rnd = stacked(Rules(), {0: WEAK_HEARTS}, dealer=0)
    deal(rnd, leave=60)
    assert Bid(0, parse_cards("2H")) in rnd.legal(0)
    assert choice(rnd) == Draw(0)
    deal(rnd)
    assert rnd.phase == Phase.BID and rnd.to_move == 0
    assert Bid(0, parse_cards("2H")) in rnd.legal(0)
    assert choice(rnd) == Pass(0)


def test_never_overbids_its_partner() -> None:
    """Seat 2 could overbid 2♥ with 2♠2♠ and eight spades: it does over an opponent's bid,
    not over its partner's (overbidding a partner with another suit is legal)."""
    spades = ("2S 2S AS KS QS JS 10S 8S 7S 3C 4C 6C 7C 8C 3D 4D 6D 7D 8D 3H 4H 6H 7H 8H "
              "9C")
    overbid = Bid(2, parse_cards("2S 2S"))
    partner = stacked(Rules(), {0: "2H", 2: spades}, dealer=0)
    deal(partner)
    play(partner, "0 bid 2H", "1 pass")
    assert partner.to_move == 2 and overbid in partner.legal(2)
    assert choice(partner) == Pass(2)
    opponent = stacked(Rules(), {1: "2H", 2: spades}, dealer=0)
    deal(opponent)
    play(opponent, "0 pass", "1 bid 2H")
    assert opponent.to_move == 2
    assert choice(opponent) == overbid


# -- burying -------------------------------------------------------------------------------
# Full tractor deals; nobody bids, the first kitty card 9♠ makes spades trump (rank 9), and
# the dealer (seat 0) picks up the kitty: 33 cards, 8 to bury.

def kitty_round(hand: str, kitty: str) -> Round:
    rnd = stacked(Rules(), {0: hand}, kitty=kitty, dealer=0, levels=LEVELS)
    deal(rnd)
    pass_round(rnd)
    assert rnd.phase == Phase.KITTY and str(rnd.trump) == "9S"
    assert Counter(rnd.hands[0].cards()) == cards(hand) + cards(kitty)
    return rnd


def buried(rnd: Round) -> Counter[Card]:
    action = choice(rnd)
    assert isinstance(action, Bury)
    return Counter(action.cards)


def test_buries_its_shortest_suit_keeping_trumps_pairs_and_aces() -> None:
    """Three clubs are the shortest plain suit: all three go (a void), then the lowest
    single diamonds; the trumps (even 3♠), the pair of 2♦ (the lowest cards of the hand)
    and the aces stay."""
    rnd = kitty_round("3S 4S 6S 7S BJ 9H 2C 3C 4C 2D 2D 3D 4D 6D 8D JD QD AD 2H 3H 4H 6H "
                      "7H 8H JH", "9S QH AH 8H 7H 6H 4H 3H")
    assert buried(rnd) == cards("2C 3C 4C 3D 4D 6D 8D 2H")


def test_buries_point_cards_only_when_nothing_else_is_left() -> None:
    """The shortest suit, clubs, holds 5♣ and 10♣: the dealer keeps them and buries
    plain cards of longer suits instead, even a queen (the kitty may count several
    times). With only three plain cards without points, the cheapest points go with them."""
    rnd = kitty_round("3S 4S 6S 7S BJ 9H 3C 5C 10C 2D 2D 3D 4D 6D 8D JD QD AD 2H 3H 4H 6H "
                      "7H 8H JH", "9S QH AH 8H 7H 6H 4H 3H")
    bury = buried(rnd)
    assert not any(c.points for c in bury)
    assert bury == cards("3C 3D 4D 6D 8D JD QD 2H")
    many = kitty_round("3S 4S 6S 7S BJ 9H 8S 2S AD AD QC QC AH KC KD 5C 10C 5D 10D 5H 10H "
                       "2H 3D 4C JH", "9S JH 8D 8D 6C 6C 7H 7H")
    bury = buried(many)                 # three plain cards without points, then points
    assert cards("2H 3D 4C 5C 5D 5H") <= bury
    assert sum(1 for c in bury if c.rank == Rank.TEN) == 2
    kept = cards("3S 4S 6S 7S BJ 9H 9S 8S 2S AD AD AH KC KD QC QC JH JH 8D 8D 6C 6C 7H 7H")
    assert not bury & kept


# -- calling friends -----------------------------------------------------------------------
# Finding Friends for six (two decks, two friends); nobody bids, the first kitty card 9♥
# makes hearts trump (everyone's rank is 9), and the dealer buries the kitty unchanged.

def call_round(hand: str, kitty: str) -> Round:
    rules = preset("finding-friends")
    assert (rules.players, rules.friend_count, rules.friend_trump_calls) == (6, 2, False)
    rnd = stacked(rules, {0: hand}, kitty=kitty, dealer=0, levels=(9,) * 6)
    deal(rnd)
    pass_round(rnd)
    assert (rnd.phase, str(rnd.trump)) == (Phase.KITTY, "9H")
    rnd.apply(Bury(0, parse_cards(kitty)))
    assert rnd.phase == Phase.CALL and rnd.to_move == 0
    return rnd


def calls(rnd: Round) -> set[FriendCall]:
    action = choice(rnd)
    assert isinstance(action, Call)
    return set(action.calls)


def first(card: str) -> FriendCall:
    return FriendCall(1, card=Card(card))


def test_calls_the_first_ace_of_its_shortest_suits_never_a_trump() -> None:
    """The dealer holds no ace; its shortest suits are hearts (trump: one 3♥ and the 9♥),
    clubs (two) and diamonds (five), spades are long: it calls the first A♣ and A♦, not
    the trump A♥ nor the A♠ of its long suit."""
    rnd = call_round("2C 3C 4D 5D 6D 7D 8D 3S 4S 6S 7S 8S 10S JS QS KS 3H",
                     "9H 2D 2S 3D 3S 4C")
    assert calls(rnd) == {first("AC"), first("AD")}


def test_calls_only_aces_it_does_not_hold() -> None:
    """Both A♣ are the dealer's own, so it calls past them: the first A♦ (not held) and
    the second A♠ (it holds one, so the other copy's holder is the one to find)."""
    rnd = call_round("AC AC 4D 5D 6D 7D 8D 3S 4S 6S 7S 8S 10S JS QS AS 3H",
                     "9H 2D 2S 3D 3S 4C")
    assert calls(rnd) == {first("AD"), FriendCall(2, card=Card("AS"))}


# -- leading -------------------------------------------------------------------------------
# Short rounds (see the top of the file): the dealer leads the first trick and knows that
# every card it does not hold or see in the other hands lies in its own kitty.

def test_cashes_a_sure_winner() -> None:
    """Both A♥ are in the dealer's kitty, so its K♥ cannot be beaten: it cashes it. With an
    A♥ in an opponent's hand it keeps the K♥ and leads low."""
    sure = short_round(["KH 3H 4D 6C", "QH 5H 7D 8C", "JH 6H 8D 10C", "10H 7H 10D JC"])
    assert played(sure) == cards("KH")
    unsure = short_round(["KH 3H 4D 6C", "AH 5H 7D 8C", "JH 6H 8D 10C", "10H 7H 10D JC"])
    assert Card("KH") not in played(unsure)


def test_cashes_a_top_pair() -> None:
    """K♥K♥ is sure when no pair of aces can be out (one A♥ is, in an opponent's hand)."""
    sure = short_round(["KH KH 4D 6C", "AH 5H 7D 8C", "QH 6H 8D 10C", "JH 7H 10D JC"])
    assert played(sure) == cards("KH KH")
    beaten = short_round(["KH KH 4D 6C", "AH AH 7D 8C", "QH 6H 8D 10C", "JH 7H 10D JC"])
    assert Card("KH") not in played(beaten)


def test_throws_sure_winners_of_one_suit_together() -> None:
    """A♥ and K♥ are both sure (the other A♥ and K♥ are in the kitty): thrown together.
    With the other A♥ out, only the A♥ is sure and it goes alone."""
    sure = short_round(["AH KH 4D 6C", "QH 5H 7D 8C", "JH 6H 8D 10C", "10H 7H 10D JC"])
    assert played(sure) == cards("AH KH")
    single = short_round(["AH KH 4D 6C", "AH 5H 7D 8C", "JH 6H 8D 10C", "10H 7H 10D JC"])
    assert played(single) == cards("AH")


def test_draws_trumps_when_it_holds_most_of_them() -> None:
    """Five trumps against three out: the declarer leads its lowest trump. With five
    trumps in an opponent's hand it leads a plain card instead."""
    plain = "3H 4D 3C"
    most = short_round([f"3S 4S 6S 7S 8S {plain}", "10S 5H 7D 8C KH KD KC QC",
                        "JS 6H 8D 10C QH QD JC 5C", "2S 7H 10D JC JH JD 6C 7C"])
    assert played(most) == cards("3S")
    few = short_round([f"3S 4S 6S 7S 8S {plain}", "10S JS QS KS AS 9D KD KC",
                       "2S 6H 8D 10C QH QD JC 5C", "5S 7H 10D JC JH JD 6C 7C"])
    lead = played(few)
    assert lead <= cards(plain)


def test_leads_a_suit_its_partner_is_void_in_and_remembers_the_void() -> None:
    """Seat 2 (the dealer's partner) showed out of clubs: the dealer leads its low club
    for it to ruff, rather than the lowest card of its longest suit, diamonds. Without
    memory the void is forgotten and the dealer leads 3♦."""
    hands = ["AC 6C 3D 4D 6D", "4C KC KD QD 7H", "5H 6H 8H 10H JH", "5C QC AD JD 8C"]
    rnd = play(short_round(hands), "0 play AC", "1 play 4C", "2 play 5H", "3 play 5C")
    assert played(rnd) == cards("6C")
    assert played(rnd, forgetful()) == cards("3D")


def test_keeps_jokers_and_trump_rank_cards_back() -> None:
    """With plain cards it leads a plain card; with trumps only it leads its low trump 4♠
    before a pair of trump-rank 9♥ or the big joker (the opponents hold more trumps)."""
    mixed = short_round(["BJ SJ 9H 3C", "10S JS QS KC", "AS 6H 8D 10C", "5S 7H 10D 9C"])
    assert played(mixed) == cards("3C")
    trumps = short_round(["BJ 9H 9H 4S", "10S JS QS KS", "AS 6H 8D 10C", "5S 7H 10D 9C"])
    assert played(trumps) == cards("4S")


def test_otherwise_leads_low_from_its_longest_plain_suit() -> None:
    """No sure winner, no trumps: the lowest card of diamonds (three cards), not the
    lower 3♣ of the shorter clubs."""
    rnd = short_round(["3C 8C 4D 6D 7D", "KC QC KD QD JD", "AC JC AD 10D 8D",
                       "10C 9C AH KH QH"])
    assert played(rnd) == cards("4D")


# -- following -----------------------------------------------------------------------------

def test_feeds_points_to_a_partner_who_is_certainly_winning() -> None:
    """Seat 3 plays last and its partner, seat 1, holds the trick with A♥: it adds its K♥
    (and a 10♥ if that is its only point card). When an opponent holds the trick instead
    it plays its cheapest heart."""
    rnd = play(short_round(["3H 4D 4C", "AH 5D 5C", "4H 6D 6C", "KH 6H 7H"]),
               "0 play 3H", "1 play AH", "2 play 4H")
    assert played(rnd) == cards("KH")
    rnd = play(short_round(["3H 4D 4C", "AH 5D 5C", "4H 6D 6C", "10H 6H 2H"]),
               "0 play 3H", "1 play AH", "2 play 4H")
    assert played(rnd) == cards("10H")
    rnd = play(short_round(["AH 4D 4C", "QH 5D 5C", "4H 6D 6C", "KH 6H 7H"]),
               "0 play AH", "1 play QH", "2 play 4H")
    assert played(rnd) == cards("6H")


def test_feeds_a_partner_whose_card_nobody_still_to_play_can_beat() -> None:
    """The dealer plays third, before seat 1, after its partner led A♥: no heart can beat
    it, so the K♥ goes in. When seat 2 leads Q♥ and the A♥ is in seat 1's hand, the
    dealer keeps its K♥ and plays 6♥."""
    opening = ("0 play 3C", "1 play 4C", "2 play AC", "3 play 5C")
    safe = play(short_round(["3C KH 6H 4D", "4C 5H 7D 8D", "AC AH QD JD", "5C 4H 10D 3D"]),
                *opening, "2 play AH", "3 play 4H")
    assert played(safe) == cards("KH")
    unsafe = play(short_round(["3C KH 6H 4D", "4C AH 7D 8D", "AC QH QD JD",
                               "5C 4H 10D 3D"]), *opening, "2 play QH", "3 play 4H")
    assert played(unsafe) == cards("6H")


def test_wins_cheaply_a_trick_with_points() -> None:
    """Last to play over an opponent's 10♥, seat 3 wins with its smallest winning heart,
    Q♥ (not its A♥ or K♥, nor its losing 3♥)."""
    rnd = play(short_round(["10H 4D 4C 3D", "4H 5D 5C 3C", "6H 6D 6C 7D", "3H QH KH AH"]),
               "0 play 10H", "1 play 4H", "2 play 6H")
    assert played(rnd) == cards("QH")


def test_ruffs_cheaply_only_when_the_trick_is_worth_it() -> None:
    """Seat 3 leads hearts, the dealer (void in hearts, nobody else holding a trump) plays
    second: it ruffs a 10♥ with its low 3♠ (not the big joker), but lets an 8♥ (no points)
    go and discards its 4♣."""
    for lead, expected in (("10H", "3S"), ("8H", "4C")):
        rnd = play(short_round(["3C 3S BJ 4C", "6C 5H 6H 7H", "7C 4H JH QH",
                                f"AC {lead} 2H 3H"]),
                   "0 play 3C", "1 play 6C", "2 play 7C", "3 play AC", f"3 play {lead}")
        assert played(rnd) == cards(expected), lead


def test_plays_its_cheapest_non_point_card_when_the_trick_is_lost() -> None:
    """An opponent's A♥ cannot be beaten: seat 3 plays 8♥, keeping 5♥, 10♥ and K♥."""
    rnd = play(short_round(["AH 4D 4C 3D", "4H 5D 5C 3C", "6H 6D 6C 7D", "5H 8H 10H KH"]),
               "0 play AH", "1 play 4H", "2 play 6H")
    assert played(rnd) == cards("8H")


# -- memory --------------------------------------------------------------------------------

def test_knows_a_king_is_top_once_both_aces_are_played() -> None:
    """Both A♥ fell in the first trick: with memory the dealer's K♥ is a sure winner and is
    cashed; without memory the aces may still be out and it leads low."""
    hands = ["3H AC KH 4D", "AH 5C QD 8C", "AH 6C 8D 10C", "4H 7C 10D JC"]
    rnd = play(short_round(hands), "0 play 3H", "1 play AH", "2 play AH", "3 play 4H",
               "1 play 5C", "2 play 6C", "3 play 7C", "0 play AC")
    assert rnd.to_move == 0
    assert played(rnd) == cards("KH")
    assert played(rnd, forgetful()) == cards("4D")


def test_memory_is_kept_across_decisions() -> None:
    """One player asked at every decision of a round keeps its log of tricks up to date:
    the same choice as a fresh player's at the end."""
    hands = ["3H AC KH 4D", "AH 5C QD 8C", "AH 6C 8D 10C", "4H 7C 10D JC"]
    rnd = short_round(hands)
    player = HeuristicPlayer(seed=1)
    for line in ("0 play 3H", "1 play AH", "2 play AH", "3 play 4H", "1 play 5C",
                 "2 play 6C", "3 play 7C", "0 play AC"):
        seat = rnd.to_move
        assert seat is not None
        player.act(rnd.view(seat), rnd.legal(seat))   # a decision at every turn
        play(rnd, line)
    assert played(rnd, player) == cards("KH")


# -- the last trick ------------------------------------------------------------------------

def test_keeps_a_high_trump_for_the_last_trick_when_the_kitty_is_rich() -> None:
    """A full deal: seat 3 wins the first trick and leads 10♠ (trump, 10 points); the dealer
    can only beat it with its big joker. Over a kitty of 60 points it keeps the joker for
    the last trick (whose winner decides the kitty) and plays 4♠; over a kitty without
    points it takes the 10♠."""
    hand = ("3C BJ 4S 5S 2D 3D 4D 6D 7D 8D 10D JD QD 2H 3H 4H 6H 7H 8H 10H JH QH 3H 4H "
            "6H")
    for kitty, expected in (("9S KD KD 10D 5D 5D KH KH", "4S"),
                            ("9S 2D 3D 4D 6D 7D 8D 2H", "BJ")):
        rnd = stacked(Rules(), {0: hand, 1: "4C", 2: "5C", 3: "AC 10S"}, kitty=kitty,
                      dealer=0, levels=LEVELS)
        deal(rnd)
        pass_round(rnd)
        rnd.apply(Bury(0, parse_cards(kitty)))
        play(rnd, "0 play 3C", "1 play 4C", "2 play 5C", "3 play AC", "3 play 10S")
        assert played(rnd) == cards(expected), kitty


def test_voids_are_not_inferred_from_rainbow_leads_or_bomb_answers() -> None:
    from shengji.engine.cards import parse_cards
    from shengji.engine.rules import Rules
    from shengji.engine.trump import Trump
    from shengji.players.memory import shows_void

    trump = Trump.parse("2S")
    plain = Rules()
    assert shows_void(parse_cards("3D"), parse_cards("4C"), trump, plain)
    assert not shows_void(parse_cards("3D"), parse_cards("4D"), trump, plain)
    rainbow = Rules(rainbow=3)
    assert not shows_void(parse_cards("5C 5D 5H"), parse_cards("3C 4C 6D"), trump, rainbow)
    bombs = Rules(bombs=2)
    assert not shows_void(parse_cards("3D 3D"), parse_cards("KC KC"), trump, bombs)
    assert shows_void(parse_cards("3D 3D"), parse_cards("KC QC"), trump, bombs)
    follow = Rules(bombs=2, bomb_follow_suit=True)  # an off-suit bomb only when void
    assert shows_void(parse_cards("3D 3D"), parse_cards("KC KC"), trump, follow)


# -- the heuristic's own tables agree with the rules engine ---------------------------------


def test_memory_knows_which_units_the_unseen_cards_can_beat() -> None:
    from shengji.engine.units import Unit, counts_of_suit, placements
    from shengji.game.view import SeatView
    from shengji.players.memory import Memory

    rng = Random(3)
    for rules in SHORTCUT_RULES:
        rnd = Round(rules, seed=rng.randrange(1000))
        plays = rng.randrange(40)
        while rnd.phase != Phase.DONE and (rnd.phase != Phase.PLAY or plays):
            seat = rnd.to_move
            assert seat is not None
            plays -= rnd.phase == Phase.PLAY
            rnd.apply(HeuristicPlayer(seat).act(rnd.view(seat), rnd.legal(seat)))
        if rnd.phase != Phase.PLAY:
            continue  # a redeal
        view: SeatView = rnd.view(rnd.to_move or 0)
        trump = view.trump
        assert isinstance(trump, Trump)
        memory = Memory(view)
        for suit in range(5):
            unseen = counts_of_suit(memory.unseen, suit, trump)
            for width in range(1, rules.decks + 1):
                for length in (1, 2, 3):
                    for top in range(-1, trump.suit_size(suit)):
                        unit = Unit(suit, width, length, top, ())
                        above = next(placements(unseen, width, length, trump, rules,
                                                above=top), None)
                        assert memory.beaten(suit, unit, trump) == (above is not None)


def test_lead_units_made_once_are_the_legal_sets_units() -> None:
    from shengji.players.heuristic import _lead_units, _tables

    rng = Random(5)
    for _ in range(300):
        rules = rng.choice(SHORTCUT_RULES)
        rank = rng.choice([None, *Rank])
        trump = Trump(rank, rng.choice([None, *Suit]) if rank is not None else None)
        pack = [Card(i) for i in range(54) for _ in range(rules.decks)]
        rng.shuffle(pack)
        legal = LegalLeads(Hand(pack[:rng.randrange(1, 40)]), trump, rules)
        assert _lead_units(legal, _tables(trump)) == list(legal.units())


def test_memory_kept_across_decisions_equals_one_read_from_scratch() -> None:
    """The trick log and the unseen counts it keeps up to date (read trick by trick, one
    log for several seats and rounds) equal a memory read afresh from the view."""
    from shengji.game.match import Match
    from shengji.players.memory import Memory, TrickLog

    shared = TrickLog()  # one log for every seat: the counts it keeps must follow the seat
    for rules in SHORTCUT_RULES[:6]:
        match = Match(rules, seed=4, max_rounds=2)
        players = [HeuristicPlayer(seat) for seat in range(rules.players)]
        logs = [TrickLog() for _ in range(rules.players)]  # and one log per seat
        checked = 0
        while not match.is_over:
            seat = match.to_move
            assert seat is not None
            view = match.view(seat)
            if view.phase == Phase.PLAY:
                fresh = Memory(view)
                for log in (logs[seat], shared):
                    kept = Memory(view, log=log)
                    assert (kept.unseen, kept.voids, kept.side()) == (
                        fresh.unseen, fresh.voids, fresh.side())
                forgetful = Memory(view, remember=False, log=shared)
                assert forgetful.unseen == Memory(view, remember=False).unseen
                checked += 1
            match.apply(players[seat].act(view, match.legal(seat)))
        assert checked > 40


@pytest.mark.slow
def test_forced_play_is_the_play_the_player_would_choose() -> None:
    """Where the heuristic finds its play without a view (no choice: the last card led,
    the only follow, every card forced), it is the play it chooses from the view, with
    the cards in the same order; and it finds one often."""
    from shengji.game.match import Match

    for rules in SHORTCUT_RULES:
        match = Match(rules, seed=7, max_rounds=2)
        players = [HeuristicPlayer(seat, remember=seat != 1) for seat in range(rules.players)]
        shadow = HeuristicPlayer(99)  # asked first: its state must not matter
        plays = found = 0
        while not match.is_over:
            seat = match.to_move
            assert seat is not None
            view, legal = match.view(seat), match.legal(seat)
            action = players[seat].act(view, legal)
            if view.phase == Phase.PLAY:
                plays += 1
                forced = shadow.forced_play(legal)
                if forced is not None:
                    found += 1
                    assert forced == action and str(forced) == str(action)
            match.apply(action)
        assert plays > 40 and found > plays // 20, (rules, plays, found)


def test_first_by_is_the_stable_sort_by_the_tables_ranks() -> None:
    """The candidates' cheapest and richest fillings, sorted as ints, are the first cards
    of ``sorted(pool, key=order.__getitem__)`` (ties in the pool's order)."""
    from shengji.players.heuristic import _first_by, _tables

    rng = Random(3)
    for _ in range(500):
        rank = rng.choice([None, *Rank])
        trump = Trump(rank, rng.choice([None, *Suit]) if rank is not None else None)
        tables = _tables(trump)
        pool = [Card(rng.randrange(54)) for _ in range(rng.randrange(40))]
        for order in (tables.cheap, tables.rich):
            for need in range(6):
                assert _first_by(pool, order, need) == tuple(
                    sorted(pool, key=order.__getitem__)[:need])
