"""The learned player's model files, its trainer and its training data.

A model file reads back as it was saved and is refused, in one clear line, where it is
damaged or fits other rules; every option of a training sample is valued against the
heuristic's choice in the real deal, and the same seed gives the same samples.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from learned_helpers import constant, stump, tractor_model
from script_helpers import ROOT, Ran, load_script, run_main
from shengji.game.presets import preset
from shengji.players.features import (
    BURY_FEATURES,
    FEATURES,
    FOLLOW_FEATURES,
    LEAD_FEATURES,
    columns,
)
from shengji.players.learned import (
    PlayModel,
    model_table,
)
from shengji.players.training import Sample, collect

TRAINER = ROOT / "scripts" / "train_learned.py"


# -- model files ------------------------------------------------------------------------


def test_a_model_serves_the_tables_it_was_made_for_and_reads_them_back(tmp_path: Path
                                                                         ) -> None:
    """A model trained at one table may serve others (``also``: Finding Friends at every
    size); it fits exactly those, keeps them through other margins and its file."""
    fluid = [preset("finding-friends", players=n) for n in (5, 6, 8, 10)]
    also = tuple(model_table(r) for r in fluid[1:])
    model = PlayModel("friends", constant(columns("lead", True), 0.0),
                      constant(columns("follow", True), 0.0), 5, 2, "fluid", also=also)
    assert model.tables == ((5, 2, "fluid"), *also) and model.tables[1] == (6, 2, "fluid")
    assert all(model.fits(r) for r in fluid)
    assert not model.fits(preset("finding-friends", players=7, decks=3))  # not one of them
    assert not model.fits(preset("tractor")) and not model.fits(preset("tractor-6"))
    model.save(tmp_path / "f.json.gz")
    for again in (PlayModel.load(tmp_path / "f.json.gz"), model.with_margins(0.1, 0.1),
                  model.without_bury()):
        assert again.tables == model.tables
    assert "also" not in tractor_model().to_data()  # (one table: files as before)
    with pytest.raises(ValueError, match="also must list tables"):
        PlayModel.from_data({**model.to_data(), "also": [[5, "two", "fluid"]]})
    with pytest.raises(ValueError, match="reads other features"):  # rows without the friends'
        PlayModel("friends", constant(LEAD_FEATURES, 0.0), constant(FOLLOW_FEATURES, 0.0),
                  5, 2, "fluid")


def test_a_model_file_reads_back_and_a_wrong_one_is_refused(tmp_path: Path) -> None:
    model = tractor_model(follow=stump(FOLLOW_FEATURES, "points", 4.0, -1.0, 0.5),
                          margins=(0.07, 0.02))
    for name in ("m.json", "m.json.gz"):
        model.save(tmp_path / name)
        again = PlayModel.load(tmp_path / name)
        assert again.to_data() == model.to_data()
        assert (again.lead_margin, again.follow_margin) == (0.07, 0.02)
    data = model.to_data()
    older = PlayModel.from_data({k: v for k, v in data.items() if "margin" not in k})
    assert older.lead_margin == older.follow_margin == 0.0  # (files before margins: none)
    with pytest.raises(ValueError, match="margins numbers"):
        PlayModel.from_data({**data, "follow_margin": "big"})
    with pytest.raises(ValueError, match="not a play model"):
        PlayModel.from_data({**data, "format": "other"})
    for table in ({"players": True}, {"players": -4}, {"decks": 0},
                  {"partnership": "bogus"}):
        with pytest.raises(ValueError, match="no table of the rules"):
            PlayModel.from_data({**data, **table})
    with pytest.raises(ValueError, match="not a play model"):
        PlayModel.from_data({k: v for k, v in data.items() if k != "lead"})
    renamed = {**data, "follow": {**model.follow.to_data(), "features": ["x"] * len(
        FOLLOW_FEATURES)}}
    with pytest.raises(ValueError, match="other features"):
        PlayModel.from_data(renamed)
    with_kitty = model.with_margins(0.07, 0.02, 0.05)
    assert with_kitty.bury is None and with_kitty.bury_margin == 0.05
    kitty = tractor_model(bury=stump(BURY_FEATURES, "voids", 0.5, 0.0, 0.5), bury_margin=0.04)
    kitty.save(tmp_path / "k.json.gz")
    again = PlayModel.load(tmp_path / "k.json.gz")
    assert again.to_data() == kitty.to_data() and again.bury_margin == 0.04
    assert again.bury is not None and "kitty margin 0.04" in repr(again)
    assert again.with_margins(0.1, 0.1).bury_margin == 0.04  # (kept unless given)
    assert again.without_bury().bury is None and "bury" not in again.without_bury().to_data()
    with pytest.raises(ValueError, match="tables"):
        PlayModel.from_data({**kitty.to_data(), "bury": [1]})
    with pytest.raises(ValueError, match=r"margin 1\.5"):
        PlayModel.from_data({**kitty.to_data(), "bury_margin": 1.5})
    wrong = {**kitty.to_data(), "bury": constant(("x",), 0.0).to_data()}
    with pytest.raises(ValueError, match="other features"):
        PlayModel.from_data(wrong)
    (tmp_path / "bad.json.gz").write_bytes(gzip.compress(b"[1, 2]"))
    with pytest.raises(ValueError, match="not a play model"):
        PlayModel.load(tmp_path / "bad.json.gz")
    (tmp_path / "bad.json.gz").write_bytes(gzip.compress(b"\xff\xfe garbage"))
    with pytest.raises(ValueError, match=r"not a model file \(its gzip data is not UTF-8"):
        PlayModel.load(tmp_path / "bad.json.gz")


def test_a_model_is_saved_atomically(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                      ) -> None:
    # a save that fails before its new file is complete leaves the old file whole
    path = tmp_path / "m.json.gz"
    tractor_model().save(path)
    before = path.read_bytes()

    def failing_fsync(fd: int) -> None:
        raise OSError("disk full")

    monkeypatch.setattr("os.fsync", failing_fsync)
    with pytest.raises(OSError, match="disk full"):
        tractor_model(follow=stump(FOLLOW_FEATURES, "points", 4.0, -1.0, 0.5)).save(path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["m.json.gz"]  # no stray file


def trainer(capsys: pytest.CaptureFixture[str], *argv: str) -> Ran:
    """Run ``scripts/train_learned.py``'s ``main`` on ``argv`` in this process."""
    pytest.importorskip("numpy")  # (the script's own import: pip install -e ".[train]")
    return run_main(capsys, load_script(TRAINER), *argv)


@pytest.mark.slow
def test_the_trainer_refuses_a_bad_model_file_or_margin(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json.gz"
    bad.write_bytes(b"not gzip, not json")
    out = trainer(capsys, "collect", "--model", str(bad), "--out", str(tmp_path / "x.npz"))
    assert out.returncode == 2 and "--model" in out.stderr and "Traceback" not in out.stderr
    assert not (tmp_path / "x.npz").exists()
    out = trainer(capsys, "fit", str(tmp_path / "x.npz"), "--out", str(tmp_path / "m.json"),
                  "--lead-margin", "1.5")
    assert out.returncode == 2 and "--lead-margin" in out.stderr
    assert not (tmp_path / "m.json").exists()
    out = trainer(capsys, "fit", str(tmp_path / "x.npz"), "--out", str(tmp_path / "m.json"),
                  "--bury-margin", "-0.1")
    assert out.returncode == 2 and "--bury-margin" in out.stderr and "-0.1" in out.stderr
    assert not (tmp_path / "m.json").exists()
    out = trainer(capsys, "collect", "--address", "auto", "--out", str(tmp_path / "x.npz"))
    assert out.returncode == 2 and "--address is for --backend ray" in out.stderr
    for kinds in ("bid", "lead,kitty", ","):
        out = trainer(capsys, "collect", "--kinds", kinds, "--out", str(tmp_path / "x.npz"))
        assert out.returncode == 2 and "--kinds" in out.stderr and "lead, follow, bury" in (
            out.stderr) and "Traceback" not in out.stderr
        assert not (tmp_path / "x.npz").exists()


# -- training data --------------------------------------------------------------------


@pytest.fixture(scope="module")
def one_round() -> list[Sample]:
    """The samples of one tractor round (seed 4) of heuristic players, every kind valued
    (collected once for the tests below; they only read them)."""
    return list(collect(preset("tractor"), 4, range(1)))


@pytest.mark.slow
def test_training_samples_value_every_option_against_the_heuristics_choice(
        one_round: list[Sample]) -> None:
    rules = preset("tractor")
    samples = one_round
    assert len(samples) > 50 and {s.kind for s in samples} == {"lead", "follow", "bury"}
    for sample in samples:
        width = len(FEATURES[sample.kind])
        assert len(sample.rows) == len(sample.gains) >= 1
        assert all(len(r) == width for r in sample.rows)
    assert any(g != 0 for s in samples for g in s.gains)
    again = list(collect(rules, 4, range(1)))
    assert [(s.kind, s.rows, s.gains) for s in again] == [
        (s.kind, s.rows, s.gains) for s in samples]


@pytest.mark.slow
def test_samples_of_one_kind_are_those_of_that_kind_when_both_are_collected(
        one_round: list[Sample]) -> None:
    rules = preset("tractor")
    both = one_round
    for kind in ("lead", "follow"):
        alone = list(collect(rules, 4, range(1), kinds=(kind,)))
        assert alone and {s.kind for s in alone} == {kind}
        assert [(s.rows, s.gains) for s in alone] == [
            (s.rows, s.gains) for s in both if s.kind == kind]
    with pytest.raises(ValueError, match=r"no kind of decision.*lead, follow, bury"):
        next(collect(rules, 4, range(1), kinds=("bid",)))


@pytest.mark.slow
def test_the_trainer_keeps_a_models_forest_only_where_asked_and_where_it_fits(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Data of leads alone is fitted only with ``--keep`` naming a model whose follow
    forest reads this version's follow features."""
    np = pytest.importorskip("numpy")
    data = tmp_path / "leads.npz"
    np.savez_compressed(data, info=json.dumps({"preset": "tractor", "table": 4}),
                        lead_x=np.zeros((300, len(LEAD_FEATURES)), np.float32),
                        lead_y=np.linspace(-1, 1, 300, dtype=np.float32),
                        follow_x=np.zeros((0, len(FOLLOW_FEATURES)), np.float32),
                        follow_y=np.zeros(0, np.float32))
    out_file = tmp_path / "m.json"

    def fit(*extra: str) -> Ran:
        return trainer(capsys, "fit", str(data), "--out", str(out_file), "--trees", "2",
                       *extra)

    out = fit()
    assert out.returncode == 2 and "no follow rows" in out.stderr and "--keep" in out.stderr
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"follow": constant(("x",), 0.0).to_data()}))
    out = fit("--keep", str(other))
    assert out.returncode == 2 and "other features" in out.stderr
    assert "Traceback" not in out.stderr and not out_file.exists()
    pytest.importorskip("sklearn")
    kept = tmp_path / "kept.json"
    tractor_model(follow=stump(FOLLOW_FEATURES, "points", 4.0, -1.0, 0.5)).save(kept)
    out = fit("--keep", str(kept))
    assert out.returncode == 0, out.stderr
    model = PlayModel.load(out_file)
    assert model.follow.to_data() == PlayModel.load(kept).follow.to_data()
    assert model.info["kept"] == {"file": str(kept), "info": {}}
    assert model.tables == ((4, 2, "fixed"),)
    # other tables the model serves: those of the data's preset at these sizes
    out = fit("--keep", str(kept), "--also-players", "8,6")
    assert out.returncode == 0, out.stderr
    assert PlayModel.load(out_file).tables == (
        (4, 2, "fixed"), model_table(preset("tractor", players=6)),
        model_table(preset("tractor", players=8)))
    out_file.unlink()
    for bad, said in (("5", "need an even number of players"),
                      ("six", "not numbers of players")):
        out = fit("--keep", str(kept), "--also-players", bad)
        assert out.returncode == 2 and said in out.stderr and not out_file.exists()


def test_bury_samples_value_each_bury_against_the_heuristics() -> None:
    rules = preset("tractor")
    samples = list(collect(rules, 5, range(3), kinds=("bury",)))
    assert len(samples) == 3 and {s.kind for s in samples} == {"bury"}
    for sample in samples:
        assert sample.gains[0] == 0.0 and len(sample.gains) == len(sample.rows) >= 2
        assert all(len(r) == len(BURY_FEATURES) for r in sample.rows)
    assert any(g != 0 for s in samples for g in s.gains)


@pytest.mark.slow
def test_with_a_model_only_its_side_learns_and_plays_it(one_round: list[Sample]) -> None:
    rules = preset("tractor")
    model = tractor_model(follow=stump(FOLLOW_FEATURES, "points", 4.0, -1.0, 0.5))
    samples = list(collect(rules, 4, range(1), model))
    plain = one_round
    assert 0 < len(samples) < len(plain)
