"""Privacy: a private table is invisible to the uninvited on every route, in scoring's reads and on
the Trucker service; guests are never rated; erasing a player removes their personal data and chat,
shows them as "deleted player", and leaves every game they played passing the audit."""
import asyncio
import json

import pytest
import websockets

from starbase_core import tickets
from starbase_core.audit import PASS, audit_game
from starbase_rules.registry import get_game
from tests.support import sockets
from tests.support.stack import ApiPlayer, password_of, seat_and_start
from tests.trucker_service.live import Client, in_process, settings_for

pytestmark = pytest.mark.integration


async def play_out(players: list[ApiPlayer], game_id: str) -> None:
    """Stand whenever it is one's turn until the (Testjack) game ends."""
    for _ in range(100):
        view = await players[0].ok(players[0].get(f"/games/{game_id}/view"))
        if view["ended"]:
            return
        mover = next(p for p in players if p.player_id == view["view"]["to_act"])
        await mover.ok(mover.post(f"/games/{game_id}/commands", {"command": {"type": "Stand"}}))
    raise AssertionError("the game did not end")


async def scored(stack, game_id: str) -> dict:
    async def wait():
        while (found := await stack.ledger.result(game_id)) is None:
            await asyncio.sleep(0.05)
        return found
    return await asyncio.wait_for(wait(), 20)


async def first_message(url: str, offered=None) -> dict:
    """The refusal a socket gets, or the first event after its welcome."""
    async with websockets.connect(url, subprotocols=offered) as socket:
        message = await sockets.receive(socket)
        return message if message["kind"] == "error" else (await sockets.events(socket, 1))[0]


async def test_a_private_table_and_its_game_do_not_exist_for_the_uninvited(stack, http, register):
    ann, bob, eve = await register("ann"), await register("bob"), await register("eve")
    table = await ann.ok(ann.post("/tables", {"game": "testjack", "seats": 2, "private": True}))
    table_id, invite = table["table_id"], table["invite"]
    await bob.ok(bob.post(f"/tables/{table_id}/join", {"invite": invite}))
    await bob.ok(bob.post(f"/tables/{table_id}/chat", {"text": "our secret plan"}))
    for player in (ann, bob):
        await player.ok(player.post(f"/tables/{table_id}/ready"))
    await ann.ok(ann.post(f"/tables/{table_id}/start"))
    await play_out([ann, bob], table_id)
    await scored(stack, table_id)

    # Every route answers the stranger (and the anonymous) exactly as for a table that does not exist.
    for who in (eve, None):
        get = (lambda path, **q: who.get(path, **q)) if who else (lambda path, **q: http.get(path, params=q))
        listed = await get("/tables")
        assert table_id not in [t["table_id"] for t in listed.json()["items"]]
        for path in (f"/tables/{table_id}", f"/tables/{table_id}/chat", f"/games/{table_id}/view",
                     f"/games/{table_id}/log", f"/games/{table_id}/result"):
            reply = await get(path)
            assert reply.status_code == 404, (path, reply.text)
        history = await get(f"/players/{ann.player_id}/history")
        assert table_id not in [g["game_id"] for g in history.json()["games"]]
    for path, body in ((f"/tables/{table_id}/join", {}), (f"/tables/{table_id}/spectate", {}),
                       (f"/tables/{table_id}/chat", {"text": "hi"}), (f"/tables/{table_id}/ready", {}),
                       (f"/tables/{table_id}/start", None), (f"/games/{table_id}/commands", {"command": {"type": "Stand"}})):
        reply = await eve.post(path, body)
        assert reply.status_code == 404, (path, reply.text)
    assert (await eve.get(f"/games/{table_id}/actions")).status_code == 404
    assert (await eve.http.post("/tickets", json={"game_id": table_id}, headers=eve.auth)).status_code == 404
    for path in (f"/games/{table_id}/ws", f"/tables/{table_id}/ws"):
        refused = await first_message(stack.ws + path, tickets.subprotocols(await eve.ticket()))
        assert refused["kind"] == "error" and refused["id"] is None and refused["error"]["code"] in ("GAME_NOT_FOUND", "TABLE_NOT_FOUND")

    # Its players still see it all; an invite holder gets a ticket to watch it.
    assert (await bob.get(f"/games/{table_id}/result")).status_code == 200
    assert table_id in [g["game_id"] for g in (await bob.ok(bob.get(f"/players/{ann.player_id}/history")))["games"]]
    assert [m["text"] for m in await bob.ok(bob.get(f"/tables/{table_id}/chat"))] == ["our secret plan"]
    watch = await http.post("/tickets", json={"game_id": table_id, "invite": invite})
    first = await first_message(f"{stack.ws}/games/{table_id}/ws", watch.json()["protocols"])
    assert first["type"] == "GameCreated" and first["seq"] == 1


async def test_a_private_trucker_game_is_closed_to_strangers_on_the_trucker_service(stack, register, nats_url,
                                                                                    redis_url, namespace):
    settings = settings_for(nats_url, redis_url, namespace, event_stream=stack.settings.event_stream,
                            event_subject_prefix=stack.settings.event_subject_prefix,
                            seed_bucket=f"seeds{namespace}", trucker_trust_player_param=False,
                            trucker_bus_prefix=f"tr{namespace}")
    ann, bob, eve = await register("ann"), await register("bob"), await register("eve")
    table = await ann.ok(ann.post("/tables", {"game": "trucker", "seats": 2, "private": True}))
    await bob.ok(bob.post(f"/tables/{table['table_id']}/join", {"invite": table["invite"]}))
    for player in (ann, bob):
        await player.ok(player.post(f"/tables/{table['table_id']}/ready"))
    game_id = (await ann.ok(ann.post(f"/tables/{table['table_id']}/start")))["game_id"]
    async with in_process(settings) as base:
        url = f"{base}/tables/{game_id}/ws"

        async def connect(offered=None) -> Client:
            socket = await websockets.connect(url, subprotocols=offered, max_size=2 ** 22)
            return Client(socket, json.loads(await socket.recv()))

        player = await connect(tickets.subprotocols(await ann.ticket()))
        stranger = await connect(tickets.subprotocols(await eve.ticket()))
        anonymous = await connect()
        invited = await ann.http.post("/tickets", json={"game_id": game_id, "invite": table["invite"]})
        guest_of_invite = await connect(invited.json()["protocols"])       # no account, but the invite
        assert player.welcome["you"] == ann.player_id
        for refused in (stranger, anonymous):
            assert (refused.welcome["kind"], refused.welcome["error"]["code"]) == ("error", "NOT_A_TRUCKER_GAME")
        assert guest_of_invite.welcome["kind"] == "welcome" and guest_of_invite.welcome["you"] is None
        for client in (player, stranger, anonymous, guest_of_invite):
            await client.close()


async def test_guests_play_but_are_never_rated(stack, register, http):
    ann, guest = await register("ann"), await ApiPlayer.guest(http)
    game_id = await seat_and_start([ann, guest], "testjack")
    created = (await stack.store.read(f"game.{game_id}"))[0]
    assert created.data["options"]["guests"] == [guest.player_id] and created.data["options"]["private"] is False
    await play_out([ann, guest], game_id)
    result = await scored(stack, game_id)
    assert set(result["ratings"]) == {ann.player_id}
    board = await ann.ok(ann.get("/leaderboards/all"))
    assert [e["player_id"] for e in board["entries"]] == [ann.player_id]
    [entry] = (await guest.ok(guest.get(f"/players/{guest.player_id}/history")))["games"]
    assert entry["rating_after"] is None


async def test_an_erased_player_is_gone_but_their_games_still_pass_the_audit(stack, http, register):
    ann, bob = await register("ann"), await register("bob")
    table = await ann.ok(ann.post("/tables", {"game": "testjack", "seats": 2}))
    table_id = table["table_id"]
    await bob.ok(bob.post(f"/tables/{table_id}/join"))
    await bob.ok(bob.post(f"/tables/{table_id}/chat", {"text": "bob was here"}))
    await ann.ok(ann.post(f"/tables/{table_id}/chat", {"text": "ann too"}))
    for player in (ann, bob):
        await player.ok(player.post(f"/tables/{table_id}/ready"))
    await ann.ok(ann.post(f"/tables/{table_id}/start"))
    await play_out([ann, bob], table_id)
    await scored(stack, table_id)

    refused = await bob.http.request("DELETE", "/players/me", headers=bob.auth, json={"password": "not mine!!"})
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "WRONG_PASSWORD"
    erased = await bob.http.request("DELETE", "/players/me", headers=bob.auth, json={"password": password_of("bob")})
    assert erased.status_code == 204

    seats = (await ann.ok(ann.get(f"/tables/{table_id}")))["seats"]
    assert [s["name"] for s in seats] == ["ann", "deleted player"]
    assert [m["text"] for m in await ann.ok(ann.get(f"/tables/{table_id}/chat"))] == ["ann too"]
    assert (await bob.get("/players/me")).status_code == 401
    assert (await http.post("/sessions", json={"name": "bob", "password": password_of("bob")})).status_code == 401
    assert await stack.runtime.personal.read(f"chat.*.{bob.player_id}") == []
    assert await stack.runtime.directory.get(bob.player_id) is None
    # Nothing with bob's name in any append-only stream; his pseudonymous id stays, and the game audits.
    for stream in (f"table.{table_id}", f"game.{table_id}"):
        assert "bob" not in str([e.data for e in await stack.store.read(stream)]).replace(bob.player_id, "")
    report = audit_game(table_id, await stack.store.read(f"game.{table_id}"), get_game)
    assert report.verdict == PASS, report.problems
    await ApiPlayer.register(http, "bob")                        # the name is free again
