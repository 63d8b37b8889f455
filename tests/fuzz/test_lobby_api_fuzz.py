"""Property-based fuzzing of the lobby's public HTTP API with schemathesis (bounded and derandomized).

Given a running lobby with a game in play, when schemathesis sends requests generated from the lobby's
own OpenAPI document (valid ones and schema-violating ones, with a valid token and without one), then
no answer is a 5xx, every answer matches the document (status, content type, body schema), and every
refusal has the `{"error": {"code", "message"}}` shape.

Bounded: a fixed number of examples per operation and `derandomize=True` (the examples are a function
of the test alone), so a run is deterministic and takes well under a minute.
"""
from __future__ import annotations

import argparse
import asyncio
from typing import Callable

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import (
    content_type_conformance, not_a_server_error, response_schema_conformance, status_code_conformance,
)

from starbase_cli.admin import execute
from tests.support.stack import seat_and_start

pytestmark = pytest.mark.integration

EXAMPLES_PER_OPERATION = 10
ROOT_PASSWORD = "the fuzzing admin's password"
FUZZ_SETTINGS = settings(max_examples=EXAMPLES_PER_OPERATION, derandomize=True, database=None, deadline=None,
                         phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck))


def assert_error_shape(response) -> None:
    """Every refusal is `{"error": {"code": "UPPER_SNAKE", "message": "..."}}`."""
    if response.status_code < 400:
        return
    body = response.json()
    error = body.get("error") if isinstance(body, dict) else None
    assert isinstance(error, dict), f"{response.status_code} without an error object: {response.text[:200]}"
    assert isinstance(error.get("code"), str) and error["code"].replace("_", "").isalnum() \
        and error["code"] == error["code"].upper(), f"bad error code: {response.text[:200]}"
    assert isinstance(error.get("message"), str) and error["message"], f"no message: {response.text[:200]}"


def fuzz(schema_doc: dict, base_url: str, login: Callable[[], str] | None, known_ids: dict[str, str]) -> list[str]:
    """Run every operation in both generation modes; return the operations tried (runs in a thread:
    schemathesis calls are blocking, and the lobby under test lives on the caller's event loop).
    `login` gives a fresh access token for each operation: a generated `DELETE /sessions` (log out
    everywhere) must not leave every later operation answering 401."""
    schema = schemathesis.openapi.from_dict(schema_doc)
    tried = []
    for result in schema.get_all_operations():
        operation = result.ok()
        headers = {"Authorization": f"Bearer {login()}"} if login else None
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            @FUZZ_SETTINGS
            @given(case=operation.as_strategy(generation_mode=mode), use_known_ids=st.booleans())
            def probe(case, use_known_ids):
                # Half the time aim at things that exist, so requests get past "no such table".
                if use_known_ids and case.path_parameters:
                    case.path_parameters = {name: known_ids.get(name, value)
                                            for name, value in case.path_parameters.items()}
                if headers is not None and mode is GenerationMode.POSITIVE:
                    case.headers = {**(case.headers or {}), **headers}
                response = case.call(base_url=base_url, timeout=20)
                case.validate_response(response, checks=[not_a_server_error, status_code_conformance,
                                                         content_type_conformance, response_schema_conformance])
                assert_error_shape(response)

            try:
                probe()
            except Unsatisfiable:
                assert mode is GenerationMode.NEGATIVE, operation.label   # nothing to violate (no inputs)
        tried.append(operation.label)
    return tried


@pytest.mark.timeout(240)
@pytest.mark.parametrize("with_token", [False, True], ids=["anonymous", "admin-token"])
async def test_generated_requests_never_get_a_5xx_and_always_match_the_schema(stack, http, register, with_token):
    ann, bob = await register("ann"), await register("bob")
    game_id = await seat_and_start([ann, bob], "testjack")
    message = await bob.ok(bob.post(f"/tables/{game_id}/chat", {"text": "hello"}))
    # With a token, the fuzz acts as an admin, so the moderation routes are reached past their role check.
    await execute(stack.admin_settings, argparse.Namespace(admin_command="create-admin", name="root"), ROOT_PASSWORD)
    schema_doc = (await http.get("/openapi.json")).json()
    known = {"game_id": game_id, "table_id": game_id, "player_id": ann.player_id, "board": "all",
             "message_id": message["id"]}

    def login() -> str:
        reply = httpx.post(f"{stack.http}/sessions", json={"name": "root", "password": ROOT_PASSWORD}, timeout=20)
        reply.raise_for_status()
        return reply.json()["access_token"]

    tried = await asyncio.to_thread(fuzz, schema_doc, stack.http, login if with_token else None, known)

    assert "POST /games/{game_id}/commands" in tried and "GET /tables" in tried
    assert len(tried) == len([m for path in schema_doc["paths"].values() for m in path])
