"""`make run` (python -m starbase_cli.run): everything starts, answers, and stops cleanly on Ctrl-C."""
import json
import os
import signal
import subprocess
import sys
import urllib.request

import pytest

from starbase_core.servers import free_port

pytestmark = [pytest.mark.integration, pytest.mark.timeout(180)]


def test_run_starts_every_service_prints_the_urls_and_stops_on_ctrl_c(tmp_path):
    ports = {name: str(free_port()) for name in
             ("LOBBY_PORT", "NATS_PORT", "REDIS_PORT", "ADJUDICATOR_PORT", "TRUCKER_PORT")}
    env = {**os.environ, **ports, "STARBASE_RUN_DIR": str(tmp_path / "run")}
    env.pop("LOBBY_SECRET", None)
    runner = subprocess.Popen([sys.executable, "-m", "starbase_cli.run"], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    printed = []
    try:
        for line in runner.stdout:
            printed.append(line)
            if "Ctrl-C stops everything" in line or "could not keep running" in line:
                break
        text = "".join(printed)
        assert f"http://127.0.0.1:{ports['LOBBY_PORT']}" in text, text
        for name in ("adjudicator", "scoring", "NATS", "Redis"):
            assert name in text, text
        with urllib.request.urlopen(f"http://127.0.0.1:{ports['LOBBY_PORT']}/readyz", timeout=10) as reply:
            assert json.load(reply) == {"status": "ready"}
    finally:
        runner.send_signal(signal.SIGINT)
        rest, _ = runner.communicate(timeout=90)
    assert runner.returncode == 0, text + rest
    assert rest.strip().endswith("Stopped."), rest
    assert (tmp_path / "run" / "credentials" / "lobby_secret").exists()
