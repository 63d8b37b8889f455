"""A running game's clock wherever its table shows: in listings, and pushed on its sockets.

    {"v": 1, "kind": "clock", "table_id", "game_id", "seq", "now", "clock": {…}}    opt-in (`?notify=true`)

`clock` is what `GET /tables/{id}` carries (`starbase_core.decisions.FollowedGame.clock_state`: the
controls, each seat's bank left at `now`, `owes_since` and `due_at`, and the pause: `paused`,
`paused_at`, `requested_by`, `awaiting`). It is pushed to the table's and the game's sockets that
asked for pushes when the socket opens (if the game runs on a clock) and whenever it changes: a
decision begins or ends, a bank is charged, a pause is asked for, agreed, refused, begun or ended. A
bank that merely runs down while its seat thinks is not pushed: the client counts down from `now`
and `bank_seconds` (or `due_at`) itself.

Every change of a clock is an envelope of its game, so the pushes ride the live feed: each game
envelope this replica's feed sees is folded (`ClockViews.seen`) and, when a socket here watches that
game, its clock is sent again if it changed (one send task per game at a time; envelopes landing
meanwhile fold into it).
"""
from __future__ import annotations

import asyncio
import json
from collections import defaultdict
from datetime import datetime, timezone
from typing import Awaitable, Callable

import structlog
from starbase_core.supervise import cancel_and_wait

log = structlog.get_logger(__name__)
Send = Callable[[dict], Awaitable[None]]
LISTED_AT_ONCE = 4          # clocks folded at once for one listing (each a read, the first time only)


def wire_time(text: str | None) -> str | None:
    """An ISO time as the lobby writes its times (UTC, microseconds, `Z`)."""
    if text is None:
        return None
    moment = datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(timezone.utc)
    return moment.isoformat(timespec="microseconds").replace("+00:00", "Z")


def clock_message(game_id: str, clock: dict, now: datetime) -> dict:
    return {"v": 1, "kind": "clock", "table_id": game_id, "game_id": game_id, "seq": clock["seq"],
            "now": wire_time(now.isoformat()), "clock": clock}


def _signature(clock: dict) -> str:
    """What a push is about: everything but the bank of a seat that is thinking (it runs down by itself)."""
    seats = {player: {**seat, "bank_seconds": None} if seat["owes_since"] else seat
             for player, seat in clock["seats"].items()}
    return json.dumps({**clock, "seq": None, "seats": seats}, sort_keys=True)


class Watcher:
    def __init__(self, game_id: str, send: Send):
        self.game_id, self.send = game_id, send
        self.told: str | None = None


class ClockPushes:
    def __init__(self, views, options_of: Callable[[str], dict]):
        self.views, self.options_of = views, options_of
        self._watchers: dict[str, set[Watcher]] = defaultdict(set)
        self._busy: dict[str, asyncio.Task] = {}
        self._again: set[str] = set()

    def watch(self, game_id: str, send: Send) -> Watcher:
        watcher = Watcher(game_id, send)
        self._watchers[game_id].add(watcher)
        return watcher

    def unwatch(self, watcher: Watcher) -> None:
        watchers = self._watchers.get(watcher.game_id)
        if watchers is not None:
            watchers.discard(watcher)
            if not watchers:
                del self._watchers[watcher.game_id]

    async def tell(self, watcher: Watcher) -> None:
        """Send the game's clock to one socket if it changed since it was last told (none: nothing)."""
        now = datetime.now(timezone.utc)
        clock = await self.views.state(watcher.game_id, now, self.options_of(watcher.game_id), fresh=False)
        if clock is None or clock["control"] is None:
            return
        signature = _signature(clock)
        if signature != watcher.told:
            watcher.told = signature
            await watcher.send(clock_message(watcher.game_id, clock, now))

    def changed(self, game_id: str) -> None:
        """A game envelope was seen: tell the sockets watching that game, if any."""
        if game_id not in self._watchers:
            return
        if game_id in self._busy:
            self._again.add(game_id)
            return
        self._busy[game_id] = asyncio.get_running_loop().create_task(self._tell_all(game_id))

    async def stop(self) -> None:
        await cancel_and_wait(list(self._busy.values()))

    async def _tell_all(self, game_id: str) -> None:
        try:
            while True:
                self._again.discard(game_id)
                for watcher in list(self._watchers.get(game_id, ())):
                    try:
                        await self.tell(watcher)
                    except Exception as error:      # that socket is closing: its pump notices
                        log.info("clock_push_failed", game_id=game_id, error=repr(error))
                if game_id not in self._again:
                    return
        finally:
            self._busy.pop(game_id, None)


async def with_clocks(runtime, listed: list) -> None:
    """Fill in the clock of each listed `(table, TableOut)` whose game runs, and each seat's `due_at`
    from it (the fold knows banks and pauses; the turn index alone does not)."""
    gate = asyncio.Semaphore(LISTED_AT_ONCE)

    async def one(table, out) -> None:
        if table.status != "playing" or not table.game_id:
            return
        async with gate:
            out.clock = await runtime.games.clocks.state(table.game_id, options=table.options, fresh=False)
        seats_due(out)

    await asyncio.gather(*(one(table, out) for table, out in listed))


def seats_due(out) -> None:
    """Each seat's `due_at` as the table's clock has it (nothing is due while the clock is paused)."""
    if out.clock is None:
        return
    for seat in out.seats:
        held = out.clock["seats"].get(seat.player_id) if seat.player_id else None
        if held is not None:
            seat.due_at = wire_time(held["due_at"])
