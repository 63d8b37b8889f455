"""Checking the runs a base submits (rules 11.1, 11.4, 11.4.1, 11.4.2)."""
from __future__ import annotations

from collections import Counter

from starbase_rules import RuleViolation

from moon21.board.geometry import AREAS
from moon21.board.state import Board
from moon21.board.stops import StopGraph, stop_graph

ROUTE_REFUSALS = (
    "UNKNOWN_BASE", "UNKNOWN_TRANSPORT", "TOO_MANY_RUNS", "UNKNOWN_STOP", "TOO_FEW_STOPS",
    "REPEATED_STOP", "TOO_MANY_STOPS", "OFFBOARD_NOT_AT_END", "BLOCKED_DEPOT", "NOT_CONNECTED",
    "ROAD_REUSED", "BASE_NOT_IN_RUN", "RUNS_DO_NOT_INTERSECT", "NO_TOKEN_IN_RUN",
)


def run_result(sg: StopGraph, transport: int, order: list[int], seg_mask: int) -> dict:
    """The JSON form of one run: stops in order, revenue with bonuses, areas, road used."""
    mask = sum(1 << i for i in order)
    extra, east_west, terminal = sg.bonus(mask)
    return {
        "transport": transport,
        "stops": [sg.stops[i] for i in order],
        "revenue": sum(sg.value[i] for i in order) + extra,
        "areas": [sg.stops[i] for i in order if sg.stops[i] in AREAS],
        "east_west": east_west,
        "terminal_bonus": terminal,
        "segments": sg.segment_names(seg_mask),
    }


def summarise(runs: list[dict]) -> dict:
    areas = sorted({a for r in runs if r["east_west"] for a in r["areas"]})
    return {"revenue": sum(r["revenue"] for r in runs), "runs": runs, "east_west_areas": areas}


def segment_mask(sg: StopGraph, names) -> int:
    lookup = {n: i for i, n in enumerate(sg.net.seg_names)}
    return sum(1 << lookup[n] for n in names if n in lookup)


def validate_runs(board: Board, corp: str, base: str, runs: list[dict], transports: list[int], *,
                  sp_value: int, phase: str, used_segments=(), second_run: str = "base_or_depot_token") -> dict:
    """Check the runs of one base and price them; raise RuleViolation with a ROUTE_REFUSALS code.

    `runs`: [{"transport": type, "stops": [stop ids in visiting order]}], the first run being the
    base's first transport. `transports`: the types the base holds. `used_segments`: road already
    used by the corporation's other base this turn (the "segments" of its runs).
    Returns {"revenue", "runs": [run...], "east_west_areas"}; each run also names its "segments"."""
    sg = stop_graph(board, corp, phase=phase, sp_value=sp_value)
    orders, kept = _check_base(sg, base, list(runs), list(transports), second_run)
    runs = list(runs) if kept else list(runs)[::-1]
    masks = _realise(sg, orders, segment_mask(sg, used_segments))
    return summarise([run_result(sg, r["transport"], o, m) for r, o, m in zip(runs, orders, masks)])


def validate_turn_runs(board: Board, corp: str, runs: dict[str, list[dict]],
                       transports: dict[str, list[int]], *, sp_value: int, phase: str,
                       second_run: str = "base_or_depot_token") -> dict:
    """Check both bases' runs together: each base's rules as in `validate_runs`, and no piece of
    road used twice by any of the corporation's runs this turn (whichever way it is traced).
    `second_run`: which tokens a base's second run may include (`StopGraph.second_run_tokens`).

    Returns {"LB": result, "SP": result, "revenue": total}."""
    sg = stop_graph(board, corp, phase=phase, sp_value=sp_value)
    checked: dict[str, tuple[list[dict], list[list[int]]]] = {}
    for base in ("LB", "SP"):
        base_runs = list(runs.get(base, []))
        orders, kept = _check_base(sg, base, base_runs, list(transports.get(base, [])), second_run)
        checked[base] = (base_runs if kept else base_runs[::-1], orders)
    masks = _realise(sg, checked["LB"][1] + checked["SP"][1], 0)
    split = len(checked["LB"][1])
    out = {}
    for base, base_masks in (("LB", masks[:split]), ("SP", masks[split:])):
        base_runs, orders = checked[base]
        out[base] = summarise([run_result(sg, r["transport"], o, m)
                               for r, o, m in zip(base_runs, orders, base_masks)])
    out["revenue"] = out["LB"]["revenue"] + out["SP"]["revenue"]
    return out


def _check_base(sg: StopGraph, base: str, runs: list[dict], transports: list[int],
                second_run: str) -> tuple[list[list[int]], bool]:
    """The stop orders of one base's runs, after every check but the road; and whether the runs
    kept their given order (False: the second run is the base's first)."""
    if base not in ("LB", "SP"):
        raise RuleViolation("UNKNOWN_BASE", f"base must be LB or SP, not {base!r}")
    if len(runs) > len(transports):
        raise RuleViolation("TOO_MANY_RUNS", f"{len(runs)} runs but the {base} base holds {len(transports)} transports")
    if Counter(r.get("transport") for r in runs) - Counter(transports):
        raise RuleViolation("UNKNOWN_TRANSPORT", f"the {base} base holds transports {sorted(transports)}")
    orders = [_check_one(sg, r) for r in runs]
    try:
        _check_two_transport_rules(sg, base, orders, second_run)
        return orders, True
    except RuleViolation as refusal:
        if len(orders) != 2:
            raise
        # either transport may be the base's "first": accept the runs in the other order too
        try:
            _check_two_transport_rules(sg, base, orders[::-1], second_run)
        except RuleViolation:
            raise refusal from None
        return orders[::-1], False


def _check_one(sg: StopGraph, run: dict) -> list[int]:
    stops = list(run.get("stops", []))
    unknown = [s for s in stops if s not in sg.index]
    if unknown:
        raise RuleViolation("UNKNOWN_STOP", f"{unknown[0]} is not a stop with road on the map")
    if len(set(stops)) < len(stops):
        raise RuleViolation("REPEATED_STOP", "a run may visit each stop only once")
    if len(stops) < 2:
        raise RuleViolation("TOO_FEW_STOPS", "a run needs at least two different stops")
    order = [sg.index[s] for s in stops]
    for i in order[1:-1]:
        if sg.stops[i] in AREAS:
            raise RuleViolation("OFFBOARD_NOT_AT_END", f"{sg.stops[i]} is off-board: a run may only end there")
        if not sg.through[i]:
            raise RuleViolation("BLOCKED_DEPOT", f"{sg.stops[i]} is full of other tokens: the run cannot pass it")
    counted = sg.stops_counted(sum(1 << i for i in order))
    if counted > run["transport"]:
        raise RuleViolation("TOO_MANY_STOPS", f"a {run['transport']} transport runs to at most "
                            f"{run['transport']} stops, this run counts {counted}")
    return order


def _check_two_transport_rules(sg: StopGraph, base: str, orders: list[list[int]], second_run: str) -> None:
    masks = [sum(1 << i for i in o) for o in orders]
    base_bit = sg.base_bits[base]
    if masks and not masks[0] & base_bit:
        raise RuleViolation("BASE_NOT_IN_RUN", f"the first run of the {base} base must include its token")
    for m in masks[1:]:
        if not m & masks[0]:
            raise RuleViolation("RUNS_DO_NOT_INTERSECT", "the second run must share a stop with the first")
        if not m & sg.second_run_tokens(base, second_run):
            what = "a token of the corporation" if second_run == "any_token" else "the base's token or a depot token"
            raise RuleViolation("NO_TOKEN_IN_RUN", f"the second run must include {what}")


def _realise(sg: StopGraph, orders: list[list[int]], used: int) -> list[int]:
    """Pick road for every leg of every run so that no segment is used twice (or say why not)."""
    choices: list[list[int]] = []
    for order in orders:
        for a, b in zip(order, order[1:]):
            options = [m for other, m in sg.legs[a] if other == b]
            if not options:
                raise RuleViolation("NOT_CONNECTED", f"no road joins {sg.stops[a]} to {sg.stops[b]} "
                                    "without passing another stop (stops cannot be skipped)")
            choices.append(options)
    picked: list[int] = []

    def pick(k: int, taken: int) -> bool:
        if k == len(choices):
            return True
        for m in choices[k]:
            if not m & taken:
                picked.append(m)
                if pick(k + 1, taken | m):
                    return True
                picked.pop()
        return False

    if not pick(0, used):
        raise RuleViolation("ROAD_REUSED", "the runs cannot be traced without using a piece of road twice")
    out, k = [], 0
    for order in orders:
        mask = 0
        for _ in order[1:]:
            mask |= picked[k]
            k += 1
        out.append(mask)
    return out
