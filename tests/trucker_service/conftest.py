from __future__ import annotations

import pytest

from starbase_core.seeds import MemorySeedVault
from starbase_core.store_memory import MemoryEventStore

from trucker.relay import Relay
from trucker.tables import TableService
from trucker.warehouse import RedisWarehouse
from tests.support.tracing_and_seeds import vault  # noqa: F401 (fixtures)


@pytest.fixture
async def service(redis):
    """The service layer on real Redis and the in-memory event store (same port as JetStream's)."""
    warehouse = RedisWarehouse(redis)
    store = MemoryEventStore()
    return TableService(warehouse, store, Relay(warehouse, store), MemorySeedVault())


@pytest.fixture
def service_settings(nats_url, redis_url, namespace):
    from tests.trucker_service.live import settings_for
    return settings_for(nats_url, redis_url, namespace)




@pytest.fixture
async def live(service_settings, jetstream_store):
    """The real service in this process, on the test's own JetStream stream; yields its ws:// base URL."""
    from tests.trucker_service.live import in_process
    async with in_process(service_settings) as base:
        yield base
