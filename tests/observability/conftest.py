"""Fixtures of the observability tests: spans kept in memory and the Trucker service's seed vault
(shared, tests/support/tracing_and_seeds.py), the test engine the clock tests time, and the
adjudicator behind gRPC."""
from __future__ import annotations

import pytest

from adjudicator.server import start_grpc_server
from adjudicator.service import Adjudicator
from starbase_core.seeds import JetStreamSeedVault
from tests.support import testjack
from tests.support.tracing_and_seeds import spans, vault  # noqa: F401 (fixtures)

testjack.register()


@pytest.fixture
async def adjudicator_target(jetstream_store, namespace, spans):  # noqa: F811 (the `spans` fixture)
    """The adjudicator behind gRPC, built once tracing is on (so its server traces)."""
    vault = await JetStreamSeedVault(jetstream_store._nc, f"seeds_{namespace}").ensure()
    server, port = await start_grpc_server(Adjudicator(jetstream_store, vault), 0, "127.0.0.1")
    yield f"127.0.0.1:{port}"
    await server.stop(1)
    await jetstream_store._js.delete_key_value(f"seeds_{namespace}")
