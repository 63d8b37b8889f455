"""Fan-out: N WebSockets watching one game, at N = 100, 1,000 and 5,000 (BENCH_FANOUT_SOCKETS).

The stack as processes on loopback (NATS with JetStream, Redis, one adjudicator, one lobby), a fresh one
for each N (a lobby reuses the memory an earlier crowd freed); the sockets are anonymous spectators of a
public one-seat Testjack game, opened by this process. For each N:

- connect: N sockets opened at once (at most CONNECTING handshakes in flight), each until its welcome
  and the game's backlog arrived; then all closed and reopened with `?after=<last seq>`: the reconnect;
- idle memory: the lobby's RSS with the N sockets open and idle, less its RSS before, per socket;
- pushes: EVENTS commands, one every PACE seconds; command → push latency over every (socket, event);
- lobby CPU per (socket × event): the lobby's CPU over the pushes, less the same commands' CPU with no
  socket watching (measured first), over N × EVENTS; and the lobby's CPU per connect and reconnect;
- the kernel's floor: a bare `send` of one frame to each of N loopback sockets, from a process that
  does nothing else (what µs/push cannot go under: on loopback the send also delivers to the reader).

The sockets' side runs in this process on the same two cores (a bare client: handshake by hand, frames
parsed without a library, on uvloop when it is installed), so latencies include its own reading: read
them as an upper bound. Figures are printed, never judged.

BENCH_FANOUT_BEFORE=<dir>: the same measurements are also made, just before, with the services found in
<dir> (a copy of an older `services/` holding `lobby/` and `adjudicator/`, and `../proto` beside it:
`git archive main services/lobby services/adjudicator proto | tar -x -C /tmp/old`, then
BENCH_FANOUT_BEFORE=/tmp/old/services), each lobby on a stack of its own, so that the two are compared
on the same machine's load.

Then the largest N again on a stack with BENCH_FANOUT_SCALE_OUT lobby replicas (2; 0 or 1: not run),
and as many adjudicators, the sockets dealt to them in turn as a load balancer would: the scale-out on
one box (each replica sends to its share of the crowd); CPU and memory are the lobbies' together.
"""
from __future__ import annotations

import asyncio
import base64
import gc
import inspect
import os
import re
import selectors
import socket
import tempfile
import time
from pathlib import Path
from unittest.mock import patch
from urllib.parse import urlsplit

import httpx

from bench_capacity import RUNNING, Stack, cpu_seconds, schedstat_seconds   # same directory: run as a script
from bench_lobby import one_player_game
from starbase_core.descriptors import raise_open_files_limit
from starbase_core.servers import NatsServer, RedisServer

SIZES = [int(x) for x in os.environ.get("BENCH_FANOUT_SOCKETS", "100,1000,5000").split(",")]
EVENTS = int(os.environ.get("BENCH_FANOUT_EVENTS", 20))
PACE = float(os.environ.get("BENCH_FANOUT_PACE", 0.25))
CONNECTING = 200
TIMEOUT = 60.0
BEFORE = os.environ.get("BENCH_FANOUT_BEFORE", "")
SCALE_OUT = int(os.environ.get("BENCH_FANOUT_SCALE_OUT", 2))


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def lobbies_rss(pids: list[int]) -> int:
    return sum(rss_kib(pid) for pid in pids)


def lobbies_cpu(pids: list[int]) -> float:
    return sum(fine_cpu_seconds(pid) for pid in pids)


def fine_cpu_seconds(pid: int) -> float:
    """The CPU time of every thread of `pid` to the ns (schedstat), where `/proc/<pid>/stat` counts 10 ms
    ticks: 100 sockets × 20 events are 2,000 pushes, and one tick would be 5 µs of each."""
    return schedstat_seconds(pid, RUNNING) if os.path.exists(f"/proc/{pid}/schedstat") else cpu_seconds(pid)


def pick(samples: list[float], q: float) -> float:
    return samples[min(len(samples) - 1, int(q * len(samples)))] * 1000


EVENT = re.compile(rb'^\{"v":1,"kind":"event","event":\{"stream":"[^"]*","seq":(\d+)')


class Watcher(asyncio.Protocol):
    """One spectator socket, as lean a client as can be (so that N of them in this process leave the
    cores to the lobby): a WebSocket handshake by hand, unmasked server frames parsed, the arrival
    time of each seq noted. Leaving is dropping the connection, as a phone going out of coverage does."""

    def __init__(self) -> None:
        self.arrived: dict[int, float] = {}
        self.last = 0
        self.transport: asyncio.Transport | None = None
        self._buffer = b""
        self._upgraded = False
        self._until = 0
        self._caught_up: asyncio.Future | None = None

    async def open(self, url: str, gate: asyncio.Semaphore, until_seq: int) -> None:
        """Connect with `?after=<last seq seen>` and wait for the welcome and what was missed."""
        address = urlsplit(url)
        async with gate:
            loop = asyncio.get_running_loop()
            self._buffer, self._upgraded, self._until = b"", False, until_seq
            self._caught_up = loop.create_future()
            await loop.create_connection(lambda: self, address.hostname, address.port)
            key = base64.b64encode(os.urandom(16)).decode()
            assert self.transport is not None
            self.transport.write(f"GET {address.path}?after={self.last} HTTP/1.1\r\nHost: {address.netloc}\r\n"
                                 f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                                 f"Sec-WebSocket-Version: 13\r\n\r\n".encode())
            await asyncio.wait_for(self._caught_up, TIMEOUT)

    def connection_made(self, transport) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self._buffer += data
        if not self._upgraded:
            head, found, rest = self._buffer.partition(b"\r\n\r\n")
            if not found:
                return
            if not head.startswith(b"HTTP/1.1 101"):
                self._fail(RuntimeError(head.split(b"\r\n")[0].decode()))
                return
            self._upgraded, self._buffer = True, rest
        while len(self._buffer) >= 2:
            length, start = self._buffer[1] & 0x7F, 2
            if length == 126:
                length, start = int.from_bytes(self._buffer[2:4], "big"), 4
            elif length == 127:
                length, start = int.from_bytes(self._buffer[2:10], "big"), 10
            if len(self._buffer) < start + length:
                return
            opcode = self._buffer[0] & 0x0F
            payload, self._buffer = self._buffer[start:start + length], self._buffer[start + length:]
            if opcode == 0x9 and self.transport is not None:    # a ping: pong, masked with a zero key
                self.transport.write(bytes([0x8A, 0x80 | len(payload)]) + b"\0\0\0\0" + payload)
            if found := EVENT.match(payload):
                self.last = int(found.group(1))
                self.arrived[self.last] = time.perf_counter()
            if self.last >= self._until and self._caught_up is not None and not self._caught_up.done():
                self._caught_up.set_result(None)

    def connection_lost(self, exc) -> None:
        self._fail(ConnectionError("the lobby closed the socket"))

    def _fail(self, error: Exception) -> None:
        if self._caught_up is not None and not self._caught_up.done():
            self._caught_up.set_exception(error)

    async def close(self) -> None:
        if self.transport is not None:
            self.transport.close()


async def commands(http, game_id: str, auth: dict, count: int) -> dict[int, float]:
    """`count` paced Thinks: the time each was sent, by the seq of the event it appended."""
    sent: dict[int, float] = {}
    for _ in range(count):
        started = time.perf_counter()
        reply = await http.post(f"/games/{game_id}/commands", json={"command": {"type": "Think"}}, headers=auth)
        reply.raise_for_status()
        for event in reply.json()["events"]:
            sent[event["seq"]] = started
        await asyncio.sleep(max(0.0, PACE - (time.perf_counter() - started)))
    return sent


async def one_size(stack: Stack, http, lobby_pids: list[int], size: int, alone_cpu: float, index: int) -> None:
    game_id, auth = await one_player_game(http, 10_000 + index)
    urls = [lobby.replace("http", "ws", 1) + f"/games/{game_id}/ws" for lobby in stack.lobbies]
    last = (await http.get(f"/games/{game_id}/log", params={"limit": 1000})).json()["last_seq"]
    watchers = [Watcher() for _ in range(size)]
    gate = asyncio.Semaphore(CONNECTING)
    gc.collect()
    await asyncio.sleep(1.0)
    rss_before = lobbies_rss(lobby_pids)
    began, cpu_began = time.perf_counter(), lobbies_cpu(lobby_pids)
    await asyncio.wait_for(asyncio.gather(*(w.open(urls[n % len(urls)], gate, last) for n, w in enumerate(watchers))), TIMEOUT * 2)
    connected = time.perf_counter() - began
    connect_cpu_ms = (lobbies_cpu(lobby_pids) - cpu_began) * 1000 / size
    await asyncio.sleep(2.0)                        # idle: presence and handshakes settle
    per_socket_kib = (lobbies_rss(lobby_pids) - rss_before) / size

    cpu_before = lobbies_cpu(lobby_pids)
    sent = await commands(http, game_id, auth, EVENTS)
    deadline = time.perf_counter() + TIMEOUT
    final = max(sent)
    while any(w.last < final for w in watchers) and time.perf_counter() < deadline:
        await asyncio.sleep(0.05)
    cpu = lobbies_cpu(lobby_pids) - cpu_before
    latencies = sorted(w.arrived[seq] - sent[seq] for w in watchers for seq in sent if seq in w.arrived)
    # The spread: from the first socket's push of an event to each other socket's, the fan-out alone.
    first = {seq: min((w.arrived[seq] for w in watchers if seq in w.arrived), default=0.0) for seq in sent}
    spread = sorted(w.arrived[seq] - first[seq] for w in watchers for seq in sent if seq in w.arrived)
    missing = size * len(sent) - len(latencies)
    per_push_us = max(0.0, cpu - alone_cpu) / (size * EVENTS) * 1e6

    for watcher in watchers:                        # the whole crowd drops, then comes back where it was
        await watcher.close()
    await asyncio.sleep(1.0)
    began, cpu_began = time.perf_counter(), lobbies_cpu(lobby_pids)
    await asyncio.wait_for(asyncio.gather(*(w.open(urls[n % len(urls)], gate, final) for n, w in enumerate(watchers))), TIMEOUT * 2)
    reconnected = time.perf_counter() - began
    reconnect_cpu_ms = (lobbies_cpu(lobby_pids) - cpu_began) * 1000 / size
    for watcher in watchers:
        await watcher.close()

    print(f"  {size:>6} {connected:>9.2f} {reconnected:>11.2f} {connect_cpu_ms:>6.2f}/{reconnect_cpu_ms:<6.2f}"
          f"{per_socket_kib:>9.1f} {pick(latencies, 0.5):>8.1f} {pick(latencies, 0.99):>8.1f}"
          f" {pick(spread, 0.99):>10.1f} {per_push_us:>9.1f} {missing:>8}")


class Discard:
    """A socket that takes every frame and sends nothing: the feed's own work, without the kernel's."""
    direct = True

    def write(self, framed: bytes) -> bool:
        return True

    def slow(self) -> bool:
        return False


async def in_process(size: int = 5000, events: int = 20) -> float:
    """µs of this process per (socket × event) in `Channel.deliver`, a seat's view and spectators."""
    from lobby.channel import Channel, Sink
    from starbase_core.envelope import Envelope

    def envelope(seq: int) -> Envelope:
        return Envelope(stream="game.g", seq=seq, type="Ticked", data={"n": seq}, time="t", prev_hash="", hash="")

    channel = Channel("game.g")
    channel.add(envelope(1))
    def sink(view, encode):
        try:
            return Sink(view, encode, Discard(), 1, lambda sink, reason: None)
        except TypeError:               # the lobby before sinks told their owner (a "before" run)
            return Sink(view, encode, Discard(), 1)

    for index in range(size):
        channel.join(sink("p1" if index % 10 == 0 else None, lambda e: f'{{"seq":{e.seq}}}'))
    # a command's envelopes are delivered together (a list) since 2026-12-03; one at a time before
    batched = "envelopes" in inspect.signature(channel.deliver).parameters
    began = time.process_time()                         # CPU time: the machine may be busy with others
    for seq in range(2, events + 2):
        channel.add(envelope(seq))
        channel.deliver([envelope(seq)] if batched else envelope(seq))
    return (time.process_time() - began) / (size * events) * 1e6


def kernel_floor(size: int, rounds: int = 20, frames: int = 1, joined: bool = True) -> float:
    """µs of a sender's CPU per 150-byte frame sent to each of `size` loopback TCP sockets (TCP_NODELAY,
    as uvloop sets), their reader another process: what no lobby code can go under. `frames` per socket
    each round (a command's events), in one `send` (`joined`) or one each."""
    listener = socket.create_server(("127.0.0.1", 0), backlog=4096)
    ready_read, ready_write = os.pipe()
    child = os.fork()
    if child == 0:                      # the readers: take every byte, as fast as they come
        readers = selectors.DefaultSelector()
        for _ in range(size):
            reader = socket.create_connection(listener.getsockname())
            reader.setblocking(False)
            readers.register(reader, selectors.EVENT_READ)
        os.write(ready_write, b"x")
        left = size * rounds * frames * 150
        while left > 0:
            for key, _ in readers.select(5):
                left -= len(key.fileobj.recv(65536))
        os._exit(0)
    senders = [listener.accept()[0] for _ in range(size)]
    for sender in senders:
        sender.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    os.read(ready_read, 1)
    framed = b"\x81\x7e\x00\x92" + b"x" * 146
    sends = [framed * frames] if joined else [framed] * frames
    began = time.process_time()         # to the ns: `os.times` counts 10 ms ticks, 5 µs a send at 100 sockets
    for _ in range(rounds):
        for sender in senders:
            for data in sends:
                sender.send(data)
        time.sleep(0.05)
    spent = time.process_time() - began
    os.waitpid(child, 0)
    for sender in senders:
        sender.close()
    listener.close()
    return spent / (size * rounds * frames) * 1e6


async def run(stack: Stack, lobby_pids: list[int], size: int, index: int) -> None:
    # Idle connections dropped before uvicorn's 5 s keep-alive ends them: a crowd's reconnect can leave
    # the client's connection idle that long, and reusing it just as the lobby closes it fails.
    async with httpx.AsyncClient(base_url=stack.lobbies[0], timeout=30,
                                 limits=httpx.Limits(keepalive_expiry=2.0)) as http:
        game_id, auth = await one_player_game(http, 0)
        await commands(http, game_id, auth, 3)                  # warm the path
        before, began = lobbies_cpu(lobby_pids), time.perf_counter()
        await commands(http, game_id, auth, EVENTS)
        alone_cpu, took = lobbies_cpu(lobby_pids) - before, time.perf_counter() - began
        before = lobbies_cpu(lobby_pids)
        await asyncio.sleep(took)                               # the lobby's own background work, idle
        idle_cpu = lobbies_cpu(lobby_pids) - before
        print(f"  (a fresh stack: lobby CPU per command, nobody watching: {alone_cpu * 1000 / EVENTS:.2f} ms, "
              f"{max(0.0, alone_cpu - idle_cpu) * 1000 / EVENTS:.2f} ms less its idle background; "
              f"{EVENTS} commands, one per {PACE:.2f} s)")
        await one_size(stack, http, lobby_pids, size, alone_cpu, index)


def _client_loop():
    """The sockets' side on uvloop when it is there (as the lobby runs): the same sockets and bytes for
    less of the shared cores, so the wall clock of a crowd's connect is less the client's own."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def measure(services: str = "", lobbies: int = 1, sizes: list[int] = SIZES) -> None:
    """`lobbies` replicas: `services`, a copy of older ones, or this checkout's. Each N on a stack of its
    own: a lobby that held a crowd before reuses the memory that crowd freed, and its idle figure for
    the next reads low (12.7 KiB a socket at 5,000 after 1,000, where a fresh lobby read 15.5)."""
    print(f"{'before (' + services + ')' if services else 'this lobby'} ×{lobbies}: one game, N anonymous spectator "
          f"sockets, {EVENTS} events each (command → push p50/p99 over every socket and event; spread: "
          f"after the event's first push; µs/push: lobby CPU per socket × event); load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"  {'sockets':>6} {'connect s':>9} {'reconnect s':>11} {'CPU ms/(re)connect':>13} {'KiB/idle':>8} "
          f"{'p50 ms':>8} {'p99 ms':>8} {'spread p99':>10} {'µs/push':>9} {'missing':>8}")
    with patch.dict(os.environ):            # PYTHONPATH and the proto directory as they were, after
        if services:        # found before the installed packages (the editable finder comes last)
            os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [services, os.environ.get("PYTHONPATH")]))
            os.environ["ADJUDICATOR_PROTO_DIR"] = str(Path(services).resolve().parent / "proto")
        for index, size in enumerate(sizes):
            with tempfile.TemporaryDirectory(prefix="bench-fanout-") as work, NatsServer() as nats, \
                    RedisServer() as redis, Stack(nats, redis, lobbies, Path(work)) as stack, \
                    asyncio.Runner(loop_factory=_client_loop()) as runner:
                runner.run(run(stack, [stack.children[f"lobby{n}"].pid for n in range(lobbies)], size, index))


def main() -> None:
    raise_open_files_limit()
    print(f"the feed's own work per (socket × event), frames discarded (no syscall): "
          f"{asyncio.run(in_process()):.2f} µs; the rest of µs/push below is the kernel's send (on loopback "
          f"it also delivers to the reader, charged to the lobby)")
    floors = " / ".join(f"{kernel_floor(size):.1f}" for size in SIZES)
    print(f"the kernel's floor: a bare send of one frame to each of {' / '.join(map(str, SIZES))} loopback "
          f"sockets costs {floors} µs of the sender's CPU")
    # A command of several events (21Moon's: 2.3 on average) reaches a socket in one write (`Channel.deliver`)
    size = SIZES[-1]
    each, joined = kernel_floor(size, frames=3, joined=False), kernel_floor(size, frames=3, joined=True)
    print(f"  three frames per socket ({size} sockets), per frame: one send each {each:.1f} µs, "
          f"one send for the three {joined:.1f} µs (ratio {joined / each:.2f})")
    if BEFORE:
        measure(BEFORE)
    measure()
    if SCALE_OUT > 1:
        measure(lobbies=SCALE_OUT, sizes=SIZES[-1:])


if __name__ == "__main__":
    main()
