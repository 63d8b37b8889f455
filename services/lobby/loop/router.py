"""Routes of the player's loop: my games, quick play, the outside audit's export (docs/api.md).
(A past position and the text log are query options of `GET /games/{id}/view` and `/log`, in
`lobby.router`.)"""
from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Query
from fastapi.responses import Response
from pydantic import Field

from starbase_core.gamelog import EXPORT_MEDIA_TYPE, export_line

from lobby.dependencies import OPTIONAL_AUTH, MaybePlayer, Player, client_address, lobby
from lobby.loop.clocks import with_clocks
from lobby.loop.mine import my_tables
from lobby.router import ERRORS, Offset, table_out
from lobby.schemas import Body, TableOut, TablePage, WholeNumber

loop_router = APIRouter(responses=ERRORS)
Lobby = Annotated[object, Depends(lobby)]
Address = Annotated[str, Depends(client_address)]


class QuickPlayIn(Body):
    game: str = Field(min_length=1, max_length=40)
    seats: WholeNumber = Field(ge=1, le=16)
    rated: bool = True


@loop_router.get("/players/me/tables", response_model=TablePage, tags=["tables"])
async def mine(player: Player, runtime: Lobby,
               status: Literal["open", "playing", "finished", "closed"] | None = None,
               to_act: Annotated[bool | None, Query(description="true: only where you owe a decision")] = None,
               offset: Offset = 0, limit: Annotated[int, Query(ge=1, le=100)] = 20) -> TablePage:
    """The tables you sit at, most urgent first: where you owe a decision (longest waiting first), your
    other games in progress, then open tables; `status=` for one status (finished, closed too)."""
    found = my_tables(runtime.projection.tables_of(player.player_id), runtime.loop.turns, player.player_id,
                      runtime.projection.position, status=status, to_act=to_act)
    listed = [(t, table_out(runtime, t, player.player_id)) for t in found[offset:offset + limit]]
    await with_clocks(runtime, listed)
    return TablePage(items=[out for _, out in listed], total=len(found), offset=offset, limit=limit)


@loop_router.post("/quickplay", response_model=TableOut, tags=["tables"])
async def quickplay(body: QuickPlayIn, player: Player, runtime: Lobby) -> TableOut:
    """Seat me at the best waiting table of this kind (same game, seats and rated flag, a rating band
    that widens while it waits) or open one; it starts by itself once full. Asking again while waiting
    answers the same table."""
    table = await runtime.loop.quickplay.play(player, body.game, body.seats, body.rated)
    return table_out(runtime, table, player.player_id)


# No `response_class`: it would document the errors (JSON) as JSON lines too.
@loop_router.get("/games/{game_id}/export", response_model=None, tags=["games"], openapi_extra=OPTIONAL_AUTH,
                 responses={200: {"content": {EXPORT_MEDIA_TYPE: {"schema": {"type": "string"}}},
                                  "description": "one envelope per line, as `starbase export` writes"}})
async def export(game_id: str, runtime: Lobby, viewer: MaybePlayer, address: Address):
    """A finished game's whole stream (hashes, meta, the revealed seed): `starbase audit --file` checks it
    without the servers. GAME_NOT_OVER while it runs; a private game's only to its members."""
    envelopes = await runtime.loop.review.export(viewer, game_id, address)
    return Response("".join(export_line(e) for e in envelopes), media_type=EXPORT_MEDIA_TYPE,
                    headers={"Content-Disposition": f'attachment; filename="{game_id}.jsonl"'})
