"""Where each game's secret seed lives until the game ends: outside the public event stream.

`JetStreamSeedVault` keeps seeds in a JetStream KV bucket (`game-secrets`). Players and spectators never
talk to NATS; in production the bucket's subjects are readable only by the adjudicator's NATS user.
The seed is revealed in the game's `GameEnded` event, never before.
"""
from __future__ import annotations

import os
from typing import Protocol

from nats.aio.client import Client as NATS
from nats.js import api
from nats.js.kv import KeyValue
from nats.js.errors import KeyNotFoundError, KeyWrongLastSequenceError

SEED_BYTES = 32


class SeedVault(Protocol):
    async def get_or_create(self, game_id: str) -> bytes: ...
    async def get(self, game_id: str) -> bytes | None: ...


class MemorySeedVault:
    def __init__(self) -> None:
        self._seeds: dict[str, bytes] = {}

    async def get_or_create(self, game_id: str) -> bytes:
        return self._seeds.setdefault(game_id, os.urandom(SEED_BYTES))

    async def get(self, game_id: str) -> bytes | None:
        return self._seeds.get(game_id)


class JetStreamSeedVault:
    def __init__(self, connection: NATS, bucket: str = "game-secrets", replicas: int = 1):
        self._js = connection.jetstream()
        self.bucket, self.replicas = bucket, replicas
        self._bucket: KeyValue | None = None

    async def ensure(self) -> "JetStreamSeedVault":
        self._bucket = await self._js.create_key_value(api.KeyValueConfig(
            bucket=self.bucket, history=1, storage=api.StorageType.FILE, replicas=self.replicas,
        ))
        return self

    @property
    def _kv(self) -> KeyValue:
        if self._bucket is None:
            raise RuntimeError("the seed vault is not ready: call ensure() first")
        return self._bucket

    async def get_or_create(self, game_id: str) -> bytes:
        """The game's seed; the first caller creates it, every replica after that reads the same one."""
        try:
            await self._kv.create(game_id, os.urandom(SEED_BYTES))
        except KeyWrongLastSequenceError:
            pass
        seed = await self.get(game_id)
        assert seed is not None
        return seed

    async def get(self, game_id: str) -> bytes | None:
        try:
            return (await self._kv.get(game_id)).value
        except KeyNotFoundError:
            return None
