"""Every credential of a deployment, made once into a directory (files mode 0600) and reused after.

    creds = provision(Path(".run/credentials"), tls_hosts=["127.0.0.1", "localhost"])
    NatsServer(authorization=creds.nats_authorization()); RedisServer(acl=creds.redis_acl())
    env = creds.env("lobby")       # NATS_NKEY_FILE, REDIS_USERNAME, REDIS_PASSWORD_FILE, …

What is made (a file that exists is kept, so a restart keeps tokens and passwords valid):

- `nats/<role>.nk`: an NKey user seed per service (`nats_permissions.ROLES`); the server is told only
  the public keys, with each role's permissions;
- `redis/<role>.password`: a password per Redis user (`redis_acl.ROLES`; the lobby has two, its own
  keys and the boards it only reads); the ACL holds SHA-256s;
- `adjudicator/<caller>.token`: the bearer secret of each adjudicator caller; `adjudicator/callers`
  lists their hashes and the methods each may call;
- `nats/routes.password`: what the nodes of a NATS cluster (`make run CLUSTER=3`, the chaos harness)
  present to each other on their routes (`starbase_core.cluster`);
- `lobby_secret`: signs players' tokens (the lobby; the Trucker service takes the lobby's tickets);
- with `tls_hosts`: `tls/ca.crt` (+ `ca.key`) and one certificate per service for those host names.

`make run`, the tests and `starbase credentials` (compose, Kubernetes) all use this one function.
"""
from __future__ import annotations

import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path

import nkeys

from starbase_core.callers import caller_line
from starbase_core.credentials import write_private
from starbase_core.bus import NatsAuth
from starbase_core.nats_permissions import ROLES as NATS_ROLES, Names, authorization, inbox_prefix
from starbase_core.redis_acl import ROLES as REDIS_ROLES, acl_file
from starbase_core.tls import TlsFiles, client_context

# Who calls the adjudicator, and which methods each may call (the clock only plays defaults).
ADJUDICATOR_CALLERS: dict[str, tuple[str, ...]] = {
    "lobby": ("*",),
    "clock": ("Submit",),
    "bots": ("Submit",),            # bot seats and forced moves, each command saying who played it
    "trucker": ("CreateGame", "Submit", "GetView", "LegalActions"),
}
# Who calls it today (and so gets its secret in its settings): Trucker has a caller entry for when it does.
CALLS_ADJUDICATOR = ("lobby", "clock", "bots")
SERVICES = ("adjudicator", "lobby", "scoring", "clock", "trucker", "bots", "notifier")
CONSOLE_TOOLS = ("audit", "admin")      # `starbase audit/log/export`, `starbase admin`: NATS users of their own
USES_LOBBY_SECRET = ("lobby",)
# Redis users a service holds beside its own (REDIS_USERNAME): the setting prefix of each.
SECOND_REDIS_USERS = {"lobby": {"lobby-scores": "LOBBY_SCORES_REDIS"}}


def new_secret() -> str:
    return secrets.token_urlsafe(32)


def new_nkey_seed() -> str:
    return nkeys.encode_seed(os.urandom(32), nkeys.PREFIX_BYTE_USER).decode()


def public_nkey(seed: str) -> str:
    return nkeys.from_seed(seed.encode()).public_key.decode()


def _kept(path: Path, make) -> str:
    if not path.exists():
        write_private(path, make())
    return path.read_text().strip()


@dataclass
class Credentials:
    directory: Path
    names: Names = field(default_factory=Names)
    tls: bool = False

    def nats_seed_file(self, role: str) -> Path:
        return self.directory / "nats" / f"{role}.nk"

    def redis_password_file(self, role: str) -> Path:
        return self.directory / "redis" / f"{role}.password"

    def token_file(self, caller: str) -> Path:
        return self.directory / "adjudicator" / f"{caller}.token"

    @property
    def callers_file(self) -> Path:
        return self.directory / "adjudicator" / "callers"

    @property
    def lobby_secret(self) -> str:
        return (self.directory / "lobby_secret").read_text().strip()

    @property
    def route_password(self) -> str:
        return (self.directory / "nats" / "routes.password").read_text().strip()

    def tls_file(self, name: str) -> Path:
        return self.directory / "tls" / name

    def nats_authorization(self, roles=NATS_ROLES) -> str:
        users = {role: public_nkey(self.nats_seed_file(role).read_text().strip()) for role in roles}
        return authorization(users, self.names)

    def redis_acl(self) -> str:
        return acl_file({role: self.redis_password_file(role).read_text().strip() for role in REDIS_ROLES},
                        scoring_prefix=self.names.scoring_prefix, trucker_prefix="trucker",
                        limits_prefix=self.names.limits_prefix, loop_prefix=self.names.loop_prefix)

    def nats_auth(self, role: str) -> NatsAuth:
        """How a process of this deployment (a test, the chaos harness) connects to NATS as `role`."""
        tls = None
        if self.tls:
            tls = client_context(TlsFiles(str(self.tls_file("ca.crt")), str(self.tls_file(f"{role}.crt")),
                                          str(self.tls_file(f"{role}.key"))))
        return NatsAuth(nkey_seed=self.nats_seed_file(role).read_text().strip(), tls=tls,
                        inbox_prefix=inbox_prefix(role))

    def redis_login(self, user: str) -> dict[str, str]:
        """`Redis.from_url` keyword arguments that log in as Redis user `user` (TLS not included)."""
        return {"username": user, "password": self.redis_password_file(user).read_text().strip()}

    def env(self, service: str) -> dict[str, str]:
        """The credential settings of one service (or of the `audit` tool), as environment variables."""
        env = {"NATS_NKEY_FILE": str(self.nats_seed_file(service))}
        if service in REDIS_ROLES:
            env.update(REDIS_USERNAME=service, REDIS_PASSWORD_FILE=str(self.redis_password_file(service)))
        for user, setting in SECOND_REDIS_USERS.get(service, {}).items():
            env.update({f"{setting}_USERNAME": user, f"{setting}_PASSWORD_FILE": str(self.redis_password_file(user))})
        if service in CALLS_ADJUDICATOR:
            env["ADJUDICATOR_TOKEN_FILE"] = str(self.token_file(service))
        if service == "adjudicator":
            env["ADJUDICATOR_CALLERS_FILE"] = str(self.callers_file)
        if service in USES_LOBBY_SECRET:
            env["LOBBY_SECRET"] = self.lobby_secret
        if self.tls:
            env.update(TLS_CA_FILE=str(self.tls_file("ca.crt")), TLS_CERT_FILE=str(self.tls_file(f"{service}.crt")),
                       TLS_KEY_FILE=str(self.tls_file(f"{service}.key")), ADJUDICATOR_TLS="true")
        return env


def provision(directory: Path, *, names: Names | None = None, tls_hosts: list[str] | None = None) -> Credentials:
    """Make whatever is missing under `directory` (mode 0700) and return where everything is."""
    directory.mkdir(parents=True, exist_ok=True)
    directory.chmod(0o700)
    creds = Credentials(directory, names or Names(), tls=tls_hosts is not None)
    for role in NATS_ROLES:
        _kept(creds.nats_seed_file(role), new_nkey_seed)
    _kept(directory / "nats" / "routes.password", new_secret)
    for role in REDIS_ROLES:
        _kept(creds.redis_password_file(role), new_secret)
    lines = [caller_line(caller, _kept(creds.token_file(caller), new_secret), methods)
             for caller, methods in ADJUDICATOR_CALLERS.items()]
    write_private(creds.callers_file, "\n".join(lines) + "\n")
    _kept(directory / "lobby_secret", new_secret)
    if tls_hosts is not None:
        _issue_certificates(creds, tls_hosts)
    return creds


def _issue_certificates(creds: Credentials, hosts: list[str]) -> None:
    from starbase_core.pki import CertificateAuthority   # cryptography is only needed for TLS

    ca_cert, ca_key = creds.tls_file("ca.crt"), creds.tls_file("ca.key")
    if ca_cert.exists() and ca_key.exists():
        ca = CertificateAuthority.load(ca_cert, ca_key)
    else:
        ca = CertificateAuthority.create()
        ca.issued.write(ca_cert.parent, "ca")
    for name in (*SERVICES, *CONSOLE_TOOLS, "nats", "redis"):
        if not creds.tls_file(f"{name}.crt").exists():
            ca.issue(name, [name, *hosts]).write(ca_cert.parent, name)
