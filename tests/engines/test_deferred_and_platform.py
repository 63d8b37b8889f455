"""Two opt-in parts of the engine base: the deferred scratchpad (`Engine.deferred_copy`, `DeferredTx`)
and commands the platform itself may send (`GameInfo.platform_commands`). Checked on Tiny Counters
subclassed to opt in, so an engine that does not opt in is shown to behave as before."""
from __future__ import annotations

import copy
from typing import Literal

from starbase_rules import Command, DeferredTx, FairRng, Rules, RuleViolation, Tx, fold
from tests.engines.tiny_game import GAME, INFO, RULES, Take, TinyCounters


class Deferred(TinyCounters):
    deferred_copy = True


def started(options=None):
    rng = FairRng(b"deferred")
    return fold(GAME, GAME.setup(["ann", "bob", "cy"], options or {}, rng)), rng


def counting_copies():
    """A copy function that counts its calls (and copies for real)."""
    calls = []

    def copy_state(state):
        calls.append(1)
        return copy.deepcopy(state)
    return calls, copy_state


def taken(player, count=2):
    return GAME.parse_event({"type": "Taken", "player": player, "count": count, "scored": False})


def test_the_deferred_scratchpad_copies_nothing_until_the_state_is_read_after_an_emit():
    state, _ = started()
    calls, copy_state = counting_copies()
    tx = DeferredTx(state, GAME.evolve, copy_state, None)
    assert tx.state is state and calls == []             # read before any emit: the caller's own
    tx.emit(taken(state.player_to_move))
    tx.emit(taken(state.players[(state.turn + 1) % 3], 1))
    assert calls == [] and [e.count for e in tx.events] == [2, 1]
    assert tx.state.left == 12 and tx.state is not state and calls == [1]   # copied once, both applied
    assert tx.state.left == 12 and calls == [1]                            # read again: nothing redone
    tx.emit(taken(tx.state.player_to_move, 3))
    assert tx.state.left == 9 and calls == [1]           # the private copy is brought up to date
    assert state.left == 15                              # the caller's state was never touched


def test_a_deferred_engine_decides_exactly_as_the_eager_one_and_leaves_its_input_alone():
    eager, deferred = GAME, Deferred()
    assert isinstance(deferred.tx(GAME.initial_state()), DeferredTx)
    assert type(eager.tx(GAME.initial_state())) is Tx
    state, rng = started({"counters": 7})
    while eager.outcome(state) is None:
        player = eager.to_act(state)[0]
        command = eager.default_command(state, player)
        before = copy.deepcopy(state)
        mine = deferred.decide(state, command, player, FairRng(b"d", start=rng.used))
        assert state == before
        expected = eager.decide(state, command, player, FairRng(b"d", start=rng.used))
        assert mine == expected            # the automatic reveal included: `advance` reads after emits
        state = fold(eager, expected, state)
    assert [e.type for e in mine][-1] == "LuckRevealed"


def test_a_deferred_refusal_leaves_nothing_behind():
    state, rng = started()
    before = copy.deepcopy(state)
    try:
        Deferred().decide(state, Take(count=9), state.player_to_move, rng)
    except RuleViolation as refused:
        assert refused.code == "ILLEGAL_COUNT"
    else:
        raise AssertionError("taking 9 was accepted")
    assert state == before


class Tick(Command):
    type: Literal["Tick"] = "Tick"


def clocked_engine():
    """Tiny Counters with a clock command the platform may send (actor None) and players may too."""
    rules = Rules()
    for kind, function in RULES.deciders.items():
        rules.decides(RULES.commands[kind])(function)
    for kind, function in RULES.evolvers.items():
        rules.evolves(RULES.events[kind])(function)

    @rules.decides(Tick)
    def tick(tx, command, actor):
        tx.emit(taken(tx.state.player_to_move, 1))

    class Clocked(TinyCounters):
        info = INFO.model_copy(update={"name": "clocked", "platform_commands": ("Tick",)})

    Clocked.rules = rules
    return Clocked()


def test_the_platform_may_send_only_the_declared_platform_commands():
    engine = clocked_engine()
    state, rng = started()
    assert [e.count for e in engine.decide(state, Tick(), None, rng)] == [1]         # the clock
    assert [e.count for e in engine.decide(state, Tick(), "ann", rng)] == [1]        # a player too
    for actor, command in ((None, Take(count=1)), ("eve", Tick())):
        try:
            engine.decide(state, command, actor, rng)
        except RuleViolation as refused:
            assert refused.code == "NOT_A_PLAYER"
        else:
            raise AssertionError(f"{command.type} from {actor!r} was accepted")
    assert INFO.platform_commands == () and GAME.info.model_dump(mode="json")["platform_commands"] == []
