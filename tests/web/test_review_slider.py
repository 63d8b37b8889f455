"""The review slider: hidden while the lobby does not serve past positions (today), and working once its
OpenAPI document declares `GET /games/{game_id}/view?at=SEQ` (simulated here by adding the parameter to
the document the page reads; the lobby itself answers the calls)."""
from __future__ import annotations

import json

import pytest
from playwright.async_api import expect

from tests.support.stack import seat_and_start
from tests.web.ui import Person

pytestmark = [pytest.mark.integration, pytest.mark.timeout(180)]


async def started_game(register) -> tuple[str, int]:
    """A Testjack game with one move made: its id and its last seq."""
    ann, bob = await register("ann"), await register("bob")
    game_id = await seat_and_start([ann, bob], "testjack")
    for player in (ann, bob):                    # whoever is to act draws a card
        if await player.ok(player.get(f"/games/{game_id}/actions")):
            await player.ok(player.post(f"/games/{game_id}/commands", {"command": {"type": "Draw"}}))
            break
    return game_id, (await ann.ok(ann.get(f"/games/{game_id}/log")))["last_seq"]


async def test_the_slider_is_hidden_while_the_lobby_serves_no_past_positions(stack, browser, register):
    game_id, last = await started_game(register)
    watcher = await Person.open(browser, stack.http, "watcher")
    await watcher.open_table(game_id)
    await expect(watcher.page.locator("section.game")).to_be_visible()
    await watcher.wait_drawn(last)
    assert await watcher.page.locator("#review-slider").count() == 0


async def test_the_slider_shows_past_positions_once_the_lobby_declares_them(stack, browser, register, http):
    game_id, last = await started_game(register)
    document = (await http.get("/openapi.json")).json()
    document["paths"]["/games/{game_id}/view"]["get"].setdefault("parameters", []).append(
        {"name": "at", "in": "query", "required": False, "schema": {"type": "integer", "minimum": 1}})
    watcher = await Person.open(browser, stack.http, "watcher")
    await watcher.page.route("**/openapi.json", lambda route: route.fulfill(
        status=200, content_type="application/json", body=json.dumps(document)))
    asked: list[str] = []
    watcher.page.on("request", lambda r: asked.append(r.url) if "/view?" in r.url and "at=" in r.url else None)
    await watcher.open_table(game_id)
    await watcher.wait_drawn(last)
    slider = watcher.page.get_by_label(f"Position {last} of {last}")
    await expect(slider).to_be_visible()
    await slider.focus()
    await watcher.page.keyboard.press("ArrowLeft")            # keyboard: one position back
    await expect(watcher.page.locator("section.game")).to_have_attribute("data-reviewing", "true")
    assert any(f"at={last - 1}" in url for url in asked), asked
    await expect(watcher.page.get_by_label(f"Position {last - 1} of {last}")).to_be_visible()
    await watcher.page.get_by_role("button", name="Back to live").click()
    await expect(watcher.page.locator("section.game")).to_have_attribute("data-reviewing", "false")
    watcher.no_page_errors()
