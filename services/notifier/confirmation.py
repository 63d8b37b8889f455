"""Confirming an e-mail address: a code mailed to it, typed back by the player within the hour.

Pure (time is passed in). The code is 8 digits from `secrets`; only its digest (salted with the player
id) is kept; `MAX_TRIES` wrong codes spend it (a new one comes with the next save of the settings,
which the lobby's limit counts), so guessing 1 in 10^8 a few times is all a stranger gets.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets

from notifier.preferences import Email

LIFETIME = 3600.0
MAX_TRIES = 5


class ConfirmationRefused(ValueError):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code, self.message = code, message


def digest(player: str, code: str) -> str:
    return hashlib.sha256(f"{player}\x1f{code}".encode()).hexdigest()


def with_new_code(email: Email, player: str, now: float) -> tuple[Email, str]:
    """The address, unconfirmed, waiting for a fresh code; and that code (to mail, never to store)."""
    code = f"{secrets.randbelow(10**8):08d}"
    return email.model_copy(update={"confirmed": False, "code_digest": digest(player, code),
                                    "code_expires": now + LIFETIME, "code_tries": 0}), code


def confirmed(email: Email | None, player: str, code: str, now: float) -> Email:
    """The address confirmed by `code`, or why not (the caller stores what comes back either way:
    a wrong code counts a try)."""
    if email is None:
        raise ConfirmationRefused("NO_EMAIL", "set an e-mail address first")
    if email.confirmed:
        return email
    if email.code_digest is None or email.code_tries >= MAX_TRIES or now > email.code_expires:
        raise ConfirmationRefused("CODE_EXPIRED", "this code is spent or too old: save your settings again "
                                                  "for a new one")
    if not hmac.compare_digest(email.code_digest, digest(player, code.strip())):
        raise ConfirmationRefused("WRONG_CODE", "this is not the code we sent")
    return email.model_copy(update={"confirmed": True, "code_digest": None, "code_expires": 0.0, "code_tries": 0})
