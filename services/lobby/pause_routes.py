"""HTTP routes to pause a running game's clock by agreement, and to start it again (docs/clock.md).

    POST /games/{id}/pause           ask every other person seated to stop the clock (alone against bots:
                                     stopped at once)
    POST /games/{id}/pause/agree     agree to the pending request (the last one stops the clock)
    POST /games/{id}/pause/refuse    refuse it: the request is over
    POST /games/{id}/resume          start the clock again (any person seated)

Each is a platform command of the seat you play (`starbase_core.pause`), decided and appended by the
adjudicator, so it is in the game's stream, the hash chain and the audit. Refusals: NOT_SEATED,
ALREADY_PAUSED, PAUSE_PENDING, PAUSE_LIMIT, NO_PAUSE_REQUEST, NOT_ASKED, NOT_PAUSED, NOT_IN_CONTROL,
GAME_OVER. Limited per player (`LOBBY_LIMIT_PAUSES`, 429 RATE_LIMITED) besides the per-seat cap in
the game.
"""
from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends

from lobby.dependencies import Player, lobby
from lobby.router import ERRORS
from lobby.schemas import CommandOut
from lobby.seating import seats_of

router = APIRouter(responses=ERRORS, tags=["seats"])
Lobby = Annotated[object, Depends(lobby)]


async def _pause_command(runtime, player, game_id: str, kind: str) -> CommandOut:
    await runtime.limits.hit("pauses", player.player_id, player.address)
    command_id, events = await seats_of(runtime).platform_command(player, game_id, {"type": kind}, None)
    return CommandOut(command_id=command_id, events=events)


@router.post("/games/{game_id}/pause", response_model=CommandOut)
async def propose_pause(game_id: str, player: Player, runtime: Lobby) -> CommandOut:
    """Ask to stop the game's clock: every other person seated must agree (bots agree)."""
    return await _pause_command(runtime, player, game_id, "ProposePause")


@router.post("/games/{game_id}/pause/agree", response_model=CommandOut)
async def agree_pause(game_id: str, player: Player, runtime: Lobby) -> CommandOut:
    return await _pause_command(runtime, player, game_id, "AgreePause")


@router.post("/games/{game_id}/pause/refuse", response_model=CommandOut)
async def refuse_pause(game_id: str, player: Player, runtime: Lobby) -> CommandOut:
    return await _pause_command(runtime, player, game_id, "RefusePause")


@router.post("/games/{game_id}/resume", response_model=CommandOut)
async def resume_clock(game_id: str, player: Player, runtime: Lobby) -> CommandOut:
    """Start the paused clock again: any person seated may."""
    return await _pause_command(runtime, player, game_id, "ResumeClock")
