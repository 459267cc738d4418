"""The rules engine's library calls refuse values of the wrong kind at once, saying what
was wanted, and change nothing: no ``AttributeError`` from deep inside, no silent
acceptance of a seat that does not exist or of half a level.

A compiled (mypyc) build checks the argument types of its functions itself, with its own
words: the kind of error (``TypeError``) is the same there, the message is checked only
where the engine's own check speaks."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from shengji.engine import Hand, Lead, LegalPlays, Rules, Trick, Trump, check_throw
from shengji.engine.scoring import advance, level_change

TRUMP = Trump.parse("2H")
RULES = Rules()


def _lead(cards: str) -> Lead:
    return Lead.from_cards(cards, TRUMP, RULES)


WRONG_KINDS: dict[str, Callable[[], object]] = {
    "a trump that is not text": lambda: Trump.parse(None),  # type: ignore[arg-type]
    "a card that is not text": lambda: Hand(["AS", 5]),  # type: ignore[list-item]
    "no cards at all": lambda: Hand(None),  # type: ignore[arg-type]
    "a number for cards led": lambda: Lead.from_cards(5, TRUMP, RULES),  # type: ignore[arg-type]
    "a hand given as text": lambda: LegalPlays("AS KS", _lead("QS"), TRUMP,  # type: ignore[arg-type]
                                               RULES),
    "no cards to check": lambda: LegalPlays(Hand("AS KS"), _lead("QS"), TRUMP,
                                            RULES).reason(None),  # type: ignore[arg-type]
    "another hand given as text": lambda: check_throw(_lead("AS KS"), {1: "QS"},  # type: ignore[dict-item]
                                                      TRUMP, RULES),
    "the other hands as a list": lambda: check_throw(_lead("AS KS"), [Hand("QS")],  # type: ignore[arg-type]
                                                     TRUMP, RULES),
    "a play from a hand given as text": lambda: Trick(TRUMP, RULES, 0).play(
        "AS", "AS"),  # type: ignore[arg-type]
    "a leader given as text": lambda: Trick(TRUMP, RULES, "0"),  # type: ignore[arg-type]
    "points given as text": lambda: level_change("40", RULES),  # type: ignore[arg-type]
    "half a point": lambda: level_change(40.5, RULES),  # type: ignore[arg-type]
    "half a level": lambda: advance(2, 1.5, RULES, as_declarers=True),  # type: ignore[arg-type]
}


@pytest.mark.parametrize("case", list(WRONG_KINDS))
def test_a_value_of_the_wrong_kind_is_a_type_error(case: str) -> None:
    with pytest.raises(TypeError) as refused:
        WRONG_KINDS[case]()
    message = str(refused.value)
    assert "has no attribute" not in message and "not iterable" not in message
    assert "expected" in message or "object expected" in message, message


@pytest.mark.parametrize("leader", [-1, 4, 7])
def test_a_trick_led_from_a_seat_that_does_not_exist_is_refused(leader: int) -> None:
    with pytest.raises(ValueError, match="the leader must be a seat from 0 to 3"):
        Trick(TRUMP, RULES, leader)


def test_steps_down_are_refused() -> None:
    with pytest.raises(ValueError, match="steps must not be negative"):
        advance(5, -1, RULES, as_declarers=True)


def test_a_refused_throw_check_leaves_the_trick_as_it_was() -> None:
    trick = Trick(TRUMP, RULES, 0)
    with pytest.raises(TypeError, match=r"seat 1's hand|Hand object expected"):
        trick.play("AS KS", Hand("AS KS"), hands=["AS KS", "QS", "3C", "4C"])  # type: ignore[list-item]
    assert trick.lead is None and trick.plays == [] and trick.throw is None
    trick.play("AS KS", Hand("AS KS"), hands=[Hand("AS KS"), Hand("QS"), Hand("3C"),
                                             Hand("4C")])
    assert trick.throw is not None and trick.throw.valid
