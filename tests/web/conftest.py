"""Browser tests of the web client against the real in-process stack (lobby, adjudicator, scoring on
real NATS and Redis), in Debian's Chromium driven by Playwright. A missing browser or client build
fails the run: these tests never skip."""
from pathlib import Path

import pytest
from playwright.async_api import async_playwright, expect

from tests.support import testjack
from tests.trucker_service.live import in_process, settings_for
from tests.support.lobby_stack import http, register, stack, stack_options  # noqa: F401  (fixtures)

testjack.register()         # a tiny game that ends in a few moves: standings, ratings and history
# Expect-style waits give a page 15 s (Playwright's default is 5 s): these tests share two cores with
# other engineers' suites, and a page drawn late is not a failure; a wrong page still fails at the end.
expect.set_options(timeout=15_000)

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
BUILD = ROOT / "services" / "web" / "dist" / "index.html"
SCREENSHOTS = ROOT / "docs" / "screenshots"
# Quiet, offline-safe Chromium: no first-run pages, no background downloads or sync, no QUIC.
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture
def client_built() -> Path:
    if not BUILD.is_file():
        pytest.fail(f"the web client is not built ({BUILD} missing): run `make install`")
    return BUILD


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.when == "call":
        item.failed_call = report.failed
    return report


@pytest.fixture
async def browser(client_built, request, tmp_path_factory):
    if not CHROMIUM.is_file():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium chromium-driver (.ci/run does)")
    async with async_playwright() as playwright:
        # Playwright gives every launch a fresh temporary profile (user-data dir), removed on close.
        launched = await playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        try:
            yield launched
            if getattr(request.node, "failed_call", False):      # what each page showed when it failed
                where = tmp_path_factory.mktemp("failed-pages")
                for c, context in enumerate(launched.contexts):
                    for p, page in enumerate(context.pages):
                        await page.screenshot(path=str(where / f"page-{c}-{p}.png"), full_page=True)
                print(f"screenshots of the pages at the failure: {where}")
        finally:
            await launched.close()


@pytest.fixture
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


@pytest.fixture
async def trucker(stack, nats_url, redis_url, namespace):
    """The Trucker service on the stack's store, seed vault and Redis (the lobby's tickets); the lobby points at it."""
    settings = settings_for(nats_url, redis_url, namespace, event_stream=stack.settings.event_stream,
                            event_subject_prefix=stack.settings.event_subject_prefix,
                            seed_bucket=f"seeds{namespace}",
                            trucker_trust_player_param=False, trucker_bus_prefix=f"tr{namespace}")
    async with in_process(settings) as base:
        stack.runtime.settings = stack.settings.model_copy(update={"trucker_public_url": base})
        yield base
