"""The client's own checks: its unit tests (node's test runner: the socket protocol reader, the screen
addresses), and its text: every word a person sees comes from the message catalogue."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "services" / "web"
SOURCES = WEB / "src"
CATALOGUE = sorted((SOURCES / "i18n").glob("en*.ts"))          # en.ts joins the parts en-*.ts
# Keys built at run time from a value (a status, an event type, a refusal code, …): see en-core.ts.
DYNAMIC = ("status.", "connection.", "error.", "command.", "event.", "field.", "game.", "option.", "moon21.holder.",
           "auth.signedOut.", "role.", "t2038.round.", "t2038.ore.", "t2038.kind.", "t2038.box.", "stellar.round.",
           "stellar.kind.", "stellar.step.", "stellar.timing.", "stellar.purpose.", "stellar.status.", "trucker.phase.",
           "trucker.kind.", "trucker.short.", "trucker.connector.", "trucker.side.", "trucker.source.", "trucker.good.",
           "trucker.pick.", "trucker.colour.", "trucker.crewKind.")


def keys_of(path: Path) -> list[str]:
    return re.findall(r'^\s*"([\w.]+)":', path.read_text(), re.M)


def catalogue_keys() -> set[str]:
    return {key for path in CATALOGUE for key in keys_of(path)}


def sources() -> dict[Path, str]:
    return {path: path.read_text() for path in SOURCES.rglob("*.ts*") if path not in CATALOGUE}


def test_no_key_is_in_two_parts_of_the_catalogue():
    """The parts are joined with `...`: a key in two parts would silently lose one of its texts."""
    seen: dict[str, str] = {}
    twice = []
    for path in CATALOGUE:
        for key in keys_of(path):
            if key in seen:
                twice.append(f"{key}: {seen[key]} and {path.name}")
            seen[key] = path.name
    assert len(CATALOGUE) > 1 and twice == []


def test_the_client_unit_tests_pass():
    npm = shutil.which("npm")
    assert npm, "npm is missing: the client cannot be built or tested"
    run = subprocess.run([npm, "test"], cwd=WEB, capture_output=True, text=True, timeout=180)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert re.search(r"# pass (\d+)", run.stdout) and "# fail 0" in run.stdout, run.stdout[-2000:]


def test_no_text_is_written_into_the_screens():
    """JSX text and the text attributes people read (labels, titles, placeholders) use `t(...)`."""
    found = []
    for path, text in sources().items():
        if path.suffix != ".tsx":
            continue
        found += [f"{path.name}: {m}" for m in re.findall(r">\s*([^<>{}]*[A-Za-z]{2,}[^<>{}]*?)\s*</", text)]
        found += [f"{path.name}: {m}" for m in
                  re.findall(r'\b(?:aria-label|title|placeholder|alt)="([^"]*[A-Za-z][^"]*)"', text)]
    assert found == []


def test_every_catalogue_entry_is_shown_somewhere():
    """(A key `t(...)` uses that the catalogue lacks fails the build: `t` takes only catalogue keys.)"""
    quoted = set(re.findall(r'"([\w.]+)"', "\n".join(sources().values())))
    unused = {key for key in catalogue_keys() if key not in quoted and not key.startswith(DYNAMIC)}
    assert unused == set(), f"catalogue entries nothing shows: {sorted(unused)}"


def test_the_checks_would_catch_hard_wired_text():
    sample = '<p class="x">Your turn</p><button aria-label="Close">{t("common.cancel")}</button>'
    assert re.findall(r">\s*([^<>{}]*[A-Za-z]{2,}[^<>{}]*?)\s*</", sample) == ["Your turn"]
    assert re.findall(r'\b(?:aria-label|title|placeholder|alt)="([^"]*[A-Za-z][^"]*)"', sample) == ["Close"]
