"""Two people play 21Moon in their browsers while a third watches: the table is opened, joined and
started through the lobby screens, then every move is a click (a generic action button, a hex and a
tile on the map, or the suggested runs). Shared by the browser test and `benchmarks/bench_web.py`.

The players follow a simple plan that reaches a real run quickly: buy privates, start a corporation
at par 90 and buy it to floating, then in operating rounds lay a tile, run, buy transports, pass.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from playwright.async_api import Browser, WebSocketRoute, expect

from tests.web.ui import DESKTOP, PHONE, Person, table_id_from_url


@dataclass
class Played:
    game_id: str
    moves: list[str] = field(default_factory=list)          # what each click was
    seqs_after_move: list[int] = field(default_factory=list)
    spectator_sockets: list[str] = field(default_factory=list)   # URLs the spectator's page opened
    cut_at_seq: int | None = None                                # the spectator's socket was cut here
    people: list[Person] = field(default_factory=list)


class Planner:
    """Which control to use next, read from the page only (as a person would)."""

    def __init__(self):
        self.started: dict[str, str] = {}
        self.bought: dict[str, int] = {}
        self.laid: set[str] = set()

    async def move(self, person: Person) -> tuple[str, int]:
        """Make the next move on the page; (what it was, the last seq it appended)."""
        async with person.moved() as answer:
            what = await self._click(person)
        reply = await answer()
        if reply.status != 200:
            raise AssertionError(f"{person.name}'s {what} was refused: {reply.body}")
        return what, reply.body["events"][-1]["seq"]

    async def _click(self, person: Person) -> str:
        page = person.page
        run = page.locator("[data-action=run]")
        lines = await page.locator(".runs li").count()
        if await run.count() and lines:
            await run.click()
            return "run"
        turn = await self._turn_key(person)
        targets = page.locator("[data-target]")
        if await targets.count() and turn not in self.laid:
            self.laid.add(turn)
            await targets.first.click()
            await page.locator(".tile-option input").first.check()
            await page.locator("[data-action=confirm-lay]").click()
            return "lay"
        commands = await person.action_commands()
        by_type = {}
        for command in commands:
            by_type.setdefault(command["type"], []).append(command)
        me = person.player_id
        choice = None
        if "BuyPrivate" in by_type:
            choice = by_type["BuyPrivate"][0]
        elif "PlaceOldLandingSite" in by_type:
            choice = by_type["PlaceOldLandingSite"][0]
        elif me not in self.started and any(c["par"] == 90 for c in by_type.get("StartCorporation", [])):
            choice = next(c for c in by_type["StartCorporation"] if c["par"] == 90)
            self.started[me] = choice["corp"]
        elif me in self.started and self.bought.get(me, 0) < 3 and any(
                c["corp"] == self.started[me] and c["source"] == "ipo" for c in by_type.get("BuyShare", [])):
            choice = next(c for c in by_type["BuyShare"] if c["corp"] == self.started[me] and c["source"] == "ipo")
            self.bought[me] = self.bought.get(me, 0) + 1
        elif any(not c.get("from_corp") for c in by_type.get("BuyTransport", [])):
            choice = next(c for c in by_type["BuyTransport"] if not c.get("from_corp"))
        elif await run.count():
            await run.click()
            return "run (nothing to run)"
        elif "Pass" in by_type:
            choice = by_type["Pass"][0]
        elif quiet := [c for c in commands if c["type"] not in ("AcquirePrivate", "SellShares", "DeclareBankruptcy")]:
            choice = quiet[0]
        elif commands:
            choice = commands[0]
        if choice is None:
            raise AssertionError(f"{person.name} is to act but the page offers nothing")
        await person.send_command(choice)
        return choice["type"]

    @staticmethod
    async def _turn_key(person: Person) -> str:
        """One key per corporation's operating turn: the round shown on the map and the operating corp."""
        title = await person.page.locator(".map-panel h3").inner_text()
        corp = await person.page.locator("tr.operating").get_attribute("data-corp") if await person.page.locator(
            "tr.operating").count() else ""
        return f"{title}/{corp}"


async def last_seq(http: httpx.AsyncClient, game_id: str) -> int:
    after = 0
    while True:
        reply = await http.get(f"/games/{game_id}/log", params={"after": after, "limit": 1000})
        reply.raise_for_status()
        page = reply.json()
        if not page["events"]:
            return after
        after = page["last_seq"]


async def open_and_start(browser: Browser, base: str, screenshots: Path | None) -> tuple[list[Person], Person, str]:
    ann = await Person.open(browser, base, "ann")
    bob = await Person.open(browser, base, "bob", viewport=PHONE)
    cy = await Person.open(browser, base, "cy")
    for person in (ann, bob, cy):
        await person.sign_up()
    page = ann.page
    await page.get_by_role("link", name="Open a new table").click()
    await page.locator("#create-game").select_option("moon21")
    await page.get_by_label(re.compile("^Seats")).fill("2")
    await page.get_by_role("button", name="Open the table").click()
    await expect(page.locator("#table-title")).to_contain_text("21Moon")
    table_id = await table_id_from_url(page)

    lobby = bob.page
    await lobby.goto("/#/")
    await lobby.get_by_role("button", name="Refresh").click()
    row = lobby.locator(f"li[data-table='{table_id}'] a")
    await expect(row).to_be_visible()
    if screenshots:
        await bob.screenshot(screenshots / "lobby-phone.png")
    await row.click()
    await lobby.get_by_role("button", name="Sit here").first.click()
    await lobby.get_by_role("button", name="I am ready").click()
    await expect(lobby.get_by_role("button", name="Not ready yet")).to_be_visible()
    await page.get_by_role("button", name="I am ready").click()
    await page.get_by_role("button", name="Start the game").click()
    await expect(page.locator("section.game")).to_be_visible()
    await expect(page.locator("svg.moon21-map")).to_be_visible()
    await expect(lobby.locator("svg.moon21-map")).to_be_visible()
    return [ann, bob], cy, table_id


async def watch(cy: Person, table_id: str, sockets: list[str], routes: list[WebSocketRoute]) -> None:
    """The spectator opens the game through a socket route of the test's, so the test can cut it."""
    def route(socket: WebSocketRoute) -> None:
        sockets.append(socket.url)
        routes.append(socket)
        socket.connect_to_server()

    await cy.page.route_web_socket(re.compile(r"/games/[^/]+/ws"), route)
    await cy.open_table(table_id)
    await cy.page.get_by_role("button", name="Watch this game").click()
    await expect(cy.page.locator(".tag", has_text="watching")).to_be_visible()
    await expect(cy.page.locator("svg.moon21-map")).to_be_visible()


async def play(browser: Browser, base: str, *, min_moves: int = 20, max_moves: int = 90,
               screenshots: Path | None = None, drop_at: int = 8) -> Played:
    players, cy, table_id = await open_and_start(browser, base, screenshots)
    sockets: list[str] = []
    routes: list[WebSocketRoute] = []
    await watch(cy, table_id, sockets, routes)
    played = Played(game_id=table_id, spectator_sockets=sockets, people=[*players, cy])
    planner = Planner()
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        seq = await last_seq(http, table_id)
        for person in (*players, cy):
            await person.wait_drawn(seq)
        real_runs = 0
        for move in range(max_moves):
            if move >= min_moves and real_runs and {"lay", "BuyShare"} <= set(played.moves):
                break
            if move == drop_at:
                played.cut_at_seq = seq
                await routes[-1].close(code=1011, reason="test cuts the spectator off")
            turns = [person for person in players if await person.my_turn()]
            assert len(turns) == 1, f"pages saying it is their turn: {[p.name for p in turns]}"
            actor = turns[0]
            # The desktop pictures from ann's page (bob's is at phone width: his have their own file).
            if screenshots and actor is players[0] and await actor.page.locator(".runs li").count() and real_runs == 0:
                await actor.screenshot(screenshots / "moon21-table-runs.png")
            what, seq = await planner.move(actor)
            played.moves.append(what)
            real_runs += what == "run"
            played.seqs_after_move.append(seq)
            for person in (*players, cy):
                await person.wait_drawn(seq)
            if screenshots and what == "lay" and actor is players[0]:
                await actor.screenshot(screenshots / "moon21-table.png")
                await actor.page.locator(".panel.map-panel").screenshot(path=str(screenshots / "moon21-map.png"))
        if screenshots:
            await players[1].screenshot(screenshots / "moon21-table-phone.png")
            await cy.screenshot(screenshots / "moon21-spectator.png")
            waiting = [p for p in players if await p.my_turn()][0]
            size = waiting.page.viewport_size
            await waiting.page.set_viewport_size(DESKTOP)        # the lobby's picture at desktop width
            await waiting.goto("/")
            await expect(waiting.page.locator(".badge", has_text="waiting for you")).to_be_visible()
            await waiting.page.locator("#filter-status").select_option("")
            await expect(waiting.page.locator(f"section[aria-labelledby=tables-title] li[data-table='{table_id}']")).to_be_visible()
            await waiting.screenshot(screenshots / "lobby.png")
            await waiting.page.set_viewport_size(size)
            await waiting.open_table(table_id)
            await expect(waiting.page.locator("svg.moon21-map")).to_be_visible()
    return played
