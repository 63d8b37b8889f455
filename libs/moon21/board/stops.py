"""The stop graph of one corporation: stops, their values, and the *legs* of road joining them.

A leg is a stretch of plain road between two stops that passes no other depot (a route that
passes a depot counts it as a stop: stops cannot be skipped, rule 11.4). Routes are chains of
legs with no segment used twice (rule 11.1), so the route engine works on legs, not on tiles.
Legs that use a superset of another leg's road between the same two stops are dropped: they
can never make a route legal that the smaller one does not.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from moon21.board.geometry import EAST_AREAS, EAST_WEST_BONUS, TERMINAL_BONUS, TERMINAL_HEX, WEST_AREAS
from moon21.board.graph import EDGE, Network, base_node, compile_network, passable
from moon21.board.state import Board, stop_value, token_corp
from starbase_rules.recent import Recent


@dataclass
class StopGraph:
    net: Network
    stops: list[str]                  # stop keys: "HEX-j" or an area name; list index = bit
    index: dict[str, int]
    value: list[int]
    through: list[bool]               # may a route pass through (not only end at) this stop
    legs: Sequence[list[tuple[int, int]]]  # stop -> [(other stop, segment mask)] (`Legs`)
    east: int                         # bit mask of eastern areas
    west: int
    terminal: int                     # bit of the Terminal stop (0 when not on the map)
    base_bits: dict[str, int]         # "LB"/"SP" -> bit of the base token's stop (0 if none)
    token_bits: int                   # stops holding one of the corporation's depot tokens

    def segment_names(self, mask: int) -> list[str]:
        names, i = [], 0
        while mask:
            if mask & 1:
                names.append(self.net.seg_names[i])
            mask >>= 1
            i += 1
        return names

    def bonus(self, stop_mask: int) -> tuple[int, bool, bool]:
        """(bonus revenue, east-west, terminal bonus) of a run visiting these stops."""
        east_west = bool(stop_mask & self.east) and bool(stop_mask & self.west)
        terminal = bool(stop_mask & self.terminal) and bool(stop_mask & self.east)
        return (2 * EAST_WEST_BONUS if east_west else 0) + (TERMINAL_BONUS if terminal else 0), east_west, terminal

    def second_run_tokens(self, base: str, rule: str = "base_or_depot_token") -> int:
        """Stops a base's second run may include as its token (11.4): the base's own token or a depot
        token; with `rule` "any_token" (18xx.games) any token of the corporation, the other base's too."""
        if rule == "any_token":
            return self.base_bits["LB"] | self.base_bits["SP"] | self.token_bits
        if rule != "base_or_depot_token":
            raise ValueError(f"no second-run rule {rule!r}")
        return self.base_bits[base] | self.token_bits

    def stops_counted(self, stop_mask: int) -> int:
        """Stops counted against the transport: the Terminal is free on a run to the East."""
        n = stop_mask.bit_count()
        return n - 1 if stop_mask & self.terminal and stop_mask & self.east else n


_CACHE: Recent[StopGraph] = Recent(128)       # by position, corporation, phase and Space Port value


def stop_graph(board: Board, corp: str, *, phase: str, sp_value: int) -> StopGraph:
    key = (board.position_key(), corp, phase, sp_value)
    cached = _CACHE.get(key)
    if cached is not None:
        return cached
    net = compile_network(board)
    stops = [k for k, kind in zip(net.node_keys, net.node_kind) if kind != EDGE]
    index = {s: i for i, s in enumerate(stops)}
    nodes = [net.node_index[s] for s in stops]
    value = [stop_value(board, s, phase=phase, sp_value=sp_value) for s in stops]
    through = [passable(board, net, n, corp) for n in nodes]
    bit = lambda names: sum(1 << index[a] for a in names if a in index)   # noqa: E731
    base_bits = {}
    for base in ("LB", "SP"):
        node = base_node(board, net, corp, base)
        base_bits[base] = 1 << index[net.node_keys[node]] if node is not None else 0
    token_bits = 0
    for hex_id, depots in board.tokens.items():
        for j, slots in enumerate(depots):
            if any(token_corp(o) == corp and not o.startswith("LB:") for o in slots) and f"{hex_id}-{j}" in index:
                token_bits |= 1 << index[f"{hex_id}-{j}"]
    graph = StopGraph(
        net=net, stops=stops, index=index, value=value, through=through,
        legs=Legs(net, nodes, index),
        east=bit(EAST_AREAS), west=bit(WEST_AREAS),
        terminal=bit([f"{TERMINAL_HEX}-0"]), base_bits=base_bits, token_bits=token_bits,
    )
    return _CACHE.put(key, graph)


class Legs(Sequence[list[tuple[int, int]]]):
    """Each stop's legs, worked out when first asked for: a corporation's runs and their checks only
    ever ask for the stops its bases and tokens can reach, often a small part of the map."""

    def __init__(self, net: Network, nodes: list[int], index: dict[str, int]):
        self._net, self._nodes, self._index = net, nodes, index
        self._known: list[list[tuple[int, int]] | None] = [None] * len(nodes)

    def __len__(self) -> int:
        return len(self._nodes)

    def __getitem__(self, stop):     # type: ignore[override]  # by one stop only, never a slice
        legs = self._known[stop]
        if legs is None:
            legs = self._known[stop] = _legs_from(self._net, self._nodes[stop], self._index)
        return legs


def _legs_from(net: Network, start: int, index: dict[str, int]) -> list[tuple[int, int]]:
    found: dict[int, list[int]] = {}
    incident, seg_side, node_kind, node_keys, other_end = (net.incident, net.seg_side, net.node_kind,
                                                           net.node_keys, net.other_end)

    def walk(v: int, side: str, mask: int) -> None:
        for t in incident[v]:
            if seg_side[t] == side or mask >> t & 1:
                continue
            w = other_end(t, v)
            if node_kind[w] == EDGE:
                walk(w, seg_side[t], mask | 1 << t)
            elif w != start:
                found.setdefault(index[node_keys[w]], []).append(mask | 1 << t)

    for s in incident[start]:
        w = other_end(s, start)
        if node_kind[w] == EDGE:
            walk(w, seg_side[s], 1 << s)
        elif w != start:
            found.setdefault(index[node_keys[w]], []).append(1 << s)
    legs = []
    for other, masks in sorted(found.items()):
        kept: list[int] = []
        for m in sorted(set(masks), key=int.bit_count):
            if not any(k & m == k for k in kept):
                kept.append(m)
        legs.extend((other, m) for m in kept)
    return legs
