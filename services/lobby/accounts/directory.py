"""Accounts in a JetStream KV bucket (file storage, deletable), and every replica's cache of them.

Keys: `p.<player id>` holds the account (JSON), `n.<sha256 of the name's skeleton>` holds the id that
owns a name. Creating the name key with `create` (fails if it exists) is what makes names unique across
replicas; every account change is a compare-and-set on the key's revision.

Each replica watches the bucket and keeps every account in memory: token checks read the cache (no
round trip), and a change made on any replica (a ban, "log out everywhere", an erasure) reaches all of
them within milliseconds, which is what closes an account's sockets everywhere (`on_change`).
"""
from __future__ import annotations

import asyncio
import hashlib
import json
import re
from dataclasses import asdict, dataclass, replace
from typing import Awaitable, Callable

import structlog
from nats.js import api
from nats.js.errors import BucketNotFoundError, KeyNotFoundError, KeyWrongLastSequenceError
from nats.js.kv import KeyValue

from lobby.exceptions import Conflict
from starbase_core.supervise import Supervisor

log = structlog.get_logger(__name__)
ROLES = ("player", "moderator", "admin")
PLAYER_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
DELETED_NAME = "deleted player"


@dataclass(frozen=True)
class Account:
    player_id: str
    name: str
    key: str                        # the name's skeleton (names.skeleton)
    password_hash: str | None       # None for a guest
    role: str = "player"
    guest: bool = False
    epoch: int = 0                  # bumped by "log out everywhere", a password change and a ban
    banned: bool = False
    muted_until: float = 0.0        # epoch seconds
    created: str = ""

    def rank(self) -> int:
        return ROLES.index(self.role)


Change = Callable[[Account | None, Account | None], Awaitable[None]]


def _name_key(skeleton: str) -> str:
    return "n." + hashlib.sha256(skeleton.encode()).hexdigest()[:40]


class Directory:
    def __init__(self, nc, bucket: str, replicas: int = 1):
        self._js = nc.jetstream()
        self.bucket, self.replicas = bucket, replicas
        self._kv: KeyValue | None = None
        self.cache: dict[str, Account] = {}
        self._revisions: dict[str, int] = {}        # the KV revision each cached account was read at
        self.on_change: list[Change] = []
        self.supervisor = Supervisor("accounts")
        self.loaded = asyncio.Event()

    async def start(self) -> "Directory":
        self._kv = await self._js.create_key_value(api.KeyValueConfig(
            bucket=self.bucket, history=1, storage=api.StorageType.FILE, replicas=self.replicas))
        self.supervisor.start("watch accounts", self._follow)
        return self

    async def open(self) -> "Directory":
        """The bucket as it is, without a watch or a cache, and without making it (`starbase admin`:
        one command, one answer, as a user that may not create buckets). KeyError: no bucket yet."""
        try:
            self._kv = await self._js.key_value(self.bucket)
        except BucketNotFoundError:
            raise KeyError(self.bucket) from None
        return self

    async def stop(self) -> None:
        await self.supervisor.stop()

    async def _follow(self) -> None:
        """Keep the cache current (supervised: a restart watches afresh, which replays every account;
        `_apply` passes over revisions it already has)."""
        watcher = await self._kv.watch("p.>")
        try:
            async for entry in watcher:
                if entry is None:               # the initial values are all in
                    self.loaded.set()
                    continue
                after = None if entry.operation in ("DEL", "PURGE") or not entry.value else _decode(entry.value)
                await self._apply(entry.key[2:], entry.revision or 0, after)
        finally:
            try:
                await watcher.stop()
            except Exception:
                pass
        raise ConnectionError("the accounts watch ended")

    async def _apply(self, player_id: str, revision: int, after: Account | None) -> None:
        """Take a revision of an account into the cache, from the watch or from this replica's own write
        (whichever comes first; the other is then no news), and tell the listeners what changed."""
        if revision <= self._revisions.get(player_id, 0):
            return
        self._revisions[player_id] = revision
        before = self.cache.get(player_id)
        if after is None:
            self.cache.pop(player_id, None)
        else:
            self.cache[player_id] = after
        for callback in self.on_change:
            try:
                await callback(before, after)
            except Exception:
                log.exception("account_change_handler_failed", player_id=player_id)

    # --- reads ---

    async def get(self, player_id: str) -> Account | None:
        """The account as stored now (the truth; the cache may be a few ms behind)."""
        if not PLAYER_ID.fullmatch(player_id or ""):
            return None             # not an id we ever issue; and not a KV key NATS would answer
        found = await self._entry(f"p.{player_id}")
        return _decode(found.value) if found else None

    async def account(self, player_id: str) -> Account | None:
        """From the cache, else from the bucket (an account made on another replica a moment ago)."""
        return self.cache.get(player_id) or await self.get(player_id)

    async def owner_of(self, skeleton: str) -> str | None:
        found = await self._entry(_name_key(skeleton))
        return found.value.decode() if found else None

    def name_of(self, player_id: str | None) -> str | None:
        """The name to show: the account's, or "deleted player" for an id without one."""
        if not player_id:
            return None
        account = self.cache.get(player_id)
        return account.name if account else DELETED_NAME

    # --- writes ---

    async def create(self, account: Account) -> Account:
        """Store a new account; NAME_TAKEN when its skeleton is owned already."""
        if not await self.claim_name(account.key, account.player_id):
            raise Conflict("this name, or one that looks like it, is taken", "NAME_TAKEN")
        await self._apply(account.player_id, _revision(await self._kv.create(f"p.{account.player_id}",
                                                                             _encode(account))), account)
        return account

    async def claim_name(self, skeleton: str, player_id: str) -> bool:
        try:
            await self._kv.create(_name_key(skeleton), player_id.encode())
            return True
        except KeyWrongLastSequenceError:
            return False

    async def release_name(self, skeleton: str) -> None:
        await self._kv.purge(_name_key(skeleton))

    async def update(self, player_id: str, change: Callable[[Account], Account]) -> Account:
        """Apply `change` to the stored account with compare-and-set, retrying on a concurrent write."""
        for _ in range(16):
            entry = await self._entry(f"p.{player_id}")
            if entry is None:
                raise KeyError(player_id)
            updated = change(_decode(entry.value))
            try:
                revision = await self._kv.update(f"p.{player_id}", _encode(updated), last=entry.revision)
            except KeyWrongLastSequenceError:
                continue
            await self._apply(player_id, _revision(revision), updated)   # at once here; the watch tells the rest
            return updated
        raise Conflict("the account is changing too fast; try again", "ACCOUNT_BUSY")

    async def erase(self, account: Account) -> None:
        """Forget the account and its name for good (purge keeps no earlier revision)."""
        await self._kv.purge(f"p.{account.player_id}")
        await self.release_name(account.key)
        # Gone here at once; the purge marker (a later revision) reaches the other replicas' watches.
        await self._apply(account.player_id, self._revisions.get(account.player_id, 0) + 1, None)

    async def _entry(self, key: str):
        try:
            entry = await self._kv.get(key)
        except KeyNotFoundError:
            return None
        return entry if entry.value else None


def _revision(ack) -> int:
    return ack if isinstance(ack, int) else int(getattr(ack, "seq", 0) or 0)


def _encode(account: Account) -> bytes:
    return json.dumps(asdict(account)).encode()


def _decode(raw: bytes) -> Account:
    return Account(**json.loads(raw))


def with_changes(account: Account, **changes) -> Account:
    return replace(account, **changes)
