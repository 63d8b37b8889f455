"""Moderation from the chat in real browsers: a player reports a message; a moderator (a role an admin
gave, the admin made from the console) mutes its author and hides it for everyone."""
from __future__ import annotations

import argparse
import re

import pytest
from playwright.async_api import expect

from starbase_cli.admin import execute
from tests.support.stack import ApiPlayer
from tests.web.ui import Person

pytestmark = [pytest.mark.integration, pytest.mark.timeout(300)]


async def test_reports_and_a_moderators_hide_and_mute_from_the_chat(stack, http, browser):
    [created] = await execute(stack.settings, argparse.Namespace(admin_command="create-admin", name="root"),
                              password="the root's password")
    assert "created" in created
    root = await ApiPlayer.login(http, "root", "the root's password")
    eve = await ApiPlayer.register(http, "eve")
    ann = await Person.open(browser, stack.http, "ann")
    mod = await Person.open(browser, stack.http, "mod")
    for person in (ann, mod):
        await person.sign_up()
    await root.ok(root.http.put(f"/admin/players/{mod.player_id}/role", headers=root.auth, json={"role": "moderator"}))
    table = await eve.ok(eve.post("/tables", {"game": "testjack", "seats": 2}))
    for person in (ann, mod):
        await person.open_table(table["table_id"])
    await mod.page.reload()                                   # the role comes with the next session refresh
    posted = await eve.ok(eve.post(f"/tables/{table['table_id']}/chat", {"text": "buy cheap gold"}))
    line = f"[data-message='{posted['id']}']"

    # ann reports it; the moderator hides it and mutes eve.
    await expect(ann.page.locator(line)).to_contain_text("buy cheap gold")
    await ann.page.locator(f"{line} summary").click()
    await ann.page.locator(f"{line} input").first.fill("spam")
    await ann.page.locator(line).get_by_role("button", name="Report this message").click()
    await expect(ann.page.locator(line).get_by_role("status")).to_have_text(re.compile("^Reported"))
    reports = await root.ok(root.get("/moderation/reports"))
    assert [(r["data"].get("message_id"), r["data"].get("reason")) for r in reports] == [(posted["id"], "spam")]
    assert await ann.page.locator(line).get_by_role("button", name="Hide this message for everyone").count() == 0

    await mod.page.locator(f"{line} summary").click()
    await mod.page.locator(line).get_by_role("button", name="Mute the author").click()
    await expect(mod.page.locator(line).get_by_role("status")).to_have_text("Done.")
    await mod.page.locator(line).get_by_role("button", name="Hide this message for everyone").click()
    await expect(mod.page.locator(line)).to_have_count(0)
    assert [m["text"] for m in await eve.ok(eve.get(f"/tables/{table['table_id']}/chat"))] == []
    muted = await eve.post(f"/tables/{table['table_id']}/chat", {"text": "more gold"})
    assert (muted.status_code, muted.json()["error"]["code"]) == (403, "MUTED")
    for person in (ann, mod):
        person.no_page_errors()
