"""Trucker players over the service's socket: grab a component, give it back, again and again.

Grabs are face down while the pile lasts, then face up among the components the table's bots gave
back (two players race for them: one is refused NOT_FACE_UP, as the rules say).

A table is opened through the lobby (like any game); each player connects to the `realtime_url` the
table gives, with what the lobby hands out for sockets (a single-use ticket, or its token). A move gets one final journal record: `acknowledged` (with the
seqs of its events), `refused` (a rule's refusal: nothing may be stored), or `unanswered` after
`RESENDS` tries. A move with no answer (the socket died) or a "send it again" answer (`RETRY`,
`SHUTTING_DOWN`, …) is sent again with the same id after a reconnect, as a client should: the service
applies it at most once.
"""
from __future__ import annotations

import asyncio
import itertools
import json
import random

import httpx
import websockets
from websockets.typing import Subprotocol

from starbase_chaos.journal import ACKNOWLEDGED, REFUSED, TRUCKER, UNANSWERED, Journal
from starbase_chaos.workload import HTTP_TIMEOUT, Player, open_table, sign_in

AGAIN = frozenset({"RETRY", "SHUTTING_DOWN", "TABLE_UNAVAILABLE"})     # not applied, or not known: resend
RESENDS = 20
ANSWER_TIMEOUT = 10.0
PAUSE = 0.05          # between moves: a bounded pace per player


def _code(answer: dict) -> str | None:
    """A refusal's code (`{"kind": "error", "error": {"code": …}}`); None for an acknowledgement."""
    return (answer.get("error") or {}).get("code") if answer.get("kind") == "error" else None


class Table:
    """What the bots of one table know together: the components they left face up."""

    def __init__(self, seed: int):
        self.face_up: set[str] = set()
        self.pile_empty = False
        self.rnd = random.Random(seed)


class TruckerPlayer:
    def __init__(self, url: str, player: Player, lobby: str, journal: Journal, game_id: str, table: Table):
        self.url, self.player, self.lobby, self.journal, self.game_id = url, player, lobby, journal, game_id
        self.player_id = player.player_id
        self.table = table
        self.holding: str | None = None      # the component in hand ("?" when only a refusal said so)
        self.over = False
        self.ids = itertools.count(1)
        self.socket: websockets.ClientConnection | None = None

    async def play(self, stop: asyncio.Event) -> None:
        try:
            while not stop.is_set() and not self.over:
                await self._move(*self._choose(), f"m{next(self.ids)}", stop)
                await asyncio.sleep(PAUSE)
        finally:
            if self.socket is not None:
                await self.socket.close()

    def _choose(self) -> tuple[str, dict]:
        if self.holding:
            return "return", {}
        if self.table.pile_empty and self.table.face_up:
            return "grab_face_up", {"component": self.table.rnd.choice(sorted(self.table.face_up))}
        return "grab_face_down", {}

    async def _move(self, op: str, fields: dict, client_id: str, stop: asyncio.Event) -> None:
        command_id = f"{self.player_id}:{client_id}"
        for _ in range(RESENDS):
            answer = await self._send(op, fields, client_id)
            if answer is None or _code(answer) in AGAIN:
                if stop.is_set():
                    break
                await asyncio.sleep(0.3)
                continue
            if answer["kind"] == "ack":
                seqs = tuple(range(answer["first_seq"], answer["seq"] + 1))
                self.journal.record(TRUCKER, self.game_id, command_id, ACKNOWLEDGED, seqs)
                self._learn_from(op, answer["events"])
            else:
                code = _code(answer) or ""
                self.journal.record(TRUCKER, self.game_id, command_id, REFUSED, code=code)
                self._learn(code, fields)
            return
        self.journal.record(TRUCKER, self.game_id, command_id, UNANSWERED)

    def _learn_from(self, op: str, events: list[dict]) -> None:
        component = next((e["data"].get("component") for e in events if e["data"].get("component")), None)
        if op == "return":
            self.holding = None
            if component:
                self.table.face_up.add(component)
        else:
            self.holding = component or "?"
            self.table.face_up.discard(component)

    def _learn(self, code: str, fields: dict) -> None:
        """What a refusal says about the table (after an unanswered move the bot may be wrong)."""
        if code == "HAND_FULL":
            self.holding = "?"
        elif code in ("NOTHING_TO_RETURN", "NOTHING_IN_HAND", "NO_NEWEST_COMPONENT"):
            self.holding = None
        elif code == "WAREHOUSE_EMPTY":
            self.table.pile_empty = True
        elif code == "NOT_FACE_UP":
            self.table.face_up.discard(fields.get("component", ""))
        elif code in ("TIME_UP", "NOT_BUILDING"):
            self.over = True

    async def _send(self, op: str, fields: dict, client_id: str) -> dict | None:
        """The answer to one sending of a move, or None (no connection, or no answer in time)."""
        try:
            if self.socket is None:
                async with httpx.AsyncClient(base_url=self.lobby, timeout=HTTP_TIMEOUT) as http:
                    query, offered = await self.player.socket_options(http)
                protocols = [Subprotocol(p) for p in offered] if offered is not None else None
                self.socket = await websockets.connect(f"{self.url}{query}", subprotocols=protocols,
                                                       max_size=2**22, open_timeout=5)
                welcome = json.loads(await asyncio.wait_for(self.socket.recv(), ANSWER_TIMEOUT))
                if welcome.get("kind") != "welcome":
                    raise ConnectionError(f"no welcome: {welcome}")
            return await asyncio.wait_for(self._answer(self.socket, op, fields, client_id), ANSWER_TIMEOUT)
        except (OSError, asyncio.TimeoutError, websockets.WebSocketException, ConnectionError, httpx.HTTPError):
            socket, self.socket = self.socket, None
            if socket is not None:
                socket.transport.abort()      # no close handshake with a server that stopped answering
            return None

    @staticmethod
    async def _answer(socket, op: str, fields: dict, client_id: str) -> dict:
        await socket.send(json.dumps({"v": 1, "kind": "move", "id": client_id, "op": op, **fields}))
        while True:                            # the table's events come on the same socket: skip them
            message = json.loads(await socket.recv())
            if message.get("id") == client_id and message["kind"] in ("ack", "error"):
                return message


class TruckerLoad:
    """`tables` Trucker tables of `seats` players building at once until `stop` is set."""

    def __init__(self, lobby: str, journal: Journal, *, tables: int = 1, seats: int = 2):
        self.lobby, self.journal, self.tables, self.seats = lobby, journal, tables, seats
        self.game_ids: list[str] = []

    async def run(self, stop: asyncio.Event) -> None:
        await asyncio.gather(*(self._table(index, stop) for index in range(self.tables)))

    async def _table(self, index: int, stop: asyncio.Event) -> None:
        while not stop.is_set():
            try:
                async with httpx.AsyncClient(base_url=self.lobby, timeout=HTTP_TIMEOUT) as http:
                    players = [await sign_in(http, f"truck-{index}-{seat}") for seat in range(self.seats)]
                    table = await open_table(http, players, "trucker", {})
            except httpx.HTTPError:
                await asyncio.sleep(0.5)           # the lobby is down: open the table when it is back
                continue
            self.game_ids.append(table["game_id"])
            shared = Table(seed=index)
            bots = [TruckerPlayer(table["realtime_url"], player, self.lobby, self.journal, table["game_id"], shared)
                    for player in players]
            await asyncio.gather(*(bot.play(stop) for bot in bots))
