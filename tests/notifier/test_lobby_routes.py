"""The lobby's notification routes and invitations, over HTTP on a whole stack (real NATS and Redis),
with the notifier's parts in this process where a test needs them."""
from __future__ import annotations

import asyncio

import pytest

from notifier.causes import Causes
from notifier.consumer import NotifierConsumer
from notifier.preferences import player_key
from notifier.responder import ProbeResponder
from tests.notifier.helpers import parts
from tests.notifier.receiver import Receiver, verified
from tests.support.stack import password_of

pytestmark = pytest.mark.integration


@pytest.fixture
async def receiver():
    made = await Receiver().start()
    yield made
    await made.stop()


async def test_a_webhook_secret_is_shown_once_and_kept_until_rotated(register, receiver):
    ann = await register("ann")
    body = {"webhook": {"url": receiver.url}, "email": {"address": "ann@example.org", "events": ["game_ended"]}}
    first = await ann.ok(ann.http.put("/players/me/notifications", json=body, headers=ann.auth))
    assert first["webhook_secret"].startswith("whsec_") and first["email"]["events"] == ["game_ended"]
    shown = await ann.ok(ann.get("/players/me/notifications"))
    assert "webhook_secret" not in shown and shown["webhook"] == {
        "url": receiver.url, "events": ["your_turn", "game_started", "game_ended", "invited", "clock_low"],
        "secret_set": True}
    again = await ann.ok(ann.http.put("/players/me/notifications", json=body, headers=ann.auth))
    assert again["webhook_secret"] is None
    rotated = await ann.ok(ann.http.put("/players/me/notifications", headers=ann.auth,
                                        json={"webhook": {"url": receiver.url, "rotate_secret": True}}))
    assert rotated["webhook_secret"] not in (None, first["webhook_secret"]) and rotated["email"] is None


@pytest.mark.parametrize("url, code", [("http://10.0.0.1/hook", "WEBHOOK_URL_PRIVATE"),
                                       ("http://169.254.169.254/latest", "WEBHOOK_URL_PRIVATE"),
                                       ("ftp://example.org/x", "WEBHOOK_URL_SCHEME")])
async def test_a_webhook_url_into_our_network_is_refused_and_nothing_saved(register, url, code):
    ann = await register("ann")
    reply = await ann.http.put("/players/me/notifications", json={"webhook": {"url": url}}, headers=ann.auth)
    assert reply.status_code == 422 and reply.json()["error"]["code"] == code
    assert (await ann.ok(ann.get("/players/me/notifications")))["webhook"] is None


async def test_bad_settings_get_a_clear_error(register):
    ann = await register("ann")
    for body in ({"email": {"address": "not an address"}}, {"webhook": {"url": "https://example.org", "events": ["x"]}},
                 {"quiet_hours": {"start": "25:00", "end": "07:00"}}, {"webhook": {"url": "https://e.org", "secret": "mine"}}):
        reply = await ann.http.put("/players/me/notifications", json=body, headers=ann.auth)
        assert reply.status_code == 422 and reply.json()["error"]["code"] == "VALIDATION_FAILED", body
    assert (await ann.http.get("/players/me/notifications")).status_code == 401


async def test_a_test_webhook_is_signed_with_the_secret_shown_once(register, receiver, nats_url, namespace, stack):
    ann = await register("ann")
    none_yet = await ann.post("/players/me/notifications/test")
    assert none_yet.status_code == 422 and none_yet.json()["error"]["code"] == "NO_WEBHOOK"
    saved = await ann.ok(ann.http.put("/players/me/notifications", json={"webhook": {"url": receiver.url}},
                                      headers=ann.auth))
    nobody = await ann.post("/players/me/notifications/test")
    assert nobody.status_code == 503 and nobody.json()["error"]["code"] == "NOTIFIER_UNAVAILABLE"
    async with parts(nats_url, namespace) as made:
        responder = await ProbeResponder(made.nc, made.deliverer, made.settings.notifier_test_subject).start()
        try:
            answer = await ann.ok(ann.post("/players/me/notifications/test"))
        finally:
            await responder.stop()
    [got] = receiver.requests
    assert answer == {"delivered": True, "id": got.id, "status": 200, "problem": None}
    assert got.json["kind"] == "test" and verified(got, saved["webhook_secret"])


async def test_erasing_an_account_erases_its_notification_settings_and_dead_letters(register, receiver, nats_url,
                                                                                       namespace, stack):
    ann, bob = await register("ann"), await register("bob")
    for player in (ann, bob):
        await player.ok(player.http.put("/players/me/notifications", headers=player.auth,
                                        json={"webhook": {"url": receiver.url}, "email": {"address": "a@example.org"}}))
    async with parts(nats_url, namespace) as made:
        for player in (ann, bob):
            await made.dead.add(player.player_id, {"id": "n1", "kind": "your_turn", "channel": "webhook", "stream":
                                "game.g1", "seq": 3, "table_id": "g1", "attempts": 3, "problem": "HTTP 500",
                                "target": "http://127.0.0.1:1", "player": player.player_id})
        listed = await ann.ok(ann.get("/players/me/notifications/dead-letters"))
        assert [(d["id"], d["problem"]) for d in listed] == [("n1", "HTTP 500")]
        gone = await ann.http.request("DELETE", "/players/me", headers=ann.auth, json={"password": password_of("ann")})
        assert gone.status_code == 204
        assert await made.preferences.get(ann.player_id) is None and await made.dead.list(ann.player_id) == []
        assert await made.preferences.get(bob.player_id) is not None and len(await made.dead.list(bob.player_id)) == 1
        kv = await made.nc.jetstream().key_value(made.settings.notifier_prefs_bucket)
        assert player_key(ann.player_id) not in await kv.keys()      # purged: no revision left behind


async def test_an_invited_player_joins_a_private_table_without_its_code_and_is_told(
        register, receiver, nats_url, namespace, stack):
    ann, bob, cy, dan = [await register(name) for name in ("ann", "bob", "cy", "dan")]
    await cy.ok(cy.http.put("/players/me/notifications", json={"webhook": {"url": receiver.url}}, headers=cy.auth))
    table = await ann.ok(ann.post("/tables", {"game": "testjack", "seats": 3, "private": True}))
    path = f"/tables/{table['table_id']}"
    assert (await bob.post(f"{path}/invite", {"player_id": cy.player_id})).status_code == 404   # bob cannot see it
    for body, status, code in (({"player_id": ann.player_id}, 422, "CANNOT_INVITE_YOURSELF"),
                               ({"player_id": "nobody"}, 404, "PLAYER_NOT_FOUND")):
        reply = await ann.post(f"{path}/invite", body)
        assert (reply.status_code, reply.json()["error"]["code"]) == (status, code)
    await ann.ok(ann.post(f"{path}/invite", {"player_id": cy.player_id}))
    await ann.ok(ann.post(f"{path}/invite", {"player_id": cy.player_id}))      # again: nothing new
    assert (await dan.post(f"{path}/join")).status_code == 404
    joined = await cy.ok(cy.post(f"{path}/join"))
    assert cy.player_id in [seat["player_id"] for seat in joined["seats"]]
    invited = [e for e in await stack.store.read(f"table.{table['table_id']}") if e.type == "PlayerInvited"]
    assert [e.data for e in invited] == [{"type": "PlayerInvited", "v": 1, "player": cy.player_id,
                                          "by": ann.player_id}]
    async with parts(nats_url, namespace, event_stream=stack.settings.event_stream,
                     event_subject_prefix=stack.settings.event_subject_prefix) as made:
        consumer = NotifierConsumer(stack.store, Causes(stack.store), made.deliverer, made.settings.notifier_durable,
                                    ack_wait=2.0)
        running = asyncio.create_task(consumer.run())
        try:
            await receiver.wait_for(1)
        finally:
            running.cancel()
            await asyncio.gather(running, return_exceptions=True)
    [told] = receiver.requests
    assert (told.json["kind"], told.json["player"], told.json["table_id"], told.json["by"], told.json["game"]) == \
        ("invited", cy.player_id, table["table_id"], ann.player_id, "testjack")
    assert table["invite"] not in told.body.decode()        # never the table's code
