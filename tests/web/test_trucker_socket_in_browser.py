"""Trucker's real-time phase followed in the browser: a Trucker table started through the lobby screens,
whose page opens the Trucker service's socket (its own address, from the table) with a lobby ticket:
the service knows each player by the ticket, and a visitor who is not seated watches."""
from __future__ import annotations

import pytest
from playwright.async_api import expect

from tests.web.ui import Person

pytestmark = [pytest.mark.integration, pytest.mark.timeout(200)]


async def test_the_trucker_socket_opens_with_a_lobby_ticket_and_knows_each_player(stack, trucker, browser):
    ann, bob, cy = [await Person.open(browser, stack.http, name) for name in ("ann", "bob", "cy")]
    for person in (ann, bob, cy):
        await person.sign_up()
    await ann.page.get_by_role("link", name="New table", exact=True).click()
    await ann.page.locator("#create-game").select_option("trucker")
    await ann.page.locator("#create-seats").fill("2")
    await ann.page.get_by_role("button", name="Open the table").click()
    await expect(ann.page.locator("#table-title")).to_be_visible()
    table_id = ann.page.url.split("#/tables/")[1]
    await bob.open_table(table_id)
    await bob.page.get_by_role("button", name="Sit here").first.click()
    await bob.page.get_by_role("button", name="I am ready").click()
    await ann.page.get_by_role("button", name="I am ready").click()
    await ann.page.get_by_role("button", name="Start the game").click()
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
