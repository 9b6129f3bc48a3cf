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


# The review against stock PyJWT: key length, hashes, ssh-rsa keys, JWKs, foreign key types.

import base64
import warnings

from cryptography.hazmat.primitives.asymmetric import ec
from jwt.algorithms import RSAAlgorithm, RSAPSSAlgorithm


@pytest.fixture(scope="module")
def small_keys():
    mine = redc.generate_private_key(65537, 1024)
    theirs = prsa.generate_private_key(65537, 1024)
    return mine, theirs


def stock_alg(name):
    return stock().get_algorithm_by_name(name)


@pytest.mark.skipif(not hasattr(jwt.algorithms.Algorithm, "check_key_length"), reason="this PyJWT has no check_key_length")
@pytest.mark.parametrize("alg", ["RS256", "PS384"])
def test_short_keys_warn_and_are_refused_as_stock_pyjwt_does(registered, small_keys, alg):
    from jwt.warnings import InsecureKeyLengthWarning

    mine, theirs = small_keys
    mine_pem = mine.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    for key in (mine, theirs, mine_pem):
        # encode: stock PyJWT's warning, with its message.
        with pytest.warns(InsecureKeyLengthWarning) as w:
            token = jwt.encode({"a": 1}, key, algorithm=alg)
        with pytest.warns(InsecureKeyLengthWarning) as w_stock:
            stock().encode(b"{}", theirs, algorithm=alg)
        assert str(w[0].message) == str(w_stock[0].message)
        pub = key.public_key() if hasattr(key, "public_key") else mine.public_key()
        # decode with enforce_minimum_key_length: InvalidKeyError.
        with pytest.raises(jwt.InvalidKeyError, match="1024 bits long"):
            jwt.decode(token, pub, algorithms=[alg], options={"enforce_minimum_key_length": True})
        with pytest.warns(InsecureKeyLengthWarning):
            assert jwt.decode(token, pub, algorithms=[alg]) == {"a": 1}
    # encode with the option set on the PyJWS: InvalidKeyError, as stock.
    strict = redc.jwt.register(jwt.PyJWS(options={"enforce_minimum_key_length": True}))
    for key in (mine, theirs):
        with pytest.raises(jwt.InvalidKeyError):
            strict.encode(b"{}", key, algorithm=alg)
    with pytest.raises(jwt.InvalidKeyError):
        jwt.PyJWS(options={"enforce_minimum_key_length": True}).encode(b"{}", theirs, algorithm=alg)


def test_check_key_length_is_stock_pyjwts(keys, small_keys):
    alg = redc.jwt.ALGORITHMS["RS256"]
    for key in small_keys + tuple(k.public_key() for k in small_keys):
        assert alg.check_key_length(key) == stock_alg("RS256").check_key_length(small_keys[1])
    assert alg.check_key_length(keys[0]) is None and alg.check_key_length(keys[0].public_key()) is None
    # 2048 bits: no warning.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        jwt.decode(jwt.encode({}, keys[0], algorithm="RS256"), keys[2], algorithms=["RS256"])


@pytest.mark.parametrize("alg", ALGS)
def test_compute_hash_digest_is_stock_pyjwts(registered, alg):
    mine = registered.get_algorithm_by_name(alg)
    assert isinstance(mine, redc.jwt.RedcRSAAlgorithm)
    for data in (b"x", b"", b"a longer message" * 100):
        assert mine.compute_hash_digest(data) == stock_alg(alg).compute_hash_digest(data)
    assert mine.hash_alg is stock_alg(alg).hash_alg


@pytest.fixture(scope="module")
def ssh_key():
    k = prsa.generate_private_key(65537, 2048)
    line = k.public_key().public_bytes(ps.Encoding.OpenSSH, ps.PublicFormat.OpenSSH) + b" user@host\n"
    return k, line


def test_ssh_rsa_public_keys_are_accepted(registered, ssh_key):
    k, line = ssh_key
    alg = registered.get_algorithm_by_name("RS256")
    for key in (line, line.decode(), line.rstrip(), line.split(b" user")[0]):
        mine = alg.prepare_key(key)
        assert isinstance(mine, redc.RSAPublicKey)
        assert mine.public_numbers() == stock_alg("RS256").prepare_key(key).public_numbers()
    token = stock().encode(b"{}", k, algorithm="PS256")
    assert jwt.api_jws.decode(token, line, algorithms=["PS256"]) == b"{}"
    # redc's own reader of the format (used without pyca) gives the same key.
    assert redc.jwt._ssh_rsa_public_key(line).public_numbers() == k.public_key().public_numbers()


def _ssh_line(*fields, kind=b"ssh-rsa"):
    blob = b"".join(len(f).to_bytes(4, "big") + f for f in fields)
    return kind + b" " + base64.b64encode(blob)


def test_bad_ssh_keys_are_invalid_key_errors_as_in_stock_pyjwt(registered, ssh_key):
    _, line = ssh_key
    blob = base64.b64decode(line.split()[1])
    e = (65537).to_bytes(3, "big")
    n = b"\x00" + b"\xc5" * 256
    bad = [
        b"ssh-rsa",
        b"ssh-rsa AAAA",
        b"ssh-rsa !!!!",
        b"ssh-rsa " + base64.b64encode(blob[:-1]),
        b"ssh-rsa " + base64.b64encode(blob + b"\x00"),
        _ssh_line(b"ssh-dss", e, n),
        _ssh_line(b"ssh-rsa", e, n[1:]),  # a negative n (mpint with the high bit set)
        _ssh_line(b"ssh-rsa", e),
        _ssh_line(b"ssh-ed25519", b"\x01" * 32, kind=b"ssh-rsa"),
    ]
    alg = registered.get_algorithm_by_name("RS256")
    for data in bad:
        with pytest.raises(jwt.InvalidKeyError):
            stock_alg("RS256").prepare_key(data)
        with pytest.raises(jwt.InvalidKeyError):
            alg.prepare_key(data)
        with pytest.raises(ValueError):
            redc.jwt._ssh_rsa_public_key(data)
    # An even n: pyca reads it; redc validates the key, and refuses it.
    with pytest.raises(jwt.InvalidKeyError, match="even"):
        alg.prepare_key(_ssh_line(b"ssh-rsa", e, b"\x00" + b"\xc4" * 256))


def test_jwk_with_d_but_no_primes_recovers_them(registered, keys):
    key = keys[0]
    alg = registered.get_algorithm_by_name("RS256")
    full = alg.to_jwk(key, as_dict=True)
    bare = {name: full[name] for name in ("kty", "n", "e", "d")}
    mine = alg.from_jwk(bare)
    assert isinstance(mine, redc.RSAPrivateKey)
    assert mine.private_numbers() == stock_alg("RS256").from_jwk(bare).private_numbers()
    assert mine.private_numbers().public_numbers == key.private_numbers().public_numbers
    assert mine.private_numbers().d == key.private_numbers().d
    # redc's own recovery (used without pyca) gives pyca's answer.
    n = key.private_numbers()
    assert redc.jwt._recover_prime_factors(n.public_numbers.n, n.public_numbers.e, n.d) == prsa.rsa_recover_prime_factors(
        n.public_numbers.n, n.public_numbers.e, n.d
    )
    for n_, e_, d_ in ((n.public_numbers.n, 65537, n.d + 2), (n.public_numbers.n, 65537, 1), (35, 5, 0)):
        with pytest.raises(ValueError):
            redc.jwt._recover_prime_factors(n_, e_, d_)
        with pytest.raises(ValueError):
            prsa.rsa_recover_prime_factors(n_, e_, d_)
    with pytest.raises(ValueError):
        alg.from_jwk({**bare, "d": full["e"]})


@pytest.mark.parametrize(
    "jwk",
    [
        "{not json",
        "[1, 2]",
        b"\xff",
        42,
        {"kty": "EC", "n": "AQAB", "e": "AQAB"},
        {"kty": "RSA", "e": "AQAB"},
        {"kty": "RSA", "e": "AQAB", "d": "AQAB"},
        {"kty": "RSA", "n": "AQAB"},
    ],
)
def test_bad_jwks_are_invalid_key_errors(registered, jwk):
    with pytest.raises(jwt.InvalidKeyError):
        registered.get_algorithm_by_name("RS256").from_jwk(jwk)


def test_jwk_with_some_crt_parameters_is_refused_as_stock(registered, keys):
    full = redc.jwt.RedcRSAAlgorithm.to_jwk(keys[0], as_dict=True)
    partial = {k: v for k, v in full.items() if k != "qi"}
    for alg in (stock_alg("RS256"), registered.get_algorithm_by_name("RS256")):
        with pytest.raises(jwt.InvalidKeyError, match="all parameters"):
            alg.from_jwk(partial)


def test_to_jwk_takes_pyca_keys_as_stock_does(registered):
    k = prsa.generate_private_key(65537, 2048)
    alg = registered.get_algorithm_by_name("RS256")
    for key in (k, k.public_key()):
        assert alg.to_jwk(key, as_dict=True) == stock_alg("RS256").to_jwk(key, as_dict=True)
        assert json.loads(alg.to_jwk(key)) == stock_alg("RS256").to_jwk(key, as_dict=True)
    eck = ec.generate_private_key(ec.SECP256R1())
    for bad in (eck, eck.public_key(), b"pem", None):
        with pytest.raises(jwt.InvalidKeyError):
            alg.to_jwk(bad)


def test_multi_prime_keys_write_and_read_oth(registered):
    key = redc.generate_private_key(65537, 2048, primes=3)
    alg = registered.get_algorithm_by_name("RS256")
    jwk = alg.to_jwk(key, as_dict=True)
    ((r, d, t),) = key.private_numbers().other_primes
    assert jwk["oth"] == [{"r": redc.jwt._b64(r), "d": redc.jwt._b64(d), "t": redc.jwt._b64(t)}]
    back = alg.from_jwk(json.dumps(jwk))
    assert back.primes == 3 and back.private_numbers() == key.private_numbers()
    # Stock PyJWT refuses such a JWK clearly (it has no multi-prime keys).
    with pytest.raises(jwt.InvalidKeyError, match="> 2 primes"):
        stock_alg("RS256").from_jwk(jwk)
    # A wrong t in oth is a ValueError of the key's validation; a malformed oth, InvalidKeyError.
    with pytest.raises(ValueError):
        alg.from_jwk({**jwk, "oth": [{"r": jwk["oth"][0]["r"], "d": jwk["oth"][0]["d"], "t": "AQ"}]})
    for oth in ([], [{"r": "AQ"}], "x"):
        with pytest.raises(jwt.InvalidKeyError):
            alg.from_jwk({**jwk, "oth": oth})
    with pytest.raises(jwt.InvalidKeyError):
        alg.from_jwk({k: v for k, v in jwk.items() if k not in ("p", "q", "dp", "dq", "qi")})


@pytest.mark.parametrize("alg", ["RS256", "PS256"])
def test_ec_keys_raise_what_stock_pyjwt_raises(registered, alg):
    eck = ec.generate_private_key(ec.SECP256R1())
    ec_pem = eck.private_bytes(ps.Encoding.PEM, ps.PrivateFormat.PKCS8, ps.NoEncryption())
    ec_pub_pem = eck.public_key().public_bytes(ps.Encoding.PEM, ps.PublicFormat.SubjectPublicKeyInfo)
    for key, exc in ((eck, TypeError), (eck.public_key(), TypeError), (ec_pem, jwt.InvalidKeyError)):
        with pytest.raises(exc):
            stock().encode(b"{}", key, algorithm=alg)
        with pytest.raises(exc):
            jwt.api_jws.encode(b"{}", key, algorithm=alg)
    token = stock().encode(b"{}", prsa.generate_private_key(65537, 2048), algorithm=alg)
    for key, exc in ((eck.public_key(), TypeError), (ec_pub_pem, jwt.InvalidKeyError)):
        with pytest.raises(exc):
            stock().decode(token, key, algorithms=[alg])
        with pytest.raises(exc):
            jwt.api_jws.decode(token, key, algorithms=[alg])
    assert isinstance(stock_alg(alg), (RSAAlgorithm, RSAPSSAlgorithm))
