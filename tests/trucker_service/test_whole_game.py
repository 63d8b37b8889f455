"""A whole Trucker game through the services, on one game stream: every building round through the
real-time service's WebSocket (it appends while a round is building), the repair and the flight through
the adjudicator (it appends the rest), three rounds to `GameEnded` with the seed; then the platform's
audit re-derives everything from the seed, every face-down grab included.

Given a game created by the adjudicator (seed in the shared vault), when bots play it, then:
- the adjudicator refuses every command while a round is building (REALTIME_PHASE), and the service
  refuses building moves outside building (NOT_BUILDING), each changing nothing;
- the stream ends with GameEnded revealing the seed, and `starbase_core.audit` and `starbase audit` pass.
"""
from __future__ import annotations

import os
import random
import subprocess
import sys
import uuid

import pytest

from adjudicator.service import Adjudicator
from starbase_core.audit import PASS, audit_game
from starbase_core.gamestream import ends_game, game_stream
from starbase_rules import RuleViolation
from starbase_rules.registry import get_game
from trucker_rules.game import GAME
from trucker_rules.state import BUILDING

from tests.trucker_service.helpers import FoldedStream
from tests.trucker_service.live import Client

pytestmark = [pytest.mark.integration, pytest.mark.timeout(300)]


async def test_a_whole_game_through_the_trucker_service_and_the_adjudicator_passes_the_audit(
        live, jetstream_store, vault, nats_url, namespace):
    players = ["ann", "bob", "cy"]
    game = f"w{uuid.uuid4().hex[:10]}"
    adjudicator = Adjudicator(jetstream_store, vault)
    await adjudicator.create_game(game, "trucker", players, {"hourglass_seconds": 600})
    sockets = {p: await Client.connect(live, game, p) for p in players}   # a player arriving opens round 1
    stream, bots = FoldedStream(jetstream_store, game), random.Random(11)
    built_rounds, flown_rounds, commands = set(), set(), 0

    while not (stream.envelopes and ends_game(stream.envelopes[-1])):
        commands += 1
        assert commands < 5000, "the game did not end"
        state = (await stream.catch_up()).state
        if stream.envelopes and ends_game(stream.envelopes[-1]):
            break
        if state.phase == BUILDING:
            if state.round not in built_rounds:    # once a round: the adjudicator is not the writer now
                built_rounds.add(state.round)
                before = stream.folded.seq
                with pytest.raises(RuleViolation) as refused:
                    await adjudicator.submit(game, "ann", {"type": "GrabFaceDown"}, f"adj-{state.round}")
                assert refused.value.code == "REALTIME_PHASE"
                assert await jetstream_store.last_seq(game_stream(game)) == before
            builders = [p for p in players if state.seats[p].order_tile is None]
            actor = bots.choice(builders)
            command = GAME.bot_command(state, actor, bots)
            # The engine's own command goes over the socket; a round the adjudicator started (the bots
            # then send StartBuilding) is opened and started by the service for that move.
            answer = await sockets[actor].send_command(command.model_dump(mode="json"))
            assert answer["kind"] == "ack", (command, answer)
        else:
            if state.round not in flown_rounds:     # once a round: the service takes no building move now
                flown_rounds.add(state.round)
                answer = await sockets["bob"].send("grab_face_down")
                assert (answer["kind"], answer["error"]["code"]) == ("error", "NOT_BUILDING")
            actor = bots.choice(GAME.to_act(state))
            command = GAME.bot_command(state, actor, bots).model_dump(mode="json")
            await adjudicator.submit(game, actor, command, f"adj-move-{commands}")

    envelopes = stream.envelopes
    assert built_rounds == {1, 2, 3}
    assert [e.data["round"] for e in envelopes if e.type == "RoundStarted"] == [1, 2, 3]
    assert [e.type for e in envelopes].count("BuildingStarted") == 3          # each round opened once
    by_service = [e for e in envelopes if e.type == "ComponentGrabbed"]
    assert by_service and all(e.command_id and ":" in e.command_id for e in by_service)   # service command ids
    final = envelopes[-1]
    assert final.type == "GameEnded" and bytes.fromhex(final.data["seed"]) == await vault.get(game)
    report = audit_game(game, envelopes, get_game)
    assert report.verdict == PASS, report.render()

    # The platform's command line audits it from NATS too.
    audit = subprocess.run(
        [sys.executable, "-m", "starbase_cli.main", "audit", game, "--nats-url", nats_url,
         "--event-stream", jetstream_store.name, "--subject-prefix", namespace],
        capture_output=True, text=True, timeout=120, env=dict(os.environ))
    assert audit.returncode == 0, audit.stdout + audit.stderr
    for client in sockets.values():
        await client.close()
