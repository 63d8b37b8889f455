"""What the deploy files must agree with, read from the services themselves (not restated here).

Each service's settings class gives the variable names and defaults of its listening port, bind host
and shutdown grace; `effective(service, env)` builds the settings the process would see from an env
mapping exactly as the service does (`starbase_core.config.from_env`), so a port changed in a manifest
or in a service's defaults is followed by the checks.
"""
from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

from adjudicator.__main__ import NEEDS as ADJUDICATOR_NEEDS, AdjudicatorSettings
from bots.__main__ import NEEDS as BOTS_NEEDS, BotSettings
from clock.__main__ import NEEDS as CLOCK_NEEDS, ClockSettings
from lobby.config import NEEDS as LOBBY_NEEDS, LobbySettings
from notifier.config import NEEDS as NOTIFIER_NEEDS, NotifierSettings
from scoring.config import NEEDS as SCORING_NEEDS, ScoringSettings
from starbase_core.config import CoreSettings, from_env
from starbase_core.credentials import PLACEHOLDER_WORDS, PLACEHOLDERS
from trucker.settings import NEEDS as TRUCKER_NEEDS, TruckerSettings

ROOT = Path(__file__).resolve().parents[2]
SERVICES_DIR = ROOT / "services"


@dataclass(frozen=True)
class ServiceFacts:
    settings: type[CoreSettings]
    health_port: str          # the field naming the port serving /healthz and /readyz
    host: str                 # the field naming the address that port binds
    grace: str | None         # the field naming the seconds it takes to stop after SIGTERM (None: at once)
    needs: tuple[str, ...]    # the secrets its entry point refuses to start without (starbase_core.credentials)
    other_ports: tuple[str, ...] = ("metrics_port",)   # further listening ports (fields)


SERVICES: dict[str, ServiceFacts] = {
    "adjudicator": ServiceFacts(AdjudicatorSettings, "adjudicator_health_port", "adjudicator_host",
                                "shutdown_grace", ADJUDICATOR_NEEDS, ("adjudicator_port", "metrics_port")),
    "bots": ServiceFacts(BotSettings, "bots_health_port", "bots_health_host", "shutdown_grace", BOTS_NEEDS),
    "clock": ServiceFacts(ClockSettings, "clock_health_port", "clock_health_host", "shutdown_grace", CLOCK_NEEDS),
    "lobby": ServiceFacts(LobbySettings, "lobby_port", "lobby_host", "lobby_shutdown_grace", LOBBY_NEEDS),
    "notifier": ServiceFacts(NotifierSettings, "notifier_health_port", "notifier_health_host", None,
                             NOTIFIER_NEEDS),
    "scoring": ServiceFacts(ScoringSettings, "scoring_health_port", "scoring_health_host", None, SCORING_NEEDS),
    "trucker": ServiceFacts(TruckerSettings, "trucker_port", "trucker_host", "trucker_shutdown_grace",
                            TRUCKER_NEEDS),
}
# The services players reach (through the Ingress, or published by compose): only these two.
PUBLIC = {"lobby", "trucker"}

# docs/running.md, settings table: the services that use REDIS_URL (every settings class has the field,
# inherited from CoreSettings, so it cannot be derived from the classes).
REDIS_USERS = {"lobby", "scoring", "trucker"}


def runnable_services() -> set[str]:
    """Every package under services/ that `python -m <package>` can start."""
    return {p.parent.name for p in SERVICES_DIR.glob("*/__main__.py")}


def effective(service: str, env: Mapping[str, str]) -> CoreSettings:
    return from_env(SERVICES[service].settings, {k: str(v) for k, v in env.items()})


def health_port(service: str, env: Mapping[str, str]) -> int:
    return getattr(effective(service, env), SERVICES[service].health_port)


def listening_ports(service: str, env: Mapping[str, str]) -> set[int]:
    settings, facts = effective(service, env), SERVICES[service]
    return {getattr(settings, f) for f in (facts.health_port, *facts.other_ports)}


def metrics_port(service: str, env: Mapping[str, str]) -> int:
    return effective(service, env).metrics_port


def grace_seconds(service: str, env: Mapping[str, str]) -> float:
    field = SERVICES[service].grace
    return 0.0 if field is None else float(getattr(effective(service, env), field))


def binds_all_interfaces(service: str, env: Mapping[str, str]) -> bool:
    host = getattr(effective(service, env), SERVICES[service].host)
    return host in ("0.0.0.0", "::", "")


def uses_adjudicator(service: str) -> bool:
    return "adjudicator_target" in SERVICES[service].settings.model_fields


def needs_lobby_secret(service: str) -> bool:
    return "lobby_secret" in SERVICES[service].settings.model_fields


def python_module(command: list[str] | None) -> str | None:
    """`python -m lobby ...` → "lobby"; anything else → None."""
    if command and len(command) >= 3 and re.fullmatch(r"python3?(\.\d+)?", command[0]) \
            and command[1] == "-m":
        return command[2]
    return None


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def is_placeholder(value: str) -> bool:
    lowered = value.strip().lower()
    return lowered in PLACEHOLDERS or any(word in lowered for word in PLACEHOLDER_WORDS)
