"""Tables: load a stream, decide with `domain`, append with the expected seq, retry on a race.

Every write goes to the event store first; the projection is only told afterwards. Two lobby replicas
racing on one table both decide on what they read, the store accepts one append, and the loser decides
again on the new state (and may then be refused, e.g. TABLE_FULL).
"""
from __future__ import annotations

import re
import secrets
import uuid
from typing import Callable

import structlog

from starbase_core.envelope import NewEvent
from starbase_core.store import WrongExpectedSeq
from starbase_core.transaction import TooBusy, run_optimistically
from starbase_rules.contract import RuleViolation
from starbase_rules.registry import get_game

from lobby import domain
from lobby.domain import Table, TableEvent
from lobby.exceptions import Conflict, Invalid, NotFound, RuleRefused
from lobby.projection import TableProjection
from lobby.tokens import Identity

log = structlog.get_logger(__name__)
RACE_RETRIES = 8


def new_id() -> str:
    return uuid.uuid4().hex[:12]


def load_engine(name: str):
    """The rules engine of a game name, or UNKNOWN_GAME (also when its package is not built yet)."""
    try:
        return get_game(name)
    except RuleViolation as refusal:
        raise Invalid(refusal.message, "UNKNOWN_GAME") from None
    except (ImportError, AttributeError):
        raise Invalid(f"the game {name!r} is not available on this server", "UNKNOWN_GAME") from None


class TableService:
    def __init__(self, store, projection: TableProjection, adjudicator):
        self.store, self.projection, self.adjudicator = store, projection, adjudicator

    async def load(self, table_id: str) -> Table:
        """A table's current state, read from its stream (not the projection: decisions need the truth)."""
        if not domain_id_ok(table_id):
            raise NotFound(f"no table {table_id!r}", "TABLE_NOT_FOUND")
        envelopes = await self.store.read(f"table.{table_id}")
        if not envelopes:
            raise NotFound(f"no table {table_id!r}", "TABLE_NOT_FOUND")
        table = domain.fold([domain.parse_table_event(e.data) for e in envelopes])
        table.seq = envelopes[-1].seq
        return table

    async def _write(self, table_id: str, actor: str, decide: Callable[[Table], list[TableEvent]],
                     command_id: str | None = None, new: bool = False) -> Table:
        async def attempt() -> Table:
            table = Table() if new else await self.load(table_id)
            events = decide(table)
            if not events:
                return table
            try:
                envelopes = await self.store.append(
                    f"table.{table_id}", [NewEvent(type=e.type, data=e.model_dump(), actor=actor) for e in events],
                    expected_seq=table.seq, command_id=command_id)
            except WrongExpectedSeq:
                if new:
                    raise Conflict(f"table {table_id} already exists", "TABLE_EXISTS") from None
                raise               # someone else changed the table: decide again on what it is now
            for envelope in envelopes:
                await self.projection.apply(envelope)
            return self.projection.get(table_id) or await self.load(table_id)

        try:
            return await run_optimistically(attempt, attempts=RACE_RETRIES)
        except TooBusy:
            raise Conflict("the table is changing too fast; try again", "TABLE_BUSY") from None

    async def create(self, host: Identity, game: str, options: dict, seats: int, private: bool,
                     bots: dict[int, str] | None = None) -> Table:
        engine = load_engine(game)
        table_id = new_id()
        invite = secrets.token_urlsafe(9) if private else None
        return await self._write(table_id, host.player_id, lambda _: domain.decide_create(
            table_id, game, options, seats, engine.min_players, engine.max_players, private, invite,
            host.player_id, bots), new=True)

    async def record(self, table_id: str, actor: str, command_id: str,
                     decide: Callable[[Table], list[TableEvent]]) -> Table:
        """Append what the game already decided (a resignation, a substitute), once per command id."""
        return await self._write(table_id, actor, decide, command_id=command_id)

    async def join(self, who: Identity, table_id: str, seat: int | None, invite: str | None) -> Table:
        return await self._write(table_id, who.player_id,
                                 lambda t: domain.decide_join(t, who.player_id, seat, invite))

    async def leave(self, who: Identity, table_id: str) -> Table:
        return await self._write(table_id, who.player_id, lambda t: domain.decide_leave(t, who.player_id))

    async def ready(self, who: Identity, table_id: str, ready: bool) -> Table:
        return await self._write(table_id, who.player_id, lambda t: domain.decide_ready(t, who.player_id, ready))

    async def spectate(self, who: Identity, table_id: str, invite: str | None) -> Table:
        return await self._write(table_id, who.player_id,
                                 lambda t: domain.decide_spectate(t, who.player_id, invite))

    async def invite(self, who: Identity, table_id: str, player: str) -> Table:
        return await self._write(table_id, who.player_id, lambda t: domain.decide_invite(t, who.player_id, player))

    async def start(self, who: Identity, table_id: str) -> Table:
        """Lock the table (GameStarted, which fixes who plays) first, then create the game.

        Why this order: the game's stream is `game.<table id>`, created once. Created first, a game
        whose GameStarted then lost a race to a player leaving would hold the old players for ever,
        and the table could never start. Locked first, the window between the two steps (a crash, an
        outage) leaves a playing table without its game, and `complete_start` closes it: creation is
        idempotent (its command id is the game's), so a retried start and any reader that finds the
        game missing (`GameService`) create it, with the players GameStarted fixed."""
        game_id = table_id          # one game per table: its stream is game.<table id>
        table = await self._write(table_id, who.player_id, lambda t: domain.decide_start(t, who.player_id, game_id))
        await self.complete_start(table, who.player_id)
        return table

    async def complete_start(self, table: Table, actor: str = "lobby") -> None:
        """Create the game of a started table (a no-op if it exists). If the adjudicator refuses it
        (say, a bad option), record StartFailed, which reopens the table, and raise the refusal."""
        try:
            await self.adjudicator.create_game(table.game_id, table.game, table.players, table.options)
        except RuleViolation as refusal:
            await self._write(table.table_id, actor, lambda t: domain.decide_start_failed(
                t, table.game_id, refusal.code, refusal.message))
            raise RuleRefused(refusal.message, refusal.code) from None

    async def finish(self, game_id: str, standings: list[dict]) -> None:
        """Record on the table that its game ended (called by the feed on `GameEnded`, on every replica)."""
        try:
            await self._write(game_id, "lobby", lambda t: domain.decide_finish(t, game_id, standings),
                              command_id="finish")
        except NotFound:
            pass                    # a game started outside the lobby: no table to tell


# ASCII only: str.isalnum() also accepts letters such as 'õ' or '٣', which the store refuses in a
# stream name (that was a 500 before).
_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def domain_id_ok(identifier: str) -> bool:
    """Ids become stream-name tokens: refuse anything that could not be one (e.g. 'a.b', '*', 'õ')."""
    return _ID.fullmatch(identifier) is not None
