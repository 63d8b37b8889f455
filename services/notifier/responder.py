"""Test webhooks and confirmation codes on request: the lobby asks (`client.send_test`, `client.save`
with a new e-mail address), the notifier sends one now.

A core NATS request on NOTIFIER_TEST_SUBJECT (`{"player": id}`), answered by any notifier replica
(queue group), so only the notifier ever connects to players' URLs. Requests run as their own tasks,
at most `CONCURRENT` at once; past that the answer is "busy" at once rather than a queue.
"""
from __future__ import annotations

import asyncio
import json

import structlog

from notifier.delivery import Deliverer
from starbase_core.supervise import cancel_and_wait

log = structlog.get_logger(__name__)
CONCURRENT = 16


class ProbeResponder:
    def __init__(self, nc, deliverer: Deliverer, subject: str = "notifier.test"):
        self.nc, self.deliverer, self.subject = nc, deliverer, subject
        self._subscription = None
        self._tasks: set[asyncio.Task] = set()

    async def start(self) -> "ProbeResponder":
        self._subscription = await self.nc.subscribe(self.subject, queue="notifier", cb=self._on_request)
        return self

    async def stop(self) -> None:
        if self._subscription is not None:
            await self._subscription.unsubscribe()
        await cancel_and_wait(list(self._tasks))

    async def _on_request(self, message) -> None:
        if len(self._tasks) >= CONCURRENT:
            await self._answer(message, {"delivered": False, "code": "BUSY", "problem": "too many tests at once"})
            return
        task = asyncio.create_task(self._handle(message))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _handle(self, message) -> None:
        try:
            request = json.loads(message.data)
            player, code = request["player"], request.get("confirmation_code")
            if not isinstance(player, str) or not player:
                raise ValueError("no player")
            if isinstance(code, str):
                answer = await self.deliverer.send_confirmation(player, code)
            else:
                answer = await self.deliverer.send_test(player)
        except (ValueError, KeyError, TypeError):
            answer = {"delivered": False, "code": "BAD_REQUEST", "problem": "the request names no player"}
        except Exception:
            log.exception("notifier_test_failed")
            answer = {"delivered": False, "code": "INTERNAL", "problem": "the notifier could not send it"}
        await self._answer(message, answer)

    @staticmethod
    async def _answer(message, answer: dict) -> None:
        if message.reply:
            await message.respond(json.dumps(answer).encode())
