"""The lobby's wire format: request bodies and responses (pydantic), as OpenAPI shows them at /docs."""
from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from starbase_core.undo import UNDO_STEPS


class Body(BaseModel):
    # Unknown fields are refused rather than ignored, so a typo is a 422, not a silent no-op. Strict:
    # a wrong type is a 422 too, not coerced (`"seats": true` opened a one-seat table before).
    model_config = ConfigDict(extra="forbid", strict=True)


def _whole_number(value):
    """JSON's idea of an integer: 2 and 2.0 (JSON Schema counts both), never true or "2"."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError("must be a whole number")
    return value


WholeNumber = Annotated[int, BeforeValidator(_whole_number)]


class ErrorDetail(BaseModel):
    code: str
    message: str


class ErrorOut(BaseModel):
    error: ErrorDetail


# --- tables ---

BotLevel = Literal["easy", "normal", "strong"]


class BotSeatIn(Body):
    seat: WholeNumber = Field(ge=1, le=15, description="1 or more: the host sits in seat 0")
    level: BotLevel = "normal"


class CreateTableIn(Body):
    game: str = Field(min_length=1, max_length=40)
    seats: WholeNumber = Field(ge=1, le=16)
    options: dict[str, Any] = Field(default_factory=dict)
    private: bool = False
    bots: list[BotSeatIn] = Field(default_factory=list, max_length=15,
                                  description="seats a bot plays (the bot worker), filled and ready at once")


class UndoIn(Body):
    count: WholeNumber = Field(default=1, ge=1, le=UNDO_STEPS, description="how many of your last commands")


class TakeSeatIn(Body):
    invite: str | None = Field(default=None, max_length=100, description="a private table's invite code")


class JoinIn(Body):
    seat: WholeNumber | None = Field(default=None, ge=0)
    invite: str | None = None


class SpectateIn(Body):
    invite: str | None = None


class ReadyIn(Body):
    ready: bool = True


class ChatIn(Body):
    text: str = Field(min_length=1, max_length=500)


class SeatOut(BaseModel):
    seat: int
    player_id: str | None
    name: str | None
    ready: bool
    to_act: bool = Field(False, description="this seat owes a decision in the running game")
    due_at: str | None = Field(None, description="when the decision clock's time-out policy applies (the "
                                                 "seat's decision limit or bank); null without a clock or "
                                                 "while it is paused")
    bot: BotLevel | None = Field(default=None, description="the level of the bot playing this seat now")
    abandoned: bool = Field(default=False, description="given up: a bot plays it until a substitute takes it")
    substitute: str | None = Field(default=None, description="the player who took this seat over")
    substitute_name: str | None = Field(default=None, description="the substitute's name")


class TableOut(BaseModel):
    table_id: str
    game: str
    options: dict[str, Any]
    seats: list[SeatOut]
    free_seats: int
    private: bool
    invite: str | None = None       # shown to the table's members only
    host: str
    status: Literal["open", "playing", "finished", "closed"]
    game_id: str | None
    spectators: int
    standings: list[dict] = Field(default_factory=list)
    seq: int
    # While the game runs: the WebSocket of its real-time phase (Trucker's building), if it has one.
    # Connect with a ticket from POST /tickets (docs/accounts.md), never a token in the URL.
    realtime_url: str | None = None
    quickplay: bool = Field(False, description="opened by quick play: seats come from POST /quickplay")
    rated: bool = Field(True, description="false: nobody's rating moves")
    online: list[str] | None = Field(None, description="GET /tables/{id}: the seated players with a socket "
                                                       "open on the table or its game now (null in lists)")
    # A running game's clock (GET /tables/{id}, GET /tables, /players/me/tables): the controls, each seat's
    # bank, owes_since and due_at, and the pause (docs/clock.md); null without a clock.
    clock: dict[str, Any] | None = None


class TablePage(BaseModel):
    items: list[TableOut]
    total: int
    offset: int
    limit: int


class ChatMessageOut(BaseModel):
    id: int = Field(description="increasing: read on with ?after=<the last id>")
    table_id: str
    player_id: str
    name: str | None = Field(description='"deleted player" once its author erased their account')
    text: str
    time: str


# --- games ---

class CommandIn(Body):
    command: dict[str, Any] = Field(description="the engine's command, e.g. {\"type\": \"Take\", \"count\": 2}")
    command_id: str | None = Field(default=None, max_length=100, pattern=r"^[A-Za-z0-9_.:\-]+$",
                                   description="makes a retry safe: the same id is applied once")
    seat: WholeNumber | None = Field(default=None, ge=0, description="optional: the seat you mean to act for")


class EventOut(BaseModel):
    stream: str
    seq: int
    type: str
    data: dict[str, Any] | None
    actor: str | None = None
    time: str
    platform: bool = False      # the platform's own GameCreated / GameEnded / CommandHadNoEffect
    played_by: str | None = None    # who played the command, when not the seat's own player (a bot, the clock…)


class CommandOut(BaseModel):
    command_id: str
    events: list[EventOut]


class LogPage(BaseModel):
    game_id: str
    events: list[EventOut]
    last_seq: int


# --- scoring ---

class LeaderboardEntry(BaseModel):
    rank: int
    player_id: str
    name: str | None
    ordinal: float
    mu: float
    sigma: float
    games: int


class LeaderboardOut(BaseModel):
    board: str
    entries: list[LeaderboardEntry]


class HistoryOut(BaseModel):
    player_id: str
    name: str | None = Field(None, description="the player's name to show (\"deleted player\" for an id without an account)")
    games: list[dict[str, Any]]
