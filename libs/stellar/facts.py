"""The game's frozen data, loaded once from the YAML files beside this module (never from elsewhere)."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import yaml

DATA_DIR = Path(__file__).parent / "data"


def _load(name: str) -> dict:
    with open(DATA_DIR / name, encoding="utf-8") as handle:
        return yaml.safe_load(handle)


@dataclass(frozen=True)
class CorpSpec:
    id: str
    name: str
    outposts: int
    shares: int
    initial_turn_order: int
    starting_power: str
    home: str | None              # hex key; None for Amethyst (it chooses among home_options)
    home_options: tuple[str, ...]     # the map's home planets of a corporation that has several


@dataclass(frozen=True)
class Section:
    level: int
    ships: int | None             # None: unlimited (scrapped ships stand in as proxies)
    tile_slot: bool
    scraps_level: int | None


@dataclass(frozen=True)
class Tables:
    corps: dict[str, CorpSpec]
    difficulty: dict[str, int]
    per_chevron: int
    dividends: dict[int, list[int]]
    status_at: dict[str, int]           # status → shares issued from which it holds, in the dividends' columns
    cargo_max: int
    outpost_cost: dict[int, int]
    wormhole_per_hex: int
    wormhole_flat: int
    loan_gain: int
    loan_penalty: int
    ship_columns: int
    shipyard: tuple[Section, ...]
    shipyard_tiles: tuple[int, ...]
    agreement_tiles: tuple[int, ...]
    agreement_track: tuple[tuple[int, int, int], ...]   # (alien planets, bonus dividend, end bonus)
    starting_funds: dict[int, int]
    starting_votes: int
    starting_cubes: int
    cube_supply: int
    powers_used: int
    powers_row: int
    launder: dict[int, int]
    bank_float: int
    neutral_powers: tuple[str, ...]
    first_play_powers: tuple[str, ...]
    new_investor: dict
    powers: dict

    def power(self, name: str, number: str) -> int:
        """A number printed on a power tile (e.g. power("windfall", "treasury_gain") == 5)."""
        return self.powers[name][number]

    def section(self, level: int) -> Section:
        return next(s for s in self.shipyard if s.level == level)

    def track_section(self, planets: int) -> tuple[int, int, int]:
        """The track's section for a corporation holding `planets` alien planets. Below the first section
        (only with `signing_min_alien_planets` under its default) it is the first: signing puts the
        marker on the track (ruling G-AGR-9, docs/stellar.md)."""
        eligible = [row for row in self.agreement_track if row[0] <= planets]
        return eligible[-1] if eligible else self.agreement_track[0]


def hex_key(q: int, r: int) -> str:
    return f"{q},{r}"


@lru_cache(maxsize=1)
def tables() -> Tables:
    from stellar.board import alpha     # the board reads this module's loader: imported when first asked

    corps_raw = _load("corporations.yaml")["corporations"]
    raw = _load("tables.yaml")
    powers = _load("powers.yaml")
    # One source for each fact: the home planets are the map's (a corporation with several, Amethyst, chooses
    # among them), and the initial turn order is by outposts, most to fewest (the status area's order).
    homes = {c["id"]: tuple(h.key for h in alpha().hexes.values() if h.home_of == c["id"]) for c in corps_raw}
    by_outposts = sorted(corps_raw, key=lambda c: -c["outposts_total"])
    corps = {
        c["id"]: CorpSpec(
            id=c["id"], name=c["name"], outposts=c["outposts_total"], shares=c["shares"],
            initial_turn_order=by_outposts.index(c) + 1, starting_power=c["starting_power"],
            home=homes[c["id"]][0] if len(homes[c["id"]]) == 1 else None,
            home_options=homes[c["id"]] if len(homes[c["id"]]) > 1 else ())
        for c in corps_raw
    }
    track = []
    for row in raw["agreement_track"]:
        planets = int(str(row["alien_planets"]).rstrip("+"))
        track.append((planets, row["bonus_dividend_per_share"], row["end_bonus_per_share"]))
    return Tables(
        corps=corps, difficulty=raw["difficulty"], per_chevron=raw["per_chevron"],
        dividends={int(k): v for k, v in raw["dividend_table"].items()}, status_at=dict(raw["status_at_shares"]),
        cargo_max=raw["cargo_max"],
        outpost_cost={int(k): v for k, v in raw["outpost_cost"].items()},
        wormhole_per_hex=raw["wormhole"]["per_hex_skipped"], wormhole_flat=raw["wormhole"]["flat"],
        loan_gain=raw["loan"]["treasury_gain"], loan_penalty=raw["loan"]["share_penalty"],
        ship_columns=raw["ship_columns"],
        shipyard=tuple(Section(s["level"], s["ships"] if isinstance(s["ships"], int) else None,
                               s["alien_tile_slot"], s["scraps_level"]) for s in raw["shipyard"]),
        shipyard_tiles=tuple(raw["shipyard_tiles"]), agreement_tiles=tuple(raw["agreement_tiles"]),
        agreement_track=tuple(sorted(track)),
        starting_funds={int(k): v for k, v in raw["starting_liquid_funds"].items()},
        starting_votes=raw["starting_votes"], starting_cubes=raw["starting_cubes"],
        cube_supply=raw["cube_supply"], powers_used=raw["powers_used"], powers_row=raw["powers_row"],
        launder={int(k): v for k, v in raw["launder"].items()}, bank_float=raw["bank_float"],
        neutral_powers=tuple(powers["neutral_pool"]), first_play_powers=tuple(powers["first_play"]),
        new_investor={int(k): v for k, v in _load("new_investor.yaml").items()},
        powers=powers["powers"],
    )
