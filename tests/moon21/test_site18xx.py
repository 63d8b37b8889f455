"""Games of 18xx.games (`moon21.site18xx`): a recorded game replayed to its exact result, the site's setup
from its seed, undo and redo, refusals that stop the import, and the export back."""
import copy
import json
import random
from pathlib import Path

import pytest

from moon21.game import GAME
from moon21.site18xx.exporter import export_game
from moon21.site18xx.gamefile import BadGameFile, effective_actions, moves, read_game
from moon21.site18xx.importer import import_game
from moon21.site18xx.setup import draws, site_setup
from starbase_rules.contract import fold
from starbase_rules.fair import FairRng

FIXTURE = Path(__file__).parent / "data" / "18xx_fixed_round.json"


@pytest.fixture(scope="module")
def saved():
    return json.loads(FIXTURE.read_text())


@pytest.fixture(scope="module")
def imported(saved):
    return import_game(saved)


# -- the recorded game ----------------------------------------------------------------------------

def test_the_fixed_round_game_imports_to_exactly_its_recorded_result(imported, saved):
    assert not imported.divergences
    assert imported.result == saved["result"] == {"16111": 3326, "16437": 2293}
    assert imported.state.ended and imported.state.set_no == 5 and imported.state.or_no == 3


def test_every_run_purchase_and_corporation_turn_agrees_with_the_site(imported, saved):
    effective = effective_actions(saved["actions"])
    assert imported.checks["runs"] == sum(a["type"] == "run_routes" for a in effective) == 25
    assert imported.checks["purchases"] == sum(a["type"] == "buy_train" for a in effective) == 22
    assert imported.checks["operating_turns"] == 30


def test_each_run_earns_what_the_site_paid(imported, saved):
    effective = effective_actions(saved["actions"])
    for step in imported.steps:
        if step.command.type != "RunTransports":
            continue
        site = sum(r["revenue"] for r in effective[step.index]["routes"])
        assert sum(e.revenue for e in step.events if e.type == "TransportsRun") == site


def test_the_imported_game_keeps_the_invariants_and_rebuilds_from_its_events(imported):
    events = list(imported.setup) + [e for step in imported.steps for e in step.events]
    state = GAME.initial_state()
    for event in events:
        state = GAME.evolve(state, GAME.parse_event(event.model_dump()))
        assert not GAME.invariants(state), event
    assert state == imported.state


def test_with_the_rulebook_the_import_stops_at_the_old_landing_site(saved):
    result = import_game(saved, {"ruleset": "rulebook"})
    assert len(result.divergences) == 1
    stop = result.divergences[0]
    assert (stop.index, stop.code) == (6, "ILLEGAL_HEX")
    assert stop.action == effective_actions(saved["actions"])[6] and stop.action["hex"] == "D10"
    assert "action 6 (id 9, lay_tile by OLS): ILLEGAL_HEX" in stop.line() and result.result is None


def test_the_rulebooks_second_run_token_parts_ways_at_ssfs_run_in_or_2_2(saved):
    result = import_game(saved, {"second_run_token": "base_or_depot_token"})
    assert [(d.index, d.code) for d in result.divergences] == [(118, "NO_TOKEN_IN_RUN")]


def test_keep_going_lists_every_divergence_and_skips_each(saved):
    result = import_game(saved, {"ruleset": "rulebook"}, keep_going=True)
    assert len(result.divergences) > 1 and result.divergences[0].index == 6
    assert len({(d.index, d.action.get("id")) for d in result.divergences}) == len(result.divergences)


def test_the_auto_routing_setting_decides_the_duty_to_run_for_the_most(saved):
    manual = copy.deepcopy(saved)
    manual["settings"]["auto_routing"] = False
    assert import_game(manual).options["maximum_revenue"] == "not_enforced"
    assert import_game(saved).options["maximum_revenue"] == "enforced"


# -- the site's setup --------------------------------------------------------------------------------

def test_the_minerals_and_the_held_back_corporation_come_from_the_sites_seed():
    minerals, held_back = site_setup(2024757991)
    by_mineral = {}
    for hex_id, mineral in minerals.items():
        by_mineral.setdefault(mineral, set()).add(hex_id)
    assert by_mineral == {"Source-X": {"B4", "F2", "H2"}, "Helium-3": {"B12", "E15", "J2", "K13"},
                          "Regolith": {"A7", "G13", "J10", "L10"}, "Armalcolite": {"A9", "D10", "H10", "I7"},
                          "Lithium": {"E5", "K5"}}
    assert held_back == "LG"
    assert site_setup(625514243)[1] == "SSF" and site_setup(625514243)[0]["I7"] == "Lithium"


def test_the_generator_is_the_sites_linear_congruential_one():
    assert draws(1, 2) == [(1103515245 + 12345) % 2**31, (1103515245 * ((1103515245 + 12345) % 2**31) + 12345) % 2**31]
    assert draws(2**31 + 5, 1) == draws(5, 1)


def test_the_imported_seats_are_the_files_player_order(imported, saved):
    assert imported.state.players == [str(p["id"]) for p in saved["players"]]
    assert imported.state.held_back == "LG" and imported.setup[0].options["ruleset"] == "18xx.games"


# -- undo, redo and automatic actions ----------------------------------------------------------------

def act(n, kind="pass", **fields):
    return {"type": kind, "id": n, "entity": 1, **fields}


def test_undo_cancels_the_last_action_in_force_and_redo_restores_it():
    actions = [act(1), act(2), act(3, "undo"), act(4, "redo"), act(5, "undo"), act(6)]
    assert [a["id"] for a in effective_actions(actions)] == [1, 6]


def test_undo_to_an_action_id_cancels_everything_after_it_and_zero_cancels_all():
    actions = [act(1), act(2), act(3), act(4, "undo", action_id=1)]
    assert [a["id"] for a in effective_actions(actions)] == [1]
    assert effective_actions([act(1), act(2), act(3, "undo", action_id=0)]) == []


def test_a_new_action_forgets_what_could_be_redone_and_messages_are_never_undone():
    actions = [act(1), act(2, "message"), act(3, "undo"), act(4)]
    assert [a["id"] for a in effective_actions(actions)] == [2, 4]
    with pytest.raises(BadGameFile):
        effective_actions([act(1), act(2, "undo"), act(3), act(4, "redo")])


def test_programmed_purchases_are_moves_of_their_own_and_use_graph_goes_with_its_lay():
    effective = [act(1, "buy_shares", auto_actions=[act(0, "buy_shares"), act(0, "program_disable")]),
                 act(2, "lay_tile", auto_actions=[act(0, "use_graph", graph_id="SP")])]
    found = moves(effective)
    assert [(m.index, m.type, m.auto) for m in found] == [(0, "buy_shares", False), (0, "buy_shares", True),
                                                          (1, "lay_tile", False)]
    assert found[2].graph == "SP"


# -- files that are not games of the site -------------------------------------------------------------

@pytest.mark.parametrize("data, fragment", [
    ([], "no saved game"),
    ({"title": "1830"}, "not 21Moon"),
    ({"title": "21Moon", "players": [{"id": 1}]}, "2 to 5 players"),
    ({"title": "21Moon", "players": [{"id": 1}, {"id": 1}]}, "distinct"),
    ({"title": "21Moon", "players": [{"id": 1}, {"id": 2}], "actions": [{"id": 1}]}, "'type'"),
    ({"title": "21Moon", "players": [{"id": 1}, {"id": 2}], "actions": [], "settings": {"seed": "x"}}, "seed"),
    ({"title": "21Moon", "players": [{"id": 1}, {"id": 2}], "actions": [], "id": "abc"}, "seed from"),
])
def test_a_file_that_is_not_a_saved_21moon_game_is_refused_in_one_line(data, fragment):
    with pytest.raises(BadGameFile) as refused:
        read_game(data)
    assert fragment in str(refused.value) and "\n" not in str(refused.value)


def test_an_action_the_engine_cannot_read_is_a_divergence_not_a_crash(saved):
    broken = copy.deepcopy(saved)
    broken["actions"][0] = {"type": "bid", "entity": 16437, "entity_type": "player", "id": 1, "company": "XX"}
    result = import_game(broken)
    assert result.divergences[0].code == "UNKNOWN_NAME" and result.divergences[0].index == 0
    strange = copy.deepcopy(saved)
    strange["actions"][0] = {"type": "short", "entity": 16437, "entity_type": "player", "id": 1}
    assert import_game(strange).divergences[0].code == "UNMAPPED"


# -- export and import again ---------------------------------------------------------------------------

def bot_game(players, seed, options=None):
    rng, bots = FairRng(f"site18xx-{seed}".encode()), random.Random(seed)
    setup = GAME.setup(players, options or {}, rng)
    state, commands = fold(GAME, setup), []
    while GAME.outcome(state) is None:
        actor = GAME.to_act(state)[0]
        command = GAME.bot_command(state, actor, bots)
        events = GAME.decide(state, command, actor, rng)
        state = fold(GAME, events, state)
        commands.append((actor, command.model_dump(mode="json"), events))
    return setup, commands, state


def agreed(commands):
    """The commands the site can record: a proposal the other player declined leaves no action there."""
    declined = {i for i, (_, c, _) in enumerate(commands) if c["type"] == "AnswerDeal" and not c["accept"]}
    declined |= {i - 1 for i in declined}
    return [(actor, command) for i, (actor, command, _) in enumerate(commands) if i not in declined]


@pytest.mark.parametrize("players, seed, options", [
    (("ann", "bob"), 3, {}), (("ann", "bob", "cy", "dee"), 2, {"ruleset": "18xx.games"}),
])
def test_a_bot_game_exported_and_imported_again_gives_the_same_commands(players, seed, options):
    setup, commands, state = bot_game(list(players), seed, options)
    saved = json.loads(json.dumps(export_game(setup, commands, "g-1")))
    again = import_game(saved)
    assert not again.divergences
    assert [(s.actor, s.command.model_dump(mode="json")) for s in again.steps] == agreed(commands)
    assert again.state == state and again.result == saved["result"]


def test_the_recorded_game_exported_and_imported_again_gives_the_same_commands(imported):
    commands = [(s.actor, s.command.model_dump(mode="json"), s.events) for s in imported.steps]
    back = json.loads(json.dumps(export_game(imported.setup, commands, "182367")))
    assert back["starbase"]["held_back"] == "LG" and back["settings"]["seed"] is None
    again = import_game(back)
    assert [(s.actor, s.command) for s in again.steps] == [(s.actor, s.command) for s in imported.steps]


def test_an_undo_with_nothing_in_force_undoes_nothing_and_an_unknown_target_is_named():
    assert [a["id"] for a in effective_actions([act(1, "undo"), act(2)])] == [2]
    assert [a["id"] for a in effective_actions([act(1, "message"), act(2, "undo"), act(3)])] == [1, 3]
    with pytest.raises(BadGameFile) as refused:
        effective_actions([act(1), act(2, "undo", action_id=99)])
    assert "99" in str(refused.value)


@pytest.mark.parametrize("settings, game_id, seed", [
    ({"seed": "2024757991"}, "x", 2024757991), ({}, "hotseat-42-7", 42), ({"seed": ""}, 1234, 1234),
    ({"seed": 7}, "ignored-99", 7),
])
def test_the_seed_is_settings_seed_or_the_first_digits_of_the_game_id(settings, game_id, seed):
    data = {"title": "21Moon", "players": [{"id": 1}, {"id": 2}], "actions": [], "settings": settings, "id": game_id}
    assert read_game(data).seed == seed


def test_five_players_are_read_and_six_are_not_and_the_action_count_is_bounded():
    from moon21.site18xx.gamefile import MAX_ACTIONS
    base = {"title": "21Moon", "settings": {"seed": 1}}
    assert len(read_game({**base, "players": [{"id": n} for n in range(5)], "actions": []}).players) == 5
    with pytest.raises(BadGameFile):
        read_game({**base, "players": [{"id": n} for n in range(6)], "actions": []})
    two = [{"id": 1}, {"id": 2}]
    assert len(read_game({**base, "players": two, "actions": [{"type": "pass"}] * MAX_ACTIONS}).actions) == MAX_ACTIONS
    with pytest.raises(BadGameFile) as refused:
        read_game({**base, "players": two, "actions": [{"type": "pass"}] * (MAX_ACTIONS + 1)})
    assert str(MAX_ACTIONS) in str(refused.value)


@pytest.mark.parametrize("own", [
    [], {"held_back": "KR", "options": {}}, {"minerals": {}, "held_back": 3}, {"minerals": {}, "held_back": "KR", "options": []},
    {"minerals": {}, "held_back": "KR", "seats": ["2", "1"]},
])
def test_a_starbase_setup_in_the_file_must_be_whole(own):
    data = {"title": "21Moon", "players": [{"id": 1}, {"id": 2}], "actions": [], "starbase": own}
    with pytest.raises(BadGameFile) as refused:
        read_game(data)
    assert "starbase" in str(refused.value)
    ok = {**data, "starbase": {"minerals": {"A7": "Lithium"}, "held_back": "KR", "seats": ["1", "2"]}}
    assert read_game(ok).starbase == {"minerals": {"A7": "Lithium"}, "held_back": "KR", "options": {}}


def test_the_sites_names():
    from moon21.site18xx import names as N
    assert (N.tile_name("57M-1"), N.split_city("X29-0-2"), N.train_type("10-999"), N.par_of("70,4,2")) == \
        ("57M", ("X29-0", 2), 10, 70)
    assert (N.stop_of("A5-0"), N.stop_of("G13-1"), N.node_of("tourism_colony"), N.node_of("E9-0")) == \
        ("power_plant", "G13-1", "L14-0", "E9-0")
    assert (N.cert_corp("SSF_3"), N.private_of("TC")) == ("SSF", "P6")
    for parse, bad in ((N.tile_name, "57M"), (N.tile_name, "-1"), (N.split_city, "X29"), (N.train_type, "x-1"),
                       (N.train_type, "4"), (N.par_of, "p,4,2"), (N.stop_of, "A5"), (N.cert_corp, "SSF"),
                       (N.cert_corp, "_3"), (N.private_of, "P1")):
        with pytest.raises(N.UnknownName) as refused:
            parse(bad)
        assert repr(bad) in str(refused.value) or bad in str(refused.value)


def test_details_of_reading_a_file():
    base = {"title": "21Moon", "players": [{"id": 1}, {"id": 2}], "settings": {"seed": 5}}
    game = read_game({**base, "actions": [], "id": 77, "result": {1: 10}})
    assert (game.game_id, game.result, game.auto_routing) == ("77", {"1": 10}, True)   # routing on unless said
    assert read_game({**base, "actions": []}).game_id == ""
    odd = [act(1, "buy_shares", auto_actions=[{"entity": 2}, "x", act(0, "pass")])]   # no type, not an action
    assert [(m.type, m.auto) for m in moves(odd)] == [("buy_shares", False), ("pass", True)]
    assert [a["id"] for a in effective_actions([act(1), act(2, "undo"), act(3, "message"), act(4, "redo")])] == [1, 3]
    own = {"minerals": {"A7": "Lithium"}, "held_back": "KR"}                      # seats may be left out
    assert read_game({**base, "actions": [], "starbase": own}).starbase["held_back"] == "KR"
    from moon21.site18xx.names import UnknownName, split_city
    with pytest.raises(UnknownName):
        split_city("abc-x")
