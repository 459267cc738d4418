"""Refusal reasons with a key and parameters, so that any language can render them.

A :class:`Reason` is the English text of a refusal (a ``str``: every caller that
compares or prints reasons keeps working) that also carries a ``key`` naming the
sentence and the ``params`` filling it (strings, integers and tuples of them, all
JSON-friendly). :data:`TEMPLATES` holds the English sentence of every key; it is the
single source of the English text. A client in another language keeps its own
template for each key (the browser's are in ``server/static/reasons.js``).

A template is text with fields in braces:

- ``{name}``: the parameter as written (an integer, a rank, a seat number);
- ``{name:fmt}`` and ``{name:fmt:count}``: the parameter rendered by the formatter
  ``fmt`` of :data:`FORMATTERS` (a suit, cards, a unit shape, a lead ...), in the plural
  when ``count`` (another parameter's name, or ``*`` for always) is not 1;
- ``{name|one|many}``: the word ``one`` when the parameter is 1, else ``many``.

>>> why = Reason("follow-count", n=2)
>>> why, why.key, dict(why.params)
('play 2 cards: 2 were led', 'follow-count', {'n': 2})
>>> Reason("follow-suit-one", held=3, suit=suit_code(3), played="5H")
'you hold 3 spades: the card must be a spade (you played 5H)'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import TypeAlias

Param: TypeAlias = "str | int | tuple[Param, ...]"
"""A parameter of a reason: text, a number, or a tuple of them (a JSON list)."""

_SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades", "T": "trumps"}
_TUPLE_NAMES = {1: "single", 2: "pair", 3: "triple"}


def suit_code(suit: int) -> str:
    """The parameter for an effective suit (0-3 plain, 4 trump): ``C D H S`` or ``T``."""
    return "CDHST"[suit]


def _tuple(width: int, plural: bool) -> str:
    return _TUPLE_NAMES.get(width, f"{width}-tuple") + ("s" if plural else "")


def _shape(shape: Param) -> str:
    assert isinstance(shape, tuple)
    width, length = shape
    assert isinstance(width, int) and isinstance(length, int)
    if length == 1:
        return _tuple(width, False)
    if width == 1:
        return f"sequence of {length}"
    return f"tractor of {length} {_tuple(width, True)}"


def _units(shapes: Param) -> str:
    assert isinstance(shapes, tuple)
    return " + ".join(_shape(s) for s in shapes)


def _lead(lead: Param, plural: bool) -> str:
    """``("rainbow", n)``, ``("rainbows", n, n, ...)`` (a rainbow throw), ``("unit",
    shape)`` or ``("throw", shape, shape, ...)``."""
    assert isinstance(lead, tuple)
    kind, *rest = lead
    if kind == "rainbow":
        return f"rainbow of {rest[0]}"
    if kind == "rainbows":
        return "throw of rainbows of " + " + ".join(_text(n) for n in rest)
    body = _units(tuple(rest))
    return f"throw of {body}" if kind == "throw" else body


def _rainbows(sizes: Param) -> str:
    """Rainbows by their sizes, largest first: ``a rainbow of 3``, ``rainbows of 4 + 3``."""
    assert isinstance(sizes, tuple)
    if len(sizes) == 1:
        return f"a rainbow of {_text(sizes[0])}"
    return "rainbows of " + " + ".join(_text(n) for n in sizes)


def _needs(parts: Param) -> str:
    """What a follow must include: ``("tractor", width, length)``, ``("tuples", count,
    width)``, ``("led-size", count)`` or ``("locked", count)``; nothing when empty."""
    assert isinstance(parts, tuple)
    words = []
    for part in parts:
        assert isinstance(part, tuple)
        kind, *values = part
        if kind == "tractor":
            words.append(f"a {_shape(tuple(values))}")
        elif kind == "tuples":
            count, width = values
            assert isinstance(count, int) and isinstance(width, int)
            words.append(f"{count} {_tuple(width, count != 1)}")
        elif kind == "led-size":
            words.append(f"{values[0]} cards in tuples of the led size")
        else:
            words.append(f"{values[0]} cards in tuples")
    return f", including {' and '.join(words)}" if words else ""


def _others(rest: Param) -> str:
    return f" and any {rest} other card{'s' if rest != 1 else ''}" if rest else ""


def _bomb(n: Param) -> str:
    return f", or a bomb of {n} identical cards" if n else ""


def _text(value: Param) -> str:
    assert not isinstance(value, tuple)
    return str(value)


_KINDS = {
    "bool": "true or false", "int": "an integer", "rank": "a rank (2-10, J, Q, K, A)",
    "suit": "a suit (C, D, H, S)", "ranks": "a list of ranks", "suits": "a list of suits",
    "overbids": "a list of overbids", "rows": "a list of rows (points, level change)",
    "row": "rows of two integers (points, level change)",
}
"""What a rules option of each kind must be (``rules-type``)."""

_BOUNDS = {
    "per-deck": " (one per deck)",
    "pack": " (the {} cards of the pack less one per player)",
    "red-fives": " (0: off, 1: 5♥, 2: 5♥ and 5♦)",
    "bombs": " (0: off; identical cards, at most one per deck)",
    "rainbow": " (0: off; a rank's cards fall in at most 4 effective suits)",
    "hand": " (the hand size)",
    "friends": " (at {} players, leaving opponents)",
}
"""Why an option's range is what it is (``rules-range``): ``[]`` (no reason), ``["pack",
cards]``, ``["friends", players]`` or ``[name]``."""


def _quoted(values: Param) -> str:
    assert isinstance(values, tuple)
    return ", ".join(repr(_text(v)) for v in values)


def _bound(why: Param) -> str:
    assert isinstance(why, tuple)
    if not why:
        return ""
    name, *values = why
    return _BOUNDS[_text(name)].format(*values)


Formatter = Callable[[Param, bool], str]
"""Renders a parameter, in the plural or not."""

FORMATTERS: dict[str, Formatter] = {
    "suit": lambda code, plural: (_SUIT_NAMES[_text(code)] if plural
                                  else _SUIT_NAMES[_text(code)][:-1]),
    "tuple": lambda width, plural: _tuple(int(_text(width)), plural),
    "shape": lambda shape, plural: _shape(shape),
    "lead": lambda lead, plural: _lead(lead, plural),
    "units": lambda shapes, plural: _units(shapes),
    "rainbows": lambda sizes, plural: _rainbows(sizes),
    "needs": lambda parts, plural: _needs(parts),
    "others": lambda rest, plural: _others(rest),
    "bomb": lambda n, plural: _bomb(n),
    "verbs": lambda verbs, plural: " or ".join(_text(v) for v in verbs)
    if isinstance(verbs, tuple) else _text(verbs),
    "where": lambda buried, plural: "hold or buried" if buried else "hold",
    "than": lambda equal, plural: "as high as" if equal else "higher than",
    # the same in English; other languages translate them (and name seats)
    "seat": lambda seat, plural: _text(seat),
    "cards": lambda cards, plural: _text(cards),
    "card": lambda card, plural: _text(card),
    "call": lambda call, plural: _text(call),
    "callee": lambda what, plural: _text(what),
    "colour": lambda colour, plural: _text(colour),
    "phase": lambda phase, plural: _text(phase),
    "option": lambda name, plural: _text(name),
    "kind": lambda kind, plural: _KINDS[_text(kind)],
    "quoted": lambda values, plural: _quoted(values),
    "bound": lambda why, plural: _bound(why),
}
"""English formatters by name: parameter and plural flag to text."""

TEMPLATES: dict[str, str] = {
    # following a lead (engine.follow)
    "follow-count": "play {n} {n|card|cards}: {n} {n|was|were} led",
    "not-held": "you do not hold {cards:cards}",
    "follow-rainbow": "you hold a rainbow ({cards:cards}): a rainbow led must be answered "
                      "by a rainbow of {n}",
    "follow-rainbows": "you hold {rainbows:rainbows} ({cards:cards}): a {lead:lead} led must "
                       "be answered by as many of its rainbows as you can play, the largest "
                       "first",
    "follow-short": "you hold only {held} {suit:suit:held} ({cards:cards}): "
                    "play {held|it|all of them} before other cards",
    "follow-suit-one": "you hold {held} {suit:suit:held}: the card must be a {suit:suit} "
                       "(you played {played:cards})",
    "follow-suit": "you hold {held} {suit:suit:held}: all {n} cards must be {suit:suit:*} "
                   "(you played {played:cards})",
    "follow-tractor": "you hold a {shape:shape} in {suit:suit:*} ({cards:cards}): a "
                      "{shape:shape} led must be followed by one",
    "follow-tractor-shorter": "you hold a {shape:shape} in {suit:suit:*} ({cards:cards}): "
                              "with no {led:shape}, the longest shorter tractor must be played",
    "follow-tractor-narrower": "you hold a {shape:shape} in {suit:suit:*} ({cards:cards}): "
                               "with no {led:shape}, the widest narrower tractor must be played",
    "follow-protect": "you hold {want} cards in {suit:suit:*} in tuples of the led size "
                      "({cards:cards}): a {lead:lead} led must be followed by those, longer "
                      "tuples being protected (you played {played} such cards)",
    "follow-locked": "you can lock {want} cards in tuples of {suit:suit:*} ({cards:cards}): "
                     "play as many cards in tuples as the lead's structure allows "
                     "(you locked {played})",
    "follow-tuples": "you hold {want} {width:tuple:want} in {suit:suit:*} ({cards:cards}): "
                     "a {lead:lead} led must be followed by as many {width:tuple:*} as you "
                     "can play",
    # what a follow must be (LegalPlays.describe)
    "must-any-rainbow": "play any {n} {n|card|cards}: you hold no rainbow of {n}",
    "must-any-rainbows": "play any {n} {n|card|cards}: you hold no rainbow of {size} or more "
                         "cards",
    "must-any": "play any {n} {n|card|cards}: you have no {suit:suit:*}",
    "must-rainbow": "play a rainbow: {n} cards of one rank in {n} suits{bomb:bomb}",
    "must-rainbows": "play {n} {n|card|cards}, including {rainbows:rainbows}{bomb:bomb}",
    "must-short": "play all your {suit:suit:*} ({cards:cards}){rest:others}{bomb:bomb}",
    "must-follow": "play {n} {suit:suit:n}{needs:needs}{bomb:bomb}",
    # leading (engine.lead)
    "lead-empty": "a lead needs at least one card",
    "lead-suits": "a lead must be all of one suit: {first:card} is {first_suit:suit:*} but "
                  "{other:card} is {other_suit:suit:*}",
    "lead-no-throws": "throws (several units at once) are not allowed: lead a single, "
                      "a tuple or a tractor",
    "lead-reading": "{cards:cards} cannot be read as {reading:units}",
    "lead-mixed": "mixed throws are not allowed: a throw must be units of one shape "
                  "(all singles, or all pairs, ...)",
    "lead-empty-hand": "an empty hand cannot lead",
    # bidding (engine.bidding)
    "bid-no-jokers": "jokers cannot be bid under these rules",
    "bid-joker-count": "a joker bid needs at least {need} identical jokers",
    "bid-fluid-own-rank": "once trump is declared it can only be overbid with your own rank",
    "bid-rank": "bids show cards of your trump rank ({rank}) or identical jokers",
    "bid-fluid-fixed": "once trump is declared it cannot be changed under these rules",
    "bid-overbid-own": "an overbid shows cards of your own rank ({own})",
    "bid-overbid-maker": "an overbid shows cards of the trumpmaker's rank ({maker})",
    "bid-overbid-either": "an overbid shows cards of your own rank ({own}) or the "
                          "trumpmaker's rank ({maker})",
    "bid-dealer-names": "nobody bids under these rules: the dealer names the trump after "
                        "the deal",
    "bid-empty": "a bid shows at least one card",
    "bid-identical": "a bid shows identical cards only (same rank and suit, or the same joker)",
    "bid-copies": "there are only {decks} copies of each card",
    "bid-ineligible": "you may not bid this round (you lost the previous one)",
    "bid-switch": "you bid {card:card} before: you may only reinforce it, not switch",
    "bid-reinforce-off": "reinforcing your own bid is not allowed under these rules",
    "bid-reinforce-more": "reinforcing needs more than {count} cards",
    "bid-reinforce-partner": "you may not reinforce your partner's bid",
    "bid-weak": "a bid of {count} {count|card|cards} does not beat {bid:cards} (seat {seat}): "
                "show more cards (or jokers)",
    "withdraw-off": "bids may not be taken back under these rules",
    "withdraw-not-yours": "only the standing bid can be taken back, by its bidder",
    "withdraw-settled": "the trump is settled: bids may not be taken back after the kitty",
    "reinforce-not-yours": "only the standing bid's bidder may reinforce it after the bury",
    "reinforce-card": "after the bury you may only reinforce your bid: more copies of "
                      "{card:card}",
    # friend calls (engine.friends)
    "call-count": "call exactly {n} friend {n|card|cards}",
    "call-repeat": "each friend call must be a different one",
    "call-card-only": "calls name a precise card under these rules, e.g. '2nd AS'",
    "call-colour-only": "calls name a colour and rank under these rules, e.g. '1st black A'",
    "call-copies": "there are only {decks} copies of {card:card}",
    "call-trump": "{card:card} is a trump: trump cards may not be called",
    "call-colour-copies": "there are only {n} {colour:colour} {rank}s",
    "call-points": "{what:callee} is a point card: point cards (5, 10, K) may not be called",
    "call-top": "{what:callee} is the highest card of its suit: it may not be called",
    "call-removed": "{what:callee} is not in the pack (its rank is one of removed_ranks): it "
                    "may not be called",
    "call-taken-out": "the {call:call} is not in the pack: {out} {what:callee} {out|was|were} "
                      "taken out to make the deal even",
    "call-all-held": "you {buried:where} every {what:callee}",
    "call-some-held": "you {buried:where} {mine} of the {total} {what:callee}: the "
                      "{call:call} cannot be another player's",
    "call-all-held-refused": "you {buried:where} every {what:callee}, so nobody else can be "
                             "the friend of the {call:call}: call a card another player can "
                             "play",
    "call-some-held-refused": "you {buried:where} {mine} of the {total} {what:callee}: the "
                              "{call:call} cannot be another player's, so nobody else can be "
                              "the friend of the {call:call}: call a card another player can "
                              "play",
    # a failed throw (engine.throws; not a refusal: what happened instead)
    "throw-block": "seat {seat} holds {cards:cards} ({shape:shape}), {equal:than} {unit:cards}",
    "throw-block-rainbow": "seat {seat} holds {cards:cards} (a rainbow of {n}), {equal:than} "
                           "{unit:cards}",
    "throw-stands": "{cards:cards} stands",
    "throw-lost": "the throw failed: the thrower's side loses the round",
    "throw-failed": "the throw failed: {cards:cards} is played instead",
    "throw-penalty": "penalty: {points} points to the opponents",
    # the kitty (game.bury)
    "bury-count": "bury exactly {size} cards (you gave {given})",
    "bury-points": "point cards (5, 10, K) may not be buried under these rules",
    # a round's phases (game.round, game.legal)
    "not-your-turn": "it is not your turn",
    "turn-of": "it is seat {seat}'s turn ({phase:phase} phase)",
    "turn-of-nobody": "it is nobody's turn ({phase:phase} phase)",
    "draw-turn": "it is seat {seat}'s turn to draw",
    "deal-no-pass": "there is nothing to pass on during the deal",
    "bid-time": "now is the time to {verbs:verbs}",
    "expose-needed": "expose up to {most} cards (or none)",
    "expose-count": "expose at most {most} cards (you gave {given})",
    "declare-needed": "name the trump suit (C, D, H, S) or no-trump (NT)",
    "show-needed": "show your hand for a redeal, or pass",
    "bury-needed": "bury {size} cards",
    "call-needed": "call {n} friend card(s)",
    "play-needed": "play cards to the trick",
    "round-over": "the round is over",
    "match-over": "the match is over",
    "no-seat": "there is no seat {seat} (seats are 0..{last})",
    "other-seat": "it is not seat {seat}'s action here (this is seat {own}'s)",
    # what a seat may do (Legal.summary)
    "do-verbs": "{verbs:verbs}",
    "do-expose": "expose up to {most} cards",
    "do-declare": "name the trump suit",
    "do-show": "show or pass",
    "do-reinforce": "reinforce your bid (more copies of {card:card}) or pass",
    "do-bury": "bury {size} cards",
    "do-call": "call friends",
    "do-lead": "lead",
    "do-nothing": "nothing to do",
    # input that is not an action or not cards (the text says what is wrong)
    "bad-input": "{error}",
    # house rules (engine.rules: RulesError.why); option names and values as written
    "rules-unknown": "unknown option {name}",
    "rules-type": "{option:option} must be {kind:kind}, got {value}",
    "rules-overbid": "fluid_overbid must be a list of overbids among {allowed:quoted}, "
                     "got {value}",
    "rules-choice": "{option:option}={value} is not allowed; use one of {allowed:quoted}",
    "rules-entries": "{option:option} has {n} entries; at most {most} are allowed",
    "rules-range": "{option:option} must be at least {low} and at most {high}{why:bound}, "
                   "got {value}",
    "rules-width": "tractor_min_width is {value} but there {decks|is|are} only {decks} "
                   "{decks|deck|decks} (at most {decks} identical {decks|card|cards}); "
                   "allowed: 1 to {high}",
    "rules-level-rows": "custom_levels has {n} rows; at most {most} are allowed",
    "rules-level-points": "custom_levels: points {value} must be from 0 to {most}",
    "rules-level-step": "custom_levels: a level change of {value} must be from {low} to {high}",
    "rules-odd-players": "fixed partnerships need an even number of players, got {players}: "
                         "an odd table finds its partners in play (Finding Friends)",
    "rules-uneven-deal": "a kitty of {kitty} leaves {left} cards, which do not deal evenly to "
                         "{players} players",
    "rules-no-opponents": "{n} {n|friend leaves|friends leave} no opponents at {players} "
                          "players",
    "rules-fixed-friends": "friends are called only with partnership='fluid'",
    "rules-overbid-repeat": "fluid_overbid must not repeat an overbid, got [{overbids:quoted}]",
    "rules-bomb-one": "bombs must be 0 (off) or at least 2 identical cards: a single card is "
                      "no bomb",
    "rules-rainbow-one": "rainbow must be 0 (off) or at least 2 suits: one card is no rainbow",
    "rules-expose-dealer": "expose is for trump_choice='dealer' (cards are exposed before the "
                           "dealer names the trump)",
    "rules-rank-order": "start_rank ({start}) must not be above end_rank ({end})",
    "rules-mandatory-range": "mandatory_ranks must lie between start_rank and end_rank",
    "rules-suit-repeat": "rank_suit_order must not repeat a suit",
    "rules-rank-repeat": "mandatory_ranks must not repeat a rank",
    "rules-custom-table": "custom_levels is given exactly when level_table='custom'",
    "rules-custom-zero": "custom_levels must start at 0 points",
    "rules-custom-increase": "custom_levels thresholds must increase",
    "rules-removed-repeat": "removed_ranks must not repeat a rank",
    "rules-removed-point": "removed_ranks cannot take out {rank}: point cards (5, 10, K) are "
                           "never removed",
    "rules-removed-lowest": "removed_ranks must be the lowest ranks from 2 up, without a gap "
                            "(none, 2, 2 and 3, or 2 to 4), got {ranks}",
    "rules-removed-kept": "{option:option} cannot be {rank}: removed_ranks takes that rank "
                          "out of the pack",
}
"""The English sentence of every reason key."""

_FIELD = re.compile(r"\{(\w+)(?:\|([^|{}]*)\|([^|{}]*)|:(\w+)(?::(\w+|\*))?)?\}")

Piece = str | tuple[str, str | None, str | None, str | None, str | None]
"""Literal text, or a field: name, singular word, plural word, formatter, count."""


def parse_template(template: str) -> list[Piece]:
    """Split a template into literal text and fields (see the module's syntax)."""
    pieces: list[Piece] = []
    at = 0
    for match in _FIELD.finditer(template):
        if match.start() > at:
            pieces.append(template[at:match.start()])
        pieces.append(match.groups())  # type: ignore[arg-type]
        at = match.end()
    if at < len(template):
        pieces.append(template[at:])
    return pieces


def placeholders(template: str) -> frozenset[str]:
    """The parameter names a template uses (fields and their counts)."""
    names = set()
    for piece in parse_template(template):
        if isinstance(piece, tuple):
            names.add(piece[0])
            if piece[4] is not None and piece[4] != "*":
                names.add(piece[4])
    return frozenset(names)


_AS_WRITTEN = frozenset({"cards", "card", "call", "callee", "colour", "phase", "seat",
                         "option"})
"""Formatters that write the parameter as it is in English."""

Computed = tuple[str, Callable[[Mapping[str, Param]], str]]
"""A field computed from the parameters: its slot in the format string, and how."""


def _field(name: str, one: str | None, many: str | None, fmt: str | None,
           count: str | None) -> Callable[[Mapping[str, Param]], str]:
    if one is not None and many is not None:
        return lambda p: one if p[name] == 1 else many
    assert fmt is not None
    formatter = FORMATTERS[fmt]
    if count is None or count == "*":
        plural = count == "*"
        return lambda p: formatter(p[name], plural)
    return lambda p: formatter(p[name], p[count] != 1)


def _compile(template: str) -> tuple[str, tuple[Computed, ...]]:
    """A template as a ``str.format`` string, plain fields kept by name, the others filled
    by the computed fields (so that a reason renders at C speed where it can)."""
    out: list[str] = []
    computed: list[Computed] = []
    for piece in parse_template(template):
        if isinstance(piece, str):
            out.append(piece.replace("{", "{{").replace("}", "}}"))
        elif piece[1] is None and (piece[3] is None or piece[3] in _AS_WRITTEN):
            out.append("{" + piece[0] + "}")
        else:
            slot = f"_{len(computed)}"
            computed.append((slot, _field(*piece)))
            out.append("{" + slot + "}")
    return "".join(out), tuple(computed)


_COMPILED = {key: _compile(text) for key, text in TEMPLATES.items()}
_NAMES = {key: placeholders(text) for key, text in TEMPLATES.items()}


def _render(key: str, params: Mapping[str, Param]) -> str:
    text, computed = _COMPILED[key]
    if not computed:
        return text.format_map(params)
    values = dict(params)
    for slot, field in computed:
        values[slot] = field(params)
    return text.format_map(values)


def render(key: str, params: Mapping[str, object]) -> str:
    """The English text of reason ``key`` with ``params`` (lists, as JSON gives them back,
    count as tuples)."""
    return _render(key, {name: _tuples(value) for name, value in params.items()})


def _tuples(value: object) -> Param:
    """A parameter back from JSON: lists as tuples."""
    if isinstance(value, list | tuple):
        return tuple(_tuples(v) for v in value)
    assert isinstance(value, str | int)
    return value


class Reason(str):
    """A refusal's English text (this string) with its ``key`` and ``params``."""

    key: str
    params: Mapping[str, Param]

    def __new__(cls, key: str, /, **params: Param) -> Reason:
        names = _NAMES.get(key)
        if names is None:
            raise KeyError(f"unknown reason key {key!r}")
        if params.keys() != names:
            raise TypeError(f"reason {key!r} takes {sorted(names)}, got {sorted(params)}")
        self = str.__new__(cls, _render(key, params))
        self.key = key
        self.params = params
        return self

    def __getnewargs_ex__(self) -> tuple[tuple[str], dict[str, Param]]:
        return (self.key,), dict(self.params)

    def as_json(self) -> dict[str, object]:
        """``{"key", "params", "text"}`` for a client (tuples become lists, integers too
        large for JavaScript text)."""
        return {"key": self.key, "params": _lists(self.params), "text": str(self)}


_EXACT_IN_JSON = 2 ** 53
"""Integers beyond this lose digits in JavaScript: they are sent as text."""


def _lists(value: object) -> object:
    if isinstance(value, Mapping):
        return {k: _lists(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [_lists(v) for v in value]
    if isinstance(value, int) and abs(value) > _EXACT_IN_JSON:
        return str(value)
    return value

