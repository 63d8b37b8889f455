"""Commands through uvicorn's protocol door (lobby/command_door.py) against the lobby's whole app.

One running stack, two more servers over its runtime: one with the lobby's protocols (commands through
the door), one with uvicorn's stock httptools protocol (every request through the whole app). Each
kind of command request, good or bad, goes to both as raw bytes, and what comes back is compared byte
for byte (the Date header aside), with which of the two answered it on the door's server and what the
metrics counted.
"""
from __future__ import annotations

import json

import pytest
import uvicorn

from lobby.app import create_app
from lobby.command_door import CommandDoor, door_for
from lobby.handshake import SERVER_PROTOCOLS
from lobby.measure import REQUESTS
from starbase_core import tracing
from tests.lobby.test_handshake import exchange, serve
from tests.lobby.test_command_route import LEAN, command_cases, game  # noqa: F401  (game: a fixture)

pytestmark = pytest.mark.integration

# The gate leaves a body with a byte-order mark unparsed: the door does not take what it did not parse.
DOOR_DECLINES = {"a UTF-8 byte-order mark (the gate leaves it unparsed)"}


class Servers:
    """The door's server and the whole app's, over the stack's runtime; `taken` lists what the door
    served itself (the rest it handed to the app)."""

    def __init__(self, stack):
        self.stack = stack
        self.door_app = create_app(stack.settings, stack.runtime)
        self.whole_app = create_app(stack.settings, stack.runtime)
        self.taken: list[str] = []
        door = self.door_app.command_door
        serve = door.route.serve

        async def noting(scope, *args):
            self.taken.append(scope["path"])
            await serve(scope, *args)

        door.route.serve = noting

    async def __aenter__(self):
        self.running = [await serve(self.door_app, **SERVER_PROTOCOLS),
                        await serve(self.whole_app, http="httptools")]
        self.door_port, self.whole_port = (port for _, _, port in self.running)
        return self

    async def __aexit__(self, *exc_info):
        for server, _, _ in self.running:
            server.should_exit = True
        for _, task, _ in self.running:
            await task

    def took(self) -> bool:
        taken = bool(self.taken)
        self.taken.clear()
        return taken


def raw(method: str, path: str, headers: dict | list, body: bytes, *, close: bool = True,
        version: bytes = b"HTTP/1.1") -> bytes:
    items = list(headers.items()) if isinstance(headers, dict) else list(headers)
    lines = [f"{method} {path} ".encode() + version, b"Host: lobby"]
    lines += [f"{name}: {value}".encode("latin-1") for name, value in items]
    if not any(name.lower() in ("transfer-encoding", "content-length") for name, _ in items):
        lines.append(b"Content-Length: %d" % len(body))
    if close:
        lines.append(b"Connection: close")
    return b"\r\n".join(lines) + b"\r\n\r\n" + body


def body_of(answer: bytes) -> dict:
    return json.loads(answer.split(b"\r\n\r\n", 1)[1])


def counted(status: str) -> float:
    return REQUESTS.labels("POST", "/games/{game_id}/commands", status)._value.get()


async def test_every_kind_of_command_request_gets_the_same_bytes_through_the_door_as_through_the_app(stack, game):
    game_id, mover, *_ = game
    cases = await command_cases(stack, game)
    took_some = declined_some = False
    async with Servers(stack) as servers:
        for what, where, method, headers, content, served in cases:
            sent = raw(method, where, headers, content)
            before = await stack.store.last_seq(f"game.{game_id}")
            whole = await exchange(servers.whole_port, sent)
            assert not servers.took(), what         # (the stock protocol never reaches the door)
            through_door = await exchange(servers.door_port, sent)
            took = servers.took()
            expected = served in (LEAN, None) and what not in DOOR_DECLINES
            assert took == expected, (what, took)
            took_some, declined_some = took_some or took, declined_some or not took
            if served is None:          # two distinct commands: the same answer but for their ids
                assert whole.startswith(b"HTTP/1.1 200") and through_door.startswith(b"HTTP/1.1 200"), what
                assert [e["type"] for e in body_of(whole)["events"]] == \
                    [e["type"] for e in body_of(through_door)["events"]], what
                continue
            assert through_door == whole, what
            if not whole.startswith(b"HTTP/1.1 200"):
                assert await stack.store.last_seq(f"game.{game_id}") == before, f"{what} changed the game"
    assert took_some and declined_some


async def test_unusual_requests_go_to_the_app_and_are_answered_as_it_answers_them(stack, game):
    game_id, mover, *_ = game
    path = f"/games/{game_id}/commands"
    think = json.dumps({"command": {"type": "Think"}, "command_id": "odd-1"}).encode()     # (then retried)
    as_json = {**mover.auth, "Content-Type": "application/json"}
    chunked = b"%x\r\n%s\r\n0\r\n\r\n" % (len(think), think)
    cases = {   # what, (the request, whether the door serves it)
        "chunked, in one piece": (raw("POST", path, {**as_json, "Transfer-Encoding": "chunked"}, chunked), True),
        "JSON, then another type (the gate reads the last)":
            (raw("POST", path, [*as_json.items(), ("Content-Type", "text/plain")], think), False),
        "another type, then JSON (the route reads the first)":
            (raw("POST", path, [("Content-Type", "text/plain"), *as_json.items()], think), False),
        "two tokens (the route takes the first)":
            (raw("POST", path, [*as_json.items(), ("Authorization", "Bearer forged")], think), True),
        "a content length that is no number":
            (raw("POST", path, [*as_json.items(), ("Content-Length", "x")], think), False),
        # Refused before its body comes: the door must not wait for one.
        "a content length past the limit, no body yet":
            (raw("POST", path, [*as_json.items(), ("Content-Length", "99999999")], b""), False),
    }
    async with Servers(stack) as servers:
        for what, (sent, served) in cases.items():
            whole = await exchange(servers.whole_port, sent)
            through_door = await exchange(servers.door_port, sent)
            assert servers.took() == served, what
            assert through_door == whole and whole.startswith(b"HTTP/1.1 "), what


async def test_kept_alive_and_pipelined_commands_are_answered_in_order_on_one_connection(stack, game):
    game_id, mover, *_ = game
    path = f"/games/{game_id}/commands"
    as_json = {**mover.auth, "Content-Type": "application/json"}

    def command(command_id: str, close: bool = False) -> bytes:
        return raw("POST", path, as_json, json.dumps({"command": {"type": "Think"}, "command_id": command_id}).encode(),
                   close=close)

    async with Servers(stack) as servers:
        # Three commands in one write, the last asking to close: three answers, in order, then the close.
        sent = command("pipe-1") + command("pipe-2") + command("pipe-3", close=True)
        whole = await exchange(servers.whole_port, sent)
        assert servers.took() is False
        through_door = await exchange(servers.door_port, sent)       # retries: the same events
        assert servers.taken == [path] * 3
        assert through_door == whole
        answers = through_door.split(b"HTTP/1.1 ")[1:]
        assert [a.split(b" ", 1)[0] for a in answers] == [b"200"] * 3
        assert [json.loads(a.split(b"\r\n\r\n", 1)[1])["command_id"] for a in answers] == ["pipe-1", "pipe-2", "pipe-3"]
        assert b"connection: close" in answers[2] and b"connection: close" not in answers[0]
        # HTTP/1.0 (no keep-alive): answered and closed, as the app does.
        old = command("old-1").replace(b"HTTP/1.1", b"HTTP/1.0", 1)
        assert await exchange(servers.door_port, old) == await exchange(servers.whole_port, old)


async def test_the_door_counts_its_answers_under_the_route_and_answers_an_unexpected_error_as_the_app(
        stack, game, monkeypatch):
    game_id, mover, *_ = game
    path = f"/games/{game_id}/commands"
    as_json = {**mover.auth, "Content-Type": "application/json"}
    ok, refused, failed = counted("200"), counted("422"), counted("500")
    async with Servers(stack) as servers:
        good = await exchange(servers.door_port, raw("POST", path, as_json, b'{"command": {"type": "Think"}}'))
        bad = await exchange(servers.door_port, raw("POST", path, as_json, b'{"command": {"type": "Fly"}}'))
        assert servers.taken == [path, path]
        assert good.startswith(b"HTTP/1.1 200") and bad.startswith(b"HTTP/1.1 422")
        assert (counted("200"), counted("422")) == (ok + 1, refused + 1)

        async def broken(*args, **kwargs):
            raise RuntimeError("a bug")

        monkeypatch.setattr(stack.runtime.games, "move", broken)
        sent = raw("POST", path, as_json, b'{"command": {"type": "Think"}}', close=False)
        whole = await exchange(servers.whole_port, sent)
        through_door = await exchange(servers.door_port, sent)
        assert servers.took()
        assert whole.startswith(b"HTTP/1.1 500") and through_door == whole
        assert body_of(through_door)["error"]["code"] == "INTERNAL"
        assert counted("500") == failed + 2         # one each: the app's `Measure`, the door's own


def test_no_door_without_the_lean_route_with_tracing_on_or_off_the_route(stack, monkeypatch):
    assert create_app(stack.settings, stack.runtime, lean_commands=False).command_door is None
    monkeypatch.setattr(tracing, "enabled", lambda: True)
    assert create_app(stack.settings, stack.runtime).command_door is None
    monkeypatch.undo()
    app = create_app(stack.settings, stack.runtime)
    assert isinstance(app.command_door, CommandDoor)
    post = {"method": "POST", "root_path": "", "path": "/games/g1/commands"}
    assert door_for(app, post) is app.command_door
    assert door_for(app, {**post, "method": "PUT"}) is None
    assert door_for(app, {**post, "root_path": "/lobby"}) is None
    assert door_for(app, {**post, "path": "/games/g1/commands/"}) is None
    assert door_for(app, {**post, "path": "/games/g1/log"}) is None
    proxied = uvicorn.middleware.proxy_headers.ProxyHeadersMiddleware(app)
    under = door_for(proxied, post)
    assert under.app is app.command_door and under.trusted_hosts is proxied.trusted_hosts


@pytest.mark.parametrize("stack_options", [{"settings": {"lobby_max_body_bytes": "300"}}])
async def test_a_body_past_the_limit_is_refused_by_the_gate_even_when_it_comes_whole_and_unannounced(stack, game):
    game_id, mover, *_ = game
    path = f"/games/{game_id}/commands"
    as_json = {**mover.auth, "Content-Type": "application/json"}
    big = json.dumps({"command": {"type": "Think", "pad": "x" * 400}}).encode()
    small = json.dumps({"command": {"type": "Think"}, "command_id": "small-1"}).encode()
    async with Servers(stack) as servers:
        for body, status in ((big, b"413"), (small, b"200")):
            # Chunked, in one write: the door sees the whole body at once, with no length announced.
            sent = raw("POST", path, {**as_json, "Transfer-Encoding": "chunked"},
                       b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body))
            whole = await exchange(servers.whole_port, sent)
            through_door = await exchange(servers.door_port, sent)
            assert through_door == whole and whole.startswith(b"HTTP/1.1 " + status)
            assert servers.took() == (status == b"200")
