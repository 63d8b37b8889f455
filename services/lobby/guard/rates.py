"""Rate limits on Redis: a moving window per limit, all of a hit's windows in one Lua script (one round
trip, atomic, shared by every replica), each refusal a 429 RATE_LIMITED with Retry-After.

Each limit is named (`registrations`, `commands`, …), set from LobbySettings in the `limits` library's
notation ("10/second;300/minute"), and counted per key (an address or a player id). A window is a
Redis list of the times of the last `amount` hits: a hit is refused when the oldest of them is still
inside the window, and a refused hit counts in no window. Addresses in LOBBY_LIMITS_EXEMPT are not
counted (load tests on one's own machine; refused in production).
"""
from __future__ import annotations

import functools
import ipaddress
import math
import time

from limits import RateLimitItem, parse_many
from redis.asyncio import Redis

from starbase_core.connections import redis_options

from lobby.config import LobbySettings
from lobby.exceptions import RateLimited
from starbase_core.script_line import LineScript, ScriptLine

# KEYS: one list per window. ARGV: now, then each window's amount and seconds. Returns 0 and "" when
# counted; else the index of the first full window and the seconds until it has room (nothing counted).
_HIT = """
local now = tonumber(ARGV[1])
for i, key in ipairs(KEYS) do
  local amount, seconds = tonumber(ARGV[2 * i]), tonumber(ARGV[2 * i + 1])
  local oldest = redis.call('LINDEX', key, amount - 1)
  if oldest and tonumber(oldest) > now - seconds then
    return {i, tostring(tonumber(oldest) + seconds - now)}
  end
end
for i, key in ipairs(KEYS) do
  redis.call('LPUSH', key, ARGV[1])
  redis.call('LTRIM', key, 0, tonumber(ARGV[2 * i]) - 1)
  redis.call('EXPIRE', key, math.ceil(tonumber(ARGV[2 * i + 1])))
end
return {0, ''}
"""

WHAT = {
    "registrations": "new accounts from your address",
    "logins": "log-in attempts from your address",
    "commands": "commands",
    "chat": "chat messages",
    "tables": "new tables",
    "tickets": "socket tickets",
    "reports": "reports",
    "reviews": "reviews of past positions",
    "exports": "game exports",
    "quickplay": "quick-play requests",
    "invitations": "invitations",
    "notifications": "changes or tests of your notification settings",
    "pauses": "pause requests, answers and resumes",
}


class RateLimits:
    def __init__(self, settings: LobbySettings, redis: Redis | None = None):
        self._owned = redis is None
        self.redis = redis or Redis.from_url(settings.redis_url, decode_responses=True, **redis_options(settings))
        self._prefix = settings.lobby_limits_prefix
        self._line = ScriptLine(self.redis)         # every command counts here: the cheap way
        self._hit = LineScript(self._line, _HIT, attempts=3)
        self._items: dict[str, list[RateLimitItem]] = {
            name: parse_many(getattr(settings, f"lobby_limit_{name}")) for name in WHAT}
        self._exempt = settings.exempt_networks()
        # Per limit, worked out once (every command asks): each window's key tail, and the script's
        # arguments after the time (each window's amount and seconds).
        self._tails = {name: [f"{item.amount}/{item.get_expiry()}" for item in items]
                       for name, items in self._items.items()}
        self._windows = {name: [value for item in items for value in (item.amount, item.get_expiry())]
                         for name, items in self._items.items()}

    def exempt(self, address: str | None) -> bool:
        if not self._exempt or not address:
            return False
        return self._exempt_address(address)

    @functools.lru_cache(maxsize=4096)      # asked on every command and socket; parsing an address is not free
    def _exempt_address(self, address: str) -> bool:
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in network for network in self._exempt)

    def _keys(self, name: str, key: str) -> list[str]:
        head = f"{self._prefix}:rate:{name}:{key}:"
        return [head + tail for tail in self._tails[name]]

    async def hit(self, name: str, key: str, address: str | None = None) -> None:
        """Count one `name` for `key`, or raise RateLimited (then nothing is counted)."""
        if self.exempt(address):
            return
        full, wait = await self._hit(keys=self._keys(name, key), args=[time.time(), *self._windows[name]])
        if int(full):
            items = self._items[name]
            item = items[int(full) - 1]
            seconds = math.ceil(max(1.0, float(wait)))
            raise RateLimited(f"too many {WHAT[name]}: at most {item.amount} per {_per(item)}; "
                              f"try again in {seconds} s", seconds)

    async def reset(self, name: str, key: str) -> None:
        await self.redis.delete(*self._keys(name, key))

    async def close(self) -> None:
        await self._line.aclose()
        if self._owned:
            await self.redis.aclose()


def _per(item: RateLimitItem) -> str:
    unit = item.GRANULARITY.name
    return unit if item.multiples == 1 else f"{item.multiples} {unit}s"
