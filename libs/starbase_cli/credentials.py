"""`starbase credentials compose|kubernetes`: every credential of a deployment, made on this machine.

    starbase credentials compose       # → deploy/compose/generated/ (then: docker compose --env-file … up)
    starbase credentials kubernetes    # → deploy/kubernetes/generated/secrets.yaml (kubectl apply -f …)

Both run `starbase_core.provision` (an NKey per service, a Redis password per service, the
adjudicator's caller secrets, the lobby's token secret; for Kubernetes also a private CA and a
certificate per server and service) into `<out>/files/`, and keep what exists, so running it again
changes nothing: delete a file to rotate it (docs/security.md). The outputs hold secrets: they are
written mode 0600 and are ignored by git.

compose: `<service>/` directories (each mounted into its own container only; `audit/` and `admin/` for
the console tools, mounted by hand when they run), `nats/auth.conf` and
`redis/users.acl` (public keys and SHA-256 hashes only, mode 0644 so the servers' own users can read
them) and `compose.env` (the lobby secret and the user id the containers run as, so they can read
their 0600 files). kubernetes: one Secret per service with its files, and the servers' Secrets.
"""
from __future__ import annotations

import argparse
import base64
import os
import shutil
from pathlib import Path

import yaml

from starbase_core.credentials import write_private
from starbase_core.provision import CALLS_ADJUDICATOR, CONSOLE_TOOLS, SERVICES, Credentials, provision
from starbase_core.redis_acl import ROLES as REDIS_ROLES

ROOT = Path(__file__).resolve().parents[2]
NAMESPACE = "starbase"


def register(subparsers) -> None:
    command = subparsers.add_parser("credentials", help="make the credentials of a compose or Kubernetes deployment")
    command.add_argument("target", choices=["compose", "kubernetes"])
    command.add_argument("--out", help="where to write (default: deploy/<target>/generated)")
    command.add_argument("--namespace", default=NAMESPACE, help="Kubernetes namespace (default: starbase)")
    command.set_defaults(handler=run)


def run(args) -> int:
    out = Path(args.out or ROOT / "deploy" / args.target / "generated")
    if args.target == "compose":
        written = write_compose(out)
        print(f"wrote {written}; now: docker compose --env-file {written / 'compose.env'} up --build")
    else:
        secrets = write_kubernetes(out, args.namespace)
        print(f"wrote {secrets}; now: kubectl apply -f {secrets} && kubectl apply -f deploy/kubernetes/")
    return 0


def _service_files(creds: Credentials, service: str) -> dict[str, Path]:
    """The credential files one service needs, by the name it finds them under in its container."""
    files = {"nats.nk": creds.nats_seed_file(service)}
    if service in REDIS_ROLES:
        files["redis.password"] = creds.redis_password_file(service)
    if service == "lobby":
        files["scores.redis.password"] = creds.redis_password_file("lobby-scores")
    if service in CALLS_ADJUDICATOR:
        files["adjudicator.token"] = creds.token_file(service)
    if service == "adjudicator":
        files["callers"] = creds.callers_file
    return files


def write_compose(out: Path) -> Path:
    creds = provision(out / "files")
    for service in SERVICES:
        for name, source in _service_files(creds, service).items():
            write_private(out / service / name, source.read_bytes())
    for tool in CONSOLE_TOOLS:         # `starbase audit`, `starbase admin` in a container: mounted by hand
        write_private(out / tool / "nats.nk", creds.nats_seed_file(tool).read_bytes())
    for name, text in (("nats/auth.conf", creds.nats_authorization()), ("redis/users.acl", creds.redis_acl())):
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_text(text)
        (out / name).chmod(0o644)      # public keys and hashes: the servers' own users must read them
    write_private(out / "compose.env", f"LOBBY_SECRET={creds.lobby_secret}\n"
                                       f"STARBASE_UID={os.getuid()}\nSTARBASE_GID={os.getgid()}\n")
    return out


def _secret(name: str, namespace: str, files: dict[str, bytes]) -> dict:
    return {"apiVersion": "v1", "kind": "Secret", "type": "Opaque",
            "metadata": {"name": name, "namespace": namespace, "labels": {"app.kubernetes.io/part-of": "starbase"}},
            "data": {key: base64.b64encode(value).decode() for key, value in sorted(files.items())}}


def kubernetes_hosts(namespace: str) -> dict[str, list[str]]:
    """The DNS names each TLS server is reached by in the cluster (the certificates' SANs)."""
    domain = f"{namespace}.svc.cluster.local"
    return {
        "nats": ["nats", f"nats.{domain}", *(f"nats-{i}.nats" for i in range(3)),
                 *(f"nats-{i}.nats.{domain}" for i in range(3))],
        "redis": ["redis", f"redis.{domain}"],
        "adjudicator": ["adjudicator-headless", f"adjudicator-headless.{domain}"],
    }


def write_kubernetes(out: Path, namespace: str = NAMESPACE) -> Path:
    from starbase_core.pki import CertificateAuthority

    creds = provision(out / "files")
    tls = out / "files" / "tls"
    if not (tls / "ca.crt").exists():
        shutil.rmtree(tls, ignore_errors=True)
        CertificateAuthority.create().issued.write(tls, "ca")
    ca = CertificateAuthority.load(tls / "ca.crt", tls / "ca.key")
    hosts = kubernetes_hosts(namespace)
    for name in (*SERVICES, *CONSOLE_TOOLS, "nats", "redis"):
        if not (tls / f"{name}.crt").exists():
            ca.issue(name, hosts.get(name, [name])).write(tls, name)

    def tls_files(name: str) -> dict[str, bytes]:
        return {"ca.crt": ca.cert_pem, "tls.crt": (tls / f"{name}.crt").read_bytes(),
                "tls.key": (tls / f"{name}.key").read_bytes()}

    documents = [_secret(f"starbase-{service}", namespace,
                         {**{k: p.read_bytes() for k, p in _service_files(creds, service).items()}, **tls_files(service)})
                 for service in SERVICES]
    documents += [
        *(_secret(f"starbase-{tool}", namespace, {"nats.nk": creds.nats_seed_file(tool).read_bytes(), **tls_files(tool)})
          for tool in CONSOLE_TOOLS),
        _secret("starbase-lobby-secret", namespace, {"LOBBY_SECRET": creds.lobby_secret.encode()}),
        _secret("nats-auth", namespace, {"auth.conf": creds.nats_authorization().encode()}),
        _secret("nats-tls", namespace, tls_files("nats")),
        _secret("redis-acl", namespace, {"users.acl": creds.redis_acl().encode()}),
        _secret("redis-tls", namespace, tls_files("redis")),
    ]
    path = out / "secrets.yaml"
    write_private(path, "# Generated by `starbase credentials kubernetes`: secrets, never commit.\n"
                  + yaml.safe_dump_all(documents, sort_keys=False))
    return path
