"""``python -m redc speed``: RSA sign/s and verify/s from Python, redc against pyca
``cryptography`` (when installed), alternating rounds, medians; and ``sign_many`` of 8 against
8 single pyca signatures. With ``--threads T``, also T threads signing at once: each with the
key itself, through ``redc.service.BatchSigner``, and with pyca's key; and T asyncio tasks on
one event loop awaiting ``sign_async`` of the same ``BatchSigner``."""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import threading
import time
from typing import Any, Awaitable, Callable, Dict, List, Optional, Sequence, Tuple

import redc
from redc import hashes, padding


def _rate(fn: Callable[[], object], seconds: float) -> float:
    fn()  # warm-up
    n, start = 0, time.perf_counter()
    while True:
        fn()
        n += 1
        el = time.perf_counter() - start
        if el >= seconds:
            return n / el


def _threaded_rate(fn: Callable[[], object], threads: int, seconds: float) -> float:
    """Calls of ``fn`` per second over ``threads`` threads calling it for ``seconds``."""
    fn()  # warm-up
    counts = [0] * threads
    start = time.perf_counter()
    stop = start + seconds

    def loop(i: int) -> None:
        n = 0
        while time.perf_counter() < stop:
            fn()
            n += 1
        counts[i] = n

    workers = [threading.Thread(target=loop, args=(i,)) for i in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return sum(counts) / (time.perf_counter() - start)


def _async_rate(sign: Callable[[], Awaitable[bytes]], tasks: int, seconds: float) -> float:
    """Signatures per second of ``tasks`` asyncio tasks on one event loop, each awaiting
    ``sign()`` in a loop for ``seconds``."""

    async def run() -> float:
        await sign()  # warm-up
        count = 0
        stop = time.perf_counter() + seconds

        async def loop() -> None:
            nonlocal count
            while time.perf_counter() < stop:
                await sign()
                count += 1

        start = time.perf_counter()
        await asyncio.gather(*(loop() for _ in range(tasks)))
        return count / (time.perf_counter() - start)

    return asyncio.run(run())


def _positive(text: str) -> int:
    value = int(text)
    if not 1 <= value <= 1024:
        raise argparse.ArgumentTypeError(f"{value} is not between 1 and 1024")
    return value


def speed(argv: Sequence[str]) -> int:
    p = argparse.ArgumentParser(prog="python -m redc speed", description=__doc__)
    p.add_argument("--bits", default="2048", help="key sizes, comma-separated (default 2048)")
    p.add_argument("--seconds", type=float, default=1.0, help="measuring time per figure")
    p.add_argument("--rounds", type=int, default=5, help="alternating rounds (medians)")
    p.add_argument(
        "--threads",
        type=_positive,
        help="also sign from this many threads at once: the key itself, through "
        "redc.service.BatchSigner, and pyca's key",
    )
    args = p.parse_args(argv)
    try:
        from cryptography.hazmat.primitives import hashes as ph
        from cryptography.hazmat.primitives.asymmetric import padding as pp
        from cryptography.hazmat.primitives.asymmetric import rsa as prsa
        from cryptography.hazmat.primitives.serialization import load_der_private_key
    except ImportError:
        prsa = None  # type: ignore[assignment]
    per = args.seconds / args.rounds
    msg = b"python -m redc speed: the message every signature covers"
    batch = [msg + bytes([i]) for i in range(8)]
    print(f"backend: {redc.backend()}; {args.rounds} alternating rounds, medians", file=sys.stderr)
    header = f"{'':<12}{'sign/s':>12}{'verify/s':>12}{'sign_many(8) sig/s':>20}"
    if prsa is not None:
        header += f"{'pyca sign/s':>13}{'pyca ver/s':>12}{'sign×':>8}{'verify×':>9}{'many×':>8}"
    print(header)
    threaded: List[Tuple[int, redc.RSAPrivateKey, Any]] = []
    for bits in [int(b) for b in args.bits.split(",")]:
        key = redc.generate_private_key(65537, bits)
        pub = key.public_key()
        sig = key.sign(msg, padding.PKCS1v15(), hashes.SHA256())
        if prsa is not None:
            from cryptography.hazmat.primitives import serialization as ps

            pkey: Any = load_der_private_key(
                key.private_bytes(ps.Encoding.DER, ps.PrivateFormat.PKCS8, ps.NoEncryption()), None
            )
            ppub = pkey.public_key()
        r: Dict[str, List[float]] = {k: [] for k in ("s", "v", "m", "ps", "pv")}
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
        if args.threads:
            threaded.append((bits, key, pkey if prsa is not None else None))
    if args.threads:
        _threads_table(threaded, args.threads, per, args.rounds, msg)
    return 0


def _threads_table(
    keys: List[Tuple[int, redc.RSAPrivateKey, Any]], threads: int, per: float, rounds: int, msg: bytes
) -> None:
    """The ``--threads`` table: sign/s of ``threads`` threads signing at once."""
    from .service import BatchSigner

    pyca = keys and keys[0][2] is not None
    if pyca:
        from cryptography.hazmat.primitives import hashes as ph
        from cryptography.hazmat.primitives.asymmetric import padding as pp
    header = f"{'threads=' + str(threads):<12}{'sign/s':>12}{'BatchSigner':>12}{'service×':>10}{'asyncio':>10}"
    if pyca:
        header += f"{'pyca sign/s':>13}{'vs pyca':>9}"
    print()
    print(header)
    for bits, key, pkey in keys:
        signer = BatchSigner()
        batched = signer.add_key(key)
        r: Dict[str, List[float]] = {k: [] for k in ("s", "b", "a", "p")}
        for _ in range(rounds):
            r["s"].append(_threaded_rate(lambda: key.sign(msg, padding.PKCS1v15(), hashes.SHA256()), threads, per))
            r["b"].append(_threaded_rate(lambda: batched.sign(msg, padding.PKCS1v15(), hashes.SHA256()), threads, per))
            r["a"].append(_async_rate(lambda: batched.sign_async(msg, padding.PKCS1v15(), hashes.SHA256()), threads, per))
            if pyca:
                r["p"].append(_threaded_rate(lambda: pkey.sign(msg, pp.PKCS1v15(), ph.SHA256()), threads, per))
        m = {k: statistics.median(v) for k, v in r.items() if v}
        line = f"{'rsa ' + str(bits):<12}{m['s']:>12.1f}{m['b']:>12.1f}{m['b'] / m['s']:>10.2f}{m['a']:>10.1f}"
        if pyca:
            line += f"{m['p']:>13.1f}{m['b'] / m['p']:>9.2f}"
        print(line)


def main(argv: Optional[Sequence[str]] = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] != "speed":
        print(
            "usage: python -m redc speed [--bits 2048,3072] [--seconds S] [--rounds N] [--threads T]",
            file=sys.stderr,
        )
        return 2
    return speed(argv[1:])


if __name__ == "__main__":
    sys.exit(main())
