"""Bot seats during building: the service builds the ship of every seat a bot holds.

The bot worker (`services/bots`) plays a bot seat's turn-based moves; it leaves a game alone while its
phase is played in real time (`realtime_service`), so Trucker's building is played here, where that
phase lives. Which seats bots hold, and at which level, is the game's stream's (`SeatControl`: the
table's `bots` option, a `PlayerResigned`), folded here as every reader folds it.

A game is listed (Redis set `trucker:botgames`) when a warehouse is loaded for a round of a game with
bot seats (`tables.TableService._open_table`: round 1 when its first person arrives, every later round,
a rebuild). Every replica runs `BotSeats.run` under the runtime's supervisor; one tick every
TRUCKER_BOT_MOVE_SECONDS: for each listed game it holds (or can take) a short lease on, it folds what the
stream gained and, while the game is building, plays at most one move per unfinished bot seat:

    the seat's own view, read now (`TableService.view_of`: what a move of that seat is decided on)
      → the engine's bot of the seat's level on what the seat may know (`GAME.seat_state`: face-down
        tiles and others' piles hidden) → `GAME.level_command`
      → `TableService.play` with `played_by` = the seat's controller (`bot:<level>`): the same decision
        and script as a person's move (guards, outbox, relay, ack once durable), so a bot's moves are
        stored once, chained and audited like everyone's (`meta.played_by`, which the audit checks).

One move per tick paces a bot like a person (its ship grows on every socket, people can race it); it
finishes (takes its order tile) when its level's bot says so. The lease (`trucker:{<game>}:botlease`,
renewed every tick, a few ticks long) keeps one replica playing a game's bots at a time; if that
replica dies another takes over once it expires. Were two replicas ever to play at once, the scripts'
guards would still refuse a move decided on a seat version another move changed: it wastes, never doubles.
A game leaves the list when it ends or no bot holds a seat any more (a substitute took it). A seat a
substitute holds is never built here: the stream names the substitute its controller, and the round's
warehouse (meta `controllers`) refuses the bot's move were this fold to lag; the substitute builds it
over the socket (`api.py`).
"""
from __future__ import annotations

import asyncio
import random
import uuid
from typing import TYPE_CHECKING, Callable

import structlog
from redis.asyncio import Redis

from starbase_core.gamestream import GameRecord, game_stream
from starbase_core.seats import BOT_PREFIX, is_bot
from starbase_core.transaction import realtime_service
from trucker_rules.game import GAME

from trucker.metrics import BOT_MOVES
from trucker.state_doc import Folded
from trucker.warehouse import Refused
from trucker.whole_game import SERVICE

if TYPE_CHECKING:
    from trucker.tables import TableService

log = structlog.get_logger(__name__)

BOT_GAMES = "trucker:botgames"        # the games whose bot seats the service builds for
FALLBACK_LEVEL = "normal"             # a level the engine has no bot for is played at this one
MIN_LEASE_SECONDS = 3.0
SCAN_PAGE = 64                        # listed games read per tick (`BotSeats.tick`)

# Renew or give up a lease only while this replica holds it (another may have taken it since).
_RENEW = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0"
_RELEASE = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0"


def bot_seats(record: GameRecord | None) -> dict[str, str]:
    """The seats a bot holds now, with the level the stream names for each ({seat: level})."""
    if record is None:
        return {}
    return {seat: controller.removeprefix(BOT_PREFIX)
            for seat, controller in record.seats.controllers.items() if is_bot(controller)}


def play_level(level: str) -> str:
    """The engine's bot level a seat is played at: its own, or FALLBACK_LEVEL for a level the engine
    does not know (the platform only seats known levels: `seats.bots_problems`; this keeps an older or
    hand-made stream playable). The move still names the seat's controller as recorded."""
    return level if level in GAME.bot_levels else FALLBACK_LEVEL


def lease_key(game: str) -> str:
    return f"trucker:{{{game}}}:botlease"


async def list_game(redis: Redis, game: str) -> None:
    await redis.sadd(BOT_GAMES, game)


class BotSeats:
    def __init__(self, service: "TableService", redis: Redis, move_seconds: float,
                 touch: Callable[[str], None] | None = None):
        self.service, self.redis = service, redis
        self.touch = touch      # the runtime's: a game played here is watched for its hourglass too
        self.move_seconds = move_seconds
        self.lease_ms = int(1000 * max(MIN_LEASE_SECONDS, 5 * move_seconds))
        self.me = uuid.uuid4().hex               # this replica, as the leases name it
        self.held: set[str] = set()               # games whose lease this replica holds
        self.folded: dict[str, Folded] = {}       # each held game, folded as far as read
        self._idle_until: dict[str, float] = {}   # games not building: when to look again
        self._cursor = 0                          # where the next tick reads the list on (SSCAN)
        self._seen: set[str] = set()              # the games listed, as far as this pass has read
        self._renew = redis.register_script(_RENEW)
        self._release = redis.register_script(_RELEASE)

    async def run(self) -> None:
        """The supervised task: a tick every move interval, until cancelled (leases given back then)."""
        loop = asyncio.get_running_loop()
        try:
            while True:
                started = loop.time()
                await self.tick()
                await asyncio.sleep(max(0.0, self.move_seconds - (loop.time() - started)))
        finally:
            for game in list(self.held):
                await self._let_go(game)

    async def tick(self) -> None:
        """One move (at most) for every unfinished bot seat of every listed game this replica holds.

        The list is read a page at a time (SSCAN, SCAN_PAGE games a tick, going on from where the last
        tick stopped), not whole: each tick costs a replica its own games and one page, however many
        games every replica together serves. The games this replica holds are played every tick; the
        others are tried for their lease when their page comes round (a game whose replica died is taken
        over within one pass of the list after its lease expires). A small list is one page: read whole
        every tick, as before."""
        cursor, page = await self.redis.sscan(BOT_GAMES, self._cursor, count=SCAN_PAGE)
        self._cursor = int(cursor)
        page = set(page)
        self._seen |= page
        if self._cursor == 0:       # a whole pass: what this replica holds and the list no longer has
            for game in self.held - self._seen:
                await self._let_go(game)
            self._seen = set()
        await asyncio.gather(*(self._tick_game(game) for game in self.held | page))

    async def _tick_game(self, game: str) -> None:
        now = asyncio.get_running_loop().time()
        if now < self._idle_until.get(game, 0.0) and game in self.held:
            await self._hold(game)
            return
        try:
            if not await self._hold(game):
                return
            following = await self.play_once(game)
        except Exception:  # one game's trouble must not stop the bots of the others
            log.exception("bot_seats_tick_failed", game=game)
            return
        if not following:
            await self.redis.srem(BOT_GAMES, game)
            await self._let_go(game)

    async def play_once(self, game: str) -> bool:
        """Catch up with the stream and play one move per unfinished bot seat if the game is building.
        False once the game needs no bot here any more (over, or no bot seat left)."""
        folded = await self._catch_up(game)
        record = folded.record
        seats = bot_seats(record)
        if record is None or record.ended is not None or not seats:
            return False
        if realtime_service(record) != SERVICE:
            # Repairs and the flight: the bot worker plays them. Look again a little later.
            self._idle_until[game] = asyncio.get_running_loop().time() + 2 * self.move_seconds
            return True
        self._idle_until.pop(game, None)
        for seat, level in seats.items():
            if record.state.seats[seat].order_tile is None:      # the stream may lag: the view decides
                await self.move(game, seat, level, record.state.round)
        return True

    async def move(self, game: str, seat: str, level: str, round: int) -> bool:
        """One building move of a bot seat of `round`, decided on the seat's view now; True if played."""
        try:
            return await self._move(game, seat, level, round)
        except Refused as refused:
            # Another seat got there first (a face-up tile, an order tile), the sand ran out, the round
            # ended: the next tick decides again on a fresh view.
            BOT_MOVES.labels(outcome="refused").inc()
            log.info("bot_move_refused", game=game, seat=seat, code=refused.code)
            return False

    async def _move(self, game: str, seat: str, level: str, round: int) -> bool:
        view = await self.service.view_of(game, seat)
        if view.state.round < round or (view.state.round == round and view.status == "ended"):
            # Redis still holds an earlier round's warehouse: load this one (and start it, as a
            # person's first move would).
            await self.service.open_current_round(game)
            view = await self.service.view_of(game, seat)
        if view.status != "building" or view.state.round != round or view.time_up \
                or view.state.seats[seat].order_tile is not None:
            return False
        if view.controller(seat) != f"{BOT_PREFIX}{level}":
            # The round's warehouse says someone else plays the seat (a substitute took it before the
            # round began, while this fold lags): nothing to decide; the script would refuse it anyway.
            return False
        rnd = random.Random(f"{game}:{seat}:{view.seq}:{view.version}")
        command = GAME.level_command(GAME.seat_state(view.state, seat), seat, rnd, play_level(level))
        if command is None:
            return False
        if self.touch is not None:
            self.touch(game)
        await self.service.play(game, seat, command, f"{seat}:bot:{uuid.uuid4().hex[:16]}", round=round,
                                played_by=f"{BOT_PREFIX}{level}")
        BOT_MOVES.labels(outcome="played").inc()
        return True

    async def _catch_up(self, game: str) -> Folded:
        folded = self.folded.get(game)
        if folded is None:
            folded = self.folded[game] = Folded(await self.service.store.read(game_stream(game)))
            return folded
        try:
            for envelope in await self.service.store.read(game_stream(game), from_seq=folded.seq + 1):
                folded.add(envelope)
        except Exception:   # an undo of what was folded, a gap: fold the whole stream again
            folded = self.folded[game] = Folded(await self.service.store.read(game_stream(game)))
        return folded

    async def _hold(self, game: str) -> bool:
        """Take the game's lease, or renew it if this replica holds it; False if another replica does."""
        key = lease_key(game)
        if game in self.held and await self._renew(keys=[key], args=[self.me, self.lease_ms]):
            return True
        if await self.redis.set(key, self.me, nx=True, px=self.lease_ms):
            self.held.add(game)
            return True
        self._forget(game)
        return False

    async def _let_go(self, game: str) -> None:
        try:
            await self._release(keys=[lease_key(game)], args=[self.me])
        except Exception:   # Redis unreachable: the lease expires by itself
            log.warning("bot_lease_release_failed", game=game)
        self._forget(game)

    def _forget(self, game: str) -> None:
        self.held.discard(game)
        self.folded.pop(game, None)
        self._idle_until.pop(game, None)
