"""Quick play: `POST /quickplay {game, seats, rated}` seats the player at the best waiting table of that
kind, or opens one; the table starts by itself once full. Safe under races across lobby replicas.

Who goes where is decided in Redis by one Lua script per step (`quickplay_*.lua`), so no two replicas
can both take a table's last seat, put one player at two tables, or open a second table of a kind while
one that suits the player waits:

- `match`: the player's table if they already wait at one of this kind (asking again is harmless);
  else the longest-waiting table of the kind (same game, seat count, rated flag) whose rating band
  covers the player's rating; else a new table. A band is `band` around the mean rating of the table's
  players (their `mu` on the game's board, from scoring's read client; a newcomer's is openskill's
  initial 25) and widens by `widen` per second the table has waited, so nobody waits for ever;
- `leave`: a player stood up from a waiting table (POST /tables/{id}/leave), or left the queue by
  giving no sign of life (below): it waits for one more; a table left empty is dissolved;
- `merge`: two waiting tables of a kind whose bands now overlap and whose players fit at one become
  one (the younger's players move to the older), so no half-empty table waits beside another;
- `done`: a table started (or closed): forgotten, its players may queue again.

Leaving the queue on disconnect or time-out. A waiting player's last sign of life (`seen`) is their
last POST /quickplay, or a beat of a socket they hold on the table (`seen`, every presence beat). When
their last socket on the table closes, `seen` is set back so that only `grace` seconds are left; with no
socket and no call for `idle` seconds they leave the queue: the sweeper (every replica, `leave` with
the time it judged by, so a sign given meanwhile wins) takes them out and syncs the table's stream
(`PlayerLeft`; an empty table closes). A player with a live socket on the table never times out.

Then the table's stream is brought in line with Redis (`seating.decide_sync`, appended with the
expected seq like every table write): whoever gets there first writes the table, the seats and, when
full, `GameStarted`; the game is created as for any table. A replica that dies half-way leaves Redis
ahead of the stream: the sweeper (every replica, every `SWEEP` s, taking turns through a claim in
Redis) syncs any table not touched for that long, and the player's next call does too.
Keys live under `<prefix>:{qp}:` (one hash slot; quick play's state is small).
"""
from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Awaitable, Callable

import structlog

from lobby.domain import Table
from lobby.exceptions import Conflict, Forbidden, Invalid, NotFound
from lobby.loop.seating import decide_sync
from lobby.service import TableService, load_engine, new_id
from lobby.tokens import Identity

log = structlog.get_logger(__name__)

SWEEP = 2.0
SWEEP_AT_ONCE = 20
SWEEP_TABLES = 200              # waiting tables one sweep looks at (oldest first)
TTL = 24 * 3600                 # a quick-play table nobody comes back to is forgotten after a day
INITIAL_MU = 25.0               # openskill's initial rating, for a player scoring has not rated yet
MATCH_ATTEMPTS = 3
Online = Callable[[str], Awaitable[list[str]]]        # table id → its seated players with a live socket
_SCRIPTS = ("match", "leave", "done", "merge", "claim", "seen")


class QuickPlay:
    def __init__(self, redis, prefix: str, tables: TableService, ratings, limits, online: Online, *,
                 band: float, widen: float, idle: float, grace: float):
        self.redis, self.tables, self.ratings, self.limits = redis, tables, ratings, limits
        self.online = online
        self.base = f"{prefix}:{{qp}}:"
        self.band, self.widen, self.idle, self.grace = band, widen, idle, grace
        here = Path(__file__).parent
        self._scripts = {name: redis.register_script((here / f"quickplay_{name}.lua").read_text())
                         for name in _SCRIPTS}

    async def _run(self, name: str, *args) -> list:
        return await self._scripts[name](keys=[], args=[self.base, *args])

    async def play(self, who: Identity, game: str, seats: int, rated: bool) -> Table:
        engine = load_engine(game)
        if not engine.min_players <= seats <= engine.max_players:
            raise Invalid(f"{game} is played by {engine.min_players} to {engine.max_players} players, not {seats}",
                          "BAD_SEAT_COUNT")
        if rated and who.guest:
            raise Forbidden("guests are never rated: ask for a game with rated false (or register)", "GUEST_UNRATED")
        await self.limits.hit("quickplay", who.player_id)
        rating = await self._rating(who.player_id, game)
        for _ in range(MATCH_ATTEMPTS):
            table_id, how = await self._run("match", who.player_id, game, seats, "1" if rated else "0", rating,
                                            _now(), new_id(), self.band, self.widen, TTL)
            if how == "elsewhere":
                raise Conflict(f"you already wait at quick-play table {table_id} for another kind of game: "
                               "leave it first", "ALREADY_QUEUED")
            table = await self.sync(table_id, who.player_id)
            if table is not None and table.seat_of(who.player_id) is not None:
                return table
        raise Conflict("quick play is busy right now; try again", "QUICKPLAY_BUSY")

    async def _rating(self, player: str, game: str) -> float:
        found = await self.ratings.rating(player, game)
        return float(found["mu"]) if found else INITIAL_MU

    async def sync(self, table_id: str, actor: str = "lobby") -> Table | None:
        """Bring the table's stream in line with Redis (see `seating`); start its game when full."""
        info = await self.redis.hgetall(f"{self.base}table:{table_id}")
        if not info:
            return await self._table(table_id)              # started (and forgotten) or never was
        members = await self.redis.zrange(f"{self.base}members:{table_id}", 0, -1)
        table = await self._write(table_id, actor, lambda t: decide_sync(
            t, table_id, info["game"], int(info["seats"]), info["rated"] == "1", members))
        if table is None or not table.exists or table.status in ("closed", "finished"):
            await self._run("done", table_id)
        elif table.status == "playing":
            await self.tables.complete_start(table, actor)
            await self._run("done", table_id)
        return table

    async def _write(self, table_id: str, actor: str, decide) -> Table | None:
        try:
            return await self.tables._write(table_id, actor, decide)
        except NotFound:
            pass                                            # not written yet: open it
        try:
            return await self.tables._write(table_id, actor, decide, new=True)
        except Conflict as race:
            if race.code != "TABLE_EXISTS":
                raise
            return await self.tables._write(table_id, actor, decide)   # opened meanwhile by another replica

    async def _table(self, table_id: str) -> Table | None:
        try:
            return await self.tables.load(table_id)
        except NotFound:
            return None

    # --- what the lobby's feed and the sweeper tell it ---

    async def player_left(self, table: Table, player: str) -> None:
        """A player stood up from a quick-play table (every replica hears it; the script acts once)."""
        if table.quickplay:
            await self._run("leave", table.table_id, player)

    async def alive(self, table_id: str, player: str) -> None:
        """A socket of `player`'s on the table opened or beat (nothing happens unless they wait there)."""
        await self._run("seen", table_id, player, _now())

    async def gone(self, table_id: str, player: str) -> None:
        """A socket of `player`'s on the table closed: if it was their last, `grace` seconds to come back."""
        if player not in await self.online(table_id):
            await self._run("seen", table_id, player, _now() - int((self.idle - self.grace) * 1000))

    async def sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(SWEEP)
            try:
                await self.sweep()
            except Exception as error:      # Redis or the store is away: the next sweep tries again
                log.warning("quickplay_sweep_failed", error=repr(error))

    async def sweep(self) -> None:
        """Take out who stopped waiting, merge what can be merged, then sync the tables nobody touched
        for a while (and those just changed)."""
        now = _now()
        waiting = await self.redis.zrange(f"{self.base}tables", 0, SWEEP_TABLES - 1)
        touched = await self._expire(waiting, now)
        kinds = {kind for kind in await asyncio.gather(*[
            self.redis.hget(f"{self.base}table:{table_id}", "kind") for table_id in waiting]) if kind}
        for kind in kinds:
            touched.update(await self._run("merge", kind, now, self.band, self.widen, TTL))
        touched.update(await self._run("claim", now, int(SWEEP * 1000 * 2), SWEEP_AT_ONCE))
        for table_id in touched:
            try:
                await self.sync(table_id)
            except Exception as error:
                log.warning("quickplay_sync_failed", table_id=table_id, error=repr(error))

    async def _expire(self, table_ids: list[str], now: int) -> set[str]:
        """Take out of the queue whoever gave no sign of life for `idle` seconds and holds no live
        socket on their table; the tables they left."""
        before = now - int(self.idle * 1000)
        left: set[str] = set()
        for table_id in table_ids:
            seen = await self.redis.hgetall(f"{self.base}seen:{table_id}")
            stale = [player for player, at in seen.items() if float(at) < before]
            if not stale:
                continue
            online = set(await self.online(table_id))
            for player in stale:
                if player not in online and await self._run("leave", table_id, player, before):
                    log.info("quickplay_timed_out", table_id=table_id, player=player)
                    left.add(table_id)
        return left


def _now() -> int:
    return int(time.time() * 1000)
