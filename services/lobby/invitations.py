"""Invitations: a seated player (or the host) invites someone by player id; the notifier tells them.

`PlayerInvited` goes in the table's stream (ids only). An invited player may then join, or watch, a
private table without its invite code. Inviting counts against the `invitations` limit; inviting a
seated or already invited player changes nothing (and tells nobody again).
"""
from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel, Field

from lobby.dependencies import Player
from lobby.exceptions import NotFound
from lobby.router import ERRORS, Lobby, table_out
from lobby.schemas import TableOut

router = APIRouter(responses=ERRORS, tags=["tables"])


class InviteIn(BaseModel):
    player_id: str = Field(min_length=1, max_length=64, description="the invited player's id")


@router.post("/tables/{table_id}/invite", response_model=TableOut)
async def invite(table_id: str, body: InviteIn, player: Player, runtime: Lobby) -> TableOut:
    """Invite a player to this table (you must sit at it, or host it)."""
    await runtime.limits.hit("invitations", player.player_id)
    invited = await runtime.directory.account(body.player_id)
    if invited is None or invited.banned:
        raise NotFound(f"no player {body.player_id!r}", "PLAYER_NOT_FOUND")
    table = await runtime.tables.invite(player, table_id, body.player_id)
    return table_out(runtime, table, player.player_id)
