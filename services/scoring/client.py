"""What other services may read of scoring: leaderboards, histories and results.

The lobby reads scoring's projection through this client only, never through the `Ledger` that
writes it, so scoring can change how it keeps its data without touching its readers. Read-only.
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

    async def history(self, player: str, offset: int = 0, limit: int = 50) -> list[dict]:
        return await self._ledger.history(player, offset, limit)

    async def result(self, game_id: str) -> dict | None:
        return await self._ledger.result(game_id)

    async def rating(self, player: str, board: str = OVERALL) -> dict | None:
        return await self._ledger.rating(player, board)
