"""The clock and the Trucker service each do their job as their own NATS (and Redis) user, through
their real entry code (`clock.__main__.serve`, the Trucker app), and the NATS server refuses them
nothing: their permissions are complete for what they do."""
from __future__ import annotations

import asyncio

import pytest

from adjudicator.client import AdjudicatorClient
from adjudicator.service import Adjudicator
from clock.__main__ import ClockSettings, serve
from starbase_core.callers import load_callers
from starbase_core.gamestream import ends_game, game_stream
from starbase_core.seeds import JetStreamSeedVault
from starbase_core.store_jetstream import JetStreamEventStore
from tests.support.stack import serve_adjudicator
from tests.trucker_service.helpers import new_game
from tests.trucker_service.live import Client, in_process, settings_for

pytestmark = [pytest.mark.integration, pytest.mark.timeout(120)]
WAIT_SECONDS = 20.0   # a bound on a hang, not a timing assertion


def own_settings(secured, service: str) -> dict:
    files = secured.creds.env(service)
    values = {"nats_url": secured.nats.url, "nats_nkey_file": files["NATS_NKEY_FILE"],
              "event_stream": secured.names.stream, "event_subject_prefix": secured.names.prefix,
              "seed_bucket": secured.names.seeds, "log_level": "warning", "log_json": False}
    if "REDIS_USERNAME" in files:
        values.update(redis_url=secured.redis.url, redis_username=files["REDIS_USERNAME"],
                      redis_password_file=files["REDIS_PASSWORD_FILE"])
    if "ADJUDICATOR_TOKEN_FILE" in files:
        values["adjudicator_token_file"] = files["ADJUDICATOR_TOKEN_FILE"]
    return values


async def adjudicator_store(secured) -> JetStreamEventStore:
    return await JetStreamEventStore.connect(secured.nats.url, auth=secured.auth("adjudicator"),
                                             name=secured.names.stream, subject_prefix=secured.names.prefix)


async def test_the_clock_plays_defaults_as_itself(secured, new_name):
    store = await adjudicator_store(secured)
    vault = await JetStreamSeedVault(store._nc, secured.names.seeds).ensure()
    port, stop_adjudicator = await serve_adjudicator(Adjudicator(store, vault), store,
                                                     callers=load_callers(str(secured.creds.callers_file)))
    settings = ClockSettings(**own_settings(secured, "clock"), adjudicator_target=f"127.0.0.1:{port}",
                             clock_tick_seconds=0.1, clock_health_port=0, clock_health_host="127.0.0.1",
                             metrics_port=0)
    stop = asyncio.Event()
    clock = asyncio.create_task(serve(settings, stop))
    game = new_name("g")
    token = secured.creds.token_file("lobby").read_text().strip()
    try:
        async with AdjudicatorClient(f"127.0.0.1:{port}", token=token) as lobby:
            await lobby.create_game(game, "testjack", ["ann", "bob"], {"decision_seconds": 0.3})

        async def ended():
            while not ((envelopes := await store.read(game_stream(game))) and ends_game(envelopes[-1])):
                await asyncio.sleep(0.1)
            return envelopes

        envelopes = await asyncio.wait_for(ended(), WAIT_SECONDS)
    finally:
        stop.set()
        await asyncio.wait_for(clock, WAIT_SECONDS)
        await stop_adjudicator(0)
        await store.close()
    assert [e.actor for e in envelopes if (e.command_id or "").startswith("clock:") and e.type == "Stood"] == \
        ["ann", "bob"]
    assert secured.violations() == []


async def test_the_trucker_service_plays_moves_as_itself(secured):
    store = await adjudicator_store(secured)            # the adjudicator sets the game up, as in production
    vault = await JetStreamSeedVault(store._nc, secured.names.seeds).ensure()
    await store.ensure()
    game = await new_game(store, ["ann", "bob"], vault=vault)
    own = own_settings(secured, "trucker")
    own.pop("nats_url"), own.pop("redis_url")
    settings = settings_for(secured.nats.url, secured.redis.url, secured.namespace, insecure_dev_mode=False,
                            trucker_bus_prefix=secured.names.trucker_bus, **own)
    try:
        async with in_process(settings) as base:
            ann, watcher = await Client.connect(base, game, "ann"), await Client.connect(base, game)
            ack = await ann.send("grab_face_down")
            assert ack["kind"] == "ack"
            await watcher.wait_for_seq(ack["seq"])          # fanned out over NATS as the trucker user
            assert (await store.read(game_stream(game), from_seq=ack["seq"]))[0].type == "ComponentGrabbed"
            await ann.close(), await watcher.close()
    finally:
        await store.close()
    assert secured.violations() == []
