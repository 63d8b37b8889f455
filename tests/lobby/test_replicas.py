"""Two lobby replicas on one store: tokens, tables and live events work across them, no stickiness."""
import asyncio

import httpx
import pytest

from tests.support import sockets
from tests.support.stack import ApiPlayer, another_lobby

pytestmark = pytest.mark.integration


async def eventually(check, what: str, timeout: float = 20):
    deadline = asyncio.get_running_loop().time() + timeout
    while (value := await check()) is None:
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        await asyncio.sleep(0.05)
    return value


async def test_a_game_started_on_one_replica_is_watched_and_played_through_the_other(stack, http):
    async with another_lobby(stack) as other, httpx.AsyncClient(base_url=f"http://{other}", timeout=20) as http_b:
        ann = await ApiPlayer.register(http, "ann")                      # registered on replica A
        bob_on_b = await ApiPlayer.register(http_b, "bob")               # registered on replica B
        ann_on_b = ann.on(http_b)                                        # A's token, used on B
        bob = bob_on_b.on(http)

        table = await ann.ok(ann.post("/tables", {"game": "testjack", "seats": 2}))
        table_id = table["table_id"]

        async def listed_on_b():
            page = await bob_on_b.ok(bob_on_b.get("/tables", game="testjack", status="open"))
            return page if table_id in [t["table_id"] for t in page["items"]] else None

        await eventually(listed_on_b, "replica B to list the table opened on A")
        await bob_on_b.ok(bob_on_b.post(f"/tables/{table_id}/join"))
        await ann_on_b.ok(ann_on_b.post(f"/tables/{table_id}/ready"))
        await bob.ok(bob.post(f"/tables/{table_id}/ready"))
        await ann.ok(ann.post(f"/tables/{table_id}/start"))

        async with await bob.connect(f"ws://{other}/games/{table_id}/ws") as socket:   # ticket from A, used on B
            seen = []
            for _ in range(20):
                view = await ann.ok(ann.get(f"/games/{table_id}/view"))
                if view["ended"]:
                    break
                mover = ann if view["view"]["to_act"] == ann.player_id else bob     # moves go to replica A
                await mover.ok(mover.post(f"/games/{table_id}/commands", {"command": {"type": "Stand"}}))
            last = (await ann.ok(ann.get(f"/games/{table_id}/log")))["last_seq"]
            while not seen or seen[-1]["seq"] < last:
                seen.extend(await sockets.events(socket, 1))
        assert [e["seq"] for e in seen] == list(range(1, last + 1))
        assert seen[-1]["type"] == "GameEnded"
        finished = await eventually(
            lambda: _if_finished(bob_on_b, table_id), "replica B to show the table finished")
        assert finished["standings"] == seen[-1]["data"]["standings"]


async def _if_finished(player, table_id):
    table = await player.ok(player.get(f"/tables/{table_id}"))
    return table if table["status"] == "finished" else None
