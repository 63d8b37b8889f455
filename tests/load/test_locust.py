"""The Locust scenario against a real stack (NATS JetStream, adjudicator over gRPC, lobby over HTTP + WebSocket).

A bounded headless run must end with Locust's exit status 0 (no request failed), real games played
(commands acknowledged, pushes timed on sockets, games started), and the store check's verdict: every
acknowledged command stored exactly once, nothing refused stored, every finished game audited. The same
with a master and two worker processes: both workers' journals reach the master and are checked.
"""
from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from starbase_load.run import Plan, run

pytestmark = [pytest.mark.integration, pytest.mark.timeout(300)]

MUST_BE_ZERO = ("lost", "duplicated", "refused_but_applied", "chain_breaks", "audit_failed", "unanswered")


def plan_for(stack, namespace: str, out: Path, **changes) -> Plan:
    fields = dict(lobby=stack.http, games=["moon21"], seats=2, users=5, spectators=1, duration=20,
                  think=0.1, out=out, nats=stack.settings.nats_url, stream=f"ES{namespace}", prefix=namespace)
    return Plan(**{**fields, **changes})


def rows_by(result, kind: str) -> dict[str, dict]:
    return {row["Name"]: row for row in result.rows if row["Type"] == kind}


def assert_a_clean_run(result, users: int) -> None:
    verdict = result.verdict
    assert verdict is not None, (result.out / "locust.log").read_text()[-3000:]
    assert verdict["failures"] == [], verdict
    assert all(verdict[key] == 0 for key in MUST_BE_ZERO), verdict
    assert verdict["acknowledged"] > 0 and verdict["games"] >= 1
    assert result.exit_code == 0, (result.out / "locust.log").read_text()[-3000:]
    commands = rows_by(result, "COMMAND")
    timed = sum(int(row["Request Count"]) for row in commands.values())
    # Every acknowledged command was timed, except one per player at most: a command whose answer came
    # as the run stopped is in the journal (so the check holds it to the store) but past Locust's stats.
    assert 0 <= verdict["acknowledged"] - timed <= users and timed > 0
    assert set(commands) == {"moon21"}
    pushes = rows_by(result, "PUSH")
    assert int(pushes["event -> player socket"]["Request Count"]) > 0
    assert int(pushes["event -> spectator socket"]["Request Count"]) > 0
    assert int(rows_by(result, "GAME")["started moon21"]["Request Count"]) >= 1
    assert (result.out / "report.html").stat().st_size > 0


@pytest.mark.parametrize("moves", ["socket", "http"])
async def test_a_bounded_headless_run_plays_real_games_and_the_store_holds_every_acknowledged_command(
        stack, namespace, tmp_path, moves):
    """Players move on their game sockets (as the web client does), or by POST."""
    result = await asyncio.to_thread(run, plan_for(stack, namespace, tmp_path, moves=moves))
    assert_a_clean_run(result, users=5)
    assert result.verdict["journals"] == 1
    posted = int(rows_by(result, "POST").get("/games/[id]/commands", {}).get("Request Count", 0))
    timed = sum(int(row["Request Count"]) for row in rows_by(result, "COMMAND").values())
    if moves == "http":
        assert posted >= timed
    else:       # on the sockets, but a move made before its player's socket had opened (one each at most)
        assert posted <= 5 < timed, (posted, timed)


async def test_a_master_and_two_workers_share_the_users_and_both_journals_are_checked(stack, namespace, tmp_path):
    result = await asyncio.to_thread(run, plan_for(stack, namespace, tmp_path, users=6, workers=2))
    assert_a_clean_run(result, users=6)
    journals = sorted((tmp_path / "journal").rglob("journal-*.jsonl"))
    assert result.verdict["journals"] == len(journals) >= 2
    assert all(path.stat().st_size > 0 for path in journals)


def test_a_plan_without_players_or_with_an_unknown_game_is_refused_before_anything_runs(tmp_path):
    with pytest.raises(ValueError, match="someone has to play"):
        Plan(lobby="http://127.0.0.1:1", users=1, spectators=1, out=tmp_path).arguments()
    with pytest.raises(ValueError, match="no players for chess"):
        Plan(lobby="http://127.0.0.1:1", games=["chess"], out=tmp_path).arguments()
    assert not any(tmp_path.iterdir())


async def test_starbase_load_runs_the_scenario_and_prints_its_figures_and_the_verdict(stack, namespace, tmp_path):
    import contextlib
    import io
    import json

    from starbase_cli.main import main

    argv = ["load", "--lobby", stack.http, "--game", "moon21", "--seats", "2", "--users", "3", "--spectators", "1",
            "--duration", "15", "--think", "0.1", "--out", str(tmp_path), "--nats", stack.settings.nats_url,
            "--stream", f"ES{namespace}", "--prefix", namespace, "--json"]
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exit_code = await asyncio.to_thread(main, argv)
    text = "\n" + printed.getvalue()
    figures = json.loads(text[text.rindex("\n{\n"):])
    assert exit_code == figures["exit_code"] == 0, figures
    assert figures["verdict"]["failures"] == [] and figures["verdict"]["acknowledged"] > 0
    assert any(row["type"] == "COMMAND" and row["name"] == "moon21" and row["count"] > 0 for row in figures["rows"])
