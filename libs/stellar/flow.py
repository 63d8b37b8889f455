"""The decide side's scratchpad and the automatic flow of the game.

`Ctx` holds a private copy of the state; `emit` records an event and applies it to that copy, so a
handler sees the consequences of its own events and the caller's state is never touched. `advance`
then plays every step nobody has a choice in, until someone owes a decision or the game is over.
"""
from __future__ import annotations

import copy

from starbase_rules.contract import RuleViolation
from stellar import events as ev
from stellar import queries as q
from stellar.facts import tables
from stellar.evolve import AMETHYST, evolve
from stellar.state import BANK, State, frozen, liquid, treasury


class Ctx:
    def __init__(self, state: State, rng=None):
        self.state = copy.deepcopy(state)
        self.rng = rng
        self.events: list = []

    def emit(self, event) -> None:
        self.events.append(event)
        self.state = evolve(self.state, event)


def refuse(code: str, message: str):
    raise RuleViolation(code, message)


# -- shares and presidency -----------------------------------------------------------------------

def president_after(s: State, corp_id: str, buyer: str) -> str:
    """Who presides once `buyer` has one more share: the presidency moves only to a player holding
    strictly more shares than the incumbent (ties keep the incumbent, G-AUC-4). A single sale can
    lift only the buyer above the incumbent, so the buyer is the only possible newcomer."""
    corp = s.corps[corp_id]
    incumbent = corp.president
    if incumbent is None:
        return buyer
    bought = corp.holders.get(buyer, 0) + 1
    return buyer if buyer != incumbent and bought > corp.holders.get(incumbent, 0) else incumbent


def sell_share(ctx: Ctx, corp_id: str, buyer: str, price: int, purpose: str) -> None:
    ctx.emit(ev.ShareSold(corp=corp_id, player=buyer, price=price, purpose=purpose,
                          president=president_after(ctx.state, corp_id, buyer)))


def open_auction(ctx: Ctx, corp_id: str, purpose: str, initiator: str) -> None:
    ctx.emit(ev.AuctionOpened(corp=corp_id, purpose=purpose, order=ctx.state.clockwise_from(initiator)))


def request(ctx: Ctx, kind: str, player: str, corp: str | None = None, hex_key: str | None = None,
            options: list[str] | None = None) -> None:
    ctx.emit(ev.DecisionRequested(kind=kind, player=player, corp=corp, hex=hex_key, options=options or []))


def gain_power(ctx: Ctx, corp_id: str, power: str, from_row: bool = True) -> None:
    """A power becomes active; 'Immediately' powers act at once (ruling G-AUC-9, G-PWR-1)."""
    ctx.emit(ev.PowerGained(corp=corp_id, power=power, from_row=from_row))
    if power == "windfall":
        ctx.emit(ev.CashMoved(source=BANK, destination=treasury(corp_id),
                              amount=tables().power("windfall", "treasury_gain"), reason="windfall"))
        ctx.emit(ev.PowerDiscarded(corp=corp_id, power="windfall"))
    elif power == "hyperdrive":
        ctx.emit(ev.CargoChanged(corp=corp_id, amount=tables().power("hyperdrive", "cargo_bonus"), reason="hyperdrive"))


def offer_draft(ctx: Ctx, corp_id: str) -> None:
    s = ctx.state
    if s.powers_row and len(s.corps[corp_id].powers) < 2:
        request(ctx, "draft_power", s.corps[corp_id].president, corp_id, options=list(s.powers_row))


# -- the automatic flow --------------------------------------------------------------------------

def advance(ctx: Ctx) -> None:
    from stellar import building, corporate, investor   # the steps call back into the flow
    while True:
        s = ctx.state
        if s.round == "over" or s.pending or s.auction is not None:
            return
        if s.build is not None:
            if building.build_is_full(s):
                building.finish_build(ctx)
                continue
            return
        if s.round == "initial_auction":
            _initial_auction_step(ctx)
        elif s.round == "corporation":
            if not corporate.corporation_step(ctx):
                return
        elif s.round == "investor":
            if not investor.investor_step(ctx):
                return
        elif s.round == "liquidation":
            finish_liquidation(ctx)
        else:
            return


def _initial_auction_step(ctx: Ctx) -> None:
    s = ctx.state
    if s.auction_queue:
        open_auction(ctx, s.auction_queue[0], "initial", s.next_initiator)
        return
    ctx.emit(ev.DirectorChanged(player=s.corps[s.turn_order[4]].president))
    if s.powers_pile:
        ctx.emit(ev.PowersRevealed(powers=list(s.powers_pile)))
    ctx.emit(ev.RoundBegan(era=1, round="corporation"))


# -- shipyard ------------------------------------------------------------------------------------

def open_section(ctx: Ctx, level: int) -> None:
    """The first ship leaving a section: flip its alien tile, then its scrapping event (in that order)."""
    s = ctx.state
    ctx.emit(ev.SectionOpened(level=level))
    if level in s.shipyard_tiles:
        chevrons = s.shipyard_tiles[level]
        ctx.emit(ev.ShipyardTileRevealed(level=level, chevrons=chevrons))
        if chevrons:
            ctx.emit(ev.AlienCapacityRaised(amount=chevrons * tables().per_chevron, reason="shipyard tile"))
    target = tables().section(level).scraps_level
    if target is not None:
        # Spare Parts: the ship is set aside at once (its CARGO stays); the president then decides
        # whether to keep it for one more dividend or let it go.
        saved = [c.id for c in s.corps.values()
                 if "spare_parts" in c.powers and c.spare_ship is None and target in c.delivered]
        ctx.emit(ev.ShipsScrapped(level=target, saved=saved))
        for corp_id in saved:
            if not s.options.spare_parts_automatic and s.corps[corp_id].president:
                request(ctx, "spare_parts", s.corps[corp_id].president, corp_id, options=["keep", "scrap"])


# -- administration, eras, liquidation ----------------------------------------------------------

def administration(ctx: Ctx) -> None:
    s = ctx.state
    level = q.lowest_section(s)
    ctx.emit(ev.ShipyardShipScrapped(level=level))
    if level not in s.opened_sections:
        open_section(ctx, level)
    deliver_all(ctx)
    formed = [c for c in s.turn_order if s.corps[c].formed]
    order = sorted(formed, key=lambda c: -q.mining_capacity(s, c))     # sorted() is stable: ties keep order
    ctx.emit(ev.TurnOrderSet(order=order))
    ctx.emit(ev.DirectorChanged(player=s.next_player(s.director)))
    next_era = s.era + 1
    ctx.emit(ev.RoundBegan(era=next_era, round="corporation"))
    if next_era == 3 and not s.corps[AMETHYST].formed:
        open_auction(ctx, AMETHYST, "amethyst", s.director)


def deliver_all(ctx: Ctx) -> None:
    for corp in ctx.state.corps.values():
        if corp.ordered:
            ctx.emit(ev.ShipsDelivered(corp=corp.id))


def begin_liquidation(ctx: Ctx) -> None:
    s = ctx.state
    ctx.emit(ev.RoundBegan(era=s.era, round="liquidation"))
    deliver_all(ctx)
    for corp_id in s.turn_order:
        corp = s.corps[corp_id]
        if "backroom_deal" in corp.powers and corp.president:
            request(ctx, "backroom_deal", corp.president, corp_id, options=["up", "down", "none"])


def finish_liquidation(ctx: Ctx) -> None:
    s = ctx.state
    for corp_id in s.turn_order:
        corp = s.corps[corp_id]
        gimmick = tables().power("accounting_gimmick", "takeover_check_bonus") if "accounting_gimmick" in corp.powers else 0
        apparent = q.mining_capacity(s, corp_id) + gimmick
        if corp.signed and apparent <= s.alien_mc:
            ctx.emit(ev.HostileTakeover(corp=corp_id))
    values = {}
    for corp_id, corp in s.corps.items():
        if not corp.formed:
            continue
        values[corp_id] = 1 if corp.taken_over else q.share_value(s, corp_id)
        for player, count in sorted(corp.holders.items()):
            if count and values[corp_id]:
                ctx.emit(ev.CashMoved(source=BANK, destination=liquid(player), amount=count * values[corp_id],
                                      reason=f"liquidation {corp_id}"))
    scores = {p: s.ledger.balance(liquid(p)) + s.ledger.balance(frozen(p)) for p in s.players}
    ctx.emit(ev.LiquidationCompleted(share_values=values, scores=scores, reason="liquidation after era 5"))
