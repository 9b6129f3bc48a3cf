"""redc: constant-time RSA for Python, with pyca ``cryptography``'s method names.

Code written for pyca moves by changing imports::

    from redc import generate_private_key, padding, hashes

    key = generate_private_key(public_exponent=65537, key_size=2048)
    signature = key.sign(b"message", padding.PKCS1v15(), hashes.SHA256())
    key.public_key().verify(signature, b"message", padding.PKCS1v15(), hashes.SHA256())

pyca's own padding and hash instances are accepted too, and where ``cryptography`` is installed
redc's key classes are registered as virtual subclasses of pyca's ``RSAPrivateKey`` and
``RSAPublicKey``, so libraries that check ``isinstance`` against pyca take redc keys as they
are. Private operations release the GIL, are blinded, and are checked against the public key
before anything is returned.
"""

from __future__ import annotations

import re
from types import ModuleType
from typing import TYPE_CHECKING, Any, Iterable, List, Optional, Tuple, Union

from . import _redc, hashes, padding, serialization
from .exceptions import InvalidSignature, UnsupportedAlgorithm
from .hashes import DigestSized, _resolve
from .padding import PaddingLike, _encryption_args, _signature_args

__all__ = [
    "generate_private_key",
    "load_pem_private_key",
    "load_der_private_key",
    "load_pem_public_key",
    "load_der_public_key",
    "RSAPrivateKey",
    "RSAPublicKey",
    "RSAPrivateNumbers",
    "RSAPublicNumbers",
    "InvalidSignature",
    "UnsupportedAlgorithm",
    "backend",
    "hashes",
    "padding",
    "serialization",
    "BytesLike",
]

#: What redc takes where pyca takes bytes: ``bytes``, ``bytearray`` or ``memoryview``.
BytesLike = Union[bytes, bytearray, memoryview]

if TYPE_CHECKING:
    # pyca's serialization names, which the key methods take beside redc's, and pyca's key
    # classes, of which redc's are virtual subclasses where pyca is installed (see
    # ``_register_with_pyca``): for type checkers only, redc does not need pyca at run time.
    from cryptography.hazmat.primitives import serialization as _pyca_serialization
    from cryptography.hazmat.primitives.asymmetric import rsa as _pyca_rsa_types

    _PrivateKeyBase = _pyca_rsa_types.RSAPrivateKey
    _PublicKeyBase = _pyca_rsa_types.RSAPublicKey

    _Encoding = Union[serialization.Encoding, _pyca_serialization.Encoding]
    _PrivateFormat = Union[serialization.PrivateFormat, _pyca_serialization.PrivateFormat]
    _PublicFormat = Union[serialization.PublicFormat, _pyca_serialization.PublicFormat]
    _KeyEncryption = Union[
        serialization.NoEncryption,
        serialization.BestAvailableEncryption,
        _pyca_serialization.KeySerializationEncryption,
    ]
else:
    _PrivateKeyBase = object
    _PublicKeyBase = object


def _bytes(value: object, what: str) -> bytes:
    if type(value) is bytes:
        return value
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    raise TypeError(f"{what} must be bytes-like, not {type(value).__name__}")


def _int_bytes(value: object, what: str) -> bytes:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{what} must be an int, not {type(value).__name__}")
    if value < 0:
        raise ValueError(f"{what} must not be negative")
    return value.to_bytes(max(1, (value.bit_length() + 7) // 8), "big")


def _check_prehashed(data: bytes, algorithm: DigestSized, prehashed: bool) -> None:
    """pyca's ValueError for a digest (``Prehashed``) of the wrong length."""
    if prehashed and len(data) != algorithm.digest_size:
        raise ValueError("The provided data must be the same length as the hash algorithm's digest size.")


def _pyca_rsa() -> Optional[ModuleType]:
    """pyca's ``asymmetric.rsa`` module, or None without ``cryptography``."""
    try:
        from cryptography.hazmat.primitives.asymmetric import rsa
    except ImportError:  # pragma: no cover - exercised where cryptography is absent
        return None
    return rsa


class RSAPublicNumbers:
    """The public numbers ``e`` and ``n`` (pyca's ``RSAPublicNumbers(e, n)``)."""

    def __init__(self, e: int, n: int) -> None:
        if not isinstance(e, int) or not isinstance(n, int):
            raise TypeError("RSAPublicNumbers arguments must be integers")
        self._e, self._n = e, n

    @property
    def e(self) -> int:
        """The public exponent."""
        return self._e

    @property
    def n(self) -> int:
        """The modulus."""
        return self._n

    def public_key(self, backend: Any = None) -> RSAPublicKey:
        """The key of these numbers (validated)."""
        return RSAPublicKey(_redc.public_from_numbers(_int_bytes(self._n, "n"), _int_bytes(self._e, "e")))

    def __eq__(self, other: object) -> bool:
        # redc's numbers or pyca's (pyca's __eq__ gives NotImplemented for redc's, so that
        # ``pyca_numbers == redc_numbers`` ends here too).
        if not _is_public_numbers(other):
            return NotImplemented
        return (self.e, self.n) == (getattr(other, "e"), getattr(other, "n"))

    def __hash__(self) -> int:
        # The hash of pyca's equal numbers, so that both kinds mix in sets and dicts.
        rsa = _pyca_rsa()
        if rsa is not None:
            return hash(rsa.RSAPublicNumbers(self.e, self.n))
        return hash((self.e, self.n))  # pragma: no cover - exercised where cryptography is absent

    def __repr__(self) -> str:
        return f"<RSAPublicNumbers(e={self.e}, n={self.n})>"


def _is_public_numbers(x: object) -> bool:
    return type(x).__name__ == "RSAPublicNumbers" and hasattr(x, "e") and hasattr(x, "n")


def _other_prime(entry: object) -> Tuple[int, int, int]:
    """One ``(r, d_r, t_r)`` of ``other_primes``, as a tuple of ints."""
    items: Any = entry
    try:
        r, d_r, t_r = items
    except (TypeError, ValueError):
        raise TypeError("each of other_primes must be an (r, d_r, t_r) tuple of integers") from None
    for v in (r, d_r, t_r):
        if not isinstance(v, int) or isinstance(v, bool):
            raise TypeError("each of other_primes must be an (r, d_r, t_r) tuple of integers")
    return (r, d_r, t_r)


class RSAPrivateNumbers:
    """pyca's ``RSAPrivateNumbers(p, q, d, dmp1, dmq1, iqmp, public_numbers)``; for keys of
    more than two primes, ``other_primes`` lists ``(r, d_r, t_r)`` of the others."""

    def __init__(
        self,
        p: int,
        q: int,
        d: int,
        dmp1: int,
        dmq1: int,
        iqmp: int,
        public_numbers: Union[RSAPublicNumbers, _pyca_rsa_types.RSAPublicNumbers],
        other_primes: Iterable[Tuple[int, int, int]] = (),
    ) -> None:
        for name, v in (("p", p), ("q", q), ("d", d), ("dmp1", dmp1), ("dmq1", dmq1), ("iqmp", iqmp)):
            if not isinstance(v, int):
                raise TypeError(f"{name} must be an integer")
        if not isinstance(public_numbers, RSAPublicNumbers) and type(public_numbers).__name__ != "RSAPublicNumbers":
            raise TypeError("public_numbers must be RSAPublicNumbers")
        self._p, self._q, self._d = p, q, d
        self._dmp1, self._dmq1, self._iqmp = dmp1, dmq1, iqmp
        # pyca's public numbers are taken as redc's (equal, and hashing alike).
        self._public_numbers = (
            public_numbers
            if isinstance(public_numbers, RSAPublicNumbers)
            else RSAPublicNumbers(public_numbers.e, public_numbers.n)
        )
        self._other_primes = tuple(_other_prime(o) for o in other_primes)

    @property
    def p(self) -> int:
        """The first prime."""
        return self._p

    @property
    def q(self) -> int:
        """The second prime."""
        return self._q

    @property
    def d(self) -> int:
        """The private exponent."""
        return self._d

    @property
    def dmp1(self) -> int:
        """``d mod (p - 1)``."""
        return self._dmp1

    @property
    def dmq1(self) -> int:
        """``d mod (q - 1)``."""
        return self._dmq1

    @property
    def iqmp(self) -> int:
        """``q⁻¹ mod p``."""
        return self._iqmp

    @property
    def public_numbers(self) -> RSAPublicNumbers:
        """``RSAPublicNumbers(e, n)``."""
        return self._public_numbers

    @property
    def other_primes(self) -> Tuple[Tuple[int, int, int], ...]:
        """``(r, d_r, t_r)`` of each prime after the second (empty for two-prime keys)."""
        return self._other_primes

    def private_key(self, backend: Any = None, *, unsafe_skip_rsa_key_validation: bool = False) -> RSAPrivateKey:
        """The key of these numbers, fully validated: the CRT values included (``dmp1``,
        ``dmq1``, ``iqmp``, and each ``d_r`` and ``t_r`` of ``other_primes``)."""
        pn = self._public_numbers
        primes = [self._p, self._q] + [r for (r, _, _) in self._other_primes]
        key = RSAPrivateKey(
            _redc.from_numbers(
                _int_bytes(pn.n, "n"),
                _int_bytes(pn.e, "e"),
                _int_bytes(self._d, "d"),
                [_int_bytes(r, "prime") for r in primes],
            )
        )
        # The CRT values given must be the key's.
        mine = key.private_numbers()
        if (mine.dmp1, mine.dmq1, mine.iqmp) != (self._dmp1, self._dmq1, self._iqmp):
            raise ValueError("the CRT values (dmp1, dmq1, iqmp) do not match p, q and d")
        for k, (given, right) in enumerate(zip(self._other_primes, mine.other_primes)):
            if given[1] != right[1]:
                raise ValueError(f"d_r of other prime {k} is not d mod (r - 1)")
            if given[2] != right[2]:
                raise ValueError(
                    f"t_r of other prime {k} is not the inverse of the product of the primes before it, modulo r"
                )
        return key

    def _fields(self) -> Tuple[Any, ...]:
        pn = self.public_numbers
        return (self.p, self.q, self.d, self.dmp1, self.dmq1, self.iqmp, (pn.e, pn.n), self.other_primes)

    def __eq__(self, other: object) -> bool:
        # redc's numbers or pyca's (which have no other primes).
        if type(other).__name__ != "RSAPrivateNumbers" or not hasattr(other, "iqmp"):
            return NotImplemented
        o: Any = other
        theirs = o.public_numbers
        return self._fields() == (
            o.p,
            o.q,
            o.d,
            o.dmp1,
            o.dmq1,
            o.iqmp,
            (theirs.e, theirs.n),
            tuple(getattr(o, "other_primes", ())),
        )

    def __hash__(self) -> int:
        # Two-prime numbers hash as pyca's equal numbers do.
        rsa = _pyca_rsa()
        if rsa is not None and not self.other_primes:
            pn = self.public_numbers
            return hash(
                rsa.RSAPrivateNumbers(
                    self.p, self.q, self.d, self.dmp1, self.dmq1, self.iqmp, rsa.RSAPublicNumbers(pn.e, pn.n)
                )
            )
        return hash(self._fields())


class RSAPublicKey(_PublicKeyBase):
    """An RSA public key (pyca's ``RSAPublicKey`` methods). Where pyca is installed it is a
    virtual subclass of pyca's ``RSAPublicKey``, and type checkers see it as a subclass, so
    typed code that takes pyca's keys (PyJWT's ``jwt.decode``, say) takes it; its
    ``public_numbers`` are redc's ``RSAPublicNumbers`` (equal to pyca's, and hashing alike)."""

    __slots__ = ("_key",)

    def __init__(self, core: _redc.PublicKey) -> None:
        if not isinstance(core, _redc.PublicKey):
            raise TypeError("use load_pem_public_key, load_der_public_key or public_key()")
        self._key = core

    @property
    def key_size(self) -> int:
        """The modulus size in bits."""
        return self._key.key_size

    def verify(self, signature: BytesLike, data: BytesLike, padding: PaddingLike, algorithm: DigestSized) -> None:
        """Verifies ``signature`` over ``data``; raises ``InvalidSignature``."""
        # Written out, without helper calls where a line does: a verification from Python
        # cost about 1.5 µs more here than in the native call (2048 bits: 8.7 against 7.2 µs).
        signature = _bytes(signature, "signature")
        data = _bytes(data, "data")
        name, prehashed = _resolve(algorithm)
        key = self._key
        kind, mgf, salt = _signature_args(padding, key.key_size, name, algorithm.digest_size, False)
        if prehashed:
            _check_prehashed(data, algorithm, prehashed)
        try:
            key.verify(signature, data, kind, name, mgf, salt, prehashed)
        except _redc.InvalidSignature:
            raise InvalidSignature() from None

    def encrypt(self, plaintext: BytesLike, padding: PaddingLike) -> bytes:
        """Encrypts ``plaintext`` (OAEP or PKCS#1 v1.5)."""
        plaintext = _bytes(plaintext, "plaintext")
        kind, h, mgf, label = _encryption_args(padding)
        return self._key.encrypt(plaintext, kind, h, mgf, label)

    def public_bytes(self, encoding: _Encoding, format: _PublicFormat) -> bytes:
        """The key as PEM or DER, SubjectPublicKeyInfo or PKCS1."""
        enc = serialization._encoding(encoding)
        fmt = serialization._public_format(format)
        if enc == "PEM":
            return self._key.to_pem(fmt).encode()
        return self._key.to_der(fmt)

    def public_numbers(self) -> RSAPublicNumbers:  # type: ignore[override]
        """``RSAPublicNumbers(e, n)``."""
        n, e = self._key.numbers()
        return RSAPublicNumbers(int.from_bytes(e, "big"), int.from_bytes(n, "big"))

    def recover_data_from_signature(  # type: ignore[override]
        self, signature: BytesLike, padding: PaddingLike, algorithm: Optional[DigestSized]
    ) -> bytes:
        """Not offered: raises ``NotImplementedError``."""
        raise NotImplementedError("redc does not recover data from signatures")

    def __eq__(self, other: object) -> bool:
        if not hasattr(other, "public_numbers"):
            return NotImplemented
        theirs = getattr(other, "public_numbers")()
        return (self.public_numbers().e, self.public_numbers().n) == (theirs.e, theirs.n)

    def __hash__(self) -> int:
        return hash(self.public_numbers())

    def __copy__(self) -> RSAPublicKey:
        return self

    def __deepcopy__(self, memo: Any) -> RSAPublicKey:
        return self


class RSAPrivateKey(_PrivateKeyBase):
    """An RSA private key of 2 to 5 primes (pyca's ``RSAPrivateKey`` methods, and the batch
    calls ``sign_many`` and ``decrypt_many``). Where pyca is installed it is a virtual
    subclass of pyca's ``RSAPrivateKey``, and type checkers see it as a subclass (``jwt.encode``
    takes it); unlike pyca's, its ``sign`` has no ``NoDigestInfo`` (a ``TypeError``), and its
    ``private_numbers`` are redc's ``RSAPrivateNumbers``."""

    __slots__ = ("_key",)

    def __init__(self, core: _redc.PrivateKey) -> None:
        if not isinstance(core, _redc.PrivateKey):
            raise TypeError("use generate_private_key or the load_* functions")
        self._key = core

    @property
    def key_size(self) -> int:
        """The modulus size in bits."""
        return self._key.key_size

    @property
    def primes(self) -> int:
        """The number of primes (2 to 5)."""
        return self._key.primes

    def public_key(self) -> RSAPublicKey:
        """The public half."""
        return RSAPublicKey(self._key.public_key())

    def _signing_args(
        self, padding: PaddingLike, algorithm: DigestSized
    ) -> Tuple[str, bool, str, Optional[str], Optional[int]]:
        """``(hash name, prehashed, kind, mgf hash, salt)`` for signing with this key."""
        name, prehashed = _resolve(algorithm)
        kind, mgf, salt = _signature_args(padding, self.key_size, name, algorithm.digest_size, True)
        return name, prehashed, kind, mgf, salt

    def sign(  # type: ignore[override]
        self, data: BytesLike, padding: PaddingLike, algorithm: DigestSized
    ) -> bytes:
        """Signs ``data`` (hashed with ``algorithm``, or already hashed with ``Prehashed``)."""
        data = _bytes(data, "data")
        name, prehashed, kind, mgf, salt = self._signing_args(padding, algorithm)
        _check_prehashed(data, algorithm, prehashed)
        return self._key.sign(data, kind, name, mgf, salt, prehashed)

    def sign_many(
        self, messages: Iterable[BytesLike], padding: PaddingLike, algorithm: DigestSized
    ) -> List[bytes]:
        """Signs every message of ``messages`` in one batch; a list of signatures, each the one
        ``sign`` gives (side by side on CPUs with AVX-512 IFMA)."""
        msgs = [_bytes(m, "each message") for m in messages]
        name, prehashed, kind, mgf, salt = self._signing_args(padding, algorithm)
        for m in msgs:
            _check_prehashed(m, algorithm, prehashed)
        return self._key.sign_many(msgs, kind, name, mgf, salt, prehashed)

    def decrypt(self, ciphertext: BytesLike, padding: PaddingLike) -> bytes:
        """Decrypts ``ciphertext``; ``ValueError`` for any failure (one error for all causes)."""
        ciphertext = _bytes(ciphertext, "ciphertext")
        kind, h, mgf, label = _encryption_args(padding)
        return self._key.decrypt(ciphertext, kind, h, mgf, label)

    def decrypt_many(self, ciphertexts: Iterable[BytesLike], padding: PaddingLike) -> List[bytes]:
        """Decrypts every ciphertext in one batch; a list of plaintexts."""
        cts = [_bytes(c, "each ciphertext") for c in ciphertexts]
        kind, h, mgf, label = _encryption_args(padding)
        return self._key.decrypt_many(cts, kind, h, mgf, label)

    def private_bytes(
        self, encoding: _Encoding, format: _PrivateFormat, encryption_algorithm: _KeyEncryption
    ) -> bytes:
        """The key as PEM or DER, PKCS8 or TraditionalOpenSSL (PKCS#1): unencrypted with
        ``NoEncryption()``, or, with ``BestAvailableEncryption(password)`` (redc's or pyca's),
        as encrypted PKCS8 (PBES2, PBKDF2-HMAC-SHA256, AES-256-CBC; ``ValueError`` for
        TraditionalOpenSSL, whose legacy PEM encryption redc does not write, and for pyca's
        ``encryption_builder()`` choices). ``TypeError`` for what is no encryption algorithm,
        ``None`` included."""
        enc = serialization._encoding(encoding)
        fmt = serialization._private_format(format)
        password = serialization._encryption_password(encryption_algorithm)
        if password is not None:
            if fmt != "pkcs8":
                raise ValueError(
                    "redc encrypts PKCS8 keys only: use PrivateFormat.PKCS8 with BestAvailableEncryption"
                )
            if enc == "PEM":
                return self._key.to_encrypted_pem(password).encode()
            return self._key.to_encrypted_der(password)
        if enc == "PEM":
            return self._key.to_pem(fmt).encode()
        return self._key.to_der(fmt)

    def private_numbers(self) -> RSAPrivateNumbers:  # type: ignore[override]
        """``RSAPrivateNumbers`` (p, q, d, dmp1, dmq1, iqmp, public numbers; ``other_primes``
        for keys of more than two primes)."""
        n, e, d, primes, exps, coeffs = self._key.numbers()

        def i(b: bytes) -> int:
            return int.from_bytes(b, "big")

        others = tuple((i(primes[k]), i(exps[k]), i(coeffs[k - 1])) for k in range(2, len(primes)))
        return RSAPrivateNumbers(
            i(primes[0]),
            i(primes[1]),
            i(d),
            i(exps[0]),
            i(exps[1]),
            i(coeffs[0]),
            RSAPublicNumbers(i(e), i(n)),
            others,
        )

    def __copy__(self) -> RSAPrivateKey:
        return self

    def __deepcopy__(self, memo: Any) -> RSAPrivateKey:
        return self


def generate_private_key(
    public_exponent: int, key_size: int, backend: Any = None, *, primes: int = 2
) -> RSAPrivateKey:
    """A new key of ``key_size`` bits (1024 to 16384) and ``primes`` primes (2 to 5, as the
    size allows; keyword only), with the odd ``public_exponent`` (65537 unless you need
    another). The positional arguments are pyca's, ``backend`` (ignored) included."""
    if not isinstance(key_size, int) or isinstance(key_size, bool):
        raise TypeError("key_size must be an int")
    if key_size < 1024:
        raise ValueError(f"key_size must be at least 1024 bits (got {key_size})")
    if not isinstance(primes, int) or isinstance(primes, bool):
        raise TypeError("primes must be an int")
    e = _int_bytes(public_exponent, "public_exponent")
    return RSAPrivateKey(_redc.generate(e, key_size, primes))


_PEM_BEGIN = re.compile(rb"-----BEGIN ([A-Z0-9 ]+)-----")
_PRIVATE_LABELS = (b"RSA PRIVATE KEY", b"PRIVATE KEY", b"ENCRYPTED PRIVATE KEY", b"EC PRIVATE KEY", b"DSA PRIVATE KEY")
_PUBLIC_LABELS = (b"PUBLIC KEY", b"RSA PUBLIC KEY")


def _pem_block(data: bytes, labels: Tuple[bytes, ...]) -> bytes:
    """The first PEM block of ``data`` with one of ``labels``, from its BEGIN line to its END
    line, as pyca finds it: whatever bytes lie around it (text, binary, other blocks) are
    skipped. Without such a block, ``data`` from its first BEGIN line (or all of it), for the
    core to report what it finds."""
    first = None
    for m in _PEM_BEGIN.finditer(data):
        if first is None:
            first = m.start()
        if m.group(1) in labels:
            end = b"-----END " + m.group(1) + b"-----"
            stop = data.find(end, m.end())
            if stop >= 0:
                return data[m.start() : stop + len(end)] + b"\n"
    return data if first is None else data[first:]


def _encrypted_key_advice(data: bytes, pem: bool) -> str:
    """What an encrypted private key is."""
    if pem and b"Proc-Type: 4,ENCRYPTED" in data:
        return "a traditional OpenSSL PEM key (Proc-Type: 4,ENCRYPTED): pass its password"
    return "an encrypted PKCS#8 key (EncryptedPrivateKeyInfo, ENCRYPTED PRIVATE KEY): pass its password"


_DEK_INFO = re.compile(rb"^DEK-Info:[ \t]*([^\r\n]*)", re.MULTILINE)


def _check_dek_info(data: bytes) -> None:
    """pyca's ValueErrors for a traditional encrypted PEM key whose DEK-Info header is missing
    or has no ``algorithm,IV`` (pyca checks these before it asks for the password)."""
    m = _DEK_INFO.search(data)
    if m is None:
        raise ValueError("Encrypted PEM doesn't have a DEK-Info header.")
    if b"," not in m.group(1):
        raise ValueError("Encrypted PEM's DEK-Info header is not valid.")


def _load(data: object, pem: bool, password: object) -> _redc.PrivateKey:
    raw = _bytes(data, "data")
    secret = None if password is None else _bytes(password, "password")
    if pem:
        raw = _pem_block(raw, _PRIVATE_LABELS)
    try:
        return _redc.load_private(raw, pem, secret)
    except _redc.EncryptedKey:
        # Only without a password. pyca checks DEK-Info before it asks for one.
        if pem and b"Proc-Type: 4,ENCRYPTED" in raw:
            _check_dek_info(raw)
        advice = _encrypted_key_advice(raw, pem)
        # pyca's TypeError and message, then redc's detail.
        raise TypeError(f"Password was not given but private key is encrypted: {advice}") from None
    except _redc.NotEncryptedKey:
        raise TypeError("Password was given but private key is not encrypted.") from None
    except _redc.BadPassword:
        raise ValueError("Incorrect password, could not decrypt key") from None


def load_pem_private_key(
    data: BytesLike,
    password: Optional[BytesLike] = None,
    backend: Any = None,
    *,
    unsafe_skip_rsa_key_validation: bool = False,
) -> RSAPrivateKey:
    """A private key from PEM (PKCS#1 or PKCS#8, detected; bytes around the block are
    skipped); ``ValueError`` names the fault. An encrypted key (``ENCRYPTED PRIVATE KEY``, or
    an ``RSA PRIVATE KEY`` with ``Proc-Type: 4,ENCRYPTED``) is decrypted with ``password``
    (bytes). As in pyca: ``TypeError`` for a missing password or one given with a plain key,
    ``ValueError`` ("Incorrect password, could not decrypt key") for a wrong one. A scheme redc
    does not decrypt is a ``ValueError`` naming it (redc reads PBES2 with PBKDF2 or scrypt, and
    OpenSSL's traditional PEM encryption, each with AES-CBC or 3DES-CBC, and PKCS#12's SHA-1 and
    3DES scheme)."""
    return RSAPrivateKey(_load(data, True, password))


def load_der_private_key(
    data: BytesLike,
    password: Optional[BytesLike] = None,
    backend: Any = None,
    *,
    unsafe_skip_rsa_key_validation: bool = False,
) -> RSAPrivateKey:
    """A private key from DER (PKCS#1 or PKCS#8, detected; an encrypted PKCS#8 key with
    ``password``, as in :func:`load_pem_private_key`)."""
    return RSAPrivateKey(_load(data, False, password))


def load_pem_public_key(data: BytesLike, backend: Any = None) -> RSAPublicKey:
    """A public key from PEM (SubjectPublicKeyInfo or PKCS#1, detected; bytes around the
    block are skipped)."""
    return RSAPublicKey(_redc.load_public(_pem_block(_bytes(data, "data"), _PUBLIC_LABELS), True))


def load_der_public_key(data: BytesLike, backend: Any = None) -> RSAPublicKey:
    """A public key from DER (SubjectPublicKeyInfo or PKCS#1, detected)."""
    return RSAPublicKey(_redc.load_public(_bytes(data, "data"), False))


def backend() -> str:
    """The backend redc's private operations run on here: "portable", "mulx" or "ifma"."""
    return _redc.backend()


def _register_with_pyca() -> bool:
    """Registers redc's key classes as virtual subclasses of pyca's, as pyca registers its own."""
    try:
        from cryptography.hazmat.primitives.asymmetric import rsa
    except ImportError:  # pragma: no cover
        return False
    rsa.RSAPrivateKey.register(RSAPrivateKey)
    rsa.RSAPublicKey.register(RSAPublicKey)
    return True


_register_with_pyca()
