"""Fixtures of the observability tests: spans kept in memory and the Trucker service's seed vault
(shared, tests/support/tracing_and_seeds.py), the test engine the clock tests time, and the
adjudicator behind gRPC and NATS."""
from __future__ import annotations

import pytest

from adjudicator.service import Adjudicator
from starbase_core.seeds import JetStreamSeedVault
from tests.support import testjack
from tests.support.stack import serve_adjudicator
from tests.support.tracing_and_seeds import spans, vault  # noqa: F401 (fixtures)

testjack.register()


@pytest.fixture
async def adjudicator_target(jetstream_store, namespace, spans):  # noqa: F811 (the `spans` fixture)
    """The adjudicator behind gRPC and its NATS door (on the subjects a service's settings name after the
    store's prefix), built once tracing is on (so its server traces)."""
    vault = await JetStreamSeedVault(jetstream_store._nc, f"seeds_{namespace}").ensure()
    port, stop = await serve_adjudicator(Adjudicator(jetstream_store, vault), jetstream_store)
    yield f"127.0.0.1:{port}"
    await stop(1)
    await jetstream_store._js.delete_key_value(f"seeds_{namespace}")
