"""Where a move's time goes, for a benchmark run (`TRUCKER_PROBE_FILE=<path>`; off by default).

When on, the service keeps, for the whole run, and writes as JSON to the file when it stops:
- **the event loop's lag**: a task asks to wake every `LAG_TICK` and records how late it woke (the time
  every ready callback of the loop waited at that moment: a GC pause, a long callback, or the process
  waiting for a CPU);
- **the cyclic collector's pauses**, per generation (`gc.callbacks`): how long each took, and how much
  of that was its own CPU work (the rest: the process waiting for a CPU);
- **the stages of a move**, each timed on its own: `decide_commit` (the engine's decision and the
  commit script's round trip, `TableService.apply`), `relay_wait` (until the events are in the stream,
  `Relay.wait_durable`), within it `append` (one `store.append`: the publish and JetStream's fsynced
  ack) and `fanout` (`TableHub.publish`: the NATS publish and this replica's sockets' queues), then
  `ack_queued` (from the ack's push to its socket's writer taking it), and `handled` (the socket
  message's arrival at the handler to its ack queued).

Nothing here changes what the service does: the probe wraps the methods above once, at startup, and
costs nothing when off. Samples are kept with the moment they ended, so the reader picks its window:
`bench_trucker_paced.py` (`BENCH_TRUCKER_PACED_PROBE=1`) prints `summary` over its steady window.
"""
from __future__ import annotations

import asyncio
import functools
import gc
import json
import time
from collections import Counter
from typing import Any

LAG_TICK = 0.005


class Probe:
    def __init__(self) -> None:
        # Every sample as (time.monotonic() when it ended, seconds): the reader picks its window.
        self.stages: dict[str, list[tuple[float, float]]] = {}
        self.lags: list[tuple[float, float]] = []
        self.gc: dict[int, list[tuple[float, float]]] = {0: [], 1: [], 2: []}
        self.gc_cpu: dict[int, list[tuple[float, float]]] = {0: [], 1: [], 2: []}
        self._gc_started: tuple[float, float] | None = None
        self._task: asyncio.Task | None = None

    def record(self, stage: str, seconds: float) -> None:
        self.stages.setdefault(stage, []).append((time.monotonic(), seconds))

    def timed(self, stage: str, method):
        """`method` (a coroutine function) with each call's duration recorded as `stage`."""
        @functools.wraps(method)
        async def timing(*args: Any, **kwargs: Any):
            started = time.perf_counter()
            try:
                return await method(*args, **kwargs)
            finally:
                self.record(stage, time.perf_counter() - started)
        return timing

    def start(self) -> None:
        gc.callbacks.append(self._on_gc)
        self._task = asyncio.get_running_loop().create_task(self._sample_lag())

    def stop(self) -> None:
        if self._on_gc in gc.callbacks:
            gc.callbacks.remove(self._on_gc)
        if self._task is not None:
            self._task.cancel()

    async def _sample_lag(self) -> None:
        while True:
            asked = time.perf_counter()
            await asyncio.sleep(LAG_TICK)
            self.lags.append((time.monotonic(), time.perf_counter() - asked - LAG_TICK))

    def _on_gc(self, phase: str, info: dict) -> None:
        # Wall time (what a move waits) and this thread's CPU time (the collector's own work: on a busy
        # machine the wall time also holds the moments the process waited for a CPU).
        if phase == "start":
            self._gc_started = (time.perf_counter(), time.thread_time())
        elif self._gc_started is not None:
            wall, cpu = self._gc_started
            generation = info["generation"]
            self.gc[generation].append((time.monotonic(), time.perf_counter() - wall))
            self.gc_cpu[generation].append((time.monotonic(), time.thread_time() - cpu))
            self._gc_started = None

    def write(self, path: str) -> None:
        with open(path, "w") as out:
            json.dump({"lag": self.lags, "gc": self.gc, "gc_cpu": self.gc_cpu, "stages": self.stages, "heap": _heap()}, out)


def summary(samples: dict, since: float = 0.0, until: float = float("inf")) -> dict:
    """Figures of what `Probe.write` wrote (read back as JSON), over the samples that ended in
    [since, until] (time.monotonic(), the same clock in every process of the machine)."""
    def window(pairs: list) -> list[float]:
        return [seconds for at, seconds in pairs if since <= at <= until]
    lags = window(samples["lag"])
    return {"lag": figures(lags) | {"over_10ms": sum(x > 0.010 for x in lags),
                                    "over_50ms": sum(x > 0.050 for x in lags)},
            "gc": {generation: figures(window(pauses)) for generation, pauses in samples["gc"].items()},
            "gc_cpu": {generation: figures(window(work)) for generation, work in samples["gc_cpu"].items()},
            "stages": {stage: figures(window(pairs)) for stage, pairs in samples["stages"].items()},
            "heap": samples["heap"]}


def figures(values: list[float]) -> dict:
    if not values:
        return {"count": 0}
    ordered = sorted(values)
    return {"count": len(ordered), "total_s": sum(ordered), "p50_ms": 1000 * ordered[len(ordered) // 2],
            "p99_ms": 1000 * ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))],
            "max_ms": 1000 * ordered[-1]}


def _heap() -> dict:
    """What the collector walks: its tracked objects (the frozen ones left out) per generation, and the
    commonest types among them."""
    counts = gc.get_count()
    kinds = Counter(type(thing).__name__ for thing in gc.get_objects())
    return {"tracked": sum(kinds.values()), "frozen": gc.get_freeze_count(), "pending": list(counts),
            "top": kinds.most_common(12)}


def install() -> Probe:
    """Wrap the stages of a move (once per process) and return the probe that records them."""
    from trucker import api, fanout, relay, tables

    probe = Probe()
    tables.TableService.apply = probe.timed("decide_commit", tables.TableService.apply)
    relay.Relay.wait_durable = probe.timed("relay_wait", relay.Relay.wait_durable)
    relay.Relay._append = probe.timed("append", relay.Relay._append)
    fanout.TableHub.publish = probe.timed("fanout", fanout.TableHub.publish)
    api.Connection._handle = probe.timed("handled", api.Connection._handle)

    # The ack's wait in its socket's queue: stamped when pushed, read when the writer encodes it.
    pushed: dict[int, float] = {}
    send, encode = api.Connection._send, api._json

    def stamped_send(connection: Any, item: dict) -> None:
        if item.get("kind") == "ack":
            pushed[id(item)] = time.perf_counter()
        send(connection, item)

    def timed_encode(item: Any) -> str:
        if (since := pushed.pop(id(item), None)) is not None:
            probe.record("ack_queued", time.perf_counter() - since)
        return encode(item)

    api.Connection._send = stamped_send
    api._json = timed_encode
    return probe
