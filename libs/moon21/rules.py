"""21Moon's numbers, loaded once from `data/entities.yaml` and `data/market.yaml` (facts, not code)."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import yaml

from kit18xx.market import MarketGrid
from starbase_rules.handlers import Rules
from moon21.board.geometry import PHASE_COLOURS
from moon21.board.lays import OLS_MIN_DISTANCE

DATA = Path(__file__).parent / "data"

# The registry of 21Moon's decide and evolve handlers (`moon21.decide`, `moon21.evolve`).
RULES = Rules()


@dataclass(frozen=True)
class Private:
    id: str
    name: str
    value: int
    revenue: int
    sale_min: int
    sale_max: int


@dataclass(frozen=True)
class CorpSpec:
    id: str
    name: str
    local_base: str
    depot_costs: tuple[int, ...]


@dataclass(frozen=True)
class Rules:
    raw: dict
    grid: MarketGrid
    privates: dict[str, Private]
    corps: dict[str, CorpSpec]
    transport_cost: dict[int, int]
    transport_count: dict[int, int | None]
    phase_colors: dict[str, tuple[str, ...]]
    phase_removes: dict[str, int | None]

    def __getitem__(self, key):
        return self.raw[key]

    @property
    def phase_names(self) -> list[str]:
        return list(self.phase_colors)

    def phase_at_least(self, phase: str, other: str) -> bool:
        return int(phase) >= int(other)


@lru_cache(maxsize=1)
def rules() -> Rules:
    raw = yaml.safe_load((DATA / "entities.yaml").read_text())
    market = yaml.safe_load((DATA / "market.yaml").read_text())
    return Rules(
        raw=raw,
        grid=MarketGrid.from_data(market),
        privates={p["id"]: Private(**p) for p in raw["privates"]},
        corps={c["id"]: CorpSpec(c["id"], c["name"], c["local_base"], tuple(c["depot_costs"]))
               for c in raw["corporations"]},
        transport_cost={t["type"]: t["cost"] for t in raw["transports"]},
        transport_count={t["type"]: t["count"] for t in raw["transports"]},
        phase_colors=dict(PHASE_COLOURS),
        phase_removes={p["name"]: p["removes"] for p in raw["phases"]},
    )


def ols_min_distance(state) -> int:
    """How far from the Space Port the Old Landing Site must be (table option `ols_hexes`)."""
    return OLS_MIN_DISTANCE if state.option("ols_hexes") == "three_from_space_port" else 0
