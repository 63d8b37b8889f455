"""How many WebSockets a player and an address hold open, across every replica (Redis sorted sets).

A socket is a member of its player's set and of its address's set, scored with the time it last said
it was alive; one Lua script drops members not refreshed for `STALE` seconds (a replica that died
never said goodbye), counts, and adds the new socket only if both sets are under their limits, so two
replicas opening sockets at once cannot both pass the last free place. Open sockets refresh their
score every `HEARTBEAT` seconds and leave their sets when they close.
"""
from __future__ import annotations

import time
import uuid

from lobby.exceptions import RateLimited

HEARTBEAT = 30.0
STALE = 3 * HEARTBEAT

# KEYS: player set (or "" for anonymous), address set. ARGV: now, stale before, player limit, address
# limit, member, ttl. Returns 0 when admitted, else 1 (player full) or 2 (address full).
_ADMIT = """
local admitted = {}
for i, key in ipairs(KEYS) do
  if key ~= '' then
    redis.call('ZREMRANGEBYSCORE', key, '-inf', ARGV[2])
    if redis.call('ZCARD', key) >= tonumber(ARGV[2 + i]) then return i end
  end
end
for _, key in ipairs(KEYS) do
  if key ~= '' then
    redis.call('ZADD', key, ARGV[1], ARGV[5])
    redis.call('EXPIRE', key, ARGV[6])
  end
end
return 0
"""


class SocketQuota:
    def __init__(self, redis, prefix: str, per_player: int, per_address: int, exempt=lambda address: False):
        self.redis, self.prefix = redis, prefix
        self.per_player, self.per_address, self.exempt = per_player, per_address, exempt
        self._admit = redis.register_script(_ADMIT)

    def _keys(self, player: str | None, address: str) -> list[str]:
        return [f"{self.prefix}:sockets:player:{player}" if player else "",
                f"{self.prefix}:sockets:address:{address}"]

    async def admit(self, player: str | None, address: str) -> "SocketSlot":
        """A place for one more socket, or RATE_LIMITED."""
        slot = SocketSlot(self, self._keys(player, address), uuid.uuid4().hex)
        if self.exempt(address):
            slot.keys = []
            return slot
        now = time.time()
        full = int(await self._admit(keys=slot.keys, args=[
            now, now - STALE, self.per_player, self.per_address, slot.member, int(STALE * 2)]))
        if full:
            what = "you have" if full == 1 else "your address has"
            limit = self.per_player if full == 1 else self.per_address
            raise RateLimited(f"{what} {limit} sockets open already: close one first", int(HEARTBEAT))
        return slot


class SocketSlot:
    def __init__(self, quota: SocketQuota, keys: list[str], member: str):
        self.quota, self.keys, self.member = quota, keys, member

    async def refresh(self) -> None:
        for key in filter(None, self.keys):
            await self.quota.redis.zadd(key, {self.member: time.time()}, xx=True)

    async def release(self) -> None:
        for key in filter(None, self.keys):
            await self.quota.redis.zrem(key, self.member)
