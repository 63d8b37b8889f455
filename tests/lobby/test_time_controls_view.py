"""Time controls through the lobby: refused with a clear message when bad, and shown to everyone who sees
the game (each seat's bank, who owes since when, and due_at), from the stream's own server times."""
from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from tests.support.stack import seat_and_start

pytestmark = pytest.mark.integration


@pytest.mark.parametrize("options, words", [
    ({"bank_seconds": 1e300}, "bank_seconds is 0 (off) or 10 to"),
    ({"decision_seconds": 10**400}, "decision_seconds is 0 (off) or 5 to"),
    ({"increment_seconds": 30}, "set bank_seconds too"),
    ({"timeout_policy": "robot"}, "timeout_policy is one of default_move, bot, lose, not 'robot'"),
    ({"timeout_policy": {"a": 1}}, "timeout_policy is one of default_move"),
    ({"days_per_move": 1.5}, "whole days"),
    ({"days_per_move": 3, "decision_seconds": 600}, "not both"),
])
async def test_bad_time_controls_are_refused_when_the_table_is_opened(stack, register, options, words):
    ann = await register("ann")
    reply = await ann.post("/tables", {"game": "testjack", "seats": 2, "options": options})
    assert reply.status_code == 422, reply.text
    error = reply.json()["error"]
    assert error["code"] == "BAD_OPTION" and words in error["message"]
    assert stack.runtime.projection.open_tables_of(ann.player_id) == 0


def at(text: str) -> datetime:
    return datetime.fromisoformat(text)


async def test_everyone_sees_each_seats_bank_and_the_due_time_of_the_decision_owed(register):
    ann, bob, cyd = await register("ann"), await register("bob"), await register("cyd")
    options = {"bank_seconds": 600, "increment_seconds": 10, "timeout_policy": "default_move"}
    game_id = await seat_and_start([ann, bob], "testjack", options)

    seen = [await ann.ok(ann.get(f"/games/{game_id}/view")), await cyd.ok(cyd.get(f"/games/{game_id}/view")),
            await cyd.ok(cyd.get(f"/tables/{game_id}"))]
    for view in seen:              # a seat and a spectator see the same clock, in the view and the table
        clock = view["clock"]
        assert clock["control"] == {"decision_seconds": None, "bank_seconds": 600, "increment_seconds": 10,
                                    "timeout_policy": "default_move"}
        owes = clock["seats"][ann.player_id]
        assert at(owes["due_at"]) == at(owes["owes_since"]) + timedelta(seconds=600)
        assert 0 < owes["bank_seconds"] <= 600
        assert clock["seats"][bob.player_id] == {"bank_seconds": 600, "owes_since": None, "due_at": None}

    await ann.ok(ann.post(f"/games/{game_id}/commands", {"command": {"type": "Stand"}}))
    clock = (await cyd.ok(cyd.get(f"/games/{game_id}/view")))["clock"]
    # ann's decision was charged and the increment added; bob owes now, with his whole bank.
    assert 600 < clock["seats"][ann.player_id]["bank_seconds"] <= 610 and clock["seats"][ann.player_id]["due_at"] is None
    bob_owes = clock["seats"][bob.player_id]
    assert at(bob_owes["due_at"]) == at(bob_owes["owes_since"]) + timedelta(seconds=600)
    assert at(bob_owes["owes_since"]) > at(seen[0]["clock"]["seats"][ann.player_id]["owes_since"])


async def test_a_game_without_time_controls_shows_no_clock_and_a_per_move_limit_shows_its_due_time(register):
    ann, bob = await register("ann"), await register("bob")
    untimed = await seat_and_start([ann, bob], "testjack")
    assert (await ann.ok(ann.get(f"/games/{untimed}/view")))["clock"] is None
    ann2, bob2 = await register("ann2"), await register("bob2")
    days = await seat_and_start([ann2, bob2], "testjack", {"days_per_move": 2})
    owes = (await bob2.ok(bob2.get(f"/games/{days}/view")))["clock"]["seats"][ann2.player_id]
    assert at(owes["due_at"]) == at(owes["owes_since"]) + timedelta(days=2) and owes["bank_seconds"] is None
