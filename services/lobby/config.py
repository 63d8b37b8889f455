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
    # Tokens are signed with this. Without LOBBY_SECRET a random one is drawn: still safe (nobody can
    # forge a token) but a restart logs everyone out and replicas reject each other's tokens, so set it
    # (the same on every replica) in production.
    lobby_secret: str = Field(default_factory=lambda: secrets.token_urlsafe(32))
    lobby_token_max_age: int = 7 * 24 * 3600        # seconds
    lobby_max_body_bytes: int = 64 * 1024
    lobby_page_size_max: int = 100
    lobby_shutdown_grace: float = 10.0
    scoring_prefix: str = "scoring"                 # the Redis key prefix scoring writes under
    # Where players connect for a game's real-time phase (Trucker's building): TRUCKER_PUBLIC_URL.
    trucker_public_url: str = "ws://127.0.0.1:8300"


def load_settings() -> LobbySettings:
    return from_env(LobbySettings)
