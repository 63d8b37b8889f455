"""A headless run of the scenario as processes: one, or a master and workers on this machine.

    result = run(Plan(lobby="http://127.0.0.1:8000", games=["moon21"], users=6, duration=60, out=Path("out")))
    result.exit_code, result.verdict, result.rows          # Locust's exit status, the check, the figures

This is what `starbase load`, the chaos harness and `make bench` use; it imports neither Locust nor
gevent (the runs are child processes), so asyncio code can call it. The same command lines, with
`--master-bind-host`/`--master-host` set to real addresses, run a master and workers on many machines
(docs/load-testing.md).
"""
from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from starbase_core.servers import free_port

CLASSES = {"moon21": "Moon21Player", "t2038": "T2038Player", "stellar": "StellarPlayer", "trucker": "TruckerPlayer"}
STOP_MARGIN = 120.0       # seconds past the duration before the run's processes are stopped by force


@dataclass
class Plan:
    lobby: str
    games: list[str] = field(default_factory=lambda: ["moon21"])
    users: int = 6                      # players and spectators, in all
    spectators: int = 1
    spawn_rate: float = 0.0             # users started per second (0: all within about 2 s)
    duration: float = 60.0
    max_games: int = 0
    max_commands: int = 0
    seats: int = 0
    options: dict = field(default_factory=dict)
    bots: str = "auto"
    think: float = 1.0
    accounts: str = "guest"
    moves: str = "socket"               # socket (each move on the player's game socket) or http (POST)
    workers: int = 0                    # 0: one process; N: a master and N worker processes
    out: Path = Path(".load")
    check: bool = True
    nats: str = "nats://127.0.0.1:4222"
    stream: str = "STARBASE"
    prefix: str = "sb"
    redis: str = ""
    allow_remote: bool = False
    master_port: int = 0                # 0: a free one

    def classes(self) -> list[str]:
        unknown = [g for g in self.games if g not in CLASSES]
        if unknown:
            raise ValueError(f"no players for {', '.join(unknown)}: choose from {', '.join(CLASSES)}")
        return [CLASSES[g] for g in self.games] + (["Spectator"] if self.spectators else [])

    def arguments(self) -> list[str]:
        """Locust's and the scenario's options for the master (or the single process)."""
        if self.users <= self.spectators:
            raise ValueError("--users must be more than --spectators: someone has to play")
        rate = self.spawn_rate or max(1.0, self.users / 2)
        args = ["--headless", "-H", self.lobby, "-u", str(self.users), "-r", f"{rate:g}",
                "-t", f"{max(1, round(self.duration))}s", "--html", str(self.out / "report.html"),
                "--csv", str(self.out / "load"), "--only-summary",
                "--starbase-journal-dir", str(self.out / "journal"), "--starbase-bots", self.bots,
                "--starbase-think", f"{self.think:g}", "--starbase-accounts", self.accounts,
                "--starbase-moves", self.moves,
                "--starbase-options", json.dumps(self.options), "--starbase-check", "on" if self.check else "off",
                "--starbase-nats", self.nats, "--starbase-stream", self.stream, "--starbase-prefix", self.prefix]
        for flag, value in (("--starbase-seats", self.seats), ("--starbase-games", self.max_games),
                            ("--starbase-max-commands", self.max_commands), ("--starbase-spectators", self.spectators)):
            if value:
                args += [flag, str(value)]
        if self.redis:
            args += ["--starbase-redis", self.redis]
        if self.allow_remote:
            args.append("--starbase-allow-remote")
        return args + self.classes()


@dataclass
class Result:
    exit_code: int
    out: Path
    verdict: dict | None
    rows: list[dict]                    # Locust's aggregated statistics, one per (type, name)


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "starbase_load", *args]


def run(plan: Plan, log_name: str = "locust.log") -> Result:
    plan.out.mkdir(parents=True, exist_ok=True)
    with open(plan.out / log_name, "ab") as log:
        if plan.workers:
            port = plan.master_port or free_port()
            master = _start(command(*plan.arguments(), "--master", "--expect-workers", str(plan.workers),
                                    "--master-bind-host", "127.0.0.1", "--master-bind-port", str(port)), log)
            workers = [_start(command("--worker", "--master-host", "127.0.0.1", "--master-port", str(port),
                                      "--starbase-journal-dir", str(plan.out / "journal")), log)
                       for _ in range(plan.workers)]
        else:
            master, workers = _start(command(*plan.arguments()), log), []
        code = _wait(master, plan.duration + STOP_MARGIN)
        for worker in workers:
            _wait(worker, 30.0)
    return Result(code, plan.out, _verdict(plan.out), _rows(plan.out / "load_stats.csv"))


def _start(argv: list[str], log) -> subprocess.Popen:
    return subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"})


def _wait(process: subprocess.Popen, timeout: float) -> int:
    try:
        return process.wait(timeout)
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGTERM)        # Locust stops its users, reports, exits
        try:
            return process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            return process.wait()


def _verdict(out: Path) -> dict | None:
    path = out / "report.html.check.json"
    return json.loads(path.read_text()) if path.exists() else None


def _rows(path: Path) -> list[dict]:
    if not path.exists():
        return []
    with open(path, newline="") as stats:
        return [row for row in csv.DictReader(stats) if row.get("Name") != "Aggregated"]


def stop_gracefully(process: subprocess.Popen, grace: float = 30.0) -> int:
    """SIGTERM (Locust stops its users and writes its reports), then SIGKILL after `grace`."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + grace
    while process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.1)
    if process.poll() is None:
        process.kill()
    return process.wait()
