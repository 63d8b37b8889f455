"""A whole Starbase stack in one asyncio loop, on real NATS and Redis: for tests and benchmarks.

    async with local_stack(nats_url, redis_url, "t1234") as stack:
        httpx.post(f"{stack.http}/players", ...); websockets.connect(f"{stack.ws}/games/<id>/ws?...")

It runs the real adjudicator behind its real gRPC server, the real lobby behind uvicorn on a loopback
port, and (optionally) scoring as its durable JetStream consumer. `namespace` isolates the JetStream
stream, the subjects, the seed bucket and the Redis keys, so tests sharing one NATS and one Redis never
see each other.
"""
from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import AsyncIterator

import uvicorn
import websockets
from redis.asyncio import Redis

from adjudicator.client import AdjudicatorClient
from adjudicator.nats_door import SubmitDoor
from adjudicator.server import start_grpc_server
from adjudicator.service import Adjudicator
from starbase_core import tickets
from starbase_core.bus import NatsAuth
from starbase_core.callers import load_callers
from starbase_core.connections import nats_auth, redis_options
from starbase_core.nats_permissions import Names, inbox_prefix
from starbase_core.provision import Credentials
from starbase_core.seeds import JetStreamSeedVault
from starbase_core.servers import free_port
from starbase_core.snapshots import JetStreamSnapshotBucket, Snapshots
from starbase_core.store_jetstream import JetStreamEventStore
from starbase_rules.registry import get_game

from lobby import logfilter
from lobby.app import create_app
from lobby.bootstrap import LobbyRuntime
from lobby.config import LobbySettings
from lobby.handshake import SERVER_PROTOCOLS
from scoring.consumer import ScoringConsumer
from scoring.durable import DurableScoring
from scoring.ledger import Ledger


@dataclass
class Stack:
    http: str
    ws: str
    store: JetStreamEventStore          # a connection of its own, for checks "behind the API"
    ledger: Ledger
    runtime: LobbyRuntime
    settings: LobbySettings
    scoring: DurableScoring | None
    admin_settings: LobbySettings       # what `starbase admin` runs with: the lobby's, as its own NATS user


async def _serve_lobby(settings: LobbySettings, runtime: LobbyRuntime):
    """A lobby on uvicorn in this event loop, once it accepts connections: (server, its task).
    Its access log is on and filtered, as `python -m lobby` runs it."""
    logfilter.install()
    server = uvicorn.Server(uvicorn.Config(create_app(settings, runtime), host="127.0.0.1",
                                           port=settings.lobby_port, log_config=None, lifespan="on",
                                           access_log=True, **SERVER_PROTOCOLS,
                                           timeout_graceful_shutdown=2))
    serving = asyncio.create_task(server.serve())
    while not server.started:
        if serving.done():
            serving.result()                            # raises what stopped it
        await asyncio.sleep(0.02)
    return server, serving


# Tests play whole games as fast as they can from one address: the stack's limits are far away unless
# a test sets its own (`settings={...}`). Password hashing is cheap here too (production: see config).
TEST_SETTINGS = dict(
    lobby_argon2_time_cost=1, lobby_argon2_memory_kib=1024, lobby_argon2_parallelism=1,
    lobby_limit_registrations="10000/minute", lobby_limit_logins="10000/minute",
    lobby_limit_commands="10000/second", lobby_limit_chat="10000/second", lobby_limit_tables="10000/second",
    lobby_limit_tickets="10000/second", lobby_max_open_tables=1000,
    lobby_max_sockets_per_player=1000, lobby_max_sockets_per_address=10000,
)


async def serve_adjudicator(adjudicator: Adjudicator, store, *, callers=None, port: int = 0):
    """`adjudicator` served as `python -m adjudicator` serves it: gRPC on a loopback port, and its NATS door on
    `store`'s connection, on the subjects a service's settings name after the store's prefix (the NATS link's
    default). Returns (the gRPC port, `stop(grace)`)."""
    server, port = await start_grpc_server(adjudicator, port, "127.0.0.1", callers=callers)
    door = await SubmitDoor(adjudicator, store._nc, f"{store.prefix}-adjudicator", callers=callers).start()

    async def stop(grace: float = 0) -> None:
        await door.stop(grace)
        await server.stop(grace)
    return port, stop


def stack_settings(nats_url: str, redis_url: str, namespace: str, **overrides) -> LobbySettings:
    """Lobby settings isolated by `namespace`: stream, subjects, buckets, Redis prefixes."""
    return LobbySettings(**{
        **TEST_SETTINGS, "nats_url": nats_url, "redis_url": redis_url, "event_stream": f"ES{namespace}",
        "event_subject_prefix": namespace, "lobby_host": "127.0.0.1", "lobby_port": free_port(),
        "lobby_secret": f"secret-{namespace}", "scoring_prefix": f"scoring{namespace}", "lobby_shutdown_grace": 2,
        "lobby_accounts_bucket": f"accounts{namespace}", "lobby_sessions_bucket": f"sessions{namespace}",
        "lobby_personal_stream": f"PERSONAL{namespace}", "lobby_personal_prefix": f"personal{namespace}",
        "lobby_limits_prefix": f"limits{namespace}", "lobby_loop_prefix": f"loop{namespace}", **overrides})


def stack_names(namespace: str) -> Names:
    """The streams, subjects, buckets and key prefixes a stack of this namespace uses (for permissions),
    as `stack_settings` names them."""
    return Names(stream=f"ES{namespace}", prefix=namespace, seeds=f"seeds{namespace}",
                 scoring_prefix=f"scoring{namespace}", accounts=f"accounts{namespace}",
                 sessions=f"sessions{namespace}", personal_stream=f"PERSONAL{namespace}",
                 personal_prefix=f"personal{namespace}", limits_prefix=f"limits{namespace}",
                 loop_prefix=f"loop{namespace}")


@asynccontextmanager
async def local_stack(nats_url: str, redis_url: str, namespace: str, *, scoring: bool = True,
                      settings: dict | None = None, credentials: Credentials | None = None,
                      snapshot_every: int = 0, link: str = "nats") -> AsyncIterator[Stack]:
    """`settings`: the lobby's, over `stack_settings`. `credentials`: each part connects as its own
    service does (NATS user, Redis user, adjudicator caller secret), for servers started with
    `credentials`' permissions (tests/security). `snapshot_every` > 0: the adjudicator snapshots games
    into its bucket `<stream>_snapshots` as `python -m adjudicator` does (0: no snapshots). `link`: how
    the lobby sends commands to the adjudicator, "grpc" or "nats" (ADJUDICATOR_LINK; the adjudicator
    serves both, on the subjects under `<namespace>-adjudicator`)."""
    creds = _Roles(credentials)
    store_options = dict(name=f"ES{namespace}", subject_prefix=namespace)
    adjudicator_store = await JetStreamEventStore.connect(nats_url, **store_options, auth=creds.nats("adjudicator"))
    lobby_store = await JetStreamEventStore.connect(nats_url, **store_options, auth=creds.nats("lobby"))
    checker_store = await JetStreamEventStore.connect(nats_url, **store_options, auth=creds.nats("scoring"))
    vault = await JetStreamSeedVault(adjudicator_store._nc, f"seeds{namespace}").ensure()
    snapshots = None
    if snapshot_every > 0:
        bucket = await JetStreamSnapshotBucket(adjudicator_store._nc, f"ES{namespace}_snapshots").ensure()
        snapshots = await Snapshots.open(bucket, vault, get_game)
    adjudicator = Adjudicator(adjudicator_store, vault, snapshots=snapshots, snapshot_every=snapshot_every)
    grpc_port, stop_adjudicator = await serve_adjudicator(adjudicator, adjudicator_store, callers=creds.callers())
    subject = stack_names(namespace).adjudicator           # as the lobby's settings name it
    client = AdjudicatorClient(f"127.0.0.1:{grpc_port}", token=creds.token("lobby"),
                               nats=(lobby_store._nc, subject) if link == "nats" else None)
    redis = Redis.from_url(redis_url, decode_responses=True, **creds.redis("lobby"))
    settings = stack_settings(nats_url, redis_url, namespace, adjudicator_target=f"127.0.0.1:{grpc_port}",
                              adjudicator_link=link, **{**creds.settings("lobby"), **(settings or {})})
    runtime = LobbyRuntime(settings, store=lobby_store, adjudicator=client, redis=redis)
    server, serving = await _serve_lobby(settings, runtime)
    ledger = Ledger(Redis.from_url(redis_url, decode_responses=True, **creds.redis("scoring")), settings.scoring_prefix)
    consumer = DurableScoring(checker_store, ScoringConsumer(checker_store, ledger)) if scoring else None
    scoring_task = asyncio.create_task(consumer.run()) if consumer else None
    try:
        yield Stack(http=f"http://127.0.0.1:{settings.lobby_port}", ws=f"ws://127.0.0.1:{settings.lobby_port}",
                    store=checker_store, ledger=ledger, runtime=runtime, settings=settings, scoring=consumer,
                    admin_settings=settings.model_copy(update=creds.settings("admin")))
    finally:
        if scoring_task:
            scoring_task.cancel()
            await asyncio.gather(scoring_task, return_exceptions=True)
        server.should_exit = True
        await serving
        await stop_adjudicator(1)
        await adjudicator.close()
        await client.close()
        await ledger.redis.aclose()
        await redis.aclose()
        for store in (adjudicator_store, lobby_store, checker_store):
            await store.close()


class _Roles:
    """Each role's connection options from a set of credentials, or nothing (an open server)."""

    def __init__(self, credentials: Credentials | None):
        self.credentials = credentials

    def nats(self, role: str) -> NatsAuth | None:
        if self.credentials is None:
            return None
        seed = self.credentials.nats_seed_file(role).read_text().strip()
        return NatsAuth(nkey_seed=seed, inbox_prefix=inbox_prefix(role))

    def redis(self, role: str) -> dict:
        if self.credentials is None:
            return {}
        return {"username": role, "password": self.credentials.redis_password_file(role).read_text().strip()}

    def settings(self, role: str) -> dict:
        """The credential settings of `role` (what `python -m <role>` reads), for the connections a
        runtime opens itself (the lobby's accounts connection and its limits)."""
        if self.credentials is None:
            return {}
        env = self.credentials.env(role)
        return {key.lower(): value for key, value in env.items() if key.lower() in LobbySettings.model_fields
                and key != "LOBBY_SECRET"}

    def token(self, caller: str) -> str | None:
        return self.credentials.token_file(caller).read_text().strip() if self.credentials else None

    def callers(self):
        return load_callers(str(self.credentials.callers_file)) if self.credentials else None


@asynccontextmanager
async def another_lobby(stack: Stack) -> AsyncIterator[str]:
    """A second lobby replica on the same store, adjudicator and secret (and credentials, if any): its
    base URL."""
    async with another_lobby_runtime(stack) as (address, _runtime):
        yield address


@asynccontextmanager
async def another_lobby_runtime(stack: Stack) -> AsyncIterator[tuple[str, LobbyRuntime]]:
    """`another_lobby`, with the replica's runtime (to look inside it)."""
    settings = stack.settings.model_copy(update={"lobby_port": free_port()})
    store = await JetStreamEventStore.connect(settings.nats_url, name=settings.event_stream,
                                              subject_prefix=settings.event_subject_prefix,
                                              auth=nats_auth(settings, "lobby"))
    client = AdjudicatorClient.from_settings(settings, nats=store._nc)
    redis = Redis.from_url(settings.redis_url, decode_responses=True, **redis_options(settings))
    runtime = LobbyRuntime(settings, store=store, adjudicator=client, redis=redis)
    server, serving = await _serve_lobby(settings, runtime)
    try:
        yield f"127.0.0.1:{settings.lobby_port}", runtime
    finally:
        server.should_exit = True
        await serving
        await client.close()
        await redis.aclose()
        await store.close()


def password_of(name: str) -> str:
    return f"password of {name}"


class ApiPlayer:
    """One registered player talking to the lobby over HTTP only (tests, benchmarks, examples).
    `token` is its access token; sockets get a fresh ticket each (`connect`)."""

    def __init__(self, http, player_id: str, name: str, token: str, refresh_token: str = ""):
        self.http, self.player_id, self.name, self.token = http, player_id, name, token
        self.refresh_token = refresh_token

    @classmethod
    def from_session(cls, http, body: dict) -> "ApiPlayer":
        return cls(http, body["player_id"], body["name"], body["access_token"], body["refresh_token"])

    @classmethod
    async def register(cls, http, name: str) -> "ApiPlayer":
        """Open an account (name and password) and log in with it, as a person would."""
        reply = await http.post("/players", json={"name": name, "password": password_of(name)})
        if reply.status_code >= 400:
            raise AssertionError(f"registering {name!r}: {reply.status_code} {reply.text}")
        return await cls.login(http, name)

    @classmethod
    async def login(cls, http, name: str, password: str | None = None) -> "ApiPlayer":
        reply = await http.post("/sessions", json={"name": name, "password": password or password_of(name)})
        if reply.status_code >= 400:
            raise AssertionError(f"logging in {name!r}: {reply.status_code} {reply.text}")
        return cls.from_session(http, reply.json())

    @classmethod
    async def guest(cls, http) -> "ApiPlayer":
        reply = await http.post("/players/guest")
        reply.raise_for_status()
        return cls.from_session(http, reply.json())

    def on(self, http) -> "ApiPlayer":
        """The same player (same tokens) talking to another lobby replica."""
        return ApiPlayer(http, self.player_id, self.name, self.token, self.refresh_token)

    async def ticket(self, **body) -> str:
        reply = await self.http.post("/tickets", json=body, headers=self.auth)
        if reply.status_code >= 400:
            raise AssertionError(f"ticket for {self.name}: {reply.status_code} {reply.text}")
        return reply.json()["ticket"]

    async def connect(self, url: str, **options):
        """A WebSocket opened as this player: a single-use ticket offered as a subprotocol."""
        return await websockets.connect(url, subprotocols=tickets.subprotocols(await self.ticket()), **options)

    @property
    def auth(self) -> dict:
        return {"Authorization": f"Bearer {self.token}"}

    async def post(self, path: str, body: dict | None = None):
        return await self.http.post(path, json=body if body is not None else {}, headers=self.auth)

    async def get(self, path: str, **params):
        return await self.http.get(path, params=params, headers=self.auth)

    async def ok(self, reply) -> dict | list:
        reply = await reply
        if reply.status_code >= 400:
            raise AssertionError(f"{reply.request.method} {reply.request.url.path}: {reply.status_code} {reply.text}")
        return reply.json()


async def seat_and_start(players: list[ApiPlayer], game: str, options: dict | None = None) -> str:
    """The first player opens a table for all of them, everyone joins and gets ready, and it starts."""
    host, *others = players
    table = await host.ok(host.post("/tables", {"game": game, "seats": len(players), "options": options or {}}))
    table_id = table["table_id"]
    for player in others:
        await player.ok(player.post(f"/tables/{table_id}/join"))
    for player in players:
        await player.ok(player.post(f"/tables/{table_id}/ready"))
    started = await host.ok(host.post(f"/tables/{table_id}/start"))
    return started["game_id"]
