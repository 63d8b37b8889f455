"""Connection options for NATS, Redis and the adjudicator's gRPC, built once from a service's settings.

    store = await JetStreamEventStore.connect(settings.nats_url, auth=nats_auth(settings, "lobby"), ...)
    redis = Redis.from_url(settings.redis_url, decode_responses=True, **redis_options(settings))

TLS is chosen by the address, as the clients themselves do: `tls://` for NATS, `rediss://` for Redis,
`ADJUDICATOR_TLS=true` for gRPC; the CA and this service's certificate come from `TLS_CA_FILE`,
`TLS_CERT_FILE`, `TLS_KEY_FILE`. Secrets are read from their files here, at startup, and live only in
the client objects: never in a URL, a log line or an exception message.
"""
from __future__ import annotations

from typing import Any

from starbase_core.bus import NatsAuth, nats_servers
from starbase_core.config import CoreSettings
from starbase_core.credentials import read_nkey_seed, secret_from_file
from starbase_core.nats_permissions import inbox_prefix
from starbase_core.tls import TlsFiles, client_context


def tls_files(settings: CoreSettings) -> TlsFiles | None:
    if not settings.tls_ca_file:
        return None
    return TlsFiles(settings.tls_ca_file, settings.tls_cert_file, settings.tls_key_file)


def _wants_tls(settings: CoreSettings, scheme: str, urls: list[str]) -> bool:
    secure = [url.startswith(f"{scheme}://") for url in urls]
    if any(secure) and not all(secure):
        raise ValueError(f"mixed plain and {scheme}:// server addresses: use one or the other")
    if any(secure) and not settings.tls_ca_file:
        raise ValueError(f"a {scheme}:// address needs TLS_CA_FILE (the CA that signed the server)")
    return any(secure)


def nats_auth(settings: CoreSettings, role: str) -> NatsAuth | None:
    """The NATS credentials of service `role`, or None on an open development server (no NKey file)."""
    tls = None
    if _wants_tls(settings, "tls", nats_servers(settings.nats_url)):
        files = tls_files(settings)
        assert files is not None
        tls = client_context(files)
    if not settings.nats_nkey_file and tls is None:
        return None
    seed = read_nkey_seed(settings.nats_nkey_file) if settings.nats_nkey_file else None
    return NatsAuth(nkey_seed=seed, tls=tls, inbox_prefix=inbox_prefix(role) if seed else None)


def redis_options(settings: CoreSettings, *, username: str | None = None,
                  password_file: str | None = None) -> dict[str, Any]:
    """Keyword arguments for `Redis.from_url` / `ConnectionPool.from_url`: the ACL user and TLS.
    `username`/`password_file`: another of the service's users than REDIS_USERNAME's."""
    options: dict[str, Any] = {}
    username = settings.redis_username if username is None else username
    if username:
        options["username"] = username
        options["password"] = secret_from_file(settings.redis_password_file if password_file is None else password_file)
    if _wants_tls(settings, "rediss", [settings.redis_url]):
        options.update(ssl_ca_certs=settings.tls_ca_file, ssl_cert_reqs="required", ssl_check_hostname=True)
        if settings.tls_cert_file:
            options.update(ssl_certfile=settings.tls_cert_file, ssl_keyfile=settings.tls_key_file or None)
    return options
