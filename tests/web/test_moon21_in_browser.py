"""21Moon end to end in real browsers: two players open, join and start a table through the lobby
screens and play 20+ moves by clicking (tile lays on the map, share buys, runs), while a third person
watches; the spectator's socket is cut mid-game and resumes from its last seq. Screenshots of the
lobby and of the table go to docs/screenshots/."""
from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest

from tests.web import moon21_play

pytestmark = [pytest.mark.integration, pytest.mark.timeout(400)]


async def test_two_players_play_21moon_while_a_spectator_watches(stack, browser, screenshots):
    played = await moon21_play.play(browser, stack.http, min_moves=20, screenshots=screenshots)
    ann, bob, cy = played.people

    assert len(played.moves) >= 20
    assert {"lay", "BuyShare", "run"} <= set(played.moves), played.moves

    # What the clicks did is in the event stream itself.
    stored = await stack.store.read(f"game.{played.game_id}", 1)
    types = [e.type for e in stored]
    assert "TileLaid" in types and "ShareBought" in types
    assert any(e.type == "TransportsRun" and e.data["runs"] for e in stored)

    # The spectator saw every event once, in order, although its socket was cut mid-game ...
    last = stored[-1].seq
    spectator_log = await cy.page.locator(".log-lines li").evaluate_all("els => els.map(e => Number(e.dataset.seq))")
    assert spectator_log == list(range(last - len(spectator_log) + 1, last + 1))
    assert len(spectator_log) == min(last, 300)
    assert await cy.seq() == last
    # ... and it came back asking only for what it had not seen.
    assert len(played.spectator_sockets) >= 2, played.spectator_sockets
    resumed_after = int(parse_qs(urlparse(played.spectator_sockets[1]).query)["after"][0])
    assert resumed_after == played.cut_at_seq > 0
    # Every page drew every move (the test waited for each), and none of them hit a script error.
    for person in played.people:
        person.no_page_errors()
    # The spectator has no actions to take; the players' pages show the same board.
    assert await cy.page.locator(".actions").count() == 0
    assert await ann.page.locator("[data-hex]").count() == await bob.page.locator("[data-hex]").count() > 60
    # Readable at phone width: bob's page (390 px wide) never scrolls sideways.
    assert await bob.page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
