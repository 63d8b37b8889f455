"""What one viewer may see of a stored envelope, as the JSON a client receives.

Game envelopes go through the platform's `gamestream.redact` (the engine's own `redact`, no hashes, no
meta: meta carries the command, which can be a secret choice). An event hidden from the viewer as a
whole still shows its place (`type: "Hidden"`, `data: null`), so a client's `seq` keeps counting and a
resume after a reconnect asks for the right point. Table envelopes are public to whoever may see the table.
"""
from __future__ import annotations

from starbase_core.envelope import Envelope
from starbase_core.gamestream import redact

HIDDEN = "Hidden"


def wire_event(engine, envelope: Envelope, viewer: str | None) -> dict:
    if engine is None:
        return {"stream": envelope.stream, "seq": envelope.seq, "type": envelope.type, "data": envelope.data,
                "actor": envelope.actor, "time": envelope.time}
    shown = redact(engine, envelope, viewer)
    if shown is None:           # (its keys are every event's: a move's answer is made of what is pushed)
        return {"stream": envelope.stream, "seq": envelope.seq, "type": HIDDEN, "data": None,
                "actor": envelope.actor, "time": envelope.time, "platform": False, "played_by": None}
    return shown
