"""Shared test helpers: a Trucker game's stream as the platform writes it, and the invariants."""
from __future__ import annotations

import uuid

from starbase_core.gamestream import game_created, game_stream, wrap
from starbase_rules.fair import FairRng, commitment
from trucker_rules.game import GAME

from trucker.state_doc import Folded, canonical, warehouse_doc


async def new_game(store, players: list[str], options: dict | None = None, seed: bytes | None = None,
                   vault=None, game: str | None = None, before_setup=None) -> str:
    """Append GameCreated and the engine's setup events, as the adjudicator does when a table starts
    (with the seed from `vault` when one is given, as the adjudicator does); a new game id unless `game`.
    `before_setup`: awaited between the two (what a reader may meet between them)."""
    game = game or f"g{uuid.uuid4().hex[:12]}"
    if vault is not None:
        seed = await vault.get_or_create(game)
    seed = seed or uuid.uuid4().bytes
    rng = FairRng(seed)
    setup = GAME.setup(players, options or {}, rng)
    stream = game_stream(game)
    await store.append(stream, [game_created("trucker", players, options or {}, commitment(seed), rng.used)],
                       expected_seq=0)
    if before_setup is not None:
        await before_setup()
    await store.append(stream, wrap(setup, actor=None, draw_end=rng.used), expected_seq=1)
    return game


async def folded(store, game: str) -> Folded:
    return Folded(await store.read(game_stream(game)))


async def next_face_down(store, vault, game: str) -> str:
    """The tile the rules engine would grab face down now: drawn with the game's FairRng where the
    stream's last draw left it (so the service's answer can be checked against the engine's)."""
    from trucker_rules.build_phase import draw_face_down
    now = await folded(store, game)
    return draw_face_down(now.state.face_down, FairRng(await vault.get(game), start=now.draw_end))


async def check_invariants(service, game: str) -> None:
    """Everything durable; then: a tile in exactly one place, at most one in hand, each order tile
    taken once, the rules' own invariants, and Redis equal to the fold of the stream."""
    for _ in range(5):      # Redis and the stream read at one moment: nothing moved between the reads
        await service.relay.flush(game)
        snapshot = await service.warehouse.snapshot(game, secret=True)
        if snapshot["meta"]["status"] == "ending":
            # The sand ran out on START: Redis has stopped building and the service's hourglass watch is
            # about to record the end in the stream. Record it here (whoever is first; the rest are no-ops).
            await service.conclude(game)
            continue
        state = await folded(service.store, game)
        if await service.warehouse.snapshot(game, secret=True) == snapshot:
            break
    else:
        raise AssertionError(f"game {game}: Redis kept changing under the check")
    assert GAME.invariants(state.state) == []
    if not state.building:   # the round's warehouse is closed: it only refuses moves from now on
        assert snapshot["meta"]["status"] == "ended"
        return
    redis_view = canonical(snapshot)
    stream_view = canonical(warehouse_doc(game, state, epoch="-"))
    assert redis_view == stream_view, {k: (redis_view[k], stream_view[k]) for k in redis_view
                                       if redis_view[k] != stream_view[k]}
    places = redis_view["where"]
    tiles = [t for t in places]
    assert len(tiles) == len(set(tiles))
    counted = (len(redis_view["facedown"]) + len(redis_view["faceup"]) + len(redis_view["hand"])
               + sum(len(s) for s in redis_view["ships"].values())
               + sum(len(r) for r in redis_view["reserve"].values()))
    assert counted == len(places)
    order_holders = list(redis_view["order"].values())
    assert len(order_holders) == len(set(order_holders))


def move(operation: str, args: tuple = ()):
    """A move named as in the socket's short form (the warehouse's old operation names), as the rules
    engine's command that `TableService.play` takes."""
    from trucker_rules import messages as m
    if operation == "place":
        return m.PlaceComponent(square=(args[0], args[1]), rotation=args[2])
    if operation == "move_newest":
        return m.MoveNewest(square=(args[0], args[1]), rotation=args[2])
    if operation == "finish":
        return m.Finish(order_tile=None if not args or args[0] == "" else int(args[0]))
    with_component = {"grab_face_up": m.GrabFaceUp, "grab_reserved": m.TakeReserved}
    if operation in with_component:
        return with_component[operation](component=args[0])
    if operation == "look_at_pile":
        return m.LookAtPile(pile=args[0])
    plain = {"grab_face_down": m.GrabFaceDown, "return_tile": m.ReturnComponent, "reserve": m.ReserveComponent,
             "return_pile": m.PutBackPile}
    if operation == "turn_timer":
        return m.TurnTimer(at=0.0)          # the service stamps its own clock
    return plain[operation]()


def placements(ship, component: str):
    """Every (column, row, rotation) for `component` on `ship`, each with the rules' refusal of it
    (a `RuleViolation`) or None where the rules accept it."""
    from starbase_rules.contract import RuleViolation
    from trucker_rules.building import check_placement

    for square in sorted(ship.squares):
        for rotation in range(4):
            try:
                check_placement(ship, component, square, rotation)
            except RuleViolation as violation:
                yield (square[0], square[1], rotation), violation
            else:
                yield (square[0], square[1], rotation), None


def legal_spot(ship, component: str) -> tuple[int, int, int] | None:
    """Some (column, row, rotation) where the rules accept `component` on `ship`, or None."""
    return next((spot for spot, refused in placements(ship, component) if refused is None), None)


def flawed_spot(ship, component: str) -> tuple[int, int, int] | None:
    """Some (column, row, rotation) where the rules accept `component` on `ship` (placements are not
    refused for facing flaws unless the table says so) but the inspection will find it flawed: an engine
    not exhausting to the rear, a barrel or an exhaust blocked. None for a component that cannot be."""
    from trucker_rules.building import inspect
    from trucker_rules.ship import Placed, Ship

    for spot, refused in placements(ship, component):
        square = spot[:2]
        if refused is None and any(square in (flaw.square, flaw.other) for flaw in inspect(
                Ship(ship.board, {**ship.tiles, square: Placed(component, spot[2])}))):
            return spot
    return None


async def grab_and_place(socket, stream, seat: str, spot_for=legal_spot) -> list[dict]:
    """Grab face down on `socket` (a `live.Client` building `seat`) until a component has a spot
    (`spot_for(ship, component)`) on the seat's ship, place it there (misfits go back face up); the
    answers, each asserted acked. Nobody else moves that ship meanwhile, so the stream shows it."""
    answers = []
    while True:
        grabbed = await socket.send("grab_face_down")
        answers.append(grabbed)
        assert grabbed["kind"] == "ack", grabbed
        tile = grabbed["events"][0]["data"]["component"]
        spot = spot_for((await stream.catch_up()).state.seats[seat].ship, tile)
        answer = await (socket.send("place", square=list(spot[:2]), rotation=spot[2]) if spot
                        else socket.send("return"))
        answers.append(answer)
        assert answer["kind"] == "ack", answer
        if spot:
            return answers


def illegal_joint_spot(ship, component: str) -> tuple[int, int, int] | None:
    """A square next to the ship where `component` makes an illegal joint in some rotation."""
    return next((spot for spot, refused in placements(ship, component)
                 if refused is not None and refused.code == "ILLEGAL_JOINT"), None)


class Table:
    """A game at the service layer, for given/when/then tests."""

    def __init__(self, service, game: str):
        self.service, self.game = service, game

    async def play(self, player: str, operation: str, *args, command_id: str | None = None):
        applied = await self.service.play(self.game, player, move(operation, tuple(args)), command_id)
        await check_invariants(self.service, self.game)
        return applied

    async def refusal(self, player: str | None, operation: str, *args) -> str:
        """The refusal code of a move, after checking the refusal changed nothing at all."""
        from trucker.warehouse import Refused
        before = await self.service.warehouse.snapshot(self.game, secret=True)
        try:
            await self.service.play(self.game, player, move(operation, tuple(args)), None)
        except Refused as refusal:
            after = await self.service.warehouse.snapshot(self.game, secret=True)
            assert after == before, f"{refusal.code} changed the warehouse"
            return refusal.code
        raise AssertionError(f"{operation} by {player} was accepted")

    async def state(self):
        return (await folded(self.service.store, self.game)).state

    async def next_face_down(self) -> str:
        """What the rules engine's next face-down grab draws, from the seed and the stream alone."""
        return await next_face_down(self.service.store, self.service.vault, self.game)

    async def grab_and_place(self, player: str) -> str:
        """Grab face-down until a component fits; place it (returning the misfits face up)."""
        while True:
            tile = (await self.play(player, "grab_face_down")).events[0]["data"]["component"]
            spot = legal_spot((await self.state()).seats[player].ship, tile)
            if spot:
                await self.play(player, "place", *spot)
                return tile
            await self.play(player, "return_tile")


def assert_reruns_through_the_rules(envelopes, seed: bytes) -> int:
    """What the platform's audit checks of a game still in progress, once its seed is known: an intact
    hash chain, and every recorded command (`meta.command`) re-run through the platform's transaction
    (`decide_next`, as the audit and the adjudicator run it) gives exactly the stored events, actor and
    meta, one command's events stored by one append. Returns how many commands ran."""
    from starbase_core.audit import UNCHECKED_META
    from starbase_core.envelope import chain_problems
    from starbase_core.gamestream import replay
    from starbase_core.transaction import decide_next, open_game, realtime_service

    assert chain_problems(envelopes) == []
    created = envelopes[0].data
    opening = open_game(GAME, list(created["players"]), dict(created["options"]), seed)
    record = replay(envelopes[0].stream.split(".", 1)[1], envelopes[:len(opening)], lambda _name: GAME)
    position, commands = len(opening), 0
    while position < len(envelopes):
        first = envelopes[position]
        assert "command" in first.meta, f"seq {first.seq}: {first.type} was not produced by a recorded command"
        decision = decide_next(record, first.meta["command"], first.actor, seed,   # as the audit runs it
                               played_by=first.meta.get("played_by"), service=realtime_service(record),
                               check_invariants=True)
        stored = envelopes[position:position + len(decision.events)]
        for envelope, new in zip(stored, decision.events, strict=True):
            checked_meta = {k: v for k, v in envelope.meta.items() if k not in UNCHECKED_META}
            if "command" in checked_meta:       # compared by meaning, as the audit does
                checked_meta["command"] = GAME.parse_command(checked_meta["command"]).model_dump(mode="json")
            assert (envelope.type, envelope.data, envelope.actor, checked_meta) == \
                   (new.type, new.data, new.actor, new.meta), f"seq {envelope.seq} differs from the re-run"
            assert envelope.command_id == first.command_id      # one command's events, one append
        record.advance(decision.state, stored)
        position, commands = position + len(decision.events), commands + 1
    return commands


class FoldedStream:
    """A game as its stream tells it, folded incrementally (what a client reading the stream knows)."""

    def __init__(self, store, game: str):
        self.store, self.game, self.folded = store, game, Folded([])
        self.envelopes = []

    async def catch_up(self) -> Folded:
        for envelope in await self.store.read(game_stream(self.game), from_seq=self.folded.seq + 1):
            self.folded.add(envelope)
            self.envelopes.append(envelope)
        return self.folded
