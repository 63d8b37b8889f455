"""A whole Trucker game, written to a stream exactly as the platform writes one (GameCreated, the setup,
each command's events with `meta.command` and the draw counter, GameEnded with the seed), passes the
platform's audit: the hash chain, the seed commitment and a re-run of every command and draw, every
face-down grab included. (The game through the real services: tests/trucker_service/test_whole_game.py.)
Also: the adjudicator refuses commands while a round is building (the trucker service writes then)."""
from __future__ import annotations

import asyncio
import random

import pytest

from adjudicator.service import Adjudicator
from starbase_core.audit import PASS, audit_game
from starbase_core.envelope import hash_of
from starbase_core.gamestream import ends_game, game_created, game_ended, replay, wrap
from starbase_core.seeds import MemorySeedVault
from starbase_core.store_memory import MemoryEventStore
from starbase_rules import RuleViolation
from starbase_rules.fair import FairRng, commitment
from starbase_rules.registry import get_game
from trucker_rules.game import GAME
from trucker_rules.state import BUILDING

SEED = b"a seed revealed at the end"


async def _write_whole_game(store, game: str, players: list[str], bot_seed: int) -> None:
    """One writer deciding every command with the engine, as the adjudicator and the trucker service do."""
    stream, bots = f"game.{game}", random.Random(bot_seed)
    rng = FairRng(SEED)
    setup = GAME.setup(players, {}, rng)
    await store.append(stream, [game_created("trucker", players, {}, commitment(SEED), rng.used)], expected_seq=0)
    last = (await store.append(stream, wrap(setup, actor=None, draw_end=rng.used), expected_seq=1))[-1].seq
    state, draw_end = GAME.initial_state(), rng.used
    for event in setup:
        state = GAME.evolve(state, event)
    for _ in range(20000):
        if state.phase == BUILDING and not state.building_started:
            actor, command = None, {"type": "StartBuilding", "at": 0.0}
        else:
            actor = bots.choice(GAME.to_act(state))
            command = GAME.bot_command(state, actor, bots).model_dump(mode="json")
        rng = FairRng(SEED, start=draw_end)
        events = GAME.decide(state, GAME.parse_command(command), actor, rng)
        for event in events:
            state = GAME.evolve(state, event)
        new = wrap(events, actor=actor, draw_end=rng.used, command=command)
        if (outcome := GAME.outcome(state)) is not None:
            new.append(game_ended(outcome, SEED, rng.used))
        last = (await store.append(stream, new, expected_seq=last))[-1].seq
        draw_end = rng.used
        if outcome is not None:
            return
    raise AssertionError("the game did not end")


def test_a_whole_trucker_game_as_the_platform_stores_it_passes_the_audit():
    store = MemoryEventStore()
    asyncio.run(_write_whole_game(store, "t1", ["ann", "bob", "cyd"], bot_seed=5))
    stream = asyncio.run(store.read("game.t1"))
    assert ends_game(stream[-1]) and stream[-1].data["seed"] == SEED.hex()
    assert sum(1 for e in stream if e.type == "ComponentGrabbed" and e.data["source"] == "face_down") > 20
    report = audit_game("t1", stream, get_game)
    assert report.verdict == PASS, report.render()
    tampered = list(stream)
    index = next(i for i, e in enumerate(stream) if e.type == "ComponentGrabbed" and e.data["source"] == "face_down")
    other = next(e.data["component"] for e in stream[index + 1:] if e.type == "ComponentGrabbed")
    tampered[index] = stream[index].model_copy(update={"data": {**stream[index].data, "component": other}})
    assert audit_game("t1", tampered, get_game).verdict != PASS


def test_the_audit_leaves_a_client_request_id_out_of_the_comparison_but_not_other_meta():
    """The trucker service records each move's client id as `meta.request_id` (rules cannot re-derive
    it): a stream carrying it passes; any other meta key added or changed still fails."""
    store = MemoryEventStore()
    asyncio.run(_write_whole_game(store, "t3", ["ann", "bob"], bot_seed=8))
    stream = asyncio.run(store.read("game.t3"))

    def resealed(change) -> list:
        envelopes, prev_hash = [], stream[0].prev_hash
        for envelope in stream:
            meta = change(envelope) if "command" in envelope.meta else envelope.meta
            body = envelope.model_dump(exclude={"hash"}) | {"meta": meta, "prev_hash": prev_hash}
            envelopes.append(type(envelope)(**body, hash=hash_of(body)))
            prev_hash = envelopes[-1].hash
        return envelopes

    with_ids = resealed(lambda e: {**e.meta, "request_id": f"{e.actor}:{e.seq}"})
    assert audit_game("t3", with_ids, get_game).verdict == PASS
    assert audit_game("t3", resealed(lambda e: {**e.meta, "note": "x"}), get_game).verdict != PASS
    assert audit_game("t3", resealed(lambda e: {**e.meta, "draw_end": e.meta["draw_end"] + 1}),
                      get_game).verdict != PASS


def test_the_adjudicator_refuses_commands_while_a_round_is_building():
    async def scenario():
        store, vault = MemoryEventStore(), MemorySeedVault()
        adjudicator = Adjudicator(store, vault)
        await adjudicator.create_game("t2", "trucker", ["ann", "bob"], {})
        before = await store.last_seq("game.t2")
        for command in ({"type": "StartBuilding", "at": 0.0}, {"type": "GrabFaceDown"}, {"type": "GiveUp"}):
            with pytest.raises(RuleViolation) as refused:
                await adjudicator.submit("t2", "ann", command, f"c-{command['type']}")
            assert refused.value.code == "REALTIME_PHASE"
        assert await store.last_seq("game.t2") == before          # nothing was appended
        assert replay("t2", await store.read("game.t2"), get_game).state.phase == BUILDING

    asyncio.run(scenario())
