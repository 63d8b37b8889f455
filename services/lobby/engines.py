"""Read-only facts about the games this lobby serves: `GET /engines` and each engine's static data.

    GET /engines                        name, player range, declared options, data files of every engine
    GET /engines/{game}/data/{name}     one of the engine's own data files (`libs/<engine>/data/*.yaml`), as JSON

Clients build their "new table" forms from `/engines` and draw boards from the data (the 21Moon map,
tiles and market), so a board is drawn from the same facts the rules use. Option declarations come from
the engine base's declaration (`registry.game_info`), else the engine's `meta` when it has one; an
engine with neither lists only its player range and the platform's own `decision_seconds`.
"""
from __future__ import annotations

import dataclasses
import re
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml
from fastapi import APIRouter
from pydantic import BaseModel, Field

from starbase_core.gamestream import DECISION_SECONDS
from starbase_rules import registry

from lobby.exceptions import NotFound
from lobby.schemas import ErrorOut

engines_router = APIRouter(responses={404: {"model": ErrorOut}}, tags=["engines"])
DATA_NAME = re.compile(r"^[a-z0-9_]{1,40}$")
DATA_SUFFIXES = (".yaml", ".yml", ".json")


class OptionOut(BaseModel):
    name: str
    type: str = Field(description="boolean, integer, number, string or choice")
    default: Any = None
    minimum: float | None = None
    maximum: float | None = None
    choices: list[Any] | None = None
    description: str | None = None
    platform: bool = Field(False, description="read by the platform (the decision clock), not the engine")


class EngineOut(BaseModel):
    name: str
    title: str | None = Field(None, description="the game's name for people, when the engine declares one")
    min_players: int
    max_players: int
    options: list[OptionOut]
    data: list[str] = Field(description="names of the engine's static data: GET /engines/{name}/data/{data}")


CLOCK_OPTION = OptionOut(name=DECISION_SECONDS, type="integer", default=None, minimum=0,
                         description="seconds a player has for each decision (0: no clock)", platform=True)


@engines_router.get("/engines", response_model=list[EngineOut])
async def list_engines() -> list[EngineOut]:
    return [engine for name in sorted(registry.ENGINES) if (engine := _describe(name)) is not None]


@engines_router.get("/engines/{game}/data/{name}", response_model=dict[str, Any])
async def engine_data(game: str, name: str) -> dict[str, Any]:
    files = _data_files(_engine(game))
    if name not in files:
        raise NotFound(f"{game!r} has no data called {name!r}; it has {sorted(files)}", "DATA_NOT_FOUND")
    return _read(game, files[name])


def _engine(game: str):
    if game not in registry.ENGINES:
        raise NotFound(f"no game called {game!r}", "UNKNOWN_GAME")
    try:
        return registry.get_game(game)
    except (ImportError, AttributeError):
        raise NotFound(f"the game {game!r} is not available on this server", "UNKNOWN_GAME") from None


def _describe(name: str) -> EngineOut | None:
    try:
        engine = _engine(name)
    except NotFound:
        return None
    info = registry.game_info(name)         # the engine base's declaration, when the engine is on it
    meta = info if info is not None else getattr(engine, "meta", None)
    low = _field(meta, "min_players", getattr(engine, "min_players", 1))
    high = _field(meta, "max_players", getattr(engine, "max_players", low))
    declared = [_option(spec, key) for key, spec in _specs(_field(meta, "options", None))]
    declared = [option for option in declared if option.name != DECISION_SECONDS]
    return EngineOut(name=name, title=_field(meta, "title", None), min_players=low, max_players=high,
                     options=[*declared, CLOCK_OPTION], data=sorted(_data_files(engine)))


def _field(meta, key: str, default):
    if meta is None:
        return default
    if isinstance(meta, dict):
        return meta.get(key, default)
    return getattr(meta, key, default)


def _plain(spec) -> dict:
    """An option declaration as a dict, whatever it was declared as (dict, pydantic model, dataclass)."""
    if isinstance(spec, dict):
        return spec
    if hasattr(spec, "model_dump"):
        return spec.model_dump()
    if dataclasses.is_dataclass(spec) and not isinstance(spec, type):
        return dataclasses.asdict(spec)
    return {key: value for key, value in vars(spec).items() if not key.startswith("_")}


def _specs(options) -> list[tuple[str | None, dict]]:
    if not options:
        return []
    if isinstance(options, dict):
        return [(key, _plain(spec)) for key, spec in options.items()]
    return [(None, _plain(spec)) for spec in options]


def _option(spec: dict, key: str | None) -> OptionOut:
    choices = spec.get("choices") or spec.get("values") or spec.get("enum")
    default = spec.get("default")
    kind = spec.get("type")
    kind = getattr(kind, "__name__", kind)      # a declaration may name the Python type itself
    if kind is None:
        kind = "choice" if choices else type(default).__name__ if default is not None else "string"
    kind = {"bool": "boolean", "int": "integer", "float": "number", "str": "string", "enum": "choice",
            "literal": "choice"}.get(str(kind).lower(), str(kind).lower())
    return OptionOut(name=str(spec.get("name") or spec.get("key") or key), type=kind, default=default,
                     minimum=spec.get("minimum", spec.get("min")), maximum=spec.get("maximum", spec.get("max")),
                     choices=list(choices) if choices else None,
                     description=spec.get("description") or spec.get("help"))


def _data_folder(engine) -> Path | None:
    """The `data/` folder beside the engine's own module. Found from the module that defines the
    engine, not by its package's name: a name can be shadowed (a test package called `t2038`)."""
    module = sys.modules.get(type(engine).__module__)
    source = getattr(module, "__file__", None)
    if not source:
        return None
    for folder in Path(source).resolve().parents:
        if (folder / "data").is_dir():
            return folder / "data"
        if not (folder / "__init__.py").is_file():
            return None             # left the engine's package
    return None


def _data_files(engine) -> dict[str, str]:
    """name → file name of the engine package's data files (`data/map.yaml` is `map`)."""
    folder = _data_folder(engine)
    if folder is None:
        return {}
    names = [entry.name for entry in folder.iterdir() if entry.is_file()]
    found = {}
    for file_name in names:
        stem, dot, suffix = file_name.rpartition(".")
        if dot and f".{suffix}" in DATA_SUFFIXES and DATA_NAME.match(stem):
            found[stem] = file_name
    return found


@lru_cache(maxsize=64)
def _read(game: str, file_name: str) -> dict[str, Any]:
    folder = _data_folder(registry.get_game(game))
    if folder is None:
        raise NotFound(f"{game!r} has no data", "DATA_NOT_FOUND")
    parsed = yaml.safe_load((folder / file_name).read_text("utf-8"))
    return parsed if isinstance(parsed, dict) else {"items": parsed}
