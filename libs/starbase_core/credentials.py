"""The secrets a service starts with: read from files, and refused when missing, short or a placeholder.

A service calls `require(settings, needs)` first thing in its entry point. Each need names a link and
the settings that secure it:

| need | settings | what |
|---|---|---|
| `nats` | `NATS_NKEY_FILE` | the service's NATS user: an NKey seed file (`SU…`) |
| `redis` | `REDIS_USERNAME`, `REDIS_PASSWORD_FILE` | the service's Redis ACL user |
| `scores_redis` | `LOBBY_SCORES_REDIS_USERNAME`, `LOBBY_SCORES_REDIS_PASSWORD_FILE` | the lobby's read-only user of the boards |
| `adjudicator_client` | `ADJUDICATOR_TOKEN_FILE` | the bearer secret it presents to the adjudicator |
| `adjudicator_server` | `ADJUDICATOR_CALLERS_FILE` | who may call the adjudicator (hashes of their secrets) |
| `lobby_secret` | `LOBBY_SECRET` | signs and checks players' tokens |
| `no_trusted_player_param` | `TRUCKER_TRUST_PLAYER_PARAM` | must be off: it lets anyone play as anyone |

Anything missing, unreadable, shorter than `MIN_SECRET_CHARS` or a known placeholder (`replace-me`,
`change-me`, `secret`, …) stops the service with one sentence naming the setting and how to make one,
never echoing the value. `INSECURE_DEV_MODE=true` turns the refusals into warnings, for tests and local
experiments only: `make run` does not need it, it generates every credential (`starbase_core.provision`).
"""
from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, Iterable

import nkeys

MIN_SECRET_CHARS = 24
HOW_TO_MAKE = 'python -c "import secrets; print(secrets.token_urlsafe(32))"'
PLACEHOLDERS = frozenset({
    "replace-me", "replaceme", "change-me", "changeme", "change-me-in-production", "secret", "password",
    "passw0rd", "default", "example", "test", "testing", "dev", "development", "todo", "xxx", "none",
    "null", "insecure", "please-change", "your-secret-here", "s3cret", "letmein", "admin", "starbase",
})
PLACEHOLDER_WORDS = ("replace-me", "replace_me", "change-me", "change_me", "changeme", "your-secret",
                     "placeholder", "example")


class InsecureSetting(Exception):
    """A secret setting that must not be used; the message names it and says how to make a good one."""


def problem_with_secret(setting: str, value: str | None) -> str | None:
    """Why `value` is not fit to be a secret, or None if it is. Never quotes the value."""
    if not value or not value.strip():
        return f"{setting} is not set: make one with {HOW_TO_MAKE}"
    lowered = value.strip().lower()
    if lowered in PLACEHOLDERS or any(word in lowered for word in PLACEHOLDER_WORDS):
        return f"{setting} is a known placeholder: make a real one with {HOW_TO_MAKE}"
    if len(value.strip()) < MIN_SECRET_CHARS:
        return (f"{setting} is too short ({len(value.strip())} characters, at least {MIN_SECRET_CHARS}): "
                f"make one with {HOW_TO_MAKE}")
    if len(set(value.strip())) < 8:
        return f"{setting} repeats too few characters to be secret: make one with {HOW_TO_MAKE}"
    return None


def check_secret(setting: str, value: str | None) -> str:
    if (problem := problem_with_secret(setting, value)) is not None:
        raise InsecureSetting(problem)
    assert value is not None
    return value.strip()


def read_secret_file(setting: str, path: str) -> str:
    """The secret in the file that `setting` names, stripped; refused if it is not a good secret."""
    if not path:
        raise InsecureSetting(f"{setting} is not set: it names a file holding the secret "
                              f"(make one with {HOW_TO_MAKE} > FILE; chmod 600 FILE)")
    try:
        text = Path(path).read_text()
    except OSError as error:
        raise InsecureSetting(f"{setting}: cannot read {path} ({error.strerror})") from None
    return check_secret(f"the file named by {setting}", text)


def read_nkey_seed(path: str) -> str:
    """The NKey user seed in the file NATS_NKEY_FILE names (checked: a user seed that decodes)."""
    if not path:
        raise InsecureSetting("NATS_NKEY_FILE is not set: it names the file with this service's NATS "
                              "NKey seed (`starbase credentials` makes them)")
    try:
        seed = Path(path).read_text().strip()
    except OSError as error:
        raise InsecureSetting(f"NATS_NKEY_FILE: cannot read {path} ({error.strerror})") from None
    try:
        keys = nkeys.from_seed(seed.encode())
        public = keys.public_key.decode()
    except Exception:
        raise InsecureSetting("NATS_NKEY_FILE does not hold an NKey seed (a line starting `SU`)") from None
    if not public.startswith("U"):
        raise InsecureSetting("NATS_NKEY_FILE holds an NKey seed that is not a user's (it must start `SU`)")
    return seed


def problems(settings: Any, needs: Iterable[str]) -> list[str]:
    """One sentence per secret setting of `needs` (see the table above) that is not fit to start with."""
    checks = {
        "nats": lambda: read_nkey_seed(settings.nats_nkey_file),
        "redis": lambda: _check_redis(settings.redis_username, settings.redis_password_file, "REDIS"),
        "scores_redis": lambda: _check_redis(settings.lobby_scores_redis_username,
                                             settings.lobby_scores_redis_password_file, "LOBBY_SCORES_REDIS"),
        "adjudicator_client": lambda: read_secret_file("ADJUDICATOR_TOKEN_FILE", settings.adjudicator_token_file),
        "adjudicator_server": lambda: _check_callers_file(settings.adjudicator_callers_file),
        "lobby_secret": lambda: check_secret("LOBBY_SECRET", settings.lobby_secret),
        "no_trusted_player_param": lambda: _check_trusted_param(settings),
    }
    found = []
    for need in needs:
        try:
            checks[need]()
        except InsecureSetting as problem:
            found.append(str(problem))
    return found


def _check_trusted_param(settings: Any) -> None:
    if settings.trucker_trust_player_param:
        raise InsecureSetting("TRUCKER_TRUST_PLAYER_PARAM lets anyone act as any player (`?player=`): "
                              "it is for benchmarks and local play only")


def _check_redis(username: str, password_file: str, setting: str) -> None:
    if not username:
        raise InsecureSetting(f"{setting}_USERNAME is not set: it names this service's Redis ACL user")
    read_secret_file(f"{setting}_PASSWORD_FILE", password_file)


def _check_callers_file(path: str) -> None:
    from starbase_core.callers import load_callers   # the parser lives with the format

    if not path:
        raise InsecureSetting("ADJUDICATOR_CALLERS_FILE is not set: it names the file listing who may call "
                              "the adjudicator (`starbase credentials` makes it)")
    load_callers(path)


def require(settings: Any, needs: Iterable[str], service: str) -> None:
    """Stop the process (exit 2) with a clear sentence if a secret is missing, short or a placeholder;
    under INSECURE_DEV_MODE only warn. Called by each service's `main` before anything connects."""
    found = problems(settings, needs)
    if not found:
        return
    if getattr(settings, "insecure_dev_mode", False):
        for problem in found:
            print(f"{service}: WARNING (INSECURE_DEV_MODE): {problem}", file=sys.stderr, flush=True)
        return
    for problem in found:
        print(f"{service}: refusing to start: {problem}", file=sys.stderr, flush=True)
    print(f"{service}: (for a throw-away local run only, INSECURE_DEV_MODE=true skips these checks)",
          file=sys.stderr, flush=True)
    raise SystemExit(2)


def secret_from_file(path: str) -> str | None:
    """A secret file's content for a connection, or None when no file is configured."""
    return Path(path).read_text().strip() if path else None


def write_private(path: Path, data: bytes | str) -> None:
    """Create (or replace) a file only its owner may read, without a moment when it is wider."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "wb") as file:
        file.write(data.encode() if isinstance(data, str) else data)
    os.chmod(path, 0o600)   # a file that existed keeps its old mode through O_CREAT


def private_file_ok(path: str) -> bool:
    """Whether only the owner may read the file (mode 0600 or tighter)."""
    return os.stat(path).st_mode & 0o077 == 0
