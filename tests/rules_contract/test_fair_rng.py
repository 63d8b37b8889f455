from collections import Counter

import pytest

from starbase_rules import FairRng, commitment


def test_same_seed_and_index_give_the_same_draws():
    a, b = FairRng(b"seed", start=5), FairRng(b"seed", start=5)
    assert [a.randbelow(1000) for _ in range(20)] == [b.randbelow(1000) for _ in range(20)]


def test_a_draw_depends_on_its_index_so_a_later_start_skips_earlier_draws():
    whole = FairRng(b"seed")
    draws = [whole.randbelow(10**9) for _ in range(4)]
    assert FairRng(b"seed", start=2).randbelow(10**9) == draws[2]


def test_other_seed_other_draws():
    assert [FairRng(b"a").randbelow(10**9) for _ in range(1)] != [FairRng(b"b").randbelow(10**9)]


def test_used_counts_every_draw_taken():
    rng = FairRng(b"s", start=3)
    rng.shuffle(list(range(10)))
    assert rng.used == 3 + 9


def test_shuffle_is_a_permutation_and_roughly_uniform():
    counts = Counter()
    rng = FairRng(b"uniform")
    for _ in range(3000):
        counts[tuple(rng.shuffle([1, 2, 3]))] += 1
    assert len(counts) == 6 and min(counts.values()) > 400


def test_randbelow_refuses_an_empty_range():
    with pytest.raises(ValueError):
        FairRng(b"s").randbelow(0)


def test_commitment_is_sha256_of_the_seed():
    assert commitment(b"abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"


def test_parse_command_turns_bad_input_into_a_rule_violation():
    from typing import Literal

    from pydantic import TypeAdapter

    from starbase_rules import Command, RuleViolation, parse_command

    class Hop(Command):
        type: Literal["Hop"] = "Hop"
        height: int

    commands = TypeAdapter(Hop)
    assert parse_command(commands, {"type": "Hop", "height": 2}).height == 2
    for bad in ({"type": "Hop"}, {"type": "Hop", "height": "high"}, "Hop", None):
        with pytest.raises(RuleViolation) as refusal:
            parse_command(commands, bad)
        assert refusal.value.code == "MALFORMED_COMMAND"


def test_outcome_ranks_share_a_place_on_ties_and_skip_the_next():
    from starbase_rules import Outcome

    outcome = Outcome.ranked({"ann": 10, "bob": 30, "cy": 10, "dee": 5})
    assert [(s.player, s.rank) for s in outcome.standings] == [("bob", 1), ("ann", 2), ("cy", 2), ("dee", 4)]


def test_outcome_ranks_by_a_tie_break_key_when_given():
    from starbase_rules import Outcome

    outcome = Outcome.ranked({"ann": 10, "bob": 10}, key={"ann": (10, 1), "bob": (10, 7)})
    assert [(s.player, s.rank, s.score) for s in outcome.standings] == [("bob", 1, 10), ("ann", 2, 10)]
