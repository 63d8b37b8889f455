"""Password hashing with argon2id (argon2-cffi). Parameters come from LobbySettings and are stored
inside each hash, so raising them later re-hashes a player's password at their next log-in."""
from __future__ import annotations

import asyncio

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError

from lobby.exceptions import Invalid

MIN_LENGTH, MAX_LENGTH = 10, 256


def check_password(password: str) -> None:
    if not MIN_LENGTH <= len(password) <= MAX_LENGTH:
        raise Invalid(f"a password is {MIN_LENGTH} to {MAX_LENGTH} characters long", "WEAK_PASSWORD")
    if len(set(password)) < 4:
        raise Invalid("a password needs at least 4 different characters", "WEAK_PASSWORD")


class Passwords:
    def __init__(self, time_cost: int, memory_kib: int, parallelism: int):
        self._hasher = PasswordHasher(time_cost=time_cost, memory_cost=memory_kib, parallelism=parallelism,
                                      hash_len=32, salt_len=16, type=Type.ID)
        # Verified when a name is unknown, so that a wrong name takes as long as a wrong password.
        self._decoy = self._hasher.hash("decoy password that matches nothing")

    @property
    def parameters(self) -> str:
        h = self._hasher
        return f"argon2id t={h.time_cost} m={h.memory_cost} KiB p={h.parallelism}"

    async def hash(self, password: str) -> str:
        # argon2 holds the GIL-free C code for tens of ms: off the event loop.
        return await asyncio.to_thread(self._hasher.hash, password)

    async def verify(self, stored: str | None, password: str) -> tuple[bool, bool]:
        """(matches, needs a new hash with today's parameters)."""
        return await asyncio.to_thread(self._verify, stored, password)

    def _verify(self, stored: str | None, password: str) -> tuple[bool, bool]:
        try:
            self._hasher.verify(stored or self._decoy, password)
        except (VerificationError, InvalidHashError):
            return False, False
        if stored is None:
            return False, False
        return True, self._hasher.check_needs_rehash(stored)
