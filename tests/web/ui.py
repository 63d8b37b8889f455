"""One person using the web client in their own browser context (own storage, own session)."""
from __future__ import annotations

import json
import re

from playwright.async_api import Browser, Page, expect

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}


class Person:
    def __init__(self, page: Page, base: str, name: str | None = None):
        self.page, self.base, self.name = page, base, name
        self.player_id: str | None = None
        self.errors: list[str] = []
        page.on("pageerror", lambda error: self.errors.append(str(error)))

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
