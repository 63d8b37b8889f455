"""Provably fair chance: every draw is HMAC-SHA256(seed, draw index).

The seed stays secret until the game ends; its SHA-256 commitment is published at the start. Once the
seed is revealed anyone can re-derive every draw from (seed, index), so a game's chance is auditable.
"""
from __future__ import annotations

import hashlib
import hmac


def commitment(seed: bytes) -> str:
    return hashlib.sha256(seed).hexdigest()


class FairRng:
    """A deterministic source of draws. `used` counts the draws taken, so the next command can start at
    the index where this one stopped."""

    def __init__(self, seed: bytes, start: int = 0):
        self._seed = seed
        self.start = start
        self.used = start

    def _word(self) -> int:
        digest = hmac.new(self._seed, self.used.to_bytes(8, "big"), hashlib.sha256).digest()
        self.used += 1
        return int.from_bytes(digest, "big")

    def randbelow(self, n: int) -> int:
        """Uniform in [0, n). Rejection sampling keeps it exactly uniform."""
        if n <= 0:
            raise ValueError("randbelow needs n > 0")
        limit = (1 << 256) - ((1 << 256) % n)
        while True:
            word = self._word()
            if word < limit:
                return word % n

    def randint(self, low: int, high: int) -> int:
        return low + self.randbelow(high - low + 1)

    def choice(self, items: list):
        return items[self.randbelow(len(items))]

    def shuffle(self, items: list) -> list:
        """A new list, Fisher–Yates shuffled."""
        result = list(items)
        for i in range(len(result) - 1, 0, -1):
            j = self.randbelow(i + 1)
            result[i], result[j] = result[j], result[i]
        return result
