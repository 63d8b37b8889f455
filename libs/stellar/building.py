"""Building outposts: Expand Network, Create Wormhole, Private Contractor and Jerry-Rig, one outpost at a
time (ruling G-BLD-1), with the alien-planet consequences (cubes, Secret Agents, The Agreement)."""
from __future__ import annotations

from stellar import commands as cmd
from stellar import events as ev
from stellar import queries as q
from stellar.board import alpha
from stellar.corporate import require_corp_step, take_pending
from stellar.facts import tables
from stellar.flow import Tx, offer_draft, refuse, request
from stellar.rules import RULES
from stellar.state import BANK, TAX_BOX, State, frozen, treasury

CORPORATION_MODES = ("expand", "wormhole")
MAX_OUTPOSTS = {"expand": 5, "contractor": 5, "jerry_rig": 1, "wormhole": 1}


def build_is_full(s: State) -> bool:
    return len(s.build.placed) >= MAX_OUTPOSTS[s.build.mode]


def placement_error(s: State, hex_key: str) -> tuple[str, str] | None:
    """Why the open build may not place its next outpost on `hex_key`, or None (checks cost too)."""
    build = s.build
    if build_is_full(s):
        return "BUILD_LIMIT", f"this action builds at most {MAX_OUTPOSTS[build.mode]} outpost(s)"
    refusal = q.placement_refusal(s, build.corp, hex_key)
    if refusal:
        return refusal
    if build.mode != "wormhole" and not q.is_adjacent_to_network(s, build.corp, hex_key):
        return "NOT_ADJACENT", f"{hex_key} is not next to an outpost of {build.corp}"
    penalty = q.penalty_for(s, build.corp, hex_key, build.mode)
    cost = q.build_cost(build, penalty, extra_outposts=1)
    if s.ledger.balance(build.payer) < cost:
        return "INSUFFICIENT_FUNDS", f"building there would bring the cost to {cost}"
    return None


def place(tx: Tx, hex_key: str) -> None:
    s = tx.state
    build = s.build
    corp = s.corps[build.corp]
    spot = alpha().hexes[hex_key]
    # Nebular Explorers converts the anomaly; Icarus Experiment (option icarus_includes_nebulae) only builds
    nebula = spot.kind == "nebular_anomaly" and hex_key not in s.converted_nebulae \
        and "nebular_explorers" in corp.powers
    if nebula:      # Nebular Explorers: a random boxed agreement tile goes under the outpost
        index = tx.rng.randbelow(len(s.boxed_tiles)) if s.boxed_tiles else -1
        chevrons = s.boxed_tiles[index] if index >= 0 else 0
        tx.emit(ev.NebulaConverted(hex=hex_key, tile_index=index, chevrons=chevrons))
    tx.emit(ev.OutpostPlaced(corp=corp.id, hex=hex_key, penalty=q.penalty_for(s, corp.id, hex_key, build.mode)))
    if nebula:
        tx.emit(ev.PowerDiscarded(corp=corp.id, power="nebular_explorers"))
    if not q.is_alien_planet(s, hex_key):
        return
    if "alien_explorers" in corp.powers:
        if s.cube_supply > 0:
            tx.emit(ev.TechnologyGained(player=build.builder, count=1, reason="alien planet"))
        if q.signing_eligible(s, corp.id, hex_key):
            request(tx, "sign_offer", corp.president, corp.id, hex_key, ["sign", "decline"])
    elif "secret_agents" in corp.powers:
        if hex_key in s.alien_tiles:
            request(tx, "agents_choice", corp.president, corp.id, hex_key, ["amethyst", "aliens"])
        else:
            tx.emit(ev.AgentsBonusGained(corp=corp.id, amount=tables().power("secret_agents", "amethyst_bonus")))
    elif "tax_agents" in corp.powers:       # no cube; the president may tax or steal
        request(tx, "tax_choice", corp.president, corp.id, hex_key, ["tax", "steal", "none"])


def pay_and_close(tx: Tx) -> str:
    s = tx.state
    build = s.build
    cost = q.build_cost(build)
    if cost:
        tx.emit(ev.CashMoved(source=build.payer, destination=BANK, amount=cost, reason=f"build {build.mode}"))
    tx.emit(ev.BuildFinished(corp=build.corp, cost=cost))
    return build.mode


def continue_after(tx: Tx, mode: str, corp_id: str) -> None:
    s = tx.state
    if mode in CORPORATION_MODES:
        tx.emit(ev.CorporationStepBegan(corp=corp_id, step="dividend"))
    else:
        tx.emit(ev.InvestorStepBegan(step="shenanigans", seat=s.inv.seat, part="alien"))


def finish_build(tx: Tx) -> None:
    corp_id = tx.state.build.corp
    continue_after(tx, pay_and_close(tx), corp_id)


def _require_builder(s: State, actor: str):
    if s.build is None:
        refuse("NO_BUILD", "no build action is open")
    if s.pending:
        refuse("DECISION_PENDING", "answer the open decision first")
    if actor != s.build.builder:
        refuse("NOT_YOUR_TURN", f"{s.build.builder} is building")
    return s.build


def require_unbuilt_outpost(corp) -> None:
    """Every build places at least one outpost, so a corporation with none left may not begin one (it
    would lose the action); Dismantling Outposts can return one to the supply first."""
    if corp.supply <= 0:
        refuse("NO_OUTPOSTS_LEFT", f"{corp.id} has no unbuilt outposts to build with")


@RULES.decides(cmd.BeginExpansion)
def begin_expansion(tx: Tx, command: cmd.BeginExpansion, actor: str) -> None:
    corp = require_corp_step(tx.state, actor, "build")
    require_unbuilt_outpost(corp)
    tx.emit(ev.BuildBegan(corp=corp.id, mode="expand", builder=actor, payer=treasury(corp.id)))


@RULES.decides(cmd.CreateWormhole)
def create_wormhole(tx: Tx, command: cmd.CreateWormhole, actor: str) -> None:
    s = tx.state
    corp = require_corp_step(s, actor, "build")
    if not corp.wormhole:
        refuse("NO_WORMHOLE_TECH", f"{corp.id} has no active Wormhole Technology")
    if command.hex not in alpha().hexes:
        refuse("UNKNOWN_HEX", f"there is no hex {command.hex!r}")
    base = q.wormhole_cost(s, corp.id, command.hex)
    if base is None:
        refuse("NO_NETWORK", f"{corp.id} has no outpost on the board to measure from")
    tx.emit(ev.BuildBegan(corp=corp.id, mode="wormhole", builder=actor, payer=treasury(corp.id), wormhole_cost=base))
    error = placement_error(tx.state, command.hex)
    if error:
        refuse(*error)
    place(tx, command.hex)


@RULES.decides(cmd.SkipBuilding)
def skip_building(tx: Tx, command: cmd.SkipBuilding, actor: str) -> None:
    corp = require_corp_step(tx.state, actor, "build")
    tx.emit(ev.CorporationStepBegan(corp=corp.id, step="dividend"))


@RULES.decides(cmd.PlaceOutpost)
def place_outpost(tx: Tx, command: cmd.PlaceOutpost, actor: str) -> None:
    s = tx.state
    _require_builder(s, actor)
    if s.build.mode == "wormhole":
        refuse("BUILD_LIMIT", "Create Wormhole builds exactly one outpost")
    error = placement_error(s, command.hex)
    if error:
        refuse(*error)
    place(tx, command.hex)


@RULES.decides(cmd.FinishBuilding)
def finish_building(tx: Tx, command: cmd.FinishBuilding, actor: str) -> None:
    _require_builder(tx.state, actor)
    finish_build(tx)


@RULES.decides(cmd.SignAgreement)
def sign_agreement(tx: Tx, command: cmd.SignAgreement, actor: str) -> None:
    s = tx.state
    pending = take_pending(s, actor, "sign_offer")
    corp_id, hex_key = pending.corp, pending.hex
    tx.emit(ev.DecisionMade(kind="sign_offer", player=actor, choice="sign"))
    mode = pay_and_close(tx)               # all build costs are paid before signing (G-AGR-2)
    chevrons = s.alien_tiles[hex_key]
    planets = q.alien_planets_of(s, corp_id)
    tx.emit(ev.AgreementSigned(corp=corp_id, hex=hex_key, chevrons=chevrons, alien_planets=planets))
    if chevrons:
        tx.emit(ev.AlienCapacityRaised(amount=chevrons * tables().per_chevron, reason="agreement tile"))
    tx.emit(ev.PowerDiscarded(corp=corp_id, power="alien_explorers"))
    bonus = tables().track_section(planets)[1]
    for player, count in sorted(s.corps[corp_id].holders.items()):
        if count:
            tx.emit(ev.CashMoved(source=BANK, destination=frozen(player), amount=bonus * count,
                                  reason=f"agreement bonus {corp_id}"))
    offer_draft(tx, corp_id)
    continue_after(tx, mode, corp_id)


@RULES.decides(cmd.DeclineAgreement)
def decline_agreement(tx: Tx, command: cmd.DeclineAgreement, actor: str) -> None:
    take_pending(tx.state, actor, "sign_offer")
    tx.emit(ev.DecisionMade(kind="sign_offer", player=actor, choice="decline"))


@RULES.decides(cmd.ChooseAgentsBonus)
def choose_agents_bonus(tx: Tx, command: cmd.ChooseAgentsBonus, actor: str) -> None:
    s = tx.state
    pending = take_pending(s, actor, "agents_choice")
    tx.emit(ev.DecisionMade(kind="agents_choice", player=actor, choice=command.choice))
    if command.choice == "amethyst":
        tx.emit(ev.AlienTileDiscarded(hex=pending.hex, chevrons=None))
        tx.emit(ev.AgentsBonusGained(corp=pending.corp, amount=tables().power("secret_agents", "amethyst_bonus")))
    else:
        chevrons = s.alien_tiles[pending.hex]
        tx.emit(ev.AlienTileDiscarded(hex=pending.hex, chevrons=chevrons))
        if chevrons:
            tx.emit(ev.AlienCapacityRaised(amount=chevrons * tables().per_chevron, reason="secret agents"))


@RULES.decides(cmd.ChooseTaxAction)
def choose_tax_action(tx: Tx, command: cmd.ChooseTaxAction, actor: str) -> None:
    """Tax Agents (R-9): every other corporation on the planet pays the Tax Payment from its treasury into
    the Tax Box (as much as it has: a tax is not a forced cost that allows loans), or Amethyst takes up to
    3 from the Tax Box into its treasury."""
    s = tx.state
    pending = take_pending(s, actor, "tax_choice")
    tx.emit(ev.DecisionMade(kind="tax_choice", player=actor, choice=command.choice))
    if command.choice == "tax":
        for other in sorted(c for c in s.outposts.get(pending.hex, []) if c != pending.corp):
            amount = min(s.options.tax_payment, s.ledger.balance(treasury(other)))
            if amount:
                tx.emit(ev.CashMoved(source=treasury(other), destination=TAX_BOX, amount=amount,
                                      reason="tax payment"))
    elif command.choice == "steal":
        amount = min(tables().power("tax_agents", "steal_from_tax_box"), s.ledger.balance(TAX_BOX))
        if amount:
            tx.emit(ev.CashMoved(source=TAX_BOX, destination=treasury(pending.corp), amount=amount,
                                  reason="tax box"))
