"""What each adventure card does (numbers from data/cards.yaml), as scripts over `cards.Script`."""
from __future__ import annotations

from trucker_rules import building, track
from trucker_rules import flight_messages as f
from trucker_rules import shipvalues as sv
from trucker_rules.cards import Emit, Script, weakest


def open_space(s: Script) -> None:
    for p in s.order():
        strength = s.engines(p, f"engines/{p}")
        if not s.done(f"move/{p}"):
            if strength == 0:
                raise Emit([f.ShipGaveUp(player=p, reason="no_engines"), f.Progressed(marker=f"move/{p}")])
            raise Emit([s.moved(p, strength), f.Progressed(marker=f"move/{p}")])


def planets(s: Script) -> None:
    worlds = s.card["planets"]
    for p in s.order():
        key = f"planet/{p}"
        if key in s.step["answers"]:
            continue
        taken = {v for k, v in s.step["answers"].items() if k.startswith("planet/") and v is not None}
        free = [i for i in range(len(worlds)) if i not in taken]
        if not free:
            raise Emit([f.DecisionTaken(player=p, key=key, value=None)])
        s.choice(p, "planet", key, {"free": free, "planets": [worlds[i] for i in free], "days": s.card["days_lost"]})
    landed = [p for p in s.order() if s.step["answers"].get(f"planet/{p}") is not None]
    for p in landed:
        s.load(p, worlds[s.step["answers"][f"planet/{p}"]], f"load/{p}")
    for p in reversed(track.flying(s.state)):      # days are lost from the rearmost ship forward
        if p in landed and not s.done(f"days/{p}"):
            raise Emit([s.moved(p, -s.card["days_lost"]), f.Progressed(marker=f"days/{p}")])


def abandoned_ship(s: Script) -> None:
    if s.done("taken"):
        return
    for p in s.order():
        if f"offer/{p}" not in s.step["answers"] and s.ship(p).crew() < s.card["crew_lost"]:
            continue                       # too few crew to accept (checked before giving any up)
        offer = {"crew_lost": s.card["crew_lost"], "credits": s.card["credits"], "days": s.card["days_lost"]}
        if s.choice(p, "offer", f"offer/{p}", offer):
            s.lose_crew(p, s.card["crew_lost"], f"crew/{p}")
            raise Emit([f.CreditsPaid(player=p, amount=s.card["credits"], reason="abandoned_ship"),
                        s.moved(p, -s.card["days_lost"]), f.Progressed(marker="taken")])


def abandoned_station(s: Script) -> None:
    if s.done("taken"):
        return
    for p in s.order():
        if s.ship(p).crew() < s.card["crew_required"]:
            continue
        if s.choice(p, "offer", f"offer/{p}", {"goods": s.card["goods"], "days": s.card["days_lost"]}):
            s.load(p, s.card["goods"], f"load/{p}")
            raise Emit([s.moved(p, -s.card["days_lost"]), f.Progressed(marker="taken")])


def meteor_swarm(s: Script) -> None:
    for i, meteor in enumerate(s.card["meteors"]):
        ships = s.order()
        if not ships:
            return
        line = s.roll(f"roll/{i}")
        for p in ships:
            s.hazard(p, f"meteor{i}/{p}", meteor["size"] + "_meteor", meteor["from"], line)


def combat_zone(s: Script) -> None:
    if s.lone():
        return
    for j, line in enumerate(s.card["lines"]):
        if s.lone():
            return
        test = line["weakest_in"]
        values = {}
        for p in s.order():
            if test == "crew":
                values[p] = s.ship(p).crew()
            elif test == "engine_power":
                values[p] = s.engines(p, f"zone{j}/engines/{p}")
            else:
                values[p] = s.firepower(p, f"zone{j}/cannons/{p}")
        if not values:
            return
        loser = weakest(s, f"zone{j}/weakest", values)
        if loser not in s.order():
            continue
        penalty = line["penalty"]
        key = f"zone{j}/penalty"
        if "days_lost" in penalty and not s.done(key):
            raise Emit([s.moved(loser, -penalty["days_lost"]), f.Progressed(marker=key)])
        if "crew_lost" in penalty:
            s.lose_crew(loser, penalty["crew_lost"], key)
        if "goods_lost" in penalty:
            s.lose_goods(loser, penalty["goods_lost"], key)
        for k, shot in enumerate(penalty.get("cannon_fire", [])):
            if loser not in s.order():
                break
            number = s.roll(f"zone{j}/shot{k}")
            s.hazard(loser, f"zone{j}/shot{k}/{loser}", shot["strength"] + "_fire", shot["from"], number)


def enemies(s: Script) -> None:
    kind, strength = s.card["type"], s.card["firepower"]
    for p in s.order():
        if s.done("defeated"):
            break
        power = s.firepower(p, f"fp/{p}")
        if power > strength:
            reward = s.card["reward"]
            if s.choice(p, "offer", f"reward/{p}", {"reward": reward, "days": s.card["days_lost"]}):
                gain = []
                if "credits" in reward:
                    gain = [f.CreditsPaid(player=p, amount=reward["credits"], reason=kind)]
                else:
                    s.load(p, reward["goods"], f"load/{p}")
                raise Emit(gain + [s.moved(p, -s.card["days_lost"]), f.Progressed(marker="defeated")])
            raise Emit([f.Progressed(marker="defeated")])
        if power < strength:
            penalty = s.card["defeat_penalty"]
            if kind == "smugglers":
                s.lose_goods(p, penalty["goods_lost"], f"beaten/{p}")
            elif kind == "slavers":
                s.lose_crew(p, penalty["crew_lost"], f"beaten/{p}")
            elif not s.done(f"beaten/{p}"):
                raise Emit([f.Progressed(marker=f"beaten/{p}")])
    if kind != "pirates":
        return
    shared = s.state.options.get("pirates_shared_roll", True)
    for k, shot in enumerate(s.card["defeat_penalty"]["cannon_fire"]):
        beaten = [p for p in s.order() if s.done(f"beaten/{p}")]
        if not beaten:
            return
        for p in beaten:
            number = s.roll(f"shot{k}" if shared else f"shot{k}/{p}")
            s.hazard(p, f"shot{k}/{p}", shot["strength"] + "_fire", shot["from"], number)


def stardust(s: Script) -> None:
    order = track.flying(s.state)
    if s.state.options.get("stardust_from_rear", True):
        order = order[::-1]
    for p in order:
        if not s.done(f"dust/{p}"):
            exposed = building.exposed_connectors(s.ship(p))
            raise Emit(([s.moved(p, -exposed)] if exposed else []) + [f.Progressed(marker=f"dust/{p}")])


def epidemic(s: Script) -> None:
    if s.done("epidemic"):
        return
    events = []
    for p in s.order():
        ship = s.ship(p)
        occupied = set(sv.occupied_cabins(ship))
        losses = []
        for square in sorted(occupied):
            if any(other in occupied and _joined(ship, square, other) for other in _neighbours(square)):
                losses.append((square, "human") if ship.humans.get(square, 0) else (square, ship.aliens[square]))
        if losses:
            events.append(f.CrewLost(player=p, losses=losses))
    raise Emit(events + [f.Progressed(marker="epidemic")])


def _neighbours(square):
    from trucker_rules.catalog import DIRECTIONS, neighbour
    return [neighbour(square, d) for d in DIRECTIONS]


def _joined(ship, a, b) -> bool:
    from trucker_rules.catalog import DIRECTIONS, neighbour, opposite
    for d in DIRECTIONS:
        if neighbour(a, d) == b:
            pa, pb = ship.tiles[a], ship.tiles[b]
            return building.joint(pa.tile.side(d, pa.rotation), pb.tile.side(opposite(d), pb.rotation)) == "real"
    return False


def sabotage(s: Script) -> None:
    if s.lone():
        return
    target = weakest(s, "target", {p: s.ship(p).crew() for p in s.order()})
    if target not in s.order():
        return
    if s.done("hit"):
        s.keep_part(target, "hit")
        return
    for attempt in range(3):
        square = (s.roll(f"try{attempt}/column"), s.roll(f"try{attempt}/row"))
        ship = s.ship(target)
        met = dict(player=target, hazard="sabotage", direction="front", line=square[0], square=square)
        if square in ship.tiles:
            raise Emit([f.HazardMet(**met, result="destroyed"),
                        f.ComponentDestroyed(player=target, square=square, component=ship.tiles[square].component),
                        f.Progressed(marker="hit")])


RESOLVERS = {
    "open_space": open_space, "planets": planets, "abandoned_ship": abandoned_ship,
    "abandoned_station": abandoned_station, "meteor_swarm": meteor_swarm, "combat_zone": combat_zone,
    "smugglers": enemies, "slavers": enemies, "pirates": enemies, "stardust": stardust,
    "epidemic": epidemic, "sabotage": sabotage,
}
