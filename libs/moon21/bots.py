"""Built-in bots at three levels (`easy`, `normal`, `strong`): strong enough that 5-player games usually
reach phase 10 on a crowded board (start corporations, float them, issue for the next transport, lay the
best-joining tiles (`bot_tiles`), place depots, keep a transport at the Space Port, run the best routes,
buy transports eagerly, raise money when forced), and never exploitable through a deal (`bot_deals`).

A bot proposes candidate commands in order of preference; the first one `decide` accepts is played. The
levels differ in their `Style`: how often they leave the plan for a random choice. 21Moon hides nothing,
so a bot's state is what its player sees."""
from __future__ import annotations

import random
from dataclasses import dataclass

from kit18xx.emergency import max_sellable
from kit18xx.shares import corp_of
from moon21 import board as bd
from moon21 import commands as K
from moon21.bankruptcy import president_sellable, treasury_sellable
from moon21.bot_deals import acceptable, private_offer, transport_offer
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


@dataclass(frozen=True)
class Style:
    wander: float          # chance of a random sale, swap or transport move that serves no plan
    skip_tiles: float      # chance of leaving a base's tile lay unused
    buy_shares: float      # chance of buying shares in a stock round turn
    share_order: str       # which corporations' shares to buy first: "random", "own" (its presidencies),
    #                        "cheap" (lowest price first: more certificates for the money, and low-priced
    #                        corporations climb the market fastest; 3 players, 200 games: 0.69 vs 0.65 random)
    par: str               # the par of a corporation it starts: "random", "low" or "high" (of those affordable)
    bid_privates: float    # chance of bidding in the initial stock round
    issue: str = "random"  # how many shares a corporation issues for money: "random" or "max" (of its limit)
    reserve: bool = False  # keep cash in stock rounds for a transport its presidencies may be forced to buy


LEVELS = {
    "easy": Style(wander=0.2, skip_tiles=0.3, buy_shares=0.5, share_order="random", par="random",
                  bid_privates=0.3),
    "normal": Style(wander=0.04, skip_tiles=0.05, buy_shares=0.75, share_order="random", par="random",
                    bid_privates=0.15),
    "strong": Style(wander=0.0, skip_tiles=0.0, buy_shares=1.0, share_order="cheap", par="low",
                    bid_privates=0.15, issue="max", reserve=True),
}


def bot_command(s: State, player: str, rnd: random.Random, decide, level: str = "normal"):
    """The first of the level's candidates that `decide` accepts, or None (the engine passes its `decide`,
    or the cheaper check with the same answers, `Moon21._accepts`)."""
    if player not in to_act(s):
        return None
    for cmd in candidates(s, player, rnd, LEVELS[level]):
        try:
            decide(s, cmd, player, None)
        except RuleViolation:
            continue
        return cmd
    return None


def candidates(s: State, player: str, rnd: random.Random, style: Style = LEVELS["normal"]) -> list:
    if s.ols_pending:
        options = bd.ols_options(s.board, ols_min_distance(s))
        return [K.PlaceOldLandingSite(**o) for o in rnd.sample(options, k=min(3, len(options)))]
    if s.kind == "ISR":
        return _isr(s, player, rnd, style)
    if s.kind == "SR":
        return _sr(s, player, rnd, style)
    if s.kind == "CR":
        return _cr(s, rnd, style)
    return _or(s, player, rnd, style)


def _isr(s: State, player: str, rnd: random.Random, style: Style) -> list:
    a = s.auction
    out: list = []
    if a.resolving:
        bid = a.high_bid(a.resolving) + 5
        if rnd.random() < 2 * style.bid_privates and bid <= rules().privates[a.resolving].value * 1.3:
            out.append(K.BidOnPrivate(private=a.resolving, amount=bid))
        return out + [K.Pass()]
    if rnd.random() < style.bid_privates and len(a.line) > 1:
        item = rnd.choice(a.line[1:])
        out.append(K.BidOnPrivate(private=item, amount=a.min_bid(item, 5)))
    if rnd.random() < 0.7 and free_cash(s, player) >= a.price[a.first] + 100:
        out.append(K.BuyPrivate(private=a.first))
    return out + [K.Pass()]


def _sr(s: State, player: str, rnd: random.Random, style: Style) -> list:
    out: list = []
    cash = s.cash(P(player))
    spare = cash - (transport_reserve(s, player) if style.reserve else 0)
    if player_cert_count(s, player) > cert_limit(s):
        held = sorted({corp_of(c) for c in s.shares.certs_held(P(player))})
        out += [K.SellShares(corp=c) for c in held]
    taker = tunnel_taker(s, player)
    if taker and s.set_no in rules()["tunnel_free_share_rounds"]:
        out += [K.TakeTunnelShare(corp=c) for c in s.live_corps() if s.shares.ordinary_certs(c, "pool")]
    if s.sr_turn_sold or rnd.random() < style.wander:
        held = [corp_of(c) for c in s.shares.certs_held(P(player)) if not c.endswith("_0")]
        if held and not s.sr_turn_sold:
            out.append(K.SellShares(corp=rnd.choice(held)))
    mine = [c for c in s.live_corps() if s.president(c) == player]
    if rnd.random() < 2.5 * style.wander:
        give = [c for c in s.shares.certs_held(P(player)) if not c.endswith("_0") and c not in s.swapped]
        for corp in mine:
            take = [c for c in s.shares.certs_held(C(corp)) if c not in s.swapped]
            if take and give:
                out.append(K.SwapCertificate(corp=corp, take=rnd.choice(take), give=rnd.choice(give)))
    unfloated = [c for c in mine if not s.corps[c].floated]
    out += [K.BuyShare(corp=c, source="ipo") for c in unfloated]
    started = len(s.live_corps())
    if not unfloated and started < len(s.players) + 2 and rnd.random() < 0.8:
        pars = [p for p in rules()["par_prices"] if 2 * p <= spare - 60]
        free = [c for c, corp in s.corps.items() if not corp.started and not corp.closed]
        if pars and free:
            par = {"low": min(pars), "high": max(pars)}.get(style.par) or rnd.choice(pars)
            out.append(K.StartCorporation(corp=rnd.choice(free), par=par))
    if rnd.random() < style.buy_shares:
        options = [c for c in s.live_corps() if s.price(c) <= spare and
                   s.shares.held_percent(c, P(player)) < holding_cap(s)]
        rnd.shuffle(options)
        if style.share_order == "own":
            options.sort(key=lambda c: s.president(c) != player)
        elif style.share_order == "cheap":
            # the cheapest first, but never a share that could hand it another player's corporation: a
            # cheap corporation is often one without a transport, which its new president must buy (11.6)
            options = sorted((c for c in options if not _could_take_over(s, c, player)), key=s.price)
        for c in options[:3]:
            out.append(K.BuyShare(corp=c, source=rnd.choice(["ipo", "ipo", "pool"])))
            out.append(K.BuyShare(corp=c, source="ipo"))
    return out + [K.Pass()]


def transport_reserve(s: State, player: str) -> int:
    """What the player may have to add to buy a transport for its presidencies that will have none after
    the next phase change (their transports rust): the late transports cost ₡500-730, more than such a
    corporation usually holds, and a president who cannot pay goes bankrupt (11.6)."""
    top = s.top_transport()
    removed = rules().phase_removes.get(str(top)) if top > int(s.phase) else None
    need = 0
    for corp in s.live_corps():
        c = s.corps[corp]
        if s.president(corp) != player or not c.floated:
            continue
        kept = [t for b in ("LB", "SP") for t in c.transports[b] if removed is None or t > removed]
        if not kept:
            need += max(0, rules().transport_cost[top] - s.cash(C(corp)))
    return need


def _could_take_over(s: State, corp: str, player: str) -> bool:
    """Whether one more share of another's corporation could make the player its president."""
    president = s.president(corp)
    if president == player:
        return False
    held = s.shares.held_percent(corp, P(player)) + 10
    return president is None or held >= s.shares.held_percent(corp, P(president))


def _cr(s: State, rnd: random.Random, style: Style) -> list:
    corp = s.cr.current
    out: list = []
    limit = issue_limit(s, corp)
    wanted = rules().transport_cost[s.top_transport()] + 100      # money for the next transport
    if limit and not s.cr.issued and (not s.corps[corp].floated or s.cash(C(corp)) < wanted) and rnd.random() < 0.8:
        # strong issues all it may: the one price drop is paid anyway, and the money buys transports sooner
        count = limit if style.issue == "max" else rnd.randint(1, limit)
        out.append(K.IssueShares(count=count))
    if rnd.random() < 4 * style.wander:
        others = [c for c in s.live_corps() if c != corp]
        if others:
            out.append(K.BuyShare(corp=rnd.choice(others), source="ipo"))
    return out + [K.Pass()]


def _or(s: State, player: str, rnd: random.Random, style: Style) -> list:
    op = s.op
    corp = op.corp
    c = s.corps[corp]
    if op.deal:
        return [K.AnswerDeal(accept=acceptable(s, op.deal))]
    if op.pending_un:
        action, t = rnd.choice(un_choices(s))
        return [K.UseUnContract(action=action, transport_type=t), K.UseUnContract(action="none")]
    if op.raising:
        return _raise_money(s, corp, player)
    out: list = []
    if s.owns_private(corp, "P4") and rnd.random() < 0.3:
        out.append(K.PlaceResearchMarker(hex=rnd.choice(bd.research_targets(s.board))))
    out += _buy_private(s, player, rnd)
    if op.step == "tiles":
        if s.owns_private(corp, "P5") and not op.terminal_laid:
            out += [K.LayTerminal(rotation=o["rotation"]) for o in bd.terminal_options(s.board)[:2]]
        for base in rnd.sample(["LB", "SP"], 2):
            if base in op.tile_bases or rnd.random() < style.skip_tiles:
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
        elif not op.moved_transport and rnd.random() < style.wander:
            for base in ("LB", "SP"):
                if c.transports[base]:
                    out.append(K.MoveTransport(from_base=base, transport=c.transports[base][0]))
        out.append(run_command(s, corp))
    elif op.step == "buy":
        out += _buy_transport(s, corp, rnd, style)
    return out + [K.Pass()]


def _buy_private(s: State, player: str, rnd: random.Random) -> list:
    """Sometimes the corporation buys a private (the Space Bridge and the Terminal build), never above its
    face value from another player."""
    privates = [(q, p) for q in s.active_players() for p in s.privates_of(P(q))]
    if not privates or rnd.random() >= 0.2:
        return []
    useful = [(q, p) for q, p in privates if p in ("P3", "P5")]
    owner, private = rnd.choice(useful if useful and rnd.random() < 0.7 else privates)
    spec = rules().privates[private]
    price = rnd.randint(spec.sale_min, spec.sale_max) if owner == player else private_offer(private)
    return [] if price is None else [K.AcquirePrivate(private=private, price=price)]


def _buy_transport(s: State, corp: str, rnd: random.Random, style: Style) -> list:
    c = s.corps[corp]
    out: list = []
    bases = open_bases(s, corp)
    if bases and (c.transport_count() == 0 or rnd.random() < 0.9):
        fewest = min(bases, key=lambda b: (len(c.transports[b]), b != "SP"))
        out.append(K.BuyTransport(base=fewest if rnd.random() < 0.85 else rnd.choice(bases)))
    if bases and rnd.random() < style.wander:
        sellers = [(x, b, t) for x in s.live_corps() if x != corp for b in ("LB", "SP")
                   for t in s.corps[x].transports[b]]
        if sellers:
            x, b, t = rnd.choice(sellers)
            price = transport_offer(s, t, s.cash(C(corp)))
            if price is not None:
                out.append(K.BuyTransport(base=rnd.choice(bases), from_corp=x, from_base=b, transport=t,
                                          price=price))
    return out


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
