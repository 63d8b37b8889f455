"""A player's notification preferences, in a JetStream KV bucket the notifier owns.

Preferences are personal data (an e-mail address, a webhook URL and its secret): they live in a bucket
that can delete (`erase` purges every revision), not in the append-only streams, and keys are a digest
of the player id, so the bucket's key list names nobody. The bucket keeps one revision per key.

The webhook secret is drawn here when a URL is first set (or on request), returned once to the player,
and afterwards only used to sign: no read for the player shows it again.
"""
from __future__ import annotations

import hashlib
import json
import re
import secrets
from datetime import datetime, time, timezone
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from nats.js import api
from nats.js.errors import KeyNotFoundError
from pydantic import BaseModel, ConfigDict, Field, field_validator

from notifier.kinds import DEFAULT_KINDS, KINDS

Kind = str
EMAIL = re.compile(r"^[^@\s<>\"',;]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?"
                   r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?)+$")


def check_kinds(value: list[str]) -> list[str]:
    unknown = [kind for kind in value if kind not in KINDS]
    if unknown:
        raise ValueError(f"unknown event(s) {unknown}: choose among {list(KINDS)}")
    return sorted(set(value), key=KINDS.index)


def check_address(value: str) -> str:
    if len(value) > 254 or not EMAIL.match(value):
        raise ValueError("not an e-mail address such as ann@example.org")
    return value


class Webhook(BaseModel):
    model_config = ConfigDict(extra="forbid")
    url: str
    secret: str
    events: list[Kind] = Field(default_factory=lambda: list(DEFAULT_KINDS))

    _events = field_validator("events")(check_kinds)


class Email(BaseModel):
    """An address gets notifications only once confirmed: the player typed back the code we mailed it,
    so nobody can have us write to someone else's mailbox."""

    model_config = ConfigDict(extra="forbid")
    address: str
    events: list[Kind] = Field(default_factory=lambda: list(DEFAULT_KINDS))
    confirmed: bool = False
    code_digest: str | None = None      # sha256 of the confirmation code mailed, until it is typed back
    code_expires: float = 0.0           # unix seconds
    code_tries: int = 0                 # wrong codes typed since it was mailed

    _events = field_validator("events")(check_kinds)

    _address = field_validator("address")(lambda value: check_address(value))


class QuietHours(BaseModel):
    """Nothing is sent from `start` to `end` (local time in `timezone`; may span midnight)."""

    model_config = ConfigDict(extra="forbid")
    start: str = Field(pattern=r"^([01]\d|2[0-3]):[0-5]\d$", examples=["22:00"])
    end: str = Field(pattern=r"^([01]\d|2[0-3]):[0-5]\d$", examples=["07:30"])
    timezone: str = "UTC"

    @field_validator("timezone")
    @classmethod
    def _zone(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(f"unknown time zone {value!r}: use a name such as Europe/Paris") from None
        return value

    def covers(self, moment: datetime) -> bool:
        local = moment.astimezone(ZoneInfo(self.timezone)).time()
        start, end = time.fromisoformat(self.start), time.fromisoformat(self.end)
        if start == end:
            return False
        return start <= local < end if start < end else local >= start or local < end


class Preferences(BaseModel):
    model_config = ConfigDict(extra="forbid")
    webhook: Webhook | None = None
    email: Email | None = None
    quiet_hours: QuietHours | None = None

    def channels_for(self, kind: str) -> list[str]:
        wanted = []
        if self.webhook is not None and kind in self.webhook.events:
            wanted.append("webhook")
        if self.email is not None and self.email.confirmed and kind in self.email.events:
            wanted.append("email")
        return wanted

    def quiet(self, moment: datetime | None = None) -> bool:
        return self.quiet_hours is not None and self.quiet_hours.covers(moment or datetime.now(timezone.utc))


def new_secret() -> str:
    return "whsec_" + secrets.token_urlsafe(32)


def player_key(player: str) -> str:
    return "p" + hashlib.sha256(player.encode()).hexdigest()[:40]


class PreferenceStore:
    def __init__(self, nc, bucket: str = "notifier-prefs", replicas: int = 1):
        self._js, self.bucket, self.replicas = nc.jetstream(), bucket, replicas
        self._kv = None

    async def ensure(self) -> "PreferenceStore":
        self._kv = await self._js.create_key_value(api.KeyValueConfig(
            bucket=self.bucket, history=1, storage=api.StorageType.FILE, replicas=self.replicas))
        return self

    async def get(self, player: str) -> Preferences | None:
        try:
            entry = await self._kv.get(player_key(player))
        except KeyNotFoundError:
            return None
        return Preferences.model_validate(json.loads(entry.value)) if entry.value else None

    async def put(self, player: str, preferences: Preferences) -> None:
        await self._kv.put(player_key(player), preferences.model_dump_json().encode())

    async def erase(self, player: str) -> None:
        """Forget the player's preferences for good (a purge keeps no earlier revision)."""
        await self._kv.purge(player_key(player))
