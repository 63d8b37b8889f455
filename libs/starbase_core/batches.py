"""What every durable-consumer worker does with a batch of JetStream messages in hand (the bot worker,
scoring's durable consumer):

    await finish_shielded(handle(messages))   # a stop (cancel) waits for the batch, then is raised
    heartbeat = keep_alive(messages, every)   # `in_progress` while handling; cancel it when done
    raise_if_cancelled()                      # each turn of the pull loop: a swallowed stop still stops
    await quietly(*(m.nak() for m in messages))

Shielded because a cancel landing inside a Redis or NATS call may be swallowed by the client library,
or leave a batch half applied and unacknowledged until its ack wait runs out.
"""
from __future__ import annotations

import asyncio
from typing import Any, Awaitable, Iterable


async def finish_shielded(work: Awaitable[Any]) -> Any:
    """Await `work` so that a cancel of the caller lets it finish first, then is raised."""
    step = asyncio.ensure_future(work)
    try:
        return await asyncio.shield(step)
    except asyncio.CancelledError:
        await asyncio.wait({step})
        raise


def raise_if_cancelled() -> None:
    """Raise CancelledError when the running task has been asked to stop. Python 3.11's `wait_for` (used
    inside nats-py's fetch) can swallow a cancel that lands as its timeout fires; a pull loop that just
    goes round again on a timeout would then never stop, so it asks here on each turn."""
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError()


async def quietly(*calls: Awaitable[Any]) -> None:
    """Best-effort messages to the server (the connection may be the thing that failed)."""
    await asyncio.gather(*calls, return_exceptions=True)


def keep_alive(messages: Iterable[Any], every: float) -> asyncio.Future:
    """Tell the server every `every` seconds that the batch is still being worked on; cancel when done."""
    held = list(messages)

    async def beat() -> None:
        while True:
            await asyncio.sleep(every)
            await quietly(*(message.in_progress() for message in held))
    return asyncio.ensure_future(beat())
