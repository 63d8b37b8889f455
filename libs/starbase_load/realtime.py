"""A Trucker player's socket to the real-time service: building moves, each answered by an ack once
durable, or by a refusal (docs/trucker_service.md).

`move(command)` sends the engine's command under an id of ours and waits for its answer. `StartBuilding`
is never sent: the service starts a round's building itself when a player connects (`arrive`), and
answers a `StartBuilding` sent meanwhile with that start, whose events carry the service's id, not
the move's. No answer
(the socket died, or none within `ANSWER_TIMEOUT`) or a "send it again" refusal (`RETRY`,
`SHUTTING_DOWN`, `TABLE_UNAVAILABLE`) is sent again with the same id after a reconnect, as a client
should: the service applies an id at most once. The final answer goes to the journal (kind `trucker`,
the command id the store keeps in `meta.request_id`: `<player>:<id>`) and to Locust's statistics
(`TRUCKER` send → ack; `REFUSED` by code). Both socket protocols are read, and moves are written in
the one the service's welcome spoke (`protocol`).
"""
from __future__ import annotations

import time
from typing import Callable

import gevent
import gevent.event
from websockets.exceptions import InvalidHandshake, WebSocketException
from websockets.sync.client import connect

from starbase_load import protocol
from starbase_load.journal import ACKNOWLEDGED, REFUSED, TRUCKER, UNANSWERED, JournalFile
from starbase_load.lobby import Sent
from starbase_load.metrics import Metrics

AGAIN = frozenset({"RETRY", "SHUTTING_DOWN", "TABLE_UNAVAILABLE"})     # not applied, or not known: resend
RESENDS = 8
ANSWER_TIMEOUT = 15.0
_BROKEN = (OSError, TimeoutError, InvalidHandshake, WebSocketException, ConnectionError)


class RealtimeSocket:
    def __init__(self, url: str, protocols: Callable[[], list[str]], metrics: Metrics, journal: JournalFile | None,
                 player_id: str, game_id: str, client_tag: str):
        self.url, self.protocols, self.metrics, self.journal = url, protocols, metrics, journal
        self.player_id, self.game_id, self.client_tag = player_id, game_id, client_tag
        self.versioned = False
        self._connection = None
        self._reader: gevent.Greenlet | None = None
        self._waiting: dict[str, gevent.event.AsyncResult] = {}
        self._moves = 0

    def move(self, command: dict) -> Sent:
        """Its fate: ACKNOWLEDGED (with its events), REFUSED (a code) or UNANSWERED."""
        self._moves += 1
        move_id = f"{self.client_tag}-m{self._moves}"
        stored_as = f"{self.player_id}:{move_id}"
        sent_at = time.perf_counter()
        why = "no answer"
        for attempt in range(RESENDS):
            if attempt:
                gevent.sleep(min(2.0, 0.3 * attempt))
            answer = self._send(move_id, command)
            if answer is None:
                continue
            if answer.kind == protocol.ACK:
                self._tell(stored_as, ACKNOWLEDGED, protocol.ack_seqs(answer))
                self.metrics.move(command["type"], (time.perf_counter() - sent_at) * 1000)
                return Sent(ACKNOWLEDGED, sent_at, list(answer.body.get("events") or []))
            if answer.code in AGAIN:
                why = answer.code
                continue
            self._tell(stored_as, REFUSED, code=answer.code)
            self.metrics.refused(answer.code, (time.perf_counter() - sent_at) * 1000)
            return Sent(REFUSED, sent_at, code=answer.code)
        self._tell(stored_as, UNANSWERED)
        self.metrics.move(command["type"], (time.perf_counter() - sent_at) * 1000, f"unanswered: {why}")
        return Sent(UNANSWERED, sent_at)

    def arrive(self) -> bool:
        """Connect (a player's arrival is what starts a round's building), if not connected yet."""
        try:
            return (self._connection or self._connect()) is not None
        except _BROKEN:
            return False

    def _send(self, move_id: str, command: dict) -> protocol.Message | None:
        try:
            connection = self._connection or self._connect()
            waiting = self._waiting[move_id] = gevent.event.AsyncResult()
            connection.send(protocol.move(move_id, command, self.versioned))
            return waiting.get(timeout=ANSWER_TIMEOUT)
        except (gevent.Timeout, *_BROKEN):
            self._drop()
            return None
        finally:
            self._waiting.pop(move_id, None)

    def _connect(self):
        connection = connect(self.url, subprotocols=self.protocols(), open_timeout=10, max_size=2 ** 22)
        try:
            welcome = protocol.read(connection.recv(timeout=ANSWER_TIMEOUT))
        except Exception:
            connection.close()
            raise
        if welcome.kind != protocol.WELCOME:
            connection.close()
            self.metrics.socket_problem("trucker socket", f"no welcome: {welcome.kind} {welcome.code}".strip())
            raise ConnectionError("no welcome")
        self.versioned = welcome.versioned
        self._connection = connection
        self._reader = gevent.spawn(self._read, connection)
        return connection

    def _read(self, connection) -> None:
        try:
            for raw in connection:
                message = protocol.read(raw)
                if message.kind in (protocol.ACK, protocol.ERROR) and message.id in self._waiting:
                    self._waiting[message.id].set(message)
                elif message.kind == protocol.ERROR:        # the connection itself was refused
                    self.metrics.socket_problem("trucker socket", f"refused: {message.code}")
        except (*_BROKEN, protocol.NotAMessage):
            pass
        if self._connection is connection:          # it ended under us: wake the move waiting on it
            self._connection = None
            for waiting in list(self._waiting.values()):
                waiting.set_exception(ConnectionError("socket closed"))

    def _drop(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            try:
                connection.close()
            except Exception:       # already broken: nothing to close
                pass

    def _tell(self, command_id: str, outcome: str, seqs=(), code: str = "") -> None:
        if self.journal is not None:
            self.journal.record(TRUCKER, self.game_id, command_id, outcome, seqs, code)

    def close(self) -> None:
        self._drop()
        if self._reader is not None:
            self._reader.kill(block=True, timeout=5)
