"""Who may call the adjudicator: one line per calling service, holding a hash of its bearer secret.

    # name   sha256(secret), hex                                        methods
    lobby    3f1c…                                                      *
    clock    9a0b…                                                      Submit

The adjudicator keeps only the SHA-256 of each caller's secret (secrets are 32 random bytes, so a plain
hash is as good as a slow one), so its file reveals nothing a caller could use. `*` allows every method.
"""
from __future__ import annotations

import hashlib
import hmac
import re
from dataclasses import dataclass
from pathlib import Path

from starbase_core.credentials import InsecureSetting

ALL_METHODS = "*"
_LINE = re.compile(r"^(?P<name>[a-z][a-z0-9_-]{0,31})\s+(?P<digest>[0-9a-f]{64})\s+(?P<methods>\S+)$")


@dataclass(frozen=True)
class Caller:
    name: str
    digest: str
    methods: frozenset[str]

    def may_call(self, method: str) -> bool:
        return ALL_METHODS in self.methods or method in self.methods


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def caller_line(name: str, token: str, methods: tuple[str, ...] = (ALL_METHODS,)) -> str:
    return f"{name} {token_digest(token)} {','.join(methods)}"


def parse_callers(text: str, source: str = "ADJUDICATOR_CALLERS_FILE") -> dict[str, Caller]:
    """digest → caller; refuses a malformed line (naming its number, not its content)."""
    callers: dict[str, Caller] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        match = _LINE.match(line)
        if match is None:
            raise InsecureSetting(f"{source}: line {number} is not `name sha256-hex methods`")
        caller = Caller(match["name"], match["digest"], frozenset(match["methods"].split(",")))
        callers[caller.digest] = caller
    if not callers:
        raise InsecureSetting(f"{source} lists no caller: nobody could call the adjudicator")
    return callers


def load_callers(path: str) -> dict[str, Caller]:
    try:
        text = Path(path).read_text()
    except OSError as error:
        raise InsecureSetting(f"ADJUDICATOR_CALLERS_FILE: cannot read {path} ({error.strerror})") from None
    return parse_callers(text)


def identify(callers: dict[str, Caller], token: str) -> Caller | None:
    """The caller whose secret `token` is, or None. Compared in constant time over every entry."""
    digest = token_digest(token)
    found = None
    for known, caller in callers.items():
        if hmac.compare_digest(known, digest):
            found = caller
    return found
