"""The CLI fails cleanly (issue 14.3): a player count a game cannot start with is a one-line error that
names the game's range, for every engine; a reader that stops reading (`starbase log GAME | head`) ends
the command quietly, with no traceback (`main.run_handler`, for every command)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from starbase_cli.main import main
from starbase_core.envelope import GENESIS_HASH, NewEvent, seal
from starbase_rules.registry import ENGINES, get_game

STARBASE = str(Path(sys.executable).parent / "starbase")


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_a_player_count_outside_the_games_range_is_a_clean_error_naming_it(name, capsys):
    game = get_game(name)
    for count in (0, game.min_players - 1, game.max_players + 1, 7):
        if game.min_players <= count <= game.max_players:
            continue
        assert main(["play", name, "--players", str(count)]) == 2
        out, err = capsys.readouterr()
        assert err == f"starbase play: {name} takes {game.min_players} to {game.max_players} players, not {count}\n"
        assert out == ""


def test_a_count_the_engine_takes_only_with_an_option_says_which(capsys):
    assert main(["play", "t2038", "--players", "2"]) == 2
    out, err = capsys.readouterr()
    assert err.startswith("starbase play: t2038 cannot start: ") and err.count("\n") == 1
    assert "3-6 players" in err and "two_player" in err and "BAD_PLAYER_COUNT" in err


def test_a_bad_option_is_a_clean_error_too(capsys):
    assert main(["play", "stellar", "--players", "3", "--option", "no_such_option=1"]) == 2
    assert "no_such_option" in capsys.readouterr().err


@pytest.fixture
def long_export(tmp_path) -> Path:
    """A stream export far longer than a pipe holds (64 KiB)."""
    events = [NewEvent(type="Noted", data={"n": n, "text": "x" * 200}, actor="ann") for n in range(3000)]
    sealed = seal("game.g", events, last_seq=0, last_hash=GENESIS_HASH)
    path = tmp_path / "g.jsonl"
    path.write_text("".join(e.model_dump_json() + "\n" for e in sealed))
    return path


def test_a_reader_that_stops_reading_ends_the_log_quietly(long_export):
    writer = subprocess.Popen([STARBASE, "log", "g", "--file", str(long_export)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = writer.stdout.readline()            # as `| head -n 1` does: read a line, then go away
    writer.stdout.close()
    assert writer.wait(timeout=60) == 0
    assert writer.stderr.read().decode() == ""
    assert first.startswith(b"#1 ")
