"""Private company powers in an operating turn: the UN Contract's stack change (6.1.2), the Research Lab
marker (6.1.4), the Passenger Terminal (6.1.5), and private revenue. Buying privates: `deals.py`."""
from __future__ import annotations

from moon21 import board as bd
from moon21 import commands as K
from moon21 import events as E
from starbase_rules.scratch import Tx, refuse
from moon21.rules import rules
from moon21.state import OR_STEPS, State

def un_choices(s: State) -> list[tuple[str, int | None]]:
    """Rule 6.1.2: add or remove a type 3-6 transport of the current phase or later."""
    allowed = [t for t in rules()["un_contract_types"] if t >= int(s.phase)]
    out: list[tuple[str, int | None]] = [("none", None)]
    out += [("add", t) for t in allowed]
    out += [("remove", t) for t in allowed if t in s.stack]
    return out


def use_un_contract(tx: Tx[State], corp: str, cmd: K.UseUnContract) -> None:
    s = tx.state
    if not s.op.pending_un:
        refuse("NOT_OWNER", f"{corp} has no UN Contract choice to make")
    if (cmd.action, cmd.transport_type if cmd.action != "none" else None) not in un_choices(s):
        refuse("ILLEGAL_TRANSPORT_TYPE", f"choose one of {un_choices(s)}")
    tx.emit(E.UnContractUsed(corp=corp, action=cmd.action, transport_type=cmd.transport_type))


def place_research_marker(tx: Tx[State], corp: str, cmd: K.PlaceResearchMarker) -> None:
    s = tx.state
    if not s.owns_private(corp, "P4"):
        refuse("NOT_OWNER", f"{corp} does not own the Research Lab")
    if cmd.hex not in bd.research_targets(s.board):
        refuse("ILLEGAL_HEX", f"the +20 marker goes on a mineral or local base hex, not {cmd.hex}")
    tx.emit(E.ResearchMarkerPlaced(corp=corp, hex=cmd.hex))
    tx.emit(E.PrivateClosed(private="P4", reason="marker placed"))


def lay_terminal(tx: Tx[State], corp: str, cmd: K.LayTerminal) -> None:
    s = tx.state
    if not s.owns_private(corp, "P5"):
        refuse("NOT_OWNER", f"{corp} does not own the Passenger Terminal")
    if not OR_STEPS.allows(s.op.step, cmd.type):
        refuse("WRONG_STEP", "the Terminal is laid in the tile step")
    option = next((o for o in bd.terminal_options(s.board) if o["rotation"] == cmd.rotation), None)
    if option is None:
        refuse("ILLEGAL_ROTATION", f"the Terminal cannot be laid at rotation {cmd.rotation}")
    tx.emit(E.TileLaid(corp=corp, base="T", hex=option["hex"], tile=option["tile"], rotation=cmd.rotation, cost=0))
    c = tx.state.corps[corp]
    if cmd.place_depot and c.depots_left and not tx.state.board.corp_in_hex(corp, option["hex"]):
        tx.emit(E.DepotPlaced(corp=corp, hex=option["hex"], depot=0, cost=0, free=True))
    tx.emit(E.PrivateClosed(private="P5", reason="Terminal laid"))


def pay_private_revenue(tx: Tx[State]) -> None:
    s = tx.state
    for private, spec in rules().privates.items():
        owner = s.private_owner.get(private, "closed")
        if owner.startswith(("p:", "c:")) and spec.revenue:
            tx.emit(E.PrivateRevenuePaid(private=private, holder=owner, amount=spec.revenue))
