"""JSON text as the services send it to each other and to clients: compact, UTF-8 kept, with orjson.

orjson takes a tenth of the standard library's CPU per call, and the hot paths (a push, a command sent to
the adjudicator, a told turn stored in Redis) pay it on every move (docs/lobby-capacity.md). It refuses a
few values the standard library writes (an integer past 64 bits, say): those take the slow way, so the
text is the same JSON either way.
"""
from __future__ import annotations

import json

import orjson


def compact(value) -> str:
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except (orjson.JSONEncodeError, TypeError):
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
