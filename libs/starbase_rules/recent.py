"""A bounded memo that keeps the entries used most recently (an engine's caches of pure answers).

An engine's per-position caches live in the process, shared by every game it serves: the adjudicator
decides for hundreds of games, the load generator's bots play dozens. A cache that is simply emptied
when full is emptied over and over once more games are in play than it holds, and every game pays for
its answers again; this one drops only the entry used least recently.
"""
from __future__ import annotations

from collections import OrderedDict
from typing import Generic, Hashable, TypeVar

V = TypeVar("V")


class Recent(OrderedDict, Generic[V]):
    """`recent.get(key)` (None when absent; a hit becomes the most recent) and `recent.put(key, value)`
    (the least recent entry is dropped past `size`). Otherwise an ordinary ordered dict."""

    def __init__(self, size: int):
        super().__init__()
        if size < 1:
            raise ValueError(f"a memo holds at least one entry, not {size}")
        self.size = size

    def get(self, key: Hashable, default: V | None = None) -> V | None:  # type: ignore[override]
        try:
            value = self[key]
        except KeyError:
            return default
        self.move_to_end(key)
        return value

    def put(self, key: Hashable, value: V) -> V:
        self[key] = value
        self.move_to_end(key)
        if len(self) > self.size:
            self.popitem(last=False)
        return value
