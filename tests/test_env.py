"""The PettingZoo environment: API, seeds, exact action masks, hidden information, rewards."""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import islice

import pytest

pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

import numpy as np
from pettingzoo.test import api_test, seed_test

from shengji.engine.cards import ALL_CARDS, Card, Rank, Suit
from shengji.engine.friends import FriendCall
from shengji.engine.rules import Rules
from shengji.env import Encoder, Game, env, resolve_rules
from shengji.env.core import DONE, PASS
from shengji.env.selection import BurySelector, ExposeSelector
from shengji.game.actions import Bid, Call, Play, Withdraw
from shengji.game.bury import bury_options
from shengji.game.deal import Deal, DealError, pack_counts
from shengji.game.phase import Phase
from shengji.game.presets import PRESETS, preset
from shengji.game.round import Round

PRESET_NAMES = sorted(PRESETS)
CAP = 3_000  # brute force only where the legal set has at most this many actions


def random_walk(game: Game, rng: random.Random, steps: int) -> None:
    """Random allowed ids; every decision must allow something."""
    for _ in range(steps):
        if game.over:
            return
        ids = game.allowed()
        assert ids, (game.decision, game.round)
        game.step(rng.choice(ids))


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_api(name: str) -> None:
    api_test(env(name), num_cycles=300)


@pytest.mark.parametrize("name", ["tractor", "finding-friends", "hundred"])
def test_seeds(name: str) -> None:
    seed_test(lambda: env(name), num_cycles=300)


@pytest.mark.parametrize("name", ["tractor", "da-bai-fen"])
def test_api_and_seeds_with_turns_by_hand(name: str) -> None:
    api_test(env(name, turns="hand"), num_cycles=300)
    seed_test(lambda: env(name, turns="hand"), num_cycles=300)


def legal_multisets(game: Game) -> list[tuple[int, ...]] | None:
    """Every legal action of the decision as a sorted tuple of card ids (``None`` if there
    are more than CAP of them)."""
    d = game.decision
    assert d is not None
    kinds = {"bid-window": Bid, "bid": Bid, "overbid": Bid, "lead": Play, "follow": Play}
    wanted = kinds[d.kind]
    found = [tuple(sorted(int(c) for c in a.cards)) for a in islice(iter(d.legal), CAP + 1)
             if isinstance(a, wanted)]
    return None if len(found) > CAP else found


def check_selection(game: Game, legal: list[tuple[int, ...]], chosen: list[int]) -> None:
    """The mask after ``chosen`` is exactly what brute force over the legal set says."""
    d = game.decision
    assert d is not None and d.selector is not None
    trial = d.selector.clone()
    for card in chosen:
        trial.add(ALL_CARDS[card])
    have = {c: chosen.count(c) for c in chosen}
    supersets = [a for a in legal if all(a.count(c) >= n for c, n in have.items())]
    expected = {c for a in supersets for c in set(a) if a.count(c) > have.get(c, 0)}
    assert {int(c) for c in trial.addable()} == expected, (d.kind, chosen, game.round)
    assert trial.complete() == (tuple(sorted(chosen)) in legal), (d.kind, chosen)


VARIANTS = {
    "no-throws": lambda: preset("da-bai-fen", throws=False),
    "unmixed-throws": lambda: preset("tractor", throw_mixed=False),
    "protect": lambda: preset("tractor", tuple_follow="protect"),
    "longest": lambda: preset("tractor-6", tractor_follow="longest"),
    "overbid": lambda: preset("tractor", kitty_overbid=True, bid_reinforce_equal=True),
    "bombs": lambda: preset("tractor-6", bombs=2),
    "bombs-follow-suit": lambda: preset("tractor", bombs=2, bomb_follow_suit=True),
    "rainbow": lambda: preset("da-bai-fen", rainbow=3),
    "rainbow-throws": lambda: preset("da-bai-fen", rainbow=2, rainbow_throws=True),
    "breakdown": lambda: preset("tractor-6", tuple_follow="breakdown"),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", PRESET_NAMES + sorted(VARIANTS))
def test_masks_exact_against_brute_force(name: str) -> None:
    """At random positions: every legal action is reachable card by card in any order, the
    mask after every prefix is exactly the cards some legal action still holds, and every
    masked-in selection ends in an action the engine accepts."""
    rng = random.Random(name)
    rules = VARIANTS[name]() if name in VARIANTS else resolve_rules(name)
    game = Game(rules, rounds=2)
    checked = {"bid-window": 0, "bid": 0, "overbid": 0, "lead": 0, "follow": 0}
    for _ in range(40):
        if checked["lead"] >= 20 and checked["follow"] >= 20:
            break
        game.reset(rng.getrandbits(32))
        while not game.over:
            d = game.decision
            assert d is not None
            if d.kind in checked and not d.started and rng.random() < 0.15:
                legal = legal_multisets(game)
                if legal is not None:
                    checked[d.kind] += 1
                    check_selection(game, legal, [])
                    for action in rng.sample(legal, min(5, len(legal))):
                        order = list(action)
                        rng.shuffle(order)
                        for k in range(1, len(order) + 1):
                            check_selection(game, legal, order[:k])
                    # a random masked walk ends in a legal action
                    trial = d.selector.clone() if d.selector is not None else None
                    while trial is not None and trial.addable():
                        trial.add(rng.choice(trial.addable()))
                        if trial.complete() and rng.random() < 0.3:
                            break
                    if trial is not None and trial.cards:
                        assert tuple(sorted(int(c) for c in trial.cards)) in legal
            game.step(rng.choice(game.allowed()))
    assert checked["lead"] and checked["follow"], checked
    if name in ("tractor", "overbid"):
        assert checked["bid-window"] + checked["bid"] + checked["overbid"], checked


@pytest.mark.parametrize("seed", range(40))
def test_bury_and_expose_masks_against_brute_force(seed: int) -> None:
    """Small random hands: the bury mask (with and without a point limit) and the expose
    mask are exactly the cards some legal bury or exposure still holds."""
    rng = random.Random(seed)
    counts = [0] * 54
    for card in rng.sample([c for c in range(54) for _ in range(2)], rng.randint(3, 11)):
        counts[card] += 1
    size = rng.randint(1, 5)
    limit = rng.randint(0, size)
    legal_bury = [tuple(int(c) for c in b) for b in bury_options(counts, size, limit)]
    most = rng.randint(0, 4)
    legal_expose = [tuple(int(c) for c in e) for k in range(most + 1)
                    for e in bury_options(counts, k, k)]
    for selector, legal in ((BurySelector(counts, size, limit), legal_bury),
                            (ExposeSelector(counts, most), legal_expose)):
        for action in [(), *rng.sample(legal, min(6, len(legal)))]:
            order = list(action)
            rng.shuffle(order)
            for k in range(len(order) + 1):
                trial = selector.clone()
                for card in order[:k]:
                    trial.add(ALL_CARDS[card])
                have = {c: order[:k].count(c) for c in order[:k]}
                supersets = [a for a in legal if all(a.count(c) >= n for c, n in have.items())]
                expected = {c for a in supersets for c in set(a)
                            if a.count(c) > have.get(c, 0)}
                assert {int(c) for c in trial.addable()} == expected
                assert trial.complete() == (tuple(sorted(order[:k])) in legal)


PHASE_VARIANTS = {
    "overbid": lambda: preset("tractor", kitty_overbid=True, bid_withdraw=True),
    "colour-calls": lambda: preset("finding-friends", players=7, friend_calls="colour-rank"),
    "no-points-bury": lambda: preset("tractor", kitty_points_allowed=False),
    "refused-calls": lambda: preset("finding-friends", friend_call_all_held="refused"),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", PRESET_NAMES + sorted(PHASE_VARIANTS))
def test_random_episodes_every_phase(name: str) -> None:
    """Random masked ids play whole matches; the engine accepts every action built."""
    rng = random.Random(7)
    rules = PHASE_VARIANTS[name]() if name in PHASE_VARIANTS else resolve_rules(name)
    game = Game(rules, rounds=4)
    phases: set[str] = set()
    throws = 0
    for _ in range(3):
        game.reset(rng.getrandbits(32))
        while not game.over:
            d = game.decision
            assert d is not None
            phases.add(d.kind)
            before = len(game.round.history)
            rnd = game.round
            game.step(rng.choice(game.allowed()))
            if game.round is rnd and len(rnd.history) > before:
                last = rnd.history[-1]
                if isinstance(last, Play) and rnd.trick is not None and len(last.cards) > 1:
                    throws += 1
    assert {"lead", "follow", "bury"} <= phases
    expected = {
        "tractor": {"bid-window", "bid"}, "hundred": {"expose", "declare", "show"},
        "finding-friends": {"call"}, "overbid": {"overbid"}, "colour-calls": {"call"},
    }
    assert expected.get(name, set()) <= phases, phases
    assert throws


def test_bids_during_the_deal_and_withdraw() -> None:
    """Bid windows open during the deal; withdrawing is an id where the rules allow it."""
    rules = Rules(bid_withdraw=True)
    game = Game(rules)
    rng = random.Random(3)
    bids_in_deal = withdrawn = 0
    for _ in range(8):
        game.reset(rng.getrandbits(32))
        while not game.over:
            d = game.decision
            assert d is not None
            ids = game.allowed()
            if d.kind == "bid-window":
                assert game.round.phase == Phase.DEAL
                if 56 in ids and rng.random() < 0.5:
                    withdrawn += 1
                    game.step(56)
                    continue
                cards = [i for i in ids if i < 54]
                if cards and rng.random() < 0.5:
                    bids_in_deal += 1
                    game.step(cards[0])
                    continue
            game.step(rng.choice(ids))
    assert bids_in_deal and withdrawn


@pytest.mark.slow
@pytest.mark.parametrize("name", ["tractor", "finding-friends", "da-bai-fen", "overbid"])
def test_bid_windows_remembered_as_the_engine_answers(name: str) -> None:
    """Whether a seat's hand can bid during the deal (which opens its bid window with
    ``turns="hand"``) is remembered between draws and bids; asked at random moments for
    random seats, it is always what the round's legal actions say, and the public answer
    that opens the windows by default is yes whenever the hand can bid."""
    rng = random.Random(name)
    rules = PHASE_VARIANTS[name]() if name in PHASE_VARIANTS else resolve_rules(name)
    game = Game(rules, rounds=2, turns="hand")
    asked = answered_yes = 0
    while asked < 400:
        game.reset(rng.getrandbits(32))
        while not game.over:
            rnd = game.round
            if rnd.phase == Phase.DEAL:
                for seat in rng.sample(range(rules.players), 2):
                    engine = any(isinstance(a, Bid | Withdraw) for a in rnd.legal(seat))
                    assert game._can_bid(rnd, seat) == engine, (name, seat)
                    assert game.may_bid(rnd, seat) or not engine, (name, seat)
                    asked += 1
                    answered_yes += engine
            game.step(rng.choice(game.allowed()))
    assert answered_yes, name


def test_friend_calls_built_by_ordinal_and_card() -> None:
    rules = resolve_rules("finding-friends")
    game = Game(rules)
    rng = random.Random(5)
    calls = 0
    for _ in range(5):
        game.reset(rng.getrandbits(32))
        while not game.over:
            d = game.decision
            assert d is not None
            if d.kind == "call":
                ordinals = game.allowed()
                assert all(63 <= i < 63 + 2 * rules.decks for i in ordinals)
                game.step(ordinals[0])
                cards = game.allowed()
                assert cards and all(i < 54 for i in cards)
                # trump cards may not be called under these rules
                trump = game.round.trump
                assert trump is not None
                assert not any(trump.is_trump(ALL_CARDS[i]) for i in cards)
                calls += 1
            game.step(rng.choice(game.allowed()))
    assert calls


@pytest.mark.parametrize("name", ["finding-friends", "colour-calls", "refused-calls"])
def test_friend_call_ids_are_the_engines_legal_calls(name: str) -> None:
    """The single calls the ids allow are exactly those the round's legal set accepts
    (each repeated as the whole Call), in every call decision met."""
    rng = random.Random(name)
    rules = PHASE_VARIANTS[name]() if name in PHASE_VARIANTS else resolve_rules(name)
    game = Game(rules)
    met = 0
    while met < 6:
        game.reset(rng.getrandbits(32))
        while not game.over:
            d = game.decision
            assert d is not None
            if d.kind == "call" and not d.started:
                met += 1
                legal = game.round.legal(d.seat)
                want = rules.friend_count
                if rules.friend_calls == "ordinal":
                    every = [FriendCall(k, card=c) for c in ALL_CARDS
                             for k in range(1, rules.decks + 1)]
                else:
                    every = [FriendCall(k, colour=colour, rank=rank)
                             for colour in ("black", "red") for rank in Rank
                             for k in range(1, 2 * rules.decks + 1)]
                pool = sorted(d.valid_calls, key=str)
                # each candidate with other calls the ids allow (the calls of a set differ)
                accepted = {c for c in every if legal.reason(Call(d.seat, (
                    c, *[o for o in pool if o != c][:want - 1]))) is None}
                assert d.valid_calls == accepted, name
            game.step(rng.choice(game.allowed()))


def test_episodes_that_never_end_are_refused() -> None:
    with pytest.raises(ValueError, match="never ends: give rounds"):
        Game(preset("tractor", after_end="wrap"), rounds=None)
    with pytest.raises(ValueError, match="rounds must be at least 1"):
        Game(preset("tractor"), rounds=0)


def test_whole_match_episode() -> None:
    game = Game(preset("tractor", end_rank="3"), rounds=None)
    game.reset(5)
    rng = random.Random(5)
    while not game.over:
        game.step(rng.choice(game.allowed()))
    assert game.match is not None and game.match.winners


def test_illegal_id_is_refused_and_changes_nothing() -> None:
    game = Game(resolve_rules("tractor"))
    game.reset(1)
    ids = game.allowed()
    bad = next(i for i in range(game.layout.size) if i not in ids)
    version = game.version
    with pytest.raises(ValueError, match="not allowed now"):
        game.step(bad)
    assert game.version == version and game.allowed() == ids


@pytest.mark.parametrize("bad", [3.9, "55", True, None, np.float32(2.0)])
def test_an_id_must_be_an_integer(bad: object) -> None:
    game = Game(resolve_rules("tractor"))
    game.reset(1)
    ids, version = game.allowed(), game.version
    with pytest.raises(ValueError, match="an action id is an integer"):
        game.step(bad)  # type: ignore[arg-type]
    assert game.version == version and game.allowed() == ids
    game.step(np.int64(ids[0]))  # numpy's integers are ids
    assert game.version != version


def test_a_refused_id_keeps_the_reward_waiting_for_the_agent() -> None:
    """The levels of the first round wait in the next agent's reward; an id the mask
    refuses changes nothing, that reward included."""
    aec = env("tractor", rounds=2)
    aec.reset(seed=0)
    rng = random.Random(0)
    for agent in aec.agent_iter(100_000):
        observation, reward, *_ = aec.last()
        mask = observation["action_mask"]
        if reward:
            bad = int(np.flatnonzero(mask == 0)[0])
            with pytest.raises(ValueError, match="not allowed now"):
                aec.step(bad)
            assert aec.last()[1] == reward and aec.agent_selection == agent
            break
        aec.step(int(rng.choice(np.flatnonzero(mask))))
    else:
        pytest.fail("no reward came before the match ended")


def hidden_change(game: Game, seat: int, rng: random.Random) -> Callable[[], None] | None:
    """Swap a card between places ``seat`` cannot see; returns what swaps it back (None if
    there is nothing to swap)."""
    rnd = game.round
    others = [s for s in range(rnd.rules.players) if s != seat and len(rnd.hands[s])]
    places: list[str] = [f"hand{s}" for s in others]
    if rnd.kitty_owner != seat and rnd.kitty:
        places.append("kitty")
    if rnd.phase == Phase.DEAL and rnd.next_card < len(rnd.deck) - rnd.rules.kitty_size:
        places.append("deck")  # the cards still to deal
    if len(places) < 2:
        return None
    a, b = rng.sample(places, 2)

    undealt = range(rnd.next_card, len(rnd.deck) - rnd.rules.kitty_size)

    def take(place: str) -> tuple[int, ...]:
        if place == "kitty":
            return tuple(int(c) for c in rnd.kitty)
        if place == "deck":
            return tuple(int(rnd.deck[i]) for i in undealt)
        return tuple(int(c) for c in rnd.hands[int(place[4:])].cards())

    x, y = rng.choice(take(a)), rng.choice(take(b))
    if x == y:
        return None

    def swap(place: str, out: int, into: int) -> None:
        if place == "deck":
            deck = list(rnd.deck)
            deck[next(i for i in undealt if deck[i] == out)] = ALL_CARDS[into]
            rnd.deck = tuple(deck)
        elif place == "kitty":
            kitty = list(rnd.kitty)
            kitty[kitty.index(ALL_CARDS[out])] = ALL_CARDS[into]
            rnd.kitty = tuple(kitty)
        else:
            hand = rnd.hands[int(place[4:])]
            hand.remove([ALL_CARDS[out]])
            hand.add([ALL_CARDS[into]])

    swap(a, x, y)
    swap(b, y, x)

    def back() -> None:
        swap(a, y, x)
        swap(b, x, y)

    return back


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_observation_hides_other_hands_and_kitty(name: str) -> None:
    rng = random.Random(11)
    rules = resolve_rules(name)
    game = Game(rules, rounds=2)
    changed = 0
    for _ in range(30):
        if changed >= 30:
            break
        game.reset(rng.getrandbits(32))
        while not game.over:
            if rng.random() < 0.1:
                for seat in range(rules.players):
                    before = Encoder(rules).encode(game, seat)
                    back = hidden_change(game, seat, rng)
                    if back is not None:
                        changed += 1
                        after = Encoder(rules).encode(game, seat)
                        assert np.array_equal(before, after), (name, seat, game.round.phase)
                        back()
                        break
            game.step(rng.choice(game.allowed()))
    assert changed >= 30


@pytest.mark.parametrize("name", [*PRESET_NAMES, "colour-calls"])
def test_observation_kept_up_to_date_equals_a_fresh_encoding(name: str) -> None:
    """The encoder brings each seat's observation up to date action by action; at random
    moments (so seats fall several actions behind) it equals an encoding from scratch."""
    rng = random.Random(name)
    rules = PHASE_VARIANTS[name]() if name in PHASE_VARIANTS else resolve_rules(name)
    game = Game(rules, rounds=2)
    kept = Encoder(rules)
    compared = 0
    while compared < 150:
        game.reset(rng.getrandbits(32))
        while not game.over:
            if rng.random() < 0.3:
                seat = rng.randrange(rules.players)
                fresh = Encoder(rules).encode(game, seat)
                assert np.array_equal(kept.encode(game, seat), fresh), (name, seat,
                                                                        game.round.phase)
                compared += 1
            game.step(rng.choice(game.allowed()))


def test_observation_shows_what_the_seat_knows() -> None:
    rules = resolve_rules("tractor")
    game = Game(rules)
    game.reset(2)
    encoder = Encoder(rules)
    seat = game.seat
    assert seat is not None
    obs = encoder.encode(game, seat)
    at, _ = encoder.blocks["hand"]
    assert obs[at:at + 54].tolist() == game.round.hands[seat].counts
    assert obs.shape == (encoder.size,) and obs.dtype == np.float32 and obs.min() >= 0


def play_out(game: Game, rng: random.Random) -> list[float]:
    total = [0.0] * game.n
    while not game.over:
        game.step(rng.choice(game.allowed()))
        for s, r in enumerate(game.take_rewards()):
            total[s] += r
    for s, r in enumerate(game.take_rewards()):
        total[s] += r
    return total


def test_rewards_fixed_teams_share_and_oppose() -> None:
    rules = resolve_rules("tractor")
    rng = random.Random(4)
    for shaping in (0.0, 1.0):
        game = Game(rules, shaping=shaping)
        for _ in range(4):
            game.reset(rng.getrandbits(32))
            total = play_out(game, rng)
            result = game.match.results[-1] if game.match else None
            assert result is not None
            assert total[0] == pytest.approx(total[2]) and total[1] == pytest.approx(total[3])
            assert total[0] == pytest.approx(-total[1])
            change = result.change
            assert change is not None
            levels = change.declarers_up - change.opponents_up
            shaped = shaping * result.points / rules.target_points
            declarer = result.declarers[0]
            assert total[declarer] == pytest.approx(levels - shaped)


def test_finding_friends_rewards_at_the_round_end_only() -> None:
    rules = resolve_rules("finding-friends")
    rng = random.Random(8)
    game = Game(rules, shaping=0.5)
    game.reset(9)
    while not game.over:
        game.step(rng.choice(game.allowed()))
        rewards = game.take_rewards()
        if not game.over:
            assert not any(rewards)
        else:
            result = game.match.results[-1] if game.match else None
            assert result is not None and any(rewards)


# -- turns reveal no hidden card ---------------------------------------------------------


def deal_of(rules: Rules, seed: int) -> Deal:
    """The cards a round with ``seed`` deals, as a :class:`Deal` (hands in drawing order)."""
    rnd = Round(rules, seed=seed)
    n, size = rules.players, rules.hand_size
    first = rnd.first_drawer
    hands = tuple(tuple(rnd.deck[j * n + (s - first) % n] for j in range(size))
                  for s in range(n))
    return Deal(hands, tuple(rnd.deck[n * size:]), first)


def with_hands(deal: Deal, hands: dict[int, tuple[Card, ...]]) -> Deal:
    return Deal(tuple(hands.get(s, h) for s, h in enumerate(deal.hands)), deal.kitty,
                deal.first_drawer)


def public_trace(rules: Rules, deal: Deal, observer: int, turns: str
                 ) -> list[tuple[object, ...]]:
    """What ``observer`` receives, step by step, while the public information cannot
    differ between deals that differ only in cards it cannot see: the agent selected, its
    observation and mask, every agent's reward, infos and termination. The observer bids
    whenever it can (its own cards); the other seats pass whenever they may, expose nothing,
    and choose the lowest id where their choice stays hidden (a bury) or is the same for any
    hand (a declaration); the trace stops before another seat's friend call or play."""
    e = env(rules=rules, turns=turns)
    e.reset(seed=3, options={"deal": deal})
    me = e.possible_agents[observer]
    trace: list[tuple[object, ...]] = []
    while True:
        agent = e.agent_selection
        seen = e.observe(me)
        trace.append((agent, seen["observation"].tobytes(), seen["action_mask"].tobytes(),
                      dict(e.rewards), repr(e.infos), dict(e.terminations)))
        if e.terminations[agent]:
            return trace
        d = e.game.decision
        assert d is not None
        ids = e.game.allowed()
        if agent == me:
            cards = [i for i in ids if i < 54]
            choice = cards[0] if d.kind in ("bid-window", "bid") and cards else (
                DONE if DONE in ids else ids[0])
        elif d.kind in ("call", "lead", "follow"):
            return trace
        elif d.kind == "expose":
            choice = DONE  # nothing exposed
        else:
            choice = PASS if PASS in ids else ids[0]
        e.step(choice)


def without(deal: Deal, x: int, y: int, bad: Callable[[Card], bool]) -> Deal:
    """The deal with seat ``x``'s ``bad`` cards traded for other cards of seat ``y`` (so
    that ``x`` may show its hand for a redeal: no points, or no trumps)."""
    hx, hy = list(deal.hands[x]), list(deal.hands[y])
    plain = [i for i, c in enumerate(hy) if not bad(c)]
    for i, card in enumerate(hx):
        if bad(card) and plain:
            j = plain.pop()
            hx[i], hy[j] = hy[j], card
    return with_hands(deal, {x: tuple(hx), y: tuple(hy)})


def points(card: Card) -> bool:
    return bool(card.points)


def hundred_trumps(card: Card) -> bool:
    """A trump in the traces' Hundred rounds (level 2, the dealer declares clubs)."""
    return card.is_joker or card.rank == Rank.TWO or card.suit == Suit.CLUBS


TURN_CASES: dict[str, tuple[Callable[[], Rules], Callable[[Card], bool]]] = {
    "tractor": (lambda: resolve_rules("tractor"), points),
    "tractor-6": (lambda: resolve_rules("tractor-6"), points),
    "finding-friends": (lambda: resolve_rules("finding-friends"), points),
    "da-bai-fen": (lambda: resolve_rules("da-bai-fen"), points),
    "hundred": (lambda: resolve_rules("hundred"), hundred_trumps),
    "withdraw": (lambda: preset("tractor", bid_withdraw=True), points),
    "show-no-points": (lambda: preset("tractor", redeal_show="no-points"), points),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(TURN_CASES))
def test_turns_reveal_no_hidden_card(name: str) -> None:
    """Two deals that differ only in cards the observer cannot see (other seats' hands
    traded whole, so a different seat holds the bid cards or may show for a redeal, or
    cards shuffled between them) give the observer the same agents selected, the same
    observations and masks, rewards and infos, as long as the public information is the
    same. The engine's own order (``turns="hand"``) fails this on the same deals."""
    make, bad = TURN_CASES[name]
    rules = make()
    rng = random.Random(name)
    n = rules.players
    compared = leaks = 0
    for seed in range(12):
        deal = deal_of(rules, rng.getrandbits(32))
        observer = rng.randrange(n)
        x, y = rng.sample([s for s in range(n) if s != observer], 2)
        if rng.random() < 0.5:
            deal = without(deal, x, y, bad)
        traded = with_hands(deal, {x: deal.hands[y], y: deal.hands[x]})
        pool = [c for s in range(n) if s != observer for c in deal.hands[s]]
        rng.shuffle(pool)
        size = rules.hand_size
        others = [s for s in range(n) if s != observer]
        shuffled = with_hands(deal, {s: tuple(pool[k * size:(k + 1) * size])
                                     for k, s in enumerate(others)})
        base = public_trace(rules, deal, observer, "public")
        assert len(base) > 2 * n
        for other in (traded, shuffled):
            trace = public_trace(rules, other, observer, "public")
            assert trace == base, (name, seed, observer)
            compared += 1
            leaks += public_trace(rules, other, observer, "hand") != public_trace(
                rules, deal, observer, "hand")
    assert compared == 24
    assert leaks, name  # the engine's order tells the hands apart on these deals


def test_reset_from_a_deal_and_bad_options() -> None:
    """``reset(options={"deal": ...})`` deals those cards; a deal that does not fit the
    rules, or a value that is no deal, is refused and changes nothing; a bad ``turns`` is
    refused."""
    rules = resolve_rules("tractor")
    deal = deal_of(rules, 8)
    e = env(rules=rules)
    e.reset(seed=1, options={"deal": deal})
    drawer = deal.first_drawer
    assert e.game.round.hands[drawer].cards() == sorted(deal.hands[drawer][:1])
    state = e._seeds.getstate()
    short = Deal(deal.hands[:3], deal.kitty, 0)
    with pytest.raises(DealError, match="seat 4 players"):
        e.reset(options={"deal": short})
    with pytest.raises(TypeError, match="must be a shengji Deal"):
        e.reset(options={"deal": "2H 3H"})
    assert e._seeds.getstate() == state
    with pytest.raises(ValueError, match="turns must be 'public' or 'hand'"):
        env("tractor", turns="hidden")


@pytest.mark.slow
@pytest.mark.parametrize("name", [*PRESET_NAMES, "show-no-points"])
def test_public_turns_change_nothing_in_the_round(name: str) -> None:
    """The windows and show turns that ``turns="public"`` adds only ask: with seats that
    pass whenever they may (else the lowest id), both orders play the same actions in the
    round, the public one in more steps, and give the same rewards."""
    rules = TURN_CASES[name][0]() if name in TURN_CASES else resolve_rules(name)
    for seed in range(3):
        played = []
        for turns in ("public", "hand"):
            game = Game(rules, rounds=2, turns=turns)
            game.reset(seed)
            steps, total = 0, [0.0] * rules.players
            while not game.over:
                ids = game.allowed()
                game.step(PASS if PASS in ids else ids[0])
                steps += 1
                total = [t + r for t, r in zip(total, game.take_rewards(), strict=True)]
            assert game.match is not None and game.match.results
            played.append((steps, total, [str(a) for a in game.match.history]))
        (public, public_total, public_history), (hand, hand_total, hand_history) = played
        assert public_history == hand_history and public_total == hand_total
        assert public > hand


@pytest.mark.slow
@pytest.mark.parametrize("name", ["tractor", "finding-friends", "hundred", "overbid"])
def test_steps_of_a_selection_reveal_no_hidden_card(name: str) -> None:
    """Other seats see how many steps a seat takes. With ``turns="public"`` a selection
    ends by itself only where its size is public (a follow, a bury, an exposure of the
    most cards, a lead of the whole hand, a bid of as many copies as may be shown), else
    with ``done``, even where the hand could add no card: the steps are the cards plus
    one. With ``turns="hand"`` a lead or a bid that the hand cannot extend ends at once,
    which tells the others that it holds no other card of the suit (or copy of the card)."""
    rules = TURN_CASES[name][0]() if name in TURN_CASES else (
        PHASE_VARIANTS[name]() if name in PHASE_VARIANTS else resolve_rules(name))
    copies = pack_counts(rules)
    rng = random.Random(name)
    for turns in ("public", "hand"):
        game = Game(rules, rounds=2, turns=turns)
        told = checked = 0
        for _ in range(4):
            game.reset(rng.getrandbits(32))
            while not game.over:
                d = game.decision
                assert d is not None
                held, steps = len(game.round.hands[d.seat]), 0
                while game.decision is d:
                    game.step(rng.choice(game.allowed()))
                    steps += 1
                cards = d.selector.cards if d.selector is not None else []
                if not cards:
                    continue
                public = {"follow": True, "bury": True,
                          "expose": len(cards) == min(rules.expose, held),
                          "lead": len(cards) == held}.get(
                    d.kind, len(cards) >= min(rules.decks, copies[cards[0]]))
                checked += 1
                if turns == "public":
                    assert steps == len(cards) + (not public), (d.kind, cards, steps)
                else:
                    told += steps == len(cards) and not public
        assert checked > 100
        if turns == "hand":
            assert told, name
