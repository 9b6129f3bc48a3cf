"""The exceptions redc raises where pyca raises its own: pyca's classes themselves when
``cryptography`` is installed (so that code catching them catches redc's failures too), and
stand-ins of the same names otherwise."""

from __future__ import annotations

from . import _redc

__all__ = ["InvalidSignature", "UnsupportedAlgorithm"]

try:
    from cryptography.exceptions import InvalidSignature, UnsupportedAlgorithm
except ImportError:  # pragma: no cover - exercised where cryptography is absent
    InvalidSignature = _redc.InvalidSignature  # type: ignore[misc,assignment]

    class UnsupportedAlgorithm(Exception):  # type: ignore[no-redef]
        """A hash or padding redc does not offer for this operation (pyca's
        ``cryptography.exceptions.UnsupportedAlgorithm``)."""

        def __init__(self, message: str, reason: object = None) -> None:
            super().__init__(message)
            self._reason = reason
