"""A socket's messages are written at once by whoever pushes them (`Listener.write_now`), not by waking
the socket's writer task, and never out of order: a message goes straight out only when nothing is
queued before it and the writer holds nothing; otherwise it waits in the queue behind what came first.
"""
from __future__ import annotations

import json

import pytest

from trucker import api
from trucker.fanout import Listener

from tests.trucker_service.helpers import new_game
from tests.trucker_service.live import Client


def _listener(written: list, takes: list[bool] | None = None) -> Listener:
    """A listener whose socket takes a message at once while `takes` says so (all, when None)."""
    listener = Listener(viewer="ann", after=0)

    def write_now(item) -> bool:
        if takes is not None and not takes.pop(0):
            return False
        written.append(item)
        return True
    listener.write_now = write_now
    return listener


def test_a_message_with_nothing_before_it_is_written_at_once():
    written: list = []
    listener = _listener(written)
    listener.push('{"v":1,"kind":"event","event":{"seq":1}}')
    listener.push({"v": 1, "kind": "ack", "id": "1"})
    assert written == ['{"v":1,"kind":"event","event":{"seq":1}}', {"v": 1, "kind": "ack", "id": "1"}]
    assert listener.queue.empty()


def test_once_one_message_waits_everything_after_it_waits_behind_it_in_order():
    written: list = []
    listener = _listener(written, takes=[False, True, True])     # the socket's buffer is full, then not
    listener.push("e1")
    listener.push("e2")         # the socket would take it, but e1 is queued before it
    listener.push({"v": 1, "kind": "ack", "id": "1"})
    assert written == []
    assert [listener.queue.get_nowait() for _ in range(3)] == ["e1", "e2", {"v": 1, "kind": "ack", "id": "1"}]


def test_nothing_overtakes_the_message_the_writer_holds():
    written: list = []
    listener = _listener(written)
    listener.push("e1")                 # written at once
    listener.writer_holding = True      # the writer took a message off the queue, not yet written
    listener.push("e2")
    listener.writer_holding = False
    assert written == ["e1"] and listener.queue.get_nowait() == "e2"


def test_a_close_always_goes_through_the_writer():
    written: list = []
    listener = _listener(written)
    listener.push({"type": "close", "code": 4400})
    assert written == [] and listener.queue.get_nowait() == {"type": "close", "code": 4400}


@pytest.mark.integration
async def test_the_live_service_writes_events_and_acks_at_once_in_seq_order(live, jetstream_store, vault,
                                                                             monkeypatch):
    at_once: list[str] = []
    write_now = api.Connection.write_now

    def counted(connection, item) -> bool:
        done = write_now(connection, item)
        if done:
            at_once.append(item if isinstance(item, str) else json.dumps(item))
        return done
    monkeypatch.setattr(api.Connection, "write_now", counted)
    game = await new_game(jetstream_store, ["ann", "bob"], vault=vault)
    ann, bob = await Client.connect(live, game, "ann"), await Client.connect(live, game, "bob")
    for _ in range(3):
        ack = await ann.send("grab_face_down")
        assert ack["kind"] == "ack"
        await ann.send("return")
    await bob.wait_for_event(ack["seq"] + 1)
    # Every event once, in seq order, on both sockets; each ack after its own events.
    for client in (ann, bob):
        assert [e["seq"] for e in client.events] == list(range(client.welcome["seq"] + 1, ack["seq"] + 2))
    last_event = 0
    for message in ann.received[1:]:
        if message["kind"] == "event":
            last_event = message["event"]["seq"]
        else:
            assert message["kind"] == "ack" and message["seq"] <= last_event
    # ... and they went out at once, not through the writer task: 6 acks, 6 events to each of 2 sockets.
    assert sum('"kind": "ack"' in item for item in at_once) == 6
    assert sum('"kind":"event"' in item for item in at_once) == 12
    await ann.close(), await bob.close()
