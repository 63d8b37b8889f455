"""Signed tokens (itsdangerous): a short-lived access token and a refresh token per session.

- access: `{sub: player id, ep: the account's epoch, fam: the session}`, valid `access` seconds. Any
  replica checks it with the shared secret and its cached account: a ban, a password change or "log out
  everywhere" bumps the account's epoch, which voids every access token at once on every replica.
- refresh: `{fam, jti}`, valid `refresh` seconds, exchanged once (`sessions.py` rotates it).

Neither carries the name: names change and can be erased; the account is the truth.

Checking a signature costs more than the rest of a command's auth, and a player sends the same access
token with every command, so verified access tokens are remembered (`VERIFIED` of them, the token's
exact text as the key, with the time it was signed): a token is still refused once it expires, and
the account and session checks (epoch, revocation) run on every call as before.
"""
from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import dataclass

from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

from lobby.exceptions import InvalidToken

VERIFIED = 10_000               # access tokens remembered as verified, the least recently used dropped


@dataclass(frozen=True)
class Identity:
    player_id: str
    name: str
    role: str = "player"
    guest: bool = False
    family: str = ""
    # Where the request that carried the token came from (set per request by `dependencies`): the
    # limits' exemption (LOBBY_LIMITS_EXEMPT) is by address, and every per-player limit checks it.
    address: str = ""


@dataclass(frozen=True)
class AccessClaims:
    player_id: str
    epoch: int
    family: str


@dataclass(frozen=True)
class RefreshClaims:
    family: str
    jti: str


class TokenSigner:
    def __init__(self, secret: str, access_seconds: int, refresh_seconds: int):
        self._access = URLSafeTimedSerializer(secret, salt="starbase-access")
        self._refresh = URLSafeTimedSerializer(secret, salt="starbase-refresh")
        self.access_seconds, self.refresh_seconds = access_seconds, refresh_seconds
        self._verified: OrderedDict[str, tuple[AccessClaims, float]] = OrderedDict()

    def access(self, player_id: str, epoch: int, family: str) -> str:
        return self._access.dumps({"sub": player_id, "ep": epoch, "fam": family})

    def refresh(self, family: str, jti: str) -> str:
        return self._refresh.dumps({"fam": family, "jti": jti})

    def verify_access(self, token: str) -> AccessClaims:
        known = self._verified.get(token)
        if known is not None and time.time() - known[1] <= self.access_seconds:
            self._verified.move_to_end(token)
            return known[0]
        payload, signed_at = self._load(self._access, token, self.access_seconds,
                                        "your access token has expired: refresh it (POST /sessions/refresh) or log in")
        if not (isinstance(payload, dict) and isinstance(payload.get("sub"), str)
                and isinstance(payload.get("ep"), int) and isinstance(payload.get("fam"), str)):
            raise InvalidToken("this is not an access token of this lobby: log in (POST /sessions)")
        claims = AccessClaims(payload["sub"], payload["ep"], payload["fam"])
        self._verified[token] = (claims, signed_at.timestamp())
        if len(self._verified) > VERIFIED:
            self._verified.popitem(last=False)
        return claims

    def verify_refresh(self, token: str) -> RefreshClaims:
        payload, _ = self._load(self._refresh, token, self.refresh_seconds,
                                "your session has expired: log in again (POST /sessions)")
        if not (isinstance(payload, dict) and isinstance(payload.get("fam"), str)
                and isinstance(payload.get("jti"), str)):
            raise InvalidToken("this is not a refresh token of this lobby: log in (POST /sessions)")
        return RefreshClaims(payload["fam"], payload["jti"])

    @staticmethod
    def _load(serializer, token: str, max_age: int, expired: str):
        try:
            return serializer.loads(token, max_age=max_age, return_timestamp=True)
        except SignatureExpired:
            raise InvalidToken(expired, "TOKEN_EXPIRED") from None
        except BadSignature:
            raise InvalidToken("this token was not issued by this lobby") from None
