"""Notifier settings, from the environment (field names in upper case), with safe defaults.

`StorageNames` are what the lobby's client needs too (where preferences and dead letters live, the
test subject, whether loopback webhooks are allowed); the lobby builds them with `from_env` as well,
so one set of variables configures both sides.
"""
from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator

from starbase_core.config import CoreSettings, from_env


class StorageNames(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    notifier_prefs_bucket: str = "notifier-prefs"      # JetStream KV: a player's preferences (personal data)
    notifier_claims_bucket: str = "notifier-claims"    # JetStream KV: who sends which notification
    notifier_dead_stream: str = "NOTIFIER_DEAD"         # JetStream stream of dead letters (purgeable)
    notifier_dead_prefix: str = "notifier-dead"
    notifier_test_subject: str = "notifier.test"        # core NATS request: send a test webhook now
    # Webhooks to loopback addresses (127.0.0.1, ::1): for tests and `make run` only. Private,
    # link-local and other non-public addresses are refused whatever this says.
    notifier_allow_loopback: bool = False
    notifier_storage_replicas: int = 1


# The links it must be secured on (starbase_core.credentials.require): the notifier reaches only NATS
# (its own KV buckets and dead-letter stream, the event store) and, out, webhooks and SMTP.
NEEDS = ("nats",)


class NotifierSettings(CoreSettings, StorageNames):
    metrics_port: int = 9106                            # /metrics, away from the health port
    notifier_health_host: str = "0.0.0.0"
    notifier_health_port: int = 8086
    notifier_durable: str = "notifier"                  # the durable JetStream consumer's name
    notifier_public_url: str = "http://127.0.0.1:8000"  # links in notifications point here (the lobby)
    notifier_attempts: int = Field(default=6, ge=1, le=20)          # webhook tries before a dead letter
    notifier_backoff_seconds: float = Field(default=2.0, gt=0)      # first retry delay (then doubles)
    notifier_backoff_max_seconds: float = Field(default=300.0, gt=0)
    notifier_timeout_seconds: float = Field(default=10.0, gt=0, le=60)   # one attempt, connect to last byte
    notifier_response_max_bytes: int = Field(default=16384, ge=0)   # read of a receiver's answer, at most
    notifier_lease_seconds: float = Field(default=60.0, gt=0)       # a claim's lease past its next attempt
    notifier_claims_days: float = Field(default=7.0, gt=0)          # claims expire after this
    notifier_max_age_seconds: float = Field(default=3600.0, gt=0)   # older causes are not notified
    notifier_turn_interval_seconds: float = Field(default=300.0, ge=0)  # one "your turn" per player and game
    notifier_clock_low_seconds: float = Field(default=300.0, ge=0, le=30 * 86400)   # "clock running low" lead…
    notifier_clock_low_fraction: float = Field(default=0.25, gt=0, le=1)     # …at most this share of the decision
    notifier_clock_tick_seconds: float = Field(default=1.0, gt=0, le=60)     # how often low clocks are looked for
    clock_default_seconds: float = Field(default=0.0, ge=0)    # the clock's, so default-timed tables are warned too
    notifier_in_flight: int = Field(default=256, ge=1)              # appends being notified at once
    notifier_concurrent_sends: int = Field(default=64, ge=1)        # webhook or mail attempts at once
    notifier_ack_wait_seconds: float = Field(default=30.0, ge=1)    # an unacknowledged append comes back after
    notifier_smtp_host: str = ""                        # empty: no e-mail
    notifier_smtp_port: int = 587
    notifier_smtp_starttls: bool = True                 # upgrade with STARTTLS (port 587)
    notifier_smtp_ssl: bool = False                     # TLS from the first byte (port 465)
    notifier_smtp_username: str = ""
    notifier_smtp_password: str = ""
    notifier_smtp_from: str = "Starbase <noreply@starbase.invalid>"
    notifier_smtp_timeout: float = Field(default=20.0, gt=0)
    notifier_smtp_ca_file: str = ""                     # a private CA to trust (certificates are always checked)

    @model_validator(mode="after")
    def _consistent(self) -> "NotifierSettings":
        if self.notifier_smtp_ssl and self.notifier_smtp_starttls:
            raise ValueError("NOTIFIER_SMTP_SSL and NOTIFIER_SMTP_STARTTLS exclude each other: TLS from the "
                             "start (465) or an upgrade (587), not both")
        if self.notifier_claims_days * 86400 <= self.notifier_max_age_seconds:
            raise ValueError("NOTIFIER_CLAIMS_DAYS must outlast NOTIFIER_MAX_AGE_SECONDS, or an expired claim "
                             "could let an old notification go out twice")
        return self


def load_settings() -> NotifierSettings:
    return from_env(NotifierSettings)


def load_storage_names() -> StorageNames:
    return from_env(StorageNames)
