"""The automatic flow of the game, and the decide-side steps the rounds share.

Decisions run on the base's scratchpad (`starbase_rules.scratch.Tx`): `tx.emit` records an event and
applies it to a private copy, so a handler sees the consequences of its own events. `advance` then
plays every step nobody has a choice in, until someone owes a decision or the game is over.
"""
from __future__ import annotations

from starbase_rules.scratch import Tx, refuse
from stellar import events as ev
from stellar import queries as q
from stellar.facts import tables
from stellar.evolve import AMETHYST
from stellar.state import BANK, State, frozen, liquid, treasury

__all__ = ["Tx", "refuse", "advance"]


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


def sell_share(tx: Tx, corp_id: str, buyer: str, price: int, purpose: str) -> None:
    tx.emit(ev.ShareSold(corp=corp_id, player=buyer, price=price, purpose=purpose,
                          president=president_after(tx.state, corp_id, buyer)))


def open_auction(tx: Tx, corp_id: str, purpose: str, initiator: str) -> None:
    tx.emit(ev.AuctionOpened(corp=corp_id, purpose=purpose, order=tx.state.clockwise_from(initiator)))


def request(tx: Tx, kind: str, player: str, corp: str | None = None, hex_key: str | None = None,
            options: list[str] | None = None) -> None:
    tx.emit(ev.DecisionRequested(kind=kind, player=player, corp=corp, hex=hex_key, options=options or []))


def gain_power(tx: Tx, corp_id: str, power: str, from_row: bool = True) -> None:
    """A power becomes active; 'Immediately' powers act at once (ruling G-AUC-9, G-PWR-1)."""
    tx.emit(ev.PowerGained(corp=corp_id, power=power, from_row=from_row))
    if power == "windfall":
        tx.emit(ev.CashMoved(source=BANK, destination=treasury(corp_id),
                              amount=tables().power("windfall", "treasury_gain"), reason="windfall"))
        tx.emit(ev.PowerDiscarded(corp=corp_id, power="windfall"))
    elif power == "hyperdrive":
        tx.emit(ev.CargoChanged(corp=corp_id, amount=tables().power("hyperdrive", "cargo_bonus"), reason="hyperdrive"))


def offer_draft(tx: Tx, corp_id: str) -> None:
    s = tx.state
    if s.powers_row and len(s.corps[corp_id].powers) < 2:
        request(tx, "draft_power", s.corps[corp_id].president, corp_id, options=list(s.powers_row))


# -- the automatic flow --------------------------------------------------------------------------

def advance(tx: Tx) -> None:
    from stellar import building, corporate, investor   # the steps call back into the flow
    while True:
        s = tx.state
        if s.round == "over" or s.pending or s.auction is not None:
            return
        if s.build is not None:
            if building.build_is_full(s):
                building.finish_build(tx)
                continue
            return
        if s.round == "initial_auction":
            _initial_auction_step(tx)
        elif s.round == "corporation":
            if not corporate.corporation_step(tx):
                return
        elif s.round == "investor":
            if not investor.investor_step(tx):
                return
        elif s.round == "liquidation":
            finish_liquidation(tx)
        else:
            return


def _initial_auction_step(tx: Tx) -> None:
    s = tx.state
    if s.auction_queue:
        open_auction(tx, s.auction_queue[0], "initial", s.next_initiator)
        return
    tx.emit(ev.DirectorChanged(player=s.corps[s.turn_order[4]].president))
    if s.powers_pile:
        tx.emit(ev.PowersRevealed(powers=list(s.powers_pile)))
    tx.emit(ev.RoundBegan(era=1, round="corporation"))


# -- shipyard ------------------------------------------------------------------------------------

def open_section(tx: Tx, level: int) -> None:
    """The first ship leaving a section: flip its alien tile, then its scrapping event (in that order)."""
    s = tx.state
    tx.emit(ev.SectionOpened(level=level))
    if level in s.shipyard_tiles:
        chevrons = s.shipyard_tiles[level]
        tx.emit(ev.ShipyardTileRevealed(level=level, chevrons=chevrons))
        if chevrons:
            tx.emit(ev.AlienCapacityRaised(amount=chevrons * tables().per_chevron, reason="shipyard tile"))
    target = tables().section(level).scraps_level
    if target is not None:
        # Spare Parts: the ship is set aside at once (its CARGO stays); the president then decides
        # whether to keep it for one more dividend or let it go.
        saved = [c.id for c in s.corps.values()
                 if "spare_parts" in c.powers and c.spare_ship is None and target in c.delivered]
        tx.emit(ev.ShipsScrapped(level=target, saved=saved))
        for corp_id in saved:
            if not s.options.spare_parts_automatic and s.corps[corp_id].president:
                request(tx, "spare_parts", s.corps[corp_id].president, corp_id, options=["keep", "scrap"])


# -- administration, eras, liquidation ----------------------------------------------------------

def administration(tx: Tx) -> None:
    s = tx.state
    level = q.lowest_section(s)
    tx.emit(ev.ShipyardShipScrapped(level=level))
    if level not in s.opened_sections:
        open_section(tx, level)
    deliver_all(tx)
    formed = [c for c in s.turn_order if s.corps[c].formed]
    order = sorted(formed, key=lambda c: -q.mining_capacity(s, c))     # sorted() is stable: ties keep order
    tx.emit(ev.TurnOrderSet(order=order))
    tx.emit(ev.DirectorChanged(player=s.next_player(s.director)))
    next_era = s.era + 1
    tx.emit(ev.RoundBegan(era=next_era, round="corporation"))
    if next_era == 3 and not s.corps[AMETHYST].formed:
        open_auction(tx, AMETHYST, "amethyst", s.director)


def deliver_all(tx: Tx) -> None:
    for corp in tx.state.corps.values():
        if corp.ordered:
            tx.emit(ev.ShipsDelivered(corp=corp.id))


def begin_liquidation(tx: Tx) -> None:
    s = tx.state
    tx.emit(ev.RoundBegan(era=s.era, round="liquidation"))
    deliver_all(tx)
    for corp_id in s.turn_order:
        corp = s.corps[corp_id]
        if "backroom_deal" in corp.powers and corp.president:
            request(tx, "backroom_deal", corp.president, corp_id, options=["up", "down", "none"])


def finish_liquidation(tx: Tx) -> None:
    s = tx.state
    for corp_id in s.turn_order:
        corp = s.corps[corp_id]
        if not corp.signed:                  # only a signed corporation faces the takeover check
            continue
        gimmick = "accounting_gimmick" in corp.powers
        apparent = q.mining_capacity(s, corp_id) + (tables().power("accounting_gimmick", "takeover_check_bonus")
                                                     if gimmick else 0)
        if apparent <= s.alien_mc:
            tx.emit(ev.HostileTakeover(corp=corp_id))
        if gimmick:                          # One-Time: used by this check, then discarded (glossary)
            tx.emit(ev.PowerDiscarded(corp=corp_id, power="accounting_gimmick"))
    values = {}
    for corp_id, corp in s.corps.items():
        if not corp.formed:
            continue
        values[corp_id] = 1 if corp.taken_over else q.share_value(s, corp_id)
        for player, count in sorted(corp.holders.items()):
            if count and values[corp_id]:
                tx.emit(ev.CashMoved(source=BANK, destination=liquid(player), amount=count * values[corp_id],
                                      reason=f"liquidation {corp_id}"))
    scores = {p: s.ledger.balance(liquid(p)) + s.ledger.balance(frozen(p)) for p in s.players}
    tx.emit(ev.LiquidationCompleted(share_values=values, scores=scores, reason="liquidation after era 5"))
