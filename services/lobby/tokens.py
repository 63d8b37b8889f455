"""Signed bearer tokens (itsdangerous): the token *is* the identity, so any lobby replica that shares
the secret can check it without a lookup. A token carries the player id and name, and expires."""
from __future__ import annotations

from dataclasses import dataclass

from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

from lobby.exceptions import InvalidToken


@dataclass(frozen=True)
class Identity:
    player_id: str
    name: str


class TokenSigner:
    def __init__(self, secret: str, max_age: int):
        self._serializer = URLSafeTimedSerializer(secret, salt="starbase-lobby-player")
        self._max_age = max_age

    def issue(self, identity: Identity) -> str:
        return self._serializer.dumps({"id": identity.player_id, "name": identity.name})

    def verify(self, token: str) -> Identity:
        try:
            payload = self._serializer.loads(token, max_age=self._max_age)
        except SignatureExpired:
            raise InvalidToken("your token has expired: register or log in again", "TOKEN_EXPIRED") from None
        except BadSignature:
            raise InvalidToken("this token was not issued by this lobby") from None
        # Only this lobby's secret signs tokens, but a token signed by an older build (another payload
        # shape) must still be a 401, not a KeyError and a 500.
        if not (isinstance(payload, dict) and isinstance(payload.get("id"), str)
                and isinstance(payload.get("name"), str)):
            raise InvalidToken("this token does not name a player: register again", "INVALID_TOKEN")
        return Identity(player_id=payload["id"], name=payload["name"])
