"""`python -m starbase_cli.run` (what `make run` calls): the whole Starbase on this machine.

Starts NATS with JetStream (fsync before every acknowledgement) and Redis from the venv's wheels, then
the adjudicator, scoring, the decision clock, the notifier, the Trucker service and the lobby as child processes,
waits until each answers its readiness probe, and prints the URLs. Ctrl-C or SIGTERM stops everything
in reverse order — the lobby first (so no new commands arrive), the store last (so nothing accepted is
lost) — and each child gets its grace period before being killed.

Nothing internal is open, even here: the first start makes every credential under `.run/credentials/`
(files mode 0600, `starbase_core.provision`): an NKey per service (and per console tool: `starbase
audit`, `starbase admin`, whose commands it prints) for NATS, which runs with each one's
least-privilege permissions, a Redis ACL user per service (two for the lobby), the adjudicator's
caller secrets and the lobby's token secret. Each service gets only its own. RUN_TLS=true also makes a private CA and
certificates and runs every internal link over mutual TLS (off by default: loopback only, and it
costs a little on every call; see `make bench`).

Data lives in `.run/` (JetStream files, Redis append-only file, the credentials), so games, tables,
tokens and leaderboards survive a restart. Ports: LOBBY_PORT (8000), NATS_PORT (4222), REDIS_PORT
(6379), ADJUDICATOR_PORT (50051), TRUCKER_PORT (8300); a busy port is replaced by a free one and said so.
CLOCK_DEFAULT_SECONDS (120) is how long a player may owe a decision before the clock plays the engine's
default for them (a table's `decision_seconds` option overrides it).
"""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from starbase_core.cluster import nats_for
from starbase_core.provision import Credentials, provision
from starbase_core.servers import RedisServer, free_port
from starbase_core.tls import TlsFiles

RUN_DIR = Path(os.environ.get("STARBASE_RUN_DIR", ".run"))
STOP_GRACE = 15.0
READY_TIMEOUT = 60.0
# `make run CLUSTER=3`: NATS as a JetStream cluster of that many loopback nodes, every stream replicated
# on each (up to 5, JetStream's limit); its files live apart from the single server's (`.run/nats`).
CLUSTER = int(os.environ.get("CLUSTER") or 1)


def port_is_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def pick_port(variable: str, preferred: int) -> int:
    wanted = int(os.environ.get(variable) or preferred)
    if port_is_free(wanted):
        return wanted
    chosen = free_port()
    print(f"  port {wanted} ({variable}) is busy: using {chosen}", flush=True)
    return chosen


@dataclass
class Child:
    name: str
    module: str
    ready_url: str
    env: dict = field(default_factory=dict)
    optional: bool = False          # if it fails, say so and run without it (the core still works)
    address: str = ""               # what to print for people
    process: subprocess.Popen | None = None

    def start(self, base_env: dict, logs: Path) -> None:
        log = open(logs / f"{self.name}.log", "ab")
        # Its own session: Ctrl-C reaches only us, and we stop the children in order.
        self.process = subprocess.Popen([sys.executable, "-m", self.module], env={**base_env, **self.env},
                                        stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        log.close()

    def ready(self) -> bool:
        try:
            with urllib.request.urlopen(self.ready_url, timeout=1) as reply:
                return reply.status == 200
        except OSError:
            return False

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(STOP_GRACE)
        except subprocess.TimeoutExpired:
            print(f"  {self.name} did not stop within {STOP_GRACE}s: killing it", flush=True)
            self.process.kill()
            self.process.wait()


class Stop(Exception):
    pass


def _raise_stop(signum, frame):
    raise Stop()


def credentials() -> Credentials:
    """Every credential, made on the first start and kept in .run/credentials/ (mode 0600 files)."""
    directory = RUN_DIR / "credentials"
    older = RUN_DIR / "lobby_secret"          # where earlier versions kept it: players stay logged in
    if older.exists() and not (directory / "lobby_secret").exists():
        directory.mkdir(parents=True, exist_ok=True)
        older.rename(directory / "lobby_secret")
    tls = os.environ.get("RUN_TLS", "").lower() in ("1", "true", "yes")
    return provision(directory, tls_hosts=["127.0.0.1", "localhost"] if tls else None)


def server_tls(creds: Credentials, name: str) -> TlsFiles | None:
    if not creds.tls:
        return None
    return TlsFiles(str(creds.tls_file("ca.crt")), str(creds.tls_file(f"{name}.crt")),
                    str(creds.tls_file(f"{name}.key")))


# Credential settings a child must never inherit from the caller's shell: each gets only its own.
INHERITED_SECRETS = ("NATS_NKEY_FILE", "REDIS_USERNAME", "REDIS_PASSWORD_FILE", "ADJUDICATOR_TOKEN_FILE",
                     "ADJUDICATOR_CALLERS_FILE", "INSECURE_DEV_MODE", "LOBBY_SECRET",
                     "LOBBY_SCORES_REDIS_USERNAME", "LOBBY_SCORES_REDIS_PASSWORD_FILE")


def base_env(nats_url: str, redis_url: str, nats_nodes: int = CLUSTER) -> dict[str, str]:
    """What every child shares: the servers' URLs, never a secret (services() adds each one's own);
    on a cluster, streams replicated on every node (up to 5, JetStream's limit)."""
    env = {**os.environ, "NATS_URL": nats_url, "REDIS_URL": redis_url, "PYTHONUNBUFFERED": "1"}
    for inherited in INHERITED_SECRETS:
        env.pop(inherited, None)
    if nats_nodes > 1:
        env["STORE_REPLICAS"] = str(min(nats_nodes, 5))
    return env


def services(env: dict, creds: Credentials) -> list[Child]:
    """Every service as a child process, each with its own credentials (and a metrics port of its
    own). The lobby and the Trucker service share Redis, where the lobby keeps the single-use socket
    tickets Trucker redeems; the lobby tells Trucker players where it is."""
    adjudicator_port = pick_port("ADJUDICATOR_PORT", 50051)
    lobby_port = pick_port("LOBBY_PORT", 8000)
    trucker_port = pick_port("TRUCKER_PORT", 8300)
    children = [
        Child("adjudicator", "adjudicator", f"http://127.0.0.1:{(health := free_port())}/readyz",
              {"ADJUDICATOR_PORT": str(adjudicator_port), "ADJUDICATOR_HOST": "127.0.0.1",
               "ADJUDICATOR_HEALTH_PORT": str(health)}, address=f"gRPC 127.0.0.1:{adjudicator_port}"),
        Child("scoring", "scoring", f"http://127.0.0.1:{(health := free_port())}/readyz",
              {"SCORING_HEALTH_PORT": str(health), "SCORING_HEALTH_HOST": "127.0.0.1"},
              address=f"health http://127.0.0.1:{health}/readyz"),
        Child("clock", "clock", f"http://127.0.0.1:{(health := free_port())}/readyz",
              {"CLOCK_HEALTH_PORT": str(health), "CLOCK_HEALTH_HOST": "127.0.0.1",
               "ADJUDICATOR_TARGET": f"127.0.0.1:{adjudicator_port}",
               "CLOCK_DEFAULT_SECONDS": env.get("CLOCK_DEFAULT_SECONDS", "120")},
              address=f"health http://127.0.0.1:{health}/readyz  (default moves after "
                      f"{env.get('CLOCK_DEFAULT_SECONDS', '120')} s without a decision)"),
        Child("bots", "bots", f"http://127.0.0.1:{(health := free_port())}/readyz",
              {"BOTS_HEALTH_PORT": str(health), "BOTS_HEALTH_HOST": "127.0.0.1",
               "ADJUDICATOR_TARGET": f"127.0.0.1:{adjudicator_port}"},
              address=f"health http://127.0.0.1:{health}/readyz  (plays bot seats and forced moves)"),
        notifier_child(env, lobby_port),
        Child("trucker", "trucker", f"http://127.0.0.1:{trucker_port}/readyz",
              {"TRUCKER_PORT": str(trucker_port)},
              address=f"http://127.0.0.1:{trucker_port}  (Trucker building: ws://127.0.0.1:{trucker_port}/tables/<game>/ws)"),
        Child("lobby", "lobby", f"http://127.0.0.1:{lobby_port}/readyz",
              {"LOBBY_PORT": str(lobby_port), "ADJUDICATOR_TARGET": f"127.0.0.1:{adjudicator_port}",
               "TRUCKER_PUBLIC_URL": env.get("TRUCKER_PUBLIC_URL", f"ws://127.0.0.1:{trucker_port}"),
               # the clock's default, so tables without time controls show the clock they run on
               "CLOCK_DEFAULT_SECONDS": env.get("CLOCK_DEFAULT_SECONDS", "120")}),
    ]
    for child in children:
        own = creds.env(child.name)
        if os.environ.get("LOBBY_SECRET") and "LOBBY_SECRET" in own:
            own["LOBBY_SECRET"] = os.environ["LOBBY_SECRET"]     # the caller's own choice wins (still checked)
        child.env = {**own, "METRICS_PORT": str(free_port()), **child.env}
    return children


def tool_command(creds: Credentials, tool: str, nats_url: str, command: str) -> str:
    """How to run a console tool against this stack as its own NATS user (files, never a secret)."""
    env = {k: v for k, v in creds.env(tool).items() if k.endswith("_FILE")}
    if nats_url != "nats://127.0.0.1:4222":
        env["NATS_URL"] = nats_url
    return " ".join([*(f"{k}={v}" for k, v in env.items()), command])


def notifier_child(env: dict, lobby_port: int) -> Child:
    """The notifier (docs/notifier.md). On one's own machine webhooks to loopback are allowed, for the
    notifier and for the lobby's check of a saved URL alike (the shared env); e-mail only with
    NOTIFIER_SMTP_HOST set. Links in notifications point at the lobby."""
    env.setdefault("NOTIFIER_ALLOW_LOOPBACK", "true")
    health = free_port()
    return Child("notifier", "notifier", f"http://127.0.0.1:{health}/readyz",
                 {"NOTIFIER_HEALTH_PORT": str(health), "NOTIFIER_HEALTH_HOST": "127.0.0.1",
                  "NOTIFIER_PUBLIC_URL": f"http://127.0.0.1:{lobby_port}",
                  # the clock's default, so a table timed by it is warned of low time too
                  "CLOCK_DEFAULT_SECONDS": env.get("CLOCK_DEFAULT_SECONDS", "120")},
                 address=f"health http://127.0.0.1:{health}/readyz  (webhooks; e-mail when NOTIFIER_SMTP_HOST is set)")


def check_alive(children: list[Child]) -> None:
    """Raise if a required child died; drop (with a warning) an optional one that did."""
    for child in list(children):
        if child.process.poll() is None:
            continue
        message = f"{child.name} exited with {child.process.returncode}: see {RUN_DIR}/logs/{child.name}.log"
        if not child.optional:
            raise RuntimeError(message)
        print(f"  warning: {message}; running without it", flush=True)
        children.remove(child)


def wait_ready(children: list[Child]) -> None:
    deadline = time.monotonic() + READY_TIMEOUT
    waiting = list(children)
    while waiting:
        check_alive(children)
        for child in list(waiting):
            if child not in children or child.ready():
                waiting.remove(child)
        if time.monotonic() > deadline:
            raise RuntimeError(f"not ready after {READY_TIMEOUT}s: {', '.join(c.name for c in waiting)}")
        time.sleep(0.2)


def main() -> int:
    signal.signal(signal.SIGINT, _raise_stop)
    signal.signal(signal.SIGTERM, _raise_stop)
    logs = RUN_DIR / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    children: list[Child] = []
    print("Starting Starbase…", flush=True)
    creds = credentials()
    nats = nats_for(CLUSTER, port=pick_port("NATS_PORT", 4222),
                    workdir=RUN_DIR / ("nats" if CLUSTER <= 1 else f"nats-cluster{CLUSTER}"),
                    authorization=creds.nats_authorization(), tls=server_tls(creds, "nats"),
                    route_password=creds.route_password)
    redis = RedisServer(port=pick_port("REDIS_PORT", 6379), workdir=RUN_DIR / "redis", persist=True,
                        acl=creds.redis_acl(), tls=server_tls(creds, "redis"))
    try:
        nats.start()
        redis.start()
        env = base_env(nats.url, redis.url)
        children = services(env, creds)
        for child in children:
            child.start(env, logs)
        wait_ready(children)
        lobby = next(c for c in children if c.name == "lobby")
        base = lobby.ready_url.rsplit("/", 1)[0]
        print(f"\n  lobby        {base}   (API docs: {base}/docs)", flush=True)
        for child in children:
            if child.name != "lobby":
                print(f"  {child.name:<12} {child.address}", flush=True)
        print(f"  NATS         {nats.url}  (monitoring {nats.monitor_url})", flush=True)
        print(f"  Redis        {redis.url}", flush=True)
        print(f"  credentials  {creds.directory}/  (each service its own; TLS {'on' if creds.tls else 'off'})",
              flush=True)
        for tool, command in (("audit", "starbase audit GAME_ID"), ("admin", "starbase admin create-admin NAME")):
            print(f"  {tool:<12} {tool_command(creds, tool, nats.url, command)}", flush=True)
        print(f"  logs         {logs}/\n\nCtrl-C stops everything.", flush=True)
        while True:
            check_alive(children)
            time.sleep(0.5)
    except Stop:
        print("\nStopping…", flush=True)
        return 0
    except (RuntimeError, OSError) as problem:
        print(f"\nStarbase could not keep running: {problem}", file=sys.stderr, flush=True)
        return 1
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)      # a second Ctrl-C must not cut the shutdown short
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        for child in reversed(children):
            child.stop()
        redis.stop()
        nats.stop()
        print("Stopped.", flush=True)


if __name__ == "__main__":
    sys.exit(main())
