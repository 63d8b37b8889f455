"""Sessions: refresh-token families in a JetStream KV bucket, rotated on every use.

A log-in opens a family (`<fam>` → {player, jti, epoch}); each refresh replaces its `jti` (compare-and-set
on the key's revision) and hands out a new pair. A refresh token presented twice means it was copied:
the family is deleted, so neither the thief nor the player can refresh it again (the player logs in).

Ending one session (log out, reuse) also voids its access token at once: the family id is published on
NATS and every replica refuses it until any access token of it has expired. Ending all of an account's
sessions bumps the account's epoch instead (`Directory`), which voids them everywhere at once.
"""
from __future__ import annotations

import json
import secrets
import time
from dataclasses import dataclass

from nats.js import api
from nats.js.errors import KeyNotFoundError, KeyWrongLastSequenceError

from lobby.accounts.directory import Account, Directory
from lobby.exceptions import Forbidden, InvalidToken
from lobby.tokens import TokenSigner


@dataclass(frozen=True)
class TokenPair:
    access_token: str
    refresh_token: str
    expires_in: int


class Sessions:
    def __init__(self, nc, bucket: str, revoked_subject: str, signer: TokenSigner, directory: Directory,
                 replicas: int = 1):
        self._nc, self._js = nc, nc.jetstream()
        self.bucket, self.replicas, self.subject = bucket, replicas, revoked_subject
        self.signer, self.directory = signer, directory
        self._revoked: dict[str, float] = {}        # family → when its last access token expires
        self._kv = None
        self._subscription = None

    async def start(self) -> "Sessions":
        self._kv = await self._js.create_key_value(api.KeyValueConfig(
            bucket=self.bucket, history=1, storage=api.StorageType.FILE, replicas=self.replicas,
            ttl=float(self.signer.refresh_seconds)))
        self._subscription = await self._nc.subscribe(self.subject, cb=self._on_revoked)
        return self

    async def stop(self) -> None:
        if self._subscription is not None:
            try:
                await self._subscription.unsubscribe()
            except Exception:
                pass

    async def _on_revoked(self, message) -> None:
        self._mark_revoked(message.data.decode())

    def _mark_revoked(self, family: str) -> None:
        now = time.time()
        self._revoked[family] = now + self.signer.access_seconds
        if len(self._revoked) > 1000:   # forget those whose access tokens have expired anyway
            self._revoked = {f: until for f, until in self._revoked.items() if until > now}

    def revoked(self, family: str) -> bool:
        until = self._revoked.get(family)
        return until is not None and until > time.time()

    async def open(self, account: Account) -> TokenPair:
        family, jti = secrets.token_hex(12), secrets.token_hex(12)
        await self._kv.put(family, _entry(account, jti))
        return self._pair(account, family, jti)

    async def refresh(self, refresh_token: str) -> tuple[Account, TokenPair]:
        claims = self.signer.verify_refresh(refresh_token)
        for _ in range(4):
            try:
                entry = await self._kv.get(claims.family)
            except KeyNotFoundError:
                entry = None
            if entry is None or not entry.value:
                raise InvalidToken("this session has ended: log in again (POST /sessions)", "SESSION_ENDED")
            stored = json.loads(entry.value)
            if stored["jti"] != claims.jti:
                await self.end(claims.family)
                raise InvalidToken("this refresh token was used already, so it may have been copied: every "
                                   "token of its session is revoked; log in again", "REFRESH_REUSED")
            account = await self.directory.get(stored["player"])
            if account is None or account.epoch != stored["epoch"] or account.banned:
                await self.end(claims.family)
                if account is not None and account.banned:
                    raise Forbidden("this account is banned", "BANNED")
                raise InvalidToken("this session has ended: log in again (POST /sessions)", "SESSION_ENDED")
            jti = secrets.token_hex(12)
            try:
                await self._kv.update(claims.family, _entry(account, jti), last=entry.revision)
            except KeyWrongLastSequenceError:
                continue        # refreshed at the same moment elsewhere: read again (and see the reuse)
            return account, self._pair(account, claims.family, jti)
        raise InvalidToken("this session is being refreshed elsewhere: log in again", "SESSION_ENDED")

    async def end(self, family: str) -> None:
        """End one session: its refresh token now, its access token on every replica."""
        try:
            await self._kv.purge(family)
        except KeyNotFoundError:
            pass
        self._mark_revoked(family)
        await self._nc.publish(self.subject, family.encode())

    def _pair(self, account: Account, family: str, jti: str) -> TokenPair:
        return TokenPair(self.signer.access(account.player_id, account.epoch, family),
                         self.signer.refresh(family, jti), self.signer.access_seconds)


def _entry(account: Account, jti: str) -> bytes:
    return json.dumps({"player": account.player_id, "jti": jti, "epoch": account.epoch}).encode()
