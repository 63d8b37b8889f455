"""The bot worker and the notifier each do their whole job as their own NATS user, through their real
entry code (`bots.__main__.serve`, `notifier.__main__.serve`), and the NATS server refuses them nothing:

- a table with a bot seat is played to its end, the bot's moves submitted through the adjudicator with
  the bot worker's own caller secret (which may only Submit) and marked `played_by`;
- a player's webhook, saved by the lobby's side (`notifier.client`, as the lobby user), is called when
  it is their turn, and the lobby's "send a test webhook now" request is answered by the notifier."""
from __future__ import annotations

import asyncio

import pytest

from adjudicator.client import AdjudicatorClient
from adjudicator.service import Adjudicator
from bots.__main__ import BotSettings, serve as serve_bots
from notifier.__main__ import serve as serve_notifier
from notifier.client import NotifierClient, NotifierUnavailable, PreferencesIn
from notifier.config import NotifierSettings, StorageNames
from starbase_core.callers import load_callers
from starbase_core.seeds import JetStreamSeedVault
from tests.bots.test_bot_worker import play_person_until_the_end
from tests.notifier.receiver import Receiver
from tests.security.test_clock_and_trucker_with_their_own_users import adjudicator_store, own_settings
from tests.support import tally
from tests.support.stack import serve_adjudicator

tally.register()
pytestmark = [pytest.mark.integration, pytest.mark.timeout(180)]
WAIT_SECONDS = 30.0   # a bound on a hang, not a timing assertion


async def adjudicator_server(secured, store):
    """The adjudicator as its service serves it (gRPC and the NATS door), as its own user: (port, stop)."""
    vault = await JetStreamSeedVault(store._nc, secured.names.seeds).ensure()
    return await serve_adjudicator(Adjudicator(store, vault), store,
                                   callers=load_callers(str(secured.creds.callers_file)))


def lobby_token(secured) -> str:
    return secured.creds.token_file("lobby").read_text().strip()


async def test_the_bot_worker_plays_a_bot_seat_as_itself(secured, new_name):
    store = await adjudicator_store(secured)
    port, stop_adjudicator = await adjudicator_server(secured, store)
    settings = BotSettings(**own_settings(secured, "bots"), adjudicator_target=f"127.0.0.1:{port}",
                           bots_durable=secured.names.bots_durable, bots_health_port=0,
                           bots_health_host="127.0.0.1", metrics_port=0)
    stop = asyncio.Event()
    bots = asyncio.create_task(serve_bots(settings, stop))
    game = new_name("g")
    try:
        async with AdjudicatorClient(f"127.0.0.1:{port}", token=lobby_token(secured)) as lobby:
            await lobby.create_game(game, "tally", ["ann", "bot1"], {"bots": {"bot1": "normal"}, "rounds": 3})
            stream = await play_person_until_the_end(lobby, store, game, "ann")
    finally:
        stop.set()
        await asyncio.wait_for(bots, WAIT_SECONDS)
        await stop_adjudicator(0)
        await store.close()
    by_bot = [e for e in stream if e.meta.get("command") and e.actor == "bot1"]
    assert by_bot and all(e.meta["played_by"] == "bot:normal" for e in by_bot)
    assert secured.violations() == []


async def send_test_webhook(client: NotifierClient, player: str) -> dict:
    """The lobby's "send a test webhook now", once the notifier has started answering."""
    while True:
        try:
            return await client.send_test(player, timeout=10)
        except NotifierUnavailable:         # no responder yet: the notifier is still starting
            await asyncio.sleep(0.1)


async def test_the_notifier_calls_a_webhook_and_answers_the_lobby_as_itself(secured, new_name):
    receiver = await Receiver().start()
    store = await adjudicator_store(secured)
    port, stop_adjudicator = await adjudicator_server(secured, store)
    names = StorageNames(notifier_allow_loopback=True)          # the names the permissions were made for
    settings = NotifierSettings(**own_settings(secured, "notifier"), **names.model_dump(),
                                notifier_durable=secured.names.notifier_durable, notifier_health_port=0,
                                notifier_health_host="127.0.0.1", metrics_port=0,
                                notifier_backoff_seconds=0.05, notifier_ack_wait_seconds=2.0)
    lobby_nc = await secured.connect("lobby")
    stop = asyncio.Event()
    notifier = asyncio.create_task(serve_notifier(settings, stop))
    game = new_name("g")
    try:
        client = await NotifierClient(lobby_nc.nc, names).start()            # as the lobby user
        saved = await client.save("ann", PreferencesIn.model_validate({"webhook": {"url": receiver.url}}))
        assert saved.new_secret
        answer = await asyncio.wait_for(send_test_webhook(client, "ann"), WAIT_SECONDS)   # lobby asks, notifier answers
        assert answer.get("delivered") is True, answer
        async with AdjudicatorClient(f"127.0.0.1:{port}", token=lobby_token(secured)) as lobby:
            await lobby.create_game(game, "testjack", ["ann", "bob"], {})     # ann is to act: her turn

        async def turns_of_this_game():
            while not (turns := [r.json for r in receiver.answered()
                                 if r.json["kind"] == "your_turn" and r.json["game_id"] == game]):
                await asyncio.sleep(0.05)
            return turns

        turns = await asyncio.wait_for(turns_of_this_game(), WAIT_SECONDS)
        assert [t["player"] for t in turns] == ["ann"]
        assert await client.dead_letters("ann") == []
        await client.erase("ann")                                             # the lobby erases a player
        assert (await client.preferences("ann")).webhook is None
    finally:
        stop.set()
        await asyncio.wait_for(notifier, WAIT_SECONDS)
        await stop_adjudicator(0)
        await store.close()
        await receiver.stop()
    assert lobby_nc.errors == []
    assert secured.violations() == []
