"""What authentication and TLS cost on the command round trip, side by side in one run.

Three adjudicators in this process, each on its own NATS server (JetStream, fsync before every ack):
- `open`: no credentials, plain TCP (the integration tests' setup);
- `auth`: NATS NKey users with the production permissions, the gRPC caller check (what `make run` runs);
- `auth+tls`: the same over mutual TLS on both hops, gRPC and NATS (what the Kubernetes manifests run).
A client submits `Think` to one-seat Testjack games (each a full decide + append, CommandHadNoEffect)
one at a time, COMMANDS per setup, the setups taking turns command by command so that drift on a
shared machine (the fsync dominates and varies) falls on all three alike. Prints p50 / p90 / mean per setup and each as a ratio of
`open`. Redis is not on this path (its ACL check is a lookup per connection, not per command).
"""
from __future__ import annotations

import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))   # tests.support.testjack, as bench_lobby does

from adjudicator.client import AdjudicatorClient  # noqa: E402
from adjudicator.server import start_grpc_server  # noqa: E402
from adjudicator.service import Adjudicator  # noqa: E402
from starbase_core.bus import NatsAuth  # noqa: E402
from starbase_core.callers import load_callers  # noqa: E402
from starbase_core.logging import configure_logging  # noqa: E402
from starbase_core.nats_permissions import inbox_prefix  # noqa: E402
from starbase_core.provision import Credentials, provision  # noqa: E402
from starbase_core.seeds import JetStreamSeedVault  # noqa: E402
from starbase_core.servers import NatsServer  # noqa: E402
from starbase_core.store_jetstream import JetStreamEventStore  # noqa: E402
from starbase_core.tls import TlsFiles, client_context  # noqa: E402
from tests.support import testjack  # noqa: E402

COMMANDS = int(os.environ.get("BENCH_SECURITY_COMMANDS", 1000))
GAMES = 10
SETUPS = ("open", "auth", "auth+tls")


def tls(creds: Credentials, name: str) -> TlsFiles:
    return TlsFiles(str(creds.tls_file("ca.crt")), str(creds.tls_file(f"{name}.crt")), str(creds.tls_file(f"{name}.key")))


class Setup:
    def __init__(self, name: str, creds: Credentials, workdir: Path):
        self.name, self.creds = name, creds
        secured, encrypted = name != "open", name == "auth+tls"
        self.nats = NatsServer(workdir=workdir / name, authorization=creds.nats_authorization() if secured else "",
                               tls=tls(creds, "nats") if encrypted else None)
        self.secured, self.encrypted = secured, encrypted
        self.samples: list[float] = []
        self.view_samples: list[float] = []

    async def start(self) -> "Setup":
        self.nats.start()
        auth = None
        if self.secured:
            seed = self.creds.nats_seed_file("adjudicator").read_text().strip()
            auth = NatsAuth(nkey_seed=seed, inbox_prefix=inbox_prefix("adjudicator"),
                            tls=client_context(tls(self.creds, "adjudicator")) if self.encrypted else None)
        self.store = await JetStreamEventStore.connect(self.nats.url, auth=auth)
        vault = await JetStreamSeedVault(self.store._nc).ensure()
        self.server, port = await start_grpc_server(
            Adjudicator(self.store, vault), 0, "127.0.0.1",
            callers=load_callers(str(self.creds.callers_file)) if self.secured else None,
            tls=tls(self.creds, "adjudicator") if self.encrypted else None)
        token = self.creds.token_file("lobby").read_text().strip() if self.secured else None
        self.client = AdjudicatorClient(f"127.0.0.1:{port}", token=token,
                                        tls=tls(self.creds, "lobby") if self.encrypted else None)
        self.games = [f"{self.name.replace('+', '')}{i}" for i in range(GAMES)]
        for game in self.games:
            await self.client.create_game(game, "testjack", ["p"])
        self.sent = 0
        await self.round(20, keep=False)          # warm-up: connections, caches, the JIT-less first calls
        return self

    async def round(self, count: int, keep: bool = True) -> None:
        for _ in range(count):
            game = self.games[self.sent % GAMES]
            started = time.perf_counter()
            await self.client.submit(game, "p", {"type": "Think"}, f"c{self.sent}")
            if keep:
                self.samples.append(time.perf_counter() - started)
            self.sent += 1

    async def view(self) -> None:
        started = time.perf_counter()
        await self.client.view(self.games[0], "p")
        self.view_samples.append(time.perf_counter() - started)

    async def stop(self) -> None:
        await self.client.close()
        await self.server.stop(0)
        await self.store.close()
        self.nats.stop()


def figures(samples: list[float]) -> tuple[float, float, float]:
    ordered = sorted(samples)
    return (ordered[len(ordered) // 2], ordered[int(len(ordered) * 0.9)], statistics.fmean(ordered))


async def main() -> None:
    configure_logging("bench", "warning", json=False)
    testjack.register()
    workdir = Path(tempfile.mkdtemp(prefix="bench-security-"))
    creds = provision(workdir / "credentials", tls_hosts=["127.0.0.1", "localhost"])
    setups = [await Setup(name, creds, workdir).start() for name in SETUPS]
    try:
        for _ in range(COMMANDS):
            for setup in setups:
                await setup.round(1)
        for _ in range(COMMANDS):
            for setup in setups:
                await setup.view()
    finally:
        for setup in setups:
            await setup.stop()
    report("command round trip (client → gRPC → adjudicator → JetStream append, fsync)",
           {setup.name: setup.samples for setup in setups})
    report("view round trip (client → gRPC → adjudicator's cache; no store write)",
           {setup.name: setup.view_samples for setup in setups})


def report(title: str, samples: dict[str, list[float]]) -> None:
    print(f"{title}, {COMMANDS} per setup, taking turns:")
    base = figures(samples["open"])
    for name, values in samples.items():
        p50, p90, mean = figures(values)
        print(f"  {name:<9} n={len(values)}  p50 {p50 * 1000:6.2f} ms  p90 {p90 * 1000:6.2f} ms  "
              f"mean {mean * 1000:6.2f} ms   x{p50 / base[0]:.2f} p50, x{mean / base[2]:.2f} mean of open")

if __name__ == "__main__":
    asyncio.run(main())
