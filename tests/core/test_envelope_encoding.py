"""The byte forms an envelope is hashed and stored in, and the time it is stamped with."""
from __future__ import annotations

import json
import re
from datetime import datetime, timezone

import pytest

from starbase_core import envelope
from starbase_core.envelope import NewEvent, canonical_json, seal, seal_to_json, utc_now

ISO_UTC = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$")


def test_the_canonical_form_is_sorted_compact_utf8_and_refuses_what_json_cannot_say():
    value = {"b": [1.5, "é ☃", None, True], "a": {"z": 1, "y": "\u2028"}}
    assert canonical_json(value) == json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                                               allow_nan=False).encode()
    assert canonical_json({"b": 1, "a": 2}) == b'{"a":2,"b":1}'
    with pytest.raises(ValueError):
        canonical_json({"x": float("nan")})


def test_the_stored_payload_holds_the_sealed_envelopes_and_their_hashes_hold():
    events = [NewEvent(type="A", data={"n": "ü"}, actor="p"), NewEvent(type="B", meta={"k": 1})]
    sealed, payload = seal_to_json("game.g", events, last_seq=4, last_hash="f" * 64, command_id="c1")
    assert json.loads(payload) == [e.model_dump() for e in sealed]
    assert [e.hash for e in sealed] == [e.computed_hash() for e in sealed]
    assert (sealed[0].seq, sealed[0].prev_hash, sealed[1].prev_hash) == (5, "f" * 64, sealed[0].hash)


def test_the_time_is_now_in_utc_with_microseconds_and_a_z():
    stamped, now = utc_now(), datetime.now(timezone.utc)
    assert ISO_UTC.match(stamped)
    assert abs((datetime.fromisoformat(stamped) - now).total_seconds()) < 1


def test_the_time_moves_on_to_the_next_second_and_keeps_leading_zeros(monkeypatch):
    class Clock:
        ns = 1_767_225_599_000_001_000        # 2025-12-31T23:59:59.000001Z

        def time_ns(self) -> int:
            return self.ns

    clock = Clock()
    monkeypatch.setattr(envelope, "_clock", clock)
    assert utc_now() == "2025-12-31T23:59:59.000001Z"
    clock.ns += 999_999_000                    # the next second, a new year
    assert utc_now() == "2026-01-01T00:00:00.000000Z"
    assert seal("game.g", [NewEvent(type="A")], last_seq=0, last_hash="0" * 64)[0].time == "2026-01-01T00:00:00.000000Z"


def test_a_runs_stream_first_seq_and_last_hash_are_read_off_its_json_and_anything_else_reads_as_none():
    events = [NewEvent(type="A", data={"seq": 9, "hash": "x", "s": '","seq":7,'}), NewEvent(type="B", data={"n": "é"})]
    sealed = seal("game.t-1", events, last_seq=41, last_hash="a" * 64, command_id='q"},"hash":"')
    texts = [e.model_dump_json() for e in sealed]
    assert envelope.run_of(texts[0], texts[-1]) == ("game.t-1", 42, sealed[-1].hash)
    assert envelope.run_of(texts[1], texts[1]) == ("game.t-1", 43, sealed[-1].hash)
    one = texts[0]
    assert envelope.run_of(one, one) == ("game.t-1", 42, sealed[0].hash)
    for first, last in [(one[1:], one),                                   # not an envelope's start
                        (one.replace('"seq":42', '"seq":"42"'), one),     # a seq that is not a number
                        (one.replace('"seq":42,', '"seq":42'), one),      # no end to it
                        (one, one[:-1]),                                  # not an envelope's end
                        (one, one.replace(',"hash":"', ',"hash" :"')),    # no hash last
                        (one, one[:-3] + '"}')]:                          # a hash too short
        assert envelope.run_of(first, last) is None
