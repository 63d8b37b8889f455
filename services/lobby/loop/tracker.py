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
Figures (the turn rule and "my games"): benchmarks/bench_review.py.
"""
from __future__ import annotations

import asyncio
import json
import uuid

import structlog

from starbase_core.gamestream import game_stream

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

# One round trip each way, as a command's look is on every command's path (benchmarks/bench_lobby_cpu.py).
# KEYS: the turn, its claim. ARGV: the seq wanted, a claim token, the claim's ms. Returns the turn
# held (or nil) and 1 when this look claimed the work (only when what is held is older than the seq).
_HELD_OR_CLAIM = """
local held = redis.call('GET', KEYS[1])
if held and cjson.decode(held)['seq'] >= tonumber(ARGV[1]) then return {held, 0} end
local claimed = redis.call('SET', KEYS[2], ARGV[2], 'NX', 'PX', ARGV[3])
return {held or false, claimed and 1 or 0}
"""
# KEYS: the turn[, the claim to release]. ARGV: its seq, its JSON, its time to live. 1: stored; 0: Redis
# holds this seq or later.
_STORE_IF_NEWER = """
if KEYS[2] then redis.call('DEL', KEYS[2]) end
local held = redis.call('GET', KEYS[1])
if held and cjson.decode(held)['seq'] >= tonumber(ARGV[1]) then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3])
return 1
"""


class TurnTracker:
    def __init__(self, turns: TurnIndex, redis, prefix: str, adjudicator, store):
        self.turns, self.redis, self.prefix = turns, redis, prefix
        self.adjudicator, self.store = adjudicator, store
        self._wanted: dict[str, int] = {}
        self._workers: dict[str, asyncio.Task] = {}
        self._gate = asyncio.Semaphore(LOOKS_AT_ONCE)
        self._store_if_newer = redis.register_script(_STORE_IF_NEWER)
        self._held_or_claim = redis.register_script(_HELD_OR_CLAIM)

    def key(self, game_id: str) -> str:
        return f"{self.prefix}:turn:{{{game_id}}}"

    async def stop(self) -> None:
        await cancel_and_wait(list(self._workers.values()))

    def seen(self, game_id: str, seq: int) -> None:
        """The game has reached `seq`: look at its turn (once per burst of envelopes)."""
        if seq <= self._wanted.get(game_id, 0):
            return
        self._wanted[game_id] = seq
        if game_id not in self._workers:
            self._workers[game_id] = asyncio.get_running_loop().create_task(self._work(game_id))

    async def settled(self) -> None:
        """Every look asked for so far is done (tests, and `warm`)."""
        while self._workers:
            await asyncio.gather(*list(self._workers.values()), return_exceptions=True)

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
                await self._look_patiently(game_id, wanted)
                done = wanted
        finally:
            self._workers.pop(game_id, None)
            if self.turns.get(game_id) is None:     # ended (or never learnt): the next envelope asks again
                self._wanted.pop(game_id, None)

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
            turn.seq, json.dumps(turn.as_json()), ENDED_TTL if turn.ended else RUNNING_TTL])
        self.turns.adopt(turn if stored else (await self._held(game_id) or turn))

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
