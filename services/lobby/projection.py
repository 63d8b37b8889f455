"""The lobby's read model: every table, folded from `table.*` (names live in the accounts, not here).

It is a projection, never the truth: it is rebuilt from the event store at startup and kept current by
following the store, and the service also applies its own appends at once so a client reads its writes.
`apply` is idempotent on (stream, seq): an envelope at or below a table's seq is skipped, and a gap
(an envelope past seq + 1) is filled by re-reading that table's stream.

Besides the tables it keeps, per player, the tables where that player sits (`tables_of`), so "my games"
costs the player's own tables, never a scan of all of them.
"""
from __future__ import annotations

import asyncio
from collections import defaultdict
from dataclasses import dataclass

from starbase_core.envelope import Envelope

from lobby.domain import Table, evolve, fold, parse_table_event


@dataclass(frozen=True)
class TableFilter:
    game: str | None = None
    status: str | None = None
    min_free_seats: int | None = None
    viewer: str | None = None       # private tables are listed only to their members


class TableProjection:
    def __init__(self, store):
        self.store = store
        self.tables: dict[str, Table] = {}
        self._order: list[str] = []             # table ids, oldest first (the listing's stable order)
        self._positions: dict[str, int] = {}     # table id → its place in `_order`
        self._seated: dict[str, set[str]] = defaultdict(set)     # player → ids of the tables they sit at
        self._lock = asyncio.Lock()

    async def apply(self, envelope: Envelope) -> None:
        kind, _, key = envelope.stream.partition(".")
        if kind != "table":
            return
        async with self._lock:
            table = self.tables.get(key)
            current = table.seq if table else 0
            if envelope.seq <= current:
                return
            before = set(table.seated.values()) if table else set()     # `evolve` changes the table in place
            if envelope.seq == current + 1:
                table = evolve(table or Table(), parse_table_event(envelope.data))
                table.seq = envelope.seq
            else:
                table = await self._reload(envelope.stream)
            if key not in self.tables:
                self._positions[key] = len(self._order)
                self._order.append(key)
            self.tables[key] = table
            self._index_seats(key, before, set(table.seated.values()))

    def _index_seats(self, table_id: str, before: set[str], after: set[str]) -> None:
        for player in before - after:
            self._seated[player].discard(table_id)
            if not self._seated[player]:
                del self._seated[player]
        for player in after - before:
            self._seated[player].add(table_id)

    async def _reload(self, stream: str) -> Table:
        envelopes = await self.store.read(stream)
        table = fold([parse_table_event(e.data) for e in envelopes])
        table.seq = envelopes[-1].seq if envelopes else 0
        return table

    def get(self, table_id: str) -> Table | None:
        return self.tables.get(table_id)

    def list(self, where: TableFilter, offset: int, limit: int) -> tuple[list[Table], int]:
        """Newest first, filtered, one page; and how many tables match in all."""
        matching = [
            table for table in (self.tables[key] for key in reversed(self._order))
            if (where.game is None or table.game == where.game)
            and (where.status is None or table.status == where.status)
            and (where.min_free_seats is None or table.free_seats >= where.min_free_seats)
            and (not table.private or (where.viewer is not None and table.may_see(where.viewer)))
        ]
        return matching[offset:offset + limit], len(matching)

    def tables_of(self, player: str) -> list[Table]:
        """The tables where `player` sits (any status), from the per-player index."""
        return [self.tables[key] for key in self._seated.get(player, ())]

    def position(self, table_id: str) -> int:
        """Where the table stands in the listing's order (newer tables further; -1: not known)."""
        return self._positions.get(table_id, -1)

    def open_tables_of(self, host: str) -> int:
        return sum(1 for t in self.tables.values() if t.status == "open" and t.host == host)

    def playing(self) -> list[Table]:
        return [t for t in self.tables.values() if t.status == "playing"]
