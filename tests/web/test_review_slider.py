"""The review slider: the page shows it when the lobby's OpenAPI document declares
`GET /games/{game_id}/view?at=SEQ` (it does since the player's loop landed), and stepping back asks the
lobby for past positions."""
from __future__ import annotations

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


async def test_the_lobby_declares_past_positions_so_the_page_offers_the_slider(http):
    document = (await http.get("/openapi.json")).json()
    names = {p["name"] for p in document["paths"]["/games/{game_id}/view"]["get"].get("parameters", [])}
    assert "at" in names


async def test_the_slider_steps_back_through_past_positions_and_returns_to_live(stack, browser, register):
    game_id, last = await started_game(register)
    watcher = await Person.open(browser, stack.http, "watcher")
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
