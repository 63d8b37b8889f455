"""The floored best-run search answers exactly as the search it replaced (issue 13).

`reference_search.py` is the old search: every run of the corporation listed, then paired. The new
one lists short runs and only the long runs above a floor (`moon21.board.floors`), so it is held to
the reference's whole answer -- revenue, which runs, their stop orders and road, which base runs
first -- on crowded late boards, random legal boards (hypothesis), road already used, and every
operating turn of seeded bot games. A different answer, even an equally good one, fails here.
"""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from moon21.board import CORPORATIONS, best_runs, best_turn_runs, new_board, search, stops, validate_turn_runs
from moon21.board.floors import promising_runs
from moon21.board.listing import enumerate_runs, flat_floor
from moon21.board.synthetic import crowded_board, random_minerals
from moon21.game import GAME
from starbase_rules.playout import playout
from tests.moon21.board import reference_search as reference
from tests.moon21.board.test_board_search import random_board

BIG = {"LB": [10, 6], "SP": [10, 5]}
TRANSPORT_SETS = [BIG, {"LB": [6, 6], "SP": [8]}, {"LB": [3], "SP": [5, 2]}, {"LB": [8, 4], "SP": []},
                  {"LB": [4, 10], "SP": [2, 2]}]


def cold() -> None:
    """Nothing kept from an earlier question, for either search."""
    for cache in (stops._CACHE, search._CACHE, search._PLANS, reference._CACHE, reference._PLANS):
        cache.clear()


def assert_same_turn(board, corp, transports, **kw) -> dict:
    cold()
    found = best_turn_runs(board, corp, transports, **kw)
    cold()
    assert found == reference.best_turn_runs(board, corp, transports, **kw), (corp, transports, kw)
    runs = {b: [{"transport": r["transport"], "stops": r["stops"]} for r in found[b]["runs"]] for b in ("LB", "SP")}
    checked = validate_turn_runs(board, corp, runs, transports, sp_value=kw["sp_value"], phase=kw["phase"],
                                 second_run=kw.get("second_run", "base_or_depot_token"))
    assert checked["revenue"] == found["revenue"]
    return found


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_crowded_late_boards_give_the_reference_answer(seed):
    board = crowded_board(seed)
    revenues = [assert_same_turn(board, corp, BIG, sp_value=40, phase="10")["revenue"] for corp in CORPORATIONS]
    assert min(revenues) > 0


@pytest.mark.parametrize("seed", [4, 5])
def test_crowded_boards_with_other_transports_rules_and_first_base(seed):
    board = crowded_board(seed, tokens_per_corp=seed % 3, colours=("brown", "green", "yellow"))
    rnd = random.Random(seed)
    for corp in rnd.sample(CORPORATIONS, 4):
        for transports in TRANSPORT_SETS[1:]:
            assert_same_turn(board, corp, transports, sp_value=30, phase="6", second_run=rnd.choice(
                ["base_or_depot_token", "any_token"]), first=rnd.choice([None, "LB", "SP"]))


@pytest.mark.parametrize("seed, tokens", [(6, 1), (7, 4)])
def test_crowded_boards_in_the_last_phase_where_the_walk_prunes_most(seed, tokens):
    """Long transports on late boards: the long runs' walk prunes with its bound (`ahead.py`),
    for the first base and for the second on the road left, from an area or an inland stop."""
    board = crowded_board(seed, tokens_per_corp=tokens)
    for corp in CORPORATIONS:
        for transports in (BIG, {"LB": [7, 3], "SP": [9, 4]}):
            assert_same_turn(board, corp, transports, sp_value=40, phase="10")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), lays=st.integers(8, 60), sizes=st.sampled_from(TRANSPORT_SETS),
       phase=st.sampled_from(["3", "5", "10"]), second_run=st.sampled_from(["base_or_depot_token", "any_token"]))
def test_random_legal_boards_give_the_reference_answer(seed, lays, sizes, phase, second_run):
    board = random_board(new_board(random_minerals(seed)), seed, lays=lays)
    for corp in CORPORATIONS:
        assert_same_turn(board, corp, sizes, sp_value=30, phase=phase, second_run=second_run)


def test_road_already_used_gives_the_reference_answer():
    board = crowded_board(3)
    for corp in ("SWP", "VH", "KR", "SSF"):
        cold()
        other = best_runs(board, corp, "SP", [10, 5], sp_value=40, phase="10")
        used = [s for r in other["runs"] for s in r["segments"]]
        for base, transports in (("LB", [10, 6]), ("SP", [6, 10]), ("LB", [7])):
            cold()
            found = best_runs(board, corp, base, transports, sp_value=40, phase="10", used_segments=used)
            cold()
            assert found == reference.best_runs(board, corp, base, transports, sp_value=40, phase="10",
                                                used_segments=used)


@pytest.mark.parametrize("seed", [4, 11])
def test_every_operating_turn_of_a_bot_game_gives_the_reference_answer(seed):
    """The boards, transports and phases real games meet (the bots run the best runs)."""
    game = playout(GAME, ["ann", "bob", "cy", "dan", "eve"], seed=seed, check=False)
    state, turns = GAME.initial_state(), 0
    for event in game.events:
        state = GAME.evolve(state, event)
        if event.type == "OperatingTurnStarted":
            c = state.corps[event.corp]
            transports = {b: list(c.transports[b]) for b in ("LB", "SP")}
            if transports["LB"] or transports["SP"]:
                assert_same_turn(state.board, event.corp, transports, sp_value=state.space_port_value,
                                 phase=state.phase)
                turns += 1
    assert turns > 20


@pytest.mark.parametrize("seed", [2, 3])
def test_a_floored_listing_is_the_full_listing_cut_at_the_floor(seed):
    """What the tie-breaks rest on: the same runs (the same minimal road among runs over the same
    stops, the same stop order) in the same order as the reference's list, less those under the floor."""
    board = crowded_board(seed)
    for corp in random.Random(seed).sample(CORPORATIONS, 3):
        cold()
        sg = stops.stop_graph(board, corp, phase="10", sp_value=40)
        full = reference.all_runs(sg, 10)
        relevant = sg.base_bits["LB"] | sg.base_bits["SP"] | sg.token_bits
        for used, floor in ((0, [0] * 7 + [450] * 4 + [10**9]), (full[0].road, flat_floor(10, 200)),
                            (0, list(range(0, 600, 50)))):
            want = [(r.revenue, r.stops, r.road, r.order) for r in full
                    if not r.road & used and r.revenue >= floor[r.counted]]
            got = [(r.revenue, r.stops, r.road, r.order) for r in enumerate_runs(sg, 10, relevant, used, floor)]
            assert got == want


@pytest.mark.parametrize("seed", [1, 3])
def test_the_kept_runs_come_from_the_full_listing_in_its_order(seed):
    """The kept runs of both bases' questions are runs of the reference's list (same road kept among
    runs over the same stops, same stop order), in the reference's order, and include its best."""
    board = crowded_board(seed)
    for corp in random.Random(seed).sample(CORPORATIONS, 3):
        cold()
        sg = stops.stop_graph(board, corp, phase="10", sp_value=40)
        full = [(r.revenue, r.stops, r.road, r.order) for r in reference.all_runs(sg, 10)]
        wants = [(sg.base_bits[b], sg.second_run_tokens(b), tuple(BIG[b])) for b in ("LB", "SP")]
        kept = [(r.revenue, r.stops, r.road, r.order)
                for r in promising_runs(sg, sg.base_bits["LB"] | sg.base_bits["SP"] | sg.token_bits, 0, wants)]
        assert len(kept) < len(full) and kept[0] == full[0]
        place = {run: i for i, run in enumerate(full)}
        assert all(run in place for run in kept)
        assert [place[run] for run in kept] == sorted(place[run] for run in kept)
