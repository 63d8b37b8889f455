"""NATS users and what each may publish and subscribe to: least privilege, one user per service.

Each service authenticates with its own NKey (the server's config holds only public keys; the seed
never leaves the service and never crosses the wire: the client signs the server's nonce). Every
allowance below is needed by code that runs, found by reading it and by running the services on a
server with these permissions (tests/security): anything not listed is refused by the server.

Two tables say it all: `families(names)` turns each *family* of subjects (one line each: what it lets
a user do, as NATS subjects) into its subjects, and `PUBLISH` / `SUBSCRIBE` give each role its
families. To let a service do something new, add a family line (or reuse one) and name it in the
role's tuple; docs/security.md says how, and what to test.

How the store uses JetStream (see `starbase_core.store_jetstream`, `jetstream_reader`), as subjects:

- create the stream on start: `$JS.API.STREAM.CREATE.<stream>` (creating an existing stream with the
  same config is a no-op; only the adjudicator may *update* a config);
- read: `$JS.API.STREAM.INFO.<stream>`; batched direct gets `$JS.API.DIRECT.GET.<stream>` answered on
  one long-lived subscription to the reader's own inbox; "where does this subject end, says the
  leader" is a message get `$JS.API.STREAM.MSG.GET.<stream>`; a KV entry (seeds, snapshots) is a
  message get `$JS.API.STREAM.MSG.GET.KV_<bucket>` or a direct get `$JS.API.DIRECT.GET.KV_<bucket>.…`;
- append: publish on `<prefix>.<kind>.>` (idempotency comes from the stream itself: no command index);
- follow: ordered push consumers (`$JS.API.CONSUMER.CREATE.<stream>…`, deleted on stop, flow
  control answered on `$JS.FC.<stream>.>`), delivered to the service's own inbox;
- every reply comes to the service's own inbox prefix `_INBOX_<user>.>`, so no service can read the
  replies another receives (a direct get of a seed is a reply).

Seeds (`game-secrets`, stream `KV_game-secrets`, subjects `$KV.game-secrets.>`): the adjudicator
creates and reads them, the Trucker service and the audit tool read them, nobody else sees them. The
same bucket holds the snapshots' HMAC key (`snapshots=hmac-key`). Snapshots (`<stream>_snapshots`) are
the adjudicator's alone. Game streams (`<prefix>.game.>`) are written by the adjudicator and the
Trucker service only; the lobby writes its own `table.>` streams.

Personal data is the lobby's alone (docs/accounts.md): the accounts KV bucket (which every replica
watches), the sessions KV bucket, the personal stream (chat, reports, moderation log; the one stream
that allows deleting messages and purging subjects) and the core subjects `<personal prefix>-live.>`
(chat pushes, ended sessions) between replicas. No other service sees any of it. `starbase admin`
(role `admin`) reads and writes accounts and appends to the moderation log, nothing else: no
sessions, no event store, no deletes in the personal stream, no bucket or stream it would create.

The bot worker (`bots`) reads the game streams through its own durable consumer and plays only through
the adjudicator (its caller secret): it appends nothing. The notifier reads game and table streams
through its durable consumer, keeps its claims, players' preferences and dead letters in buckets and a
stream of its own, and answers the lobby's test-webhook requests (`allow_responses`); the lobby reads and
writes preferences, lists and erases dead letters (it owns the player's page), nothing else of it.

Submit over NATS (`ADJUDICATOR_SUBJECT`, services/adjudicator/nats_door.py): the adjudicator's callers
(lobby, clock, bots) publish commands on `<subject>.submit.>`, reads about a game on `<subject>.call.>`
(and roll calls on `<subject>.roll`) and hear the replicas' hellos on `<subject>.hello`; only the
adjudicator listens to them, says hello, and answers each request once, in its caller's own inbox
(`allow_responses`). Its caller check (the callers file) applies as on gRPC.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

ROLES = ("adjudicator", "lobby", "scoring", "clock", "trucker", "bots", "notifier", "audit", "admin")
API = "$JS.API"


@dataclass(frozen=True)
class Names:
    """The configurable names the permissions (NATS and Redis) are about: the services' settings of the
    same meaning."""
    stream: str = "STARBASE"                 # EVENT_STREAM
    prefix: str = "sb"                       # EVENT_SUBJECT_PREFIX
    seeds: str = "game-secrets"              # SEED_BUCKET
    trucker_bus: str = "trucker"             # TRUCKER_BUS_PREFIX
    scoring_durable: str = "scoring"         # SCORING_DURABLE
    scoring_prefix: str = "scoring"          # SCORING_PREFIX (Redis keys `{<prefix>}:*`)
    accounts: str = "accounts"               # LOBBY_ACCOUNTS_BUCKET
    sessions: str = "sessions"               # LOBBY_SESSIONS_BUCKET
    personal_stream: str = "PERSONAL"        # LOBBY_PERSONAL_STREAM
    personal_prefix: str = "personal"        # LOBBY_PERSONAL_PREFIX
    limits_prefix: str = "limits"            # LOBBY_LIMITS_PREFIX (Redis keys `<prefix>:*`)
    loop_prefix: str = "loop"                # LOBBY_LOOP_PREFIX (Redis keys `<prefix>:*`: turns, presence, quick play)
    bots_durable: str = "bots"               # BOTS_DURABLE
    notifier_durable: str = "notifier"       # NOTIFIER_DURABLE
    notifier_prefs: str = "notifier-prefs"   # NOTIFIER_PREFS_BUCKET (personal data: addresses, webhooks)
    notifier_claims: str = "notifier-claims" # NOTIFIER_CLAIMS_BUCKET
    notifier_dead_stream: str = "NOTIFIER_DEAD"    # NOTIFIER_DEAD_STREAM
    notifier_dead_prefix: str = "notifier-dead"    # NOTIFIER_DEAD_PREFIX
    notifier_test: str = "notifier.test"     # NOTIFIER_TEST_SUBJECT (the lobby asks, the notifier answers)
    adjudicator_subject: str = ""            # ADJUDICATOR_SUBJECT (commands over NATS; empty: `<prefix>-adjudicator`)

    @property
    def adjudicator(self) -> str:
        """The root of the subjects commands to the adjudicator travel under, as `CoreSettings` names it."""
        return self.adjudicator_subject or f"{self.prefix}-adjudicator"

    @property
    def snapshots(self) -> str:
        """The adjudicator's snapshot bucket: `<EVENT_STREAM>_snapshots` (services/adjudicator)."""
        return f"{self.stream}_snapshots"


def inbox_prefix(role: str) -> str:
    return f"_INBOX_{role}"


def _kv_get(bucket: str) -> list[str]:
    """Reading a KV entry: a message get on its stream (a direct get when the bucket allows it)."""
    return [f"{API}.STREAM.MSG.GET.KV_{bucket}", f"{API}.DIRECT.GET.KV_{bucket}.>"]


def _kv_bucket(bucket: str) -> list[str]:
    """Create (or find) a KV bucket, read and write its keys."""
    return [f"{API}.STREAM.CREATE.KV_{bucket}", f"{API}.STREAM.INFO.KV_{bucket}", f"$KV.{bucket}.>", *_kv_get(bucket)]


def _kv_watch(bucket: str) -> list[str]:
    """Follow a KV bucket with an ordered consumer (created and deleted by the client, flow control)."""
    stream = f"KV_{bucket}"
    return [f"{API}.CONSUMER.CREATE.{stream}", f"{API}.CONSUMER.CREATE.{stream}.>", f"{API}.CONSUMER.INFO.{stream}.>",
            f"{API}.CONSUMER.DELETE.{stream}.>", f"$JS.FC.{stream}.>"]


def _consume(stream: str, durable: str) -> list[str]:
    """Bind to a durable pull consumer that exists: read its state, pull, acknowledge."""
    name = f"{stream}.{durable}"
    return [f"{API}.CONSUMER.INFO.{name}", f"{API}.CONSUMER.MSG.NEXT.{name}", f"$JS.ACK.{name}.>"]


def _durable(stream: str, durable: str) -> list[str]:
    """Make, change or remove a durable consumer (with one filter subject or several)."""
    name = f"{stream}.{durable}"
    return [f"{API}.CONSUMER.DURABLE.CREATE.{name}", f"{API}.CONSUMER.CREATE.{name}",
            f"{API}.CONSUMER.CREATE.{name}.>", f"{API}.CONSUMER.DELETE.{name}"]


def families(n: Names) -> dict[str, list[str]]:
    """Every family of subjects a role may be given, one line each."""
    s, seeds, personal, dead = n.stream, n.seeds, n.personal_stream, n.notifier_dead_stream
    return {
        # ---- the event store ----
        "store.read": [f"{API}.STREAM.INFO.{s}", f"{API}.DIRECT.GET.{s}", f"{API}.DIRECT.GET.{s}.>",
                       f"{API}.STREAM.MSG.GET.{s}"],
        "store.follow": [f"{API}.CONSUMER.CREATE.{s}", f"{API}.CONSUMER.CREATE.{s}.>",
                         f"{API}.CONSUMER.DELETE.{s}.>", f"$JS.FC.{s}.>"],
        "store.create": [f"{API}.STREAM.CREATE.{s}"],
        "store.configure": [f"{API}.STREAM.UPDATE.{s}"],
        "append.game": [f"{n.prefix}.game.>"],
        "append.table": [f"{n.prefix}.table.>"],
        "scoring.consume": _consume(s, n.scoring_durable),
        "scoring.durable": _durable(s, n.scoring_durable),
        "bots.consume": _consume(s, n.bots_durable),
        "bots.durable": _durable(s, n.bots_durable),
        "notifier.consume": _consume(s, n.notifier_durable),
        "notifier.durable": _durable(s, n.notifier_durable),
        # ---- seeds (and the snapshots' HMAC key, an entry of the same bucket), snapshots ----
        "seeds.read": [f"{API}.STREAM.INFO.KV_{seeds}", *_kv_get(seeds)],
        "seeds.create": [f"{API}.STREAM.CREATE.KV_{seeds}"],
        "seeds.write": [f"$KV.{seeds}.>", f"{API}.STREAM.UPDATE.KV_{seeds}"],
        "snapshots": _kv_bucket(n.snapshots),
        # ---- Trucker's fan-out between replicas ----
        "trucker.fanout": [f"{n.trucker_bus}.events.>"],
        # ---- personal data (the lobby's) ----
        "accounts": _kv_bucket(n.accounts),
        "accounts.watch": _kv_watch(n.accounts),
        "sessions": _kv_bucket(n.sessions),
        "personal.stream": [f"{API}.STREAM.CREATE.{personal}", f"{API}.STREAM.UPDATE.{personal}",
                            f"{API}.STREAM.INFO.{personal}", f"{n.personal_prefix}.>",
                            f"{API}.STREAM.MSG.GET.{personal}", f"{API}.DIRECT.GET.{personal}",
                            f"{API}.DIRECT.GET.{personal}.>"],
        "personal.erase": [f"{API}.STREAM.MSG.DELETE.{personal}", f"{API}.STREAM.PURGE.{personal}"],
        "personal.live": [f"{n.personal_prefix}-live.>"],
        # ---- the notifier's own storage (personal data: the lobby writes preferences, lists and erases) ----
        "notifier.prefs": _kv_bucket(n.notifier_prefs),
        "notifier.claims": _kv_bucket(n.notifier_claims),
        "notifier.dead": [f"{API}.STREAM.CREATE.{dead}", f"{API}.STREAM.UPDATE.{dead}", f"{API}.STREAM.INFO.{dead}",
                          f"{n.notifier_dead_prefix}.>", f"{API}.STREAM.MSG.GET.{dead}", f"{API}.STREAM.PURGE.{dead}"],
        "notifier.test": [n.notifier_test],
        # ---- Submit over NATS (services/adjudicator/nats_door.py): callers ask, the adjudicator answers ----
        "adjudicator.submit": [f"{n.adjudicator}.submit.>", f"{n.adjudicator}.call.>", f"{n.adjudicator}.roll"],
        "adjudicator.hello": [f"{n.adjudicator}.hello"],
        # ---- the console (`starbase admin`): accounts (no bucket created: the lobby makes it), the modlog ----
        "console.accounts": [f"{API}.STREAM.INFO.KV_{n.accounts}", f"$KV.{n.accounts}.>", *_kv_get(n.accounts)],
        "console.modlog": [f"{API}.STREAM.INFO.{personal}", f"{API}.STREAM.MSG.GET.{personal}",
                           f"{n.personal_prefix}.modlog"],
    }


# What each role may publish (requests to JetStream's API are publishes too).
PUBLISH: dict[str, tuple[str, ...]] = {
    "adjudicator": ("store.read", "store.follow", "store.create", "store.configure", "append.game",
                    "seeds.read", "seeds.create", "seeds.write", "snapshots", "adjudicator.hello"),
    "trucker": ("store.read", "store.follow", "store.create", "append.game", "seeds.read", "seeds.create",
                "trucker.fanout"),
    "lobby": ("store.read", "store.follow", "store.create", "append.table", "accounts", "accounts.watch",
              "sessions", "personal.stream", "personal.erase", "personal.live", "notifier.prefs", "notifier.dead",
              "notifier.test", "adjudicator.submit"),
    "scoring": ("store.read", "store.follow", "store.create", "scoring.consume", "scoring.durable"),
    "clock": ("store.read", "store.follow", "store.create", "adjudicator.submit"),
    "bots": ("store.read", "store.follow", "store.create", "bots.consume", "bots.durable", "adjudicator.submit"),
    "notifier": ("store.read", "store.follow", "store.create", "notifier.consume", "notifier.durable",
                 "notifier.prefs", "notifier.claims", "notifier.dead"),
    # Read-only: the audit and export read streams and (once a game is over) check its seed.
    "audit": ("store.read", "store.follow", "seeds.read"),
    "admin": ("console.accounts", "console.modlog"),
}
# Families denied to every role not given them, where a broader allowance would otherwise reach them:
# only scoring makes, changes, resets or removes its durable consumer (readers create ordered consumers
# on the same stream, and a name is just the next token of that subject).
DENIED_UNLESS_GIVEN = ("scoring.durable", "bots.durable", "notifier.durable")
# What each role may subscribe to besides its own inbox (`_INBOX_<role>.>`).
SUBSCRIBE: dict[str, tuple[str, ...]] = {
    "adjudicator": ("adjudicator.submit",),
    "trucker": ("trucker.fanout",),
    "lobby": ("personal.live", "adjudicator.hello"),
    "clock": ("adjudicator.hello",),
    "bots": ("adjudicator.hello",),
    "notifier": ("notifier.test",),
}
# Roles that answer requests: they may publish once to each request's reply subject (another service's
# inbox), and only while the request is open (nats-server `allow_responses`).
RESPONDS = ("notifier", "adjudicator")


def permissions(role: str, names: Names = Names()) -> dict:
    """The NATS `permissions` block of a role: publish allow/deny and subscribe allow lists."""
    if role not in PUBLISH:
        raise ValueError(f"no NATS role {role!r}; roles: {', '.join(ROLES)}")
    subjects = families(names)
    publish = sorted({subject for family in PUBLISH[role] for subject in subjects[family]})
    subscribe = [f"{inbox_prefix(role)}.>", *(s for family in SUBSCRIBE.get(role, ()) for s in subjects[family])]
    block: dict = {"publish": {"allow": publish}, "subscribe": {"allow": subscribe}}
    deny = [subject for family in DENIED_UNLESS_GIVEN if family not in PUBLISH[role] for subject in subjects[family]]
    if deny:
        block["publish"]["deny"] = deny
    if role in RESPONDS:
        block["allow_responses"] = True
    return block


def authorization(users: dict[str, str], names: Names = Names()) -> str:
    """The nats-server `authorization` block for {role: public NKey}; JSON is valid NATS config."""
    entries = [{"nkey": public, "permissions": permissions(role, names)} for role, public in users.items()]
    body = ",\n    ".join(json.dumps(entry, sort_keys=True) for entry in entries)
    return f"authorization {{\n  users: [\n    {body}\n  ]\n}}\n"
