"""The adventure cards, each a script re-run from its top after every step.

A script walks its card in printed order. Each unit of work is named by a marker; a unit already done
is skipped, a unit to do raises `Emit` with its events (the caller applies them and runs the script
again), and a decision not yet taken raises `Emit([DecisionRequested])`. A script that returns has
finished its card. Dice are rolled once per key and kept in the step, so a re-run sees the same roll.
"""
from __future__ import annotations

from trucker_rules import building, catalog, track
from trucker_rules import flight_messages as f
from trucker_rules import shipvalues as sv
from trucker_rules.catalog import BOTTOM, SMOOTH, TOP
from trucker_rules.state import TruckerState

MISSING = object()


class Emit(Exception):
    def __init__(self, events):
        super().__init__(events)
        self.events = events


class Script:
    def __init__(self, state: TruckerState, rng):
        self.state, self.rng, self.step = state, rng, state.step
        self.card = catalog.cards()[state.card]

    # -- bookkeeping
    def done(self, marker: str) -> bool:
        return marker in self.step["done"]

    def value(self, marker: str):
        return self.step["values"].get(marker)

    def answer(self, key: str):
        return self.step["answers"].get(key, MISSING)

    def choice(self, player: str, kind: str, key: str, options: dict):
        answer = self.answer(key)
        if answer is MISSING:
            raise Emit([f.DecisionRequested(player=player, kind=kind, key=key, options=options)])
        return answer

    def roll(self, key: str) -> int:
        dice = self.answer(key)
        if dice is MISSING:
            raise Emit([f.DiceRolled(key=key, dice=[self.rng.randbelow(6) + 1, self.rng.randbelow(6) + 1])])
        return sum(dice)

    def ship(self, player: str):
        return self.state.seats[player].ship

    def order(self) -> list[str]:
        """The flight order when the card was revealed, without ships that have left since."""
        still = set(track.flying(self.state))
        return [p for p in self.step["order"] if p in still]

    def lone(self) -> bool:
        return len(track.flying(self.state)) <= 1 and self.state.options.get("lone_ship_skips_weakest", True)

    def moved(self, player: str, days: int) -> f.ShipMoved:
        return f.ShipMoved(player=player, days=days, position=track.move(self.state, player, days))

    # -- ship values that may cost batteries (asked once per key, then remembered)
    def payers(self, player: str, key: str, count: int) -> list:
        """The battery components paying `count` tokens for the decision `key`: the owner's choice
        if they named them (checked when decided), else the fullest first."""
        named = self.answer(key + "/batteries")
        if named is MISSING:
            return sv.battery_squares(self.ship(player), count)
        return [tuple(sq) for sq in named]

    def engines(self, player: str, key: str) -> int:
        if self.done(key):
            return self.value(key)
        ship = self.ship(player)
        most = min(sv.double_engines(ship), ship.battery_count())
        count = self.choice(player, "engines", key, {"max": most}) if most else 0
        spent = [f.BatteriesSpent(player=player, squares=self.payers(player, key, count))] if count else []
        raise Emit(spent + [f.Progressed(marker=key, value=sv.engine_strength(ship, count))])

    def firepower(self, player: str, key: str) -> float:
        if self.done(key):
            return self.value(key)
        ship = self.ship(player)
        doubles = sv.double_cannons(ship)
        squares = []
        if doubles and ship.battery_count():
            chosen = self.choice(player, "cannons", key, {"double_cannons": [list(s) for s in doubles],
                                                          "max": min(len(doubles), ship.battery_count())})
            squares = [tuple(s) for s in chosen]
        spent = [f.BatteriesSpent(player=player, squares=self.payers(player, key, len(squares)))] if squares else []
        raise Emit(spent + [f.Progressed(marker=key, value=sv.firepower(ship, squares))])

    # -- damage
    def hazard(self, player: str, key: str, kind: str, frm: str, line: int) -> None:
        """One meteor or shot against one ship, then the choice of part if it broke apart."""
        if self.done(key):
            self.keep_part(player, key)
            return
        ship = self.ship(player)
        direction = sv.FROM[frm]
        board = catalog.ship_board(ship.board)
        misses = board.missing_columns if direction in (TOP, BOTTOM) else board.missing_rows
        target = None if line in misses else sv.first_in_line(ship, direction, line)
        met = dict(player=player, hazard=kind, direction=frm, line=line, square=target)
        if target is None:
            raise Emit([f.HazardMet(**met, result="missed"), f.Progressed(marker=key)])
        placed = ship.tiles[target]
        saved, spend = None, False
        if kind == "small_meteor" and placed.tile.side(direction, placed.rotation) == SMOOTH:
            saved = "bounced"
        elif kind in ("small_meteor", "light_fire") and sv.shield_covers(ship, direction) and ship.battery_count():
            if self.choice(player, "defend", key + "/defend", {"hazard": kind, "square": list(target), "by": "shield"}):
                saved, spend = "shielded", True
        elif kind == "large_meteor":
            cannons = sv.cannons_against(ship, direction, line)
            if cannons and ship.tiles[cannons[0]].tile.kind == "cannon":
                saved = "shot_down"
            elif cannons and ship.battery_count() and self.choice(
                    player, "defend", key + "/defend", {"hazard": kind, "square": list(target), "by": "double_cannon"}):
                saved, spend = "shot_down", True
        if saved:
            spent = [f.BatteriesSpent(player=player, squares=self.payers(player, key + "/defend", 1))] if spend else []
            raise Emit(spent + [f.HazardMet(**met, result=saved), f.Progressed(marker=key)])
        raise Emit([f.HazardMet(**met, result="destroyed"),
                    f.ComponentDestroyed(player=player, square=target, component=placed.component),
                    f.Progressed(marker=key)])

    def keep_part(self, player: str, key: str) -> None:
        ship = self.ship(player)
        pieces = building.parts(ship)
        if len(pieces) <= 1:
            return
        options = [sorted(list(sq) for sq in piece) for piece in pieces]
        chosen = tuple(self.choice(player, "keep_part", key + "/keep", {"parts": options}))
        lost = sorted(sq for piece in pieces if chosen not in piece for sq in piece)
        raise Emit([f.PartKept(player=player, lost=lost)])

    def lose_crew(self, player: str, count: int, key: str) -> None:
        """The owner chooses which crew to give up, unless there is no choice to make."""
        if self.done(key):
            return
        ship = self.ship(player)
        sources = [(sq, "human") for sq, n in ship.humans.items() if n] + list(ship.aliens.items())
        if count < ship.crew() and len(sources) > 1:
            options = {"count": count, "humans": [[list(sq), n] for sq, n in sorted(ship.humans.items()) if n],
                       "aliens": [[list(sq), c] for sq, c in sorted(ship.aliens.items())]}
            losses = [(tuple(sq), what) for sq, what in self.choice(player, "crew", key + "/crew", options)]
        else:
            losses = sv.crew_to_lose(ship, count)
        raise Emit(([f.CrewLost(player=player, losses=losses)] if losses else []) + [f.Progressed(marker=key)])

    def lose_goods(self, player: str, count: int, key: str) -> None:
        """The most valuable goods go first; among goods of equal value in different holds the owner
        chooses which (asked only when that choice exists). Missing goods are paid in batteries."""
        if self.done(key):
            return
        ship = self.ship(player)
        losses, missing = sv.goods_to_lose(ship, count)
        colours = sorted(good for _, good in losses)
        if sv.goods_loss_has_choice(ship, colours):
            options = {"goods": colours, "cargo": [[list(sq), list(g)] for sq, g in sorted(ship.goods.items()) if g]}
            losses = [(tuple(sq), good) for sq, good in self.choice(player, "goods_loss", key + "/goods", options)]
        cargo = sv.cargo_without(ship, losses)
        events = [f.CargoSet(player=player, cargo=sorted(cargo.items()))] if cargo != ship.goods else []
        batteries = min(missing, ship.battery_count())
        if batteries:
            events.append(f.BatteriesSpent(player=player, squares=sv.battery_squares(ship, batteries)))
        raise Emit(events + [f.Progressed(marker=key)])

    def load(self, player: str, goods: list[str], key: str) -> None:
        """Gained goods go aboard, and the owner may rearrange the whole cargo (or throw goods away):
        asked when something must be thrown away or there is more than one hold to choose from;
        otherwise everything is stowed at once. Red goods only in red containers."""
        if self.done(key):
            return
        ship = self.ship(player)
        pool = ship.goods_list() + list(goods)
        best = sv.arrange_cargo(ship, pool)
        holds = sv.cargo_capacity(ship)
        if holds and (sum(len(g) for g in best.values()) < len(pool) or len(holds) > 1):
            holds = [[list(sq), capacity, red] for sq, capacity, red in holds]
            chosen = self.choice(player, "cargo", key + "/cargo", {"goods": sorted(pool), "holds": holds})
            best = {tuple(sq): list(g) for sq, g in chosen if g}
        raise Emit([f.CargoSet(player=player, cargo=sorted(best.items())), f.Progressed(marker=key)])


def weakest(script: Script, key: str, values: dict[str, float]) -> str:
    """The weakest ship, ties going to the one furthest ahead; decided once per key."""
    if not script.done(key):
        order = track.flying(script.state)
        low = min(values[p] for p in order)
        raise Emit([f.Progressed(marker=key, value=next(p for p in order if values[p] == low))])
    return script.value(key)
