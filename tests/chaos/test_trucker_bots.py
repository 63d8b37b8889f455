"""What the chaos trials' Trucker bot writes in its journal for each kind of answer.

The checker holds the store to the journal, so a "send it again" answer (RETRY: the move may or may not
be stored) journaled as a refusal would be a false "refused but applied" whenever the first sending did
land; and a resend that the bot skipped would hide a service that loses moves. The bot's socket is
replaced by the answers a service gives, in order; everything else is the bot's own code.
"""
from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest

from starbase_chaos import trucker_bots
from starbase_chaos.journal import ACKNOWLEDGED, REFUSED, UNANSWERED, Journal
from starbase_chaos.trucker_bots import Table, TruckerPlayer

ACK = {"v": 1, "kind": "ack", "id": "m1", "first_seq": 7, "seq": 8,
       "events": [{"data": {"component": "c12"}}, {"data": {}}]}


def error(code: str) -> dict:
    return {"v": 1, "kind": "error", "id": "m1", "error": {"code": code, "message": "…"}}


class Scripted(TruckerPlayer):
    """The bot, with the service's answers to each sending given in advance (None: no answer)."""

    def __init__(self, answers: list):
        super().__init__("ws://unused", SimpleNamespace(player_id="p1"), "http://unused", Journal(), "g1", Table(1))
        self.answers, self.sent = list(answers), 0

    async def _send(self, op, fields, client_id):
        self.sent += 1
        return self.answers.pop(0)


@pytest.fixture(autouse=True)
def no_pause(monkeypatch):
    real_sleep = asyncio.sleep
    monkeypatch.setattr(trucker_bots.asyncio, "sleep", lambda seconds: real_sleep(0))


def play(bot: Scripted) -> None:
    asyncio.run(bot._move("grab_face_down", {}, "m1", asyncio.Event()))


@pytest.mark.parametrize("again", sorted(trucker_bots.AGAIN))
def test_a_send_it_again_answer_is_resent_with_the_same_id_and_never_journaled_as_a_refusal(again):
    bot = Scripted([error(again), None, ACK])
    play(bot)
    assert bot.sent == 3
    [record] = bot.journal.records
    assert (record.command_id, record.outcome, record.seqs) == ("p1:m1", ACKNOWLEDGED, (7, 8))
    assert bot.holding == "c12"


def test_a_rules_refusal_is_journaled_with_its_code_and_not_resent():
    bot = Scripted([error("WAREHOUSE_EMPTY")])
    play(bot)
    assert bot.sent == 1
    [record] = bot.journal.records
    assert (record.outcome, record.code) == (REFUSED, "WAREHOUSE_EMPTY")
    assert bot.table.pile_empty


def test_a_move_still_unsettled_after_every_resend_is_journaled_unanswered():
    bot = Scripted([error("RETRY")] * trucker_bots.RESENDS)
    play(bot)
    assert bot.sent == trucker_bots.RESENDS
    assert [r.outcome for r in bot.journal.records] == [UNANSWERED]
