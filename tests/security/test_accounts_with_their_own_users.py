"""Accounts on servers that authenticate everyone: registering, logging in, refreshing and logging out,
socket tickets, chat pushed to a socket, reports, moderation from the API and from `starbase admin`,
limits and log-in delays, a ban closing a socket, erasure, and the Trucker service admitting a player
by a lobby ticket — with the lobby, the console, the adjudicator and the Trucker service each on its
own NATS and Redis user. The NATS server must refuse nothing (a missing permission is a violation in
its log) and Redis nothing (a refused command would be a 500 here, or a failed socket).

The whole game through the lobby is `test_services_with_their_own_users`; the refusals of what these
users may not do are in `test_nats_permissions` and `test_redis_acl`."""
from __future__ import annotations

import argparse
import asyncio
import json

import httpx
import pytest
import websockets

from starbase_cli.admin import execute
from starbase_core import tickets
from tests.security.test_clock_and_trucker_with_their_own_users import own_settings
from tests.support import sockets
from tests.support.stack import ApiPlayer, local_stack, password_of, seat_and_start
from tests.trucker_service.live import Client, in_process, settings_for

pytestmark = [pytest.mark.integration, pytest.mark.timeout(240)]
ROOT = "the root's own password"
WAIT = 10.0                 # a bound on a hang, not a timing assertion


def refused(reply, status: int, code: str) -> None:
    assert (reply.status_code, reply.json()["error"]["code"]) == (status, code), reply.text


async def closed_with(socket) -> int:
    with pytest.raises(websockets.ConnectionClosed) as closed:
        while True:
            await asyncio.wait_for(socket.recv(), WAIT)
    return closed.value.rcvd.code


async def next_chat(socket) -> dict:
    """The next chat message's content (socket protocol 1: `{"v": 1, "kind": "chat", "chat": {...}}`)."""
    while (message := sockets.parse(await asyncio.wait_for(socket.recv(), WAIT)))["kind"] != "chat":
        pass
    return message["chat"]


async def console(stack, command: str, password: str | None = None, **arguments) -> list[str]:
    """`starbase admin <command>` as the console's own NATS user."""
    return await execute(stack.admin_settings, argparse.Namespace(admin_command=command, **arguments), password)


# Limits low enough to meet (with the accounts' log-in delays): they must work through the lobby's Redis user.
TIGHT = {"lobby_limit_reports": "1/hour", "lobby_login_free_failures": 1}


async def test_accounts_sessions_chat_moderation_limits_and_erasure_as_their_own_users(secured):
    async with local_stack(secured.nats.url, secured.redis.url, secured.namespace, scoring=False,
                           settings=TIGHT, credentials=secured.creds) as stack, \
            httpx.AsyncClient(base_url=stack.http, timeout=30) as http:
        assert stack.admin_settings.nats_nkey_file == str(secured.creds.nats_seed_file("admin"))
        [created] = await console(stack, "create-admin", ROOT, name="root")
        assert "admin root created" in created
        root = await ApiPlayer.login(http, "root", ROOT)
        ann, bob = await ApiPlayer.register(http, "ann"), await ApiPlayer.register(http, "bob")

        # Sessions: refresh rotates, a spent refresh token is refused, log-out ends one session everywhere.
        renewed = await http.post("/sessions/refresh", json={"refresh_token": ann.refresh_token})
        assert renewed.status_code == 200
        refused(await http.post("/sessions/refresh", json={"refresh_token": ann.refresh_token}), 401, "REFRESH_REUSED")
        ann = await ApiPlayer.login(http, "ann")
        phone = await ApiPlayer.login(http, "ann")
        assert (await http.delete("/sessions/current", headers=phone.auth)).status_code == 204
        refused(await phone.get("/players/me"), 401, "TOKEN_REVOKED")
        # Wrong passwords lock the account's log-in (a Lua script on the lobby's keys).
        for _ in range(2):
            await http.post("/sessions", json={"name": "bob", "password": "not bob's password at all"})
        refused(await http.post("/sessions", json={"name": "bob", "password": password_of("bob")}), 429,
                "RATE_LIMITED")

        # A table, its sockets opened with tickets, chat pushed to them (stored, announced between replicas).
        table_id = (await ann.ok(ann.post("/tables", {"game": "testjack", "seats": 2})))["table_id"]
        await bob.ok(bob.post(f"/tables/{table_id}/join"))
        ann_socket = await ann.connect(f"{stack.ws}/tables/{table_id}/ws")
        bob_socket = await bob.connect(f"{stack.ws}/tables/{table_id}/ws")
        rude = await bob.ok(bob.post(f"/tables/{table_id}/chat", {"text": "something rude"}))
        assert (await next_chat(ann_socket))["text"] == "something rude"
        refused(await http.post(f"/tables/{table_id}/chat", json={"text": "x"}), 401, "NOT_AUTHENTICATED")

        # Reports (limited), moderation from the API (hide, mute) and the console (role, log).
        await ann.ok(ann.post("/reports", {"message_id": rude["id"], "reason": "rude"}))
        refused(await ann.post("/reports", {"player_id": bob.player_id, "reason": "again"}), 429, "RATE_LIMITED")
        assert [r["data"]["quoted"] for r in await root.ok(root.get("/moderation/reports"))] == ["something rude"]
        hidden = await root.http.post(f"/moderation/messages/{rude['id']}/hide", headers=root.auth, json={})
        assert hidden.status_code == 204
        assert await ann.ok(ann.get(f"/tables/{table_id}/chat")) == []
        await root.ok(root.post(f"/moderation/players/{bob.player_id}/mute", {"minutes": 5}))
        refused(await bob.post(f"/tables/{table_id}/chat", {"text": "again"}), 403, "MUTED")
        [promoted] = await console(stack, "role", name="ann", role="moderator")
        assert "role=moderator" in promoted

        # A ban closes the player's socket at once, through every replica's watch of the accounts.
        banned = await ann.post(f"/moderation/players/{bob.player_id}/ban", {"reason": "rude"})
        assert banned.status_code == 200
        assert await closed_with(bob_socket) == 4403
        refused(await bob.get("/players/me"), 403, "BANNED")
        log = [json.loads(line)["action"] for line in await console(stack, "log", after=0, limit=100)]
        assert log == ["create_admin", "hide", "mute", "set_role", "ban"]

        # Erasure: the account, its name and its chat are gone; the name is free again.
        await ann.ok(ann.post(f"/tables/{table_id}/chat", {"text": "ann's words"}))
        erased = await http.request("DELETE", "/players/me", headers=ann.auth, json={"password": password_of("ann")})
        assert erased.status_code == 204
        assert await closed_with(ann_socket) == 4401
        assert await stack.runtime.personal.read(f"chat.*.{ann.player_id}") == []
        await ApiPlayer.register(http, "ann")
    assert secured.violations() == []


async def test_the_trucker_service_admits_a_player_by_a_lobby_ticket_as_its_own_user(secured):
    trucker_settings = own_settings(secured, "trucker")
    trucker_settings.pop("nats_url"), trucker_settings.pop("redis_url")
    async with local_stack(secured.nats.url, secured.redis.url, secured.namespace, scoring=False,
                           credentials=secured.creds) as stack, \
            httpx.AsyncClient(base_url=stack.http, timeout=30) as http:
        settings = settings_for(secured.nats.url, secured.redis.url, secured.namespace, insecure_dev_mode=False,
                                trucker_trust_player_param=False, trucker_bus_prefix=secured.names.trucker_bus,
                                **trucker_settings)
        async with in_process(settings) as base:
            stack.runtime.settings = stack.settings.model_copy(update={"trucker_public_url": base})
            # Names of their own: the module's servers (and so its accounts bucket) are shared.
            ann, bob = await ApiPlayer.register(http, "trucker ann"), await ApiPlayer.register(http, "trucker bob")
            game_id = await seat_and_start([ann, bob], "trucker")
            url = (await ann.ok(ann.get(f"/tables/{game_id}")))["realtime_url"]

            async def connect(offered: list[str]) -> Client:
                socket = await websockets.connect(url, subprotocols=offered, max_size=2 ** 22)
                return Client(socket, json.loads(await socket.recv()))

            offered = tickets.subprotocols(await ann.ticket())
            player = await connect(offered)
            assert player.welcome["you"] == ann.player_id
            assert (await player.send("grab_face_down"))["kind"] == "ack"
            spent = await connect(offered)                     # redeemed once, by the Trucker service
            assert spent.welcome["error"]["code"] == "BAD_TICKET"
            for client in (player, spent):
                await client.close()
    assert secured.violations() == []
