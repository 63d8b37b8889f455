"""Built-in bots: strong enough that 5-player games usually reach phase 10 on a crowded board (start
corporations, float them, issue for the next transport, lay the best-joining tiles (`bot_tiles`),
place depots, keep a transport at the Space Port, run the best routes, buy transports eagerly, raise
money when forced).

A bot proposes candidate commands in order of preference; the first one `decide` accepts is played."""
from __future__ import annotations

import random

from kit18xx.emergency import max_sellable
from kit18xx.shares import corp_of
from moon21 import board as bd
from moon21 import commands as K
from moon21.bankruptcy import president_sellable, treasury_sellable
from moon21.bot_tiles import choose_lay
from moon21.corporate import issue_limit
from moon21.decide import to_act
from moon21.earnings import best_turn
from moon21.isr import free_cash
from moon21.operating import depot_options, open_bases, tile_options
from moon21.privates import un_choices
from moon21.rules import ols_min_distance, rules
from moon21.state import C, P, State
from moon21.stock import tunnel_taker
from moon21.trading import cert_limit, holding_cap, player_cert_count
from starbase_rules.contract import RuleViolation


def bot_command(s: State, player: str, rnd: random.Random, decide):
    """The first of the bot's candidates that `decide` (the engine's) accepts, or None."""
    if player not in to_act(s):
        return None
    for cmd in candidates(s, player, rnd):
        try:
            decide(s, cmd, player, None)
        except RuleViolation:
            continue
        return cmd
    return None


def candidates(s: State, player: str, rnd: random.Random) -> list:
    if s.ols_pending:
        options = bd.ols_options(s.board, ols_min_distance(s))
        return [K.PlaceOldLandingSite(**o) for o in rnd.sample(options, k=min(3, len(options)))]
    if s.kind == "ISR":
        return _isr(s, player, rnd)
    if s.kind == "SR":
        return _sr(s, player, rnd)
    if s.kind == "CR":
        return _cr(s, rnd)
    return _or(s, player, rnd)


def _isr(s: State, player: str, rnd: random.Random) -> list:
    a = s.auction
    out: list = []
    if a.resolving:
        bid = a.high_bid(a.resolving) + 5
        if rnd.random() < 0.3 and bid <= rules().privates[a.resolving].value * 1.3:
            out.append(K.BidOnPrivate(private=a.resolving, amount=bid))
        return out + [K.Pass()]
    if rnd.random() < 0.15 and len(a.line) > 1:
        item = rnd.choice(a.line[1:])
        out.append(K.BidOnPrivate(private=item, amount=a.min_bid(item, 5)))
    if rnd.random() < 0.7 and free_cash(s, player) >= a.price[a.first] + 100:
        out.append(K.BuyPrivate(private=a.first))
    return out + [K.Pass()]


def _sr(s: State, player: str, rnd: random.Random) -> list:
    out: list = []
    cash = s.cash(P(player))
    if player_cert_count(s, player) > cert_limit(s):
        held = sorted({corp_of(c) for c in s.shares.certs_held(P(player))})
        out += [K.SellShares(corp=c) for c in held]
    taker = tunnel_taker(s, player)
    if taker and s.set_no in rules()["tunnel_free_share_rounds"]:
        out += [K.TakeTunnelShare(corp=c) for c in s.live_corps() if s.shares.ordinary_certs(c, "pool")]
    if s.sr_turn_sold or rnd.random() < 0.04:
        held = [corp_of(c) for c in s.shares.certs_held(P(player)) if not c.endswith("_0")]
        if held and not s.sr_turn_sold:
            out.append(K.SellShares(corp=rnd.choice(held)))
    mine = [c for c in s.live_corps() if s.president(c) == player]
    if rnd.random() < 0.1:
        give = [c for c in s.shares.certs_held(P(player)) if not c.endswith("_0") and c not in s.swapped]
        for corp in mine:
            take = [c for c in s.shares.certs_held(C(corp)) if c not in s.swapped]
            if take and give:
                out.append(K.SwapCertificate(corp=corp, take=rnd.choice(take), give=rnd.choice(give)))
    unfloated = [c for c in mine if not s.corps[c].floated]
    out += [K.BuyShare(corp=c, source="ipo") for c in unfloated]
    started = len(s.live_corps())
    if not unfloated and started < len(s.players) + 2 and rnd.random() < 0.8:
        pars = [p for p in rules()["par_prices"] if 2 * p <= cash - 60]
        free = [c for c, corp in s.corps.items() if not corp.started and not corp.closed]
        if pars and free:
            out.append(K.StartCorporation(corp=rnd.choice(free), par=rnd.choice(pars)))
    if rnd.random() < 0.75:
        options = [c for c in s.live_corps() if s.price(c) <= cash and
                   s.shares.held_percent(c, P(player)) < holding_cap(s)]
        rnd.shuffle(options)
        for c in options[:3]:
            out.append(K.BuyShare(corp=c, source=rnd.choice(["ipo", "ipo", "pool"])))
            out.append(K.BuyShare(corp=c, source="ipo"))
    return out + [K.Pass()]


def _cr(s: State, rnd: random.Random) -> list:
    corp = s.cr.current
    out: list = []
    limit = issue_limit(s, corp)
    wanted = rules().transport_cost[s.top_transport()] + 100      # money for the next transport
    if limit and not s.cr.issued and (not s.corps[corp].floated or s.cash(C(corp)) < wanted) and rnd.random() < 0.8:
        out.append(K.IssueShares(count=rnd.randint(1, limit)))
    if rnd.random() < 0.15:
        others = [c for c in s.live_corps() if c != corp]
        if others:
            out.append(K.BuyShare(corp=rnd.choice(others), source="ipo"))
    return out + [K.Pass()]


def _or(s: State, player: str, rnd: random.Random) -> list:
    op = s.op
    corp = op.corp
    c = s.corps[corp]
    if op.deal:
        return [K.AnswerDeal(accept=rnd.random() < 0.7)]
    if op.pending_un:
        action, t = rnd.choice(un_choices(s))
        return [K.UseUnContract(action=action, transport_type=t), K.UseUnContract(action="none")]
    if op.raising:
        return _raise_money(s, corp, player)
    out: list = []
    if s.owns_private(corp, "P4") and rnd.random() < 0.3:
        out.append(K.PlaceResearchMarker(hex=rnd.choice(bd.research_targets(s.board))))
    privates = [p for q in s.active_players() for p in s.privates_of(P(q))]
    if privates and rnd.random() < 0.2:
        useful = [p for p in privates if p in ("P3", "P5")]   # the Space Bridge and the Terminal build
        private = rnd.choice(useful if useful and rnd.random() < 0.7 else privates)
        spec = rules().privates[private]
        out.append(K.AcquirePrivate(private=private, price=rnd.randint(spec.sale_min, spec.sale_max)))
    if op.step == "tiles":
        if s.owns_private(corp, "P5") and not op.terminal_laid:
            out += [K.LayTerminal(rotation=o["rotation"]) for o in bd.terminal_options(s.board)[:2]]
        for base in rnd.sample(["LB", "SP"], 2):
            if base in op.tile_bases or rnd.random() < 0.05:
                continue
            o = choose_lay(s.board, tile_options(s, corp, base), rnd, bridge_pays=s.owns_private(corp, "P3"))
            if o is not None:
                out.append(K.LayTile(base=base, hex=o["hex"], tile=o["tile"], rotation=o["rotation"]))
    elif op.step == "token":
        options = depot_options(s, corp)
        if options and rnd.random() < 0.85:
            o = rnd.choice(options)
            out.append(K.PlaceDepot(hex=o["hex"], depot=o["depot"]))
    elif op.step == "run":
        if not op.moved_transport and not c.transports["SP"] and c.transports["LB"] and rnd.random() < 0.8:
            # the Space Port base pays the dividends that lift the share price (11.5)
            out.append(K.MoveTransport(from_base="LB", transport=max(c.transports["LB"])))
        elif not op.moved_transport and rnd.random() < 0.05:
            for base in ("LB", "SP"):
                if c.transports[base]:
                    out.append(K.MoveTransport(from_base=base, transport=c.transports[base][0]))
        out.append(run_command(s, corp))
    elif op.step == "buy":
        bases = open_bases(s, corp)
        if bases and (c.transport_count() == 0 or rnd.random() < 0.9):
            fewest = min(bases, key=lambda b: (len(c.transports[b]), b != "SP"))
            out.append(K.BuyTransport(base=fewest if rnd.random() < 0.85 else rnd.choice(bases)))
        if bases and rnd.random() < 0.05:
            sellers = [(x, b, t) for x in s.live_corps() if x != corp for b in ("LB", "SP")
                       for t in s.corps[x].transports[b]]
            if sellers and s.cash(C(corp)) >= 1:
                x, b, t = rnd.choice(sellers)
                out.append(K.BuyTransport(base=rnd.choice(bases), from_corp=x, from_base=b, transport=t,
                                          price=rnd.randint(1, s.cash(C(corp)))))
    return out + [K.Pass()]


def run_command(s: State, corp: str) -> K.RunTransports:
    best = best_turn(s, corp)
    return K.RunTransports(runs={b: [{"transport": r["transport"], "stops": r["stops"]} for r in best[b]["runs"]]
                                 for b in ("LB", "SP")})


def _raise_money(s: State, corp: str, player: str) -> list:
    out: list = []
    for x in treasury_sellable(s, corp):
        count = max_sellable(s.cash(C(corp)), s.op.raising, s.price(x), s.shares.held_percent(x, C(corp)) // 10)
        out += [K.SellShares(corp=x, count=n, seller="corporation") for n in range(count, 0, -1)]
    for x in president_sellable(s, corp):
        count = max_sellable(s.cash(C(corp)) + s.cash(P(player)), s.op.raising, s.price(x),
                             s.shares.held_percent(x, P(player)) // 10)
        out += [K.SellShares(corp=x, count=n) for n in range(count, 0, -1)]
    bases = open_bases(s, corp)
    out += [K.BuyTransport(base=b) for b in bases]
    return out + [K.DeclareBankruptcy()]
