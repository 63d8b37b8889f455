"""One move of the site as Starbase commands: `translate(replay, move, rest)` submits them and returns
how many of the following moves it used too (a swap's "choose", the Terminal's or the Old Landing
Site's depot token).

Round by round (the site's action names; its facts from its public code and saved games):
- auction: `bid` on the first company at its price buys it, any other `bid` is a bid; `pass`;
  the Old Landing Site `lay_tile` (and `place_token` on a double-depot tile) by the OLS minor.
- stock round: `par`, `buy_shares` (from the IPO or the pool; from a corporation's treasury it starts a
  swap finished by the player's `choose`; by the company TC it is the Tunnel Company's free share),
  `sell_shares`, `pass`.
- corporate round: `buy_shares`, `sell_shares` (of its own IPO: an issue), `pass`.
- operating round: `lay_tile` (the base from the site's use_graph), the Terminal's `lay_tile` and
  `place_token` by T, `place_token`, `choose` (move the transport at that index to the other base),
  `run_routes`, `buy_train`, `buy_company`, `assign` (the Research Lab), emergency `sell_shares`,
  `bankrupt`. The site's `pass` inside a turn is implied by its next action (`Replay.reach`).
"""
from __future__ import annotations

from kit18xx.shares import IPO, POOL
from moon21 import commands as K
from moon21.board.geometry import TILES
from moon21.site18xx.importer import Diverged
from moon21.site18xx.names import cert_corp, par_of, private_of, split_city, tile_name
from moon21.site18xx.or_moves import translate_or


def translate(replay, move, rest) -> int:
    s = replay.state
    if s.ended:
        raise Diverged("GAME_OVER", "the game is already over here")
    if s.ols_pending:
        return _ols(replay, move, rest)
    if move.type == "pass" and move.action.get("entity_type") != "player" and s.kind in ("ISR", "SR"):
        return 0        # a corporation's last pass of a turn that has already ended here
    handler = {"ISR": _auction, "SR": _stock, "CR": _corporate, "OR": translate_or}[s.kind]
    return handler(replay, move, rest) or 0


def player_of(move) -> str:
    return str(move.entity)


def company_actor(replay, company: str) -> str | None:
    owner = replay.state.private_owner.get(private_of(company), "")
    if owner.startswith("p:"):
        return owner[2:]
    if owner.startswith("c:"):
        return replay.president(owner[2:])
    return None


# -- the initial stock round ------------------------------------------------------------------------

def _auction(replay, move, rest) -> int:
    s, a = replay.state, move.action
    if move.type == "pass":
        replay.submit(move.index, player_of(move), K.Pass())
    elif move.type == "bid":
        private = private_of(a["company"])
        auction = s.auction
        if not auction.resolving and private == auction.first and a["price"] == auction.price[private]:
            replay.submit(move.index, player_of(move), K.BuyPrivate(private=private))
        else:
            replay.submit(move.index, player_of(move), K.BidOnPrivate(private=private, amount=a["price"]))
    else:
        raise Diverged("UNMAPPED", f"{move.type} has no meaning in the initial stock round")
    return 0


def _ols(replay, move, rest) -> int:
    a = move.action
    if move.type != "lay_tile" or move.entity != "OLS":
        raise Diverged("OLS_PENDING", "the Old Landing Site tile is placed before anything else")
    tile = tile_name(a["tile"])
    depot, used = 0, 0
    if len(TILES[tile].slots) > 1 and rest and rest[0].type == "place_token" and rest[0].entity == "OLS":
        depot, used = split_city(rest[0].action["city"])[1], 1
    replay.submit(move.index, replay.state.ols_pending,
                  K.PlaceOldLandingSite(hex=a["hex"], tile=tile, rotation=a["rotation"], depot=depot))
    replay.shadow.tiles[a["tile"]] = a["hex"]
    return used


# -- stock and corporate rounds ------------------------------------------------------------------

def _count(certs) -> int:
    return sum(2 if str(c).endswith("_0") else 1 for c in certs)


def source_of(replay, cert: str, buyer: str) -> str:
    """Where the named certificate comes from: the site's record of it, checked against ours."""
    s = replay.state
    corp = cert_corp(cert)
    has = lambda holder: bool(s.shares.ordinary_certs(corp, holder))          # noqa: E731
    seen = replay.shadow.cert_at(cert)
    if seen in (IPO, POOL) or seen.startswith("c:"):
        if has(seen):
            return seen
    ours = s.shares.location.get(cert, "")
    if (ours in (IPO, POOL) or ours.startswith("c:")) and ours != buyer and has(ours):
        return ours
    for holder in (IPO, POOL):
        if has(holder):
            return holder
    raise Diverged("NO_SUCH_SHARE", f"no {corp} certificate lies where {cert} could come from")


def _stock(replay, move, rest) -> int:
    a, s = move.action, replay.state
    if move.type == "pass":
        replay.submit(move.index, player_of(move), K.Pass())
    elif move.type == "par":
        corp = a["corporation"]
        replay.submit(move.index, player_of(move), K.StartCorporation(corp=corp, par=par_of(a["share_price"])))
        replay.shadow.moved([f"{corp}_0"], f"p:{player_of(move)}")
    elif move.type == "sell_shares":
        certs = a["shares"]
        replay.submit(move.index, player_of(move), K.SellShares(corp=cert_corp(certs[0]), count=_count(certs)))
        replay.shadow.moved(certs, POOL)
    elif move.type == "buy_shares" and move.action.get("entity_type") == "company":
        cert = a["shares"][0]
        replay.submit(move.index, company_actor(replay, move.entity), K.TakeTunnelShare(corp=cert_corp(cert)))
        replay.shadow.moved([cert], "p:" + (company_actor(replay, move.entity) or ""))
    elif move.type == "buy_shares":
        return _player_buys(replay, move, rest)
    else:
        raise Diverged("UNMAPPED", f"{move.type} has no meaning in a stock round")
    return 0


def _player_buys(replay, move, rest) -> int:
    player = player_of(move)
    cert = move.action["shares"][0]
    source = source_of(replay, cert, f"p:{player}")
    if not source.startswith("c:"):
        replay.submit(move.index, player, K.BuyShare(corp=cert_corp(cert), source=source))
        replay.shadow.moved([cert], f"p:{player}")
        return 0
    choice = rest[0] if rest and rest[0].type == "choose" and player_of(rest[0]) == player else None
    if choice is None:
        raise Diverged("SWAP_UNFINISHED", "a share from a treasury is a swap: the player's choose must follow")
    s = replay.state
    give_corp = str(choice.action["choice"])
    mine = [c for c in s.shares.ordinary_certs(give_corp, f"p:{player}") if c not in s.swapped]
    if not mine:
        raise Diverged("NO_SUCH_SHARE", f"{player} holds no {give_corp} certificate to give")
    if choice.action.get("give") in mine:      # a Starbase export names the certificate given
        mine = [choice.action["give"]]
    take = cert if s.shares.location.get(cert) == source else s.shares.ordinary_certs(cert_corp(cert), source)[0]
    replay.submit(move.index, player, K.SwapCertificate(corp=source[2:], take=take, give=mine[0]))
    replay.shadow.moved([cert], f"p:{player}")
    replay.shadow.moved([mine[0]], source)
    return 1


def _corporate(replay, move, rest) -> int:
    a, s = move.action, replay.state
    corp = str(move.entity)
    actor = replay.president(corp)
    if move.type == "pass":
        replay.submit(move.index, actor, K.Pass())
    elif move.type == "buy_shares":
        cert = a["shares"][0]
        replay.submit(move.index, actor, K.BuyShare(corp=cert_corp(cert), source=source_of(replay, cert, f"c:{corp}")))
        replay.shadow.moved([cert], f"c:{corp}")
    elif move.type == "sell_shares":
        certs = a["shares"]
        target = cert_corp(certs[0])
        own_ipo = target == corp and replay.shadow.cert_at(certs[0]) == IPO
        command = K.IssueShares(count=_count(certs)) if own_ipo else \
            K.SellShares(corp=target, count=_count(certs), seller="corporation")
        replay.submit(move.index, actor, command)
        replay.shadow.moved(certs, POOL)
    else:
        raise Diverged("UNMAPPED", f"{move.type} has no meaning in a corporate round")
    return 0

