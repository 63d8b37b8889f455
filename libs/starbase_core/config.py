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
from typing import Literal, Mapping, TypeVar

from pydantic import BaseModel, ConfigDict, Field

T = TypeVar("T", bound=BaseModel)


class CoreSettings(BaseModel):
    # hide_input_in_errors: a refused setting is named, never echoed (it may be a secret, or sit beside one).
    model_config = ConfigDict(frozen=True, extra="forbid", hide_input_in_errors=True)

    nats_url: str = "nats://127.0.0.1:4222"
    redis_url: str = "redis://127.0.0.1:6379/0"
    # The JetStream stream that holds every Starbase stream, and its subject prefix.
    event_stream: str = "STARBASE"
    event_subject_prefix: str = "sb"
    store_replicas: int = 1            # 3 in production, with a 3-node JetStream cluster
    seed_bucket: str = "game-secrets"  # KV bucket of per-game secret seeds; only services may read it
    log_level: str = "info"
    log_json: bool = True
    # Credentials and TLS of the internal links (docs/security.md). Secrets are never values here, only
    # the files holding them, so they cannot leak through a URL, a log line or `ps`.
    nats_nkey_file: str = ""           # this service's NATS user: its NKey seed file
    redis_username: str = ""           # this service's Redis ACL user…
    redis_password_file: str = ""      # …and the file with its password
    tls_ca_file: str = ""              # the internal CA: servers are checked against it
    tls_cert_file: str = ""            # this service's certificate and key (client and server)
    tls_key_file: str = ""
    adjudicator_tls: bool = False      # the adjudicator's gRPC over (mutual) TLS, with the files above
    # How callers send the adjudicator commands: gRPC's SubmitStream, or NATS requests on the subjects under
    # ADJUDICATOR_SUBJECT (services/adjudicator/nats_door.py; every adjudicator serves both). Empty: named
    # after the event store's prefix, so adjudicators of two stores on one NATS never answer each other.
    adjudicator_link: Literal["grpc", "nats"] = "nats"
    adjudicator_subject: str = Field("", pattern=r"^([A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*)?$", max_length=64)
    # Prometheus metrics on a port of their own, never the public one (each service sets its default).
    metrics_host: str = "127.0.0.1"
    metrics_port: int = 9100
    # Development only: start even with missing, short or placeholder secrets (warning instead).
    insecure_dev_mode: bool = False

    @property
    def adjudicator_subjects(self) -> str:
        """The NATS subjects' root that commands to the adjudicator travel under (ADJUDICATOR_SUBJECT)."""
        return self.adjudicator_subject or f"{self.event_subject_prefix}-adjudicator"


def from_env(model: type[T], env: Mapping[str, str] | None = None, prefix: str = "") -> T:
    env = os.environ if env is None else env
    values = {}
    for name in model.model_fields:
        variable = f"{prefix}{name}".upper()
        if variable in env:
            values[name] = env[variable]
    return model.model_validate(values)
