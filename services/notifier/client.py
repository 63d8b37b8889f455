"""What the lobby may do with the notifier: preferences, erasure, dead letters, a test webhook.

The lobby reaches the notifier's storage only through this module (`.importlinter`), so the notifier
may change how it keeps its data without touching the lobby. Preferences are read and written in the
notifier's KV bucket; a test webhook is a NATS request the notifier answers, so only the notifier ever
connects to a player's URL.

`save` takes what the player sends (`PreferencesIn`) and keeps the webhook secret: a new one is drawn
when a webhook is first set or `rotate_secret` is asked, and returned that once (`Saved.new_secret`).
A webhook URL is checked before it is saved (scheme, and the addresses its host resolves to: no
private, loopback or link-local ones, unless NOTIFIER_ALLOW_LOOPBACK); the notifier checks it again
before every attempt.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass

from nats.errors import NoRespondersError, TimeoutError as NatsTimeout
from pydantic import BaseModel, ConfigDict, Field, field_validator

from notifier.config import StorageNames, load_storage_names
from notifier.confirmation import ConfirmationRefused, confirmed, with_new_code
from notifier.deadletters import DeadLetters
from notifier.kinds import DEFAULT_KINDS, KINDS
from notifier.preferences import (
    Email, Preferences, PreferenceStore, QuietHours, Webhook, check_address, check_kinds, new_secret,
)
from notifier.urlsafety import UnsafeUrl, resolve

__all__ = ["KINDS", "ConfirmationRefused", "NotifierClient", "NotifierUnavailable", "PreferencesIn", "PreferencesOut", "QuietHours",
           "Saved", "UnsafeUrl"]


class WebhookIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    url: str = Field(max_length=2048, description="https:// (or http://) to a public address")
    events: list[str] = Field(default_factory=lambda: list(DEFAULT_KINDS), max_length=len(KINDS))
    rotate_secret: bool = False

    _events = field_validator("events")(check_kinds)


class EmailIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    address: str = Field(max_length=254, examples=["ann@example.org"])
    events: list[str] = Field(default_factory=lambda: list(DEFAULT_KINDS), max_length=len(KINDS))

    _events = field_validator("events")(check_kinds)
    _address = field_validator("address")(lambda value: check_address(value))


class PreferencesIn(BaseModel):
    """The whole of a player's notification settings (a PUT replaces them; null turns a channel off)."""

    model_config = ConfigDict(extra="forbid")
    webhook: WebhookIn | None = None
    email: EmailIn | None = None
    quiet_hours: QuietHours | None = None


class WebhookOut(BaseModel):
    url: str
    events: list[str]
    secret_set: bool = True


class EmailOut(BaseModel):
    address: str
    events: list[str]
    confirmed: bool = Field(description="mail goes out only once you typed back the code we sent to it")


class PreferencesOut(BaseModel):
    webhook: WebhookOut | None = None
    email: EmailOut | None = None
    quiet_hours: QuietHours | None = None
    events: list[str] = Field(default=list(KINDS), description="every kind of notification there is")


@dataclass(frozen=True)
class Saved:
    preferences: PreferencesOut
    new_secret: str | None          # shown to the player once, when drawn
    code_sent: bool | None = None   # a confirmation code was mailed (None: none was needed)


class NotifierUnavailable(Exception):
    pass


def view(preferences: Preferences | None) -> PreferencesOut:
    if preferences is None:
        return PreferencesOut()
    hook = preferences.webhook
    return PreferencesOut(
        webhook=WebhookOut(url=hook.url, events=hook.events) if hook else None,
        email=EmailOut(address=preferences.email.address, events=preferences.email.events,
                       confirmed=preferences.email.confirmed) if preferences.email else None,
        quiet_hours=preferences.quiet_hours)


class NotifierClient:
    def __init__(self, nc, names: StorageNames | None = None):
        self.nc, self.names = nc, names or load_storage_names()
        self._preferences = PreferenceStore(nc, self.names.notifier_prefs_bucket, self.names.notifier_storage_replicas)
        self._dead = DeadLetters(nc, self.names.notifier_dead_stream, self.names.notifier_dead_prefix,
                                 self.names.notifier_storage_replicas)

    async def start(self) -> "NotifierClient":
        await self._preferences.ensure()
        await self._dead.ensure()
        return self

    async def preferences(self, player: str) -> PreferencesOut:
        return view(await self._preferences.get(player))

    async def save(self, player: str, wanted: PreferencesIn) -> Saved:
        """Check and store `wanted`; raises UnsafeUrl for a webhook URL we will not call, ValueError
        (pydantic's) for a bad address or event."""
        held = await self._preferences.get(player)
        secret = None
        webhook = None
        if wanted.webhook is not None:
            await resolve(wanted.webhook.url, self.names.notifier_allow_loopback)
            kept = held.webhook.secret if held is not None and held.webhook is not None else None
            if kept is None or wanted.webhook.rotate_secret:
                secret = kept = new_secret()
            webhook = Webhook(url=wanted.webhook.url, secret=kept, events=wanted.webhook.events)
        email, code = None, None
        if wanted.email is not None:
            email = Email(address=wanted.email.address, events=wanted.email.events)
            if held is not None and held.email is not None and held.email.address == email.address \
                    and held.email.confirmed:
                email = email.model_copy(update={"confirmed": True})
            else:                       # a new address, or one still unconfirmed: (another) code
                email, code = with_new_code(email, player, time.time())
        preferences = Preferences(webhook=webhook, email=email, quiet_hours=wanted.quiet_hours)
        await self._preferences.put(player, preferences)
        sent = await self._mail_code(player, code) if code is not None else None
        return Saved(view(preferences), secret, sent)

    async def confirm_email(self, player: str, code: str) -> PreferencesOut:
        """Confirm the address with the code mailed to it; raises ConfirmationRefused."""
        held = await self._preferences.get(player)
        email = held.email if held is not None else None
        try:
            done = confirmed(email, player, code, time.time())
        except ConfirmationRefused as refused:
            if refused.code == "WRONG_CODE" and held is not None and email is not None:
                await self._preferences.put(player, held.model_copy(update={
                    "email": email.model_copy(update={"code_tries": email.code_tries + 1})}))
            raise
        assert held is not None
        updated = held.model_copy(update={"email": done})
        await self._preferences.put(player, updated)
        return view(updated)

    async def _mail_code(self, player: str, code: str) -> bool:
        try:
            answer = await self.nc.request(self.names.notifier_test_subject,
                                           json.dumps({"player": player, "confirmation_code": code}).encode(),
                                           timeout=15.0)
        except (NoRespondersError, NatsTimeout, TimeoutError):
            return False
        return bool(json.loads(answer.data).get("delivered"))

    async def erase(self, player: str) -> None:
        """Forget the player's preferences and dead letters (their account is being erased)."""
        await self._preferences.erase(player)
        await self._dead.erase(player)

    async def dead_letters(self, player: str, after: int = 0, limit: int = 50) -> list[dict]:
        return await self._dead.list(player, after, limit)

    async def send_test(self, player: str, timeout: float = 15.0) -> dict:
        """Ask a notifier to send one test webhook now; its answer (delivered, status, problem)."""
        try:
            answer = await self.nc.request(self.names.notifier_test_subject, json.dumps({"player": player}).encode(),
                                           timeout=timeout)
        except (NoRespondersError, NatsTimeout, TimeoutError):
            raise NotifierUnavailable("no notifier answered") from None
        return json.loads(answer.data)


