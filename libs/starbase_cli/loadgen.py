"""Load on a running lobby: N tables of bot players playing real games over HTTP and WebSocket only.

    report = await run_load(LoadPlan(lobby="http://127.0.0.1:8000", game="moon21", tables=4))

Each of `tables` slots signs its players in once (as guests: unrated, no password to hash), then plays
games back to back: open a table, fill it, everyone ready, start; each player opens the game's
WebSocket with a single-use ticket (each spectator without one); then, one
command in flight per table, a bot chooses a move for whoever must act (see `loadclients`) and sends it
with `POST /games/{id}/commands`, or (`moves="socket"`) as a move on that player's own game socket. A table waits until every seated player's socket has shown the last
accepted command's events before choosing the next move, as a person would.

The run stops by itself: at the deadline (`duration`), at the command cap, or once `games` games have
been started and played out, whichever comes first; it then waits (at most `drain` seconds) for the
sockets to receive the events of every accepted command and closes everything.

What is counted, so that the figures can be checked against each other and against the store:
- a command is *sent* once; it ends *accepted* (200), *refused* (a 4xx with a code: nothing stored) or
  *unanswered* (transport errors or 5xx on every attempt; attempts reuse its command id, so a retry is
  never applied twice). sent == accepted + refused + unanswered, always.
- round trip: first send → the 200 reply, for accepted commands (the ones that reach the store).
- command → push: first send → the arrival of each of its events on each socket of its table.
- events pushed: every event every socket received, setup events included.
- errors: anything that should not happen (5xx, transport failures, dropped sockets, seq gaps,
  pushes that never came), by kind.

The generator's own load, so a reader sees when the tool is the limit rather than the lobby: its CPU
seconds (all its processes), its share of one core, and its event loops' lag (how late a task that
sleeps 20 ms is woken: every round trip it times includes that lateness).

`workers=N` spreads the tables over N processes (`loadworkers`) and merges their figures.

`run_load(..., journal=j)` also tells `j.command(game_id, command_id, outcome, seqs, code)` the final
answer to every command (outcome "acknowledged", "refused" or "unanswered"; the command id as the store
keeps it), so a checker can hold the store to what clients were told (`starbase_chaos.checker`).
"""
from __future__ import annotations

import asyncio
import gc
import math
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable

from starbase_cli.loadclients import (ActionsChooser, CannotFold, EngineChooser, HttpFailed, LobbyHttp, Reply,
                                      Watcher, full_information)

ATTEMPTS = 3            # per command: the first send and two retries with the same command id
LOG_PAGE = 1000
HARD_STOP_SLACK = 60.0  # seconds past duration + drain after which unfinished tables are cancelled


@dataclass
class LoadPlan:
    lobby: str = "http://127.0.0.1:8000"
    game: str = "moon21"
    tables: int = 4
    seats: int = 3
    spectators: int = 1                # anonymous sockets per table, besides the players'
    duration: float = 60.0
    max_commands: int = 5000
    games: int | None = None           # stop after this many games (None: keep starting new ones)
    options: dict = field(default_factory=dict)
    bots: str = "auto"                 # auto | engine | actions (see loadclients)
    seed: int = 1
    drain: float = 10.0
    push_timeout: float = 30.0         # a player's socket silent this long after a move: the table stops
    workers: int = 1                   # processes the tables are spread over (see run_load)
    bot_thread: bool = True            # the engine's bots choose on a thread of their own (see BotThread)
    moves: str = "http"                # how players send commands: "http" (POST) or "socket" (their game socket)


@dataclass
class LoadReport:
    plan: LoadPlan
    bots: str = ""
    stopped: str = ""
    elapsed: float = 0.0
    sent: int = 0
    accepted: int = 0
    refused: int = 0
    unanswered: int = 0
    refused_codes: Counter = field(default_factory=Counter)
    round_trips: list[float] = field(default_factory=list)
    pushed: int = 0
    push_latencies: list[float] = field(default_factory=list)
    sockets: int = 0
    reads: int = 0
    errors: Counter = field(default_factory=Counter)
    started_games: list[str] = field(default_factory=list)
    finished_games: list[str] = field(default_factory=list)
    cpu: float = 0.0                   # the generator's CPU seconds during the run, all its processes
    bot_cpu: float = 0.0               # of which the engine's bots, choosing moves (the workload's own brain)
    loop_lags: list[float] = field(default_factory=list)
    processes: int = 1

    def merge(self, other: "LoadReport") -> None:
        """Add a worker's report to this one (elapsed: the longest, since they ran side by side)."""
        for name in ("sent", "accepted", "refused", "unanswered", "pushed", "sockets", "reads", "cpu", "bot_cpu"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for name in ("round_trips", "push_latencies", "started_games", "finished_games", "loop_lags"):
            getattr(self, name).extend(getattr(other, name))
        self.refused_codes.update(other.refused_codes)
        self.errors.update(other.errors)
        self.elapsed = max(self.elapsed, other.elapsed)

    def error(self, kind: str) -> None:
        self.errors[kind] += 1

    def figures(self) -> dict:
        """Everything as plain JSON (times in milliseconds)."""
        return {
            "game": self.plan.game, "lobby": self.plan.lobby, "tables": self.plan.tables, "seats": self.plan.seats,
            "spectators": self.plan.spectators, "bots": self.bots, "stopped": self.stopped,
            "elapsed_s": round(self.elapsed, 3),
            "commands": {"sent": self.sent, "accepted": self.accepted, "refused": self.refused,
                         "unanswered": self.unanswered, "refused_codes": dict(self.refused_codes),
                         "accepted_per_s": round(self.accepted / self.elapsed, 2) if self.elapsed else 0.0},
            "round_trip_ms": summary(self.round_trips),
            "pushes": {"events": self.pushed, "sockets": self.sockets,
                       "per_s": round(self.pushed / self.elapsed, 2) if self.elapsed else 0.0,
                       "command_to_push_ms": summary(self.push_latencies)},
            "action_reads": self.reads,
            "errors": dict(self.errors),
            "games": {"started": len(self.started_games), "finished": len(self.finished_games),
                      "started_ids": list(self.started_games), "finished_ids": list(self.finished_games)},
            "generator": {"processes": self.processes, "cpu_s": round(self.cpu, 3),
                          "cpu_ms_per_accepted": round(self.cpu * 1000 / self.accepted, 2) if self.accepted else 0.0,
                          "bots_cpu_ms_per_accepted": (round(self.bot_cpu * 1000 / self.accepted, 2)
                                                       if self.accepted else 0.0),
                          "cores_busy": round(self.cpu / self.elapsed, 2) if self.elapsed else 0.0,
                          "loop_lag_ms": summary(self.loop_lags)},
        }


def summary(samples: list[float]) -> dict:
    """Exact nearest-rank percentiles of all samples (no sampling, no histogram buckets), in ms."""
    if not samples:
        return {"n": 0}
    ordered = sorted(samples)

    def rank(q: float) -> float:
        return round(ordered[max(0, math.ceil(q * len(ordered)) - 1)] * 1000, 2)

    return {"n": len(ordered), "p50": rank(0.50), "p90": rank(0.90), "p99": rank(0.99),
            "max": round(ordered[-1] * 1000, 2)}


def render(figures: dict) -> str:
    """A run's figures for people: counts, latencies, the generator's own cost, errors."""
    commands, trip, pushes, own = (figures["commands"], figures["round_trip_ms"], figures["pushes"],
                                   figures["generator"])

    def spread(latency: dict) -> str:
        if not latency.get("n"):
            return "none"
        return f"p50 {latency['p50']} / p90 {latency['p90']} / p99 {latency['p99']} / max {latency['max']} ms"

    lines = [f"stopped: {figures['stopped']} after {figures['elapsed_s']} s ({figures['bots']} bots)",
             f"commands: {commands['sent']} sent = {commands['accepted']} accepted + {commands['refused']} refused "
             f"+ {commands['unanswered']} unanswered; {commands['accepted_per_s']} accepted/s",
             f"round trip: {spread(trip)}",
             f"pushes: {pushes['events']} events on {pushes['sockets']} sockets; command to push: "
             f"{spread(pushes['command_to_push_ms'])}",
             f"generator: {own['processes']} process(es), {own['cpu_ms_per_accepted']} CPU ms per accepted command "
             f"(bots {own['bots_cpu_ms_per_accepted']}), {own['cores_busy']} cores busy, loop lag "
             f"{spread(own['loop_lag_ms'])}",
             f"games: {figures['games']['started']} started, {figures['games']['finished']} finished"]
    lines += [f"error: {kind} x{count}" for kind, count in sorted(figures["errors"].items())]
    return "\n".join(lines)


def timed_choice(bot: EngineChooser, players: list[str]) -> tuple[tuple[str, dict] | None, bool, float]:
    """(the bot's choice, False if it could not fold the game, the CPU seconds it took on this thread)."""
    began = time.thread_time()
    try:
        return bot.choose(players), True, time.thread_time() - began
    except CannotFold:
        return None, False, time.thread_time() - began


class BotThread:
    """One thread on which every table's engine bot chooses, one choice at a time.

    A 21Moon bot's move takes 1 ms at the median but 30 ms at p99 and over 100 ms at worst (tile lays,
    routes); on the event loop that stalls every other table's replies and pushes, and their round trips
    grow by it. On this thread the loop takes the GIL back within its switch interval (5 ms) instead. One
    thread, so no two bots (and no two calls into an engine's caches) ever run at once."""

    def __init__(self) -> None:
        import concurrent.futures

        self.pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="load-bots")

    async def choose(self, bot: EngineChooser, players: list[str]):
        return await asyncio.get_running_loop().run_in_executor(self.pool, timed_choice, bot, players)

    def close(self) -> None:
        self.pool.shutdown(wait=True)       # at most the choice under way


class LoopLag:
    """How late this event loop wakes a task that sleeps PERIOD: the generator's own lag. A busy loop
    reads replies late, so every round trip it times is longer by about this much."""

    PERIOD = 0.020      # 50 wakes a second: ~0.7 % of a core on a busy 2-core box (each costs ~0.15 ms there)

    def __init__(self) -> None:
        self.samples: list[float] = []
        self._task: asyncio.Task | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        while True:
            asked = time.perf_counter()
            await asyncio.sleep(self.PERIOD)
            self.samples.append(max(0.0, time.perf_counter() - asked - self.PERIOD))

    async def stop(self) -> list[float]:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        return self.samples


class YoungCollections:
    """The garbage collector of this process, while a run lasts: the young generations every `YOUNG_EVERY`,
    the whole heap every `FULL_EVERY` and at the end, instead of whenever allocations say. Each table's bot
    keeps its game folded (many objects), so a collection of the oldest generation scans them all: 100 to
    200 ms, several times in 10 s, with every reply and push waiting (docs/lobby-capacity.md, twelfth
    round); the generator's loop then lagged 55-93 ms at p99, and every round trip it timed with it. A
    young collection this often takes a few ms. Cycles that reach the old generation wait for a full one."""

    YOUNG_EVERY = 0.2
    FULL_EVERY = 300.0

    def __init__(self) -> None:
        self._task: asyncio.Task | None = None
        self._was_enabled = gc.isenabled()

    async def __aenter__(self) -> "YoungCollections":
        gc.disable()
        self._task = asyncio.create_task(self._run())
        return self

    async def _run(self) -> None:
        last_full = time.monotonic()
        while True:
            await asyncio.sleep(self.YOUNG_EVERY)
            if time.monotonic() - last_full >= self.FULL_EVERY:
                gc.collect()
                last_full = time.monotonic()
            else:
                gc.collect(1)

    async def __aexit__(self, *exc_info) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        gc.collect()
        if self._was_enabled:
            gc.enable()


class Budget:
    """The run's limits, shared by every table. `stop()` ends it early (Ctrl-C)."""

    def __init__(self, plan: LoadPlan, deadline: float | None = None):
        # A worker process gets its parent's deadline: CLOCK_MONOTONIC is one clock for the whole machine.
        self.deadline = time.monotonic() + plan.duration if deadline is None else deadline
        self.max_commands, self.games = plan.max_commands, plan.games
        self.sent = self.started = 0
        self.reason = ""

    def open(self) -> bool:
        if not self.reason:
            if time.monotonic() >= self.deadline:
                self.reason = "duration"
            elif self.sent >= self.max_commands:
                self.reason = "command cap"
        return not self.reason

    def take_command(self) -> bool:
        if not self.open():
            return False
        self.sent += 1
        return True

    def start_game(self) -> bool:
        if not self.open():
            return False
        if self.games is not None and self.started >= self.games:
            return False
        self.started += 1
        return True

    def stop(self, reason: str = "interrupted") -> None:
        self.reason = self.reason or reason


class TableSlot:
    """One table's worth of players, playing games one after another."""

    def __init__(self, index: int, plan: LoadPlan, http: LobbyHttp, report: LoadReport,
                 budget: Budget, engine, bots: str, run_id: str, journal=None,
                 bot_thread: "BotThread | None" = None):
        self.bot_thread = bot_thread
        self.index, self.plan, self.http, self.report, self.budget = index, plan, http, report, budget
        self.journal = journal
        self.engine, self.bots, self.run_id = engine, bots, run_id
        self.rnd = random.Random(plan.seed * 1000 + index)
        self.ws_base = "ws" + plan.lobby[len("http"):] if plan.lobby.startswith("http") else plan.lobby
        self.auth: dict[str, dict] = {}
        self.watchers: list[Watcher] = []       # the live ones, so a hard stop can close them
        self.engine_bot: EngineChooser | None = None
        self.seated: dict[str, Watcher] = {}    # each player's own socket on the game being played
        self.commands = 0

    async def run(self) -> None:
        for _ in range(self.plan.seats):
            body = await self._ok(self.http.post("/players/guest"))
            self.auth[body["player_id"]] = {"Authorization": f"Bearer {body['access_token']}"}
        while self.budget.start_game():
            await self.play(await self.open_table())

    def _ticket_for(self, player: str):
        async def ticket() -> str:
            return (await self._ok(self.http.post("/tickets", json={}, headers=self.auth[player])))["ticket"]
        return ticket

    async def _ok(self, reply_coroutine) -> dict:
        reply = await reply_coroutine
        if reply.status_code == 429:
            raise SetupFailed(f"{reply.method} {reply.path}: the lobby's limits refused it "
                              f"({reply.text}); run the lobby with LOBBY_LIMITS_EXEMPT=127.0.0.1/32 to load it "
                              "from this machine (docs/accounts.md)")
        if reply.status_code >= 400:
            raise SetupFailed(f"{reply.method} {reply.path}: {reply.status_code} {reply.text}")
        return reply.json()

    async def open_table(self) -> str:
        host, *others = self.auth
        table = await self._ok(self.http.post("/tables", headers=self.auth[host], json={
            "game": self.plan.game, "seats": self.plan.seats, "options": self.plan.options}))
        for player in others:
            await self._ok(self.http.post(f"/tables/{table['table_id']}/join", json={}, headers=self.auth[player]))
        for player in self.auth:
            await self._ok(self.http.post(f"/tables/{table['table_id']}/ready", json={}, headers=self.auth[player]))
        started = await self._ok(self.http.post(f"/tables/{table['table_id']}/start", headers=self.auth[host]))
        self.report.started_games.append(started["game_id"])
        return started["game_id"]

    async def play(self, game_id: str) -> None:
        players = list(self.auth)
        url, sockets = f"{self.ws_base}/games/{game_id}/ws", self.http.sockets
        seated = [Watcher(url, self.report.error, self._ticket_for(p), sockets=sockets) for p in players]
        self.seated = dict(zip(players, seated))
        watchers = seated + [Watcher(url, self.report.error, sockets=sockets) for _ in range(self.plan.spectators)]
        self.watchers = watchers
        for watcher in watchers:
            watcher.start()
        self.report.sockets += len(watchers)
        self.engine_bot = EngineChooser(self.engine, seated[0], self.rnd) if self.bots == "engine" else None
        by_actions = ActionsChooser(self.http, game_id, self.auth, self.rnd, self._count_read)
        sends: list[tuple[float, list[int]]] = []      # per accepted command: when sent, its events' seqs
        last_seq, ended, refused_last, unanswered_in_a_row = 0, False, False, 0
        try:
            last_seq = await self._current_seq(game_id)        # past GameCreated and the setup events
            while not ended and self.budget.open():
                waited = await asyncio.gather(*(w.wait_for(last_seq, self.plan.push_timeout) for w in seated))
                if not all(waited):
                    self.report.error("a player's socket did not show the last move in time; table stopped")
                    break
                # After a refusal the engine's bot would choose the same again: ask the lobby once.
                choice = await self._choose(players, by_actions, engine_allowed=not refused_last)
                if choice is None:
                    self.report.error("nobody had a legal move in a game that had not ended; table stopped")
                    break
                if not self.budget.take_command():
                    break
                outcome = await self.send(game_id, *choice)
                refused_last = outcome == "refused"
                unanswered_in_a_row = unanswered_in_a_row + 1 if outcome is None else 0
                if unanswered_in_a_row == 3:
                    self.report.error("three commands in a row went unanswered; table stopped")
                    break
                if outcome is None or refused_last:
                    continue
                sent_at, events = outcome
                sends.append((sent_at, [event["seq"] for event in events]))
                last_seq = max([last_seq] + [event["seq"] for event in events])
                ended = any(ends_game(event) for event in events)
            if ended:
                self.report.finished_games.append(game_id)
        finally:
            await self._drain(watchers, last_seq)
            self._count_pushes(watchers, sends, last_seq)
            await self.close()

    async def _choose(self, players: list[str], by_actions: ActionsChooser,
                      engine_allowed: bool) -> tuple[str, dict] | None:
        if self.engine_bot is not None and engine_allowed:
            if self.bot_thread is not None:
                choice, folded, cpu = await self.bot_thread.choose(self.engine_bot, players)
            else:
                choice, folded, cpu = timed_choice(self.engine_bot, players)
            self.report.bot_cpu += cpu
            if not folded:
                self.engine_bot = None      # this game hides something after all: ask the lobby from now on
            elif choice is not None:
                return choice
        return await by_actions.choose(players)

    async def close(self) -> None:
        watchers, self.watchers = self.watchers, []
        for watcher in watchers:
            await watcher.close()

    async def send(self, game_id: str, player: str, command: dict):
        """(sent_at, events) when accepted, "refused", or None when it went unanswered."""
        self.commands += 1
        command_id = f"{self.run_id}-{self.index}-{self.commands}"
        body = {"command": command, "command_id": command_id}
        sent_at = time.perf_counter()
        self.report.sent += 1
        for attempt in range(ATTEMPTS):
            if attempt:
                await asyncio.sleep(0.2 * attempt)
            answer = await (self._move(player, command_id, command) if self.plan.moves == "socket" else
                            self._post(game_id, player, body))
            if answer is None:
                continue
            status, code, events = answer
            if status >= 500:
                self.report.error(f"command answered {status} {code}")
                continue
            if status >= 400:
                self.report.refused += 1
                self.report.refused_codes[code] += 1
                self._tell(game_id, player, command_id, "refused", code=code)
                return "refused"
            self.report.round_trips.append(time.perf_counter() - sent_at)
            self.report.accepted += 1
            self._tell(game_id, player, command_id, "acknowledged", [event["seq"] for event in events])
            return sent_at, events
        self.report.unanswered += 1
        self._tell(game_id, player, command_id, "unanswered")
        return None

    async def _post(self, game_id: str, player: str, body: dict) -> tuple[int, str, list[dict]] | None:
        """(status, error code, events) of one POST of a command; None on a transport error."""
        try:
            reply = await self.http.post(f"/games/{game_id}/commands", json=body, headers=self.auth[player])
        except HttpFailed as failed:
            self.report.error(f"command transport error ({failed.kind})")
            return None
        if reply.status_code == 200:
            return 200, "", reply.json()["events"]
        return reply.status_code, _code(reply), []

    async def _move(self, player: str, command_id: str, command: dict) -> tuple[int, str, list[dict]] | None:
        """The same over the player's game socket (its `ack` or `error`); None when unanswered."""
        answer = await self.seated[player].move(command_id, command, self.plan.push_timeout)
        if answer is None:
            self.report.error("move over the socket unanswered")
            return None
        if answer["kind"] == "ack":
            return 200, "", answer["events"]
        return answer["status"], answer["error"]["code"], []

    def _tell(self, game_id: str, player: str, command_id: str, outcome: str, seqs=(), code: str = "") -> None:
        if self.journal is not None:     # the store keeps the lobby's id: the player's, then the client's
            self.journal.command(game_id, f"{player}:{command_id}", outcome, seqs, code)

    async def _current_seq(self, game_id: str) -> int:
        host = next(iter(self.auth))
        after = 0
        while True:
            page = await self._ok(self.http.get(f"/games/{game_id}/log", headers=self.auth[host],
                                                params={"after": after, "limit": LOG_PAGE}))
            if not page["events"]:
                return after
            after = page["last_seq"]

    def _count_read(self, status: int) -> None:
        self.report.reads += 1
        if status >= 500:
            self.report.error(f"actions read answered {status}")

    async def _drain(self, watchers: list[Watcher], last_seq: int) -> None:
        await asyncio.gather(*(w.wait_for(last_seq, self.plan.drain) for w in watchers))

    def _count_pushes(self, watchers: list[Watcher], sends, last_seq: int) -> None:
        for watcher in watchers:
            self.report.pushed += len(watcher.events)
            missing = sum(1 for seq in range(1, last_seq + 1) if seq not in watcher.arrivals)
            if missing:
                self.report.errors["pushed events that never arrived"] += missing
            for sent_at, seqs in sends:
                self.report.push_latencies.extend(
                    watcher.arrivals[seq] - sent_at for seq in seqs if seq in watcher.arrivals)


class SetupFailed(Exception):
    pass


def ends_game(event: dict) -> bool:
    """The platform's GameEnded (engines may have an event of that name too)."""
    if event["type"] != "GameEnded":
        return False
    if "platform" in event:
        return bool(event["platform"])
    return {"standings", "seed"} <= set(event.get("data") or {})      # a lobby that does not say


def _code(reply: Reply) -> str:
    try:
        return reply.json()["error"]["code"]
    except Exception:           # not our error shape (a proxy's page, say): keep the status only
        return "?"


def choose_bots(plan: LoadPlan, get_game: Callable) -> tuple[str, object]:
    """Which bots a run uses, and the engine (None when it is not installed here)."""
    try:
        engine = get_game(plan.game)
    except Exception:
        engine = None
    if plan.bots == "engine" and engine is None:
        raise ValueError(f"--bots engine needs the {plan.game} engine installed here")
    if plan.bots != "auto":
        return plan.bots, engine
    if engine is not None and full_information(engine, plan.seats, plan.options):
        return "engine", engine
    return "actions", engine


async def run_load(plan: LoadPlan, get_game: Callable | None = None,
                   budget: Budget | None = None, journal=None) -> LoadReport:
    if plan.workers > 1:
        if budget is not None:
            raise ValueError("a shared budget (stopped from outside) needs workers=1")
        from starbase_cli.loadworkers import run_in_workers
        return await run_in_workers(plan, get_game, journal)
    run_id = f"load{random.Random().getrandbits(40):010x}"
    return await run_tables(plan, range(plan.tables), run_id, get_game, budget, journal)


async def run_tables(plan: LoadPlan, indices: range | list[int], run_id: str, get_game: Callable | None,
                     budget: Budget | None, journal=None) -> LoadReport:
    """The tables numbered `indices` (their numbers seed their bots and name their commands), in this loop."""
    if get_game is None:
        from starbase_rules.registry import get_game
    bots, engine = choose_bots(plan, get_game)
    report = LoadReport(plan=plan, bots=bots)
    budget = budget or Budget(plan)         # after choosing the bots: importing an engine is not load
    connections = len(indices) * (plan.seats + 1) + 4
    lag = LoopLag()
    lag.start()
    cpu_began = time.process_time()
    began = time.perf_counter()
    async with YoungCollections(), LobbyHttp(plan.lobby, connections, timeout=30) as http:
        bot_thread = BotThread() if bots == "engine" and plan.bot_thread else None
        slots = [TableSlot(i, plan, http, report, budget, engine, bots, run_id, journal, bot_thread)
                 for i in indices]
        tasks = [asyncio.create_task(slot.run()) for slot in slots]
        # A last resort against a lobby that stops answering mid-request: the run still ends and reports.
        _, late = await asyncio.wait(tasks, timeout=plan.duration + plan.drain + HARD_STOP_SLACK)
        if late:
            budget.stop("hard stop")
            report.error(f"tables cancelled at the hard stop: {len(late)}")
            for task in late:
                task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for slot in slots:
            await slot.close()
        if bot_thread is not None:
            bot_thread.close()
    for task in tasks:
        if not task.cancelled() and task.exception() is not None:
            report.error(f"table failed: {str(task.exception())[:200]}")
    report.elapsed = time.perf_counter() - began
    report.cpu = time.process_time() - cpu_began
    report.loop_lags = await lag.stop()
    if budget.reason:
        report.stopped = budget.reason
    elif plan.games is not None and budget.started >= plan.games:
        report.stopped = "games done"
    else:
        report.stopped = "every table stopped (see errors)"
    return report


def new_loop_run(coroutine):
    """Run `coroutine` on a fresh event loop: uvloop when installed, else asyncio's."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coroutine)
    return uvloop.run(coroutine)
