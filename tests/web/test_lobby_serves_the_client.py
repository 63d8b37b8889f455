"""The lobby serves the web client at `/`, its API docs with local assets, and read-only engine facts
(`GET /engines`, `GET /engines/{game}/data/{name}`) from the engines' own data files."""
from __future__ import annotations

import re
import sys
import types
from importlib import resources

import httpx
import pytest
import yaml
from fastapi import FastAPI

from lobby import engines as engines_module
from lobby.engines import engines_router
from lobby.webapp import WebSettings, install_web_client
from starbase_rules import registry
from starbase_rules.registry import game_info, get_game


def bare_app(**settings) -> FastAPI:
    app = FastAPI(docs_url=None, redoc_url=None)
    app.include_router(engines_router)
    install_web_client(app, WebSettings(**settings) if settings else None)
    return app


async def get(app: FastAPI, path: str) -> httpx.Response:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://lobby") as client:
        return await client.get(path)


async def test_engines_lists_every_game_with_its_player_range_and_the_clock_option():
    reply = await get(bare_app(), "/engines")
    assert reply.status_code == 200
    listed = {engine["name"]: engine for engine in reply.json()}
    assert set(listed) >= {"moon21", "t2038", "stellar", "trucker"}
    for name in ("moon21", "t2038", "stellar", "trucker"):
        engine = get_game(name)
        assert (listed[name]["min_players"], listed[name]["max_players"]) == (engine.min_players, engine.max_players)
        clock = [o for o in listed[name]["options"] if o["name"] == "decision_seconds"]
        assert clock == [{"name": "decision_seconds", "type": "integer", "default": None, "minimum": 0,
                          "maximum": None, "choices": None, "platform": True,
                          "description": "seconds a player has for each decision (0: no clock)"}]
    assert listed["moon21"]["data"] == ["entities", "map", "market", "tiles"]


async def test_engine_data_is_the_engines_own_file():
    for name in ("map", "tiles", "market", "entities"):
        reply = await get(bare_app(), f"/engines/moon21/data/{name}")
        assert reply.status_code == 200
        own = yaml.safe_load(resources.files("moon21").joinpath("data", f"{name}.yaml").read_text("utf-8"))
        assert reply.json().keys() == {str(key) for key in own}
    board = (await get(bare_app(), "/engines/moon21/data/map")).json()
    assert board["hexes"]["E9"] == {"kind": "space_port"} and len(board["hexes"]) == 69


@pytest.mark.parametrize("path, code", [
    ("/engines/nogame/data/map", "UNKNOWN_GAME"),
    ("/engines/moon21/data/nothing", "DATA_NOT_FOUND"),
    ("/engines/moon21/data/map.yaml", "DATA_NOT_FOUND"),
    ("/engines/moon21/data/..", "NOT_FOUND"),               # no route: never a file outside data/
    ("/engines/moon21/data/%2E%2E%2Fgame", "NOT_FOUND"),
])
async def test_unknown_games_and_data_are_404s_with_a_code(path, code):
    from lobby.app import _install_errors        # the lobby's error shape for its own refusals
    app = bare_app()
    _install_errors(app)
    reply = await get(app, path)
    assert reply.status_code == 404
    assert reply.json()["error"]["code"] == code


class _Declared:
    """An engine that declares its options (the engine base's `meta`), in the shapes we accept."""
    name, min_players, max_players = "declared", 2, 4

    class meta:
        min_players, max_players = 3, 4
        options = [
            {"name": "short", "type": "bool", "default": False, "description": "the short game"},
            {"name": "variant", "choices": ["a", "b"], "default": "a"},
            {"name": "limit", "type": int, "min": 1, "max": 9, "default": 5},
        ]


async def test_engine_data_is_found_beside_the_engine_even_when_its_package_name_is_shadowed(monkeypatch):
    # The test suite's own `tests/t2038` package can take the name `t2038` in sys.modules (pytest's
    # importlib mode): the data must still come from the engine's folder, not from whatever holds the name.
    engines_module._read.cache_clear()
    get_game("t2038")                                   # the engine is loaded, as in a running lobby
    monkeypatch.setitem(sys.modules, "t2038", types.ModuleType("t2038"))
    listed = {e["name"]: e for e in (await get(bare_app(), "/engines")).json()}
    assert listed["t2038"]["data"] == ["entities", "map", "market", "tiles"]
    reply = await get(bare_app(), "/engines/t2038/data/map")
    assert reply.status_code == 200 and reply.json()["printed_bases"]["K9"] == "TSI"
    engines_module._read.cache_clear()


async def test_declared_options_are_listed_when_an_engine_has_meta(monkeypatch):
    monkeypatch.setitem(registry.ENGINES, "declared", "unused:GAME")
    real = registry.get_game
    monkeypatch.setattr(registry, "get_game", lambda name: _Declared() if name == "declared" else real(name))
    listed = {e["name"]: e for e in (await get(bare_app(), "/engines")).json()}
    declared = listed["declared"]
    assert (declared["min_players"], declared["max_players"]) == (3, 4)
    options = {o["name"]: o for o in declared["options"]}
    assert options["short"]["type"] == "boolean" and options["short"]["default"] is False
    assert options["variant"]["type"] == "choice" and options["variant"]["choices"] == ["a", "b"]
    assert (options["limit"]["type"], options["limit"]["minimum"], options["limit"]["maximum"]) == ("integer", 1, 9)
    assert options["decision_seconds"]["platform"] is True
    assert engines_module._specs({"x": {"default": 1}}) == [("x", {"default": 1})]


async def test_the_docs_pages_load_their_assets_from_the_lobby():
    for path in ("/docs", "/redoc"):
        reply = await get(bare_app(), path)
        assert reply.status_code == 200
        sources = re.findall(r'(?:src|href)="([^"]+)"', reply.text)
        assert sources and all(s.startswith("/docs-assets/") or s == "/openapi.json" for s in sources), sources
        assert "cdn." not in reply.text and "fonts.googleapis" not in reply.text


async def test_a_lobby_whose_client_is_not_built_says_how_to_build_it(tmp_path):
    reply = await get(bare_app(web_dist=tmp_path), "/")
    assert reply.status_code == 503
    assert reply.json()["error"]["code"] == "CLIENT_NOT_BUILT"


@pytest.mark.integration
async def test_the_real_lobby_serves_the_client_beside_its_api(stack, http, client_built):
    page = await http.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    policy = page.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
    # Sockets reach this lobby and the Trucker service only, never any host.
    connect = re.search(r"connect-src ([^;]+)", policy).group(1).split()
    lobby = stack.http.removeprefix("http://")
    assert connect == ["'self'", f"ws://{lobby}", f"wss://{lobby}", stack.settings.trucker_public_url.rstrip("/")]
    forged = await http.get("/", headers={"Host": "evil.example; script-src *"})
    assert "script-src *" not in forged.headers["content-security-policy"]
    assert page.headers["cache-control"] == "no-cache"
    assets = re.findall(r'(?:src|href)="\./(assets/[^"]+)"', page.text)
    assert assets
    for asset in assets:
        reply = await http.get(f"/{asset}")
        assert reply.status_code == 200 and "immutable" in reply.headers["cache-control"]
    # The API is untouched: JSON where it was, and its 404s are still the API's own.
    assert (await http.get("/tables")).json()["items"] == []
    missing = await http.get("/nothing-here")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "NOT_FOUND"
    assert (await http.get("/assets/nothing.js")).status_code == 404


async def test_an_engine_on_the_engine_base_lists_its_declaration():
    """Stellar Ventures declares its options on the engine base (`registry.game_info`): the form gets them."""
    listed = {engine["name"]: engine for engine in (await get(bare_app(), "/engines")).json()}
    stellar = listed["stellar"]
    info = game_info("stellar")
    assert info is not None and stellar["title"] == info.title
    options = {o["name"]: o for o in stellar["options"]}
    assert set(options) == {spec.key for spec in info.options} | {"decision_seconds"}
    difficulty = info.option("difficulty")
    assert options["difficulty"]["choices"] == list(difficulty.choices)
    assert options["difficulty"]["default"] == difficulty.default
    assert options["first_play"]["type"] == "boolean"
