"""A lobby WebSocket on one game, read by a greenlet of its own, as a browser keeps it open.

`LiveSocket` connects (a seated player with a fresh single-use ticket offered as
`Sec-WebSocket-Protocol`, a spectator without one), records when each event arrived, checks that seqs
come one by one (a gap or a duplicate is reported, never hidden) and, when the connection drops,
resumes from its last seq as the lobby documents. It reads both socket protocols (`protocol.read`).

Timing, into Locust's statistics (`metrics`):
- every live event: the event's server time → its arrival (`event -> player socket` / `… spectator …`);
- the owner's own commands: `expect(seqs, sent_at)` after the reply, and each of those events'
  arrival − the first send (`command -> own socket`), whichever of the reply and the push came first.

A player's socket also carries their moves (`move`: the lobby's `{"kind": "move", "id", "command"}`,
answered `ack` or `error` by id, as a browser sends them).
"""
from __future__ import annotations

import json
import time
from datetime import datetime
from typing import Callable

import gevent
import gevent.event
from gevent.event import AsyncResult
from websockets.exceptions import ConnectionClosed, InvalidHandshake, WebSocketException
from websockets.sync.client import connect

from starbase_load import protocol
from starbase_load.metrics import OWN_SOCKET, Metrics

RECONNECTS = 5           # failed connections in a row before the socket gives up
MAX_MESSAGE = 2 ** 22


class LiveSocket:
    def __init__(self, url: str, latency_name: str, metrics: Metrics,
                 protocols: Callable[[], list[str]] | None = None):
        self.url, self.latency_name, self.metrics, self.protocols = url, latency_name, metrics, protocols
        self.kind = "spectator socket" if protocols is None else "player socket"
        self.events: list[dict] = []
        self.arrivals: dict[int, float] = {}        # seq → perf_counter at arrival
        self.ended = False                          # the platform's GameEnded arrived
        self.refused = ""                           # the server refused the socket (its code): given up
        self._expected: dict[int, float] = {}       # own commands' seqs not yet arrived → first send
        self._news = gevent.event.Event()
        self._closing = False
        self._connection = None
        self._greenlet: gevent.Greenlet | None = None
        self._answers: dict[str, AsyncResult] = {}  # a move's id → its ack or error (the message's body)

    @property
    def last_seq(self) -> int:
        return self.events[-1]["seq"] if self.events else 0

    def start(self) -> "LiveSocket":
        self._greenlet = gevent.spawn(self._run)
        return self

    def _run(self) -> None:
        failures = 0
        while not self._closing and failures <= RECONNECTS:
            if failures:
                gevent.sleep(0.2 * failures)
            try:
                offered = self.protocols() if self.protocols else None
                opened_at = time.time()
                with connect(f"{self.url}?after={self.last_seq}", subprotocols=offered, open_timeout=10,
                             max_size=MAX_MESSAGE) as connection:
                    self._connection, failures = connection, 0
                    for raw in connection:
                        if not self._take(raw, opened_at):
                            return
                if self._closing:
                    return
                failures += 1
                self.metrics.socket_problem(self.kind, "closed by the server; resumed")
            except ConnectionClosed as closed:
                if self._closing:
                    return
                failures += 1
                code = closed.rcvd.code if closed.rcvd else "none"
                self.metrics.socket_problem(self.kind, f"closed by the server (code {code}); resumed")
            except (OSError, TimeoutError, InvalidHandshake, WebSocketException, ConnectionError) as failed:
                if self._closing:
                    return
                failures += 1
                self.metrics.socket_problem(self.kind, f"failed ({type(failed).__name__}); resumed")
            finally:
                self._connection = None
                self._lost()
        if not self._closing:
            self.refused = self.refused or "GAVE_UP"
            self.metrics.socket_problem(self.kind, "gave up after repeated failures")
            self._news.set()

    def _take(self, raw: str | bytes, opened_at: float) -> bool:
        now = time.perf_counter()
        try:
            message = protocol.read(raw)
        except protocol.NotAMessage as problem:
            self.metrics.socket_problem(self.kind, str(problem)[:80])
            return True
        if message.kind in (protocol.ACK, protocol.ERROR) and message.id in self._answers:
            self._answers.pop(message.id).set(message.body)
            return True
        if message.kind == protocol.ERROR:
            self.refused = message.code
            self.metrics.socket_problem(self.kind, f"refused: {message.code}")
            self._news.set()
            return False
        if message.kind != protocol.EVENT or not message.event:
            return True                               # a welcome, a chat message
        event = message.event
        seq = event["seq"]
        if seq <= self.last_seq:
            self.metrics.socket_problem(self.kind, "pushed event duplicated")
            return True
        if seq != self.last_seq + 1:
            self.metrics.socket_problem(self.kind, "pushed events skipped a seq")
        self.events.append(event)
        self.arrivals[seq] = now
        if seq in self._expected:
            self.metrics.push(OWN_SOCKET, (now - self._expected.pop(seq)) * 1000)
        stamped = _server_time(event.get("time"))
        if stamped is not None and stamped >= opened_at:        # live, not the history replayed on connect
            self.metrics.push(self.latency_name, (time.time() - stamped) * 1000)
        if protocol.ends_game(event):
            self.ended = True
        self._news.set()
        return True

    def expect(self, seqs: list[int], sent_at: float) -> None:
        """The seqs of one of the owner's accepted commands, first sent at `sent_at` (perf_counter)."""
        for seq in seqs:
            if seq in self.arrivals:
                self.metrics.push(OWN_SOCKET, (self.arrivals[seq] - sent_at) * 1000)
            else:
                self._expected[seq] = sent_at

    def wait_news(self, timeout: float) -> bool:
        """True once something arrived since the last call (at once if it already had)."""
        arrived = self._news.wait(timeout)
        self._news.clear()
        return bool(arrived)

    def wait_for(self, seq: int, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while self.last_seq < seq and not self.refused:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            self.wait_news(left)
        return self.last_seq >= seq

    def move(self, move_id: str, command: dict, timeout: float) -> dict | None:
        """Send a move on this player's socket: its `ack` or `error` message, or None when the socket is
        not open, drops, or no answer comes within `timeout` (send it again with the same id: applied once)."""
        connection = self._connection
        if connection is None:
            return None
        answered = self._answers[move_id] = AsyncResult()
        try:
            connection.send(json.dumps({"v": 1, "kind": "move", "id": move_id, "command": command}))
            return answered.get(timeout=timeout)
        except (gevent.Timeout, OSError, ConnectionClosed, WebSocketException):
            return None
        finally:
            self._answers.pop(move_id, None)

    def _lost(self) -> None:
        answers, self._answers = self._answers, {}
        for answered in answers.values():
            answered.set(None)

    def close(self) -> None:
        self._closing = True
        connection = self._connection
        if connection is not None:
            try:
                connection.close()
            except Exception:       # already gone: nothing to close
                pass
        if self._greenlet is not None:
            self._greenlet.kill(block=True, timeout=5)


def _server_time(text) -> float | None:
    if not isinstance(text, str):
        return None
    try:
        return datetime.fromisoformat(text).timestamp()
    except ValueError:
        return None
