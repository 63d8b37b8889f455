"""2038 on its own board in real browsers: two players (the optional two-player rule) sit through the
table screen and play from the initial auction into the operating rounds by clicking: companies bought
from the action list, then ships flown by clicking hexes on the map, one step of the route helper's
suggestion followed, asteroid tiles explored and drawn as they are revealed."""
from __future__ import annotations

import pytest
from playwright.async_api import expect

from tests.support.stack import ApiPlayer
from tests.web.boards_play import act_and_wait, generic_choice, map_choice, seat_and_start, send_on_map, whose_turn
from tests.web.ui import PHONE, Person

pytestmark = [pytest.mark.integration, pytest.mark.timeout(400)]
GENERIC = ["BuyCompany", "DeclareEarnings", "FinishOperating", "Pass"]
ON_MAP = ["Explore", "StartRoute", "PickUp", "PlaceClaim", "Move", "EndRoute"]


async def test_two_players_play_2038_into_the_operating_rounds_on_its_board(stack, http, browser, screenshots):
    ann = await Person.open(browser, stack.http, "ann")
    bob = await Person.open(browser, stack.http, "bob", viewport=PHONE)
    for person in (ann, bob):
        await person.sign_up()
    # The two-player rule is a table option the form does not offer (2038 declares none yet): ann opens
    # the table through the API, with her own account.
    host = await ApiPlayer.login(http, "ann", ann.password)
    table = await host.ok(host.post("/tables", {"game": "t2038", "seats": 2, "options": {"two_player": True}}))
    await seat_and_start(ann, [bob], table["table_id"], "t2038")
    people = [ann, bob]
    await expect(ann.page.locator("svg.t2038-map [data-hex]")).to_have_count(118)

    sent: list[dict] = []
    shot = False
    seq = await ann.seq()
    while len(sent) < 80:
        actor = await whose_turn(people, seq)
        assert actor is not None, "neither page offers an action"
        follow = actor.page.locator("button[data-action=follow]")
        explored = sum(1 for c in sent if c["type"] == "Move" and c.get("explore"))
        if await follow.count() and explored and not any(c.get("followed") for c in sent):
            command = await act_and_wait(actor, follow.click, people)
            command["followed"] = True
        elif await actor.page.locator("[data-target]").count():
            hex_, choice = await map_choice(actor, ON_MAP)
            command = await act_and_wait(actor, lambda: send_on_map(actor, hex_, choice), people)
            assert command == choice
        else:
            choice = await generic_choice(actor, GENERIC)
            command = await act_and_wait(actor, lambda: actor.send_command(choice), people)
        sent.append(command)
        seq = max(await ann.seq(), await bob.seq())
        if not shot and await ann.page.locator(".t2038 .proposal.best polyline").count():
            await ann.wait_drawn(seq)         # a ship in flight, the helper's best route drawn: the pictures
            await ann.screenshot(screenshots / "t2038-table.png")
            await ann.page.locator(".t2038 .map-panel").screenshot(path=str(screenshots / "t2038-map.png"))
            shot = True
        done = {c["type"] for c in sent} | {"Explore" for c in sent if c["type"] == "Move" and c.get("explore")}
        if {"BuyCompany", "StartRoute", "Explore", "EndRoute"} <= done and any(c.get("followed") for c in sent):
            break
    types = [c["type"] for c in sent]
    assert {"BuyCompany", "StartRoute", "Move", "EndRoute"} <= set(types), types

    # What the clicks did is in the stream; every page draws the explored tiles as the engine placed them.
    stored = await stack.store.read(f"game.{table['table_id']}", 1)
    explored = {e.data["hex"]: e.data["tile"] for e in stored if e.type == "HexExplored"}
    assert explored and any(e.type == "RouteEnded" for e in stored)
    for person in people:
        for hex_, tile in explored.items():
            await expect(person.page.locator(f"svg.t2038-map [data-hex='{hex_}']")).to_have_attribute("data-tile", str(tile))
        assert await person.page.locator("svg.t2038-map .mine").count() >= len(explored)
        await expect(person.page.locator(".t2038 [data-corp]")).to_have_count(8)
        await expect(person.page.locator(".t2038 [data-independent]")).to_have_count(6)
        person.no_page_errors()
    assert shot, "no route proposal was ever drawn"
    await bob.screenshot(screenshots / "t2038-table-phone.png")
    assert await bob.page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
