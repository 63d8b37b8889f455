"""The game's fixed tables, read once from the YAML files in `data/` (facts only; see docs/t2038.md)."""
from __future__ import annotations

from functools import cache
from pathlib import Path

import yaml

_DATA = Path(__file__).parent / "data"


@cache
def load(name: str) -> dict:
    with open(_DATA / f"{name}.yaml", encoding="utf-8") as handle:
        return yaml.safe_load(handle)


def map_data() -> dict:
    return load("map")


def tile_data() -> dict:
    return load("tiles")


def market_data() -> dict:
    return load("market")


def entities() -> dict:
    return load("entities")
