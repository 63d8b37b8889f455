"""The presidents' free-action powers: Alien Alchemist, Dismantling Outposts, Leaked Research, Spare Parts'
decision and Alien Engineering (timings per ruling G-PWR-5)."""
from __future__ import annotations

from stellar import commands as cmd
from stellar import events as ev
from stellar import queries as q
from stellar.board import alpha
from stellar.corporate import require_power, require_president, require_quiet, take_pending
from stellar.facts import tables
from stellar.flow import Tx, refuse
from stellar.rules import RULES
from stellar.state import BANK, State, treasury

def _require_own_turn(s: State, actor: str, corp_id: str):
    """G-PWR-5: once per round, any time in the corporation's own turn, its own build included (a
    dismantled outpost "may immediately be placed as part of any action" that builds)."""
    corp = require_president(s, actor, corp_id)
    require_quiet(s)
    if s.round != "corporation" or s.corp_turn is None or s.corp_turn.corp != corp_id:
        refuse("WRONG_STEP", f"{corp_id} may use this power only during its own corporation turn")
    return corp


@RULES.decides(cmd.UseAlienAlchemist)
def alien_alchemist(tx: Tx, command: cmd.UseAlienAlchemist, actor: str) -> None:
    s = tx.state
    corp = _require_own_turn(s, actor, command.corp)
    require_power(corp, "alien_alchemist")
    if s.corp_turn.alchemist_used:
        refuse("POWER_ALREADY_USED", "Alien Alchemist is used once per corporation round")
    if corp.supply < tables().power("alien_alchemist", "unbuilt_outposts_boxed"):
        refuse("NO_OUTPOSTS_LEFT", f"{corp.id} has fewer than 2 unbuilt outposts")
    tx.emit(ev.PowerUsed(corp=corp.id, power="alien_alchemist"))
    tx.emit(ev.OutpostsBoxed(corp=corp.id, count=tables().power("alien_alchemist", "unbuilt_outposts_boxed")))
    if s.cube_supply > 0:
        tx.emit(ev.TechnologyGained(player=actor, count=tables().power("alien_alchemist", "cubes_to_president"),
                                    reason="alien_alchemist"))


def dismantle_refusal(s: State, corp_id: str, hex_key: str) -> tuple[str, str] | None:
    """Why `corp_id` may not dismantle its outpost on `hex_key` now (its turn assumed), or None. Shared
    by the handler and the bots' candidates so both ask the same question."""
    corp = s.corps[corp_id]
    if "dismantling_outposts" not in corp.powers:
        return "POWER_NOT_ACTIVE", f"{corp_id} does not have dismantling_outposts"
    if s.corp_turn.dismantle_used:
        return "POWER_ALREADY_USED", "Dismantling Outposts is used once per corporation round"
    if corp_id not in s.outposts.get(hex_key, []) or alpha().hexes[hex_key].kind != "deep_space":
        return "NOT_DISMANTLABLE", f"{corp_id} has no outpost on a deep space hex {hex_key!r}"
    # An open build of this corporation pays from the same treasury when it finishes: the money it
    # already owes is not free, or the build could never be paid (nor finished).
    owed = q.build_cost(s.build) if s.build is not None and s.build.payer == treasury(corp_id) else 0
    cost = tables().power("dismantling_outposts", "cost")
    if s.ledger.balance(treasury(corp_id)) < owed + cost:
        return "INSUFFICIENT_FUNDS", f"dismantling costs {cost} from the treasury, beyond the {owed} the build owes"
    return None


@RULES.decides(cmd.DismantleOutpost)
def dismantle(tx: Tx, command: cmd.DismantleOutpost, actor: str) -> None:
    s = tx.state
    corp = _require_own_turn(s, actor, command.corp)
    refusal = dismantle_refusal(s, corp.id, command.hex)
    if refusal:
        refuse(*refusal)
    tx.emit(ev.PowerUsed(corp=corp.id, power="dismantling_outposts"))
    tx.emit(ev.OutpostRemoved(corp=corp.id, hex=command.hex, to="supply"))
    tx.emit(ev.CashMoved(source=treasury(corp.id), destination=BANK,
                          amount=tables().power("dismantling_outposts", "cost"), reason="dismantling"))


@RULES.decides(cmd.UseLeakedResearch)
def leaked_research(tx: Tx, command: cmd.UseLeakedResearch, actor: str) -> None:
    s = tx.state
    corp = require_president(s, actor, command.corp)
    require_quiet(s)
    require_power(corp, "leaked_research")
    if corp.wormhole:
        refuse("WORMHOLE_ALREADY_ACTIVE", f"{corp.id} already has Wormhole Technology")
    if s.investors[actor].cubes < 1:
        refuse("NO_TECHNOLOGY", f"{actor} has no Alien Technology cube")
    tx.emit(ev.TechnologySpent(player=actor, count=1, use="wormhole", corp=corp.id))
    tx.emit(ev.PowerDiscarded(corp=corp.id, power="leaked_research"))


@RULES.decides(cmd.UseSpareParts)
def use_spare_parts(tx: Tx, command: cmd.UseSpareParts, actor: str) -> None:
    pending = take_pending(tx.state, actor, "spare_parts")
    tx.emit(ev.DecisionMade(kind="spare_parts", player=actor, choice="keep" if command.keep else "scrap"))
    if not command.keep:                 # scrapped now; the power stays for a later scrapping event
        tx.emit(ev.SpareShipScrapped(corp=pending.corp))


@RULES.decides(cmd.ReclaimCubes)
def reclaim_cubes(tx: Tx, command: cmd.ReclaimCubes, actor: str) -> None:
    s = tx.state
    corp = require_president(s, actor, command.corp)
    require_quiet(s)
    require_power(corp, "alien_engineering")
    if s.round != "investor":
        refuse("WRONG_STEP", "Alien Engineering works in the Investor Round")
    if not corp.boost_cubes and not corp.wormhole_cube:
        refuse("NO_TECHNOLOGY", f"{corp.id} has no cubes on its charter")
    boost = corp.boost_cubes if command.boost_cubes is None else command.boost_cubes
    wormhole = corp.wormhole_cube if command.wormhole is None else command.wormhole
    if not 0 <= boost <= corp.boost_cubes or (wormhole and not corp.wormhole_cube) or not (boost or wormhole):
        refuse("NO_TECHNOLOGY", f"{corp.id} has {corp.boost_cubes} boost cube(s) and "
                                f"{'a' if corp.wormhole_cube else 'no'} wormhole cube; reclaim at least one it has")
    tx.emit(ev.CubesReclaimed(corp=corp.id, player=actor, boost=boost, wormhole=wormhole))
    if boost:
        tx.emit(ev.CargoChanged(corp=corp.id, amount=-boost, reason="alien_engineering"))
