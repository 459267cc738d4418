"""The ``call`` and ``show`` phases of a :class:`~shengji.game.round.Round`: Finding
Friends' calls, and the hands shown for a redeal (``redeal_show``).

Module-level functions taking the round (imported only for type checking).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from random import Random
from typing import TYPE_CHECKING

from shengji.engine.cards import Hand
from shengji.engine.friends import FriendCall, FriendTracker, allowed_calls, call_reason
from shengji.engine.reasons import Reason
from shengji.engine.rules import RedealShow
from shengji.game.actions import Action, Call, Pass, Show
from shengji.game.legal import Legal
from shengji.game.phase import Phase
from shengji.game.round_play import finish, start_play

if TYPE_CHECKING:
    from shengji.game.round import Round


def legal_call(rnd: Round, seat: int) -> Legal:
    """The dealer's friend calls (its :attr:`~shengji.game.legal.Legal.calls`)."""
    assert rnd.trump is not None
    trump, rules = rnd.trump, rnd.rules

    held = tuple(rnd.hands[seat].counts)
    buried = tuple(Hand(rnd.kitty).counts) if rnd.kitty_owner == seat else None
    removed = tuple(Hand(rnd.removed).counts) if rnd.removed else None

    def reason(action: Action) -> Reason | None:
        if not isinstance(action, Call):
            return Reason("call-needed", n=rules.friend_count)
        return call_reason(action.calls, trump, rules, held=held, buried=buried,
                           removed=removed)

    found: list[list[FriendCall]] = []

    def single_calls() -> list[FriendCall]:
        if not found:  # listed once, when first asked
            found.append(allowed_calls(trump, rules, held=held, buried=buried,
                                       removed=removed))
        return found[0]

    def actions() -> Iterator[Action]:
        for combo in combinations(single_calls(), rules.friend_count):
            yield Call(seat, combo)

    def sample(rng: Random) -> Action:
        return Call(seat, tuple(rng.sample(single_calls(), rules.friend_count)))

    return Legal(seat, reason, actions, sample, summary=Reason("do-call"),
                 calls=single_calls, call_count=rules.friend_count)


def call(rnd: Round, action: Call) -> None:
    rnd.tracker = FriendTracker(action.calls, action.seat, rnd.rules)
    after_call(rnd)


def after_call(rnd: Round) -> None:
    """The seats whose hands may be shown for a redeal are asked in turn from the
    dealer, if the rules allow it and there are any; else the play starts."""
    show = rnd.rules.redeal_show
    if show != RedealShow.OFF:
        assert rnd.trump is not None and rnd.dealer is not None
        order = [(rnd.dealer + k) % rnd.rules.players for k in range(rnd.rules.players)]
        trump = rnd.trump
        if show == RedealShow.NO_TRUMPS:
            queue = [s for s in order if not any(trump.is_trump(c) for c in rnd.hands[s])]
        else:
            queue = [s for s in order if not any(c.points for c in rnd.hands[s])]
        if queue:
            rnd.show_queue = tuple(queue)
            rnd.phase = Phase.SHOW
            return
    start_play(rnd)


def legal_show(seat: int) -> Legal:
    """Show the hand (a redeal) or pass."""
    return Legal(seat, lambda a: None if isinstance(a, Show | Pass) else
                 Reason("show-needed"),
                 lambda: iter((Show(seat), Pass(seat))), summary=Reason("do-show"))


def show(rnd: Round) -> None:
    finish(rnd, redeal=True)


def pass_show(rnd: Round) -> None:
    """The next seat that may show is asked; after the last, the play starts."""
    rnd.show_queue = rnd.show_queue[1:]
    if not rnd.show_queue:
        start_play(rnd)
