"""Deliver one notification on each channel its player chose: claim, attempt, back off, settle.

For each channel (`webhook`, `email`) the claim `<notification id>.<channel>` decides who sends
(`claims.py`). Attempts are spaced by exponential back-off with jitter (NOTIFIER_BACKOFF_SECONDS,
doubling up to NOTIFIER_BACKOFF_MAX_SECONDS, each delay drawn between half and all of that), the
claim's lease renewed before each, and after NOTIFIER_ATTEMPTS failures (or one final refusal, such as
a 4xx) a dead letter is written and the claim settled `dead`.

Nothing is sent when the player chose no channel for the kind, during their quiet hours, or when the
cause is older than NOTIFIER_MAX_AGE_SECONDS (a notifier back from a long outage, or a first start on
an old store, does not flood anyone with news of long ago).
"""
from __future__ import annotations

import asyncio
import json
import random
import uuid
from datetime import datetime, timezone
from typing import Awaitable, Callable

import structlog
from prometheus_client import Counter

from starbase_core.decisions import parse_time

from notifier.claims import DEAD, SENT, Busy, Claims, Lost
from notifier.config import NotifierSettings
from notifier.deadletters import DeadLetters
from notifier.kinds import TEST, Notification
from notifier.mailer import Mailer
from notifier.preferences import Preferences, PreferenceStore
from notifier.urlsafety import describe
from notifier.webhook import Outcome, WebhookSender

log = structlog.get_logger(__name__)
NOTIFICATIONS = Counter("notifier_notifications_total", "Notifications considered, by what became of them",
                        ["kind", "outcome"])
ATTEMPTS = Counter("notifier_attempts_total", "Delivery attempts, by channel and result", ["channel", "result"])
DEAD_LETTERS = Counter("notifier_dead_letters_total", "Notifications given up on, by channel", ["channel"])


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


class Deliverer:
    def __init__(self, settings: NotifierSettings, preferences: PreferenceStore, claims: Claims,
                 dead: DeadLetters, webhook: WebhookSender, mailer: Mailer, *,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep, now: Callable[[], datetime] = utc_now):
        self.settings, self.preferences, self.claims, self.dead = settings, preferences, claims, dead
        self.webhook, self.mailer, self.sleep, self.now = webhook, mailer, sleep, now
        # Attempts at once: a backlog waits here, outside an attempt's deadline, not in a connection pool.
        self._sending = asyncio.Semaphore(settings.notifier_concurrent_sends)

    async def deliver(self, note: Notification) -> str:
        """Send `note` where its player wants it; what became of it. Raises Busy (another sender holds
        a claim: try again after `retry_after`) and storage errors (try again soon)."""
        outcome = await self._deliver(note)
        NOTIFICATIONS.labels(note.kind, outcome).inc()
        return outcome

    async def _deliver(self, note: Notification) -> str:
        preferences = await self.preferences.get(note.player)
        if preferences is None:
            return "no_preferences"
        channels = [c for c in preferences.channels_for(note.kind) if c != "email" or self.mailer.enabled]
        if not channels:
            return "not_wanted"
        if (self.now() - parse_time(note.time)).total_seconds() > self.settings.notifier_max_age_seconds:
            return "stale"
        if preferences.quiet(self.now()):
            return "quiet"
        results = await asyncio.gather(*(self._channel(note, preferences, channel) for channel in channels),
                                       return_exceptions=True)
        busy = [r for r in results if isinstance(r, Busy)]
        failed = [r for r in results if isinstance(r, BaseException) and not isinstance(r, Busy)]
        if failed:
            raise failed[0]
        if busy:
            raise Busy(max(b.retry_after for b in busy))
        return "handled"

    async def _channel(self, note: Notification, preferences: Preferences, channel: str) -> None:
        """Attempts take a sending slot, and the claim is taken (or renewed) only once a slot is held,
        so a backlog waiting for slots never outlives a lease."""
        lease = self.settings.notifier_lease_seconds + self.settings.notifier_timeout_seconds
        claim, attempts = None, 0
        outcome = Outcome(False, retry=False, problem="given up by an earlier sender")
        target = self._target(channel, preferences)
        try:
            while True:
                async with self._sending:
                    if claim is None:
                        claim = await self.claims.acquire(f"{note.id}.{channel}", lease)
                        if claim is None:
                            return                          # sent (or given up on) already
                        attempts = claim.attempts
                    else:
                        claim = await self.claims.renew(claim, lease, attempts)
                    if attempts < self.settings.notifier_attempts:
                        outcome = await self._attempt(channel, note, preferences, note.id)
                        attempts += 1
                        ATTEMPTS.labels(channel, "ok" if outcome.ok else "failed").inc()
                        if outcome.ok:
                            await self.claims.settle(claim, SENT, attempts)
                            log.info("notification_sent", id=note.id, kind=note.kind, channel=channel,
                                     attempts=attempts, target=target)
                            return
                        log.info("notification_attempt_failed", id=note.id, kind=note.kind, channel=channel,
                                 attempts=attempts, problem=outcome.problem, target=target)
                if not outcome.retry or attempts >= self.settings.notifier_attempts:
                    break
                delay = self.backoff(attempts)
                claim = await self.claims.renew(claim, delay + lease, attempts)
                await self.sleep(delay)
            await self.dead.add(note.player, {
                "id": note.id, "kind": note.kind, "channel": channel, "player": note.player,
                "stream": note.stream, "seq": note.seq, "table_id": note.table_id, "attempts": attempts,
                "problem": outcome.problem, "target": target})
            await self.claims.settle(claim, DEAD, attempts)
            DEAD_LETTERS.labels(channel).inc()
            log.warning("notification_dead_letter", id=note.id, kind=note.kind, channel=channel, attempts=attempts,
                        problem=outcome.problem, target=target)
        except Lost:
            log.info("notification_taken_over", id=note.id, channel=channel)   # the new holder finishes it

    def backoff(self, attempts: int) -> float:
        ceiling = min(self.settings.notifier_backoff_max_seconds,
                      self.settings.notifier_backoff_seconds * 2 ** (attempts - 1))
        return ceiling / 2 + random.random() * ceiling / 2

    async def attempt(self, channel: str, note: Notification, preferences: Preferences,
                      notification_id: str | None = None) -> Outcome:
        async with self._sending:
            return await self._attempt(channel, note, preferences, notification_id or note.id)

    async def _attempt(self, channel: str, note: Notification, preferences: Preferences, identity: str) -> Outcome:
        if channel == "webhook" and preferences.webhook is not None:
            body = json.dumps(note.body(self.settings.notifier_public_url, identity), separators=(",", ":")).encode()
            return await self.webhook.send(preferences.webhook.url, preferences.webhook.secret, identity,
                                           note.kind, body)
        if channel == "email" and preferences.email is not None:
            text = email_text(note, self.settings.notifier_public_url, identity)
            return await self.mailer.send(self.mailer.message(preferences.email.address, note.title(), text, identity))
        return Outcome(False, retry=False, problem=f"no {channel} is set")

    async def send_test(self, player: str) -> dict:
        """One signed test webhook now (no claim, no retry): what happened, in our words."""
        preferences = await self.preferences.get(player)
        if preferences is None or preferences.webhook is None:
            return {"delivered": False, "code": "NO_WEBHOOK", "problem": "set a webhook URL first"}
        note = Notification(kind=TEST, player=player, stream="", seq=0,
                            time=self.now().isoformat().replace("+00:00", "Z"))
        identity = f"test-{uuid.uuid4().hex}"
        outcome = await self.attempt("webhook", note, preferences, identity)
        log.info("notification_test", id=identity, ok=outcome.ok, problem=outcome.problem,
                 target=describe(preferences.webhook.url))
        return {"delivered": outcome.ok, "id": identity, "status": outcome.status, "problem": outcome.problem or None}

    async def send_confirmation(self, player: str, code: str) -> dict:
        """Mail the confirmation code to the player's (unconfirmed) address: one attempt, now."""
        preferences = await self.preferences.get(player)
        if preferences is None or preferences.email is None or not self.mailer.enabled:
            return {"delivered": False, "code": "NO_EMAIL", "problem": "no address, or no mail server"}
        text = (f"Your Starbase confirmation code is {code}.\n\nType it in your notification settings within "
                "the hour. If you did not ask for it, ignore this mail: nothing will be sent to you.\n")
        async with self._sending:
            outcome = await self.mailer.send(self.mailer.message(
                preferences.email.address, "Confirm your address for Starbase", text, f"confirm-{uuid.uuid4().hex}"))
        log.info("notification_confirmation_mailed", ok=outcome.ok, problem=outcome.problem)
        return {"delivered": outcome.ok, "problem": outcome.problem or None}

    @staticmethod
    def _target(channel: str, preferences: Preferences) -> str:
        if channel == "webhook" and preferences.webhook is not None:
            return describe(preferences.webhook.url)
        return "e-mail"                               # never the address: it is personal data


def email_text(note: Notification, public_url: str, identity: str) -> str:
    body = note.body(public_url, identity)
    lines = [note.title() + ".", "", f"Open it: {body['url']}"]
    if note.details.get("standings"):
        lines += ["", "Final standings:"] + [f"  {s.get('rank')}. {s.get('player')}  {s.get('score', '')}".rstrip()
                                            for s in note.details["standings"]]
    lines += ["", "You get this because you asked for it in your Starbase notification settings.",
              f"Notification {identity}"]
    return "\n".join(lines) + "\n"
