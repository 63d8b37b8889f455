"""Deciding a command: whose turn it is, and which round's rules read it (registered in `RULES` for every
command type; the engine base applies the common guards first and `flow.advance` after)."""
from __future__ import annotations

from moon21 import commands as K
from moon21.bankruptcy import declare_bankruptcy, emergency_sell
from moon21.corporate import corporate_actor, decide_cr
from moon21.earnings import submit_runs
from moon21.isr import decide_isr, decide_ols
from moon21.operating import buy_transport, finish_step, lay_tile, move_transport, place_depot
from moon21.deals import acquire_private, answer_deal
from moon21.privates import lay_terminal, place_research_marker, use_un_contract
from moon21.rules import RULES
from moon21.state import State
from moon21.stock import decide_sr
from starbase_rules.scratch import Tx, refuse


def to_act(s: State) -> list[str]:
    if s.ended or s.kind == "SETUP":
        return []
    if s.ols_pending:
        return [s.ols_pending]
    if s.kind == "ISR":
        a = s.auction
        return [a.resolution_turn if a.resolving else s.auction_turn]
    if s.kind == "SR":
        return [s.sr.current]
    if s.kind == "CR":
        actor = corporate_actor(s)
        return [actor] if actor else []
    if s.kind == "OR" and s.op:
        if s.op.deal:
            return [s.op.deal["seller"]]
        president = s.president(s.op.corp)
        return [president] if president else []
    return []


def decide_command(tx: Tx[State], cmd, actor: str) -> None:
    """Every 21Moon command goes through here: the round in play (or the Old Landing Site its buyer owes)
    says which rules read it, and each round refuses the commands it has no use for (WRONG_ROUND)."""
    state = tx.state
    if state.ols_pending:
        decide_ols(tx, cmd, actor)
    elif state.kind == "ISR":
        decide_isr(tx, cmd, actor)
    elif state.kind == "SR":
        decide_sr(tx, cmd, actor)
    elif state.kind == "CR":
        decide_cr(tx, cmd, actor)
    else:
        decide_or(tx, cmd, actor)


for _command_type in K.COMMANDS:
    RULES.decides(_command_type)(decide_command)


OR_HANDLERS = {
    K.LayTile: lay_tile, K.PlaceDepot: place_depot, K.MoveTransport: move_transport,
    K.BuyTransport: buy_transport, K.LayTerminal: lay_terminal, K.PlaceResearchMarker: place_research_marker,
    K.UseUnContract: use_un_contract,
}


def decide_or(tx: Tx[State], cmd, actor: str) -> None:
    s = tx.state
    corp = s.op.corp
    if s.op.deal:
        return answer_deal(tx, actor, cmd)
    if isinstance(cmd, K.AnswerDeal):
        refuse("NO_DEAL", "there is no offer to answer")
    if s.op.pending_un and not isinstance(cmd, K.UseUnContract):
        refuse("UN_CONTRACT_PENDING", "choose what the UN Contract does first")
    if s.op.raising and not isinstance(cmd, (K.SellShares, K.BuyTransport, K.DeclareBankruptcy)):
        refuse("MUST_BUY_TRANSPORT", f"{corp} must raise money and buy a transport")
    handler = OR_HANDLERS.get(type(cmd))
    if handler:
        handler(tx, corp, cmd)
    elif isinstance(cmd, K.RunTransports):
        submit_runs(tx, corp, cmd.runs)
    elif isinstance(cmd, K.AcquirePrivate):
        acquire_private(tx, corp, actor, cmd)
    elif isinstance(cmd, K.SellShares):
        emergency_sell(tx, corp, actor, cmd)
    elif isinstance(cmd, K.DeclareBankruptcy):
        declare_bankruptcy(tx, corp, actor)
    elif isinstance(cmd, K.Pass):
        finish_step(tx, corp)
    else:
        refuse("WRONG_ROUND", f"{cmd.type} is not an operating round action")
