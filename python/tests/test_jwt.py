"""PyJWT with redc: RS256/384/512 and PS256/384/512 registered in PyJWT's default instance (and
a given one), keys as PEM, redc objects or pyca objects; tokens decode with stock PyJWT on pyca
and the reverse."""

import json

import jwt
import pytest
from cryptography.hazmat.primitives import serialization as ps
from cryptography.hazmat.primitives.asymmetric import rsa as prsa

import redc
import redc.jwt
from redc import serialization

ALGS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512"]


@pytest.fixture(scope="module")
def keys():
    key = redc.generate_private_key(65537, 2048)
    priv_pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    pub_pem = key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    return key, priv_pem, pub_pem


@pytest.fixture(scope="module")
def registered():
    return redc.jwt.register()


def stock():
    """A PyJWS with PyJWT's own (pyca) algorithms."""
    return jwt.PyJWS()


@pytest.mark.parametrize("alg", ALGS)
def test_default_instance_signs_through_redc(keys, registered, alg):
    key, priv_pem, pub_pem = keys
    assert isinstance(registered.get_algorithm_by_name(alg), redc.jwt.RedcRSAAlgorithm)
    payload = {"sub": "redc", "n": 1}
    for signing_key in (priv_pem, priv_pem.decode(), key):
        token = jwt.encode(payload, signing_key, algorithm=alg)
        # Decodes through redc and through stock PyJWT on pyca.
        assert jwt.decode(token, pub_pem, algorithms=[alg]) == payload
        assert jwt.decode(token, key.public_key(), algorithms=[alg]) == payload
        claims = stock().decode(token, ps.load_pem_public_key(pub_pem), algorithms=[alg])
        assert json.loads(claims) == payload
    if alg.startswith("RS"):
        # PKCS#1 v1.5 is deterministic: the same token as stock PyJWT's.
        theirs = stock().encode(b'{"a":1}', ps.load_pem_private_key(priv_pem, None), algorithm=alg)
        assert jwt.api_jws.encode(b'{"a":1}', priv_pem, algorithm=alg) == theirs


@pytest.mark.parametrize("alg", ALGS)
def test_stock_tokens_decode_through_redc(keys, registered, alg):
    key, priv_pem, pub_pem = keys
    token = stock().encode(json.dumps({"iss": "stock"}).encode(), ps.load_pem_private_key(priv_pem, None), algorithm=alg)
    assert jwt.decode(token, pub_pem, algorithms=[alg]) == {"iss": "stock"}
    tampered = token[:-4] + ("AAAA" if not token.endswith("AAAA") else "BBBB")
    with pytest.raises(jwt.InvalidSignatureError):
        jwt.decode(tampered, pub_pem, algorithms=[alg])


def test_pyca_key_objects_are_accepted(registered):
    pyca_key = prsa.generate_private_key(65537, 2048)
    token = jwt.encode({"x": 1}, pyca_key, algorithm="PS256")
    assert jwt.decode(token, pyca_key.public_key(), algorithms=["PS256"]) == {"x": 1}


def test_stock_pyjwt_takes_a_redc_key_object_directly(keys):
    # PyJWT's own RSAAlgorithm (pyca-based) checks isinstance against pyca's classes: redc's
    # keys are registered virtual subclasses, and sign/verify are redc's.
    key, priv_pem, pub_pem = keys
    for alg in ALGS:
        token = stock().encode(b"{}", key, algorithm=alg)
        assert stock().decode(token, key.public_key(), algorithms=[alg]) == b"{}"


def test_register_on_a_given_instance_and_jwk(keys):
    key, priv_pem, pub_pem = keys
    jws = redc.jwt.register(jwt.PyJWS())
    token = jws.encode(b"payload", priv_pem, algorithm="RS512")
    assert jws.decode(token, pub_pem, algorithms=["RS512"]) == b"payload"
    alg = jws.get_algorithm_by_name("RS256")
    jwk = alg.to_jwk(key)
    again = alg.from_jwk(jwk)
    assert again.private_numbers() == key.private_numbers()
    assert alg.from_jwk(alg.to_jwk(key.public_key())) == key.public_key()
    with pytest.raises(jwt.InvalidKeyError):
        alg.prepare_key(b"-----BEGIN PUBLIC KEY-----\nnope\n-----END PUBLIC KEY-----\n")
