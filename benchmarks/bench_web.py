"""The web client in a real browser (Debian's Chromium, Playwright), against the in-process stack on
real NATS and Redis: two people play 21Moon by clicking while a third watches (tests/web/moon21_play).

Prints, from the pages' own timings (`window.starbaseMetrics`, see services/web/src/game/metrics.ts):
- opening a table → its board drawn (every page's first open, then REOPENS reloads of the table each);
- a click → the push it caused drawn, on the clicking page and on the other pages (player, spectator);
- bytes transferred for a first load of the lobby page and of a 21Moon table, in a fresh browser;
- for a 2038, a Stellar Ventures and a Trucker game (started over the API), opening the table → its
  board drawn for a visitor, and the first load's bytes.
Figures only: nothing here passes or fails on a time.
"""
from __future__ import annotations

import asyncio
import os
import statistics
import sys
import uuid
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.async_api import async_playwright  # noqa: E402

from starbase_core.servers import NatsServer, RedisServer  # noqa: E402
from tests.support.stack import ApiPlayer, local_stack, seat_and_start  # noqa: E402
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


async def reopen_times(page, base: str, table_id: str, board: str = "svg.moon21-map") -> list[float]:
    found = []
    for _ in range(REOPENS):
        await page.goto("about:blank")
        await page.goto(f"{base}/#/tables/{table_id}")
        await page.locator(board).first.wait_for()
        m = await metrics(page)
        found.append(m["boardDrawnAt"] - m["tableOpenedAt"])
    return found


async def other_boards(browser, base: str) -> list[str]:
    """A 2038, a Stellar Ventures and a Trucker game started over the API; a visitor opens each table."""
    lines = []
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        players = [await ApiPlayer.register(http, name) for name in ("dee", "eve", "fay")]
        games = [("2038", await seat_and_start(players[:2], "t2038", {"two_player": True}), "svg.t2038-map"),
                 ("Stellar Ventures", await seat_and_start(players, "stellar"), "svg.stellar-map"),
                 ("Trucker", await seat_and_start(players[:2], "trucker"), "[data-board=trucker] svg.ship-svg")]
    for title, game_id, board in games:
        context = await browser.new_context()
        opened = await reopen_times(await context.new_page(), base, game_id, board)
        await context.close()
        loaded = await first_load_bytes(browser, f"{base}/#/tables/{game_id}", board)
        lines.append(f"{title:<17} open a table → board drawn (visitor)  {quantiles(opened)}")
        lines.append(f"{title:<17} first load (map data too)            {loaded / 1024:7.1f} KiB")
    return lines


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
                    reopened += await reopen_times(person.page, person.base, played.game_id)
                lobby_bytes = await first_load_bytes(browser, f"{stack.http}/", "header.top")
                table_bytes = await first_load_bytes(browser, f"{stack.http}/#/tables/{played.game_id}", "svg.moon21-map")
                boards = await other_boards(browser, stack.http)
                await browser.close()
    print(f"21Moon in the browser: {len(played.moves)} moves clicked ({', '.join(sorted(set(played.moves)))})")
    print(f"open a table → board drawn (first open)  {quantiles(first_open)}")
    print(f"open a table → board drawn (reopened)    {quantiles(reopened)}")
    print(f"click → push drawn, clicking page        {quantiles(own)}")
    print(f"click → push drawn, other pages          {quantiles(others)}")
    print(f"first load, lobby page                   {lobby_bytes / 1024:7.1f} KiB")
    print(f"first load, 21Moon table (map data too)  {table_bytes / 1024:7.1f} KiB")
    for line in boards:
        print(line)


if __name__ == "__main__":
    asyncio.run(main())
