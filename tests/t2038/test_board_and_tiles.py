from collections import Counter

from t2038 import hexmap, tiles


def test_the_board_has_118_hexes_with_13_bases_5_transshipment_points_and_100_to_explore():
    assert len(hexmap.board_hexes()) == 118
    assert len(hexmap.printed_bases()) == 13
    assert len(hexmap.transshipment_points()) == 5
    assert len(hexmap.unexplored_at_start()) == 100


def test_neighbours_follow_the_double_width_layout_and_stop_at_the_edge():
    assert set(hexmap.neighbours("K9")) == {"K7", "K11", "J8", "J10", "L8", "L10"}
    assert set(hexmap.neighbours("A1")) == {"A3", "B2"}
    assert "H2" not in hexmap.neighbours("G3")          # off-map notch


def test_ore_crusher_reaches_the_lunar_enterprises_base_in_three_hexes_as_figure_6_needs():
    assert hexmap.distance("M5", "O1") == 3


def test_the_pool_holds_106_tiles_50_single_and_56_double():
    kinds = tiles.tile_kinds()
    assert len(kinds) == 106
    sizes = Counter(len(tiles.mines_of_kind(kind)) for kind in kinds)
    assert sizes == {1: 50, 2: 56}


def test_claimed_values_follow_the_rulebook_pairs():
    assert tiles.mines_of_kind("N20")[0] == tiles.Mine("N", 20, 60)
    assert tiles.mines_of_kind("I30")[0] == tiles.Mine("I", 30, 40)
    assert tiles.mines_of_kind("R30")[0] == tiles.Mine("R", 30, 60)
