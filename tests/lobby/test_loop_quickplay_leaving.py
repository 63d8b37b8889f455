"""Quick play: a waiting player leaves the queue when they give no sign of life (no socket on the table,
no POST /quickplay) for `idle` seconds, or `grace` seconds after their last socket on it closed; a live
socket keeps them queued however long they wait."""
import asyncio

import pytest

from tests.support.loop import eventually

pytestmark = pytest.mark.integration

IDLE = 6.0        # long enough for bob's socket to open, under load, before he could time out


@pytest.fixture
def stack_options() -> dict:
    return {"settings": {"lobby_quickplay_idle": IDLE, "lobby_quickplay_grace": 1.0}}


def seated(table: dict) -> list[str]:
    return [s["player_id"] for s in table["seats"] if s["player_id"]]


async def test_a_silent_player_times_out_and_a_connected_one_waits_until_they_disconnect(stack, register):
    ann, bob, cy = await register("ann"), await register("bob"), await register("cy")
    body = {"game": "testjack", "seats": 3, "rated": False}
    table = await ann.ok(ann.post("/quickplay", body))
    table_id = table["table_id"]
    await bob.ok(bob.post("/quickplay", body))
    socket = await bob.connect(f"{stack.ws}/tables/{table_id}/ws")      # bob holds a socket; ann does not

    async def only(players):
        now = seated(await cy.ok(cy.get(f"/tables/{table_id}")))
        return now == players

    await eventually(lambda: only([bob.player_id]), "ann to time out of the queue")
    assert (await ann.ok(ann.get("/players/me/tables")))["items"] == []
    await asyncio.sleep(IDLE + 1)                                        # bob, connected, is still there
    assert await only([bob.player_id])

    await socket.close()                                                 # disconnected: out after the grace
    closed = await eventually(lambda: _closed(cy, table_id), "the empty table to close")
    assert seated(closed) == []
    assert await stack.runtime.redis.keys(f"{stack.runtime.loop.quickplay.base}*") == []

    again = await ann.ok(ann.post("/quickplay", body))                   # out of the queue: she may ask again
    assert again["table_id"] != table_id and seated(again) == [ann.player_id]


async def test_asking_again_is_a_sign_of_life(stack, register):
    ann = await register("ann")
    body = {"game": "testjack", "seats": 2, "rated": False}
    table_id = (await ann.ok(ann.post("/quickplay", body)))["table_id"]
    quick = stack.runtime.loop.quickplay
    first = float(await stack.runtime.redis.hget(f"{quick.base}seen:{table_id}", ann.player_id))
    await asyncio.sleep(0.05)
    assert (await ann.ok(ann.post("/quickplay", body)))["table_id"] == table_id
    assert float(await stack.runtime.redis.hget(f"{quick.base}seen:{table_id}", ann.player_id)) > first
    # Judged stale by a sweep that looked before her call: the leave script keeps her all the same.
    assert await quick._run("leave", table_id, ann.player_id, int(first) + 1) == 0
    assert seated(await ann.ok(ann.get(f"/tables/{table_id}"))) == [ann.player_id]


async def _closed(player, table_id):
    table = await player.ok(player.get(f"/tables/{table_id}"))
    return table if table["status"] == "closed" else None
