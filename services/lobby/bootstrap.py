"""Wiring: build the lobby's adapters and services once, start their background work, stop it in order.

The background work (the table projection's follow, the rebuild watch, the reconcile, and the live
feed's follows) runs under supervisors (`starbase_core.supervise`): a follow that fails is logged and
restarted with back-off from where it was, and `/readyz` answers 503 while one is down.

Tests pass their own store and adjudicator client (real ones on real servers); `python -m lobby` lets
`start` connect to NATS, Redis and the adjudicator from the settings.
"""
from __future__ import annotations

import asyncio

import structlog
from redis.asyncio import Redis

from adjudicator.client import AdjudicatorClient
from starbase_core import tickets
from starbase_core.bus import connect_nats
from starbase_core.connections import nats_auth, redis_options
from starbase_core.envelope import Envelope
from starbase_core.gamestream import BOTS, GUESTS, PRIVATE, RATED, ends_game
from starbase_core.store_jetstream import JetStreamEventStore
from starbase_core.supervise import Supervisor

from lobby.accounts.directory import Directory
from lobby.accounts.passwords import Passwords
from lobby.accounts.service import AccountService
from lobby.accounts.sessions import Sessions
from lobby.chat import ChatService
from lobby.config import LobbySettings
from lobby.exceptions import Forbidden, InvalidToken, NotFound, RateLimited
from lobby.feed import Feed
from lobby.games import GameService
from lobby.guard.logins import LoginDelays
from lobby.guard.rates import RateLimits
from lobby.guard.sockets import SocketQuota
from lobby.loop.runtime import Loop
from lobby.moderation.service import Moderation
from lobby.options import check_options
from lobby.personal import PersonalStore
from lobby.projection import TableProjection
from lobby.seating import record_from_game
from lobby.service import TableService, load_engine
from lobby.sockets import SocketRegistry
from lobby.tokens import Identity, TokenSigner
from scoring.client import ScoringReader

log = structlog.get_logger(__name__)


class PlatformOptions:
    """The adjudicator as the table service sees it, adding the platform options only the lobby knows
    when a game is created: whether its table is private, which seats are guests (never rated), and
    which seats bots play ({seat's player id: level})."""

    def __init__(self, adjudicator, runtime: "LobbyRuntime"):
        self._adjudicator, self._runtime = adjudicator, runtime

    def __getattr__(self, name):
        return getattr(self._adjudicator, name)

    async def create_game(self, game_id: str, game: str, players: list[str], options: dict):
        table = self._runtime.projection.get(game_id) or await self._runtime.tables.load(game_id)
        guests = [p for p in players if (a := await self._runtime.directory.account(p)) is not None and a.guest]
        if not table.rated:             # quick play's `rated: false`: the game's own option, for scoring
            options = {**options, RATED: False}
        bots = {table.seated[seat]: level for seat, level in table.bots.items()}
        return await self._adjudicator.create_game(game_id, game, players,
                                                   {**options, PRIVATE: table.private, GUESTS: guests, BOTS: bots})


class LobbyRuntime:
    def __init__(self, settings: LobbySettings, *, store=None, adjudicator=None, redis: Redis | None = None):
        self.settings = settings
        self.store, self.adjudicator, self.redis = store, adjudicator, redis
        self.scores_redis: Redis | None = None  # the boards, read as a user that may only read them
        self._owned: list = []                  # what we opened ourselves, closed on stop
        self.supervisor = Supervisor("lobby")
        self._position = 0                      # how far the projection's follow got (a restart resumes there)
        self.signer = TokenSigner(settings.signing_secret(), settings.lobby_access_token_seconds,
                                  settings.lobby_refresh_token_seconds)
        self.passwords = Passwords(settings.lobby_argon2_time_cost, settings.lobby_argon2_memory_kib,
                                   settings.lobby_argon2_parallelism)
        self.sockets = SocketRegistry()
        self._rebuilt = asyncio.Event()
        self._rebuild_end = 0
        self._last_applied = 0.0

    async def start(self) -> "LobbyRuntime":
        settings = self.settings
        if self.store is None:
            self.store = await JetStreamEventStore.connect(
                settings.nats_url, name=settings.event_stream, subject_prefix=settings.event_subject_prefix,
                replicas=settings.store_replicas, auth=nats_auth(settings, "lobby"))
            self._owned.append(self.store)
        if self.redis is None:
            self.redis = Redis.from_url(settings.redis_url, decode_responses=True, **redis_options(settings))
            self._owned.append(self.redis)
        if settings.lobby_scores_redis_username:
            self.scores_redis = Redis.from_url(settings.redis_url, decode_responses=True, **redis_options(
                settings, username=settings.lobby_scores_redis_username,
                password_file=settings.lobby_scores_redis_password_file))
            self._owned.append(self.scores_redis)
        self.nc = await connect_nats(settings.nats_url, name="starbase-lobby", auth=nats_auth(settings, "lobby"))
        if self.adjudicator is None:
            # A bounded retry budget: an HTTP caller hears 503 within ~25 s rather than waiting minutes.
            self.adjudicator = AdjudicatorClient.from_settings(settings, nats=self.nc, timeout=5.0, retries=4)
            self._owned.append(self.adjudicator)
        self.limits = RateLimits(settings)
        prefix = settings.lobby_personal_prefix
        self.personal = await PersonalStore(self.nc, settings.lobby_personal_stream, prefix,
                                            settings.store_replicas).ensure()
        self.directory = await Directory(self.nc, settings.lobby_accounts_bucket, settings.store_replicas).start()
        self.directory.on_change.append(self.sockets.account_changed)
        self.sessions = await Sessions(self.nc, settings.lobby_sessions_bucket, f"{prefix}-live.revoked",
                                       self.signer, self.directory, settings.store_replicas).start()
        delays = LoginDelays(self.redis, settings.lobby_limits_prefix, settings.lobby_login_free_failures,
                             settings.lobby_login_max_delay)
        self.socket_quota = SocketQuota(self.redis, settings.lobby_limits_prefix, settings.lobby_max_sockets_per_player,
                                        settings.lobby_max_sockets_per_address, self.limits.exempt)
        self.accounts = AccountService(self.directory, self.sessions, self.passwords, self.limits, delays, self.personal)
        self.projection = TableProjection(self.store)
        self.tables = TableService(self.store, self.projection, PlatformOptions(self.adjudicator, self))
        self.chat = ChatService(self.personal, self.tables, self.directory, self.limits, self.nc)
        self.moderation = Moderation(self.directory, self.personal, self.chat, self.limits)
        self.feed = Feed(self.store, on_envelope=self._on_live)
        if isinstance(self.adjudicator, AdjudicatorClient):
            self.adjudicator.held = self.feed.held      # a reply the follow got ahead of: not decoded again
        self.games = GameService(self.store, self.tables, self.adjudicator, self.feed)
        self.ledger = ScoringReader(self.scores_redis or self.redis, settings.scoring_prefix)
        self.loop = await Loop(self).start()
        await self.feed.start()
        self._rebuild_end = await self.store.end_position()
        self._last_applied = asyncio.get_running_loop().time()
        if self._rebuild_end == 0:                  # an empty store: nothing to rebuild
            self._rebuilt.set()
        self.supervisor.start("project table.>", lambda: self._project("table.>"))
        self.supervisor.start("rebuilt table.>", self._mark_rebuilt_when_quiet, once=True)
        self.supervisor.start("reconcile", self._reconcile, once=True)
        log.info("lobby_started", store=type(self.store).__name__, passwords=self.passwords.parameters)
        return self

    # --- what routes ask of the whole runtime ---

    async def identity_of(self, player_id: str) -> Identity:
        account = await self.directory.account(player_id)
        if account is None:
            raise InvalidToken("this account no longer exists", "ACCOUNT_GONE")
        if account.banned:
            raise Forbidden("this account is banned", "BANNED")
        return Identity(account.player_id, account.name, account.role, account.guest)

    async def grant_ticket(self, viewer: Identity | None, game_id: str | None, invite: str | None,
                           address: str | None = None) -> str:
        await self.limits.hit("tickets", viewer.player_id if viewer else f"invite:{game_id}", address)
        if game_id is not None:
            try:
                table = await self.tables.load(game_id)
            except NotFound:
                raise NotFound(f"no game or table {game_id!r}", "GAME_NOT_FOUND") from None
            if not table.may_see(viewer.player_id if viewer else None, invite):
                raise NotFound(f"no game or table {game_id!r}", "GAME_NOT_FOUND")
        grant = tickets.Grant(player=viewer.player_id if viewer else None, game=game_id)
        return await tickets.issue(self.redis, grant, self.settings.lobby_ticket_seconds)

    async def check_new_table(self, host: Identity, game: str, options: dict, seats: int) -> None:
        check_options(load_engine(game), options, seats)
        if self.projection.open_tables_of(host.player_id) >= self.settings.lobby_max_open_tables \
                and not self.limits.exempt(host.address):
            raise RateLimited(f"you host {self.settings.lobby_max_open_tables} open tables already: start, fill or "
                              "leave one first", 60)
        await self.limits.hit("tables", host.player_id, host.address)

    async def hit_command(self, who: Identity) -> None:
        await self.limits.hit("commands", who.player_id, who.address)

    # --- background work ---

    async def _project(self, subject_filter: str) -> None:
        """Rebuild the projection from the whole store, then keep it current (supervised: a restart
        resumes after the last envelope applied)."""
        async for position, envelope in self.store.follow(self._position, subject_filter):
            await self.projection.apply(envelope)
            self._position = position
            self._last_applied = asyncio.get_running_loop().time()
            if position >= self._rebuild_end:
                self._rebuilt.set()
        raise ConnectionError(f"the follow of {subject_filter} ended")

    async def _mark_rebuilt_when_quiet(self, quiet: float = 1.0) -> None:
        """The follower yields only matching envelopes, so when the last stored one is of another kind
        it never reports a position past the start's end. A backlog is delivered back to back, so a
        second with nothing new also means the rebuild is done."""
        while not self._rebuilt.is_set():
            await asyncio.sleep(quiet / 4)
            if asyncio.get_running_loop().time() - self._last_applied >= quiet:
                self._rebuilt.set()

    async def rebuilt(self) -> None:
        """Until the table list is rebuilt from the store."""
        await self._rebuilt.wait()

    async def _on_live(self, envelope: Envelope) -> None:
        await self.loop.on_envelope(envelope)
        if envelope.stream.startswith("game.") and ends_game(envelope):
            await self.tables.finish(envelope.stream.split(".", 1)[1], list(envelope.data.get("standings", [])))
        await record_from_game(self.tables, envelope)

    async def _reconcile(self) -> None:
        """Mark finished the tables whose game ended while no lobby was following (the live feed only
        sees ends from now on). Runs once, when the table list is rebuilt."""
        await self._rebuilt.wait()
        for table in self.projection.playing():
            try:
                stream = f"game.{table.game_id}"
                tail = await self.store.read(stream, await self.store.last_seq(stream))
                if tail and ends_game(tail[-1]):
                    await self.tables.finish(table.game_id, list(tail[-1].data.get("standings", [])))
            except Exception:
                log.exception("reconcile_failed", table_id=table.table_id)

    async def ready(self) -> bool:
        """Ready once the store, Redis and the accounts answer and the table list is rebuilt (so a new
        replica does not serve a half-empty list while it catches up), and no background task is down."""
        await self.redis.ping()
        await self.store.last_seq("table.readyz")
        return (self.feed.started.is_set() and self._rebuilt.is_set() and self.directory.loaded.is_set()
                and self.supervisor.healthy() and self.feed.supervisor.healthy()
                and self.directory.supervisor.healthy())

    async def stop(self) -> None:
        await _bounded("feed", self.feed.stop())
        await _bounded("supervisor", self.supervisor.stop())
        if hasattr(self, "loop"):
            await _bounded("loop", self.loop.stop())
        for part in ("sessions", "directory"):
            if hasattr(self, part):
                await _bounded(part, getattr(self, part).stop())
        if hasattr(self, "limits"):
            await _bounded("limits", self.limits.close())
        if hasattr(self, "nc") and not self.nc.is_closed:
            await _bounded("nats", self.nc.drain())
        for resource in reversed(self._owned):
            await _bounded(type(resource).__name__,
                           resource.aclose() if hasattr(resource, "aclose") else resource.close())
        log.info("lobby_stopped")


STOP_STEP_SECONDS = 10.0


async def _bounded(step: str, stopping) -> None:
    """One step of stopping, bounded in time: a part that hangs is logged and left behind, so the other
    parts still close and the process exits inside its grace period (which would end in a kill anyway)."""
    try:
        await asyncio.wait_for(stopping, STOP_STEP_SECONDS)
    except asyncio.TimeoutError:
        log.error("lobby_stop_step_hung", step=step, seconds=STOP_STEP_SECONDS)
    except Exception:
        log.exception("lobby_stop_step_failed", step=step)
