"""`legal_actions`: the commands a player may send now, each checked by `decide` (for UIs and tests).

Every client and bot asks this after every event, often many times for one position, so the answer is
kept per position: keyed by the pickled state itself (equal bytes mean an equal position; an equal
position pickled differently is only a miss) and the player. A copy is handed out each time.
"""
from __future__ import annotations

import pickle
from collections import OrderedDict

from kit18xx.shares import corp_of
from moon21 import board as bd
from moon21 import commands as K
from moon21.decide import to_act
from moon21.earnings import best_turn
from moon21.operating import depot_options, tile_options
from moon21.privates import un_choices
from moon21.rules import ols_min_distance, rules
from moon21.state import OR_STEPS, State
from starbase_rules.contract import RuleViolation


_KEPT_POSITIONS = 128
_ANSWERS: OrderedDict[tuple[bytes, str], bytes] = OrderedDict()


def legal_actions(s: State, player: str, decide) -> list[dict]:
    """The candidates that `decide` (the engine's) accepts, as data."""
    if player not in to_act(s):
        return []
    key = (pickle.dumps(s, protocol=pickle.HIGHEST_PROTOCOL), player)
    known = _ANSWERS.get(key)
    if known is not None:
        _ANSWERS.move_to_end(key)
        return pickle.loads(known)
    out = computed_legal_actions(s, player, decide)
    _ANSWERS[key] = pickle.dumps(out, protocol=pickle.HIGHEST_PROTOCOL)
    if len(_ANSWERS) > _KEPT_POSITIONS:
        _ANSWERS.popitem(last=False)
    return out


def computed_legal_actions(s: State, player: str, decide) -> list[dict]:
    """`legal_actions` without the kept answers: every candidate put to `decide`."""
    out = []
    for cmd in _candidates(s, player):
        try:
            decide(s, cmd, player, None)
        except RuleViolation:
            continue
        out.append(cmd.model_dump())
    return out


def _candidates(s: State, player: str) -> list:
    cands: list = [K.Pass()]
    if s.ols_pending:
        return [K.PlaceOldLandingSite(**o) for o in bd.ols_options(s.board, ols_min_distance(s))]
    if s.kind == "ISR":
        a = s.auction
        if a.resolving:
            return cands + [K.BidOnPrivate(private=a.resolving, amount=a.high_bid(a.resolving) + 5)]
        return cands + [K.BuyPrivate(private=a.first)] + [
            K.BidOnPrivate(private=i, amount=a.min_bid(i, 5)) for i in a.line[1:]]
    corps = list(s.corps)
    if s.kind in ("SR", "CR"):
        seller = "player" if s.kind == "SR" else "corporation"
        holder = f"p:{player}" if s.kind == "SR" else f"c:{s.cr.current}"
        held = sorted({corp_of(c) for c in s.shares.certs_held(holder)})
        cands += [K.SellShares(corp=c, count=n, seller=seller) for c in held for n in range(1, 6)]
        cands += [K.BuyShare(corp=c, source=src) for c in corps for src in ("ipo", "pool")]
        if s.kind == "SR":
            cands += [K.StartCorporation(corp=c, par=p) for c in corps for p in rules()["par_prices"]]
            cands += [K.TakeTunnelShare(corp=c) for c in corps]
            for corp in s.live_corps():
                if s.president(corp) == player:
                    mine = [c for c in s.shares.certs_held(f"p:{player}") if not c.endswith("_0")]
                    cands += [K.SwapCertificate(corp=corp, take=t, give=g)
                              for t in s.shares.certs_held(f"c:{corp}") for g in mine]
        else:
            cands += [K.IssueShares(count=n) for n in range(1, 6)]
        return cands
    if s.op is None:
        return cands
    corp = s.op.corp
    c = s.corps[corp]
    if s.op.deal:
        return [K.AnswerDeal(accept=True), K.AnswerDeal(accept=False)]
    step = s.op.step
    cands += [K.UseUnContract(action=a, transport_type=t) for a, t in un_choices(s)]
    # A command bound to other steps is refused there whatever its details (`OR_STEPS`): not even listed.
    if OR_STEPS.allows(step, "LayTile"):
        cands += [K.LayTile(base=b, **{k: o[k] for k in ("hex", "tile", "rotation")})
                  for b in ("LB", "SP") if b not in s.op.tile_bases for o in tile_options(s, corp, b)]
    if OR_STEPS.allows(step, "LayTerminal"):
        cands += [K.LayTerminal(rotation=o["rotation"]) for o in bd.terminal_options(s.board)]
    if OR_STEPS.allows(step, "PlaceDepot"):
        cands += [K.PlaceDepot(hex=o["hex"], depot=o["depot"]) for o in depot_options(s, corp)]
    cands += [K.PlaceResearchMarker(hex=h) for h in bd.research_targets(s.board)] if s.owns_private(corp, "P4") else []
    cands += [K.MoveTransport(from_base=b, transport=t) for b in ("LB", "SP") for t in set(c.transports[b])]
    if OR_STEPS.allows(step, "RunTransports"):
        best = best_turn(s, corp)
        cands.append(K.RunTransports(runs={b: [{"transport": r["transport"], "stops": r["stops"]}
                                               for r in best[b]["runs"]] for b in ("LB", "SP")}))
    if OR_STEPS.allows(step, "BuyTransport"):
        cands += [K.BuyTransport(base=b) for b in ("LB", "SP")]
        for other in s.live_corps():
            for b in ("LB", "SP"):
                for t in set(s.corps[other].transports[b]):
                    cands += [K.BuyTransport(base=nb, from_corp=other, from_base=b, transport=t, price=1)
                              for nb in ("LB", "SP")]
    for private in [p for q in s.active_players() for p in s.privates_of(f"p:{q}")]:
        spec = rules().privates[private]
        cands += [K.AcquirePrivate(private=private, price=p) for p in sorted({spec.sale_min, spec.sale_max})]
    if s.op.raising:
        for holder, seller in ((f"c:{corp}", "corporation"), (f"p:{player}", "player")):
            held = sorted({corp_of(x) for x in s.shares.certs_held(holder)})
            cands += [K.SellShares(corp=x, count=n, seller=seller) for x in held for n in range(1, 6)]
        cands.append(K.DeclareBankruptcy())
    return cands
