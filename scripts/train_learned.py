"""Train the learned player's play model: collect positions, then fit its forests.

``collect`` plays rounds and values every labelled lead and follow option (``--kinds``:
those kinds of decision of ``lead``, ``follow`` and ``bury``) in the real deal
(:mod:`shengji.players.training`), on ``--workers`` local processes or on a Ray cluster
(``--backend ray [--address auto]``: the same rows in the same order), writing the rows and
gains to a ``.npz`` file;
``fit`` fits scikit-learn's ``HistGradientBoostingRegressor`` to them, one forest per kind
(a kind without rows takes the forest of the ``--keep`` model; a model may have no kitty
forest), and writes a model that :class:`~shengji.players.learned.PlayModel` reads
(``pip install -e ".[train]"``: numpy and scikit-learn). The shipped tractor model's play
forests are the first step of policy iteration: 16,000 rounds of heuristic players, every
seat learning (collected in 728 s on two cores with the compiled build, docs/experiments.md,
*The learned player*), first fitted with the defaults below (about 90 s; the margins 0.07
and 0.02 were chosen by duplicate deals, docs/experiments.md)::

    python3 scripts/train_learned.py collect --rounds 16000 --seed 1 --workers 2 --out step1.npz
    python3 scripts/train_learned.py fit step1.npz --out play.json.gz

Its kitty forest was fitted to the buries of 120,000 more heuristic rounds (298 s and
615 s to collect, 9 s to fit), keeping those play forests::

    python3 scripts/train_learned.py collect --rounds 40000 --seed 2 --kinds bury --out bury2.npz
    python3 scripts/train_learned.py collect --rounds 80000 --seed 3 --kinds bury --out bury3.npz
    python3 scripts/train_learned.py fit bury2.npz bury3.npz --keep play.json.gz \\
        --lead-margin 0.07 --follow-margin 0.02 --bury-margin 0.05 --out tractor-400.json.gz

The play forests were then fitted again to the same rows with 150 trees instead of 400, as
strong and faster to read (docs/experiments.md, *Smaller forests*; under a minute), keeping
that kitty forest::

    python3 scripts/train_learned.py fit step1.npz --keep tractor-400.json.gz --name tractor \\
        --trees 150 --rate 0.13 --lead-margin 0.07 --follow-margin 0.02 --bury-margin 0.05 \\
        --out tractor.json.gz

The shipped da-bai-fen model (4 players, 1 deck: Da Bai Fen and the Hundred) is the same
first step on 16,000 Da Bai Fen rounds, the kitty included (864 s to collect on two cores
with the compiled build: 759,482 lead, 1,256,536 follow and 80,789 bury rows; 92 s to fit),
with the tractor model's margins::

    python3 scripts/train_learned.py collect --preset da-bai-fen --rounds 16000 --seed 1 \\
        --workers 2 --kinds lead,follow,bury --out dbf1.npz
    python3 scripts/train_learned.py fit dbf1.npz --name da-bai-fen --lead-margin 0.07 \\
        --follow-margin 0.02 --bury-margin 0.05 --out da-bai-fen.json.gz

The shipped tractor-6 model is that first step on 2,500 six-player rounds (799 s; 43 s
to fit)::

    python3 scripts/train_learned.py collect --preset tractor-6 --rounds 2500 --seed 1 \\
        --workers 2 --kinds lead,follow,bury --out t6.npz
    python3 scripts/train_learned.py fit t6.npz --name tractor-6 --lead-margin 0.07 \\
        --follow-margin 0.02 --bury-margin 0.05 --out tractor-6.json.gz

The shipped finding-friends model is that first step on rounds of three table sizes
(6,250 rounds of 5 players, 5,000 of 6 and 3,000 of 8: 287, 239 and 285 s with the
compiled build; 1,000,282 lead, 2,426,268 follow and 77,198 bury rows, 100 s to fit), made
to serve the preset's other sizes too (7 and 9 to 12 players, ``--also-players``). Its
lead and follow rows end with the friends' columns (``FRIEND_FEATURES``: the seat's place,
the calls, the sides known), which gained most at 8 players (docs/experiments.md, *The
friends' columns*); the model before them was fitted to the same rounds' rows without
them, and the first model to 2.5 times fewer rounds (the first rounds of these); twice
these rounds played as these do (*A larger Finding Friends model*)::

    python3 scripts/train_learned.py collect --preset finding-friends --table 5 \\
        --rounds 6250 --seed 1 --workers 2 --kinds lead,follow,bury --out ff5.npz
    (the same with --table 6 --rounds 5000 --out ff6.npz, --table 8 --rounds 3000 --out ff8.npz)
    python3 scripts/train_learned.py fit ff5.npz ff6.npz ff8.npz --name finding-friends \\
        --also-players 7,9,10,11,12 --lead-margin 0.07 --follow-margin 0.02 \\
        --bury-margin 0.05 --out finding-friends.json.gz

A next step collects rounds played on by that model (``--model``: only the model's side
learns, and every option's round is finished with the model on that side), about 25
times slower, and fits a new model to them::

    python3 scripts/train_learned.py collect --rounds 4000 --seed 2 --workers 2 \\
        --model tractor.json.gz --out step2.npz
    python3 scripts/train_learned.py fit step2.npz --out step2.json.gz

Tried on 2026-11-29 with these commands (6,045 s to collect: 201,764 lead and 239,173
follow rows, a ninth of the first step's), that second step played worse than the first:
+0.290 ± 0.027 levels per deal against the heuristic over 1,000 duplicate deals, paired
−0.110 ± 0.033 against the shipped model. Run one fit at a time: two at once on two cores
oversubscribe scikit-learn's threads (a 13 s fit took over 10 minutes).

Three times the first step's rounds (``collect --rounds 48000 --seed 1``, whose first
16,000 rounds are the shipped model's: 4,234,758 lead and 6,601,574 follow rows in 6,044 s;
fitted with the defaults in 460 s) played no better either: with the shipped margins,
paired against the shipped model over 1,000 duplicate deals each, +0.024 ± 0.024 (seed
13), −0.009 ± 0.022 (seed 12) and −0.015 ± 0.023 (seed 14). The model is not short of
rows; what it can learn is bounded by its options and rows.

The second step on Da Bai Fen (2026-12-03; only the model's side learns, and one deck's
rounds cost about what the first step's do, for half the rows)::

    python3 scripts/train_learned.py collect --preset da-bai-fen --rounds 48000 --seed 2 \\
        --workers 2 --kinds lead,follow,bury --model da-bai-fen.json.gz --out dbf2.npz
    python3 scripts/train_learned.py fit dbf2.npz --name da-bai-fen --trees 150 --rate 0.13 \\
        --lead-margin 0.07 --follow-margin 0.02 --bury-margin 0.05 --out dbf2.json.gz

(2,307 s to collect beside other work: 1,226,460 lead, 1,787,462 follow and 121,371 bury
rows; 26 s to fit) played as the first step: paired against the shipped model over 1,000
duplicate deals of seed 13, −0.005 ± 0.024 in Da Bai Fen and −0.009 ± 0.023 in the Hundred.
So did Finding Friends' (2026-12-04: ``collect --preset finding-friends --table 5 --rounds
6250 --seed 2 --workers 2 --kinds lead,follow,bury --model finding-friends.json.gz``, every
seat playing the model, 1,485 s; fitted as the shipped model): −0.025 ± 0.016 at 5 players.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from datetime import date
from typing import Any

import numpy as np

from shengji.engine.rules import Partnership, Rules, RulesError
from shengji.game.presets import preset
from shengji.parallel import BACKENDS, BackendError, backend_problem, ordered_map
from shengji.players.features import FEATURES, columns
from shengji.players.forest import Forest
from shengji.players.learned import PlayModel, check_margins, model_table, read_model_file
from shengji.players.training import KINDS, collect_chunk


def _rules(args: argparse.Namespace) -> Rules:
    return preset(args.preset, **({"players": args.table} if args.table else {}))


def run_collect(args: argparse.Namespace) -> int:
    rules = _rules(args)
    chunks = ((rules, args.seed, args.model, tuple(args.kinds), i, min(i + 25, args.rounds))
              for i in range(0, args.rounds, 25))
    rows: dict[str, list[list[float]]] = {k: [] for k in KINDS}
    gains: dict[str, list[float]] = {k: [] for k in KINDS}
    start = time.time()
    try:
        for done, part in enumerate(ordered_map(collect_chunk, chunks, workers=args.workers,
                                                backend=args.backend,
                                                address=args.address), 1):
            for kind, sample_rows, sample_gains in part:
                rows[kind] += sample_rows
                gains[kind] += sample_gains
            print(f"\r{min(done * 25, args.rounds)}/{args.rounds} rounds, "
                  f"{time.time() - start:.0f} s", end="", file=sys.stderr, flush=True)
    except BackendError as error:
        print(f"\ntrain_learned.py collect: {error}", file=sys.stderr)
        return 2
    print(file=sys.stderr)
    info = {"preset": args.preset, "table": rules.players, "rounds": args.rounds,
            "seed": args.seed, "model": args.model or None, "kinds": args.kinds}
    arrays: dict[str, Any] = {}
    fluid = rules.partnership == Partnership.FLUID
    for kind in FEATURES:
        names = columns(kind, fluid)
        arrays[f"{kind}_x"] = np.array(rows[kind], np.float32).reshape(-1, len(names))
        arrays[f"{kind}_y"] = np.array(gains[kind], np.float32)
    np.savez_compressed(args.out, info=json.dumps(info), **arrays)
    counts = ", ".join(f"{len(gains[kind])} {kind}" for kind in KINDS)
    print(f"{args.out}: {counts} rows from {args.rounds} rounds in "
          f"{time.time() - start:.0f} s")
    return 0


def _forest(model: Any, features: Sequence[str]) -> Forest:
    """A fitted ``HistGradientBoostingRegressor`` as a :class:`Forest` (its trees' nodes
    laid end to end)."""
    roots: list[int] = []
    feature: list[int] = []
    threshold: list[float] = []
    left: list[int] = []
    right: list[int] = []
    value: list[float] = []
    for (tree,) in model._predictors:
        nodes = tree.nodes
        offset = len(feature)
        roots.append(offset)
        for node in nodes:
            leaf = bool(node["is_leaf"])
            feature.append(-1 if leaf else int(node["feature_idx"]))
            threshold.append(0.0 if leaf else float(node["num_threshold"]))
            left.append(0 if leaf else offset + int(node["left"]))
            right.append(0 if leaf else offset + int(node["right"]))
            value.append(float(node["value"]) if leaf else 0.0)
    base = float(np.ravel(model._baseline_prediction)[0])
    return Forest(features, base, roots, feature, threshold, left, right, value)


def model_data(path: str) -> dict[str, Any]:
    """The data of the model file at ``path`` (``ValueError`` if it is not one)."""
    data = read_model_file(path)
    if not isinstance(data, dict) or not isinstance(data.get("follow"), dict):
        raise ValueError("not a play model")
    return data


def kept_forest(data: dict[str, Any], kind: str, names: Sequence[str]) -> Forest | None:
    """The ``kind`` forest of a model's ``data`` (whose other forests may read other
    features; ``None`` if it has none of that kind), refused (``ValueError``) unless it
    reads ``names``."""
    table = data.get(kind)
    if table is None:
        return None
    if not isinstance(table, dict):
        raise ValueError(f"its {kind} forest is not a table")
    forest = Forest.from_data(table)
    if forest.features != tuple(names):
        raise ValueError(f"its {kind} forest reads other features than this version's")
    return forest


def run_fit(args: argparse.Namespace) -> int:
    data = [np.load(path) for path in args.data]
    infos = [json.loads(str(d["info"])) for d in data]
    first = infos[0]
    try:  # (before any fit: the tables the model serves)
        tables = [model_table(preset(i["preset"], players=i["table"])) for i in infos] + [
            model_table(preset(first["preset"], players=n)) for n in args.also_players]
    except RulesError as error:
        print(f"--also-players: {error}", file=sys.stderr)
        return 2
    forests: dict[str, Forest] = {}
    rows: dict[str, tuple[Any, Any]] = {}
    kept_data: dict[str, Any] = {}
    if args.keep:
        try:
            kept_data = model_data(args.keep)
        except (OSError, ValueError) as error:
            print(f"--keep {args.keep}: {error}", file=sys.stderr)
            return 2
    fluid = tables[0][2] == Partnership.FLUID.value
    for kind in FEATURES:
        names = columns(kind, fluid)
        found = [(d[f"{kind}_x"], d[f"{kind}_y"]) for d in data if f"{kind}_y" in d]
        if found and sum(len(y) for _, y in found):
            rows[kind] = (np.concatenate([x for x, _ in found]).astype(np.float64),
                          np.concatenate([y for _, y in found]).astype(np.float64))
            continue
        try:
            kept = kept_forest(kept_data, kind, names)
        except ValueError as error:
            print(f"--keep {args.keep}: {error}", file=sys.stderr)
            return 2
        if kept is not None:
            forests[kind] = kept
            print(f"{kind}: no rows, the forest of {args.keep} kept")
        elif kind != "bury":  # (a model may leave the kitty to the heuristic)
            print(f"no {kind} rows in the data: collect them, or --keep a model whose "
                  f"{kind} forest serves", file=sys.stderr)
            return 2
    from sklearn.ensemble import HistGradientBoostingRegressor

    for kind, (x, y) in rows.items():
        start = time.time()
        fitted = HistGradientBoostingRegressor(
            max_iter=args.trees, learning_rate=args.rate, max_leaf_nodes=args.leaves,
            min_samples_leaf=args.min_leaf, random_state=0).fit(x, y)
        forests[kind] = _forest(fitted, columns(kind, fluid))
        check = x[:200]
        drift = max(abs(forests[kind].predict(list(r)) - p)
                    for r, p in zip(check, fitted.predict(check), strict=True))
        print(f"{kind}: {len(y)} rows, {forests[kind]!r}, fitted in {time.time() - start:.0f} s"
              f" (largest difference from scikit-learn on 200 rows: {drift:.2e})")
    (players, decks, partnership), also = tables[0], tuple(sorted(set(tables) - {tables[0]}))
    kept_info = {"file": args.keep, "info": kept_data.get("info")} if args.keep else None
    info = {"data": infos, "kept": kept_info, "trees": args.trees,
            "leaves": args.leaves, "rate": args.rate, "min_leaf": args.min_leaf,
            "date": date.today().isoformat()}
    model = PlayModel(args.name or first["preset"], forests["lead"], forests["follow"],
                      players, decks, partnership, info,
                      lead_margin=args.lead_margin, follow_margin=args.follow_margin,
                      bury=forests.get("bury"), bury_margin=args.bury_margin, also=also)
    model.save(args.out)
    print(f"wrote {args.out}")
    return 0


def _counts(text: str) -> list[int]:
    """``--also-players``: comma-separated numbers of players."""
    try:
        return [int(n) for n in text.split(",") if n.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not numbers of players: {text!r}") from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    c = commands.add_parser("collect", help="play rounds and value every option")
    c.add_argument("--preset", default="tractor")
    c.add_argument("--table", type=int, default=0, help="players (default: the preset's)")
    c.add_argument("--rounds", type=int, default=1000)
    c.add_argument("--seed", type=int, default=1)
    c.add_argument("--workers", type=int, default=2,
                   help="processes, or with --backend ray the CPUs of a local Ray instance")
    c.add_argument("--backend", choices=BACKENDS, default="process",
                   help="local processes (default) or a Ray cluster: the same rows either way")
    c.add_argument("--address", default=None,
                   help="with --backend ray: the cluster to join, e.g. auto (default: a "
                        "local one); a --model file must lie at the same path on its machines")
    c.add_argument("--model", default="", help="the model the learning seats play (a file)")
    c.add_argument("--kinds", default="lead,follow",
                   help="the decisions to value, comma-separated: lead, follow, bury")
    c.add_argument("--out", required=True, help="the .npz file to write")
    f = commands.add_parser("fit", help="fit a model to collected rows")
    f.add_argument("data", nargs="+", help=".npz files written by collect")
    f.add_argument("--out", required=True, help="the model file (.json or .json.gz)")
    f.add_argument("--name", default="", help="the model's name (default: the preset)")
    f.add_argument("--keep", default="",
                   help="a model file whose forest serves a kind the data has no rows of")
    f.add_argument("--also-players", type=_counts, default=[], metavar="N,N...",
                   help="tables of the first data file's preset with these numbers of "
                        "players that the model serves too, without rows of them")
    f.add_argument("--trees", type=int, default=400)
    f.add_argument("--leaves", type=int, default=63)
    f.add_argument("--rate", type=float, default=0.05)
    f.add_argument("--min-leaf", type=int, default=200)
    f.add_argument("--lead-margin", type=float, default=0.0,
                   help="the gain a lead option must be expected to exceed (levels; 0 to <1)")
    f.add_argument("--follow-margin", type=float, default=0.0,
                   help="the same for follow options")
    f.add_argument("--bury-margin", type=float, default=0.0,
                   help="the same for buries (over the heuristic's bury's value)")
    args = parser.parse_args(argv)
    if args.command == "fit":
        try:
            check_margins(args.lead_margin, args.follow_margin, args.bury_margin)
        except ValueError as error:
            parser.error(f"--lead-margin/--follow-margin/--bury-margin: {error}")

    if args.command == "collect":
        if args.rounds < 1 or args.workers < 1:
            parser.error("--rounds and --workers must be at least 1")
        args.kinds = [k for k in args.kinds.split(",") if k]
        if not args.kinds or set(args.kinds) - set(KINDS):
            parser.error(f"--kinds: a comma-separated choice of {', '.join(KINDS)}")
        backend = backend_problem(args.backend, args.address)
        if backend:
            parser.error(backend)
        if args.model:
            try:
                PlayModel.load(args.model)
            except (OSError, ValueError) as error:
                parser.error(f"--model {args.model}: {error}")
        return run_collect(args)
    return run_fit(args)


if __name__ == "__main__":
    sys.exit(main())
