"""Giving a seat up and taking one over, in the browser: a player resigns from the game's page (asked
twice: a change of mind changes nothing), the page then only watches; a person who is not in the game
sees the given-up seat offered, takes it over and plays it, and everyone's table names the substitute."""
from __future__ import annotations

import pytest
from playwright.async_api import expect

from tests.support.stack import seat_and_start
from tests.web.ui import Person

pytestmark = [pytest.mark.integration, pytest.mark.timeout(240)]


async def test_a_player_resigns_on_the_page_and_a_newcomer_takes_the_seat_over(stack, register, browser, screenshots):
    ann, bob, dee = [await register(name) for name in ("ann", "bob", "dee")]
    game_id = await seat_and_start([ann, bob, dee], "testjack")     # testjack: seat 0 (ann) acts first
    page = await Person.open(browser, stack.http, "ann")
    await page.log_in()
    await page.open_table(game_id)
    await expect(page.page.locator(".turn[data-my-turn='true']")).to_be_visible()
    assert {"type": "Stand"} in await page.action_commands()

    # Asked twice; "Keep playing" leaves the seat hers.
    await page.page.get_by_role("button", name="Resign", exact=True).click()
    await expect(page.page.get_by_role("group", name="Resign")).to_contain_text("A bot plays it from now on")
    await page.page.get_by_role("button", name="Keep playing").click()
    await expect(page.page.get_by_role("button", name="Resign", exact=True)).to_be_visible()
    table = await ann.ok(ann.get(f"/tables/{game_id}"))
    assert table["seats"][0]["abandoned"] is False

    await page.page.get_by_role("button", name="Resign", exact=True).click()
    await page.page.get_by_role("button", name="Yes, resign").click()
    await expect(page.page.locator("li[data-seat='0']")).to_contain_text("given up: a bot plays it")
    await expect(page.page.get_by_text("You are watching this game.")).to_be_visible()
    await expect(page.page.get_by_role("button", name="Resign", exact=True)).to_have_count(0)
    await expect(page.page.locator(".actions")).to_have_count(0)
    await expect(page.page.get_by_role("button", name="Take this seat over")).to_have_count(0)   # not hers to take back
    table = await ann.ok(ann.get(f"/tables/{game_id}"))
    assert table["seats"][0]["abandoned"] is True and table["seats"][0]["bot"] == "normal"
    refusal = await ann.post(f"/games/{game_id}/commands", {"command": {"type": "Stand"}})
    assert (refusal.status_code, refusal.json()["error"]["code"]) == (422, "NOT_IN_CONTROL")

    # Bob, still playing, is offered no seat; cy, a newcomer, takes ann's over.
    watcher = await Person.open(browser, stack.http, "bob")
    await watcher.log_in()
    await watcher.open_table(game_id)
    await expect(watcher.page.locator("li[data-seat='0']")).to_contain_text("given up: a bot plays it")
    await expect(watcher.page.get_by_role("button", name="Take this seat over")).to_have_count(0)
    cy = await Person.open(browser, stack.http, "cy")
    await cy.sign_up()
    await cy.open_table(game_id)
    await cy.page.get_by_role("button", name="Take this seat over").click()
    await expect(cy.page.locator("li[data-seat='0']")).to_contain_text("played by cy")
    await expect(cy.page.get_by_role("button", name="Watch this game")).to_have_count(0)     # she plays
    await expect(cy.page.locator(".turn[data-my-turn='true']")).to_be_visible()
    await expect(cy.page.locator("section.game")).to_have_attribute("data-status", "live")
    async with cy.moved() as answer:
        await cy.send_command({"type": "Stand"})
    reply = await answer()
    assert reply.status == 200, reply.body
    stood = reply.body["events"][-1]
    assert (stood["type"], stood["data"]["player"], stood["actor"]) == ("Stood", ann.player_id, ann.player_id)
    await expect(cy.page.locator(".log-lines")).to_contain_text("Seat taken (player: ann, by: cy)")   # names, not ids
    await cy.screenshot(screenshots / "seat-taken-over.png")

    # Everyone's table names the substitute; the turn has passed to bob.
    for person in (page, watcher):
        await person.page.reload()
        await expect(person.page.locator("li[data-seat='0']")).to_contain_text("played by cy")
    await expect(watcher.page.locator(".turn[data-my-turn='true']")).to_be_visible()
    for person in (page, watcher, cy):
        person.no_page_errors()


async def test_a_move_is_taken_back_at_once_unrated_and_by_agreement_rated(stack, register, browser):
    ann, bob = await register("ann"), await register("bob")
    unrated = await seat_and_start([ann, bob], "testjack", {"rated": False})
    page = await Person.open(browser, stack.http, "ann")
    await page.log_in()
    await page.open_table(unrated)
    take_back = page.page.get_by_role("button", name="Take back my last move")
    await expect(page.page.locator(".turn[data-my-turn='true']")).to_be_visible()
    await expect(take_back).to_have_count(0)                    # nothing of hers to take back yet
    await expect(page.page.locator("section.game")).to_have_attribute("data-status", "live")
    async with page.moved() as answer:
        await page.send_command({"type": "Stand"})
    assert (await answer()).status == 200
    await expect(page.page.locator(".turn[data-my-turn='true']")).to_have_count(0)   # bob's turn
    await take_back.click()
    await expect(page.page.locator(".turn[data-my-turn='true']")).to_be_visible()    # hers again
    await expect(take_back).to_have_count(0)
    log = await ann.ok(ann.get(f"/games/{unrated}/log"))
    assert [e["type"] for e in log["events"]][-2:] == ["Stood", "CommandsUndone"]

    # Rated: bob is asked, and the move comes back only once he agrees.
    dee = await register("dee")
    rated = await seat_and_start([ann, bob, dee], "testjack")
    await page.open_table(rated)
    other = await Person.open(browser, stack.http, "bob")
    await other.log_in()
    await other.open_table(rated)
    await expect(page.page.locator("section.game")).to_have_attribute("data-status", "live")
    async with page.moved() as answer:
        await page.send_command({"type": "Stand"})
    assert (await answer()).status == 200
    await page.page.get_by_role("button", name="Take back my last move").click()
    await expect(page.page.get_by_text("Waiting for the other players to agree")).to_be_visible()
    await expect(other.page.get_by_text("ann asks to take back their last move.")).to_be_visible()
    await other.page.get_by_role("button", name="Agree").click()
    await expect(other.page.get_by_role("button", name="Agree")).to_have_count(0)     # answered; dee not yet
    await expect(page.page.locator(".turn[data-my-turn='true']")).to_have_count(0)
    await dee.ok(dee.post(f"/games/{rated}/undo/agree"))
    await expect(page.page.locator(".turn[data-my-turn='true']")).to_be_visible()
    await expect(page.page.get_by_text("Waiting for the other players to agree")).to_have_count(0)
    for person in (page, other):
        person.no_page_errors()
