"""redc.service: signatures requested from many threads (and from asyncio tasks) through a
BatchSigner, each checked against redc's own and pyca's verification; the service's refusals;
its keys' lifetime; PyJWT with a batched key."""

import asyncio
import gc
import hashlib
import os
import threading
import time
import warnings

import jwt
import pytest
from cryptography.hazmat.primitives import hashes as phashes
from cryptography.hazmat.primitives import serialization as ps
from cryptography.hazmat.primitives.asymmetric import padding as ppadding
from cryptography.hazmat.primitives.asymmetric import rsa as prsa
from cryptography.hazmat.primitives.asymmetric.utils import Prehashed as PPrehashed

import redc
import redc.jwt
from redc import hashes, padding, serialization
from redc.service import BatchedPrivateKey, BatchSigner


@pytest.fixture(scope="module")
def keys():
    return [redc.generate_private_key(65537, 2048), redc.generate_private_key(65537, 1024)]


def pyca_public(key):
    der = key.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    return ps.load_der_public_key(der)


def pss():
    return padding.PSS(mgf=padding.MGF1(hashes.SHA256()), salt_length=padding.PSS.DIGEST_LENGTH)


def run_threads(target, n):
    """Runs ``target(i)`` on ``n`` threads at once, ``i`` from 0, and waits for them all."""
    threads = [threading.Thread(target=target, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def test_batched_key_is_the_key(keys):
    signer = BatchSigner(2)
    assert signer.workers == 2 and signer.max_batch == 8
    key = signer.add_key(keys[0])
    assert isinstance(key, BatchedPrivateKey) and isinstance(key, redc.RSAPrivateKey)
    assert isinstance(key, prsa.RSAPrivateKey)
    assert key.key_size == 2048
    assert key.private_numbers() == keys[0].private_numbers()
    assert key.public_key() == keys[0].public_key()
    assert type(key.key) is redc.RSAPrivateKey
    assert key.key.private_numbers() == keys[0].private_numbers()
    # PKCS#1 v1.5 is deterministic: the service's signature is the key's own.
    msg = b"through the service"
    want = keys[0].sign(msg, padding.PKCS1v15(), hashes.SHA256())
    assert key.sign(msg, padding.PKCS1v15(), hashes.SHA256()) == want
    digest = hashlib.sha256(msg).digest()
    assert key.sign(digest, padding.PKCS1v15(), hashes.Prehashed(hashes.SHA256())) == want
    assert key.sign(bytearray(msg), padding.PKCS1v15(), hashes.SHA256()) == want


@pytest.mark.parametrize("inline", [True, False])
def test_many_threads_mixed_keys_and_paddings(keys, inline):
    signer = BatchSigner(2, inline=inline)
    batched = [signer.add_key(k) for k in keys]
    results, errors = [], []
    lock = threading.Lock()

    def caller(t):
        try:
            for i in range(12):
                k = batched[(t + i) % 2]
                msg = b"thread %d message %d" % (t, i)
                use_pss = (t + i) % 3 == 0
                pad = pss() if use_pss else padding.PKCS1v15()
                sig = k.sign(msg, pad, hashes.SHA256())
                with lock:
                    results.append(((t + i) % 2, msg, use_pss, sig))
        except Exception as e:  # noqa: BLE001 - reported below
            with lock:
                errors.append(e)

    run_threads(caller, 48)
    assert errors == []
    assert len(results) == 48 * 12
    for which, msg, use_pss, sig in results:
        pub = keys[which].public_key()
        ppub = pyca_public(keys[which])
        if use_pss:
            pub.verify(sig, msg, pss(), hashes.SHA256())
            ppub.verify(sig, msg, ppadding.PSS(ppadding.MGF1(phashes.SHA256()), 32), phashes.SHA256())
        else:
            pub.verify(sig, msg, padding.PKCS1v15(), hashes.SHA256())
            ppub.verify(sig, msg, ppadding.PKCS1v15(), phashes.SHA256())
    stats = signer.stats()
    assert stats["requests"] == 48 * 12
    assert stats["largest_batch"] <= 8
    # Whether callers overlap depends on the scheduler (on one core they seldom do), so only
    # without inline signing is every request a worker's.
    if not inline:
        assert stats["inline"] == 0 and stats["batches"] >= 1 and stats["largest_batch"] >= 1


def test_pyca_arguments_and_keys(keys):
    signer = BatchSigner(1, max_batch=4, inline=False)
    assert signer.workers == 1 and signer.max_batch == 4
    der = keys[0].private_bytes(serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    pkey = ps.load_der_private_key(der, None)
    key = signer.add_key(pkey)
    msg = b"pyca's objects"
    sig = key.sign(msg, ppadding.PKCS1v15(), phashes.SHA384())
    pkey.public_key().verify(sig, msg, ppadding.PKCS1v15(), phashes.SHA384())
    sig = key.sign(msg, ppadding.PSS(ppadding.MGF1(phashes.SHA256()), ppadding.PSS.DIGEST_LENGTH), phashes.SHA256())
    pkey.public_key().verify(sig, msg, ppadding.PSS(ppadding.MGF1(phashes.SHA256()), 32), phashes.SHA256())
    digest = hashlib.sha512(msg).digest()
    sig = key.sign(digest, ppadding.PKCS1v15(), PPrehashed(phashes.SHA512()))
    pkey.public_key().verify(sig, msg, ppadding.PKCS1v15(), phashes.SHA512())
    assert signer.stats()["inline"] == 0


def test_refusals(keys):
    signer = BatchSigner(1)
    key = signer.add_key(keys[0])
    msg = b"m"
    with pytest.raises(ValueError, match="salt as long as the hash"):
        key.sign(msg, padding.PSS(mgf=padding.MGF1(hashes.SHA256()), salt_length=padding.PSS.MAX_LENGTH), hashes.SHA256())
    with pytest.raises(ValueError, match="salt as long as the hash"):
        key.sign(msg, padding.PSS(mgf=padding.MGF1(hashes.SHA1()), salt_length=32), hashes.SHA256())
    with pytest.raises(ValueError, match="salt as long as the hash"):
        key.sign(msg, padding.PSS(mgf=padding.MGF1(hashes.SHA256()), salt_length=20), hashes.SHA256())
    # The plain key signs those.
    sig = key.key.sign(msg, padding.PSS(mgf=padding.MGF1(hashes.SHA256()), salt_length=20), hashes.SHA256())
    keys[0].public_key().verify(sig, msg, padding.PSS(mgf=padding.MGF1(hashes.SHA256()), salt_length=20), hashes.SHA256())
    with pytest.raises(ValueError, match="digest size"):
        key.sign(b"short", padding.PKCS1v15(), hashes.Prehashed(hashes.SHA256()))
    with pytest.raises(redc.UnsupportedAlgorithm):
        key.sign(msg, padding.OAEP(mgf=padding.MGF1(hashes.SHA256()), algorithm=hashes.SHA256(), label=None), hashes.SHA256())
    with pytest.raises(TypeError, match="bytes-like"):
        key.sign("text", padding.PKCS1v15(), hashes.SHA256())
    with pytest.raises(TypeError, match="RSA private key"):
        signer.add_key(keys[0].public_key())
    with pytest.raises(TypeError, match="RSA private key"):
        signer.add_key(b"-----BEGIN PRIVATE KEY-----")
    with pytest.raises(TypeError, match="BatchSigner.add_key"):
        BatchedPrivateKey(keys[0], None, None)
    for bad in (0, 1025, -1):
        with pytest.raises(ValueError, match="workers"):
            BatchSigner(bad)
        with pytest.raises(ValueError, match="max_batch"):
            BatchSigner(1, max_batch=bad)
    with pytest.raises(TypeError, match="workers"):
        BatchSigner("2")
    with pytest.raises(TypeError, match="workers"):
        BatchSigner(True)
    with pytest.raises(TypeError, match="inline"):
        BatchSigner(1, inline=1)


def test_keys_leave_with_their_handles(keys):
    signer = BatchSigner(1)
    a = signer.add_key(keys[0])
    b = signer.add_key(keys[1])
    assert signer.keys_held == 2
    del a
    gc.collect()
    assert signer.keys_held == 1
    # The service outlives its BatchSigner object while a key of it lives.
    del signer
    gc.collect()
    msg = b"after the signer object"
    sig = b.sign(msg, padding.PKCS1v15(), hashes.SHA256())
    keys[1].public_key().verify(sig, msg, padding.PKCS1v15(), hashes.SHA256())


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")
def test_a_forked_child_makes_its_own_service(keys):
    """A pre-forking server that made its signer at import time: the child has none of the
    parent's worker threads, so its first signature makes a service of its own (and dropping
    what it inherited must not wait for the parent's workers)."""
    signer = BatchSigner(2, inline=False)
    key = signer.add_key(keys[0])
    pub = keys[0].public_key()
    pub.verify(key.sign(b"parent", padding.PKCS1v15(), hashes.SHA256()), b"parent", padding.PKCS1v15(), hashes.SHA256())
    # The parent has signed from asyncio: its answering thread exists when the child forks.
    sig = asyncio.run(key.sign_async(b"parent async", padding.PKCS1v15(), hashes.SHA256()))
    pub.verify(sig, b"parent async", padding.PKCS1v15(), hashes.SHA256())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # fork of a threaded process
        pid = os.fork()
    if pid == 0:  # pragma: no cover - the child's outcome is its exit status
        code = 3
        try:
            sigs, errors = [], []

            def child_caller(i):
                try:
                    sigs.append((i, key.sign(b"child %d" % i, padding.PKCS1v15(), hashes.SHA256())))
                except Exception as e:  # noqa: BLE001 - the status reports it
                    errors.append(e)

            run_threads(child_caller, 16)
            for i, sig in sigs:
                pub.verify(sig, b"child %d" % i, padding.PKCS1v15(), hashes.SHA256())
            # asyncio too: the parent's answering thread is not here either.
            sig = asyncio.run(key.sign_async(b"child async", padding.PKCS1v15(), hashes.SHA256()))
            pub.verify(sig, b"child async", padding.PKCS1v15(), hashes.SHA256())
            stats = signer.stats()
            ok = not errors and len(sigs) == 16 and stats["requests"] == 17 and stats["batches"] >= 1
            ok = ok and signer.keys_held == 1 and signer.workers == 2
            code = 0 if ok else 2
            # Everything inherited goes: it must not wait for the parent's threads.
            del key
            gc.collect()
        finally:
            os._exit(code)
    deadline = time.monotonic() + 60
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            pytest.fail("the forked child hung")
        time.sleep(0.02)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, status
    # The parent's service is untouched.
    pub.verify(key.sign(b"parent again", padding.PKCS1v15(), hashes.SHA256()), b"parent again", padding.PKCS1v15(), hashes.SHA256())
    assert signer.stats()["requests"] == 3 and signer.keys_held == 1


@pytest.mark.parametrize("alg", ["RS256", "PS256", "PS512"])
def test_pyjwt_from_threads(keys, alg):
    jws = jwt.PyJWS()
    redc.jwt.register(jws)
    signer = BatchSigner(2)
    key = signer.add_key(keys[0])
    pub_pem = keys[0].public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    tokens = [None] * 32

    def issue(i):
        tokens[i] = jws.encode(b'{"n": %d}' % i, key, algorithm=alg)

    run_threads(issue, 32)
    for i, token in enumerate(tokens):
        # Stock PyJWT (pyca) reads them.
        assert jwt.PyJWS().decode(token, pub_pem, algorithms=[alg]) == b'{"n": %d}' % i
    # Stock PyJWT signs with the batched key too (it is one of pyca's RSAPrivateKey).
    token = jwt.PyJWS().encode(b"stock", key, algorithm=alg)
    assert jws.decode(token, pub_pem, algorithms=[alg]) == b"stock"


class _NoReaderLoop(asyncio.SelectorEventLoop):
    """A loop that cannot watch sockets, as Windows' proactor loop: answers come through the
    package's thread instead."""

    def add_reader(self, *args):
        raise NotImplementedError


def run_on(kind, coroutine):
    """Runs ``coroutine`` on a fresh loop of ``kind``: "reader" (asyncio's default here) or
    "thread" (a loop without ``add_reader``)."""
    if kind == "reader":
        return asyncio.run(coroutine)
    loop = _NoReaderLoop()
    try:
        return loop.run_until_complete(coroutine)
    finally:
        loop.close()


@pytest.mark.parametrize("kind", ["reader", "thread"])
def test_asyncio_tasks_are_batched_and_never_signed_on_the_loop(keys, kind):
    from redc import service

    signer = BatchSigner(2, inline=True)
    key, small = signer.add_key(keys[0]), signer.add_key(keys[1])

    async def main():
        # The event loop stays free: a ticker runs while the requests are signed.
        ticks = 0

        async def ticker():
            nonlocal ticks
            while True:
                await asyncio.sleep(0.001)
                ticks += 1

        tick = asyncio.ensure_future(ticker())
        requests = []
        for i in range(96):
            k, pad = (key, padding.PKCS1v15()) if i % 3 else (small, pss())
            requests.append((k, pad, b"task %d" % i))
        sigs = await asyncio.gather(*(k.sign_async(m, p, hashes.SHA256()) for k, p, m in requests))
        tick.cancel()
        answers = service._answers_for(asyncio.get_running_loop())
        return requests, sigs, ticks, type(answers).__name__

    requests, sigs, ticks, path = run_on(kind, main())
    assert path == {"reader": "_LoopAnswers", "thread": "_AsyncResults"}[kind]
    # A loop's own answers (and their socket) go with the loop.
    gc.collect()
    assert len(service._loop_answers) == 0
    for (k, p, m), sig in zip(requests, sigs):
        k.public_key().verify(sig, m, p, hashes.SHA256())
        pyca_public(k).verify(sig, m, ppadding.PKCS1v15() if isinstance(p, padding.PKCS1v15) else ppadding.PSS(
            mgf=ppadding.MGF1(phashes.SHA256()), salt_length=32), phashes.SHA256())
    stats = signer.stats()
    # Every request went to the workers (even with inline, which is for blocking callers), in
    # batches of more than one.
    assert stats["requests"] == 96 and stats["inline"] == 0
    assert stats["largest_batch"] > 1 and stats["batches"] < 96
    assert ticks > 0
    # PKCS#1 v1.5 is deterministic: the same signature as the key's own.
    assert sigs[1] == keys[0].sign(b"task 1", padding.PKCS1v15(), hashes.SHA256())


@pytest.mark.parametrize("kind", ["reader", "thread"])
def test_asyncio_errors_and_cancellation(keys, kind):
    signer = BatchSigner(1, max_batch=2)
    key = signer.add_key(keys[0])
    other_pss = padding.PSS(mgf=padding.MGF1(hashes.SHA256()), salt_length=10)

    async def main():
        # Argument errors come before anything is queued.
        with pytest.raises(ValueError, match="salt as long as the hash"):
            await key.sign_async(b"m", other_pss, hashes.SHA256())
        with pytest.raises(TypeError):
            await key.sign_async("text", padding.PKCS1v15(), hashes.SHA256())
        with pytest.raises(ValueError, match="same length"):
            await key.sign_async(b"short", padding.PKCS1v15(), redc.hashes.Prehashed(hashes.SHA256()))
        # Cancelled tasks raise CancelledError; the others are answered.
        tasks = [asyncio.ensure_future(key.sign_async(b"c %d" % i, padding.PKCS1v15(), hashes.SHA256())) for i in range(40)]
        await asyncio.sleep(0)
        for t in tasks[::2]:
            t.cancel()
        results = await asyncio.gather(*tasks, return_exceptions=True)
        return results, service._answers_for(asyncio.get_running_loop())

    from redc import service

    results, answers = run_on(kind, main())
    for i, r in enumerate(results):
        if i % 2 == 0 and isinstance(r, asyncio.CancelledError):
            continue
        assert isinstance(r, bytes), r
        keys[0].public_key().verify(r, b"c %d" % i, padding.PKCS1v15(), hashes.SHA256())
    cancelled = sum(isinstance(r, asyncio.CancelledError) for r in results)
    assert cancelled >= 1
    # The cancelled requests the worker had not taken were dropped unsigned; the answered ones
    # were all the others.
    stats = signer.stats()
    assert stats["cancelled"] >= 1 and stats["requests"] + stats["cancelled"] == 40
    # Nothing is left pending in the loop's queue once every task is done.
    assert answers.queue.pending == 0 and not answers.futures


@pytest.mark.parametrize("kind", ["reader", "thread"])
def test_asyncio_loops_on_many_threads_with_cancellations(keys, kind):
    """Eight threads, each with its own event loop of 40 tasks over two keys, a quarter of the
    tasks cancelled at random points; every answered signature verifies, every cancelled task
    ends cancelled, and nothing stays pending."""
    import random

    from redc import service

    signer = BatchSigner(2, max_batch=8)
    batched = [signer.add_key(keys[0]), signer.add_key(keys[1])]
    outcomes = [None] * 8

    def thread_main(t):
        rnd = random.Random(t)

        async def main():
            tasks = []
            for i in range(40):
                k = batched[(t + i) % 2]
                tasks.append((k, b"t%d m%d" % (t, i), asyncio.ensure_future(
                    k.sign_async(b"t%d m%d" % (t, i), padding.PKCS1v15(), hashes.SHA256()))))
            for _ in range(10):
                await asyncio.sleep(rnd.random() * 0.002)
                tasks[rnd.randrange(40)][2].cancel()
            await asyncio.gather(*(task for _, _, task in tasks), return_exceptions=True)
            answers = service._answers_for(asyncio.get_running_loop())
            return [(k, m, task) for k, m, task in tasks], answers.queue.pending

        outcomes[t] = run_on(kind, main())

    run_threads(thread_main, 8)
    answered = 0
    for tasks, pending in outcomes:
        assert pending == 0
        for k, m, task in tasks:
            if task.cancelled():
                continue
            k.public_key().verify(task.result(), m, padding.PKCS1v15(), hashes.SHA256())
            answered += 1
    stats = signer.stats()
    assert answered >= 8 * 30 and stats["requests"] >= answered
    assert stats["requests"] + stats["cancelled"] == 8 * 40


def test_asyncio_survives_a_closed_loop_and_a_second_loop(keys):
    signer = BatchSigner(2)
    key = signer.add_key(keys[1])

    async def one(i):
        return await key.sign_async(b"loop %d" % i, padding.PKCS1v15(), hashes.SHA256())

    for i in range(3):  # a fresh event loop each time, the same answering thread
        sig = asyncio.run(one(i))
        keys[1].public_key().verify(sig, b"loop %d" % i, padding.PKCS1v15(), hashes.SHA256())


@pytest.mark.parametrize("alg", ["RS256", "PS256", "RS512"])
def test_pyjwt_encode_async(keys, alg):
    signer = BatchSigner(2)
    key = signer.add_key(keys[0])
    pub_pem = keys[0].public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)

    async def main():
        return await asyncio.gather(
            *(redc.jwt.encode_async({"n": i}, key, alg, headers={"kid": "k1"}) for i in range(24))
        )

    tokens = asyncio.run(main())
    for i, token in enumerate(tokens):
        # Stock PyJWT (pyca) reads them, headers included.
        assert jwt.decode(token, pub_pem, algorithms=[alg]) == {"n": i}
        assert jwt.get_unverified_header(token) == {"alg": alg, "kid": "k1", "typ": "JWT"}
        if alg.startswith("RS"):  # deterministic: the very token jwt.encode makes
            assert token == jwt.encode({"n": i}, keys[0], algorithm=alg, headers={"kid": "k1"})
    assert signer.stats()["largest_batch"] > 1
    with pytest.raises(TypeError, match="add_key"):
        asyncio.run(redc.jwt.encode_async({"n": 1}, keys[0], alg))
    with pytest.raises(NotImplementedError, match="ES256"):
        asyncio.run(redc.jwt.encode_async({"n": 1}, key, "ES256"))


def test_speed_with_threads(capsys):
    from redc.__main__ import main

    assert main(["speed", "--bits", "1024", "--seconds", "0.3", "--rounds", "1", "--threads", "4"]) == 0
    out = capsys.readouterr().out.splitlines()
    head = next(i for i, line in enumerate(out) if line.startswith("threads=4"))
    assert "BatchSigner" in out[head] and "asyncio" in out[head] and "pyca sign/s" in out[head]
    row = out[head + 1].split()
    assert row[:2] == ["rsa", "1024"]
    rates = [float(x) for x in row[2:]]
    assert len(rates) == 6 and all(r > 0 for r in rates)
    with pytest.raises(SystemExit):
        main(["speed", "--threads", "0"])
