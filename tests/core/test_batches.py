"""The pull loops' stop: a cancel swallowed inside a client library (Python 3.11's `wait_for` can lose one
that meets its timeout) still stops the loop on its next turn, and a batch in hand is finished first."""
from __future__ import annotations

import asyncio

import pytest

from starbase_core.batches import finish_shielded, raise_if_cancelled


async def test_a_pull_loop_stops_even_when_a_library_swallowed_the_cancel():
    turns = 0

    async def pull_loop() -> None:
        nonlocal turns
        while True:
            raise_if_cancelled()
            turns += 1
            try:
                await asyncio.sleep(0.01)      # a fetch whose library loses the cancel on its timeout
            except asyncio.CancelledError:
                pass

    task = asyncio.create_task(pull_loop())
    while turns < 3:
        await asyncio.sleep(0.01)
    task.cancel()
    done, _ = await asyncio.wait({task}, timeout=10)
    assert done == {task} and task.cancelled()


async def test_a_batch_in_hand_is_finished_before_the_stop_is_raised():
    finished = asyncio.Event()

    async def batch() -> None:
        await asyncio.sleep(0.05)
        finished.set()

    task = asyncio.create_task(finish_shielded(batch()))
    await asyncio.sleep(0.01)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert finished.is_set()


async def test_a_task_never_asked_to_stop_goes_on():
    raise_if_cancelled()        # nothing raised outside a cancel
