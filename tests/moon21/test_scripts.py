"""The example game scripts in tests/scripts replay to their expected outcomes with this engine."""
import json
from pathlib import Path

import pytest

from moon21.game import GAME
from starbase_rules.contract import RuleViolation, fold
from starbase_rules.fair import FairRng

SCRIPTS = sorted((Path(__file__).parents[1] / "scripts").glob("moon21_*.json"))


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.name for p in SCRIPTS])
def test_script_replays_as_expected(path):
    script = json.loads(path.read_text())
    rng = FairRng(script["seed"].encode())
    state = fold(GAME, GAME.setup(script["players"], script["options"], rng))
    for number, step in enumerate(script["commands"]):
        command = GAME.parse_command(step["command"])
        try:
            events = GAME.decide(state, command, step["actor"], rng)
            got = "accepted"
        except RuleViolation as refusal:
            got = refusal.code
        assert got == step["expect"], f"command {number}: {step}"
        if got == "accepted":
            state = fold(GAME, events, state)
    if "final_standings" in script:
        outcome = GAME.outcome(state)
        assert outcome is not None
        assert [s.model_dump() for s in outcome.standings] == script["final_standings"]


def test_there_are_example_scripts():
    assert len(SCRIPTS) >= 2
