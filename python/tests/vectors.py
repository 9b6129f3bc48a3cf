"""Readers for pyca's RSA test vectors (the files of the ``cryptography-vectors`` package),
written for redc's tests: the RSA Laboratories "# label:" + hex format and NIST's CAVS
``key = value`` format."""

import string

import cryptography_vectors

_HEX = set(string.hexdigits + " ")


def open_vector(path):
    return cryptography_vectors.open_vector_file(path, "r")


def _hex(s):
    s = s.replace(" ", "")
    return bytes.fromhex("0" + s if len(s) % 2 else s)


def _events(lines):
    """``(label, value)`` for each "# label:" followed by hex lines."""
    label, buf = None, []
    for line in lines:
        s = line.strip()
        if s.startswith("#"):
            if label is not None and buf:
                yield label, _hex("".join(buf))
            label, buf = None, []
            t = s.lstrip("#").strip()
            if t.endswith(":"):
                label = t[:-1].strip().lower()
        elif s and label is not None and set(s) <= _HEX:
            buf.append(s)
    if label is not None and buf:
        yield label, _hex("".join(buf))


def load_rsa_labs_vectors(path):
    """Vectors of the RSA Laboratories files (pkcs1v15sign, pss-vect, oaep-vect, oaep-custom,
    pkcs1v15crypt): each a dict with ``key`` (n, e, d, p, q, dmp1, dmq1, iqmp as ints),
    ``message``, ``output`` (signature or ciphertext) and ``salt``/``seed`` where given."""
    with open_vector(path) as f:
        events = list(_events(f))
    vectors, key, current = [], {}, None
    names = {
        "prime 1": "p",
        "prime p": "p",
        "prime 2": "q",
        "prime q": "q",
        "prime exponent 1": "dmp1",
        "p's crt exponent dp": "dmp1",
        "prime exponent 2": "dmq1",
        "q's crt exponent dq": "dmq1",
        "coefficient": "iqmp",
        "crt coefficient qinv": "iqmp",
        "public exponent": "e",
    }
    for label, value in events:
        v = int.from_bytes(value, "big")
        if label in ("modulus", "rsa modulus n"):
            if "p" in key:
                key = {}
            key["n"] = v
        elif label in ("exponent", "rsa public exponent e", "rsa private exponent d"):
            if label.endswith(" d") or "e" in key:
                key["d"] = v
            else:
                key["e"] = v
        elif label in names:
            key[names[label]] = v
        elif label.startswith("message"):
            current = {"key": dict(key), "message": value}
            vectors.append(current)
        elif label in ("signature", "encryption") and current is not None:
            current["output"] = value
        elif label in ("salt", "seed") and current is not None:
            current[label] = value
    return [v for v in vectors if "output" in v]


def load_nist_vectors(path):
    """Records of a CAVS file (SigGen/SigVer, PKCS#1 v1.5 or PSS): each a dict with ``n``,
    ``e``, ``hash`` (pyca's name), ``msg``, ``s``, and ``salt`` / ``result`` where given."""
    records, top, current = [], {}, None
    with open_vector(path) as f:
        for line in f:
            s = line.strip()
            if not s or s.startswith("#"):
                continue
            if s.startswith("[") and s.endswith("]"):
                top = {}
                continue
            if "=" not in s:
                continue
            k, v = (x.strip() for x in s.split("=", 1))
            if k == "SHAAlg":
                current = {"n": top.get("n"), "e": top.get("e"), "hash": v.lower().replace("-", "")}
                records.append(current)
            elif k in ("n", "e") and current is None:
                top[k] = int(v, 16)
            elif k in ("n", "e"):
                if k == "n":
                    top = {}
                    current = None
                    top["n"] = int(v, 16)
                else:
                    current[k] = int(v, 16)
            elif current is not None and k == "Msg":
                current["msg"] = _hex(v)
            elif current is not None and k == "S":
                current["s"] = _hex(v)
            elif current is not None and k == "SaltVal":
                current["salt"] = _hex(v) if v != "00" else b""
            elif current is not None and k == "Result":
                current["result"] = v.split()[0]
    return [r for r in records if "s" in r and "msg" in r and r.get("n")]
