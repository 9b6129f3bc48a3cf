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

from . import _redc, hashes, padding, serialization
from .hashes import _resolve
from .padding import _encryption_args, _signature_args

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
    "backend",
    "hashes",
    "padding",
    "serialization",
]

try:  # pyca's exception, so that code catching it catches redc's failures too
    from cryptography.exceptions import InvalidSignature
except ImportError:  # pragma: no cover - exercised where cryptography is absent
    InvalidSignature = _redc.InvalidSignature


def _bytes(value, what):
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    raise TypeError(f"{what} must be bytes-like, not {type(value).__name__}")


def _int_bytes(value, what):
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{what} must be an int, not {type(value).__name__}")
    if value < 0:
        raise ValueError(f"{what} must not be negative")
    return value.to_bytes(max(1, (value.bit_length() + 7) // 8), "big")


def _sig_call(fn, *args, **kwargs):
    try:
        return fn(*args, **kwargs)
    except _redc.InvalidSignature:
        raise InvalidSignature() from None


class RSAPublicNumbers:
    """The public numbers ``e`` and ``n`` (pyca's ``RSAPublicNumbers(e, n)``)."""

    def __init__(self, e, n):
        if not isinstance(e, int) or not isinstance(n, int):
            raise TypeError("RSAPublicNumbers arguments must be integers")
        self._e, self._n = e, n

    e = property(lambda self: self._e)
    n = property(lambda self: self._n)

    def public_key(self, backend=None):
        """The key of these numbers (validated)."""
        return RSAPublicKey(_redc.public_from_numbers(_int_bytes(self._n, "n"), _int_bytes(self._e, "e")))

    def __eq__(self, other):
        return isinstance(other, RSAPublicNumbers) and (self.e, self.n) == (other.e, other.n)

    def __hash__(self):
        return hash((self.e, self.n))

    def __repr__(self):
        return f"<RSAPublicNumbers(e={self.e}, n={self.n})>"


class RSAPrivateNumbers:
    """pyca's ``RSAPrivateNumbers(p, q, d, dmp1, dmq1, iqmp, public_numbers)``; for keys of
    more than two primes, ``other_primes`` lists ``(r, d_r, t_r)`` of the others."""

    def __init__(self, p, q, d, dmp1, dmq1, iqmp, public_numbers, other_primes=()):
        for name, v in (("p", p), ("q", q), ("d", d), ("dmp1", dmp1), ("dmq1", dmq1), ("iqmp", iqmp)):
            if not isinstance(v, int):
                raise TypeError(f"{name} must be an integer")
        if not isinstance(public_numbers, RSAPublicNumbers) and type(public_numbers).__name__ != "RSAPublicNumbers":
            raise TypeError("public_numbers must be RSAPublicNumbers")
        self._p, self._q, self._d = p, q, d
        self._dmp1, self._dmq1, self._iqmp = dmp1, dmq1, iqmp
        self._public_numbers = public_numbers
        self._other_primes = tuple(other_primes)

    p = property(lambda self: self._p)
    q = property(lambda self: self._q)
    d = property(lambda self: self._d)
    dmp1 = property(lambda self: self._dmp1)
    dmq1 = property(lambda self: self._dmq1)
    iqmp = property(lambda self: self._iqmp)
    public_numbers = property(lambda self: self._public_numbers)
    other_primes = property(lambda self: self._other_primes)

    def private_key(self, backend=None, *, unsafe_skip_rsa_key_validation=False):
        """The key of these numbers, fully validated (CRT values included)."""
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
        return key

    def __eq__(self, other):
        return isinstance(other, RSAPrivateNumbers) and (
            self.p, self.q, self.d, self.dmp1, self.dmq1, self.iqmp, self.public_numbers
        ) == (other.p, other.q, other.d, other.dmp1, other.dmq1, other.iqmp, other.public_numbers)

    def __hash__(self):
        return hash((self.p, self.q, self.d))


class RSAPublicKey:
    """An RSA public key (pyca's ``RSAPublicKey`` methods)."""

    __slots__ = ("_key",)

    def __init__(self, core):
        if not isinstance(core, _redc.PublicKey):
            raise TypeError("use load_pem_public_key, load_der_public_key or public_key()")
        self._key = core

    @property
    def key_size(self):
        """The modulus size in bits."""
        return self._key.key_size

    def verify(self, signature, data, padding, algorithm):
        """Verifies ``signature`` over ``data``; raises ``InvalidSignature``."""
        signature = _bytes(signature, "signature")
        data = _bytes(data, "data")
        name, prehashed = _resolve(algorithm)
        kind, mgf, salt = _signature_args(padding, self.key_size, name, algorithm.digest_size, False)
        _sig_call(self._key.verify, signature, data, kind, name, mgf, salt, prehashed)

    def encrypt(self, plaintext, padding):
        """Encrypts ``plaintext`` (OAEP or PKCS#1 v1.5)."""
        plaintext = _bytes(plaintext, "plaintext")
        kind, h, mgf, label = _encryption_args(padding)
        return self._key.encrypt(plaintext, kind, h, mgf, label)

    def public_bytes(self, encoding, format):
        """The key as PEM or DER, SubjectPublicKeyInfo or PKCS1."""
        enc = serialization._encoding(encoding)
        fmt = serialization._public_format(format)
        if enc == "PEM":
            return self._key.to_pem(fmt).encode()
        return self._key.to_der(fmt)

    def public_numbers(self):
        """``RSAPublicNumbers(e, n)``."""
        n, e = self._key.numbers()
        return RSAPublicNumbers(int.from_bytes(e, "big"), int.from_bytes(n, "big"))

    def recover_data_from_signature(self, signature, padding, algorithm):
        raise NotImplementedError("redc does not recover data from signatures")

    def __eq__(self, other):
        if not hasattr(other, "public_numbers"):
            return NotImplemented
        theirs = other.public_numbers()
        return (self.public_numbers().e, self.public_numbers().n) == (theirs.e, theirs.n)

    def __hash__(self):
        return hash(self.public_numbers())

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


class RSAPrivateKey:
    """An RSA private key of 2 to 5 primes (pyca's ``RSAPrivateKey`` methods, and the batch
    calls ``sign_many`` and ``decrypt_many``)."""

    __slots__ = ("_key",)

    def __init__(self, core):
        if not isinstance(core, _redc.PrivateKey):
            raise TypeError("use generate_private_key or the load_* functions")
        self._key = core

    @property
    def key_size(self):
        """The modulus size in bits."""
        return self._key.key_size

    @property
    def primes(self):
        """The number of primes (2 to 5)."""
        return self._key.primes

    def public_key(self):
        """The public half."""
        return RSAPublicKey(self._key.public_key())

    def sign(self, data, padding, algorithm):
        """Signs ``data`` (hashed with ``algorithm``, or already hashed with ``Prehashed``)."""
        data = _bytes(data, "data")
        name, prehashed = _resolve(algorithm)
        kind, mgf, salt = _signature_args(padding, self.key_size, name, algorithm.digest_size, True)
        return self._key.sign(data, kind, name, mgf, salt, prehashed)

    def sign_many(self, messages, padding, algorithm):
        """Signs every message of ``messages`` in one batch; a list of signatures, each the one
        ``sign`` gives (side by side on CPUs with AVX-512 IFMA)."""
        msgs = [_bytes(m, "each message") for m in messages]
        name, prehashed = _resolve(algorithm)
        kind, mgf, salt = _signature_args(padding, self.key_size, name, algorithm.digest_size, True)
        return self._key.sign_many(msgs, kind, name, mgf, salt, prehashed)

    def decrypt(self, ciphertext, padding):
        """Decrypts ``ciphertext``; ``ValueError`` for any failure (one error for all causes)."""
        ciphertext = _bytes(ciphertext, "ciphertext")
        kind, h, mgf, label = _encryption_args(padding)
        return self._key.decrypt(ciphertext, kind, h, mgf, label)

    def decrypt_many(self, ciphertexts, padding):
        """Decrypts every ciphertext in one batch; a list of plaintexts."""
        cts = [_bytes(c, "each ciphertext") for c in ciphertexts]
        kind, h, mgf, label = _encryption_args(padding)
        return self._key.decrypt_many(cts, kind, h, mgf, label)

    def private_bytes(self, encoding, format, encryption_algorithm):
        """The key as PEM or DER, PKCS8 or TraditionalOpenSSL (PKCS#1), unencrypted."""
        enc = serialization._encoding(encoding)
        fmt = serialization._private_format(format)
        serialization._no_encryption(encryption_algorithm)
        if enc == "PEM":
            return self._key.to_pem(fmt).encode()
        return self._key.to_der(fmt)

    def private_numbers(self):
        """``RSAPrivateNumbers`` (p, q, d, dmp1, dmq1, iqmp, public numbers; ``other_primes``
        for keys of more than two primes)."""
        n, e, d, primes, exps, coeffs = self._key.numbers()
        i = lambda b: int.from_bytes(b, "big")  # noqa: E731
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

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


def generate_private_key(public_exponent, key_size, primes=2, backend=None):
    """A new key of ``key_size`` bits (1024 to 16384) and ``primes`` primes (2 to 5, as the
    size allows), with the odd ``public_exponent`` (65537 unless you need another)."""
    if not isinstance(key_size, int) or isinstance(key_size, bool):
        raise TypeError("key_size must be an int")
    if not isinstance(primes, int) or isinstance(primes, bool):
        raise TypeError("primes must be an int")
    e = _int_bytes(public_exponent, "public_exponent")
    return RSAPrivateKey(_redc.generate(e, key_size, primes))


def _load(data, loader, pem, password):
    if password is not None:
        raise TypeError("redc reads unencrypted keys only: password must be None")
    return loader(_bytes(data, "data"), pem)


def load_pem_private_key(data, password=None, backend=None, *, unsafe_skip_rsa_key_validation=False):
    """A private key from PEM (PKCS#1 or PKCS#8, detected); ``ValueError`` names the fault."""
    return RSAPrivateKey(_load(data, _redc.load_private, True, password))


def load_der_private_key(data, password=None, backend=None, *, unsafe_skip_rsa_key_validation=False):
    """A private key from DER (PKCS#1 or PKCS#8, detected)."""
    return RSAPrivateKey(_load(data, _redc.load_private, False, password))


def load_pem_public_key(data, backend=None):
    """A public key from PEM (SubjectPublicKeyInfo or PKCS#1, detected)."""
    return RSAPublicKey(_redc.load_public(_bytes(data, "data"), True))


def load_der_public_key(data, backend=None):
    """A public key from DER (SubjectPublicKeyInfo or PKCS#1, detected)."""
    return RSAPublicKey(_redc.load_public(_bytes(data, "data"), False))


def backend():
    """The backend redc's private operations run on here: "portable", "mulx" or "ifma"."""
    return _redc.backend()


def _register_with_pyca():
    """Registers redc's key classes as virtual subclasses of pyca's, as pyca registers its own."""
    try:
        from cryptography.hazmat.primitives.asymmetric import rsa
    except ImportError:  # pragma: no cover
        return False
    rsa.RSAPrivateKey.register(RSAPrivateKey)
    rsa.RSAPublicKey.register(RSAPublicKey)
    return True


_register_with_pyca()
