"""The chaos harness's and `make bench`'s game driver (`starbase_cli.loadgen`) against a real in-process stack: its figures must add up, and match the store.

Given a running lobby (real NATS JetStream, adjudicator over gRPC, lobby over HTTP + WebSocket),
when the load tool plays a few games with bots, then: sent == accepted + refused + unanswered; each
accepted command is in the store exactly once (and nothing refused is); every socket received every
event of its game; each round trip and each push was timed once; every finished game passes the audit.
"""
from __future__ import annotations

import asyncio
import contextlib
import io
import json

import pytest

from starbase_cli.loadgen import LoadPlan, run_load, summary
from starbase_load.target import target_problem
from starbase_cli.main import main
from starbase_core.audit import PASS, audit_game
from starbase_rules.registry import get_game

pytestmark = [pytest.mark.integration, pytest.mark.timeout(180)]


async def check_against_the_store(stack, figures: dict) -> None:
    commands, games, pushes = figures["commands"], figures["games"], figures["pushes"]
    assert commands["sent"] == commands["accepted"] + commands["refused"] + commands["unanswered"]
    assert commands["unanswered"] == 0 and figures["errors"] == {}
    assert commands["refused"] == sum(commands["refused_codes"].values())
    assert figures["round_trip_ms"]["n"] == commands["accepted"]

    stored = {game_id: await stack.store.read(f"game.{game_id}") for game_id in games["started_ids"]}
    # One envelope per accepted command carries it (meta.command); refused ones left nothing behind.
    assert sum(1 for envelopes in stored.values() for e in envelopes if "command" in e.meta) == commands["accepted"]
    sockets_per_game = figures["seats"] + figures["spectators"]
    assert pushes["sockets"] == sockets_per_game * len(stored)
    assert pushes["events"] == sockets_per_game * sum(len(envelopes) for envelopes in stored.values())
    events_from_commands = 0
    for envelopes in stored.values():
        played = {e.command_id for e in envelopes if "command" in e.meta}
        events_from_commands += sum(1 for e in envelopes if e.command_id in played)
    assert pushes["command_to_push_ms"]["n"] == sockets_per_game * events_from_commands

    assert set(games["finished_ids"]) <= set(games["started_ids"])
    for game_id in games["finished_ids"]:
        assert stored[game_id][-1].type == "GameEnded"
        assert audit_game(game_id, stored[game_id], get_game).verdict == PASS
    for game_id in set(games["started_ids"]) - set(games["finished_ids"]):
        assert stored[game_id][-1].type != "GameEnded"


async def test_a_whole_moon21_game_with_the_engines_bots(stack):
    """21Moon hides nothing, so each bot folds what its socket showed and asks the engine for a move."""
    report = await run_load(LoadPlan(lobby=stack.http, game="moon21", tables=1, games=1, duration=120,
                                     max_commands=2000))
    figures = report.figures()

    assert figures["bots"] == "engine" and figures["stopped"] == "games done"
    assert figures["games"]["finished"] == 1
    await check_against_the_store(stack, figures)


async def test_engine_bots_that_meet_hidden_cards_fall_back_to_the_lobbys_legal_actions(stack):
    report = await run_load(LoadPlan(lobby=stack.http, game="testjack", tables=2, seats=2, games=2,
                                     duration=60, bots="engine", spectators=0))
    figures = report.figures()
    assert figures["bots"] == "engine" and figures["stopped"] == "games done"
    assert figures["games"]["finished"] == 2
    assert figures["action_reads"] > 0          # the fallback asked the lobby
    await check_against_the_store(stack, figures)


async def test_the_command_cap_stops_the_run(stack):
    report = await run_load(LoadPlan(lobby=stack.http, game="testjack", tables=2, seats=2, duration=60,
                                     max_commands=7, spectators=0))
    figures = report.figures()
    assert figures["stopped"] == "command cap"
    assert figures["commands"]["sent"] == 7
    await check_against_the_store(stack, figures)


def test_percentiles_are_exact_nearest_rank_over_every_sample():
    samples = [ms / 1000 for ms in range(100, 0, -1)]          # 1 … 100 ms, in any order
    assert summary(samples) == {"n": 100, "p50": 50.0, "p90": 90.0, "p99": 99.0, "max": 100.0}
    assert summary([0.007]) == {"n": 1, "p50": 7.0, "p90": 7.0, "p99": 7.0, "max": 7.0}
    assert summary([]) == {"n": 0}


def test_only_this_machine_is_a_target_unless_remote_is_allowed():
    assert target_problem("http://127.0.0.1:8000", False) is None
    assert target_problem("http://localhost:8000", False) is None
    assert target_problem("http://[::1]:8000", False) is None
    assert "--allow-remote" in target_problem("http://10.1.2.3:8000", False)
    assert target_problem("http://10.1.2.3:8000", True) is None
    assert target_problem("ftp://127.0.0.1", True) is not None
    assert target_problem("127.0.0.1:8000", False) is not None


def test_the_cli_refuses_a_remote_lobby_without_asking_it_anything():
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert main(["load", "--lobby", "http://10.1.2.3:8000", "--duration", "1"]) == 2
    assert "--allow-remote" in printed.getvalue()
