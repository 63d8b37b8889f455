"""NATS with a user per service: each may do its job and nothing the permissions deny.

A denied publish never reaches the server's subscribers: the server answers the client with a
permissions violation (recorded by `Watched`) and a request waits in vain (short timeouts here).
"""
from __future__ import annotations

import asyncio
import os

import nats.errors
import nkeys
import pytest
from nats.js import api

from starbase_core.bus import NatsAuth
from starbase_core.envelope import NewEvent
from starbase_core.seeds import JetStreamSeedVault
from starbase_core.store_jetstream import JetStreamEventStore
from tests.security.conftest import cannot_connect

pytestmark = [pytest.mark.integration, pytest.mark.timeout(120)]
# A denied request is either never answered or answered "no responders" (the server dropped it).
DENIED = (nats.errors.TimeoutError, asyncio.TimeoutError, nats.errors.NoRespondersError)


async def store_as(secured, watched) -> JetStreamEventStore:
    store = JetStreamEventStore(watched.nc, name=secured.names.stream, subject_prefix=secured.names.prefix)
    store._js = watched.nc.jetstream(timeout=1.5)   # denied requests are never answered: don't wait long
    return store


async def vault_as(watched, bucket: str, *, create: bool) -> JetStreamSeedVault:
    vault = JetStreamSeedVault(watched.nc, bucket)
    vault._js = watched.nc.jetstream(timeout=1.5)
    if create:
        await vault.ensure()
    else:
        vault._bucket = await vault._js.key_value(bucket)
    return vault


async def a_seed(secured, game: str) -> bytes:
    adjudicator = await secured.connect("adjudicator")
    vault = await vault_as(adjudicator, secured.names.seeds, create=True)
    return await vault.get_or_create(game)


async def test_a_connection_without_credentials_or_with_an_unknown_key_is_refused(secured):
    assert await cannot_connect(secured.nats.url)
    stranger = nkeys.encode_seed(os.urandom(32), nkeys.PREFIX_BYTE_USER).decode()
    assert await cannot_connect(secured.nats.url, auth=NatsAuth(nkey_seed=stranger))


async def test_the_adjudicator_writes_seeds_and_the_trucker_service_and_the_audit_read_them(secured, new_name):
    game = new_name("g")
    seed = await a_seed(secured, game)
    for reader in ("trucker", "audit"):
        watched = await secured.connect(reader)
        vault = await vault_as(watched, secured.names.seeds, create=reader == "trucker")
        assert await vault.get(game) == seed, reader
        assert watched.errors == []


@pytest.mark.parametrize("role", ["lobby", "scoring", "clock"])
async def test_no_other_service_can_read_a_seed(secured, new_name, role):
    game = new_name("g")
    await a_seed(secured, game)
    watched = await secured.connect(role)
    js = watched.nc.jetstream(timeout=1.5)
    with pytest.raises(DENIED):
        await js.get_msg(f"KV_{secured.names.seeds}", subject=f"$KV.{secured.names.seeds}.{game}", direct=True)
    with pytest.raises(DENIED):
        await js.get_msg(f"KV_{secured.names.seeds}", subject=f"$KV.{secured.names.seeds}.{game}")
    with pytest.raises(DENIED):
        await js.add_consumer(f"KV_{secured.names.seeds}", api.ConsumerConfig())
    assert watched.refused(f"KV_{secured.names.seeds}")


async def test_the_lobby_does_not_see_seeds_being_written_nor_anyone_elses_replies(secured, new_name):
    lobby = await secured.connect("lobby")
    seen = []

    async def record(message) -> None:
        seen.append(message.subject)

    for subject in (f"$KV.{secured.names.seeds}.>", "_INBOX_adjudicator.>", "_INBOX.>", ">"):
        await lobby.nc.subscribe(subject, cb=record)
        assert await lobby.wait_refused(subject.rstrip(">").rstrip(".") or ">"), subject
    await a_seed(secured, new_name("g"))          # the adjudicator writes one, and reads it back
    await asyncio.sleep(0.3)
    assert seen == []


async def test_only_the_adjudicator_and_the_trucker_service_append_to_game_streams(secured, new_name):
    stream = f"game.{new_name('g')}"
    event = [NewEvent(type="Probe", data={})]
    await (await store_as(secured, await secured.connect("adjudicator"))).ensure()   # the stream exists
    for role in ("lobby", "scoring", "clock", "audit"):
        watched = await secured.connect(role)
        store = await store_as(secured, watched)
        with pytest.raises(DENIED):
            await store.append(stream, event, expected_seq=0)
        assert await watched.wait_refused(f"{secured.names.prefix}.game."), role
    for role in ("adjudicator", "trucker"):
        store = await store_as(secured, await secured.connect(role))
        await store.ensure()
        stored = await store.append(stream, event, expected_seq=(await store.last_seq(stream)))
        assert stored[-1].type == "Probe"


async def test_the_lobby_writes_its_own_streams_only(secured, new_name):
    watched = await secured.connect("lobby")
    store = await store_as(secured, watched)
    await store.ensure()
    table = f"table.{new_name('t')}"
    stored = await store.append(table, [NewEvent(type="TableOpened", data={})], expected_seq=0, command_id="c1")
    assert (await store.read(table))[-1].hash == stored[-1].hash
    # Straight into the event stream's subjects, bypassing the store: still only its own kinds.
    await watched.nc.publish(f"{secured.names.prefix}.game.forged", b"[]")
    await watched.nc.publish(f"$KV.{secured.names.seeds}.forged", b"x")
    await watched.nc.publish(f"{secured.names.prefix}.player.forged", b"[]")    # accounts left the store
    assert await watched.wait_refused(f"{secured.names.prefix}.game.forged")
    assert await watched.wait_refused(f"{secured.names.prefix}.player.forged")
    assert await watched.wait_refused(f"$KV.{secured.names.seeds}.forged")


async def test_only_the_adjudicator_changes_the_stream_config_and_nobody_deletes_or_purges(secured):
    stream = secured.names.stream
    adjudicator = await store_as(secured, await secured.connect("adjudicator"))
    await adjudicator.ensure()
    for role in ("lobby", "trucker", "scoring", "clock"):
        watched = await secured.connect(role)
        js = watched.nc.jetstream(timeout=1.5)
        info = await js.stream_info(stream)
        with pytest.raises(DENIED):
            await js.update_stream(api.StreamConfig(**{**info.config.as_dict(), "deny_purge": False}))
        with pytest.raises(DENIED):
            await js.purge_stream(stream)
        with pytest.raises(DENIED):
            await js.delete_stream(stream)
        assert watched.refused(f"STREAM.UPDATE.{stream}") and watched.refused(f"STREAM.DELETE.{stream}")
    assert (await adjudicator._js.stream_info(stream)).config.deny_purge is True


async def test_trucker_reads_seeds_but_cannot_write_them(secured, new_name):
    game = new_name("g")
    seed = await a_seed(secured, game)
    watched = await secured.connect("trucker")
    vault = await vault_as(watched, secured.names.seeds, create=False)
    with pytest.raises(DENIED):
        await vault._kv.put(game, b"predictable")
    assert await watched.wait_refused(f"$KV.{secured.names.seeds}.{game}")
    assert await vault.get(game) == seed


async def test_only_scoring_may_remove_its_place_in_the_store(secured):
    lobby = await secured.connect("lobby")
    with pytest.raises(DENIED):
        await lobby.nc.jetstream(timeout=1.5).delete_consumer(secured.names.stream, secured.names.scoring_durable)
    assert lobby.refused(f"CONSUMER.DELETE.{secured.names.stream}.{secured.names.scoring_durable}")


async def test_nobody_else_takes_over_scorings_durable_consumer(secured):
    await (await store_as(secured, await secured.connect("adjudicator"))).ensure()
    durable = secured.names.scoring_durable
    for role in ("lobby", "clock", "trucker", "adjudicator"):
        watched = await secured.connect(role)
        js = watched.nc.jetstream(timeout=1.5)
        with pytest.raises(DENIED):
            await js.add_consumer(secured.names.stream, api.ConsumerConfig(
                durable_name=durable, filter_subject=f"{secured.names.prefix}.game.>"))
        assert watched.refused(f"{secured.names.stream}.{durable}"), role


async def test_snapshots_are_the_adjudicators_alone(secured, new_name):
    game, bucket = new_name("g"), secured.names.snapshots
    adjudicator = await secured.connect("adjudicator")
    kv = await adjudicator.nc.jetstream(timeout=5).create_key_value(api.KeyValueConfig(bucket=bucket, direct=True))
    await kv.put(game, b"a signed snapshot")
    assert (await kv.get(game)).value == b"a signed snapshot" and adjudicator.errors == []
    for role in ("lobby", "scoring", "clock", "trucker", "audit"):
        watched = await secured.connect(role)
        js = watched.nc.jetstream(timeout=1.5)
        with pytest.raises(DENIED):
            await js.get_msg(f"KV_{bucket}", subject=f"$KV.{bucket}.{game}", direct=True)
        with pytest.raises(DENIED):
            await js.get_msg(f"KV_{bucket}", subject=f"$KV.{bucket}.{game}")
        with pytest.raises(DENIED):
            await js.create_key_value(api.KeyValueConfig(bucket=bucket, direct=True))
        await watched.nc.publish(f"$KV.{bucket}.{game}", b"forged")
        assert await watched.wait_refused(f"$KV.{bucket}.{game}"), role
    assert (await kv.get(game)).value == b"a signed snapshot"


async def test_only_the_adjudicators_callers_send_it_commands_over_nats_and_only_it_listens(secured):
    subject = f"{secured.names.adjudicator}.submit.any"
    adjudicator = await secured.connect("adjudicator")
    heard = []

    async def answer(message) -> None:          # as the NATS door does: one reply, in the caller's inbox
        heard.append(message.data)
        await adjudicator.nc.publish(message.reply, b"answered")

    await adjudicator.nc.subscribe(subject, queue="adjudicators", cb=answer)
    await adjudicator.nc.publish(f"{secured.names.adjudicator}.hello", b"{}")
    await adjudicator.nc.flush()
    for role in ("lobby", "clock", "bots"):
        caller = await secured.connect(role)
        assert (await caller.nc.request(subject, role.encode(), timeout=5)).data == b"answered"
        assert caller.errors == []
    for role in ("scoring", "trucker", "notifier", "audit", "admin"):
        stranger = await secured.connect(role)
        with pytest.raises(DENIED):
            await stranger.nc.request(subject, role.encode(), timeout=0.5)
        assert await stranger.wait_refused(f"{secured.names.adjudicator}.submit"), role
    lobby = await secured.connect("lobby")           # no caller listens in on the commands, nor says hello
    await lobby.nc.subscribe(f"{secured.names.adjudicator}.submit.>", cb=answer)
    assert await lobby.wait_refused(f"{secured.names.adjudicator}.submit")
    await lobby.nc.publish(f"{secured.names.adjudicator}.hello", b"{}")
    assert await lobby.wait_refused(f"{secured.names.adjudicator}.hello")
    assert heard == [b"lobby", b"clock", b"bots"]
    assert adjudicator.errors == []
