"""The site's identifiers and ours (facts from its saved games and public code).

| thing | site | Starbase |
|---|---|---|
| private company | OLS, UNC, SBC, RL, T, TC | P1 .. P6 |
| tile copy | "5M-0" (name and copy number) | tile "5M" in a hex |
| depot ("city") | "5M-0-0" (tile copy and depot), route node "G13-1" (hex and depot) | hex, depot; stop "G13-1" |
| off-board area | its hexes (K1 L2 L4, L14 M11 M13, A3 A5 B2, B14 C15), node "A5-0" | area name |
| transport | "4-1" (type and copy) | type |
| base slot | 0 local base, 1 Space Port | "LB", "SP" |
| share price | "70,4,2" (price, row, column) | par 70 |
| certificate | "SSF_3" | the same |
"""
from __future__ import annotations

COMPANIES = {"OLS": "P1", "UNC": "P2", "SBC": "P3", "RL": "P4", "T": "P5", "TC": "P6"}
PRIVATES = {v: k for k, v in COMPANIES.items()}
AREA_HEXES = {"research_station": ("K1", "L2", "L4"), "tourism_colony": ("L14", "M11", "M13"),
              "power_plant": ("A3", "A5", "B2"), "water_farm": ("B14", "C15")}
AREA_OF_HEX = {h: area for area, hexes in AREA_HEXES.items() for h in hexes}
SLOT_BASE = {0: "LB", 1: "SP"}
BASE_SLOT = {v: k for k, v in SLOT_BASE.items()}


class UnknownName(ValueError):
    pass


def private_of(company) -> str:
    if company not in COMPANIES:
        raise UnknownName(f"no private company {company!r}")
    return COMPANIES[company]


def tile_name(copy: str) -> str:
    """'57M-1' -> '57M'."""
    name, _, number = str(copy).rpartition("-")
    if not name or not number.isdigit():
        raise UnknownName(f"{copy!r} is not a tile copy (NAME-k)")
    return name


def split_city(city: str) -> tuple[str, int]:
    """'X29-0-0' -> ('X29-0', 0): the tile copy (or 'HEX-i' for a pre-printed tile) and the depot."""
    copy, _, depot = str(city).rpartition("-")
    if not copy or not depot.isdigit():
        raise UnknownName(f"{city!r} is not a depot id (TILECOPY-j)")
    return copy, int(depot)


def stop_of(node: str) -> str:
    """A route node ('G13-1', 'A5-0') as our stop ('G13-1', 'power_plant')."""
    hex_id, _, depot = str(node).rpartition("-")
    if not hex_id or not depot.isdigit():
        raise UnknownName(f"{node!r} is not a route node (HEX-j)")
    return AREA_OF_HEX.get(hex_id, f"{hex_id}-{depot}")


def node_of(stop: str) -> str:
    """Our stop as the site's route node (an area as its first hex)."""
    return f"{AREA_HEXES[stop][0]}-0" if stop in AREA_HEXES else stop


def train_type(train: str) -> int:
    """'4-1' -> 4."""
    kind, _, number = str(train).partition("-")
    if not kind.isdigit() or not number.lstrip("-").isdigit():
        raise UnknownName(f"{train!r} is not a transport id (TYPE-k)")
    return int(kind)


def par_of(share_price: str) -> int:
    """'70,4,2' -> 70."""
    head = str(share_price).split(",")[0]
    if not head.isdigit():
        raise UnknownName(f"{share_price!r} is not a share price box (price,row,col)")
    return int(head)


def cert_corp(cert: str) -> str:
    corp, _, number = str(cert).rpartition("_")
    if not corp or not number.isdigit():
        raise UnknownName(f"{cert!r} is not a certificate (CORP_n)")
    return corp
