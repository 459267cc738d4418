"""The learned player's bids for trump once a dealer is set: the choices its bid model
compares, their rows, the player's use of the model, and their training samples.

In a match's first round the learned player bids at once for the dealership (tests in
test_learned.py); in every later round it waits or bids as the heuristic does unless its
model has a bid forest that values another choice above the heuristic's by the bid margin.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from flow_helpers import stacked
from script_helpers import ROOT, Ran, load_script, run_main
from shengji.engine.cards import parse_cards
from shengji.engine.rules import Rules
from shengji.game.actions import Bid, Draw, Pass
from shengji.game.legal import Legal
from shengji.game.phase import DEALER_BID_PHASES
from shengji.game.presets import preset
from shengji.game.round import Round
from shengji.game.view import SeatView
from shengji.players import HeuristicPlayer, LearnedPlayer
from shengji.players.features import BID_FEATURES, FOLLOW_FEATURES, LEAD_FEATURES, bid_rows
from shengji.players.forest import Forest
from shengji.players.learned import PlayModel
from shengji.players.options import bid_choices
from shengji.players.table import decide
from shengji.players.training import collect

TRAINER = ROOT / "scripts" / "train_learned.py"


def stump(name: str, at: float, low: float, high: float) -> Forest:
    """One split of a bid forest: ``low`` where feature ``name`` is at most ``at``, else
    ``high``."""
    return Forest(BID_FEATURES, 0.0, [0], [BID_FEATURES.index(name), -1, -1], [at, 0.0, 0.0],
                  [1, 0, 0], [2, 0, 0], [0.0, low, high])


def constant(features: tuple[str, ...], value: float) -> Forest:
    return Forest(features, value, [0], [-1], [0.0], [0], [0], [0.0])


def bid_model(bid: Forest | None, margin: float = 0.0) -> PlayModel:
    """A tractor model that never leaves the heuristic's leads and follows."""
    return PlayModel("test", constant(LEAD_FEATURES, -1.0), constant(FOLLOW_FEATURES, -1.0),
                     4, 2, "fixed", bid=bid, bid_margin=margin)


def bid_positions(rules: Rules, seeds: range, dealer: bool = True
                  ) -> Iterator[tuple[Round, SeatView, Legal]]:
    """Each chance to bid for trump in heuristic rounds of these seeds, with the dealer
    set (``dealer``) or not (:func:`chances`)."""
    for seed in seeds:
        yield from chances(Round(rules, seed=seed, track_undo=False,
                                 dealer=seed % rules.players if dealer else None))


def chances(rnd: Round, seat: int | None = None) -> Iterator[tuple[Round, SeatView, Legal]]:
    """Each chance of ``seat`` (of any seat if ``None``) to bid in ``rnd`` as heuristic
    players deal on: (the round, the seat's view, its legal actions, a bid among them)."""
    heuristic = HeuristicPlayer(0)
    while rnd.phase in DEALER_BID_PHASES:
        mover = rnd.to_move
        assert mover is not None
        legal = rnd.legal(mover)
        if seat in (None, mover) and any(isinstance(a, Bid) for a in legal):
            yield rnd, rnd.view(mover), legal
        rnd.apply(decide(rnd, mover, heuristic))


@pytest.mark.parametrize("name", ["tractor", "da-bai-fen", "finding-friends"])
def test_bid_choices_are_legal_and_distinct_and_rows_fit_the_features(name: str) -> None:
    """The heuristic's choice first, then waiting and every legal bid, each once; a row
    says whether it bids, whether it is the heuristic's, and what it shows."""
    rules = preset(name)
    found = 0
    for _, view, legal in bid_positions(rules, range(4)):
        default = HeuristicPlayer(1).act(view, legal)
        choices = bid_choices(legal, default)
        assert choices[0] == default and len(set(choices)) == len(choices)
        assert all(c in legal for c in choices)
        assert any(isinstance(c, Draw | Pass) for c in choices)
        assert {c for c in choices if isinstance(c, Bid)} == {
            a for a in legal if isinstance(a, Bid)}
        rows = bid_rows(view, choices, default)
        for choice, row in zip(choices, rows, strict=True):
            assert len(row) == len(BID_FEATURES)
            named = dict(zip(BID_FEATURES, row, strict=True))
            assert named["default"] == (choice == default)
            assert named["dealer_known"] == 1.0 and 0 < named["drawn"] <= 1
            if isinstance(choice, Bid):
                assert named["bid"] == 1 and named["size"] == len(choice.cards)
                assert named["rank_cards"] >= (0 if choice.cards[0].is_joker
                                               else len(choice.cards))
            else:
                assert named["bid"] == named["size"] == named["suit_cards"] == 0
        found += 1
    assert found >= 8


def test_choices_are_compared_only_where_the_heuristic_bids_or_waits() -> None:
    # seat 1 draws a lone 2S with the dealer set: it may draw on or bid it
    rnd = stacked(Rules(), {1: "2S"}, dealer=3)
    _, view, legal = next(chances(rnd, 1))
    bid = Bid(1, parse_cards("2S"))
    assert bid_choices(legal, Draw(1)) == [Draw(1), bid]
    assert bid_choices(legal, bid) == [bid, Draw(1)]
    assert bid_choices(legal, Pass(1)) == [Pass(1), Draw(1), bid]
    assert bid_choices(legal, object()) == []  # type: ignore[arg-type]
    draw, shown = bid_rows(view, [Draw(1), bid], Draw(1))
    assert dict(zip(BID_FEATURES, draw, strict=True))["default"] == 1
    named = dict(zip(BID_FEATURES, shown, strict=True))
    assert (named["size"], named["rank_cards"], named["suit_cards"], named["declaring"]) == (
        1, 1, 0, 1)  # (seat 1 is dealer 3's partner)


def test_a_learned_bid_follows_the_models_bid_forest_and_margin() -> None:
    """A bid forest that values bidding at +0.5 makes the player bid at every chance once
    a dealer is set (and as the heuristic where the margin is 0.5 or more, or without a
    bid forest); one that values waiting makes it wait; in a first round it still bids at
    once for the dealership."""
    rules = preset("tractor")
    eager = LearnedPlayer(1, model=bid_model(stump("bid", 0.5, 0.0, 0.5)))
    wary = LearnedPlayer(1, model=bid_model(stump("bid", 0.5, 0.0, 0.5), margin=0.5))
    patient = LearnedPlayer(1, model=bid_model(stump("bid", 0.5, 0.5, 0.0)))
    plain = LearnedPlayer(1, model=bid_model(None))
    changed = waited = 0
    for _, view, legal in bid_positions(rules, range(4)):
        heuristic = HeuristicPlayer(1).act(view, legal)
        assert plain.act(view, legal) == heuristic == wary.act(view, legal)
        chosen = eager.act(view, legal)
        assert isinstance(chosen, Bid) and chosen in legal
        changed += chosen != heuristic
        wait = patient.act(view, legal)
        assert isinstance(wait, Draw | Pass) and wait in legal
        waited += isinstance(heuristic, Bid)
    assert changed >= 3 and waited >= 1
    view, legal = next((v, g) for _, v, g in bid_positions(rules, range(1), dealer=False))
    assert patient.act(view, legal) == LearnedPlayer(1).act(view, legal)  # (the grab)
    assert isinstance(patient.act(view, legal), Bid)


def test_a_learned_bid_reads_only_the_seats_view() -> None:
    """At each chance to bid once a dealer is set, the learned player's choice is the same
    with the pack still to deal (which it cannot see) in another order."""
    player = LearnedPlayer(1, model=bid_model(stump("suit_cards", 3.5, -0.2, 0.4)))
    compared = 0
    for rnd, view, legal in bid_positions(Rules(), range(4)):
        changed = rnd.copy()
        rest = len(rnd.deck) - rnd.rules.kitty_size
        changed.deck = (rnd.deck[:rnd.next_card] + rnd.deck[rnd.next_card:rest][::-1]
                        + rnd.deck[rest:])
        if changed.deck == rnd.deck:
            continue
        mover = view.seat
        assert changed.view(mover) == view
        assert player.act(view, legal) == player.act(changed.view(mover),
                                                     changed.legal(mover))
        compared += 1
    assert compared >= 6


def test_bid_samples_value_each_choice_against_the_heuristics() -> None:
    """Bids are valued once a dealer is set (from the deal's start in rounds with their
    dealer set, else once a bid has taken the dealership); the heuristic's choice comes
    first, at gain 0; the samples are the same from the same seed."""
    rules = preset("da-bai-fen")
    samples = list(collect(rules, 5, range(3), kinds=("bid",), set_dealer=True))
    assert samples and {s.kind for s in samples} == {"bid"}
    for sample in samples:
        assert sample.gains[0] == 0.0 and len(sample.gains) == len(sample.rows) >= 2
        assert all(len(r) == len(BID_FEATURES) for r in sample.rows)
    assert any(g != 0 for s in samples for g in s.gains)
    again = list(collect(rules, 5, range(3), kinds=("bid",), set_dealer=True))
    assert [(s.rows, s.gains) for s in again] == [(s.rows, s.gains) for s in samples]
    first_rounds = list(collect(rules, 5, range(3), kinds=("bid",)))
    assert len(first_rounds) < len(samples)
    at = BID_FEATURES.index("dealer_known")
    assert all(row[at] == 1 for s in samples + first_rounds for row in s.rows)


def test_a_model_file_keeps_its_bid_forest_and_margin(tmp_path: Path) -> None:
    model = bid_model(stump("size", 1.5, 0.0, 0.2), margin=0.03)
    model.save(tmp_path / "b.json.gz")
    again = PlayModel.load(tmp_path / "b.json.gz")
    assert again.to_data() == model.to_data() and again.bid_margin == 0.03
    assert again.bid is not None and "bid margin 0.03" in repr(again)
    assert again.with_margins(0.1, 0.1).bid_margin == 0.03
    assert again.without_bury().bid is not None
    assert again.without_bid().bid is None and "bid" not in again.without_bid().to_data()
    assert "bid" not in bid_model(None).to_data()  # (files before bid forests: none)
    with pytest.raises(ValueError, match="tables"):
        PlayModel.from_data({**model.to_data(), "bid": [1]})
    with pytest.raises(ValueError, match=r"margin 1\.5"):
        PlayModel.from_data({**model.to_data(), "bid_margin": 1.5})
    with pytest.raises(ValueError, match="other features"):
        PlayModel.from_data({**model.to_data(), "bid": constant(("x",), 0.0).to_data()})


def trainer(capsys: pytest.CaptureFixture[str], *argv: str) -> Ran:
    """Run ``scripts/train_learned.py``'s ``main`` on ``argv`` in this process."""
    pytest.importorskip("numpy")  # (the script's own import: pip install -e ".[train]")
    return run_main(capsys, load_script(TRAINER), *argv)


def test_the_trainer_refuses_a_bid_margin_outside_zero_to_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = trainer(capsys, "fit", str(tmp_path / "x.npz"), "--out", str(tmp_path / "m.json"),
                  "--bid-margin", "1")
    assert out.returncode == 2 and "--bid-margin" in out.stderr
    assert "Traceback" not in out.stderr and not (tmp_path / "m.json").exists()


@pytest.mark.slow
def test_the_trainer_collects_bids_with_the_dealer_set_and_fits_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``collect --kinds bid --set-dealer`` writes bid rows; ``fit`` of them with
    ``--keep`` a model for the plays gives a model with a bid forest and margin."""
    pytest.importorskip("sklearn")
    data = tmp_path / "bids.npz"
    out = trainer(capsys, "collect", "--preset", "da-bai-fen", "--rounds", "30", "--workers",
                  "1", "--kinds", "bid", "--set-dealer", "--out", str(data))
    assert out.returncode == 0, out.stderr
    assert " bid rows from 30 rounds" in out.stdout and "0 bury" in out.stdout
    kept = tmp_path / "plays.json"
    PlayModel("test", constant(LEAD_FEATURES, -1.0), constant(FOLLOW_FEATURES, -1.0), 4, 1,
              "fixed").save(kept)
    model_file = tmp_path / "m.json"
    out = trainer(capsys, "fit", str(data), "--keep", str(kept), "--trees", "3",
                  "--min-leaf", "5", "--bid-margin", "0.04", "--out", str(model_file))
    assert out.returncode == 0, out.stderr
    model = PlayModel.load(model_file)
    assert model.bid is not None and model.bid.features == BID_FEATURES
    assert model.bid_margin == 0.04 and model.bury is None
    assert model.fits(preset("da-bai-fen"))
