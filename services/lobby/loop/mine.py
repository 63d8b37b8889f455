"""My games, most urgent first: the tables I sit at, from the projection's per-player index and this
replica's turn index (never a scan of every table).

Order: games where I owe a decision (the longest-waiting first), then my other games in progress, then
open tables I sit at (newest first within each); finished and closed ones only when asked by `status`.
"""
from __future__ import annotations

from lobby.domain import Table
from lobby.loop.turns import TurnIndex

ACTIVE = ("playing", "open")
RANK = {"playing": 1, "open": 2}


def my_tables(tables: list[Table], turns: TurnIndex, player: str, position, *, status: str | None = None,
              to_act: bool | None = None) -> list[Table]:
    """`position(table_id)`: the table's place in the projection (newer tables are further)."""
    def owed(table: Table):
        return turns.owed(table.game_id, player) if table.status == "playing" and table.game_id else None

    chosen = [t for t in tables if (t.status == status if status is not None else t.status in ACTIVE)]
    if to_act is not None:
        chosen = [t for t in chosen if (owed(t) is not None) == to_act]

    def urgency(table: Table):
        mine = owed(table)
        if mine is not None:
            return (0, mine.since, 0)
        return (RANK.get(table.status, 3), "", -position(table.table_id))

    return sorted(chosen, key=urgency)
