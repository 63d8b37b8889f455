"""Account, session and ticket routes (docs/accounts.md)."""
from __future__ import annotations

from fastapi import APIRouter, Request, Response

from starbase_core import tickets

from lobby.accounts.schemas import (
    AccountOut, EraseIn, LoginIn, PasswordChangeIn, RefreshIn, RegisterIn, SessionOut, TicketIn, TicketOut,
)
from lobby.dependencies import OPTIONAL_AUTH, MaybePlayer, Player, client_address
from lobby.exceptions import NotAuthenticated
from lobby.router import ERRORS, Lobby

router = APIRouter(responses={**ERRORS, 429: ERRORS[400]})


def session_out(account, pair) -> SessionOut:
    return SessionOut(player_id=account.player_id, name=account.name, role=account.role, guest=account.guest,
                      access_token=pair.access_token, refresh_token=pair.refresh_token, expires_in=pair.expires_in)


@router.post("/players", status_code=201, response_model=SessionOut, tags=["accounts"])
async def register(body: RegisterIn, request: Request, runtime: Lobby) -> SessionOut:
    """Open an account: a unique name and a password. You are logged in."""
    return session_out(*await runtime.accounts.register(body.name, body.password, client_address(request)))


@router.post("/players/guest", status_code=201, response_model=SessionOut, tags=["accounts"])
async def guest(request: Request, runtime: Lobby) -> SessionOut:
    """Play without an account (never rated); claim it later with a name and a password."""
    return session_out(*await runtime.accounts.guest(client_address(request)))


@router.get("/players/me", response_model=AccountOut, tags=["accounts"])
async def me(player: Player) -> AccountOut:
    return AccountOut(player_id=player.player_id, name=player.name, role=player.role, guest=player.guest)


@router.post("/players/me/claim", response_model=SessionOut, tags=["accounts"])
async def claim(body: RegisterIn, player: Player, runtime: Lobby) -> SessionOut:
    """A guest takes a name and a password, keeping its player id and games."""
    return session_out(*await runtime.accounts.claim(player, body.name, body.password))


@router.put("/players/me/password", response_model=SessionOut, tags=["accounts"])
async def change_password(body: PasswordChangeIn, player: Player, runtime: Lobby) -> SessionOut:
    """Every other session ends; this answer is your new one."""
    return session_out(*await runtime.accounts.change_password(player, body.old_password, body.new_password))


@router.delete("/players/me", status_code=204, tags=["accounts"])
async def erase(player: Player, runtime: Lobby, body: EraseIn | None = None) -> Response:
    """Erase your account, name and chat. Your games stay (audits pass) under "deleted player"."""
    await runtime.accounts.erase(player, body.password if body else None)
    return Response(status_code=204)


@router.post("/sessions", response_model=SessionOut, tags=["accounts"])
async def login(body: LoginIn, request: Request, runtime: Lobby) -> SessionOut:
    return session_out(*await runtime.accounts.login(body.name, body.password, client_address(request)))


@router.post("/sessions/refresh", response_model=SessionOut, tags=["accounts"])
async def refresh(body: RefreshIn, runtime: Lobby) -> SessionOut:
    """A new pair for a refresh token, which is then spent: a second use ends the session."""
    return session_out(*await runtime.accounts.refresh(body.refresh_token))


@router.delete("/sessions/current", status_code=204, tags=["accounts"])
async def logout(player: Player, runtime: Lobby) -> Response:
    await runtime.accounts.logout(player)
    return Response(status_code=204)


@router.delete("/sessions", status_code=204, tags=["accounts"])
async def logout_everywhere(player: Player, runtime: Lobby) -> Response:
    """Revoke every token of your account on every replica, and close your open sockets."""
    await runtime.accounts.logout_everywhere(player)
    return Response(status_code=204)


@router.post("/tickets", status_code=201, response_model=TicketOut, tags=["accounts"], openapi_extra=OPTIONAL_AUTH)
async def ticket(request: Request, runtime: Lobby, viewer: MaybePlayer, body: TicketIn | None = None) -> TicketOut:
    """A single-use ticket for one WebSocket, valid a few seconds: offer `protocols` when connecting."""
    body = body or TicketIn()
    if viewer is None and body.game_id is None:
        raise NotAuthenticated("log in for a ticket, or name the private game (and its invite) you watch")
    granted = await runtime.grant_ticket(viewer, body.game_id, body.invite, client_address(request))
    return TicketOut(ticket=granted, expires_in=runtime.settings.lobby_ticket_seconds,
                     protocols=tickets.subprotocols(granted))
