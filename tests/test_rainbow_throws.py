"""Rainbow throws (``rules.rainbow_throws``), as worked examples from the rulebook.

With ``rainbow`` on, a rainbow is one card of one rank in each of at least ``rainbow``
effective suits (the trump suit counting as one). With ``rainbow_throws`` (and throws
allowed) two or more rainbows may be led together, like a throw of several pairs: the
throw is checked against the other hands, followers answer with as many rainbows of the
led sizes as they can, and only rainbows of exactly the led sizes can win.

Hearts are trumps (trump 2♥) throughout, so 9♥ is a trump: 9♠ 9♥ 9♦ 9♣ is a rainbow of
four effective suits. Seats 0 and 2 are partners, against seats 1 and 3.
"""

from __future__ import annotations

from random import Random

import pytest

from shengji.engine import (
    Hand,
    Lead,
    LegalLeads,
    LegalPlays,
    PlayError,
    Rules,
    Trick,
    Trump,
    check_throw,
    parse_cards,
)
from shengji.engine.rainbows import rainbow_throws
from shengji.engine.scoring import kitty_multiplier
from shengji.env.selection import LeadSelector
from shengji.game.actions import Play
from shengji.game.phase import Phase
from shengji.game.round import Round
from shengji.players import HeuristicPlayer
from shengji.players.memory import shows_void
from shengji.players.table import decide

TRUMP = Trump.parse("2H")
THROWS = Rules(rainbow=2, rainbow_throws=True)
THREES = Rules(rainbow=3, rainbow_throws=True)


def names(cards: object) -> list[str]:
    """Cards as their names, sorted (for comparing plays as multisets)."""
    assert isinstance(cards, tuple | list)
    return sorted(str(c) for c in cards)


def plays(legal: LegalPlays) -> set[tuple[str, ...]]:
    """Every legal play, each as a sorted tuple of card names."""
    return {tuple(names(play)) for play in legal}


def cards(*texts: str) -> set[tuple[str, ...]]:
    return {tuple(names(parse_cards(text))) for text in texts}


# -- leading --------------------------------------------------------------------------------


def test_two_rainbows_may_be_thrown_together() -> None:
    """9♠ 9♦ 9♣ and Q♠ Q♣: two rainbows (of 3 and of 2) led at once."""
    lead = Lead.from_cards("9S 9D 9C QS QC", TRUMP, THROWS)
    assert lead.rainbow and lead.is_throw
    assert lead.describe() == "throw of rainbows of 3 + 2"
    assert [" ".join(map(str, r)) for r in lead.rainbows] == ["9S 9D 9C", "QS QC"]
    hand = Hand("9S 9D 9C QS QC 4D")
    listed = [names(play) for play in LegalLeads(hand, TRUMP, THROWS)]
    assert names(parse_cards("9S 9D 9C QS QC")) in listed
    assert LegalLeads(hand, TRUMP, THROWS).reason("9S 9D 9C QS QC") is None


def test_a_rank_held_twice_is_read_in_layers() -> None:
    """Two decks: 9♠ 9♠ 9♦ 9♦ 9♣ is read as 9♠ 9♦ 9♣ (one card of every suit held) and
    then 9♠ 9♦ (every suit held twice). 9♠ 9♠ 9♦ 9♣ is no rainbow throw: its second
    layer would be 9♠ alone."""
    lead = Lead.from_cards("9S 9S 9D 9D 9C", TRUMP, THROWS)
    assert lead.describe() == "throw of rainbows of 3 + 2"
    with pytest.raises(PlayError, match="all of one suit"):
        Lead.from_cards("9S 9S 9D 9C", TRUMP, THROWS)
    four = Lead.from_cards("9S 9H 9D 9C JS JD JC", TRUMP, THREES)  # 9♥ is a trump
    assert four.describe() == "throw of rainbows of 4 + 3"


def test_rainbow_throws_need_the_option_and_throws() -> None:
    with pytest.raises(PlayError, match="all of one suit"):
        Lead.from_cards("9S 9D 9C QS QC", TRUMP, Rules(rainbow=2))
    with pytest.raises(PlayError, match=r"throws .* are not allowed"):
        Lead.from_cards("9S 9D 9C QS QC", TRUMP, THROWS.replace(throws=False))
    hand = Hand("9S 9D 9C QS QC")
    assert not list(rainbow_throws(hand.counts, TRUMP, Rules(rainbow=2)))
    assert not [p for p in LegalLeads(hand, TRUMP, Rules(rainbow=2)) if len(p) == 5]


def test_a_selection_can_be_completed_to_a_rainbow_throw() -> None:
    """The environment's lead selection: after 9♠ 9♦ 9♣ Q♠ the Q♣ completes a throw."""
    legal = LegalLeads(Hand("9S 9D 9C QS QC 4D"), TRUMP, THROWS)
    pick = LeadSelector(legal)
    for card in parse_cards("9S 9D 9C QS"):
        assert card in pick.addable()
        pick.add(card)
    assert "QC" in [str(c) for c in pick.addable()] and not pick.complete()
    pick.add(parse_cards("QC")[0])
    assert pick.complete()


# -- the throw check ----------------------------------------------------------------------------

# 9♠ 9♦ 9♣ (three cards, rank 9), Q♠ Q♦ (two cards, rank Q) and J♠ J♥ J♦ J♣ (four)
MIXED = "9S 9D 9C QS QD JS JH JD JC"
KINGS = "KS KH KD KC"  # a rainbow of four kings: higher than each of them, of any size


def throw(rules: Rules, hands: list[str], teammates: tuple[int, ...] = ()) -> Trick:
    """Seat 0 throws :data:`MIXED`; the other seats hold ``hands[1:]``."""
    table = [Hand(MIXED), *(Hand(h) for h in hands[1:])]
    trick = Trick(TRUMP, rules, leader=0)
    trick.play(MIXED, table[0], hands=table, teammates=teammates)
    return trick


def test_a_throw_stands_when_nobody_holds_a_higher_rainbow_of_a_led_size() -> None:
    """Seat 1's aces are only two (no rainbow of 3 or 4); its A♠ A♦ beats Q♠ Q♦."""
    trick = throw(THROWS, ["", "3S 4S", "AS AC 5D", "8S 8D 8C 8H"])
    assert trick.throw is not None
    assert not trick.throw.valid
    assert [b.seat for b in trick.throw.blocks] == [2]
    assert str(trick.throw.blocks[0]) == "seat 2 holds AS AC (a rainbow of 2), higher than QS QD"
    assert trick.lead is not None and str(trick.lead) == "QS QD"  # the lowest beatable
    standing = throw(THROWS, ["", "3S 4S", "5D 6D", "8S 8D 8C 8H"])  # 8s: lower than all
    assert standing.throw is not None and standing.throw.valid
    assert standing.lead is not None and standing.lead.is_throw


@pytest.mark.parametrize(("policy", "played"), [
    ("lowest", "9S 9D 9C"),  # the lowest rank
    ("smallest", "QS QD"),  # the fewest cards
    ("largest", "JS JH JD JC"),  # the most cards
])
def test_a_failed_throw_plays_the_rainbow_failed_throw_chooses(policy: str, played: str
                                                               ) -> None:
    rules = THROWS.replace(failed_throw=policy, throw_penalty="per-card",
                           throw_penalty_points=10)
    trick = throw(rules, ["", "3S 4S", "5D 6D", KINGS])
    assert trick.throw is not None and not trick.throw.valid
    assert [b.seat for b in trick.throw.blocks] == [3, 3, 3]
    assert trick.lead is not None and trick.lead.rainbow and not trick.lead.is_throw
    assert names(trick.lead.cards) == names(parse_cards(played))
    assert names(trick.throw.returned) == names(_less(MIXED, played))
    assert trick.throw.penalty == 90  # 10 per card thrown


def _less(cards: str, taken: str) -> list[object]:
    left = list(parse_cards(cards))
    for card in parse_cards(taken):
        left.remove(card)
    return left


def test_a_failed_throw_can_lose_the_round() -> None:
    trick = throw(THROWS.replace(failed_throw="lose-round"), ["", "3S 4S", "5D 6D", KINGS])
    assert trick.throw is not None and trick.throw.round_lost
    assert trick.throw.explain().endswith("the throw failed: the thrower's side loses the round")


def test_only_opponents_are_checked_with_throw_check_opponents() -> None:
    """The kings are the partner's (seat 2): they count under ``all``, not ``opponents``."""
    partner = ["", "3S 4S", KINGS, "5D 6D"]
    assert throw(THROWS, partner).throw.valid is False  # type: ignore[union-attr]
    opponents = THROWS.replace(throw_check="opponents")
    trick = throw(opponents, partner, teammates=(2,))
    assert trick.throw is not None and trick.throw.valid


def test_an_equal_rainbow_blocks_only_with_throw_blocked_by_equal() -> None:
    """Q♥ (a trump) and Q♣ of seat 1: a rainbow of 2 queens, as high as Q♠ Q♦."""
    hands = ["", "QH QC", "5D 6D", "7D 8D"]
    assert throw(THROWS, hands).throw.valid  # type: ignore[union-attr]
    blocked = throw(THROWS.replace(throw_blocked_by_equal=True), hands)
    assert blocked.throw is not None and not blocked.throw.valid
    assert str(blocked.throw.blocks[0]) == "seat 1 holds QH QC (a rainbow of 2), as high as QS QD"


def test_a_failed_rainbow_throw_in_a_round_costs_its_penalty() -> None:
    """Through a whole round: the penalty goes to the round as for any failed throw."""
    rules = THROWS.replace(throw_penalty="per-attempt", throw_penalty_points=20)
    for seed in range(40):
        rnd = Round(rules, seed=seed)
        players = [HeuristicPlayer(s) for s in range(4)]
        while rnd.phase != Phase.PLAY:
            seat = rnd.to_move
            assert seat is not None
            rnd.apply(decide(rnd, seat, players[seat]))
        seat = rnd.to_move
        assert seat is not None and rnd.trump is not None
        others = {s: rnd.hands[s] for s in range(4) if s != seat}
        for cards in rainbow_throws(rnd.hands[seat].counts, rnd.trump, rules):
            lead = Lead.from_cards(cards, rnd.trump, rules)
            if not check_throw(lead, others, rnd.trump, rules).valid:
                rnd.apply(Play(seat, cards))
                assert rnd.trick is not None and rnd.trick.throw is not None
                assert rnd.penalties == [(seat, 20)]
                played = rnd.trick.plays[0].cards
                assert rnd.trick.lead is not None and rnd.trick.lead.rainbow
                assert len(played) < len(cards)
                return
    raise AssertionError("no failing rainbow throw found")


# -- following ----------------------------------------------------------------------------------

LED = Lead.from_cards("9S 9D 9C QS QC", TRUMP, THROWS)  # rainbows of 3 and of 2


def test_a_follower_must_play_the_rainbows_they_hold() -> None:
    """K♠ K♦ K♣ answers the rainbow of 3 and 3♠ 3♦ the one of 2: both must be played."""
    follow = LegalPlays(Hand("KS KD KC 3S 3D 4H 6C 7C"), LED, TRUMP, THROWS)
    assert follow.mode == "rainbows"
    assert plays(follow) == cards("KS KD KC 3S 3D")
    assert str(follow.describe()) == "play 5 cards, including rainbows of 3 + 2"
    assert follow.reason("KS KD KC 6C 7C") == (
        "you hold rainbows of 3 + 2 (KS 3S KD 3D KC): a throw of rainbows of 3 + 2 led must "
        "be answered by as many of its rainbows as you can play, the largest first")


def test_a_larger_rainbow_answers_a_smaller_one_the_largest_first() -> None:
    """A♠ A♦ A♣ is the only rainbow held: it answers the rainbow of 3 (any two of it
    would answer the rainbow of 2 only), the other two cards are free."""
    follow = LegalPlays(Hand("AS AD AC 5C 6C 7D"), LED, TRUMP, THROWS)
    assert str(follow.describe()) == "play 5 cards, including a rainbow of 3"
    assert names(follow.forced) == names(parse_cards("AS AD AC"))
    assert plays(follow) == cards("AS AD AC 5C 6C", "AS AD AC 5C 7D", "AS AD AC 6C 7D")


def test_a_follower_without_a_rainbow_plays_any_cards() -> None:
    follow = LegalPlays(Hand("KS KS 3D 4H 6C 7C"), LED, TRUMP, THROWS)
    assert follow.mode == "free"
    assert str(follow.describe()) == "play any 5 cards: you hold no rainbow of 2 or more cards"
    assert follow.reason("KS KS 3D 4H 6C") is None and follow.reason("KS 3D 4H 6C 7C") is None
    assert len(plays(follow)) == 5


def test_a_rainbow_throw_proves_no_void() -> None:
    """Followers owe no suit on a rainbow throw: clubs played on it prove nothing."""
    assert not shows_void(LED.cards, parse_cards("3C 4C 5C 6C 7C"), TRUMP, THROWS)


def test_the_kitty_counts_a_rainbow_throw_as_singles() -> None:
    assert kitty_multiplier(LED, THROWS) == kitty_multiplier(
        Lead.from_cards("9S 9D 9C", TRUMP, THROWS), THROWS) == 2


# -- winning ------------------------------------------------------------------------------------


def trick_winner(rules: Rules, lead: str, *follows: str) -> int | None:
    """The winner of a trick led with ``lead`` (which stands) and then ``follows``."""
    hands = [Hand(lead), *(Hand(f) for f in follows)]
    trick = Trick(TRUMP, rules, leader=0, players=len(hands))
    trick.play(lead, hands[0], hands=[hands[0], *(Hand() for _ in follows)])
    for seat, cards in enumerate(follows, 1):
        trick.play(cards, hands[seat])
    return trick.winner


def test_largest_unit_a_higher_largest_rainbow_wins() -> None:
    """Led 9♠ 9♦ 9♣ + Q♠ Q♣. K♠ K♦ K♣ + 3♠ 3♦: its rainbow of 3 is higher; the 3s do
    not matter. 8s with aces lose: the largest rainbow decides."""
    assert trick_winner(THROWS, "9S 9D 9C QS QC", "KS KD KC 3S 3D") == 1
    assert trick_winner(THROWS, "9S 9D 9C QS QC", "8S 8D 8C AS AD") == 0
    # rainbows not of the led sizes never win: four kings are one rainbow of 4
    assert trick_winner(THROWS, "9S 9D 9C QS QC", "KS KH KD KC 3S") == 0
    # a tie on the largest rainbow: the earlier play wins, unless the tiebreak looks on
    assert trick_winner(THROWS, "9S 9D 9C QS QC", "9S 9D 9H AS AD") == 0
    tiebreak = THROWS.replace(throw_tiebreak=True)
    assert trick_winner(tiebreak, "9S 9D 9C QS QC", "9S 9D 9H AS AD") == 1


def test_every_unit_each_rainbow_must_beat_its_counterpart() -> None:
    every = THROWS.replace(throw_beat="every-unit")
    assert trick_winner(every, "9S 9D 9C QS QC", "KS KD KC 3S 3D") == 0  # 3s below the Qs
    assert trick_winner(every, "9S 9D 9C QS QC", "KS KD KC AS AD") == 1
    # the later play must beat the winner, not the lead
    assert trick_winner(every, "9S 9D 9C QS QC", "10S 10D 10C KS KD", "JS JD JC AS AC") == 2
    assert trick_winner(every, "9S 9D 9C QS QC", "10S 10D 10C KS KD", "JS JD JC QH QD") == 1


def test_a_bomb_beats_a_rainbow_throw() -> None:
    """Four decks, bombs of four identical cards or more: 3♠ 3♠ 3♠ 3♠ on a throw of
    two rainbows of 2 beats the higher rainbows played before it."""
    bombs = Rules(decks=4, bombs=4, rainbow=2, rainbow_throws=True)
    assert trick_winner(bombs, "9S 9D QS QC", "KS KD AS AD", "3S 3S 3S 4D") == 1
    assert trick_winner(bombs, "9S 9D QS QC", "KS KD AS AD", "3S 3S 3S 3S") == 2


# -- whole rounds --------------------------------------------------------------------------------


def play_rounds(rules: Rules, seeds: range) -> tuple[int, int]:
    """Heuristic players play whole rounds, except that the seat to lead throws a rainbow
    throw whenever it holds one (one that stands, if any). Every action goes through
    :meth:`Round.apply`, which refuses illegal ones. The throws that stood, and the
    follows played on them."""
    stood = follows = 0
    for seed in seeds:
        rnd = Round(rules, seed=seed)
        players = [HeuristicPlayer(seed * 10 + s) for s in range(rules.players)]
        while rnd.phase != Phase.DONE:
            seat = rnd.to_move
            assert seat is not None
            trick = rnd.trick
            action = decide(rnd, seat, players[seat])
            if rnd.phase == Phase.PLAY and trick is not None and trick.lead is None:
                assert rnd.trump is not None
                others = {s: rnd.hands[s] for s in range(rules.players) if s != seat}
                throws = list(rainbow_throws(rnd.hands[seat].counts, rnd.trump, rules))
                standing = [t for t in throws if check_throw(
                    Lead.from_cards(t, rnd.trump, rules), others, rnd.trump, rules).valid]
                if throws:
                    action = Play(seat, (standing or throws)[0])
                    stood += bool(standing)
            elif trick is not None and trick.lead is not None and trick.lead.is_throw and (
                    trick.lead.rainbow):
                follows += 1
                legal = rnd.legal(seat).plays
                assert isinstance(legal, LegalPlays) and isinstance(action, Play)
                assert legal.reason(action.cards) is None
            rnd.apply(action)
    return stood, follows


@pytest.mark.slow
def test_heuristic_players_complete_rounds_with_rainbow_throws() -> None:
    stood, follows = play_rounds(Rules(rainbow=2, rainbow_throws=True), range(4))
    assert stood and follows >= 3 * stood


@pytest.mark.slow
def test_heuristic_players_complete_six_player_rounds_with_rainbow_throws() -> None:
    rules = Rules(rainbow=3, rainbow_throws=True, decks=3, players=6)
    stood, follows = play_rounds(rules, range(30))
    assert stood and follows >= 5 * stood


def test_random_leads_include_rainbow_throws() -> None:
    legal = LegalLeads(Hand("9S 9D 9C QS QC"), TRUMP, THROWS)
    drawn = {tuple(names(legal.random(Random(seed)))) for seed in range(200)}
    assert tuple(names(parse_cards("9S 9D 9C QS QC"))) in drawn
    assert all(legal.reason(list(parse_cards(" ".join(d)))) is None for d in drawn)


def test_the_search_player_follows_a_rainbow_throw_legally() -> None:
    """The first lead of a heuristic round is a rainbow throw that stands (A♠ A♠ A♦ A♦:
    rainbows of 2 aces, nobody holds higher); the search player answers it legally, its
    sampled worlds replaying the throw."""
    from shengji.players.search import SearchPlayer

    rules = Rules(rainbow=2, rainbow_throws=True)
    rnd = Round(rules, seed=0)
    players = [HeuristicPlayer(s) for s in range(4)]
    while rnd.phase != Phase.PLAY:
        seat = rnd.to_move
        assert seat is not None
        rnd.apply(decide(rnd, seat, players[seat]))
    seat = rnd.to_move
    assert seat is not None
    rnd.apply(Play(seat, tuple(parse_cards("AS AS AD AD"))))
    assert rnd.trick is not None and rnd.trick.lead is not None
    assert rnd.trick.lead.describe() == "throw of rainbows of 2 + 2"
    follower = rnd.to_move
    assert follower is not None
    search = SearchPlayer(seed=1, iterations=4, max_worlds=2, learned=False,
                          phases=(Phase.PLAY,), endgame=None)
    action = search.act(rnd.view(follower), rnd.legal(follower))
    assert action in rnd.legal(follower) and search.last is not None
    rnd.apply(action)
