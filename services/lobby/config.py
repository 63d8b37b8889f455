"""Lobby settings: built once from the environment at startup (`from_env`), with safe defaults.

Variables are the field names in upper case: LOBBY_PORT, ADJUDICATOR_TARGET, LOBBY_SECRET, NATS_URL, …
Rate limits are strings in the `limits` library's notation ("5/minute", several joined by ";"), each
checked at startup; see docs/accounts.md for what each one counts.
"""
from __future__ import annotations

import ipaddress
import secrets

from limits import parse_many
from pydantic import Field, field_validator, model_validator

from starbase_core.config import CoreSettings, from_env
from starbase_core.credentials import problem_with_secret


class LobbySettings(CoreSettings):
    lobby_host: str = "127.0.0.1"
    lobby_port: int = 8000
    adjudicator_target: str = "127.0.0.1:50051"
    # Tokens are signed with this: set LOBBY_SECRET, the same on every replica. One rule
    # (docs/security.md): `python -m lobby` refuses to start when it is missing, short or a placeholder,
    # unless INSECURE_DEV_MODE=true, which only warns; LOBBY_PRODUCTION=true refuses INSECURE_DEV_MODE
    # itself, so a production lobby always has a good one. Without it (dev mode, or settings a test
    # builds) a random one is drawn per process: nobody can forge a token, but a restart logs everyone
    # out and replicas reject each other's tokens.
    lobby_secret: str | None = None
    lobby_production: bool = False
    lobby_max_body_bytes: int = 64 * 1024
    # A larger WebSocket message from a client closes its socket (1009); a move is a command's body.
    lobby_ws_max_message_bytes: int = 16 * 1024
    lobby_page_size_max: int = 100
    lobby_shutdown_grace: float = 10.0
    scoring_prefix: str = "scoring"                 # the Redis key prefix scoring writes under
    # Where players connect for a game's real-time phase (Trucker's building): TRUCKER_PUBLIC_URL.
    trucker_public_url: str = "ws://127.0.0.1:8300"
    adjudicator_token_file: str = ""                # the lobby's caller secret for the adjudicator
    # The boards are read as a second Redis user that may only read them (docs/security.md: a Redis 6.2
    # user cannot write its own keys and only read others'); unset: the lobby's own connection.
    lobby_scores_redis_username: str = ""
    lobby_scores_redis_password_file: str = ""
    metrics_port: int = 9100                        # /metrics, away from the public port
    # --- the player's loop (docs/api.md): turns, presence and quick play in Redis under this prefix ---
    lobby_loop_prefix: str = "loop"
    lobby_quickplay_band: float = Field(default=5.0, ge=0)      # rating (mu) either side of a table's mean
    lobby_quickplay_widen: float = Field(default=0.5, ge=0)     # the band's growth per second a table waits
    # A waiting player leaves the queue after this long with no socket on the table and no POST /quickplay,
    # or `grace` seconds after their last socket on it closed (idle must exceed the socket beat, 10 s).
    lobby_quickplay_idle: float = Field(default=60.0, ge=1, le=3600)
    lobby_quickplay_grace: float = Field(default=10.0, ge=0, le=3600)

    # --- accounts and sessions (docs/accounts.md) ---
    # At least 5 s: the browser tests shorten it to watch the web client refresh (docs/web-client.md).
    lobby_access_token_seconds: int = Field(default=900, ge=5, le=86400)
    lobby_refresh_token_seconds: int = Field(default=30 * 24 * 3600, ge=300)
    lobby_ticket_seconds: int = Field(default=30, ge=5, le=300)
    lobby_accounts_bucket: str = "accounts"         # JetStream KV: accounts and the name index
    lobby_sessions_bucket: str = "sessions"         # JetStream KV: refresh-token families
    lobby_personal_stream: str = "PERSONAL"         # JetStream stream that allows delete: chat, reports, log
    lobby_personal_prefix: str = "personal"
    # argon2id, RFC 9106's second recommended setting (argon2-cffi's default): 3 passes over 64 MiB,
    # 4 lanes. Tests lower them to stay fast; production should not.
    lobby_argon2_time_cost: int = Field(default=3, ge=1)
    lobby_argon2_memory_kib: int = Field(default=65536, ge=8)
    lobby_argon2_parallelism: int = Field(default=4, ge=1)

    # The clock service's limit per decision for tables without time controls (the same variable as the
    # clock's: set both alike), so the lobby shows the clock those tables run on (docs/clock.md).
    clock_default_seconds: float = Field(default=0.0, ge=0)

    # --- limits, shared by every replica through Redis (429 RATE_LIMITED with Retry-After) ---
    lobby_limits_prefix: str = "limits"
    lobby_limit_registrations: str = "5/minute;30/day"      # per address (accounts and guests)
    lobby_limit_logins: str = "20/minute"                   # per address
    lobby_login_free_failures: int = 3      # then each failure on one account doubles its wait: 2, 4, 8 … s
    lobby_login_max_delay: int = 900        # seconds
    lobby_limit_commands: str = "10/second;300/minute"      # per player
    lobby_limit_chat: str = "5/10second;100/hour"           # per player
    lobby_limit_tables: str = "10/minute;100/day"           # new tables per player
    lobby_limit_tickets: str = "30/minute"                  # per player
    lobby_limit_reports: str = "10/hour"                    # per player
    lobby_limit_reviews: str = "60/minute"                  # past positions (each a fold), per player or address
    lobby_limit_exports: str = "10/minute"                  # finished games' streams, per player or address
    lobby_limit_quickplay: str = "20/minute;500/day"        # POST /quickplay (asking again included), per player
    lobby_limit_invitations: str = "10/minute;100/day"      # per player (docs/notifier.md)
    lobby_limit_notifications: str = "10/minute;100/day"    # settings saved or tested, per player
    lobby_limit_pauses: str = "6/minute;60/day"             # pause requests, answers and resumes, per player
    lobby_max_open_tables: int = 3                          # open (not yet started) tables a player hosts
    lobby_max_sockets_per_player: int = 16
    lobby_max_sockets_per_address: int = 64
    # Addresses the limits do not apply to (CIDRs, comma-separated): for `starbase load` on its own
    # machine, e.g. "127.0.0.1/32,::1/128". Off by default; refused when LOBBY_PRODUCTION is true.
    lobby_limits_exempt: str = ""

    @field_validator("lobby_limit_registrations", "lobby_limit_logins", "lobby_limit_commands", "lobby_limit_chat",
                     "lobby_limit_tables", "lobby_limit_tickets", "lobby_limit_reports", "lobby_limit_reviews",
                     "lobby_limit_exports", "lobby_limit_quickplay", "lobby_limit_invitations",
                     "lobby_limit_notifications", "lobby_limit_pauses")
    @classmethod
    def _limit(cls, value: str) -> str:
        try:
            parse_many(value)
        except ValueError:
            raise ValueError(f"{value!r} is not a rate limit such as '5/minute' or '10/second;300/hour'") from None
        return value

    @field_validator("lobby_limits_exempt")
    @classmethod
    def _networks(cls, value: str) -> str:
        for part in filter(None, (p.strip() for p in value.split(","))):
            ipaddress.ip_network(part, strict=False)
        return value

    @model_validator(mode="after")
    def _production(self) -> "LobbySettings":
        if not self.lobby_production:
            return self
        if self.lobby_limits_exempt.strip():
            raise ValueError("LOBBY_LIMITS_EXEMPT is for load tests on a developer machine: "
                             "it is refused when LOBBY_PRODUCTION is true")
        if self.insecure_dev_mode:
            raise ValueError("INSECURE_DEV_MODE is for throw-away local runs: "
                             "it is refused when LOBBY_PRODUCTION is true")
        if (problem := problem_with_secret("LOBBY_SECRET", self.lobby_secret)) is not None:
            raise ValueError(f"{problem} (the same on every replica; LOBBY_PRODUCTION is true)")
        return self

    def exempt_networks(self) -> list:
        return [ipaddress.ip_network(p.strip(), strict=False) for p in self.lobby_limits_exempt.split(",") if p.strip()]

    def signing_secret(self) -> str:
        """LOBBY_SECRET, or a random one drawn once per settings object (one process)."""
        if self.lobby_secret:
            return self.lobby_secret
        drawn = self.__dict__.get("_drawn_secret")
        if drawn is None:
            drawn = secrets.token_urlsafe(32)
            object.__setattr__(self, "_drawn_secret", drawn)   # frozen model: cache the draw once
        return drawn


# The secrets `python -m lobby` checks before it connects (starbase_core.credentials.require).
NEEDS = ("nats", "redis", "scores_redis", "adjudicator_client", "lobby_secret")


def load_settings() -> LobbySettings:
    return from_env(LobbySettings)
