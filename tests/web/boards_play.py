"""Helpers of the board tests: people seated at a table through the lobby screens, and one move clicked
on a page, waited for until every page has drawn it."""
from __future__ import annotations

import json
from typing import Awaitable, Callable

from playwright.async_api import expect

from tests.web.ui import Person


async def seat_and_start(host: Person, guests: list[Person], table_id: str, board: str) -> None:
    """`host` opened `table_id` (and sits there); the guests sit through the table screen; all ready; it starts."""
    await host.open_table(table_id)
    for guest in guests:
        await guest.open_table(table_id)
        await guest.page.get_by_role("button", name="Sit here").first.click()
        await guest.page.get_by_role("button", name="I am ready").click()
        await expect(guest.page.get_by_role("button", name="Not ready yet")).to_be_visible()
    await host.page.get_by_role("button", name="I am ready").click()
    await host.page.get_by_role("button", name="Start the game").click()
    for person in (host, *guests):
        await expect(person.page.locator(f"[data-board={board}]")).to_be_visible()


async def whose_turn(people: list[Person], seq: int) -> Person | None:
    """The one page that offers actions once every page has drawn `seq` (None: nobody in a browser)."""
    for person in people:
        await person.wait_drawn(seq)
    acting = [p for p in people if await p.page.locator("button[data-map-command], [data-target], .actions button, "
                                                         "button[data-action]").count()]
    assert len(acting) <= 1, [p.name for p in acting]
    return acting[0] if acting else None


async def act_and_wait(person: Person, act: Callable[[], Awaitable[None]], people: list[Person]) -> dict:
    """Do `act` (a click) on `person`'s page, take the lobby's answer to the command it sent, and wait
    for every page to draw the events it made. Returns the command sent (as the lobby received it)."""
    async with person.moved() as answer:
        await act()
    reply = await answer()
    assert reply.status == 200, reply.body
    sent = reply.command
    seq = reply.body["events"][-1]["seq"]
    for other in people:
        await other.wait_drawn(seq)
        await expect(other.page.locator(f".log-lines li[data-seq='{seq}']")).to_have_count(1)
    return sent


async def generic_choice(person: Person, preferred: list[str]) -> dict:
    """The first preferred command type the generic action list offers (else its first command)."""
    commands = await person.action_commands()
    assert commands, f"{person.name} has no actions"
    return next((c for wanted in preferred for c in commands if c["type"] == wanted), commands[0])


async def map_choice(person: Person, preferred: list[str]) -> tuple[str, dict]:
    """A highlighted hex and the map command to send there: the first preferred kind (a Move that
    explores counts as "Explore") found on any highlighted hex, else the first hex's first command."""
    page = person.page
    hexes = await page.locator("[data-target]").evaluate_all("els => els.map(e => e.dataset.target)")
    offers: list[tuple[str, dict]] = []
    for hex_ in dict.fromkeys(hexes):
        await page.locator(f"[data-target='{hex_}']").first.click()
        raw = await page.locator("button[data-map-command]").evaluate_all("els => els.map(e => e.dataset.mapCommand)")
        offers += [(hex_, json.loads(r)) for r in raw]
    kind = lambda c: "Explore" if c["type"] == "Move" and c.get("explore") else c["type"]   # noqa: E731
    return next(((h, c) for wanted in preferred for h, c in offers if kind(c) == wanted), offers[0])


async def send_on_map(person: Person, hex_: str, command: dict) -> None:
    """Pick `hex_` on the map, then the button of `command` among what may be done there."""
    page = person.page
    await page.locator(f"[data-target='{hex_}']").first.click()
    await page.locator(f"button[data-map-command='{json.dumps(command, separators=(',', ':'))}']").click()
