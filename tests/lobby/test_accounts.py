"""Accounts end to end over HTTP and WebSocket on real NATS and Redis: names, passwords, sessions,
refresh rotation, log out everywhere (on every replica, sockets closed), roles and a ban."""
import argparse
import asyncio
import json

import httpx
import pytest
import websockets

from starbase_cli.admin import execute
from tests.support import sockets
from tests.support.stack import ApiPlayer, another_lobby, password_of

pytestmark = pytest.mark.integration


def assert_refused(reply, status: int, code: str) -> dict:
    assert reply.status_code == status, reply.text
    error = reply.json()["error"]
    assert error["code"] == code and error["message"], reply.text
    return error


async def closed_with(socket) -> int:
    with pytest.raises(websockets.ConnectionClosed) as closed:
        while True:
            await asyncio.wait_for(socket.recv(), 10)
    return closed.value.rcvd.code


async def test_register_log_in_and_who_am_i(http):
    opened = await http.post("/players", json={"name": "Ann", "password": password_of("Ann")})
    assert opened.status_code == 201
    body = opened.json()
    assert body["name"] == "Ann" and body["role"] == "player" and not body["guest"] and body["expires_in"] > 0
    ann = await ApiPlayer.login(http, "ann", password_of("Ann"))     # names match case-insensitively
    assert ann.player_id == body["player_id"]
    assert await ann.ok(ann.get("/players/me")) == {"player_id": ann.player_id, "name": "Ann", "role": "player",
                                                   "guest": False}
    assert_refused(await http.post("/sessions", json={"name": "Ann", "password": "not the password"}),
                   401, "WRONG_LOGIN")
    # A wrong name is the same answer as a wrong password: no one learns which names exist.
    assert_refused(await http.post("/sessions", json={"name": "nobody", "password": "whatever it is"}),
                   401, "WRONG_LOGIN")


@pytest.mark.parametrize("taken, code", [
    ("ann", "NAME_TAKEN"), ("ANN", "NAME_TAKEN"), ("a.nn", "NAME_TAKEN"), ("ΑΝΝ", "NAME_TAKEN"),   # Greek
    ("аnn", "INVALID_NAME"),                   # Cyrillic а among Latin letters: mixed scripts
    ("an\u202en", "INVALID_NAME"), ("an\u200bn", "INVALID_NAME"), ("an\x07n", "INVALID_NAME"),
    ("a", "INVALID_NAME"), ("x" * 25, "INVALID_NAME"), ("ann!", "INVALID_NAME"), ("admin", "NAME_TAKEN"),
])
async def test_duplicate_look_alike_and_unprintable_names_are_refused(http, taken, code):
    await ApiPlayer.register(http, "ann")
    reply = await http.post("/players", json={"name": taken, "password": "a good long password"})
    assert_refused(reply, 409 if code == "NAME_TAKEN" else 422, code)


async def test_a_weak_password_is_refused_in_the_apis_words(http):
    error = assert_refused(await http.post("/players", json={"name": "ann", "password": "short"}), 422,
                           "WEAK_PASSWORD")
    assert "argon" not in error["message"].lower()
    error = assert_refused(await http.post("/players", json={"name": "ann"}), 422, "VALIDATION_FAILED")
    assert error["message"] == "password is required"


async def test_wrong_passwords_on_one_account_lock_it_for_longer_and_longer(nats_url, redis_url, namespace):
    from tests.support.stack import local_stack
    async with local_stack(nats_url, redis_url, namespace, scoring=False,
                           settings={"lobby_login_free_failures": 2}) as stack, \
            httpx.AsyncClient(base_url=stack.http) as http:
        await ApiPlayer.register(http, "ann")
        wrong = {"name": "ann", "password": "wrong password!"}
        for _ in range(2):                                    # the free failures
            assert_refused(await http.post("/sessions", json=wrong), 401, "WRONG_LOGIN")
        assert_refused(await http.post("/sessions", json=wrong), 401, "WRONG_LOGIN")    # now locked 2 s
        locked = await http.post("/sessions", json={"name": "ANN", "password": password_of("ann")})
        assert_refused(locked, 429, "RATE_LIMITED")
        assert int(locked.headers["Retry-After"]) >= 1
        await asyncio.sleep(int(locked.headers["Retry-After"]) + 0.2)
        assert_refused(await http.post("/sessions", json=wrong), 401, "WRONG_LOGIN")    # locked 4 s
        longer = await http.post("/sessions", json={"name": "ann", "password": password_of("ann")})
        assert_refused(longer, 429, "RATE_LIMITED")
        assert int(longer.headers["Retry-After"]) > int(locked.headers["Retry-After"])


async def test_a_refresh_token_is_spent_on_use_and_its_reuse_revokes_the_whole_session(http):
    ann = await ApiPlayer.register(http, "ann")
    first = await http.post("/sessions/refresh", json={"refresh_token": ann.refresh_token})
    assert first.status_code == 200
    rotated = ApiPlayer.from_session(http, first.json())
    assert rotated.refresh_token != ann.refresh_token
    assert (await rotated.get("/players/me")).status_code == 200
    # The old refresh token again: someone copied it. The session ends for everyone holding it.
    assert_refused(await http.post("/sessions/refresh", json={"refresh_token": ann.refresh_token}),
                   401, "REFRESH_REUSED")
    assert_refused(await http.post("/sessions/refresh", json={"refresh_token": rotated.refresh_token}),
                   401, "SESSION_ENDED")
    assert_refused(await rotated.get("/players/me"), 401, "TOKEN_REVOKED")
    assert_refused(await http.post("/sessions/refresh", json={"refresh_token": "forged"}), 401, "INVALID_TOKEN")


async def test_log_out_ends_one_session_and_leaves_the_others(http):
    phone, laptop = await ApiPlayer.register(http, "ann"), await ApiPlayer.login(http, "ann")
    assert (await phone.http.delete("/sessions/current", headers=phone.auth)).status_code == 204
    assert_refused(await phone.get("/players/me"), 401, "TOKEN_REVOKED")
    assert (await laptop.get("/players/me")).status_code == 200


async def test_log_out_everywhere_revokes_every_token_on_every_replica_and_closes_the_sockets(stack, http):
    async with another_lobby(stack) as other, httpx.AsyncClient(base_url=f"http://{other}") as http_b:
        phone, laptop = await ApiPlayer.register(http, "ann"), await ApiPlayer.login(http_b, "ann")
        table = await phone.ok(phone.post("/tables", {"game": "testjack", "seats": 2}))
        socket_b = await laptop.connect(f"ws://{other}/tables/{table['table_id']}/ws")
        socket_a = await phone.connect(f"{stack.ws}/tables/{table['table_id']}/ws")
        await sockets.welcome(socket_a)
        await sockets.welcome(socket_b)

        assert (await phone.http.delete("/sessions", headers=phone.auth)).status_code == 204

        assert await closed_with(socket_a) == 4401 and await closed_with(socket_b) == 4401
        for player, client in ((phone, http), (phone, http_b), (laptop, http), (laptop, http_b)):
            assert_refused(await player.on(client).get("/players/me"), 401, "TOKEN_REVOKED")
        assert_refused(await http_b.post("/sessions/refresh", json={"refresh_token": laptop.refresh_token}),
                       401, "SESSION_ENDED")
        again = await ApiPlayer.login(http_b, "ann")                  # a new log-in works
        assert (await again.get("/players/me")).status_code == 200


async def test_changing_the_password_ends_the_other_sessions(http):
    ann, other = await ApiPlayer.register(http, "ann"), await ApiPlayer.login(http, "ann")
    assert_refused(await ann.http.put("/players/me/password", headers=ann.auth, json={
        "old_password": "not it at all", "new_password": "a brand new password"}), 403, "WRONG_PASSWORD")
    changed = await ann.http.put("/players/me/password", headers=ann.auth, json={
        "old_password": password_of("ann"), "new_password": "a brand new password"})
    assert changed.status_code == 200
    assert_refused(await other.get("/players/me"), 401, "TOKEN_REVOKED")
    assert (await ApiPlayer.from_session(http, changed.json()).get("/players/me")).status_code == 200
    await ApiPlayer.login(http, "ann", "a brand new password")


async def test_a_guest_plays_and_later_claims_a_name_keeping_its_id(http):
    guest = await ApiPlayer.guest(http)
    me = await guest.ok(guest.get("/players/me"))
    assert me["guest"] and me["name"].startswith("guest-")
    claimed = await guest.http.post("/players/me/claim", headers=guest.auth,
                                    json={"name": "zed", "password": password_of("zed")})
    assert claimed.status_code == 200 and claimed.json()["player_id"] == guest.player_id
    assert_refused(await guest.get("/players/me"), 401, "TOKEN_REVOKED")       # the guest session ended
    zed = await ApiPlayer.login(http, "zed")
    assert (await zed.ok(zed.get("/players/me")))["guest"] is False


async def test_the_first_admin_comes_from_the_console_and_a_ban_stops_the_player_at_once(stack, http):
    settings = stack.admin_settings
    create = argparse.Namespace(admin_command="create-admin", name="root")
    [created] = await execute(settings, create, password="the root's password")
    assert "admin root created" in created
    root = await ApiPlayer.login(http, "root", "the root's password")
    eve, mod = await ApiPlayer.register(http, "eve"), await ApiPlayer.register(http, "mod")
    assert_refused(await eve.post(f"/moderation/players/{mod.player_id}/ban"), 403, "NOT_A_MODERATOR")
    assert (await root.http.put(f"/admin/players/{mod.player_id}/role", headers=root.auth,
                                json={"role": "moderator"})).status_code == 200
    table = await eve.ok(eve.post("/tables", {"game": "testjack", "seats": 2}))
    socket = await eve.connect(f"{stack.ws}/tables/{table['table_id']}/ws")
    await sockets.welcome(socket)

    banned = await mod.post(f"/moderation/players/{eve.player_id}/ban", {"reason": "abuse"})
    assert banned.status_code == 200 and banned.json()["banned"]

    assert await closed_with(socket) == 4403
    assert_refused(await eve.get("/players/me"), 403, "BANNED")
    assert_refused(await http.post("/sessions", json={"name": "eve", "password": password_of("eve")}), 403, "BANNED")
    assert_refused(await mod.post(f"/moderation/players/{root.player_id}/ban"), 403, "OUTRANKED")
    log = await mod.ok(mod.get("/moderation/log"))
    assert [(e["data"]["action"], e["data"]["actor"], e["data"]["target"]) for e in log] == [
        ("create_admin", "console", root.player_id), ("set_role", root.player_id, mod.player_id),
        ("ban", mod.player_id, eve.player_id)]
    bystander = await ApiPlayer.register(http, "bystander")
    assert_refused(await bystander.get("/moderation/log"), 403, "NOT_A_MODERATOR")
    unbanned = await execute(settings, argparse.Namespace(admin_command="unban", name="eve", reason="appeal"))
    assert "banned=False" in unbanned[0]
    await ApiPlayer.login(http, "eve")
    console_log = await execute(settings, argparse.Namespace(admin_command="log", after=0, limit=100))
    assert json.loads(console_log[-1])["action"] == "unban"


async def test_mute_hide_and_report(stack, http, register):
    root_args = argparse.Namespace(admin_command="create-admin", name="root")
    await execute(stack.admin_settings, root_args, password="the root's password")
    root = await ApiPlayer.login(http, "root", "the root's password")
    ann, bob = await register("ann"), await register("bob")
    table = await ann.ok(ann.post("/tables", {"game": "testjack", "seats": 2}))
    table_id = table["table_id"]
    await bob.ok(bob.post(f"/tables/{table_id}/join"))
    rude = await bob.ok(bob.post(f"/tables/{table_id}/chat", {"text": "something abusive"}))
    report = await ann.ok(ann.post("/reports", {"message_id": rude["id"], "reason": "abuse"}))
    assert report["data"]["player"] == bob.player_id and report["data"]["quoted"] == "something abusive"
    reports = await root.ok(root.get("/moderation/reports"))
    assert [r["data"]["reason"] for r in reports] == ["abuse"]

    hidden = await root.http.post(f"/moderation/messages/{rude['id']}/hide", headers=root.auth, json={"reason": "r"})
    assert hidden.status_code == 204
    assert await ann.ok(ann.get(f"/tables/{table_id}/chat")) == []
    muted = await root.ok(root.post(f"/moderation/players/{bob.player_id}/mute", {"minutes": 10}))
    assert muted["muted_until"] > 0
    assert_refused(await bob.post(f"/tables/{table_id}/chat", {"text": "again"}), 403, "MUTED")
    await root.ok(root.post(f"/moderation/players/{bob.player_id}/unmute"))
    await bob.ok(bob.post(f"/tables/{table_id}/chat", {"text": "sorry"}))
    actions = [e["data"]["action"] for e in await root.ok(root.get("/moderation/log"))]
    assert actions == ["create_admin", "hide", "mute", "unmute"]
