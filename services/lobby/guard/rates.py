"""Rate limits with the `limits` library on Redis: atomic (its moving window is one Lua script per
hit), shared by every replica, each refusal a 429 RATE_LIMITED with Retry-After.

Each limit is named (`registrations`, `commands`, …), set from LobbySettings, and counted per key (an
address or a player id). Addresses in LOBBY_LIMITS_EXEMPT are not counted (load tests on one's own
machine; refused in production).
"""
from __future__ import annotations

import ipaddress
import math
import time

from limits import RateLimitItem, parse_many
from limits.aio.storage import RedisStorage
from limits.aio.strategies import MovingWindowRateLimiter

from starbase_core.connections import redis_options

from lobby.config import LobbySettings
from lobby.exceptions import RateLimited

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
    def __init__(self, settings: LobbySettings):
        self._storage = RedisStorage(f"async+{settings.redis_url}", implementation="redispy",
                                     key_prefix=settings.lobby_limits_prefix, **redis_options(settings))
        self._limiter = MovingWindowRateLimiter(self._storage)
        self._items: dict[str, list[RateLimitItem]] = {
            name: parse_many(getattr(settings, f"lobby_limit_{name}")) for name in WHAT}
        self._exempt = settings.exempt_networks()

    def exempt(self, address: str | None) -> bool:
        if not self._exempt or not address:
            return False
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in network for network in self._exempt)

    async def hit(self, name: str, key: str, address: str | None = None) -> None:
        """Count one `name` for `key`, or raise RateLimited (nothing counted past the refusal)."""
        if self.exempt(address):
            return
        for item in self._items[name]:
            if not await self._limiter.hit(item, name, key):
                stats = await self._limiter.get_window_stats(item, name, key)
                wait = math.ceil(max(1.0, stats.reset_time - time.time()))
                raise RateLimited(f"too many {WHAT[name]}: at most {item.amount} per "
                                  f"{_per(item)}; try again in {wait} s", wait)

    async def reset(self, name: str, key: str) -> None:
        for item in self._items[name]:
            await self._limiter.clear(item, name, key)

    async def close(self) -> None:
        bridge = getattr(self._storage, "bridge", None)
        client = getattr(bridge, "storage", None)
        if client is not None and hasattr(client, "aclose"):
            await client.aclose()


def _per(item: RateLimitItem) -> str:
    unit = item.GRANULARITY.name
    return unit if item.multiples == 1 else f"{item.multiples} {unit}s"
