"""Fixtures several suites share: in-memory spans with tracing on, and a seed vault of the test's own."""
from __future__ import annotations

import pytest
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from starbase_core import tracing
from starbase_core.seeds import JetStreamSeedVault


@pytest.fixture
def spans():
    """Tracing on for this test (everything built from now on traces), its spans kept in memory."""
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracing.install(provider)
    yield exporter
    tracing.uninstall()


@pytest.fixture
async def vault(jetstream_store, namespace):
    """The seed vault the Trucker service and the adjudicator read (its own bucket, removed afterwards)."""
    vault = await JetStreamSeedVault(jetstream_store._nc, bucket=f"secrets_{namespace}").ensure()
    yield vault
    try:
        await jetstream_store._nc.jetstream().delete_stream(f"KV_secrets_{namespace}")
    except Exception:  # already gone: nothing to clean
        pass
