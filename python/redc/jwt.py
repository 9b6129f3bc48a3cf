"""PyJWT on redc: ``register()`` makes RS256/384/512 and PS256/384/512 sign and verify through
redc in PyJWT's default instance (``register(jws)`` for a given ``jwt.PyJWS``)::

    import jwt, redc.jwt
    redc.jwt.register()
    token = jwt.encode({"sub": "me"}, private_pem, algorithm="RS256")
    claims = jwt.decode(token, public_pem, algorithms=["RS256"])

Keys may be PEM bytes or text, ``ssh-rsa`` public keys, redc key objects, or pyca key objects
(converted once per use). Tokens are the standard ones: they decode with stock PyJWT and the
reverse. As stock PyJWT's RSA algorithms, these report keys below 2048 bits through
``check_key_length`` (where the installed PyJWT has that hook): an ``InsecureKeyLengthWarning``,
or ``InvalidKeyError`` with the option ``enforce_minimum_key_length``.

For asyncio servers signing with a key of a ``redc.service.BatchSigner``,
``await encode_async(payload, key, algorithm="RS256")`` makes the token ``jwt.encode`` would,
its signature awaited from the service (batched with other requests, never signed on the event
loop's thread).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Literal, Optional, Tuple, Type, Union, overload

import jwt as _pyjwt
from jwt import algorithms as _pyjwt_algorithms
from jwt.algorithms import Algorithm
from jwt.exceptions import InvalidKeyError

from . import (
    RSAPrivateKey,
    RSAPrivateNumbers,
    RSAPublicKey,
    RSAPublicNumbers,
    _pyca_rsa,
    hashes,
    load_der_private_key,
    load_der_public_key,
    load_pem_private_key,
    load_pem_public_key,
    padding,
    serialization,
)

if TYPE_CHECKING:
    from .service import BatchedPrivateKey

__all__ = ["RedcRSAAlgorithm", "ALGORITHMS", "register", "encode_async"]

# redc's hashes, for signing and verifying.
_HASHES: Dict[int, Type[hashes.HashAlgorithm]] = {256: hashes.SHA256, 384: hashes.SHA384, 512: hashes.SHA512}
# What PyJWT's own RSAAlgorithm has as ``hash_alg`` (pyca's hash classes), for its
# ``compute_hash_digest`` and for code that reads ``hash_alg``; hashlib's constructors, which
# PyJWT's ``compute_hash_digest`` takes as well, where pyca is not installed.
_HASHLIB = {256: hashlib.sha256, 384: hashlib.sha384, 512: hashlib.sha512}


def _pyjwt_hash(bits: int) -> Callable[..., Any]:
    try:
        from cryptography.hazmat.primitives import hashes as pyca_hashes
    except ImportError:  # pragma: no cover - exercised where cryptography is absent
        return _HASHLIB[bits]
    cls: Callable[..., Any] = getattr(pyca_hashes, f"SHA{bits}")
    return cls


# PyJWT's minimum RSA key size (NIST SP 800-131A), from PyJWT itself where it has one.
_MIN_KEY_SIZE: int = getattr(getattr(_pyjwt_algorithms, "RSAAlgorithm", None), "_MIN_KEY_SIZE", 2048)
# Whether the installed PyJWT asks algorithms for ``check_key_length`` (PyJWT 2.10 and later);
# older ones do not, and nothing checks key sizes there.
HAS_KEY_LENGTH_CHECK = hasattr(Algorithm, "check_key_length")


def _b64(n: int) -> str:
    raw = n.to_bytes(max(1, (n.bit_length() + 7) // 8), "big")
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _unb64(s: object) -> int:
    """A JWK integer (base64url, unpadded), as PyJWT's ``from_base64url_uint`` reads it."""
    if isinstance(s, str):
        s = s.encode()
    if not isinstance(s, (bytes, bytearray)):
        raise TypeError("Expected a string or bytes value")
    raw = bytes(s)
    return int.from_bytes(base64.urlsafe_b64decode(raw + b"=" * (-len(raw) % 4)), "big")


def _ssh_rsa_public_key(data: bytes) -> RSAPublicKey:
    """The key of an OpenSSH ``ssh-rsa`` public key line (``ssh-rsa <base64> [comment]``):
    the base64 holds the strings "ssh-rsa", e and n (RFC 4253 §6.6, mpints). ``ValueError``
    for anything else."""
    parts = data.split(None, 2)
    if len(parts) < 2 or parts[0] != b"ssh-rsa":
        raise ValueError("not an ssh-rsa public key")
    try:
        blob = base64.b64decode(parts[1], validate=True)
    except binascii.Error:
        raise ValueError("the ssh-rsa key's base64 is malformed") from None
    fields: List[bytes] = []
    pos = 0
    for _ in range(3):
        if pos + 4 > len(blob):
            raise ValueError("the ssh-rsa key is truncated")
        length = int.from_bytes(blob[pos : pos + 4], "big")
        pos += 4
        if pos + length > len(blob):
            raise ValueError("the ssh-rsa key is truncated")
        fields.append(blob[pos : pos + length])
        pos += length
    if pos != len(blob) or fields[0] != b"ssh-rsa":
        raise ValueError("the ssh-rsa key's blob is not an ssh-rsa key")
    if any(f[:1] and f[0] & 0x80 for f in fields[1:]):
        raise ValueError("the ssh-rsa key has a negative e or n")
    e, n = (int.from_bytes(f, "big") for f in fields[1:])
    return RSAPublicNumbers(e, n).public_key()


_MAX_RECOVERY_ATTEMPTS = 1000


def _recover_prime_factors(n: int, e: int, d: int) -> Tuple[int, int]:
    """``(p, q)``, p > q, from ``n``, ``e`` and ``d`` (RFC 8017 does not say how; this is the
    usual probabilistic method, pyca's ``rsa_recover_prime_factors``'s). ``ValueError`` when
    they are not an RSA key's."""
    if d <= 1 or e <= 1:
        raise ValueError("d, e can't be <= 1")
    if n <= 3 or n % 2 == 0 or n.bit_length() > 16384 or d >= n:
        raise ValueError("n, d, e don't match")
    ktot = d * e - 1
    if pow(2, ktot, n) != 1:
        raise ValueError("n, d, e don't match")
    t = ktot
    while t % 2 == 0:
        t //= 2
    for a in range(2, _MAX_RECOVERY_ATTEMPTS, 2):
        cand = pow(a, t, n)
        k = t
        while k < ktot and cand not in (1, n - 1):
            nxt = cand * cand % n
            if nxt == 1:
                p = _gcd(cand + 1, n)
                q = n // p
                if 1 < p < n and p * q == n:
                    return (p, q) if p > q else (q, p)
                break
            cand, k = nxt, k * 2
    raise ValueError("Unable to compute factors p and q from exponent d.")


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


def _prime_factors(n: int, e: int, d: int) -> Tuple[int, int]:
    """pyca's recovery where pyca is installed, redc's own otherwise (the same result)."""
    rsa = _pyca_rsa()
    if rsa is not None:
        p: int
        q: int
        p, q = rsa.rsa_recover_prime_factors(n, e, d)
        return p, q
    return _recover_prime_factors(n, e, d)  # pragma: no cover - exercised where cryptography is absent


class RedcRSAAlgorithm(Algorithm):
    """A PyJWT algorithm whose signatures redc computes: PKCS#1 v1.5 (RS*) or PSS with a salt
    as long as the hash (PS*)."""

    _MIN_KEY_SIZE = _MIN_KEY_SIZE

    def __init__(self, bits: int, pss: bool) -> None:
        self._hash = _HASHES[bits]
        self.hash_alg = _pyjwt_hash(bits)
        self.pss = pss

    def _padding(self) -> Union[padding.PSS, padding.PKCS1v15]:
        if self.pss:
            return padding.PSS(mgf=padding.MGF1(self._hash()), salt_length=self._hash.digest_size)
        return padding.PKCS1v15()

    def check_key_length(self, key: Any) -> Optional[str]:
        """PyJWT's check: a message for keys below 2048 bits (PyJWT warns with it, or raises
        ``InvalidKeyError`` with ``enforce_minimum_key_length``), None otherwise."""
        size = getattr(key, "key_size", None)
        if isinstance(size, int) and size < self._MIN_KEY_SIZE:
            return (
                f"The RSA key is {size} bits long, which is below "
                f"the minimum recommended size of {self._MIN_KEY_SIZE} bits. "
                f"See NIST SP 800-131A."
            )
        return None

    def prepare_key(self, key: Any) -> Union[RSAPrivateKey, RSAPublicKey]:
        if isinstance(key, (RSAPrivateKey, RSAPublicKey)):
            return key
        # pyca's RSA key objects: through their DER.
        rsa = _pyca_rsa()
        if rsa is not None and isinstance(key, rsa.RSAPrivateKey):
            der = key.private_bytes(
                _pyca_enum("Encoding", "DER"), _pyca_enum("PrivateFormat", "PKCS8"), _pyca_no_encryption()
            )
            return load_der_private_key(der)
        if rsa is not None and isinstance(key, rsa.RSAPublicKey):
            der = key.public_bytes(_pyca_enum("Encoding", "DER"), _pyca_enum("PublicFormat", "SubjectPublicKeyInfo"))
            return load_der_public_key(der)
        # Anything else that is not text (an EC key object, say): stock PyJWT's TypeError.
        if not isinstance(key, (bytes, bytearray, str)):
            raise TypeError("Expecting a PEM-formatted key.")
        key = key.encode() if isinstance(key, str) else bytes(key)
        try:
            if key.startswith(b"ssh-rsa"):
                return _ssh_rsa_public_key(key)
            if b"PRIVATE KEY" in key:
                return load_pem_private_key(key)
            return load_pem_public_key(key)
        except ValueError as e:
            raise InvalidKeyError(f"Could not parse the provided public key: {e}") from e

    def sign(self, msg: bytes, key: Any) -> bytes:
        if not isinstance(key, RSAPrivateKey):
            raise TypeError("signing needs a private key")
        return key.sign(msg, self._padding(), self._hash())

    def verify(self, msg: bytes, key: Any, sig: bytes) -> bool:
        if isinstance(key, RSAPrivateKey):
            key = key.public_key()
        try:
            key.verify(sig, msg, self._padding(), self._hash())
            return True
        except Exception:  # InvalidSignature, or a signature of the wrong length
            return False

    @overload
    @staticmethod
    def to_jwk(key_obj: Any, as_dict: Literal[True]) -> Dict[str, Any]: ...

    @overload
    @staticmethod
    def to_jwk(key_obj: Any, as_dict: Literal[False] = False) -> str: ...

    @staticmethod
    def to_jwk(key_obj: Any, as_dict: bool = False) -> Union[Dict[str, Any], str]:
        """The JWK of a redc or pyca RSA key; a key of more than two primes has its others in
        ``oth`` (RFC 7518 §6.3.2.7: each prime ``r``, its CRT exponent ``d`` and coefficient
        ``t``), which stock PyJWT's ``from_jwk`` refuses and this one reads."""
        rsa = _pyca_rsa()
        kinds: Tuple[type, ...] = (RSAPrivateKey, RSAPublicKey)
        if rsa is not None:
            kinds += (rsa.RSAPrivateKey, rsa.RSAPublicKey)
        if not isinstance(key_obj, kinds):
            raise InvalidKeyError("Not a public or private key")
        key: Any = key_obj
        if hasattr(key, "private_numbers"):
            pn = key.private_numbers()
            obj: Dict[str, Any] = {
                "kty": "RSA",
                "key_ops": ["sign"],
                "n": _b64(pn.public_numbers.n),
                "e": _b64(pn.public_numbers.e),
                "d": _b64(pn.d),
                "p": _b64(pn.p),
                "q": _b64(pn.q),
                "dp": _b64(pn.dmp1),
                "dq": _b64(pn.dmq1),
                "qi": _b64(pn.iqmp),
            }
            others = getattr(pn, "other_primes", ())
            if others:
                obj["oth"] = [{"r": _b64(r), "d": _b64(d), "t": _b64(t)} for (r, d, t) in others]
        else:
            pub = key.public_numbers()
            obj = {"kty": "RSA", "key_ops": ["verify"], "n": _b64(pub.n), "e": _b64(pub.e)}
        return obj if as_dict else json.dumps(obj)

    @staticmethod
    def from_jwk(jwk: Union[str, Dict[str, Any]]) -> Union[RSAPrivateKey, RSAPublicKey]:
        """A redc key from a JWK (a JSON text or a dict), as stock PyJWT reads it: a private
        key without ``p`` and ``q`` has them recovered from ``d``; ``InvalidKeyError`` for what
        is no RSA JWK. Unlike stock PyJWT it reads ``oth`` (keys of 3 to 5 primes)."""
        obj: Any
        try:
            if isinstance(jwk, (str, bytes, bytearray)):
                obj = json.loads(jwk)
            elif isinstance(jwk, dict):
                obj = jwk
            else:
                raise ValueError
        except ValueError:
            raise InvalidKeyError("Key is not valid JSON") from None
        if not isinstance(obj, dict):
            raise InvalidKeyError("Key is not valid JSON")
        if obj.get("kty") != "RSA":
            raise InvalidKeyError("Not an RSA key")
        if not ("n" in obj and "e" in obj):
            raise InvalidKeyError("Not a public or private key")
        public = RSAPublicNumbers(_unb64(obj["e"]), _unb64(obj["n"]))
        if "d" not in obj:
            return public.public_key()
        d = _unb64(obj["d"])
        crt = ["p", "q", "dp", "dq", "qi"]
        found = [name in obj for name in crt]
        if any(found) and not all(found):
            raise InvalidKeyError("RSA key must include all parameters if any are present besides d")
        if not any(found):
            if "oth" in obj:
                raise InvalidKeyError("RSA key with oth must include p, q, dp, dq and qi")
            p, q = _prime_factors(public.n, public.e, d)
            numbers = RSAPrivateNumbers(p, q, d, d % (p - 1), d % (q - 1), pow(q, -1, p), public)
            return numbers.private_key()
        others: Tuple[Tuple[int, int, int], ...] = ()
        if "oth" in obj:
            oth = obj["oth"]
            if not isinstance(oth, list) or not oth:
                raise InvalidKeyError("oth must be a non-empty list of {r, d, t} objects")
            try:
                others = tuple((_unb64(o["r"]), _unb64(o["d"]), _unb64(o["t"])) for o in oth)
            except (KeyError, TypeError):
                raise InvalidKeyError("each member of oth must have r, d and t") from None
        numbers = RSAPrivateNumbers(
            _unb64(obj["p"]),
            _unb64(obj["q"]),
            d,
            _unb64(obj["dp"]),
            _unb64(obj["dq"]),
            _unb64(obj["qi"]),
            public,
            others,
        )
        return numbers.private_key()


def _pyca_enum(cls: str, name: str) -> Any:
    from cryptography.hazmat.primitives import serialization as s

    return getattr(getattr(s, cls), name)


def _pyca_no_encryption() -> Any:
    from cryptography.hazmat.primitives import serialization as s

    return s.NoEncryption()


ALGORITHMS: Dict[str, RedcRSAAlgorithm] = {
    "RS256": RedcRSAAlgorithm(256, False),
    "RS384": RedcRSAAlgorithm(384, False),
    "RS512": RedcRSAAlgorithm(512, False),
    "PS256": RedcRSAAlgorithm(256, True),
    "PS384": RedcRSAAlgorithm(384, True),
    "PS512": RedcRSAAlgorithm(512, True),
}


def register(jws: Optional[_pyjwt.PyJWS] = None) -> _pyjwt.PyJWS:
    """Puts redc's RS256/384/512 and PS256/384/512 into ``jws`` (a ``jwt.PyJWS``; by default
    PyJWT's global instance, which ``jwt.encode`` and ``jwt.decode`` use), replacing what was
    registered under those names. Returns the ``PyJWS`` changed."""
    if jws is None:
        jws = _pyjwt.api_jws._jws_global_obj
    for name, alg in ALGORITHMS.items():
        try:
            jws.unregister_algorithm(name)
        except KeyError:
            pass
        jws.register_algorithm(name, alg)
    return jws


class _SigningInput(Exception):
    """Raised by :class:`_CapturingKey` with the bytes PyJWT asked it to sign."""

    def __init__(self, data: bytes) -> None:
        super().__init__("PyJWT's signing input")
        self.data = data


class _CapturingKey(RSAPrivateKey):
    """A key whose ``sign`` hands PyJWT's signing input back (as :class:`_SigningInput`)
    instead of signing: ``jwt.encode`` with it builds and encodes the header and the payload as
    it always does, then stops where the signature is computed."""

    __slots__ = ()

    def sign(  # type: ignore[override]
        self, data: bytes, padding: Any, algorithm: Any
    ) -> bytes:
        raise _SigningInput(bytes(data))


async def encode_async(
    payload: Dict[str, Any], key: BatchedPrivateKey, algorithm: str = "RS256", **kwargs: Any
) -> str:
    """``jwt.encode(payload, key, algorithm, **kwargs)`` for asyncio, with ``key`` a
    ``redc.service.BatchedPrivateKey`` (``BatchSigner.add_key``): PyJWT makes the header and
    the payload (its claim conversions, ``headers``, ``json_encoder``, ``sort_headers``, ...),
    and the signature is awaited from the service with ``sign_async``. RS256/384/512 and
    PS256/384/512; the token is the one ``jwt.encode`` gives with the key (the same text for
    RS*, whose signatures are deterministic), whether or not :func:`register` was called."""
    from .service import BatchedPrivateKey

    if not isinstance(key, BatchedPrivateKey):  # typed callers cannot, others might
        raise TypeError(
            "encode_async signs through a redc.service.BatchSigner: pass the key its add_key "
            f"returned, not {type(key).__name__}"
        )
    alg = ALGORITHMS.get(algorithm)
    if alg is None:
        raise NotImplementedError(f"encode_async makes {', '.join(ALGORITHMS)} tokens, not {algorithm}")
    try:
        _pyjwt.encode(payload, _CapturingKey(key._key), algorithm=algorithm, **kwargs)
    except _SigningInput as captured:
        signing_input = captured.data
    else:  # pragma: no cover - PyJWT signs every RS*/PS* token
        raise RuntimeError("PyJWT made a token without asking for its signature")
    signature = await key.sign_async(signing_input, alg._padding(), alg._hash())
    return signing_input.decode("ascii") + "." + base64.urlsafe_b64encode(signature).rstrip(b"=").decode()


# serialization is imported for users who want redc's enums beside this module.
_ = serialization
