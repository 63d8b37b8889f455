"""Between the rules engine's state and the Redis warehouse.

The truth is the game's event stream: folding it with `trucker_rules.game:GAME` gives a `TruckerState`,
and `warehouse_doc` turns that into the document `lua/open.lua` loads. That is how a round's warehouse
is first put into Redis and how it is rebuilt when Redis loses it. `canonical` reduces both that
document and a Redis snapshot to one comparable form, so tests can check the stream and Redis agree.
"""
from __future__ import annotations

import json
from typing import Iterable

from starbase_core.envelope import Envelope
from starbase_core.gamestream import GameRecord, replay
from starbase_core.transaction import REQUEST_ID
from starbase_rules.contract import Game, RuleViolation
from starbase_rules.fair import FairRng
from trucker_rules import build_phase
from trucker_rules.game import GAME
from trucker_rules.state import BUILDING, TruckerState


# The layout of a warehouse in Redis. A warehouse of another layout (loaded by an earlier version of the
# service) is dropped and loaded again from the stream on its next move.
WAREHOUSE_FORMAT = "4"      # 4: meta `controllers`, every seat someone else than its player plays (guard
                            # `controller`); 3 had meta `bots`, the seats bots held, and no substitutes


def _trucker_only(name: str) -> Game:
    if name != GAME.name:
        raise RuleViolation("NOT_A_TRUCKER_GAME", f"a {name!r} game has no Trucker round to build")
    return GAME


class Folded:
    """A Trucker game after its stream: the platform's own fold (`gamestream.GameRecord`: the engine's
    state, last seq, draw counter, the end), plus the client ids of the moves the stream holds.
    A stream that is not a Trucker game's folds to nothing (round 0, which callers refuse)."""

    def __init__(self, envelopes: Iterable[Envelope] = ()):
        self.record: GameRecord | None = None    # from a Trucker game's GameCreated on
        # The moves the stream holds by client id (`meta.request_id` of a command's first event):
        # id → "first seq,last seq", the form of the warehouse's `cmds` hash.
        self.requests: dict[str, str] = {}
        self._request: str | None = None    # the id of the command whose events are being folded
        for envelope in envelopes:
            self.add(envelope)

    def add(self, envelope: Envelope) -> None:
        if self.record is None:
            if envelope.seq != 1 or envelope.data.get("game") != GAME.name:
                return                        # not a Trucker game: `state` stays the empty one
            self.record = replay(envelope.stream.split(".", 1)[1], [envelope], _trucker_only)
        else:
            self.record.apply([envelope])
        if "command" in envelope.meta:
            self._request = envelope.meta.get(REQUEST_ID)
        if self._request is not None:
            first = self.requests.get(self._request, f"{envelope.seq},").split(",")[0]
            self.requests[self._request] = f"{first},{envelope.seq}"

    @property
    def state(self) -> TruckerState:
        return self.record.state if self.record is not None else GAME.initial_state()

    @property
    def seq(self) -> int:
        return self.record.last_seq if self.record is not None else 0

    @property
    def draw_end(self) -> int:
        """The FairRng counter after the last draw (envelope meta.draw_end)."""
        return self.record.draw_end if self.record is not None else 0

    @property
    def building(self) -> bool:
        return self.record is not None and self.record.ended is None and self.state.phase == BUILDING


def _status(state: TruckerState) -> str:
    if state.phase != BUILDING:
        return "ended"
    if state.players and all(state.seats[p].order_tile is not None for p in state.players):
        return "ending"   # every ship finished but the end of building is not recorded yet
    return "building"


def future_grabs(folded: Folded, seed: bytes) -> list[tuple[str, int]]:
    """Every face-down grab still to come this round, with the FairRng counter after each: the rules
    engine's own `face_down_sequence`, resumed where the stream's last draw left it. While building
    only these grabs and a pile's first look draw (after which `tables._first_look` computes the
    sequence again), so this is exactly what `GAME.decide` would grab, one by one (the audit
    re-derives it from the revealed seed). PRIVATE: it goes to Redis and nowhere else."""
    if not folded.building:
        return []
    return build_phase.face_down_sequence(folded.state.face_down, FairRng(seed, start=folded.draw_end))


def warehouse_doc(game: str, folded: Folded, epoch: str, future: list[tuple[str, int]] | None = None) -> dict:
    """The Redis document of the warehouse at the end of `folded`. `future` (from `future_grabs`) is the
    order of the face-down grabs to come; without it the pile is listed sorted (for comparisons only)."""
    state = folded.state
    future = future if future is not None else [(tile, folded.draw_end) for tile in sorted(state.face_down)]
    seats = [state.seats[p] for p in state.players]
    options = state.options
    newest, where = {}, {}
    for tile in state.face_down:
        where[tile] = "face_down"
    for tile in state.face_up:
        where[tile] = "face_up"
    for seat in seats:
        if seat.hand:
            where[seat.hand] = f"hand:{seat.name}"
        for tile in seat.ship.reserve:
            where[tile] = f"reserve:{seat.name}"
        for placed in seat.ship.tiles.values():
            where[placed.component] = f"ship:{seat.name}"
        if seat.ship.newest is not None:
            col, row = seat.ship.newest
            newest[seat.name] = json.dumps({"component": seat.ship.tiles[(col, row)].component,
                                            "col": col, "row": row, "reserve": seat.from_reserve})
    return {
        "meta": {
            "game": game, "format": WAREHOUSE_FORMAT, "epoch": epoch, "seq": folded.seq,
            "draw_end": folded.draw_end, "round": state.round,
            "board": seats[0].ship.board if seats else "", "players": json.dumps(state.players),
            "options": json.dumps(options),
            # Times go as text with every digit: Lua and Python read back exactly these numbers.
            "timer_space": state.timer_space if state.building_started else _first_space(state),
            "runs_out_at": repr(float(state.runs_out_at or 0)), "started": "1" if state.building_started else "0",
            "status": _status(state), "piles": json.dumps(state.piles),
            # The cards known so far (a pile's first look draws among the others).
            "used_cards": json.dumps(state.used_cards), "round_cards": json.dumps(state.round_cards),
            # The seats someone else than their own player plays, {seat: controller} (the stream's seat
            # control): a bot's `bot:<level>` or a substitute's player id. A move of such a seat is its
            # controller's only (`commit.lua`'s guard `controller`); a seat not named is its player's.
            "controllers": controllers_meta(_controllers(folded.record)),
        },
        "seat": {p: i for i, p in enumerate(state.players)},
        "facedown": [tile for tile, _ in future],
        "facedown_draws": [draw_end for _, draw_end in future],
        "faceup": list(state.face_up),
        "where": where,
        "hand": {s.name: s.hand for s in seats if s.hand},
        "handfrom": {s.name: ("reserve" if s.from_reserve else "warehouse") for s in seats if s.hand},
        "ships": {s.name: {f"{c},{r}": f"{p.component}|{p.rotation}" for (c, r), p in s.ship.tiles.items()}
                  for s in seats},
        "newest": newest,
        "seatver": {s.name: 0 for s in seats},
        "reserve": {s.name: list(s.ship.reserve) for s in seats if s.ship.reserve},
        "order": {str(s.order_tile): s.name for s in seats if s.order_tile is not None},
        "finished": {s.name: s.order_tile for s in seats if s.order_tile is not None},
        "piles": {str(s.looking_at): s.name for s in seats if s.looking_at is not None},
        "looking": {s.name: s.looking_at for s in seats if s.looking_at is not None},
        # Every move's client id the stream holds: after a rebuild a resend is answered, not applied again.
        "cmds": dict(folded.requests),
    }


def controllers_meta(controllers: dict[str, str]) -> str:
    """The warehouse's meta `controllers`: the seats among `controllers` (seat → controller, as
    `SeatControl` folds them) that are not played by their own player, a bot or a substitute holding
    them. Only those: a seat's own player needs no entry, and the meta stays small."""
    return json.dumps({seat: controller for seat, controller in controllers.items() if controller != seat})


def _controllers(record: GameRecord | None) -> dict[str, str]:
    return dict(record.seats.controllers) if record is not None else {}


def _first_space(state: TruckerState) -> int:
    from trucker_rules import catalog
    return catalog.hourglass_start_space(state.round) if state.round else 0


def canonical(doc: dict) -> dict:
    """One form for a `warehouse_doc` and a secret Redis snapshot (`RedisWarehouse.snapshot(secret=True)`).
    The face-down pile compares as a set: the stream knows which tiles are left, not their future order."""
    meta = doc["meta"]
    newest = {p: json.loads(raw) for p, raw in doc.get("newest", {}).items()}
    reserve = {p: (json.loads(v) if isinstance(v, str) else list(v)) for p, v in doc.get("reserve", {}).items()}
    hand = dict(doc.get("hand", {}))
    from_reserve = sorted(
        [p for p, source in doc.get("handfrom", {}).items() if source == "reserve"]
        + [p for p, n in newest.items() if n.get("reserve") and p not in hand])
    return {
        "seq": int(meta["seq"]), "status": meta["status"], "timer_space": int(meta["timer_space"]),
        "runs_out_at": float(meta["runs_out_at"]), "draw_end": int(meta["draw_end"]),
        "cards": {name: json.loads(meta[name]) for name in ("piles", "used_cards", "round_cards")},
        "facedown": sorted(doc["facedown"]), "faceup": sorted(doc["faceup"]), "where": dict(doc["where"]),
        "hand": hand, "from_reserve": from_reserve,
        "ships": {p: dict(squares) for p, squares in doc["ships"].items()},
        "newest": {p: (n["col"], n["row"]) for p, n in newest.items()},
        "reserve": {p: v for p, v in reserve.items() if v},
        "order": {str(n): p for n, p in doc.get("order", {}).items()},
        "finished": {p: int(n) for p, n in doc.get("finished", {}).items()},
        "looking": {p: int(n) for p, n in doc.get("looking", {}).items()},
        "piles": {str(n): p for n, p in doc.get("piles", {}).items()},
        "controllers": json.loads(meta.get("controllers") or "{}"),
    }
