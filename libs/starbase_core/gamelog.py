"""A game's stream as people and outside auditors read it, written once for every reader.

- `text_line`: one readable line per event (`starbase log`, and `GET /games/{id}/log?format=text`,
  which passes the events as the caller may see them: redacted while the game runs).
- `export_line`: one envelope as a JSON line, hashes and meta included (`starbase export`, and
  `GET /games/{id}/export` once the game is over), which `starbase audit --file` reads back.
"""
from __future__ import annotations

import json
from typing import Any

from starbase_core.envelope import Envelope

EXPORT_MEDIA_TYPE = "application/x-ndjson"


def text_line(seq: int, time: str, actor: str | None, kind: str, data: dict[str, Any] | None) -> str:
    """`#<seq> <time>  <actor> <type> key=value …`, values as compact JSON (the event's own `type`
    and `v` left out: the type is in its column, the schema version is for machines)."""
    shown = {k: v for k, v in (data or {}).items() if k not in ("type", "v")}
    details = " ".join(f"{k}={json.dumps(v, separators=(',', ':'))}" for k, v in shown.items())
    who = actor or "-"
    return f"#{seq:<5} {time}  {who:<12} {kind:<22} {details}".rstrip()


def envelope_text(envelope: Envelope) -> str:
    return text_line(envelope.seq, envelope.time, envelope.actor, envelope.type, envelope.data)


def export_line(envelope: Envelope) -> str:
    return envelope.model_dump_json() + "\n"
