"""East-West runs on the real board (11.4.2): +₡40 per area and one bonus token from each area."""
from collections import deque

from moon21 import events as E
from moon21.board.geometry import CLOSED, HEXES, RIFT, SPACE_PORT, neighbour
from moon21.bots import run_command

PLAIN = {1: "7", 2: "8", 3: "9"}          # sharp, gentle, straight plain tiles at rotation 0: edges 0 and n
DEPOT = {1: "5M", 2: "6M", 3: "57M"}


def _blocked(hex_id: str, edge: int) -> bool:
    other = neighbour(hex_id, edge)
    return edge in CLOSED[hex_id] or (hex_id, edge) in RIFT or (other, (edge + 3) % 6) in RIFT


def _path(start: str, goal: str, avoid: set[str]) -> list[str]:
    """Shortest hex path on plain and mineral hexes (never local bases, the Terminal or double depots)."""
    allowed = {h for h, d in HEXES.items() if d["kind"] in ("plain", "hill", "mountain", "mineral")
               and d.get("depots", 1) == 1} | {start, goal}
    seen, queue = {start: None}, deque([start])
    while queue:
        here = queue.popleft()
        if here == goal:
            break
        for edge in range(6):
            there = neighbour(here, edge)
            if there in allowed and there not in seen and there not in avoid and not _blocked(here, edge):
                seen[there] = here
                queue.append(there)
    path, node = [], goal
    while node is not None:
        path.append(node)
        node = seen[node]
    return path[::-1]


def _edge_to(a: str, b: str) -> int:
    return next(e for e in range(6) if neighbour(a, e) == b)


def _tiles_for(path: list[str], first_edge: int, last_edge: int) -> list[E.TileLaid]:
    lays = []
    for i, hex_id in enumerate(path):
        if hex_id == SPACE_PORT:
            continue
        a = first_edge if i == 0 else _edge_to(hex_id, path[i - 1])
        b = last_edge if i == len(path) - 1 else _edge_to(hex_id, path[i + 1])
        turn = min((b - a) % 6, (a - b) % 6)
        tile = (DEPOT if HEXES[hex_id]["kind"] == "mineral" else PLAIN)[turn]
        low, high = (a, b) if (b - a) % 6 == turn else (b, a)
        lays.append(E.TileLaid(corp="VH", base="SP", hex=hex_id, tile=tile, rotation=low, cost=0))
        assert (high - low) % 6 == turn
    return lays


def test_a_run_from_the_power_plant_to_the_research_station_takes_both_bonus_tokens(table):
    west = _path("B4", SPACE_PORT, set())
    east = _path(SPACE_PORT, "K3", set(west) - {SPACE_PORT})
    lays = _tiles_for(west + east[1:], first_edge=2, last_edge=4)   # B4 edge 2 and K3 edge 4 lead off-board
    t = table().stock_round().start("ann", "VH", 70, extra_shares=3)
    t.given(*lays, E.CorporationFloated(corp="VH"), E.RoundStarted(kind="OR", set_no=1, or_no=1),
            E.OperatingTurnStarted(corp="VH"))
    t.given(*[E.UnContractUsed(corp="VH", action="remove", transport_type=x) for x in list(t.state.stack)])
    t.given(E.TransportBought(corp="VH", base="SP", transport=10, price=0),
            E.StepFinished(corp="VH", step="tiles", next_step="run"))
    events = t.do("ann", run_command(t.state, "VH"))
    run = next(e for e in events if e.type == "TransportsRun").runs[0]
    assert run["east_west"] and {"power_plant", "research_station"} <= set(run["areas"])
    taken = next(e for e in events if e.type == "BonusTokensTaken")
    assert sorted(taken.areas) == ["power_plant", "research_station"]
    assert t.state.bonus_left["power_plant"] == 3 and t.state.bonus_left["research_station"] == 3
    assert run["revenue"] == sum(_value(t.state, s) for s in run["stops"]) + 80


def _value(state, stop: str) -> int:
    from moon21 import board as bd
    return bd.stop_value(state.board, stop, phase=state.phase, sp_value=state.space_port_value)
