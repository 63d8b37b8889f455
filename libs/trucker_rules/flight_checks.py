"""Checks of a flight decision's answer against the options it was asked with: each returns the value
recorded in DecisionTaken or raises RuleViolation (nothing is changed either way)."""
from __future__ import annotations

from starbase_rules.contract import RuleViolation

from trucker_rules import flight_messages as f


def _tokens_needed(command) -> int:
    if isinstance(command, f.PowerEngines):
        return command.count
    if isinstance(command, f.FireCannons):
        return len(command.squares)
    if isinstance(command, f.Defend):
        return 1 if command.use else 0
    return 0


def checked_batteries(ship, command) -> list | None:
    """The battery components named to pay (one per token), or None to let the fullest pay."""
    named = getattr(command, "batteries", None)
    if named is None:
        return None
    needed = _tokens_needed(command)
    if len(named) != needed:
        raise RuleViolation("WRONG_BATTERY_COUNT", f"name one battery per token spent: {needed}, not {len(named)}")
    left = dict(ship.batteries)
    for square in named:
        square = tuple(square)
        if square not in left:
            raise RuleViolation("NOT_A_BATTERY", f"there is no battery component at {square}")
        if left[square] <= 0:
            raise RuleViolation("BATTERY_EMPTY", f"the battery at {square} has no token left to spend")
        left[square] -= 1
    return [list(tuple(sq)) for sq in named]


def checked_value(state, command, actor, options):
    ship = state.seats[actor].ship
    if isinstance(command, f.ChooseAliens):
        allowed = {tuple(sq): colours for sq, colours in options["cabins"]}
        colours = [c for _, c in command.aliens]
        squares = [tuple(sq) for sq, _ in command.aliens]
        if len(set(colours)) != len(colours) or len(set(squares)) != len(squares):
            raise RuleViolation("TOO_MANY_ALIENS", "at most one purple and one brown alien, one per cabin")
        for square, colour in zip(squares, colours):
            if colour not in allowed.get(square, []):
                raise RuleViolation("NO_LIFE_SUPPORT", f"the cabin at {square} is not joined to {colour} life support")
        return [[list(sq), c] for sq, c in zip(squares, colours)]
    if isinstance(command, f.PowerEngines):
        if not 0 <= command.count <= options["max"]:
            raise RuleViolation("TOO_MANY_ENGINES", f"you can power 0 to {options['max']} double engines")
        return command.count
    if isinstance(command, f.FireCannons):
        squares = [tuple(sq) for sq in command.squares]
        allowed = {tuple(sq) for sq in options["double_cannons"]}
        if len(set(squares)) != len(squares) or not set(squares) <= allowed:
            raise RuleViolation("NOT_A_DOUBLE_CANNON", "name each of your double cannons at most once")
        if len(squares) > options["max"]:
            raise RuleViolation("NOT_ENOUGH_BATTERIES", f"you have batteries for {options['max']} double cannons")
        return [list(sq) for sq in squares]
    if isinstance(command, f.ChoosePlanet):
        if command.planet is not None and command.planet not in options["free"]:
            raise RuleViolation("PLANET_NOT_FREE", f"planet {command.planet} is taken or does not exist")
        return command.planet
    if isinstance(command, (f.AnswerOffer, f.Defend)):
        return command.accept if isinstance(command, f.AnswerOffer) else command.use
    if isinstance(command, f.ChooseCrewLoss):
        return _checked_crew(command, options)
    if isinstance(command, f.ChooseGoodsLoss):
        return _checked_goods_loss(command, options)
    if isinstance(command, f.ArrangeCargo):
        return _checked_cargo(command, options)
    if isinstance(command, f.KeepPart):
        if not any(list(command.square) in part for part in options["parts"]):
            raise RuleViolation("NOT_A_PART", f"no part of your ship holds {command.square}")
        return list(command.square)
    raise RuleViolation("NOT_NOW", f"{command.type} is not possible now")


def _checked_crew(command, options):
    if len(command.losses) != options["count"]:
        raise RuleViolation("BAD_CREW_CHOICE", f"name exactly {options['count']} crew members to give up")
    humans = {tuple(sq): n for sq, n in options["humans"]}
    aliens = {tuple(sq): c for sq, c in options["aliens"]}
    for square, what in command.losses:
        square = tuple(square)
        if what == "human" and humans.get(square, 0) > 0:
            humans[square] -= 1
        elif what != "human" and aliens.get(square) == what:
            del aliens[square]
        else:
            raise RuleViolation("BAD_CREW_CHOICE", f"there is no {what} left to give up at {square}")
    return [[list(sq), what] for sq, what in command.losses]


def _checked_goods_loss(command, options):
    if len(command.losses) != len(options["goods"]):
        raise RuleViolation("WRONG_GOODS_COUNT", f"name exactly {len(options['goods'])} goods to give up")
    if sorted(good for _, good in command.losses) != options["goods"]:
        raise RuleViolation("NOT_MOST_VALUABLE", f"the most valuable goods go first: give up {options['goods']}")
    held = {tuple(sq): list(goods) for sq, goods in options["cargo"]}
    for square, good in command.losses:
        if good not in held.get(tuple(square), []):
            raise RuleViolation("NO_SUCH_GOODS", f"there is no {good} good left in a hold at {square}")
        held[tuple(square)].remove(good)
    return [[list(sq), good] for sq, good in command.losses]


def _checked_cargo(command, options):
    holds = {tuple(sq): (capacity, red) for sq, capacity, red in options["holds"]}
    pool = list(options["goods"])
    squares = [tuple(sq) for sq, _ in command.cargo]
    if len(set(squares)) != len(squares):
        raise RuleViolation("BAD_CARGO", "name each hold once")
    for square, goods in command.cargo:
        square = tuple(square)
        if square not in holds:
            raise RuleViolation("BAD_CARGO", f"there is no cargo hold at {square}")
        capacity, red = holds[square]
        if len(goods) > capacity:
            raise RuleViolation("BAD_CARGO", f"the hold at {square} takes {capacity} goods")
        if "red" in goods and not red:
            raise RuleViolation("BAD_CARGO", "red goods go only in red containers")
        for good in goods:
            if good not in pool:
                raise RuleViolation("BAD_CARGO", f"there is no {good} good to load")
            pool.remove(good)
    return [[list(sq), list(g)] for sq, g in command.cargo]
