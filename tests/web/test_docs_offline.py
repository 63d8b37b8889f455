"""The API documentation pages render in a browser with no network: Swagger UI at /docs and ReDoc at
/redoc load every script and style from the lobby itself (any request elsewhere is refused and counted)."""
from __future__ import annotations

from urllib.parse import urlparse

import pytest
from playwright.async_api import expect

pytestmark = [pytest.mark.integration, pytest.mark.timeout(180)]


async def test_swagger_ui_and_redoc_render_with_no_network(stack, browser, screenshots):
    lobby = urlparse(stack.http).netloc
    context = await browser.new_context(viewport={"width": 1280, "height": 900})
    elsewhere: list[str] = []

    async def only_the_lobby(route):
        if urlparse(route.request.url).netloc == lobby:
            await route.continue_()
        else:
            elsewhere.append(route.request.url)
            await route.abort("internetdisconnected")

    await context.route("**/*", only_the_lobby)
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    await page.goto(f"{stack.http}/docs")
    await expect(page.locator(".swagger-ui .info .title")).to_contain_text("Starbase lobby")
    await expect(page.locator(".opblock").first).to_be_visible()
    assert await page.locator(".opblock").count() >= 20
    await expect(page.locator(".opblock-summary-path", has_text="/engines/{game}/data/{name}")).to_be_visible()
    await page.screenshot(path=str(screenshots / "api-docs.png"))

    await page.goto(f"{stack.http}/redoc")
    await expect(page.locator("h1", has_text="Starbase lobby")).to_be_visible(timeout=30_000)
    await expect(page.get_by_text("/tables/{table_id}/join").first).to_be_attached()

    assert elsewhere == []
    assert errors == []
    await context.close()
