"""HTTP routes: wire format in, one call to a service, wire format out. No decisions live here."""
from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Query
from fastapi.responses import PlainTextResponse

from starbase_core.seats import REPLACEMENT_LEVEL

from lobby.dependencies import OPTIONAL_AUTH, MaybePlayer, Player, client_address, lobby
from lobby.domain import Table
from lobby.exceptions import Invalid, NotFound
from lobby.loop.clocks import seats_due, with_clocks
from lobby.loop.review import as_text
from lobby.projection import TableFilter
from lobby.seating import seats_of
from lobby.schemas import (
    ChatIn, ChatMessageOut, CommandIn, CommandOut, CreateTableIn, ErrorOut, HistoryOut, JoinIn,
    LeaderboardEntry, LeaderboardOut, LogPage, ReadyIn, SeatOut, SpectateIn, TableOut, TablePage,
)

ERRORS = {code: {"model": ErrorOut} for code in (400, 401, 403, 404, 409, 413, 415, 422, 429, 503)}
router = APIRouter(responses=ERRORS)
Lobby = Annotated[object, Depends(lobby)]
# Paging positions (offsets, `after` seqs) are capped at the largest integer JSON carries exactly: far
# past any real log or board, and small enough for Redis (int64) and JetStream (uint64). Uncapped, a
# huge offset reached Redis and came back as a 500.
MAX_POSITION = 2**53 - 1
Offset = Annotated[int, Query(ge=0, le=MAX_POSITION)]
After = Annotated[int, Query(ge=0, le=MAX_POSITION, description="the last seq you saw (0 for everything)")]


def table_out(runtime, table: Table, viewer: str | None, online: list[str] | None = None) -> TableOut:
    member = viewer is not None and (table.seat_of(viewer) is not None or viewer == table.host)
    seats = [seat_out(runtime, table, s) for s in range(table.seats)]
    return TableOut(table_id=table.table_id, game=table.game, options=table.options, seats=seats,
                    free_seats=table.free_seats, private=table.private, invite=table.invite if member else None,
                    host=table.host, status=table.status, game_id=table.game_id,
                    spectators=len(table.spectators), standings=table.standings, seq=table.seq,
                    realtime_url=realtime_url(runtime.settings, table), quickplay=table.quickplay,
                    rated=table.rated, online=online)


def seat_out(runtime, table: Table, seat: int) -> SeatOut:
    player = table.seated.get(seat)
    bot = table.bots.get(seat) or (REPLACEMENT_LEVEL if seat in table.abandoned else None)
    name = f"bot ({bot})" if seat in table.bots else runtime.directory.name_of(player)
    substitute = None if seat in table.abandoned else table.substitutes.get(seat)
    return SeatOut(seat=seat, player_id=player, name=name, ready=player in table.ready, bot=bot,
                   abandoned=seat in table.abandoned, substitute=substitute,
                   substitute_name=runtime.directory.name_of(substitute),
                   **dict(zip(("to_act", "due_at"), runtime.loop.seat_turn(table, player))))


def realtime_url(settings, table: Table) -> str | None:
    """Trucker's building rounds are played on the trucker service's socket, not through the lobby."""
    if table.game != "trucker" or table.game_id is None or table.status != "playing":
        return None
    return f"{settings.trucker_public_url.rstrip('/')}/tables/{table.game_id}/ws"


# --- players ---

@router.get("/players/{player_id}/history", response_model=HistoryOut, tags=["scoring"], openapi_extra=OPTIONAL_AUTH)
async def history(player_id: str, runtime: Lobby, viewer: MaybePlayer, offset: Offset = 0,
                  limit: Annotated[int, Query(ge=1, le=100)] = 50) -> HistoryOut:
    """The player's finished games; a private game shows only to those who sat at its table."""
    games = await runtime.ledger.history(player_id, offset, limit, viewer=viewer.player_id if viewer else None)
    return HistoryOut(player_id=player_id, name=runtime.directory.name_of(player_id), games=games)


@router.get("/leaderboards", response_model=list[str], tags=["scoring"])
async def boards(runtime: Lobby) -> list[str]:
    """The boards there are: `all` (every game) and one per game played."""
    return ["all", *await runtime.ledger.boards()]


@router.get("/leaderboards/{board}", response_model=LeaderboardOut, tags=["scoring"])
async def leaderboard(board: str, runtime: Lobby, offset: Offset = 0,
                      limit: Annotated[int, Query(ge=1, le=100)] = 50) -> LeaderboardOut:
    rows = await runtime.ledger.leaderboard(board, offset, limit)
    return LeaderboardOut(board=board, entries=[
        LeaderboardEntry(rank=r["rank"], player_id=r["player"], name=runtime.directory.name_of(r["player"]),
                         ordinal=r["ordinal"], mu=r["mu"], sigma=r["sigma"], games=r["games"]) for r in rows])


# --- tables ---

@router.post("/tables", status_code=201, response_model=TableOut, tags=["tables"])
async def create_table(body: CreateTableIn, player: Player, runtime: Lobby) -> TableOut:
    """Options are checked now (UNKNOWN_OPTION, BAD_OPTION), not when the game starts."""
    await runtime.check_new_table(player, body.game, body.options, body.seats)
    bots = {bot.seat: bot.level for bot in body.bots}
    if len(bots) < len(body.bots):
        raise Invalid("each bot seat is named once", "BAD_BOT_SEATS")
    table = await runtime.tables.create(player, body.game, body.options, body.seats, body.private, bots)
    return table_out(runtime, table, player.player_id)


@router.get("/tables", response_model=TablePage, tags=["tables"], openapi_extra=OPTIONAL_AUTH)
async def list_tables(runtime: Lobby, viewer: MaybePlayer,
                      game: str | None = None,
                      status: Literal["open", "playing", "finished", "closed"] | None = None,
                      free_seats: Annotated[int | None, Query(ge=0, description="at least this many free")] = None,
                      offset: Offset = 0,
                      limit: Annotated[int, Query(ge=1, le=100)] = 20) -> TablePage:
    who = viewer.player_id if viewer else None
    tables, total = runtime.projection.list(TableFilter(game, status, free_seats, who), offset, limit)
    listed = [(t, table_out(runtime, t, who)) for t in tables]
    await with_clocks(runtime, listed)
    return TablePage(items=[out for _, out in listed], total=total, offset=offset, limit=limit)


@router.get("/tables/{table_id}", response_model=TableOut, tags=["tables"], openapi_extra=OPTIONAL_AUTH)
async def get_table(table_id: str, runtime: Lobby, viewer: MaybePlayer, invite: str | None = None) -> TableOut:
    table = await runtime.tables.load(table_id)
    who = viewer.player_id if viewer else None
    if not table.may_see(who, invite):
        raise NotFound(f"no table {table_id!r}", "TABLE_NOT_FOUND")   # a private table is not disclosed
    out = table_out(runtime, table, who, online=await runtime.loop.presence.online(table_id))
    if table.status == "playing" and table.game_id:
        out.clock = await runtime.games.clocks.state(table.game_id, options=table.options)
        seats_due(out)
    return out


@router.post("/tables/{table_id}/join", response_model=TableOut, tags=["tables"])
async def join(table_id: str, player: Player, runtime: Lobby, body: JoinIn | None = None) -> TableOut:
    body = body or JoinIn()
    return table_out(runtime, await runtime.tables.join(player, table_id, body.seat, body.invite), player.player_id)


@router.post("/tables/{table_id}/leave", response_model=TableOut, tags=["tables"])
async def leave(table_id: str, player: Player, runtime: Lobby) -> TableOut:
    """Leave an open table; leaving a running game resigns your seat (`POST /games/{id}/resign`)."""
    return table_out(runtime, await seats_of(runtime).leave(player, table_id), player.player_id)


@router.post("/tables/{table_id}/ready", response_model=TableOut, tags=["tables"])
async def ready(table_id: str, player: Player, runtime: Lobby, body: ReadyIn | None = None) -> TableOut:
    table = await runtime.tables.ready(player, table_id, body.ready if body else True)
    return table_out(runtime, table, player.player_id)


@router.post("/tables/{table_id}/start", response_model=TableOut, tags=["tables"])
async def start(table_id: str, player: Player, runtime: Lobby) -> TableOut:
    return table_out(runtime, await runtime.tables.start(player, table_id), player.player_id)


@router.post("/tables/{table_id}/spectate", response_model=TableOut, tags=["tables"])
async def spectate(table_id: str, player: Player, runtime: Lobby, body: SpectateIn | None = None) -> TableOut:
    table = await runtime.tables.spectate(player, table_id, body.invite if body else None)
    return table_out(runtime, table, player.player_id)


@router.post("/tables/{table_id}/chat", status_code=201, response_model=ChatMessageOut, tags=["chat"])
async def chat(table_id: str, body: ChatIn, player: Player, runtime: Lobby) -> ChatMessageOut:
    return ChatMessageOut(**await runtime.chat.post(player, table_id, body.text))


@router.get("/tables/{table_id}/chat", response_model=list[ChatMessageOut], tags=["chat"],
            openapi_extra=OPTIONAL_AUTH)
async def chat_log(table_id: str, runtime: Lobby, viewer: MaybePlayer, invite: str | None = None,
                   after: After = 0, limit: Annotated[int, Query(ge=1, le=100)] = 50) -> list[ChatMessageOut]:
    """Up to `limit` messages with an id past `after`, oldest first (hidden and erased ones are gone)."""
    messages = await runtime.chat.read(viewer.player_id if viewer else None, table_id, invite, after, limit)
    return [ChatMessageOut(**m) for m in messages]


# --- games ---

@router.post("/games/{game_id}/commands", response_model=CommandOut, tags=["games"])
async def submit(game_id: str, body: CommandIn, player: Player, runtime: Lobby) -> CommandOut:
    await runtime.hit_command(player)
    command_id, events = await runtime.games.submit(player, game_id, body.command, body.command_id, body.seat)
    return CommandOut(command_id=command_id, events=events)


@router.get("/games/{game_id}/view", tags=["games"], openapi_extra=OPTIONAL_AUTH)
async def view(game_id: str, runtime: Lobby, viewer: MaybePlayer, invite: str | None = None,
               at: Annotated[int | None, Query(ge=1, le=MAX_POSITION,
                                               description="a past seq to review (every seat's view once over)")] = None,
               address: Annotated[str, Depends(client_address)] = "") -> dict:
    """Your view if you sit in the game, else a spectator's; `to_act` and their `due_at`. With `at`, the
    game at that seq as you saw it then (nothing revealed later), and every seat's view once it is over."""
    if at is not None:
        past = await runtime.loop.review.view_at(viewer, game_id, at, invite, address)
        return {**past, "due_at": {player: None for player in past.get("to_act", [])}}   # no clock runs in the past
    return runtime.loop.with_deadlines(game_id, await runtime.games.view(viewer, game_id, invite))


@router.get("/games/{game_id}/actions", response_model=list[dict], tags=["games"])
async def actions(game_id: str, player: Player, runtime: Lobby) -> list[dict]:
    return await runtime.games.legal_actions(player, game_id)


@router.get("/games/{game_id}/log", response_model=LogPage, tags=["games"], openapi_extra=OPTIONAL_AUTH,
            responses={200: {"content": {"text/plain": {"schema": {"type": "string"}}}}})
async def game_log(game_id: str, runtime: Lobby, viewer: MaybePlayer, invite: str | None = None,
                   after: After = 0,
                   limit: Annotated[int, Query(ge=1, le=1000)] = 500,
                   format: Literal["json", "text"] = "json"):
    """The public log: what a spectator sees while the game runs, everything once it is over. `format=text`:
    one readable line per event, as `starbase log` prints them."""
    events, last = await runtime.loop.review.log(viewer, game_id, after, limit, invite)
    if format == "text":
        return PlainTextResponse(as_text(events))
    return LogPage(game_id=game_id, events=events, last_seq=last)


@router.get("/games/{game_id}/result", tags=["scoring"], openapi_extra=OPTIONAL_AUTH)
async def result(game_id: str, runtime: Lobby, viewer: MaybePlayer) -> dict:
    found = await runtime.ledger.result(game_id, viewer=viewer.player_id if viewer else None)
    if found is None:
        raise NotFound(f"no result for game {game_id!r} (yet): scoring records it when the game ends",
                       "RESULT_NOT_FOUND")
    return found
