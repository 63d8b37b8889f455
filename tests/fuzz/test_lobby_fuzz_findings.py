"""One given/when/then test per bug the fuzzing found: each was a 5xx or a wrong answer before its fix,
and each must stay a clear 4xx in `{"error": {"code", "message"}}` that changes nothing."""

import pytest
import websockets
from itsdangerous import URLSafeTimedSerializer

from tests.support import sockets
from tests.support.stack import seat_and_start

pytestmark = pytest.mark.integration
JSON = {"content-type": "application/json"}


def assert_refused(reply, status: int, code: str):
    assert reply.status_code == status, reply.text
    error = reply.json()["error"]
    assert error["code"] == code and error["message"], reply.text


async def table_ids(stack) -> list[str]:
    return sorted(stack.runtime.projection.tables)


@pytest.fixture
async def game(register):
    ann, bob = await register("ann"), await register("bob")
    return await seat_and_start([ann, bob], "testjack"), ann


async def test_a_non_ascii_game_or_table_id_is_not_found_not_a_500(http, game):
    # Given a player; when they address a game or a table by an id with a non-ASCII letter (which
    # str.isalnum() accepted but the store refuses as a stream name)
    _, ann = game
    replies = [await ann.post("/games/õ/commands", {"command": {"type": "Draw"}}),
               await ann.get("/games/õ/view"), await ann.post("/tables/õ/join"), await http.get("/tables/٣")]
    # Then each is a 404 with the usual codes
    for reply, code in zip(replies, ["GAME_NOT_FOUND", "GAME_NOT_FOUND", "TABLE_NOT_FOUND", "TABLE_NOT_FOUND"]):
        assert_refused(reply, 404, code)


@pytest.mark.parametrize("path", ["/leaderboards/all", "/players/someone/history", "/tables"])
async def test_an_offset_past_any_integer_redis_takes_is_a_422_not_a_500(http, path):
    # Given any paged listing; when the offset is far past int64
    reply = await http.get(path, params={"offset": 10**20})
    # Then it is refused as invalid input, and the largest allowed offset still answers an empty page
    assert_refused(reply, 422, "VALIDATION_FAILED")
    assert (await http.get(path, params={"offset": 2**53 - 1})).status_code == 200


async def test_a_huge_after_on_a_log_is_a_422(http, game):
    game_id, _ = game
    assert_refused(await http.get(f"/games/{game_id}/log", params={"after": 10**20}), 422, "VALIDATION_FAILED")
    assert_refused(await http.get(f"/tables/{game_id}/chat", params={"after": 10**20}), 422, "VALIDATION_FAILED")


@pytest.mark.parametrize("literal", [b"NaN", b"Infinity", b"-Infinity"])
async def test_a_non_finite_number_is_malformed_json_and_opens_no_table(stack, http, register, literal):
    # Given a player and the tables there are
    ann = await register("ann")
    before = await table_ids(stack)
    # When they open a table whose options hold NaN or Infinity (Python's parser takes them; JSON does not)
    body = b'{"game": "testjack", "seats": 2, "options": {"x": ' + literal + b"}}"
    reply = await http.post("/tables", content=body, headers={**ann.auth, **JSON})
    # Then it is refused as malformed JSON, and no table was stored (before: stored, then a 500)
    assert_refused(reply, 400, "MALFORMED_JSON")
    assert await table_ids(stack) == before


async def test_a_deeply_nested_body_is_malformed_json(http, game):
    game_id, ann = game
    body = b'{"command": {"type": "Draw", "x": ' + b"[" * 5000 + b"]" * 5000 + b"}}"
    reply = await http.post(f"/games/{game_id}/commands", content=body, headers={**ann.auth, **JSON})
    assert_refused(reply, 400, "MALFORMED_JSON")


async def test_a_lone_surrogate_in_a_string_is_malformed_json(http, game):
    game_id, ann = game
    reply = await http.post(f"/tables/{game_id}/chat", content=b'{"text": "hi \\ud800"}',
                            headers={**ann.auth, **JSON})
    assert_refused(reply, 400, "MALFORMED_JSON")
    assert (await http.get(f"/tables/{game_id}/chat")).json() == []


@pytest.mark.parametrize("content_type",
                         ["text/plain", "application/x-www-form-urlencoded", "application/xml", None])
async def test_a_body_that_is_not_declared_json_is_415(http, content_type):
    # Given a registration body; when it is sent with another media type (or none)
    headers = {"content-type": content_type} if content_type else {}
    body = b'{"name": "ann", "password": "a good password"}'
    reply = await http.post("/players", content=body, headers=headers)
    # Then it is 415, not a puzzling 422 "should be a valid dictionary"
    assert_refused(reply, 415, "UNSUPPORTED_MEDIA_TYPE")
    # And JSON with a charset or a +json media type is still JSON
    for name, declared in (("ann", "application/json; charset=utf-8"), ("bob", "application/merge-patch+json")):
        body = b'{"name": "%s", "password": "a good password"}' % name.encode()
        reply = await http.post("/players", content=body, headers={"content-type": declared})
        assert reply.status_code == 201, reply.text


@pytest.mark.parametrize("body", [{"game": "testjack", "seats": True}, {"game": "testjack", "seats": "2"},
                                  {"game": "testjack", "seats": 2, "private": "yes"}])
async def test_a_wrong_type_is_refused_not_coerced(stack, register, body):
    # Given a player; when a field has the wrong JSON type (true for a number, a string for a bool)
    ann = await register("ann")
    before = await table_ids(stack)
    reply = await ann.post("/tables", body)
    # Then it is a 422 and no table opens (before: `"seats": true` opened a one-seat table)
    assert_refused(reply, 422, "VALIDATION_FAILED")
    assert await table_ids(stack) == before


@pytest.mark.parametrize("header", ["Basic YW5uOnNlY3JldA==", "Bearer", "Token abc"])
async def test_a_malformed_authorization_header_is_401_even_where_a_token_is_optional(http, game, header):
    # Given public reads that serve anonymous callers; when the Authorization header is not "Bearer <token>"
    game_id, _ = game
    for path in ("/tables", f"/tables/{game_id}", f"/games/{game_id}/view", f"/games/{game_id}/log"):
        reply = await http.get(path, headers={"Authorization": header})
        # Then the caller hears their credentials are broken (before: silently served as a stranger)
        assert_refused(reply, 401, "INVALID_TOKEN")
    assert_refused(await http.get("/players/me", headers={"Authorization": header}), 401, "INVALID_TOKEN")


@pytest.mark.parametrize("payload", [{"x": 1}, ["ann"], "ann", {"id": 5, "name": None}, {"sub": "a", "ep": "0", "fam": "f"}])
async def test_a_signed_token_without_a_player_is_401_not_500(stack, http, payload):
    # Given a token signed with the lobby's secret but carrying no player (e.g. from an older build)
    token = URLSafeTimedSerializer(stack.settings.lobby_secret, salt="starbase-access").dumps(payload)
    # When it is used; then it is an invalid token
    assert_refused(await http.get("/players/me", headers={"Authorization": f"Bearer {token}"}), 401, "INVALID_TOKEN")


async def test_a_405_lists_every_method_the_path_allows(http):
    # Given /tables, served by two routes (GET lists, POST opens); when another method is used
    reply = await http.request("OPTIONS", "/tables")
    # Then the 405's Allow header names both (before: only the first route's method)
    assert_refused(reply, 405, "METHOD_NOT_ALLOWED")
    assert set(reply.headers["allow"].replace(" ", "").split(",")) == {"GET", "HEAD", "POST"}


async def test_optional_auth_is_documented_and_metrics_are_not_public(http):
    schema = (await http.get("/openapi.json")).json()
    assert {} in schema["paths"]["/tables"]["get"]["security"]
    # Metrics are served on their own port (METRICS_PORT), never on the public API.
    assert "/metrics" not in schema["paths"]
    assert (await http.get("/metrics")).status_code == 404


@pytest.mark.parametrize("after", ["-1", "abc", "²", "1e5", "99999999999999999999"])
async def test_a_bad_after_on_a_socket_is_refused_with_bad_after(stack, game, after):
    # Given a game; when a socket asks to resume after something that is not a seq (e.g. '²', which
    # str.isdigit() accepted and int() then refused)
    game_id, _ = game
    async with websockets.connect(f"{stack.ws}/games/{game_id}/ws?after={after}") as socket:
        message = await sockets.receive(socket)
        # Then it gets one BAD_AFTER error and a close with 4400
        assert message["kind"] == "error" and message["error"]["code"] == "BAD_AFTER"
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await socket.recv()
    assert closed.value.rcvd.code == 4400


async def test_a_whole_number_written_as_2_point_0_is_still_a_whole_number(register):
    # Given a player; when they open a table with "seats": 2.0 (JSON Schema calls that an integer)
    ann = await register("ann")
    table = await ann.ok(ann.post("/tables", {"game": "testjack", "seats": 2.0}))
    # Then the table has two seats, as the OpenAPI document promises
    assert len(table["seats"]) == 2


async def test_an_integer_too_long_to_parse_is_malformed_json(http, register):
    ann = await register("ann")
    body = b'{"game": "testjack", "seats": 2, "options": {"x": ' + b"9" * 5000 + b"}}"
    assert_refused(await http.post("/tables", content=body, headers={**ann.auth, **JSON}), 400, "MALFORMED_JSON")


@pytest.mark.parametrize("player_id", ["", "a.b", "*", ">", "õ"])
async def test_a_report_or_moderation_of_a_player_id_that_is_no_key_is_not_found_not_a_hang(http, register,
                                                                                           player_id):
    # Given a player; when they report a player id that could not be a key of the accounts bucket (the
    # empty id reached NATS as "p.", which it never answered: the request hung until it timed out)
    ann = await register("ann")
    reply = await ann.post("/reports", {"player_id": player_id, "reason": "spam"})
    # Then it is a plain 404, at once
    assert_refused(reply, 404, "PLAYER_NOT_FOUND")
