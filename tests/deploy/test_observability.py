"""deploy/observability/: the alert rules and the Grafana dashboard, checked offline.

`promtool` (Debian's `prometheus` package; `.ci/run` installs it) checks the rules, runs their unit tests
(each alert fires on the series it is for and not on a healthy one) and parses every dashboard query.
Every metric they name must be one the services really export, so a renamed metric breaks this test
rather than silently emptying a panel or an alert.
"""
from __future__ import annotations

import importlib
import json
import re
import shutil
import subprocess

import yaml
from prometheus_client import REGISTRY

from tests.deploy import facts

HERE = facts.ROOT / "deploy" / "observability"
RULES, RULE_TESTS, DASHBOARD = HERE / "alerts.yaml", HERE / "alerts.test.yaml", HERE / "grafana-dashboard.json"
METRIC_MODULES = ("lobby.app", "lobby.websocket", "adjudicator.service", "adjudicator.cache", "clock.service", "clock.observe",
                  "scoring.durable", "scoring.consumer", "trucker.metrics", "starbase_core.supervise",
                  "starbase_core.consumer_lag")
OURS = re.compile(r"\b((?:lobby|adjudicator|scoring|clock|trucker|starbase)_[a-z_]+)\b")


def promtool(*args: str) -> subprocess.CompletedProcess:
    tool = shutil.which("promtool")
    assert tool, "promtool is missing: install Debian's prometheus package (apt-get install prometheus)"
    return subprocess.run([tool, *args], capture_output=True, text=True, cwd=HERE, timeout=120)


def exported() -> set[str]:
    for module in METRIC_MODULES:
        importlib.import_module(module)
    names: set[str] = set()
    for family in REGISTRY.collect():
        names |= {family.name, f"{family.name}_total", f"{family.name}_bucket", f"{family.name}_sum",
                  f"{family.name}_count"} if family.type in ("counter", "histogram") else {family.name}
    return names


def alert_exprs() -> list[str]:
    groups = yaml.safe_load(RULES.read_text())["groups"]
    return [rule["expr"] for group in groups for rule in group["rules"]]


def dashboard_exprs() -> list[str]:
    panels = json.loads(DASHBOARD.read_text())["panels"]
    return [target["expr"] for panel in panels for target in panel["targets"]]


def test_the_rules_are_valid_and_their_unit_tests_pass():
    checked = promtool("check", "rules", RULES.name)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    tested = promtool("test", "rules", RULE_TESTS.name)
    assert tested.returncode == 0, tested.stdout + tested.stderr


def test_every_dashboard_query_parses(tmp_path):
    as_rules = {"groups": [{"name": "dashboard", "rules": [
        {"record": f"dashboard:panel{n}", "expr": expr} for n, expr in enumerate(dashboard_exprs())]}]}
    (tmp_path / "dashboard.yaml").write_text(yaml.safe_dump(as_rules))
    checked = promtool("check", "rules", str(tmp_path / "dashboard.yaml"))
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_every_metric_named_is_one_a_service_exports():
    names = exported()
    for expr in alert_exprs() + dashboard_exprs():
        missing = set(OURS.findall(expr)) - names
        assert not missing, f"{sorted(missing)} in {expr!r}: no service exports it"


def test_the_dashboard_covers_what_the_alerts_watch():
    on_dashboard = {name for expr in dashboard_exprs() for name in OURS.findall(expr)}
    strip = re.compile(r"_(bucket|sum|count)$")
    watched = {strip.sub("", name) for expr in alert_exprs() for name in OURS.findall(expr)}
    assert watched <= {strip.sub("", name) for name in on_dashboard}


def alert_names() -> list[str]:
    groups = yaml.safe_load(RULES.read_text())["groups"]
    return [rule["alert"] for group in groups for rule in group["rules"] if "alert" in rule]


def test_every_alert_has_a_unit_test_where_it_fires():
    cases = [case for test in yaml.safe_load(RULE_TESTS.read_text())["tests"]
             for case in test.get("alert_rule_test", [])]
    fired = {case["alertname"] for case in cases if case.get("exp_alerts")}
    assert set(alert_names()) - fired == set(), "alerts no promtool case shows firing"


def test_every_alert_has_a_runbook_line():
    docs = (facts.ROOT / "docs" / "observability.md").read_text()
    runbook = docs.split("## Runbook", 1)[1].split("\n## ", 1)[0]
    assert [name for name in alert_names() if f"**{name}**" not in runbook] == []
