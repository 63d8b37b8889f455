"""The trials: one fault each, repeated under bounded load, then the checker's verdict.

A trial starts a fresh stack (`stack.ChaosStack`), puts load on it (board games through the lobby,
Trucker over its socket, and what the trial adds: idle tables the clock must play, or commands raced
through two adjudicators), waits `warmup`, then `repeats` times: injects its fault (which also undoes
it: the killed process is started again at once, as an orchestrator would; the paused one continued)
and measures the **recovery time**, from the fault's end until the stack is whole again: every
`/readyz` answers 200, a board command and a Trucker move are acknowledged again, every game that
ended is scored, and (with idle tables) the clock plays a default again. Then the load stops and
`checker.check` gives the verdict.

A trial may name a `KnownIssue`: a defect someone is fixing. Its count is then expected to be
non-zero; the trial reads KNOWN (not FAIL) when that is all that is wrong, and the table says so.
"""
from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Awaitable, Callable

from scoring.client import ScoringReader
from starbase_core.gamestream import ends_game

from starbase_chaos.checker import Verdict, check
from starbase_chaos.journal import ACKNOWLEDGED, BOARD, TRUCKER, Journal
from starbase_chaos.stack import SCORING_PREFIX, ChaosStack
from starbase_chaos.trucker_bots import TruckerLoad
from starbase_chaos.workload import BoardLoad, IdleTables, TwinLoad

RECOVERY_BOUND = 90.0          # a stack not whole again this long after a fault has not recovered
PASS, FAIL, KNOWN = "PASS", "FAIL", "KNOWN"
Inject = Callable[[ChaosStack], Awaitable[None]]


@dataclass(frozen=True)
class KnownIssue:
    count: str                  # the checker's count it makes non-zero (e.g. "refused_but_applied")
    why: str


@dataclass(frozen=True)
class Trial:
    name: str
    fault: str                  # what is done, in words, for the table
    inject: Inject
    repeats: int = 3
    nats_nodes: int = 1
    twin: bool = False          # a second adjudicator and lobby, and commands raced through both
    idle_tables: int = 0        # tables nobody plays (decision time 5 s): the clock owes them defaults
    quick: bool = False         # part of the bounded subset `make test` runs
    known_issue: KnownIssue | None = None


@dataclass(frozen=True)
class Scale:
    lanes: int = 2              # board tables playing at once
    trucker_tables: int = 1
    warmup: float = 6.0         # seconds of load before the first fault, at least
    ended_before_faults: int = 1    # games ended (and scored) before the first fault (waited ≤ 120 s)
    gap: float = 4.0            # seconds of load between faults
    repeats: int | None = None  # overrides each trial's own count (the quick subset uses fewer)


@dataclass
class TrialResult:
    trial: Trial
    verdict: Verdict = field(default_factory=Verdict)
    recoveries: list[float | None] = field(default_factory=list)
    still_missing: str = ""         # what was not back when a recovery ran out of time
    seconds: float = 0.0
    error: str = ""

    @property
    def problems(self) -> list[str]:
        found = self.verdict.failures()
        if any(r is None for r in self.recoveries):
            found.append(f"not whole again within {RECOVERY_BOUND:.0f} s: {self.still_missing}")
        if self.error:
            found.append(self.error)
        return found

    @property
    def status(self) -> str:
        problems = self.problems
        if not problems:
            return PASS
        known = self.trial.known_issue
        if known and not self.error and all(p.startswith(known.count + " ") for p in problems):
            return KNOWN
        return FAIL


async def run_trial(trial: Trial, workdir: Path, scale: Scale = Scale()) -> TrialResult:
    result = TrialResult(trial)
    began = time.monotonic()
    stack = ChaosStack(workdir / trial.name, nats_nodes=trial.nats_nodes, twin=trial.twin)
    try:
        await asyncio.to_thread(stack.start)
        await _exercise(trial, stack, scale, result)
    except Exception as problem:   # a harness or stack failure is reported as the trial's failure
        result.error = f"{type(problem).__name__}: {problem}"[:300]
    finally:
        await asyncio.to_thread(stack.stop)
        result.seconds = time.monotonic() - began
    return result


async def _exercise(trial: Trial, stack: ChaosStack, scale: Scale, result: TrialResult) -> None:
    journal, stop = Journal(), asyncio.Event()
    lobby = stack.lobby_url()
    idle = IdleTables(lobby, tables=trial.idle_tables)
    if trial.idle_tables:
        await idle.open()
    loads: list = [BoardLoad(lobby, journal, lanes=scale.lanes),
                   TruckerLoad(lobby, journal, tables=scale.trucker_tables)]
    if trial.twin:
        loads.append(TwinLoad((lobby, stack.lobby_url("lobby-2")), journal))
    running = [asyncio.create_task(load.run(stop)) for load in loads]
    store = await stack.store()
    redis = stack.boards()
    scoring = ScoringReader(redis, SCORING_PREFIX)
    try:
        await asyncio.sleep(scale.warmup)
        probe = Whole(stack, store, scoring, journal, idle.game_ids)
        await probe.until_games_ended(scale.ended_before_faults)     # so scoring has something to lose
        for _ in range(scale.repeats or trial.repeats):
            await trial.inject(stack)
            result.recoveries.append(await probe.recovery(since=time.time()))
            result.still_missing = result.still_missing or (probe.missing if result.recoveries[-1] is None else "")
            await asyncio.sleep(scale.gap)
        stop.set()
        await asyncio.wait_for(asyncio.gather(*running, return_exceptions=True), 60)
        if not await stack.wait_ready():
            raise RuntimeError("the stack is not ready at the end of the trial")
        result.verdict = await check(store, journal, scoring=scoring, extra_games=set(idle.game_ids))
    finally:
        stop.set()
        for task in running:
            task.cancel()
        await asyncio.gather(*running, return_exceptions=True)
        await store.close()
        await redis.aclose()


class Whole:
    """Is the stack whole again since a moment? (See the module's doc for what that means.)"""

    def __init__(self, stack: ChaosStack, store, scoring: ScoringReader, journal: Journal, idle_games: list[str]):
        self.stack, self.store, self.scoring, self.journal, self.idle_games = stack, store, scoring, journal, idle_games
        self._finished: set[str] = set()
        self.missing = ""

    async def recovery(self, since: float) -> float | None:
        """Seconds from `since` (a wall-clock time) until whole; None past RECOVERY_BOUND."""
        while time.time() - since < RECOVERY_BOUND:
            try:
                if await self._whole(since):
                    return time.time() - since
            except Exception as problem:       # the store or Redis is still coming back
                self.missing = f"the probe failed: {type(problem).__name__}"
            await asyncio.sleep(0.2)
        return None

    async def _whole(self, since: float) -> bool:
        fresh = {r.kind for r in self.journal.records[-2000:] if r.outcome == ACKNOWLEDGED and r.at >= since}
        if missing := {BOARD, TRUCKER} - fresh:
            self.missing = f"no {' or '.join(sorted(missing))} acknowledgement since"
            return False
        if not await asyncio.to_thread(self.stack.all_ready):
            self.missing = "a /readyz not 200"
            return False
        if self.idle_games and not await self._clock_played_since(since):
            self.missing = "no clock default since"
            return False
        self.missing = "an ended game not scored"
        return await self._all_ended_games_scored()

    async def until_games_ended(self, count: int, bound: float = 120.0) -> None:
        deadline = time.monotonic() + bound
        while time.monotonic() < deadline:
            await self._find_ended()
            if len(self._finished) >= count:
                return
            await asyncio.sleep(0.5)
        raise RuntimeError(f"fewer than {count} game(s) ended within {bound:.0f} s of load")

    async def _find_ended(self) -> None:
        for game_id in {r.game_id for r in self.journal.records if r.kind == BOARD} - self._finished:
            last = await self._last(game_id)
            if last is not None and ends_game(last):
                self._finished.add(game_id)

    async def _all_ended_games_scored(self) -> bool:
        await self._find_ended()
        for game_id in self._finished:
            if await self.scoring.result(game_id) is None:
                return False
        return True

    async def _clock_played_since(self, since: float) -> bool:
        for game_id in self.idle_games:
            last = await self._last(game_id)
            if last is not None and (last.command_id or "").startswith("clock:") \
                    and datetime.fromisoformat(last.time).timestamp() >= since:
                return True
        return False

    async def _last(self, game_id: str):
        # The stream's last seq, then a read from there: the port's public calls, never the whole stream.
        stream = f"game.{game_id}"
        last = await self.store.read(stream, max(await self.store.last_seq(stream), 1))
        return last[-1] if last else None
