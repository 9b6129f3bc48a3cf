"""Hash algorithms for redc's signatures and OAEP, named as pyca's ``hashes`` module names them.

Instances of pyca's own classes (``cryptography.hazmat.primitives.hashes.SHA256()``) are
accepted wherever these are.
"""

from __future__ import annotations

from typing import Protocol

from .exceptions import UnsupportedAlgorithm

__all__ = [
    "HashAlgorithm",
    "SHA1",
    "SHA224",
    "SHA256",
    "SHA384",
    "SHA512",
    "SHA512_224",
    "SHA512_256",
    "Prehashed",
    "HashLike",
    "DigestSized",
]


class DigestSized(Protocol):
    """What redc takes as a signature's ``algorithm``, for type checkers: a :class:`HashLike`,
    or a ``Prehashed`` (redc's or pyca's), which has only ``digest_size``."""

    @property
    def digest_size(self) -> int: ...


class HashLike(DigestSized, Protocol):
    """What redc takes as a hash, for type checkers: an instance of these classes or of pyca's
    (anything with pyca's ``name`` and ``digest_size``)."""

    @property
    def name(self) -> str: ...


class HashAlgorithm:
    """A hash: ``name`` (as pyca spells it) and ``digest_size`` in bytes."""

    name: str = ""
    digest_size: int = 0

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other)

    def __hash__(self) -> int:
        return hash(self.name)

    def __repr__(self) -> str:
        return f"<redc.hashes.{type(self).__name__}>"


class SHA1(HashAlgorithm):
    """SHA-1 (for interoperability only: not for new signatures)."""

    name = "sha1"
    digest_size = 20


class SHA224(HashAlgorithm):
    """SHA-224."""

    name = "sha224"
    digest_size = 28


class SHA256(HashAlgorithm):
    """SHA-256."""

    name = "sha256"
    digest_size = 32


class SHA384(HashAlgorithm):
    """SHA-384."""

    name = "sha384"
    digest_size = 48


class SHA512(HashAlgorithm):
    """SHA-512."""

    name = "sha512"
    digest_size = 64


class SHA512_224(HashAlgorithm):  # noqa: N801 - pyca's name
    """SHA-512/224."""

    name = "sha512-224"
    digest_size = 28


class SHA512_256(HashAlgorithm):  # noqa: N801 - pyca's name
    """SHA-512/256."""

    name = "sha512-256"
    digest_size = 32


class Prehashed:
    """Marks data as already hashed with ``algorithm`` (pyca's ``utils.Prehashed``)."""

    def __init__(self, algorithm: HashLike) -> None:
        _hash_name(algorithm)
        self._algorithm = algorithm
        self._digest_size: int = algorithm.digest_size

    @property
    def digest_size(self) -> int:
        """The digest's length in bytes."""
        return self._digest_size


_NAMES = {"sha1", "sha224", "sha256", "sha384", "sha512", "sha512-224", "sha512-256"}


def _hash_name(algorithm: object) -> str:
    """The hash name of a redc or pyca hash instance; TypeError for what is not a hash
    instance, and pyca's ``UnsupportedAlgorithm`` for a hash redc does not have (MD5, SHA-3,
    BLAKE2, SHAKE, SM3: pyca signs with some of them, redc does not)."""
    if isinstance(algorithm, type):
        raise TypeError("expected a hash algorithm instance (e.g. SHA256()), got a class")
    name = getattr(algorithm, "name", None)
    if not isinstance(name, str) or not hasattr(algorithm, "digest_size"):
        raise TypeError(f"expected a hash algorithm instance, got {type(algorithm).__name__}")
    if name not in _NAMES:
        raise UnsupportedAlgorithm(
            f"{name} is not supported by redc (it has SHA-1, SHA-224, SHA-256, SHA-384, SHA-512, "
            "SHA-512/224 and SHA-512/256)"
        )
    return name


def _resolve(algorithm: DigestSized) -> tuple[str, bool]:
    """``(hash name, prehashed)`` for a hash instance or a ``Prehashed`` (redc's or pyca's)."""
    if type(algorithm).__name__ == "Prehashed" and hasattr(algorithm, "_algorithm"):
        return _hash_name(getattr(algorithm, "_algorithm")), True
    return _hash_name(algorithm), False
