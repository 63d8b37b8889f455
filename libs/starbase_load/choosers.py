"""How a simulated player chooses its move (no I/O here: the callers fetch what they need).

Two ways, as real clients do:
- `EngineChooser`: the engine's own bot on the state folded from what the player's socket showed.
  Only right when the pushes are the whole truth, i.e. the game hides nothing from players
  (`full_information`); a `Hidden` event or one the engine cannot fold raises `CannotFold`, and the
  player asks the lobby from then on.
- the lobby's legal actions (`GET /games/{id}/actions`, the engine's `legal_actions` for that player,
  full commands): `pick_action` takes one at random; `TruckerHands.pick` plays Trucker's building as a
  person would (grab, place, now and then give one back, finish when the ship is big enough).

`realtime` tells which commands go to a table's real-time service (Trucker's building moves) rather
than to `POST /games/{id}/commands`.
"""
from __future__ import annotations

import json
import random
from typing import Any

from starbase_core.gamestream import engine_options
from starbase_rules.contract import Game
from starbase_rules.fair import FairRng

HIDDEN = "Hidden"
# The building moves Trucker's real-time service takes (its `REALTIME_COMMANDS`): the engine's building
# commands less CallTimeUp (the service's own clock) and RepairShip (through the lobby).
REALTIME_MOVES = frozenset({"StartBuilding", "GrabFaceDown", "GrabFaceUp", "TakeReserved", "PlaceComponent",
                            "MoveNewest", "ReturnComponent", "ReserveComponent", "LookAtPile", "PutBackPile",
                            "TurnTimer", "Finish"})
GRABS = frozenset({"GrabFaceDown", "GrabFaceUp", "TakeReserved"})


def realtime(command: dict) -> bool:
    return command.get("type") in REALTIME_MOVES


class CannotFold(Exception):
    """The socket showed something the engine cannot fold (hidden data): choose by legal actions."""


class EngineChooser:
    """The engine's bot for one player, on the state folded from that player's pushed events."""

    def __init__(self, engine: Game, player: str, rnd: random.Random):
        self.engine, self.player, self.rnd = engine, player, rnd
        self.state = engine.initial_state()
        self.folded = 0

    def fold(self, events: list[dict]) -> None:
        """Fold `events[self.folded:]` (the socket's list so far, in seq order)."""
        for event in events[self.folded:]:
            if event["type"] == HIDDEN:
                raise CannotFold("an event was hidden from this player")
            if not event.get("platform"):
                try:
                    self.state = self.engine.evolve(self.state, self.engine.parse_event(event["data"]))
                except Exception as failed:
                    raise CannotFold(f"{event['type']}: {failed}") from failed
            self.folded += 1

    def choose(self, events: list[dict]) -> dict | None:
        """The bot's command when this player owes a decision, else None."""
        self.fold(events)
        if self.player not in self.engine.to_act(self.state):
            return None
        command = self.engine.bot_command(self.state, self.player, self.rnd)
        return None if command is None else command.model_dump(mode="json")


def pick_action(actions: list[dict], rnd: random.Random) -> dict | None:
    return rnd.choice(actions) if actions else None


class TruckerHands:
    """One Trucker player's building habits over the listed legal moves: grab (face down mostly),
    place what it holds, now and then give a tile back, look at an adventure pile once in a while and
    put it back, and finish once its ship holds a number of tiles it picked for the round."""

    def __init__(self, rnd: random.Random):
        self.rnd = rnd
        self.placed = 0
        self.target = rnd.randint(6, 14)

    def new_round(self) -> None:
        self.placed, self.target = 0, self.rnd.randint(6, 14)

    def pick(self, actions: list[dict]) -> dict | None:
        by_type: dict[str, list[dict]] = {}
        for action in actions:
            by_type.setdefault(action["type"], []).append(action)
        roll = self.rnd.random()
        if "PutBackPile" in by_type:
            return by_type["PutBackPile"][0]
        if "StartBuilding" in by_type:
            return by_type["StartBuilding"][0]
        if "PlaceComponent" in by_type:
            if roll < 0.9 or "ReturnComponent" not in by_type:
                return self.rnd.choice(by_type["PlaceComponent"])
            return by_type["ReturnComponent"][0]
        if "ReturnComponent" in by_type:      # holding a tile that fits nowhere
            return by_type["ReturnComponent"][0]
        if "Finish" in by_type and self.placed >= self.target:
            return self.rnd.choice(by_type["Finish"])
        if "LookAtPile" in by_type and roll < 0.05:
            return self.rnd.choice(by_type["LookAtPile"])
        grabs = by_type.get("GrabFaceDown", []) * 4 + by_type.get("GrabFaceUp", [])[:2]
        if grabs:
            return self.rnd.choice(grabs)
        if "Finish" in by_type:               # nothing left to grab: finish with what it has
            return self.rnd.choice(by_type["Finish"])
        others = [a for a in actions if a["type"] != "TurnTimer"]
        return self.rnd.choice(others) if others else None

    def accepted(self, command: dict) -> None:
        if command.get("type") == "PlaceComponent":
            self.placed += 1


def full_information(engine: Game, seats: int, options: dict) -> bool:
    """Does every player see every setup event whole? (Then folding a player's pushes gives the state.)"""
    players = [f"probe{index}" for index in range(seats)]
    try:
        events = engine.setup(players, engine_options(options), FairRng(b"load-probe"))
    except Exception:          # options this engine refuses: the lobby will say so; choose safely
        return False
    for event in events:
        whole = _normal(event.model_dump(mode="json"))
        for viewer in players:
            shown = engine.redact(event, viewer)
            if shown is None or _normal(shown) != whole:
                return False
    return True


def _normal(data: Any) -> object:
    return json.loads(json.dumps(data, default=str, sort_keys=True))
