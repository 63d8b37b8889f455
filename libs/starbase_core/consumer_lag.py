"""How far a durable JetStream consumer is behind the event store, for the services that pull one (the
bot worker, the notifier): `starbase_consumer_lag_messages{consumer}`, the messages the server still
holds for it after the last one fetched, 0 when a fetch finds nothing. (Scoring keeps its own
`scoring_consumer_lag_messages`.) A consumer that falls behind shows here before players notice that
bots stall or notifications come late."""
from __future__ import annotations

from typing import Any, Sequence

from prometheus_client import Gauge

CONSUMER_LAG = Gauge("starbase_consumer_lag_messages", "Store messages not yet delivered to a durable consumer",
                     ["consumer"])


def fetched(consumer: str, messages: Sequence[Any]) -> None:
    """After a fetch: what the server still holds for `consumer` behind the last message fetched."""
    CONSUMER_LAG.labels(consumer).set(messages[-1].metadata.num_pending if messages else 0)


def idle(consumer: str) -> None:
    """A fetch found nothing: `consumer` is caught up."""
    CONSUMER_LAG.labels(consumer).set(0)
