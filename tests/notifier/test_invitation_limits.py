"""Invitations count against the lobby's `invitations` limit (per inviting player)."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.integration


@pytest.fixture
def stack_options():
    return {"settings": {"lobby_limit_invitations": "3/minute"}}


async def test_invitations_are_rate_limited(register):
    ann, bob = await register("ann"), await register("bob")
    others = [await register(f"friend{n}") for n in range(4)]
    table = await ann.ok(ann.post("/tables", {"game": "testjack", "seats": 2}))
    replies = [await ann.post(f"/tables/{table['table_id']}/invite", {"player_id": p.player_id}) for p in others]
    assert [r.status_code for r in replies] == [200, 200, 200, 429]
    assert replies[-1].json()["error"]["code"] == "RATE_LIMITED" and "Retry-After" in replies[-1].headers
