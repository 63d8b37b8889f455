"""The Corporation Round: auctions of shares, issuing, dividends, ordering ships, loans, turn powers."""
from __future__ import annotations

import math

from stellar import commands as cmd
from stellar import events as ev
from stellar import queries as q
from stellar.facts import tables
from stellar.evolve import AMETHYST
from stellar.flow import (Ctx, begin_liquidation, gain_power, offer_draft, open_auction, open_section, refuse,
                          request, sell_share)
from stellar.state import BANK, State, frozen, liquid, treasury

HANDLERS = {}


def handler(command_type):
    def register(function):
        HANDLERS[command_type.model_fields["type"].default] = function
        return function
    return register


# -- the corporation round's own flow -----------------------------------------------------------

def corporation_step(ctx: Ctx) -> bool:
    """Play the next automatic part of the round; False when a president owes a decision."""
    s = ctx.state
    turn = s.corp_turn
    if turn is None:
        for index in range(s.corp_index + 1, len(s.turn_order)):
            corp = s.corps[s.turn_order[index]]
            if corp.formed and corp.president:
                ctx.emit(ev.CorporationTurnBegan(corp=corp.id, index=index))
                return True
        if s.era >= 5:
            begin_liquidation(ctx)
        else:
            ctx.emit(ev.RoundBegan(era=s.era, round="investor"))
        return True
    corp = s.corps[turn.corp]
    if turn.step == "issue":
        if corp.charter == 0:
            ctx.emit(ev.CorporationStepBegan(corp=corp.id, step="build"))
            return True
        return False
    if turn.step == "build":
        return False
    if turn.step == "dividend":
        if "deep_space_pirates" in corp.powers or "deep_space_smuggling" in corp.powers:
            return False
        pay_dividend(ctx, corp.id)
        return True
    if can_order_ship(s, corp.id):
        return False
    ctx.emit(ev.CorporationTurnEnded(corp=corp.id))
    return True


def pay_dividend(ctx: Ctx, corp_id: str, mc_from: str | None = None, cargo_from: str | None = None) -> None:
    s = ctx.state
    row, per_share = q.dividend_per_share(s, corp_id, mc_from, cargo_from)
    ctx.emit(ev.DividendPaid(corp=corp_id, row=row, per_share=per_share))
    for player, count in sorted(s.corps[corp_id].holders.items()):
        if count:
            ctx.emit(ev.CashMoved(source=BANK, destination=frozen(player), amount=per_share * count,
                                  reason=f"dividend {corp_id}"))
    if mc_from:
        ctx.emit(ev.PowerDiscarded(corp=corp_id, power="deep_space_pirates"))
    if cargo_from:
        ctx.emit(ev.PowerDiscarded(corp=corp_id, power="deep_space_smuggling"))
    corp = s.corps[corp_id]
    if corp.spare_ship is not None:      # Spare Parts: the saved ship lasted one more dividend
        ctx.emit(ev.SpareShipScrapped(corp=corp_id))
        if "spare_parts" in corp.powers:
            ctx.emit(ev.PowerDiscarded(corp=corp_id, power="spare_parts"))
    forced = not corp.ordered and not corp.delivered
    ctx.emit(ev.CorporationStepBegan(corp=corp_id, step="ships", forced_ship=forced))


def free_columns(s: State, corp_id: str) -> int:
    corp = s.corps[corp_id]
    return tables().ship_columns - len(corp.ordered) - len(corp.delivered)


def loans_possible(s: State, corp_id: str) -> int:
    return s.corps[corp_id].supply + len(q.on_board(s, corp_id))


def must_force(s: State, corp_id: str) -> bool:
    turn = s.corp_turn
    return bool(turn and turn.forced_ship and turn.ordered_now == 0)


def can_order_ship(s: State, corp_id: str) -> bool:
    if free_columns(s, corp_id) <= 0:
        return False
    cost = q.lowest_section(s)
    balance = s.ledger.balance(treasury(corp_id))
    if balance >= cost:
        return True
    need = math.ceil((cost - balance) / tables().loan_gain)
    return must_force(s, corp_id) and loans_possible(s, corp_id) >= need


# -- guards -------------------------------------------------------------------------------------

def require_corp_step(s: State, actor: str, step: str):
    turn = s.corp_turn
    if s.round != "corporation" or turn is None or turn.step != step or s.build is not None:
        refuse("WRONG_STEP", f"this is not the {step} step of a corporation turn")
    corp = s.corps[turn.corp]
    if actor != corp.president:
        refuse("NOT_YOUR_TURN", f"{corp.president} decides for {corp.id} now")
    return corp


def require_president(s: State, actor: str, corp_id: str):
    if corp_id not in s.corps or not s.corps[corp_id].formed:
        refuse("UNKNOWN_CORPORATION", f"no active corporation {corp_id!r}")
    corp = s.corps[corp_id]
    if corp.president != actor:
        refuse("NOT_PRESIDENT", f"only {corp.president}, president of {corp_id}, may do that")
    return corp


def require_power(corp, power: str) -> None:
    if power not in corp.powers:
        refuse("POWER_NOT_ACTIVE", f"{corp.id} does not have {power}")


def require_quiet(s: State) -> None:
    if s.pending or s.auction is not None:
        refuse("DECISION_PENDING", "finish the open auction or decision first")


# -- auctions -----------------------------------------------------------------------------------

def _require_bidder(s: State, actor: str):
    auction = s.auction
    if auction is None:
        refuse("NO_AUCTION", "no auction is open")
    if actor != auction.order[auction.turn]:
        refuse("NOT_YOUR_TURN", f"{auction.order[auction.turn]} bids now")
    return auction


@handler(cmd.Bid)
def bid(ctx: Ctx, command: cmd.Bid, actor: str) -> None:
    s = ctx.state
    auction = _require_bidder(s, actor)
    if command.amount < 0 or (auction.high_bid is not None and command.amount <= auction.high_bid):
        refuse("BID_TOO_LOW", f"a bid must be a whole number above {auction.high_bid}")
    if command.amount > s.ledger.balance(liquid(actor)):
        refuse("INSUFFICIENT_FUNDS", f"{actor} has only {s.ledger.balance(liquid(actor))} in liquid funds")
    ctx.emit(ev.BidPlaced(player=actor, amount=command.amount))
    _maybe_sell(ctx)


# Auctions whose share must be sold: with option auction_opener_may_pass, the last player still in
# must bid when nobody has (in an Issue Share auction everyone may pass and no share is issued).
MUST_SELL = ("initial", "battle", "amethyst", "setup")


def may_pass(s: State) -> bool:
    auction = s.auction
    if auction.high_bid is not None:
        return True
    if not s.options.auction_opener_may_pass:
        return False
    last_in = len(auction.passed) == len(auction.order) - 1
    return not (last_in and auction.purpose in MUST_SELL)


@handler(cmd.PassBid)
def pass_bid(ctx: Ctx, command: cmd.PassBid, actor: str) -> None:
    s = ctx.state
    auction = _require_bidder(s, actor)
    if not may_pass(s):
        if not s.options.auction_opener_may_pass:
            refuse("INITIATOR_MUST_BID", "the player who opens an auction must bid (0 is allowed)")
        refuse("LAST_BIDDER_MUST_BID", f"this {auction.purpose} share must be sold and nobody else has bid")
    ctx.emit(ev.BidPassed(player=actor))
    if auction.high_bid is None and len(ctx.state.auction.passed) == len(auction.order):
        ctx.emit(ev.AuctionLapsed(corp=auction.corp))      # an Issue Share auction nobody wanted
        ctx.emit(ev.CorporationStepBegan(corp=auction.corp, step="build"))
        return
    _maybe_sell(ctx)


def _maybe_sell(ctx: Ctx) -> None:
    s = ctx.state
    auction = s.auction
    if auction.high_bidder is None or len(auction.passed) < len(auction.order) - 1:
        return
    corp_id, purpose, winner = auction.corp, auction.purpose, auction.high_bidder
    sell_share(ctx, corp_id, winner, auction.high_bid, purpose)
    if purpose == "initial":
        offer_draft(ctx, corp_id)
    elif purpose == "issue":
        ctx.emit(ev.CorporationStepBegan(corp=corp_id, step="build"))
    elif purpose == "battle":
        ctx.emit(ev.VotesSettled(winner=corp_id))
        ctx.emit(ev.InvestorStepBegan(step="shenanigans", seat=0, part="investor"))
    elif purpose == "amethyst":
        ctx.emit(ev.CorporationFormed(corp=corp_id))
        request(ctx, "choose_home", winner, corp_id, options=list(_amethyst_homes()))


def _amethyst_homes() -> tuple[str, ...]:
    return tables().corps[AMETHYST].home_options


@handler(cmd.DraftPower)
def draft_power(ctx: Ctx, command: cmd.DraftPower, actor: str) -> None:
    pending = take_pending(ctx.state, actor, "draft_power")
    if command.power not in pending.options or command.power not in ctx.state.powers_row:
        refuse("POWER_NOT_AVAILABLE", f"{command.power} is not in the row of available powers")
    ctx.emit(ev.DecisionMade(kind="draft_power", player=actor, choice=command.power))
    gain_power(ctx, pending.corp, command.power)


@handler(cmd.ChooseHome)
def choose_home(ctx: Ctx, command: cmd.ChooseHome, actor: str) -> None:
    pending = take_pending(ctx.state, actor, "choose_home")
    if command.hex not in pending.options:
        refuse("NOT_A_HOME_OPTION", f"Amethyst Agency's home options are {pending.options}")
    ctx.emit(ev.DecisionMade(kind="choose_home", player=actor, choice=command.hex))
    ctx.emit(ev.OutpostPlaced(corp=pending.corp, hex=command.hex, free=True))


def take_pending(s: State, actor: str, kind: str):
    for pending in s.pending:
        if pending.kind == kind and pending.player == actor:
            return pending
    refuse("NO_SUCH_DECISION", f"{actor} owes no {kind.replace('_', ' ')} decision")


# -- the four steps -----------------------------------------------------------------------------

@handler(cmd.IssueShare)
def issue_share(ctx: Ctx, command: cmd.IssueShare, actor: str) -> None:
    corp = require_corp_step(ctx.state, actor, "issue")
    open_auction(ctx, corp.id, "issue", actor)


@handler(cmd.DeclineIssue)
def decline_issue(ctx: Ctx, command: cmd.DeclineIssue, actor: str) -> None:
    corp = require_corp_step(ctx.state, actor, "issue")
    ctx.emit(ev.CorporationStepBegan(corp=corp.id, step="build"))


@handler(cmd.PayDividend)
def pay_dividend_command(ctx: Ctx, command: cmd.PayDividend, actor: str) -> None:
    s = ctx.state
    corp = require_corp_step(s, actor, "dividend")
    for other, power in ((command.copy_mc_from, "deep_space_pirates"), (command.copy_cargo_from, "deep_space_smuggling")):
        if other is None:
            continue
        require_power(corp, power)
        if other == corp.id or other not in s.corps or not s.corps[other].formed:
            refuse("UNKNOWN_CORPORATION", f"{other!r} is not another active corporation")
    pay_dividend(ctx, corp.id, command.copy_mc_from, command.copy_cargo_from)


@handler(cmd.OrderShip)
def order_ship(ctx: Ctx, command: cmd.OrderShip, actor: str) -> None:
    s = ctx.state
    corp = require_corp_step(s, actor, "ships")
    if free_columns(s, corp.id) <= 0:
        refuse("NO_EMPTY_COLUMN", f"{corp.id} already has 3 ships (1 per column)")
    level = q.lowest_section(s)
    balance = s.ledger.balance(treasury(corp.id))
    if balance < level:
        if not must_force(s, corp.id):
            refuse("INSUFFICIENT_FUNDS", f"{corp.id} has {balance} and a level-{level} ship costs {level}")
        _take_loans(ctx, corp.id, math.ceil((level - balance) / tables().loan_gain), command.loan_outposts)
    elif command.loan_outposts:
        refuse("LOAN_NOT_ALLOWED", "loans are taken only for a forced ship the treasury cannot pay")
    ctx.emit(ev.ShipOrdered(corp=corp.id, level=level))
    ctx.emit(ev.CashMoved(source=treasury(corp.id), destination=BANK, amount=level, reason="ship"))
    if level not in s.opened_sections:
        open_section(ctx, level)


def _take_loans(ctx: Ctx, corp_id: str, count: int, chosen: list[str]) -> None:
    """Minimum loans for one forced ship; outposts from the supply or the board (president's choice,
    defaulting to the supply, then the lowest-value hexes)."""
    s = ctx.state
    corp = s.corps[corp_id]
    sources: list[str | None] = []
    supply_left = corp.supply
    board = q.on_board(s, corp_id)
    for origin in chosen:
        if origin == "supply" and supply_left > 0:
            supply_left -= 1
            sources.append(None)
        elif origin in board and origin not in sources:
            sources.append(origin)
        else:
            refuse("BAD_LOAN_OUTPOST", f"{corp_id} has no outpost to pledge at {origin!r}")
    if len(sources) > count:
        refuse("TOO_MANY_LOANS", f"only {count} loan(s) are needed")
    spare = [h for h in sorted(board, key=lambda h: (q.planet_value(s, h), h)) if h not in sources]
    while len(sources) < count:
        if supply_left > 0:
            supply_left -= 1
            sources.append(None)
        elif spare:
            sources.append(spare.pop(0))
        else:
            refuse("NO_OUTPOSTS_FOR_LOAN", f"{corp_id} has no outposts left to pledge")
    for origin in sources:
        ctx.emit(ev.LoanTaken(corp=corp_id, hex=origin))
        ctx.emit(ev.CashMoved(source=BANK, destination=treasury(corp_id), amount=tables().loan_gain, reason="loan"))


@handler(cmd.FinishOrdering)
def finish_ordering(ctx: Ctx, command: cmd.FinishOrdering, actor: str) -> None:
    s = ctx.state
    corp = require_corp_step(s, actor, "ships")
    if must_force(s, corp.id) and can_order_ship(s, corp.id):
        refuse("FORCED_SHIP_ORDER", f"{corp.id} has no ships and must order at least one")
    ctx.emit(ev.CorporationTurnEnded(corp=corp.id))
