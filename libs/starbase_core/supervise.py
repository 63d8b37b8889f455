"""Supervised background tasks: a task that dies is logged, restarted with back-off, and reported.

Every service runs work beside its request handlers (scoring's consumer, the lobby's projection and
live feed, the clock's follow, Trucker's hourglass watch). A bare `asyncio.create_task` that raises
dies silently: nothing restarts it, `/readyz` stays green and the error surfaces, if ever, at shutdown.
A `Supervisor` owns those tasks instead:

    supervisor = Supervisor("scoring")
    supervisor.start("consume", durable.run)              # called again after every failure
    supervisor.start("reconcile", reconcile, once=True)   # done when it returns; restarted only on failure
    async def ready() -> bool: return supervisor.healthy() and ...
    await supervisor.stop()                                # cancel every task and wait for it

A task is *down* from its failure until its restart (the back-off: `first_delay`, doubling up to
`max_delay`, back to `first_delay` once a run lasted `stable_after` seconds); `healthy()` is False
while any task is down, so a readiness probe says so. A long-running task that returns is a failure
too (it was meant to run for ever), unless the supervisor is stopping. Metrics:
`starbase_task_up{task}` and `starbase_task_restarts_total{task}`.
"""
from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable

import structlog
from prometheus_client import Counter, Gauge

log = structlog.get_logger(__name__)

TASK_UP = Gauge("starbase_task_up", "1 while a supervised background task runs (or finished its once-only work)",
                ["task"])
TASK_RESTARTS = Counter("starbase_task_restarts_total", "Restarts of supervised background tasks", ["task"])

RUNNING, DOWN, DONE = "running", "down", "done"


@dataclass
class TaskState:
    name: str
    state: str = RUNNING
    restarts: int = 0
    last_error: str = ""
    down_since: float | None = None      # monotonic time of the last failure while down
    task: asyncio.Task | None = field(default=None, repr=False)


class Supervisor:
    def __init__(self, name: str, *, first_delay: float = 0.1, max_delay: float = 5.0,
                 stable_after: float = 30.0, sleep: Callable[[float], Awaitable[None]] = asyncio.sleep):
        self.name = name
        self._sleep = sleep                  # how back-off waits (a test records the delays)
        self.first_delay, self.max_delay, self.stable_after = first_delay, max_delay, stable_after
        self.tasks: dict[str, TaskState] = {}
        self.stopping = False

    def start(self, name: str, work: Callable[[], Awaitable[None]], *, once: bool = False) -> TaskState:
        """Run `work()` under supervision; `work` is called anew for every restart."""
        if name in self.tasks and self.tasks[name].state != DONE:
            raise ValueError(f"task {name!r} is already supervised by {self.name}")
        state = self.tasks[name] = TaskState(name)
        state.task = asyncio.create_task(self._keep(state, work, once), name=f"{self.name}:{name}")
        return state

    def healthy(self) -> bool:
        """True when no task is down (each runs, or finished its once-only work)."""
        return not self.stopping and all(state.state != DOWN for state in self.tasks.values())

    def problems(self) -> dict[str, str]:
        """The tasks that are down, with how long and why: for logs and health pages."""
        now = time.monotonic()
        return {name: f"down {now - (state.down_since or now):.1f} s after {state.restarts} restart(s): "
                      f"{state.last_error}"
                for name, state in self.tasks.items() if state.state == DOWN}

    async def stop(self, grace: float = 0.0, patience: float | None = None) -> None:
        """Stop supervising: wait up to `grace` seconds for tasks that end by themselves (they watch a
        stop event of their own), then cancel the rest and wait for them (up to `patience` seconds:
        `cancel_and_wait`)."""
        self.stopping = True
        running = [state.task for state in self.tasks.values() if state.task is not None]
        if grace > 0 and running:
            await asyncio.wait(running, timeout=grace)
        await cancel_and_wait(running, STOP_PATIENCE if patience is None else patience)

    async def _keep(self, state: TaskState, work: Callable[[], Awaitable[None]], once: bool) -> None:
        label = f"{self.name}.{state.name}"
        delay = self.first_delay
        while True:
            began = time.monotonic()
            self._mark(state, RUNNING, label)
            try:
                await work()
            except asyncio.CancelledError:
                raise
            except Exception as problem:       # the point of supervision: log it, restart it
                if self.stopping:
                    return
                if time.monotonic() - began >= self.stable_after:
                    delay = self.first_delay     # it ran well for a while: a fresh failure, a short wait
                state.last_error = f"{type(problem).__name__}: {problem}"[:300]
                log.error("task_failed", task=label, restarts=state.restarts, retry_in=round(delay, 2),
                          exc_info=True)
            else:
                if once or self.stopping:
                    self._mark(state, DONE, label)
                    return
                state.last_error = "returned, but it should run until stopped"
                log.error("task_ended", task=label, restarts=state.restarts, retry_in=round(delay, 2))
            self._mark(state, DOWN, label)
            await self._sleep(delay)
            delay = min(delay * 2, self.max_delay)
            state.restarts += 1
            TASK_RESTARTS.labels(label).inc()
            log.info("task_restarting", task=label, restarts=state.restarts)

    @staticmethod
    def _mark(state: TaskState, new: str, label: str) -> None:
        if new == DOWN and state.state != DOWN:
            state.down_since = time.monotonic()
        elif new != DOWN:
            state.down_since = None
        state.state = new
        TASK_UP.labels(label).set(0 if new == DOWN else 1)


STOP_PATIENCE = 10.0   # seconds a stop asks tasks to end before it leaves the ones that will not


async def cancel_and_wait(tasks, patience: float = STOP_PATIENCE) -> None:
    """Cancel the tasks and wait until every one has ended (their errors are theirs: not raised here).

    A task still running after a moment is asked again: a cancellation can be lost (Python 3.11's
    asyncio.wait_for returns the inner result instead when it finishes in the same turn as the cancel,
    which nats-py's requests hit), and one lost cancel would otherwise hang a stop for ever. A task that
    still runs after `patience` seconds of asking is logged with where it waits and left behind: a
    shutdown that hangs helps nobody (the orchestrator kills the process at the end of its grace period,
    before anything after this step, such as moving pending events to the store, has run)."""
    tasks = [task for task in tasks if task is not None]
    pending = set(tasks)
    loop = asyncio.get_running_loop()
    give_up_at = loop.time() + patience
    while pending:
        for task in pending:
            task.cancel()
        _, pending = await asyncio.wait(pending, timeout=0.5)
        if pending and loop.time() >= give_up_at:
            log.error("tasks_would_not_stop", seconds=patience,
                      tasks={task.get_name(): _where(task) for task in pending})
            break
    await asyncio.gather(*(task for task in tasks if task.done()), return_exceptions=True)


def _where(task: asyncio.Task) -> str:
    """Where a suspended task waits: its coroutine and each one that awaits in turn, outermost first."""
    frames: list[str] = []
    awaited: Any = task.get_coro()
    while awaited is not None and len(frames) < 40:
        frame = getattr(awaited, "cr_frame", None) or getattr(awaited, "gi_frame", None)
        if frame is None:
            frames.append(type(awaited).__name__)
            break
        frames.append(f"{frame.f_code.co_name}:{frame.f_lineno}")
        awaited = getattr(awaited, "cr_await", None) or getattr(awaited, "gi_yieldfrom", None)
    return " -> ".join(frames)
