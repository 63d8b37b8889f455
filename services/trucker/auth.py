"""Who is at the other end of a socket: a player of the game (the lobby's signed token), or a spectator."""
from __future__ import annotations

from itsdangerous import BadSignature, URLSafeTimedSerializer

from trucker.settings import TruckerSettings
from trucker.warehouse import Refused

# The lobby signs its bearer tokens this way (services/lobby/tokens.py); the same secret checks them here.
LOBBY_SALT = "starbase-lobby-player"


class Authenticator:
    def __init__(self, settings: TruckerSettings):
        self._trust_param = settings.trucker_trust_player_param
        self._max_age = settings.lobby_token_max_age
        self._serializer = (URLSafeTimedSerializer(settings.lobby_secret, salt=LOBBY_SALT)
                            if settings.lobby_secret else None)

    def identify(self, token: str | None, player: str | None) -> str | None:
        """The player id, or None for a spectator; raises Refused(BAD_TOKEN) for a forged or stale token."""
        if token:
            if self._serializer is None:
                raise Refused("BAD_TOKEN", "this service was started without the lobby's secret")
            try:
                return str(self._serializer.loads(token, max_age=self._max_age)["id"])
            except (BadSignature, KeyError, TypeError):
                raise Refused("BAD_TOKEN", "this token was not issued by the lobby, or it has expired") from None
        if player and self._trust_param:
            return player
        return None
