"""FastAPI dependencies: the wired services (from app.state) and the caller's identity (from a token)."""
from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from lobby.exceptions import NotAuthenticated
from lobby.tokens import Identity

bearer = HTTPBearer(auto_error=False, description="the token POST /players returned")


def lobby(request: Request):
    return request.app.state.lobby


def current_player(request: Request,
                   credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]) -> Identity:
    if credentials is None or not credentials.credentials:
        raise NotAuthenticated("send your token as 'Authorization: Bearer <token>' (POST /players gives one)")
    return request.app.state.lobby.signer.verify(credentials.credentials)


def optional_player(request: Request,
                    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]) -> Identity | None:
    """Anonymous spectators may read public games; a token, when sent, must still be valid."""
    if credentials is None or not credentials.credentials:
        return None
    return request.app.state.lobby.signer.verify(credentials.credentials)


Player = Annotated[Identity, Depends(current_player)]
MaybePlayer = Annotated[Identity | None, Depends(optional_player)]
