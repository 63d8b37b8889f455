"""Who of a table is online now: a player with a socket open on the table or its game, on any replica.

Shared across replicas in Redis: one sorted set per table (`<prefix>:presence:{<table id>}`) whose
members are that table's open sockets (`<player>|<socket id>`), scored with the time each last said it
was alive. A socket refreshes its score every `BEAT` seconds and leaves the set when it closes; a
replica that dies never says goodbye, so its sockets fade once `STALE` seconds pass without a beat.
Only seated players are shown (a spectator's socket counts for nothing): `online(table)` answers with
the seated players, in seat order, who hold at least one live socket.

Changes reach the table sockets of every replica: whoever opens or closes a socket announces the
table on the core NATS subject `<live prefix>.presence.<table id>`; each replica with table sockets
(that asked for pushes) on that table reads the set again and pushes `presence` where the list changed.
Every `BEAT` each such socket looks again too, which catches sockets that faded (a dead replica).
"""
from __future__ import annotations

import time
import uuid
from collections import defaultdict
from typing import Awaitable, Callable

import structlog

from lobby.domain import Table

log = structlog.get_logger(__name__)

BEAT = 10.0
STALE = 3 * BEAT
Send = Callable[[dict], Awaitable[None]]


def presence_message(table_id: str, online: list[str]) -> dict:
    """Protocol version 1: who of the table is online now (sent when it changes, and on opening)."""
    return {"v": 1, "kind": "presence", "table_id": table_id, "online": online}


class Watcher:
    """One table socket that asked for presence pushes: what it was last told."""

    def __init__(self, table_id: str, send: Send):
        self.table_id, self.send = table_id, send
        self.told: list[str] | None = None

    async def tell(self, online: list[str]) -> None:
        if online != self.told:
            self.told = online
            await self.send(presence_message(self.table_id, online))


class Presence:
    def __init__(self, redis, nc, key_prefix: str, live_prefix: str, table_of: Callable[[str], Table | None]):
        self.redis, self.nc = redis, nc
        self.key_prefix, self.live_prefix, self.table_of = key_prefix, live_prefix, table_of
        self._watchers: dict[str, set[Watcher]] = defaultdict(set)
        self._subscription = None

    def key(self, table_id: str) -> str:
        return f"{self.key_prefix}:presence:{{{table_id}}}"

    def subject(self, table_id: str) -> str:
        return f"{self.live_prefix}.presence.{table_id}"

    async def start(self) -> "Presence":
        self._subscription = await self.nc.subscribe(f"{self.live_prefix}.presence.*", cb=self._announced)
        return self

    async def stop(self) -> None:
        if self._subscription is not None:
            try:
                await self._subscription.unsubscribe()
            except Exception:           # the connection is already closing
                pass

    # --- sockets ---

    async def enter(self, table_id: str, player: str) -> str:
        member = f"{player}|{uuid.uuid4().hex}"
        await self.redis.zadd(self.key(table_id), {member: time.time()})
        await self.redis.expire(self.key(table_id), int(STALE * 2))
        await self._announce(table_id)
        return member

    async def beat(self, table_id: str, member: str) -> None:
        await self.redis.zadd(self.key(table_id), {member: time.time()}, xx=True)
        await self.redis.expire(self.key(table_id), int(STALE * 2))

    async def leave(self, table_id: str, member: str) -> None:
        await self.redis.zrem(self.key(table_id), member)
        await self._announce(table_id)

    def watch(self, table_id: str, send: Send) -> Watcher:
        watcher = Watcher(table_id, send)
        self._watchers[table_id].add(watcher)
        return watcher

    def unwatch(self, watcher: Watcher) -> None:
        watchers = self._watchers.get(watcher.table_id)
        if watchers is not None:
            watchers.discard(watcher)
            if not watchers:
                del self._watchers[watcher.table_id]

    # --- reading ---

    async def online(self, table_id: str) -> list[str]:
        """The seated players of the table with a live socket on it, in seat order."""
        table = self.table_of(table_id)
        if table is None or not table.seated:
            return []
        members = await self.redis.zrangebyscore(self.key(table_id), time.time() - STALE, "+inf")
        live = {member.rpartition("|")[0] for member in members}
        return [player for player in table.players if player in live]

    async def tell(self, watcher: Watcher) -> None:
        await watcher.tell(await self.online(watcher.table_id))

    async def _announce(self, table_id: str) -> None:
        await self.nc.publish(self.subject(table_id), b"")

    async def _announced(self, message) -> None:
        table_id = message.subject.rsplit(".", 1)[-1]
        watchers = list(self._watchers.get(table_id, ()))
        if not watchers:
            return
        try:
            online = await self.online(table_id)
            for watcher in watchers:
                await watcher.tell(online)
        except Exception as error:      # a closing socket or a Redis blip: the next beat looks again
            log.info("presence_push_failed", table_id=table_id, error=repr(error))
