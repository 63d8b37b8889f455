"""Through the public API: a command sent twice at once with one `command_id` (a client resending
after a timeout) is applied once and both requests are told so; a request is never refused for a
command that was in fact applied (issue 14: two concurrent POSTs used to give 200 and 422)."""
import asyncio

import pytest

from tests.support.stack import seat_and_start

pytestmark = pytest.mark.integration

TRIES = 10


async def test_two_concurrent_posts_of_one_command_id_both_answer_with_its_events(stack, register):
    ann = await register("ann")
    for attempt in range(TRIES):
        game_id = await seat_and_start([ann], "testjack")
        # Standing ends a one-seat game: an attempt decided after the first one landed is GAME_OVER.
        body = {"command": {"type": "Stand"}, "command_id": f"resent-{attempt}"}
        replies = await asyncio.gather(*(ann.post(f"/games/{game_id}/commands", body) for _ in range(2)))

        assert [reply.status_code for reply in replies] == [200, 200], [reply.text for reply in replies]
        assert replies[0].json() == replies[1].json()
        stream = await stack.store.read(f"game.{game_id}")
        applied = [e for e in stream if e.command_id == f"{ann.player_id}:resent-{attempt}"]
        assert [e.type for e in applied] == ["Stood", "GameEnded"]
        assert [e["seq"] for e in replies[0].json()["events"]] == [e.seq for e in applied]
