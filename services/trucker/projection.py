"""What the rules engine decides a player's move on: the warehouse as Redis holds it, seen from one player.

A `View` is a `TruckerState` holding what a building move can depend on: the player's own seat in full
(hand, ship, newest component, reserve, order tile, pile held), and the shared facts (which pile and
order tile each player holds, the face-up tiles, how many lie face down, the hourglass, the piles' cards,
the draw counter). `read` builds it from `facts.lua`. The engine decides on it; the decision is applied
only if what it relied on still holds (`guards`, checked by the script at once with the change), so a
view may be old: at worst the script refuses it and the service reads again.

Which face-down tile a grab takes is the engine's draw, computed ahead for the whole round from the
seed (`state_doc.future_grabs`): the engine decides *whether* the player may grab (the view's pile holds
placeholders), the script takes the pile's next tile.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

from trucker_rules import messages as m
from trucker_rules.build_evolve import evolve_building
from trucker_rules.ship import Placed, Ship
from trucker_rules.state import BUILDING, REPAIR, Player, TruckerState

FACE_DOWN = "(face-down)"     # a face-down tile not drawn yet: the script puts the pile's next tile here


@dataclass
class View:
    state: TruckerState
    player: str
    version: int                 # the player's seat version in Redis when read (a guard)
    epoch: str                   # the warehouse load it was read from (a guard)
    seq: int
    draw_end: int
    status: str                  # building, ending (the sand ran out on START), ended
    now: float = 0.0             # Redis's clock when read (fresh views only)
    time_up: bool = False
    facedown: list[str] | None = None    # the grabs to come, in order (asked for a pile's first look)
    fresh: bool = True           # read just now; False: remembered and followed since (`seats.py`)
    # The seats someone else than their player plays, {seat: "bot:<level>" or a substitute's id}
    # (meta `controllers`)
    controllers: dict[str, str] | None = None

    def controller(self, seat: str) -> str:
        """Who must play `seat`'s moves: '' its own player, else its bot (`bot:<level>`) or the
        substitute holding it (their player id)."""
        return (self.controllers or {}).get(seat, "")


def read(facts: dict, player: str) -> View:
    """The view of `player` from a `facts.lua` reply (decoded JSON)."""
    meta = facts["meta"]
    players = json.loads(meta["players"])
    status = meta["status"]
    started = meta.get("started") == "1"
    state = TruckerState(
        players=players, options=json.loads(meta["options"]), round=int(meta["round"]),
        phase=BUILDING if status == "building" else REPAIR, building_started=started,
        timer_space=int(meta["timer_space"]), runs_out_at=float(meta["runs_out_at"]) if started else None,
        face_up=sorted(facts["faceup"] or []), piles=json.loads(meta["piles"]),
        used_cards=json.loads(meta["used_cards"]), round_cards=json.loads(meta["round_cards"]))
    facedown = list(facts["facedown"] or []) if "facedown" in facts else None
    state.face_down = sorted(facedown) if facedown is not None else [FACE_DOWN] * int(facts["facedown_count"])
    order = {int(n): p for n, p in (facts["order"] or {}).items()}
    state.order_tiles_free = [n for n in range(1, len(players) + 1) if n not in order]
    finished = {p: int(n) for p, n in (facts["finished"] or {}).items()}
    looking = {p: int(n) for p, n in (facts["looking"] or {}).items()}
    over = status != "building"     # building is over: hands are emptied and piles put back
    for name in players:
        state.seats[name] = Player(name=name, cabin="", ship=Ship(meta["board"]), order_tile=finished.get(name),
                                   looking_at=None if over else looking.get(name))
    if player in state.seats and not over:
        _own_seat(state.seats[player], facts, meta["board"])
    now = int(facts["clock"][0]) + int(facts["clock"][1]) / 1_000_000
    time_up = status == "ending" or (started and state.timer_space == 0 and now >= state.runs_out_at)
    return View(state, player, int(facts["seatver"]), meta["epoch"], int(meta["seq"]), int(meta["draw_end"]),
                status, now, time_up, facedown, controllers=json.loads(meta.get("controllers") or "{}"))


def _own_seat(seat: Player, facts: dict, board: str) -> None:
    tiles = {}
    for square, placed in (facts["ship"] or {}).items():
        col, row = square.split(",")
        tile, rotation = placed.split("|")
        tiles[(int(col), int(row))] = Placed(tile, int(rotation))
    newest = json.loads(facts["newest"]) if facts["newest"] else None
    seat.ship = Ship(board, tiles, reserve=json.loads(facts["reserve"]) if facts["reserve"] else [],
                     newest=(newest["col"], newest["row"]) if newest else None)
    seat.hand = facts["hand"] or None
    seat.from_reserve = facts["handfrom"] == "reserve" if seat.hand else bool(newest and newest["reserve"])


def optimistic(view: View, command) -> None:
    """On a remembered view, assume the shared facts a hot move needs (the script's guards check them):
    the face-up tile is still there, the face-down pile is not empty."""
    if view.fresh:
        return
    view.state.face_up = [command.component] if isinstance(command, m.GrabFaceUp) else []
    view.state.face_down = [FACE_DOWN] if isinstance(command, m.GrabFaceDown) else []


def guards(view: View, command, events: list) -> list[list]:
    """What the engine's decision on `view` relied on beyond the player's own seat, for the script to
    check at once with the change: the same warehouse load and seat version, building still running
    (and the sand not run out on START), and the shared facts this move used."""
    found: list[list] = [["epoch", view.epoch], ["seat", view.version], ["building"]]
    if isinstance(command, m.GrabFaceDown):
        found.append(["facedown"])
    elif isinstance(command, m.GrabFaceUp):
        found.append(["faceup", command.component])
    elif isinstance(command, m.LookAtPile):
        found.append(["pile", command.pile])
        if any(getattr(e, "cards", None) for e in events):     # a first look drew its cards
            found.append(["draws", view.draw_end])
    elif isinstance(command, m.Finish):
        finished = sum(1 for p in view.state.seats.values() if p.order_tile is not None)
        found += [["order", events[0].order_tile], ["finished", finished]]
    elif isinstance(command, m.TurnTimer):
        found.append(["timer", view.state.timer_space, repr(view.state.runs_out_at)])
    return found


def follow(view: View, events: list, applied: tuple[dict, ...]) -> View:
    """The view after its own move was applied (the engine's evolve on it, in place), for the next move.
    (Another move deciding on this view meanwhile is harmless: its guards name the version it saw.)"""
    state = view.state
    for event, stored in zip(events, applied):
        if isinstance(event, m.ComponentGrabbed) and event.source != "reserve":
            if event.source == "face_down":   # the script drew the tile: the event as stored
                event = m.ComponentGrabbed(player=event.player, component=stored["data"]["component"],
                                           source="face_down")
            state.face_down, state.face_up = [event.component], [event.component]
        evolve_building(state, event)
    state.face_up, state.face_down = [], []
    view.version, view.seq, view.fresh, view.facedown = view.version + 1, applied[-1]["seq"], False, None
    return view


def event_json(event) -> tuple[str, str]:
    """An engine event as the scripts take it: its type, and its other fields as JSON (every digit)."""
    return event.type, event.model_dump_json(exclude={"type", "v"})
