"""The evolve handlers: each applies one stored event. Never refuses; never draws chance.

Each handler is the whole meaning of its event; the flow (whose turn, which step) moves only through
the flow events (RoundBegan, CorporationStepBegan, InvestorStepBegan, …) that `decide` emitted.
"""
from __future__ import annotations

from stellar import events as ev
from stellar.facts import tables
from stellar.rules import RULES
from stellar.state import (BANK, TAX_BOX, Auction, Build, Corp, CorpTurn, Investor, InvestorStep, Options, Pending,
                           State, frozen, liquid, treasury)

AMETHYST = "amethyst_agency"

@RULES.evolves(ev.GameSetUp)
def _setup(s: State, e: ev.GameSetUp) -> None:
    t = tables()
    s.players = list(e.players)
    s.options = Options(**e.options)
    s.ledger.open(BANK, t.bank_float)
    s.ledger.open(TAX_BOX)
    for p in s.players:
        s.ledger.open(liquid(p))
        s.ledger.open(frozen(p))
        s.ledger.move(BANK, liquid(p), e.liquid_funds)
        s.investors[p] = Investor(cubes=s.options.starting_cubes, votes=t.starting_votes)
    s.cube_supply = t.cube_supply - s.options.starting_cubes * len(s.players)
    for spec in sorted(t.corps.values(), key=lambda c: c.initial_turn_order):
        power = s.options.amethyst_power if spec.id == AMETHYST else spec.starting_power
        corp = Corp(id=spec.id, shares_total=spec.shares, charter=spec.shares, supply=spec.outposts,
                    powers=[power])
        s.ledger.open(treasury(spec.id))
        s.corps[spec.id] = corp
        if spec.id == AMETHYST:
            corp.wormhole = corp.wormhole_cube = True        # setup step 1: a cube on its Wormhole space
            s.cube_supply -= 1
        else:
            corp.formed = True
            s.turn_order.append(spec.id)
            s.outposts.setdefault(spec.home, []).append(spec.id)
            corp.supply -= 1
    s.alien_mc = e.alien_mc
    s.alien_tiles = dict(e.alien_tiles)
    s.boxed_tiles = list(e.boxed_tiles)
    s.shipyard = {sec.level: (sec.ships if sec.ships is not None else -1) for sec in t.shipyard}
    s.ships_out = {sec.level: 0 for sec in t.shipyard}
    s.shipyard_tiles = {int(k): v for k, v in e.shipyard_tiles.items()}
    s.powers_row = list(e.powers_row)
    s.powers_pile = list(e.powers_pile)
    s.round = "initial_auction"
    s.era = 1
    s.auction_queue = list(e.auction_order)
    if s.options.random_auction_order:   # the first round then runs in reverse auction order
        s.turn_order = list(reversed(e.auction_order))
    s.next_initiator = e.first_bidder


@RULES.evolves(ev.AuctionOpened)
def _auction_opened(s: State, e: ev.AuctionOpened) -> None:
    s.auction = Auction(corp=e.corp, purpose=e.purpose, order=list(e.order))


def _next_bidder(a: Auction) -> None:
    for step in range(1, len(a.order) + 1):
        candidate = (a.turn + step) % len(a.order)
        if a.order[candidate] not in a.passed:
            a.turn = candidate
            return


@RULES.evolves(ev.BidPlaced)
def _bid(s: State, e: ev.BidPlaced) -> None:
    s.auction.high_bid, s.auction.high_bidder = e.amount, e.player
    _next_bidder(s.auction)


@RULES.evolves(ev.BidPassed)
def _pass(s: State, e: ev.BidPassed) -> None:
    s.auction.passed.append(e.player)
    _next_bidder(s.auction)


@RULES.evolves(ev.AuctionLapsed)
def _lapsed(s: State, e: ev.AuctionLapsed) -> None:
    s.auction = None


@RULES.evolves(ev.ShareSold)
def _share_sold(s: State, e: ev.ShareSold) -> None:
    corp = s.corps[e.corp]
    corp.charter -= 1
    corp.holders[e.player] = corp.holders.get(e.player, 0) + 1
    s.ledger.move(liquid(e.player), treasury(e.corp), e.price)
    corp.president = e.president
    s.auction = None
    if e.purpose in ("initial", "setup"):
        if e.corp in s.auction_queue:
            s.auction_queue.remove(e.corp)
        s.next_initiator = e.player


@RULES.evolves(ev.PowerGained)
def _power_gained(s: State, e: ev.PowerGained) -> None:
    s.corps[e.corp].powers.append(e.power)
    if e.from_row and e.power in s.powers_row:
        s.powers_row.remove(e.power)


@RULES.evolves(ev.PowerDiscarded)
def _power_discarded(s: State, e: ev.PowerDiscarded) -> None:
    s.corps[e.corp].powers.remove(e.power)


@RULES.evolves(ev.PowersRevealed)
def _powers_revealed(s: State, e: ev.PowersRevealed) -> None:
    s.powers_row.extend(e.powers)
    s.powers_pile = []


@RULES.evolves(ev.DecisionRequested)
def _decision_requested(s: State, e: ev.DecisionRequested) -> None:
    s.pending.append(Pending(e.kind, e.player, e.corp, e.hex, list(e.options)))


@RULES.evolves(ev.DecisionMade)
def _decision_made(s: State, e: ev.DecisionMade) -> None:
    for index, pending in enumerate(s.pending):
        if pending.kind == e.kind and pending.player == e.player:
            del s.pending[index]
            return


@RULES.evolves(ev.CashMoved)
def _cash(s: State, e: ev.CashMoved) -> None:
    s.ledger.move(e.source, e.destination, e.amount)


@RULES.evolves(ev.DirectorChanged)
def _director(s: State, e: ev.DirectorChanged) -> None:
    s.director = e.player


@RULES.evolves(ev.RoundBegan)
def _round(s: State, e: ev.RoundBegan) -> None:
    s.era, s.round = e.era, e.round
    s.corp_index, s.corp_turn = -1, None
    s.inv = InvestorStep("release") if e.round == "investor" else None


@RULES.evolves(ev.CorporationTurnBegan)
def _corp_turn(s: State, e: ev.CorporationTurnBegan) -> None:
    s.corp_index = e.index
    s.corp_turn = CorpTurn(e.corp, "issue")


@RULES.evolves(ev.CorporationStepBegan)
def _corp_step(s: State, e: ev.CorporationStepBegan) -> None:
    s.corp_turn.step = e.step
    s.corp_turn.forced_ship = e.forced_ship


@RULES.evolves(ev.CorporationTurnEnded)
def _corp_turn_ended(s: State, e: ev.CorporationTurnEnded) -> None:
    s.corp_turn = None


@RULES.evolves(ev.BuildBegan)
def _build_began(s: State, e: ev.BuildBegan) -> None:
    s.build = Build(e.corp, e.mode, e.builder, e.payer, wormhole_cost=e.wormhole_cost)


@RULES.evolves(ev.BuildFinished)
def _build_finished(s: State, e: ev.BuildFinished) -> None:
    s.build = None


@RULES.evolves(ev.DividendPaid)
def _dividend(s: State, e: ev.DividendPaid) -> None:
    pass    # the credits move in the CashMoved events that follow; this records row and rate


@RULES.evolves(ev.DividendsReleased)
def _released(s: State, e: ev.DividendsReleased) -> None:
    for p in s.players:
        s.ledger.empty_into(frozen(p), liquid(p))


@RULES.evolves(ev.InvestorStepBegan)
def _inv_step(s: State, e: ev.InvestorStepBegan) -> None:
    s.inv.step, s.inv.seat, s.inv.part = e.step, e.seat, e.part


@RULES.evolves(ev.VotesPlaced)
def _votes(s: State, e: ev.VotesPlaced) -> None:
    s.investors[e.player].votes -= e.count
    on_corp = s.inv.votes.setdefault(e.corp, {})
    on_corp[e.player] = on_corp.get(e.player, 0) + e.count


@RULES.evolves(ev.VotesSettled)
def _votes_settled(s: State, e: ev.VotesSettled) -> None:
    for corp, by_player in s.inv.votes.items():
        if corp != e.winner:
            for player, count in by_player.items():
                s.investors[player].votes += count
    s.inv.votes_removed = sum(s.inv.votes.get(e.winner, {}).values()) if e.winner else 0
    s.votes_gone += s.inv.votes_removed
    s.inv.votes = {}


@RULES.evolves(ev.BattleCorpChosen)
def _battle_corp(s: State, e: ev.BattleCorpChosen) -> None:
    s.inv.battle_corp = e.corp


@RULES.evolves(ev.Shielded)
def _shielded(s: State, e: ev.Shielded) -> None:
    s.inv.shielded.append(e.corp)


@RULES.evolves(ev.DiscMoved)
def _disc(s: State, e: ev.DiscMoved) -> None:
    investor = s.investors[e.player]
    if e.disc == "investor":
        investor.investor_disc = e.action
    else:
        investor.alien_disc = e.action


@RULES.evolves(ev.VoteSold)
def _vote_sold(s: State, e: ev.VoteSold) -> None:
    s.investors[e.player].votes -= 1
    s.votes_gone += 1


@RULES.evolves(ev.PowerUsed)
def _power_used(s: State, e: ev.PowerUsed) -> None:
    if e.power == "alien_alchemist":
        s.corp_turn.alchemist_used = True
    else:
        s.corp_turn.dismantle_used = True


@RULES.evolves(ev.TurnOrderSet)
def _turn_order(s: State, e: ev.TurnOrderSet) -> None:
    s.turn_order = list(e.order)


@RULES.evolves(ev.CorporationFormed)
def _formed(s: State, e: ev.CorporationFormed) -> None:
    s.corps[e.corp].formed = True
    if e.corp not in s.turn_order:
        s.turn_order.append(e.corp)


@RULES.evolves(ev.HostileTakeover)
def _takeover(s: State, e: ev.HostileTakeover) -> None:
    s.corps[e.corp].taken_over = True


@RULES.evolves(ev.LiquidationCompleted)
def _ended(s: State, e: ev.LiquidationCompleted) -> None:
    s.final_scores = dict(e.scores)
    s.share_values = dict(e.share_values)
    s.end_reason = e.reason
    s.round = "over"
