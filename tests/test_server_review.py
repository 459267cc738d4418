""""Review this round" in the server: a seated player's own decisions in the last finished
round, judged from what the seat knew, sent to the one who asked and to nobody else."""

from __future__ import annotations

import json
import random

import pytest

from shengji.analysis import REVIEW_BUDGET, Analysis, analyze
from shengji.game.record import Record
from test_server_protocol import Server, joined, play_round, serving, table


@pytest.mark.slow
def test_a_seated_player_reviews_their_own_last_round() -> None:
    with serving() as (_http, server):
        check_reviews(server)


def check_reviews(server: Server) -> None:
    code = server.room("da-bai-fen", 4)
    people = table(server, code, [0, 2], {1: "heuristic", 3: "heuristic"})
    host, other = people[0], people[2]
    watcher = joined(server, code, "watcher")
    host.send("start")
    assert host.error("review")["code"] == "no-review"  # nothing has finished yet
    assert watcher.error("review")["code"] == "not-seated"
    pick = random.Random(5)
    play_round(people, [watcher], pick)
    while (match := server.live(code).state.match) is not None and match.results[-1].redeal:
        for seat, c in people.items():  # a redealt round: play on to one played to the end
            c.send("next_round")
            c.until(lambda m, s=seat: m["type"] == "state" and s not in m["match"]["waiting"])
        play_round(people, [watcher], pick)
    assert match is not None
    number = len(match.results)

    host.send("review")
    review = host.expect("review")
    assert (review["round"], review["seat"]) == (number, 0)
    analysis = Analysis.from_dict(review["analysis"])
    assert analysis.seat == 0 and analysis.budget == REVIEW_BUDGET and not analysis.open_hands
    assert [r.number for r in analysis.rounds] == [number] and analysis.decisions
    assert all(o.action.startswith("0 ") for d in analysis.decisions for o in d.options)
    # it is the analysis of the match as it stood, from the seat's knowledge, with its seed
    again = analyze(Record.of(match), 0, budget=REVIEW_BUDGET, seed=analysis.seed,
                    rounds=[number])
    assert json.loads(again.to_json()) == review["analysis"]
    # asked again: the same review at once; the other player gets their own seat's, and
    # nobody else hears of either
    host.send("review")
    assert host.expect("review") == review
    other.send("review")
    theirs = other.expect("review")
    assert theirs["seat"] == 2 and theirs["analysis"] != review["analysis"]
    host.send("chat", text="done")
    for client in (host, other, watcher):
        client.until(lambda m: m["type"] == "chat" and m["text"] == "done")
    assert [m for m in watcher.seen if m["type"] == "review"] == []
    assert [m["seat"] for m in host.seen if m["type"] == "review"] == [0, 0]
    assert [m["seat"] for m in other.seen if m["type"] == "review"] == [2]


@pytest.mark.slow
def test_once_the_next_round_has_begun_no_new_review_is_made() -> None:
    """During a round nothing is analysed: a review not asked for at the score sheet is
    refused once the next round has begun; one made before is still answered."""
    with serving() as (_http, server):
        code = server.room("da-bai-fen", 4)
        people = table(server, code, [0, 2], {1: "heuristic", 3: "heuristic"})
        host, other = people[0], people[2]
        host.send("start")
        play_round(people, [], random.Random(7))
        host.send("review")
        made = host.expect("review")
        for seat, c in people.items():
            c.send("next_round")
            c.until(lambda m, s=seat: m["type"] == "state" and s not in m["match"]["waiting"])
        while not (match := server.live(code).state.match).round.history:  # the next deal
            other.until(lambda m: m["type"] == "state")
        assert not match.is_over
        refused = other.error("review")
        assert refused["code"] == "round-in-play" and "between rounds" in refused["message"]
        host.send("review")
        assert host.expect("review") == made
