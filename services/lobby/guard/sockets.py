"""How many WebSockets a player and an address hold open, across every replica (Redis sorted sets).

A socket is a member of its player's set and of its address's set, scored with the time it last said
it was alive; one Lua script drops members not refreshed for `STALE` seconds (a replica that died
never said goodbye), counts, and adds the new socket only if both sets are under their limits, so two
replicas opening sockets at once cannot both pass the last free place. Open sockets refresh their
score every `HEARTBEAT` seconds and leave their sets when they close.
"""
from __future__ import annotations

import secrets
import time

from lobby.exceptions import RateLimited

HEARTBEAT = 30.0
STALE = 3 * HEARTBEAT

# KEYS: the sets the socket counts in (its player's, if any, and its address's). ARGV: now, stale
# before, member, ttl, then each set's limit. Returns 0 when admitted, else the index of the first full
# set. Only real keys are passed: an ACL user limited to its key patterns may not name any other ("").
_ADMIT = """
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', ARGV[2])
  if redis.call('ZCARD', key) >= tonumber(ARGV[4 + i]) then return i end
end
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, ARGV[1], ARGV[3])
  redis.call('EXPIRE', key, ARGV[4])
end
return 0
"""


class SocketQuota:
    def __init__(self, redis, prefix: str, per_player: int, per_address: int, exempt=lambda address: False):
        self.redis, self.prefix = redis, prefix
        self.per_player, self.per_address, self.exempt = per_player, per_address, exempt
        self._admit = redis.register_script(_ADMIT)

    def _sets(self, player: str | None, address: str) -> list[tuple[str, int, str]]:
        """(key, limit, whose) of each set a socket counts in: an anonymous one, its address's only."""
        sets = [(f"{self.prefix}:sockets:player:{player}", self.per_player, "you have")] if player else []
        return sets + [(f"{self.prefix}:sockets:address:{address}", self.per_address, "your address has")]

    async def admit(self, player: str | None, address: str) -> "SocketSlot":
        """A place for one more socket, or RATE_LIMITED."""
        sets = self._sets(player, address)
        # 32 random hex digits, as uuid4().hex gave, without building a UUID object on every connect.
        slot = SocketSlot(self, [key for key, _, _ in sets], secrets.token_hex(16))
        if self.exempt(address):
            slot.keys = []
            return slot
        now = time.time()
        full = int(await self._admit(keys=slot.keys, args=[
            now, now - STALE, slot.member, int(STALE * 2), *(limit for _, limit, _ in sets)]))
        if full:
            _, limit, whose = sets[full - 1]
            raise RateLimited(f"{whose} {limit} sockets open already: close one first", int(HEARTBEAT))
        return slot


class SocketSlot:
    def __init__(self, quota: SocketQuota, keys: list[str], member: str):
        self.quota, self.keys, self.member = quota, keys, member

    async def refresh(self) -> None:
        for key in self.keys:
            await self.quota.redis.zadd(key, {self.member: time.time()}, xx=True)

    async def release(self) -> None:
        for key in self.keys:
            await self.quota.redis.zrem(key, self.member)
