"""FastAPI dependencies: the wired services (from app.state), the caller's identity (from an access
token, checked against the account on every call), the caller's address and role."""
from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPBearer

from lobby.exceptions import Forbidden, InvalidToken, NotAuthenticated
from lobby.tokens import Identity

# Only for the OpenAPI document (the lock icon at /docs): the header itself is read by `_token` below,
# because HTTPBearer(auto_error=False) turns a malformed header ("Basic …", "Bearer" alone) into "no
# header", and a caller who sent a broken token must hear so rather than be served as a stranger.
bearer = HTTPBearer(auto_error=False, description="the access_token POST /sessions (or POST /players) returned")

# Routes that take a token when sent but serve anonymous readers too declare it as optional in OpenAPI:
# `{}` (no credentials) or the bearer token.
OPTIONAL_AUTH = {"security": [{}]}


async def lobby(request: Request):
    # async on purpose: FastAPI runs a plain `def` dependency in its thread pool, a thread hop per request.
    return request.app.state.lobby


def client_address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def _token(request: Request) -> str | None:
    """The bearer token, None when no Authorization header came, INVALID_TOKEN when it is malformed."""
    header = request.headers.get("authorization", "").strip()
    if not header:                  # absent or empty: no credentials, as before
        return None
    scheme, _, token = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise InvalidToken("the Authorization header must be 'Bearer <access token>' (POST /sessions gives one)")
    return token.strip()


async def current_player(request: Request, _scheme: Annotated[object, Depends(bearer)]) -> Identity:
    token = _token(request)
    if token is None:
        raise NotAuthenticated("send your access token as 'Authorization: Bearer <token>' "
                               "(log in with POST /sessions)")
    return await request.app.state.lobby.accounts.authenticate(token, client_address(request))


async def optional_player(request: Request, _scheme: Annotated[object, Depends(bearer)]) -> Identity | None:
    """Anonymous spectators may read public games; a token, when sent, must still be valid."""
    token = _token(request)
    if token is None:
        return None
    return await request.app.state.lobby.accounts.authenticate(token, client_address(request))


async def moderator(player: Annotated[Identity, Depends(current_player)]) -> Identity:
    if player.role not in ("moderator", "admin"):
        raise Forbidden("only moderators may do this", "NOT_A_MODERATOR")
    return player


async def admin(player: Annotated[Identity, Depends(current_player)]) -> Identity:
    if player.role != "admin":
        raise Forbidden("only admins may do this", "NOT_AN_ADMIN")
    return player


Player = Annotated[Identity, Depends(current_player)]
MaybePlayer = Annotated[Identity | None, Depends(optional_player)]
Moderator = Annotated[Identity, Depends(moderator)]
Admin = Annotated[Identity, Depends(admin)]
