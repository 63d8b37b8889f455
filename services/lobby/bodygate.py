"""The gate every HTTP request body passes before the app reads it: size, media type, and sane JSON.

Pure ASGI, so a refused body never reaches a route and so never changes anything:

- over `limit` bytes, announced (Content-Length) or streamed (chunked): 413 BODY_TOO_LARGE;
- a body that is not declared as JSON (`application/json` or `…+json`): 415 UNSUPPORTED_MEDIA_TYPE
  (FastAPI alone would try to validate it and answer a puzzling 422 "should be a valid dictionary");
- JSON that Python's parser takes but JSON does not allow, or that the app could not store or echo:
  `NaN`/`Infinity` (a table created with `{"x": NaN}` in its options was stored, then its reply failed
  with a 500), nesting past `MAX_DEPTH`, invalid UTF-8, lone surrogates: 400 MALFORMED_JSON.
"""
from __future__ import annotations

import json

from fastapi.responses import JSONResponse

from lobby.exceptions import error_body

MAX_DEPTH = 64                      # far deeper than any command or option set; recursion stays shallow
BODY_METHODS = {"POST", "PUT", "PATCH", "DELETE"}
# The scope key of a body that passed: its value, as `json.loads(body)` gives it (valid UTF-8 without a
# BOM parses the same as text or as bytes), so a lean route need not parse it again.
PARSED = "starbase.body_json"
_UNPARSED = object()


class MalformedJson(ValueError):
    pass


class BodyGate:
    def __init__(self, app, limit: int):
        self.app, self.limit = app, limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = dict(scope.get("headers") or [])
        declared = headers.get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            return await self._refuse(scope, send, *(
                (413, "BODY_TOO_LARGE", f"request bodies are limited to {self.limit} bytes") if declared.isdigit()
                else (400, "BAD_REQUEST", "Content-Length is not a number")))
        chunks, received = [], 0
        while True:                 # read it all first, up to the limit: small by construction
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            received += len(message.get("body", b""))
            if received > self.limit:
                return await self._refuse(scope, send, 413, "BODY_TOO_LARGE",
                                          f"request bodies are limited to {self.limit} bytes")
            chunks.append(message)
            if not message.get("more_body", False):
                break
        body = b"".join(m.get("body", b"") for m in chunks)
        if body.strip() and scope.get("method") in BODY_METHODS:
            refusal, value = _parse(headers.get(b"content-type", b""), body)
            if refusal is not None:
                return await self._refuse(scope, send, *refusal)
            if value is not _UNPARSED:
                scope[PARSED] = value   # the command route takes it from here rather than parse it again
        pending = iter(chunks)

        async def replay():
            return next(pending, None) or await receive()

        await self.app(scope, replay, send)

    @staticmethod
    async def _refuse(scope, send, status: int, code: str, message: str) -> None:
        await JSONResponse(error_body(code, message), status)(scope, None, send)


def check_json_body(content_type: bytes, body: bytes) -> tuple[int, str, str] | None:
    """None when the body is JSON the app can take, else (status, code, message)."""
    return _parse(content_type, body)[0]


def _parse(content_type: bytes, body: bytes) -> tuple[tuple[int, str, str] | None, object]:
    """(the refusal or None, the body's value when it parsed and passed, else `_UNPARSED`)."""
    media = content_type.split(b";")[0].strip().lower()
    if media != b"application/json" and not media.endswith(b"+json"):
        shown = media.decode("latin-1") or "none"
        return (415, "UNSUPPORTED_MEDIA_TYPE", f"send JSON with 'Content-Type: application/json' (got {shown})"), \
            _UNPARSED
    try:
        value = _DECODER.decode(body.decode("utf-8"))
        _check(value, 0)
    except UnicodeDecodeError:
        return (400, "MALFORMED_JSON", "the request body is not valid UTF-8"), _UNPARSED
    except RecursionError:
        return (400, "MALFORMED_JSON", f"the request body nests deeper than {MAX_DEPTH} levels"), _UNPARSED
    except MalformedJson as problem:
        return (400, "MALFORMED_JSON", str(problem)), _UNPARSED
    except json.JSONDecodeError:
        return None, _UNPARSED      # plain syntax errors: FastAPI reports them as MALFORMED_JSON itself
    except ValueError as problem:   # e.g. an integer of more than 4300 digits
        return (400, "MALFORMED_JSON", f"the request body is not JSON this server takes: {problem}"[:300]), _UNPARSED
    return None, value


def _no_constant(name: str):
    raise MalformedJson(f"{name} is not a JSON number: numbers must be finite")


# One decoder for every body: `json.loads` with an option builds a new one on each call.
_DECODER = json.JSONDecoder(parse_constant=_no_constant)


def _check(value, depth: int) -> None:
    if depth > MAX_DEPTH:
        raise MalformedJson(f"the request body nests deeper than {MAX_DEPTH} levels")
    if isinstance(value, str):
        _check_text(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_text(key)
            _check(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            _check(item, depth + 1)


def _check_text(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise MalformedJson("the request body holds a lone UTF-16 surrogate (e.g. \\ud800): "
                            "strings must be valid Unicode") from None
