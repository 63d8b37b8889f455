"""The hourglass watch is supervised: if it dies the service says it is not ready, and it comes back."""
from __future__ import annotations

import asyncio

import pytest

from trucker.runtime import Runtime

pytestmark = pytest.mark.integration


class FailingOnce(dict):
    """The runtime's table of active games, whose first look fails as a broken watch would."""

    def __init__(self):
        super().__init__()
        self.failed = asyncio.Event()
        self.allowed = asyncio.Event()

    def items(self):
        if not self.allowed.is_set():
            self.failed.set()
            raise RuntimeError("the watch broke")
        return super().items()


async def test_a_dead_hourglass_watch_makes_the_service_unready_until_it_is_restarted(
        service_settings, jetstream_store):
    runtime = await Runtime.start(service_settings)
    try:
        assert await runtime.ready()
        runtime.supervisor.first_delay = 1.0          # down long enough to be seen
        runtime.active = active = FailingOnce()
        await asyncio.wait_for(active.failed.wait(), 10)
        assert not await runtime.ready()
        assert "the watch broke" in runtime.supervisor.problems()["hourglasses"]
        active.allowed.set()

        async def ready_again():
            while not await runtime.ready():
                await asyncio.sleep(0.02)
        await asyncio.wait_for(ready_again(), 10)
        assert runtime.supervisor.tasks["hourglasses"].restarts >= 1
    finally:
        await runtime.stop()
