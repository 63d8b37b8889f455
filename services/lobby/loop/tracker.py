"""How "who owes a decision" reaches the lobby: from the game envelopes its feed already follows.

Every replica's feed sees every envelope of `game.>`. On each one, the game is marked as wanting a
look at that seq; one worker per game looks (later envelopes that arrive meanwhile fold into one look):

1. the game's shared turn in Redis (`<prefix>:turn:{<game>}`, JSON of `turns.Turn`): if it is at that
   seq or later, another replica already worked it out: adopt it;
2. else claim the look (`SET … NX PX`), ask the adjudicator `ToAct` (a read on its cached game: who
   owes now, at which seq), read the envelopes since the previous turn from the store (their actors
   and times: who acted, since when), apply `turns.next_turn`, and store it only if it is newer than
   what Redis holds (a Lua compare-and-set on seq); a replica that lost the claim waits for the
   winner's turn (bounded) and works it out itself if none comes.

So one adjudicator call per command whatever the number of lobby replicas, every replica ends with the
same turn (the same `since`, so the same `due_at`), and a restarted replica reads the turns of the
running games from Redis (`warm`) instead of asking again. The adjudicator folds the game anyway; the
lobby never folds a game itself (no engine state per replica, no replay at start).

A command this replica submitted needs neither the adjudicator's `ToAct` nor the store: Submit's reply
says who owes right after the command's events (`told`), and those events are the steps. An envelope
seen while a command of this replica is in flight on its game starts no look: the reply settles the game
(`replied`). When what was told leads, one command after another, from the turn this replica holds to
the seq wanted, the turn is folded from it and stored straight from the reply, no task and no look, with
the same compare-and-set on seq (one Redis round trip, shared with the other turns told within
`STORE_WINDOW`; no claim: a replica that claimed the same seq meanwhile adopts whichever turn Redis holds
first); when it does not, a look starts once no command of this replica is in flight (a look already
running waits for the reply itself, `REPLY_WAIT` at most). Anything missing
(another replica's or a bot's command, a retry, an undo, a restart, an older adjudicator) takes the
path above, after a head start (`SENDER_HEAD_START`) in which the sending replica, if there is one, has
stored the turn its reply told it: the other replicas then adopt it instead of each asking `ToAct` and
reading the store for a command they did not send. Figures: benchmarks/bench_lobby_cpu.py; the turn rule and "my games": bench_review.py.
"""
from __future__ import annotations

import asyncio
import json
import uuid
from dataclasses import dataclass

import structlog

from starbase_core.compact_json import compact
from starbase_core.gamestream import game_stream

from starbase_core.script_line import LineScript, ScriptLine
from lobby.loop.turns import Step, Turn, TurnIndex, next_turn
from starbase_core.supervise import cancel_and_wait

log = structlog.get_logger(__name__)

CLAIM_MS = 2000                 # how long a claimed look may take before another replica takes over
WAIT_STEP = 0.05
LOOKS_AT_ONCE = 16              # adjudicator calls and Redis round trips in flight, per replica
MAX_STEPS = 500                 # envelopes read between two turns at most (else: dated from the last)
RUNNING_TTL = 40 * 24 * 3600    # a turn outlives the longest decision clock (30 days)
ENDED_TTL = 3600
ATTEMPTS = 3
REPLY_WAIT = 1.0                # how long a look waits for the reply of this replica's command in flight
# How long a look at another replica's command (or a bot's, the clock's) waits before it claims the
# work: the sender stores the turn its reply told it within a few ms, and adopting it is one Redis round
# trip, where working it out is a ToAct call, a store read and two round trips (on every other replica).
SENDER_HEAD_START = 0.05
TOLD_KEPT = 64                  # replies kept per game until a look folds them
# The turns folded from this replica's replies are stored together: every one told within this window
# goes to Redis in one send (`ScriptLine.evalsha_many`), the compare-and-set on seq for each as before.
# At a few hundred commands a second that is a round trip for several commands instead of one each (the
# lobby's CPU per command: docs/lobby-capacity.md); the window is well inside SENDER_HEAD_START, so
# another replica still finds the turn stored before it would work it out itself.
STORE_WINDOW = 0.01

# One round trip each way, as a command's look is on every command's path (benchmarks/bench_lobby_cpu.py).
# KEYS: the turn, its claim. ARGV: the seq wanted, a claim token, the claim's ms. Returns the turn
# held (or nil) and 1 when this look claimed the work (only when what is held is older than the seq);
# run again with the same token (a retry after a lost connection), the claim is still this look's.
_HELD_OR_CLAIM = """
local held = redis.call('GET', KEYS[1])
if held and cjson.decode(held)['seq'] >= tonumber(ARGV[1]) then return {held, 0} end
local claimed = redis.call('SET', KEYS[2], ARGV[2], 'NX', 'PX', ARGV[3])
if not claimed then claimed = redis.call('GET', KEYS[2]) == ARGV[2] end
return {held or false, claimed and 1 or 0}
"""
# KEYS: the turn[, the claim to release]. ARGV: its seq, its JSON, its time to live. 1: stored; else
# the turn Redis holds, at this seq or later (so the loser adopts it without another round trip).
_STORE_IF_NEWER = """
if KEYS[2] then redis.call('DEL', KEYS[2]) end
local held = redis.call('GET', KEYS[1])
if held and cjson.decode(held)['seq'] >= tonumber(ARGV[1]) then return held end
redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3])
return 1
"""


@dataclass(frozen=True)
class Told:
    """What the reply to one of this replica's commands said: its envelopes, then who owes at `seq`."""
    seq: int                        # the command's last envelope
    steps: list[Step]               # the command's envelopes, in order
    to_act: list[str]
    ended: bool


class TurnTracker:
    def __init__(self, turns: TurnIndex, redis, prefix: str, adjudicator, store):
        self.turns, self.redis, self.prefix = turns, redis, prefix
        self.adjudicator, self.store = adjudicator, store
        self._wanted: dict[str, int] = {}
        self._workers: dict[str, asyncio.Task] = {}
        self._gate = asyncio.Semaphore(LOOKS_AT_ONCE)
        self._told: dict[str, dict[int, Told]] = {}          # game → its replies by their first seq
        self._in_flight: dict[str, int] = {}                 # game → this replica's commands awaiting a reply
        self._replied: dict[str, asyncio.Future] = {}        # game → woken by the next reply
        self._line = ScriptLine(redis)              # a look per command: the cheap way
        self._store_if_newer = LineScript(self._line, _STORE_IF_NEWER, attempts=3)
        self._held_or_claim = LineScript(self._line, _HELD_OR_CLAIM, attempts=3)
        self._stores: list[tuple[list, list, asyncio.Future]] = []     # told turns awaiting the window
        self._window: asyncio.TimerHandle | None = None
        self._sending: set[asyncio.Task] = set()
        self._told_storing: set[asyncio.Future] = set()      # stored straight from a reply (`_store_told_now`)
        self._storing: dict[str, int] = {}                  # game → the last seq stored that way
        self._awaiting: set[str] = set()                    # games whose look waits for this replica's reply

    def key(self, game_id: str) -> str:
        return f"{self.prefix}:turn:{{{game_id}}}"

    async def stop(self) -> None:
        await cancel_and_wait(list(self._workers.values()))
        if self._window is not None:
            self._window.cancel()
        await cancel_and_wait(list(self._sending))
        await self._line.aclose()

    def seen(self, game_id: str, seq: int) -> None:
        """The game has reached `seq`: look at its turn (once per burst of envelopes). While a command of
        this replica is in flight on the game, its reply most likely tells the turn: `replied` settles it."""
        if seq <= self._wanted.get(game_id, 0):
            return
        self._wanted[game_id] = seq
        if game_id in self._workers:
            return
        if self._in_flight.get(game_id):
            self._awaiting.add(game_id)
        else:
            self._start_look(game_id)

    def _start_look(self, game_id: str) -> None:
        self._workers[game_id] = asyncio.get_running_loop().create_task(self._work(game_id))

    def sending(self, game_id: str) -> None:
        """A command of this replica is on its way to the adjudicator: a look waits for its reply."""
        self._in_flight[game_id] = self._in_flight.get(game_id, 0) + 1

    def replied(self, game_id: str, envelopes: list | None = None, turn: dict | None = None) -> None:
        """Its reply came (or the call failed: nothing told). `turn`: who owes right after `envelopes`
        ({"seq", "to_act", "ended"}, the adjudicator's), None when it did not say."""
        left = self._in_flight.get(game_id, 0) - 1
        if left > 0:
            self._in_flight[game_id] = left
        else:
            self._in_flight.pop(game_id, None)
        if envelopes and turn is not None and int(turn["seq"]) == envelopes[-1].seq:
            told = self._told.setdefault(game_id, {})
            told[envelopes[0].seq] = Told(envelopes[-1].seq, [Step.of(e) for e in envelopes],
                                          list(turn["to_act"]), bool(turn["ended"]))
            while len(told) > TOLD_KEPT:
                del told[min(told)]
        waiting = self._replied.pop(game_id, None)
        if waiting is not None and not waiting.done():
            waiting.set_result(None)
        if envelopes and envelopes[-1].seq > self._wanted.get(game_id, 0):
            self._wanted[game_id] = envelopes[-1].seq
            self._awaiting.add(game_id)
        if game_id in self._awaiting and game_id not in self._workers:
            if self._store_told_now(game_id):
                self._awaiting.discard(game_id)
            elif not self._in_flight.get(game_id):
                self._awaiting.discard(game_id)
                self._start_look(game_id)       # not all told here (another replica's command, a retry…)
            # else another command of this replica is in flight: its reply settles the game

    async def settled(self) -> None:
        """Every look asked for so far is done (tests, and `warm`)."""
        while self._workers or self._told_storing:
            await asyncio.gather(*list(self._workers.values()), return_exceptions=True)
            if self._told_storing:
                await asyncio.wait(list(self._told_storing))    # not cancelled with this wait

    # --- this replica's own commands ---

    def _store_told_now(self, game_id: str) -> bool:
        """The common case, every command of this replica: what its replies told leads from the turn held
        here to the seq wanted. That turn is folded and sent with the window's others straight from here,
        no worker started (a task, a wait for the reply, a look: a good part of the tracker's cost per
        command). False when something between was not told here: the worker's way."""
        wanted, known = self._wanted.get(game_id, 0), self.turns.get(game_id)
        if (known is not None and known.seq >= wanted) or self._storing.get(game_id, 0) >= wanted:
            return True                     # held already, or on its way to Redis
        told = self._told_turn(game_id, wanted)
        if told is None:
            return False
        self._storing[game_id] = told.seq
        stored = self._store_told_soon([self.key(game_id)], [
            told.seq, compact(told.as_json()), ENDED_TTL if told.ended else RUNNING_TTL])
        self._told_storing.add(stored)
        stored.add_done_callback(lambda _: self._told_stored(game_id, told, stored))
        return True

    def _told_stored(self, game_id: str, told: Turn, stored: asyncio.Future) -> None:
        self._told_storing.discard(stored)
        if stored.cancelled():
            return                          # stopping
        if stored.exception() is not None:  # Redis away: a worker tries again, patiently, as any look
            log.warning("turn_store_failed", game_id=game_id, error=repr(stored.exception()))
            self._storing.pop(game_id, None)
            if game_id not in self._workers:
                self._start_look(game_id)
            return
        held = stored.result()
        self.turns.adopt(told if held == 1 else Turn.from_json(game_id, json.loads(held)))
        self._forget_told(game_id)
        if game_id not in self._workers and self.turns.get(game_id) is None:   # ended: as a worker ends
            self._forget_game(game_id)

    def _forget_game(self, game_id: str) -> None:
        """Ended (or never learnt): the next envelope asks again."""
        for held in (self._wanted, self._told, self._storing):
            held.pop(game_id, None)
        self._awaiting.discard(game_id)

    async def warm(self, game_ids: list[str]) -> None:
        """At start: take the running games' turns from Redis; look again where the store is further."""
        for start in range(0, len(game_ids), 200):
            batch = game_ids[start:start + 200]
            for game_id, raw in zip(batch, await self.redis.mget([self.key(g) for g in batch])):
                if raw:
                    self.turns.adopt(Turn.from_json(game_id, json.loads(raw)))
        for game_id in game_ids:
            async with self._gate:
                last = await self.store.last_seq(game_stream(game_id))
            turn = self.turns.get(game_id)
            if last and (turn is None or turn.seq < last):
                self.seen(game_id, last)

    # --- one game's looks ---

    async def _work(self, game_id: str) -> None:
        try:
            done = 0
            while (wanted := self._wanted.get(game_id, 0)) > done:
                head_start = not self._in_flight.get(game_id) and self._told_turn(game_id, wanted) is None
                if head_start:
                    await asyncio.sleep(SENDER_HEAD_START)      # not this replica's command: its sender's turn
                await self._await_reply(game_id)
                latest = self._wanted.get(game_id, 0)
                # What came during a head start has not had one: it waits for the next time round (else
                # this replica works out a turn its sender is storing that very moment), unless told here.
                if not head_start or self._told_turn(game_id, latest) is not None:
                    wanted = latest
                await self._look_patiently(game_id, wanted)
                done = wanted
        finally:
            self._workers.pop(game_id, None)
            if self.turns.get(game_id) is None:
                self._forget_game(game_id)

    async def _await_reply(self, game_id: str) -> None:
        """While a command of this replica is in flight on the game and what it was told does not reach
        the seq wanted yet, wait for the next reply (bounded: a slow adjudicator leaves the usual look)."""
        deadline = asyncio.get_running_loop().time() + REPLY_WAIT
        while self._in_flight.get(game_id) and self._told_turn(game_id, self._wanted.get(game_id, 0)) is None:
            left = deadline - asyncio.get_running_loop().time()
            waiting = self._replied.get(game_id)
            if waiting is None or waiting.done():
                waiting = self._replied[game_id] = asyncio.get_running_loop().create_future()
            try:
                await asyncio.wait_for(asyncio.shield(waiting), max(0.0, left))
            except TimeoutError:
                if self._replied.get(game_id) is waiting:
                    del self._replied[game_id]      # nobody else waits on it: one worker per game
                return

    def _told_turn(self, game_id: str, seq: int) -> Turn | None:
        """The turn at `seq` or past it, folded from the turn held here through the replies told since,
        one command after another; None when a command between them was not told here."""
        turn, told = self.turns.get(game_id), self._told.get(game_id)
        if turn is None or not told:
            return None
        while turn.seq < seq:
            reply = told.get(turn.seq + 1)
            if reply is None:
                return None
            turn = next_turn(turn, game_id, reply.seq, reply.to_act, reply.ended, reply.steps)
        return turn

    def _forget_told(self, game_id: str) -> None:
        """Drop the replies the turn held here has passed."""
        told, turn = self._told.get(game_id), self.turns.get(game_id)
        if told is None:
            return
        if turn is None:
            del self._told[game_id]
            return
        for first in [first for first, reply in told.items() if reply.seq <= turn.seq]:
            del told[first]
        if not told:
            del self._told[game_id]

    async def _look_patiently(self, game_id: str, seq: int) -> None:
        for attempt in range(ATTEMPTS):
            try:
                async with self._gate:
                    await self._look(game_id, seq)
                return
            except asyncio.CancelledError:
                raise
            except Exception as error:      # the adjudicator or Redis is away: again, then at the next move
                log.warning("turn_look_failed", game_id=game_id, attempt=attempt, error=repr(error))
                await asyncio.sleep(0.2 * 2 ** attempt)

    async def _look(self, game_id: str, seq: int) -> None:
        try:
            await self._look_at(game_id, seq)
        finally:
            self._forget_told(game_id)

    async def _look_at(self, game_id: str, seq: int) -> None:
        known = self.turns.get(game_id)
        if known is not None and known.seq >= seq:
            return                          # a reply, or a look for a later seq, got there first
        told = self._told_turn(game_id, seq)
        if told is not None:
            held = await self._store_told([self.key(game_id)], [
                told.seq, compact(told.as_json()), ENDED_TTL if told.ended else RUNNING_TTL])
            self.turns.adopt(told if held == 1 else Turn.from_json(game_id, json.loads(held)))
            return
        claim = f"{self.key(game_id)}:claim"
        raw, claimed = await self._held_or_claim(keys=[self.key(game_id), claim], args=[seq, uuid.uuid4().hex, CLAIM_MS])
        held = Turn.from_json(game_id, json.loads(raw)) if raw else None
        if held is not None and held.seq >= seq:
            self.turns.adopt(held)
            return
        if not int(claimed):
            for _ in range(int(CLAIM_MS / 1000 / WAIT_STEP)):
                await asyncio.sleep(WAIT_STEP)
                held = await self._held(game_id)
                if held is not None and held.seq >= seq:
                    self.turns.adopt(held)
                    return
        turn = await self._work_out(game_id, held or self.turns.get(game_id))
        stored = await self._store_if_newer(keys=[self.key(game_id)] + ([claim] if int(claimed) else []), args=[
            turn.seq, compact(turn.as_json()), ENDED_TTL if turn.ended else RUNNING_TTL])
        self.turns.adopt(turn if stored == 1 else Turn.from_json(game_id, json.loads(stored)))

    async def _store_told(self, keys: list, args: list) -> object:
        return await self._store_told_soon(keys, args)

    def _store_told_soon(self, keys: list, args: list) -> asyncio.Future:
        """`_store_if_newer`, sent with every other told turn of this `STORE_WINDOW`: its answer's future."""
        loop = asyncio.get_running_loop()
        if not self._stores:
            self._window = loop.call_later(STORE_WINDOW, self._send_stores)
        stored = loop.create_future()
        self._stores.append((keys, args, stored))
        return stored

    def _send_stores(self) -> None:
        stores, self._stores, self._window = self._stores, [], None
        if stores:
            # A task of its own: a look cancelled meanwhile (the tracker stopping) cancels only its future.
            sending = asyncio.get_running_loop().create_task(self._store_all(stores))
            self._sending.add(sending)
            sending.add_done_callback(self._sending.discard)

    async def _store_all(self, stores: list[tuple[list, list, asyncio.Future]]) -> None:
        script = self._store_if_newer
        try:
            replies = await self._line.evalsha_many(script.sha, script.text, [(k, a) for k, a, _ in stores])
        except Exception as error:      # the connection: each look tries again (`_look_patiently`)
            replies = [error] * len(stores)
        for (_, _, stored), reply in zip(stores, replies):
            if stored.done():
                continue
            if isinstance(reply, Exception):
                stored.set_exception(reply)
            else:
                stored.set_result(reply)

    async def _held(self, game_id: str) -> Turn | None:
        raw = await self.redis.get(self.key(game_id))
        return Turn.from_json(game_id, json.loads(raw)) if raw else None

    async def _work_out(self, game_id: str, previous: Turn | None) -> Turn:
        answer = await self.adjudicator.to_act(game_id)
        seq = int(answer["seq"])
        if previous is not None and previous.seq >= seq:
            return previous
        if previous is not None and seq - previous.seq > MAX_STEPS:
            previous = None                 # too far behind to say who acted: date decisions from `seq`
        first = previous.seq + 1 if previous is not None else seq
        between = [Step.of(e) for e in await self.store.read(game_stream(game_id), first) if e.seq <= seq]
        return next_turn(previous, game_id, seq, list(answer["to_act"]), bool(answer["ended"]), between)
