"""Webhooks on real NATS (claims, dead letters, preferences) to a real HTTP receiver on loopback."""
from __future__ import annotations

import asyncio
from datetime import datetime, timedelta, timezone

import pytest

from notifier.claims import Busy
from notifier.preferences import Preferences, Webhook
from tests.notifier.helpers import a_turn, parts
from tests.notifier.receiver import Receiver, verified

pytestmark = pytest.mark.integration
SECRET = "whsec_test-secret-of-ann"


@pytest.fixture
async def receiver():
    made = await Receiver().start()
    yield made
    await made.stop()


async def hooked(parts_, receiver, secret: str = SECRET) -> None:
    await parts_.preferences.put("ann", Preferences(webhook=Webhook(url=receiver.url, secret=secret)))


async def test_a_webhook_arrives_signed_with_the_players_secret(nats_url, namespace, receiver):
    async with parts(nats_url, namespace) as made:
        await hooked(made, receiver)
        note = a_turn()
        assert await made.deliverer.deliver(note) == "handled"
    [got] = receiver.requests
    assert got.id == note.id and got.headers["starbase-notification-kind"] == "your_turn"
    assert verified(got, SECRET) and not verified(got, "another secret")
    assert got.json["kind"] == "your_turn" and got.json["player"] == "ann" and got.json["game_id"] == "g1"
    assert got.json["url"].endswith("/tables/g1")


async def test_a_failed_attempt_is_retried_under_the_same_id_and_the_notification_sent_once(
        nats_url, namespace, receiver):
    receiver.statuses = [500]
    async with parts(nats_url, namespace) as made:
        await hooked(made, receiver)
        note = a_turn()
        await made.deliverer.deliver(note)
        await made.deliverer.deliver(note)      # a redelivery of the same cause: nothing goes out again
        assert (await made.claims.state(f"{note.id}.webhook"))["state"] == "sent"
    assert [(r.status, r.id) for r in receiver.requests] == [(500, note.id), (200, note.id)]
    assert all(verified(r, SECRET) for r in receiver.requests)


async def test_a_receiver_that_keeps_failing_gets_a_dead_letter_after_the_last_attempt(
        nats_url, namespace, receiver):
    receiver.default = 503
    async with parts(nats_url, namespace) as made:
        await made.preferences.put("ann", Preferences(webhook=Webhook(url=receiver.url + "?token=abc", secret=SECRET)))
        note = a_turn()
        await made.deliverer.deliver(note)
        await made.deliverer.deliver(note)
        [dead] = await made.dead.list("ann")
        assert await made.dead.list("bob") == []
        assert (await made.claims.state(f"{note.id}.webhook"))["state"] == "dead"
    assert len(receiver.requests) == 3 == made.settings.notifier_attempts
    assert (dead["id"], dead["kind"], dead["channel"], dead["attempts"], dead["problem"]) == \
        (note.id, "your_turn", "webhook", 3, "HTTP 503")
    assert dead["target"] == receiver.url.split("/hooks")[0]        # scheme, host and port only


async def test_a_final_refusal_is_not_retried(nats_url, namespace, receiver):
    receiver.default = 410
    async with parts(nats_url, namespace) as made:
        await hooked(made, receiver)
        await made.deliverer.deliver(a_turn())
        [dead] = await made.dead.list("ann")
    assert len(receiver.requests) == 1 and dead["attempts"] == 1 and "410" in dead["problem"]


async def test_a_claim_of_a_sender_that_died_is_taken_over_after_its_lease(nats_url, namespace, receiver):
    async with parts(nats_url, namespace) as made:
        await hooked(made, receiver)
        note = a_turn()
        await made.claims.acquire(f"{note.id}.webhook", lease=1.0)     # a sender that then died
        with pytest.raises(Busy) as busy:
            await made.deliverer.deliver(note)
        assert 0 < busy.value.retry_after <= 1.0 and receiver.requests == []
        await asyncio.sleep(busy.value.retry_after + 0.05)
        await made.deliverer.deliver(note)
    assert [r.id for r in receiver.answered()] == [note.id]


async def test_nothing_is_sent_without_a_channel_for_the_kind_or_during_quiet_hours(nats_url, namespace, receiver):
    async with parts(nats_url, namespace) as made:
        assert await made.deliverer.deliver(a_turn()) == "no_preferences"
        await made.preferences.put("ann", Preferences(webhook=Webhook(url=receiver.url, secret=SECRET,
                                                                      events=["game_ended"])))
        assert await made.deliverer.deliver(a_turn()) == "not_wanted"
        now = datetime.now(timezone.utc)
        quiet = {"start": f"{(now - timedelta(hours=1)):%H:%M}", "end": f"{(now + timedelta(hours=1)):%H:%M}"}
        await made.preferences.put("ann", Preferences.model_validate(
            {"webhook": {"url": receiver.url, "secret": SECRET}, "quiet_hours": quiet}))
        assert await made.deliverer.deliver(a_turn()) == "quiet"
    assert receiver.requests == []


async def test_a_cause_older_than_the_maximum_age_is_not_sent(nats_url, namespace, receiver):
    async with parts(nats_url, namespace) as made:
        await hooked(made, receiver)
        old = a_turn()
        old = type(old)(**{**old.__dict__, "time": "2020-01-01T00:00:00Z"})
        assert await made.deliverer.deliver(old) == "stale"
    assert receiver.requests == []
