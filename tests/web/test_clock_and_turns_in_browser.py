"""The clock, "your turn" and quick play in real browsers: a timed testjack table shows every seat's
clock on both players' pages, the seat that owes a decision counting down until it is marked low; the
header's badge says whose turn it is (GET /players/me/tables?to_act=true) and moves to the other player
once the first stands (their game socket's `your_turn` push); two players asking for quick play land at
the same table, which starts by itself. Every wait is for what a page shows, never a sleep."""
from __future__ import annotations

import re

import pytest
from playwright.async_api import expect

from tests.web.ui import Person, table_id_from_url

pytestmark = [pytest.mark.integration, pytest.mark.timeout(240)]
SECONDS_PER_DECISION = 30         # low time is its last fifth (6 s): marked ~24 s after the start


async def open_timed_table(host: Person, guest: Person) -> str:
    page = host.page
    await page.get_by_role("link", name="New table", exact=True).click()
    await page.locator("#create-game").select_option("testjack")
    await page.get_by_label(re.compile("^Seats")).fill("2")
    await page.get_by_label(re.compile("^Seconds per decision")).fill(str(SECONDS_PER_DECISION))
    await page.get_by_role("button", name="Open the table").click()
    await expect(page.locator("#table-title")).to_be_visible()
    table_id = await table_id_from_url(page)
    await guest.open_table(table_id)
    await guest.page.get_by_role("button", name="Sit here").first.click()
    await guest.page.get_by_role("button", name="I am ready").click()
    await expect(guest.page.get_by_role("button", name="Not ready yet")).to_be_visible()
    await page.get_by_role("button", name="I am ready").click()
    await page.get_by_role("button", name="Start the game").click()
    for person in (host, guest):
        await expect(person.page.locator("section.game")).to_be_visible(timeout=30_000)
    return table_id


def clock_of(person: Person, player: Person):
    return person.page.locator(f".seat-clocks li[data-player='{player.player_id}']")


async def test_every_seat_s_clock_the_turn_badge_and_quick_play(stack, browser, screenshots):
    ann = await Person.open(browser, stack.http, "ann")
    bob = await Person.open(browser, stack.http, "bob")
    for person in (ann, bob):
        await person.sign_up()
    await open_timed_table(ann, bob)

    # Both pages show both seats' clocks; ann (seat 1) owes the first decision: hers runs, bob's waits.
    for person in (ann, bob):
        await expect(person.page.locator(".seat-clocks li")).to_have_count(2, timeout=30_000)
        await expect(clock_of(person, ann)).to_have_attribute("data-running", "true", timeout=30_000)
        await expect(clock_of(person, bob)).to_have_attribute("data-running", "false")
        await expect(clock_of(person, bob).locator(".time")).to_have_text(f"0:{SECONDS_PER_DECISION}")
    first = int(await clock_of(bob, ann).get_attribute("data-left"))
    assert 0 < first <= SECONDS_PER_DECISION
    await bob.page.wait_for_function(      # counting down on the page, without any new event
        """([player, first]) => Number(document.querySelector(`.seat-clocks li[data-player='${player}']`)
                                       ?.dataset.left ?? first) < first""", arg=[ann.player_id, first], timeout=30_000)
    await expect(ann.page.locator(".clock[role=timer]")).to_contain_text("Time left for this decision")
    for person in (ann, bob):               # the last fifth: low time, on every page
        await expect(clock_of(person, ann)).to_have_attribute("data-low", "true", timeout=60_000)
        await expect(clock_of(person, ann)).to_have_class(re.compile(r"\blow\b"))
    await expect(ann.page.locator(".clock[role=timer]")).to_have_class(re.compile(r"\burgent\b"))
    await ann.screenshot(screenshots / "clocks-low.png")

    # The header's badge: ann's turn in one game; none for bob. Ann stands: the badge moves to bob.
    await expect(ann.page.locator("header .turn-badge")).to_have_text("your turn in 1", timeout=30_000)
    await expect(bob.page.locator("header .turn-badge")).to_have_count(0)
    await ann.send_command({"type": "Stand"})
    await expect(bob.page.locator("header .turn-badge")).to_have_text("your turn in 1", timeout=30_000)
    await expect(ann.page.locator("header .turn-badge")).to_have_count(0, timeout=30_000)
    for person in (ann, bob):
        await expect(clock_of(person, bob)).to_have_attribute("data-running", "true", timeout=30_000)
        await expect(clock_of(person, ann)).to_have_attribute("data-running", "false")

    # Quick play: both ask for a two-player testjack game; the lobby seats them at one table, which starts.
    tables = []
    for person in (ann, bob):
        await person.goto("/")
        panel = person.page.locator("section[aria-labelledby=quick-play-title]")
        await panel.get_by_label("Game").select_option("testjack")
        await panel.get_by_label("Players").fill("2")
        await panel.get_by_role("button", name="Find me a game").click()
        await expect(person.page.locator("#table-title")).to_be_visible()
        tables.append(await table_id_from_url(person.page))
    assert tables[0] == tables[1], tables
    for person in (ann, bob):
        await expect(person.page.locator("section.game")).to_be_visible(timeout=60_000)
        person.no_page_errors()


async def test_the_clock_is_paused_by_agreement_and_started_again_on_the_pages(stack, register, browser):
    from tests.support.stack import seat_and_start

    api_ann, api_bob = await register("ann"), await register("bob")
    game_id = await seat_and_start([api_ann, api_bob], "testjack", {"decision_seconds": 600})
    ann, bob = await Person.open(browser, stack.http, "ann"), await Person.open(browser, stack.http, "bob")
    for person in (ann, bob):
        await person.log_in()
        await person.open_table(game_id)
        await expect(person.page.locator(".seat-clocks li")).to_have_count(2)
        await expect(person.page.locator("section.game")).to_have_attribute("data-status", "live")
    paused = ".clocks[data-paused='true']"

    # Asked and refused: nothing stops; asked again and agreed: both pages say the clock is paused.
    await ann.page.get_by_role("button", name="Ask to pause the clock").click()
    await expect(ann.page.get_by_text("Waiting for the other players to agree to pause the clock.")).to_be_visible()
    await expect(bob.page.get_by_text("ann asks to pause the clock.")).to_be_visible()
    await bob.page.get_by_role("button", name="Keep the clock running").click()
    await expect(ann.page.get_by_role("button", name="Ask to pause the clock")).to_be_visible()
    await expect(ann.page.locator(paused)).to_have_count(0)
    await ann.page.get_by_role("button", name="Ask to pause the clock").click()
    await bob.page.get_by_role("button", name="Agree to pause").click()
    for person in (ann, bob):
        await expect(person.page.locator(paused)).to_have_count(1)
        await expect(person.page.locator(".clock.paused[role=status]")).to_have_text("The clock is paused")
    types = [e["type"] for e in (await api_ann.ok(api_ann.get(f"/games/{game_id}/log")))["events"]]
    assert types[-5:] == ["PauseRequested", "PauseRefused", "PauseRequested", "PauseAgreed", "ClockPaused"]

    # Either person starts it again.
    await bob.page.get_by_role("button", name="Start the clock again").click()
    for person in (ann, bob):
        await expect(person.page.locator(paused)).to_have_count(0)
        await expect(person.page.get_by_role("button", name="Ask to pause the clock")).to_be_visible()
    for person in (ann, bob):
        person.no_page_errors()
