"""The Investor Round: releasing dividends, Fine Print, the Boardroom Battle and Investor Shenanigans."""
from __future__ import annotations

from stellar import commands as cmd
from stellar import events as ev
from stellar.board import alpha
from stellar.corporate import handler, require_power, take_pending
from stellar.facts import tables
from stellar.flow import Ctx, administration, open_auction, refuse, request
from stellar.state import BANK, State, liquid, treasury

INVESTOR_ACTIONS = ("private_contractor", "jerry_rig", "insurance_fraud", "black_market")
ALIEN_ACTIONS = ("cargo_boost", "research_wormhole", "develop_planets", "launder")


def seats(s: State) -> list[str]:
    return s.clockwise_from(s.director)


def battle_candidates(s: State) -> list[str]:
    return [c for c in s.turn_order if s.corps[c].formed and s.corps[c].president
            and s.corps[c].charter > 0 and c not in s.inv.shielded]


def investor_step(ctx: Ctx) -> bool:
    s = ctx.state
    inv = s.inv
    if inv.step == "release":
        ctx.emit(ev.DividendsReleased())
        for corp_id in s.turn_order:
            corp = s.corps[corp_id]
            if "fine_print" in corp.powers and corp.president and corp.charter > 0:
                request(ctx, "fine_print", corp.president, corp_id, options=["use", "keep"])
        ctx.emit(ev.InvestorStepBegan(step="voting", seat=0))
        return True
    if inv.step == "voting":
        order = seats(s)
        if not battle_candidates(s) or inv.seat >= len(order):
            ctx.emit(ev.InvestorStepBegan(step="battle"))
            return True
        if s.investors[order[inv.seat]].votes == 0:
            ctx.emit(ev.InvestorStepBegan(step="voting", seat=inv.seat + 1))
            return True
        return False
    if inv.step == "battle":
        candidates = battle_candidates(s)
        if not candidates:
            ctx.emit(ev.VotesSettled(winner=None))
            ctx.emit(ev.InvestorStepBegan(step="shenanigans", seat=0, part="investor"))
        elif inv.battle_corp is None:
            totals = {c: sum(inv.votes.get(c, {}).values()) for c in candidates}
            top = max(totals.values())
            tied = [c for c in candidates if totals[c] == top]
            if len(tied) == 1:
                ctx.emit(ev.BattleCorpChosen(corp=tied[0]))
            else:                       # the Director breaks ties, 0-0 included
                request(ctx, "battle_choice", s.director, options=tied)
        else:
            open_auction(ctx, inv.battle_corp, "battle", s.director)
        return True
    if inv.seat >= len(s.players):
        administration(ctx)
        return True
    return False


# -- Fine Print, votes, the battle choice -------------------------------------------------------

@handler(cmd.UseFinePrint)
def use_fine_print(ctx: Ctx, command: cmd.UseFinePrint, actor: str) -> None:
    pending = take_pending(ctx.state, actor, "fine_print")
    ctx.emit(ev.DecisionMade(kind="fine_print", player=actor, choice="use" if command.use else "keep"))
    if command.use:
        ctx.emit(ev.Shielded(corp=pending.corp))
        ctx.emit(ev.PowerDiscarded(corp=pending.corp, power="fine_print"))


def _require_voter(s: State, actor: str) -> None:
    if s.round != "investor" or s.inv.step != "voting" or s.pending:
        refuse("WRONG_STEP", "this is not the Boardroom Battle vote")
    voter = seats(s)[s.inv.seat]
    if actor != voter:
        refuse("NOT_YOUR_TURN", f"{voter} votes now")


@handler(cmd.PlaceVotes)
def place_votes(ctx: Ctx, command: cmd.PlaceVotes, actor: str) -> None:
    s = ctx.state
    _require_voter(s, actor)
    if command.corp not in battle_candidates(s):
        refuse("NOT_A_BATTLE_TARGET", f"{command.corp} cannot be forced to issue a share now")
    if not 1 <= command.count <= s.investors[actor].votes:
        refuse("NOT_ENOUGH_VOTES", f"{actor} has {s.investors[actor].votes} votes left")
    ctx.emit(ev.VotesPlaced(player=actor, corp=command.corp, count=command.count))
    ctx.emit(ev.InvestorStepBegan(step="voting", seat=s.inv.seat + 1))


@handler(cmd.PassVoting)
def pass_voting(ctx: Ctx, command: cmd.PassVoting, actor: str) -> None:
    _require_voter(ctx.state, actor)
    ctx.emit(ev.InvestorStepBegan(step="voting", seat=ctx.state.inv.seat + 1))


@handler(cmd.ChooseBattleCorp)
def choose_battle_corp(ctx: Ctx, command: cmd.ChooseBattleCorp, actor: str) -> None:
    pending = take_pending(ctx.state, actor, "battle_choice")
    if command.corp not in pending.options:
        refuse("NOT_A_BATTLE_TARGET", f"the tied corporations are {pending.options}")
    ctx.emit(ev.DecisionMade(kind="battle_choice", player=actor, choice=command.corp))
    ctx.emit(ev.BattleCorpChosen(corp=command.corp))


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


def _to_alien_part(ctx: Ctx) -> None:
    ctx.emit(ev.InvestorStepBegan(step="shenanigans", seat=ctx.state.inv.seat, part="alien"))


def _to_next_player(ctx: Ctx) -> None:
    ctx.emit(ev.InvestorStepBegan(step="shenanigans", seat=ctx.state.inv.seat + 1, part="investor"))


@handler(cmd.HireContractor)
def hire_contractor(ctx: Ctx, command: cmd.HireContractor, actor: str) -> None:
    s = ctx.state
    _require_shenanigan(s, actor, "investor", "private_contractor")
    _require_shareholder(s, actor, command.corp)
    ctx.emit(ev.DiscMoved(player=actor, disc="investor", action="private_contractor"))
    ctx.emit(ev.BuildBegan(corp=command.corp, mode="contractor", builder=actor, payer=liquid(actor)))


@handler(cmd.JerryRig)
def jerry_rig(ctx: Ctx, command: cmd.JerryRig, actor: str) -> None:
    s = ctx.state
    _require_shenanigan(s, actor, "investor", "jerry_rig")
    _require_shareholder(s, actor, command.corp)
    ctx.emit(ev.DiscMoved(player=actor, disc="investor", action="jerry_rig"))
    ctx.emit(ev.BuildBegan(corp=command.corp, mode="jerry_rig", builder=actor, payer=liquid(actor)))


@handler(cmd.InsuranceFraud)
def insurance_fraud(ctx: Ctx, command: cmd.InsuranceFraud, actor: str) -> None:
    s = ctx.state
    _require_shenanigan(s, actor, "investor", "insurance_fraud")
    corp = _require_shareholder(s, actor, command.corp)
    if corp.president != actor:
        refuse("NOT_PRESIDENT", f"only the president of {corp.id} may claim its insurance")
    if command.level not in corp.delivered:
        refuse("NO_SUCH_SHIP", f"{corp.id} has no delivered level-{command.level} ship")
    ctx.emit(ev.DiscMoved(player=actor, disc="investor", action="insurance_fraud"))
    ctx.emit(ev.ShipInsured(corp=corp.id, level=command.level))
    ctx.emit(ev.CashMoved(source=BANK, destination=treasury(corp.id), amount=command.level, reason="insurance"))
    _to_alien_part(ctx)


@handler(cmd.BlackMarket)
def black_market(ctx: Ctx, command: cmd.BlackMarket, actor: str) -> None:
    s = ctx.state
    _require_shenanigan(s, actor, "investor", "black_market")
    if s.investors[actor].votes < 1:
        refuse("NOT_ENOUGH_VOTES", f"{actor} has no boardroom vote to sell")
    if s.cube_supply < 1:
        refuse("NO_TECHNOLOGY", "the Alien Technology supply is empty")
    ctx.emit(ev.DiscMoved(player=actor, disc="investor", action="black_market"))
    ctx.emit(ev.VoteSold(player=actor))
    ctx.emit(ev.TechnologyGained(player=actor, count=1, reason="black market"))
    _to_alien_part(ctx)


@handler(cmd.PassInvestorAction)
def pass_investor(ctx: Ctx, command: cmd.PassInvestorAction, actor: str) -> None:
    _require_shenanigan(ctx.state, actor, "investor", None)
    ctx.emit(ev.DiscMoved(player=actor, disc="investor", action=None))
    _to_alien_part(ctx)


def _require_cubes(s: State, actor: str, count: int) -> None:
    if s.investors[actor].cubes < count:
        refuse("NO_TECHNOLOGY", f"{actor} has {s.investors[actor].cubes} Alien Technology cube(s)")


@handler(cmd.CargoBoost)
def cargo_boost(ctx: Ctx, command: cmd.CargoBoost, actor: str) -> None:
    s = ctx.state
    _require_shenanigan(s, actor, "alien", "cargo_boost")
    _require_shareholder(s, actor, command.corp)
    if command.cubes not in (1, 2):
        refuse("BAD_CUBE_COUNT", "Cargo Boost uses 1 or 2 cubes")
    _require_cubes(s, actor, command.cubes)
    ctx.emit(ev.DiscMoved(player=actor, disc="alien", action="cargo_boost"))
    ctx.emit(ev.TechnologySpent(player=actor, count=command.cubes, use="cargo_boost", corp=command.corp))
    ctx.emit(ev.CargoChanged(corp=command.corp, amount=command.cubes, reason="cargo boost"))
    _to_next_player(ctx)


@handler(cmd.ResearchWormhole)
def research_wormhole(ctx: Ctx, command: cmd.ResearchWormhole, actor: str) -> None:
    s = ctx.state
    _require_shenanigan(s, actor, "alien", "research_wormhole")
    corp = _require_shareholder(s, actor, command.corp)
    if corp.wormhole:
        refuse("WORMHOLE_ALREADY_ACTIVE", f"{corp.id} already has Wormhole Technology")
    _require_cubes(s, actor, 1)
    ctx.emit(ev.DiscMoved(player=actor, disc="alien", action="research_wormhole"))
    ctx.emit(ev.TechnologySpent(player=actor, count=1, use="wormhole", corp=corp.id))
    _to_next_player(ctx)


@handler(cmd.DevelopPlanets)
def develop_planets(ctx: Ctx, command: cmd.DevelopPlanets, actor: str) -> None:
    s = ctx.state
    _require_shenanigan(s, actor, "alien", "develop_planets")
    hexes = list(command.hexes)
    if not hexes or len(set(hexes)) != len(hexes):
        refuse("BAD_PLANETS", "name one or more different neutral planets")
    for hex_key in hexes:
        spot = alpha().hexes.get(hex_key)
        if spot is None or spot.kind != "neutral_planet" or hex_key in s.developed:
            refuse("BAD_PLANETS", f"{hex_key} is not a neutral planet without a cube")
    _require_cubes(s, actor, len(hexes))
    ctx.emit(ev.DiscMoved(player=actor, disc="alien", action="develop_planets"))
    ctx.emit(ev.TechnologySpent(player=actor, count=len(hexes), use="develop", hexes=hexes))
    _to_next_player(ctx)


@handler(cmd.Launder)
def launder(ctx: Ctx, command: cmd.Launder, actor: str) -> None:
    s = ctx.state
    _require_shenanigan(s, actor, "alien", "launder")
    rates = tables().launder
    if command.cubes not in rates:
        refuse("BAD_CUBE_COUNT", "Launder takes 1 or 2 cubes")
    _require_cubes(s, actor, command.cubes)
    ctx.emit(ev.DiscMoved(player=actor, disc="alien", action="launder"))
    ctx.emit(ev.TechnologySpent(player=actor, count=command.cubes, use="launder"))
    ctx.emit(ev.CashMoved(source=BANK, destination=liquid(actor), amount=rates[command.cubes], reason="launder"))
    _to_next_player(ctx)


@handler(cmd.PassAlienAction)
def pass_alien(ctx: Ctx, command: cmd.PassAlienAction, actor: str) -> None:
    _require_shenanigan(ctx.state, actor, "alien", None)
    ctx.emit(ev.DiscMoved(player=actor, disc="alien", action=None))
    _to_next_player(ctx)


@handler(cmd.BackroomDeal)
def backroom_deal(ctx: Ctx, command: cmd.BackroomDeal, actor: str) -> None:
    pending = take_pending(ctx.state, actor, "backroom_deal")
    require_power(ctx.state.corps[pending.corp], "backroom_deal")
    ctx.emit(ev.DecisionMade(kind="backroom_deal", player=actor, choice=command.direction))
    if command.direction != "none":
        shift = tables().per_chevron * (1 if command.direction == "up" else -1)
        ctx.emit(ev.AlienCapacityShifted(corp=pending.corp, amount=shift))
        ctx.emit(ev.PowerDiscarded(corp=pending.corp, power="backroom_deal"))
