"""Quick play's rating bands through the API: far-apart players wait at two tables at first; as the
bands widen the sweep merges them (the younger table's player moves, it closes) and the table fills."""
import json

import pytest

from tests.support.loop import eventually

pytestmark = pytest.mark.integration


@pytest.fixture
def stack_options() -> dict:
    # Bands that widen fast (100 rating points a second), so the merge comes within the test's patience.
    return {"settings": {"lobby_quickplay_band": 5.0, "lobby_quickplay_widen": 100.0}}


async def rate(stack, player, mu: float) -> None:
    """Give a player a rating on testjack's board, as scoring would have after some games."""
    await stack.runtime.redis.hset(stack.ledger.key("rating", "testjack"), player.player_id,
                                   json.dumps({"mu": mu, "sigma": 2.0}))


async def test_far_apart_players_wait_apart_then_the_sweep_seats_them_together(stack, register):
    ann, bob, cy = await register("ann"), await register("bob"), await register("cy")
    await rate(stack, ann, 10.0)
    await rate(stack, bob, 40.0)
    body = {"game": "testjack", "seats": 3}
    first = await ann.ok(ann.post("/quickplay", body))
    second = await bob.ok(bob.post("/quickplay", body))
    assert second["table_id"] != first["table_id"]              # 30 apart: no band covers both yet

    async def bob_moved():
        tables = (await bob.ok(bob.get("/players/me/tables")))["items"]
        return [t["table_id"] for t in tables] == [first["table_id"]] or None
    await eventually(bob_moved, "the sweep to move bob to ann's table")
    left = await bob.ok(bob.get(f"/tables/{second['table_id']}"))
    assert left["status"] == "closed" and all(s["player_id"] is None for s in left["seats"])

    joined = await cy.ok(cy.post("/quickplay", body))
    assert joined["table_id"] == first["table_id"]
    table = await eventually(lambda: _playing(cy, first["table_id"]), "the merged table to fill and start")
    assert [s["player_id"] for s in table["seats"]] == [ann.player_id, bob.player_id, cy.player_id]


async def _playing(player, table_id):
    table = await player.ok(player.get(f"/tables/{table_id}"))
    return table if table["status"] == "playing" else None
