"""Fixtures of the observability tests: spans kept in memory and the Trucker service's seed vault
(shared, tests/support/tracing_and_seeds.py), and the test engine the clock tests time."""
from __future__ import annotations

from tests.support import testjack
from tests.support.tracing_and_seeds import spans, vault  # noqa: F401 (fixtures)

testjack.register()
