from scoring.ratings import Rating, rate


def standings(*ranks_by_player):
    return [{"player": p, "rank": r, "score": 0} for p, r in ranks_by_player]


def test_the_winner_gains_and_the_last_loses_from_equal_ratings():
    after = rate({}, standings(("a", 1), ("b", 2), ("c", 3)))
    fresh = Rating.initial()
    assert after["a"].mu > fresh.mu > after["c"].mu
    assert after["a"].mu > after["b"].mu > after["c"].mu
    assert all(r.sigma < fresh.sigma for r in after.values())     # everyone is better known after a game


def test_players_tied_for_a_rank_are_rated_alike():
    after = rate({}, standings(("a", 1), ("b", 2), ("c", 2)))
    assert after["b"] == after["c"]


def test_beating_a_stronger_player_gains_more_than_beating_an_equal_one():
    strong = {"s": Rating(35.0, 4.0)}
    upset = rate(strong, standings(("a", 1), ("s", 2)))["a"]
    even = rate({}, standings(("a", 1), ("b", 2)))["a"]
    assert upset.mu - Rating.initial().mu > even.mu - Rating.initial().mu


def test_rating_is_deterministic_and_ordinal_is_conservative():
    game = standings(("a", 2), ("b", 1))
    assert rate({}, game) == rate({}, game)
    rating = Rating(30.0, 2.0)
    assert rating.ordinal == 24.0 and Rating.from_dict(rating.as_dict()) == rating
