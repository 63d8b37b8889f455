"""The web client in a real browser (Debian's Chromium, Playwright), against the in-process stack on
real NATS and Redis: two people play 21Moon by clicking while a third watches (tests/web/moon21_play).

Prints, from the pages' own timings (`window.starbaseMetrics`, see services/web/src/game/metrics.ts):
- opening a table → its board drawn (every page's first open, then REOPENS reloads of the table each);
- a click → the push it caused drawn, on the clicking page and on the other pages (player, spectator);
- bytes transferred for a first load of the lobby page and of a 21Moon table, in a fresh browser.
Figures only: nothing here passes or fails on a time.
"""
from __future__ import annotations

import asyncio
import os
import statistics
import sys
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.async_api import async_playwright  # noqa: E402

from starbase_core.servers import NatsServer, RedisServer  # noqa: E402
from tests.support.stack import local_stack  # noqa: E402
from tests.web import moon21_play  # noqa: E402
from tests.web.conftest import BUILD, CHROMIUM, CHROMIUM_ARGS  # noqa: E402

MOVES = int(os.environ.get("BENCH_WEB_MOVES", 20))
MAX_MOVES = int(os.environ.get("BENCH_WEB_MAX_MOVES", 45))
REOPENS = int(os.environ.get("BENCH_WEB_REOPENS", 5))


def quantiles(values: list[float]) -> str:
    if not values:
        return "no samples"
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return f"p50 {statistics.median(ordered):7.1f} ms   p99 {p99:7.1f} ms   max {ordered[-1]:7.1f} ms   (n={len(ordered)})"


async def metrics(page) -> dict:
    return await page.evaluate("window.starbaseMetrics")


async def reopen_times(person, table_id: str) -> list[float]:
    found = []
    for _ in range(REOPENS):
        await person.page.goto("about:blank")
        await person.page.goto(f"{person.base}/#/tables/{table_id}")
        await person.page.locator("svg.moon21-map").wait_for()
        m = await metrics(person.page)
        found.append(m["boardDrawnAt"] - m["tableOpenedAt"])
    return found


async def first_load_bytes(browser, url: str, ready: str) -> int:
    """Bytes received (headers and bodies, as sent) while a fresh browser opens `url` until `ready` shows."""
    context = await browser.new_context()
    page = await context.new_page()
    cdp = await context.new_cdp_session(page)
    await cdp.send("Network.enable")
    received: list[float] = []
    cdp.on("Network.loadingFinished", lambda event: received.append(event["encodedDataLength"]))
    await page.goto(url)
    await page.locator(ready).first.wait_for()
    await page.wait_for_load_state("networkidle")
    await context.close()
    return int(sum(received))


async def main() -> None:
    if not BUILD.is_file() or not CHROMIUM.is_file():
        raise SystemExit("needs the built client (make install) and /usr/bin/chromium")
    with NatsServer() as nats, RedisServer() as redis:
        async with local_stack(nats.url, redis.url, f"bw{uuid.uuid4().hex[:8]}") as stack:
            async with async_playwright() as playwright:
                browser = await playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
                played = await moon21_play.play(browser, stack.http, min_moves=MOVES, max_moves=MAX_MOVES)
                pages = {person.name: await metrics(person.page) for person in played.people}
                first_open = [m["boardDrawnAt"] - m["tableOpenedAt"] for m in pages.values()]
                own, others = [], []
                for name, m in pages.items():
                    for sent in m["sent"]:
                        seq = str(sent["afterSeq"] + 1)
                        if seq in m["drawnAt"]:
                            own.append(m["drawnAt"][seq] - sent["at"])
                        for other, n in pages.items():
                            if other != name and seq in n["drawnAt"]:
                                others.append(n["drawnAt"][seq] - sent["at"])
                reopened = []
                for person in played.people:
                    reopened += await reopen_times(person, played.game_id)
                lobby_bytes = await first_load_bytes(browser, f"{stack.http}/", "header.top")
                table_bytes = await first_load_bytes(browser, f"{stack.http}/#/tables/{played.game_id}", "svg.moon21-map")
                await browser.close()
    print(f"21Moon in the browser: {len(played.moves)} moves clicked ({', '.join(sorted(set(played.moves)))})")
    print(f"open a table → board drawn (first open)  {quantiles(first_open)}")
    print(f"open a table → board drawn (reopened)    {quantiles(reopened)}")
    print(f"click → push drawn, clicking page        {quantiles(own)}")
    print(f"click → push drawn, other pages          {quantiles(others)}")
    print(f"first load, lobby page                   {lobby_bytes / 1024:7.1f} KiB")
    print(f"first load, 21Moon table (map data too)  {table_bytes / 1024:7.1f} KiB")


if __name__ == "__main__":
    asyncio.run(main())
