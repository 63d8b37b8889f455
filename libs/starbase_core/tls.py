"""TLS on the internal links (NATS, Redis, the adjudicator's gRPC), from three files per service.

Every internal link uses one private CA. A service holds the CA certificate (`TLS_CA_FILE`) and its own
certificate and key (`TLS_CERT_FILE`, `TLS_KEY_FILE`), usable both as a server and as a client
certificate. With a CA given, TLS is *mutual*: a client checks the server's certificate against the CA
and the server asks for a client certificate signed by the same CA, so a stolen password or token is
not enough to talk to an internal server from outside the platform.
"""
from __future__ import annotations

import ssl
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class TlsFiles:
    ca_file: str
    cert_file: str = ""
    key_file: str = ""

    def read(self) -> tuple[bytes, bytes | None, bytes | None]:
        """(CA, certificate chain, key) as bytes, for gRPC, which takes contents rather than paths."""
        cert = Path(self.cert_file).read_bytes() if self.cert_file else None
        key = Path(self.key_file).read_bytes() if self.key_file else None
        return Path(self.ca_file).read_bytes(), cert, key


def client_context(files: TlsFiles) -> ssl.SSLContext:
    """Verify the server against the CA (and its host name); present our certificate if we have one."""
    context = ssl.create_default_context(ssl.Purpose.SERVER_AUTH, cafile=files.ca_file)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    if files.cert_file:
        context.load_cert_chain(files.cert_file, files.key_file or None)
    return context


def server_context(files: TlsFiles) -> ssl.SSLContext:
    """Serve our certificate; require a client certificate signed by the CA."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH, cafile=files.ca_file)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(files.cert_file, files.key_file or None)
    context.verify_mode = ssl.CERT_REQUIRED
    return context
