"""The Corporation Round: auctions of shares, issuing, dividends, ordering ships, loans, turn powers."""
from __future__ import annotations

import math

from stellar import commands as cmd
from stellar import events as ev
from stellar import queries as q
from stellar.facts import tables
from stellar.evolve import AMETHYST
from stellar.flow import (Tx, begin_liquidation, gain_power, offer_draft, open_auction, open_section, refuse,
                          request, sell_share)
from stellar.rules import RULES
from stellar.state import BANK, State, frozen, liquid, treasury


# -- the corporation round's own flow -----------------------------------------------------------

def corporation_step(tx: Tx) -> bool:
    """Play the next automatic part of the round; False when a president owes a decision."""
    s = tx.state
    turn = s.corp_turn
    if turn is None:
        for index in range(s.corp_index + 1, len(s.turn_order)):
            corp = s.corps[s.turn_order[index]]
            if corp.formed and corp.president:
                tx.emit(ev.CorporationTurnBegan(corp=corp.id, index=index))
                return True
        if s.era >= 5:
            begin_liquidation(tx)
        else:
            tx.emit(ev.RoundBegan(era=s.era, round="investor"))
        return True
    corp = s.corps[turn.corp]
    if turn.step == "issue":
        if corp.charter == 0:
            tx.emit(ev.CorporationStepBegan(corp=corp.id, step="build"))
            return True
        return False
    if turn.step == "build":
        return False
    if turn.step == "dividend":
        if "deep_space_pirates" in corp.powers or "deep_space_smuggling" in corp.powers:
            return False
        pay_dividend(tx, corp.id)
        return True
    if can_order_ship(s, corp.id):
        return False
    tx.emit(ev.CorporationTurnEnded(corp=corp.id))
    return True


def pay_dividend(tx: Tx, corp_id: str, mc_from: str | None = None, cargo_from: str | None = None) -> None:
    s = tx.state
    row, per_share = q.dividend_per_share(s, corp_id, mc_from, cargo_from)
    tx.emit(ev.DividendPaid(corp=corp_id, row=row, per_share=per_share))
    for player, count in sorted(s.corps[corp_id].holders.items()):
        if count:
            tx.emit(ev.CashMoved(source=BANK, destination=frozen(player), amount=per_share * count,
                                  reason=f"dividend {corp_id}"))
    if mc_from:
        tx.emit(ev.PowerDiscarded(corp=corp_id, power="deep_space_pirates"))
    if cargo_from:
        tx.emit(ev.PowerDiscarded(corp=corp_id, power="deep_space_smuggling"))
    corp = s.corps[corp_id]
    if corp.spare_ship is not None:      # Spare Parts: the saved ship lasted one more dividend
        tx.emit(ev.SpareShipScrapped(corp=corp_id))
        if "spare_parts" in corp.powers:
            tx.emit(ev.PowerDiscarded(corp=corp_id, power="spare_parts"))
    forced = not corp.ordered and not corp.delivered
    tx.emit(ev.CorporationStepBegan(corp=corp_id, step="ships", forced_ship=forced))


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


@RULES.decides(cmd.Bid)
def bid(tx: Tx, command: cmd.Bid, actor: str) -> None:
    s = tx.state
    auction = _require_bidder(s, actor)
    if command.amount < 0 or (auction.high_bid is not None and command.amount <= auction.high_bid):
        refuse("BID_TOO_LOW", f"a bid must be a whole number above {auction.high_bid}")
    if command.amount > s.ledger.balance(liquid(actor)):
        refuse("INSUFFICIENT_FUNDS", f"{actor} has only {s.ledger.balance(liquid(actor))} in liquid funds")
    tx.emit(ev.BidPlaced(player=actor, amount=command.amount))
    _maybe_sell(tx)


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


@RULES.decides(cmd.PassBid)
def pass_bid(tx: Tx, command: cmd.PassBid, actor: str) -> None:
    s = tx.state
    auction = _require_bidder(s, actor)
    if not may_pass(s):
        if not s.options.auction_opener_may_pass:
            refuse("INITIATOR_MUST_BID", "the player who opens an auction must bid (0 is allowed)")
        refuse("LAST_BIDDER_MUST_BID", f"this {auction.purpose} share must be sold and nobody else has bid")
    tx.emit(ev.BidPassed(player=actor))
    if auction.high_bid is None and len(tx.state.auction.passed) == len(auction.order):
        tx.emit(ev.AuctionLapsed(corp=auction.corp))      # an Issue Share auction nobody wanted
        tx.emit(ev.CorporationStepBegan(corp=auction.corp, step="build"))
        return
    _maybe_sell(tx)


def _maybe_sell(tx: Tx) -> None:
    s = tx.state
    auction = s.auction
    if auction.high_bidder is None or len(auction.passed) < len(auction.order) - 1:
        return
    corp_id, purpose, winner = auction.corp, auction.purpose, auction.high_bidder
    sell_share(tx, corp_id, winner, auction.high_bid, purpose)
    if purpose == "initial":
        offer_draft(tx, corp_id)
    elif purpose == "issue":
        tx.emit(ev.CorporationStepBegan(corp=corp_id, step="build"))
    elif purpose == "battle":
        tx.emit(ev.VotesSettled(winner=corp_id))
        tx.emit(ev.InvestorStepBegan(step="shenanigans", seat=0, part="investor"))
    elif purpose == "amethyst":
        tx.emit(ev.CorporationFormed(corp=corp_id))
        request(tx, "choose_home", winner, corp_id, options=list(_amethyst_homes()))


def _amethyst_homes() -> tuple[str, ...]:
    return tables().corps[AMETHYST].home_options


@RULES.decides(cmd.DraftPower)
def draft_power(tx: Tx, command: cmd.DraftPower, actor: str) -> None:
    pending = take_pending(tx.state, actor, "draft_power")
    if command.power not in pending.options or command.power not in tx.state.powers_row:
        refuse("POWER_NOT_AVAILABLE", f"{command.power} is not in the row of available powers")
    tx.emit(ev.DecisionMade(kind="draft_power", player=actor, choice=command.power))
    gain_power(tx, pending.corp, command.power)


@RULES.decides(cmd.ChooseHome)
def choose_home(tx: Tx, command: cmd.ChooseHome, actor: str) -> None:
    pending = take_pending(tx.state, actor, "choose_home")
    if command.hex not in pending.options:
        refuse("NOT_A_HOME_OPTION", f"Amethyst Agency's home options are {pending.options}")
    tx.emit(ev.DecisionMade(kind="choose_home", player=actor, choice=command.hex))
    tx.emit(ev.OutpostPlaced(corp=pending.corp, hex=command.hex, free=True))


def take_pending(s: State, actor: str, kind: str):
    for pending in s.pending:
        if pending.kind == kind and pending.player == actor:
            return pending
    refuse("NO_SUCH_DECISION", f"{actor} owes no {kind.replace('_', ' ')} decision")


# -- the four steps -----------------------------------------------------------------------------

@RULES.decides(cmd.IssueShare)
def issue_share(tx: Tx, command: cmd.IssueShare, actor: str) -> None:
    corp = require_corp_step(tx.state, actor, "issue")
    open_auction(tx, corp.id, "issue", actor)


@RULES.decides(cmd.DeclineIssue)
def decline_issue(tx: Tx, command: cmd.DeclineIssue, actor: str) -> None:
    corp = require_corp_step(tx.state, actor, "issue")
    tx.emit(ev.CorporationStepBegan(corp=corp.id, step="build"))


@RULES.decides(cmd.PayDividend)
def pay_dividend_command(tx: Tx, command: cmd.PayDividend, actor: str) -> None:
    s = tx.state
    corp = require_corp_step(s, actor, "dividend")
    for other, power in ((command.copy_mc_from, "deep_space_pirates"), (command.copy_cargo_from, "deep_space_smuggling")):
        if other is None:
            continue
        require_power(corp, power)
        if other == corp.id or other not in s.corps or not s.corps[other].formed:
            refuse("UNKNOWN_CORPORATION", f"{other!r} is not another active corporation")
    pay_dividend(tx, corp.id, command.copy_mc_from, command.copy_cargo_from)


@RULES.decides(cmd.OrderShip)
def order_ship(tx: Tx, command: cmd.OrderShip, actor: str) -> None:
    s = tx.state
    corp = require_corp_step(s, actor, "ships")
    if free_columns(s, corp.id) <= 0:
        refuse("NO_EMPTY_COLUMN", f"{corp.id} already has 3 ships (1 per column)")
    level = q.lowest_section(s)
    balance = s.ledger.balance(treasury(corp.id))
    if balance < level:
        if not must_force(s, corp.id):
            refuse("INSUFFICIENT_FUNDS", f"{corp.id} has {balance} and a level-{level} ship costs {level}")
        _take_loans(tx, corp.id, math.ceil((level - balance) / tables().loan_gain), command.loan_outposts)
    elif command.loan_outposts:
        refuse("LOAN_NOT_ALLOWED", "loans are taken only for a forced ship the treasury cannot pay")
    tx.emit(ev.ShipOrdered(corp=corp.id, level=level))
    tx.emit(ev.CashMoved(source=treasury(corp.id), destination=BANK, amount=level, reason="ship"))
    if level not in s.opened_sections:
        open_section(tx, level)


def _take_loans(tx: Tx, corp_id: str, count: int, chosen: list[str]) -> None:
    """Minimum loans for one forced ship; outposts from the supply or the board (president's choice,
    defaulting to the supply, then the lowest-value hexes)."""
    s = tx.state
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
        tx.emit(ev.LoanTaken(corp=corp_id, hex=origin))
        tx.emit(ev.CashMoved(source=BANK, destination=treasury(corp_id), amount=tables().loan_gain, reason="loan"))


@RULES.decides(cmd.FinishOrdering)
def finish_ordering(tx: Tx, command: cmd.FinishOrdering, actor: str) -> None:
    s = tx.state
    corp = require_corp_step(s, actor, "ships")
    if must_force(s, corp.id) and can_order_ship(s, corp.id):
        refuse("FORCED_SHIP_ORDER", f"{corp.id} has no ships and must order at least one")
    tx.emit(ev.CorporationTurnEnded(corp=corp.id))
