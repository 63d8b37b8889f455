"""Moderation routes: reports from any player; mutes, hidden messages, bans and the log for moderators;
roles for admins (docs/accounts.md)."""
from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Response
from pydantic import BaseModel, Field

from lobby.dependencies import Admin, Moderator, Player
from lobby.router import ERRORS, MAX_POSITION, After, Lobby
from lobby.schemas import Body, WholeNumber

router = APIRouter(responses={**ERRORS, 429: ERRORS[400]})
REASON = Field(default="", max_length=500)


class ReasonIn(Body):
    reason: str = REASON


class MuteIn(Body):
    minutes: WholeNumber = Field(ge=1, le=60 * 24 * 365)
    reason: str = REASON


class RoleIn(Body):
    role: str = Field(description="player, moderator or admin")
    reason: str = REASON


class ReportIn(Body):
    player_id: str | None = Field(default=None, max_length=64)
    message_id: WholeNumber | None = Field(default=None, ge=1)
    reason: str = Field(min_length=1, max_length=500)


class ModeratedOut(BaseModel):
    player_id: str
    name: str
    role: str
    banned: bool
    muted_until: float


class EntryOut(BaseModel):
    id: int
    time: str
    data: dict[str, Any]


def moderated(account) -> ModeratedOut:
    return ModeratedOut(player_id=account.player_id, name=account.name, role=account.role, banned=account.banned,
                        muted_until=account.muted_until)


def entries(records) -> list[EntryOut]:
    return [EntryOut(id=r.id, time=r.time, data=r.data) for r in records]


Limit = Annotated[int, Query(ge=1, le=100)]


@router.post("/reports", status_code=201, response_model=EntryOut, tags=["moderation"])
async def report(body: ReportIn, player: Player, runtime: Lobby) -> EntryOut:
    """Report a player or a chat message to the moderators."""
    record = await runtime.moderation.report(player.player_id, body.player_id, body.message_id, body.reason,
                                             player.address)
    return entries([record])[0]


@router.get("/moderation/reports", response_model=list[EntryOut], tags=["moderation"])
async def reports(runtime: Lobby, mod: Moderator, after: After = 0, limit: Limit = 50) -> list[EntryOut]:
    return entries(await runtime.moderation.reports(after, limit))


@router.get("/moderation/log", response_model=list[EntryOut], tags=["moderation"])
async def moderation_log(runtime: Lobby, mod: Moderator, after: After = 0, limit: Limit = 50) -> list[EntryOut]:
    """Every moderation action: who did it (`actor`), what, to whom, why."""
    return entries(await runtime.moderation.entries(after, limit))


@router.post("/moderation/players/{player_id}/mute", response_model=ModeratedOut, tags=["moderation"])
async def mute(player_id: str, body: MuteIn, runtime: Lobby, mod: Moderator) -> ModeratedOut:
    return moderated(await runtime.moderation.mute(mod.player_id, _rank(mod), player_id, body.minutes, body.reason))


@router.post("/moderation/players/{player_id}/unmute", response_model=ModeratedOut, tags=["moderation"])
async def unmute(player_id: str, runtime: Lobby, mod: Moderator, body: ReasonIn | None = None) -> ModeratedOut:
    return moderated(await runtime.moderation.unmute(mod.player_id, _rank(mod), player_id, _why(body)))


@router.post("/moderation/players/{player_id}/ban", response_model=ModeratedOut, tags=["moderation"])
async def ban(player_id: str, runtime: Lobby, mod: Moderator, body: ReasonIn | None = None) -> ModeratedOut:
    """Tokens revoked and sockets closed at once, on every replica."""
    return moderated(await runtime.moderation.ban(mod.player_id, _rank(mod), player_id, _why(body)))


@router.post("/moderation/players/{player_id}/unban", response_model=ModeratedOut, tags=["moderation"])
async def unban(player_id: str, runtime: Lobby, mod: Moderator, body: ReasonIn | None = None) -> ModeratedOut:
    return moderated(await runtime.moderation.unban(mod.player_id, _rank(mod), player_id, _why(body)))


@router.post("/moderation/messages/{message_id}/hide", status_code=204, tags=["moderation"])
async def hide(message_id: Annotated[int, Path(ge=1, le=MAX_POSITION)], runtime: Lobby, mod: Moderator,
               body: ReasonIn | None = None) -> Response:
    """Delete a chat message for good (the log keeps whose it was, not its text)."""
    await runtime.moderation.hide(mod.player_id, message_id, _why(body))
    return Response(status_code=204)


@router.put("/admin/players/{player_id}/role", response_model=ModeratedOut, tags=["moderation"])
async def set_role(player_id: str, body: RoleIn, runtime: Lobby, boss: Admin) -> ModeratedOut:
    return moderated(await runtime.moderation.set_role(boss.player_id, player_id, body.role, body.reason))


def _rank(who) -> int:
    return ("player", "moderator", "admin").index(who.role)


def _why(body: ReasonIn | None) -> str:
    return body.reason if body else ""
