"""A socket URL's parameters (`lobby.websocket._query`): parsed once per distinct query string for a
reconnecting crowd, but a string that may carry a credential, spelt plainly or %-escaped, is never kept
in that cache (it is refused, and must not outlive its request in memory)."""
from __future__ import annotations

import pytest

from lobby import websocket


@pytest.mark.parametrize("raw", [b"token=s3cret", b"after=3&ticket=s3cret", b"%74oken=s3cret", b"t%69cket=s3cret"])
def test_a_query_that_may_carry_a_credential_is_parsed_but_never_cached(raw):
    websocket._parsed_once.cache_clear()
    parsed = websocket._query(raw)
    assert "s3cret" in parsed.values()
    assert websocket._parsed_once.cache_info().currsize == 0


def test_a_plain_query_is_parsed_once_and_shared_read_only():
    websocket._parsed_once.cache_clear()
    first, second = websocket._query(b"after=41"), websocket._query(b"after=41")
    assert first is second and first["after"] == "41"
    assert websocket._parsed_once.cache_info().currsize == 1
    with pytest.raises(TypeError):
        first["after"] = "0"                                     # type: ignore[index]
