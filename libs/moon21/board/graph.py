"""The road network compiled from the tiles on the map, and a quick (generous) walk from a base.

Nodes are depots ("HEX-j"), off-board areas (by name) and *edge points* (where the roads of two
neighbouring hexes meet at their shared edge). Segments are the pieces of road: one per tile path,
one per pre-printed Space Port spoke, one per printed entry into an off-board area. At an edge
point a route must cross to the other hex (turning back onto a road of the same hex would reverse
direction at a plain junction, rule 11.1); at a depot it may leave by any other road.

The compiled network depends only on the tiles (not on tokens), so it is cached per tile layout.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from functools import lru_cache

from moon21.board.geometry import AREA_ENTRIES, MAP, SPACE_PORT, neighbour, rotated_paths
from moon21.board.state import Board
from starbase_rules.recent import Recent

EDGE, DEPOT, AREA = 0, 1, 2
# the Space Port's pre-printed road: from each of these edges into its one depot (map.yaml)
SPACE_PORT_ROADS = tuple((e, -1) for e in MAP["space_port"]["road_edges"])


@dataclass
class Network:
    node_keys: list[str] = field(default_factory=list)       # "HEX-j", area name, or "HEX.e"
    node_kind: list[int] = field(default_factory=list)
    node_index: dict[str, int] = field(default_factory=dict)
    seg_ends: list[tuple[int, int]] = field(default_factory=list)
    seg_side: list[str] = field(default_factory=list)         # hex (or "@area") the segment lies in
    seg_names: list[str] = field(default_factory=list)        # "HEX:a-b", ends edges or dJ
    incident: list[list[int]] = field(default_factory=list)   # node -> segments touching it
    # what arriving in a (segment, node) state confirms (`reach._gain`): pure in the network, which is
    # cached per tile layout, so every reach search on the layout (each corporation, each base) shares it
    gains: dict[tuple[int, int], tuple[frozenset, frozenset]] = field(default_factory=dict, compare=False)

    def node(self, key: str, kind: int) -> int:
        idx = self.node_index.get(key)
        if idx is None:
            idx = len(self.node_keys)
            self.node_index[key] = idx
            self.node_keys.append(key)
            self.node_kind.append(kind)
            self.incident.append([])
        return idx

    def add_segment(self, a: int, b: int, side: str, label: str) -> None:
        sid = len(self.seg_ends)
        self.seg_ends.append((a, b))
        self.seg_side.append(side)
        self.seg_names.append(label)
        self.incident[a].append(sid)
        if b != a:
            self.incident[b].append(sid)

    def other_end(self, seg: int, node: int) -> int:
        a, b = self.seg_ends[seg]
        return b if a == node else a

    def depot_hex(self, node: int) -> str:
        return self.node_keys[node].split("-")[0]


@lru_cache(maxsize=None)
def edge_point_key(hex_id: str, edge: int) -> str:
    """One name for both sides of a shared edge (the smaller of the two spellings). Pure in the fixed
    map, asked for every road end of every network compiled: computed once per (hex, edge)."""
    nb = neighbour(hex_id, edge)
    if nb is None:
        return f"{hex_id}.{edge}"
    return min(f"{hex_id}.{edge}", f"{nb}.{(edge + 3) % 6}")


def _end_label(end: int) -> str:
    return str(end) if end >= 0 else f"d{-1 - end}"


def _add_hex_roads(net: Network, hex_id: str, paths) -> None:
    for (key_a, kind_a), (key_b, kind_b), label in _hex_roads(hex_id, tuple(paths)):
        net.add_segment(net.node(key_a, kind_a), net.node(key_b, kind_b), hex_id, label)


@lru_cache(maxsize=4096)
def _hex_roads(hex_id: str, paths: tuple) -> tuple:
    """The named ends and the label of each road of a hex: pure in the hex and its roads, and a
    network is compiled again for every new tile layout (the same hexes' roads each time)."""
    return tuple((_end_node(hex_id, a), _end_node(hex_id, b), f"{hex_id}:{_end_label(a)}-{_end_label(b)}")
                 for a, b in paths)


def _end_node(hex_id: str, end: int) -> tuple[str, int]:
    return (edge_point_key(hex_id, end), EDGE) if end >= 0 else (f"{hex_id}-{-1 - end}", DEPOT)


# Compiled networks by tile layout: every game in play has one, and each lay makes another.
_CACHE: Recent[Network] = Recent(256)


def compile_network(board: Board) -> Network:
    key = tuple(sorted((h, t[0], t[1]) for h, t in board.tiles.items()))
    net = _CACHE.get(key)
    if net is not None:
        return net
    net = Network()
    _add_hex_roads(net, SPACE_PORT, SPACE_PORT_ROADS)
    for hex_id in sorted(board.tiles):
        tile, rotation = board.tiles[hex_id]
        _add_hex_roads(net, hex_id, rotated_paths(tile, rotation))
    for (hex_id, edge), area in sorted(AREA_ENTRIES.items()):
        if hex_id in board.tiles:   # an entry with no road on the board side leads nowhere
            a = net.node(area, AREA)
            net.add_segment(a, net.node(edge_point_key(hex_id, edge), EDGE), f"@{area}", f"{area}:{hex_id}.{edge}")
    return _CACHE.put(key, net)


def passable(board: Board, net: Network, node: int, corp: str) -> bool:
    """May `corp`'s route pass through this depot (rule 11.1)? Areas never; edge points always."""
    kind = net.node_kind[node]
    if kind == EDGE:
        return True
    if kind == AREA:
        return False
    hex_id, j = net.node_keys[node].split("-")
    return board.corp_in_hex(corp, hex_id) or board.has_open_slot(hex_id, int(j))


def base_node(board: Board, net: Network, corp: str, base: str) -> int | None:
    """The depot holding the base's token, or None when that token has no road yet."""
    if base == "SP":
        return net.node_index.get(f"{SPACE_PORT}-0") if corp in board.space_port else None
    for hex_id, depots in board.tokens.items():
        for j, slots in enumerate(depots):
            if f"LB:{corp}" in slots:
                return net.node_index.get(f"{hex_id}-{j}")
    return None


@dataclass
class Reach:
    depots: set[str]                    # depots ("HEX-j") and areas a route from the base reaches
    entered: set[tuple[str, int]]       # (hex, edge): a route arrives at this edge of the hex


State = tuple[int, int]   # (segment, node it heads to)


def walk(board: Board, net: Network, corp: str, start: int) -> tuple[Reach, dict[State, list[State]]]:
    """A breadth-first walk over (segment, node it heads to) states from the depot `start`.

    It ignores the rule against re-using a segment or a depot within one route, so it finds a
    superset of what routes reach (exact: `moon21.board.reach`). Returns what it reached and the
    relaxed state graph (state -> next states)."""
    node_keys, node_kind, incident, seg_side, other_end = (net.node_keys, net.node_kind, net.incident,
                                                           net.seg_side, net.other_end)
    out = Reach({node_keys[start]}, set())
    entered = out.entered
    succ: dict[State, list[State]] = {}
    can_pass: dict[int, bool] = {}      # per depot met (passable reads the tokens; several states meet one)
    queue: deque[State] = deque((s, other_end(s, start)) for s in incident[start])
    while queue:
        state = queue.popleft()
        if state in succ:
            continue
        s, v = state
        nexts: list[State] = []
        if node_kind[v] == EDGE:
            side = seg_side[s]
            for hx, e in edge_sides(node_keys[v]):
                if hx != side:
                    entered.add((hx, e))
            nexts = [(t, other_end(t, v)) for t in incident[v] if seg_side[t] != side]
        else:
            out.depots.add(node_keys[v])
            passes = can_pass.get(v)
            if passes is None:
                passes = can_pass[v] = v != start and passable(board, net, v, corp)
            if passes:
                nexts = [(t, other_end(t, v)) for t in incident[v] if t != s]
        succ[state] = nexts
        queue.extend(n for n in nexts if n not in succ)
    return out, succ


@lru_cache(maxsize=None)
def edge_sides(key: str) -> tuple[tuple[str, int], ...]:
    """The (hex, edge) on each side of an edge point. Pure in the fixed map, asked for every edge
    point a walk or a reach search meets: worked out once per point."""
    hex_id, edge_text = key.split(".")
    edge = int(edge_text)
    nb = neighbour(hex_id, edge)
    return ((hex_id, edge),) if nb is None else ((hex_id, edge), (nb, (edge + 3) % 6))
