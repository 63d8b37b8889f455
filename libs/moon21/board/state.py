"""The board state: tiles laid, tokens in depot slots, minerals, the +20 marker, the tile supply."""
from __future__ import annotations

import copy
import pickle
from dataclasses import dataclass, field

from starbase_rules import RuleViolation

from moon21.board.geometry import (
    AREAS, HEXES, MAP, MINERALS, OFFBOARD_VALUE, SPACE_PORT, TERMINAL_HEX, TILES,
)

BASES = ("LB", "SP")
LOCAL_BASES: dict[str, str] = {d["corp"]: h for h, d in HEXES.items() if d["kind"] == "local_base"}
CORPORATIONS = tuple(sorted(LOCAL_BASES))
LOCAL_BASE_VALUE: int = MAP["local_base"]["value"]
RESEARCH_BONUS: int = MAP["research_lab_bonus"]
SPACE_PORT_SLOTS: int = MAP["space_port"]["slots"]
# the printed slot of a local base hex before any tile is laid there (it holds the base token)
LOCAL_BASE_SLOTS: int = MAP["local_base"]["slots_before_tile"]


@dataclass
class Board:
    """Everything on the map. JSON-friendly fields only, so `==` and `copy()` are cheap."""

    tiles: dict[str, list] = field(default_factory=dict)        # hex -> [tile id, rotation]
    tokens: dict[str, list[list[str]]] = field(default_factory=dict)  # hex -> per depot: occupants
    space_port: list[str] = field(default_factory=list)         # corporations with an SP base token
    minerals: dict[str, str] = field(default_factory=dict)      # mineral hex -> mineral name
    research_marker: str | None = None                          # hex holding the +20 marker
    supply: dict[str, int] = field(default_factory=dict)        # tile id -> copies not on the map

    def copy(self) -> "Board":
        """An independent copy, by hand: `copy.deepcopy` costs several times more, and the bots and
        `lay_tile` try lays on a copy."""
        return Board(
            tiles={h: list(t) for h, t in self.tiles.items()},
            tokens={h: [list(slots) for slots in depots] for h, depots in self.tokens.items()},
            space_port=list(self.space_port), minerals=dict(self.minerals),
            research_marker=self.research_marker, supply=dict(self.supply),
        )

    def position_key(self) -> bytes:
        """Bytes equal for equal boards (pickled in the dicts' order: a board built in another order
        only misses a cache, never hits a wrong entry). Cheaper than `repr(to_json())` for cache keys
        asked for every tile lay `legal_actions` checks."""
        return pickle.dumps((self.tiles, self.tokens, self.space_port, self.minerals, self.research_marker,
                             self.supply), protocol=pickle.HIGHEST_PROTOCOL)

    def to_json(self) -> dict:
        return {
            "tiles": {h: list(t) for h, t in self.tiles.items()},
            "tokens": {h: [list(s) for s in d] for h, d in self.tokens.items()},
            "space_port": list(self.space_port), "minerals": dict(self.minerals),
            "research_marker": self.research_marker, "supply": dict(self.supply),
        }

    @classmethod
    def from_json(cls, data: dict) -> "Board":
        return cls(**copy.deepcopy(data))

    # -- small queries used across the package --------------------------------------------
    def tile_at(self, hex_id: str) -> tuple[str, int] | None:
        t = self.tiles.get(hex_id)
        return (t[0], t[1]) if t else None

    def colour_at(self, hex_id: str) -> str | None:
        t = self.tiles.get(hex_id)
        return TILES[t[0]].colour if t else None

    def slot_capacity(self, hex_id: str) -> list[int]:
        """Slots per depot in a hex right now (the tile's, or the printed local-base slot)."""
        if hex_id == SPACE_PORT:
            return [SPACE_PORT_SLOTS]
        t = self.tiles.get(hex_id)
        if t:
            return list(TILES[t[0]].slots)
        return [LOCAL_BASE_SLOTS] if HEXES[hex_id]["kind"] == "local_base" else []

    def occupants(self, hex_id: str, depot: int) -> list[str]:
        if hex_id == SPACE_PORT:
            return self.space_port
        d = self.tokens.get(hex_id)
        return d[depot] if d and depot < len(d) else []

    def has_open_slot(self, hex_id: str, depot: int) -> bool:
        cap = self.slot_capacity(hex_id)
        return depot < len(cap) and len(self.occupants(hex_id, depot)) < cap[depot]

    def corp_in_hex(self, corp: str, hex_id: str) -> bool:
        """Does `corp` hold a token (base, depot or converted OLS) anywhere in this hex?"""
        if hex_id == SPACE_PORT:
            return corp in self.space_port
        return any(token_corp(o) == corp for slots in self.tokens.get(hex_id, []) for o in slots)


def token_corp(occupant: str) -> str | None:
    """The corporation owning a slot occupant ("VH", "LB:VH", "OLS:VH" -> "VH"; "OLS" -> None)."""
    if occupant == "OLS":
        return None
    return occupant.split(":")[-1]


def local_base_hex(corp: str) -> str:
    return LOCAL_BASES[corp]


def new_board(minerals: dict[str, str]) -> Board:
    """The board at setup: all local-base tokens, all Space Port tokens, minerals as drawn."""
    expected = sorted(h for h, d in HEXES.items() if d["kind"] == "mineral")
    if sorted(minerals) != expected:
        raise RuleViolation("ILLEGAL_SETUP", "minerals must name exactly the 17 mineral hexes")
    drawn = sorted(minerals.values())
    wanted = sorted(m for m, d in MINERALS.items() for _ in range(d["quantity"]))
    if drawn != wanted:
        raise RuleViolation("ILLEGAL_SETUP", f"mineral cubes must be {wanted}, got {drawn}")
    return Board(
        tokens={h: [[f"LB:{c}"]] for c, h in sorted(LOCAL_BASES.items())},
        space_port=list(CORPORATIONS),
        minerals=dict(sorted(minerals.items())),
        supply={t: d.count for t, d in TILES.items()},
    )


def stop_value(board: Board, stop: str, *, phase: str, sp_value: int) -> int:
    """Revenue of one stop (bonuses for whole runs are added by the route engine)."""
    if stop in AREAS:
        return OFFBOARD_VALUE
    hex_id = stop.split("-")[0]
    kind = HEXES[hex_id]["kind"]
    bonus = RESEARCH_BONUS if board.research_marker == hex_id else 0
    if kind == "space_port":
        return sp_value
    if kind == "terminal_site":
        return TILES[board.tiles[hex_id][0]].value_by_phase[phase]
    if kind == "local_base":
        return LOCAL_BASE_VALUE + bonus
    colour = board.colour_at(hex_id)
    return MINERALS[board.minerals[hex_id]]["values"][colour] + bonus


def research_targets(board: Board) -> list[str]:
    """Hexes that may take the +20 marker: mineral and local-base hexes (not the Terminal)."""
    if board.research_marker is not None:
        return []
    return sorted(h for h, d in HEXES.items() if d["kind"] in ("mineral", "local_base"))


def place_research_marker(board: Board, hex_id: str) -> None:
    if hex_id not in research_targets(board):
        raise RuleViolation("ILLEGAL_HEX", f"the +20 marker may go on a mineral or local base hex, not {hex_id}"
                            if board.research_marker is None else "the +20 marker is already placed")
    board.research_marker = hex_id


def remove_corporation(board: Board, corp: str) -> None:
    """Bankruptcy (rule 12): its local base token, Space Port token and depots leave the map.

    A converted Old Landing Site token is one of its depots, so it goes too."""
    if corp in board.space_port:
        board.space_port.remove(corp)
    for hex_id, depots in board.tokens.items():
        for slots in depots:
            slots[:] = [o for o in slots if token_corp(o) != corp]
    board.tokens = {h: d for h, d in board.tokens.items() if any(d)}


def tokens_on_board(board: Board, corp: str) -> int:
    """Depot tokens from `corp`'s charter on the map (not its bases, not a converted OLS token)."""
    return sum(o == corp for depots in board.tokens.values() for slots in depots for o in slots)


def invariants(board: Board) -> list[str]:
    """Broken invariants of the board, empty when every piece is in exactly one place."""
    broken: list[str] = []
    laid: dict[str, int] = {}
    for hex_id, (tile, rotation) in board.tiles.items():
        laid[tile] = laid.get(tile, 0) + 1
        if hex_id not in HEXES or hex_id == SPACE_PORT or not 0 <= rotation < 6:
            broken.append(f"tile {tile} badly placed at {hex_id} rotation {rotation}")
    for tile, d in TILES.items():
        if board.supply.get(tile, 0) < 0 or board.supply.get(tile, 0) + laid.get(tile, 0) != d.count:
            broken.append(f"tile {tile}: {board.supply.get(tile, 0)} in supply + {laid.get(tile, 0)} laid != {d.count}")
    seen_base: dict[str, str] = {}
    ols = 0
    for hex_id, depots in board.tokens.items():
        cap = board.slot_capacity(hex_id)
        if len(depots) > len(cap) or any(len(s) > c for s, c in zip(depots, cap)):
            broken.append(f"{hex_id}: tokens {depots} exceed slots {cap}")
        owners = [token_corp(o) for s in depots for o in s if token_corp(o)]
        if len(owners) != len(set(owners)):
            broken.append(f"{hex_id}: a corporation holds two tokens in one hex")
        for o in (o for s in depots for o in s):
            ols += o.startswith("OLS")
            if o.startswith("LB:"):
                corp = o[3:]
                if LOCAL_BASES.get(corp) != hex_id or corp in seen_base:
                    broken.append(f"local base token of {corp} misplaced at {hex_id}")
                seen_base[corp] = hex_id
    if ols > 1:
        broken.append("more than one Old Landing Site token on the map")
    if len(set(board.space_port)) != len(board.space_port) or len(board.space_port) > SPACE_PORT_SLOTS:
        broken.append(f"Space Port tokens {board.space_port}")
    if board.research_marker is not None and HEXES.get(board.research_marker, {}).get("kind") not in ("mineral", "local_base"):
        broken.append(f"+20 marker on {board.research_marker}")
    if TERMINAL_HEX in board.tiles and board.tiles[TERMINAL_HEX][0] != "X29":
        broken.append("a tile other than the Terminal on F8")
    return broken


def view(board: Board, *, phase: str | None = None, sp_value: int | None = None) -> dict:
    """What every player sees: the whole board is public. With `phase`, stop values are included."""
    out = board.to_json()
    if phase is not None:
        values = {}
        for hex_id in HEXES:
            for j in range(len(board.slot_capacity(hex_id))):
                if hex_id in board.tiles or hex_id == SPACE_PORT:
                    stop = f"{hex_id}-{j}"
                    values[stop] = stop_value(board, stop, phase=phase, sp_value=sp_value or 0)
        out["stop_values"] = values
    return out
