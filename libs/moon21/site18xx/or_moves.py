"""Operating-round moves of the site as Starbase commands (see `translate` for the list)."""
from __future__ import annotations

from moon21 import commands as K
from moon21.site18xx.importer import Diverged
from moon21.site18xx.names import (
    SLOT_BASE, cert_corp, private_of, split_city, stop_of, tile_name, train_type,
)

OTHER = {"LB": "SP", "SP": "LB"}
GRAPH_BASES = {"LB": ["LB"], "SP": ["SP"], "BOTH": ["LB", "SP"], None: ["LB", "SP"]}


def is_or_move(replay, move) -> bool:
    """Does this move belong to the operating round under way (rather than to a later round)?"""
    if move.action.get("entity_type") in ("corporation", "company", "minor"):
        return True
    op = replay.state.op
    return op is not None and move.type in ("sell_shares", "bankrupt") and \
        replay.president(op.corp) == str(move.entity)


def operating_corp(replay, move) -> str:
    kind = move.action.get("entity_type")
    if kind == "corporation":
        return str(move.entity)
    if kind == "company":
        owner = replay.state.private_owner.get(private_of(move.entity), "")
        if not owner.startswith("c:"):
            raise Diverged("NOT_OWNER", f"{move.entity} is not owned by a corporation here")
        return owner[2:]
    if replay.state.op is None:
        raise Diverged("NO_OPERATING_TURN", "no corporation is operating")
    return replay.state.op.corp


def translate_or(replay, move, rest) -> int:
    from moon21.site18xx.translate import company_actor
    if not is_or_move(replay, move):
        replay.end_round()
        from moon21.site18xx.translate import translate
        return translate(replay, move, rest)
    if move.type == "pass":
        return _pass(replay, move, rest)
    corp = operating_corp(replay, move)
    replay.turn_of(corp)
    if replay.state.op is None or replay.state.op.corp != corp:
        raise Diverged("NOT_ITS_TURN", f"{corp} is not operating here")
    actor = company_actor(replay, move.entity) if move.action.get("entity_type") == "company" \
        else replay.president(corp)
    handler = HANDLERS.get(move.type)
    if handler is None:
        raise Diverged("UNMAPPED", f"{move.type} has no meaning in an operating round")
    return handler(replay, move, rest, corp, actor) or 0


BUY_STEP_MOVES = ("buy_train", "buy_company", "sell_shares", "bankrupt")


def _pass(replay, move, rest) -> int:
    """The site's pass ends one of its steps. It is our Pass when our turn is at a step a Pass ends
    (tiles, token; buy when the turn really ends there); a pass of a step we do not have (the site's
    last "buy company" pass, a step we skipped) stands for nothing."""
    op = replay.state.op
    if op is None or operating_corp(replay, move) != op.corp:
        return 0
    actor = replay.president(op.corp)
    if op.pending_un:
        replay.submit(move.index, actor, K.UseUnContract(action="none"))
        return 0
    following = rest[0] if rest else None
    turn_goes_on = following is not None and following.type in BUY_STEP_MOVES and \
        (following.entity == move.entity or is_or_move(replay, following) and
         following.action.get("entity_type") == "player")
    if op.step == "run" or (op.step == "buy" and turn_goes_on):
        return 0
    replay.submit(move.index, actor, K.Pass())
    return 0


# -- tiles and tokens ----------------------------------------------------------------------------

def _lay(replay, move, rest, corp, actor) -> int:
    a = move.action
    if move.entity == "T":
        token = bool(rest) and rest[0].type == "place_token" and rest[0].entity == "T"
        replay.submit(move.index, actor, K.LayTerminal(rotation=a["rotation"], place_depot=token))
        _laid(replay, a)
        return 1 if token else 0
    used = replay.state.op.tile_bases
    bases = [OTHER[used[0]]] if used else list(GRAPH_BASES.get(move.graph, ["LB", "SP"]))
    follow = rest[0] if rest and rest[0].type == "lay_tile" and rest[0].entity == move.entity else None
    if not used and len(bases) == 2 and follow is not None:
        bases.sort(key=lambda b: not _pair_works(replay, corp, actor, a, b, follow.action))
    replay.try_first(move.index, actor, [_lay_command(a, b) for b in bases])
    _laid(replay, a)
    return 0


def _lay_command(a: dict, base: str) -> K.LayTile:
    return K.LayTile(base=base, hex=a["hex"], tile=tile_name(a["tile"]), rotation=a["rotation"])


def _pair_works(replay, corp, actor, first: dict, base: str, second: dict) -> bool:
    """Would both lays be accepted with the first from `base` and the second from the other base?"""
    from moon21.game import GAME
    from starbase_rules.contract import RuleViolation, fold
    try:
        state = fold(GAME, GAME.decide(replay.state, _lay_command(first, base), actor, None),
                     GAME.copy_state(replay.state))
        GAME.decide(state, _lay_command(second, OTHER[base]), actor, None)
    except RuleViolation:
        return False
    return True


def _laid(replay, a: dict) -> None:
    tiles = replay.shadow.tiles
    for copy in [c for c, h in tiles.items() if h == a["hex"]]:
        del tiles[copy]
    tiles[a["tile"]] = a["hex"]


def hex_of_city(replay, city: str) -> tuple[str, int]:
    copy, depot = split_city(city)
    hex_id = replay.shadow.tiles.get(copy)
    if hex_id is None:                  # a pre-printed tile: "HEX-i"
        hex_id = copy.rpartition("-")[0]
    return hex_id, depot


def _token(replay, move, rest, corp, actor) -> int:
    if move.entity == "T":
        raise Diverged("UNMAPPED", "the Terminal's token goes with the Terminal's tile")
    hex_id, depot = hex_of_city(replay, move.action["city"])
    replay.submit(move.index, actor, K.PlaceDepot(hex=hex_id, depot=depot))
    return 0


# -- transports ------------------------------------------------------------------------------------

def _choose(replay, move, rest, corp, actor) -> int:
    choice = str(move.action["choice"])
    if replay.state.op.pending_un:
        action = "add" if choice.startswith("+") else "remove"
        replay.submit(move.index, actor, K.UseUnContract(action=action, transport_type=int(choice[1:])))
        return 0
    held = replay.shadow.train_list(corp)
    site_id, base = held[int(choice)]
    replay.submit(move.index, actor, K.MoveTransport(from_base=base, transport=train_type(site_id)))
    held[int(choice)][1] = OTHER[base]
    return 0


def _run(replay, move, rest, corp, actor) -> int:
    runs: dict[str, list[dict]] = {"LB": [], "SP": []}
    recorded = {"LB": 0, "SP": 0}
    for route in move.action.get("routes") or []:
        base = replay.shadow.base_of(corp, route["train"])
        runs[base].append({"transport": train_type(route["train"]), "stops": [stop_of(n) for n in route["nodes"]]})
        recorded[base] += int(route.get("revenue", 0))
    replay.reach("run")
    events = replay.submit(move.index, actor, K.RunTransports(runs=runs))
    earned = {e.base: e.revenue for e in events if e.type == "TransportsRun"}
    for base in ("LB", "SP"):
        if earned.get(base, 0) != recorded[base]:
            raise Diverged("REVENUE_DIFFERS", f"the {base} base earns ₡{earned.get(base, 0)} here, "
                                              f"₡{recorded[base]} on the site")
    replay.result.checks["runs"] += 1
    return 0


def _buy_train(replay, move, rest, corp, actor) -> int:
    a = move.action
    base = SLOT_BASE[int((a.get("slots") or [0])[0])]
    seller = replay.shadow.owner_of(a["train"])
    replay.reach("buy")
    if seller is not None and seller[0] != corp:
        command = K.BuyTransport(base=base, from_corp=seller[0], from_base=seller[1],
                                 transport=train_type(a["train"]), price=a["price"])
    else:
        command = K.BuyTransport(base=base)       # the top of the stack: checked against the site's below
    replay.shadow.pending_train = a["train"]
    events = _with_consent(replay, move, actor, command)
    bought = [e for e in events if e.type == "TransportBought"]
    if not bought or bought[0].transport != train_type(a["train"]):
        raise Diverged("TRANSPORT_DIFFERS", f"a type {bought[0].transport if bought else None} transport "
                                            f"is bought here, a {a['train']} on the site")
    if bought[0].price != a["price"]:
        raise Diverged("PRICE_DIFFERS", f"the transport costs ₡{bought[0].price} here, ₡{a['price']} on the site")
    replay.result.checks["purchases"] += 1
    return 0


def _with_consent(replay, move, actor, command) -> list:
    """Submit; where Starbase asks the other party to agree (the site does not ask), they agree."""
    events = replay.submit(move.index, actor, command)
    deal = replay.state.op.deal if replay.state.op else None
    if deal:
        events = replay.submit(move.index, deal["seller"], K.AnswerDeal(accept=True))
    return events


def _buy_company(replay, move, rest, corp, actor) -> int:
    a = move.action
    _with_consent(replay, move, actor, K.AcquirePrivate(private=private_of(a["company"]), price=a["price"]))
    return 0


def _assign(replay, move, rest, corp, actor) -> int:
    replay.submit(move.index, actor, K.PlaceResearchMarker(hex=move.action["target"]))
    return 0


def _sell(replay, move, rest, corp, actor) -> int:
    certs = move.action["shares"]
    count = sum(2 if str(c).endswith("_0") else 1 for c in certs)
    replay.reach("buy")
    if move.action.get("entity_type") == "corporation":
        command = K.SellShares(corp=cert_corp(certs[0]), count=count, seller="corporation")
    else:
        actor = str(move.entity)
        command = K.SellShares(corp=cert_corp(certs[0]), count=count)
    replay.submit(move.index, actor, command)
    replay.shadow.moved(certs, "pool")
    return 0


def _bankrupt(replay, move, rest, corp, actor) -> int:
    replay.reach("buy")
    replay.submit(move.index, actor, K.DeclareBankruptcy())
    return 0


HANDLERS = {"lay_tile": _lay, "place_token": _token, "choose": _choose, "run_routes": _run,
            "buy_train": _buy_train, "buy_company": _buy_company, "assign": _assign,
            "sell_shares": _sell, "bankrupt": _bankrupt}
