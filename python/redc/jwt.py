"""PyJWT on redc: ``register()`` makes RS256/384/512 and PS256/384/512 sign and verify through
redc in PyJWT's default instance (``register(jws)`` for a given ``jwt.PyJWS``)::

    import jwt, redc.jwt
    redc.jwt.register()
    token = jwt.encode({"sub": "me"}, private_pem, algorithm="RS256")
    claims = jwt.decode(token, public_pem, algorithms=["RS256"])

Keys may be PEM bytes or text, redc key objects, or pyca key objects (converted once per use).
Tokens are the standard ones: they decode with stock PyJWT and the reverse.
"""

import base64
import json

import jwt as _pyjwt
from jwt.algorithms import Algorithm
from jwt.exceptions import InvalidKeyError

from . import (
    RSAPrivateKey,
    RSAPrivateNumbers,
    RSAPublicKey,
    RSAPublicNumbers,
    hashes,
    load_der_private_key,
    load_der_public_key,
    load_pem_private_key,
    load_pem_public_key,
    padding,
    serialization,
)

__all__ = ["RedcRSAAlgorithm", "ALGORITHMS", "register"]

_HASHES = {256: hashes.SHA256, 384: hashes.SHA384, 512: hashes.SHA512}


def _b64(n):
    raw = n.to_bytes(max(1, (n.bit_length() + 7) // 8), "big")
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _unb64(s):
    return int.from_bytes(base64.urlsafe_b64decode(s + "=" * (-len(s) % 4)), "big")


class RedcRSAAlgorithm(Algorithm):
    """A PyJWT algorithm whose signatures redc computes: PKCS#1 v1.5 (RS*) or PSS with a salt
    as long as the hash (PS*)."""

    def __init__(self, bits, pss):
        self.hash_alg = _HASHES[bits]
        self.pss = pss

    def _padding(self):
        if self.pss:
            return padding.PSS(mgf=padding.MGF1(self.hash_alg()), salt_length=self.hash_alg.digest_size)
        return padding.PKCS1v15()

    def prepare_key(self, key):
        if isinstance(key, (RSAPrivateKey, RSAPublicKey)):
            return key
        # pyca key objects: through their DER.
        if hasattr(key, "private_bytes") and hasattr(key, "private_numbers"):
            der = key.private_bytes(
                _pyca_enum("Encoding", "DER"), _pyca_enum("PrivateFormat", "PKCS8"), _pyca_no_encryption()
            )
            return load_der_private_key(der)
        if hasattr(key, "public_bytes") and hasattr(key, "public_numbers"):
            der = key.public_bytes(_pyca_enum("Encoding", "DER"), _pyca_enum("PublicFormat", "SubjectPublicKeyInfo"))
            return load_der_public_key(der)
        if isinstance(key, str):
            key = key.encode()
        if not isinstance(key, (bytes, bytearray)):
            raise TypeError("expected a PEM key (bytes or str) or an RSA key object")
        key = bytes(key)
        try:
            if b"PRIVATE KEY" in key:
                return load_pem_private_key(key)
            return load_pem_public_key(key)
        except ValueError as e:
            raise InvalidKeyError(f"not an RSA key redc can read: {e}") from e

    def sign(self, msg, key):
        if not isinstance(key, RSAPrivateKey):
            raise TypeError("signing needs a private key")
        return key.sign(msg, self._padding(), self.hash_alg())

    def verify(self, msg, key, sig):
        if isinstance(key, RSAPrivateKey):
            key = key.public_key()
        try:
            key.verify(sig, msg, self._padding(), self.hash_alg())
            return True
        except Exception:  # InvalidSignature, or a signature of the wrong length
            return False

    @staticmethod
    def to_jwk(key_obj, as_dict=False):
        if isinstance(key_obj, RSAPrivateKey):
            pn = key_obj.private_numbers()
            obj = {
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
        elif isinstance(key_obj, RSAPublicKey):
            pn = key_obj.public_numbers()
            obj = {"kty": "RSA", "key_ops": ["verify"], "n": _b64(pn.n), "e": _b64(pn.e)}
        else:
            raise InvalidKeyError("not a redc RSA key")
        return obj if as_dict else json.dumps(obj)

    @staticmethod
    def from_jwk(jwk):
        obj = json.loads(jwk) if isinstance(jwk, str) else jwk
        if not isinstance(obj, dict) or obj.get("kty") != "RSA":
            raise InvalidKeyError("not an RSA JWK")
        public = RSAPublicNumbers(_unb64(obj["e"]), _unb64(obj["n"]))
        if "d" not in obj:
            return public.public_key()
        if "oth" in obj:
            raise InvalidKeyError("multi-prime JWKs are not supported")
        try:
            numbers = RSAPrivateNumbers(
                _unb64(obj["p"]),
                _unb64(obj["q"]),
                _unb64(obj["d"]),
                _unb64(obj["dp"]),
                _unb64(obj["dq"]),
                _unb64(obj["qi"]),
                public,
            )
        except KeyError as e:
            raise InvalidKeyError(f"JWK lacks {e}") from e
        return numbers.private_key()


def _pyca_enum(cls, name):
    from cryptography.hazmat.primitives import serialization as s

    return getattr(getattr(s, cls), name)


def _pyca_no_encryption():
    from cryptography.hazmat.primitives import serialization as s

    return s.NoEncryption()


ALGORITHMS = {
    "RS256": RedcRSAAlgorithm(256, False),
    "RS384": RedcRSAAlgorithm(384, False),
    "RS512": RedcRSAAlgorithm(512, False),
    "PS256": RedcRSAAlgorithm(256, True),
    "PS384": RedcRSAAlgorithm(384, True),
    "PS512": RedcRSAAlgorithm(512, True),
}


def register(jws=None):
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


# serialization is imported for users who want redc's enums beside this module.
_ = serialization
