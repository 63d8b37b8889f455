"""The chaos harness's and `make bench`'s game driver (`starbase_cli.loadgen`) against a real in-process stack: its figures must add up, and match the store.

Given a running lobby (real NATS JetStream, adjudicator over gRPC, lobby over HTTP + WebSocket),
when the load tool plays a few games with bots, then: sent == accepted + refused + unanswered; each
accepted command is in the store exactly once (and nothing refused is); every socket received every
event of its game; each round trip and each push was timed once; every finished game passes the audit.
"""
from __future__ import annotations

import asyncio
import contextlib
import gc
import io
import json

import pytest

from starbase_chaos.checker import check
from starbase_chaos.journal import Journal
from starbase_cli.loadclients import LobbyHttp
from starbase_cli.loadgen import (ATTEMPTS, Budget, LoadPlan, LoadReport, TableSlot, YoungCollections, render,
                                  run_load, summary)
from starbase_cli.loadworkers import merged_reason
from starbase_core.servers import free_port
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


@pytest.mark.parametrize("moves", ["http", "socket"])
async def test_a_whole_moon21_game_with_the_engines_bots(stack, moves):
    """21Moon hides nothing, so each bot folds what its socket showed and asks the engine for a move;
    each move goes as a POST, or over the player's own game socket."""
    journal = Journal()
    report = await run_load(LoadPlan(lobby=stack.http, game="moon21", tables=1, games=1, duration=120,
                                     max_commands=2000, moves=moves), journal=journal)
    figures = report.figures()
    verdict = await check(stack.store, journal, extra_games=set(figures["games"]["started_ids"]))
    assert verdict.failures() == [] and verdict.acknowledged == figures["commands"]["accepted"] > 100

    assert figures["bots"] == "engine" and figures["stopped"] == "games done"
    assert figures["games"]["finished"] == 1
    await check_against_the_store(stack, figures)


@pytest.mark.parametrize("moves", ["http", "socket"])
async def test_engine_bots_that_meet_hidden_cards_fall_back_to_the_lobbys_legal_actions(stack, moves):
    report = await run_load(LoadPlan(lobby=stack.http, game="testjack", tables=2, seats=2, games=2,
                                     duration=60, bots="engine", spectators=0, moves=moves))
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


async def test_tables_spread_over_worker_processes_add_up_exactly_and_journal_every_command(stack):
    """Two worker processes, each its own event loop: their figures merge into one report that still
    matches the store command for command, and every answer a worker got reaches the parent's journal."""
    journal = Journal()
    report = await run_load(LoadPlan(lobby=stack.http, game="moon21", tables=3, duration=60, max_commands=45,
                                     workers=2), journal=journal)
    figures = report.figures()

    assert figures["stopped"] == "command cap" and figures["commands"]["sent"] == 45
    assert figures["generator"]["processes"] == 2
    await check_against_the_store(stack, figures)
    assert len(journal.of("acknowledged")) == figures["commands"]["accepted"]
    assert len(journal.records) == figures["commands"]["sent"]
    assert len({record.command_id for record in journal.records}) == 45       # no id twice across workers
    verdict = await check(stack.store, journal, extra_games=set(figures["games"]["started_ids"]))
    assert verdict.failures() == [] and verdict.acknowledged == figures["commands"]["accepted"]


@pytest.mark.parametrize("bot_thread", [True, False], ids=["bots on their thread", "bots on the loop"])
async def test_the_generator_reports_its_own_cpu_and_event_loop_lag(stack, bot_thread):
    report = await run_load(LoadPlan(lobby=stack.http, game="moon21", tables=2, duration=60, max_commands=20,
                                     bot_thread=bot_thread))
    figures = report.figures()
    own = figures["generator"]
    await check_against_the_store(stack, figures)

    assert own["processes"] == 1 and own["cpu_s"] > 0
    assert 0 < own["bots_cpu_ms_per_accepted"] <= own["cpu_ms_per_accepted"]
    assert own["loop_lag_ms"]["n"] > 0 and own["loop_lag_ms"]["p50"] >= 0
    shown = render(report.figures())            # what make bench prints
    assert f"{report.sent} sent = {report.accepted} accepted + 0 refused + 0 unanswered" in shown
    assert "generator: 1 process(es)" in shown and "loop lag p50" in shown
    assert gc.isenabled()                       # the run gave the collector back as it found it


async def test_while_a_run_lasts_the_collector_takes_the_young_generations_on_a_timer():
    """Not whenever allocations say: a collection of the old generation (every table's folded game) is
    a pause of 100 ms or more in every round trip the generator times."""
    young = gc.get_stats()[1]["collections"]
    with pytest.raises(RuntimeError):
        async with YoungCollections():
            assert not gc.isenabled()
            await asyncio.sleep(YoungCollections.YOUNG_EVERY * 3.5)
            assert gc.get_stats()[1]["collections"] >= young + 3
            raise RuntimeError("a run that fails")
    assert gc.isenabled()


async def test_a_command_nobody_answers_is_retried_under_its_id_and_counted_unanswered_once():
    """Against a port where nothing listens: every attempt fails in transport, and the command is sent
    once, unanswered once, journalled once, never refused or accepted."""
    journal = Journal()
    plan = LoadPlan(lobby=f"http://127.0.0.1:{free_port()}", tables=1, spectators=0)
    report = LoadReport(plan=plan)
    async with LobbyHttp(plan.lobby, 4) as http:
        slot = TableSlot(0, plan, http, report, Budget(plan), None, "actions", "run", journal)
        slot.auth = {"p1": {"Authorization": "Bearer x"}}
        assert await slot.send("g1", "p1", {"type": "Pass"}) is None

    assert (report.sent, report.accepted, report.refused, report.unanswered) == (1, 0, 0, 1)
    assert sum(report.errors.values()) == ATTEMPTS
    assert all(kind.startswith("command transport error (") for kind in report.errors)
    assert [(r.game_id, r.command_id, r.outcome) for r in journal.records] == [("g1", "p1:run-0-1", "unanswered")]


def test_workers_reports_merge_into_one_whose_counts_still_add_up():
    plan = LoadPlan()
    one = LoadReport(plan=plan, sent=5, accepted=3, refused=1, unanswered=1, round_trips=[0.01, 0.02, 0.03],
                     cpu=1.0, elapsed=9.5, loop_lags=[0.001], started_games=["a"])
    two = LoadReport(plan=plan, sent=4, accepted=4, round_trips=[0.04] * 4, cpu=0.5, elapsed=10.0,
                     loop_lags=[0.002, 0.003], started_games=["b"])
    one.refused_codes["NOT_YOUR_TURN"] += 1
    two.errors["socket closed by the server (code 1006); resumed"] += 1
    one.merge(two)

    assert (one.sent, one.accepted, one.refused, one.unanswered) == (9, 7, 1, 1)
    assert one.sent == one.accepted + one.refused + one.unanswered
    assert summary(one.round_trips)["n"] == 7 and one.started_games == ["a", "b"]
    assert one.elapsed == 10.0 and one.cpu == 1.5 and len(one.loop_lags) == 3
    assert one.refused_codes == {"NOT_YOUR_TURN": 1} and sum(one.errors.values()) == 1
    assert merged_reason(["games done", "command cap"]) == "command cap"
    assert merged_reason(["games done", "games done"]) == "games done"
    assert merged_reason(["duration", "every table stopped (see errors)"]) == "duration"
    assert merged_reason(["games done", "every table stopped (see errors)"]) == "every table stopped (see errors)"
