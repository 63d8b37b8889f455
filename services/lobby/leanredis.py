"""Lua scripts on every command's path, sent over one pipelined Redis connection of our own.

redis-py's asyncio client spends ~0.2 ms of CPU per call (a connection taken from the pool and given
back, its health and retry wrappers, its event and observability hooks), and a command makes one or
two such calls (its rate limit, its turn). Here a call is one `EVALSHA` written on a shared connection
and one future resolved by the reply, in order (RESP answers in the order asked): ~40 µs
(benchmarks/bench_lobby_cpu.py). Only scripts go this way; everything else stays on redis-py.

The same server, database, ACL user and TLS as the redis-py client it is made `like`; when that client
is set up in a way this does not speak (a credential provider, RESP3, a cluster, …), `script` simply
returns redis-py's own. Failures raise redis-py's exceptions: `ConnectionError` (the connection was lost
or could not be made; a call is made `ATTEMPTS` times first, as redis-py does: a script sent here is
safe to run again, at worst a rate-limit hit counted twice), `TimeoutError` (no reply within the client's socket timeout: the
connection is dropped, as its replies would no longer match), `ResponseError` (Redis refused).
"""
from __future__ import annotations

import asyncio
import hashlib
import ssl
from collections import deque

import hiredis
from redis import exceptions
from redis.asyncio import Redis
from redis.asyncio.connection import Connection, SSLConnection, UnixDomainSocketConnection

ATTEMPTS = 3
BACKOFF = 0.05                  # seconds before the second attempt, doubled for each later one
DEFAULT_TIMEOUT = 5.0           # redis-py's own default socket timeout
_CLASSES = (Connection, SSLConnection, UnixDomainSocketConnection)
_CERT_REQS = {"none": ssl.CERT_NONE, "optional": ssl.CERT_OPTIONAL, "required": ssl.CERT_REQUIRED}


class LeanScript:
    """`await script(keys=[...], args=[...])`, as redis-py's `Script`."""

    def __init__(self, lean: "LeanRedis", text: str):
        self.lean, self.text = lean, text
        self.sha = hashlib.sha1(text.encode()).hexdigest()

    async def __call__(self, keys=(), args=()):
        head = ("EVALSHA", self.sha, len(keys), *keys, *args)
        try:
            return await self.lean.call(head)
        except exceptions.NoScriptError:    # a restarted or flushed Redis: load it, then once more
            await self.lean.call(("SCRIPT", "LOAD", self.text))
            return await self.lean.call(head)


class LeanRedis:
    """One connection, opened on first use and again after a failure; `close` ends it."""

    def __init__(self, *, host: str = "localhost", port: int = 6379, path: str | None = None, db: int = 0,
                 username: str | None = None, password: str | None = None, tls: ssl.SSLContext | None = None,
                 timeout: float | None = DEFAULT_TIMEOUT, connect_timeout: float | None = DEFAULT_TIMEOUT):
        self.host, self.port, self.path, self.db = host, port, path, db
        self.username, self.password, self.tls = username, password, tls
        self.timeout, self.connect_timeout = timeout, connect_timeout
        self._protocol: _Protocol | None = None
        self._opening: asyncio.Future | None = None
        self._closed = False

    @classmethod
    def like(cls, redis: Redis) -> "LeanRedis | None":
        """A lean connection to the server `redis` talks to, as the same user; None when its setup is one
        this module does not reproduce."""
        pool = redis.connection_pool
        options = pool.connection_kwargs
        if pool.connection_class not in _CLASSES or options.get("credential_provider") is not None \
                or options.get("protocol") not in (None, 2, "2") or not options.get("decode_responses") \
                or options.get("encoding", "utf-8") != "utf-8" or options.get("client_name"):
            return None
        tls = None
        if pool.connection_class is SSLConnection:
            tls = _tls_context(options)
        return cls(host=options.get("host", "localhost"), port=int(options.get("port", 6379)),
                   path=options.get("path") if pool.connection_class is UnixDomainSocketConnection else None,
                   db=int(options.get("db", 0) or 0), username=options.get("username"),
                   password=options.get("password"), tls=tls,
                   timeout=options.get("socket_timeout", DEFAULT_TIMEOUT),
                   connect_timeout=options.get("socket_connect_timeout", DEFAULT_TIMEOUT))

    @staticmethod
    def script(redis: Redis, lean: "LeanRedis | None", text: str):
        """The script called through `lean` when there is one, else through redis-py."""
        return LeanScript(lean, text) if lean is not None else redis.register_script(text)

    async def call(self, command: tuple):
        delay = BACKOFF
        for attempt in range(ATTEMPTS):
            try:
                protocol = self._protocol
                if protocol is None or protocol.lost:
                    protocol = await self._open()
                return await protocol.send(command, self.timeout)
            except exceptions.AuthenticationError:
                raise                       # a wrong password stays wrong
            except exceptions.ConnectionError:
                if attempt == ATTEMPTS - 1 or self._closed:
                    raise
            await asyncio.sleep(delay)
            delay *= 2

    async def close(self) -> None:
        self._closed = True
        if self._protocol is not None:
            self._protocol.end(exceptions.ConnectionError("the lean Redis connection was closed"))
            self._protocol = None

    async def _open(self) -> "_Protocol":
        if self._closed:
            raise exceptions.ConnectionError("the lean Redis connection was closed")
        if self._opening is not None and self._opening.done():
            self._opening = None            # what it opened has been lost since (or it failed)
        if self._opening is None:           # one connect for every call that finds it missing
            self._opening = asyncio.ensure_future(self._connect())
        return await asyncio.shield(self._opening)

    async def _connect(self) -> "_Protocol":
        loop = asyncio.get_running_loop()
        try:
            if self.path is not None:
                made = loop.create_unix_connection(_Protocol, self.path)
            else:
                made = loop.create_connection(_Protocol, self.host, self.port, ssl=self.tls,
                                              server_hostname=self.host if self.tls is not None else None)
            _, protocol = await asyncio.wait_for(made, self.connect_timeout)
        except (OSError, TimeoutError, ssl.SSLError) as error:
            raise exceptions.ConnectionError(f"Redis at {self.path or f'{self.host}:{self.port}'}: {error!r}") from None
        try:
            if self.password is not None:
                await protocol.send(("AUTH", self.username, self.password) if self.username
                                    else ("AUTH", self.password), self.timeout)
            if self.db:
                await protocol.send(("SELECT", self.db), self.timeout)
        except (exceptions.ResponseError, exceptions.ConnectionError) as refusal:
            protocol.end(exceptions.ConnectionError(str(refusal)))
            raise refusal if isinstance(refusal, exceptions.AuthenticationError) \
                else exceptions.ConnectionError(str(refusal)) from None
        if self._closed:                    # closed while this connect was on its way
            protocol.end(exceptions.ConnectionError("the lean Redis connection was closed"))
            raise exceptions.ConnectionError("the lean Redis connection was closed")
        self._protocol = protocol
        return protocol


class _Protocol(asyncio.Protocol):
    """Requests written in order; each reply resolves the oldest waiting future."""

    def __init__(self):
        self.reader = hiredis.Reader(encoding="utf-8", replyError=exceptions.ResponseError)
        self.waiting: deque[tuple[asyncio.Future, float]] = deque()    # (the reply's future, its deadline)
        self.transport = None
        self.lost = False
        self._watch: asyncio.TimerHandle | None = None

    def connection_made(self, transport) -> None:
        self.transport = transport

    def send(self, command: tuple, timeout: float | None) -> asyncio.Future:
        if self.lost:
            raise exceptions.ConnectionError("the Redis connection was lost")
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        # One watch for the oldest call rather than a timer per call: replies come in order.
        self.waiting.append((future, loop.time() + timeout if timeout else float("inf")))
        if timeout and self._watch is None:
            self._watch = loop.call_later(timeout, self._check)
        self.transport.write(hiredis.pack_command(command))
        return future

    def _check(self) -> None:
        self._watch = None
        if self.lost or not self.waiting:
            return
        future, deadline = self.waiting[0]
        left = deadline - asyncio.get_running_loop().time()
        if left <= 0:
            # Later replies would resolve the wrong futures: the connection goes, and every call on it.
            self.end(exceptions.TimeoutError("Redis did not answer in time"), first=future)
        elif left != float("inf"):
            self._watch = asyncio.get_running_loop().call_later(left, self._check)

    def data_received(self, data: bytes) -> None:
        self.reader.feed(data)
        try:
            while (reply := self.reader.gets()) is not False:
                future, _ = self.waiting.popleft()
                if future.done():
                    continue
                if isinstance(reply, exceptions.ResponseError):
                    future.set_exception(_refusal(reply))
                else:
                    future.set_result(reply)
        except (hiredis.ProtocolError, IndexError) as error:    # garbled, or a reply nobody asked for
            self.end(exceptions.ConnectionError(f"Redis protocol error: {error!r}"))

    def connection_lost(self, error) -> None:
        self.end(exceptions.ConnectionError(f"the Redis connection was lost: {error!r}"))

    def end(self, error: Exception, first: asyncio.Future | None = None) -> None:
        self.lost = True
        if self._watch is not None:
            self._watch.cancel()
            self._watch = None
        if self.transport is not None:
            self.transport.abort()
        while self.waiting:
            future, _ = self.waiting.popleft()
            if not future.done():
                future.set_exception(error if future is first or first is None
                                     else exceptions.ConnectionError(str(error)))


def _refusal(reply: exceptions.ResponseError) -> exceptions.ResponseError:
    text = str(reply)
    if text.startswith("NOSCRIPT"):
        return exceptions.NoScriptError(text)
    if text.startswith(("NOAUTH", "WRONGPASS")):
        return exceptions.AuthenticationError(text)
    if text.startswith("NOPERM"):
        return exceptions.NoPermissionError(text)
    return reply


def _tls_context(options: dict) -> ssl.SSLContext:
    context = ssl.create_default_context(cafile=options.get("ssl_ca_certs"))
    if options.get("ssl_certfile"):
        context.load_cert_chain(options["ssl_certfile"], options.get("ssl_keyfile"), options.get("ssl_password"))
    required = options.get("ssl_cert_reqs", "required")
    required = _CERT_REQS.get(required, required) if isinstance(required, str) else required
    context.check_hostname = bool(options.get("ssl_check_hostname", True)) and required != ssl.CERT_NONE
    context.verify_mode = required
    return context
