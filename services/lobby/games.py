"""Playing: submit a command for my seat, read my view, my legal actions, the public log, live events.

The lobby is the gate: it decides *who* may act (only the player seated in a seat acts for it; a
spectator never acts) and hands the command to the adjudicator, which decides *whether* it is legal.
It reads events straight from the store and redacts them per viewer (see `redaction.py`); live pushes
are redacted and encoded once per view and shared by every socket with that view (`Feed.text`).
"""
from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from typing import Awaitable, Callable, TypeVar

from starbase_core.envelope import Envelope
from starbase_core.gamestream import same_for_every_viewer
from starbase_rules.contract import RuleViolation

from lobby.clockview import ClockViews
from lobby.domain import Table
from lobby.exceptions import Forbidden, NotFound, RuleRefused
from lobby.feed import Feed
from lobby.redaction import wire_event
from lobby.service import TableService, domain_id_ok, load_engine
from lobby.tokens import Identity
from lobby.wire import event_json, event_text

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Watch:
    """What a socket may watch: `stream` past `after`, as `view` sees it (a seat's player id, or None
    for every spectator); `encode` makes an envelope's push for that view (`Feed.serve` shares it);
    `alike` tells an envelope whose push is the same for every view (shared by all of them)."""
    stream: str
    after: int
    view: str | None
    encode: Callable[[Envelope], str]
    alike: Callable[[Envelope], bool] | None = None


def watch_game(engine, game_id: str, after: int, viewer: str | None) -> Watch:
    """A game's events past `after` as `viewer` sees them (None: a spectator)."""
    encode = spectators_push(engine) if viewer is None else functools.partial(push_text, engine, viewer)
    return Watch(f"game.{game_id}", after, viewer, encode, pushes_alike(engine))


def push_text(engine, viewer: str | None, envelope: Envelope) -> str:
    return event_text(wire_event(engine, envelope, viewer))


# One of each per engine (a handful), shared by every socket: a crowd of spectators holds no functions
# of its own, only its `Watch`.
@functools.cache
def spectators_push(engine) -> Callable[[Envelope], str]:
    return functools.partial(push_text, engine, None)


@functools.cache
def pushes_alike(engine) -> Callable[[Envelope], bool]:
    return functools.partial(same_for_every_viewer, engine)


@dataclass(frozen=True)
class Moved:
    """A command stored: its id (as the player gave it), its envelopes, and who acted (the seat's id)."""
    command_id: str
    envelopes: list[Envelope]
    engine: object
    actor: str


class GameService:
    def __init__(self, store, tables: TableService, adjudicator, feed: Feed):
        self.store, self.tables, self.adjudicator, self.feed = store, tables, adjudicator, feed
        self.clocks = ClockViews(store)
        # The turn tracker (`loop.tracker`, set when the loop starts): told who owes after each command,
        # as the adjudicator's reply says, so that its look needs no ToAct call and no store read.
        self.tracker = None

    async def table_of(self, game_id: str) -> Table:
        if not domain_id_ok(game_id):
            raise NotFound(f"no game {game_id!r}", "GAME_NOT_FOUND")
        table = self.tables.projection.get(game_id)
        if table is None or table.game_id != game_id:
            try:
                table = await self.tables.load(game_id)
            except NotFound:
                raise NotFound(f"no game {game_id!r}", "GAME_NOT_FOUND") from None
        if table.game_id != game_id:
            raise NotFound(f"game {game_id!r} has not started", "GAME_NOT_FOUND")
        return table

    def viewer_at(self, table: Table, who: Identity | None, invite: str | None = None,
                  granted: bool = False) -> str | None:
        """The seat-holder's own id, or None for a spectator; private games do not exist for strangers
        (`granted`: a socket ticket the lobby issued for this game after checking the invite)."""
        player = who.player_id if who else None
        if player is not None and (played := table.played_seat(player)) is not None:
            return played[1]            # a substitute sees the seat they play
        if not granted and not table.may_see(player, invite):
            raise NotFound(f"no game {table.game_id!r}", "GAME_NOT_FOUND")
        return None

    async def submit(self, who: Identity, game_id: str, command: dict, command_id: str | None,
                     seat: int | None) -> tuple[str, list[dict]]:
        """(the command id, the command's events as its actor sees them)."""
        move = await self.move(who, game_id, command, command_id, seat)
        return move.command_id, [wire_event(move.engine, e, move.actor) for e in move.envelopes]

    async def move(self, who: Identity, game_id: str, command: dict, command_id: str | None,
                   seat: int | None) -> "Moved":
        table = await self.table_of(game_id)
        played = table.played_seat(who.player_id)
        if played is None:
            self.viewer_at(table, who)      # a private game does not exist for a stranger: 404 first
            raise Forbidden("only a player seated in this game may act in it; spectators cannot",
                            "NOT_SEATED")
        my_seat, actor, played_by = played
        if seat is not None and seat != my_seat:
            raise Forbidden(f"you sit in seat {my_seat}, not seat {seat}: you may act only for your own seat",
                            "NOT_YOUR_SEAT")
        # A finished game still goes to the adjudicator: a retry of the winning move (same command id)
        # gets its original events back, anything else is refused there with GAME_OVER.
        # Command ids are per stream; prefixing the player's id keeps one player's ids from ever
        # colliding with (and so replaying) another's.
        command_id = command_id or os.urandom(16).hex()     # as uuid4().hex reads, at a tenth of its cost
        # A substitute acts for the seat's player id, naming themself as who plays it.
        by = {"played_by": played_by} if played_by is not None else {}
        tracker, envelopes, turn = self.tracker, None, None
        if tracker is not None:
            tracker.sending(game_id)
        try:
            envelopes, turn = await self._on_game(table, lambda: self._submit(
                game_id, actor, command, f"{who.player_id}:{command_id}", **by))
        except RuleViolation as refusal:
            raise RuleRefused(refusal.message, refusal.code) from None
        finally:
            if tracker is not None:
                tracker.replied(game_id, envelopes, turn)
        self.feed.stored(envelopes)         # pushed now, not when the follow brings them back
        return Moved(command_id, envelopes, load_engine(table.game), actor)

    def pushed(self, move: "Moved") -> list[str]:
        """Each of the move's events as its actor's sockets are pushed it: the same text, made once."""
        engine, actor = move.engine, move.actor
        return [event_json(self.feed.text(e, actor, lambda e=e: event_text(wire_event(engine, e, actor))))
                for e in move.envelopes]

    async def _submit(self, game_id: str, *args, **options) -> tuple[list[Envelope], dict | None]:
        """(the envelopes, who owes right after them if the adjudicator said)."""
        with_turn = getattr(self.adjudicator, "submit_with_turn", None)
        if with_turn is None:           # a client without it: the tracker asks ToAct
            return await self.adjudicator.submit(game_id, *args, **options), None
        return await with_turn(game_id, *args, **options)

    async def view(self, who: Identity | None, game_id: str, invite: str | None = None) -> dict:
        table = await self.table_of(game_id)
        viewer = self.viewer_at(table, who, invite)
        view = await self._ask(table, lambda: self.adjudicator.view(game_id, viewer))
        # Everyone who sees the game sees its clock: each seat's bank and the due_at of what it owes.
        return {**view, "clock": await self.clocks.state(game_id)}

    async def legal_actions(self, who: Identity, game_id: str) -> list[dict]:
        table = await self.table_of(game_id)
        played = table.played_seat(who.player_id)
        if played is None:
            self.viewer_at(table, who)      # a private game does not exist for a stranger: 404 first
            raise Forbidden("spectators have no actions: only seated players act", "NOT_SEATED")
        return await self._ask(table, lambda: self.adjudicator.legal_actions(game_id, played[1]))

    async def log(self, who: Identity | None, game_id: str, after: int, limit: int,
                  invite: str | None = None) -> tuple[list[dict], int]:
        """The public log: what a spectator sees, whoever asks."""
        table = await self.table_of(game_id)
        self.viewer_at(table, who, invite)
        engine = load_engine(table.game)
        envelopes = (await self.store.read(f"game.{game_id}", after + 1))[:limit]
        last = envelopes[-1].seq if envelopes else after
        return [wire_event(engine, e, None) for e in envelopes], last

    async def live(self, who: Identity | None, game_id: str, after: int,
                   granted_game: str | None = None) -> Watch:
        """Check the caller may watch, then what to push: the game's events past `after`, redacted."""
        table = await self.table_of(game_id)
        viewer = self.viewer_at(table, who, granted=granted_game == game_id)
        return watch_game(load_engine(table.game), game_id, after, viewer)

    async def live_table(self, who: Identity | None, table_id: str, after: int,
                         granted_game: str | None = None) -> Watch:
        table = await self.tables.load(table_id)
        if granted_game != table_id and not table.may_see(who.player_id if who else None):
            raise NotFound(f"no table {table_id!r}", "TABLE_NOT_FOUND")
        return Watch(f"table.{table_id}", after, None, spectators_push(None))

    async def _ask(self, table: Table, call: Callable[[], Awaitable[T]]) -> T:
        try:
            return await self._on_game(table, call)
        except RuleViolation as refusal:
            raise _as_lobby_error(refusal) from None

    async def _on_game(self, table: Table, call: Callable[[], Awaitable[T]]) -> T:
        """Call the adjudicator about the table's game. A started table whose game is missing (the
        lobby stopped between recording GameStarted and creating the game) gets its game now, with the
        players GameStarted fixed, and the call is made again (see `TableService.start`)."""
        try:
            return await call()
        except RuleViolation as refusal:
            if refusal.code != "GAME_NOT_FOUND" or table.status != "playing":
                raise
        await self.tables.complete_start(table)
        return await call()


def _as_lobby_error(refusal: RuleViolation):
    """The adjudicator's refusal as an HTTP error: a missing game is a 404, a rule's refusal a 422."""
    if refusal.code == "GAME_NOT_FOUND":
        return NotFound(refusal.message, refusal.code)
    return RuleRefused(refusal.message, refusal.code)
