"""A recorded Short game (4 players, bot moves) replayed command by command to its exact standings:
a change in any rule that alters play shows up here (`starbase script run` runs the same file)."""
import json
from pathlib import Path

from starbase_cli.script import run_script

SCRIPT = Path(__file__).parent / "scripts" / "short_4p_bot_game.json"


def test_the_recorded_short_game_replays_to_its_standings():
    result = run_script(json.loads(SCRIPT.read_text()))
    assert result.ok, result.message
