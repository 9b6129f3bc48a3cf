"""Key serialization names, as pyca's ``serialization`` module names them. pyca's own enum
members are accepted wherever these are."""

from __future__ import annotations

import enum
from typing import Optional

__all__ = ["Encoding", "PrivateFormat", "PublicFormat", "NoEncryption", "BestAvailableEncryption"]


class Encoding(enum.Enum):
    """How a key is written: PEM text or DER bytes."""

    PEM = "PEM"
    DER = "DER"


class PrivateFormat(enum.Enum):
    """Private key structures: PKCS#8 ``PrivateKeyInfo`` or PKCS#1 ``RSAPrivateKey``."""

    PKCS8 = "PKCS8"
    TraditionalOpenSSL = "TraditionalOpenSSL"


class PublicFormat(enum.Enum):
    """Public key structures: X.509 ``SubjectPublicKeyInfo`` or PKCS#1 ``RSAPublicKey``."""

    SubjectPublicKeyInfo = "X.509 subjectPublicKeyInfo with PKCS#1"
    PKCS1 = "Raw PKCS#1"


class NoEncryption:
    """Write the private key unencrypted."""


class BestAvailableEncryption:
    """Write the private key encrypted with ``password`` (bytes, at least one): PKCS#8
    EncryptedPrivateKeyInfo with PBES2, PBKDF2-HMAC-SHA256 (600,000 iterations) and
    AES-256-CBC, which pyca, OpenSSL and redc read back. pyca's ``BestAvailableEncryption``
    is accepted wherever this is."""

    def __init__(self, password: bytes) -> None:
        if not isinstance(password, bytes) or len(password) == 0:
            raise ValueError("Password must be 1 or more bytes.")
        self.password = password


def _member(x: object, cls: str) -> Optional[str]:
    """The member name of a redc or pyca enum member of ``cls`` ("PEM", "PKCS8", ...); pyca
    50's enums have no ``name``, so their ``repr`` ("Encoding.PEM") is read instead."""
    name = getattr(x, "name", None)
    if isinstance(name, str):
        return name
    r = repr(x)
    if r.startswith(cls + "."):
        return r[len(cls) + 1 :]
    return None


def _encoding(encoding: object) -> str:
    name = _member(encoding, "Encoding")
    if name in ("PEM", "DER"):
        return name
    if name is not None:
        raise ValueError(f"unsupported encoding {name} (redc writes PEM and DER)")
    raise TypeError("encoding must be a serialization.Encoding member")


def _private_format(fmt: object) -> str:
    name = _member(fmt, "PrivateFormat")
    if name == "PKCS8":
        return "pkcs8"
    if name == "TraditionalOpenSSL":
        return "pkcs1"
    if name is not None:
        raise ValueError(f"unsupported private format {name} (redc writes PKCS8 and TraditionalOpenSSL)")
    raise TypeError("format must be a serialization.PrivateFormat member")


def _public_format(fmt: object) -> str:
    name = _member(fmt, "PublicFormat")
    if name == "SubjectPublicKeyInfo":
        return "spki"
    if name == "PKCS1":
        return "pkcs1"
    if name is not None:
        raise ValueError(f"unsupported public format {name} (redc writes SubjectPublicKeyInfo and PKCS1)")
    raise TypeError("format must be a serialization.PublicFormat member")


def _is_pyca_encryption(encryption_algorithm: object) -> bool:
    try:
        from cryptography.hazmat.primitives.serialization import KeySerializationEncryption
    except ImportError:  # pragma: no cover - exercised where cryptography is absent
        return False
    return isinstance(encryption_algorithm, KeySerializationEncryption)


def _encryption_password(encryption_algorithm: object) -> Optional[bytes]:
    """The password a private key is to be written with: ``None`` for redc's or pyca's
    ``NoEncryption()``, the password of redc's or pyca's ``BestAvailableEncryption``.
    ``ValueError`` for pyca's other encryptions (``PrivateFormat.PKCS8.encryption_builder()``
    with its own rounds and algorithms, which redc does not write), ``TypeError``, as pyca,
    for anything else (``None``, a string, the class itself)."""
    if isinstance(encryption_algorithm, type):
        raise TypeError("Encryption algorithm must be a KeySerializationEncryption instance")
    name = type(encryption_algorithm).__name__
    if name == "NoEncryption":
        return None
    if name == "BestAvailableEncryption" and (
        isinstance(encryption_algorithm, BestAvailableEncryption) or _is_pyca_encryption(encryption_algorithm)
    ):
        password: bytes = getattr(encryption_algorithm, "password")
        return password
    if _is_pyca_encryption(encryption_algorithm):
        raise ValueError(
            "redc writes NoEncryption() and BestAvailableEncryption(password) only, not "
            "encryption_builder() choices"
        )
    raise TypeError("Encryption algorithm must be a KeySerializationEncryption instance")
