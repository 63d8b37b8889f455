"""Lobby settings: built once from the environment at startup (`from_env`), with safe defaults.

Variables are the field names in upper case: LOBBY_PORT, ADJUDICATOR_TARGET, LOBBY_SECRET, NATS_URL, …
"""
from __future__ import annotations

import secrets

from pydantic import Field

from starbase_core.config import CoreSettings, from_env


class LobbySettings(CoreSettings):
    lobby_host: str = "127.0.0.1"
    lobby_port: int = 8000
    adjudicator_target: str = "127.0.0.1:50051"
    # Tokens are signed with this: set LOBBY_SECRET, the same on every replica. `python -m lobby` refuses
    # to start without it (or with a short or placeholder one) unless INSECURE_DEV_MODE=true; then, or
    # when a test builds settings without it, a random one is drawn: nobody can forge a token, but a
    # restart logs everyone out and replicas reject each other's tokens.
    lobby_secret: str = Field(default_factory=lambda: secrets.token_urlsafe(32))
    lobby_token_max_age: int = 7 * 24 * 3600        # seconds
    lobby_max_body_bytes: int = 64 * 1024
    lobby_page_size_max: int = 100
    lobby_shutdown_grace: float = 10.0
    scoring_prefix: str = "scoring"                 # the Redis key prefix scoring writes under
    # Where players connect for a game's real-time phase (Trucker's building): TRUCKER_PUBLIC_URL.
    trucker_public_url: str = "ws://127.0.0.1:8300"
    adjudicator_token_file: str = ""                # the lobby's caller secret for the adjudicator
    metrics_port: int = 9100                        # /metrics, away from the public port


NEEDS = ("nats", "redis", "adjudicator_client", "lobby_secret")


def load_settings() -> LobbySettings:
    return from_env(LobbySettings)
