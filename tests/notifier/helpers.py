"""Notifier parts on real NATS, isolated by the test's namespace, for the delivery tests."""
from __future__ import annotations

from contextlib import asynccontextmanager
from datetime import datetime, timezone

from starbase_core.bus import connect_nats

from notifier.claims import Claims
from notifier.config import NotifierSettings
from notifier.deadletters import DeadLetters
from notifier.delivery import Deliverer
from notifier.kinds import YOUR_TURN, Notification
from notifier.mailer import Mailer
from notifier.preferences import PreferenceStore
from notifier.webhook import WebhookSender


def settings_for(namespace: str, nats_url: str, **overrides) -> NotifierSettings:
    return NotifierSettings(**{
        "nats_url": nats_url, "event_stream": f"ES{namespace}", "event_subject_prefix": namespace,
        "notifier_prefs_bucket": f"prefs{namespace}", "notifier_claims_bucket": f"claims{namespace}",
        "notifier_dead_stream": f"DEAD{namespace}", "notifier_dead_prefix": f"dead{namespace}",
        "notifier_test_subject": f"test{namespace}", "notifier_durable": f"notifier{namespace}",
        "notifier_allow_loopback": True, "notifier_backoff_seconds": 0.01, "notifier_backoff_max_seconds": 0.05,
        "notifier_attempts": 3, "notifier_lease_seconds": 1.0, "notifier_timeout_seconds": 3.0,
        "notifier_ack_wait_seconds": 2.0, "notifier_health_port": 0, **overrides})


def env_for(settings: NotifierSettings) -> dict[str, str]:
    """The same settings as environment variables (for `python -m notifier`, and the lobby's client)."""
    return {name.upper(): str(value).lower() if isinstance(value, bool) else str(value)
            for name, value in settings.model_dump().items() if name.startswith(("notifier_", "event_", "nats_"))}


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat().replace("+00:00", "Z")


def a_turn(player: str = "ann", seq: int = 7) -> Notification:
    return Notification(YOUR_TURN, player, stream="game.g1", seq=seq, time=now_iso(), game="testjack", table_id="g1")


class Parts:
    def __init__(self, nc, settings: NotifierSettings, mailer: Mailer | None = None):
        self.nc, self.settings = nc, settings
        self.preferences = PreferenceStore(nc, settings.notifier_prefs_bucket)
        self.claims = Claims(nc, settings.notifier_claims_bucket, owner="test")
        self.dead = DeadLetters(nc, settings.notifier_dead_stream, settings.notifier_dead_prefix)
        self.webhook = WebhookSender(settings.notifier_timeout_seconds, 1024, settings.notifier_allow_loopback)
        self.deliverer = Deliverer(settings, self.preferences, self.claims, self.dead, self.webhook,
                                   mailer or Mailer())

    async def ensure(self) -> "Parts":
        await self.preferences.ensure()
        await self.claims.ensure()
        await self.dead.ensure()
        return self


@asynccontextmanager
async def parts(nats_url: str, namespace: str, mailer: Mailer | None = None, **overrides):
    nc = await connect_nats(nats_url, name="notifier-test")
    settings = settings_for(namespace, nats_url, **overrides)
    made = await Parts(nc, settings, mailer).ensure()
    try:
        yield made
    finally:
        await made.webhook.close()
        js = nc.jetstream()
        for stream in (f"KV_{settings.notifier_prefs_bucket}", f"KV_{settings.notifier_claims_bucket}",
                       settings.notifier_dead_stream):
            try:
                await js.delete_stream(stream)
            except Exception:       # already gone
                pass
        await nc.drain()
