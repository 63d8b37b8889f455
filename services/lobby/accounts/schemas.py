"""Wire format of accounts, sessions and tickets."""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from lobby.schemas import Body

NAME = Field(min_length=1, max_length=64, description="2 to 24 letters of one script, digits 0-9, and single "
                                                      "spaces, '-', '_' or '.' between them")
PASSWORD = Field(min_length=1, max_length=256, description="10 to 256 characters, at least 4 different")


class RegisterIn(Body):
    name: str = NAME
    password: str = PASSWORD


class LoginIn(Body):
    name: str = Field(min_length=1, max_length=64)
    password: str = Field(min_length=1, max_length=256)


class RefreshIn(Body):
    refresh_token: str = Field(min_length=1, max_length=512)


class PasswordChangeIn(Body):
    old_password: str = Field(min_length=1, max_length=256)
    new_password: str = PASSWORD


class EraseIn(Body):
    password: str | None = Field(default=None, max_length=256, description="required unless you are a guest")


class TicketIn(Body):
    game_id: str | None = Field(default=None, max_length=64, description="a private game to watch")
    invite: str | None = Field(default=None, max_length=64, description="its table's invite, if not a member")


class AccountOut(BaseModel):
    player_id: str
    name: str
    role: Literal["player", "moderator", "admin"]
    guest: bool


class SessionOut(AccountOut):
    access_token: str
    refresh_token: str
    token_type: Literal["bearer"] = "bearer"
    expires_in: int = Field(description="seconds the access token lasts; refresh it before")


class TicketOut(BaseModel):
    ticket: str
    expires_in: int
    protocols: list[str] = Field(description="offer these as the socket's Sec-WebSocket-Protocol values")
