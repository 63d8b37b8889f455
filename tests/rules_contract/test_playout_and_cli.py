import json

import pytest

from starbase_cli.main import main
from starbase_cli.script import run_script
from starbase_rules.playout import PlayoutError, playout
from starbase_rules.registry import ENGINES

from tests.engines import tiny_game


@pytest.fixture(autouse=True)
def tiny_registered(monkeypatch):
    monkeypatch.setitem(ENGINES, "tiny", tiny_game.ENGINE_PATH)


def test_playout_reaches_the_end_and_replays_to_the_same_state():
    result = playout(tiny_game.GAME, ["ann", "bob", "cy"], seed=3)
    assert result.outcome is not None
    taken = [e for e in result.events if e.type == "Taken"]
    assert sum(e.count for e in taken) == 15 and result.commands == len(taken)
    assert [e.type for e in result.events][-1] == "LuckRevealed"


def test_playout_reports_a_broken_invariant(monkeypatch):
    monkeypatch.setattr(tiny_game.TinyCounters, "invariants", lambda self, state: ["always broken"])
    with pytest.raises(PlayoutError, match="always broken"):
        playout(tiny_game.GAME, ["ann", "bob"], seed=1)


def test_playout_reports_a_replay_that_differs(monkeypatch):
    # parse_event is used only when refolding: an event read back differently must be caught.
    original = tiny_game.TinyCounters.parse_event

    def misread(self, data):
        event = original(self, data)
        return event.model_copy(update={"first": 1 - event.first}) if event.type == "GameSetUp" else event

    monkeypatch.setattr(tiny_game.TinyCounters, "parse_event", misread)
    with pytest.raises(PlayoutError, match="another state"):
        playout(tiny_game.GAME, ["ann", "bob"], seed=1)


def _opening(seed="7"):
    """Who moves first and second, and their lucky numbers, as the setup draws them from `seed`."""
    from starbase_rules import FairRng
    rng = FairRng(seed.encode())
    first = rng.randbelow(2)
    lucky = {p: 1 + rng.randbelow(3) for p in ("ann", "bob")}
    return ["ann", "bob"][first], ["ann", "bob"][1 - first], lucky


def test_script_accepts_expected_outcomes_and_standings():
    first, second, lucky = _opening()
    script = {"game": "tiny", "players": ["ann", "bob"], "options": {"counters": 5, "bonus": 3}, "seed": "7",
              "commands": [{"actor": second, "command": {"type": "Take", "count": 1}, "expect": "NOT_YOUR_TURN"},
                           {"actor": first, "command": {"type": "Take", "count": 4}, "expect": "ILLEGAL_COUNT"},
                           {"actor": first, "command": {"type": "Take", "count": 2}},
                           {"actor": second, "command": {"type": "Take", "count": 3}}],
              "final_standings": [{"player": second, "rank": 1, "score": 3 + (lucky[second] == 3)},
                                  {"player": first, "rank": 2, "score": int(lucky[first] == 2)}]}
    result = run_script(script)
    assert result.ok, result.message


def test_script_stops_at_the_first_mismatch_and_says_where():
    first, _, _ = _opening()
    script = {"game": "tiny", "players": ["ann", "bob"], "seed": "7",
              "commands": [{"actor": first, "command": {"type": "Take", "count": 2}, "expect": "ILLEGAL_COUNT"}]}
    result = run_script(script)
    assert not result.ok and "command 1" in result.message and "accepted" in result.message


def test_script_cli_exit_codes(tmp_path, capsys):
    first, second, _ = _opening()
    good = tmp_path / "good.json"
    good.write_text(json.dumps({"game": "tiny", "players": ["ann", "bob"], "seed": "7",
                                "commands": [{"actor": second, "command": {"type": "Take", "count": 1},
                                              "expect": "NOT_YOUR_TURN"}]}))
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"game": "tiny", "players": ["ann", "bob"], "seed": "7",
                               "commands": [{"actor": second, "command": {"type": "Take", "count": 1}}]}))
    assert main(["script", "run", str(good)]) == 0
    assert main(["script", "run", str(bad)]) == 1
    assert "NOT_YOUR_TURN" in capsys.readouterr().out


def test_play_cli_prints_json_standings(capsys):
    assert main(["play", "tiny", "--players", "3", "--seed", "5", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert sorted(row["player"] for row in report["standings"]) == ["ann", "bob", "cy"]
    assert [row["rank"] for row in report["standings"]].count(1) == 1


def test_play_cli_refuses_a_wrong_player_count(capsys):
    assert main(["play", "tiny", "--players", "9"]) == 2
