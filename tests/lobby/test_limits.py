"""Every limit on two lobby replicas sharing one Redis: reached through either replica, answered
429 RATE_LIMITED with Retry-After, and nothing done past it."""
import asyncio

import httpx
import pytest
import websockets

from lobby.config import LobbySettings
from tests.support import sockets
from tests.support.stack import ApiPlayer, another_lobby, local_stack, password_of

pytestmark = pytest.mark.integration
WAIT = 30.0     # a bound on a hang (a loaded machine is slow), never a timing assertion

TIGHT = dict(lobby_limit_registrations="3/minute", lobby_limit_logins="4/minute", lobby_limit_commands="3/minute",
             lobby_limit_chat="2/minute", lobby_limit_tables="3/minute", lobby_max_open_tables=2,
             lobby_max_sockets_per_player=2, lobby_max_sockets_per_address=3, lobby_limit_tickets="6/minute",
             lobby_limit_reports="1/hour")


@pytest.fixture
async def replicas(nats_url, redis_url, namespace):
    """Two replicas, A and B, on one store and one Redis, with tight limits: (stack, http A, http B)."""
    async with local_stack(nats_url, redis_url, namespace, scoring=False, settings=TIGHT) as stack, \
            another_lobby(stack) as other, \
            httpx.AsyncClient(base_url=stack.http, timeout=WAIT) as a, \
            httpx.AsyncClient(base_url=f"http://{other}", timeout=WAIT) as b:
        yield stack, a, b, f"ws://{other}"


def limited(reply) -> int:
    assert reply.status_code == 429, reply.text
    assert reply.json()["error"]["code"] == "RATE_LIMITED" and reply.json()["error"]["message"]
    assert int(reply.headers["Retry-After"]) >= 1
    return int(reply.headers["Retry-After"])


async def test_registrations_and_log_ins_per_address(replicas):
    stack, a, b, _ = replicas
    for name, http in (("ann", a), ("bob", b), ("cy", a)):
        assert (await http.post("/players", json={"name": name, "password": password_of(name)})).status_code == 201
    limited(await b.post("/players", json={"name": "dee", "password": password_of("dee")}))
    limited(await a.post("/players/guest"))
    assert (await a.post("/sessions", json={"name": "dee", "password": password_of("dee")})).status_code == 401
    for http in (b, a, b):
        assert (await http.post("/sessions", json={"name": "ann", "password": password_of("ann")})).status_code == 200
    limited(await a.post("/sessions", json={"name": "ann", "password": password_of("ann")}))


async def players(stack, a, b, names) -> list[ApiPlayer]:
    """Players registered straight through the account service (the registration limit is tested above)."""
    made = []
    for index, name in enumerate(names):
        account, pair = await stack.runtime.accounts.register(name, password_of(name), f"10.0.0.{index}")
        made.append(ApiPlayer(a if index % 2 == 0 else b, account.player_id, name, pair.access_token))
    return made


async def test_commands_chat_and_tables_per_player(replicas):
    stack, a, b, _ = replicas
    ann, bob = await players(stack, a, b, ["ann", "bob"])
    table = await ann.ok(ann.post("/tables", {"game": "testjack", "seats": 2}))
    await bob.ok(bob.post(f"/tables/{table['table_id']}/join"))
    for text in ("one", "two"):
        await bob.ok(bob.on(a if text == "one" else b).post(f"/tables/{table['table_id']}/chat", {"text": text}))
    limited(await bob.post(f"/tables/{table['table_id']}/chat", {"text": "three"}))
    assert [m["text"] for m in await ann.ok(ann.get(f"/tables/{table['table_id']}/chat"))] == ["one", "two"]

    # Open tables: at most 2 hosted and open at once (one is open already), whatever the replica.
    await ann.on(b).ok(ann.on(b).post("/tables", {"game": "testjack", "seats": 2}))
    # Each replica counts them on its own table projection, a few milliseconds behind the store (the
    # per-minute table limit below is Redis's, exact across replicas): once A has seen B's table...
    async with asyncio.timeout(WAIT):
        while stack.runtime.projection.open_tables_of(ann.player_id) < 2:
            await asyncio.sleep(0.01)
    limited(await ann.post("/tables", {"game": "testjack", "seats": 2}))
    # New tables per minute: bob may open 3, not a 4th, even after leaving them.
    for _ in range(3):
        opened = await bob.ok(bob.post("/tables", {"game": "testjack", "seats": 1}))
        await bob.ok(bob.post(f"/tables/{opened['table_id']}/leave"))
    limited(await bob.on(a).post("/tables", {"game": "testjack", "seats": 1}))



async def test_commands_per_player(replicas):
    stack, a, b, _ = replicas
    [cy] = await players(stack, a, b, ["cy"])
    solo = await cy.ok(cy.post("/tables", {"game": "testjack", "seats": 1}))
    await cy.ok(cy.post(f"/tables/{solo['table_id']}/ready"))
    game_id = (await cy.ok(cy.post(f"/tables/{solo['table_id']}/start")))["game_id"]
    for replica in (a, b, a):                   # Think: legal on her turn, recorded, changes nothing
        await cy.on(replica).ok(cy.on(replica).post(f"/games/{game_id}/commands", {"command": {"type": "Think"}}))
    stored = await stack.store.last_seq(f"game.{game_id}")
    limited(await cy.on(b).post(f"/games/{game_id}/commands", {"command": {"type": "Think"}}))
    assert await stack.store.last_seq(f"game.{game_id}") == stored


async def test_tickets_and_reports_per_player(replicas):
    stack, a, b, _ = replicas
    dee, eve = await players(stack, a, b, ["dee", "eve"])
    for index in range(6):
        await dee.on(a if index % 2 else b).ticket()
    limited(await dee.http.post("/tickets", json={}, headers=dee.auth))
    await dee.ok(dee.post("/reports", {"player_id": eve.player_id, "reason": "spam"}))
    limited(await dee.on(b).post("/reports", {"player_id": eve.player_id, "reason": "spam again"}))
    assert len(await stack.runtime.moderation.reports(0, 100)) == 1


async def sockets_counted(stack, player: ApiPlayer, count: int) -> None:
    """Until the shared socket count of `player` is `count` (the server releases a place on close)."""
    quota = stack.runtime.socket_quota
    while await quota.redis.zcard(f"{quota.prefix}:sockets:player:{player.player_id}") != count:
        await asyncio.sleep(0.05)


async def test_sockets_per_player_and_per_address(replicas):
    stack, a, b, ws_b = replicas
    [ann] = await players(stack, a, b, ["ann"])
    table = await ann.ok(ann.post("/tables", {"game": "testjack", "seats": 2}))
    path = f"/tables/{table['table_id']}/ws"
    held = [await ann.connect(stack.ws + path), await ann.on(b).connect(ws_b + path)]
    for socket in held:
        await sockets.welcome(socket)
    async with await ann.connect(stack.ws + path) as third:
        assert (await sockets.refusal(third))["code"] == "RATE_LIMITED"
    anonymous = await websockets.connect(ws_b + path)          # the address's third socket
    await sockets.welcome(anonymous)
    async with websockets.connect(stack.ws + path) as fourth:
        assert (await sockets.refusal(fourth))["code"] == "RATE_LIMITED"
    await held[0].close()
    await asyncio.wait_for(sockets_counted(stack, ann, 1), WAIT)   # the closed socket leaves its place
    async with await ann.connect(stack.ws + path) as again:
        await sockets.welcome(again)
    for socket in (held[1], anonymous):
        await socket.close()


async def test_an_exempt_address_is_exempt_from_every_limit_and_production_refuses_exemptions(
        nats_url, redis_url, namespace):
    loose = {**TIGHT, "lobby_limits_exempt": "127.0.0.1/32"}
    async with local_stack(nats_url, redis_url, namespace, scoring=False, settings=loose) as stack, \
            httpx.AsyncClient(base_url=stack.http) as http:
        for index in range(5):                                  # registrations (per address): 3/minute
            reply = await http.post("/players/guest")
            assert reply.status_code == 201, (index, reply.text)
        ann, bob = await ApiPlayer.register(http, "ann"), await ApiPlayer.register(http, "bob")
        for _ in range(5):                                      # log-ins (per address): 4/minute
            await ApiPlayer.login(http, "ann")
        # Per player, past every TIGHT figure: commands 3/minute, chat 2/minute, tables 3/minute with
        # at most 2 open, tickets 6/minute, reports 1/hour, sockets 2 per player and 3 per address.
        for _ in range(4):
            await ann.ok(ann.post("/tables", {"game": "testjack", "seats": 2}))
        solo = await bob.ok(bob.post("/tables", {"game": "testjack", "seats": 1}))
        await bob.ok(bob.post(f"/tables/{solo['table_id']}/ready"))
        game_id = (await bob.ok(bob.post(f"/tables/{solo['table_id']}/start")))["game_id"]
        for _ in range(5):
            await bob.ok(bob.post(f"/games/{game_id}/commands", {"command": {"type": "Think"}}))
        for text in ("one", "two", "three"):
            await bob.ok(bob.post(f"/tables/{solo['table_id']}/chat", {"text": text}))
        for index in range(2):
            await bob.ok(bob.post("/reports", {"player_id": ann.player_id, "reason": f"test {index}"}))
        for _ in range(3):
            await bob.ticket()
        sockets = [await bob.connect(f"{stack.ws}/tables/{solo['table_id']}/ws") for _ in range(4)]   # 7 tickets
        try:
            for socket in sockets:
                assert '"RATE_LIMITED"' not in await asyncio.wait_for(socket.recv(), WAIT)
        finally:
            for socket in sockets:
                await socket.close()
        assert len(await stack.runtime.moderation.reports(0, 100)) == 2
    with pytest.raises(ValueError, match="LOBBY_LIMITS_EXEMPT"):
        LobbySettings(lobby_production=True, lobby_secret="s", lobby_limits_exempt="127.0.0.1/32")
    with pytest.raises(ValueError, match="LOBBY_SECRET"):
        LobbySettings(lobby_production=True)
