"""Every registered engine (and the example game) against the contract, on its bots' games.

For each engine and each player count it takes, the bots play one deterministic game (conformance.py);
the checks below look at up to 24 states spread over it. What is checked, as properties:

- metadata: a `GameInfo` whose name, player range and options are consistent (defaults valid, choices
  holding the default, bounds in order), free and preferred command types that exist, a round marker
  that says "over" exactly when there is an outcome, `realtime_service` callable;
- players and options: a count outside the range is BAD_PLAYER_COUNT, a player seated twice
  DUPLICATE_PLAYER, an unknown key UNKNOWN_OPTION, a value the declaration forbids BAD_OPTION, and
  every declared value (each default, choice and bound) is accepted;
- legal actions: every action listed parses and `decide` accepts it (up to 6 per player and state);
- purity: `decide`, accepting or refusing, leaves its input equal to what it was;
- refusals: a command refused changes nothing; a non-player gets NOT_A_PLAYER, an unknown type
  MALFORMED_COMMAND, any command after the end GAME_OVER;
- to_act and legal_actions agree: a player to act has a legal action; a player not to act has none but
  declared free actions; nobody is to act and nothing is legal once the game is over;
- events: each round-trips through JSON (`parse_event(json(dump)) == event`), and the stream refolds to
  the state the game reached;
- redaction: an event redacted for viewer X is the event with exactly the fields its type declares
  secret from X blanked; and X's view does not change when those secret values are scrambled in the
  stream (so an event shown to X carries no value X's view hides, and the view hides what the events do);
- the clock's default command and the bot's command are accepted.
"""
from __future__ import annotations

import copy
import json
import random

import pytest

from starbase_core.compact_json import compact
from starbase_rules.fair import FairRng
from starbase_rules.info import GameInfo
from starbase_rules.redaction import OWN_ENTRY, may_see, redact_event, secrets_of
from tests.engines.conformance import (
    NAMES, PLAYER_NAMES, SAMPLED_ACTIONS, counts, engine, engines_for, free_actions, info_of, parsed, refusal,
    seated, spread, trace,
)

RNG = FairRng(b"conformance-decide")


def _code(call, *args) -> str | None:
    refused = refusal(call, *args)
    return refused.code if refused else None


# -- metadata, players, options ------------------------------------------------------------------------

@pytest.mark.parametrize("name", engines_for("metadata"))
def test_metadata_is_declared_and_consistent(name):
    game, info = engine(name), info_of(name)
    assert isinstance(info, GameInfo) and info.name == game.name == name and info.title
    assert 1 <= info.min_players <= info.max_players == game.max_players and info.min_players == game.min_players
    keys = [spec.key for spec in info.options]
    assert len(keys) == len(set(keys)) and all(key.isidentifier() for key in keys)
    for spec in info.options:
        assert spec.problem(spec.default) is None, spec
        assert spec.description and "\n" not in spec.description
        assert spec.choices is None or (spec.choices and spec.default in spec.choices)
        assert None in (spec.minimum, spec.maximum) or spec.minimum <= spec.maximum
    commands = set(game.rules.commands)
    assert set(info.free_actions) <= commands and set(info.timeout_preference) <= commands
    assert all(service for service in info.realtime.values())
    played = trace(name, info.min_players)
    assert not game.is_over(played.samples[0].state) and game.is_over(played.final) == played.finished
    for sample in played.samples:
        assert game.is_over(sample.state) == (game.outcome(sample.state) is not None)
        assert game.realtime_service(sample.state) in (None, *info.realtime.values())


@pytest.mark.parametrize("name", NAMES)
def test_player_counts_outside_the_range_are_refused(name):
    game = engine(name)
    for count in (game.min_players - 1, game.max_players + 1):
        assert _code(game.setup, PLAYER_NAMES[:count] + ["zed"] * (count > len(PLAYER_NAMES)), {},
                     FairRng(b"s")) == "BAD_PLAYER_COUNT"


@pytest.mark.parametrize("name", engines_for("duplicate_player"))
def test_a_player_seated_twice_is_refused(name):
    game = engine(name)
    players = PLAYER_NAMES[:game.min_players - 1] + PLAYER_NAMES[:1]
    assert _code(game.setup, players, {}, FairRng(b"s")) == "DUPLICATE_PLAYER"


@pytest.mark.parametrize("name", engines_for("unknown_option"))
def test_an_unknown_option_is_refused(name):
    game = engine(name)
    assert _code(game.setup, seated(name), {"no_such_option": 1}, FairRng(b"s")) == "UNKNOWN_OPTION"


def _bad_values(spec) -> list:
    wrong_type = {"bool": ["yes", 1], "int": ["1", 1.5, True], "float": ["1.0", True], "str": [12, None]}[spec.type]
    bad = [value for value in wrong_type if not (value is None and spec.nullable)]
    if spec.minimum is not None:
        bad.append(spec.minimum - 1)
    if spec.maximum is not None:
        bad.append(spec.maximum + 1)
    if spec.choices is not None:
        bad.append("not-" + "-".join(map(str, spec.choices)) if spec.type == "str" else -12345)
    return bad


@pytest.mark.parametrize("name", engines_for("bad_option_values"))
def test_a_value_the_declaration_forbids_is_bad_option(name):
    game, info, players = engine(name), info_of(name), seated(name)
    for spec in info.options:
        for value in _bad_values(spec):
            assert _code(game.setup, players, {spec.key: value}, FairRng(b"s")) == "BAD_OPTION", (spec.key, value)


@pytest.mark.parametrize("name", engines_for("declared_option_values"))
def test_every_declared_value_is_accepted_unless_the_engine_names_a_combination_problem(name):
    game, info, players = engine(name), info_of(name), seated(name)
    for spec in info.options:
        values = [spec.default, *(spec.choices or ()), *(v for v in (spec.minimum, spec.maximum) if v is not None)]
        for value in values:
            value = int(value) if spec.type == "int" and value is not None else value
            problems = game.option_problems(info.check_options({spec.key: value}), players)
            expected = "BAD_OPTION" if problems else None
            assert _code(game.setup, players, {spec.key: value}, FairRng(b"s")) == expected, (spec.key, value)


# -- on the bots' games -----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", engines_for("legal_actions"))
def test_every_listed_action_parses_and_is_accepted(name):
    for count in counts(name):
        _every_listed_action_parses_and_is_accepted(name, count)


def _every_listed_action_parses_and_is_accepted(name, count):
    played, game = trace(name, count), engine(name)
    for sample in played.samples:
        for player, actions in sample.legal.items():
            for action in spread(actions, SAMPLED_ACTIONS):
                command = game.parse_command(action)
                refused = refusal(game.decide, sample.state, command, player, RNG)
                assert refused is None, (sample.index, player, action, refused)


@pytest.mark.parametrize("name", engines_for("purity"))
def test_decide_leaves_its_input_as_it_was(name):
    for count in counts(name):
        _decide_leaves_its_input_as_it_was(name, count)


def _decide_leaves_its_input_as_it_was(name, count):
    played, game = trace(name, count), engine(name)
    for sample in played.samples:
        before = copy.deepcopy(sample.state)
        for player in sample.to_act[:2]:
            for action in spread(sample.legal[player], 2):
                if (command := parsed(game, action)) is not None:
                    refusal(game.decide, sample.state, command, player, RNG)
                assert sample.state == before, (sample.index, player, action)


@pytest.mark.parametrize("name", engines_for("refusals"))
def test_a_refused_command_changes_nothing_and_says_why(name):
    for count in counts(name):
        _a_refused_command_changes_nothing_and_says_why(name, count)


def _a_refused_command_changes_nothing_and_says_why(name, count):
    played, game = trace(name, count), engine(name)
    refused_seen = 0
    for sample in played.samples:
        before = copy.deepcopy(sample.state)
        tries = [(player, action) for mover in sample.to_act for action in spread(sample.legal[mover], 2)
                 for player in played.players if player not in sample.to_act and action not in sample.legal[player]]
        for player, action in tries + [("intruder", a) for a in spread(sum(sample.legal.values(), []), 4)]:
            if (command := parsed(game, action)) is None:
                continue
            refused = refusal(game.decide, sample.state, command, player, RNG)
            if refused is not None:
                refused_seen += 1
                assert refused.code and refused.code.isupper() and refused.message
            if player == "intruder":
                assert refused is not None and refused.code == "NOT_A_PLAYER"
            assert sample.state == before, (sample.index, player, action)
    assert refused_seen, "no refusal was tried"
    assert _code(game.parse_command, {"type": "NoSuchCommand"}) == "MALFORMED_COMMAND"


@pytest.mark.parametrize("name", engines_for("turns"))
def test_to_act_and_legal_actions_agree(name):
    for count in counts(name):
        _to_act_and_legal_actions_agree(name, count)


def _to_act_and_legal_actions_agree(name, count):
    played, free = trace(name, count), free_actions(name)
    for sample in played.samples:
        for player in played.players:
            owed = [a for a in sample.legal[player] if a["type"] not in free]
            assert bool(owed) == (player in sample.to_act), (sample.index, player, sample.to_act, sample.legal[player])


@pytest.mark.parametrize("name", engines_for("finish"))
def test_the_bots_finish_and_a_finished_game_refuses_everything(name):
    for count in counts(name):
        _the_bots_finish_and_a_finished_game_refuses_everything(name, count)


def _the_bots_finish_and_a_finished_game_refuses_everything(name, count):
    played, game = trace(name, count), engine(name)
    assert played.finished, f"no end after {len(played.commands)} commands"
    standings = game.outcome(played.final).standings
    assert sorted(s.player for s in standings) == sorted(played.players) and min(s.rank for s in standings) == 1
    assert game.to_act(played.final) == [] and all(game.legal_actions(played.final, p) == [] for p in played.players)
    for actor, command in played.commands[-3:]:
        assert _code(game.decide, played.final, command, actor, RNG) == "GAME_OVER"
    for sample in played.samples:
        assert game.invariants(sample.state) == [], sample.index


@pytest.mark.parametrize("name", engines_for("events"))
def test_events_round_trip_through_json_and_refold_to_the_same_state(name):
    for count in counts(name):
        _events_round_trip_through_json_and_refold_to_the_same_state(name, count)


def _events_round_trip_through_json_and_refold_to_the_same_state(name, count):
    played, game = trace(name, count), engine(name)
    for event in played.events:
        assert game.parse_event(json.loads(json.dumps(event.model_dump(mode="json")))) == event
    refolded = game.initial_state()
    for event in played.events:
        refolded = game.evolve(refolded, game.parse_event(event.model_dump()))
    assert refolded == played.final


@pytest.mark.parametrize("name", engines_for("defaults"))
def test_the_clocks_default_and_the_bots_commands_are_accepted(name):
    for count in counts(name):
        _the_clocks_default_and_the_bots_commands_are_accepted(name, count)


def _the_clocks_default_and_the_bots_commands_are_accepted(name, count):
    played, game = trace(name, count), engine(name)
    for sample in played.samples:
        for player in sample.to_act:
            for command in (game.default_command(sample.state, player),
                            game.bot_command(sample.state, player, random.Random(sample.index))):
                if command is not None:
                    assert refusal(game.decide, sample.state, command, player, RNG) is None, (sample.index, command)


# -- hidden information -------------------------------------------------------------------------------------

VIEWERS = [None, *PLAYER_NAMES]


@pytest.mark.parametrize("name", engines_for("redaction"))
def test_redaction_blanks_exactly_the_declared_secrets(name):
    for count in counts(name):
        _redaction_blanks_exactly_the_declared_secrets(name, count)


def _redaction_blanks_exactly_the_declared_secrets(name, count):
    played, game = trace(name, count), engine(name)
    for event in played.events:
        for viewer in [None, *played.players]:
            shown = game.redact(event, viewer)
            assert shown == redact_event(event, viewer), (event.type, viewer)
            json.dumps(shown)
        if game.shows_everyone_alike(event.type):       # the lobby then pushes one rendering to all
            assert all(game.redact(event, viewer) == event.model_dump() for viewer in [None, *played.players])
    alike = {event.type for event in played.events if game.shows_everyone_alike(event.type)}
    assert alike == {event.type for event in played.events if not secrets_of(event)}


@pytest.mark.parametrize("name", engines_for("redaction"))
def test_an_event_without_secrets_is_pushed_as_stored(name):
    for count in counts(name):
        _an_event_without_secrets_is_pushed_as_stored(name, count)


def _an_event_without_secrets_is_pushed_as_stored(name, count):
    """The lobby pushes stored data as it stands when `shown_as_stored` says so: it must be what the
    long way (parse, redact, dump) gives every viewer, and an older or odd shape must take the long way."""
    played, game = trace(name, count), engine(name)
    taken = 0
    for event in played.events:
        stored = json.loads(json.dumps(event.model_dump(mode="json")))
        if not game.shown_as_stored(stored):
            assert not game.shows_everyone_alike(event.type), event.type
            continue
        taken += 1
        for viewer in [None, *played.players]:
            assert json.loads(compact(game.redact(game.parse_event(stored), viewer))) == stored, (event.type, viewer)
        assert not game.shown_as_stored({**stored, "v": stored["v"] + 1})
        assert not game.shown_as_stored({key: value for key, value in stored.items() if key != "v"})
        assert not game.shown_as_stored({**stored, "extra": 1})
    assert taken > 0


def _scrambled(event, viewer):
    """The event with every secret value `viewer` may not see replaced by another of the same kind."""
    changes = {}
    for field, who in secrets_of(event).items():
        value = getattr(event, field)
        if who == OWN_ENTRY:
            others = [k for k in value if k != viewer]
            rotated = dict(zip(others, [value[k] for k in others[1:] + others[:1]]))
            changes[field] = {**value, **rotated}
        elif not may_see(event, who, viewer):
            if isinstance(value, dict):
                keys = list(value)
                changes[field] = dict(zip(keys, [value[k] for k in keys[1:] + keys[:1]]))
            elif isinstance(value, list):
                changes[field] = list(reversed(value))
    return event.model_copy(update=changes) if changes else event


@pytest.mark.parametrize("name", engines_for("views"))
def test_a_view_does_not_depend_on_what_that_viewer_may_not_see(name):
    for count in counts(name):
        _a_view_does_not_depend_on_what_that_viewer_may_not_see(name, count)


def _a_view_does_not_depend_on_what_that_viewer_may_not_see(name, count):
    played, game = trace(name, count), engine(name)
    looks = {sample.index for sample in played.samples}
    for viewer in [None, *played.players]:
        state, scrambled = game.initial_state(), game.initial_state()
        for index, upto in enumerate(played.boundaries):
            start = played.boundaries[index - 1] if index else 0
            for event in played.events[start:upto]:
                state = game.evolve(state, event)
                scrambled = game.evolve(scrambled, _scrambled(event, viewer))
            if index in looks:
                view = game.view(state, viewer)
                json.dumps(view)
                assert game.view(scrambled, viewer) == view, (index, viewer)
