"""Trucker at human pace: 25 / 100 / 250 tables of 4 bots, each bot making one move every 1.5 s
(±50 %): a grab, then a place (or a return), and so on; at 250 tables, the 1,000 players of the
capacity target (issue 13: grab-to-ack p99 <= 50 ms).

The figure is grab-to-acknowledgement latency (an ack means the event is durable in JetStream) in the
steady state, p50 / p99 / max, and the share of grabs over 100 ms (the stalls). Each bot starts at a
random moment of its first pause, as players do; the first `WARMUP` seconds (every table's first
moves: cold views, the store's first look at each stream) are reported apart. Bounded:
`BENCH_TRUCKER_PACED_SECONDS` of play per size (default 10 s) after the warm-up (at most 25 s
to connect and 15 s for the last answers, so the three sizes fit `make bench`'s 240 s), sizes from
`BENCH_TRUCKER_PACED_TABLES` (default 25,100,250); one service process on loopback with its own
nats-server (fsync on every message) and redis-server. Figures only; nothing is judged. On a shared
machine the tail follows the machine's load: compare runs made side by side.

Side by side: `BENCH_TRUCKER_PACED_BEFORE=<a directory holding another `trucker` package>` (e.g. the
`services` directory of another checkout, or `git archive <commit> services/trucker` unpacked) runs each
size twice, first with the service from there ("before"), then with this checkout's ("after"), each on
fresh servers, with the same bots; only the service differs.

The bots: each is a player on its own WebSocket, sending the moves of the protocol and timing each grab
from just before its frame is written to its ack read. By default they speak WebSocket through a small
client of this file's own (`LeanSocket`: frames parsed off the transport, the table's events skipped
by their first bytes, unparsed), since their process shares the two cores with the service: a
player's client runs elsewhere. `BENCH_TRUCKER_PACED_CLIENT=websockets` uses the `websockets` library
as before (the same moves and timing; about 1.5 times the bots' CPU per move: 0.89-1.05 against
0.62-0.65 ms at 100 tables, separate runs).
"""
from __future__ import annotations

import asyncio
import base64
import json
import os
import random
import tempfile
import time
from contextlib import contextmanager
from urllib.parse import urlsplit

import bench_trucker_service as base
from bench_capacity import RUNNABLE, schedstat_seconds   # on a shared machine, the part of latency that is nobody's code
from starbase_core.seeds import JetStreamSeedVault
from starbase_core.servers import NatsServer, RedisServer
from starbase_core.store_jetstream import JetStreamEventStore
from trucker_rules.ship import Placed, Ship

PACE_SECONDS = 1.5
EVENT_PREFIX = '{"v":1,"kind":"event"'
WARMUP = 3.0
SIZES = [int(n) for n in os.environ.get("BENCH_TRUCKER_PACED_TABLES", "25,100,250").split(",")]
PLAY_SECONDS = float(os.environ.get("BENCH_TRUCKER_PACED_SECONDS", 10))
BEFORE = os.environ.get("BENCH_TRUCKER_PACED_BEFORE")      # another `trucker` package to compare with
CLIENT = os.environ.get("BENCH_TRUCKER_PACED_CLIENT", "lean")
REPLICAS = [int(n) for n in os.environ.get("BENCH_TRUCKER_PACED_REPLICAS", "1").split(",")]
PROBE = os.environ.get("BENCH_TRUCKER_PACED_PROBE", "") not in ("", "0")
LAG_TICK = 0.005


class PacedBot(base.SocketBot):
    """One move per pause: grab; then place what it holds (or return it); then grab again. Records
    each grab's latency with the moment it was sent (`timed`)."""

    started: float | None = None

    def __init__(self, url: str, player: str):
        super().__init__(url, player)
        self.timed: list[tuple[float, float]] = []
        self.holding: str | None = None

    async def run(self, start, deadline_holder, connected) -> None:
        self._deadline = deadline_holder
        await super().run(start, deadline_holder, connected)

    async def _read(self, socket) -> None:
        # The table's events are not parsed (this bot follows only its own answers), so the bots' process,
        # which shares the machine with the service, costs less per move (a player's client is elsewhere).
        async for raw in socket:
            if isinstance(raw, str) and raw.startswith(EVENT_PREFIX):
                continue
            message = json.loads(raw)
            if (waiter := self.pending.pop(message.get("id"), None)) is not None:
                waiter.set_result(message)

    async def _turn(self, socket, ship) -> None:
        if PacedBot.started is None:
            PacedBot.started = time.monotonic()
        await asyncio.sleep(random.uniform(0, PACE_SECONDS))      # the first pause, at a random phase
        while time.monotonic() < self._deadline[0]:
            await self._move(socket, ship)
            await asyncio.sleep(PACE_SECONDS * random.uniform(0.5, 1.5))

    async def _move(self, socket, ship) -> None:
        if self.holding is None:
            sent, began = time.monotonic(), time.perf_counter()
            answer = await self._send(socket, "grab_face_down")
            if answer["kind"] == "ack":
                self.timed.append((sent, time.perf_counter() - began))
                self.holding = answer["events"][0]["data"]["component"]
            elif answer.get("error", {}).get("code") == "HAND_FULL":
                await self._send(socket, "return")
            return
        spot = base.spot_for(ship, self.holding)
        if spot is not None:
            placed = await self._send(socket, "place", square=list(spot[0]), rotation=spot[1])
            if placed["kind"] == "ack":
                ship.tiles[spot[0]] = Placed(self.holding, spot[1])
                self.holding = None
                return
        await self._send(socket, "return")
        self.holding = None


class LeanSocket(asyncio.Protocol):
    """The client side of a WebSocket, as little of it as these bots need (RFC 6455): the upgrade, text
    frames out (masked, as a client must), frames in parsed off the transport's bytes, pings answered.
    Each whole text message goes to `on_text` as bytes."""

    def __init__(self, on_text):
        self.on_text = on_text
        self.transport: asyncio.Transport | None = None
        self.upgraded: asyncio.Future = asyncio.get_running_loop().create_future()
        self._buffer = bytearray()
        self._fragments: list[bytes] = []

    @classmethod
    async def connect(cls, url: str, on_text) -> "LeanSocket":
        parts = urlsplit(url)
        loop = asyncio.get_running_loop()
        _, socket = await loop.create_connection(lambda: cls(on_text), parts.hostname, parts.port)
        key = base64.b64encode(random.randbytes(16)).decode()
        socket.transport.write((f"GET {parts.path}?{parts.query} HTTP/1.1\r\nHost: {parts.netloc}\r\n"
                                f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                                "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        await asyncio.wait_for(socket.upgraded, 90)
        return socket

    def connection_made(self, transport) -> None:
        self.transport = transport

    def connection_lost(self, exc) -> None:
        if not self.upgraded.done():
            self.upgraded.set_exception(ConnectionError("the socket closed"))

    def data_received(self, data: bytes) -> None:
        self._buffer += data
        if not self.upgraded.done():
            head, found, rest = bytes(self._buffer).partition(b"\r\n\r\n")
            if not found:
                return
            if b" 101 " not in head.split(b"\r\n", 1)[0]:
                self.upgraded.set_exception(ConnectionError(head.split(b"\r\n", 1)[0].decode()))
                return
            self._buffer = bytearray(rest)
            self.upgraded.set_result(None)
        self._frames()

    def _frames(self) -> None:
        buffer, at = self._buffer, 0
        while len(buffer) - at >= 2:
            first, second = buffer[at], buffer[at + 1]
            size, start = second & 0x7F, at + 2
            if size == 126:
                if len(buffer) - at < 4:
                    break
                size, start = int.from_bytes(buffer[at + 2:at + 4], "big"), at + 4
            elif size == 127:
                if len(buffer) - at < 10:
                    break
                size, start = int.from_bytes(buffer[at + 2:at + 10], "big"), at + 10
            if len(buffer) - start < size:      # (a server's frames are never masked)
                break
            self._frame(first & 0x0F, bool(first & 0x80), bytes(buffer[start:start + size]))
            at = start + size
        del buffer[:at]

    def _frame(self, opcode: int, last: bool, payload: bytes) -> None:
        if opcode in (0, 1, 2):                 # a message, maybe in fragments
            self._fragments.append(payload)
            if last:
                message, self._fragments = b"".join(self._fragments), []
                self.on_text(message)
        elif opcode == 9:                       # ping: pong with its payload
            self._write(0xA, payload)
        elif opcode == 8:                       # close: answer it and go
            self._write(0x8, payload[:2])
            self.transport.close()

    def _write(self, opcode: int, payload: bytes) -> None:
        size = len(payload)
        if size < 126:
            head = bytes((0x80 | opcode, 0x80 | size))
        elif size < 65536:
            head = bytes((0x80 | opcode, 0x80 | 126)) + size.to_bytes(2, "big")
        else:
            head = bytes((0x80 | opcode, 0x80 | 127)) + size.to_bytes(8, "big")
        mask = random.randbytes(4)
        masked = (int.from_bytes(payload, "big") ^ int.from_bytes((mask * (size // 4 + 1))[:size], "big"))
        self.transport.write(head + mask + masked.to_bytes(size, "big"))

    def send_text(self, text: str) -> None:
        self._write(0x1, text.encode())

    def close(self) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self._write(0x8, (1000).to_bytes(2, "big"))
            self.transport.close()


EVENT_BYTES = EVENT_PREFIX.encode()


class LeanPacedBot(PacedBot):
    """The same player on `LeanSocket`: its answers parsed, the table's events skipped unparsed."""

    def __init__(self, url: str, player: str):
        super().__init__(url, player)
        self._welcome: asyncio.Future | None = None

    def _on_text(self, raw: bytes) -> None:
        if raw.startswith(EVENT_BYTES):
            return
        message = json.loads(raw)
        if self._welcome is not None and not self._welcome.done():
            self._welcome.set_result(message)
        elif (waiter := self.pending.pop(message.get("id"), None)) is not None:
            waiter.set_result(message)

    async def run(self, start, deadline_holder, connected) -> None:
        self._deadline = deadline_holder
        self._welcome = asyncio.get_running_loop().create_future()
        socket = await LeanSocket.connect(self.url, self._on_text)
        try:
            welcome = await asyncio.wait_for(self._welcome, 90)
            connected[0] += 1
            mine = welcome["view"]["players"][self.player]["ship"]
            ship = Ship(mine["board"], {tuple(t["square"]): Placed(t["component"], t["rotation"])
                                        for t in mine["tiles"]})
            await start.wait()
            while time.monotonic() < deadline_holder[0]:
                await self._turn(socket, ship)
        finally:
            socket.close()

    async def _send(self, socket, op: str, **fields) -> dict:
        self.counter += 1
        message_id = str(self.counter)
        waiter = self.pending[message_id] = asyncio.get_running_loop().create_future()
        socket.send_text(json.dumps({"v": 1, "kind": "move", "id": message_id, "op": op, **fields}))
        answer = await asyncio.wait_for(waiter, 60)
        if answer["kind"] == "ack":
            self.acked += 1
        else:
            self.refused += 1
        return answer


def _summary(latencies: list[float]) -> str:
    if not latencies:
        return "no grabs"
    over = sum(x > 0.1 for x in latencies) / len(latencies)
    return (f"p50 {1000 * base.percentile(latencies, .5):.1f}  p99 {1000 * base.percentile(latencies, .99):.1f}  "
            f"max {1000 * max(latencies):.1f} ms; over 100 ms: {over:.1%} of {len(latencies)} grabs")


async def _script_calls(url: str) -> int:
    """Redis scripts run so far (EVALSHA and EVAL, from INFO commandstats)."""
    from redis.asyncio import Redis
    client = Redis.from_url(url)
    try:
        stats = await client.info("commandstats")
    finally:
        await client.aclose()
    return sum(int(stats.get(f"cmdstat_{name}", {}).get("calls", 0)) for name in ("evalsha", "eval"))


async def _servers_cpu(pids: dict[str, int]) -> dict[str, tuple[int, float]]:
    """The CPU each server had used when play began (the bots' first move), to count theirs during play."""
    while PacedBot.started is None:
        await asyncio.sleep(0.05)
    return {name: (pid, base._cpu_seconds(pid)) for name, pid in pids.items()}


@contextmanager
def _service_from(directory: str | None):
    """The service process started meanwhile imports `trucker` from `directory` (None: this checkout's)."""
    if directory is None:
        yield
        return
    before = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (os.path.abspath(directory), before) if p)
    try:
        yield
    finally:
        if before is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = before


def _service_pids() -> list[int]:
    """The service processes this bench started (children running `-m trucker`)."""
    me, found = os.getpid(), []
    for task in os.listdir(f"/proc/{me}/task"):
        with open(f"/proc/{me}/task/{task}/children") as children:
            for pid in children.read().split():
                try:
                    with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                        if b"-m\0trucker" in cmdline.read():
                            found.append(int(pid))
                except FileNotFoundError:
                    continue
    return found


async def _bots_lag(lags: list[tuple[float, float]]) -> None:
    """The bots' own event loop's lag (how late a 5 ms timer wakes): a late bot loop reads its acks late,
    and that delay would count in grab-to-ack as the service's."""
    while True:
        asked = time.perf_counter()
        await asyncio.sleep(LAG_TICK)
        lags.append((time.monotonic(), time.perf_counter() - asked - LAG_TICK))


async def _steady_cpu(bots: list, pids: dict[str, int]) -> dict[str, float | int]:
    """CPU per acknowledged move of each process in the steady window (the `PLAY_SECONDS` after the
    warm-up, while every bot plays): no connections, first reads or last answers in it, so the figure
    is the cost of a move at this pace, less moved by how many moves a busy machine let through."""
    while PacedBot.started is None:
        await asyncio.sleep(0.05)
    await asyncio.sleep(max(0.0, PacedBot.started + WARMUP - time.monotonic()))
    processes = {"service": _service_pids(), "bots": [os.getpid()], **{name: [pid] for name, pid in pids.items()}}
    before = {name: sum(map(base._cpu_seconds, found)) for name, found in processes.items() if found}
    waited = {name: sum(schedstat_seconds(pid, RUNNABLE) for pid in found) for name, found in processes.items() if found}
    acked = sum(bot.acked for bot in bots)
    await asyncio.sleep(PLAY_SECONDS)
    after = {name: sum(map(base._cpu_seconds, found)) for name, found in processes.items() if found}
    moves = max(1, sum(bot.acked for bot in bots) - acked)
    return {"moves": moves, **{name: (after[name] - before[name]) / moves for name in before},
            "waited": {name: (sum(schedstat_seconds(pid, RUNNABLE) for pid in processes[name]) - waited[name]) / PLAY_SECONDS
                       for name in waited}}


async def one_size(tables: int, label: str = "", service_dir: str | None = None, replicas: int = 1) -> None:
    PacedBot.started = None
    with tempfile.TemporaryDirectory() as scratch, NatsServer(workdir=scratch) as nats, RedisServer() as redis:
        probe_files = [os.path.join(scratch, f"probe-{n}.json") for n in range(replicas)] if PROBE else None
        bots_lags: list[tuple[float, float]] = []
        lag_watch = asyncio.create_task(_bots_lag(bots_lags))
        store = await JetStreamEventStore.connect(nats.url)
        vault = await JetStreamSeedVault(store._nc).ensure()
        games = await base.create_games(store, vault, tables)
        bots: list[PacedBot] = []

        def make(url: str, player: str) -> PacedBot:
            bots.append((PacedBot if CLIENT == "websockets" else LeanPacedBot)(url, player))
            return bots[-1]
        scripts_before = await _script_calls(redis.url)
        appends_before = (await store._js.stream_info(store.name)).state.messages
        servers = {"nats-server": nats.process.pid, "redis-server": redis.process.pid}
        watch = asyncio.create_task(_servers_cpu(servers))
        steady_watch = asyncio.create_task(_steady_cpu(bots, servers))
        with _service_from(service_dir):
            figures = await base.run_service(nats.url, redis.url, games, bot_class=make, replicas=replicas,
                                             probe_files=probe_files)
        lag_watch.cancel()
        if not watch.done():        # no bot ever moved
            watch.cancel()
        steady_cpu = steady_watch.result() if steady_watch.done() and not steady_watch.exception() else None
        if not steady_watch.done():
            steady_watch.cancel()
        servers_cpu = {name: base._cpu_seconds(pid) - before
                       for name, (pid, before) in (watch.result() if watch.done() and not watch.cancelled() else {}).items()}
        scripts = await _script_calls(redis.url) - scripts_before
        appends = (await store._js.stream_info(store.name)).state.messages - appends_before
        await store.close()
        began = PacedBot.started or 0.0
        probes = [_read_probe(path) for path in probe_files or []]
    window = (began + WARMUP, began + WARMUP + PLAY_SECONDS)
    warm = [lat for bot in bots for sent, lat in bot.timed if sent < began + WARMUP]
    steady = [lat for bot in bots for sent, lat in bot.timed if sent >= began + WARMUP]
    print(f"{label}{tables} tables ({4 * tables} players, {replicas} service process{'es' if replicas > 1 else ''}): {figures['acked']} moves acknowledged "
          f"({figures['acked'] / figures['elapsed']:.0f}/s), {figures['refused']} refused, "
          f"{figures['failed_bots']} bots failed; service CPU {1000 * figures['cpu'] / max(1, figures['acked']):.2f} ms "
          f"per move ({figures['cpu'] / figures['elapsed']:.0%} of one core); the bots' own process "
          f"{1000 * figures['bots_cpu'] / max(1, figures['acked']):.2f} ms per move "
          f"({figures['bots_cpu'] / figures['elapsed']:.0%} of one core); load average {os.getloadavg()[0]:.1f}",
          flush=True)
    acked = max(1, figures["acked"])
    print("  the servers during play: " + ", ".join(
        f"{name} {1000 * cpu / acked:.2f} ms per move ({cpu / figures['elapsed']:.0%} of one core)"
        for name, cpu in servers_cpu.items()), flush=True)
    print(f"  per acknowledged move: {scripts / acked:.2f} Redis script calls, {appends / acked:.2f} JetStream "
          f"appends (round trips on the path of a move, whatever the machine's load)", flush=True)
    if steady_cpu is not None:
        shares = [(name, 1000 * steady_cpu[name]) for name in ("service", "bots", "nats-server", "redis-server")
                  if name in steady_cpu]
        print(f"  CPU per acknowledged move in the steady {PLAY_SECONDS:.0f} s ({steady_cpu['moves']} moves): "
              + ", ".join(f"{name} {ms:.2f} ms" for name, ms in shares)
              + f"; all four {sum(ms for _, ms in shares):.2f} ms", flush=True)
        print("  waiting for a CPU (runnable, not running; seconds per second of the steady window): "
              + ", ".join(f"{name} {share:.2f}" for name, share in steady_cpu["waited"].items()), flush=True)
    print(f"  grab-to-ack, steady: {_summary(steady)}", flush=True)
    print(f"  grab-to-ack, first {WARMUP:.0f} s: {_summary(warm)}", flush=True)
    lags = [seconds for at, seconds in bots_lags if window[0] <= at <= window[1]]
    if lags:
        print(f"  the bots' event loop, steady: lag p99 {1000 * base.percentile(lags, .99):.1f}  max "
              f"{1000 * max(lags):.1f} ms", flush=True)
    for replica, samples in enumerate(probes):
        _print_probe(f"replica {replica + 1} of {replicas}" if replicas > 1 else "the service", samples, window)


def _read_probe(path: str) -> dict | None:
    try:
        with open(path) as found:
            return json.load(found)
    except FileNotFoundError:     # a service without the probe (an older checkout)
        return None


def _print_probe(name: str, samples: dict | None, window: tuple[float, float]) -> None:
    """Where the service's time went in the steady window (`trucker.probe`)."""
    if samples is None:
        print(f"  {name}: no probe file (a service without `trucker.probe`)", flush=True)
        return
    from trucker.probe import summary
    found = summary(samples, *window)

    def short(figures: dict) -> str:
        if not figures.get("count"):
            return "none"
        return (f"{figures['count']}× p50 {figures['p50_ms']:.1f} p99 {figures['p99_ms']:.1f} "
                f"max {figures['max_ms']:.1f} ms")
    lag = found["lag"]
    print(f"  {name}, steady: loop lag {short(lag)} ({lag.get('over_10ms', 0)} over 10 ms, "
          f"{lag.get('over_50ms', 0)} over 50 ms)", flush=True)
    print("    GC pauses: " + "; ".join(f"gen {generation} {short(f)}" + (f", {1000 * f['total_s']:.0f} ms in all"
                                                                          if f.get("count") else "")
                                      for generation, f in found["gc"].items()), flush=True)
    print("    GC CPU: " + "; ".join(f"gen {generation} {short(f)}" for generation, f in found["gc_cpu"].items()),
          flush=True)
    for stage in ("handled", "decide_commit", "relay_wait", "append", "fanout", "ack_queued"):
        if stage in found["stages"]:
            print(f"    {stage}: {short(found['stages'][stage])}", flush=True)
    heap = found["heap"]
    print(f"    heap at stop: {heap['tracked']} tracked objects ({heap['frozen']} frozen); "
          + ", ".join(f"{kind} {count}" for kind, count in heap["top"][:6]), flush=True)


async def main_async() -> None:
    base.SERVICE_SECONDS = WARMUP + PLAY_SECONDS
    base.CONNECT_SECONDS, base.DRAIN_SECONDS = 25.0, 15.0
    print(f"paced Trucker tables: 4 bots each, one move per {PACE_SECONDS} s (±50 %), {WARMUP:.0f} s warm-up "
          f"then {PLAY_SECONDS:.0f} s measured per size; bots on the {CLIENT} client; load average now "
          f"{os.getloadavg()[0]:.1f}", flush=True)
    for tables in SIZES:
        for replicas in REPLICAS:
            if BEFORE:
                await one_size(tables, f"before ({BEFORE}): ", BEFORE, replicas)
                await one_size(tables, "after (this checkout): ", replicas=replicas)
            else:
                await one_size(tables, replicas=replicas)


def main() -> None:
    try:
        import uvloop
        uvloop.run(main_async())
    except ImportError:
        asyncio.run(main_async())


if __name__ == "__main__":
    main()
