"""Fault shims for tests of supervised background work: a store whose follows can be cut."""
from __future__ import annotations


class CuttableStore:
    """Any event store, whose follows can be cut (`cut()`: each running one fails at its next envelope,
    and new ones fail at once until `restore()`), as when the connection to NATS goes away."""

    def __init__(self, inner):
        self.inner, self.down, self.generation = inner, False, 0

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def cut(self) -> None:
        self.down, self.generation = True, self.generation + 1

    def restore(self) -> None:
        self.down = False

    async def follow(self, from_position: int = 0, subject_filter: str = "game.>"):
        if self.down:
            raise ConnectionError("the store does not answer")
        generation = self.generation
        async for item in self.inner.follow(from_position, subject_filter):
            if self.generation != generation:
                raise ConnectionError("the connection to the store was lost")
            yield item
