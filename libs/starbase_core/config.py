"""Typed settings from environment variables, with defaults that are safe on a developer machine.

Each service declares a pydantic model of its settings and builds it once at startup:

    class LobbySettings(CoreSettings):
        lobby_port: int = 8000

    settings = from_env(LobbySettings)        # LOBBY_PORT=9000 → settings.lobby_port == 9000

The variable for a field is its name in upper case (with an optional prefix). Values are validated by
pydantic, so `ADJUDICATOR_PORT=abc` stops the service at startup with a clear message.
"""
from __future__ import annotations

import os
from typing import Mapping, TypeVar

from pydantic import BaseModel, ConfigDict

T = TypeVar("T", bound=BaseModel)


class CoreSettings(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    nats_url: str = "nats://127.0.0.1:4222"
    redis_url: str = "redis://127.0.0.1:6379/0"
    # The JetStream stream that holds every Starbase stream, and its subject prefix.
    event_stream: str = "STARBASE"
    event_subject_prefix: str = "sb"
    store_replicas: int = 1            # 3 in production, with a 3-node JetStream cluster
    seed_bucket: str = "game-secrets"  # KV bucket of per-game secret seeds; only services may read it
    log_level: str = "info"
    log_json: bool = True


def from_env(model: type[T], env: Mapping[str, str] | None = None, prefix: str = "") -> T:
    env = os.environ if env is None else env
    values = {}
    for name in model.model_fields:
        variable = f"{prefix}{name}".upper()
        if variable in env:
            values[name] = env[variable]
    return model.model_validate(values)
