"""Settings of the Trucker service, read once from the environment at startup (see `docs/trucker_service.md`).

Shared platform variables keep their platform names (NATS_URL, REDIS_URL, EVENT_STREAM,
EVENT_SUBJECT_PREFIX); the service's own start with TRUCKER_. REDIS_URL must be the lobby's Redis:
players prove who they are with the lobby's single-use tickets, kept there (`auth.py`).
"""
from __future__ import annotations

from pydantic import Field

from starbase_core.config import CoreSettings, from_env


class TruckerSettings(CoreSettings):
    trucker_host: str = "127.0.0.1"
    trucker_port: int = 8300
    trucker_max_message_bytes: int = 4096      # a larger client message is refused (MESSAGE_TOO_LARGE)
    # One socket's messages: this many a second on average, `burst` at once; more are refused RATE_LIMITED
    # (`flood.py`).
    trucker_socket_messages_per_second: float = Field(20.0, gt=0)
    trucker_socket_message_burst: int = Field(60, ge=1)
    trucker_bus_prefix: str = "trucker"        # NATS subjects `<prefix>.events.<game>` fan events out
    trucker_clock_interval: float = 0.25       # how often a replica looks for hourglasses run out on START
    trucker_shutdown_grace: float = 10.0
    trucker_redis_connections: int = 512       # moves beyond this many at once wait for a connection
    # A bot seat's pace while building: one move this often (0 would spin the bot loop: refused at start).
    trucker_bot_move_seconds: float = Field(0.5, gt=0, le=60)
    # TRUCKER_TRUST_PLAYER_PARAM (benchmarks and local play only) takes `?player=<id>` at its word
    # instead of a lobby ticket.
    trucker_trust_player_param: bool = False    # refused by `python -m trucker` unless INSECURE_DEV_MODE
    metrics_port: int = 9103                    # /metrics, away from the players' port
    # Benchmarks: where a move's time went (loop lag, GC pauses, stages), written here at stop (`probe.py`).
    trucker_probe_file: str = ""


NEEDS = ("nats", "redis", "no_trusted_player_param")


def load_settings() -> TruckerSettings:
    return from_env(TruckerSettings)
