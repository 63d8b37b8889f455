""""Clock running low": a player is told once per decision that its time is nearly out.

Not an append's consequence but the passing of time, so a timer reads a fold of its own: like the
clock, the watch follows every game stream from the start of the store (`starbase_core.decisions`,
timed games only: who owes since when, each seat's bank, the table's time controls), so a restarted
notifier knows every running decision, not only those of games that moved since (the consumer's book
learns a game only from its next append). A decision is low
from `due_at - lead`, where lead = min(NOTIFIER_CLOCK_LOW_SECONDS, NOTIFIER_CLOCK_LOW_FRACTION × the
decision's whole allowance) (so a 60-second move is not "low" from its first second); it is not
notified once its `due_at` has passed (the clock's default is on its way).

Once per decision, across replicas and restarts: the notification's id is derived from the decision
(the game's stream, the seq it was owed since, the player, `clock_low`), so the claims let one sender
through whichever replica sees it first. Before sending, the game's newer envelopes are read and folded
(the follow may lag), so an answered decision is not warned of.
"""
from __future__ import annotations

import asyncio
from datetime import datetime, timedelta, timezone
from typing import Callable

import structlog

from starbase_core.decisionfeed import BookFeed
from starbase_core.decisions import FollowedGame, Owed, TimedBook
from starbase_core.supervise import Supervisor, cancel_and_wait

from notifier.claims import Busy
from notifier.kinds import CLOCK_LOW, Notification

log = structlog.get_logger(__name__)
REMEMBERED = 100_000        # decisions already warned of (then the claims still stop a second send)


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


class ClockLowWatch:
    def __init__(self, store, deliver, lead_seconds: float = 300.0, fraction: float = 0.25,
                 tick_seconds: float = 1.0, now: Callable[[], datetime] = utc_now, default_seconds: float = 0.0):
        self.store, self.deliver = store, deliver
        self.book = TimedBook(default_seconds=default_seconds)    # the clock's CLOCK_DEFAULT_SECONDS
        self.feed = BookFeed(store, self.book, "notifier_clock_game_dropped")
        self.position = 0               # the last envelope of the store folded: a restarted follow goes on
        self.supervisor = Supervisor("notifier-clock-low")
        self.lead_seconds, self.fraction, self.tick_seconds, self.now = lead_seconds, fraction, tick_seconds, now
        self.done: dict[str, None] = {}             # notification ids settled here (ordered, bounded)
        self._sending: dict[str, asyncio.Task] = {}

    def low_from(self, game: FollowedGame, owed: Owed) -> tuple[datetime, datetime] | None:
        """(from when the decision is low, when it is due); None when it is untimed."""
        due = game.due_at(owed)
        if due is None:
            return None
        allowance = (due - owed.since).total_seconds()
        return due - timedelta(seconds=min(self.lead_seconds, self.fraction * allowance)), due

    def low_now(self, now: datetime) -> list[tuple[str, Owed]]:
        found = []
        for game_id, game in list(self.book.followed.items()):
            for owed in game.owed.values():
                window = self.low_from(game, owed)
                if window is not None and window[0] <= now < window[1]:
                    found.append((game_id, owed))
        return found

    async def tick(self) -> int:
        """Start the warnings that are due now; how many were started."""
        started = 0
        for game_id, owed in self.low_now(self.now()):
            note = self._note(game_id, owed)
            if note is None or note.id in self.done or note.id in self._sending:
                continue
            await self.feed.catch_up(game_id)   # answered meanwhile?
            game = self.book.followed.get(game_id)
            if game is None or game.owed.get(owed.player) != owed:
                continue
            task = asyncio.create_task(self._send(note, game.due_at(owed) or self.now()))
            self._sending[note.id] = task
            task.add_done_callback(lambda _, key=note.id: self._sending.pop(key, None))
            started += 1
        return started

    def _note(self, game_id: str, owed: Owed) -> Notification | None:
        game = self.book.followed.get(game_id)
        if game is None or owed.player not in game.record.players:
            return None
        due = game.due_at(owed)
        bank = game.banks.get(owed.player)
        return Notification(CLOCK_LOW, owed.player, stream=f"game.{game_id}", seq=owed.since_seq,
                            time=self.now().isoformat().replace("+00:00", "Z"), game=game.record.game_name,
                            table_id=game_id, details={"due_at": due.isoformat() if due else None,
                                                       "bank_seconds": bank})

    async def _send(self, note: Notification, due: datetime) -> None:
        while True:
            try:
                outcome = await self.deliver(note)
                break
            except Busy as busy:    # another replica holds the claim: it sends, or we take over after its lease
                if self.now() + timedelta(seconds=busy.retry_after) >= due:
                    outcome = "busy"
                    break
                await asyncio.sleep(busy.retry_after)
            except Exception as problem:   # storage away: the next tick tries again while still low
                log.warning("notifier_clock_low_failed", notification_id=note.id, problem=repr(problem))
                return
        log.info("notifier_clock_low", notification_id=note.id, game_id=note.table_id, outcome=outcome)
        self.done[note.id] = None
        while len(self.done) > REMEMBERED:
            del self.done[next(iter(self.done))]

    async def follow(self) -> None:
        async for position, envelope in self.store.follow(self.position, "game.>"):
            await self.feed.fold(envelope)
            self.position = position
        raise ConnectionError("the follow of the game streams ended")

    def healthy(self) -> bool:
        return self.supervisor.healthy()

    async def run(self) -> None:
        """Follow the store and tick until cancelled (warnings in flight are cancelled too; their claims
        resume after the lease)."""
        self.supervisor.start("follow", self.follow)
        try:
            while True:
                await asyncio.sleep(self.tick_seconds)
                try:
                    await self.tick()
                except Exception as problem:   # the store is away for a moment: the next tick retries
                    log.warning("notifier_clock_low_tick_failed", problem=repr(problem))
        finally:
            await self.supervisor.stop()
            await cancel_and_wait(list(self._sending.values()))
