"""The installed package's types, as a user's type checker sees them: ``mypy --strict`` over a
program that uses redc as the README does (redc's and pyca's paddings, hashes and
serialization names, the batch calls, the signing service, PyJWT) finds nothing, reveals the
types the methods document, and reports the mistakes a checker should catch."""

import os
import sys
import textwrap

import pytest

mypy_api = pytest.importorskip("mypy.api")


def _mypy(tmp_path, source=None):
    """mypy --strict on ``source`` (a program in its own directory, so that only the installed
    package is found), or, without it, on the installed package itself; its report's lines."""
    if source is None:
        target = ["-p", "redc"]
    else:
        (tmp_path / "program.py").write_text(textwrap.dedent(source))
        target = ["program.py"]
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        out, err, _ = mypy_api.run(
            [
                "--strict",
                "--no-error-summary",
                "--python-executable",
                sys.executable,
                "--cache-dir",
                str(tmp_path / "cache"),
                *target,
            ]
        )
    finally:
        os.chdir(cwd)
    assert not err, err
    return [line for line in out.splitlines() if line.strip()]


def test_the_package_itself_is_strictly_typed(tmp_path):
    # Every function annotated, no Any leaking from untyped calls, the native module's stub
    # (_redc.pyi) consistent with the Python layer's use of it.
    assert _mypy(tmp_path) == []


USE = """
    import datetime

    import jwt
    from cryptography import x509
    from cryptography.x509.oid import NameOID
    from cryptography.hazmat.primitives import hashes as pyca_hashes
    from cryptography.hazmat.primitives import serialization as pyca_serialization
    from cryptography.hazmat.primitives.asymmetric import padding as pyca_padding
    from cryptography.hazmat.primitives.asymmetric import rsa as pyca_rsa

    import redc
    import redc.jwt
    from redc import hashes, padding, serialization
    from redc.service import BatchSigner

    key = redc.generate_private_key(public_exponent=65537, key_size=2048)
    public = key.public_key()
    signature = key.sign(b"message", padding.PKCS1v15(), hashes.SHA256())
    public.verify(signature, b"message", padding.PKCS1v15(), hashes.SHA256())
    pss = padding.PSS(mgf=padding.MGF1(hashes.SHA256()), salt_length=padding.PSS.MAX_LENGTH)
    key.sign(bytearray(b"message"), pss, hashes.SHA256())
    key.sign(b"message", pyca_padding.PKCS1v15(), pyca_hashes.SHA256())
    oaep = padding.OAEP(mgf=padding.MGF1(hashes.SHA256()), algorithm=hashes.SHA256(), label=None)
    plain = key.decrypt(public.encrypt(b"secret", oaep), oaep)
    many = key.sign_many([b"a", b"b"], padding.PKCS1v15(), hashes.SHA256())
    pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.BestAvailableEncryption(b"passphrase"),
    )
    der = key.private_bytes(
        pyca_serialization.Encoding.DER,
        pyca_serialization.PrivateFormat.PKCS8,
        pyca_serialization.NoEncryption(),
    )
    loaded = redc.load_pem_private_key(pem, password=b"passphrase")
    spki = public.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    numbers = key.private_numbers()
    rebuilt = redc.RSAPrivateNumbers(
        numbers.p,
        numbers.q,
        numbers.d,
        numbers.dmp1,
        numbers.dmq1,
        numbers.iqmp,
        pyca_rsa.RSAPublicNumbers(numbers.public_numbers.e, numbers.public_numbers.n),
    ).private_key()
    signer = BatchSigner(max_batch=8)
    batched = signer.add_key(key)
    redc.jwt.register()
    token = jwt.encode({"sub": "me"}, key, algorithm="RS256")
    claims = jwt.decode(token, public, algorithms=["RS256"])
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "redc")])
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(public)
        .serial_number(1)
        .not_valid_before(datetime.datetime(2026, 1, 1))
        .not_valid_after(datetime.datetime(2027, 1, 1))
        .sign(key, pyca_hashes.SHA256())
    )
    reveal_type(signature)
    reveal_type(plain)
    reveal_type(many)
    reveal_type(der)
    reveal_type(loaded)
    reveal_type(numbers.p)
    reveal_type(numbers.public_numbers)
    reveal_type(batched.sign(b"m", padding.PKCS1v15(), hashes.SHA256()))
    reveal_type(signer.stats())
    reveal_type(redc.backend())


    async def issue() -> str:
        reveal_type(await batched.sign_async(b"m", padding.PKCS1v15(), hashes.SHA256()))
        return await redc.jwt.encode_async({"sub": "me"}, batched, "PS256")
"""


def test_the_readme_use_type_checks_with_the_documented_types(tmp_path):
    lines = _mypy(tmp_path, USE)
    # mypy 1 writes builtins' names in full ("builtins.bytes"), mypy 2 without the module.
    revealed = [
        line.split("Revealed type is ", 1)[1].replace("builtins.", "")
        for line in lines
        if "Revealed type is" in line
    ]
    others = [line for line in lines if "Revealed type is" not in line]
    assert others == [], "\n".join(others)
    assert revealed == [
        '"bytes"',
        '"bytes"',
        '"list[bytes]"',
        '"bytes"',
        '"redc.RSAPrivateKey"',
        '"int"',
        '"redc.RSAPublicNumbers"',
        '"bytes"',
        '"dict[str, int]"',
        '"str"',
        '"bytes"',
    ]


MISTAKES = """
    import redc
    from redc import hashes, padding, serialization

    key = redc.generate_private_key(65537, 2048)
    key.sign("text, not bytes", padding.PKCS1v15(), hashes.SHA256())
    key.public_key().verify(b"sig", b"message", padding.PKCS1v15())
    key.sign(b"message", padding.PKCS1v15(), "sha256")
    key.private_bytes(serialization.Encoding.PEM, serialization.PublicFormat.PKCS1, serialization.NoEncryption())
    size: str = key.key_size
"""


def test_mistakes_are_reported_where_they_are(tmp_path):
    lines = _mypy(tmp_path, MISTAKES)
    # The line of each mistake in the dedented program (the first line is empty).
    by_line = {}
    for line in lines:
        _, number, rest = line.split(":", 2)
        by_line.setdefault(int(number), []).append(rest)
    assert sorted(by_line) == [6, 7, 8, 9, 10], "\n".join(lines)
    assert "arg-type" in " ".join(by_line[6])
    assert "call-arg" in " ".join(by_line[7])
    assert "arg-type" in " ".join(by_line[8])
    assert "arg-type" in " ".join(by_line[9])
    assert "assignment" in " ".join(by_line[10])
