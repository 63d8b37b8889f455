"""No log line ever holds a token, a ticket or a password: an end-to-end run through every
credential-bearing route and socket (a client that still puts `?token=` in a socket URL included),
with uvicorn's access log on, then every captured line scanned for every secret the run handled."""
import asyncio
import logging
import secrets as random_secrets

import pytest
import websockets

from tests.support import sockets
from tests.support.stack import ApiPlayer, password_of, seat_and_start

pytestmark = pytest.mark.integration


async def test_an_end_to_end_run_leaves_no_secret_in_any_log_line(stack, http, caplog, capfd, monkeypatch):
    caplog.set_level(logging.DEBUG)
    for name in ("uvicorn.access", "uvicorn.error"):     # another test's uvicorn may have silenced them
        monkeypatch.setattr(logging.getLogger(name), "propagate", True)
        monkeypatch.setattr(logging.getLogger(name), "level", logging.INFO)
    secrets: set[str] = set()
    ann, bob = await ApiPlayer.register(http, "ann"), await ApiPlayer.register(http, "bob")
    secrets |= {password_of("ann"), password_of("bob"), ann.token, ann.refresh_token, bob.token, bob.refresh_token}
    # Secrets made at run time, never literals: a traceback quoting this file must not look like a leak.
    wrong_password, next_password = random_secrets.token_hex(12), random_secrets.token_hex(12)
    await http.post("/sessions", json={"name": "ann", "password": wrong_password})
    secrets.add(wrong_password)
    refreshed = (await http.post("/sessions/refresh", json={"refresh_token": ann.refresh_token})).json()
    ann = ApiPlayer.from_session(http, refreshed)
    secrets |= {ann.token, ann.refresh_token}
    await http.post("/sessions/refresh", json={"refresh_token": "forged.refresh.token"})
    game_id = await seat_and_start([ann, bob], "testjack")

    ticket = await ann.ticket()
    secrets.add(ticket)
    async with websockets.connect(f"{stack.ws}/games/{game_id}/ws",
                                  subprotocols=["starbase.v1", f"ticket.{ticket}"]) as socket:
        await sockets.welcome(socket)
    async with websockets.connect(f"{stack.ws}/games/{game_id}/ws?token={bob.token}&after=0") as careless:
        assert (await sockets.refusal(careless))["code"] == "TOKEN_IN_URL"
    await http.get(f"/games/{game_id}/view?token={bob.token}")     # a careless HTTP client too
    await bob.http.put("/players/me/password", headers=bob.auth,
                       json={"old_password": password_of("bob"), "new_password": next_password})
    secrets.add(next_password)
    await bob.http.request("DELETE", "/players/me", headers=bob.auth, json={"password": next_password})
    await asyncio.sleep(0.2)                # let the last access-log lines be written

    # The lines of this test's own clients (httpx, the websockets client) are not the server's logs.
    server_lines = [r.getMessage() for r in caplog.records
                    if not r.name.startswith(("httpx", "httpcore", "websockets.client"))]
    captured = "\n".join(server_lines) + "".join(capfd.readouterr())
    assert "POST /sessions" in captured and "WebSocket /games/" in captured     # the access log was on
    leaked = [secret for secret in secrets if secret and secret in captured]
    assert leaked == []
