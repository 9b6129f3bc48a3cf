"""Paddings, named as pyca's ``asymmetric.padding`` module names them: ``PKCS1v15``, ``PSS``
(with ``MGF1`` and ``PSS.MAX_LENGTH`` / ``DIGEST_LENGTH`` / ``AUTO``) and ``OAEP``.

Instances of pyca's own padding classes are accepted wherever these are.
"""

from __future__ import annotations

from typing import Optional, Protocol, Union

from .exceptions import UnsupportedAlgorithm
from .hashes import DigestSized, HashLike, _hash_name

__all__ = [
    "AsymmetricPadding",
    "PKCS1v15",
    "PSS",
    "OAEP",
    "MGF1",
    "calculate_max_pss_salt_length",
    "PaddingLike",
]


class PaddingLike(Protocol):
    """What redc takes as a padding, for type checkers: an instance of these classes or of
    pyca's (anything with pyca's ``name``)."""

    @property
    def name(self) -> str: ...


class _KeySized(Protocol):
    @property
    def key_size(self) -> int: ...


class AsymmetricPadding:
    """Base of the paddings; ``name`` as pyca spells it."""

    name: str = ""


class _MaxLength:
    """The longest salt the key allows (signing); any salt length when verifying."""


class _Auto:
    """Verification reads the salt length from the signature."""


class _DigestLength:
    """A salt as long as the hash."""


# The PSS constants by class name: redc's above and pyca's (``PSS.MAX_LENGTH`` of
# ``cryptography``'s padding module is an instance of its own ``_MaxLength``, and so on).
_SALT_CONSTANTS = ("_MaxLength", "_Auto", "_DigestLength")

# The longest salt length pyca takes (a C int): longer ones raise OverflowError there, when
# signing and when verifying, and here too.
_MAX_SALT_LENGTH = 2**31 - 1


def _is_salt_constant(salt_length: object) -> bool:
    return type(salt_length).__name__ in _SALT_CONSTANTS and not isinstance(salt_length, type)


class MGF1:
    """The mask generation function MGF1 with ``algorithm``."""

    def __init__(self, algorithm: HashLike) -> None:
        _hash_name(algorithm)
        self._algorithm = algorithm


class PKCS1v15(AsymmetricPadding):
    """RSASSA-PKCS1-v1_5 signatures and RSAES-PKCS1-v1_5 encryption (RFC 8017)."""

    name = "EMSA-PKCS1-v1_5"


class PSS(AsymmetricPadding):
    """RSASSA-PSS (RFC 8017 §8.1) with ``mgf`` and ``salt_length`` (bytes, or one of the
    constants: these or pyca's ``PSS.MAX_LENGTH`` / ``DIGEST_LENGTH`` / ``AUTO``)."""

    MAX_LENGTH = _MaxLength()
    AUTO = _Auto()
    DIGEST_LENGTH = _DigestLength()
    name = "EMSA-PSS"

    def __init__(self, mgf: MGF1, salt_length: Union[int, _MaxLength, _Auto, _DigestLength]) -> None:
        if not isinstance(mgf, MGF1) and type(mgf).__name__ != "MGF1":
            raise TypeError("mgf must be an MGF1 instance")
        if not (isinstance(salt_length, int) or _is_salt_constant(salt_length)) or isinstance(
            salt_length, bool
        ):
            raise TypeError("salt_length must be an int or a PSS constant")
        if isinstance(salt_length, int) and salt_length < 0:
            raise ValueError("salt_length must be zero or greater")
        self._mgf = mgf
        self._salt_length = salt_length

    @property
    def mgf(self) -> MGF1:
        """The mask generation function."""
        return self._mgf


class OAEP(AsymmetricPadding):
    """RSAES-OAEP (RFC 8017 §7.1) with ``mgf``, ``algorithm`` and an optional ``label``."""

    name = "EME-OAEP"

    def __init__(
        self, mgf: MGF1, algorithm: HashLike, label: Optional[Union[bytes, bytearray, memoryview]]
    ) -> None:
        if not isinstance(mgf, MGF1) and type(mgf).__name__ != "MGF1":
            raise TypeError("mgf must be an MGF1 instance")
        _hash_name(algorithm)
        if label is not None and not isinstance(label, (bytes, bytearray, memoryview)):
            raise TypeError("label must be bytes or None")
        self._mgf = mgf
        self._algorithm = algorithm
        self._label = bytes(label) if label is not None else None

    @property
    def algorithm(self) -> HashLike:
        """The hash of the label and of the encoding."""
        return self._algorithm

    @property
    def mgf(self) -> MGF1:
        """The mask generation function."""
        return self._mgf


def calculate_max_pss_salt_length(key: _KeySized, hash_algorithm: DigestSized) -> int:
    """The longest PSS salt ``key`` allows with ``hash_algorithm`` (as pyca's function)."""
    em_len = (key.key_size - 1 + 7) // 8
    salt = em_len - hash_algorithm.digest_size - 2
    if salt < 0:
        raise ValueError("the key is too small for this hash")
    return salt


def _kind(padding: object) -> str:
    """pyca's padding name of a redc or pyca padding instance; TypeError otherwise."""
    if isinstance(padding, type):
        raise TypeError("expected a padding instance (e.g. PKCS1v15()), got a class")
    name = getattr(padding, "name", None)
    if name in ("EMSA-PKCS1-v1_5", "EMSA-PSS", "EME-OAEP"):
        return str(name)
    raise TypeError(f"expected a padding instance, got {type(padding).__name__}")


def _signature_args(
    padding: object, key_size: int, hash_name: str, digest_size: int, signing: bool
) -> tuple[str, Optional[str], Optional[int]]:
    """``(kind, mgf hash, salt)`` for the Rust core."""
    kind = _kind(padding)
    if kind == "EMSA-PKCS1-v1_5":
        return "pkcs1v15", None, None
    if kind != "EMSA-PSS":
        raise UnsupportedAlgorithm(f"{kind} is an encryption padding, not a signature padding")
    mgf = _hash_name(getattr(getattr(padding, "_mgf"), "_algorithm"))
    salt = getattr(padding, "_salt_length")
    cls = type(salt).__name__
    em_len = (key_size - 1 + 7) // 8
    if cls == "_MaxLength":
        salt = max(em_len - digest_size - 2, 0) if signing else None
    elif cls == "_DigestLength":
        salt = digest_size
    elif cls == "_Auto":
        if signing:
            raise ValueError("PSS salt length AUTO is only for verification")
        salt = None
    elif not isinstance(salt, int):
        raise TypeError("salt_length must be an int or a PSS constant")
    elif salt > _MAX_SALT_LENGTH:
        raise OverflowError(f"salt_length {salt} is above the {_MAX_SALT_LENGTH} maximum")
    if signing and salt is not None and salt + digest_size + 2 > em_len:
        raise ValueError(
            f"a {salt}-byte salt and a {digest_size}-byte hash do not fit a {key_size}-bit key"
        )
    return "pss", mgf, salt


def _encryption_args(padding: object) -> tuple[str, Optional[str], Optional[str], Optional[bytes]]:
    """``(kind, hash, mgf hash, label)`` for the Rust core."""
    kind = _kind(padding)
    if kind == "EMSA-PKCS1-v1_5":
        return "pkcs1v15", None, None, None
    if kind != "EME-OAEP":
        raise UnsupportedAlgorithm(f"{kind} is a signature padding, not an encryption padding")
    return (
        "oaep",
        _hash_name(getattr(padding, "_algorithm")),
        _hash_name(getattr(getattr(padding, "_mgf"), "_algorithm")),
        getattr(padding, "_label"),
    )
