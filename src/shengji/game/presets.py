"""Named presets: the house rules of each seed as one word, plus rules in words.

A preset is a :class:`~shengji.engine.rules.Rules` value with some options fixed
the way one of the seeds (``shared/seeds``) plays; any option can still be
overridden, and the result is validated by ``Rules`` like any other.

>>> sorted(PRESETS)
['da-bai-fen', 'finding-friends', 'hundred', 'tractor', 'tractor-6']
>>> r = preset("finding-friends", players=8)
>>> r.decks, r.joker_counts, r.hand_size, r.kitty_size, r.friend_count
(3, (2, 0), 19, 6, 3)
>>> preset("da-bai-fen").hand_size, preset("da-bai-fen").kitty_size
(12, 6)
>>> describe_rules(preset("tractor-6"))
['6 players', '3 decks (162 cards): 26 cards each, a kitty of 6']
>>> preset("tracter")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
shengji.engine.rules.RulesError: unknown preset 'tracter' (did you mean 'tractor' or ...?); ...
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping
from dataclasses import fields
from typing import Any

from shengji.engine.options_help import OPTIONS
from shengji.engine.rules import MAX_DECKS, Rules, RulesError, short_repr


class OptionError(RulesError):
    """A :class:`RulesError` about one named option (``option``), e.g. an unknown name or a
    value of the wrong type; readers of files use ``option`` to point at its line."""


OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in fields(Rules))
"""Every option of :class:`Rules`, in declaration order."""


def suggest(name: str, choices: tuple[str, ...] | list[str]) -> list[str]:
    """The closest names to ``name`` among ``choices`` (difflib), best first."""
    return difflib.get_close_matches(name, list(choices), n=3, cutoff=0.6)


def unknown_option(name: str, extra: tuple[str, ...] = ()) -> OptionError:
    """The error for an option name that :class:`Rules` does not have, with suggestions."""
    close = suggest(name, OPTION_NAMES + extra)
    if close:
        hint = "did you mean " + " or ".join(repr(c) for c in close) + "?"
    else:
        hint = "options are: " + ", ".join(OPTION_NAMES + extra)
    return OptionError(f"unknown option {short_repr(name)}; {hint}", name)


# -- the presets ------------------------------------------------------------------------

ZHAO_PENGYOU_TABLE: dict[int, tuple[int, int, int]] = {
    5: (2, 2, 2),
    6: (2, 2, 2),
    7: (2, 0, 0),
    8: (3, 2, 0),
    9: (3, 3, 0),
    10: (3, 0, 0),
    11: (3, 2, 2),
    12: (4, 2, 0),
}
"""Players → (decks, red/big jokers, black/small jokers) of the commonly published Zhao
Pengyou table (VARIANTS.md); the kitty is the rest (8 cards at 5 players, else 6)."""

_TRACTOR: dict[str, object] = {}
_TRACTOR_6: dict[str, object] = {"players": 6, "decks": 3}
_FINDING_FRIENDS: dict[str, object] = {
    "players": 6,
    "decks": 2,
    "partnership": "fluid",
    "friend_calls": "ordinal",
    "friend_trump_calls": False,
    "fluid_overbid": ("own-rank", "maker-rank", "jokers-rank"),
    "level_table": "2006",
    "dealer_rotation": "winner-next",
}
_DA_BAI_FEN: dict[str, object] = {
    "players": 4,
    "decks": 1,
    "level_table": "da-bai-fen",
    "failed_throw": "lose-round",
    "throw_check": "all",
    "first_draw": "next",
    "first_dealer": "first-bidder",
    "redeal_show": "no-trumps",
    "redeal_dealer_partner": True,
    "redeal_first_bidder": True,
    "kitty_multiplier": "double",
    "joker_bids": "off",
}
_HUNDRED: dict[str, object] = {
    "players": 4,
    "decks": 1,
    "throw_beat": "card-by-card",
    "throw_check": "none",
    "tuple_follow": "none",
    "level_table": "da-bai-fen",
    "first_draw": "dealer",
    "first_dealer": "random",
    "redeal_show": "no-trumps",
    "kitty_multiplier": "double",
    "joker_bids": "off",
    "trump_choice": "dealer",
    "expose": 6,
}


def _build(base: Mapping[str, object], overrides: Mapping[str, object]) -> Rules:
    for name in overrides:
        if name not in OPTION_NAMES:
            raise unknown_option(name)
    return Rules().replace(**{**base, **overrides})


def tractor(**overrides: object) -> Rules:
    """Tractor (Bashi Fen, 80 points): 4 players, 2 decks, kitty 8, fixed partnerships.

    Follows seed ``wikipedia_sheng_ji``: partners sit opposite, 25 cards each and an
    8-card kitty, trump rank = the declarers' level, pair beats single in the bidding,
    the first bidder deals the first round, nobody bid → kitty cards turned until a
    trump-rank card, the opponents need 80, the standard level table and dealer
    rotation. These are exactly the defaults of ``Rules()``.
    """
    return _build(_TRACTOR, overrides)


def tractor_6(**overrides: object) -> Rules:
    """Tractor for 6: 6 players, 3 decks, kitty 6, fixed partnerships (alternate seats).

    Follows seed ``wikipedia_sheng_ji`` ("one deck for every two players ... a six-player
    game would use three decks"): 26 cards each, the opponents need 120 (40 × decks),
    triples and triple tractors appear; every other rule as in ``tractor``.
    """
    return _build(_TRACTOR_6, overrides)


def finding_friends(**overrides: object) -> Rules:
    """Finding Friends (Zhao Pengyou): fluid partnerships, 5-12 players (default 6).

    Follows seed ``wikipedia_2006`` (fluid-partnership games): the trumpmaker (dealer)
    calls friends by precise copy ("the second A♠"), never a trump card; one friend
    at 4-5 players, two at 6-7, and so on; each player has their own level, and a bid
    shows the bidder's own rank. Overbids follow the seed's rules (1)-(3): more cards
    of one's own rank (becomes trumpmaker), more cards of the trumpmaker's rank (the
    suit changes, the trumpmaker stays), identical jokers (no-trump with the rank;
    rule (3) takes precedence over (4), so ``jokers-only`` is left out). Levels use the
    seed's table in terms of the decks (``level_table="2006"``), and the next dealer is
    the next player of the side that won (``dealer_rotation="winner-next"``).

    ``players`` picks decks and jokers from the commonly published Zhao Pengyou table
    (VARIANTS.md): 5p: 2 decks, 2 red, 2 black jokers · 6p: 2, 2, 2 · 7p: 2, 0, 0 ·
    8p: 3, 2, 0 · 9p: 3, 3, 0 · 10p: 3, 0, 0 · 11p: 3, 2, 2 · 12p: 4, 2, 0; the kitty
    is the rest (8 cards at 5 players, 6 otherwise). Giving ``decks`` (or the joker
    counts) overrides the table; outside 5-12 players (2-20 are allowed) the default is
    one deck per two players (at most 8), all jokers kept, the kitty derived. Options of
    the seed to consider: ``fluid_bidders="not-lost"``, ``friend_calls="colour-rank"``
    (with ``friend_trump_calls=True``), ``smaller_team_bonus=True``.
    """
    opts: dict[str, object] = dict(overrides)
    players = opts.get("players", _FINDING_FRIENDS["players"])
    if not isinstance(players, int) or isinstance(players, bool):
        raise OptionError(f"players must be an integer, got {short_repr(players)}", "players")
    row = ZHAO_PENGYOU_TABLE.get(players)
    base = dict(_FINDING_FRIENDS)
    if "decks" not in opts:
        if row is not None:
            base["decks"] = row[0]
            base.setdefault("big_jokers", row[1])
            base.setdefault("small_jokers", row[2])
        else:
            base["decks"] = min(MAX_DECKS, max(1, players // 2))
    return _build(base, opts)


def da_bai_fen(**overrides: object) -> Rules:
    """Da Bai Fen (Fighting for a Hundred): 1 deck, 4 players, 12 cards each, kitty 6.

    Follows seed ``da_bai_fen_rules``: the kitty (6) and the target (40 = 40 × decks)
    are derived from the one deck, so they adapt if ``decks`` or ``players`` is
    overridden; level table 0 → declarers +2, 5-35 → +1, 40-75 → the opponents take
    over, 80-95 → opponents +1, 100+ → +2 (``level_table="da-bai-fen"``); a group lead
    that anybody, partner included, could beat loses the round and the opponents score
    the maximum (``failed_throw="lose-round"``, ``throw_check="all"``); the player after
    the (random) first dealer draws first, and in the first round the player who exposes
    a 2 becomes the leader (the engine's dealer: ``first_dealer="first-bidder"``; use
    ``first_dealer="random"`` to keep the random seat as leader); a player without
    trumps may show the hand for a redeal, after which the leader's partner deals the
    cards and, as in the first round, the first to expose a card of their side's level
    becomes the leader, their side the declarers (``redeal_first_bidder``; the partner
    leads if nobody does); the
    kitty counts double for the opponents when they win the last trick; jokers cannot be
    bid (one deck has no pair of identical jokers anyway). Nobody bid → kitty cards are
    turned until a trump-rank card appears, else the highest card's suit (the default).
    """
    return _build(_DA_BAI_FEN, overrides)


def hundred(**overrides: object) -> Rules:
    """The Hundred: seed ``hundred_da_bai_fen_variant``, Da Bai Fen as played with its
    own rules for comparing multi-card plays.

    One deck, 4 players (the seed allows "2 or more"), 12 cards each and a kitty of 6,
    the opponents need 40. The leader may lead one card or several of one suit, and a
    lead of several always stands: nobody's cards can make it fail
    (``throw_check="none"``). A multi-card play is beaten card by card: every card must
    beat a distinct card of the winning play (``throw_beat="card-by-card"``); followers
    owe the suit and the number of cards but no structure (``tuple_follow="none"``).
    The dealer is first chosen by lot and draws first; a player without trumps may
    require a redeal (the same dealer deals again). Levels use the seed's first table,
    the same as Da Bai Fen's (``level_table="da-bai-fen"``). The seed says nothing of
    the 6 cards left after the deal: they are a kitty as in Da Bai Fen, counting double
    for the opponents when they win the last trick. Nobody bids: after the deal the
    dealer names the trump suit (``trump_choice="dealer"``), after each player in turn,
    the dealer last, has exposed up to six cards face up (``expose=6``; they stay in
    the hand and are played as usual).

    The seed's options, available as overrides:

    - the finer second table (0 → +3, 5-15 → +2, 20-35 → +1, 40-55 → switch,
      60-75 → opponents +1, 80-95 → +2, 100-115 → +3): ``level_table="hundred"``;
    - exactly 40 points is a draw, the opponents deal next: ``draw_at=40``;
    - the last trick's points counted once for each of its cards when the opponents win
      it: ``last_trick_multiplier=True``;
    - two trump ranks at once, e.g. 8s and 2s with diamonds trump (8♦, 8♥, 8♠, 8♣, 2♦,
      2♥, 2♠, 2♣, A♦ ...): ``second_rank="2"`` with the off-suit rank cards ordered by
      suit instead of equal, ``rank_suit_order=("H", "S", "C", "D")`` (highest first).
    """
    return _build(_HUNDRED, overrides)


_BUILDERS: dict[str, Callable[..., Rules]] = {
    "tractor": tractor,
    "tractor-6": tractor_6,
    "finding-friends": finding_friends,
    "da-bai-fen": da_bai_fen,
    "hundred": hundred,
}

PRESETS: dict[str, str] = {
    "tractor": "Tractor / Bashi Fen: 4 players, 2 decks, kitty 8, fixed partnerships",
    "tractor-6": "Tractor for six: 6 players, 3 decks, kitty 6, fixed partnerships",
    "finding-friends": "Finding Friends / Zhao Pengyou: 5-12 players, fluid partnerships, "
                       "called friends",
    "da-bai-fen": "Da Bai Fen: 4 players, 1 deck, 12 cards each, kitty 6, strict group leads",
    "hundred": "The Hundred: Da Bai Fen with card-by-card comparison of multi-card plays",
}
"""Preset name → one-line description."""


def preset(name: str, **overrides: object) -> Rules:
    """The rules of preset ``name`` with some options overridden (validated by Rules).

    Raises :class:`RulesError` for an unknown preset (listing the names) or a bad option.
    """
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    builder = _BUILDERS.get(key)
    if builder is None:
        close = suggest(key, list(PRESETS))
        hint = f" (did you mean {' or '.join(repr(c) for c in close)}?)" if close else ""
        raise RulesError(f"unknown preset {short_repr(name)}{hint}; presets are: "
                         f"{', '.join(PRESETS)}")
    return builder(**overrides)


# -- rules in words ---------------------------------------------------------------------

def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _ranks(values: Any) -> str:
    return ", ".join(str(v) for v in values)


_CHOICES: dict[str, dict[str, str]] = {
    name: {value: en for value, (en, _) in words.choices.items()}
    for name, words in OPTIONS.items() if words.choices}
"""Each choice of an option in words: the English of its help (``engine/options_help.py``)."""


def _flag(on: str, off: str) -> Callable[[Any], str]:
    return lambda value: on if value else off


def _custom_levels(levels: Any) -> str:
    rows = []
    for lo, delta in levels:
        change = f"declarers +{delta}" if delta > 0 else (
            f"opponents +{-delta}" if delta < 0 else "opponents take over")
        rows.append(f"{lo}+: {change}")
    return "custom level table: " + "; ".join(rows)


_PHRASES: dict[str, Callable[[Any], str]] = {
    "players": lambda v: _plural(v, "player"),
    "tractor_min_width": lambda v: f"tractors are made of tuples of at least {v} cards",
    "tractor_min_length": lambda v: f"tractors need at least {v} consecutive tuples",
    "tractor_high_trumps": _flag("trump-rank cards and jokers may form tractors",
                                 "tractors may not include trump-rank cards or jokers"),
    "red_fives": lambda v: ("no red fives", "red five: 5♥ is the highest trump",
                            "red fives: 5♥ then 5♦ are the highest trumps")[v],
    "second_rank": lambda v: f"a second trump rank: {v} (below the level's rank)",
    "kitty_overbid_limit": lambda v: f"the kitty may be taken by bidding at most "
                                     f"{_plural(v, 'time')}",
    "removed_ranks": lambda v: ("every card of rank " if len(v) == 1 else
                                "every card of ranks ") + _ranks(v)
                               + " is taken out of the pack; levels skip "
                               + ("it" if len(v) == 1 else "them"),
    "remove_low": _flag("the lowest cards are taken out to make the deal even",
                        "the kitty makes the deal even"),
    "expose": lambda v: f"before the dealer names trump, each player may expose up to {v} "
                        "cards face up",
    "rank_suit_order": lambda v: "off-suit trump-rank cards rank by suit: "
                                 + " > ".join(s.symbol for s in v),
    "throws": _flag("throws (several units of one suit) may be led", "throws may not be led"),
    "throw_mixed": _flag("a throw may mix units of different shapes",
                         "a throw must be units of one shape"),
    "throw_blocked_by_equal": _flag("an equal unit in another hand also makes a throw fail",
                                    "only a higher unit makes a throw fail"),
    "throw_penalty_points": lambda v: f"a throw penalty, when on, is {v} points",
    "bombs": lambda v: f"{v} or more identical cards make a bomb, played in place of the "
                       "asked cards and beating every other play",
    "bomb_follow_suit": _flag("a bomb must be of the led suit unless void",
                              "a bomb may be of any suit"),
    "rainbow": lambda v: f"rainbow leads: one rank in {v} or more suits (trumps counting as "
                         "one); followers answer with a rainbow if they can, the highest rank "
                         "wins",
    "rainbow_throws": _flag("two or more rainbows may be thrown together; followers answer "
                            "with as many rainbows as they hold",
                            "rainbows are led one at a time"),
    "throw_tiebreak": _flag("throws whose largest units tie are compared on the next-largest "
                            "unit, then the next", "a tie on the largest unit goes to the "
                            "earlier play"),
    "bid_reinforce": _flag("a bidder may reinforce their own bid",
                           "a bidder may not reinforce their own bid"),
    "bid_switch_suit": _flag("a bidder may switch to another suit",
                             "a bidder may not switch to another suit"),
    "bid_equal_override": _flag("an equal bid (2+ cards) of a higher suit (♠ > ♥ > ♣ > ♦) "
                                "overrides", "equal bids do not override"),
    "bid_withdraw": _flag("bids may be taken back", "bids may not be taken back"),
    "bid_after_outbid": _flag("an outbid player may bid again with another card",
                              "an outbid player may only show more of the card they bid"),
    "bid_reinforce_after_bury": _flag("after burying, the kitty's holder may reinforce "
                                      "their own bid before the first lead",
                                      "no reinforcing after the bury"),
    "bid_reinforce_equal": _flag("an outbid player may reinforce to the standing bid's count "
                                 "and take it back", "reinforcing must beat the standing bid"),
    "fluid_overbid": lambda v: "overbids: " + ("none" if not v else "; ".join(
        _CHOICES["fluid_overbid"][o] for o in v)),
    "redeal_first_bidder": _flag("after a shown-hand redeal the first to bid becomes the "
                                 "dealer", "after a shown-hand redeal the dealer is known"),
    "redeal_dealer_partner": _flag("after a shown-hand redeal the dealer's partner deals",
                                   "after a shown-hand redeal the same dealer deals"),
    "kitty_overbid": _flag("bidding after the kitty (炒地皮): a stronger bid takes the kitty",
                           "no bidding after the kitty"),
    "kitty_overbid_takes_dealer": _flag("an overbid after the kitty makes the bidder dealer",
                                        "an overbid after the kitty leaves the dealer"),
    "kitty_points_allowed": _flag("point cards may be buried", "point cards may not be buried"),
    "kitty_revealed": _flag("the kitty is shown at the end of the round",
                            "the kitty is not shown at the end of the round"),
    "friends": lambda v: f"the dealer calls {_plural(v, 'friend')}",
    "friend_trump_calls": _flag("trump cards may be called as friends",
                                "trump cards may not be called as friends"),
    "friend_caller_counts": _flag("the caller's own play of a called card counts",
                                  "the caller's own play of a called card does not count"),
    "friend_call_points": _flag("point cards may be called", "point cards may not be called"),
    "friend_call_top": _flag("the highest card of a suit may be called",
                             "the highest card of a suit (A, or K when A is trump) may not be "
                             "called"),
    "smaller_team_bonus": _flag("a smaller declaring team wins a bonus level",
                                "no bonus for a smaller declaring team"),
    "target": lambda v: f"the opponents need {v} points",
    "custom_levels": _custom_levels,
    "draw_at": lambda v: f"exactly {v} points is a draw: no levels, the opponents deal next",
    "below_zero": _flag("the opponents' points may fall below zero: each step below gives the "
                        "declarers one more level", "the opponents' points stop at zero"),
    "kitty_to_declarers": _flag("declarers winning the last trick take the multiplied kitty "
                                "off the opponents' points",
                                "the kitty counts only for the opponents"),
    "last_trick_multiplier": _flag("the last trick's points count times its number of cards "
                                   "when the opponents win it",
                                   "the last trick's points count once"),
    "red_five_penalty": lambda v: f"a captured red five costs its side {v} points",
    "start_rank": lambda v: f"levels start at {v}",
    "end_rank": lambda v: f"the match ends by passing {v}",
    "mandatory_ranks": lambda v: "mandatory levels (cannot be skipped): "
                                 + (_ranks(v) if v else "none"),
    "mandatory_win": _flag("a side goes past a mandatory level only by winning a round "
                           "declaring at it", "any advance goes past a mandatory level"),
    "pass_end_freely": _flag("any advance may go past the end rank",
                             "only a round won declaring at the end rank goes past it"),
    "hook_and_needle": _flag("hook and needle: captured by a trump-rank J in the last trick, "
                             "declarers at J go back to 2 (at A, to J)", "no hook and needle"),
}

def _throw_penalty(rules: Rules) -> str:
    words = _CHOICES["throw_penalty"][rules.throw_penalty]
    return words.replace("`throw_penalty_points`", str(rules.throw_penalty_points))


_TABLE_OPTIONS = ("decks", "kitty", "big_jokers", "small_jokers")


def _table_line(rules: Rules) -> str:
    big, small = rules.joker_counts
    jokers = ""
    if (big, small) != (rules.decks, rules.decks):
        jokers = f", {big} red and {small} black jokers"
    return (f"{_plural(rules.decks, 'deck')} ({rules.deck_size} cards{jokers}): "
            f"{rules.hand_size} cards each, a kitty of {rules.kitty_size}")


def describe_rules(rules: Rules) -> list[str]:
    """Each option that differs from the defaults (``Rules()``), in words, in option order.

    The deck options (decks, jokers, kitty) make one line with the figures they lead to.

    >>> describe_rules(Rules())
    []
    >>> for line in describe_rules(Rules(decks=1, tuple_follow="none", draw_at=40)):
    ...     print(line)
    1 deck (54 cards): 12 cards each, a kitty of 6
    following owes the suit only, no structure
    exactly 40 points is a draw: no levels, the opponents deal next
    """
    default = Rules()
    lines: list[str] = []
    table_done = False
    for name in OPTION_NAMES:
        value = getattr(rules, name)
        if value == getattr(default, name):
            continue
        if name in _TABLE_OPTIONS:
            if not table_done:
                lines.append(_table_line(rules))
                table_done = True
            continue
        if name == "throw_penalty":
            text = _throw_penalty(rules)
        elif name == "throw_penalty_points" and rules.throw_penalty != "none":
            continue  # said with throw_penalty
        elif name == "level_table" and value == "custom":
            continue  # said with custom_levels
        elif name in _PHRASES:
            text = _PHRASES[name](value)
        elif name in _CHOICES:
            text = _CHOICES[name].get(str(value), f"{name}: {value}")
            if name == "partnership" and value == "fluid":
                text += f" ({_plural(rules.friend_count, 'friend')})"
        else:  # pragma: no cover - every option has a phrase (tested)
            text = f"{name}: {value}"
        if name == "players" and not table_done:
            lines.append(text)
            if (rules.hand_size, rules.kitty_size) != (default.hand_size, default.kitty_size):
                lines.append(_table_line(rules))
                table_done = True
            continue
        lines.append(text)
    return lines
