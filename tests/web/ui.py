"""One person using the web client in their own browser context (own storage, own session)."""
from __future__ import annotations

import asyncio
import json
import re
from contextlib import asynccontextmanager
from dataclasses import dataclass

from playwright.async_api import Browser, Page, expect

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}


@dataclass
class MoveAnswer:
    """The lobby's answer to a command the page sent: over the game's socket (a move's `ack` or `error`)
    or as a POST's reply, read alike: `status` (the POST's, or the one the socket's error names), `body`
    (the POST's body: {"command_id", "events"} or {"error"}), `command` (as sent), `over` ("socket" or "http")."""
    status: int
    body: dict
    command: dict
    over: str


def _json(payload) -> dict | None:
    try:
        message = json.loads(payload)
    except (TypeError, ValueError):
        return None
    return message if isinstance(message, dict) else None


class Person:
    def __init__(self, page: Page, base: str, name: str | None = None):
        self.page, self.base, self.name = page, base, name
        self.player_id: str | None = None
        self.errors: list[str] = []
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        # Every command the page sends, and the lobby's answer, whichever way it went (`moved`).
        self._moves_sent: dict[str, dict] = {}
        self._answers: asyncio.Queue[MoveAnswer] = asyncio.Queue()
        page.on("websocket", self._watch_socket)
        page.on("response", self._posted)

    def _watch_socket(self, socket) -> None:
        socket.on("framesent", self._frame_sent)
        socket.on("framereceived", self._frame_received)

    def _frame_sent(self, payload) -> None:
        message = _json(payload)
        if message and message.get("kind") == "move" and "command" in message:
            self._moves_sent[message["id"]] = message["command"]

    def _frame_received(self, payload) -> None:
        message = _json(payload)
        if not message or message.get("kind") not in ("ack", "error") or message.get("id") not in self._moves_sent:
            return
        command = self._moves_sent.pop(message["id"])
        if message["kind"] == "ack":
            answer = MoveAnswer(200, {"command_id": message["id"], "events": message["events"]}, command, "socket")
        else:
            answer = MoveAnswer(message.get("status", 0), {"error": message["error"]}, command, "socket")
        self._answers.put_nowait(answer)

    async def _posted(self, response) -> None:
        if response.request.method != "POST" or not response.url.endswith("/commands"):
            return
        command = json.loads(response.request.post_data)["command"]
        self._answers.put_nowait(MoveAnswer(response.status, await response.json(), command, "http"))

    @asynccontextmanager
    async def moved(self, timeout: float = 30):
        """`async with person.moved() as answer: <click>`, then `await answer()`: the lobby's answer to
        the command the click sent (a `MoveAnswer`), over the socket or by POST."""
        while not self._answers.empty():
            self._answers.get_nowait()          # answers to earlier commands nobody waited for

        async def answer() -> MoveAnswer:
            return await asyncio.wait_for(self._answers.get(), timeout)
        yield answer

    @classmethod
    async def open(cls, browser: Browser, base: str, name: str | None = None, viewport=DESKTOP) -> "Person":
        context = await browser.new_context(viewport=viewport, base_url=base)
        context.set_default_timeout(15_000)
        person = cls(await context.new_page(), base, name)
        await person.page.goto("/")
        await expect(person.page.locator("header.top")).to_be_visible()
        return person

    @property
    def password(self) -> str:
        return f"password of {self.name}"     # as tests/support/stack.py's players, for API checks

    async def sign_up(self) -> None:
        """Open an account on the sign-in panel (the lobby shows it to anyone not signed in)."""
        page = self.page
        await page.locator("#sign-up-name").fill(self.name)
        await page.locator("#sign-up-password").fill(self.password)
        await page.get_by_role("button", name="Sign up").click()
        await self.signed_in()

    async def log_in(self, password: str | None = None) -> None:
        """Log in on the sign-in panel; with a `password` of the test's own, only submit the form."""
        page = self.page
        await page.locator("#log-in-name").fill(self.name)
        await page.locator("#log-in-password").fill(password or self.password)
        await page.get_by_role("button", name="Log in", exact=True).click()
        if password is None:
            await self.signed_in()

    async def signed_in(self) -> None:
        await expect(self.page.get_by_role("link", name=f"Signed in as {self.name}")).to_be_visible()
        self.player_id = await self.page.locator("a[data-me]").get_attribute("data-me")

    async def goto(self, fragment: str) -> None:
        await self.page.goto(f"/#{fragment}")

    async def new_table(self, game: str, seats: int) -> str:
        """Open a table of `game` for `seats` from the lobby's "New table" form; its id."""
        page = self.page
        await page.get_by_role("link", name="New table", exact=True).click()
        await page.locator("#create-game").select_option(game)
        await page.locator("#create-seats").fill(str(seats))
        await page.get_by_role("button", name="Open the table").click()
        await expect(page.locator("#table-title")).to_be_visible()
        return page.url.split("#/tables/")[1]

    async def open_table(self, table_id: str) -> None:
        await self.goto(f"/tables/{table_id}")
        await expect(self.page.locator("#table-title")).to_be_visible(timeout=30_000)

    async def seq(self) -> int:
        return int(await self.page.locator("section.game").get_attribute("data-seq") or 0)

    async def wait_drawn(self, seq: int, timeout: float = 20_000) -> None:
        """Until the game is drawn from a view, and my actions asked for, at least as new as `seq`."""
        await self.page.wait_for_function(
            """seq => { const game = document.querySelector('section.game');
                        return game && Number(game.dataset.seq) >= seq && Number(game.dataset.actionsSeq) >= seq; }""",
            arg=seq, timeout=timeout)

    async def my_turn(self) -> bool:
        return await self.page.locator(".turn[data-my-turn='true']").count() > 0

    async def action_commands(self) -> list[dict]:
        """The legal actions the page offers as buttons or list entries (their commands)."""
        raw = await self.page.locator(".actions [data-command]").evaluate_all("els => els.map(e => e.dataset.command)")
        return [json.loads(r) for r in raw]

    async def send_command(self, command: dict) -> None:
        """Click the button of `command`, or pick it in its list and send."""
        wanted = json.dumps(command, separators=(",", ":"))
        page = self.page
        for locator in await page.locator(".actions [data-command]").all():
            if json.loads(await locator.get_attribute("data-command")) != command:
                continue
            if await locator.evaluate("e => e.tagName") == "OPTION":
                select = locator.locator("xpath=..")
                await select.select_option(value=await locator.get_attribute("value"))
                await select.locator("xpath=../button[@type='submit']").click()
            else:
                await locator.click()
            return
        raise AssertionError(f"no control for {wanted}")

    async def screenshot(self, path) -> None:
        await self.page.screenshot(path=str(path), full_page=True)

    def no_page_errors(self) -> None:
        assert not self.errors, f"{self.name}: page errors {self.errors}"


async def table_id_from_url(page: Page) -> str:
    match = re.search(r"#/tables/([^?/]+)", page.url)
    assert match, page.url
    return match.group(1)
