"""Tables as a pure decider: commands in, events out, state only ever folded from a `table.<id>` stream.

A table gathers players for one game. Its life: `open` (players join, leave, get ready) → `playing`
(the game `game.<table id>` runs in the adjudicator) → `finished` (that game's `GameEnded` was seen);
a table whose last player left is `closed`. Nothing here does I/O: `service.py` loads the stream,
calls `decide_*`, and appends with the expected sequence, so two lobby replicas racing on one table
cannot both win.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from lobby.exceptions import Conflict, Forbidden, Invalid, NotFound

MAX_CHAT_LENGTH = 500


class TableEvent(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    type: str
    v: int = 1


class TableCreated(TableEvent):
    type: Literal["TableCreated"] = "TableCreated"
    table_id: str
    game: str
    options: dict = Field(default_factory=dict)
    seats: int
    private: bool = False
    invite: str | None = None       # the code a private table asks of joiners and spectators
    host: str
    quickplay: bool = False         # opened by quick play: seats are given by POST /quickplay only
    rated: bool = True              # False: nobody's rating moves (quick play's `rated: false`)
    bots: dict[int, str] = Field(default_factory=dict)     # seat → bot level: seats bots hold from the start


class PlayerSeated(TableEvent):
    type: Literal["PlayerSeated"] = "PlayerSeated"
    player: str
    seat: int


class PlayerLeft(TableEvent):
    type: Literal["PlayerLeft"] = "PlayerLeft"
    player: str
    seat: int


class ReadinessChanged(TableEvent):
    type: Literal["ReadinessChanged"] = "ReadinessChanged"
    player: str
    ready: bool


class SpectatorJoined(TableEvent):
    type: Literal["SpectatorJoined"] = "SpectatorJoined"
    viewer: str


class GameStarted(TableEvent):
    type: Literal["GameStarted"] = "GameStarted"
    game_id: str
    players: list[str]              # in seat order: the game's player order


class StartFailed(TableEvent):
    """The adjudicator refused to create the game (e.g. bad options): the table opens again."""
    type: Literal["StartFailed"] = "StartFailed"
    game_id: str
    code: str
    message: str


class GameFinished(TableEvent):
    """Appended by the lobby when it sees the game's `GameEnded`, so a table's stream tells its whole life."""
    type: Literal["GameFinished"] = "GameFinished"
    game_id: str
    standings: list[dict] = Field(default_factory=list)


class SeatResigned(TableEvent):
    """The seat's player (or its substitute) resigned in the game; a bot plays the seat from then on, and
    it is offered to substitutes (`lobby.seating`). Written once the adjudicator accepted the `Resign`."""
    type: Literal["SeatResigned"] = "SeatResigned"
    seat: int
    player: str                     # who resigned: the seat's player or its substitute


class SubstituteSeated(TableEvent):
    """A substitute took a resigned seat (the adjudicator accepted its `TakeSeat`) and plays it now."""
    type: Literal["SubstituteSeated"] = "SubstituteSeated"
    seat: int
    player: str


class PlayerInvited(TableEvent):
    """A seated player (or the host) invited `player` (ids only): they may join or watch without the code."""
    type: Literal["PlayerInvited"] = "PlayerInvited"
    player: str
    by: str


class ChatPosted(TableEvent):
    """No longer written: chat lives outside the append-only stream (`lobby.chat`). Kept so that
    table streams written before still fold."""
    type: Literal["ChatPosted"] = "ChatPosted"
    player: str
    text: str


AnyTableEvent = Union[TableCreated, PlayerSeated, PlayerLeft, ReadinessChanged, SpectatorJoined,
                      GameStarted, StartFailed, GameFinished, ChatPosted, PlayerInvited, SeatResigned,
                      SubstituteSeated]
TABLE_EVENTS = TypeAdapter(AnyTableEvent)


def parse_table_event(data: dict) -> TableEvent:
    return TABLE_EVENTS.validate_python(data)


@dataclass
class Table:
    table_id: str = ""
    game: str = ""
    options: dict = field(default_factory=dict)
    seats: int = 0
    private: bool = False
    invite: str | None = None
    host: str = ""
    seated: dict[int, str] = field(default_factory=dict)     # seat → player
    ready: set[str] = field(default_factory=set)
    spectators: list[str] = field(default_factory=list)
    status: str = "new"             # new | open | playing | finished | closed
    game_id: str | None = None
    standings: list[dict] = field(default_factory=list)
    invited: set[str] = field(default_factory=set)
    seq: int = 0                    # the last table-stream sequence folded in
    quickplay: bool = False
    rated: bool = True
    bots: dict[int, str] = field(default_factory=dict)          # seat → level, bots seated at creation
    abandoned: dict[int, str] = field(default_factory=dict)     # seat → who resigned it; a bot plays it now
    substitutes: dict[int, str] = field(default_factory=dict)   # seat → the substitute who took it last

    @property
    def exists(self) -> bool:
        return self.status != "new"

    @property
    def players(self) -> list[str]:
        return [self.seated[seat] for seat in sorted(self.seated)]

    @property
    def free_seats(self) -> int:
        return self.seats - len(self.seated) if self.status == "open" else 0

    def seat_of(self, player: str) -> int | None:
        return next((seat for seat, who in self.seated.items() if who == player), None)

    def played_seat(self, player: str) -> tuple[int, str, str | None] | None:
        """The seat `player` plays in this table's game as (seat, the seat's player id, `played_by`):
        their own seat (played_by None), or a seat they took as a substitute (played_by: them). Who
        controls the seat *now* is the adjudicator's to check (NOT_IN_CONTROL after a resignation)."""
        seat = self.seat_of(player)
        if seat is not None and seat not in self.bots:
            return seat, player, None
        taken = next((seat for seat, who in self.substitutes.items() if who == player), None)
        return None if taken is None else (taken, self.seated[taken], player)

    def may_see(self, player: str | None, invite: str | None = None) -> bool:
        """Public tables are open to all; a private one to its members and holders of the invite."""
        if not self.private:
            return True
        return (player is not None and (player in self.seated.values() or player in self.spectators
                                        or player in self.substitutes.values() or player == self.host
                                        or player in self.invited)) \
            or (invite is not None and invite == self.invite)


def evolve(table: Table, event: TableEvent) -> Table:
    match event:
        case TableCreated():
            table.table_id, table.game, table.options = event.table_id, event.game, dict(event.options)
            table.seats, table.private, table.invite, table.host = event.seats, event.private, event.invite, event.host
            table.quickplay, table.rated = event.quickplay, event.rated
            table.status = "open"
            table.bots = dict(event.bots)
            for seat in event.bots:
                table.seated[seat] = bot_player(event.table_id, seat)
                table.ready.add(table.seated[seat])
        case PlayerSeated():
            table.seated[event.seat] = event.player
        case PlayerLeft():
            table.seated.pop(event.seat, None)
            table.ready.discard(event.player)
            people = [table.seated[seat] for seat in sorted(table.seated) if seat not in table.bots]
            if not people:          # bots alone do not keep a table open
                table.status = "closed"
            elif event.player == table.host:
                table.host = people[0]
        case ReadinessChanged():
            (table.ready.add if event.ready else table.ready.discard)(event.player)
        case SpectatorJoined():
            table.spectators.append(event.viewer)
        case GameStarted():
            table.status, table.game_id = "playing", event.game_id
        case StartFailed():
            table.status, table.game_id = "open", None
            table.ready.clear()     # everyone confirms again once the options are fixed
        case GameFinished():
            table.status = "finished"
            table.standings = list(event.standings)
        case SeatResigned():
            table.abandoned[event.seat] = event.player
        case SubstituteSeated():
            table.abandoned.pop(event.seat, None)
            table.substitutes[event.seat] = event.player
        case PlayerInvited():
            table.invited.add(event.player)
        case ChatPosted():
            pass
    return table


def bot_player(table_id: str, seat: int) -> str:
    """The player id of a bot seated at creation (never an account's: those are plain hex)."""
    return f"bot-{table_id}-{seat}"


def fold(events: list[TableEvent], table: Table | None = None) -> Table:
    table = table or Table()
    for event in events:
        table = evolve(table, event)
    return table


# --- decisions: each returns the events to append, or raises a LobbyError and changes nothing ---

def decide_create(table_id: str, game: str, options: dict, seats: int, min_players: int, max_players: int,
                  private: bool, invite: str | None, host: str, bots: dict[int, str] | None = None) -> list[TableEvent]:
    if not min_players <= seats <= max_players:
        raise Invalid(f"{game} is played by {min_players} to {max_players} players, not {seats}", "BAD_SEAT_COUNT")
    bots = bots or {}
    if any(not 1 <= seat < seats for seat in bots):
        raise Invalid(f"bot seats are numbered 1 to {seats - 1} (the host sits in seat 0)", "NO_SUCH_SEAT")
    return [TableCreated(table_id=table_id, game=game, options=options, seats=seats, private=private,
                         invite=invite if private else None, host=host, bots=dict(bots)),
            PlayerSeated(player=host, seat=0)]


def _require_visible(table: Table, player: str, invite: str | None = None) -> None:
    """A private table does not exist for a stranger: the same answer as for no table at all."""
    if not table.may_see(player, invite):
        raise NotFound(f"no table {table.table_id!r}", "TABLE_NOT_FOUND")


def _require_open(table: Table) -> None:
    if table.status != "open":
        raise Conflict(f"table {table.table_id} is {table.status}, not open", "TABLE_NOT_OPEN")


def _require_seated(table: Table, player: str) -> int:
    seat = table.seat_of(player)
    if seat is None:
        raise Forbidden(f"you have no seat at table {table.table_id}", "NOT_SEATED")
    return seat


def decide_join(table: Table, player: str, seat: int | None, invite: str | None) -> list[TableEvent]:
    _require_visible(table, player, invite)
    _require_open(table)
    if table.quickplay:
        raise Conflict("seats at a quick-play table are given by POST /quickplay", "QUICKPLAY_TABLE")
    if table.seat_of(player) is not None:
        raise Conflict(f"you already sit in seat {table.seat_of(player)}", "ALREADY_SEATED")
    free = [s for s in range(table.seats) if s not in table.seated]
    if not free:
        raise Conflict(f"all {table.seats} seats are taken", "TABLE_FULL")
    if seat is None:
        seat = free[0]
    elif not 0 <= seat < table.seats:
        raise Invalid(f"seats are numbered 0 to {table.seats - 1}", "NO_SUCH_SEAT")
    elif seat in table.seated:
        raise Conflict(f"seat {seat} is taken", "SEAT_TAKEN")
    return [PlayerSeated(player=player, seat=seat)]


def decide_leave(table: Table, player: str) -> list[TableEvent]:
    _require_visible(table, player)
    _require_open(table)
    return [PlayerLeft(player=player, seat=_require_seated(table, player))]


def decide_ready(table: Table, player: str, ready: bool) -> list[TableEvent]:
    _require_visible(table, player)
    _require_open(table)
    _require_seated(table, player)
    if (player in table.ready) == ready:
        return []                   # already so: nothing to record
    return [ReadinessChanged(player=player, ready=ready)]


def decide_spectate(table: Table, viewer: str, invite: str | None) -> list[TableEvent]:
    _require_visible(table, viewer, invite)
    if table.status == "closed":
        raise Conflict(f"table {table.table_id} is closed", "TABLE_NOT_OPEN")
    if viewer in table.spectators or viewer in table.seated.values():
        return []
    return [SpectatorJoined(viewer=viewer)]


def check_start(table: Table, player: str) -> list[str]:
    """Who plays, in seat order, if `player` may start the game now."""
    _require_visible(table, player)
    _require_open(table)
    _require_seated(table, player)
    if len(table.seated) < table.seats:
        raise Conflict(f"{table.seats - len(table.seated)} seat(s) still free", "TABLE_NOT_FULL")
    waiting = [p for p in table.players if p not in table.ready]
    if waiting:
        raise Conflict(f"not everyone is ready: waiting for {', '.join(waiting)}", "NOT_ALL_READY")
    return table.players


def decide_start(table: Table, player: str, game_id: str) -> list[TableEvent]:
    _require_visible(table, player)
    if table.status == "playing" and table.game_id == game_id:
        _require_seated(table, player)
        return []                   # already started (a retry, or a concurrent start got there first)
    return [GameStarted(game_id=game_id, players=check_start(table, player))]


def decide_start_failed(table: Table, game_id: str, code: str, message: str) -> list[TableEvent]:
    if table.status != "playing" or table.game_id != game_id:
        return []
    return [StartFailed(game_id=game_id, code=code, message=message)]


def decide_finish(table: Table, game_id: str, standings: list[dict]) -> list[TableEvent]:
    if table.status != "playing" or table.game_id != game_id:
        return []                   # already recorded (another lobby replica was first) or not ours
    return [GameFinished(game_id=game_id, standings=standings)]


MAX_INVITATIONS = 50        # per table: an invitation is a notification, and the stream keeps it for ever


def decide_invite(table: Table, by: str, player: str) -> list[TableEvent]:
    _require_visible(table, by)
    if table.status not in ("open", "playing"):
        raise Conflict(f"table {table.table_id} is {table.status}: nobody can be invited", "TABLE_NOT_OPEN")
    if table.seat_of(by) is None and by != table.host:
        raise Forbidden(f"only the players of table {table.table_id} may invite", "NOT_SEATED")
    if player == by:
        raise Invalid("you cannot invite yourself", "CANNOT_INVITE_YOURSELF")
    if table.seat_of(player) is not None or player in table.invited:
        return []                   # seated or invited already: nothing to record, nobody told twice
    if len(table.invited) >= MAX_INVITATIONS:
        raise Conflict(f"a table sends at most {MAX_INVITATIONS} invitations", "TOO_MANY_INVITATIONS")
    return [PlayerInvited(player=player, by=by)]


def check_chat(table: Table, player: str, text: str) -> str:
    """The message to keep (trimmed), if `player` may post it at this table."""
    _require_visible(table, player)
    if table.status == "closed":
        raise Conflict(f"table {table.table_id} is closed", "TABLE_NOT_OPEN")
    if player not in table.seated.values() and player not in table.spectators:
        raise Forbidden("only players and spectators of a table may chat there", "NOT_AT_TABLE")
    text = text.strip()
    if not text:
        raise Invalid("a chat message needs some text", "EMPTY_MESSAGE")
    if len(text) > MAX_CHAT_LENGTH:
        raise Invalid(f"a chat message holds at most {MAX_CHAT_LENGTH} characters", "MESSAGE_TOO_LONG")
    return text
