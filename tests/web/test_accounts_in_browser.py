"""Accounts in real browsers, on a stack whose access tokens last 5 seconds and whose chat allows 3
messages a minute: the access token renewed before it expires and after a 401 (a tab whose timers
slept), log out everywhere closing another device's socket, a 429 shown with its wait, a guest
claiming its account, a password changed, an account deleted."""
from __future__ import annotations

import asyncio
import re
import time

import pytest
from playwright.async_api import expect

from tests.support.stack import ApiPlayer
from tests.web.ui import Person

pytestmark = [pytest.mark.integration, pytest.mark.timeout(300)]
ACCESS_SECONDS = 5


@pytest.fixture
def stack_options() -> dict:
    return {"settings": {"lobby_access_token_seconds": ACCESS_SECONDS, "lobby_limit_chat": "3/minute"}}


def watch_auth(page) -> list[tuple[str, int]]:
    """(path, status) of every refresh and of every 401 the page gets, as they come."""
    seen: list[tuple[str, int]] = []
    page.on("response", lambda r: seen.append((r.url.split("?")[0].split("127.0.0.1")[-1], r.status))
            if r.url.endswith("/sessions/refresh") or r.status == 401 else None)
    return seen


async def test_tokens_renewed_before_expiry_and_after_a_401_and_log_out_everywhere_closes_sockets(stack, browser):
    ann = await Person.open(browser, stack.http, "ann")
    await ann.sign_up()
    seen = watch_auth(ann.page)
    await ann.page.wait_for_timeout((ACCESS_SECONDS + 2) * 1000)      # the first access token is dead by now
    assert [s for s in seen if s[0].endswith("/sessions/refresh")], "no refresh before the token expired"
    assert all(status == 200 for _, status in seen), seen

    # Another device whose timers are frozen (a tab the system put to sleep): its token dies unrenewed;
    # the next call gets 401 TOKEN_EXPIRED, refreshes once and is sent again.
    context = await browser.new_context(base_url=stack.http)
    await context.clock.install()
    sleepy = Person(await context.new_page(), stack.http, "ann")
    await sleepy.page.goto("/")
    await sleepy.log_in()
    await sleepy.page.get_by_role("button", name="Refresh").click()
    await sleepy.page.clock.pause_at(int(time.time() * 1000) + 1000)
    await sleepy.page.wait_for_timeout((ACCESS_SECONDS + 1) * 1000)
    slept = watch_auth(sleepy.page)
    async with sleepy.page.expect_response(lambda r: "/tables?" in r.url and r.status == 200):
        await sleepy.page.get_by_role("button", name="Refresh").click()
    assert [status for _, status in slept][:2] == [401, 200], slept     # the expired token, then the refresh
    await sleepy.signed_in()
    sleepy.no_page_errors()
    await context.close()

    # ann on her phone at a game; she logs out everywhere from her laptop: the phone's socket closes.
    closed: list[str] = []
    ann.page.on("websocket", lambda ws: ws.on("close", lambda _: closed.append(ws.url)) if "/games/" in ws.url else None)
    await ann.page.get_by_role("link", name="New table", exact=True).click()
    await ann.page.locator("#create-game").select_option("testjack")
    await ann.page.locator("#create-seats").fill("1")
    await ann.page.get_by_role("button", name="Open the table").click()
    await ann.page.get_by_role("button", name="I am ready").click()
    await ann.page.get_by_role("button", name="Start the game").click()
    await expect(ann.page.locator("section.game[data-status=live]")).to_be_visible()
    laptop = await Person.open(browser, stack.http, "ann")
    await laptop.log_in()
    await laptop.goto("/account")
    await laptop.page.get_by_role("button", name="Log out everywhere").click()
    await expect(laptop.page.get_by_role("link", name="Sign in")).to_be_visible()
    # The phone is told, and goes on watching the (public) game as anyone may, on a new socket.
    await expect(ann.page.locator("[data-signed-out=ended]")).to_contain_text("Your session ended")
    await expect(ann.page.locator("nav a[data-me]")).to_have_text("Sign in")
    await expect(ann.page.locator("section.game")).to_contain_text("You are watching this game.")
    assert closed, "the phone's game socket stayed open"
    ann.no_page_errors()
    laptop.no_page_errors()


async def test_a_limit_is_shown_with_its_wait_and_a_guest_claims_changes_and_deletes_its_account(stack, http, browser,
                                                                                                 screenshots):
    guest = await Person.open(browser, stack.http, "zed")
    page = guest.page
    await guest.screenshot(screenshots / "sign-in.png")
    await page.get_by_role("button", name="Play as a guest").click()
    await expect(page.get_by_role("link", name=re.compile("^Signed in as guest"))).to_be_visible()

    # Chat allows 3 messages a minute here: the 4th is refused politely, with the wait counting down.
    host = await ApiPlayer.register(http, "host")
    table = await host.ok(host.post("/tables", {"game": "testjack", "seats": 2}))
    await guest.open_table(table["table_id"])
    await page.get_by_role("button", name="Sit here").click()            # only the table's people chat
    for n in range(4):
        await page.locator("#chat-text").fill(f"message {n}")
        await page.get_by_role("button", name="Send", exact=True).click()
        if n < 3:
            await expect(page.locator(".chat .messages")).to_contain_text(f"message {n}")
    wait = page.locator(".chat .error.wait")
    await expect(wait).to_contain_text(re.compile(r"Too many requests at once\. Please wait \d+ seconds"))
    first = int(re.search(r"wait (\d+)", await wait.inner_text()).group(1))
    assert 0 < first <= 60 and int(await wait.get_attribute("data-retry-after")) == first
    await expect(wait).not_to_contain_text(f"wait {first} seconds")            # it counts down

    # The guest keeps its id under a name and a password, changes the password, then deletes the account.
    await page.locator(".chat").screenshot(path=str(screenshots / "chat-rate-limited.png"))
    guest_id = await page.locator("a[data-me]").get_attribute("data-me")
    await guest.goto("/account")
    await guest.screenshot(screenshots / "account-guest.png")
    await page.locator("#claim-name").fill("zed")
    await page.locator("#claim-password").fill(guest.password)
    await page.get_by_role("button", name="Claim the account").click()
    await guest.signed_in()
    assert guest.player_id == guest_id
    await page.locator("#old-password").fill(guest.password)
    await page.locator("#new-password").fill("zed's brand new password")
    await page.get_by_role("button", name="Change the password").click()
    await expect(page.get_by_role("status")).to_have_text("The password is changed.")
    await page.get_by_role("button", name="Log out", exact=True).click()
    await guest.log_in("zed's brand new password")
    await guest.signed_in()
    await guest.goto("/account")
    await page.locator("#delete-password").fill("zed's brand new password")
    await page.get_by_label("I understand this cannot be undone").check()
    await page.get_by_role("button", name="Delete my account").click()
    await expect(page.locator("[data-signed-out=erased]")).to_contain_text("The account is deleted.")
    assert (await http.post("/sessions", json={"name": "zed", "password": "zed's brand new password"})).status_code == 401
    guest.no_page_errors()


async def test_a_refresh_refused_because_a_claim_overtook_it_keeps_the_claimed_session(stack, browser):
    """Tokens here are renewed every 2.5 s, so a guest's claim can be answered while a refresh with the
    guest's old refresh token is on its way; the claim ends that token's session, and its refusal must
    not sign out the account that the claim's own reply has just signed in."""
    guest = await Person.open(browser, stack.http, "yan")
    page = guest.page
    await page.get_by_role("button", name="Play as a guest").click()
    await expect(page.get_by_role("link", name=re.compile("^Signed in as guest"))).to_be_visible()
    guest_id = await page.locator("a[data-me]").get_attribute("data-me")
    await guest.goto("/account")
    await page.locator("#claim-name").fill("yan")
    await page.locator("#claim-password").fill(guest.password)

    held, claimed = asyncio.Event(), asyncio.Event()

    async def hold_until_claimed(route):
        held.set()
        await claimed.wait()
        await route.continue_()

    await page.route("**/sessions/refresh", hold_until_claimed)
    await asyncio.wait_for(held.wait(), ACCESS_SECONDS * 2)       # the next timed refresh, with the old token
    async with page.expect_response("**/players/me/claim") as claim:
        await page.get_by_role("button", name="Claim the account").click()
    assert (await claim.value).status == 200
    async with page.expect_response("**/sessions/refresh") as refused:
        claimed.set()
    assert (await refused.value).status == 401                   # the claim did end the guest's session
    await page.unroute("**/sessions/refresh")
    await page.wait_for_timeout(500)
    await expect(page.get_by_role("link", name="Signed in as yan")).to_be_visible()
    assert await page.locator("a[data-me]").get_attribute("data-me") == guest_id
    await expect(page.locator("[data-signed-out]")).to_have_count(0)
    guest.no_page_errors()
