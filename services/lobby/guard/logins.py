"""Growing delays after failed log-ins on one account (Redis, shared by every replica).

The first `free` failures cost nothing; after that each failure locks the account's log-in for twice
as long as the one before (2, 4, 8 … seconds, at most `max_delay`), whoever tries and from wherever.
A success clears the count. The per-address limit (`RateLimits`, "logins") bounds how fast one address
guesses across many accounts; this bounds how fast many addresses guess one.
"""
from __future__ import annotations

from lobby.exceptions import RateLimited

# KEYS: failures, lock. ARGV: free failures, max delay (s). Counts one failure and locks if due;
# returns the lock's length in ms (0: none).
_FAIL = """
local failures = redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], 86400)
local over = failures - tonumber(ARGV[1])
if over <= 0 then return 0 end
local delay = math.min(2 ^ math.min(over, 30), tonumber(ARGV[2])) * 1000
redis.call('SET', KEYS[2], '1', 'PX', delay)
return delay
"""


class LoginDelays:
    def __init__(self, redis, prefix: str, free: int, max_delay: int):
        self.redis, self.prefix, self.free, self.max_delay = redis, prefix, free, max_delay
        self._fail = redis.register_script(_FAIL)

    def _keys(self, account_key: str) -> list[str]:
        return [f"{self.prefix}:login:failures:{account_key}", f"{self.prefix}:login:lock:{account_key}"]

    async def check(self, account_key: str) -> None:
        """RATE_LIMITED while the account's log-in is locked after failures."""
        wait_ms = await self.redis.pttl(self._keys(account_key)[1])
        if wait_ms and wait_ms > 0:
            raise RateLimited("too many wrong passwords for this account: wait before trying again",
                              -(-wait_ms // 1000))

    async def failed(self, account_key: str) -> int:
        """Count a failure; the seconds the account is now locked for (0: not locked)."""
        delay_ms = int(await self._fail(keys=self._keys(account_key), args=[self.free, self.max_delay]))
        return -(-delay_ms // 1000)

    async def succeeded(self, account_key: str) -> None:
        await self.redis.delete(*self._keys(account_key))
