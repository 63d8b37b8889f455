"""The start of a worker service's process (`python -m bots`, `python -m clock`): stop on SIGTERM or
SIGINT, settings from the environment, refuse to start without its credentials, serve metrics, then run.

    async def main() -> None:
        await service_main(BotSettings, NEEDS, "bots", serve)     # serve(settings, stop)
"""
from __future__ import annotations

import asyncio
import signal
from typing import Awaitable, Callable, TypeVar

from starbase_core.config import CoreSettings, from_env
from starbase_core.credentials import require
from starbase_core.health import serve_metrics

S = TypeVar("S", bound=CoreSettings)


async def service_main(settings_type: type[S], needs: tuple[str, ...], service: str,
                       serve: Callable[[S, asyncio.Event], Awaitable[None]]) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    settings = from_env(settings_type)
    require(settings, needs, service)
    serve_metrics(settings.metrics_host, settings.metrics_port)
    await serve(settings, stop)
