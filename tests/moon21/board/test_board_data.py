"""The map and tile data agree with the rulebook and with rule 11.2.2."""
from __future__ import annotations

from itertools import product

from moon21.board.geometry import (
    AREAS, CLOSED, EAST_AREAS, HEXES, RIFT, TILES, WEST_AREAS, hex_distance, neighbour,
)
from moon21.board.lays import keeps_roads
from moon21.board.state import LOCAL_BASES


def test_the_board_has_69_hexes_and_four_offboard_areas():
    assert len(HEXES) == 69
    assert set(EAST_AREAS) == {"research_station", "tourism_colony"}
    assert set(WEST_AREAS) == {"power_plant", "water_farm"}
    assert sum(len(a["hexes"]) for a in AREAS.values()) == 11


def test_neighbours_follow_the_public_edge_convention():
    assert [neighbour("E9", e) for e in range(6)] == ["E11", "D10", "D8", "E7", "F8", "F10"]


def test_every_hex_name_has_an_odd_column_plus_row():
    for h in HEXES:
        assert ("ABCDEFGHIJKLM".index(h[0]) + int(h[1:])) % 2 == 1


def test_local_bases_match_the_rulebook_table():
    assert {c: LOCAL_BASES[c] for c in ("SWP", "HMQ", "VH", "ITC", "SSF")} == {
        "SWP": "C7", "HMQ": "D2", "VH": "G7", "ITC": "I5", "SSF": "D12"}


def test_manifest_has_97_tiles_by_colour():
    by_colour = {}
    for t in TILES.values():
        by_colour[t.colour] = by_colour.get(t.colour, 0) + t.count
    # X29 (the Terminal) is printed gray
    assert by_colour == {"yellow": 36, "green": 31, "brown": 21, "gray": 9}


def test_rift_is_symmetric_and_blocks_six_crossings():
    assert len(RIFT) == 12
    for h, e in RIFT:
        assert (neighbour(h, e), (e + 3) % 6) in RIFT


def test_map_edges_are_closed_but_offboard_entries_are_open():
    assert CLOSED["A9"] == {0, 1, 2}
    assert 3 not in CLOSED["A7"] and 2 in CLOSED["A7"]   # A5 has road on its edge 0 only
    assert CLOSED["E9"] == frozenset()


def test_hex_distance_for_the_old_landing_site_card():
    assert hex_distance("E9", "D10") == 1
    assert hex_distance("E9", "E5") == 2
    assert hex_distance("E9", "B4") >= 3


def _geometric_upgrades(tile_id):
    old = TILES[tile_id]
    out = set()
    for new in TILES.values():
        if new.kind != old.kind or new.colour_rank != old.colour_rank + 1:
            continue
        if any(keeps_roads((tile_id, 0), (new.id, r)) is not None for r in range(6)):
            out.add(new.id)
    return out


def test_upgrade_lists_are_exactly_the_tiles_that_keep_every_road():
    for tile_id, tile in TILES.items():
        if tile.kind == "terminal":
            continue
        assert set(tile.upgrades) == _geometric_upgrades(tile_id), tile_id


def test_chart_entries_that_lose_road_are_not_upgrades():
    # rule 11.2.2 wins over the rulebook's printed upgrade chart (docs/moon21_board.md, ruling 1):
    # the chart names 443M for 57M, X11 for 23 and X14 for 441M, each of which loses old road
    assert "443M" not in TILES["57M"].upgrades
    assert "X11" not in TILES["23"].upgrades
    assert "X12" in TILES["23"].upgrades
    assert "X14" not in TILES["441M"].upgrades


def test_double_dot_upgrades_keep_each_depot_on_its_own_new_depot():
    # X2 (stubs on edges 0 and 2) cannot become X5: both stubs would land on one depot
    assert all(keeps_roads(("X2", 0), ("X5", r)) is None for r in range(6))
    mapping = next(m for r in range(6) if (m := keeps_roads(("X2", 0), ("X4", r))) is not None)
    assert sorted(mapping) == [0, 1] and len(set(mapping.values())) == 2


def test_every_upgrade_is_the_next_colour_and_same_kind():
    for tile in TILES.values():
        for up in tile.upgrades:
            assert TILES[up].kind == tile.kind
            assert TILES[up].colour_rank == tile.colour_rank + 1


def test_every_tile_fits_somewhere_legally():
    fits = {t: False for t in TILES}
    for (tile_id, tile), hex_id in product(TILES.items(), HEXES):
        if fits[tile_id]:
            continue
        from moon21.board.geometry import road_edges, tile_kind_for_hex
        if tile_kind_for_hex(hex_id) == tile.kind:
            fits[tile_id] = any(not road_edges(tile_id, r) & CLOSED[hex_id] for r in range(6))
    assert all(fits.values())


def test_every_area_entry_is_on_the_board_edge():
    # an entry's road end is an edge point with no hex beyond it, so the network, the walk and the
    # reach search name it alike (`graph.edge_point_key`)
    from moon21.board.geometry import AREA_ENTRIES
    assert AREA_ENTRIES and all(neighbour(hex_id, edge) is None for hex_id, edge in AREA_ENTRIES)
