"""Operating turns (rule 11): tiles per base, one depot token, run for the most, pay, buy transports.

Private powers used in a turn (P4 marker, P5 Terminal, buying privates) are in `privates.py`; the run
and its payout in `earnings.py`; emergency money raising and bankruptcy in `bankruptcy.py`.
"""
from __future__ import annotations

from moon21 import board as bd
from moon21 import commands as K
from moon21 import events as E
from moon21.bankruptcy import treasury_sellable
from moon21.deals import buy_from_corporation
from starbase_rules.scratch import Tx, refuse
from moon21.rules import rules
from moon21.state import C, OR_STEPS, State

OTHER = {"LB": "SP", "SP": "LB"}


def lay_flags(s: State, corp: str) -> dict:
    return {"phase": s.phase, "space_bridge": s.owns_private(corp, "P3"), "tunnel": s.owns_private(corp, "P6"),
            "terminal_open": s.private_owner.get("P5") == "closed", "reach_mode": s.option("build_reach"),
            "mineral_cost": s.option("mineral_lay_cost"), "tunnel_mountain_cost": s.option("tunnel_mountain_cost")}


def tile_options(s: State, corp: str, base: str) -> list[dict]:
    cash = s.cash(C(corp))
    return [o for o in bd.lay_options(s.board, corp, base, **lay_flags(s, corp)) if o["cost"] <= cash]


def depot_options(s: State, corp: str) -> list[dict]:
    return bd.token_options(s.board, corp, reach_mode=s.option("build_reach")) if _can_pay_depot(s, corp) else []


def has_depot_option(s: State, corp: str) -> bool:
    """Whether `depot_options` lists anything (without listing them: the token step's skip asks)."""
    return _can_pay_depot(s, corp) and bd.has_token_option(s.board, corp, reach_mode=s.option("build_reach"))


def _can_pay_depot(s: State, corp: str) -> bool:
    c = s.corps[corp]
    return bool(c.depots_left) and s.cash(C(corp)) >= c.depots_left[0]


def lay_tile(tx: Tx[State], corp: str, cmd: K.LayTile) -> None:
    s = tx.state
    if not OR_STEPS.allows(s.op.step, cmd.type):
        refuse("WRONG_STEP", "tiles are laid before depots, runs and purchases")
    if cmd.base in s.op.tile_bases:
        refuse("TILE_ACTION_USED", f"the {cmd.base} base has already had its tile action")
    cost = bd.check_lay(s.board, corp, cmd.base, cmd.hex, cmd.tile, cmd.rotation, **lay_flags(s, corp))
    if s.cash(C(corp)) < cost:
        refuse("INSUFFICIENT_FUNDS", f"the terrain costs ₡{cost}; {corp} has ₡{s.cash(C(corp))}")
    bridge = s.owns_private(corp, "P3") and \
        bd.apply_lay(s.board.copy(), cmd.hex, cmd.tile, cmd.rotation)["rift_bridge_built"]
    tx.emit(E.TileLaid(corp=corp, base=cmd.base, hex=cmd.hex, tile=cmd.tile, rotation=cmd.rotation, cost=cost))
    if bridge:
        tx.emit(E.RiftBridgeBonusPaid(corp=corp, amount=rules()["space_bridge_bonus"]))
        tx.emit(E.PrivateClosed(private="P3", reason="Space Bridge built"))


def place_depot(tx: Tx[State], corp: str, cmd: K.PlaceDepot) -> None:
    s = tx.state
    if s.op.token_placed:
        refuse("TOKEN_ALREADY_PLACED", "only one depot token may be placed per turn")
    if not OR_STEPS.allows(s.op.step, cmd.type):
        refuse("WRONG_STEP", "depot tokens are placed after tiles and before running")
    c = s.corps[corp]
    if not c.depots_left:
        refuse("NO_TOKENS_LEFT", f"{corp} has no depot tokens left")
    cost = c.depots_left[0]
    if s.cash(C(corp)) < cost:
        refuse("INSUFFICIENT_FUNDS", f"the next depot costs ₡{cost}; {corp} has ₡{s.cash(C(corp))}")
    bd.check_token(s.board, corp, cmd.hex, cmd.depot, reach_mode=s.option("build_reach"))
    if s.op.step == "tiles":
        tx.emit(E.StepFinished(corp=corp, step="tiles", next_step="token"))
    tx.emit(E.DepotPlaced(corp=corp, hex=cmd.hex, depot=cmd.depot, cost=cost))


def move_transport(tx: Tx[State], corp: str, cmd: K.MoveTransport) -> None:
    s = tx.state
    c = s.corps[corp]
    if s.op.step == "buy":
        refuse("WRONG_STEP", "transports are moved before running")
    if s.op.moved_transport:
        refuse("ALREADY_MOVED", "one transport may be moved per turn")
    if cmd.transport not in c.transports[cmd.from_base]:
        refuse("NO_SUCH_TRANSPORT", f"no type {cmd.transport} transport at the {cmd.from_base} base")
    if len(c.transports[OTHER[cmd.from_base]]) >= rules()["transports_per_base"]:
        refuse("BASE_FULL", f"the {OTHER[cmd.from_base]} base already has two transports")
    tx.emit(E.TransportMoved(corp=corp, from_base=cmd.from_base, transport=cmd.transport))


def must_buy(s: State, corp: str) -> bool:
    """Rule 11.6: a corporation with a route for either base and no transport must buy one."""
    c = s.corps[corp]
    return c.transport_count() == 0 and any(bd.has_route(s.board, corp, b) for b in ("LB", "SP"))


def bank_price(s: State) -> int:
    return rules().transport_cost[s.top_transport()]


def open_bases(s: State, corp: str) -> list[str]:
    c = s.corps[corp]
    limit = rules()["transports_per_base"]
    if c.transport_count() >= 2 * limit:
        return []
    return [b for b in ("LB", "SP") if b not in s.op.bought_for and len(c.transports[b]) < limit]


def buy_transport(tx: Tx[State], corp: str, cmd: K.BuyTransport) -> None:
    s = tx.state
    c = s.corps[corp]
    if not OR_STEPS.allows(s.op.step, cmd.type):
        refuse("WRONG_STEP", "transports are bought after running")
    if cmd.base not in open_bases(s, corp):
        refuse("BASE_FULL", f"the {cmd.base} base cannot take a transport now "
                            "(two per base, one bought per base per turn, four at most)")
    if cmd.from_corp:
        buy_from_corporation(tx, corp, s.president(corp), cmd)
        return
    transport = s.top_transport()
    price = bank_price(s)
    if cmd.transport is not None and cmd.transport != transport:
        refuse("NOT_TOP_OF_STACK", f"only the top transport (type {transport}) may be bought")
    treasury = s.cash(C(corp))
    president_paid = 0
    if treasury < price:
        if not s.op.raising:
            refuse("INSUFFICIENT_FUNDS", f"a type {transport} costs ₡{price}; {corp} has ₡{treasury}")
        if treasury_sellable(s, corp):
            refuse("SELL_TREASURY_FIRST", "sell treasury stock before the president contributes")
        president_paid = price - treasury
        president = s.president(corp)
        if s.cash(f"p:{president}") < president_paid:
            refuse("INSUFFICIENT_FUNDS",
                   f"the president must add ₡{president_paid}: sell shares or go bankrupt")
    tx.emit(E.TransportBought(corp=corp, base=cmd.base, transport=transport, price=price,
                              president_paid=president_paid))
    phase_change(tx, transport)


def phase_change(tx: Tx[State], transport: int) -> None:
    s = tx.state
    name = str(transport)
    if name in rules().phase_colors and int(name) > int(s.phase):
        tx.emit(E.PhaseChanged(phase=name, removed_type=rules().phase_removes[name]))


def finish_step(tx: Tx[State], corp: str) -> None:
    """Pass: end the current step (tiles -> token -> run) or, in the buy step, the turn."""
    s = tx.state
    step = s.op.step
    if step == "run":
        refuse("MUST_RUN", "transports must be run (send RunTransports)")
    if step == "buy":
        if s.op.pending_un:
            refuse("UN_CONTRACT_PENDING", "choose what the UN Contract does first")
        if must_buy(s, corp):
            refuse("MUST_BUY_TRANSPORT", f"{corp} has a route and no transport: it must buy one")
        tx.emit(E.OperatingTurnEnded(corp=corp))
        return
    tx.emit(E.StepFinished(corp=corp, step=step, next_step=OR_STEPS.after(step)))
