"""Route helpers for players and bots: distances, the best pickups for a chosen path, and the next step
of a greedy route that explores, loads the best reachable ore and ends where the load is worth most."""
from __future__ import annotations

from collections import deque

from t2038 import commands as cmd
from t2038 import hexmap, tiles
from t2038.routes import flying_for, is_unexplored
from t2038.state import State
from t2038.values import operator_bonus, route_value


def bfs(start: list[str]) -> dict[str, tuple[int, str]]:
    """Distance in hexes from the nearest start, with the previous hex on a shortest path."""
    seen = {hex_: (0, "") for hex_ in start}
    queue = deque(start)
    while queue:
        here = queue.popleft()
        for near in hexmap.neighbours(here):
            if near not in seen:
                seen[near] = (seen[here][0] + 1, here)
                queue.append(near)
    return seen


def end_hexes(state: State) -> list[str]:
    return list(state.bases) + [h for h in hexmap.transshipment_points() if h not in state.bases]


def mine_offers(state: State, operator: str, hex_: str) -> list[tuple[int, int, str, int]]:
    """(worth with the operator's bonus, mine index, ore, pickup value) still available at a hex."""
    if hex_ not in state.tiles or hex_ in state.flipped:
        return []
    holder, bonus = flying_for(state, operator), operator_bonus(operator)
    found = []
    for index, mine in enumerate(tiles.mines(state.tiles[hex_])):
        key = f"{hex_}/{index}"
        owner = state.claims.get(key)
        if key in state.used_mines or owner not in (None, holder):
            continue
        value = mine.claimed if owner else mine.unclaimed
        found.append((value + bonus.get(mine.ore, 0), index, mine.ore, value))
    return sorted(found, reverse=True)


def best_pickups(state: State, operator: str, path: list[str], holds: int) -> list[tuple[str, int]]:
    """For a chosen path, the (hex, mine) pickups worth most, within the ship's holds."""
    offers = [(worth, hex_, index) for hex_ in dict.fromkeys(path)
              for worth, index, _, _ in mine_offers(state, operator, hex_)]
    offers.sort(reverse=True)
    return [(hex_, index) for _, hex_, index in offers[:holds]]


def _first_step(to_target: dict, target: str, here: str) -> str:
    step = target
    while to_target[step][1] != here:
        step = to_target[step][1]
    return step


def next_step(state: State, operator: str, explore_bias: float = 1.0):
    """The next command of a greedy route for the ship in flight."""
    f = state.flight
    if f.choice:
        return cmd.ChooseTile(tile=max(f.choice, key=lambda t: max(m.unclaimed for m in tiles.mines(t))))
    free = f.holds - len(f.cargo)
    ends = end_hexes(state)
    to_end = bfs(ends)
    here_offers = mine_offers(state, operator, f.hex)
    if free and here_offers and here_offers[0][0] >= 10:
        return cmd.PickUp(mine=here_offers[0][1])
    from_here = bfs([f.hex])
    best, target, explore = 0.0, "", False
    if free:
        for hex_, (dist, _) in from_here.items():
            if dist == 0 or dist + to_end[hex_][0] > f.movement:
                continue
            offers = mine_offers(state, operator, hex_)
            if offers:
                score = sum(o[0] for o in offers[:free]) - 5 * dist
                if score > best:
                    best, target, explore = score, hex_, False
        if state.pool:
            for near in hexmap.neighbours(f.hex):
                if is_unexplored(state, near) and 2 + to_end[near][0] <= f.movement:
                    score = 30 * explore_bias
                    if score > best:
                        best, target, explore = score, near, True
    if target:
        step = _first_step(from_here, target, f.hex)
        return cmd.Move(hex=step, explore=explore and step == target)
    cargo = [(ore, value) for _, _, value, ore in f.cargo]
    best_end, best_value = "", -1
    for end in ends:
        if from_here[end][0] <= f.movement:
            value = route_value(cargo, f.holds, end, operator=operator, is_base=end in state.bases,
                                is_transshipment=end not in state.bases, phase=state.phase, options=state.options)
            if value > best_value or (value == best_value and from_here[end][0] < from_here[best_end][0]):
                best_end, best_value = end, value
    if not best_end or best_end == f.hex:
        return cmd.EndRoute()
    return cmd.Move(hex=_first_step(from_here, best_end, f.hex))
