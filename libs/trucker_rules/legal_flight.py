"""The full commands legal after building: the repair owed after a failed inspection, the answer to the
decision a player owes in launch or flight, and giving up. Candidates are kept only if the engine's
own deciders accept them (`rules.decide_alone`).

Where the choice is small the list is complete: aliens, engines powered, double cannons fired, planets,
offers, defending, the part to keep, and which crew or goods to give up (up to `MOST` combinations, the
default first). Where it is combinatorial the list offers representative choices:
- `RepairShip`: the default repair, and the same removals keeping each other part instead (removing
  more components than needed is legal too);
- `ArrangeCargo`: the most valuable arrangement, the same with any one good thrown away, and nothing
  kept;
- the battery components paying (`batteries`) are left out: the fullest batteries pay.
"""
from __future__ import annotations

from itertools import combinations
from typing import Callable

from starbase_rules.contract import Command, RuleViolation

from trucker_rules import building
from trucker_rules import flight_messages as f
from trucker_rules import messages as m
from trucker_rules import shipvalues as sv
from trucker_rules import build_phase, flow  # noqa: F401  (registers the handlers decide_alone runs)
from trucker_rules.rules import decide_alone
from trucker_rules.state import TruckerState

MOST = 64          # combinations of crew or goods listed for one decision, at most


def keep_accepted(candidates: list[Command], trial: Callable[[Command], object]) -> list[Command]:
    """The candidates the engine accepts: `trial` decides one and raises RuleViolation if refused."""
    found = []
    for command in candidates:
        try:
            trial(command)
        except RuleViolation:
            continue
        found.append(command)
    return found


def repairs(state: TruckerState, player: str) -> list[Command]:
    ship = state.seats[player].ship
    remove, keep = building.auto_repair(ship)
    trial = ship.copy()
    for square in remove:
        del trial.tiles[square]
    others = [min(piece) for piece in building.parts(trial) if keep is not None and keep not in piece]
    candidates: list[Command] = [m.RepairShip(remove=remove, keep=choice) for choice in [keep, *others]]
    return keep_accepted(candidates, lambda c: decide_alone(state, c, player))


def flight_actions(state: TruckerState, player: str) -> list[Command]:
    ask = state.step.get("ask")
    candidates = answers(state, player, ask) if ask and ask["player"] == player else []
    return keep_accepted(candidates + [f.GiveUp()], lambda c: decide_alone(state, c, player))


def answers(state: TruckerState, player: str, ask: dict) -> list[Command]:
    """Every answer to the decision `ask` worth proposing (bounded as the module's docstring says)."""
    options, ship = ask["options"], state.seats[player].ship
    kind = ask["kind"]
    if kind == "aliens":
        return _aliens(options["cabins"])
    if kind == "engines":
        return [f.PowerEngines(count=n) for n in range(options["max"] + 1)]
    if kind == "cannons":
        doubles = [tuple(sq) for sq in options["double_cannons"]]
        fired = [list(c) for n in range(len(doubles) + 1) for c in combinations(doubles, n)]
        return [f.FireCannons(squares=squares) for squares in fired[:MOST]]
    if kind == "planet":
        return [f.ChoosePlanet(planet=None)] + [f.ChoosePlanet(planet=i) for i in options["free"]]
    if kind == "offer":
        return [f.AnswerOffer(accept=True), f.AnswerOffer(accept=False)]
    if kind == "defend":
        return [f.Defend(use=True), f.Defend(use=False)]
    if kind == "keep_part":
        return [f.KeepPart(square=tuple(part[0])) for part in options["parts"]]
    if kind == "crew":
        default = sv.crew_to_lose(ship, options["count"])
        pool = [((tuple(sq), "human"), n) for sq, n in options["humans"]]
        pool += [((tuple(sq), colour), 1) for sq, colour in options["aliens"]]
        return [f.ChooseCrewLoss(losses=losses) for losses in _with_default(default, _picks(pool, options["count"]))]
    if kind == "goods_loss":
        default = sv.goods_to_lose(ship, len(options["goods"]))[0]
        return [f.ChooseGoodsLoss(losses=losses)
                for losses in _with_default(default, _goods_losses(options["goods"], options["cargo"]))]
    return _cargo(ship, options)          # kind == "cargo"


def _aliens(cabins: list) -> list[Command]:
    """Each cabin's colours, at most one alien of each colour: every pair of choices (none included)."""
    squares = [tuple(sq) for sq, _ in cabins]
    return [f.ChooseAliens(aliens=([(p, "purple")] if p else []) + ([(b, "brown")] if b else []))
            for p in [None, *squares] for b in [None, *squares]]


def _picks(pool: list[tuple[tuple, int]], count: int) -> list[list[tuple]]:
    """Ways to pick `count` items from `pool` (item, how many there are), as lists of items, at most MOST."""
    found: list[list[tuple]] = []

    def walk(index: int, left: int, taken: list[tuple]) -> None:
        if len(found) == MOST:
            return
        if left == 0:
            found.append(list(taken))
            return
        if index == len(pool):
            return
        item, available = pool[index]
        for n in range(min(available, left), -1, -1):
            walk(index + 1, left - n, taken + [item] * n)

    walk(0, count, [])
    return found


def _goods_losses(colours: list[str], cargo: list) -> list[list[tuple]]:
    """Which holds give up the goods of the colours lost (each colour from the holds holding it)."""
    per_colour = []
    for colour in sorted(set(colours)):
        pool = [((tuple(sq), colour), goods.count(colour)) for sq, goods in cargo if colour in goods]
        per_colour.append(_picks(pool, colours.count(colour)))
    combined: list[list[tuple]] = [[]]
    for choices in per_colour:
        combined = [done + more for done in combined for more in choices][:MOST]
    return combined


def _with_default(default: list, others: list[list]) -> list[list]:
    """The default choice first, then the others, each once (compared in any order), at most MOST."""
    found, seen = [], set()
    for choice in [default] + others:
        choice = [(tuple(sq), what) for sq, what in choice]
        if repr(sorted(choice)) not in seen:
            seen.add(repr(sorted(choice)))
            found.append(choice)
    return found[:MOST]


def _cargo(ship, options: dict) -> list[Command]:
    best = sorted(sv.arrange_cargo(ship, options["goods"]).items())
    arrangements = [best]
    for index, (square, goods) in enumerate(best):
        for good in sorted(set(goods)):
            lighter = list(goods)
            lighter.remove(good)
            arrangements.append(best[:index] + ([(square, lighter)] if lighter else []) + best[index + 1:])
    arrangements.append([])
    unique = {repr(cargo): cargo for cargo in arrangements}       # each once, in the order first met
    return [f.ArrangeCargo(cargo=cargo) for cargo in unique.values()]
