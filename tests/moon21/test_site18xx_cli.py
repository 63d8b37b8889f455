"""`starbase import 18xx` and `starbase export --format 18xx`, and the audit of an imported stream."""
import json
from pathlib import Path

import pytest

from starbase_cli.audit import read_export
from starbase_cli.main import main
from starbase_core.audit import FAIL, PASS, audit_game
from starbase_core.envelope import NewEvent, seal
from starbase_rules.registry import get_game

FIXTURE = Path(__file__).parent / "data" / "18xx_fixed_round.json"


@pytest.fixture(scope="module")
def stream(tmp_path_factory):
    out = tmp_path_factory.mktemp("import") / "game.jsonl"
    assert main(["import", "18xx", str(FIXTURE), "-o", str(out)]) == 0
    return out


def envelopes_of(path) -> list:
    return read_export(path.read_text().splitlines())


def test_import_prints_the_result_in_the_sites_form(capsys):
    assert main(["import", "18xx", str(FIXTURE), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"16111": 3326, "16437": 2293}


def test_import_reports_its_figures(capsys):
    assert main(["import", "18xx", str(FIXTURE)]) == 0
    out = capsys.readouterr().out
    assert "25 runs, 22 transport purchases, 30 operating" in out and '{"16111": 3326, "16437": 2293}' in out


def test_import_with_the_rulebook_stops_at_action_6_with_the_sites_action(capsys):
    assert main(["import", "18xx", str(FIXTURE), "--option", 'ruleset="rulebook"']) == 1
    err = capsys.readouterr().err
    assert err.startswith("diverged at action 6 (id 9, lay_tile by OLS): ILLEGAL_HEX")
    assert '"hex":"D10","tile":"6M-0","rotation":4' in err and "Traceback" not in err


def test_keep_going_lists_every_divergence(capsys):
    assert main(["import", "18xx", str(FIXTURE), "--option", 'ruleset="rulebook"', "--keep-going"]) == 1
    assert capsys.readouterr().err.count("diverged at action") > 1


@pytest.mark.parametrize("content, fragment", [
    ("{not json", "is not JSON"),
    ('{"title": "1830"}', "not 21Moon"),
    ("[]", "no saved game"),
])
def test_a_malformed_file_is_one_line_and_exit_code_2(tmp_path, capsys, content, fragment):
    path = tmp_path / "bad.json"
    path.write_text(content)
    assert main(["import", "18xx", str(path)]) == 2
    err = capsys.readouterr().err
    assert fragment in err and err.count("\n") == 1 and "Traceback" not in err


def test_a_missing_file_and_a_bad_option_are_exit_code_2(tmp_path, capsys):
    assert main(["import", "18xx", str(tmp_path / "none.json")]) == 2
    assert main(["import", "18xx", str(FIXTURE), "--option", "nope=1"]) == 2
    err = capsys.readouterr().err
    assert "cannot read" in err and "UNKNOWN_OPTION" in err and "Traceback" not in err


def test_the_imported_stream_passes_the_audit(stream):
    report = audit_game("18xx-182367", envelopes_of(stream), get_game)
    assert report.verdict == PASS, report.render()
    text = report.render()
    assert "imported from 18xx.games" in text and "setup re-derived from the origin (game, seed)" in text
    assert "not verifiable here" in text
    first, last = envelopes_of(stream)[0], envelopes_of(stream)[-1]
    assert first.data["commitment"] == "import:18xx.games" and first.data["import"]["seed"] == 2024757991
    assert last.data["seed"] is None and all(e.meta.get("draw_end") == 0 for e in envelopes_of(stream))


def test_the_audit_cli_passes_an_imported_stream(stream, capsys):
    assert main(["audit", "18xx-182367", "--file", str(stream)]) == 0
    assert "VERDICT: PASS" in capsys.readouterr().out


def reseal(envelopes, changed_seq, change):
    """Tamper with one event and rebuild the whole chain, so only the re-run can tell."""
    out = []
    for envelope in envelopes:
        data = change(dict(envelope.data)) if envelope.seq == changed_seq else envelope.data
        event = NewEvent(type=envelope.type, data=data, actor=envelope.actor, meta=envelope.meta)
        out += seal(envelope.stream, [event], last_seq=out[-1].seq if out else 0,
                    last_hash=out[-1].hash if out else "0" * 64, command_id=envelope.command_id,
                    time=envelope.time)
    return out


def test_a_tampered_imported_stream_fails_the_audit(stream):
    envelopes = envelopes_of(stream)
    edited = [e.model_copy(update={"data": {**e.data, "revenue": e.data["revenue"] + 10}})
              if e.type == "TransportsRun" and e.data["revenue"] else e for e in envelopes]
    assert audit_game("18xx-182367", edited, get_game).verdict == FAIL          # the chain breaks
    run = next(e for e in envelopes if e.type == "EarningsPaid")
    resealed = reseal(envelopes, run.seq, lambda d: {**d, "revenue": d["revenue"] + 10})
    report = audit_game("18xx-182367", resealed, get_game)
    assert report.verdict == FAIL and "but the rules give" in report.render()    # the re-run differs


def test_a_moved_mineral_fails_the_audit_of_the_setup(stream):
    envelopes = envelopes_of(stream)
    setup = next(e for e in envelopes if e.type == "GameSetUp")
    swap = lambda d: {**d, "minerals": {**d["minerals"], "B4": d["minerals"]["K5"], "K5": d["minerals"]["B4"]}}
    report = audit_game("18xx-182367", reseal(envelopes, setup.seq, swap), get_game)
    assert report.verdict == FAIL and "the rules give" in report.render()


def test_an_imported_stream_that_claims_a_seed_fails(stream):
    envelopes = envelopes_of(stream)
    report = audit_game("18xx-182367", reseal(envelopes, envelopes[-1].seq, lambda d: {**d, "seed": "00"}),
                        get_game)
    assert report.verdict == FAIL and "reveals no seed" in report.render()


def test_export_to_the_sites_form_from_a_file_and_import_again(stream, tmp_path, capsys):
    out = tmp_path / "back.json"
    assert main(["export", "18xx-182367", "--file", str(stream), "--format", "18xx", "-o", str(out)]) == 0
    saved = json.loads(out.read_text())
    assert saved["title"] == "21Moon" and saved["result"] == {"16111": 3326, "16437": 2293}
    again = tmp_path / "again.jsonl"
    assert main(["import", "18xx", str(out), "-o", str(again), "--game-id", "again"]) == 0
    commands = lambda path: [(e.actor, e.meta["command"]) for e in envelopes_of(path) if "command" in e.meta]
    assert commands(again) == commands(stream)


def test_only_21moon_exports_to_the_site(tmp_path, capsys):
    from starbase_core.gamestream import game_created
    other = seal("game.x", [game_created("t2038", ["a", "b"], {}, "c", 0)], last_seq=0, last_hash="0" * 64)
    path = tmp_path / "x.jsonl"
    path.write_text("".join(e.model_dump_json() + "\n" for e in other))
    assert main(["export", "x", "--file", str(path), "--format", "18xx"]) == 1
    assert "only 21Moon" in capsys.readouterr().err
