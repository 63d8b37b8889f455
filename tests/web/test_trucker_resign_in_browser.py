"""Resigning a Trucker game while a round builds, in the browser: the lobby's route refuses it then (the
adjudicator takes no command while a round builds: REALTIME_PHASE), so the page's Resign control sends it
on the Trucker socket the page builds on, a v1 `move` with the platform's `Resign`; the service decides
it (docs/trucker_service.md). With two players the resigner concedes: the game ends at once."""
from __future__ import annotations

import asyncio
import json

import jsonschema
import pytest
from playwright.async_api import expect

from tests.web.asyncapi_doc import payload
from tests.web.boards_play import seat_and_start
from tests.web.ui import Person

pytestmark = [pytest.mark.integration, pytest.mark.timeout(200)]


async def test_a_trucker_player_resigns_while_building_on_the_trucker_socket(stack, trucker, browser):
    ann, bob = [await Person.open(browser, stack.http, name) for name in ("ann", "bob")]
    for person in (ann, bob):
        await person.sign_up()
    table_id = await ann.new_table("trucker", 2)
    await seat_and_start(ann, [bob], table_id, "trucker")

    sent: list[dict] = []
    received: list[dict] = []

    def watch(socket) -> None:
        if socket.url.startswith(trucker):
            socket.on("framesent", lambda data: sent.append(json.loads(data)))
            socket.on("framereceived", lambda data: received.append(json.loads(data)))

    bob.page.on("websocket", watch)
    await bob.page.reload()
    await expect(bob.page.locator("section.realtime[data-realtime=live]")).to_be_visible()
    await expect(bob.page.get_by_role("button", name="Grab a face-down component")).to_be_enabled(timeout=30_000)

    await bob.page.get_by_role("button", name="Resign", exact=True).click()
    await bob.page.get_by_role("button", name="Yes, resign").click()
    async with asyncio.timeout(30):
        while not any(m["kind"] == "ack" for m in received):
            await asyncio.sleep(0.05)
    [resign] = sent
    jsonschema.validate(resign, payload("Move"))
    assert (resign["kind"], resign["command"]) == ("move", {"type": "Resign"})
    ack = next(m for m in received if m["kind"] == "ack")
    assert ack["id"] == resign["id"] and [e["type"] for e in ack["events"]] == ["PlayerResigned", "GameEnded"]

    # The game is over, the refusal never shown: ann first, bob (who gave up) last.
    for person in (ann, bob):
        standings = person.page.locator("section.standings tbody tr")
        await expect(standings).to_have_count(2, timeout=30_000)
        await expect(standings.first).to_contain_text("ann")
        await expect(person.page.get_by_role("button", name="Resign", exact=True)).to_have_count(0)
    await expect(bob.page.locator(".error")).to_have_count(0)
    for person in (ann, bob):
        person.no_page_errors()
