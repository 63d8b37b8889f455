"""Only the seated player acts for a seat; spectators never act; nobody reads the seed or another's cards."""
import asyncio
import json

import pytest

from tests.support import sockets
from tests.support.stack import seat_and_start

pytestmark = pytest.mark.integration


async def whose_turn(player, game_id) -> str:
    return (await player.ok(player.get(f"/games/{game_id}/view")))["view"]["to_act"]


async def test_a_player_cannot_act_for_another_seat_and_the_other_seat_is_untouched(stack, register):
    ann, bob = await register("ann"), await register("bob")
    game_id = await seat_and_start([ann, bob], "testjack")
    mover, other = (ann, bob) if await whose_turn(ann, game_id) == ann.player_id else (bob, ann)
    before = await stack.store.read(f"game.{game_id}")

    other_seat = 1 if other is bob else 0
    as_other = await mover.post(f"/games/{game_id}/commands", {"command": {"type": "Stand"}, "seat": other_seat})
    out_of_turn = await other.post(f"/games/{game_id}/commands", {"command": {"type": "Stand"}})

    assert (as_other.status_code, as_other.json()["error"]["code"]) == (403, "NOT_YOUR_SEAT")
    assert (out_of_turn.status_code, out_of_turn.json()["error"]["code"]) == (422, "NOT_YOUR_TURN")
    assert await stack.store.read(f"game.{game_id}") == before
    # Acting for one's own seat, named or not, works.
    my_seat = 1 - other_seat
    assert (await mover.post(f"/games/{game_id}/commands", {"command": {"type": "Think"}, "seat": my_seat})).status_code == 200


async def test_a_spectator_may_watch_but_never_act_nor_list_actions(stack, register):
    ann, bob, eve = await register("ann"), await register("bob"), await register("eve")
    game_id = await seat_and_start([ann, bob], "testjack")
    await eve.ok(eve.post(f"/tables/{game_id}/spectate"))
    before = await stack.store.last_seq(f"game.{game_id}")

    for command in ({"type": "Draw"}, {"type": "Stand"}):
        refused = await eve.post(f"/games/{game_id}/commands", {"command": command})
        assert (refused.status_code, refused.json()["error"]["code"]) == (403, "NOT_SEATED")
    actions = await eve.get(f"/games/{game_id}/actions")
    assert (actions.status_code, actions.json()["error"]["code"]) == (403, "NOT_SEATED")
    view = await eve.ok(eve.get(f"/games/{game_id}/view"))
    assert view["view"]["my_hand"] is None            # a spectator's view
    assert await stack.store.last_seq(f"game.{game_id}") == before


async def collect(url: str, who, until_type: str, into: list) -> None:
    async with await who.connect(url) as socket:
        await sockets.welcome(socket)
        async for raw in socket:
            into.append(sockets.event_of(sockets.parse(raw)))
            if into[-1].get("type") == until_type:
                return


async def test_views_logs_and_pushed_events_never_carry_the_seed_or_anothers_card(stack, register):
    ann, bob, eve = await register("ann"), await register("bob"), await register("eve")
    players = [ann, bob]
    game_id = await seat_and_start(players, "testjack")
    pushed = {who.name: [] for who in (ann, bob, eve)}
    listeners = [asyncio.create_task(collect(f"{stack.ws}/games/{game_id}/ws", who, "GameEnded",
                                             pushed[who.name])) for who in (ann, bob, eve)]
    read_before_end = []
    for turn in range(100):
        to_act = (await ann.ok(ann.get(f"/games/{game_id}/view")))["view"]["to_act"]
        if to_act is None:
            break
        for who in (ann, bob, eve):
            read_before_end.append(await who.ok(who.get(f"/games/{game_id}/view")))
            read_before_end.append(await who.ok(who.get(f"/games/{game_id}/log")))
        mover = ann if to_act == ann.player_id else bob
        await mover.ok(mover.post(f"/games/{game_id}/commands", {"command": {"type": "Draw" if turn % 3 else "Stand"}}))
    await asyncio.wait_for(asyncio.gather(*listeners), 30)

    stored = await stack.store.read(f"game.{game_id}")
    seed = stored[-1].data["seed"]
    assert stored[-1].type == "GameEnded" and len(seed) == 64
    assert not any(seed in json.dumps(item) for item in read_before_end)
    for name, events in pushed.items():
        assert [e["seq"] for e in events] == list(range(1, len(stored) + 1))
        assert not any(seed in json.dumps(e) for e in events[:-1])
        me = {"ann": ann, "bob": bob, "eve": eve}[name].player_id
        for event in events:
            if event["type"] in ("CardDealt", "CardDrawn"):
                assert ("card" in event["data"]) == (event["data"]["player"] == me), (name, event)
        assert not any("meta" in e or "hash" in e for e in events)


async def test_a_private_table_is_hidden_from_strangers(stack, register):
    host, eve = await register("host"), await register("eve")
    table = await host.ok(host.post("/tables", {"game": "testjack", "seats": 2, "private": True}))
    assert table["invite"]
    listed = await eve.ok(eve.get("/tables", game="testjack"))
    assert table["table_id"] not in [t["table_id"] for t in listed["items"]]
    hidden = await eve.get(f"/tables/{table['table_id']}")
    assert hidden.status_code == 404
    refused = await eve.post(f"/tables/{table['table_id']}/join")
    assert refused.status_code == 404 and refused.json()["error"]["code"] == "TABLE_NOT_FOUND"   # not disclosed
    joined = await eve.ok(eve.post(f"/tables/{table['table_id']}/join", {"invite": table["invite"]}))
    assert [s["player_id"] for s in joined["seats"]] == [host.player_id, eve.player_id]
