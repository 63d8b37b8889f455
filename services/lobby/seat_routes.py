"""HTTP routes for seats of a running game: resign, take a given-up seat, undo (`lobby.seating`)."""
from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path

from lobby.dependencies import Player, lobby
from lobby.router import ERRORS, table_out
from lobby.schemas import CommandOut, TableOut, TakeSeatIn, UndoIn
from lobby.seating import seats_of

router = APIRouter(responses=ERRORS, tags=["seats"])
Lobby = Annotated[object, Depends(lobby)]
Seat = Annotated[int, Path(ge=0, le=15)]


@router.post("/games/{game_id}/resign", response_model=TableOut)
async def resign(game_id: str, player: Player, runtime: Lobby) -> TableOut:
    """Give your seat up. Two players: the other wins. More: a bot plays the seat (offered to
    substitutes) while two people still play; else the game ends, those who resigned last."""
    await runtime.hit_command(player)
    return table_out(runtime, await seats_of(runtime).resign(player, game_id), player.player_id)


@router.post("/games/{game_id}/seats/{seat}/take", response_model=TableOut)
async def take_seat(game_id: str, seat: Seat, player: Player, runtime: Lobby,
                    body: TakeSeatIn | None = None) -> TableOut:
    """Take over a seat its player gave up (it shows `abandoned`): you play it from now on."""
    await runtime.hit_command(player)
    table = await seats_of(runtime).take(player, game_id, seat, body.invite if body else None)
    return table_out(runtime, table, player.player_id)


@router.post("/games/{game_id}/undo", response_model=CommandOut)
async def undo(game_id: str, player: Player, runtime: Lobby, body: UndoIn | None = None) -> CommandOut:
    """Take back your last `count` commands, while nobody else has acted, nothing random was drawn and
    nothing hidden was shown since. In a rated game the other people must agree first."""
    await runtime.hit_command(player)
    command = {"type": "Undo", "count": body.count if body else 1}
    command_id, events = await seats_of(runtime).platform_command(player, game_id, command, None)
    return CommandOut(command_id=command_id, events=events)


@router.post("/games/{game_id}/undo/agree", response_model=CommandOut)
async def agree_undo(game_id: str, player: Player, runtime: Lobby) -> CommandOut:
    await runtime.hit_command(player)
    command_id, events = await seats_of(runtime).platform_command(player, game_id, {"type": "AgreeUndo"}, None)
    return CommandOut(command_id=command_id, events=events)


@router.post("/games/{game_id}/undo/refuse", response_model=CommandOut)
async def refuse_undo(game_id: str, player: Player, runtime: Lobby) -> CommandOut:
    await runtime.hit_command(player)
    command_id, events = await seats_of(runtime).platform_command(player, game_id, {"type": "RefuseUndo"}, None)
    return CommandOut(command_id=command_id, events=events)
