"""A private CA and the certificates it signs, for internal TLS (`make run` with TLS, compose, tests).

    ca = CertificateAuthority.create("Starbase internal CA")
    ca.issue("adjudicator", ["adjudicator", "localhost", "127.0.0.1"]).write(directory, "adjudicator")

Keys are ECDSA P-256; every leaf is good for both server and client authentication (internal TLS is
mutual, see `starbase_core.tls`). Files are written with mode 0600 (keys) and 0644 (certificates).
On Kubernetes, cert-manager can issue the same certificates instead (see docs/security.md).
"""
from __future__ import annotations

import datetime
import ipaddress
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from starbase_core.credentials import write_private

VALID_DAYS = 825


def _name(common_name: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Starbase"),
                      x509.NameAttribute(NameOID.COMMON_NAME, common_name)])


def _alt_names(hosts: list[str]) -> x509.SubjectAlternativeName:
    entries: list[x509.GeneralName] = []
    for host in hosts:
        try:
            entries.append(x509.IPAddress(ipaddress.ip_address(host)))
        except ValueError:
            entries.append(x509.DNSName(host))
    return x509.SubjectAlternativeName(entries)


@dataclass(frozen=True)
class Issued:
    certificate: x509.Certificate
    key: ec.EllipticCurvePrivateKey

    @property
    def cert_pem(self) -> bytes:
        return self.certificate.public_bytes(serialization.Encoding.PEM)

    @property
    def key_pem(self) -> bytes:
        return self.key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                      serialization.NoEncryption())

    def write(self, directory: Path, stem: str) -> tuple[Path, Path]:
        """`<stem>.crt` and `<stem>.key` in `directory`: (certificate path, key path)."""
        cert_path, key_path = directory / f"{stem}.crt", directory / f"{stem}.key"
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        cert_path.write_bytes(self.cert_pem)
        write_private(key_path, self.key_pem)
        return cert_path, key_path


@dataclass(frozen=True)
class CertificateAuthority:
    issued: Issued

    @classmethod
    def create(cls, common_name: str = "Starbase internal CA") -> "CertificateAuthority":
        key = ec.generate_private_key(ec.SECP256R1())
        now = datetime.datetime.now(datetime.timezone.utc)
        certificate = (
            x509.CertificateBuilder().subject_name(_name(common_name)).issuer_name(_name(common_name))
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(days=VALID_DAYS))
            .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
            .add_extension(x509.KeyUsage(digital_signature=True, key_cert_sign=True, crl_sign=True,
                                         content_commitment=False, key_encipherment=False,
                                         data_encipherment=False, key_agreement=False,
                                         encipher_only=False, decipher_only=False), critical=True)
            .sign(key, hashes.SHA256())
        )
        return cls(Issued(certificate, key))

    @classmethod
    def load(cls, cert_file: Path, key_file: Path) -> "CertificateAuthority":
        certificate = x509.load_pem_x509_certificate(cert_file.read_bytes())
        key = serialization.load_pem_private_key(key_file.read_bytes(), password=None)
        assert isinstance(key, ec.EllipticCurvePrivateKey), "the CA key must be an EC key"
        return cls(Issued(certificate, key))

    @property
    def cert_pem(self) -> bytes:
        return self.issued.cert_pem

    def issue(self, common_name: str, hosts: list[str]) -> Issued:
        """A leaf certificate for `hosts` (DNS names or IP addresses), for servers and clients alike."""
        key = ec.generate_private_key(ec.SECP256R1())
        now = datetime.datetime.now(datetime.timezone.utc)
        certificate = (
            x509.CertificateBuilder().subject_name(_name(common_name))
            .issuer_name(self.issued.certificate.subject).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(days=VALID_DAYS))
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(_alt_names(hosts), critical=False)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH,
                                                  ExtendedKeyUsageOID.CLIENT_AUTH]), critical=False)
            .sign(self.issued.key, hashes.SHA256())
        )
        return Issued(certificate, key)
