"""``python -m redc speed``: RSA sign/s and verify/s from Python, redc against pyca
``cryptography`` (when installed), alternating rounds, medians; and ``sign_many`` of 8 against
8 single pyca signatures."""

import argparse
import statistics
import sys
import time

import redc
from redc import hashes, padding


def _rate(fn, seconds):
    fn()  # warm-up
    n, start = 0, time.perf_counter()
    while True:
        fn()
        n += 1
        el = time.perf_counter() - start
        if el >= seconds:
            return n / el


def speed(argv):
    p = argparse.ArgumentParser(prog="python -m redc speed", description=__doc__)
    p.add_argument("--bits", default="2048", help="key sizes, comma-separated (default 2048)")
    p.add_argument("--seconds", type=float, default=1.0, help="measuring time per figure")
    p.add_argument("--rounds", type=int, default=5, help="alternating rounds (medians)")
    args = p.parse_args(argv)
    try:
        from cryptography.hazmat.primitives import hashes as ph
        from cryptography.hazmat.primitives.asymmetric import padding as pp
        from cryptography.hazmat.primitives.asymmetric import rsa as prsa
        from cryptography.hazmat.primitives.serialization import load_der_private_key
    except ImportError:
        prsa = None
    per = args.seconds / args.rounds
    msg = b"python -m redc speed: the message every signature covers"
    batch = [msg + bytes([i]) for i in range(8)]
    print(f"backend: {redc.backend()}; {args.rounds} alternating rounds, medians", file=sys.stderr)
    header = f"{'':<12}{'sign/s':>12}{'verify/s':>12}{'sign_many(8) sig/s':>20}"
    if prsa is not None:
        header += f"{'pyca sign/s':>13}{'pyca ver/s':>12}{'sign×':>8}{'verify×':>9}{'many×':>8}"
    print(header)
    for bits in [int(b) for b in args.bits.split(",")]:
        key = redc.generate_private_key(65537, bits)
        pub = key.public_key()
        sig = key.sign(msg, padding.PKCS1v15(), hashes.SHA256())
        if prsa is not None:
            from cryptography.hazmat.primitives import serialization as ps

            pkey = load_der_private_key(
                key.private_bytes(ps.Encoding.DER, ps.PrivateFormat.PKCS8, ps.NoEncryption()), None
            )
            ppub = pkey.public_key()
        r = {k: [] for k in ("s", "v", "m", "ps", "pv")}
        for _ in range(args.rounds):
            r["s"].append(_rate(lambda: key.sign(msg, padding.PKCS1v15(), hashes.SHA256()), per))
            r["v"].append(_rate(lambda: pub.verify(sig, msg, padding.PKCS1v15(), hashes.SHA256()), per))
            r["m"].append(8 * _rate(lambda: key.sign_many(batch, padding.PKCS1v15(), hashes.SHA256()), per))
            if prsa is not None:
                r["ps"].append(_rate(lambda: pkey.sign(msg, pp.PKCS1v15(), ph.SHA256()), per))
                r["pv"].append(_rate(lambda: ppub.verify(sig, msg, pp.PKCS1v15(), ph.SHA256()), per))
        m = {k: statistics.median(v) for k, v in r.items() if v}
        line = f"{'rsa ' + str(bits):<12}{m['s']:>12.1f}{m['v']:>12.1f}{m['m']:>20.1f}"
        if prsa is not None:
            line += (
                f"{m['ps']:>13.1f}{m['pv']:>12.1f}{m['s'] / m['ps']:>8.2f}"
                f"{m['v'] / m['pv']:>9.2f}{m['m'] / m['ps']:>8.2f}"
            )
        print(line)
    return 0


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] != "speed":
        print("usage: python -m redc speed [--bits 2048,3072] [--seconds S] [--rounds N]", file=sys.stderr)
        return 2
    return speed(argv[1:])


if __name__ == "__main__":
    sys.exit(main())
