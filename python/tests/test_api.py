"""redc's pyca-shaped API: round trips, interchange with pyca both ways, pyca's own padding and
hash objects, isinstance against pyca, the X.509 builder signing with a redc key, batches, bad
input, threads."""

import math
import threading

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes as ph
from cryptography.hazmat.primitives import serialization as ps
from cryptography.hazmat.primitives.asymmetric import padding as pp
from cryptography.hazmat.primitives.asymmetric import rsa as prsa
from cryptography.hazmat.primitives.asymmetric import utils as putils
from cryptography.x509.oid import NameOID

import redc
from redc import hashes, padding, serialization


@pytest.fixture(scope="module")
def key():
    return redc.generate_private_key(public_exponent=65537, key_size=2048)


@pytest.fixture(scope="module")
def pyca_key():
    return prsa.generate_private_key(public_exponent=65537, key_size=2048)


PADDINGS = [
    lambda h: padding.PKCS1v15(),
    lambda h: padding.PSS(mgf=padding.MGF1(h), salt_length=padding.PSS.MAX_LENGTH),
    lambda h: padding.PSS(mgf=padding.MGF1(h), salt_length=padding.PSS.DIGEST_LENGTH),
    lambda h: padding.PSS(mgf=padding.MGF1(h), salt_length=0),
]
PYCA_PADDINGS = [
    lambda h: pp.PKCS1v15(),
    lambda h: pp.PSS(mgf=pp.MGF1(h), salt_length=pp.PSS.MAX_LENGTH),
    lambda h: pp.PSS(mgf=pp.MGF1(h), salt_length=pp.PSS.DIGEST_LENGTH),
    lambda h: pp.PSS(mgf=pp.MGF1(h), salt_length=0),
]
VERIFY_AUTO = lambda h: pp.PSS(mgf=pp.MGF1(h), salt_length=pp.PSS.AUTO)  # noqa: E731


@pytest.mark.parametrize("hname", ["SHA1", "SHA224", "SHA256", "SHA384", "SHA512"])
@pytest.mark.parametrize("i", range(4))
def test_signatures_cross_both_ways(key, pyca_key, hname, i):
    h, ph_ = getattr(hashes, hname)(), getattr(ph, hname)()
    msg = b"signed by one, verified by the other"
    pub_der = key.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    theirs_pub = ps.load_der_public_key(pub_der)
    # redc signs, pyca verifies.
    sig = key.sign(msg, PADDINGS[i](h), h)
    theirs_pub.verify(sig, msg, PYCA_PADDINGS[i](ph_) if i != 1 else VERIFY_AUTO(ph_), ph_)
    # pyca signs, redc verifies (with pyca's objects and with redc's).
    mine_pub = redc.load_der_public_key(
        pyca_key.public_key().public_bytes(ps.Encoding.DER, ps.PublicFormat.SubjectPublicKeyInfo)
    )
    sig = pyca_key.sign(msg, PYCA_PADDINGS[i](ph_), ph_)
    mine_pub.verify(sig, msg, PYCA_PADDINGS[i](ph_) if i != 1 else VERIFY_AUTO(ph_), ph_)
    mine_pub.verify(sig, msg, PADDINGS[i](h) if i != 1 else padding.PSS(padding.MGF1(h), padding.PSS.AUTO), h)
    with pytest.raises(redc.InvalidSignature):
        mine_pub.verify(sig, msg + b"!", PYCA_PADDINGS[0](ph_) if i == 0 else VERIFY_AUTO(ph_), ph_)


def test_pkcs1v15_signatures_are_pycas_bytes(key):
    der = key.private_bytes(serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    theirs = ps.load_der_private_key(der, None)
    for h, ph_ in [(hashes.SHA256(), ph.SHA256()), (hashes.SHA512(), ph.SHA512())]:
        assert key.sign(b"m", padding.PKCS1v15(), h) == theirs.sign(b"m", pp.PKCS1v15(), ph_)


def test_prehashed(key):
    digest = ph.Hash(ph.SHA256())
    digest.update(b"m")
    d = digest.finalize()
    sig = key.sign(d, pp.PKCS1v15(), putils.Prehashed(ph.SHA256()))
    key.public_key().verify(sig, b"m", padding.PKCS1v15(), hashes.SHA256())
    key.public_key().verify(sig, d, padding.PKCS1v15(), hashes.Prehashed(hashes.SHA256()))


@pytest.mark.parametrize("alg,mgf", [("SHA1", "SHA1"), ("SHA256", "SHA256"), ("SHA512", "SHA1"), ("SHA256", "SHA384")])
@pytest.mark.parametrize("label", [None, b"", b"a label"])
def test_oaep_crosses_both_ways(key, pyca_key, alg, mgf, label):
    mine = padding.OAEP(mgf=padding.MGF1(getattr(hashes, mgf)()), algorithm=getattr(hashes, alg)(), label=label)
    theirs = pp.OAEP(mgf=pp.MGF1(getattr(ph, mgf)()), algorithm=getattr(ph, alg)(), label=label)
    der = key.private_bytes(serialization.Encoding.DER, serialization.PrivateFormat.TraditionalOpenSSL, serialization.NoEncryption())
    their_copy = ps.load_der_private_key(der, None)
    # pyca encrypts, redc decrypts; redc encrypts, pyca decrypts.
    ct = their_copy.public_key().encrypt(b"secret", theirs)
    assert key.decrypt(ct, mine) == b"secret"
    assert key.decrypt(ct, theirs) == b"secret"
    ct = key.public_key().encrypt(b"secret", mine)
    assert their_copy.decrypt(ct, theirs) == b"secret"
    # pyca's key read into redc.
    mine_key = redc.load_pem_private_key(
        pyca_key.private_bytes(ps.Encoding.PEM, ps.PrivateFormat.PKCS8, ps.NoEncryption())
    )
    ct = pyca_key.public_key().encrypt(b"x", theirs)
    assert mine_key.decrypt(ct, mine) == b"x"


def test_pkcs1v15_encryption_crosses(key):
    der = key.private_bytes(serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    theirs = ps.load_der_private_key(der, None)
    ct = theirs.public_key().encrypt(b"legacy", pp.PKCS1v15())
    assert key.decrypt(ct, padding.PKCS1v15()) == b"legacy"
    assert theirs.decrypt(key.public_key().encrypt(b"legacy", padding.PKCS1v15()), pp.PKCS1v15()) == b"legacy"
    with pytest.raises(ValueError):
        key.decrypt(b"\x00" * 256, padding.PKCS1v15())


@pytest.mark.parametrize("enc", ["PEM", "DER"])
@pytest.mark.parametrize("fmt", ["PKCS8", "TraditionalOpenSSL"])
def test_private_serialization_round_trips(key, enc, fmt):
    data = key.private_bytes(getattr(serialization.Encoding, enc), getattr(serialization.PrivateFormat, fmt), serialization.NoEncryption())
    data2 = key.private_bytes(getattr(ps.Encoding, enc), getattr(ps.PrivateFormat, fmt), ps.NoEncryption())
    assert data == data2
    load = redc.load_pem_private_key if enc == "PEM" else redc.load_der_private_key
    pload = ps.load_pem_private_key if enc == "PEM" else ps.load_der_private_key
    assert load(data).private_numbers() == key.private_numbers()
    theirs = pload(data, None)
    assert theirs.private_numbers().d == key.private_numbers().d
    # And pyca's bytes back into redc.
    back = theirs.private_bytes(getattr(ps.Encoding, enc), getattr(ps.PrivateFormat, fmt), ps.NoEncryption())
    assert load(back).private_numbers().iqmp == key.private_numbers().iqmp


@pytest.mark.parametrize("enc", ["PEM", "DER"])
@pytest.mark.parametrize("fmt", ["SubjectPublicKeyInfo", "PKCS1"])
def test_public_serialization_round_trips(key, enc, fmt):
    pub = key.public_key()
    data = pub.public_bytes(getattr(serialization.Encoding, enc), getattr(serialization.PublicFormat, fmt))
    assert data == pub.public_bytes(getattr(ps.Encoding, enc), getattr(ps.PublicFormat, fmt))
    load = redc.load_pem_public_key if enc == "PEM" else redc.load_der_public_key
    pload = ps.load_pem_public_key if enc == "PEM" else ps.load_der_public_key
    assert load(data) == pub
    assert pload(data).public_numbers().n == pub.public_numbers().n


def test_numbers(key):
    n = key.private_numbers()
    assert n.p * n.q == n.public_numbers.n
    assert n.dmp1 == n.d % (n.p - 1) and n.dmq1 == n.d % (n.q - 1)
    assert (n.iqmp * n.q) % n.p == 1
    assert n.private_key().private_numbers() == n
    assert key.public_key().public_numbers() == n.public_numbers
    assert key.key_size == 2048 and key.public_key().key_size == 2048
    bad = redc.RSAPrivateNumbers(n.p, n.q, n.d, n.dmp1, n.dmq1, n.iqmp + 1, n.public_numbers)
    with pytest.raises(ValueError):
        bad.private_key()
    # pyca's public numbers are taken too, as redc's.
    theirs = prsa.RSAPublicNumbers(n.public_numbers.e, n.public_numbers.n)
    mixed = redc.RSAPrivateNumbers(n.p, n.q, n.d, n.dmp1, n.dmq1, n.iqmp, theirs)
    assert type(mixed.public_numbers) is redc.RSAPublicNumbers and mixed.public_numbers == theirs
    assert mixed == n and mixed.private_key().private_numbers() == n


def test_numbers_with_an_exponent_of_one_modulo_p_less_one_are_refused(key):
    # e = p gives d mod (p - 1) = 1: signing is the identity mod p and gcd(s - m, n) = p.
    # Every other relation of the key holds, so only that check refuses it.
    n = key.private_numbers()
    p, q, e = n.p, n.q, n.p
    lam = (p - 1) * (q - 1) // math.gcd(p - 1, q - 1)
    d = pow(e, -1, lam)
    weak = redc.RSAPrivateNumbers(
        p, q, d, d % (p - 1), d % (q - 1), pow(q, -1, p), redc.RSAPublicNumbers(e, p * q)
    )
    assert weak.dmp1 == 1
    with pytest.raises(ValueError, match="one signature reveals p"):
        weak.private_key()


def test_multi_prime_keys():
    k = redc.generate_private_key(65537, 2048, primes=3)
    assert k.primes == 3
    sig = k.sign(b"m", padding.PKCS1v15(), hashes.SHA256())
    k.public_key().verify(sig, b"m", padding.PKCS1v15(), hashes.SHA256())
    assert len(k.private_numbers().other_primes) == 1
    pem = k.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL, serialization.NoEncryption())
    assert redc.load_pem_private_key(pem).primes == 3
    with pytest.raises(ValueError):
        redc.generate_private_key(65537, 2048, primes=5)


def test_pyca_isinstance_and_x509_builder(key):
    assert isinstance(key, prsa.RSAPrivateKey)
    assert isinstance(key.public_key(), prsa.RSAPublicKey)
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "redc test")])
    import datetime

    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now)
        .not_valid_after(now + datetime.timedelta(days=1))
        .sign(key, ph.SHA256())
    )
    # The certificate's signature verifies with the key (through pyca).
    cert.public_key().verify(cert.signature, cert.tbs_certificate_bytes, pp.PKCS1v15(), ph.SHA256())
    assert cert.public_key().public_numbers().n == key.public_numbers().n if hasattr(key, "public_numbers") else True


def test_sign_many_and_decrypt_many(key):
    msgs = [bytes([i]) * (i + 1) for i in range(11)]
    for pad in (padding.PKCS1v15(), padding.PSS(padding.MGF1(hashes.SHA256()), padding.PSS.DIGEST_LENGTH)):
        sigs = key.sign_many(msgs, pad, hashes.SHA256())
        assert len(sigs) == len(msgs)
        for m, s in zip(msgs, sigs):
            key.public_key().verify(s, m, pad, hashes.SHA256())
    assert key.sign_many(msgs, padding.PKCS1v15(), hashes.SHA256())[3] == key.sign(msgs[3], padding.PKCS1v15(), hashes.SHA256())
    oaep = padding.OAEP(padding.MGF1(hashes.SHA256()), hashes.SHA256(), None)
    cts = [key.public_key().encrypt(m, oaep) for m in msgs]
    assert key.decrypt_many(cts, oaep) == msgs
    assert key.decrypt_many([], oaep) == []


def test_bad_inputs_raise_python_exceptions(key):
    pub = key.public_key()
    with pytest.raises(TypeError):
        key.sign("text", padding.PKCS1v15(), hashes.SHA256())
    with pytest.raises(TypeError):
        key.sign(b"m", "PKCS1v15", hashes.SHA256())
    with pytest.raises(TypeError):
        key.sign(b"m", padding.PKCS1v15(), hashes.SHA256)  # the class, not an instance
    with pytest.raises(TypeError):
        key.sign(b"m", padding.PKCS1v15, hashes.SHA256())
    with pytest.raises(redc.UnsupportedAlgorithm):
        key.sign(b"m", padding.OAEP(padding.MGF1(hashes.SHA1()), hashes.SHA1(), None), hashes.SHA256())
    with pytest.raises(redc.UnsupportedAlgorithm):
        key.sign(b"m", ph.SHA256() and padding.PKCS1v15(), ph.MD5())
    with pytest.raises(redc.InvalidSignature):
        pub.verify(b"\x01" * 10, b"m", padding.PKCS1v15(), hashes.SHA256())
    with pytest.raises(redc.InvalidSignature):
        pub.verify(b"\xff" * 256, b"m", padding.PKCS1v15(), hashes.SHA256())
    with pytest.raises(ValueError):
        pub.encrypt(b"x" * 300, padding.OAEP(padding.MGF1(hashes.SHA256()), hashes.SHA256(), None))
    with pytest.raises(ValueError):
        key.decrypt(b"x" * 255, padding.OAEP(padding.MGF1(hashes.SHA256()), hashes.SHA256(), None))
    with pytest.raises(ValueError):
        key.decrypt(b"\xff" * 256, padding.PKCS1v15())
    with pytest.raises(TypeError):
        key.decrypt(12345, padding.PKCS1v15())
    with pytest.raises(ValueError):
        redc.generate_private_key(public_exponent=2**10000 + 1, key_size=2048)
    with pytest.raises(ValueError):
        redc.generate_private_key(public_exponent=4, key_size=2048)
    with pytest.raises(ValueError):
        redc.generate_private_key(public_exponent=65537, key_size=100)
    with pytest.raises(TypeError):
        redc.generate_private_key(public_exponent=65537, key_size="2048")
    with pytest.raises(ValueError):
        redc.generate_private_key(public_exponent=-3, key_size=2048)
    with pytest.raises(ValueError):
        redc.load_pem_private_key(b"not a key")
    with pytest.raises(ValueError):
        redc.load_der_public_key(b"\x30\x03\x02\x01\x05")
    with pytest.raises(TypeError):
        redc.load_pem_private_key("a str")
    with pytest.raises(ValueError):  # as pyca: not a key, whatever the password
        redc.load_pem_private_key(b"x", password=b"secret")
    with pytest.raises(ValueError):
        redc.RSAPublicNumbers(65537, 2**4096).public_key()  # an even modulus
    with pytest.raises(ValueError):
        redc.RSAPublicNumbers(65537, 2**20000 + 1).public_key()  # beyond 16384 bits
    with pytest.raises(ValueError):
        redc.RSAPublicNumbers(2, 2**2047 + 1).public_key()  # e = 2
    with pytest.raises(ValueError):  # redc encrypts PKCS8 only
        key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL, ps.BestAvailableEncryption(b"pw")
        )
    with pytest.raises(ValueError):
        key.private_bytes(ps.Encoding.OpenSSH, ps.PrivateFormat.PKCS8, ps.NoEncryption())
    with pytest.raises(TypeError):
        redc.RSAPrivateKey(object())


def test_threads_share_a_key(key):
    # The GIL is released during private operations; many threads sign at once, correctly.
    out, errors = {}, []

    def work(i):
        try:
            m = b"thread %d" % i
            s = key.sign(m, padding.PKCS1v15(), hashes.SHA256())
            key.public_key().verify(s, m, padding.PKCS1v15(), hashes.SHA256())
            out[i] = s
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(out) == 16


# The review against pyca: exception types, signatures and numbers as pyca's.


def test_unsupported_algorithm_is_pycas_class():
    from cryptography.exceptions import UnsupportedAlgorithm

    assert redc.UnsupportedAlgorithm is UnsupportedAlgorithm
    assert redc.InvalidSignature is __import__("cryptography.exceptions").exceptions.InvalidSignature


def test_prehashed_digest_of_the_wrong_length_is_a_value_error(key, pyca_key):
    for k in (key, pyca_key):  # pyca side by side: the same exception
        short = b"\x01" * 31
        for pad in (pp.PKCS1v15(), pp.PSS(pp.MGF1(ph.SHA256()), 32)):
            with pytest.raises(ValueError, match="digest size"):
                k.sign(short, pad, putils.Prehashed(ph.SHA256()))
            with pytest.raises(ValueError, match="digest size"):
                k.public_key().verify(b"\x00" * 256, short, pad, putils.Prehashed(ph.SHA256()))
    with pytest.raises(ValueError, match="digest size"):
        key.public_key().verify(b"\x00" * 256, b"x" * 33, padding.PKCS1v15(), hashes.Prehashed(hashes.SHA256()))
    with pytest.raises(ValueError, match="digest size"):
        key.sign_many([b"x" * 32, b"x" * 5], padding.PKCS1v15(), hashes.Prehashed(hashes.SHA256()))


@pytest.mark.parametrize("who", ["pyca", "redc"])
def test_wrong_padding_or_hash_is_unsupported_algorithm(key, pyca_key, who):
    from cryptography.exceptions import UnsupportedAlgorithm

    k = pyca_key if who == "pyca" else key
    pub = k.public_key()
    oaep = pp.OAEP(pp.MGF1(ph.SHA256()), ph.SHA256(), None)
    pss = pp.PSS(pp.MGF1(ph.SHA256()), 32)
    with pytest.raises(UnsupportedAlgorithm):
        k.sign(b"m", oaep, ph.SHA256())
    with pytest.raises(UnsupportedAlgorithm):
        pub.verify(b"\x00" * 256, b"m", oaep, ph.SHA256())
    with pytest.raises(UnsupportedAlgorithm):
        pub.encrypt(b"m", pss)
    with pytest.raises(UnsupportedAlgorithm):
        k.decrypt(b"\x00" * 256, pss)
    for h in (ph.BLAKE2b(64), ph.BLAKE2s(32), ph.SHAKE128(16)):
        with pytest.raises(UnsupportedAlgorithm):
            k.sign(b"m", pp.PKCS1v15(), h)
        with pytest.raises(UnsupportedAlgorithm):
            pub.verify(b"\x00" * 256, b"m", pp.PKCS1v15(), h)
    with pytest.raises(UnsupportedAlgorithm):
        pub.encrypt(b"m", pp.OAEP(pp.MGF1(ph.SHA256()), ph.SHA3_256(), None))


def test_hashes_pyca_signs_with_and_redc_lacks_are_unsupported_algorithm(key, pyca_key):
    # pyca signs with MD5, SHA-3 and SM3; redc's Rust library has none of them: pyca's
    # exception for an unsupported hash, not a ValueError.
    for h in (ph.MD5(), ph.SHA3_256(), ph.SHA3_512(), ph.SM3()):
        pyca_key.sign(b"m", pp.PKCS1v15(), h)
        with pytest.raises(redc.UnsupportedAlgorithm):
            key.sign(b"m", pp.PKCS1v15(), h)
        with pytest.raises(redc.UnsupportedAlgorithm):
            key.public_key().verify(b"\x00" * 256, b"m", pp.PKCS1v15(), h)


@pytest.mark.parametrize("name", ["SHA512_224", "SHA512_256"])
def test_sha512_t_hashes_cross_with_pyca(key, name):
    theirs = ps.load_der_private_key(
        key.private_bytes(ps.Encoding.DER, ps.PrivateFormat.PKCS8, ps.NoEncryption()), None
    )
    mine_h, their_h = getattr(hashes, name)(), getattr(ph, name)()
    assert mine_h.name == their_h.name and mine_h.digest_size == their_h.digest_size
    assert key.sign(b"m", padding.PKCS1v15(), mine_h) == theirs.sign(b"m", pp.PKCS1v15(), their_h)
    sig = key.sign(b"m", pp.PSS(pp.MGF1(their_h), pp.PSS.DIGEST_LENGTH), their_h)
    theirs.public_key().verify(sig, b"m", pp.PSS(pp.MGF1(their_h), pp.PSS.AUTO), their_h)


def test_private_bytes_without_an_encryption_algorithm_is_a_type_error(key, pyca_key):
    for k in (pyca_key, key):
        for bad in (None, "none", ps.NoEncryption):
            with pytest.raises(TypeError):
                k.private_bytes(ps.Encoding.PEM, ps.PrivateFormat.PKCS8, bad)
    # pyca's encryption_builder() choices are ValueErrors (redc writes BestAvailableEncryption only).
    with pytest.raises(ValueError):
        key.private_bytes(
            ps.Encoding.PEM, ps.PrivateFormat.PKCS8, ps.PrivateFormat.PKCS8.encryption_builder().build(b"pw")
        )


@pytest.mark.parametrize("size", [-1, 0, 512, 1023])
def test_generate_with_a_negative_or_small_size_is_a_value_error(size):
    with pytest.raises(ValueError):
        prsa.generate_private_key(65537, size)
    with pytest.raises(ValueError):
        redc.generate_private_key(65537, size)


def test_generate_takes_pycas_positional_backend():
    from cryptography.hazmat.backends import default_backend

    k = redc.generate_private_key(65537, 1024, default_backend())
    assert k.key_size == 1024 and k.primes == 2
    assert redc.generate_private_key(65537, 1024, None, primes=3).primes == 3
    with pytest.raises(TypeError):  # primes is keyword-only
        redc.generate_private_key(65537, 1024, None, 3)


@pytest.mark.parametrize("constant", ["MAX_LENGTH", "DIGEST_LENGTH", "AUTO"])
def test_redc_pss_takes_pycas_salt_constants(key, constant):
    salt = getattr(pp.PSS, constant)
    pss = padding.PSS(mgf=padding.MGF1(hashes.SHA256()), salt_length=salt)
    if constant != "AUTO":
        sig = key.sign(b"m", pss, hashes.SHA256())
    else:
        sig = key.sign(b"m", padding.PSS(padding.MGF1(hashes.SHA256()), padding.PSS.MAX_LENGTH), hashes.SHA256())
        with pytest.raises(ValueError):
            key.sign(b"m", pss, hashes.SHA256())
    key.public_key().verify(sig, b"m", pss if constant != "DIGEST_LENGTH" else padding.PSS(padding.MGF1(hashes.SHA256()), padding.PSS.AUTO), hashes.SHA256())
    with pytest.raises(TypeError):
        padding.PSS(mgf=padding.MGF1(hashes.SHA256()), salt_length=type(salt))  # the class, not the constant


@pytest.mark.parametrize("salt", [223, 1000, 2**31 - 1, 2**31, 2**40, 2**63 - 1, 2**63, 2**64 - 1, 2**64, 2**100])
def test_huge_pss_salt_lengths_raise_what_pyca_raises(key, pyca_key, salt):
    def outcome(fn):
        try:
            fn()
        except Exception as e:  # noqa: BLE001 - the type is what is compared
            return type(e)
        return None

    mine_sig = key.sign(b"m", padding.PSS(padding.MGF1(hashes.SHA256()), 32), hashes.SHA256())
    their_sig = pyca_key.sign(b"m", pp.PSS(pp.MGF1(ph.SHA256()), 32), ph.SHA256())
    theirs_pss = pp.PSS(pp.MGF1(ph.SHA256()), salt)
    theirs_v = outcome(lambda: pyca_key.public_key().verify(their_sig, b"m", theirs_pss, ph.SHA256()))
    theirs_s = outcome(lambda: pyca_key.sign(b"m", theirs_pss, ph.SHA256()))
    assert theirs_v in (redc.InvalidSignature, OverflowError) and theirs_s in (ValueError, OverflowError)
    for mine_pss in (theirs_pss, padding.PSS(padding.MGF1(hashes.SHA256()), salt)):
        assert outcome(lambda: key.public_key().verify(mine_sig, b"m", mine_pss, ph.SHA256())) is theirs_v
        assert outcome(lambda: key.sign(b"m", mine_pss, ph.SHA256())) is theirs_s


def test_other_primes_crt_values_are_validated():
    k = redc.generate_private_key(65537, 2048, primes=3)
    n = k.private_numbers()
    assert len(n.other_primes) == 1
    assert n.private_key().private_numbers() == n

    def with_others(others):
        return redc.RSAPrivateNumbers(n.p, n.q, n.d, n.dmp1, n.dmq1, n.iqmp, n.public_numbers, others)

    ((r3, d3, t3),) = n.other_primes
    assert with_others([[r3, d3, t3]]).private_key().primes == 3  # lists do too
    for bad in ([(r3, d3 + 1, t3)], [(r3, d3 + r3 - 1, t3)], [(r3, d3, t3 + 1)], [(r3, d3, t3 + r3)], [(r3, d3, 0)]):
        with pytest.raises(ValueError):
            with_others(bad).private_key()
    for bad in ([(r3, d3)], [(r3, d3, "t")], [5]):
        with pytest.raises(TypeError):
            with_others(bad)


def test_encrypted_der_and_password_handling_match_pyca(key):
    plain_der = key.private_bytes(ps.Encoding.DER, ps.PrivateFormat.PKCS8, ps.NoEncryption())
    plain_pem = key.private_bytes(ps.Encoding.PEM, ps.PrivateFormat.PKCS8, ps.NoEncryption())
    theirs = ps.load_der_private_key(plain_der, None)
    enc_der = theirs.private_bytes(ps.Encoding.DER, ps.PrivateFormat.PKCS8, ps.BestAvailableEncryption(b"pw"))
    msg = "^Password was not given but private key is encrypted"
    with pytest.raises(TypeError, match=msg):
        ps.load_der_private_key(enc_der, None)
    with pytest.raises(TypeError, match=msg) as e:
        redc.load_der_private_key(enc_der)
    assert "pass its password" in str(e.value)
    # With the password it loads; a wrong one is pyca's ValueError, word for word.
    assert redc.load_der_private_key(enc_der, b"pw").private_numbers() == key.private_numbers()
    assert redc.load_der_private_key(enc_der, bytearray(b"pw")).private_numbers() == key.private_numbers()
    with pytest.raises(ValueError) as wrong_theirs:
        ps.load_der_private_key(enc_der, b"pW")
    with pytest.raises(ValueError) as wrong_mine:
        redc.load_der_private_key(enc_der, b"pW")
    assert str(wrong_mine.value) == str(wrong_theirs.value)
    with pytest.raises(TypeError):
        redc.load_der_private_key(enc_der, "pw")  # a str, as pyca: bytes-like only
    # A password for a key that is not encrypted: pyca's TypeError.
    given = "^Password was given but private key is not encrypted"
    for load, data in ((ps.load_pem_private_key, plain_pem), (redc.load_pem_private_key, plain_pem),
                       (ps.load_der_private_key, plain_der), (redc.load_der_private_key, plain_der)):
        with pytest.raises(TypeError, match=given):
            load(data, b"pw")


@pytest.mark.parametrize("junk", [b"\xff\xfe\x80 binary \x00\n", b"Bag Attributes\n  friendlyName: \xe9t\xe9\n"])
def test_pem_with_non_utf8_bytes_around_the_block(key, junk):
    priv = key.private_bytes(ps.Encoding.PEM, ps.PrivateFormat.TraditionalOpenSSL, ps.NoEncryption())
    pub = key.public_key().public_bytes(ps.Encoding.PEM, ps.PublicFormat.SubjectPublicKeyInfo)
    for data in (junk + priv, priv + junk, junk + priv + junk):
        assert ps.load_pem_private_key(data, None).private_numbers().d == key.private_numbers().d
        assert redc.load_pem_private_key(data).private_numbers() == key.private_numbers()
    for data in (junk + pub, pub + junk):
        assert redc.load_pem_public_key(data) == key.public_key()
    # A block of another kind first (a certificate, say) is skipped, as pyca skips it.
    other = b"-----BEGIN CERTIFICATE-----\nMAA=\n-----END CERTIFICATE-----\n"
    assert redc.load_pem_private_key(junk + other + priv).private_numbers() == key.private_numbers()
    assert redc.load_pem_public_key(other + junk + pub) == key.public_key()
    with pytest.raises(ValueError):
        redc.load_pem_private_key(junk + other)


def test_numbers_equal_pycas_numbers(key):
    mine_pub = key.public_key().public_numbers()
    theirs_pub = prsa.RSAPublicNumbers(mine_pub.e, mine_pub.n)
    assert mine_pub == theirs_pub and theirs_pub == mine_pub
    assert not (mine_pub != theirs_pub)
    assert hash(mine_pub) == hash(theirs_pub)
    assert len({mine_pub, theirs_pub}) == 1
    assert mine_pub != prsa.RSAPublicNumbers(mine_pub.e, mine_pub.n + 2)
    assert mine_pub != (mine_pub.e, mine_pub.n)
    mine = key.private_numbers()
    theirs = ps.load_der_private_key(
        key.private_bytes(ps.Encoding.DER, ps.PrivateFormat.PKCS8, ps.NoEncryption()), None
    ).private_numbers()
    assert mine == theirs and theirs == mine and hash(mine) == hash(theirs)
    assert mine.public_numbers == theirs.public_numbers
    # pyca's numbers build redc keys, and redc's public numbers are accepted by pyca's.
    assert redc.RSAPrivateNumbers(
        theirs.p, theirs.q, theirs.d, theirs.dmp1, theirs.dmq1, theirs.iqmp, theirs.public_numbers
    ).private_key().private_numbers() == mine
    three = redc.generate_private_key(65537, 2048, primes=3).private_numbers()
    assert three != theirs and three == three.private_key().private_numbers()
    assert hash(three) == hash(three.private_key().private_numbers())


@pytest.mark.parametrize("salt", [2**31, 2**63, 2**64 - 34, 2**64 - 1])
def test_core_verify_maps_salts_near_usize_max_to_invalid_signature(key, salt):
    # The Python layer stops salts above 2**31 - 1 (pyca's OverflowError); the core below it
    # still answers InvalidSignature for them, with no panic.
    sig = key.sign(b"m", padding.PSS(padding.MGF1(hashes.SHA256()), 32), hashes.SHA256())
    core = key.public_key()._key
    core.verify(sig, b"m", "pss", "sha256", "sha256", 32, False)
    with pytest.raises(redc._redc.InvalidSignature):
        core.verify(sig, b"m", "pss", "sha256", "sha256", salt, False)


@pytest.mark.parametrize("enc", ["PEM", "DER"])
def test_encrypted_private_bytes_cross_with_pyca(key, enc):
    # redc writes encrypted PKCS8 with its own BestAvailableEncryption or pyca's; pyca reads it.
    for algorithm in (serialization.BestAvailableEncryption(b"s3cret"), ps.BestAvailableEncryption(b"s3cret")):
        data = key.private_bytes(getattr(serialization.Encoding, enc), serialization.PrivateFormat.PKCS8, algorithm)
        if enc == "PEM":
            assert data.startswith(b"-----BEGIN ENCRYPTED PRIVATE KEY-----\n")
        load = getattr(ps, f"load_{enc.lower()}_private_key")
        assert load(data, b"s3cret").private_numbers() == key.private_numbers()
        mine = getattr(redc, f"load_{enc.lower()}_private_key")(data, b"s3cret")
        assert mine.private_numbers() == key.private_numbers()
    # pyca writes one, redc reads it.
    theirs = ps.load_der_private_key(
        key.private_bytes(ps.Encoding.DER, ps.PrivateFormat.PKCS8, ps.NoEncryption()), None
    )
    data = theirs.private_bytes(getattr(ps.Encoding, enc), ps.PrivateFormat.PKCS8, ps.BestAvailableEncryption(b"s3cret"))
    mine = getattr(redc, f"load_{enc.lower()}_private_key")(data, b"s3cret")
    assert mine.private_numbers() == key.private_numbers()
    # DER traditional with encryption: refused, as redc encrypts PKCS8 only.
    with pytest.raises(ValueError):
        key.private_bytes(
            getattr(serialization.Encoding, enc),
            serialization.PrivateFormat.TraditionalOpenSSL,
            serialization.BestAvailableEncryption(b"s3cret"),
        )


@pytest.mark.parametrize("bad", [b"", "text", None, 5])
def test_best_available_encryption_needs_a_non_empty_bytes_password(bad):
    with pytest.raises(ValueError):
        ps.BestAvailableEncryption(bad)
    with pytest.raises(ValueError):
        serialization.BestAvailableEncryption(bad)
