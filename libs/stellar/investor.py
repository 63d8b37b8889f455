"""The Investor Round: releasing dividends, Fine Print, the Boardroom Battle and Investor Shenanigans."""
from __future__ import annotations

from stellar import commands as cmd
from stellar import events as ev
from stellar.board import alpha
from stellar.building import require_unbuilt_outpost
from stellar.corporate import require_power, take_pending
from stellar.facts import tables
from stellar.flow import Tx, administration, open_auction, refuse, request
from stellar.rules import RULES
from stellar.state import BANK, State, liquid, treasury

INVESTOR_ACTIONS = ("private_contractor", "jerry_rig", "insurance_fraud", "black_market")
ALIEN_ACTIONS = ("cargo_boost", "research_wormhole", "develop_planets", "launder")


def seats(s: State) -> list[str]:
    return s.clockwise_from(s.director)


def battle_candidates(s: State) -> list[str]:
    return [c for c in s.turn_order if s.corps[c].formed and s.corps[c].president
            and s.corps[c].charter > 0 and c not in s.inv.shielded]


def investor_step(tx: Tx) -> bool:
    s = tx.state
    inv = s.inv
    if inv.step == "release":
        tx.emit(ev.DividendsReleased())
        for corp_id in s.turn_order:
            corp = s.corps[corp_id]
            if "fine_print" in corp.powers and corp.president and corp.charter > 0:
                request(tx, "fine_print", corp.president, corp_id, options=["use", "keep"])
        tx.emit(ev.InvestorStepBegan(step="voting", seat=0))
        return True
    if inv.step == "voting":
        order = seats(s)
        if not battle_candidates(s) or inv.seat >= len(order):
            tx.emit(ev.InvestorStepBegan(step="battle"))
            return True
        if s.investors[order[inv.seat]].votes == 0:
            tx.emit(ev.InvestorStepBegan(step="voting", seat=inv.seat + 1))
            return True
        return False
    if inv.step == "battle":
        candidates = battle_candidates(s)
        if not candidates:
            tx.emit(ev.VotesSettled(winner=None))
            tx.emit(ev.InvestorStepBegan(step="shenanigans", seat=0, part="investor"))
        elif inv.battle_corp is None:
            totals = {c: sum(inv.votes.get(c, {}).values()) for c in candidates}
            top = max(totals.values())
            tied = [c for c in candidates if totals[c] == top]
            if len(tied) == 1:
                tx.emit(ev.BattleCorpChosen(corp=tied[0]))
            else:                       # the Director breaks ties, 0-0 included
                request(tx, "battle_choice", s.director, options=tied)
        else:
            open_auction(tx, inv.battle_corp, "battle", s.director)
        return True
    if inv.seat >= len(s.players):
        administration(tx)
        return True
    return False


# -- Fine Print, votes, the battle choice -------------------------------------------------------

@RULES.decides(cmd.UseFinePrint)
def use_fine_print(tx: Tx, command: cmd.UseFinePrint, actor: str) -> None:
    pending = take_pending(tx.state, actor, "fine_print")
    tx.emit(ev.DecisionMade(kind="fine_print", player=actor, choice="use" if command.use else "keep"))
    if command.use:
        tx.emit(ev.Shielded(corp=pending.corp))
        tx.emit(ev.PowerDiscarded(corp=pending.corp, power="fine_print"))


def _require_voter(s: State, actor: str) -> None:
    if s.round != "investor" or s.inv.step != "voting" or s.pending:
        refuse("WRONG_STEP", "this is not the Boardroom Battle vote")
    voter = seats(s)[s.inv.seat]
    if actor != voter:
        refuse("NOT_YOUR_TURN", f"{voter} votes now")


@RULES.decides(cmd.PlaceVotes)
def place_votes(tx: Tx, command: cmd.PlaceVotes, actor: str) -> None:
    s = tx.state
    _require_voter(s, actor)
    if command.corp not in battle_candidates(s):
        refuse("NOT_A_BATTLE_TARGET", f"{command.corp} cannot be forced to issue a share now")
    if not 1 <= command.count <= s.investors[actor].votes:
        refuse("NOT_ENOUGH_VOTES", f"{actor} has {s.investors[actor].votes} votes left")
    tx.emit(ev.VotesPlaced(player=actor, corp=command.corp, count=command.count))
    tx.emit(ev.InvestorStepBegan(step="voting", seat=s.inv.seat + 1))


@RULES.decides(cmd.PassVoting)
def pass_voting(tx: Tx, command: cmd.PassVoting, actor: str) -> None:
    _require_voter(tx.state, actor)
    tx.emit(ev.InvestorStepBegan(step="voting", seat=tx.state.inv.seat + 1))


@RULES.decides(cmd.ChooseBattleCorp)
def choose_battle_corp(tx: Tx, command: cmd.ChooseBattleCorp, actor: str) -> None:
    pending = take_pending(tx.state, actor, "battle_choice")
    if command.corp not in pending.options:
        refuse("NOT_A_BATTLE_TARGET", f"the tied corporations are {pending.options}")
    tx.emit(ev.DecisionMade(kind="battle_choice", player=actor, choice=command.corp))
    tx.emit(ev.BattleCorpChosen(corp=command.corp))


# -- Investor Shenanigans -----------------------------------------------------------------------

def _require_shenanigan(s: State, actor: str, part: str, action: str | None) -> None:
    if s.round != "investor" or s.inv.step != "shenanigans" or s.inv.part != part \
            or s.build is not None or s.pending or s.auction is not None:
        refuse("WRONG_STEP", f"this is not the time for an {part} action")
    player = seats(s)[s.inv.seat]
    if actor != player:
        refuse("NOT_YOUR_TURN", f"{player} takes Investor Shenanigans now")
    disc = s.investors[actor].investor_disc if part == "investor" else s.investors[actor].alien_disc
    if action is not None and disc == action:
        refuse("DISC_ALREADY_THERE", f"the {part} disc must move to a new action, not stay on {action}")


def _require_shareholder(s: State, actor: str, corp_id: str):
    corp = s.corps.get(corp_id)
    if corp is None or not corp.formed:
        refuse("UNKNOWN_CORPORATION", f"no active corporation {corp_id!r}")
    if corp.holders.get(actor, 0) < 1:
        refuse("NOT_SHAREHOLDER", f"{actor} holds no share of {corp_id}")
    return corp


def _to_alien_part(tx: Tx) -> None:
    tx.emit(ev.InvestorStepBegan(step="shenanigans", seat=tx.state.inv.seat, part="alien"))


def _to_next_player(tx: Tx) -> None:
    tx.emit(ev.InvestorStepBegan(step="shenanigans", seat=tx.state.inv.seat + 1, part="investor"))


@RULES.decides(cmd.HireContractor)
def hire_contractor(tx: Tx, command: cmd.HireContractor, actor: str) -> None:
    s = tx.state
    _require_shenanigan(s, actor, "investor", "private_contractor")
    require_unbuilt_outpost(_require_shareholder(s, actor, command.corp))
    tx.emit(ev.DiscMoved(player=actor, disc="investor", action="private_contractor"))
    tx.emit(ev.BuildBegan(corp=command.corp, mode="contractor", builder=actor, payer=liquid(actor)))


@RULES.decides(cmd.JerryRig)
def jerry_rig(tx: Tx, command: cmd.JerryRig, actor: str) -> None:
    s = tx.state
    _require_shenanigan(s, actor, "investor", "jerry_rig")
    require_unbuilt_outpost(_require_shareholder(s, actor, command.corp))
    tx.emit(ev.DiscMoved(player=actor, disc="investor", action="jerry_rig"))
    tx.emit(ev.BuildBegan(corp=command.corp, mode="jerry_rig", builder=actor, payer=liquid(actor)))


@RULES.decides(cmd.InsuranceFraud)
def insurance_fraud(tx: Tx, command: cmd.InsuranceFraud, actor: str) -> None:
    s = tx.state
    _require_shenanigan(s, actor, "investor", "insurance_fraud")
    corp = _require_shareholder(s, actor, command.corp)
    if corp.president != actor:
        refuse("NOT_PRESIDENT", f"only the president of {corp.id} may claim its insurance")
    if command.level not in corp.delivered:
        refuse("NO_SUCH_SHIP", f"{corp.id} has no delivered level-{command.level} ship")
    tx.emit(ev.DiscMoved(player=actor, disc="investor", action="insurance_fraud"))
    tx.emit(ev.ShipInsured(corp=corp.id, level=command.level))
    tx.emit(ev.CashMoved(source=BANK, destination=treasury(corp.id), amount=command.level, reason="insurance"))
    _to_alien_part(tx)


@RULES.decides(cmd.BlackMarket)
def black_market(tx: Tx, command: cmd.BlackMarket, actor: str) -> None:
    s = tx.state
    _require_shenanigan(s, actor, "investor", "black_market")
    if s.investors[actor].votes < 1:
        refuse("NOT_ENOUGH_VOTES", f"{actor} has no boardroom vote to sell")
    if s.cube_supply < 1:
        refuse("NO_TECHNOLOGY", "the Alien Technology supply is empty")
    tx.emit(ev.DiscMoved(player=actor, disc="investor", action="black_market"))
    tx.emit(ev.VoteSold(player=actor))
    tx.emit(ev.TechnologyGained(player=actor, count=1, reason="black market"))
    _to_alien_part(tx)


@RULES.decides(cmd.PassInvestorAction)
def pass_investor(tx: Tx, command: cmd.PassInvestorAction, actor: str) -> None:
    _require_shenanigan(tx.state, actor, "investor", None)
    tx.emit(ev.DiscMoved(player=actor, disc="investor", action=None))
    _to_alien_part(tx)


def _require_cubes(s: State, actor: str, count: int) -> None:
    if s.investors[actor].cubes < count:
        refuse("NO_TECHNOLOGY", f"{actor} has {s.investors[actor].cubes} Alien Technology cube(s)")


@RULES.decides(cmd.CargoBoost)
def cargo_boost(tx: Tx, command: cmd.CargoBoost, actor: str) -> None:
    s = tx.state
    _require_shenanigan(s, actor, "alien", "cargo_boost")
    _require_shareholder(s, actor, command.corp)
    if command.cubes not in (1, 2):
        refuse("BAD_CUBE_COUNT", "Cargo Boost uses 1 or 2 cubes")
    _require_cubes(s, actor, command.cubes)
    tx.emit(ev.DiscMoved(player=actor, disc="alien", action="cargo_boost"))
    tx.emit(ev.TechnologySpent(player=actor, count=command.cubes, use="cargo_boost", corp=command.corp))
    tx.emit(ev.CargoChanged(corp=command.corp, amount=command.cubes, reason="cargo boost"))
    _to_next_player(tx)


@RULES.decides(cmd.ResearchWormhole)
def research_wormhole(tx: Tx, command: cmd.ResearchWormhole, actor: str) -> None:
    s = tx.state
    _require_shenanigan(s, actor, "alien", "research_wormhole")
    corp = _require_shareholder(s, actor, command.corp)
    if corp.wormhole:
        refuse("WORMHOLE_ALREADY_ACTIVE", f"{corp.id} already has Wormhole Technology")
    _require_cubes(s, actor, 1)
    tx.emit(ev.DiscMoved(player=actor, disc="alien", action="research_wormhole"))
    tx.emit(ev.TechnologySpent(player=actor, count=1, use="wormhole", corp=corp.id))
    _to_next_player(tx)


@RULES.decides(cmd.DevelopPlanets)
def develop_planets(tx: Tx, command: cmd.DevelopPlanets, actor: str) -> None:
    s = tx.state
    _require_shenanigan(s, actor, "alien", "develop_planets")
    hexes = list(command.hexes)
    if not hexes or len(set(hexes)) != len(hexes):
        refuse("BAD_PLANETS", "name one or more different neutral planets")
    for hex_key in hexes:
        spot = alpha().hexes.get(hex_key)
        if spot is None or spot.kind != "neutral_planet" or hex_key in s.developed:
            refuse("BAD_PLANETS", f"{hex_key} is not a neutral planet without a cube")
    _require_cubes(s, actor, len(hexes))
    tx.emit(ev.DiscMoved(player=actor, disc="alien", action="develop_planets"))
    tx.emit(ev.TechnologySpent(player=actor, count=len(hexes), use="develop", hexes=hexes))
    _to_next_player(tx)


@RULES.decides(cmd.Launder)
def launder(tx: Tx, command: cmd.Launder, actor: str) -> None:
    s = tx.state
    _require_shenanigan(s, actor, "alien", "launder")
    rates = tables().launder
    if command.cubes not in rates:
        refuse("BAD_CUBE_COUNT", "Launder takes 1 or 2 cubes")
    _require_cubes(s, actor, command.cubes)
    tx.emit(ev.DiscMoved(player=actor, disc="alien", action="launder"))
    tx.emit(ev.TechnologySpent(player=actor, count=command.cubes, use="launder"))
    tx.emit(ev.CashMoved(source=BANK, destination=liquid(actor), amount=rates[command.cubes], reason="launder"))
    _to_next_player(tx)


@RULES.decides(cmd.PassAlienAction)
def pass_alien(tx: Tx, command: cmd.PassAlienAction, actor: str) -> None:
    _require_shenanigan(tx.state, actor, "alien", None)
    tx.emit(ev.DiscMoved(player=actor, disc="alien", action=None))
    _to_next_player(tx)


@RULES.decides(cmd.BackroomDeal)
def backroom_deal(tx: Tx, command: cmd.BackroomDeal, actor: str) -> None:
    pending = take_pending(tx.state, actor, "backroom_deal")
    require_power(tx.state.corps[pending.corp], "backroom_deal")
    tx.emit(ev.DecisionMade(kind="backroom_deal", player=actor, choice=command.direction))
    if command.direction != "none":
        shift = tables().per_chevron * (1 if command.direction == "up" else -1)
        tx.emit(ev.AlienCapacityShifted(corp=pending.corp, amount=shift))
        tx.emit(ev.PowerDiscarded(corp=pending.corp, power="backroom_deal"))
