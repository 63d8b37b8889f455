"""Trucker's real-time building played in browsers: two players (one at phone width) grab components
from the shared warehouse at the same time, turn them and place them on their ships by clicking, over
the Trucker service's socket with a lobby ticket, then finish; a visitor watches both ships grow. One of
ann's engines is placed turned aside, so her ship fails the inspection and is repaired from the action
list; then a few of the flight's decisions are answered: those that use pieces of the ship by picking
them on the drawn ship, the others from the action list. Every
wait is for a state the page shows (the lobby's view caught up with the service's last seq), never a
sleep."""
from __future__ import annotations

import asyncio

import pytest
from playwright.async_api import WebSocketRoute, expect

from trucker_rules import catalog

from tests.web.boards_play import act_and_wait, generic_choice, seat_and_start
from tests.web.ui import PHONE, Person

pytestmark = [pytest.mark.integration, pytest.mark.timeout(300)]
PLACED_EACH = 3
FLIGHT_ANSWERS = 3


async def caught_up(person: Person) -> None:
    """Until the page's view and legal actions are at least as new as all the Trucker service told it."""
    await person.page.wait_for_function(
        """() => { const rt = document.querySelector('section.realtime'), game = document.querySelector('section.game');
                   if (!rt || !game || rt.dataset.realtime !== 'live') return false;
                   const seq = Number(rt.dataset.realtimeSeq);
                   return seq > 0 && Number(game.dataset.seq) >= seq && Number(game.dataset.actionsSeq) >= seq; }""",
        timeout=30_000)


async def tiles_on_my_ship(person: Person) -> int:
    return int(await person.page.locator(".my-ship svg.ship-svg").get_attribute("data-ship-tiles"))


async def grab_and_place(person: Person, engine_turned_aside: bool = False) -> str:
    """Grab a face-down component, turn it until it fits somewhere, and place it on the first square
    offered; returns the component placed. One that fits nowhere is given back and another grabbed.
    `engine_turned_aside`: only an engine is kept, placed with its exhaust off the rear (every engine's
    is at the rear unturned): the rules let it be placed, and the inspection will flag the ship."""
    page = person.page
    hand = page.locator("section.hand")
    targets = page.locator(".my-ship [data-target]")

    async def fits() -> bool:
        turned = await hand.get_attribute("data-rotation") != "0"
        return bool(await targets.count()) and (turned or not engine_turned_aside)

    async def give_back() -> None:
        await page.get_by_role("button", name="Give it back face up").click()
        await expect(hand).to_have_attribute("data-hand", "", timeout=30_000)

    for _ in range(60 if engine_turned_aside else 6):
        await caught_up(person)
        before = await tiles_on_my_ship(person)
        await page.get_by_role("button", name="Grab a face-down component").click()
        await expect(hand).not_to_have_attribute("data-hand", "", timeout=30_000)
        await caught_up(person)
        component = await hand.get_attribute("data-hand")
        if engine_turned_aside and not catalog.component(component).is_engine:
            await give_back()
            continue
        for _turn in range(4):
            if await fits():
                break
            rotation = await hand.get_attribute("data-rotation")
            await page.get_by_role("button", name="↻ Turn right").click()
            await expect(hand).not_to_have_attribute("data-rotation", rotation)
        if not await fits():
            await give_back()
            continue
        await targets.first.press("Enter")            # the keyboard places as a click does
        await expect(page.locator(".my-ship svg.ship-svg")).to_have_attribute(
            "data-ship-tiles", str(before + 1), timeout=30_000)
        await expect(page.locator(f".my-ship [data-component='{component}']")).to_have_count(1)
        return component
    raise AssertionError(f"{person.name} found nothing that fits ({engine_turned_aside=})")


async def answer_on_the_ship(person: Person) -> None:
    """Pick pieces on the decision's ship, each up to as often as an answer uses it, until some answer
    uses exactly what is picked (none picked may already be one); then confirm the first such answer."""
    decision = person.page.locator("section.decision")
    answers = decision.locator("button[data-answer]")
    for target in await decision.locator("[data-pick]").all():
        if await answers.count():
            break
        for _ in range(int(await target.get_attribute("data-most"))):
            picked = await target.get_attribute("data-picked")
            await target.click()
            await expect(target).not_to_have_attribute("data-picked", picked)
            if await answers.count():
                break
    await answers.first.click()


async def build(person: Person, count: int) -> list[str]:
    return [await grab_and_place(person) for _ in range(count)]


async def cut_trucker_socket(person: Person, trucker_base: str) -> list[WebSocketRoute]:
    """Route the page's Trucker socket through the test (reloading the page), so the test can cut it."""
    routes: list[WebSocketRoute] = []

    def route(socket: WebSocketRoute) -> None:
        routes.append(socket)
        socket.connect_to_server()

    await person.page.route_web_socket(lambda url: url.startswith(trucker_base), route)
    await person.page.reload()
    await expect(person.page.locator("section.realtime[data-realtime=live]")).to_be_visible()
    return routes


async def order_shown_while_round_one_lasts(person, player_id: str, tile: str, seconds: float = 15.0) -> None:
    """The players table shows the order tile a player took, for as long as round 1's flight lasts (a
    new round's building clears it: then there is nothing left to see)."""
    board = person.page.locator("[data-board=trucker]")
    cell = person.page.locator(f".trucker tr[data-player='{player_id}'] td").nth(2)
    deadline = asyncio.get_running_loop().time() + seconds
    while await board.get_attribute("data-round") == "1":
        if (await cell.inner_text()).strip() == tile:
            return
        assert asyncio.get_running_loop().time() < deadline, f"order tile {tile} not shown for {player_id}"
        await asyncio.sleep(0.1)


async def test_two_players_build_their_ships_at_once_while_a_visitor_watches(stack, trucker, browser, screenshots):
    ann = await Person.open(browser, stack.http, "ann")
    bob = await Person.open(browser, stack.http, "bob", viewport=PHONE)
    cy = await Person.open(browser, stack.http, "cy")
    for person in (ann, bob, cy):
        await person.sign_up()
    table_id = await ann.new_table("trucker", 2)
    await seat_and_start(ann, [bob], table_id, "trucker")
    await cy.open_table(table_id)
    people = [ann, bob, cy]
    for person, you in ((ann, ann.player_id), (bob, bob.player_id), (cy, "")):
        await expect(person.page.locator(f"section.realtime[data-realtime=live][data-you='{you}']")).to_be_visible()
        await expect(person.page.locator("[data-board=trucker][data-phase=building]")).to_be_visible()
    for person in (ann, bob):
        await expect(person.page.get_by_role("button", name="Grab a face-down component")).to_be_enabled(timeout=30_000)
    await expect(cy.page.locator(".my-ship")).to_have_count(0)        # a visitor has no ship and no controls
    await expect(cy.page.get_by_role("button", name="Grab a face-down component")).to_be_disabled()

    routes = await cut_trucker_socket(bob, trucker)
    first = await asyncio.gather(build(ann, 1), build(bob, 1))       # both at the same time
    # Bob's connection to the Trucker service drops: his page reconnects with a fresh ticket and goes on.
    async with bob.page.expect_websocket(lambda ws: ws.url.startswith(trucker), timeout=30_000):
        await routes[-1].close(code=1011, reason="test cuts the Trucker socket")
    await expect(bob.page.locator("section.realtime[data-realtime=live]")).to_be_visible()
    rest = await asyncio.gather(build(ann, PLACED_EACH - 1), build(bob, PLACED_EACH - 1))
    built = {"ann": first[0] + rest[0], "bob": first[1] + rest[1]}
    assert all(len(set(components)) == PLACED_EACH for components in built.values()), built
    for watcher, builder in ((cy, ann), (cy, bob), (ann, bob), (bob, ann)):
        ship = watcher.page.locator(f".other-ship[data-player='{builder.player_id}']")
        await expect(ship.locator("svg.ship-svg")).to_have_attribute("data-ship-tiles", str(PLACED_EACH + 1))
        for component in built[builder.name]:
            await expect(ship.locator(f"[data-component='{component}']")).to_have_count(1)
    await caught_up(ann)
    await ann.screenshot(screenshots / "trucker-building.png")
    await bob.screenshot(screenshots / "trucker-building-phone.png")
    assert await bob.page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

    # ann's ship will fail the inspection: after building, round 1 waits for her repair, so the game
    # goes on through the lobby whatever the cards (they may ask nothing of ships this small).
    await grab_and_place(ann, engine_turned_aside=True)
    for person, tile in ((ann, 1), (bob, 2)):
        await caught_up(person)
        await person.page.get_by_role("button", name=f"Finish: take order tile {tile}").click()
    for person in people:
        # Past round 1's building, held in its inspection by ann's flaws (without them the flight could
        # run to round 2's building at once when its cards ask nothing of ships this small).
        await expect(person.page.locator("[data-board=trucker][data-phase=repair][data-round='1']")) \
            .to_be_visible(timeout=90_000)
        await expect(person.page.locator(".log-lines li", has_text="finished building")).to_have_count(2)
    for player, tile in ((ann, 1), (bob, 2)):
        await expect(cy.page.locator(".log-lines li", has_text=f"finished building (order tile {tile})")) \
            .to_have_count(1)
        await order_shown_while_round_one_lasts(cy, player.player_id, str(tile))
    await cy.screenshot(screenshots / "trucker-after-building.png")

    # After building the game goes on through the lobby: the flight's decisions that use pieces of the ship
    # are answered on the drawn ship, repairs and the rest from the action list; every page draws each answer.
    sent: list[dict] = []
    while len(sent) < FLIGHT_ANSWERS:
        seq = max([await person.seq() for person in people])
        for person in people:
            await person.wait_drawn(seq)
        acting = [p for p in (ann, bob)
                  if await p.action_commands() or await p.page.locator("section.decision").count()]
        if not acting:
            break
        person = acting[0]
        if await person.page.locator("section.decision").count():
            sent.append(await act_and_wait(person, lambda: answer_on_the_ship(person), people))
        else:
            others = [c for c in await person.action_commands() if c["type"] != "GiveUp"]
            choice = others[0] if others else await generic_choice(person, [])
            sent.append(await act_and_wait(person, lambda: person.send_command(choice), people))
    # ann's repair first (the one thing owed after this building, whatever the cards), then the flight's.
    assert sent and sent[0]["type"] == "RepairShip", sent
    await expect(cy.page.locator(".log-lines li", has_text="Ship repaired")).not_to_have_count(0)
    board = cy.page.locator("[data-board=trucker]")
    if await board.get_attribute("data-phase") != "building":
        await expect(cy.page.locator(".trucker section.flight")).to_be_visible()
    for person in people:
        person.no_page_errors()
