"""Who sends which notification: one claim per (notification id, channel) in a JetStream KV bucket.

A sender first *creates* the claim's key (`create` succeeds for exactly one caller across every replica
and restart), with a lease: "I am sending this until …". Each attempt renews the lease by revision
(compare-and-set), and the outcome is recorded the same way: `sent` after the receiver's 2xx, `dead`
after the last failed attempt. Whoever finds a claim:

- `sent` or `dead`: nothing to do (this is what makes a redelivered event, a second replica or a
  restart send nothing twice);
- `sending` with a live lease: someone is on it; `Busy` says when the lease ends, so the event comes
  back then (a process that died mid-send stops renewing);
- `sending` with an expired lease: the holder died; take it over by revision (only one taker wins) and
  go on from its attempt count.

Where "once" becomes "at least once": a holder that dies after the receiver answered 2xx but before
`sent` is recorded leaves a `sending` claim; after the lease the notification goes out again, with the
same notification id, which receivers use to drop the repeat. Claims expire from the bucket after
NOTIFIER_CLAIMS_DAYS (longer than any cause is still notified: NOTIFIER_MAX_AGE_SECONDS).
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Callable

from nats.js import api
from nats.js.errors import KeyNotFoundError, KeyWrongLastSequenceError

SENDING, SENT, DEAD = "sending", "sent", "dead"


class Busy(Exception):
    """Another sender holds a live lease on this claim."""

    def __init__(self, retry_after: float):
        super().__init__(f"claimed by another sender for {retry_after:.1f} s more")
        self.retry_after = retry_after


class Lost(Exception):
    """The claim changed under its holder (its lease ran out and another sender took it over)."""


@dataclass(frozen=True)
class Claim:
    key: str
    revision: int
    attempts: int               # attempts already made, by anyone


class Claims:
    def __init__(self, nc, bucket: str = "notifier-claims", replicas: int = 1, days: float = 7.0,
                 owner: str = "", clock: Callable[[], float] = time.time):
        self._js, self.bucket, self.replicas, self.days = nc.jetstream(), bucket, replicas, days
        self.owner, self.clock = owner, clock
        self._kv = None

    async def ensure(self) -> "Claims":
        self._kv = await self._js.create_key_value(api.KeyValueConfig(
            bucket=self.bucket, history=1, storage=api.StorageType.FILE, replicas=self.replicas,
            ttl=self.days * 86400))
        return self

    def _value(self, state: str, attempts: int, lease: float = 0.0) -> bytes:
        return json.dumps({"state": state, "attempts": attempts, "owner": self.owner,
                           "lease_until": self.clock() + lease if lease else 0}).encode()

    async def acquire(self, key: str, lease: float) -> Claim | None:
        """The claim to send under, None when it is settled already; raises Busy."""
        try:
            revision = await self._kv.create(key, self._value(SENDING, 0, lease))
            return Claim(key, revision, 0)
        except KeyWrongLastSequenceError:
            pass
        try:
            entry = await self._kv.get(key)
        except KeyNotFoundError:      # expired between the two calls: so old it is not sent again
            return None
        held = json.loads(entry.value)
        if held["state"] != SENDING:
            return None
        left = held["lease_until"] - self.clock()
        if left > 0:
            raise Busy(left)
        try:                           # the holder died: take over, keeping the count of attempts
            revision = await self._kv.update(key, self._value(SENDING, held["attempts"], lease), last=entry.revision)
        except KeyWrongLastSequenceError:
            raise Busy(lease) from None     # another sender took it over first
        return Claim(key, revision, held["attempts"])

    async def renew(self, claim: Claim, lease: float, attempts: int) -> Claim:
        """Hold the claim `lease` seconds more, recording `attempts`; raises Lost."""
        try:
            revision = await self._kv.update(claim.key, self._value(SENDING, attempts, lease), last=claim.revision)
        except KeyWrongLastSequenceError:
            raise Lost(claim.key) from None
        return Claim(claim.key, revision, attempts)

    async def settle(self, claim: Claim, state: str, attempts: int) -> bool:
        """Record the outcome; False when the claim was taken over meanwhile (the other sender settles)."""
        try:
            await self._kv.update(claim.key, self._value(state, attempts), last=claim.revision)
            return True
        except KeyWrongLastSequenceError:
            return False

    async def state(self, key: str) -> dict | None:
        try:
            return json.loads((await self._kv.get(key)).value)
        except KeyNotFoundError:
            return None
