"""The decision clock's I/O: follow the game streams, and apply due defaults through the adjudicator.

Two tasks share one `Tracker`:
- `follow`: every envelope of `game.>` from the start of the store, folded in order; supervised
  (`starbase_core.supervise`): if it fails it is restarted with back-off after the last envelope it
  folded, and `healthy()` is False meanwhile (the service's `/readyz` says so);
- `tick`: every `tick_seconds`, once caught up with the store, the defaults that are due.

Before applying a default the clock reads the game's newest envelopes (another replica, or the player,
may have moved it on) and decides again on the next tick if there were any; the default carries the seq
it was chosen at (`expected_seq`), so the adjudicator refuses it (STALE_POSITION) if anything landed
in between, and the clock decides again on the newer state at the next tick. The command id names the
owed decision (`clock:<since seq>:<player>`), so clock replicas and restarts apply it at most once:
the adjudicator answers a known command id from the store. Every time-out is sent as played by the
clock (`played_by` "clock", recorded in the stream: who played each move). A refusal (the player acted meanwhile, a
real-time phase) is logged and not tried again; a failed call (adjudicator unreachable) is tried again.
"""
from __future__ import annotations

import asyncio
import time
from datetime import datetime, timezone
from typing import Awaitable, Callable

import structlog
from prometheus_client import Counter, Gauge

from clock import observe
from clock.tracker import Due, Tracker
from starbase_core.decisionfeed import BookFeed
from starbase_core.envelope import Envelope
from starbase_core.seats import CLOCK
from starbase_core.store import EventStore
from starbase_core.supervise import Supervisor
from starbase_rules.contract import RuleViolation

log = structlog.get_logger(__name__)

DEFAULTS = Counter("clock_defaults_total", "Default commands the clock submitted, by result", ["result"])
GAMES = Gauge("clock_games", "Unfinished games the clock follows")
OWED = Gauge("clock_decisions_owed", "Decisions owed in games with a time limit")
ENVELOPES = Counter("clock_envelopes_total", "Envelopes folded")

# (game_id, actor, command, command_id, *, expected_seq) -> the stored envelopes; raises RuleViolation when
# refused, STALE_POSITION when the game's last envelope is no longer `expected_seq`.
Submit = Callable[..., Awaitable[list[Envelope]]]

# Refusals that say "the game moved on under you", not "this default is wrong": decide again, later.
MOVED_ON = frozenset({"STALE_POSITION", "UNKNOWN_POSITION"})

QUIET_SECONDS = 1.0   # a follow with nothing new for this long has caught up (the last envelope may be a table's)


def server_now() -> datetime:
    return datetime.now(timezone.utc)


class DecisionClock:
    def __init__(self, store: EventStore, submit: Submit, tracker: Tracker, *, tick_seconds: float = 0.5,
                 now: Callable[[], datetime] = server_now):
        self.store, self.submit, self.tracker = store, submit, tracker
        self.tick_seconds, self.now = tick_seconds, now
        self.caught_up = False
        self._end = 0
        self._last_seen = time.monotonic()
        self.position = 0                       # the last envelope folded: a restarted follow goes on after it
        self.feed = BookFeed(store, tracker, "clock_game_dropped", ENVELOPES.inc)
        self.supervisor = Supervisor("clock")

    def healthy(self) -> bool:
        return self.supervisor.healthy()

    async def run(self, stop: asyncio.Event | None = None) -> None:
        """Follow and tick until `stop` is set (a default in flight is finished first) or until cancelled."""
        self._end = await self.store.end_position()
        self.caught_up = self.caught_up or self._end <= self.position
        self.supervisor = Supervisor("clock")
        self.supervisor.start("follow", self.follow)
        try:
            await self.tick_forever(stop or asyncio.Event())
        finally:
            await self.supervisor.stop()

    async def follow(self) -> None:
        async for position, envelope in self.store.follow(self.position, "game.>"):
            await self._fold(envelope)
            self.position = position
            self._last_seen = time.monotonic()
            if position >= self._end:
                self.caught_up = True
        raise ConnectionError("the follow of the game streams ended")

    async def tick_forever(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            try:
                await asyncio.wait_for(stop.wait(), self.tick_seconds)
                return
            except asyncio.TimeoutError:
                pass
            if not self.caught_up and time.monotonic() - self._last_seen >= QUIET_SECONDS:
                self.caught_up = True
            if not self.caught_up:
                continue
            try:
                await self.tick()
            except Exception as problem:   # the store is unreachable for a moment: the next tick retries
                log.warning("clock_tick_failed", problem=repr(problem))

    async def tick(self) -> int:
        """Apply what is due now; the number of defaults applied."""
        applied = 0
        for due in self.tracker.due(self.now()):
            if await self.enforce(due):
                applied += 1
        GAMES.set(len(self.tracker.clocks))
        OWED.set(self.tracker.owed_count())
        return applied

    async def enforce(self, due: Due) -> bool:
        await self._catch_up(due.game_id)
        if not self.tracker.still_due(due):
            return False   # the game moved on: decide again on the newer state at the next tick
        try:
            with observe.timeout(self.tracker, due, self.now):   # its trace and, once applied, lateness
                envelopes = await self.submit(due.game_id, due.player, due.command, due.command_id,
                                              expected_seq=due.at_seq, played_by=CLOCK)
        except RuleViolation as refusal:
            if refusal.code in MOVED_ON:   # not settled: the next tick reads the newer envelopes first
                DEFAULTS.labels("stale").inc()
                log.info("clock_default_stale", game_id=due.game_id, player=due.player,
                         command_id=due.command_id, at_seq=due.at_seq, reason=refusal.message)
                return False
            DEFAULTS.labels("refused").inc()
            self.tracker.settle(due)
            log.info("clock_default_refused", game_id=due.game_id, player=due.player,
                     command_id=due.command_id, code=refusal.code, reason=refusal.message)
            return False
        except Exception as problem:   # the adjudicator is unreachable: try again at the next tick
            DEFAULTS.labels("failed").inc()
            log.warning("clock_default_failed", game_id=due.game_id, player=due.player,
                        command_id=due.command_id, problem=repr(problem))
            return False
        DEFAULTS.labels("applied").inc()
        self.tracker.settle(due)
        log.info("clock_default_applied", game_id=due.game_id, player=due.player, command=due.command,
                 command_id=due.command_id, first_seq=envelopes[0].seq if envelopes else None)
        for envelope in envelopes:
            await self._fold(envelope)
        return True

    async def _catch_up(self, game_id: str) -> None:
        await self.feed.catch_up(game_id)

    async def _fold(self, envelope: Envelope) -> None:
        await self.feed.fold(envelope)
