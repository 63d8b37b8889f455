"""The WebSocket API end to end: real NATS (JetStream) and Redis, the service in this process."""
from __future__ import annotations

import asyncio
import json
import re

import pytest

from starbase_core.gamestream import game_stream
from trucker_rules import catalog

from trucker.state_doc import Folded

from tests.trucker_service.helpers import assert_reruns_through_the_rules, legal_spot, new_game
from tests.trucker_service.live import Client

pytestmark = pytest.mark.integration


async def last_seq(store, game: str) -> int:
    return await store.last_seq(game_stream(game))


async def test_players_and_spectators_are_welcomed_with_their_view(live, jetstream_store, vault):
    game = await new_game(jetstream_store, ["ann", "bob"], vault=vault)
    ann = await Client.connect(live, game, "ann")
    watcher = await Client.connect(live, game)
    assert ann.welcome["you"] == "ann" and watcher.welcome["you"] is None
    view = ann.welcome["view"]
    assert view["timer"]["started"] and view["face_down_count"] == 140
    assert "face_down" not in json.dumps(watcher.welcome["view"]).replace("face_down_count", "")
    refused = await watcher.send("grab_face_down")
    assert refused["error"]["code"] == "NOT_A_PLAYER"
    await ann.close(), await watcher.close()


async def test_a_move_is_acknowledged_once_durable_and_reaches_every_viewer(live, jetstream_store, vault):
    game = await new_game(jetstream_store, ["ann", "bob"], vault=vault)
    ann, bob = await Client.connect(live, game, "ann"), await Client.connect(live, game, "bob")
    watcher = await Client.connect(live, game)
    ack = await ann.send("grab_face_down")
    assert ack["kind"] == "ack"
    stored = await jetstream_store.read(game_stream(game), from_seq=ack["seq"])
    assert stored[0].type == "ComponentGrabbed" and stored[0].data["player"] == "ann"
    assert stored[0].data["component"] == ack["events"][0]["data"]["component"]
    for client in (ann, bob, watcher):
        await client.wait_for_seq(ack["seq"])
        assert [e["seq"] for e in client.events] == list(range(client.welcome["seq"] + 1, ack["seq"] + 1))
    await ann.close(), await bob.close(), await watcher.close()


async def test_bad_input_gets_a_refusal_with_a_stable_code_and_changes_nothing(live, jetstream_store, vault):
    game = await new_game(jetstream_store, ["ann", "bob"], vault=vault)
    ann, bob = await Client.connect(live, game, "ann"), await Client.connect(live, game, "bob")
    grabbed = await ann.send("grab_face_down")
    tile = grabbed["events"][0]["data"]["component"]
    await ann.send("return")
    await bob.send("grab_face_up", component=tile)
    before = await last_seq(jetstream_store, game)
    cases = [
        (ann.send_raw("{not json"), "MALFORMED_MESSAGE"),
        (ann.send_raw(json.dumps({"id": "big", "op": "grab_face_down", "pad": "x" * 5000})), "MESSAGE_TOO_LARGE"),
        (ann.send("teleport"), "UNKNOWN_OPERATION"),
        (ann.send("place", square=[7, "up"]), "MALFORMED_MESSAGE"),
        (ann.send("grab_face_up", component=tile), "NOT_FACE_UP"),
        (bob.send("grab_face_down"), "HAND_FULL"),
        (bob.send("place", square=[1, 1], rotation=0), "SQUARE_NOT_ON_BOARD"),
        (ann.send("place", square=[7, 6], rotation=0), "NOTHING_IN_HAND"),
    ]
    for pending, code in cases:
        answer = await pending
        assert (answer["kind"], answer["error"]["code"]) == ("error", code), answer
    assert await last_seq(jetstream_store, game) == before
    await ann.send("finish")
    after_finish = await last_seq(jetstream_store, game)
    assert (await ann.send("grab_face_down"))["error"]["code"] == "ALREADY_FINISHED"
    assert await last_seq(jetstream_store, game) == after_finish
    await ann.close(), await bob.close()


async def test_the_engines_commands_are_accepted_as_legal_actions_lists_them(live, jetstream_store, vault):
    """Given a table, when a player sends the rules engine's commands (the shapes `legal_actions` lists),
    then they are moves like the short form; the hourglass goes by the service's clock; commands that
    are not building moves, unknown ones and malformed ones are refused with their codes, changing nothing."""
    from trucker_rules.game import GAME
    game = await new_game(jetstream_store, ["ann", "bob"], {"hourglass_seconds": 60}, vault=vault)
    ann = await Client.connect(live, game, "ann")
    offered = GAME.legal_actions(Folded(await jetstream_store.read(game_stream(game))).state, "ann")
    assert {"type": "GrabFaceDown"} in offered
    grabbed = await ann.send_command({"type": "GrabFaceDown"})
    assert grabbed["kind"] == "ack" and grabbed["events"][0]["type"] == "ComponentGrabbed"
    state = Folded(await jetstream_store.read(game_stream(game))).state
    place = next(a for a in GAME.legal_actions(state, "ann") if a["type"] == "PlaceComponent")
    assert (await ann.send_command(place))["kind"] == "ack"
    assert (await ann.send_command({"type": "Finish", "order_tile": 2}))["kind"] == "ack"
    before = await last_seq(jetstream_store, game)
    cases = [({"type": "RepairShip", "remove": []}, "NOT_A_REALTIME_MOVE"),
             ({"type": "CallTimeUp", "at": 1e12}, "NOT_A_REALTIME_MOVE"),
             ({"type": "ChoosePlanet", "planet": 1}, "NOT_A_REALTIME_MOVE"),
             ({"type": "Teleport"}, "UNKNOWN_OPERATION"),
             ({"type": "GrabFaceUp", "component": "X" * 40}, "MALFORMED_MESSAGE"),
             ({"type": "PlaceComponent", "square": [7, 99], "rotation": 0}, "MALFORMED_MESSAGE"),
             ({"type": "GrabFaceDown", "extra": 1}, "MALFORMED_MESSAGE"),
             ({"type": "StartBuilding", "at": 0}, "ALREADY_STARTED"),
             ({"type": "TurnTimer", "at": 1e12}, "SAND_STILL_RUNNING")]  # the service's clock, not the client's
    for command, code in cases:
        answer = await ann.send_command(command)
        assert (answer["kind"], answer["error"]["code"]) == ("error", code), (command, answer)
    assert await last_seq(jetstream_store, game) == before
    await ann.close()


async def test_fifty_two_clients_race_for_one_face_up_tile_and_exactly_one_wins(live, jetstream_store, vault):
    players = ["ann", "bob", "cy", "dee"]
    game = await new_game(jetstream_store, players, vault=vault)
    clients = [await Client.connect(live, game, players[i % 4]) for i in range(52)]
    tile = (await clients[0].send("grab_face_down"))["events"][0]["data"]["component"]
    await clients[0].send("return")
    answers = await asyncio.gather(*(c.send("grab_face_up", component=tile) for c in clients))
    winners = [a for a in answers if a["kind"] == "ack"]
    assert len(winners) == 1
    assert {a["error"]["code"] for a in answers if a["kind"] == "error"} <= {"NOT_FACE_UP", "HAND_FULL"}
    grabs = [e for e in await jetstream_store.read(game_stream(game))
             if e.type == "ComponentGrabbed" and e.data["component"] == tile and e.data["source"] == "face_up"]
    assert len(grabs) == 1 and grabs[0].seq == winners[0]["seq"]
    await asyncio.gather(*(c.close() for c in clients))


async def test_fifty_two_clients_race_for_the_last_order_tile_and_it_is_taken_once(live, jetstream_store, vault):
    players = ["ann", "bob", "cy", "dee"]
    game = await new_game(jetstream_store, players, vault=vault)
    clients = [await Client.connect(live, game, players[i % 4]) for i in range(52)]
    for index in range(3):   # ann, bob and cy finish; dee's thirteen sockets race the others for tile 4
        assert (await clients[index].send("finish", order_tile=index + 1))["kind"] == "ack"
    answers = await asyncio.gather(*(c.send("finish", order_tile=4) for c in clients))
    assert len([a for a in answers if a["kind"] == "ack"]) == 1
    finished = [e for e in await jetstream_store.read(game_stream(game)) if e.type == "ShipFinished"]
    assert sorted(e.data["order_tile"] for e in finished) == [1, 2, 3, 4]
    assert sorted(e.data["player"] for e in finished) == sorted(players)
    await asyncio.gather(*(c.close() for c in clients))


async def test_no_face_down_identity_reaches_anyone_before_it_is_grabbed(live, jetstream_store, vault):
    players = ["ann", "bob", "cy"]
    game = await new_game(jetstream_store, players, vault=vault)
    clients = {p: await Client.connect(live, game, p) for p in players}
    watcher = await Client.connect(live, game)

    async def build(player: str) -> None:
        client = clients[player]
        for _ in range(12):
            answer = await client.send("grab_face_down")
            if answer["kind"] != "ack":
                continue
            spot = legal_spot(_ship_from(client)(player), answer["events"][0]["data"]["component"])
            if spot:
                await client.send("place", square=list(spot[:2]), rotation=spot[2])
            else:
                await client.send("return")

    await asyncio.gather(*(build(p) for p in players))
    last = await last_seq(jetstream_store, game)
    for client in (*clients.values(), watcher):
        await client.wait_for_seq(last)
    envelopes = await jetstream_store.read(game_stream(game))
    assert "WarehouseShuffled" not in {e.type for e in envelopes}       # the stream holds no order
    pile = catalog.warehouse_ids()                                      # every tile that could be face down
    revealed = {e.data["component"]: e.seq for e in envelopes
                if e.type == "ComponentGrabbed" and e.data["source"] == "face_down"}
    assert revealed, "nobody grabbed anything"
    for envelope in envelopes:         # the stream itself names a face-down tile only from its grab on
        text = json.dumps({"data": envelope.data, "meta": envelope.meta})
        for tile in pile:
            if f'"{tile}"' in text:
                assert revealed.get(tile, 10**9) <= envelope.seq, f"{tile} is in the stream before its grab"
    for client in (*clients.values(), watcher):
        known = 0
        for message in client.received:
            text = json.dumps(message)
            known = max([known] + [int(s) for s in re.findall(r'"seq": (\d+)', text)])
            for tile in pile:
                if f'"{tile}"' in text:
                    assert revealed.get(tile, 10**9) <= known, f"{tile} reached a viewer before its grab"
    for client in (*clients.values(), watcher):
        await client.close()


def _ship_from(client: Client):
    """A player's ship as this socket was told it: the welcome view, then the socket's own acks."""
    from trucker_rules.ship import Placed, Ship

    def ship(player: str):
        mine = client.welcome["view"]["players"][player]["ship"]
        tiles = {tuple(t["square"]): Placed(t["component"], t["rotation"]) for t in mine["tiles"]}
        for answer in sorted((a for a in client.answers.values() if a["kind"] == "ack"), key=lambda a: a["seq"]):
            for event in answer["events"]:
                if event["type"] == "ComponentPlaced":
                    tiles[tuple(event["data"]["square"])] = Placed(event["data"]["component"],
                                                                   event["data"]["rotation"])
        return Ship(mine["board"], tiles)
    return ship


async def test_when_the_sand_runs_out_on_start_building_stops_and_its_end_is_recorded(live, jetstream_store, vault):
    game = await new_game(jetstream_store, ["ann", "bob"], {"hourglass_seconds": 0.2}, vault=vault)
    ann, bob = await Client.connect(live, game, "ann"), await Client.connect(live, game, "bob")
    await bob.send("grab_face_down")                      # bob still holds it when time is up
    refused = await ann.send("turn_timer")
    while refused["kind"] == "error" and refused["error"]["code"] == "SAND_STILL_RUNNING":
        await asyncio.sleep(0.05)
        refused = await ann.send("turn_timer")
    assert refused["error"]["code"] == "NOT_FINISHED"              # only a finished player may move it onto START
    assert (await ann.send("finish"))["kind"] == "ack"
    turned = await ann.send("turn_timer")
    assert turned["kind"] == "ack" and turned["events"][0]["data"]["timer_space"] == 0
    assert (await ann.send("turn_timer"))["error"]["code"] in ("TIMER_ON_START", "SAND_STILL_RUNNING", "TIME_UP",
                                                      "NOT_BUILDING")
    for _ in range(200):
        types = [e.type for e in await jetstream_store.read(game_stream(game))]
        if "BuildingEnded" in types:
            break
        await asyncio.sleep(0.05)
    envelopes = await jetstream_store.read(game_stream(game))
    ended = next(e for e in envelopes if e.type == "BuildingEnded")
    assert ended.data["reason"] == "time_up"
    after = [e for e in envelopes if e.seq > ended.seq]
    assert any(e.type == "ComponentReturned" and e.data["player"] == "bob" for e in after)
    assert any(e.type == "ShipFinished" and e.data == {"type": "ShipFinished", "v": 1, "player": "bob",
                                                       "order_tile": 2} for e in after)
    for _ in range(200):   # if the flight needed nobody, round 2 follows: wait until its building began
        state = Folded(await jetstream_store.read(game_stream(game))).state
        if state.phase != "building" or state.building_started:
            break
        await asyncio.sleep(0.05)
    assert_reruns_through_the_rules(await jetstream_store.read(game_stream(game)), await vault.get(game))
    answer = await bob.send("grab_face_down")
    if state.round == 1:
        assert answer["error"]["code"] in ("TIME_UP", "NOT_BUILDING")
    else:   # the flight needed nobody's decision and round 2's building began by itself
        assert answer["kind"] == "ack"
    await ann.close(), await bob.close()


async def test_health_readiness_and_metrics_are_served(live, jetstream_store, vault):
    import httpx
    from prometheus_client import generate_latest

    game = await new_game(jetstream_store, ["ann", "bob"], vault=vault)
    ann = await Client.connect(live, game, "ann")
    await ann.send("grab_face_down")
    base = live.replace("ws://", "http://")
    async with httpx.AsyncClient() as http:
        assert (await http.get(f"{base}/healthz")).json() == {"status": "ok"}
        assert (await http.get(f"{base}/readyz")).json() == {"status": "ready"}
        assert (await http.get(f"{base}/metrics")).status_code == 404     # not on the players' port
    # `python -m trucker` serves the registry on METRICS_PORT (starbase_core.health.serve_metrics).
    metrics = generate_latest().decode()
    assert 'trucker_moves_total{op="GrabFaceDown",outcome="acked"}' in metrics
    await ann.close()


async def test_a_ticket_opens_one_socket_and_a_forged_one_or_a_token_in_the_url_is_refused(
        nats_url, redis_url, namespace, jetstream_store, vault):
    import websockets
    from redis.asyncio import Redis
    from starbase_core import tickets
    from tests.trucker_service.live import in_process, settings_for

    settings = settings_for(nats_url, redis_url, namespace, trucker_trust_player_param=False)
    game = await new_game(jetstream_store, ["ann", "bob"], vault=vault)
    redis = Redis.from_url(redis_url, decode_responses=True)
    good = await tickets.issue(redis, tickets.Grant(player="ann"), 30)     # as the lobby's POST /tickets does

    async def connect(base: str, offered: list[str] | None = None, query: str = "") -> Client:
        socket = await websockets.connect(f"{base}/tables/{game}/ws{query}", subprotocols=offered, max_size=2**22)
        return Client(socket, json.loads(await socket.recv()))

    async with in_process(settings) as base:
        ann = await connect(base, tickets.subprotocols(good))
        assert ann.welcome["you"] == "ann" and ann.socket.subprotocol == tickets.PROTOCOL
        again = await connect(base, tickets.subprotocols(good))              # single use
        forged = await connect(base, tickets.subprotocols("a-guessed-ticket"))
        in_url = await connect(base, query="?token=anything")
        claimed = await connect(base, query="?player=bob")                   # ?player= is not trusted here
        assert [(c.welcome["kind"], c.welcome["error"]["code"]) for c in (again, forged, in_url)] == [
            ("error", "BAD_TICKET"), ("error", "BAD_TICKET"), ("error", "TOKEN_IN_URL")]
        assert claimed.welcome["you"] is None
        for client in (ann, again, forged, in_url, claimed):
            await client.close()
    await redis.aclose()


async def test_a_pile_s_cards_are_shown_only_to_the_player_holding_it(live, jetstream_store, vault):
    game = await new_game(jetstream_store, ["ann", "bob"], vault=vault)
    ann, bob = await Client.connect(live, game, "ann"), await Client.connect(live, game, "bob")
    watcher = await Client.connect(live, game)
    while True:   # ann must have built something before she may look
        grabbed = await ann.send("grab_face_down")
        spot = legal_spot(_ship_from(ann)("ann"), grabbed["events"][0]["data"]["component"])
        if spot:
            await ann.send("place", square=list(spot[:2]), rotation=spot[2])
            break
        await ann.send("return")
    looked = await ann.send("look_at_pile", pile=2)
    taken = next(e for e in await jetstream_store.read(game_stream(game)) if e.type == "PileTaken")
    assert len(looked["pile"]) == 2 and looked["pile"] == taken.data["cards"]   # drawn at this first look
    await bob.wait_for_seq(looked["seq"]), await watcher.wait_for_seq(looked["seq"])
    assert any(m.get("event", {}).get("type") == "PileTaken" for m in bob.received)
    for other in (bob, watcher):
        text = json.dumps(other.received)
        assert not any(f'"{card}"' in text for card in catalog.cards())       # no card reaches them
    await ann.close(), await bob.close(), await watcher.close()


async def test_a_socket_opened_before_its_game_is_stored_is_welcomed_once_it_is(live, jetstream_store, vault):
    """The lobby records GameStarted on the table before the game is stored, and a page following the
    table connects as soon as it reads "playing": the socket waits for the game instead of refusing a
    game that exists a moment later (the page would stay "not connected")."""
    game = "startingnow1"
    connecting = asyncio.create_task(Client.connect(live, game, "ann"))
    await asyncio.sleep(0.4)
    assert not connecting.done()
    await new_game(jetstream_store, ["ann", "bob"], vault=vault, game=game)
    ann = await asyncio.wait_for(connecting, 10)
    assert ann.welcome["kind"] == "welcome" and ann.welcome["you"] == "ann"
    assert ann.welcome["view"]["face_down_count"] == 140
    await ann.close()


async def test_a_socket_that_reads_the_game_between_its_creation_and_its_setup_waits_for_the_setup(
        live, jetstream_store, vault):
    """The adjudicator stores a game's creation and its setup in one append, but message by message: a
    socket reading in between saw a game with no round (refused NOT_A_TRUCKER_GAME, closed for good)."""
    connecting = []

    async def a_socket_arrives() -> None:
        connecting.append(asyncio.create_task(Client.connect(live, "halfmadenow1", "ann")))
        await asyncio.sleep(0.3)
        assert not connecting[0].done()

    await new_game(jetstream_store, ["ann", "bob"], vault=vault, game="halfmadenow1", before_setup=a_socket_arrives)
    ann = await asyncio.wait_for(connecting[0], 10)
    assert ann.welcome["kind"] == "welcome" and ann.welcome["you"] == "ann", ann.welcome
    await ann.close()


async def test_a_game_that_is_not_trucker_is_refused(live, jetstream_store):
    from starbase_core.gamestream import game_created

    game = "notatrucker1"
    await jetstream_store.append(game_stream(game), [game_created("moon21", ["ann", "bob"], {}, "0" * 64, 0)],
                                 expected_seq=0)
    client = await Client.connect(live, game, "ann")
    assert (client.welcome["kind"], client.welcome["error"]["code"]) == ("error", "NOT_A_TRUCKER_GAME")
    missing = await Client.connect(live, "nosuchgame1", "ann")
    assert missing.welcome["error"]["code"] == "NOT_A_TRUCKER_GAME"
    await client.close(), await missing.close()


async def test_a_socket_flooding_messages_is_refused_rate_limited_until_its_budget_refills(
        nats_url, redis_url, namespace, jetstream_store, vault):
    from tests.trucker_service.live import in_process, settings_for
    settings = settings_for(nats_url, redis_url, namespace, trucker_socket_messages_per_second=2,
                            trucker_socket_message_burst=3)
    async with in_process(settings) as base:
        game = await new_game(jetstream_store, ["ann", "bob"], vault=vault)
        ann, bob = await Client.connect(base, game, "ann"), await Client.connect(base, game, "bob")
        before, heard = await last_seq(jetstream_store, game), len(ann.received)
        for n in range(8):                              # sent at once, not waiting for the answers
            await ann.socket.send(json.dumps({"v": 1, "kind": "move", "id": f"f{n}", "op": "grab_face_down"}))
        for _ in range(3000):
            answers = [m for m in ann.received[heard:] if m["kind"] in ("ack", "error")]
            if len(answers) == 8:
                break
            await asyncio.sleep(0.01)
        limited = [a for a in answers if a["kind"] == "error" and a["error"]["code"] == "RATE_LIMITED"]
        # The burst's three are read (one grab, then a full hand); the rest refused unread, each naming
        # its move and when to send again.
        assert len(limited) >= 4 and all(0 < a["retry_after"] <= 0.5 for a in limited)
        assert [a["id"] for a in answers] == [f"f{n}" for n in range(8)]
        assert await last_seq(jetstream_store, game) == before + 1
        assert (await bob.send("grab_face_down"))["kind"] == "ack"     # bob's socket has a budget of its own
        await asyncio.sleep(max(a["retry_after"] for a in limited))
        assert (await ann.send("return"))["kind"] == "ack"             # refilled
        await ann.close(), await bob.close()
