"""Stellar Ventures on its own board in real browsers: two players in browsers and a third over the API
(the game takes 3 to 5) play the initial auction with the board's bid box and pass button, draft powers
from the powers panel, and build outposts by clicking hexes of the Alpha map."""
from __future__ import annotations

import pytest
from playwright.async_api import expect

from tests.support.stack import ApiPlayer
from tests.web.boards_play import act_and_wait, generic_choice, map_choice, seat_and_start, send_on_map, whose_turn
from tests.web.ui import PHONE, Person

pytestmark = [pytest.mark.integration, pytest.mark.timeout(400)]
GENERIC = ["BeginExpansion", "FinishBuilding", "DeclineIssue", "FinishOrdering", "PassInvestorAction", "PassVoting",
           "PassAlienAction", "DeclineAgreement"]
API_PLAYER = ["PassBid", "Bid", "DraftPower", "DeclineIssue", "BeginExpansion", "PlaceOutpost", "FinishBuilding",
              "FinishOrdering"]


async def api_move(cy: ApiPlayer, game_id: str) -> int | None:
    """cy's move over HTTP when cy has one: the seq it ended at, else None."""
    actions = await cy.ok(cy.get(f"/games/{game_id}/actions"))
    if not actions:
        return None
    command = next((a for wanted in API_PLAYER for a in actions if a["type"] == wanted), actions[0])
    reply = await cy.ok(cy.post(f"/games/{game_id}/commands", {"command": command}))
    return reply["events"][-1]["seq"]


async def browser_move(actor: Person, people: list[Person], done: dict[str, int]) -> dict:
    page = actor.page
    bid, pass_bid = page.locator("button[data-action=bid]"), page.locator("button[data-action=pass-bid]")
    if await bid.count():
        box = page.locator("#bid-amount")
        low, high = int(await box.get_attribute("min")), int(await box.get_attribute("max"))
        if actor.name == "ann" and done["bid"] == 0 and high > low:
            await box.fill(str(low + 1))                     # a bid typed in the box, between the legal ends
            command = await act_and_wait(actor, bid.click, people)
            assert command == {"type": "Bid", "amount": low + 1}
            done["bid"] += 1
            return command
        command = await act_and_wait(actor, (pass_bid if await pass_bid.count() else bid).click, people)
        done["pass" if command["type"] == "PassBid" else "bid"] += 1
        return command
    draft = page.locator("button[data-action=draft]")
    if await draft.count():
        power = await draft.first.locator("xpath=..").get_attribute("data-power")
        command = await act_and_wait(actor, draft.first.click, people)
        assert command == {"type": "DraftPower", "power": power}
        done["draft"] += 1
        return command
    if await page.locator("[data-target]").count():
        hex_, choice = await map_choice(actor, ["PlaceOutpost"])
        command = await act_and_wait(actor, lambda: send_on_map(actor, hex_, choice), people)
        done["map"] += 1
        done["outposts"] += command["type"] == "PlaceOutpost"     # (a map click may also be a wormhole, a home)
        return command
    choice = await generic_choice(actor, GENERIC)
    return await act_and_wait(actor, lambda: actor.send_command(choice), people)


async def test_two_browser_players_and_one_api_player_play_stellar_on_its_board(stack, http, browser, screenshots):
    ann = await Person.open(browser, stack.http, "ann")
    bob = await Person.open(browser, stack.http, "bob", viewport=PHONE)
    for person in (ann, bob):
        await person.sign_up()
    cy = await ApiPlayer.register(http, "cy")
    page = ann.page
    await page.get_by_role("link", name="New table", exact=True).click()
    await page.locator("#create-game").select_option("stellar")
    await page.locator("#create-seats").fill("3")
    await page.get_by_role("button", name="Open the table").click()
    await expect(page.locator("#table-title")).to_be_visible()
    table_id = page.url.split("#/tables/")[1].split("?")[0]
    await cy.ok(cy.post(f"/tables/{table_id}/join"))
    await cy.ok(cy.post(f"/tables/{table_id}/ready"))
    await seat_and_start(ann, [bob], table_id, "stellar")
    people = [ann, bob]
    await expect(page.locator("svg.stellar-map [data-hex]")).to_have_count(171 + 2)     # Mega-Earth: 3 hexes, 1 key

    done = {"bid": 0, "pass": 0, "draft": 0, "map": 0, "outposts": 0}
    shot = False
    for move in range(120):
        seq = await api_move(cy, table_id)
        if seq is None:
            actor = await whose_turn(people, max(await ann.seq(), await bob.seq()))
            assert actor is not None, "nobody may act"
            await browser_move(actor, people, done)
        else:
            for person in people:
                await person.wait_drawn(seq)
        if done["map"] >= 2 and not shot:
            await ann.screenshot(screenshots / "stellar-table.png")
            await page.locator(".stellar .map-panel").screenshot(path=str(screenshots / "stellar-map.png"))
            shot = True
        if done["outposts"] >= 4 and done["draft"] and done["bid"] and done["pass"]:
            break
    assert done["bid"] and done["pass"] and done["draft"] and done["outposts"] >= 4, done

    # The outposts the clicks placed are in the stream and on every page's map, in their corporation's colour.
    stored = await stack.store.read(f"game.{table_id}", 1)
    # (a power may dismantle an outpost again: the map shows what stands after the last event)
    placed = [e.data for e in stored if e.type == "OutpostPlaced"]
    assert len(placed) >= done["outposts"]
    standing: dict[tuple[str, str], int] = {}
    for e in stored:
        if e.type in ("OutpostPlaced", "OutpostRemoved") and e.data.get("hex"):
            spot = (e.data["hex"], e.data["corp"])
            standing[spot] = standing.get(spot, 0) + (1 if e.type == "OutpostPlaced" else -1)
    assert any(standing.values())
    for person in people:
        for (hex_, corp), count in standing.items():
            await expect(person.page.locator(f"[data-marks='{hex_}'] [data-outpost='{corp}']")).to_have_count(count)
        await expect(person.page.locator(".stellar [data-corp]")).to_have_count(6)
        person.no_page_errors()
    await bob.screenshot(screenshots / "stellar-table-phone.png")
    assert await bob.page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
