"""WebSockets resume from the last seq a client saw; tables list, filter and page; chat is kept."""
import asyncio
import json

import httpx
import pytest
import websockets

from lobby.projection import TableFilter, TableProjection
from starbase_core import tickets
from starbase_core import outlet as outlet_module
from tests.support import sockets
from tests.support.stack import another_lobby, seat_and_start

pytestmark = pytest.mark.integration
receive = sockets.events


async def test_a_socket_resumes_after_a_reconnect_from_the_last_seq_it_saw(stack, register):
    ann, bob = await register("ann"), await register("bob")
    game_id = await seat_and_start([ann, bob], "testjack")
    url = f"{stack.ws}/games/{game_id}/ws?after=0"
    start_seq = await stack.store.last_seq(f"game.{game_id}")

    async with await ann.connect(url) as socket:
        hello = await sockets.welcome(socket)
        seen = await receive(socket, start_seq)
    assert hello == {"v": 1, "kind": "welcome", "stream": f"game.{game_id}", "you": ann.player_id, "seq": start_seq}
    # While ann is away, both players move (Think changes nothing but is recorded).
    for _ in range(2):
        for player in (ann, bob):
            if (await player.ok(player.get(f"/games/{game_id}/actions"))):
                await player.ok(player.post(f"/games/{game_id}/commands", {"command": {"type": "Think"}}))
    now = await stack.store.last_seq(f"game.{game_id}")
    assert now > start_seq

    async with await ann.connect(f"{stack.ws}/games/{game_id}/ws?after={seen[-1]['seq']}") as socket:
        assert (await sockets.welcome(socket))["seq"] == now
        missed = await receive(socket, now - start_seq)
        mover = ann if (await ann.ok(ann.get(f"/games/{game_id}/actions"))) else bob
        await mover.ok(mover.post(f"/games/{game_id}/commands", {"command": {"type": "Think"}}))
        live = await receive(socket, 1)
    assert [e["seq"] for e in seen + missed + live] == list(range(1, now + 2))
    assert all(e["stream"] == f"game.{game_id}" for e in seen + missed + live)


async def test_a_spectator_is_welcomed_as_nobody_and_a_seated_player_as_themself(stack, register):
    ann, bob, cy = await register("ann"), await register("bob"), await register("cy")
    game_id = await seat_and_start([ann, bob], "testjack")
    last = await stack.store.last_seq(f"game.{game_id}")
    for who, expected in ((cy, None), (bob, bob.player_id)):
        async with await who.connect(f"{stack.ws}/games/{game_id}/ws?after={last}") as socket:
            assert await sockets.welcome(socket) == {"v": 1, "kind": "welcome", "stream": f"game.{game_id}",
                                                     "you": expected, "seq": last}
    async with websockets.connect(f"{stack.ws}/games/{game_id}/ws") as anonymous:
        assert (await sockets.welcome(anonymous))["you"] is None


async def test_a_reader_too_slow_for_its_stream_is_closed_with_4408_and_resumes(stack, register, monkeypatch):
    ann, bob = await register("ann"), await register("bob")
    game_id = await seat_and_start([ann, bob], "testjack")
    written = []
    real_write = outlet_module.Outlet.write

    def takes_one_write(outlet, framed: bytes) -> bool:     # the welcome and backlog fit; then its buffer is full
        written.append(framed)
        return len(written) == 1 and real_write(outlet, framed)

    monkeypatch.setattr(outlet_module.Outlet, "write", takes_one_write)
    monkeypatch.setattr(outlet_module.Outlet, "slow", lambda outlet: len(written) > 1)
    last = await stack.store.last_seq(f"game.{game_id}")
    async with await ann.connect(f"{stack.ws}/games/{game_id}/ws?after=0") as socket:
        await sockets.welcome(socket)
        backlog = await receive(socket, last)
        mover = ann if (await ann.ok(ann.get(f"/games/{game_id}/actions"))) else bob
        await mover.ok(mover.post(f"/games/{game_id}/commands", {"command": {"type": "Think"}}))
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await receive(socket, 1)
    assert [e["seq"] for e in backlog] == list(range(1, last + 1)) and closed.value.rcvd.code == 4408
    monkeypatch.undo()
    async with await ann.connect(f"{stack.ws}/games/{game_id}/ws?after={last}") as socket:   # resumes past it
        await sockets.welcome(socket)
        assert (await receive(socket, 1))[0]["seq"] == last + 1


async def test_a_socket_on_an_unknown_game_or_with_a_bad_ticket_or_a_token_in_its_url_gets_a_clear_error(
        stack, register):
    ann, bob = await register("ann"), await register("bob")
    game_id = await seat_and_start([ann, bob], "testjack")
    used = await ann.ticket()
    async with websockets.connect(f"{stack.ws}/games/{game_id}/ws", subprotocols=tickets.subprotocols(used)):
        pass
    for path, offered, code in (
            ("/games/nosuch/ws", None, "GAME_NOT_FOUND"),
            (f"/games/{game_id}/ws", tickets.subprotocols("forged-ticket"), "INVALID_TICKET"),
            (f"/games/{game_id}/ws", tickets.subprotocols(used), "INVALID_TICKET"),          # single use
            (f"/games/{game_id}/ws?token={ann.token}", None, "TOKEN_IN_URL"),
            (f"/games/{game_id}/ws?after=minus", None, "BAD_AFTER")):
        async with websockets.connect(stack.ws + path, subprotocols=offered) as socket:
            assert (await sockets.refusal(socket))["code"] == code
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await asyncio.wait_for(socket.recv(), 10)
            assert closed.value.rcvd.code >= 4400


async def test_tables_list_by_game_status_and_free_seats_newest_first_in_pages(stack, register):
    hosts = [await register(f"host{i}") for i in range(5)]
    tables = [await h.ok(h.post("/tables", {"game": "testjack", "seats": 2 + i % 2})) for i, h in enumerate(hosts)]
    await hosts[1].ok(hosts[1].post(f"/tables/{tables[0]['table_id']}/join"))     # table 0 is now full
    reader = hosts[4]

    page1 = await reader.ok(reader.get("/tables", game="testjack", status="open", limit=2))
    page2 = await reader.ok(reader.get("/tables", game="testjack", status="open", limit=2, offset=2))
    everything = await reader.ok(reader.get("/tables", game="testjack", limit=100))
    with_room = await reader.ok(reader.get("/tables", game="testjack", free_seats=2))

    ids = [t["table_id"] for t in tables]
    assert [t["table_id"] for t in everything["items"]] == ids[::-1]
    assert page1["total"] == 5 and [t["table_id"] for t in page1["items"] + page2["items"]] == ids[::-1][:4]
    assert {t["table_id"] for t in with_room["items"]} == {ids[1], ids[3]}             # three seats, one taken
    assert (await reader.get("/tables", game="chess")).json()["total"] == 0
    assert (await reader.get("/tables", status="nonsense")).status_code == 422


async def test_leave_ready_and_chat_are_pushed_to_the_table_socket_and_chat_stays_out_of_the_stream(
        stack, register):
    ann, bob = await register("ann"), await register("bob")
    table = await ann.ok(ann.post("/tables", {"game": "testjack", "seats": 2}))
    table_id = table["table_id"]
    async with await bob.connect(f"{stack.ws}/tables/{table_id}/ws") as socket:
        await bob.ok(bob.post(f"/tables/{table_id}/join"))
        await bob.ok(bob.post(f"/tables/{table_id}/chat", {"text": "hello"}))
        ready = await bob.ok(bob.post(f"/tables/{table_id}/ready", {"ready": True}))
        assert [s["ready"] for s in ready["seats"]] == [False, True]
        left = await bob.ok(bob.post(f"/tables/{table_id}/leave"))
        assert left["free_seats"] == 1
        pushed = await sockets.items(socket, 6)
    assert [e.get("type") or e["kind"] for e in pushed] == ["TableCreated", "PlayerSeated", "PlayerSeated", "chat",
                                                            "ReadinessChanged", "PlayerLeft"]
    assert pushed[3]["text"] == "hello" and pushed[3]["name"] == "bob"
    chat = await ann.ok(ann.get(f"/tables/{table_id}/chat"))
    assert [(m["name"], m["text"]) for m in chat] == [("bob", "hello")]
    stored = await stack.store.read(f"table.{table_id}")
    assert "hello" not in json.dumps([e.data for e in stored])       # never in the append-only stream


async def test_a_restarted_lobby_rebuilds_its_table_list_from_the_store(stack, register):
    ann = await register("ann")
    table = await ann.ok(ann.post("/tables", {"game": "testjack", "seats": 2}))
    original = stack.runtime.projection.get(table["table_id"])
    rebuilt = TableProjection(stack.store)
    follower = stack.store.follow(0, "table.>")
    async for _, envelope in follower:
        await rebuilt.apply(envelope)
        if envelope.seq == original.seq:
            break
    await follower.aclose()
    assert rebuilt.get(table["table_id"]) == original
    assert rebuilt.list(TableFilter(game="testjack"), 0, 10)[1] == 1


async def test_a_lobby_started_on_a_busy_store_is_ready_only_with_its_table_list_rebuilt(stack, register):
    hosts = [await register(f"h{i}") for i in range(3)]
    opened = {(await h.ok(h.post("/tables", {"game": "testjack", "seats": 2})))["table_id"] for h in hosts}
    async with another_lobby(stack) as other:
        async with httpx.AsyncClient(base_url=f"http://{other}") as http_b:
            while (await http_b.get("/readyz")).status_code != 200:
                await asyncio.sleep(0.05)
            listed = (await http_b.get("/tables", params={"game": "testjack", "limit": 100})).json()
    assert {t["table_id"] for t in listed["items"]} >= opened
