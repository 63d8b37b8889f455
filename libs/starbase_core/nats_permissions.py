"""NATS users and what each may publish and subscribe to: least privilege, one user per service.

Each service authenticates with its own NKey (the server's config holds only public keys; the seed
never leaves the service and never crosses the wire: the client signs the server's nonce). Every
allowance below is needed by code that runs, found by reading it and by running the services on a
server with these permissions (tests/security): anything not listed is refused by the server.

How the store uses JetStream (see `starbase_core.store_jetstream`), as subjects:

- create the stream and the command index on start: `$JS.API.STREAM.CREATE.<stream>` (creating an
  existing stream with the same config is a no-op; only the adjudicator may *update* a config);
- read: `$JS.API.STREAM.INFO.<stream>`, direct gets `$JS.API.DIRECT.GET.<stream>[.<subject>]`; a KV
  entry (command index, seeds) is a message get `$JS.API.STREAM.MSG.GET.KV_<bucket>`;
- append: publish on `<prefix>.<kind>.>` and on the index's `$KV.<stream>_commands.>`;
- follow: ordered push consumers (`$JS.API.CONSUMER.CREATE.<stream>…`, deleted on stop, flow
  control answered on `$JS.FC.<stream>.>`), delivered to the service's own inbox;
- every reply comes to the service's own inbox prefix `_INBOX_<user>.>`, so no service can read the
  replies another receives (a direct get of a seed is a reply).

Seeds (`game-secrets`, stream `KV_game-secrets`, subjects `$KV.game-secrets.>`): the adjudicator
creates and reads them, the Trucker service and the audit tool read them, nobody else sees them.
Game streams (`<prefix>.game.>`) are written by the adjudicator and the Trucker service only; the
lobby writes its own `table.>` streams.

Personal data is the lobby's alone (docs/accounts.md): the accounts KV bucket (which every replica
watches), the sessions KV bucket, the personal stream (chat, reports, moderation log; the one stream
that allows deleting messages and purging subjects) and the core subjects `<personal prefix>-live.>`
(chat pushes, ended sessions) between replicas. No other service sees any of it. `starbase admin`
(role `admin`) reads and writes accounts and appends to the moderation log, nothing else: no
sessions, no event store, no deletes in the personal stream, no bucket or stream it would create.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

ROLES = ("adjudicator", "lobby", "scoring", "clock", "trucker", "audit", "admin")


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

    @property
    def index(self) -> str:
        return f"{self.stream}_commands"


def inbox_prefix(role: str) -> str:
    return f"_INBOX_{role}"


def _reader(n: Names, *, ensure: bool = True) -> list[str]:
    """Read the event store (and create it if missing); follow it with ordered consumers."""
    api = "$JS.API"
    allowed = [f"{api}.STREAM.INFO.{n.stream}", f"{api}.DIRECT.GET.{n.stream}", f"{api}.DIRECT.GET.{n.stream}.>",
               f"{api}.CONSUMER.CREATE.{n.stream}", f"{api}.CONSUMER.CREATE.{n.stream}.>",
               f"{api}.CONSUMER.DELETE.{n.stream}.>", f"$JS.FC.{n.stream}.>"]
    if ensure:
        allowed += [f"{api}.STREAM.CREATE.{n.stream}", f"{api}.STREAM.CREATE.KV_{n.index}",
                    f"{api}.STREAM.INFO.KV_{n.index}"]
    return allowed


def _appender(n: Names, kinds: tuple[str, ...]) -> list[str]:
    """Append to the streams of these kinds, with the command index."""
    return [*(f"{n.prefix}.{kind}.>" for kind in kinds), f"$KV.{n.index}.>", *_kv_get(n.index)]


def _kv_get(bucket: str) -> list[str]:
    """Reading a KV entry: a message get on its stream (a direct get when the bucket allows it)."""
    return [f"$JS.API.STREAM.MSG.GET.KV_{bucket}", f"$JS.API.DIRECT.GET.KV_{bucket}.>"]


def _seed_reader(n: Names, *, create_bucket: bool) -> list[str]:
    allowed = [f"$JS.API.STREAM.INFO.KV_{n.seeds}", *_kv_get(n.seeds)]
    if create_bucket:
        allowed.append(f"$JS.API.STREAM.CREATE.KV_{n.seeds}")
    return allowed


def _kv_bucket(bucket: str, *, watch: bool = False) -> list[str]:
    """Create (or find) a KV bucket, read and write its keys; with `watch`, follow it with an ordered
    consumer (created and deleted by the client, flow control answered)."""
    stream = f"KV_{bucket}"
    allowed = [f"$JS.API.STREAM.CREATE.{stream}", f"$JS.API.STREAM.INFO.{stream}", f"$KV.{bucket}.>", *_kv_get(bucket)]
    if watch:
        allowed += [f"$JS.API.CONSUMER.CREATE.{stream}", f"$JS.API.CONSUMER.CREATE.{stream}.>",
                    f"$JS.API.CONSUMER.INFO.{stream}.>", f"$JS.API.CONSUMER.DELETE.{stream}.>", f"$JS.FC.{stream}.>"]
    return allowed


def _personal_data(n: Names) -> tuple[list[str], list[str]]:
    """The lobby's personal data (publish, subscribe): accounts (watched), sessions, the personal stream
    with deletes and purges, and the live subjects between replicas."""
    api, stream = "$JS.API", n.personal_stream
    publish = [*_kv_bucket(n.accounts, watch=True), *_kv_bucket(n.sessions),
               f"{api}.STREAM.CREATE.{stream}", f"{api}.STREAM.UPDATE.{stream}", f"{api}.STREAM.INFO.{stream}",
               f"{n.personal_prefix}.>", f"{api}.STREAM.MSG.GET.{stream}", f"{api}.DIRECT.GET.{stream}",
               f"{api}.DIRECT.GET.{stream}.>", f"{api}.STREAM.MSG.DELETE.{stream}", f"{api}.STREAM.PURGE.{stream}",
               f"{n.personal_prefix}-live.>"]
    return publish, [f"{n.personal_prefix}-live.>"]


def _console(n: Names) -> list[str]:
    """`starbase admin`: accounts (no bucket created: the lobby makes it), the moderation log."""
    stream = n.personal_stream
    return [f"$JS.API.STREAM.INFO.KV_{n.accounts}", f"$KV.{n.accounts}.>", *_kv_get(n.accounts),
            f"$JS.API.STREAM.INFO.{stream}", f"$JS.API.STREAM.MSG.GET.{stream}", f"{n.personal_prefix}.modlog"]


def permissions(role: str, names: Names = Names()) -> dict:
    """The NATS `permissions` block of a role: publish allow/deny and subscribe allow lists."""
    n = names
    publish: list[str]
    subscribe = [f"{inbox_prefix(role)}.>"]
    if role == "adjudicator":
        publish = [*_reader(n), *_appender(n, ("game",)), *_seed_reader(n, create_bucket=True),
                   f"$KV.{n.seeds}.>", f"$JS.API.STREAM.UPDATE.{n.stream}",
                   f"$JS.API.STREAM.UPDATE.KV_{n.index}", f"$JS.API.STREAM.UPDATE.KV_{n.seeds}"]
    elif role == "trucker":
        publish = [*_reader(n), *_appender(n, ("game",)), *_seed_reader(n, create_bucket=True),
                   f"{n.trucker_bus}.events.>"]
        subscribe.append(f"{n.trucker_bus}.events.>")
    elif role == "lobby":
        personal, live = _personal_data(n)
        publish = [*_reader(n), *_appender(n, ("table",)), *personal]
        subscribe += live
    elif role == "scoring":
        consumer = f"{n.stream}.{n.scoring_durable}"
        publish = [*_reader(n), f"$JS.API.CONSUMER.INFO.{consumer}", f"$JS.API.CONSUMER.MSG.NEXT.{consumer}",
                   f"$JS.API.CONSUMER.DURABLE.CREATE.{consumer}", f"$JS.API.CONSUMER.DELETE.{consumer}",
                   f"$JS.ACK.{consumer}.>"]
    elif role == "clock":
        publish = _reader(n)
    elif role == "audit":
        # Read-only: the audit and export read streams and (once a game is over) check its seed.
        publish = [*_reader(n, ensure=False), *_seed_reader(n, create_bucket=False)]
    elif role == "admin":
        publish = _console(n)
    else:
        raise ValueError(f"no NATS role {role!r}; roles: {', '.join(ROLES)}")
    block: dict = {"publish": {"allow": sorted(set(publish))}, "subscribe": {"allow": subscribe}}
    if role != "scoring":
        # Only scoring may remove (or reset) scoring's place in the store.
        block["publish"]["deny"] = [f"$JS.API.CONSUMER.DELETE.{n.stream}.{n.scoring_durable}"]
    return block


def authorization(users: dict[str, str], names: Names = Names()) -> str:
    """The nats-server `authorization` block for {role: public NKey}; JSON is valid NATS config."""
    entries = [{"nkey": public, "permissions": permissions(role, names)} for role, public in users.items()]
    body = ",\n    ".join(json.dumps(entry, sort_keys=True) for entry in entries)
    return f"authorization {{\n  users: [\n    {body}\n  ]\n}}\n"
