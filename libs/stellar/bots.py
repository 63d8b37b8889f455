"""What a player may do now (for UIs and bots), and the bot that picks among it (tastes in `tactics`)."""
from __future__ import annotations

import random
from dataclasses import replace

from stellar import commands as cmd
from stellar import queries as q
from stellar import tactics
from stellar.board import alpha
from stellar.building import placement_error
from stellar.corporate import can_order_ship, may_pass, must_force
from stellar.investor import battle_candidates, seats
from stellar.powers import dismantle_refusal
from stellar.state import State, liquid, treasury


def candidates(s: State, player: str, rnd: random.Random | None = None) -> list[cmd.Command]:
    """Commands `player` may send now (the free-action powers included). Bids list the lowest and the
    highest legal amount; a bot picks amounts in between."""
    if s.round == "over":
        return []
    mine = [p for p in s.pending if p.player == player]
    if s.pending:
        return _decisions(s, mine[0]) if mine else []
    if s.auction is not None:
        return _auction(s, player)
    result = _free_powers(s, player)
    if s.build is not None:
        return (_build(s, player) if s.build.builder == player else []) + result
    if s.round == "corporation" and s.corp_turn is not None:
        corp = s.corps[s.corp_turn.corp]
        if corp.president == player:
            result += _corp_step(s, corp)
    elif s.round == "investor" and s.inv is not None:
        result += _investor(s, player)
    return result


def _decisions(s: State, pending) -> list[cmd.Command]:
    kind = pending.kind
    if kind == "draft_power":
        return [cmd.DraftPower(power=p) for p in pending.options if p in s.powers_row]
    if kind == "sign_offer":
        return [cmd.SignAgreement(), cmd.DeclineAgreement()]
    if kind == "agents_choice":
        return [cmd.ChooseAgentsBonus(choice="amethyst"), cmd.ChooseAgentsBonus(choice="aliens")]
    if kind == "tax_choice":
        return [cmd.ChooseTaxAction(choice=c) for c in ("none", "tax", "steal")]
    if kind == "choose_home":
        return [cmd.ChooseHome(hex=h) for h in pending.options]
    if kind == "fine_print":
        return [cmd.UseFinePrint(use=False), cmd.UseFinePrint(use=True)]
    if kind == "spare_parts":
        return [cmd.UseSpareParts(keep=True), cmd.UseSpareParts(keep=False)]
    if kind == "battle_choice":
        return [cmd.ChooseBattleCorp(corp=c) for c in pending.options]
    return [cmd.BackroomDeal(direction=d) for d in ("none", "up", "down")]


def _auction(s: State, player: str) -> list[cmd.Command]:
    a = s.auction
    if a.order[a.turn] != player:
        return []
    low = 0 if a.high_bid is None else a.high_bid + 1
    cash = s.ledger.balance(liquid(player))
    result: list[cmd.Command] = []
    if low <= cash:
        result.append(cmd.Bid(amount=low))
        if cash > low:
            result.append(cmd.Bid(amount=cash))
    if may_pass(s):
        result.append(cmd.PassBid())
    return result


def _build_targets(s: State) -> list[str]:
    build = s.build
    network = q.on_board(s, build.corp)
    near = {n for h in network for n in alpha().neighbours[h]}
    return sorted(h for h in near if placement_error(s, h) is None)


def _build(s: State, player: str) -> list[cmd.Command]:
    return [cmd.PlaceOutpost(hex=h) for h in _build_targets(s)] + [cmd.FinishBuilding()]


def _free_powers(s: State, player: str) -> list[cmd.Command]:
    result: list[cmd.Command] = []
    for corp in s.corps.values():
        if corp.president != player or not corp.formed:
            continue
        if "leaked_research" in corp.powers and not corp.wormhole and s.investors[player].cubes:
            result.append(cmd.UseLeakedResearch(corp=corp.id))
        if "alien_engineering" in corp.powers and s.round == "investor" and (corp.boost_cubes or corp.wormhole_cube):
            result.append(cmd.ReclaimCubes(corp=corp.id))
        turn = s.corp_turn
        if s.round == "corporation" and turn is not None and turn.corp == corp.id:
            if "alien_alchemist" in corp.powers and not turn.alchemist_used and corp.supply >= 2:
                result.append(cmd.UseAlienAlchemist(corp=corp.id))
            result += [cmd.DismantleOutpost(corp=corp.id, hex=h) for h in q.on_board(s, corp.id)
                       if dismantle_refusal(s, corp.id, h) is None]
    return result


def _corp_step(s: State, corp) -> list[cmd.Command]:
    step = s.corp_turn.step
    if step == "issue":
        return [cmd.IssueShare(), cmd.DeclineIssue()]
    if step == "build":
        result: list[cmd.Command] = [cmd.BeginExpansion()] if corp.supply > 0 else []
        result.append(cmd.SkipBuilding())
        if corp.wormhole:
            result += [cmd.CreateWormhole(hex=h) for h in _wormhole_targets(s, corp.id)]
        return result
    if step == "dividend":
        result = [cmd.PayDividend()]
        others = [c for c in s.turn_order if c != corp.id and s.corps[c].formed]
        if "deep_space_pirates" in corp.powers:
            result += [cmd.PayDividend(copy_mc_from=c) for c in others]
        if "deep_space_smuggling" in corp.powers:
            result += [cmd.PayDividend(copy_cargo_from=c) for c in others]
        return result
    result = []
    if can_order_ship(s, corp.id):
        result.append(cmd.OrderShip())
    if not (must_force(s, corp.id) and can_order_ship(s, corp.id)):
        result.append(cmd.FinishOrdering())
    return result


def _wormhole_targets(s: State, corp_id: str) -> list[str]:
    cash = s.ledger.balance(treasury(corp_id))
    result = []
    for h in alpha().hexes:
        if q.placement_refusal(s, corp_id, h) is not None:
            continue
        base = q.wormhole_cost(s, corp_id, h)
        if base is not None and base + q.penalty_for(s, corp_id, h, "wormhole") <= cash:
            result.append(h)
    return result


def _investor(s: State, player: str) -> list[cmd.Command]:
    inv = s.inv
    if inv.step == "voting":
        if seats(s)[inv.seat] != player:
            return []
        votes = s.investors[player].votes
        return [cmd.PassVoting()] + [cmd.PlaceVotes(corp=c, count=n) for c in battle_candidates(s)
                                     for n in range(1, votes + 1)]
    if inv.step != "shenanigans" or inv.seat >= len(s.players) or seats(s)[inv.seat] != player:
        return []
    me = s.investors[player]
    held = [c for c in s.turn_order if s.corps[c].holders.get(player, 0) > 0]
    if inv.part == "investor":
        result: list[cmd.Command] = [cmd.PassInvestorAction()]
        buildable = [c for c in held if s.corps[c].supply > 0]
        if me.investor_disc != "private_contractor":
            result += [cmd.HireContractor(corp=c) for c in buildable]
        if me.investor_disc != "jerry_rig":
            result += [cmd.JerryRig(corp=c) for c in buildable]
        if me.investor_disc != "insurance_fraud":
            result += [cmd.InsuranceFraud(corp=c, level=lv) for c in held if s.corps[c].president == player
                       for lv in sorted(set(s.corps[c].delivered))]
        if me.investor_disc != "black_market" and me.votes and s.cube_supply:
            result.append(cmd.BlackMarket())
        return result
    result = [cmd.PassAlienAction()]
    if me.alien_disc != "cargo_boost":
        result += [cmd.CargoBoost(corp=c, cubes=n) for c in held for n in (1, 2) if me.cubes >= n]
    if me.alien_disc != "research_wormhole" and me.cubes:
        result += [cmd.ResearchWormhole(corp=c) for c in held if not s.corps[c].wormhole]
    if me.alien_disc != "develop_planets" and me.cubes:
        free = [h for h in alpha().of_kind("neutral_planet") if h not in s.developed]
        occupied = [h for h in free if h in s.outposts]
        result += [cmd.DevelopPlanets(hexes=[h]) for h in (occupied or free)[:6]]
    if me.alien_disc != "launder":
        result += [cmd.Launder(cubes=n) for n in (1, 2) if me.cubes >= n]
    return result


# -- the bot ------------------------------------------------------------------------------------

# A level sharpens or flattens the tactics' weights (weight ** sharpness) and bids up to a share of what
# the lot seems worth drawn from its range. Bidding low is what pays (strong vs two normal bots: 20 of
# 24 games; sharper weights or dearer bids gave 6 to 8 of 24, chance being 8).
LEVELS = {"easy": (0.5, (0.3, 1.0)), "normal": (1.0, (0.4, 1.1)), "strong": (1.0, (0.1, 0.6))}


def bot_command(s: State, player: str, rnd: random.Random, level: str = "normal") -> cmd.Command | None:
    """Weighted-random over the legal commands, with the weights of `stellar.tactics`."""
    sharpness, bid_range = LEVELS[level]
    options = candidates(s, player)
    if not options:
        return None
    if s.auction is not None and not s.pending:
        return _bot_bid(s, player, rnd, options, bid_range)
    weights = [tactics.weight(s, c) for c in options]
    if sharpness != 1.0:
        weights = [w ** sharpness for w in weights]
    return rnd.choices(options, weights=weights)[0]


def seat_state(s: State, player: str) -> State:
    """What a seat's bot may know (`view`): the face-down agreement tiles (on alien hexes and boxed) are
    dealt anew in a fixed order from their public total, as are the shipyard's face-down tiles, and the
    power pile is sorted; so two positions that differ only in what nobody sees give the same state."""
    agreement = iter(sorted([*s.alien_tiles.values(), *s.boxed_tiles]))
    alien = {hex_key: next(agreement) for hex_key in sorted(s.alien_tiles)}
    shipyard_chevrons = iter(sorted(s.shipyard_tiles.values()))
    shipyard = {level: next(shipyard_chevrons) for level in sorted(s.shipyard_tiles)}
    return replace(s, alien_tiles=alien, boxed_tiles=list(agreement), shipyard_tiles=shipyard,
                   powers_pile=sorted(s.powers_pile))


def _bot_bid(s: State, player: str, rnd: random.Random, options: list[cmd.Command],
             bid_range: tuple[float, float]) -> cmd.Command:
    """Bid up to a randomised share of what the lot seems worth (see `tactics.share_worth`)."""
    a = s.auction
    low = 0 if a.high_bid is None else a.high_bid + 1
    cash = s.ledger.balance(liquid(player))
    limit = min(cash, int(tactics.share_worth(s, a.corp, player) * rnd.uniform(*bid_range)))
    if a.high_bid is None and not any(o.type == "PassBid" for o in options):
        return cmd.Bid(amount=min(cash, rnd.randint(0, max(0, limit // 2))))
    if low <= limit:
        return cmd.Bid(amount=low if rnd.random() < 0.7 else min(limit, low + rnd.randint(1, 3)))
    return cmd.PassBid() if any(o.type == "PassBid" for o in options) else cmd.Bid(amount=low)
