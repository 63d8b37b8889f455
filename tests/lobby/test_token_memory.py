"""Verified access tokens are remembered, yet a remembered token still expires and a forged one never passes."""
import time

import pytest

from lobby.exceptions import InvalidToken
from lobby.tokens import TokenSigner


def test_a_remembered_access_token_still_expires_and_a_forged_one_is_refused(monkeypatch):
    now = [1_800_000_000.0]
    monkeypatch.setattr(time, "time", lambda: now[0])      # the signer and itsdangerous read the same clock
    signer = TokenSigner("a-long-enough-secret-for-tests-xyz", access_seconds=60, refresh_seconds=600)
    token = signer.access("p1", 3, "fam")
    assert signer.verify_access(token) == signer.verify_access(token)       # the second from memory
    with pytest.raises(InvalidToken) as forged:
        signer.verify_access(token[:-3] + ("aaa" if not token.endswith("aaa") else "bbb"))
    assert forged.value.code == "INVALID_TOKEN"
    now[0] += 61
    with pytest.raises(InvalidToken) as expired:
        signer.verify_access(token)
    assert expired.value.code == "TOKEN_EXPIRED"
    other = TokenSigner("another-secret-of-another-lobby-xyz", access_seconds=60, refresh_seconds=600)
    with pytest.raises(InvalidToken):
        other.verify_access(signer.access("p1", 3, "fam"))                  # memory is per signer, per secret
