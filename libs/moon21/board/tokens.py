"""Depot tokens (rule 11.3) and whether a base has a route at all (rule 11.6)."""
from __future__ import annotations

from starbase_rules import RuleViolation

from moon21.board.geometry import HEXES, SPACE_PORT
from moon21.board.graph import base_node, compile_network
from moon21.board.reach import reach, reaches
from moon21.board.state import Board


def token_options(board: Board, corp: str, *, reach_mode: str = "route") -> list[dict]:
    """Open depot slots a route from either base reaches: [{"hex", "depot"}]. Never the Space
    Port, never a hex where the corporation already has a token (its local base hex included).
    `reach_mode`: see `reach.reach`."""
    reached = reach(board, corp, "LB", mode=reach_mode).depots | reach(board, corp, "SP", mode=reach_mode).depots
    return [{"hex": hex_id, "depot": int(depot)}
            for hex_id, depot in (key.split("-") for key in sorted(reached) if _takes_token(board, corp, key))]


def has_token_option(board: Board, corp: str, *, reach_mode: str = "route") -> bool:
    """Whether `token_options` lists anything (searching only until a route to one is found)."""
    return any(reaches(board, corp, base, depots=lambda key: _takes_token(board, corp, key), mode=reach_mode)
               for base in ("LB", "SP"))


def _takes_token(board: Board, corp: str, key: str) -> bool:
    """May the corporation put a depot token on this place (reached or not)? An open slot of a depot
    off the Space Port, in a hex where it has no token yet; never an off-board area."""
    if "-" not in key:
        return False
    hex_id, j = key.split("-")
    return hex_id != SPACE_PORT and board.has_open_slot(hex_id, int(j)) and not board.corp_in_hex(corp, hex_id)


def check_token(board: Board, corp: str, hex_id: str, depot: int, *, need_route: bool = True,
                reach_mode: str = "route") -> None:
    """Refuse an illegal depot token. `need_route=False` for the Terminal power (rule 6.1.5)."""
    if hex_id not in HEXES:
        raise RuleViolation("UNKNOWN_HEX", f"{hex_id} is not a hex of the board")
    if hex_id == SPACE_PORT:
        raise RuleViolation("ILLEGAL_HEX", "depot tokens may not be placed on the Space Port")
    if not isinstance(depot, int) or not 0 <= depot < len(board.slot_capacity(hex_id)):
        raise RuleViolation("NO_SUCH_DEPOT", f"{hex_id} has no depot {depot}")
    if board.corp_in_hex(corp, hex_id):
        raise RuleViolation("TOKEN_IN_HEX", f"{corp} already has a token in {hex_id}")
    if not board.has_open_slot(hex_id, depot):
        raise RuleViolation("NO_OPEN_SLOT", f"depot {depot} of {hex_id} has no open slot")
    wanted = f"{hex_id}-{int(depot)}"
    if need_route and not any(reaches(board, corp, base, depots=wanted.__eq__, mode=reach_mode) for base in ("LB", "SP")):
        raise RuleViolation("NO_ROUTE", f"neither base of {corp} has a route to {hex_id}")


def place_token(board: Board, corp: str, hex_id: str, depot: int, *, need_route: bool = True,
                reach_mode: str = "route") -> None:
    """Put one of `corp`'s charter depot tokens in the slot (checked first)."""
    check_token(board, corp, hex_id, depot, need_route=need_route, reach_mode=reach_mode)
    depots = board.tokens.setdefault(hex_id, [[] for _ in board.slot_capacity(hex_id)])
    depots[depot].append(corp)


def has_route(board: Board, corp: str, base: str) -> bool:
    """Can the base run a transport at all: does a route lead from its token to another stop?"""
    net = compile_network(board)
    start = base_node(board, net, corp, base)
    return start is not None and reaches(board, corp, base, depots=net.node_keys[start].__ne__)
