"""Flight choices of the bots: greedy and cautious."""
from __future__ import annotations

import random

from trucker_rules import catalog
from trucker_rules import flight_messages as f
from trucker_rules import shipvalues as sv
from trucker_rules.flight_defaults import default_command
from trucker_rules.state import FLIGHT, TruckerState


# A level's chance of flying past a planet with room in its hold (the bot worker plays flight decisions;
# building is the real-time service's).
SKIP_PLANET = {"easy": 0.4, "normal": 0.2, "strong": 0.0}
# Humans a level keeps aboard after manning an abandoned ship.
KEEP_HUMANS = {"easy": 2, "normal": 2, "strong": 5}
# The lead over every other seat at which the strong bot, alone in the last round's flight, gives up
# rather than risk more components (what the card being resolved may still destroy).
LOCK_MARGIN = 3


def flight_command(state: TruckerState, player: str, rnd: random.Random, level: str = "normal"):
    ask = state.step.get("ask") if state.step else None
    if ask is None or ask["player"] != player:
        return None
    if level == "strong" and _win_is_locked(state, player):
        return f.GiveUp()
    ship = state.seats[player].ship
    options = ask["options"]
    kind = ask["kind"]
    if kind == "aliens":
        if level == "strong":
            return f.ChooseAliens(aliens=_aliens(ship, options["cabins"]))
        chosen, used = [], set()
        for square, colours in options["cabins"]:
            free = [c for c in colours if c not in used]
            if free:
                chosen.append((tuple(square), free[0]))
                used.add(free[0])
        return f.ChooseAliens(aliens=chosen)
    if kind == "engines" and level == "strong":
        count = _engines_to_power(state, player, options["max"])
        return f.PowerEngines(count=count, batteries=sv.battery_squares(ship, count))
    if kind == "engines":
        return f.PowerEngines(count=options["max"], batteries=sv.battery_squares(ship, options["max"]))
    if kind == "cannons" and level == "strong":
        doubles = _doubles_to_fire(state, ship, options)
        return f.FireCannons(squares=doubles, batteries=sv.battery_squares(ship, len(doubles)))
    if kind == "cannons":
        doubles = [tuple(sq) for sq in options["double_cannons"]][:options["max"]]
        return f.FireCannons(squares=doubles, batteries=sv.battery_squares(ship, len(doubles)))
    if kind == "planet":
        room = sum(cap for _, cap, _ in sv.cargo_capacity(ship)) - len(ship.goods_list())
        if room <= 0 or rnd.random() < SKIP_PLANET[level]:
            return f.ChoosePlanet(planet=None)
        values = {i: sum(sv.goods_value(g) for g in goods) for i, goods in zip(options["free"], options["planets"])}
        return f.ChoosePlanet(planet=max(values, key=values.get))
    if kind == "offer":
        card = catalog.cards()[state.card]
        if card["type"] == "abandoned_ship":
            keep = KEEP_HUMANS[level]      # slavers take up to 5, combat zones 4: crew is the ship's life
            if level == "strong":
                keep = _humans_to_keep(state)
            return f.AnswerOffer(accept=ship.human_crew() - card["crew_lost"] >= keep)
        return f.AnswerOffer(accept=True)
    if kind == "keep_part" and level == "strong":
        return f.KeepPart(square=tuple(_part_to_keep(ship, options["parts"])[0]))
    return default_command(state, player)


# Humans the strong bot keeps aboard when it takes an alien (an alien replaces the cabin's two humans, and
# a ship without humans gives up): more than the strongest slavers take.
ALIEN_HUMANS = 6


def _aliens(ship, cabins) -> list:
    """A purple alien (firepower +2 when the ship has any) where the ship has cannons and keeps enough
    humans: slavers and pirates are beaten rather than suffered. No brown one: engines matter less."""
    humans = 2 * sum(1 for p in ship.tiles.values() if p.tile.is_cabin)
    has_cannons = any(p.tile.is_cannon for p in ship.tiles.values())
    if not has_cannons or humans - 2 < ALIEN_HUMANS:
        return []
    for square, colours in cabins:
        if "purple" in colours:
            return [(tuple(square), "purple")]
    return []


def _win_is_locked(state: TruckerState, player: str, margin: int = LOCK_MARGIN) -> bool:
    """Whether giving up now wins the game whatever follows: the last round, nobody else flying (so
    the others' credits are final), and the seat's credits after giving up (goods at half value, its
    lost components paid) ahead of everyone's by `margin` (what the card being resolved may still
    break off). Flying on can only lose components then: the arrival reward no longer matters."""
    from trucker_rules import track
    seat = state.seats[player]
    if state.phase != FLIGHT or state.round < catalog.scoring()["rounds"] or seat.giving_up:
        return False
    if track.flying(state) != [player]:
        return False
    mine = _final_credits(state, player, gave_up=True)
    return all(mine - margin > _final_credits(state, other, gave_up=state.seats[other].gave_up)
               for other in state.players if other != player)


def _final_credits(state: TruckerState, player: str, gave_up: bool) -> int:
    seat = state.seats[player]
    goods = sum(sv.goods_value(g) for g in seat.ship.goods_list()) if seat.ship else 0
    if gave_up:
        goods = goods // 2 if state.options.get("half_value_rounding", "down") == "down" else (goods + 1) // 2
    lost = len(seat.ship.lost) if seat.ship else 0
    return seat.credits + goods - lost * catalog.scoring()["lost_component_penalty"]


def _humans_to_keep(state: TruckerState) -> int:
    """More than the strongest slavers of the round's deck can take (the round-I card 3, II 4, III 5):
    an abandoned ship's credits are not worth the flight."""
    levels = catalog.deck_recipe(state.round)["per_pile"]
    taken = [c["defeat_penalty"]["crew_lost"] for c in catalog.cards().values()
             if c["type"] == "slavers" and c["level"] in levels]
    return max(taken, default=0) + 2


def _engines_to_power(state: TruckerState, player: str, most: int) -> int:
    """In open space, flying alone or in the lead, only what keeps the ship moving (a battery kept is a
    shield or a double cannon later); against others' engines (a combat zone), or chasing them, all."""
    from trucker_rules import track
    ship = state.seats[player].ship
    card = catalog.cards()[state.card] if state.card is not None else {}
    order = track.flying(state)
    if card.get("type") == "open_space" and (len(order) <= 1 or order[0] == player):
        return 0 if sv.single_engines(ship) or "brown" in ship.aliens.values() else min(1, most)
    return most


def _doubles_to_fire(state: TruckerState, ship, options) -> list:
    """Against an enemy, the fewest double cannons (front-facing first) that beat it, else that draw
    with it, else none: a battery spent on a lost fight is wasted, and one is kept for a shield.
    Elsewhere (a combat zone's weakest-firepower line) all it may fire."""
    available = [tuple(sq) for sq in options["double_cannons"]][:options["max"]]
    card = catalog.cards()[state.card] if state.card is not None else {}
    if "firepower" not in card:
        return available
    available.sort(key=lambda sq: -sv.firepower(ship, [sq]))
    fired = [available[:k] for k in range(len(available) + 1)]
    for enough in (lambda power: power > card["firepower"], lambda power: power == card["firepower"]):
        for doubles in fired:
            if enough(sv.firepower(ship, doubles)):
                return doubles
    return []


def _part_to_keep(ship, parts):
    """The part that can still finish the flight: humans aboard, an engine, then the most components."""
    def value(part):
        squares = [tuple(sq) for sq in part]
        humans = sum(ship.humans.get(sq, 0) for sq in squares)
        engines = sum(1 for sq in squares if sq in ship.tiles and ship.tiles[sq].tile.is_engine)
        return (humans > 0, engines > 0, len(squares), humans)
    return max(parts, key=value)
