"""pyca's RSA vectors (``cryptography-vectors``) against redc: exact PKCS#1 v1.5 signatures,
PSS verification, the FIPS 186-2/186-3 SigGen and SigVer families, OAEP (incl. the custom-hash
set and labels) and PKCS#1 v1.5 decryption, and the key-serialization corpus."""

import os

import cryptography_vectors
import pytest

import redc
from redc import hashes, padding

from vectors import load_nist_vectors, load_rsa_labs_vectors

HASHES = {
    "sha1": hashes.SHA1,
    "sha224": hashes.SHA224,
    "sha256": hashes.SHA256,
    "sha384": hashes.SHA384,
    "sha512": hashes.SHA512,
}


def private_key(k):
    return redc.RSAPrivateNumbers(
        k["p"], k["q"], k["d"], k["dmp1"], k["dmq1"], k["iqmp"], redc.RSAPublicNumbers(k["e"], k["n"])
    ).private_key()


def public_key(n, e):
    return redc.RSAPublicNumbers(e, n).public_key()


def test_pkcs1v15_signatures_are_exact():
    vectors = load_rsa_labs_vectors("asymmetric/RSA/pkcs1v15sign-vectors.txt")
    assert len(vectors) == 300
    keys = {}
    for v in vectors:
        n = v["key"]["n"]
        if n not in keys:
            keys[n] = private_key(v["key"])
        key = keys[n]
        sig = key.sign(v["message"], padding.PKCS1v15(), hashes.SHA1())
        assert sig == v["output"]
        key.public_key().verify(sig, v["message"], padding.PKCS1v15(), hashes.SHA1())
    assert len(keys) == 15


@pytest.mark.parametrize("salt", [20, padding.PSS.AUTO, padding.PSS.MAX_LENGTH])
def test_pss_vectors_verify(salt):
    vectors = load_rsa_labs_vectors("asymmetric/RSA/pkcs-1v2-1d2-vec/pss-vect.txt")
    assert len(vectors) == 60
    for v in vectors:
        k = v["key"]
        pub = public_key(k["n"], k["e"])
        pss = padding.PSS(mgf=padding.MGF1(hashes.SHA1()), salt_length=salt)
        if salt == 20 or type(salt).__name__ == "_Auto":
            pub.verify(v["output"], v["message"], pss, hashes.SHA1())
        # A changed message fails.
        with pytest.raises(redc.InvalidSignature):
            pub.verify(v["output"], v["message"] + b"x", pss, hashes.SHA1())


def test_pss_vectors_sign_and_verify_with_the_vector_keys():
    vectors = load_rsa_labs_vectors("asymmetric/RSA/pkcs-1v2-1d2-vec/pss-vect.txt")
    for v in vectors[::6]:
        key = private_key(v["key"])
        pss = padding.PSS(mgf=padding.MGF1(hashes.SHA1()), salt_length=20)
        sig = key.sign(v["message"], pss, hashes.SHA1())
        key.public_key().verify(sig, v["message"], pss, hashes.SHA1())


def _nist(path, pss):
    records = load_nist_vectors(path)
    assert records, path
    counts = {"P": 0, "F": 0}
    for r in records:
        h = HASHES[r["hash"]]()
        if pss:
            pad = padding.PSS(mgf=padding.MGF1(h), salt_length=len(r.get("salt", b"")) or padding.PSS.AUTO)
        else:
            pad = padding.PKCS1v15()
        expected = r.get("result", "P")
        try:
            pub = public_key(r["n"], r["e"])
            pub.verify(r["s"], r["msg"], pad, h)
            ok = True
        except (redc.InvalidSignature, ValueError):
            ok = False
        assert ok == (expected == "P"), (path, r["hash"], r["n"] % 1000, expected)
        counts[expected] += 1
    return counts


def test_fips_186_2_siggen15():
    counts = _nist("asymmetric/RSA/FIPS_186-2/SigGen15_186-2.txt", False)
    assert counts["P"] > 50


def test_fips_186_3_sigver15():
    counts = _nist("asymmetric/RSA/FIPS_186-2/SigVer15_186-3.rsp", False)
    assert counts["P"] > 50 and counts["F"] > 50


def test_fips_186_2_siggen_pss():
    counts = _nist("asymmetric/RSA/FIPS_186-2/SigGenPSS_186-2.txt", True)
    assert counts["P"] > 50


def test_fips_186_3_sigver_pss():
    counts = _nist("asymmetric/RSA/FIPS_186-2/SigVerPSS_186-3.rsp", True)
    assert counts["P"] > 50 and counts["F"] > 50


def test_oaep_vectors_decrypt():
    vectors = load_rsa_labs_vectors("asymmetric/RSA/pkcs-1v2-1d2-vec/oaep-vect.txt")
    assert len(vectors) == 60
    for v in vectors:
        key = private_key(v["key"])
        oaep = padding.OAEP(mgf=padding.MGF1(hashes.SHA1()), algorithm=hashes.SHA1(), label=None)
        assert key.decrypt(v["output"], oaep) == v["message"]


def _custom_files():
    root = os.path.dirname(cryptography_vectors.__file__)
    names = sorted(os.listdir(os.path.join(root, "asymmetric/RSA/oaep-custom")))
    return [n for n in names if n.startswith("oaep-") and n.endswith(".txt")]


@pytest.mark.parametrize("name", _custom_files())
def test_oaep_custom_hashes(name):
    mgf_name, alg_name = name[len("oaep-") : -len(".txt")].split("-")
    vectors = load_rsa_labs_vectors("asymmetric/RSA/oaep-custom/" + name)
    assert vectors
    keys = {}
    for v in vectors:
        n = v["key"]["n"]
        if n not in keys:
            keys[n] = private_key(v["key"])
        oaep = padding.OAEP(mgf=padding.MGF1(HASHES[mgf_name]()), algorithm=HASHES[alg_name](), label=None)
        assert keys[n].decrypt(v["output"], oaep) == v["message"]


def test_oaep_label_vectors():
    # BoringSSL's vectors in pyca's set: a PKCS#8 DER key, OAEP with SHA-512 and a label.
    records, cur = [], {}
    with cryptography_vectors.open_vector_file("asymmetric/RSA/oaep-label.txt", "r") as f:
        for line in f:
            if "=" not in line or line.lstrip().startswith("#"):
                continue
            k, v = (x.strip() for x in line.split("=", 1))
            cur[k] = v
            if k == "Output":
                records.append(cur)
                cur = {}
    assert records
    for r in records:
        key = redc.load_der_private_key(bytes.fromhex(r["KEY"]))
        h = HASHES[r["OAEPDigest"].lower()]()
        oaep = padding.OAEP(mgf=padding.MGF1(h), algorithm=h, label=bytes.fromhex(r["OAEPLabel"]))
        out = r["Output"]
        want = out[1:-1].encode() if out.startswith('"') else bytes.fromhex(out)
        assert key.decrypt(bytes.fromhex(r["Input"]), oaep) == want


def test_oaep_label_round_trip():
    key = redc.generate_private_key(65537, 2048)
    for h in (hashes.SHA1(), hashes.SHA256(), hashes.SHA512()):
        oaep = padding.OAEP(mgf=padding.MGF1(h), algorithm=h, label=b"a label")
        ct = key.public_key().encrypt(b"secret", oaep)
        assert key.decrypt(ct, oaep) == b"secret"
        other = padding.OAEP(mgf=padding.MGF1(h), algorithm=h, label=b"another")
        with pytest.raises(ValueError):
            key.decrypt(ct, other)


def test_pkcs1v15_decryption_vectors():
    vectors = load_rsa_labs_vectors("asymmetric/RSA/pkcs1v15crypt-vectors.txt")
    assert len(vectors) >= 100
    keys = {}
    for v in vectors:
        n = v["key"]["n"]
        if n not in keys:
            keys[n] = private_key(v["key"])
        assert keys[n].decrypt(v["output"], padding.PKCS1v15()) == v["message"]


def _vector_bytes(path):
    with cryptography_vectors.open_vector_file(path, "rb") as f:
        return f.read()


@pytest.mark.parametrize(
    "path,loader",
    [
        ("asymmetric/PKCS8/unenc-rsa-pkcs8.pem", redc.load_pem_private_key),
        ("asymmetric/PEM_Serialization/rsa_public_key.pem", redc.load_pem_public_key),
        ("asymmetric/DER_Serialization/unenc-rsa-pkcs8.der", redc.load_der_private_key),
        ("asymmetric/DER_Serialization/testrsa.der", redc.load_der_private_key),
        ("asymmetric/DER_Serialization/rsa_public_key.der", redc.load_der_public_key),
        ("asymmetric/DER_Serialization/unenc-rsa-pkcs8.pub.der", redc.load_der_public_key),
        ("asymmetric/public/PKCS1/rsa.pub.pem", redc.load_pem_public_key),
        ("asymmetric/public/PKCS1/rsa.pub.der", redc.load_der_public_key),
    ],
)
def test_key_corpus_loads(path, loader):
    key = loader(_vector_bytes(path))
    assert key.key_size >= 512
    # And the key round-trips through pyca both ways.
    from cryptography.hazmat.primitives import serialization as ps

    if isinstance(key, redc.RSAPrivateKey):
        der = key.private_bytes(ps.Encoding.DER, ps.PrivateFormat.PKCS8, ps.NoEncryption())
        theirs = ps.load_der_private_key(der, None)
        assert theirs.private_numbers().d == key.private_numbers().d
    else:
        der = key.public_bytes(ps.Encoding.DER, ps.PublicFormat.SubjectPublicKeyInfo)
        assert ps.load_der_public_key(der).public_numbers().n == key.public_numbers().n


@pytest.mark.parametrize(
    "path",
    [
        "asymmetric/Traditional_OpenSSL_Serialization/key1-malformed-dek-info.pem",
        "asymmetric/Traditional_OpenSSL_Serialization/key1-no-dek-info.pem",
        "asymmetric/Traditional_OpenSSL_Serialization/dsa.1024.pem",
        "asymmetric/Traditional_OpenSSL_Serialization/dsa-wrong-version.pem",
        "asymmetric/PEM_Serialization/rsa-bad-1025-q-is-2.pem",
        "asymmetric/PEM_Serialization/ec_private_key.pem",
    ],
)
def test_malformed_or_foreign_keys_are_refused(path):
    with pytest.raises(ValueError) as e:
        redc.load_pem_private_key(_vector_bytes(path))
    assert str(e.value)


TRADITIONAL_ENCRYPTED = [
    "asymmetric/Traditional_OpenSSL_Serialization/key1-malformed-iv.pem",
    "asymmetric/Traditional_OpenSSL_Serialization/key1-short-iv.pem",
    "asymmetric/Traditional_OpenSSL_Serialization/key1.pem",
    "asymmetric/Traditional_OpenSSL_Serialization/key2.pem",
    "asymmetric/PEM_Serialization/rsa_private_key.pem",
    "asymmetric/PEM_Serialization/dsa_private_key.pem",
]
PKCS8_ENCRYPTED = ["asymmetric/PKCS8/enc-rsa-pkcs8.pem", "asymmetric/PKCS8/rsa-aes-192-cbc.pem"]


@pytest.mark.parametrize("path", TRADITIONAL_ENCRYPTED + PKCS8_ENCRYPTED)
def test_encrypted_keys_without_a_password_raise_pycas_type_error(path):
    # pyca: TypeError("Password was not given but private key is encrypted"); redc's message
    # then says which kind of encryption it is, and how to decrypt it.
    data = _vector_bytes(path)
    from cryptography.hazmat.primitives import serialization as ps

    with pytest.raises(TypeError, match="^Password was not given but private key is encrypted"):
        ps.load_pem_private_key(data, None)
    with pytest.raises(TypeError, match="^Password was not given but private key is encrypted") as e:
        redc.load_pem_private_key(data)
    if path in TRADITIONAL_ENCRYPTED:
        assert "Proc-Type: 4,ENCRYPTED" in str(e.value) and "pass its password" in str(e.value)
        assert "ENCRYPTED PRIVATE KEY" not in str(e.value) and "pkcs8" not in str(e.value)
    else:
        assert "ENCRYPTED PRIVATE KEY" in str(e.value) and "pass its password" in str(e.value)


@pytest.mark.parametrize(
    "path",
    [
        "asymmetric/Traditional_OpenSSL_Serialization/key1-malformed-iv.pem",
        "asymmetric/Traditional_OpenSSL_Serialization/key1-short-iv.pem",
        "asymmetric/PEM_Serialization/dsa_private_key.pem",
    ],
)
def test_traditional_encrypted_pem_redc_cannot_use_is_a_value_error(path):
    # A malformed IV (pyca: ValueError too), or a DSA key (pyca loads it; redc is RSA only).
    with pytest.raises(ValueError):
        redc.load_pem_private_key(_vector_bytes(path), b"123456")


# pyca's encrypted RSA keys in every scheme redc decrypts, and their passwords: OpenSSL's
# traditional PEM encryption, PKCS#8's PBES2 with PBKDF2 or scrypt and AES-CBC or 3DES-CBC, and
# PKCS#8 with PKCS#12's SHA-1 and 3DES scheme (the pkcs12_s2k keys, from tests of PKCS#12's key
# derivation: ten 8-byte salts at 2,048 iterations; the long-salt key's is 20 bytes). The
# schemes redc does not decrypt are the next test's.
ENCRYPTED_RSA = [
    ("asymmetric/Traditional_OpenSSL_Serialization/key1.pem", b"123456"),  # DES-EDE3-CBC
    ("asymmetric/Traditional_OpenSSL_Serialization/key2.pem", b"a123456"),  # AES-128-CBC
    ("asymmetric/PEM_Serialization/rsa_private_key.pem", b"123456"),
    ("asymmetric/PKCS8/enc-rsa-3des.pem", b"password"),
    ("asymmetric/PKCS8/rsa-aes-192-cbc.pem", b"PolarSSLTest"),
    ("asymmetric/PKCS8/rsa_pkcs8_pbes2_pbkdf2_2048_3des_sha224.pem", b"PolarSSLTest"),
    ("asymmetric/PKCS8/rsa_pkcs8_pbes2_pbkdf2_2048_3des_sha384.pem", b"PolarSSLTest"),
    ("asymmetric/PKCS8/rsa_pkcs8_pbes2_pbkdf2_2048_3des_sha512.pem", b"PolarSSLTest"),
    ("asymmetric/PKCS8/enc-rsa-pkcs8.pem", b"foobar"),
    ("asymmetric/PKCS8/rsa-pbe-3des-long-salt.pem", b"password"),
] + [
    (f"asymmetric/PKCS8/pkcs12_s2k_pem-X_{n}.pem", b"123456")
    for n in (9607, 9671, 9925, 9926, 9927, 9928, 9929, 9930, 9931, 9932)
]


@pytest.mark.parametrize("path,password", ENCRYPTED_RSA)
def test_encrypted_vectors_decrypt_as_in_pyca(path, password):
    from cryptography.hazmat.primitives import serialization as ps

    data = _vector_bytes(path)
    theirs = ps.load_pem_private_key(data, password)
    mine = redc.load_pem_private_key(data, password)
    assert mine.private_numbers() == theirs.private_numbers()
    with pytest.raises(ValueError) as wrong_theirs:
        ps.load_pem_private_key(data, b"wrong password")
    with pytest.raises(ValueError) as wrong_mine:
        redc.load_pem_private_key(data, b"wrong password")
    assert str(wrong_mine.value) == str(wrong_theirs.value)


@pytest.mark.parametrize(
    "path",
    [
        "asymmetric/PKCS8/enc-unknown-algorithm.pem",
        "asymmetric/PKCS8/enc-unknown-kdf.pem",
        "asymmetric/PKCS8/enc-unknown-pbkdf2-prf.pem",
        "asymmetric/PKCS8/bad-encryption-oid.pem",
        "asymmetric/PKCS8/rsa-40bitrc2.pem",
        "asymmetric/PKCS8/rsa-pbewithmd5anddescbc.pem",
    ],
)
def test_encrypted_pkcs8_with_unknown_or_old_schemes_is_a_value_error(path):
    from cryptography.hazmat.primitives import serialization as ps

    data = _vector_bytes(path)
    with pytest.raises(ValueError):
        ps.load_pem_private_key(data, b"password")
    with pytest.raises(ValueError, match="encryption scheme is not supported"):
        redc.load_pem_private_key(data, b"password")


@pytest.mark.parametrize(
    "path",
    [
        "asymmetric/Traditional_OpenSSL_Serialization/key1-malformed-dek-info.pem",
        "asymmetric/Traditional_OpenSSL_Serialization/key1-no-dek-info.pem",
    ],
)
def test_encrypted_pem_with_a_bad_dek_info_is_a_value_error_as_in_pyca(path):
    from cryptography.hazmat.primitives import serialization as ps

    data = _vector_bytes(path)
    with pytest.raises(ValueError) as theirs:
        ps.load_pem_private_key(data, None)
    with pytest.raises(ValueError) as mine:
        redc.load_pem_private_key(data)
    assert str(mine.value) == str(theirs.value)
