"""Trucker's flight decisions are chosen on the drawn ship: ann's ship is built over the Trucker socket
with a cabin joined to life support (so at launch she must say which alien, if any, the cabin takes);
in her browser the cabin is highlighted on her ship, she picks it with the keyboard, confirms a colour
among the answers that use it, and her ship launches with that alien (every page logs it).
Every wait is for a state a page shows or the stream holds, never a sleep."""
from __future__ import annotations

import json

import httpx
import pytest
from playwright.async_api import expect

from starbase_core.gamestream import game_stream
from tests.support.stack import ApiPlayer, seat_and_start
from tests.trucker_service.live import Client
from tests.web.trucker_build import hosts_an_alien, kind_is, life_support_with_room, place_one
from tests.web.ui import Person

pytestmark = [pytest.mark.integration, pytest.mark.timeout(300)]


async def trucker_socket(url: str, player: ApiPlayer) -> Client:
    import websockets
    from starbase_core import tickets
    socket = await websockets.connect(url, subprotocols=tickets.subprotocols(await player.ticket()), max_size=2**22)
    return Client(socket, json.loads(await socket.recv()))


async def test_an_alien_is_put_in_a_cabin_by_picking_it_on_the_ship(stack, trucker, browser, screenshots):
    ann = await Person.open(browser, stack.http, "ann")
    cy = await Person.open(browser, stack.http, "cy")
    for person in (ann, cy):
        await person.sign_up()
    async with httpx.AsyncClient(base_url=stack.http, timeout=60) as http:
        ann_api, bob_api = await ApiPlayer.login(http, "ann"), await ApiPlayer.register(http, "bob")
        game_id = await seat_and_start([ann_api, bob_api], "trucker")
        table = await ann_api.ok(ann_api.get(f"/tables/{game_id}"))
        builder, bob = await trucker_socket(table["realtime_url"], ann_api), await trucker_socket(table["realtime_url"], bob_api)
        face_up: set[str] = set()
        # Life support first (beside the starting cabin), then a cabin joined to it: an alien may live there.
        await place_one(builder, stack.store, game_id, ann_api.player_id,
                        kind_is("life_support_purple", "life_support_brown"), life_support_with_room, face_up)
        cabin = await place_one(builder, stack.store, game_id, ann_api.player_id, kind_is("cabin"), hosts_an_alien, face_up)
        for client, tile in ((builder, 1), (bob, 2)):
            assert (await client.send("finish", order_tile=tile))["kind"] == "ack"
        await builder.close(), await bob.close()

    await ann.open_table(game_id)
    await cy.open_table(game_id)
    decision = ann.page.locator("section.decision[data-decision=ChooseAliens]")
    await expect(decision).to_be_visible(timeout=60_000)
    await expect(cy.page.locator("section.decision")).to_have_count(0)            # a visitor decides nothing
    square = await decision.locator(f"[data-pick]").first.get_attribute("data-pick")
    assert await decision.locator(f"svg [data-square='{square}']").get_attribute("data-component") == cabin
    await expect(decision.locator("button[data-answer]")).to_have_text(["No alien"])   # nothing picked yet
    await decision.locator(f"[data-pick='{square}']").press("Enter")               # the keyboard picks as a click does
    await expect(decision.locator(f"[data-pick='{square}']")).to_have_attribute("data-picked", "1")
    answers = decision.locator("button[data-answer]")
    await expect(answers.first).to_contain_text(f"alien in the cabin at column {square.split(',')[0]}")
    await ann.screenshot(screenshots / "trucker-flight-decision.png")
    chosen = json.loads(await answers.first.get_attribute("data-answer"))
    assert chosen["type"] == "ChooseAliens" and [list(map(str, chosen["aliens"][0][0]))] == [square.split(",")]
    async with ann.moved() as reply:
        await answers.first.click()
    assert (await reply()).status == 200
    events = await stack.store.read(game_stream(game_id))
    taken = next(e for e in events if e.type == "DecisionTaken" and e.data["key"] == f"aliens/{ann.player_id}")
    assert taken.data["value"] == [[chosen["aliens"][0][0], chosen["aliens"][0][1]]]
    launched = next(e for e in events if e.type == "ShipLaunched" and e.data["player"] == ann.player_id)
    assert launched.data["aliens"] == [[chosen["aliens"][0][0], chosen["aliens"][0][1]]]   # the alien flies
    for person in (ann, cy):             # every page logs the answer and the launch (the flight may go on)
        for seq in (taken.seq, launched.seq):
            await expect(person.page.locator(f".log-lines li[data-seq='{seq}']")).to_have_count(1, timeout=30_000)
    await expect(decision).to_have_count(0)
    for person in (ann, cy):
        person.no_page_errors()
