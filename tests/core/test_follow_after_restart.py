"""A follow of the store hears new envelopes again within seconds after the NATS server restarts
(SIGKILL), not after nats-py's default heartbeat check of 10-20 s: the lobby's live feed, its table
projection and the clock all follow this way."""
import asyncio

import pytest

from starbase_core.envelope import NewEvent
from starbase_core.servers import NatsServer
from starbase_core.store_jetstream import JetStreamEventStore

pytestmark = [pytest.mark.integration, pytest.mark.timeout(120)]
RESUMED_WITHIN = 8.0    # seconds: a bound on "deaf", well below the 10 s the old heartbeat needed at least


async def test_a_follow_resumes_within_seconds_after_nats_is_killed_and_restarted(tmp_path):
    server = NatsServer(workdir=tmp_path / "nats").start()
    store = await JetStreamEventStore.connect(server.url, name="F", subject_prefix="f")
    try:
        seen: list[int] = []

        async def follow():
            async for _, envelope in store.follow(0, "game.>"):
                seen.append(envelope.seq)

        follower = asyncio.create_task(follow())
        await store.append("game.a", [NewEvent(type="Ticked")], expected_seq=0)
        await _until(lambda: seen == [1], 10)

        server.process.kill()
        server.process.wait()
        server.start()                               # same port, same files
        await _until(lambda: store._nc.is_connected, 10)
        await _append_when_possible(store, expected_seq=1)
        await _until(lambda: seen == [1, 2], RESUMED_WITHIN)
        follower.cancel()
        await asyncio.gather(follower, return_exceptions=True)
    finally:
        await store.close()
        server.stop()


async def _append_when_possible(store, expected_seq: int) -> None:
    for _ in range(50):
        try:
            await store.append("game.a", [NewEvent(type="Ticked")], expected_seq=expected_seq, command_id="second")
            return
        except Exception:           # JetStream still recovering its streams
            await asyncio.sleep(0.1)
    raise AssertionError("could not append after the restart")


async def _until(condition, timeout: float) -> None:
    async def poll():
        while not condition():
            await asyncio.sleep(0.05)
    await asyncio.wait_for(poll(), timeout)
