"""`starbase audit | log | export` against a live JetStream stream and an exported file."""
from __future__ import annotations

import asyncio
import json

import pytest

from adjudicator.service import Adjudicator
from starbase_cli.audit import EXIT_FAILED, EXIT_OK, EXIT_UNFINISHED, main
from starbase_core.seeds import MemorySeedVault
from starbase_core.store_jetstream import JetStreamEventStore
from tests.support import testjack
from tests.support.play import play_to_end

testjack.register()
pytestmark = pytest.mark.integration


@pytest.fixture
def live_game(nats_url, namespace):
    """A finished game and an unfinished one in their own JetStream stream: (CLI source options, ids)."""
    name, prefix = f"A_{namespace}", namespace

    async def play():
        store = await JetStreamEventStore.connect(nats_url, name=name, subject_prefix=prefix)
        adjudicator = Adjudicator(store, MemorySeedVault())
        for game_id in ("done", "going"):
            await adjudicator.create_game(game_id, "testjack", ["ann", "bob"], {})
        await play_to_end(adjudicator, store, "done", seed=5)
        await adjudicator.submit("going", "ann", {"type": "Draw"}, "c1")
        await store.close()

    async def clean():
        store = await JetStreamEventStore.connect(nats_url, name=name, subject_prefix=prefix, ensure=False)
        await store._js.delete_stream(name)
        await store.close()

    asyncio.run(play())
    yield ["--nats-url", nats_url, "--event-stream", name, "--subject-prefix", prefix]
    asyncio.run(clean())


def test_audit_passes_on_a_played_game_read_from_jetstream(live_game, capsys):
    assert main(["audit", "done", *live_game]) == EXIT_OK
    out = capsys.readouterr().out
    assert "VERDICT: PASS" in out and "re-derived from the seed" in out


def test_audit_of_a_game_in_progress_says_so_and_exits_non_zero(live_game, capsys):
    assert main(["audit", "going", *live_game]) == EXIT_UNFINISHED
    assert "VERDICT: UNFINISHED" in capsys.readouterr().out


def test_audit_of_an_unknown_game_fails(live_game, capsys):
    assert main(["audit", "nosuch", *live_game]) == EXIT_FAILED
    assert "VERDICT: FAIL" in capsys.readouterr().out


def test_log_prints_one_readable_line_per_event(live_game, capsys):
    assert main(["log", "done", *live_game]) == EXIT_OK
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("#1") and "GameCreated" in lines[0]
    assert "GameEnded" in lines[-1]


def test_an_export_audits_clean_and_an_altered_export_fails(live_game, tmp_path, capsys):
    exported = tmp_path / "done.jsonl"
    assert main(["export", "done", *live_game, "-o", str(exported)]) == EXIT_OK
    assert main(["audit", "done", "--file", str(exported)]) == EXIT_OK
    lines = exported.read_text().splitlines()
    drawn = next(i for i, line in enumerate(lines) if '"CardDrawn"' in line)
    event = json.loads(lines[drawn])
    event["data"]["card"] = event["data"]["card"] % 10 + 1
    lines[drawn] = json.dumps(event)
    altered = tmp_path / "altered.jsonl"
    altered.write_text("\n".join(lines) + "\n")
    capsys.readouterr()
    assert main(["audit", "done", "--file", str(altered)]) == EXIT_FAILED
    assert "VERDICT: FAIL" in capsys.readouterr().out


def test_an_unreadable_file_fails_clearly(tmp_path, capsys):
    broken = tmp_path / "broken.jsonl"
    broken.write_text("not json\n")
    assert main(["audit", "g", "--file", str(broken)]) == EXIT_FAILED
    assert "line 1" in capsys.readouterr().err
