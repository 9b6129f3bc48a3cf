"""Key serialization names, as pyca's ``serialization`` module names them. pyca's own enum
members are accepted wherever these are."""

import enum

__all__ = ["Encoding", "PrivateFormat", "PublicFormat", "NoEncryption"]


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
    """Write the private key unencrypted (the only choice redc offers)."""


def _member(x, cls):
    """The member name of a redc or pyca enum member of ``cls`` ("PEM", "PKCS8", ...); pyca
    50's enums have no ``name``, so their ``repr`` ("Encoding.PEM") is read instead."""
    name = getattr(x, "name", None)
    if isinstance(name, str):
        return name
    r = repr(x)
    if r.startswith(cls + "."):
        return r[len(cls) + 1 :]
    return None


def _encoding(encoding):
    name = _member(encoding, "Encoding")
    if name in ("PEM", "DER"):
        return name
    if name is not None:
        raise ValueError(f"unsupported encoding {name} (redc writes PEM and DER)")
    raise TypeError("encoding must be a serialization.Encoding member")


def _private_format(fmt):
    name = _member(fmt, "PrivateFormat")
    if name == "PKCS8":
        return "pkcs8"
    if name == "TraditionalOpenSSL":
        return "pkcs1"
    if name is not None:
        raise ValueError(f"unsupported private format {name} (redc writes PKCS8 and TraditionalOpenSSL)")
    raise TypeError("format must be a serialization.PrivateFormat member")


def _public_format(fmt):
    name = _member(fmt, "PublicFormat")
    if name == "SubjectPublicKeyInfo":
        return "spki"
    if name == "PKCS1":
        return "pkcs1"
    if name is not None:
        raise ValueError(f"unsupported public format {name} (redc writes SubjectPublicKeyInfo and PKCS1)")
    raise TypeError("format must be a serialization.PublicFormat member")


def _is_pyca_encryption(encryption_algorithm):
    try:
        from cryptography.hazmat.primitives.serialization import KeySerializationEncryption
    except ImportError:  # pragma: no cover - exercised where cryptography is absent
        return False
    return isinstance(encryption_algorithm, KeySerializationEncryption)


def _no_encryption(encryption_algorithm):
    """Accepts redc's or pyca's ``NoEncryption()``; ``ValueError`` for pyca's encryptions
    (``BestAvailableEncryption``, ...), which redc does not write, and ``TypeError``, as pyca,
    for anything else (``None``, a string, the class itself)."""
    if isinstance(encryption_algorithm, type):
        raise TypeError("Encryption algorithm must be a KeySerializationEncryption instance")
    if type(encryption_algorithm).__name__ == "NoEncryption":
        return
    if _is_pyca_encryption(encryption_algorithm):
        raise ValueError("redc writes unencrypted keys only: pass NoEncryption()")
    raise TypeError("Encryption algorithm must be a KeySerializationEncryption instance")
