"""What other services may read of scoring: leaderboards, histories and results.

The lobby reads scoring's projection through this client only, never through the `Ledger` that
writes it, so scoring can change how it keeps its data without touching its readers. Read-only.

A private table's game is shown only to a `viewer` who sat at it: its history entries are left out
(a page may then hold fewer than `limit`) and its result is not found for anyone else.
"""
from __future__ import annotations

from redis.asyncio import Redis

from scoring.ledger import OVERALL, Ledger


class ScoringReader:
    def __init__(self, redis: Redis, prefix: str = "scoring"):
        self._ledger = Ledger(redis, prefix)

    async def leaderboard(self, board: str = OVERALL, offset: int = 0, limit: int = 50) -> list[dict]:
        return await self._ledger.leaderboard(board, offset, limit)

    async def boards(self) -> list[str]:
        return await self._ledger.boards()

    async def history(self, player: str, offset: int = 0, limit: int = 50, viewer: str | None = None) -> list[dict]:
        return [entry for entry in await self._ledger.history(player, offset, limit)
                if _may_see(entry, "seated", viewer)]

    async def result(self, game_id: str, viewer: str | None = None) -> dict | None:
        found = await self._ledger.result(game_id)
        return found if found is not None and _may_see(found, "players", viewer) else None

    async def rating(self, player: str, board: str = OVERALL) -> dict | None:
        return await self._ledger.rating(player, board)


def _may_see(record: dict, seated_field: str, viewer: str | None) -> bool:
    if not record.get("private"):
        return True
    return viewer is not None and viewer in record.get(seated_field, ())
