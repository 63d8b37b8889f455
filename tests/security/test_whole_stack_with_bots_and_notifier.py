"""The whole platform at once, each service on its own user: the lobby (which keeps players' webhook
settings through the notifier's client), the adjudicator behind its caller check, scoring, the bot
worker (`bots.__main__.serve`) and the notifier (`notifier.__main__.serve`). A player saves a webhook
through the lobby, opens a table with a bot seat and plays it to its end against the bot; her webhook
is called (her turn, the game's end), and the NATS server has refused nobody anything."""
from __future__ import annotations

import asyncio

import httpx
import pytest

from bots.__main__ import BotSettings, serve as serve_bots
from notifier.__main__ import serve as serve_notifier
from notifier.config import NotifierSettings
from tests.notifier.receiver import Receiver
from tests.security.test_clock_and_trucker_with_their_own_users import own_settings
from tests.support import tally
from tests.support.botworker import eventually
from tests.support.stack import ApiPlayer, local_stack

tally.register()
pytestmark = [pytest.mark.integration, pytest.mark.timeout(240)]
WAIT_SECONDS = 60.0   # a bound on a hang, not a timing assertion


async def test_a_bot_seat_and_a_webhook_with_every_service_on_its_own_user(secured, monkeypatch):
    monkeypatch.setenv("NOTIFIER_ALLOW_LOOPBACK", "true")      # the lobby checks a saved URL as the notifier does
    receiver = await Receiver().start()
    stop = asyncio.Event()
    tasks = []
    try:
        async with local_stack(secured.nats.url, secured.redis.url, secured.namespace,
                               credentials=secured.creds) as stack:
            target = stack.settings.adjudicator_target
            tasks.append(asyncio.create_task(serve_bots(BotSettings(
                **own_settings(secured, "bots"), adjudicator_target=target, bots_durable=secured.names.bots_durable,
                bots_health_port=0, bots_health_host="127.0.0.1", metrics_port=0), stop)))
            tasks.append(asyncio.create_task(serve_notifier(NotifierSettings(
                **own_settings(secured, "notifier"), notifier_allow_loopback=True,
                notifier_durable=secured.names.notifier_durable, notifier_health_port=0,
                notifier_health_host="127.0.0.1", metrics_port=0, notifier_ack_wait_seconds=2.0), stop)))
            async with httpx.AsyncClient(base_url=stack.http, timeout=30) as http:
                ann = await ApiPlayer.register(http, "ann")
                saved = await ann.ok(http.put("/players/me/notifications", headers=ann.auth,
                                              json={"webhook": {"url": receiver.url,
                                                                "events": ["your_turn", "game_ended"]}}))
                assert saved["webhook"]["url"] == receiver.url
                table = await ann.ok(ann.post("/tables", {"game": "tally", "seats": 2, "options": {"rounds": 2},
                                                          "bots": [{"seat": 1, "level": "easy"}]}))
                await ann.ok(ann.post(f"/tables/{table['table_id']}/ready"))
                game_id = (await ann.ok(ann.post(f"/tables/{table['table_id']}/start")))["game_id"]

                async def finished():
                    found = await ann.ok(ann.get(f"/tables/{table['table_id']}"))
                    if found["status"] == "finished":
                        return found
                    view = await ann.ok(ann.get(f"/games/{game_id}/view"))
                    if view["view"]["to_act"] == ann.player_id:
                        await ann.post(f"/games/{game_id}/commands", {"command": {"type": "EndTurn"}})
                    return None

                await eventually(finished, timeout=WAIT_SECONDS)

                async def told():
                    kinds = {r.json["kind"] for r in receiver.answered() if r.json.get("game_id") == game_id}
                    return kinds >= {"your_turn", "game_ended"}

                await eventually(told, timeout=WAIT_SECONDS)
            stream = await stack.store.read(f"game.{game_id}")
            assert any(e.meta.get("played_by") == "bot:easy" for e in stream)
    finally:
        stop.set()
        await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), WAIT_SECONDS)
        await receiver.stop()
    assert all(r.json["player"] == ann.player_id for r in receiver.answered())
    assert secured.violations() == []
