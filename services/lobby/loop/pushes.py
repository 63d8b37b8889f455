"""What a socket is told besides its stream's events, when it asked (`?notify=true`):

    {"v": 1, "kind": "your_turn", "game_id", "seq", "since", "due_at"}     game sockets, to the seat that owes
    {"v": 1, "kind": "presence", "table_id", "online": [player ids]}         table sockets, when it changes
    {"v": 1, "kind": "clock", "table_id", "game_id", "seq", "now", "clock"}  both, when the clock changes
                                                                             (`lobby.loop.clocks`)

A socket on a quick-play table still filling also keeps its player in the queue (`QuickPlay.alive`);
closing the last one leaves them a grace to come back (`QuickPlay.gone`).

Opt-in, so a client that reads only events (older clients, the load tool) never meets a kind it does
not know. Being online needs no opt-in: any socket opened with a ticket on a table or its game counts.

`attend` is the socket's side task, started by the socket's pump with the pump's own `send` (so these
messages never interleave with an event half-written) once the socket is accepted; it never returns
by itself (the pump ends the socket when any of its tasks ends), and it cleans up when cancelled.
`your_turn` names the seq after which the decision is owed: the events up to it are the socket's own
stream, pushed in order; a client that has not yet handled that seq gets it next.
"""
from __future__ import annotations

import asyncio
from collections import defaultdict
from typing import Awaitable, Callable

import structlog

from lobby.loop.presence import BEAT
from lobby.loop.turns import Owed, Turn, TurnIndex

log = structlog.get_logger(__name__)
Send = Callable[[dict], Awaitable[None]]
NOTIFY_VALUES = ("1", "true")


def your_turn_message(game_id: str, owed: Owed, due: str | None) -> dict:
    """Protocol version 1: you owe a decision in this game since `seq` (and until `due_at`, when the
    table has a decision clock)."""
    return {"v": 1, "kind": "your_turn", "game_id": game_id, "seq": owed.since_seq, "since": owed.since,
            "due_at": due}


class Seat:
    """One game socket of a seated player that asked for pushes."""

    def __init__(self, game_id: str, player: str, send: Send):
        self.game_id, self.player, self.send = game_id, player, send
        self.told: Owed | None = None

    async def tell(self, owed: Owed | None, due: str | None) -> None:
        if owed is not None and owed != self.told:
            self.told = owed
            await self.send(your_turn_message(self.game_id, owed, due))


class TurnPushes:
    """Tells this replica's seats that asked for it when their player newly owes a decision."""

    def __init__(self, turns: TurnIndex, options_of: Callable[[str], dict], deadline: Callable[..., str | None]):
        self.turns, self.options_of, self.deadline = turns, options_of, deadline
        self._seats: dict[tuple[str, str], set[Seat]] = defaultdict(set)
        self._tasks: set[asyncio.Task] = set()
        turns.listeners.append(self._changed)

    def watch(self, game_id: str, player: str, send: Send) -> Seat:
        seat = Seat(game_id, player, send)
        self._seats[(game_id, player)].add(seat)
        return seat

    def unwatch(self, seat: Seat) -> None:
        seats = self._seats.get((seat.game_id, seat.player))
        if seats is not None:
            seats.discard(seat)
            if not seats:
                del self._seats[(seat.game_id, seat.player)]

    async def tell(self, seat: Seat) -> None:
        owed = self.turns.owed(seat.game_id, seat.player)
        await seat.tell(owed, self.deadline(seat.game_id, seat.player, owed, self.options_of(seat.game_id)))

    def _changed(self, turn: Turn, fresh: set[str]) -> None:
        for player in fresh:
            for seat in list(self._seats.get((turn.game_id, player), ())):
                task = asyncio.get_running_loop().create_task(self._tell_quietly(seat))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)

    async def _tell_quietly(self, seat: Seat) -> None:
        try:
            await self.tell(seat)
        except Exception as error:      # the socket is closing: its pump notices
            log.info("your_turn_push_failed", game_id=seat.game_id, error=repr(error))


async def attend(loop, path_params: dict, player: str | None, notify: bool, send: Send) -> None:
    """A socket's presence and, when it asked, its pushes, for as long as it is open (see module doc)."""
    table_id = path_params.get("table_id") or path_params.get("game_id")
    on_game = "game_id" in path_params
    member, watcher, seat, clock = None, None, None, None
    queued = player is not None and loop.waiting(table_id)     # a quick-play table still filling
    try:
        if player is not None:
            member = await _quietly(loop.presence.enter(table_id, player))
        if queued:
            await _quietly(loop.quickplay.alive(table_id, player))
        if notify and on_game and player is not None:
            seat = loop.pushes.watch(table_id, player, send)
            await loop.pushes.tell(seat)
        elif notify and not on_game:
            watcher = loop.presence.watch(table_id, send)
            await _quietly(loop.presence.tell(watcher))
        if notify:
            clock = loop.clocks.watch(table_id, send)
            await _quietly(loop.clocks.tell(clock))
        while True:
            await asyncio.sleep(BEAT)
            if member is not None:
                await _quietly(loop.presence.beat(table_id, member))
            if queued:
                await _quietly(loop.quickplay.alive(table_id, player))
            if watcher is not None:
                await _quietly(loop.presence.tell(watcher))
    finally:
        if seat is not None:
            loop.pushes.unwatch(seat)
        if watcher is not None:
            loop.presence.unwatch(watcher)
        if clock is not None:
            loop.clocks.unwatch(clock)
        if member is not None:
            await _quietly(loop.presence.leave(table_id, member))
        if queued:
            await _quietly(loop.quickplay.gone(table_id, player))


async def _quietly(call: Awaitable):
    """Presence is a courtesy: a Redis or NATS hiccup is logged, and never closes the socket."""
    try:
        return await call
    except Exception as error:
        log.info("presence_failed", error=repr(error))
        return None
