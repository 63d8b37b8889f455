"""The lean command route (`lobby.command_route`) answers exactly as FastAPI's route does.

Two apps over one running stack: the lobby's own, and one built with `lean_commands=False` (FastAPI's
route only). Every kind of request, good or bad, goes to both and the answers are compared byte for
byte: status, headers and body. A good command is sent to both with the same command id, so the second
is a retry and carries the same events. Each case also says which path served it: the lean route, FastAPI
(passed on untouched, body included), or the body gate before either.
"""
import contextlib
import json

import httpx
import itsdangerous
import pytest

from lobby.app import create_app
from lobby.measure import REQUESTS
from lobby.command_route import CommandRoute
from tests.support.stack import ApiPlayer, seat_and_start

pytestmark = pytest.mark.integration

LEAN, FASTAPI, GATE = "lean", "fastapi", "gate"


class Paths:
    """Both apps, and a record of what the lean route passed on to FastAPI."""

    def __init__(self, stack):
        self.lean_app = create_app(stack.settings, stack.runtime)
        self.plain_app = create_app(stack.settings, stack.runtime, lean_commands=False)
        self.passed_on: list[str] = []
        self.reached: list[str] = []

    @contextlib.asynccontextmanager
    async def clients(self):
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=self.lean_app), base_url="http://lobby") as lean, \
                httpx.AsyncClient(transport=httpx.ASGITransport(app=self.plain_app), base_url="http://lobby") as plain:
            await lean.get("/healthz")          # builds the middleware stack, so the route can be found in it
            route = self.lean_app.middleware_stack
            while not isinstance(route, CommandRoute):
                route = route.app
            inner, outer = route.app, route.__call__

            async def noting_passed(scope, receive, send):
                self.passed_on.append(scope["path"])
                await inner(scope, receive, send)

            async def noting_reached(scope, receive, send):
                self.reached.append(scope["path"])
                await outer(scope, receive, send)

            route.app = noting_passed
            gate = self.lean_app.middleware_stack
            while gate.app is not route:
                gate = gate.app
            gate.app = noting_reached
            yield lean, plain

    def served_by(self) -> str:
        served = GATE if not self.reached else FASTAPI if self.passed_on else LEAN
        self.passed_on.clear()
        self.reached.clear()
        return served


def same(plain: httpx.Response, lean: httpx.Response, what: str) -> None:
    assert lean.status_code == plain.status_code, (what, plain.text, lean.text)
    assert lean.headers.multi_items() == plain.headers.multi_items(), what
    assert lean.content == plain.content, what


@pytest.fixture
async def game(stack, register):
    ann, bob, eve = await register("ann"), await register("bob"), await register("eve")
    game_id = await seat_and_start([ann, bob], "testjack")
    view = await ann.ok(ann.get(f"/games/{game_id}/view"))
    mover, waiter = (ann, bob) if view["view"]["to_act"] == ann.player_id else (bob, ann)
    table = await mover.ok(mover.get(f"/tables/{game_id}"))
    seats = {s["player_id"]: s["seat"] for s in table["seats"]}
    return game_id, mover, waiter, eve, seats


def expired_token(stack, player) -> str:
    signer = stack.runtime.accounts.sessions.signer
    with pytest.MonkeyPatch.context() as patch:     # signed long ago, with this lobby's key
        patch.setattr(itsdangerous.TimestampSigner, "get_timestamp",
                      lambda self: int(__import__("time").time()) - signer.access_seconds - 60)
        return signer.access(player.player_id, 0, "some-session")


async def command_cases(stack, game) -> list[tuple]:
    """(what, path, method, headers, body, which path serves it) for every kind of command request, good
    and bad; the good ones with a command id, so that the second app to get one answers a retry."""
    game_id, mover, waiter, eve, seats = game
    path = f"/games/{game_id}/commands"
    bearer = mover.auth
    as_json = {"content-type": "application/json"}
    think = {"command": {"type": "Think"}}

    def body(value) -> bytes:
        return json.dumps(value).encode()

    logged_out = await ApiPlayer.login(mover.http, mover.name)     # a second session, ended at once
    assert (await mover.http.delete("/sessions/current", headers=logged_out.auth)).status_code == 204

    return [
        # (what, path, method, headers, body, served by)
        ("a good command", path, "POST", {**bearer, **as_json}, body({**think, "command_id": "c-1"}), LEAN),
        ("my own seat, as 1.0", path, "POST", {**bearer, **as_json},
         body({**think, "command_id": "c-2", "seat": float(seats[mover.player_id])}), LEAN),
        ("a charset and a lower-case scheme", path, "POST",
         {"authorization": "bearer " + bearer["Authorization"].split()[1], "content-type": "application/json; charset=utf-8"},
         body({**think, "command_id": "c-3"}), LEAN),
        ("no command id: each gets its own", path, "POST", {**bearer, **as_json}, body(think), None),
        # The body gate parses a body once and the lean route takes its value: the same as a parse of its own.
        ("a key twice: the last one counts", path, "POST", {**bearer, **as_json},
         b'{"command": {"type": "Fly"}, "command": {"type": "Think"}, "command_id": "c-4"}', LEAN),
        ("blank space around the body", path, "POST", {**bearer, **as_json},
         b' \n\t' + body({**think, "command_id": "c-5"}) + b'\r\n ', LEAN),
        ("a UTF-8 byte-order mark (the gate leaves it unparsed)", path, "POST", {**bearer, **as_json},
         b'\xef\xbb\xbf' + body({**think, "command_id": "c-6"}), LEAN),
        ("JSON under another media type", path, "POST", {**bearer, "content-type": "application/vnd.starbase+json"},
         body({**think, "command_id": "c-7"}), FASTAPI),
        ("a forged token", path, "POST", {"Authorization": "Bearer forged.token.here", **as_json}, body(think), LEAN),
        ("an expired token", path, "POST", {"Authorization": f"Bearer {expired_token(stack, mover)}", **as_json},
         body(think), LEAN),
        ("a revoked token", path, "POST", {**logged_out.auth, **as_json}, body(think), LEAN),
        ("another player's seat", path, "POST", {**bearer, **as_json},
         body({**think, "seat": seats[waiter.player_id]}), LEAN),
        ("a spectator acting", path, "POST", {**eve.auth, **as_json}, body(think), LEAN),
        ("out of turn", path, "POST", {**waiter.auth, **as_json}, body({"command": {"type": "Draw"}}), LEAN),
        ("not a command of this game", path, "POST", {**bearer, **as_json}, body({"command": {"type": "Fly"}}), LEAN),
        ("an unknown game", "/games/nosuchgame/commands", "POST", {**bearer, **as_json}, body(think), LEAN),
        ("a game id that is no stream token", "/games/a.b/commands", "POST", {**bearer, **as_json}, body(think), LEAN),
        ("malformed JSON", path, "POST", {**bearer, **as_json}, b"{not json", FASTAPI),
        ("malformed JSON and no token", path, "POST", as_json, b"{not json", FASTAPI),
        ("no token", path, "POST", as_json, body(think), FASTAPI),
        ("an empty Authorization header", path, "POST", {"Authorization": "", **as_json}, body(think), FASTAPI),
        ("a Basic Authorization header", path, "POST", {"Authorization": "Basic YW5uOnB3", **as_json}, body(think),
         FASTAPI),
        ("Bearer and no token", path, "POST", {"Authorization": "Bearer ", **as_json}, body(think), FASTAPI),
        ("no body", path, "POST", {**bearer, **as_json}, b"", FASTAPI),
        ("a JSON array", path, "POST", {**bearer, **as_json}, b"[]", FASTAPI),
        ("JSON null", path, "POST", {**bearer, **as_json}, b"null", FASTAPI),
        ("the command missing", path, "POST", {**bearer, **as_json}, b"{}", FASTAPI),
        ("the command missing and no token", path, "POST", as_json, b"{}", FASTAPI),
        ("an unknown field", path, "POST", {**bearer, **as_json}, body({**think, "as": "x"}), FASTAPI),
        ("a command that is no object", path, "POST", {**bearer, **as_json}, body({"command": "Think"}), FASTAPI),
        ("a command id with a space", path, "POST", {**bearer, **as_json}, body({**think, "command_id": "a b"}), FASTAPI),
        ("a command id too long", path, "POST", {**bearer, **as_json}, body({**think, "command_id": "x" * 101}), FASTAPI),
        ("a negative seat", path, "POST", {**bearer, **as_json}, body({**think, "seat": -1}), FASTAPI),
        ("a seat as text", path, "POST", {**bearer, **as_json}, body({**think, "seat": "1"}), FASTAPI),
        ("a seat as true", path, "POST", {**bearer, **as_json}, body({**think, "seat": True}), FASTAPI),
        ("a seat of 1.5", path, "POST", {**bearer, **as_json}, body({**think, "seat": 1.5}), FASTAPI),
        ("GET on the route", path, "GET", bearer, b"", FASTAPI),
        ("PUT on the route", path, "PUT", {**bearer, **as_json}, body(think), FASTAPI),
        ("a trailing slash", path + "/", "POST", {**bearer, **as_json}, body(think), FASTAPI),
        ("a path past the route", path + "/x", "POST", {**bearer, **as_json}, body(think), FASTAPI),
        ("an oversize body", path, "POST", {**bearer, **as_json},
         body({"command": {"type": "Think", "pad": "x" * 70_000}}), GATE),
        ("plain text", path, "POST", {**bearer, "content-type": "text/plain"}, body(think), GATE),
        ("NaN", path, "POST", {**bearer, **as_json}, b'{"command": {"type": "Think", "x": NaN}}', GATE),
    ]


async def test_every_kind_of_command_request_is_answered_the_same_by_both_routes(stack, game):
    game_id, mover, *_ = game
    cases = await command_cases(stack, game)
    paths = Paths(stack)
    async with paths.clients() as (lean, plain):
        for what, where, method, headers, content, served in cases:
            before = await stack.store.last_seq(f"game.{game_id}")
            first = await plain.request(method, where, headers=headers, content=content)
            second = await lean.request(method, where, headers=headers, content=content)
            by = paths.served_by()
            if served is not None:
                assert by == served, (what, by)
            if served is None:          # two distinct commands: the same answer but for their ids and events
                assert first.status_code == second.status_code == 200, (what, first.text, second.text)
                assert [e["type"] for e in first.json()["events"]] == [e["type"] for e in second.json()["events"]]
                assert first.json()["command_id"] != second.json()["command_id"]
                continue
            same(first, second, what)
            if first.status_code >= 400:
                assert await stack.store.last_seq(f"game.{game_id}") == before, f"{what} changed the game"

    replies = [e for e in (await stack.store.read(f"game.{game_id}")) if e.actor == mover.player_id]
    assert len(replies) == 9        # c-1 to c-7 once each (the second was a retry), two without an id


async def test_a_body_in_several_chunks_is_served_by_the_lean_route(stack, game):
    game_id, mover, *_ = game

    async def chunks():
        for part in (b'{"command": ', b'{"type": "Think"}', b', "command_id": "chunked"}'):
            yield part

    paths = Paths(stack)
    async with paths.clients() as (lean, plain):
        reply = await lean.post(f"/games/{game_id}/commands", content=chunks(),
                                headers={**mover.auth, "content-type": "application/json"})
        assert paths.served_by() == LEAN
        again = await plain.post(f"/games/{game_id}/commands", headers=mover.auth,
                                 json={"command": {"type": "Think"}, "command_id": "chunked"})
    same(again, reply, "a chunked body")
    assert reply.status_code == 200 and reply.json()["command_id"] == "chunked"


async def test_the_lean_route_is_measured_under_the_route_it_stands_for(stack, game):
    game_id, mover, *_ = game
    label = ("POST", "/games/{game_id}/commands")

    def count(status: str) -> float:
        return REQUESTS.labels(*label, status)._value.get()

    ok, refused = count("200"), count("422")
    paths = Paths(stack)
    async with paths.clients() as (lean, _):
        await lean.post(f"/games/{game_id}/commands", headers=mover.auth, json={"command": {"type": "Think"}})
        assert paths.served_by() == LEAN
        await lean.post(f"/games/{game_id}/commands", headers=mover.auth, json={"command": {"type": "Fly"}})
        assert paths.served_by() == LEAN
        await lean.post(f"/games/{game_id}/commands", headers=mover.auth, json={})
        assert paths.served_by() == FASTAPI
    assert count("200") == ok + 1
    assert count("422") == refused + 2


@pytest.mark.parametrize("stack_options", [{"settings": {"lobby_limit_commands": "2/minute"}}])
async def test_a_rate_limited_command_gets_the_same_429_on_both_routes_and_counts_nowhere(stack, game):
    game_id, mover, *_ = game
    path, think = f"/games/{game_id}/commands", {"command": {"type": "Think"}}
    paths = Paths(stack)
    async with paths.clients() as (lean, plain):
        assert (await lean.post(path, headers=mover.auth, json={**think, "command_id": "l-1"})).status_code == 200
        assert (await plain.post(path, headers=mover.auth, json={**think, "command_id": "p-1"})).status_code == 200
        paths.served_by()
        before = await stack.store.last_seq(f"game.{game_id}")
        refused_plain = await plain.post(path, headers=mover.auth, json=think)
        refused_lean = await lean.post(path, headers=mover.auth, json=think)
        assert paths.served_by() == LEAN
    assert refused_lean.status_code == refused_plain.status_code == 429
    assert refused_lean.json()["error"]["code"] == "RATE_LIMITED"
    # The seconds to wait may have ticked between the two: everything else is the same.
    assert refused_lean.headers["retry-after"].isdigit()
    assert [(k, v) for k, v in refused_lean.headers.multi_items() if k not in ("retry-after", "content-length")] == \
        [(k, v) for k, v in refused_plain.headers.multi_items() if k not in ("retry-after", "content-length")]
    assert _without_digits(refused_lean.text) == _without_digits(refused_plain.text)
    assert await stack.store.last_seq(f"game.{game_id}") == before


def _without_digits(text: str) -> str:
    return "".join("#" if c.isdigit() else c for c in text)
