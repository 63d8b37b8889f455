"""Trucker's real-time phase followed in the browser: a Trucker table started through the lobby screens,
whose page opens the Trucker service's socket (its own address, from the table) with a lobby ticket:
the service knows each player by the ticket, and a visitor who is not seated watches. The page speaks
protocol version 1 (docs/asyncapi.yaml) both ways: its move is a v1 `move`, every frame the service sends
it matches the document, and after a dropped connection it resumes with `after=` its last seq."""
from __future__ import annotations

import asyncio
import json
from urllib.parse import parse_qs, urlparse

import jsonschema
import pytest
from playwright.async_api import WebSocketRoute, expect

from tests.web.asyncapi_doc import payload, valid
from tests.web.boards_play import seat_and_start
from tests.web.ui import Person

pytestmark = [pytest.mark.integration, pytest.mark.timeout(200)]


async def until(condition, seconds: float = 30) -> None:
    """Until `condition()` holds (what the page's socket has received), checked as frames arrive."""
    async with asyncio.timeout(seconds):
        while not condition():
            await asyncio.sleep(0.05)


async def test_the_trucker_socket_opens_with_a_lobby_ticket_and_knows_each_player(stack, trucker, browser):
    ann, bob, cy = [await Person.open(browser, stack.http, name) for name in ("ann", "bob", "cy")]
    for person in (ann, bob, cy):
        await person.sign_up()
    table_id = await ann.new_table("trucker", 2)
    await seat_and_start(ann, [bob], table_id, "trucker")
    await cy.open_table(table_id)

    sockets: dict[str, list[str]] = {p.name: [] for p in (ann, bob, cy)}
    for person in (ann, bob, cy):
        person.page.on("websocket", lambda ws, name=person.name: sockets[name].append(ws.url))
        await person.page.reload()
    for person, you in ((ann, ann.player_id), (bob, bob.player_id), (cy, "")):
        panel = person.page.locator(f"section.realtime[data-realtime=live][data-you='{you}']")
        await expect(panel).to_be_visible()
        await expect(panel).to_contain_text("you watch" if not you else f"you build as {person.name}")
        assert any(url.startswith(f"{trucker}/tables/{table_id}/ws") for url in sockets[person.name]), sockets
        assert not any("token=" in url or "ticket=" in url for url in sockets[person.name])
        person.no_page_errors()

    # Ann's page sends one move: every frame either way is protocol version 1.
    frames: dict[str, list] = {"sent": [], "received": []}

    def watch(socket) -> None:
        if socket.url.startswith(trucker):
            socket.on("framesent", lambda data: frames["sent"].append(json.loads(data)))
            socket.on("framereceived", lambda data: frames["received"].append(json.loads(data)))

    ann.page.on("websocket", watch)
    await ann.page.reload()
    await expect(ann.page.locator("section.realtime[data-realtime=live]")).to_be_visible()
    grab = ann.page.get_by_role("button", name="Grab a face-down component")
    await expect(grab).to_be_enabled(timeout=30_000)
    await grab.click()
    await expect(ann.page.locator("section.hand")).not_to_have_attribute("data-hand", "", timeout=30_000)
    await until(lambda: any(m["kind"] == "ack" for m in frames["received"]))
    [move] = frames["sent"]
    jsonschema.validate(move, payload("Move"))
    assert (move["v"], move["kind"], move["command"]) == (1, "move", {"type": "GrabFaceDown"})
    assert frames["received"][0]["kind"] == "welcome" and frames["received"][0]["you"] == ann.player_id
    for message in frames["received"]:
        valid(message)
    ack = next(m for m in frames["received"] if m["kind"] == "ack")
    assert ack["id"] == move["id"] and ack["events"][0]["type"] == "ComponentGrabbed"

    # Bob's connection drops: his page connects again with `after=` the last seq it handled.
    routes: list[WebSocketRoute] = []

    def route(socket: WebSocketRoute) -> None:
        routes.append(socket)
        socket.connect_to_server()

    await bob.page.route_web_socket(lambda url: url.startswith(trucker), route)
    await bob.page.reload()
    await expect(bob.page.locator("section.realtime[data-realtime=live]")).to_be_visible()
    assert "after" not in parse_qs(urlparse(routes[0].url).query)     # the welcome's view is the whole state
    panel = bob.page.locator("section.realtime")
    await expect(panel).not_to_have_attribute("data-realtime-seq", "0")    # welcomed: it knows a seq
    seen = int(await panel.get_attribute("data-realtime-seq"))
    async with bob.page.expect_websocket(lambda ws: ws.url.startswith(trucker), timeout=30_000):
        await routes[-1].close(code=1011, reason="test cuts the Trucker socket")
    await expect(bob.page.locator("section.realtime[data-realtime=live]")).to_be_visible(timeout=30_000)
    after = parse_qs(urlparse(routes[-1].url).query)["after"]
    assert len(routes) == 2 and int(after[0]) >= seen > 0
    for person in (ann, bob):
        person.no_page_errors()
