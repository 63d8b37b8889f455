"""A supervised task that dies is restarted with back-off and reported as down meanwhile."""
import asyncio

from prometheus_client import REGISTRY
from structlog.testing import capture_logs

from starbase_core.supervise import DONE, DOWN, RUNNING, Supervisor


async def until(condition, timeout: float = 5.0) -> None:
    async def poll():
        while not condition():
            await asyncio.sleep(0.005)
    await asyncio.wait_for(poll(), timeout)


def up_gauge(label: str) -> float | None:
    return REGISTRY.get_sample_value("starbase_task_up", {"task": label})


async def test_a_task_that_fails_is_restarted_and_runs_again():
    calls = []
    forever = asyncio.Event()

    async def flaky():
        calls.append(1)
        if len(calls) <= 2:
            raise ConnectionError("redis went away")
        await forever.wait()

    supervisor = Supervisor("t1", first_delay=0.01)
    state = supervisor.start("consume", flaky)
    await until(lambda: len(calls) == 3)
    assert state.state == RUNNING and state.restarts == 2
    assert supervisor.healthy() and supervisor.problems() == {}
    assert "redis went away" in state.last_error
    assert REGISTRY.get_sample_value("starbase_task_restarts_total", {"task": "t1.consume"}) == 2
    await supervisor.stop()


async def test_a_task_is_down_and_unhealthy_until_it_is_restarted():
    supervisor = Supervisor("t2", first_delay=60)       # the restart is far away: it stays down

    async def broken():
        raise RuntimeError("cannot follow the store")

    state = supervisor.start("follow", broken)
    await until(lambda: state.state == DOWN)
    assert not supervisor.healthy()
    assert "cannot follow the store" in supervisor.problems()["follow"]
    assert up_gauge("t2.follow") == 0
    await supervisor.stop()
    assert state.restarts == 0


async def test_a_long_running_task_that_returns_is_a_failure_and_is_restarted():
    runs = []
    forever = asyncio.Event()

    async def returns_once():
        runs.append(1)
        if len(runs) == 1:
            return
        await forever.wait()

    supervisor = Supervisor("t3", first_delay=0.01)
    state = supervisor.start("watch", returns_once)
    await until(lambda: len(runs) == 2)
    assert state.restarts == 1 and "returned" in state.last_error
    await supervisor.stop()


async def test_once_only_work_is_done_when_it_returns_and_retried_when_it_fails():
    attempts = []

    async def reconcile():
        attempts.append(1)
        if len(attempts) == 1:
            raise ConnectionError("store unreachable")

    supervisor = Supervisor("t4", first_delay=0.01)
    state = supervisor.start("reconcile", reconcile, once=True)
    await until(lambda: state.state == DONE)
    assert len(attempts) == 2 and supervisor.healthy()
    assert up_gauge("t4.reconcile") == 1
    await asyncio.sleep(0.05)
    assert len(attempts) == 2                            # done means done: never run again
    await supervisor.stop()


async def test_back_off_doubles_up_to_its_ceiling():
    slept: list[float] = []

    async def recording_sleep(delay):
        slept.append(delay)
        await asyncio.sleep(0)

    async def always_fails():
        raise ValueError("no")

    supervisor = Supervisor("t5", first_delay=0.01, max_delay=0.04, sleep=recording_sleep)
    state = supervisor.start("loop", always_fails)
    await until(lambda: state.restarts >= 5)
    await supervisor.stop()
    assert slept[:5] == [0.01, 0.02, 0.04, 0.04, 0.04]


async def test_stop_cancels_every_task_and_restarts_nothing():
    started = []

    async def endless():
        started.append(1)
        await asyncio.Event().wait()

    supervisor = Supervisor("t6", first_delay=0.01)
    states = [supervisor.start(name, endless) for name in ("a", "b")]
    await until(lambda: len(started) == 2)
    await supervisor.stop()
    assert all(state.task.done() for state in states)
    await asyncio.sleep(0.05)
    assert len(started) == 2 and not supervisor.healthy()


async def test_stop_asks_again_when_a_task_loses_its_cancellation():
    """Python 3.11's asyncio.wait_for can swallow a cancel that races its result (nats-py requests hit
    it): the task carries on as if never asked. The stop must still end."""
    cancels_seen = []

    async def swallows_the_first_cancel():
        while True:
            try:
                await asyncio.Event().wait()
            except asyncio.CancelledError:
                cancels_seen.append(1)
                if len(cancels_seen) > 1:
                    raise
                asyncio.current_task().uncancel()

    supervisor = Supervisor("t8")
    state = supervisor.start("watch", swallows_the_first_cancel)
    await asyncio.sleep(0.01)
    await asyncio.wait_for(supervisor.stop(), timeout=5)
    assert state.task.done() and len(cancels_seen) == 2


async def test_stop_with_grace_lets_a_task_finish_on_its_own_stop_signal():
    finished = []
    stop = asyncio.Event()

    async def graceful():
        await stop.wait()
        await asyncio.sleep(0.01)            # the work in hand
        finished.append(1)

    supervisor = Supervisor("t7")
    state = supervisor.start("clock", graceful)
    stop.set()
    await supervisor.stop(grace=5)
    assert finished == [1] and state.state == DONE


async def test_stop_leaves_a_task_that_will_not_end_and_names_where_it_waits():
    """A task that swallows every cancel must not hang the service's shutdown for ever (the steps after
    it, such as moving pending events to the store, would never run): the stop gives up after its
    patience and logs the task with the place it waits."""
    let_go = asyncio.Event()

    async def parked_in_a_lock_wait():
        await let_go.wait()

    async def will_not_stop():
        while not let_go.is_set():
            try:
                await parked_in_a_lock_wait()
            except asyncio.CancelledError:
                asyncio.current_task().uncancel()

    supervisor = Supervisor("t9")
    state = supervisor.start("stubborn", will_not_stop)
    await asyncio.sleep(0.01)
    with capture_logs() as logs:
        await asyncio.wait_for(supervisor.stop(patience=0.6), timeout=10)
    assert not state.task.done()
    [entry] = [e for e in logs if e["event"] == "tasks_would_not_stop"]
    where = entry["tasks"]["t9:stubborn"]
    assert "will_not_stop" in where and "parked_in_a_lock_wait" in where
    let_go.set()
    await asyncio.wait_for(state.task, timeout=5)
