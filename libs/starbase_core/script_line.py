"""Lua script calls pipelined on one Redis connection: the Trucker moves' scripts, the lobby's rate
limits and turn look on every command.

Redis runs one command at a time, so a pool of connections buys a call nothing over one connection
that carries every call in turn; what the pool costs is in this process: redis-py checks a
connection out and back in (a condition, a timeout, a readiness probe of the socket) around every call,
its script object wraps each call in its retry and event hooks, and it opens a new connection (a TCP
handshake) whenever more calls are in flight than it has connections, which is when a service is
busiest. Here each call writes its command (packed by hiredis) and waits for its reply; one reader
takes the replies off the connection in the order the commands were written (Redis answers in that
order) and hands each to its caller. 30-50 µs of CPU a call against 170-210 µs through redis-py's
script and pool. The connection itself is redis-py's, made from the client's pool settings (address,
database, ACL user and password, TLS, decoding), so it connects exactly as the client would.

Failure is as with the pool: if the connection breaks or a reply is overdue (the pool's socket
timeout), every call waiting on it raises ConnectionError and the next call opens a new connection.
A Trucker move's call is not made again here (the move may or may not have been applied; its resend,
with the same command id, is applied at most once); a `LineScript` made with `attempts` > 1 is, for
scripts safe to run twice. A script Redis does not know (a restarted Redis) is sent again whole
(EVAL). A caller cancelled after writing its command leaves its reply to be read and dropped.
"""
from __future__ import annotations

import asyncio
import hashlib
from collections import deque

import hiredis
from redis.asyncio import Redis
from redis.asyncio.connection import AbstractConnection
from redis.exceptions import AuthenticationError, ConnectionError, NoScriptError, ResponseError


BACKOFF = 0.05             # seconds before a LineScript's second attempt, doubled for each later one
DEFAULT_TIMEOUT = 5.0      # seconds a call may wait for its reply (redis-py's socket timeout, if none set)


class ScriptLine:
    def __init__(self, redis: Redis):
        self._pool = redis.connection_pool      # its settings: address, user, password, TLS, decoding
        self._connection: AbstractConnection | None = None
        self._opening: asyncio.Future | None = None
        self._reader: asyncio.Task | None = None
        self._waiting: deque[asyncio.Future] = deque()
        self._deadlines: deque[float] = deque()    # when each waiting call's reply is overdue, in order
        self._watchdog: asyncio.TimerHandle | None = None
        self._writing = asyncio.Lock()          # the order commands are written = the order of `_waiting`
        self._timeout = self._pool.connection_kwargs.get("socket_timeout") or DEFAULT_TIMEOUT

    async def evalsha(self, sha: str, source: str, keys: list[str], args: list) -> object:
        try:
            return await self._call("EVALSHA", sha, len(keys), *keys, *args)
        except NoScriptError:
            return await self._call("EVAL", source, len(keys), *keys, *args)

    async def call(self, *command) -> object:
        """Any other command on the line (the hourglass watch's reads, a few a second per table)."""
        return await self._call(*command)

    async def evalsha_many(self, sha: str, source: str, calls: list[tuple[list, list]]) -> list:
        """Many calls of one script (keys, args) written in one send: each one's reply, or its error, in
        order. One syscall and one wake-up of the reader for all of them (`lobby.loop.tracker`)."""
        waiters = await self._write([("EVALSHA", sha, len(keys), *keys, *args) for keys, args in calls])
        replies = await asyncio.gather(*waiters, return_exceptions=True)
        unknown = [n for n, reply in enumerate(replies) if isinstance(reply, NoScriptError)]
        if unknown:
            again = await self._write([("EVAL", source, len(calls[n][0]), *calls[n][0], *calls[n][1]) for n in unknown])
            for n, reply in zip(unknown, await asyncio.gather(*again, return_exceptions=True)):
                replies[n] = reply
        return replies

    async def _call(self, *command) -> object:
        waiter, = await self._write([command])
        return await waiter

    async def _write(self, commands: list[tuple]) -> list[asyncio.Future]:
        """Write `commands` in one send; the futures of their replies, in order."""
        connection = await self._open()
        loop = asyncio.get_running_loop()
        waiters = [loop.create_future() for _ in commands]
        # hiredis packs in C: a third of redis-py's packer's CPU, the same bytes
        packed = b"".join([hiredis.pack_command(command) for command in commands])
        async with self._writing:
            if connection is not self._connection:      # it broke while this call waited to write
                raise ConnectionError("the connection to Redis was lost")
            self._waiting.extend(waiters)
            deadline = loop.time() + self._timeout
            self._deadlines.extend(deadline for _ in waiters)
            if self._watchdog is None:
                self._watchdog = loop.call_later(self._timeout, self._overdue, connection)
            try:
                await connection.send_packed_command(packed, check_health=False)
            except ConnectionError as error:    # perhaps half written: nothing after it can be trusted
                self._broken(connection, error)
                raise
            except Exception as error:          # (the reader closed it meanwhile: redis-py's own errors)
                self._broken(connection, error)
                raise ConnectionError(f"writing to Redis failed: {error!r}") from error
            except BaseException as error:      # cancelled while writing
                self._broken(connection, error)
                raise
        return waiters

    def _overdue(self, connection: AbstractConnection) -> None:
        """The pool's socket timeout, kept by one timer for the whole line (not a timer, nor a timeout,
        around every call): the oldest call unanswered that long means Redis is gone or stuck, and every
        call on the line fails. Calls are answered in order, so only the oldest needs looking at."""
        self._watchdog = None
        if connection is not self._connection or not self._deadlines:
            return
        late = self._deadlines[0] - asyncio.get_running_loop().time()
        if late <= 0:
            self._broken(connection, ConnectionError(f"Redis did not answer within {self._timeout} s"))
        else:
            self._watchdog = asyncio.get_running_loop().call_later(late, self._overdue, connection)

    async def _open(self) -> AbstractConnection:
        if self._connection is not None:
            return self._connection
        if self._opening is None:
            self._opening = asyncio.ensure_future(self._connect())
        opening = self._opening
        try:
            return await asyncio.shield(opening)
        finally:
            if self._opening is opening and opening.done():
                self._opening = None

    async def _connect(self) -> AbstractConnection:
        # No socket timeout on the connection itself: the reader waits for replies as long as the line is
        # idle (with one it would drop an idle line every few seconds), and redis-py would wrap every
        # write and read in a timeout task. `_overdue` keeps the limit per call instead.
        connection = self._pool.connection_class(**{**self._pool.connection_kwargs, "socket_timeout": None})
        await connection.connect()
        self._connection = connection
        self._reader = asyncio.ensure_future(self._read(connection))
        return connection

    async def _read(self, connection: AbstractConnection) -> None:
        while connection is self._connection:
            try:
                reply = await connection.read_response()
            except ResponseError as error:      # an error reply (the script's, NOSCRIPT): its caller's
                reply = error
            except asyncio.CancelledError:
                self._broken(connection, ConnectionError("the connection to Redis was closed"))
                raise
            except Exception as error:          # lost, or a reply it could not read: nothing more can be
                self._broken(connection, error)
                return
            if not self._waiting:
                self._broken(connection, ConnectionError("Redis answered a command nobody sent"))
                return
            waiter = self._waiting.popleft()
            self._deadlines.popleft()
            if waiter.done():                   # its caller was cancelled
                continue
            if isinstance(reply, Exception):
                waiter.set_exception(reply)
            else:
                waiter.set_result(reply)

    def _broken(self, connection: AbstractConnection, error: BaseException) -> None:
        """Fail every call waiting on `connection` and let the next call open a new one."""
        if connection is not self._connection:
            return
        self._connection = None
        waiting, self._waiting, self._deadlines = self._waiting, deque(), deque()
        if self._watchdog is not None:
            self._watchdog.cancel()
            self._watchdog = None
        for waiter in waiting:
            if not waiter.done():
                waiter.set_exception(error if isinstance(error, ConnectionError)
                                     else ConnectionError(f"the connection to Redis broke: {error!r}"))
        asyncio.ensure_future(connection.disconnect(nowait=True))
        if self._reader is not None and self._reader is not asyncio.current_task():
            self._reader.cancel()

    async def aclose(self) -> None:
        connection, reader = self._connection, self._reader
        if connection is not None:
            self._broken(connection, ConnectionError("closed"))
        if reader is not None:
            try:
                await reader
            except BaseException:
                pass
        if connection is not None:
            await connection.disconnect()


class LineScript:
    """A Lua script on a line, called as redis-py's `Script` is: `await script(keys=[...], args=[...])`.
    `attempts`: how many times a call is made when the connection is lost under it (redis-py's clients
    retry so too); only for a script that may run twice (a rate-limit hit counted twice at worst)."""

    def __init__(self, line: ScriptLine, text: str, attempts: int = 1):
        self.line, self.text, self.attempts = line, text, attempts
        self.sha = hashlib.sha1(text.encode()).hexdigest()

    async def __call__(self, keys=(), args=()) -> object:
        keys, args, delay = list(keys), list(args), BACKOFF
        for _ in range(self.attempts - 1):
            try:
                return await self.line.evalsha(self.sha, self.text, keys, args)
            except AuthenticationError:
                raise                           # (a ConnectionError to redis-py) a wrong password stays wrong
            except ConnectionError:
                await asyncio.sleep(delay)
                delay *= 2
        return await self.line.evalsha(self.sha, self.text, keys, args)
