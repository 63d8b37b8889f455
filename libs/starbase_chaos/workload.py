"""Bounded load through the public APIs while a trial injects its faults; every answer is journaled.

- `BoardLoad`: `starbase load`'s own tables (`starbase_cli.loadgen`: bots over HTTP + WebSocket),
  one table per lane, a new table whenever one stops (a fault may end it), until `stop` is set;
- `IdleTables`: tables whose players never act, with a decision time, so the clock owes defaults;
- `TwinLoad`: every command sent through two lobbies (each with its own adjudicator) under one
  command id, a few milliseconds apart: two replicas racing on the same command.
"""
from __future__ import annotations

import asyncio
import itertools
import random
from dataclasses import dataclass

import httpx

from starbase_cli.loadclients import ActionsChooser
from starbase_cli.loadgen import Budget, LoadPlan, run_load

from starbase_chaos.journal import ACKNOWLEDGED, BOARD, REFUSED, UNANSWERED, Journal

HTTP_TIMEOUT = 10.0
STAGGER = 0.02          # seconds: how far apart a twin command's two sendings may be


class BoardLoad:
    def __init__(self, lobby: str, journal: Journal, *, game: str = "moon21", lanes: int = 2, seats: int = 2,
                 seed: int = 1):
        self.lobby, self.journal, self.game, self.lanes, self.seats, self.seed = lobby, journal, game, lanes, seats, seed
        self.tables = 0

    async def run(self, stop: asyncio.Event) -> None:
        await asyncio.gather(*(self._lane(lane, stop) for lane in range(self.lanes)))

    async def _lane(self, lane: int, stop: asyncio.Event) -> None:
        for round_ in itertools.count():
            if stop.is_set():
                return
            plan = LoadPlan(lobby=self.lobby, game=self.game, tables=1, seats=self.seats, spectators=0,
                            duration=3600, max_commands=10**6, seed=self.seed * 1000 + lane * 100 + round_,
                            drain=2.0, push_timeout=20.0)
            budget = Budget(plan)
            self.tables += 1
            run = asyncio.ensure_future(run_load(plan, budget=budget, journal=self.journal))
            stopper = asyncio.ensure_future(stop.wait())
            await asyncio.wait({run, stopper}, return_when=asyncio.FIRST_COMPLETED)
            budget.stop("trial over")              # the table finishes the command in hand, then stops
            stopper.cancel()
            await asyncio.gather(run, stopper, return_exceptions=True)
            if not stop.is_set():
                await asyncio.sleep(0.5)           # a fault ended that table: the next one in a moment


@dataclass(frozen=True)
class Player:
    """A player signed in to the lobby, as `sign_in` made them."""

    player_id: str
    access: str                 # the bearer token of the lobby's API
    tickets: bool               # sockets are opened with single-use tickets, never a token in the URL

    @property
    def headers(self) -> dict:
        return {"Authorization": f"Bearer {self.access}"}

    async def socket_options(self, http: httpx.AsyncClient) -> tuple[str, list[str] | None]:
        """(what to add to a socket's URL, the subprotocols to offer) for this player's next socket."""
        if not self.tickets:
            return f"?token={self.access}", None
        reply = await http.post("/tickets", json={}, headers=self.headers)
        reply.raise_for_status()
        return "", reply.json()["protocols"]


async def sign_in(http: httpx.AsyncClient, name: str) -> Player:
    """A guest of a lobby with accounts (guests are unrated but scored), else a player by name."""
    reply = await http.post("/players/guest")
    if reply.status_code in (404, 405):         # a lobby without accounts: a name is all it asks
        reply = await http.post("/players", json={"name": name})
        reply.raise_for_status()
        return Player(reply.json()["player_id"], reply.json()["token"], tickets=False)
    reply.raise_for_status()
    return Player(reply.json()["player_id"], reply.json()["access_token"], tickets=True)


async def open_table(http: httpx.AsyncClient, players: list[Player], game: str, options: dict) -> dict:
    """The players sit at a new table, which starts; the table as the lobby then lists it."""
    host, *others = players
    table = await _ok(http.post("/tables", headers=host.headers,
                                json={"game": game, "seats": len(players), "options": options}))
    for player in others:
        await _ok(http.post(f"/tables/{table['table_id']}/join", headers=player.headers, json={}))
    for player in players:
        await _ok(http.post(f"/tables/{table['table_id']}/ready", headers=player.headers, json={}))
    await _ok(http.post(f"/tables/{table['table_id']}/start", headers=host.headers))
    return await _ok(http.get(f"/tables/{table['table_id']}"))


async def _ok(call) -> dict:
    reply = await call
    reply.raise_for_status()
    return reply.json()


class IdleTables:
    """Tables nobody plays: after `decision_seconds` (5: the least a lobby with option bounds takes) the
    clock owes each player a default, over and over."""

    def __init__(self, lobby: str, *, tables: int = 2, decision_seconds: float = 5.0, game: str = "moon21"):
        self.lobby, self.count, self.decision_seconds, self.game = lobby, tables, decision_seconds, game
        self.game_ids: list[str] = []

    async def open(self) -> list[str]:
        async with httpx.AsyncClient(base_url=self.lobby, timeout=HTTP_TIMEOUT) as http:
            for index in range(self.count):
                players = [await sign_in(http, f"idle-{index}-{seat}") for seat in range(2)]
                table = await open_table(http, players, self.game, {"decision_seconds": self.decision_seconds})
                self.game_ids.append(table["game_id"])
        return self.game_ids


class TwinLoad:
    """Commands sent through two lobbies at once with one command id; both answers are journaled."""

    def __init__(self, lobbies: tuple[str, str], journal: Journal, *, tables: int = 2, game: str = "moon21",
                 seed: int = 7):
        self.lobbies, self.journal, self.tables, self.game = lobbies, journal, tables, game
        self.rnd = random.Random(seed)
        self.sent = 0

    async def run(self, stop: asyncio.Event) -> None:
        async with httpx.AsyncClient(base_url=self.lobbies[0], timeout=HTTP_TIMEOUT) as first, \
                httpx.AsyncClient(base_url=self.lobbies[1], timeout=HTTP_TIMEOUT) as second:
            await asyncio.gather(*(self._table(index, first, second, stop) for index in range(self.tables)))

    async def _table(self, index: int, first: httpx.AsyncClient, second: httpx.AsyncClient,
                     stop: asyncio.Event) -> None:
        for round_ in itertools.count():
            if stop.is_set():
                return
            try:
                players = [await sign_in(first, f"twin-{index}-{seat}") for seat in range(2)]
                game_id = (await open_table(first, players, self.game, {}))["game_id"]
                auth = {p.player_id: p.headers for p in players}
                chooser = ActionsChooser(first, game_id, auth, self.rnd, lambda status: None)
                while not stop.is_set():
                    choice = await chooser.choose(list(auth))
                    if choice is None:
                        break                                  # the game is over
                    await self._twice(game_id, auth, *choice, first, second, f"twin{index}r{round_}c{self.sent}")
            except httpx.HTTPError:
                await asyncio.sleep(0.5)

    async def _twice(self, game_id: str, auth: dict, player: str, command: dict, first, second, command_id: str):
        self.sent += 1
        body = {"command": command, "command_id": command_id}
        async def through(lobby, delay: float):
            await asyncio.sleep(delay)
            return await lobby.post(f"/games/{game_id}/commands", json=body, headers=auth[player])

        # The second a few milliseconds after the first: sometimes it checks the command id before the
        # first lands, and reads the game after it did (the race a retry in flight runs too).
        replies = await asyncio.gather(through(first, 0.0), through(second, self.rnd.uniform(0, STAGGER)),
                                       return_exceptions=True)
        for reply in replies:
            if isinstance(reply, BaseException) or reply.status_code >= 500:
                outcome, seqs, code = UNANSWERED, (), ""
            elif reply.status_code >= 400:
                outcome, seqs, code = REFUSED, (), reply.json().get("error", {}).get("code", "?")
            else:
                outcome, seqs, code = ACKNOWLEDGED, tuple(e["seq"] for e in reply.json()["events"]), ""
            self.journal.record(BOARD, game_id, f"{player}:{command_id}", outcome, seqs, code)
