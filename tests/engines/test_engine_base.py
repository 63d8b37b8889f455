"""The engine base: guards applied once, the scratchpad, the registry, the defaults of the optional parts."""
from __future__ import annotations

import copy
import random
from typing import ClassVar, Literal

import pytest

from starbase_rules import HIDDEN, OWN_ENTRY, Command, Engine, Event, FairRng, GameInfo, Rules, RuleViolation, fold, refuse, seen_by
from starbase_rules.redaction import redact_event, secrets_of_type
from tests.engines.tiny_game import GAME, INFO, Take, TinyCounters

PLAYERS = ["ann", "bob", "cy"]


def started(options=None, seed=b"base"):
    rng = FairRng(seed)
    return fold(GAME, GAME.setup(PLAYERS, options or {}, rng)), rng


def code_of(call, *args):
    with pytest.raises(RuleViolation) as caught:
        call(*args)
    assert caught.value.message
    return caught.value.code


# -- the contract's identity comes from the declaration --------------------------------------------

def test_name_and_player_range_come_from_the_declaration():
    assert (GAME.name, GAME.min_players, GAME.max_players) == ("tiny", 2, 4)


def test_an_engine_without_its_core_cannot_be_made():
    class NoView(Engine):
        info, rules = INFO, Rules()

        def initial_state(self):
            return None

        def begin(self, tx, players, options):
            pass

        def outcome(self, state):
            return None

    with pytest.raises(TypeError, match="view"):
        NoView()


# -- guards in setup and decide --------------------------------------------------------------------

@pytest.mark.parametrize("players, options, code", [
    (["ann"], {}, "BAD_PLAYER_COUNT"), (["a", "b", "c", "d", "e"], {}, "BAD_PLAYER_COUNT"),
    (["ann", "ann"], {}, "DUPLICATE_PLAYER"), (PLAYERS, {"colour": "red"}, "UNKNOWN_OPTION"),
    (PLAYERS, {"counters": 4}, "BAD_OPTION"), (PLAYERS, {"last_counter": "wins"}, "BAD_OPTION"),
])
def test_setup_refuses_players_and_options_against_the_declaration(players, options, code):
    assert code_of(GAME.setup, players, options, FairRng(b"s")) == code


def test_setup_passes_every_option_with_defaults_to_begin():
    events = GAME.setup(PLAYERS, {"bonus": 0}, FairRng(b"s"))
    assert events[0].options == {**INFO.check_options({}), "bonus": 0}


def test_option_problems_of_the_engine_are_bad_option():
    class Strict(TinyCounters):
        def option_problems(self, options, players):
            return ["too few counters for so many players"] if options["counters"] < 5 * len(players) else []

    assert code_of(Strict().setup, PLAYERS, {"counters": 10}, FairRng(b"s")) == "BAD_OPTION"
    assert Strict().setup(PLAYERS, {"counters": 15}, FairRng(b"s"))


def test_decide_refuses_a_finished_game_before_anything_else():
    state, rng = started({"counters": 5})
    while GAME.outcome(state) is None:
        player = GAME.to_act(state)[0]
        state = fold(GAME, GAME.decide(state, GAME.default_command(state, player), player, rng), state)
    assert code_of(GAME.decide, state, Take(count=1), "nobody", rng) == "GAME_OVER"


def test_decide_refuses_someone_who_is_not_playing():
    state, rng = started()
    assert code_of(GAME.decide, state, Take(count=1), "eve", rng) == "NOT_A_PLAYER"
    assert code_of(GAME.decide, state, Take(count=1), None, rng) == "NOT_A_PLAYER"


def test_decide_refuses_a_command_the_game_has_no_handler_for():
    class Dance(Command):
        type: Literal["Dance"] = "Dance"

    state, rng = started()
    assert code_of(GAME.decide, state, Dance(), GAME.to_act(state)[0], rng) == "MALFORMED_COMMAND"
    assert code_of(GAME.parse_command, {"type": "Dance"}) == "MALFORMED_COMMAND"


def test_precheck_runs_before_the_handler_on_the_callers_state():
    seen = []

    class Checked(TinyCounters):
        def precheck(self, state, command, actor):
            seen.append((state.left, command.count, actor))
            if command.count == 2:
                refuse("NO_TWOS", "twos are out today")

    state, rng = started()
    player = GAME.to_act(state)[0]
    assert code_of(Checked().decide, state, Take(count=2), player, rng) == "NO_TWOS"
    assert seen == [(15, 2, player)]


# -- the scratchpad --------------------------------------------------------------------------------

def test_refuse_always_raises_so_raise_refuse_means_the_same():
    with pytest.raises(RuleViolation) as caught:
        refuse("NOPE", "not now")
    assert (caught.value.code, caught.value.message) == ("NOPE", "not now")
    with pytest.raises(RuleViolation):
        raise refuse("NOPE", "not now")          # the 21Moon habit keeps its meaning


def test_emit_evolves_the_private_copy_and_never_the_callers_state():
    state, rng = started()
    before = copy.deepcopy(state)
    tx = GAME.tx(state, rng)
    player = state.player_to_move
    tx.emit(GAME.parse_event({"type": "Taken", "player": player, "count": 2, "scored": False}))
    assert tx.state.left == 13 and [e.type for e in tx.events] == ["Taken"]
    assert state == before


def test_a_decision_without_a_source_of_chance_says_so_when_it_draws():
    with pytest.raises(RuntimeError, match="without a source of chance"):
        GAME.tx(GAME.initial_state()).rng


def test_a_refused_decision_leaves_the_state_as_it_was():
    state, rng = started()
    before = copy.deepcopy(state)
    assert code_of(GAME.decide, state, Take(count=4), state.player_to_move, rng) == "ILLEGAL_COUNT"
    assert state == before


# -- the registry ----------------------------------------------------------------------------------

def test_a_type_has_one_handler():
    rules = Rules()

    class Poke(Command):
        type: Literal["Poke"] = "Poke"

    rules.decides(Poke)(lambda tx, command, actor: None)
    with pytest.raises(ValueError, match="already"):
        rules.decides(Poke)(lambda tx, command, actor: None)


def test_a_model_without_a_type_default_cannot_be_registered():
    class Vague(Event):
        type: str

    with pytest.raises(TypeError, match="Literal"):
        Rules().evolves(Vague)


def test_evolve_handlers_may_mutate_in_place_or_return_a_new_state():
    rules = Rules()

    class Counted(Event):
        type: Literal["Counted"] = "Counted"

    class Replaced(Event):
        type: Literal["Replaced"] = "Replaced"

    rules.evolves(Counted)(lambda state, event: state.append(1))
    rules.evolves(Replaced)(lambda state, event: ["new"])
    state = []
    assert rules.evolve(state, Counted()) is state and state == [1]
    assert rules.evolve(state, Replaced()) == ["new"]


# -- defaults of the optional parts ------------------------------------------------------------------

def test_to_act_defaults_to_the_players_with_a_legal_action():
    state, _ = started()
    assert GAME.to_act(state) == [state.player_to_move]


def test_free_actions_do_not_make_a_player_owe_a_decision():
    class Free(TinyCounters):
        info = INFO.model_copy(update={"free_actions": ("Take",)})

    state, _ = started()
    assert Free().to_act(state) == []


def test_the_default_timeout_command_is_the_first_legal_action_of_the_preferred_types():
    state, _ = started()
    player = state.player_to_move
    assert GAME.default_command(state, player) == Take(count=1)
    assert GAME.default_command(state, next(p for p in PLAYERS if p != player)) is None


def test_without_a_preferred_type_the_timeout_command_is_the_bots_choice_with_a_fixed_seed():
    class Unpreferring(TinyCounters):
        info = INFO.model_copy(update={"timeout_preference": ()})

    engine, (state, _) = Unpreferring(), started()
    player = state.player_to_move
    chosen = engine.default_command(state, player)
    assert chosen == engine.bot_command(state, player, random.Random(0)) == engine.default_command(state, player)


def test_realtime_service_follows_the_declared_rounds():
    class Live(TinyCounters):
        info = INFO.model_copy(update={"realtime": {"playing": "counters-live"}})

    state, _ = started()
    assert GAME.realtime_service(state) is None
    assert Live().realtime_service(state) == "counters-live"
    assert Live().realtime_service(GAME.initial_state()) is None


def test_the_round_marker_may_be_a_dotted_path():
    class Nested(TinyCounters):
        info = INFO.model_copy(update={"round_field": "options.last_counter", "over": "loses"})

    state, _ = started({"last_counter": "loses"})
    assert Nested().round_of(state) == "loses" and Nested().is_over(state)


def test_the_default_base_parts_answer_safely():
    class Bare(TinyCounters):
        legal_actions = TinyCounters.__mro__[1].legal_actions
        bot_command = TinyCounters.__mro__[1].bot_command
        invariants = TinyCounters.__mro__[1].invariants

    engine, (state, _) = Bare(), started()
    assert engine.legal_actions(state, "ann") == [] and engine.to_act(state) == []
    assert engine.bot_command(state, "ann", random.Random(1)) is None and engine.invariants(state) == []


# -- redaction from declared secrets ---------------------------------------------------------------

class Dealt(Event):
    secret_fields: ClassVar[dict[str, str]] = {"hand": seen_by("player"), "pile": HIDDEN, "lucky": OWN_ENTRY,
                                               "trump": HIDDEN, "tiles": HIDDEN}
    type: Literal["Dealt"] = "Dealt"
    player: str
    hand: list[int]
    pile: list[int]
    lucky: dict[str, int]
    trump: int
    tiles: dict[str, int]
    table: list[int]


DEALT = Dealt(player="ann", hand=[1, 2], pile=[3, 4, 5], lucky={"ann": 1, "bob": 2}, trump=7,
              tiles={"h1": 2}, table=[9])


def test_a_secret_keeps_its_shape_and_loses_its_content():
    seen = redact_event(DEALT, "bob")
    assert seen == {"type": "Dealt", "v": 1, "player": "ann", "hand": 2, "pile": 3, "lucky": {"ann": None, "bob": 2},
                    "trump": None, "tiles": {"h1": None}, "table": [9]}


def test_the_player_a_secret_is_for_sees_it():
    seen = redact_event(DEALT, "ann")
    assert seen["hand"] == [1, 2] and seen["lucky"] == {"ann": 1, "bob": None} and seen["pile"] == 3


def test_a_spectator_sees_no_secret():
    seen = redact_event(DEALT, None)
    assert seen["hand"] == 2 and seen["lucky"] == {"ann": None, "bob": None} and seen["table"] == [9]


def test_an_event_without_secrets_is_shown_whole():
    event = GAME.parse_event({"type": "Taken", "player": "ann", "count": 2, "scored": True})
    assert GAME.redact(event, "bob") == event.model_dump()


def test_an_event_type_is_shown_everyone_alike_only_without_secrets_and_with_the_bases_redaction():
    # The lobby encodes such an event once for every viewer (`starbase_core.gamestream.same_for_every_viewer`).
    secret = [kind for kind, declared in type(GAME).rules.events.items() if secrets_of_type(declared)]
    assert secret == ["GameSetUp"] and not GAME.shows_everyone_alike("GameSetUp")
    assert GAME.shows_everyone_alike("Taken") and not GAME.shows_everyone_alike("NoSuchEvent")

    class OwnRedaction(type(GAME)):
        def redact(self, event, viewer):
            return None if viewer is None else redact_event(event, viewer)

    assert not OwnRedaction().shows_everyone_alike("Taken")     # it must say for itself


def test_an_unknown_secrecy_is_an_error_not_a_leak():
    class Odd(Event):
        secret_fields: ClassVar[dict[str, str]] = {"card": "the dealer"}
        type: Literal["Odd"] = "Odd"
        card: int

    with pytest.raises(ValueError, match="unknown secrecy"):
        redact_event(Odd(card=3), "ann")


def test_the_registry_gives_a_games_declaration_and_none_for_an_engine_not_on_the_base(monkeypatch):
    from starbase_rules import registry
    from tests.engines.tiny_game import ENGINE_PATH

    monkeypatch.setitem(registry.ENGINES, "tiny", ENGINE_PATH)
    monkeypatch.setitem(registry.ENGINES, "plain", "tests.support.testjack:GAME")
    assert registry.game_info("tiny") is INFO and registry.game_info("stellar").title == "Stellar Ventures"
    assert registry.game_info("plain") is None
    assert code_of(registry.game_info, "chess") == "UNKNOWN_GAME"


def test_an_engine_on_the_base_is_the_platforms_game_and_has_every_part():
    from starbase_rules import parts
    from starbase_rules.contract import Game
    from stellar.game import GAME as STELLAR

    for engine in (GAME, STELLAR):
        assert isinstance(engine, Game) and isinstance(engine, parts.Core)
        for part in (parts.LegalActions, parts.Turns, parts.Bots, parts.Redaction, parts.Realtime, parts.Invariants):
            assert isinstance(engine, part), part.__name__
