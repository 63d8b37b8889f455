"""`evolve`, the operating round's events: tiles, depots, runs and earnings, transports, phases, deals.
Registered in `RULES` on import (`moon21.evolve` imports this module). A handler mutates the state."""
from __future__ import annotations

from kit18xx.bank import BANK
from moon21 import board as bd
from moon21 import events as E
from moon21.rules import RULES
from moon21.state import C, OperatingTurn, P, State


@RULES.evolves(E.TileLaid)
def _tile(s: State, e: E.TileLaid) -> None:
    bd.apply_lay(s.board, e.hex, e.tile, e.rotation)
    s.ledger.move(C(e.corp), BANK, e.cost)
    if s.op:
        if e.base == "T":
            s.op.terminal_laid = True
        else:
            s.op.tile_bases.append(e.base)


@RULES.evolves(E.DepotPlaced)
def _depot(s: State, e: E.DepotPlaced) -> None:
    bd.place_token(s.board, e.corp, e.hex, e.depot, need_route=not e.free, reach_mode=s.option("build_reach"))
    s.corps[e.corp].depots_left.pop(0)
    s.ledger.move(C(e.corp), BANK, e.cost)
    if s.op and not e.free:
        s.op.token_placed = True


@RULES.evolves(E.TransportMoved)
def _moved(s: State, e: E.TransportMoved) -> None:
    corp = s.corps[e.corp]
    corp.transports[e.from_base].remove(e.transport)
    corp.transports["SP" if e.from_base == "LB" else "LB"].append(e.transport)
    s.op.moved_transport = True


@RULES.evolves(E.EarningsPaid)
def _earnings(s: State, e: E.EarningsPaid) -> None:
    for holder, amount in e.payouts.items():
        s.ledger.move(BANK, holder, amount)


@RULES.evolves(E.BonusTokensTaken)
def _bonus(s: State, e: E.BonusTokensTaken) -> None:
    for area in e.areas:
        s.corps[e.corp].bonus_tokens.append(area)
        s.bonus_left[area] -= 1


@RULES.evolves(E.TransportBought)
def _transport_bought(s: State, e: E.TransportBought) -> None:
    corp = s.corps[e.corp]
    if e.president_paid:
        s.ledger.move(P(s.president(e.corp)), C(e.corp), e.president_paid)
    if e.from_corp:
        s.corps[e.from_corp].transports[e.from_base].remove(e.transport)
        s.ledger.move(C(e.corp), C(e.from_corp), e.price)
    else:
        if s.stack:
            s.stack.pop(0)
        else:
            s.supplied[10] += 1
        s.ledger.move(C(e.corp), BANK, e.price)
    corp.transports[e.base].append(e.transport)
    if s.op and s.op.corp == e.corp:
        s.op.bought_for.append(e.base)
        s.op.raising = 0
        s.op.raised = False


@RULES.evolves(E.PhaseChanged)
def _phase(s: State, e: E.PhaseChanged) -> None:
    s.phase = e.phase
    gone = e.removed_type
    if gone is None:
        return
    for corp in s.corps.values():
        for base in ("LB", "SP"):
            kept = [t for t in corp.transports[base] if t != gone]
            s.scrapped[gone] += len(corp.transports[base]) - len(kept)
            corp.transports[base] = kept
    s.scrapped[gone] += s.stack.count(gone)
    s.stack = [t for t in s.stack if t != gone]


@RULES.evolves(E.UnContractUsed)
def _un(s: State, e: E.UnContractUsed) -> None:
    t = e.transport_type
    if e.action == "add":
        at = next((i for i, x in enumerate(s.stack) if x >= t), len(s.stack))
        s.stack.insert(at, t)
        s.supplied[t] += 1
    elif e.action == "remove":
        s.stack.remove(t)
        s.scrapped[t] += 1
    s.op.pending_un = False


@RULES.evolves(E.ResearchMarkerPlaced)
def _research_marker(s: State, e: E.ResearchMarkerPlaced) -> None:
    bd.place_research_marker(s.board, e.hex)
    s.research_marker = e.hex


@RULES.evolves(E.OperatingTurnEnded)
def _operating_turn_ended(s: State, e: E.OperatingTurnEnded) -> None:
    s.operated.append(e.corp)
    s.corps[e.corp].operated = True
    s.op = None


@RULES.evolves(E.PrivateRevenuePaid)
def _private_revenue(s: State, e: E.PrivateRevenuePaid) -> None:
    s.ledger.move(BANK, e.holder, e.amount)


@RULES.evolves(E.RiftBridgeBonusPaid)
def _rift_bridge_bonus(s: State, e: E.RiftBridgeBonusPaid) -> None:
    s.ledger.move(BANK, C(e.corp), e.amount)


@RULES.evolves(E.OperatingTurnStarted)
def _operating_turn_started(s: State, e: E.OperatingTurnStarted) -> None:
    s.op = OperatingTurn(e.corp)


@RULES.evolves(E.StepFinished)
def _step_finished(s: State, e: E.StepFinished) -> None:
    s.op.step = e.next_step


@RULES.evolves(E.EmergencyBegan)
def _emergency_began(s: State, e: E.EmergencyBegan) -> None:
    s.op.raising = e.need


@RULES.evolves(E.DealProposed)
def _deal_proposed(s: State, e: E.DealProposed) -> None:
    s.op.deal = e.model_dump(exclude={"type", "v"})


@RULES.evolves(E.DealAnswered)
def _deal_answered(s: State, e: E.DealAnswered) -> None:
    s.op.deal = None


@RULES.evolves(E.TransportsRun)
def _transports_run(s: State, e: E.TransportsRun) -> None:
    """The audit record of the runs; money moves in EarningsPaid."""
