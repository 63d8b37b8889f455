"""`lay_options` asks `_check`'s checks split by what they depend on (the hex once, the tile once, the
rotation's from a table kept per combination): it must list exactly what asking the whole `_check` of
every candidate (hex, tile, rotation) lists, with the same costs, on the boards of bot games."""
import random

import pytest

from moon21.board import lays
from moon21.board.geometry import HEXES, TILES, distinct_rotations, tile_kind_for_hex
from moon21.game import GAME
from moon21.operating import lay_flags
from starbase_rules import RuleViolation
from starbase_rules.contract import fold
from starbase_rules.fair import FairRng


def reference_options(board, corp, base, **flags) -> list[dict]:
    """The listing as it was: every yellow (or upgrade) tile and distinct rotation put to `_check`,
    whose rotation checks here are computed afresh (not read from the kept table)."""
    ctx = lays._context(board, corp, base, flags.pop("phase"), flags.pop("space_bridge"), flags.pop("tunnel"),
                        flags.pop("terminal_open"), flags.pop("reach_mode"), **flags)
    touched = {h for h, _ in ctx.reach.entered} | {n.split("-")[0] for n in ctx.reach.depots}
    if base == "LB":
        touched.add(lays.local_base_hex(corp))
    out = []
    for hex_id in sorted(touched & set(HEXES)):
        current, kind = board.tile_at(hex_id), tile_kind_for_hex(hex_id)
        if kind is None:
            continue
        tiles = ([t for t, d in TILES.items() if d.kind == kind and (d.colour == "yellow" or kind == "terminal")]
                 if current is None else list(TILES[current[0]].upgrades))
        for tile in tiles:
            for rotation in distinct_rotations(tile):
                try:
                    cost = lays._check(board, ctx, hex_id, tile, rotation)
                except RuleViolation:
                    continue
                out.append({"hex": hex_id, "tile": tile, "rotation": rotation, "cost": cost})
    return out


@pytest.mark.parametrize("seed, players", [(9, ["ann", "bob", "cy", "dee", "eve"]), (10, ["ann", "bob", "cy", "dee"])])
def test_lay_options_equal_every_candidate_checked_whole(monkeypatch, seed, players):
    rng, bots = FairRng(f"lay-reference-{seed}".encode()), random.Random(seed)
    state = fold(GAME, GAME.setup(players, {}, rng))
    compared = listed = 0
    fresh = lays._rotation_problem.__wrapped__
    while GAME.outcome(state) is None:
        if state.kind == "OR" and state.op and state.op.step == "tiles":
            corp = state.op.corp
            for base in ("LB", "SP"):
                fast = lays.lay_options(state.board, corp, base, **lay_flags(state, corp))
                with monkeypatch.context() as patched:
                    patched.setattr(lays, "_rotation_problem", fresh)
                    expected = reference_options(state.board, corp, base, **lay_flags(state, corp))
                assert fast == expected, (corp, base)
                compared, listed = compared + 1, listed + len(fast)
        actors = GAME.to_act(state)
        actor = actors[bots.randrange(len(actors))]
        state = fold(GAME, GAME.decide(state, GAME.bot_command(state, actor, bots), actor, rng), state)
    assert compared > 40 and listed > 500


def test_the_kept_rotation_answers_tell_the_space_bridge_apart():
    """G5's edge 3 faces the Rift: tile 9 at rotation 0 runs road into it, which only P3 allows,
    whichever of the two questions is asked first."""
    for order in ((False, True), (True, False)):
        lays._rotation_problem.cache_clear()
        answers = {bridge: lays._rotation_problem("G5", "9", 0, None, bridge) for bridge in order}
        assert answers[True] is None
        assert "Rift" in answers[False]
