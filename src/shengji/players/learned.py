"""The learned player: the heuristic's habits, with its leads and follows chosen by a
model learned from played-out positions.

At a lead or a follow the player lists the labelled options of
:mod:`shengji.players.options` (the top and low unit of each suit; the cheapest, the
richest and the cheapest, strongest and richest winning follows), describes each with
the row of :mod:`shengji.players.features` (what its view shows: the trick, its hand, the
cards it remembers, the points taken; in Finding Friends its place, the calls and the sides
known too) and asks a :class:`PlayModel` how much better than
the heuristic's own choice each would do. It plays the best option where the model
expects a gain above the model's *margin* for leads or for follows, else the heuristic's
choice. Where the model has a forest for the kitty, it buries likewise: it lists the
buries of :func:`~shengji.players.options.bury_options`, describes each by the hand it
keeps (:func:`~shengji.players.features.bury_rows`) and buries the one the model values
most, where that beats the heuristic's bury by the bury margin. In a first round whose
dealer is the first to bid (``first_dealer``), it bids at its first chance to become the
dealer (with ``grab=False`` it waits, as the heuristic does). Everything else (other bids,
friend calls, trump naming) it does as the heuristic does. The margins keep the player
from leaving a sound choice for a gain within the model's error (their values were chosen
by duplicate deals, docs/experiments.md).

A model is two or three forests of regression trees
(:class:`~shengji.players.forest.Forest`): one for leads, one for follows and maybe one
for the kitty, trained by ``scripts/train_learned.py`` on positions of
many rounds: at each, every option was played in the real deal and the round finished by
the players the model will play beside (the heuristic, or an earlier learned player, on
its own side; the heuristic on the other), and the model learned the gain over the
heuristic's choice from the rows (for the kitty, the heuristic's bury is a row too, of
gain 0, and the player compares each bury's value with its value). It therefore reads
only the seat's view, as any player does. The models that ship are listed in
:data:`MODELS`; a model serves rules with its numbers of players and decks and kind of
partnership (:meth:`PlayModel.fits`: the table it was trained for, and the tables it was
made to serve besides), and where none fits the player plays as the heuristic, but for
the first round's bid.
"""

from __future__ import annotations

import gzip
import io
import json
import zlib
from importlib import resources
from pathlib import Path
from typing import Final

from shengji.engine.bidding import takes_dealer
from shengji.engine.cards import Card
from shengji.engine.choices import Partnership
from shengji.engine.rules import Rules
from shengji.game.actions import Action, Bid, Bury, Play, made_play
from shengji.game.files import read_bytes, write_bytes_atomic, write_text_atomic
from shengji.game.legal import Legal
from shengji.game.phase import DEALER_BID_PHASES
from shengji.game.view import SeatView
from shengji.players.base import check_flag
from shengji.players.features import bury_rows, columns, option_rows
from shengji.players.forest import Forest
from shengji.players.heuristic import HeuristicPlayer, strongest_bid
from shengji.players.memory import Memory
from shengji.players.options import bury_choices, play_key

FORMAT: Final = "shengji-play-model"
"""The ``format`` field of a model file."""
Table = tuple[int, int, str]
"""A kind of table (:func:`model_table`): players, decks and kind of partnership."""

MODELS: Final[dict[str, tuple[Table, ...]]] = {
    "tractor": ((4, 2, "fixed"),), "da-bai-fen": ((4, 1, "fixed"),),
    "tractor-6": ((6, 3, "fixed"),),
    "finding-friends": ((5, 2, "fluid"), (6, 2, "fluid"), (7, 2, "fluid"), (8, 3, "fluid"),
                        (9, 3, "fluid"), (10, 3, "fluid"), (11, 3, "fluid"), (12, 4, "fluid"))}
"""The models that ship with the package (``players/models/NAME.json.gz``), each with the
tables it serves (:attr:`PlayModel.tables`; ``da-bai-fen``'s serves the Hundred too;
``finding-friends``'s, trained at 5, 6 and 8 players, the preset's every table size)."""
MODEL_FILE_LIMIT: Final = 32 << 20
"""The largest model read, in bytes, before and after decompression (each shipped model
is at most 3 MiB of JSON, 1 MiB compressed)."""


def model_table(rules: Rules) -> Table:
    """What a model is trained for and serves: the players, the decks and the kind of
    partnership of ``rules``."""
    return rules.players, rules.decks, rules.partnership.value


def check_margins(*margins: float) -> None:
    """Refuse (``ValueError``, saying which) margins that are not numbers from 0 up to 1
    (levels)."""
    for margin in margins:
        if not (isinstance(margin, float | int) and 0 <= margin < 1):
            raise ValueError(f"margin {margin!r} must be a number from 0 up to 1 (levels)")


def _inflated(raw: bytes, limit: int) -> bytes:
    """The decompressed ``raw`` gzip data, refused (``ValueError``) past ``limit`` bytes
    (inflated no further) or damaged."""
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(raw)) as file:
            data = file.read(limit + 1)
    except (OSError, EOFError, zlib.error) as error:
        raise ValueError(f"damaged gzip data: {error}") from None
    if len(data) > limit:
        raise ValueError(f"over the limit of {limit:,} bytes once decompressed")
    return data


def model_data(raw: bytes, limit: int = MODEL_FILE_LIMIT) -> object:
    """The JSON data of a model file's bytes (gzip-compressed or not), unchecked
    (:meth:`PlayModel.from_data` checks it); ``ValueError`` in one line where it is over
    ``limit`` bytes (decompressed), damaged, not UTF-8 JSON or nested too deep."""
    if len(raw) > limit:
        raise ValueError(f"over the limit of {limit:,} bytes")
    compressed = raw[:2] == b"\x1f\x8b"
    if compressed:
        raw = _inflated(raw, limit)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        what = "its gzip data is not UTF-8 JSON" if compressed else (
            "neither gzip data nor UTF-8 JSON")
        raise ValueError(f"not a model file ({what})") from None
    try:
        return json.loads(text)
    except RecursionError:  # json's parser recurses, a level per list or object
        raise ValueError("not a model file: lists or objects nested too deep") from None
    except ValueError as error:  # not JSON; a number of too many digits
        line = (str(error).splitlines() or ["not JSON"])[0]
        raise ValueError(f"not a model file: {line}") from None


def check_model(model: object) -> None:
    """A ``ValueError`` unless ``model`` is a :class:`PlayModel` or ``None``."""
    if model is not None and not isinstance(model, PlayModel):
        raise ValueError(f"model must be a PlayModel (PlayModel.load reads one) or None, "
                         f"got {model!r}")


def read_model_file(path: str | Path, limit: int = MODEL_FILE_LIMIT) -> object:
    """The JSON data of the model file at ``path`` (:func:`model_data`): a regular file
    only (a folder, a named pipe or a device is refused unread, never waited on), at most
    ``limit`` bytes (default :data:`MODEL_FILE_LIMIT`), compressed or not. ``OSError`` if
    it cannot be read, ``ValueError`` (one line) if it is not a model file."""
    return model_data(read_bytes(path, limit=limit), limit)


class PlayModel:
    """Forests that value lead and follow options over the heuristic's choice, for rules
    of ``players`` seats, ``decks`` decks and ``partnership`` (the table it was trained
    for, or the first of them) and the ``also`` tables (others it serves)."""

    def __init__(self, name: str, lead: Forest, follow: Forest, players: int, decks: int,
                 partnership: str, info: dict[str, object] | None = None, *,
                 lead_margin: float = 0.0, follow_margin: float = 0.0,
                 bury: Forest | None = None, bury_margin: float = 0.0,
                 also: tuple[Table, ...] = ()) -> None:
        fluid = partnership == Partnership.FLUID.value  # (the friends' columns: features)
        if lead.features != columns("lead", fluid) or follow.features != columns(
                "follow", fluid) or (bury is not None and bury.features != columns("bury", fluid)):
            raise ValueError(f"model {name!r} reads other features than this version's "
                             "(train it again with scripts/train_learned.py)")
        self.name = name
        self.lead = lead
        self.follow = follow
        self.bury = bury
        """The forest that values buries (``None``: the player buries as the heuristic)."""
        self.players = players
        self.decks = decks
        self.partnership = partnership
        self.tables: tuple[Table, ...] = tuple(dict.fromkeys(((players, decks, partnership),
                                                              *also)))
        """The tables the model serves (:func:`model_table`), its first table first."""
        self.info = info or {}
        """How the model was trained (command, positions, date), as written by the trainer."""
        try:
            check_margins(lead_margin, follow_margin, bury_margin)
        except ValueError as error:
            raise ValueError(f"model {name!r}: {error}") from None
        self.lead_margin = float(lead_margin)
        """What a lead option's predicted gain must exceed for the player to leave the
        heuristic's choice for it (levels; the predictions are taken less it)."""
        self.follow_margin = float(follow_margin)
        """The same for follow options."""
        self.bury_margin = float(bury_margin)
        """The same for buries (over the value of the heuristic's bury)."""

    def __repr__(self) -> str:
        kitty = f", kitty margin {self.bury_margin:g}" if self.bury is not None else ""
        return (f"PlayModel({self.name!r}, {self.players} players, {self.decks} decks, "
                f"{self.partnership}, margins {self.lead_margin:g}/{self.follow_margin:g}"
                f"{kitty})")

    def fits(self, rules: Rules) -> bool:
        """True if the model serves rules like these (their players, decks and kind of
        partnership, :func:`model_table`, are one of its :attr:`tables`)."""
        return model_table(rules) in self.tables

    def with_margins(self, lead: float, follow: float, bury: float | None = None
                     ) -> PlayModel:
        """The same forests with other margins (for leads, follows and, where given,
        buries)."""
        return PlayModel(self.name, self.lead, self.follow, self.players, self.decks,
                         self.partnership, self.info, lead_margin=lead, follow_margin=follow,
                         bury=self.bury, bury_margin=self.bury_margin if bury is None else bury,
                         also=self.tables[1:])

    def without_bury(self) -> PlayModel:
        """The same model without its kitty forest (burying as the heuristic)."""
        return PlayModel(self.name, self.lead, self.follow, self.players, self.decks,
                         self.partnership, self.info, lead_margin=self.lead_margin,
                         follow_margin=self.follow_margin, also=self.tables[1:])

    def to_data(self) -> dict[str, object]:
        """The model as JSON-ready data (:meth:`from_data` reads it back)."""
        data: dict[str, object] = {
            "format": FORMAT, "name": self.name, "players": self.players, "decks": self.decks,
            "partnership": self.partnership, "info": self.info,
            "lead_margin": self.lead_margin, "follow_margin": self.follow_margin,
            "lead": self.lead.to_data(), "follow": self.follow.to_data()}
        if self.bury is not None:
            data["bury"] = self.bury.to_data()
            data["bury_margin"] = self.bury_margin
        if len(self.tables) > 1:
            data["also"] = [list(table) for table in self.tables[1:]]
        return data

    @classmethod
    def from_data(cls, data: object) -> PlayModel:
        """Read a model written by :meth:`to_data` (``ValueError`` if it is not one)."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"not a play model (no format {FORMAT!r})")
        try:
            lead, follow = data["lead"], data["follow"]
            players, decks, info = data["players"], data["decks"], data.get("info", {})
            bury = data.get("bury")
            name, partnership = data["name"], data["partnership"]
            margins = (data.get("lead_margin", 0.0), data.get("follow_margin", 0.0),
                       data.get("bury_margin", 0.0))
            also = data.get("also", [])
            if not (isinstance(lead, dict) and isinstance(follow, dict) and isinstance(
                    players, int) and isinstance(decks, int) and isinstance(info, dict)
                    and isinstance(name, str) and isinstance(partnership, str)
                    and (bury is None or isinstance(bury, dict))
                    and all(isinstance(m, float | int) for m in margins)):
                raise TypeError("lead, follow, bury and info must be tables; name and "
                                "partnership strings; players, decks and margins numbers")
            if type(players) is not int or type(decks) is not int or players < 2 or (
                    decks < 1) or partnership not in {p.value for p in Partnership}:
                raise TypeError(f"a table of {players!r} players, {decks!r} decks and "
                                f"partnership {partnership!r} is no table of the rules")
            return cls(name, Forest.from_data(lead), Forest.from_data(follow),
                       players, decks, partnership, info,
                       lead_margin=margins[0], follow_margin=margins[1],
                       bury=Forest.from_data(bury) if bury is not None else None,
                       bury_margin=margins[2], also=_tables(also))
        except (KeyError, TypeError) as error:
            raise ValueError(f"not a play model: {error}") from None

    def save(self, path: str | Path) -> None:
        """Write the model to ``path`` atomically (gzip-compressed JSON where it ends in
        ``.gz``)."""
        text = json.dumps(self.to_data(), separators=(",", ":"))
        if Path(path).suffix == ".gz":
            write_bytes_atomic(path, gzip.compress(text.encode(), mtime=0))
        else:
            write_text_atomic(path, text)

    @classmethod
    def load(cls, path: str | Path) -> PlayModel:
        """Read a model file written by :meth:`save` (:func:`read_model_file`: ``OSError``
        if it cannot be read, a one-line ``ValueError`` if it is not a model)."""
        return cls.from_data(read_model_file(path))


def _tables(data: object) -> tuple[Table, ...]:
    """The ``also`` tables of a model file's data (``TypeError`` unless a list of
    [players, decks, partnership])."""
    if not isinstance(data, list) or not all(
            isinstance(t, list) and len(t) == 3 and isinstance(t[0], int)
            and isinstance(t[1], int) and isinstance(t[2], str) for t in data):
        raise TypeError("also must list tables of [players, decks, partnership]")
    return tuple((t[0], t[1], t[2]) for t in data)


_SHIPPED: Final[dict[str, PlayModel]] = {}


class ModelError(ValueError):
    """A model that ships with the package cannot be read (a damaged installation): one
    line naming the file and saying what to do."""


def _shipped_data(name: str) -> object:
    """The JSON data of shipped model ``name`` (:class:`ModelError` if unreadable)."""
    path = resources.files("shengji.players").joinpath(f"models/{name}.json.gz")
    try:
        return model_data(path.read_bytes())
    except (OSError, ValueError) as error:
        raise ModelError(f"the shipped model players/models/{name}.json.gz cannot be read "
                         f"({error}); reinstall shengji") from None


def shipped_model(name: str) -> PlayModel:
    """One of the :data:`MODELS` that ship with the package (read once; a
    :class:`ModelError` in one line where the installed file is damaged)."""
    if name not in MODELS:
        raise ValueError(f"no model {name!r}; the package has {', '.join(MODELS)}")
    model = _SHIPPED.get(name)
    if model is None:
        data = _shipped_data(name)
        try:
            model = _SHIPPED[name] = PlayModel.from_data(data)
        except ValueError as error:
            raise ModelError(f"the shipped model players/models/{name}.json.gz is not a "
                             f"model ({error}); reinstall shengji") from None
    return model


def check_shipped_models() -> list[str]:
    """What is wrong with the installed :data:`MODELS` files (empty if nothing): each is
    decompressed and parsed, not built (a server checks them once as it starts)."""
    problems = []
    for name in MODELS:
        try:
            _shipped_data(name)
        except ModelError as error:
            problems.append(str(error))
    return problems


def model_name(rules: Rules) -> str | None:
    """The name of the shipped model that fits ``rules``, if any (nothing is read)."""
    table = model_table(rules)
    return next((name for name, tables in MODELS.items() if table in tables), None)


def model_for(rules: Rules) -> PlayModel | None:
    """The shipped model that fits ``rules``, if any (only that one is read)."""
    name = model_name(rules)
    return None if name is None else shipped_model(name)


class LearnedPlayer(HeuristicPlayer):
    """The heuristic player with leads, follows and (where the model has a kitty forest)
    buries chosen by a :class:`PlayModel` (by default the shipped model that fits the
    round's rules; the heuristic's choice where none does), and, with ``grab``, the
    first round's bid for the dealership made at once."""

    def __init__(self, seed: int | None = None, *, model: PlayModel | None = None,
                 grab: bool = True) -> None:
        super().__init__(seed)
        check_model(model)
        check_flag("grab", grab)
        self.model = model
        self.grab = grab
        """Whether it bids at its first chance where that bid makes it the dealer."""
        self._rules: Rules | None = None
        self._fitted: PlayModel | None = None

    def __repr__(self) -> str:
        return f"LearnedPlayer({self.model.name!r})" if self.model else "LearnedPlayer()"

    def fitted(self, rules: Rules) -> PlayModel | None:
        """The model the player plays under ``rules`` (its own or the shipped one), or
        ``None`` where it does not fit them (the player then plays as the heuristic, but
        for the first round's bid)."""
        if rules is not self._rules:
            self._rules = rules
            chosen = self.model if self.model is not None else model_for(rules)
            self._fitted = chosen if chosen is not None and chosen.fits(rules) else None
        return self._fitted

    def _play(self, view: SeatView, legal: Legal) -> Action:
        valued = self.valued(view, legal)
        return valued[0][0] if valued else super()._play(view, legal)

    def bid(self, view: SeatView, legal: Legal) -> Action:
        """Where a bid would make this seat the first round's dealer (the rules'
        ``first_dealer``), the strongest such bid at once: the dealership is worth more
        than a better trump suit (docs/experiments.md); else the heuristic's bid."""
        if self.grab and view.dealer is None and view.phase in DEALER_BID_PHASES:
            grabs = [a for a in legal if isinstance(a, Bid) and takes_dealer(view.rules,
                                                                              a.cards)]
            if grabs:
                return strongest_bid(view.hand, grabs)
        return super().bid(view, legal)

    def bury(self, view: SeatView, legal: Legal) -> Action:
        """The bury the model values most where it beats the heuristic's by the model's
        bury margin, else the heuristic's (also where the model has no kitty forest)."""
        default = super().bury(view, legal)
        model = self.fitted(view.rules)
        if model is None or model.bury is None or not isinstance(default, Bury):
            return default
        forest = model.bury
        options = bury_choices(view, legal, default.cards)
        if len(options) < 2:
            return default
        values = [forest.predict(row) for row in bury_rows(view, options)]
        best = max(range(len(options)), key=lambda i: (values[i], -i))
        if values[best] - values[0] > model.bury_margin:
            return Bury(view.seat, options[best])
        return default

    def valued(self, view: SeatView, legal: Legal) -> list[tuple[Play, float]]:
        """The plays the model compares at a lead or a follow, each with its expected gain
        over the heuristic's choice less the model's margin: the heuristic's choice and each
        labelled option, each play once with its greatest value (the heuristic's choice at
        least 0), the best first (the heuristic's choice first among equals); the heuristic's
        choice alone, valued 0, where every option is that play; ``[]`` where no model fits
        the rules or the seat has one card."""
        model = self.fitted(view.rules)
        if model is None or len(view.hand) <= 1:
            return []
        default = super()._play(view, legal)
        assert isinstance(default, Play)
        plays = legal.plays
        assert plays is not None
        memory = Memory(view, remember=self.remember, log=self.log)
        kind, rows = option_rows(view, plays, memory, default.cards)
        default_key = play_key(default.cards)
        keys = [play_key(cards) for cards in rows.options]
        if all(key == default_key for key in keys):
            return [(default, 0.0)]  # every option is the heuristic's choice: nothing to compare
        forest, margin = ((model.lead, model.lead_margin) if kind == "lead"
                          else (model.follow, model.follow_margin))
        values: dict[tuple[Card, ...], float] = {default_key: 0.0}
        found: list[tuple[Play, tuple[Card, ...]]] = [(default, default_key)]
        for cards, key, row in zip(rows.options, keys, rows.rows, strict=True):
            value = forest.predict(row) - margin
            if key not in values:
                values[key] = value
                found.append((made_play(view.seat, cards), key))
            elif value > values[key]:
                values[key] = value
        ranked = [(play, values[key]) for play, key in found]
        ranked.sort(key=lambda item: -item[1])  # (stable: the heuristic's choice first of ties)
        return ranked


__all__ = ["FORMAT", "MODELS", "MODEL_FILE_LIMIT", "LearnedPlayer", "ModelError", "PlayModel",
           "Table", "check_margins", "check_shipped_models", "model_data", "model_for",
           "model_name", "model_table", "read_model_file", "shipped_model"]
