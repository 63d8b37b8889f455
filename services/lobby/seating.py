"""Seats of a running game: resign (or leave), take a given-up seat as a substitute, undo by agreement.

    POST /games/{id}/resign                  give your seat up (also: POST /tables/{id}/leave once playing)
    POST /games/{id}/seats/{seat}/take       a substitute takes a given-up seat (a private table: ?invite)
    POST /games/{id}/undo {"count": n}       take back your last n commands
    POST /games/{id}/undo/agree | /refuse    answer another's undo request (rated games)

The game decides, the table records. Each action is a platform command sent to the adjudicator
(`starbase_core.platform_commands`), which checks it against the game's own record of who controls
each seat, and appends it to the game's stream (so the hash chain and the audit hold). Only once it
is accepted does the lobby append the table's `SeatResigned` / `SubstituteSeated`, which list and
show the seat; both carry a command id derived from the seat and the player, so a retry after a crash
between the two writes gets the game's original answer back and records the table event then.

What happens on a resignation is the platform's rule (`starbase_core.seats`): with 2 players, the
other wins; with 3 or more, a bot (`normal`) plays the seat and the game goes on while at least two
people still play; with fewer it ends, the resigners last. Undo's refusals (UNDO_AFTER_DRAW,
UNDO_REVEALED, UNDO_OTHERS_ACTED, …) are the platform's too (`starbase_core.undo`). See docs/seats.md.
"""
from __future__ import annotations

from starbase_core.envelope import Envelope
from starbase_core.gamestream import is_platform
from starbase_core.undo import PLAYER_RESIGNED, SEAT_TAKEN
from starbase_rules.contract import RuleViolation

from lobby import domain
from lobby.domain import Table
from lobby.exceptions import Conflict, Forbidden, Invalid, NotFound, RuleRefused
from lobby.games import GameService
from lobby.service import TableService
from lobby.tokens import Identity


class SeatService:
    def __init__(self, tables: TableService, games: GameService, adjudicator):
        self.tables, self.games, self.adjudicator = tables, games, adjudicator

    async def resign(self, who: Identity, game_id: str) -> Table:
        table = await self.games.table_of(game_id)
        seat, actor, played_by = self._played(table, who)
        command_id = f"resign:{seat}:{who.player_id}"
        await self._send(table, actor, {"type": "Resign"}, command_id, played_by)
        return await self.tables.record(game_id, who.player_id, command_id,
                                        lambda t: decide_resigned(t, seat, who.player_id))

    async def leave(self, who: Identity, table_id: str) -> Table:
        """Leaving an open table frees the seat; leaving a running game resigns it."""
        table = await self.tables.load(table_id)
        if table.status == "playing" and table.game_id is not None and table.played_seat(who.player_id):
            return await self.resign(who, table.game_id)
        return await self.tables.leave(who, table_id)

    async def take(self, who: Identity, game_id: str, seat: int, invite: str | None) -> Table:
        table = await self.games.table_of(game_id)
        if not table.may_see(who.player_id, invite):
            raise NotFound(f"no game {game_id!r}", "GAME_NOT_FOUND")
        check_take(table, seat, who.player_id)
        command_id = f"take:{seat}:{who.player_id}"
        await self._send(table, table.seated[seat], {"type": "TakeSeat"}, command_id, who.player_id)
        return await self.tables.record(game_id, who.player_id, command_id,
                                        lambda t: decide_substitute(t, seat, who.player_id))

    async def platform_command(self, who: Identity, game_id: str, command: dict,
                               command_id: str | None) -> tuple[str, list[dict]]:
        """Undo and its answers: ordinary commands of the seat you play (`GameService.submit`)."""
        return await self.games.submit(who, game_id, command, command_id, None)

    def _played(self, table: Table, who: Identity) -> tuple[int, str, str | None]:
        played = table.played_seat(who.player_id)
        if played is None:
            self.games.viewer_at(table, who)        # a private game does not exist for a stranger: 404
            raise Forbidden("only a player of this game (or a substitute) may give a seat up", "NOT_SEATED")
        return played

    async def _send(self, table: Table, actor: str, command: dict, command_id: str, played_by: str | None) -> None:
        by = {"played_by": played_by} if played_by is not None else {}
        try:
            await self.games._on_game(table, lambda: self.adjudicator.submit(
                table.game_id, actor, command, command_id, **by))
        except RuleViolation as refusal:
            raise RuleRefused(refusal.message, refusal.code) from None


async def record_from_game(tables: TableService, envelope: Envelope) -> None:
    """Record on the table a resignation or a substitute the game accepted by another way than the
    routes above (a `Resign` sent through `POST /games/{id}/commands`), or whose table write was lost.
    Called by the live feed on every replica: the command ids are the routes', so it is recorded once."""
    if not envelope.stream.startswith("game.") or not is_platform(envelope) \
            or envelope.type not in (PLAYER_RESIGNED, SEAT_TAKEN):
        return
    game_id, data = envelope.stream.split(".", 1)[1], envelope.data
    try:
        table = await tables.load(game_id)
    except NotFound:
        return                      # a game started outside the lobby: no table to tell
    seat, by = table.seat_of(data["player"]), data["by"]
    if seat is None or table.game_id != game_id:
        return
    if envelope.type == PLAYER_RESIGNED:
        await tables.record(game_id, by, f"resign:{seat}:{by}", lambda t: decide_resigned(t, seat, by))
    else:
        await tables.record(game_id, by, f"take:{seat}:{by}", lambda t: decide_substitute(t, seat, by))


def seats_of(runtime) -> SeatService:
    return SeatService(runtime.tables, runtime.games, runtime.games.adjudicator)


# --- decisions on the table (pure) ---

def check_take(table: Table, seat: int, player: str) -> None:
    if table.status != "playing":
        raise Conflict(f"table {table.table_id} is {table.status}: only a running game's seats are taken",
                       "GAME_NOT_RUNNING")
    if not 0 <= seat < table.seats:
        raise Invalid(f"seats are numbered 0 to {table.seats - 1}", "NO_SUCH_SEAT")
    if table.played_seat(player) is not None or player in table.abandoned.values() or table.seat_of(player) is not None:
        raise Conflict("you play in this game already, or gave a seat of it up", "ALREADY_IN_GAME")
    if seat not in table.abandoned:
        raise Conflict(f"seat {seat} is not offered: only a seat its player gave up may be taken",
                       "SEAT_NOT_OFFERED")


def decide_resigned(table: Table, seat: int, player: str) -> list[domain.TableEvent]:
    if table.abandoned.get(seat) == player:
        return []                   # recorded already (a retry)
    return [domain.SeatResigned(seat=seat, player=player)]


def decide_substitute(table: Table, seat: int, player: str) -> list[domain.TableEvent]:
    if table.substitutes.get(seat) == player and seat not in table.abandoned:
        return []
    return [domain.SubstituteSeated(seat=seat, player=player)]
