"""The engines' bounded memo keeps what was used most recently, however many games take turns."""
import pytest

from starbase_rules.recent import Recent


def test_the_entry_used_least_recently_is_the_one_dropped():
    recent = Recent(3)
    for key in "abc":
        recent.put(key, key.upper())
    assert recent.get("a") == "A"                # a hit: now the most recent
    recent.put("d", "D")
    assert list(recent) == ["c", "a", "d"] and recent.get("b") is None
    recent.put("c", "C2")                        # put again: the newest value, the most recent
    recent.put("e", "E")
    assert list(recent) == ["d", "c", "e"] and recent.get("c") == "C2" and len(recent) == 3


def test_a_memo_holds_at_least_one_entry():
    with pytest.raises(ValueError):
        Recent(0)


def test_a_games_compiled_network_outlives_many_other_games_layouts():
    """An adjudicator serving many games: one game's network stays while other games lay tiles."""
    from moon21.board import graph
    from moon21.board.synthetic import crowded_board

    graph._CACHE.clear()
    first = crowded_board(0, colours=("yellow",))
    kept = graph.compile_network(first)
    for seed in range(1, 100):
        graph.compile_network(crowded_board(seed, colours=("yellow",)))
        assert graph.compile_network(first) is kept, seed     # asked in turn, as its own game moves on
    assert len(graph._CACHE) <= graph._CACHE.size
