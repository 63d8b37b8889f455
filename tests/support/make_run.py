"""`make run` (python -m starbase_cli.run) started on free ports of its own, in a run directory of the
test, without any credential of the caller's environment; Ctrl-C (SIGINT) when the block ends."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from starbase_core.servers import free_port

PORTS = ("LOBBY_PORT", "NATS_PORT", "REDIS_PORT", "ADJUDICATOR_PORT", "TRUCKER_PORT")
CALLER_CREDENTIALS = ("LOBBY_SECRET", "NATS_NKEY_FILE", "INSECURE_DEV_MODE", "NATS_URL", "REDIS_URL")


@dataclass
class Run:
    ports: dict[str, str]
    env: dict[str, str]
    printed: list[str] = field(default_factory=list)     # up to "Ctrl-C stops everything" (or its failure)
    rest: str = ""                                        # what it printed while stopping
    returncode: int | None = None

    @property
    def text(self) -> str:
        return "".join(self.printed)


@contextmanager
def make_run(run_dir: Path) -> Iterator[Run]:
    ports = {name: str(free_port()) for name in PORTS}
    env = {**os.environ, **ports, "STARBASE_RUN_DIR": str(run_dir)}
    for own in CALLER_CREDENTIALS:
        env.pop(own, None)
    run = Run(ports, env)
    runner = subprocess.Popen([sys.executable, "-m", "starbase_cli.run"], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    try:
        for line in runner.stdout:
            run.printed.append(line)
            if "Ctrl-C stops everything" in line or "could not keep running" in line:
                break
        yield run
    finally:
        runner.send_signal(signal.SIGINT)
        run.rest, _ = runner.communicate(timeout=90)
        run.returncode = runner.returncode
