"""The lobby screens and the generic game table in real browsers: sign up, log out and log in again with
the password, find tables with filters, a private table joined through its invite link, chat pushed on
the table socket, the decision clock, a few moves on the generic table (testjack has no board of its
own), and a finished game's standings, the leaderboard and a player's rating history."""
from __future__ import annotations

import re

import pytest
from playwright.async_api import expect

from tests.web.ui import PHONE, Person, table_id_from_url

pytestmark = [pytest.mark.integration, pytest.mark.timeout(300)]


async def open_table(person: Person, game: str, seats: int, *, private: bool = False, clock: int | None = None) -> str:
    page = person.page
    await page.get_by_role("link", name="New table", exact=True).click()
    await page.locator("#create-game").select_option(game)
    await page.get_by_label(re.compile("^Seats")).fill(str(seats))
    if private:
        await page.get_by_label(re.compile("^Private")).check()
    if clock is not None:
        await page.get_by_label(re.compile("^Seconds per decision")).fill(str(clock))
    await page.get_by_role("button", name="Open the table").click()
    await expect(page.locator("#table-title")).to_be_visible()
    return await table_id_from_url(page)


async def sit_and_ready(person: Person) -> None:
    await person.page.get_by_role("button", name="Sit here").first.click()
    await person.page.get_by_role("button", name="I am ready").click()
    await expect(person.page.get_by_role("button", name="Not ready yet")).to_be_visible()


async def test_lobby_screens_private_table_chat_clock_and_the_generic_table(stack, browser, screenshots):
    ann = await Person.open(browser, stack.http, "ann")
    bob = await Person.open(browser, stack.http, "bob", viewport=PHONE)
    cy = await Person.open(browser, stack.http, "cy")
    for person in (ann, bob, cy):
        await person.sign_up()

    # Log out, then back in with the password (a wrong one is refused in words).
    await ann.goto("/account")
    await ann.page.get_by_role("button", name="Log out", exact=True).click()
    await expect(ann.page.get_by_role("link", name="Sign in")).to_be_visible()
    await ann.log_in("not the password at all")
    await expect(ann.page.get_by_role("alert")).to_have_text("Wrong name or password.")
    await ann.log_in()

    # A public 21Moon table and a private testjack one with a clock.
    public = await open_table(ann, "moon21", 2)
    private = await open_table(ann, "testjack", 3, private=True, clock=3600)
    invite = await ann.page.locator("code", has_text="invite=").inner_text()
    assert private in invite

    # Filters: bob finds the public table by game, not by another game or status; the private one is unlisted.
    await bob.goto("/")
    tables = bob.page.locator("section[aria-labelledby=tables-title] li[data-table]")
    await bob.page.get_by_role("button", name="Refresh").click()
    await expect(tables).to_have_count(1)
    await expect(bob.page.locator(f"li[data-table='{public}']")).to_be_visible()
    await bob.page.locator("#filter-game").select_option("t2038")
    await expect(tables).to_have_count(0)
    await bob.page.locator("#filter-game").select_option("moon21")
    await expect(tables).to_have_count(1)
    await bob.page.get_by_label("Status").select_option("playing")
    await expect(tables).to_have_count(0)

    # The invite link seats bob and cy at the private table; chat reaches the others live.
    for person in (bob, cy):
        await person.page.goto(invite)
        await expect(person.page.locator("#table-title")).to_contain_text("testjack")
        await sit_and_ready(person)
    await bob.page.get_by_label("Message").fill("hello from bob")
    await bob.page.get_by_role("button", name="Send", exact=True).click()
    for person in (ann, cy):
        await expect(person.page.locator(".chat .messages")).to_contain_text("bob: hello from bob")

    await ann.page.get_by_role("button", name="I am ready").click()
    await ann.page.get_by_role("button", name="Start the game").click()
    for person in (ann, bob, cy):
        await expect(person.page.locator("section.game[data-game=testjack]")).to_be_visible()
        await expect(person.page.locator(".seat-clocks li")).to_have_count(3)      # every seat's clock
        await expect(person.page.locator(".seat-clocks li.running")).to_have_count(1)   # the one to act counts
        await expect(person.page.locator("details.panel[open] > dl.tree")).to_be_visible()   # the view, readably

    # A few moves on the generic table: whoever's page says it is their turn clicks an action.
    people = (ann, bob, cy)
    seq = max([await p.seq() for p in people])
    for person in people:
        await person.wait_drawn(seq)
    for move in range(6):
        turns = [p for p in people if await p.my_turn()]
        assert len(turns) == 1, [p.name for p in turns]
        actor = turns[0]
        others = [p for p in people if p is not actor]
        for other in others:            # testjack's `to_act` is no list: the table goes by who has actions
            await expect(other.page.locator(".turn")).to_have_text("Waiting")
            assert await other.action_commands() == []
        commands = await actor.action_commands()
        assert commands, f"{actor.name} has no action buttons"
        choice = {"type": "Think" if move % 2 == 0 else "Stand"}     # a no-op, then the turn passes
        assert choice in commands, commands
        # Once the game's socket is live, the page moves on it (no HTTP request per move).
        await expect(actor.page.locator("section.game")).to_have_attribute("data-status", "live")
        async with actor.moved() as answer:
            await actor.send_command(choice)
        reply = await answer()
        assert (reply.status, reply.over, reply.command) == (200, "socket", choice), reply.body
        seq = reply.body["events"][-1]["seq"]
        for person in people:
            await person.wait_drawn(seq)
            await expect(person.page.locator(f".log-lines li[data-seq='{seq}']")).to_have_count(1)
        if move == 0:
            await ann.screenshot(screenshots / "generic-table.png")
    await bob.screenshot(screenshots / "generic-table-phone.png")
    assert await bob.page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")   # phone: no sideways scroll
    for person in people:
        person.no_page_errors()


async def test_finished_game_standings_leaderboard_and_rating_history(stack, browser, screenshots):
    ann = await Person.open(browser, stack.http, "ann")
    bob = await Person.open(browser, stack.http, "bob")
    for person in (ann, bob):
        await person.sign_up()
    table = await open_table(ann, "testjack", 2)
    await bob.open_table(table)
    await sit_and_ready(bob)
    await ann.page.get_by_role("button", name="I am ready").click()
    await ann.page.get_by_role("button", name="Start the game").click()
    for person in (ann, bob):
        await expect(person.page.locator("section.game")).to_be_visible()

    while not await ann.page.locator(".standings").count():
        turns = [p for p in (ann, bob) if await p.my_turn()]
        actor = turns[0] if turns else None
        if actor is None:
            await ann.page.wait_for_timeout(50)
            continue
        async with actor.moved() as answer:
            await actor.send_command({"type": "Stand"})
        reply = await answer()
        assert reply.status == 200, (actor.name, reply)
        await expect(actor.page.locator(".actions [data-command]")).to_have_count(0)
    for person in (ann, bob):
        await expect(person.page.locator(".standings tbody tr")).to_have_count(2)
        await expect(person.page.locator(".turn")).to_have_text("The game is over")

    # Scoring rates the game: the leaderboard and each player's history show it.
    await ann.goto("/leaderboards/testjack")
    rows = ann.page.locator("table tbody tr")
    for _ in range(100):
        await ann.page.reload()
        if await rows.count() == 2:
            break
        await ann.page.wait_for_timeout(200)
    await expect(rows).to_have_count(2)
    await expect(ann.page.get_by_role("group", name="Which leaderboard")).to_contain_text("All games")
    await ann.page.get_by_role("link", name="bob").click()
    await expect(ann.page.locator("#player-title")).to_have_text("Player bob")
    await expect(ann.page.locator("figure.chart svg polyline")).to_be_visible()
    await expect(ann.page.locator("table tbody tr")).to_have_count(1)
    await ann.screenshot(screenshots / "player-history.png")
    ann.no_page_errors()
