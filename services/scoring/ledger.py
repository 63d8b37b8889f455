"""Scoring's Redis projection: results, ratings, leaderboards (sorted sets) and player histories.

Idempotent on (stream, seq): `record` adds the event's id to a `done` set in the same transaction that
writes its effects, under WATCH, so a redelivered event, a second scoring replica or a replay from zero
changes nothing twice. Ratings depend on the order games are rated in, so the consumer feeds events in
store order; rebuilding (`reset` then replay from position 0) gives the same boards.

Every key shares one hash tag (`{prefix}`) so that on a Redis Cluster the transaction stays on one slot.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

from redis.asyncio import Redis
from redis.exceptions import WatchError

from scoring.ratings import Rating, rate

OVERALL = "all"


@dataclass(frozen=True)
class EndedGame:
    stream: str
    seq: int
    game_id: str
    game: str
    standings: list[dict]           # [{player, rank, score}], rank 1 is best
    time: str = ""
    private: bool = False           # a private table's game: readers who were not at it see none of it
    guests: frozenset[str] = frozenset()    # seats held by guests: never rated
    bots: frozenset[str] = frozenset()      # seats bots held from the start: never rated
    rated_game: bool = True                 # the table's `rated` option
    resigned: tuple[str, ...] = ()          # seats whose player gave them up (the game was abandoned)

    @property
    def players(self) -> list[str]:
        return [s["player"] for s in self.standings]

    @property
    def rated(self) -> list[dict]:
        """The standings the ratings are computed from: people's seats (no guest, no bot) of a rated game
        (a lone person against guests or bots is counted, their rating unchanged: `ratings.rate`)."""
        if not self.rated_game:
            return []
        people = [s for s in self.standings if s["player"] not in self.guests and s["player"] not in self.bots]
        if not self.resigned:
            return people
        # A seat given up counts as lost by whoever gave it up, however the bot or substitute then did:
        # the quitters rank below everyone who stayed, the last to quit best among them.
        stayed = [s for s in people if s["player"] not in self.resigned]
        below = max((s["rank"] for s in stayed), default=0)
        quitters = [p for p in reversed(self.resigned) if p in {s["player"] for s in people}]
        return stayed + [{"player": p, "rank": below + 1 + n} for n, p in enumerate(quitters)]

    def changes(self, player: str) -> bool:
        """Whose rating the game changes: everyone rated, but in an abandoned game only those who gave
        their seat up (their loss counts; the others' game was spoiled, so theirs does not)."""
        return not self.resigned or player in self.resigned


class Ledger:
    def __init__(self, redis: Redis, prefix: str = "scoring"):
        self.redis = redis
        self.prefix = prefix

    def key(self, *parts: str) -> str:
        return ":".join([f"{{{self.prefix}}}", *parts])

    async def record(self, ended: EndedGame) -> bool:
        """Apply one finished game; False when it was already applied."""
        done, member = self.key("done"), f"{ended.stream}#{ended.seq}"
        boards = [ended.game, OVERALL]
        players = [s["player"] for s in ended.rated]
        async with self.redis.pipeline(transaction=True) as pipe:
            while True:
                try:
                    await pipe.watch(done, *[self.key("rating", board) for board in boards])
                    if await pipe.sismember(done, member):
                        return False
                    before = {board: await self._ratings(pipe, board, players) for board in boards}
                    after = {board: {p: r for p, r in rate(before[board], ended.rated).items() if ended.changes(p)}
                             for board in boards}
                    pipe.multi()
                    pipe.sadd(done, member)
                    pipe.sadd(self.key("games"), ended.game)
                    pipe.set(self.key("result", ended.game_id), json.dumps(
                        {"game_id": ended.game_id, "game": ended.game, "standings": ended.standings,
                         "time": ended.time, "private": ended.private, "players": ended.players,
                         "guests": sorted(ended.guests),
                         "ratings": {p: r.as_dict() for p, r in after[ended.game].items()}}))
                    for board in boards:
                        self._write_board(pipe, board, after[board])
                    for standing in (s for s in ended.standings if s["player"] not in ended.bots):
                        self._write_history(pipe, ended, standing, before[ended.game], after[ended.game])
                    await pipe.execute()
                    return True
                except WatchError:
                    continue        # someone else wrote these ratings meanwhile: re-read and re-rate

    async def _ratings(self, pipe, board: str, players: list[str]) -> dict[str, Rating]:
        if not players:                 # every seat a guest: nobody is rated (HMGET takes at least one field)
            return {}
        stored = await pipe.hmget(self.key("rating", board), players)
        return {p: Rating.from_dict(json.loads(raw) if raw else None) for p, raw in zip(players, stored)}

    def _write_board(self, pipe, board: str, ratings: dict[str, Rating]) -> None:
        if not ratings:
            return
        pipe.hset(self.key("rating", board), mapping={p: json.dumps(r.as_dict()) for p, r in ratings.items()})
        pipe.zadd(self.key("board", board), {p: r.ordinal for p, r in ratings.items()})
        for player in ratings:
            pipe.hincrby(self.key("played", board), player, 1)

    def _write_history(self, pipe, ended: EndedGame, standing: dict, before: dict, after: dict) -> None:
        player = standing["player"]
        rated = player in after
        pipe.rpush(self.key("history", player), json.dumps({
            "game_id": ended.game_id, "game": ended.game, "rank": standing["rank"],
            "score": standing.get("score"), "players": len(ended.standings), "time": ended.time,
            "rating_before": before[player].as_dict() if rated else None,
            "rating_after": after[player].as_dict() if rated else None,
            "private": ended.private, "seated": ended.players,
        }))

    # --- position of the consumer, so a restart resumes rather than replays ---

    async def position(self) -> int:
        return int(await self.redis.get(self.key("position")) or 0)

    async def save_position(self, position: int) -> None:
        # Only forward: a slower replica never moves the mark back.
        await self.redis.eval(
            "local cur = tonumber(redis.call('GET', KEYS[1]) or '0') "
            "if tonumber(ARGV[1]) > cur then redis.call('SET', KEYS[1], ARGV[1]) end return 0",
            1, self.key("position"), position)

    async def reset(self) -> None:
        """Drop the whole projection, before a rebuild from position 0."""
        async for key in self.redis.scan_iter(match=f"{{{self.prefix}}}:*", count=500):
            await self.redis.delete(key)

    # --- reads, for the lobby ---

    async def leaderboard(self, board: str = OVERALL, offset: int = 0, limit: int = 50) -> list[dict]:
        rows = await self.redis.zrevrange(self.key("board", board), offset, offset + limit - 1, withscores=True)
        if not rows:
            return []
        names = [_text(p) for p, _ in rows]
        ratings = await self.redis.hmget(self.key("rating", board), names)
        played = await self.redis.hmget(self.key("played", board), names)
        return [{"rank": offset + i + 1, "player": name, **json.loads(rating), "games": int(games or 0)}
                for i, (name, rating, games) in enumerate(zip(names, ratings, played))]

    async def boards(self) -> list[str]:
        return sorted(_text(g) for g in await self.redis.smembers(self.key("games")))

    async def history(self, player: str, offset: int = 0, limit: int = 50) -> list[dict]:
        raw = await self.redis.lrange(self.key("history", player), offset, offset + limit - 1)
        return [json.loads(item) for item in raw]

    async def result(self, game_id: str) -> dict | None:
        raw = await self.redis.get(self.key("result", game_id))
        return json.loads(raw) if raw else None

    async def rating(self, player: str, board: str = OVERALL) -> dict | None:
        raw = await self.redis.hget(self.key("rating", board), player)
        return json.loads(raw) if raw else None


def _text(value) -> str:
    return value.decode() if isinstance(value, bytes) else value
