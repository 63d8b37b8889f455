"""How many messages one Trucker socket may send: a token bucket per connection.

A move is cheap (one Redis script), but nothing else bounded how many a socket could send: a client in a
loop would keep a share of the service busy for everyone. Each socket may send `rate` messages a second
on average and `burst` at once (a quick player's grab-place-grab stays far below); a message past that
is refused RATE_LIMITED, with `retry_after` (seconds), before it is even read, and changes nothing. The
socket stays open, as the lobby's does after its 429. In memory: a socket is served by one replica.
"""
from __future__ import annotations


class MessageBudget:
    __slots__ = ("rate", "burst", "tokens", "at")

    def __init__(self, rate: float, burst: int, now: float):
        self.rate, self.burst = rate, burst
        self.tokens, self.at = float(burst), now

    def take(self, now: float) -> float:
        """Take one message's token: 0.0 when there was one, else the seconds until there is."""
        self.tokens = min(float(self.burst), self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return 0.0
        return (1.0 - self.tokens) / self.rate
