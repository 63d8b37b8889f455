"""Scoring settings, from the environment (field names in upper case), with safe defaults."""
from __future__ import annotations

from starbase_core.config import CoreSettings, from_env


class ScoringSettings(CoreSettings):
    scoring_prefix: str = "scoring"         # Redis key prefix (one hash tag: one Cluster slot)
    scoring_health_host: str = "0.0.0.0"
    scoring_health_port: int = 8082
    scoring_durable: str = "scoring"        # the durable JetStream consumer's name
    metrics_port: int = 9102


NEEDS = ("nats", "redis")


def load_settings() -> ScoringSettings:
    return from_env(ScoringSettings)
