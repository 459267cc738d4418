"""Random complete rounds and matches under many rule sets, checking invariants after
every action (issue point 9).

After every action: each card of the pack is in exactly one place (a hand, the undealt
deck or kitty, the current trick, the finished tricks); no seat's view shows another
seat's hidden cards; and (for a sample of actions) ``undo`` restores the state exactly
and re-applying gives the same state again, while random illegal actions are refused
with :class:`ActionError` and change nothing. At the end of each round the score sheet's
arithmetic, the level changes (``level_change`` + ``advance`` + hook and needle) and the
next dealer are recomputed from the rules.
"""

from __future__ import annotations

from collections import Counter
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from flow_helpers import fingerprint
from shengji.engine.cards import ALL_CARDS, Card, Rank
from shengji.engine.rules import DealerRotation, Partnership, Rules
from shengji.engine.scoring import (
    NO_TRUMP_LEVEL,
    advance,
    hook_back,
    kitty_multiplier,
    level_change,
)
from shengji.game.actions import Action, Bid, Bury, Call, Draw, Pass, Play, Show, Withdraw
from shengji.game.legal import ActionError
from shengji.game.match import Match, never_ends, play_random_match
from shengji.game.phase import Phase
from shengji.game.round import Round, pack
from shengji.game.scoresheet import RoundResult

RULE_SETS: dict[str, Rules] = {
    "tractor": Rules(),
    "6p-3decks": Rules(players=6, decks=3),
    "friends-5p": Rules(players=5, partnership="fluid"),
    "friends-7p-no-jokers": Rules(players=7, decks=2, big_jokers=0, small_jokers=0,
                                  partnership="fluid"),
    "one-deck-lose-round": Rules(decks=1, failed_throw="lose-round", level_table="da-bai-fen"),
    "one-deck-card-by-card": Rules(decks=1, throw_beat="card-by-card", tuple_follow="none"),
    "chao-di-pi-mix": Rules(kitty_overbid=True, redeal_show="no-trumps", bid_withdraw=True,
                            bid_equal_override=True, first_draw="next"),
    "chao-di-pi-takes-dealer": Rules(kitty_overbid=True, kitty_overbid_takes_dealer=True,
                                     bid_switch_suit=True, first_dealer="first-pair",
                                     redeal_show="no-points", redeal_dealer_partner=True),
    "joker-bids-decks": Rules(players=6, decks=3, joker_bids="decks", no_bid="kitty-first",
                              no_bid_joker="no-trump", first_draw="count",
                              first_dealer="first-joker-pair"),
    "kitty-first-redeal": Rules(no_bid="kitty-first", no_bid_joker="redeal",
                                joker_bids="off", first_dealer="random",
                                kitty_multiplier="power"),
    "no-bid-redeal": Rules(decks=1, no_bid="redeal", kitty_points_allowed=False,
                           kitty_revealed=False,
                           kitty_multiplier="double", level_table="hundred", draw_at=40),
    "friends-colour-rank": Rules(players=6, partnership="fluid", friend_calls="colour-rank",
                                 friend_caller_counts=False, smaller_team_bonus=True,
                                 fluid_overbid=("own-rank", "maker-rank", "jokers-rank",
                                                "jokers-only"),
                                 kitty_overbid=True, dealer_rotation="winner-next"),
    "friends-trump-calls": Rules(players=5, partnership="fluid", friend_trump_calls=True,
                                 fluid_overbid=("jokers-only",), fluid_bidders="not-lost",
                                 kitty_multiplier="lead-size", kitty_revealed=False),
    "red-fives-penalties": Rules(red_fives=2, red_five_penalty=10, throw_penalty="per-card",
                                 throw_check="opponents", failed_throw="largest",
                                 kitty_multiplier="decks"),
    "hook-mandatory": Rules(hook_and_needle=True, mandatory_ranks=("5", "10", "K"),
                            throw_penalty="per-attempt", failed_throw="smallest",
                            tractor_follow="longest", tuple_follow="protect"),
    "second-rank-no-trump-end": Rules(decks=1, second_rank="2", start_rank="3",
                                      after_end="no-trump", throw_beat="every-unit",
                                      rank_suit_order=("S", "H", "C", "D")),
    "house-rules-fluid": Rules(players=5, kitty=6, remove_low=True, partnership="fluid",
                               bid_after_outbid=True, bid_reinforce_equal=True,
                               kitty_overbid=True, kitty_overbid_limit=1, below_zero=True,
                               kitty_to_declarers=True, throw_penalty="per-card",
                               mandatory_ranks=("5",), mandatory_win=True,
                               pass_end_freely=True, after_end="no-trump-wrap"),
    "house-rules-fixed": Rules(players=6, decks=3, kitty=8, remove_low=True,
                               kitty_overbid=True, kitty_overbid_by="opponents",
                               kitty_to_declarers=True, below_zero=True),
    "hundred-expose": Rules(decks=1, trump_choice="dealer", expose=6, tuple_follow="none",
                            throw_beat="card-by-card", joker_bids="off"),
}

SEEDS_PER_RULES = 3
"""Complete rounds per rule set in the per-action test (each several hundred actions)."""

ENDLESS_ROUNDS = 60
"""The rounds of a random match that never ends (``after_end`` wraps): enough for levels to
reach the top and wrap several times (the other matches end within 400 rounds, far fewer)."""


# -- where the cards are ---------------------------------------------------------------

def card_places(rnd: Round) -> Counter[Card]:
    """Every card the round knows about, counted once per place it sits in."""
    places: Counter[Card] = Counter(rnd.removed)      # taken out to make the deal even
    for hand in rnd.hands:
        places.update(hand.cards())
    if rnd.kitty_owner is None:
        places.update(rnd.deck[rnd.next_card:])       # undealt cards, the kitty included
        assert rnd.kitty == rnd.deck[len(rnd.deck) - rnd.rules.kitty_size:]
    elif rnd.phase != Phase.KITTY:
        places.update(rnd.kitty)                       # buried (in the owner's hand before)
    trick = rnd.trick
    if trick is not None and not trick.is_complete:
        for play in trick.plays:
            places.update(play.cards)
    for record in rnd.tricks:
        for play in record.plays:
            places.update(play.cards)
    return places


def check_cards(rnd: Round) -> None:
    full = Counter(pack(rnd.rules))
    assert card_places(rnd) == full, "a card is missing or in two places"
    assert sum(c.points for c in full.elements()) == 100 * rnd.rules.decks
    assert sum(rnd.captured) == sum(r.points for r in rnd.tricks)
    for seat in range(rnd.rules.players):
        assert rnd.captured[seat] == sum(r.points for r in rnd.tricks if r.winner == seat)


# -- what each seat sees ---------------------------------------------------------------

def check_views(rnd: Round) -> None:
    done = rnd.phase == Phase.DONE
    revealed = done and rnd.rules.kitty_revealed
    for seat in range(rnd.rules.players):
        view = rnd.view(seat)
        assert sorted(view.hand) == rnd.hands[seat].cards()
        assert view.hand_sizes == tuple(len(h) for h in rnd.hands)
        if rnd.kitty_owner is not None and (seat == rnd.kitty_owner or revealed):
            assert view.kitty == rnd.kitty
        else:
            assert view.kitty is None
        assert len(view.history) == len(rnd.history)
        for seen, action in zip(view.history, rnd.history, strict=True):
            if isinstance(action, Bury) and action.seat != seat and not revealed:
                assert seen == Bury(action.seat, ()), "another seat's buried cards leak"
            else:
                assert seen == action
        if view.result is not None and not revealed and seat != rnd.kitty_owner:
            kitty = " ".join(str(c) for c in rnd.kitty)
            assert view.result.kitty in ((), None) or not rnd.kitty
            assert all(kitty not in line for line in view.result.lines)
        assert view.friends == (rnd.tracker.friends if rnd.tracker else ())
        assert view.declarers == rnd.declarers


# -- illegal actions -------------------------------------------------------------------

def illegal_actions(rnd: Round, rng: Random) -> list[Action]:
    """A few actions that must be refused now."""
    n = rnd.rules.players
    phase = rnd.phase
    seat = rnd.to_move
    others = [s for s in range(n) if s != seat]
    wrong = rng.choice(others) if others else 0
    absent = [c for c in ALL_CARDS if seat is None or rnd.hands[seat].count(c) == 0]
    not_held = rng.choice(absent) if absent else Card("2C")
    out: list[Action] = [Play(n, (Card("AS"),)), Draw(n + 1)]
    if phase == Phase.DONE:
        return [*out, Draw(0), Pass(0), Play(0, (Card("2C"),))]
    assert seat is not None
    if phase == Phase.DEAL:
        out += [Draw(wrong), Pass(seat), Play(seat, (not_held,)), Bury(seat, (not_held,)),
                Bid(wrong, (not_held,) * 1) if not_held not in rnd.hands[wrong] else Draw(wrong)]
    elif phase in (Phase.BID, Phase.OVERBID):
        out += [Pass(wrong), Draw(seat), Play(seat, rnd.hands[seat].cards()[:1])]
        held = [c for c in rnd.hands[wrong].cards()]
        if held:
            out.append(Bid(wrong, (held[0],)))
        if rnd.bidding.winner is None or rnd.bidding.winner.seat != seat:
            out.append(Withdraw(seat))
    elif phase == Phase.KITTY:
        cards = rnd.hands[seat].cards()
        size = rnd.rules.kitty_size
        out += [Bury(seat, tuple(cards[: size + 1])), Pass(seat),
                Bury(wrong, tuple(rnd.hands[wrong].cards()[:size]))]
        if size > 1:
            out.append(Bury(seat, tuple(cards[: size - 1])))
        out.append(Bury(seat, (not_held, *cards[: size - 1])))
    elif phase == Phase.CALL:
        out += [Call(seat, ()), Pass(seat), Play(seat, rnd.hands[seat].cards()[:1]),
                Call(wrong, ())]
    elif phase == Phase.SHOW:
        out += [Show(wrong), Play(seat, rnd.hands[seat].cards()[:1])]
    elif phase == Phase.PLAY:
        out += [Play(seat, (not_held,)), Pass(seat), Show(seat)]
        wrong_cards = rnd.hands[wrong].cards()
        if wrong_cards:
            out.append(Play(wrong, (wrong_cards[0],)))
        trick = rnd.trick
        assert trick is not None
        if trick.lead is not None:
            have = rnd.hands[seat].cards()
            count = trick.lead.size + 1
            if len(have) >= count:
                out.append(Play(seat, tuple(have[:count])))
    return out


def check_refused(rnd: Round, rng: Random) -> None:
    before = fingerprint(rnd)
    for action in illegal_actions(rnd, rng):
        if 0 <= action.seat < rnd.rules.players:
            assert action not in rnd.legal(action.seat)
            assert rnd.legal(action.seat).reason(action) is not None
        with pytest.raises(ActionError):
            rnd.apply(action)
        assert fingerprint(rnd) == before, f"refused {action} changed the round"


# -- choosing random actions -----------------------------------------------------------

def random_action(rnd: Round, rng: Random) -> Action:
    """A random legal action; during the deal any seat that can bid sometimes does."""
    if rnd.phase == Phase.DEAL:
        seat = rnd.drawer
        if rng.random() < 0.15:
            seat = rng.choice(rnd.actors())
        options = list(rnd.legal(seat))
        bids = [a for a in options if not isinstance(a, Draw)]
        if bids and (seat != rnd.drawer or rng.random() < 0.3):
            return rng.choice(bids)
        if seat == rnd.drawer:
            return Draw(seat)
        return rng.choice(options)
    seat = rnd.to_move
    assert seat is not None
    legal = rnd.legal(seat)
    trick = rnd.trick
    if (rnd.phase == Phase.PLAY and trick is not None and trick.lead is None
            and rnd.rules.throws and rng.random() < 0.3):
        # random leads are single units: attempt throws too (they may fail)
        trump = trick.trump
        by_suit: dict[int, list[Card]] = {}
        for card in rnd.hands[seat].cards():
            by_suit.setdefault(trump.suit_of(card), []).append(card)
        cards = rng.choice(list(by_suit.values()))
        if len(cards) >= 2:
            attempt = Play(seat, tuple(rng.sample(cards, rng.randint(2, min(5, len(cards))))))
            if attempt in legal:
                return attempt
    return legal.random(rng)


# -- the end of a round ----------------------------------------------------------------

def expected_next_dealer(rules: Rules, result: RoundResult) -> int:
    n, dealer = rules.players, result.dealer
    side = result.declarers if result.declarers_won else result.opponents
    if rules.partnership == Partnership.FIXED and (
            rules.dealer_rotation == DealerRotation.STANDARD):
        if not result.declarers_won:
            return (dealer + 1) % n
        side = result.declarers
    for k in range(1, n + 1):
        if (dealer + k) % n in side:
            return (dealer + k) % n
    raise AssertionError("no seat on the side")


def check_result(rnd: Round) -> RoundResult:
    result = rnd.result
    assert result is not None
    rules = rnd.rules
    n = rules.players
    assert result.levels_before == rnd.levels
    assert isinstance(result.sheet(), str) and result.sheet()
    if result.redeal:
        assert result.levels == rnd.levels and result.change is None
        expected = result.dealer
        if rules.redeal_dealer_partner and rules.partnership == Partnership.FIXED:
            expected = (result.dealer + 2) % n
        assert result.next_dealer == expected
        return result
    assert result.dealer == rnd.dealer
    assert set(result.declarers) | set(result.opponents) == set(range(n))
    assert not set(result.declarers) & set(result.opponents)
    assert result.dealer in result.declarers
    if rules.partnership == Partnership.FIXED:
        assert all(s % 2 == result.dealer % 2 for s in result.declarers)
    else:
        assert 1 <= len(result.declarers) <= 1 + rules.friend_count
    assert result.trick_points == sum(rnd.captured[s] for s in result.opponents)
    assert result.declarer_points == sum(rnd.captured[s] for s in result.declarers)
    assert result.kitty == rnd.kitty
    assert result.kitty_points == sum(c.points for c in rnd.kitty)
    if result.lost_by is None:
        assert not any(h for h in rnd.hands)
        assert result.trick_points + result.declarer_points + result.kitty_points == (
            100 * rules.decks)
        last = rnd.tricks[-1]
        sign = 1 if last.winner in result.opponents else -1  # kitty_to_declarers: off
        if sign > 0 or rules.kitty_to_declarers:
            assert result.kitty_multiplier == kitty_multiplier(last.lead, rules)
        else:
            assert result.kitty_multiplier == 0
        assert result.kitty_bonus == sign * result.kitty_points * result.kitty_multiplier
        total = (result.trick_points + result.kitty_bonus + result.penalty_points
                 + result.red_five_points)
        assert result.points == (total if rules.below_zero else max(0, total))
    else:
        assert result.points == (100 * rules.decks if result.lost_by in result.declarers
                                 else 0)
    signed = sum(p if s in result.declarers else -p for s, p in rnd.penalties)
    assert result.penalty_points == signed
    if not rules.red_five_penalty or not rules.red_fives:
        assert result.red_five_points == 0
    change = level_change(result.points, rules)
    assert result.change == change
    won = not change.switch
    assert result.declarers_won == won
    # the levels, recomputed from the rules
    winners = result.declarers if won else result.opponents
    steps = change.declarers_up if won else change.opponents_up
    if (won and steps and rules.partnership == Partnership.FLUID and rules.smaller_team_bonus
            and len(result.declarers) < 1 + rules.friend_count):
        steps += 1
    expected = list(rnd.levels)
    passed = []
    for seat in winners:
        # only seats playing their own level (the dealer's) can pass the end rank
        own = rnd.levels[seat] == rnd.levels[result.dealer]
        moved = advance(rnd.levels[seat], steps, rules, as_declarers=won and own)
        expected[seat] = moved.level
        if moved.passed_end:
            passed.append(seat)
    hooked = False
    if result.lost_by is None and rules.hook_and_needle and rnd.trump is not None:
        last = rnd.tricks[-1]
        winning = next(p for p in last.plays if p.seat == last.winner)
        if last.winner in result.opponents and rnd.trump.rank is not None and any(
                c.rank == rnd.trump.rank for c in winning.cards):
            for seat in result.declarers:
                back = hook_back(rnd.levels[seat], rules)
                if back is not None and rnd.levels[seat] == rnd.trump.rank:
                    expected[seat] = back
                    hooked = True
    if hooked:
        passed = [s for s in passed if s not in result.declarers]
    assert result.hooked == hooked
    assert list(result.levels) == expected
    assert set(result.match_won_by) == set(passed)
    assert result.next_dealer == expected_next_dealer(rules, result)
    sheet = result.sheet()
    assert "Kitty" in sheet and "Next dealer" in sheet
    for seat in range(n):
        if result.levels[seat] != result.levels_before[seat]:
            assert f"Seat {seat}: " in sheet
    return result


# -- the tests -------------------------------------------------------------------------

def play_checked(rules: Rules, seed: int, *, dealer: int | None, levels: tuple[int, ...] | None
                 ) -> int:
    """Play one random round, checking everything after every action; returns actions."""
    rnd = Round(rules, seed=seed, levels=levels, dealer=dealer, track_undo=True)
    rng = Random(seed * 7919 + 1)
    count = 0
    check_cards(rnd)
    check_views(rnd)
    while rnd.phase != Phase.DONE:
        action = random_action(rnd, rng)
        sample = count % 9 == 0 or rnd.phase not in (Phase.DEAL, Phase.PLAY)
        if sample:
            check_refused(rnd, rng)
            before = fingerprint(rnd)
        rnd.apply(action)
        count += 1
        check_cards(rnd)
        check_views(rnd)
        if sample:
            after = fingerprint(rnd)
            copy = rnd.copy()
            assert rnd.undo() == action
            assert fingerprint(rnd) == before, f"undo of {action} did not restore the round"
            rnd.apply(action)
            assert fingerprint(rnd) == after, f"re-applying {action} gave another round"
            assert fingerprint(copy) == after
    check_refused(rnd, rng)
    check_result(rnd)
    return count


def start_position(rules: Rules, seed: int) -> tuple[int | None, tuple[int, ...] | None]:
    """First round (dealer decided by bidding) or a later one with uneven levels."""
    rng = Random(seed)
    if seed % 3 == 0:
        return None, None
    n = rules.players
    top = int(rules.end_rank)
    pick = [rng.randint(int(rules.start_rank), top) for _ in range(n)]
    if rules.hook_and_needle and seed % 3 == 1:
        pick = [11] * n
    if rules.partnership == Partnership.FIXED:
        pick = [pick[s % 2] for s in range(n)]
    return rng.randrange(n), tuple(pick)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(RULE_SETS))
def test_random_rounds_keep_every_invariant(name: str) -> None:
    rules = RULE_SETS[name]
    total = 0
    for seed in range(SEEDS_PER_RULES):
        dealer, levels = start_position(rules, seed)
        total += play_checked(rules, seed, dealer=dealer, levels=levels)
    assert total > 100


@pytest.mark.slow
@pytest.mark.parametrize("name", list(RULE_SETS))
def test_many_fast_rounds_score_correctly(name: str) -> None:
    """More rounds without per-action checks (``track_undo=False``): the end checks only."""
    rules = RULE_SETS[name]
    for seed in range(100, 112):
        dealer, levels = start_position(rules, seed)
        rnd = Round(rules, seed=seed, levels=levels, dealer=dealer, track_undo=False)
        rng = Random(seed)
        while rnd.phase != Phase.DONE:
            rnd.apply(random_action(rnd, rng))
        check_cards(rnd)
        check_views(rnd)
        check_result(rnd)
        with pytest.raises(ActionError):
            rnd.undo()


@pytest.mark.slow
@settings(max_examples=12, deadline=None)
@given(name=st.sampled_from(sorted(RULE_SETS)), seed=st.integers(0, 2**40),
       first_round=st.booleans())
def test_hypothesis_rounds(name: str, seed: int, first_round: bool) -> None:
    """Any shuffle, any rule set: cards and views checked after every action."""
    rules = RULE_SETS[name]
    dealer, levels = (None, None) if first_round else start_position(rules, 3 * seed + 1)
    rnd = Round(rules, seed=seed, levels=levels, dealer=dealer, track_undo=False)
    rng = Random(seed)
    while rnd.phase != Phase.DONE:
        rnd.apply(random_action(rnd, rng))
        check_cards(rnd)
        check_views(rnd)
    check_result(rnd)


def top_level(rules: Rules) -> int:
    """The highest level of a match under ``rules``."""
    return (NO_TRUMP_LEVEL if rules.after_end in ("no-trump", "no-trump-wrap")
            else int(rules.end_rank))


def check_match(match: Match) -> None:
    rules = match.rules
    n = rules.players
    top = top_level(rules)
    levels = (int(rules.start_rank),) * n
    previous: RoundResult | None = None
    for result in match.results:
        assert result.levels_before == levels
        for before, after in zip(result.levels_before, result.levels, strict=True):
            assert int(rules.start_rank) <= after <= top
            if after > before:
                assert not any(before < r < after for r in rules.mandatory_ranks), (
                    "a mandatory rank was skipped")
        if rules.partnership == Partnership.FIXED:
            assert all(result.levels[s] == result.levels[s % 2] for s in range(n))
            restarted = previous is not None and previous.redeal and all(
                r.redeal for r in match.results[:match.results.index(result)])
            if previous is not None and not restarted:
                assert result.dealer == previous.next_dealer
        if result.match_won_by:
            assert result is match.results[-1]
        levels = result.levels
        previous = result
    assert match.levels == levels
    if match.max_rounds is None or len(match.results) < match.max_rounds:
        assert match.is_over and match.winners
        last = match.results[-1]
        assert last.match_won_by
        assert set(last.match_won_by) <= set(match.winners)
        if rules.partnership == Partnership.FIXED:
            side = last.declarers if last.declarers_won else last.opponents
            assert match.winners == side
        assert all(levels[s] == top for s in last.match_won_by)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(RULE_SETS))
def test_random_matches(name: str) -> None:
    rules = RULE_SETS[name]
    if rules.end_rank == Rank.ACE and name not in ("tractor", "hook-mandatory"):
        rules = rules.replace(end_rank="9")    # keep the file fast: shorter matches
    endless = never_ends(rules, "max_rounds") is not None
    for seed in range(2):
        match = play_random_match(rules, seed=seed,
                                  max_rounds=ENDLESS_ROUNDS if endless else 400)
        check_match(match)
        assert match.is_over
        if endless:  # its rounds took a level past the top, to wrap
            top = top_level(rules)
            assert any(before == top > after for r in match.results
                       for before, after in zip(r.levels_before, r.levels, strict=True))


def test_wrapping_match_needs_max_rounds() -> None:
    rules = Rules(after_end="wrap", end_rank="4")
    with pytest.raises(ValueError):
        play_random_match(rules, seed=1)
    match = play_random_match(rules, seed=1, max_rounds=25)
    assert len(match.results) == 25 and not match.winners
    assert all(2 <= lv <= 4 for r in match.results for lv in r.levels)


def test_match_protocol_and_undo() -> None:
    match = Match(Rules(decks=1, end_rank="3"), seed=5)
    rng = Random(5)
    seen = 0
    while not match.is_over and seen < 400:
        seat = match.to_move
        assert seat is not None
        view = match.view(seat)
        assert sorted(view.hand) == match.round.hands[seat].cards()
        action = match.legal(seat).random(rng)
        if seen % 97 == 0:
            before = (len(match.results), fingerprint(match.round))
            match.apply(action)
            match.undo()
            assert (len(match.results), fingerprint(match.round)) == before
        match.apply(action)
        seen += 1
    assert seen > 100


def test_a_match_copy_goes_on_alone() -> None:
    """A copy plays on exactly like the original, and neither changes the other."""
    match = Match(Rules(decks=1, end_rank="4"), seed=8)
    rng = Random(8)
    for _ in range(150):  # into the second round
        seat = match.to_move
        assert seat is not None
        match.apply(match.legal(seat).random(rng))
    assert match.results
    copy = match.copy()
    before = (list(match.history), match.levels, fingerprint(match.round))
    for game in (copy, match):
        moves = Random(3)
        while not game.is_over and len(game.history) < 600:
            seat = game.to_move
            assert seat is not None
            game.apply(game.legal(seat).random(moves))
        if game is copy:  # the original did not move while the copy played
            assert (list(match.history), match.levels, fingerprint(match.round)) == before
    assert copy.history == match.history and copy.levels == match.levels
    assert copy.results == match.results and copy.winners == match.winners


@pytest.mark.parametrize("max_rounds", [None, 1, 2])
def test_a_match_is_over_as_its_results_say(max_rounds: int | None) -> None:
    """``is_over`` (kept up to date by the match) is what its winners and results say,
    through the rounds, undos and copies, until the match ends."""
    match = Match(Rules(decks=1, end_rank="3"), seed=11, max_rounds=max_rounds)
    rng = Random(11)
    while not match.is_over:
        assert not match.winners and (max_rounds is None or len(match.results) < max_rounds)
        seat = match.to_move
        assert seat is not None
        match.apply(match.legal(seat).random(rng))
        if match.is_over and rng.random() < 0.5:
            match.undo()
            assert not match.is_over
            match = match.copy()
            seat = match.to_move
            assert seat is not None
            match.apply(match.legal(seat).random(rng))
    assert match.to_move is None
    assert match.winners or len(match.results) == max_rounds
    with pytest.raises(ActionError):
        match.apply("0 pass")
