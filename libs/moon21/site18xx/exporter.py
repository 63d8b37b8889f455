"""A game played here as the site's saved game: `export_game(setup_events, commands)`.

Each accepted command (with the events it produced) becomes the site's action(s); the identifiers the
site uses and Starbase does not (tile copies, transport copies, certificates) are numbered here the way
the site numbers them (the lowest free copy; transports of a type in purchase order). Forced passes
are played by the engine in both places and leave no action.

The site's swap names only the corporation whose certificate is given; the export adds the
certificate (`give`, which the site ignores) so that an import gives the same one.
Two things have no action on the site: a proposal the other player declined (the site asks nobody's
consent), and the setup (the site re-draws the minerals from its seed). The setup is kept in the file's
`starbase` key, which `import_game` reads and the site ignores: an exported game replays exactly
through `starbase import 18xx`, not on the site itself.
"""
from __future__ import annotations

from moon21 import commands as K
from moon21.game import GAME
from moon21.site18xx.names import BASE_SLOT, PRIVATES, node_of
from starbase_rules.contract import fold


class Exporter:
    def __init__(self, setup_events: list):
        self.state = fold(GAME, setup_events)
        self.actions: list[dict] = []
        self.copies: dict[str, str] = {}          # hex -> site tile copy on it
        self.trains: dict[str, list[list]] = {}   # corp -> [[site id, base], ...] in the site's order
        self.bought: dict[int, int] = {}          # type -> copies bought from the stack so far
        self.handled: set[int] = set()            # purchases given an action (others were automatic)

    def add(self, actor: str, command, events: list) -> None:
        before = self.state
        actions = self._actions(before, actor, command, events)
        self.state = fold(GAME, events, before)
        for action in actions:
            action["id"] = len(self.actions) + 1
            self.actions.append(action)
        self._follow(events)

    # -- one command ---------------------------------------------------------------------------------
    def _actions(self, s, actor: str, cmd, events: list) -> list[dict]:
        kind = "corporation"
        entity = s.op.corp if s.kind == "OR" and s.op else s.cr.current if s.kind == "CR" else None
        if isinstance(cmd, K.Pass):
            return [_act("pass", entity, kind) if entity else _act("pass", actor, "player")]
        if isinstance(cmd, K.AnswerDeal):           # the site asks no consent: an accepted deal is the
            return self._purchases(events, s.op.corp)   # purchase itself, a declined one leaves nothing
        handler = getattr(self, f"_{cmd.type}", None)
        if handler is None:
            raise ValueError(f"{cmd.type} has no action on the site")
        return handler(s, actor, cmd, events, entity)

    def _BuyPrivate(self, s, actor, cmd, events, entity):
        return [_act("bid", actor, "player", company=PRIVATES[cmd.private], price=s.auction.price[cmd.private])]

    def _BidOnPrivate(self, s, actor, cmd, events, entity):
        return [_act("bid", actor, "player", company=PRIVATES[cmd.private], price=cmd.amount)]

    def _PlaceOldLandingSite(self, s, actor, cmd, events, entity):
        copy = self._copy(cmd.tile, cmd.hex)
        out = [_act("lay_tile", "OLS", "minor", hex=cmd.hex, tile=copy, rotation=cmd.rotation)]
        if len(_slots(cmd.tile)) > 1:
            out.append(_act("place_token", "OLS", "minor", city=f"{copy}-{cmd.depot}", slot=0, tokener="OLS"))
        return out

    def _StartCorporation(self, s, actor, cmd, events, entity):
        row, col = s.grid.par_box(cmd.par)
        return [_act("par", actor, "player", corporation=cmd.corp, share_price=f"{cmd.par},{row},{col}")]

    def _BuyShare(self, s, actor, cmd, events, entity):
        cert = next(e.cert for e in events if e.type == "ShareBought")
        who, kind = (entity, "corporation") if s.kind == "CR" else (actor, "player")
        return [_act("buy_shares", who, kind, shares=[cert], percent=10)]

    def _SellShares(self, s, actor, cmd, events, entity):
        sold = next(e for e in events if e.type == "SharesSold")
        who, kind = (sold.seller[2:], "corporation") if sold.seller.startswith("c:") else (actor, "player")
        return [_act("sell_shares", who, kind, shares=list(sold.certs), percent=10 * cmd.count)]

    def _IssueShares(self, s, actor, cmd, events, entity):
        issued = next(e for e in events if e.type == "SharesIssued")
        return [_act("sell_shares", entity, "corporation", shares=list(issued.certs), percent=10 * cmd.count)]

    def _SwapCertificate(self, s, actor, cmd, events, entity):
        return [_act("buy_shares", actor, "player", shares=[cmd.take], percent=10),
                _act("choose", actor, "player", choice=cmd.give.rsplit("_", 1)[0], give=cmd.give)]

    def _TakeTunnelShare(self, s, actor, cmd, events, entity):
        cert = next(e.cert for e in events if e.type == "TunnelShareTaken")
        return [_act("buy_shares", "TC", "company", shares=[cert], percent=10)]

    def _LayTile(self, s, actor, cmd, events, entity):
        action = _act("lay_tile", entity, "corporation", hex=cmd.hex, tile=self._copy(cmd.tile, cmd.hex),
                      rotation=cmd.rotation)
        if not s.op.tile_bases:
            action["auto_actions"] = [_act("use_graph", entity, "corporation", graph_id=cmd.base)]
        return [action]

    def _LayTerminal(self, s, actor, cmd, events, entity):
        laid = next(e for e in events if e.type == "TileLaid")
        copy = self._copy(laid.tile, laid.hex)
        out = [_act("lay_tile", "T", "company", hex=laid.hex, tile=copy, rotation=cmd.rotation)]
        if any(e.type == "DepotPlaced" for e in events):
            out.append(_act("place_token", "T", "company", city=f"{copy}-0", slot=0, tokener=entity))
        return out

    def _PlaceDepot(self, s, actor, cmd, events, entity):
        slot = len(s.board.occupants(cmd.hex, cmd.depot))
        return [_act("place_token", entity, "corporation", city=f"{self.copies[cmd.hex]}-{cmd.depot}",
                     slot=slot, tokener=entity)]

    def _PlaceResearchMarker(self, s, actor, cmd, events, entity):
        return [_act("assign", "RL", "company", target=cmd.hex, target_type="hex")]

    def _MoveTransport(self, s, actor, cmd, events, entity):
        held = self.trains.setdefault(entity, [])
        index = next(i for i, (site_id, base) in enumerate(held)
                     if base == cmd.from_base and int(site_id.split("-")[0]) == cmd.transport)
        held[index][1] = "SP" if cmd.from_base == "LB" else "LB"
        return [_act("choose", entity, "corporation", choice=str(index))]

    def _RunTransports(self, s, actor, cmd, events, entity):
        """The runs in the command's order (the order an import sends them back in), priced by the events."""
        earned = {(e.base, r["transport"], tuple(r["stops"])): r["revenue"]
                  for e in events if e.type == "TransportsRun" for r in e.runs}
        routes, used = [], set()
        for base in ("LB", "SP"):
            for run in cmd.runs.get(base, []):
                site_id = next(t for t, held_at in self.trains.get(entity, [])
                               if held_at == base and int(t.split("-")[0]) == run["transport"] and t not in used)
                used.add(site_id)
                nodes = [node_of(stop) for stop in run["stops"]]
                routes.append({"train": site_id, "nodes": nodes, "hexes": [n.split("-")[0] for n in nodes],
                               "revenue": earned.get((base, run["transport"], tuple(run["stops"])), 0),
                               "revenue_str": "-".join(n.split("-")[0] for n in nodes)})
        return [_act("run_routes", entity, "corporation", routes=routes, extra_revenue=0, subsidy=0)]

    def _BuyTransport(self, s, actor, cmd, events, entity):
        return self._purchases(events, entity)     # none yet if the seller's consent is asked

    def _AcquirePrivate(self, s, actor, cmd, events, entity):
        return self._purchases(events, entity)

    def _purchases(self, events: list, entity: str) -> list[dict]:
        out = []
        for e in events:
            if e.type == "TransportBought":
                out.append(self._buy_train(e))
            elif e.type == "PrivateSold":
                out.append(_act("buy_company", e.corp, "corporation", company=PRIVATES[e.private], price=e.price))
        return out

    def _UseUnContract(self, s, actor, cmd, events, entity):
        if cmd.action == "none":
            return [_act("pass", entity, "corporation")]
        sign = "+" if cmd.action == "add" else "-"
        return [_act("choose", entity, "corporation", choice=f"{sign}{cmd.transport_type}")]

    def _DeclareBankruptcy(self, s, actor, cmd, events, entity):
        return [_act("bankrupt", entity, "corporation")]

    # -- identifiers -----------------------------------------------------------------------------------
    def _copy(self, tile: str, hex_id: str) -> str:
        """The lowest copy of `tile` not on the map (the site's numbering), now lying in `hex_id`."""
        on_map = set(self.copies.values())
        number = next(n for n in range(1000) if f"{tile}-{n}" not in on_map)
        self.copies[hex_id] = f"{tile}-{number}"
        return self.copies[hex_id]

    def _buy_train(self, bought) -> dict:
        self.handled.add(id(bought))
        corp = bought.corp
        if bought.from_corp:
            seller = self.trains.setdefault(bought.from_corp, [])
            pick = next(t for t in seller if t[1] == bought.from_base and int(t[0].split("-")[0]) == bought.transport)
            seller.remove(pick)
            site_id = pick[0]
        else:
            number = self.bought.get(bought.transport, 0)
            self.bought[bought.transport] = number + 1
            site_id = f"{bought.transport}-{number}"
        self.trains.setdefault(corp, []).append([site_id, bought.base])
        return _act("buy_train", corp, "corporation", train=site_id, price=bought.price,
                    variant=str(bought.transport), slots=[BASE_SLOT[bought.base]])

    def _follow(self, events: list) -> None:
        """What happens without an action: scrapped transports, closed corporations, automatic buys."""
        for e in events:
            if e.type == "PhaseChanged" and e.removed_type is not None:
                for held in self.trains.values():
                    held[:] = [t for t in held if int(t[0].split("-")[0]) != e.removed_type]
            elif e.type == "CorporationClosed":
                self.trains[e.corp] = []
            elif e.type == "TransportBought" and id(e) not in self.handled:
                self._buy_train(e)                # a receivership corporation buys by itself

    # -- the file ------------------------------------------------------------------------------------
    def game_file(self, game_id: str, names: dict[str, str] | None = None) -> dict:
        s = self.state
        players = [{"id": p, "name": (names or {}).get(p, p)} for p in s.players]
        outcome = GAME.outcome(s)
        return {
            "id": game_id, "title": "21Moon", "description": "exported from Starbase",
            "players": players, "min_players": 2, "max_players": 5,
            "settings": {"seed": None, "auto_routing": s.option("maximum_revenue") == "enforced",
                         "optional_rules": []},
            "status": "finished" if outcome else "active",
            "result": {row.player: int(row.score) for row in outcome.standings} if outcome else {},
            "actions": self.actions,
            "starbase": {"seats": list(s.players), "held_back": s.held_back, "minerals": dict(s.minerals),
                         "options": dict(s.options)},
        }


def _act(kind: str, entity, entity_type: str, **fields) -> dict:
    return {"type": kind, "entity": entity, "entity_type": entity_type, **fields}


def _slots(tile: str) -> tuple:
    from moon21.board.geometry import TILES
    return TILES[tile].slots


def export_game(setup_events: list, commands: list[tuple[str, dict, list]], game_id: str = "",
                names: dict[str, str] | None = None) -> dict:
    """The site's saved game for a Starbase 21Moon game: `commands` are (actor, command as JSON, the
    events it produced) in order, as the stream records them."""
    exporter = Exporter(setup_events)
    for actor, command, events in commands:
        exporter.add(actor, GAME.parse_command(command), events)
    return exporter.game_file(game_id, names)

