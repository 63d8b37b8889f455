"""A command's reply whose envelopes the caller holds already (the lobby's live copy, which the store's
follow often fills first) is answered with the held envelopes, not decoded again; a held copy that is not
that run exactly (another count, start, stream or last hash) is never taken."""
from __future__ import annotations

from adjudicator.client import _envelopes
from adjudicator.wire import pb
from starbase_core.envelope import NewEvent, seal


def test_a_reply_is_answered_with_the_held_run_only_when_it_is_the_same_run():
    run = seal("game.h", [NewEvent(type="A", data={"n": 1}), NewEvent(type="B")], last_seq=6,
               last_hash="c" * 64, command_id="x")
    reply = pb.EventsReply(events=pb.Events(envelope_json=[e.model_dump_json() for e in run]))
    other = seal("game.h", [NewEvent(type="A", data={"n": 2}), NewEvent(type="B")], last_seq=6,
                 last_hash="c" * 64, command_id="x")          # the same seqs, another run (a fork)
    asked = []

    def holding(envelopes):
        def held(stream, first, count):
            asked.append((stream, first, count))
            return envelopes
        return held

    assert all(a is b for a, b in zip(_envelopes(reply, holding(run)), run))
    assert asked == [("game.h", 7, 2)]
    for wrong in (None, [], run[:1], run[1:] + run[:1], other, [run[0].model_copy(update={"seq": 5}), run[1]],
                  [e.model_copy(update={"stream": "game.i"}) for e in run]):
        decoded = _envelopes(reply, holding(wrong))
        assert decoded == run and not any(a is b for a, b in zip(decoded, run))
    assert _envelopes(reply) == run
