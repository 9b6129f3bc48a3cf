"""redc's signing service from Python: signatures requested one at a time from many threads,
signed together.

A server that signs on many threads (a JWT issuer behind a threaded WSGI server, say) calls
``sign`` once per request; each call alone cannot use redc's batches, whose exponentiations run
side by side on CPUs with AVX-512 IFMA. A :class:`BatchSigner` gathers the calls that arrive
while others are being signed into batches of one key, on worker threads (one per core by
default), and answers each caller with its own signature or its own error; a call that finds
the service idle is signed at once on its own thread, so a lone caller waits no longer than
with ``RSAPrivateKey.sign``. The GIL is released while a call waits::

    import redc
    from redc import hashes, padding
    from redc.service import BatchSigner

    signer = BatchSigner()
    key = signer.add_key(redc.load_pem_private_key(pem, None))
    # from any number of threads:
    signature = key.sign(message, padding.PKCS1v15(), hashes.SHA256())

The key :meth:`BatchSigner.add_key` returns is a :class:`BatchedPrivateKey`: a
``redc.RSAPrivateKey`` (so PyJWT, through ``redc.jwt.register()`` or on its own, takes it as
any other) whose ``sign`` goes through the service. The service makes PKCS#1 v1.5 signatures
and PSS signatures with MGF1 of the message's hash and a salt as long as that hash
(``PSS.DIGEST_LENGTH``, as JWT's PS256/384/512 use); for other PSS parameters sign with the
key itself (``BatchedPrivateKey.key``).

For asyncio, ``await key.sign_async(message, padding, algorithm)`` queues the request and
suspends the calling task until a worker has signed it: the event loop's thread never signs,
and the requests of many tasks are batched as those of many threads are
(``redc.jwt.encode_async`` makes a JWT that way).

A signer made before a fork (a pre-forking server that makes it at import time) is made again
in each child on its first use there, with the same settings and keys: the worker threads stay
in the parent.
"""

from __future__ import annotations

import asyncio
import atexit
import os
import threading
import weakref
from typing import Any, Dict, List, Optional, Tuple, Union

from . import BytesLike, RSAPrivateKey, _bytes, _check_prehashed, _redc
from .hashes import DigestSized
from .padding import PaddingLike

# Serialises the remaking of services and key handles in a forked child (see
# ``BatchSigner._native``); made afresh in every child, since a lock held at the fork stays held.
_fork_lock = threading.Lock()


def _after_fork_in_child() -> None:
    global _fork_lock, _loop_answers_lock
    _fork_lock = threading.Lock()
    _loop_answers_lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)

__all__ = ["BatchSigner", "BatchedPrivateKey"]


def _redc_key(private_key: object) -> RSAPrivateKey:
    """``private_key`` as a plain redc ``RSAPrivateKey``: its own core for redc's keys, a pyca
    key through its DER; ``TypeError`` for anything else."""
    if isinstance(private_key, RSAPrivateKey):
        return RSAPrivateKey(private_key._key)
    try:
        from cryptography.hazmat.primitives import serialization as pyca_serialization
        from cryptography.hazmat.primitives.asymmetric import rsa as pyca_rsa
    except ImportError:  # pragma: no cover - exercised where cryptography is absent
        pyca_rsa = None  # type: ignore[assignment]
    if pyca_rsa is not None and isinstance(private_key, pyca_rsa.RSAPrivateKey):
        from . import load_der_private_key

        der: bytes = private_key.private_bytes(
            pyca_serialization.Encoding.DER,
            pyca_serialization.PrivateFormat.PKCS8,
            pyca_serialization.NoEncryption(),
        )
        return load_der_private_key(der)
    raise TypeError(f"add_key takes an RSA private key (redc's or pyca's), not {type(private_key).__name__}")


class BatchSigner:
    """A signing service: ``workers`` threads (default: one per core), batches of at most
    ``max_batch`` requests of one key (default 8), and, with ``inline`` (the default), a
    request that finds the service idle signed at once on its caller's thread. Every result is
    fault-checked; one failing request fails only its own call. The service stops when it and
    every key it handed out are gone, after answering what is queued."""

    __slots__ = ("_service", "_config")

    def __init__(self, workers: Optional[int] = None, *, max_batch: int = 8, inline: bool = True) -> None:
        if workers is not None and (not isinstance(workers, int) or isinstance(workers, bool)):
            raise TypeError(f"workers must be an int or None, not {type(workers).__name__}")
        if not isinstance(max_batch, int) or isinstance(max_batch, bool):
            raise TypeError(f"max_batch must be an int, not {type(max_batch).__name__}")
        if not isinstance(inline, bool):
            raise TypeError(f"inline must be a bool, not {type(inline).__name__}")
        if workers is not None and not 1 <= workers <= 1024:
            raise ValueError(f"workers must be between 1 and 1024, got {workers}")
        if not 1 <= max_batch <= 1024:
            raise ValueError(f"max_batch must be between 1 and 1024, got {max_batch}")
        self._config = (workers, max_batch, inline)
        self._service = _redc.Service(workers, max_batch, inline)

    def _native(self) -> _redc.Service:
        """This process's service: in a child forked after it was made (a pre-forking server
        that made it at import time), a new one with the same settings, since the worker
        threads stay in the parent; the old one is left unused and unfreed there."""
        service = self._service
        if service.usable:
            return service
        with _fork_lock:
            if not self._service.usable:
                self._service = _redc.Service(*self._config)
            return self._service

    @property
    def workers(self) -> int:
        """The worker threads that started (0 if the system refused every one: then each
        request is signed on its caller's thread)."""
        return self._native().workers

    @property
    def max_batch(self) -> int:
        """The most requests of one key signed together."""
        return self._native().max_batch

    @property
    def keys_held(self) -> int:
        """The keys the service holds now in this process (one per live
        :class:`BatchedPrivateKey` that has signed here, or was made here)."""
        return self._native().keys_held

    def add_key(self, private_key: Any) -> BatchedPrivateKey:
        """A :class:`BatchedPrivateKey` for a copy of ``private_key`` (redc's or pyca's) held by
        this service until the returned key is gone."""
        key = _redc_key(private_key)
        return BatchedPrivateKey(key, self._native().add_key(key._key), self)

    def stats(self) -> Dict[str, int]:
        """Counters of this process so far: ``requests`` answered, of them ``inline`` (signed on
        the caller's thread), ``batches`` signed by the workers, the ``largest_batch``, and
        requests ``cancelled`` (``sign_async`` tasks cancelled before a worker took them)."""
        requests, inline, batches, largest, cancelled = self._native().stats()
        return {
            "requests": requests,
            "inline": inline,
            "batches": batches,
            "largest_batch": largest,
            "cancelled": cancelled,
        }


class BatchedPrivateKey(RSAPrivateKey):
    """An ``RSAPrivateKey`` whose ``sign`` goes through a :class:`BatchSigner` (made by
    :meth:`BatchSigner.add_key`); everything else (``public_key``, ``decrypt``,
    ``private_bytes``, ``sign_many``, ...) is the key's own."""

    __slots__ = ("_handle", "_signer")

    def __init__(self, key: RSAPrivateKey, handle: _redc.ServiceKey, signer: BatchSigner) -> None:
        if not isinstance(handle, _redc.ServiceKey) or not isinstance(signer, BatchSigner):
            raise TypeError("use BatchSigner.add_key")
        super().__init__(key._key)
        self._handle = handle
        self._signer = signer

    def _native(self) -> _redc.ServiceKey:
        """The key's handle in this process's service (made again in a forked child)."""
        handle = self._handle
        if handle.usable:
            return handle
        service = self._signer._native()
        with _fork_lock:
            if not self._handle.usable:
                self._handle = service.add_key(self._key)
            return self._handle

    @property
    def key(self) -> RSAPrivateKey:
        """The plain key (signing on the calling thread, any PSS parameters)."""
        return RSAPrivateKey(self._key)

    def _service_args(
        self, data: BytesLike, padding: PaddingLike, algorithm: DigestSized
    ) -> Tuple[bytes, str, str, bool]:
        """``(data, kind, hash name, prehashed)`` of a request to the service, or the error of
        arguments it does not sign with."""
        raw = _bytes(data, "data")
        name, prehashed, kind, mgf, salt = self._signing_args(padding, algorithm)
        if kind == "pss" and (mgf != name or salt != algorithm.digest_size):
            raise ValueError(
                "redc's signing service makes PSS signatures with MGF1 of the message's hash and "
                "a salt as long as the hash only; sign with BatchedPrivateKey.key for others"
            )
        _check_prehashed(raw, algorithm, prehashed)
        return raw, kind, name, prehashed

    def sign(  # type: ignore[override]
        self, data: BytesLike, padding: PaddingLike, algorithm: DigestSized
    ) -> bytes:
        """Signs ``data`` (hashed with ``algorithm``, or already hashed with ``Prehashed``)
        through the service: PKCS#1 v1.5, or PSS with MGF1 of ``algorithm`` and a salt of its
        digest's length (``ValueError`` for other PSS parameters)."""
        raw, kind, name, prehashed = self._service_args(data, padding, algorithm)
        return self._native().sign(raw, kind, name, prehashed)

    async def sign_async(self, data: BytesLike, padding: PaddingLike, algorithm: DigestSized) -> bytes:
        """``sign`` for asyncio: the request is queued at once and the calling task suspended
        until one of the service's workers has signed it (in a batch with whatever else is
        queued for the key, from tasks or threads); it is never signed on the event loop's
        thread. Argument errors are raised before anything is queued; the request's own error
        (a fault check that failed, say) is raised here. Cancelling the task drops the request
        if no worker has taken it yet."""
        raw, kind, name, prehashed = self._service_args(data, padding, algorithm)
        loop = asyncio.get_running_loop()
        results = _answers_for(loop)
        token, future = results.submit(loop, self._native(), raw, kind, name, prehashed)
        try:
            return await future
        except asyncio.CancelledError:
            results.cancel(token)
            raise


def _settle(future: asyncio.Future[bytes], signature: Optional[bytes], error: Optional[BaseException]) -> None:
    """Completes ``future`` on its event loop's thread (unless it was cancelled meanwhile)."""
    if future.done():
        return
    if error is not None:
        future.set_exception(error)
    else:
        assert signature is not None
        future.set_result(signature)


class _LoopAnswers:
    """The ``sign_async`` requests of one event loop that watches sockets (``add_reader``, as
    asyncio's selector loops on Unix do): the native queue's notify socket becomes readable when
    answers are ready, and the loop collects them on its own thread, with no thread between the
    service's workers and the loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.queue = _redc.AsyncQueue(notify=True)
        self.futures: Dict[int, asyncio.Future[bytes]] = {}
        fd = self.queue.notify_fd
        assert fd is not None
        loop.add_reader(fd, self._collect)

    def submit(
        self,
        loop: asyncio.AbstractEventLoop,
        handle: _redc.ServiceKey,
        data: bytes,
        kind: str,
        name: str,
        prehashed: bool,
    ) -> Tuple[int, asyncio.Future[bytes]]:
        # On the loop's thread: an answer is collected there too, after this returns.
        future: asyncio.Future[bytes] = loop.create_future()
        token = self.queue.submit(handle, data, kind, name, prehashed)
        self.futures[token] = future
        return token, future

    def cancel(self, token: int) -> None:
        self.futures.pop(token, None)
        self.queue.cancel(token)

    def _collect(self) -> None:
        if not self.queue.usable:  # a loop used across a fork: not this process's queue
            return
        answered = self.queue.wait(0)
        for token, signature, error in answered or ():
            future = self.futures.pop(token, None)
            if future is not None:
                _settle(future, signature, error)


# The answers of each event loop that watches sockets, while the loop exists.
_loop_answers: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _LoopAnswers] = weakref.WeakKeyDictionary()
_loop_answers_lock = threading.Lock()


def _answers_for(loop: asyncio.AbstractEventLoop) -> Union[_LoopAnswers, _AsyncResults]:
    """Where ``loop``'s requests go: its own :class:`_LoopAnswers`, or, for a loop that
    cannot watch a socket (Windows' proactor loop) or be weakly referenced, the process's
    :class:`_AsyncResults` and its thread."""
    # Each loop makes and uses its own on its own thread; the lock only keeps the table whole
    # while loops on several threads add theirs.
    with _loop_answers_lock:
        answers = _loop_answers.get(loop)
    if answers is not None and answers.queue.usable:
        return answers
    if os.name == "posix":
        try:
            weakref.ref(loop)  # TypeError for a loop without weak references
            answers = _LoopAnswers(loop)  # NotImplementedError for one without add_reader
        except (NotImplementedError, TypeError):
            return _async_results()
        with _loop_answers_lock:
            _loop_answers[loop] = answers
        return answers
    return _async_results()


class _AsyncResults:
    """This process's ``sign_async`` requests from loops that cannot watch a socket: the
    native queue they are submitted to, the futures awaiting them, and a thread that blocks on
    the queue (without the GIL) and hands each answer to its future's event loop."""

    def __init__(self) -> None:
        self.queue = _redc.AsyncQueue()
        self.futures: Dict[int, asyncio.Future[bytes]] = {}
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self._run, name="redc-service-answers", daemon=True)
        self.thread.start()

    def submit(
        self,
        loop: asyncio.AbstractEventLoop,
        handle: _redc.ServiceKey,
        data: bytes,
        kind: str,
        name: str,
        prehashed: bool,
    ) -> Tuple[int, asyncio.Future[bytes]]:
        future: asyncio.Future[bytes] = loop.create_future()
        # Under the lock, so that the answer (taken by the thread under it) finds the future.
        with self.lock:
            token = self.queue.submit(handle, data, kind, name, prehashed)
            self.futures[token] = future
        return token, future

    def cancel(self, token: int) -> None:
        with self.lock:
            self.futures.pop(token, None)
        self.queue.cancel(token)

    def _run(self) -> None:
        while True:
            answered = self.queue.wait()
            if answered is None:
                return
            with self.lock:
                settled: List[Tuple[Optional[asyncio.Future[bytes]], Optional[bytes], Optional[BaseException]]] = [
                    (self.futures.pop(token, None), signature, error) for token, signature, error in answered
                ]
            for future, signature, error in settled:
                if future is None:
                    continue
                try:
                    future.get_loop().call_soon_threadsafe(_settle, future, signature, error)
                except RuntimeError:  # its event loop is closed: nobody awaits it
                    pass

    def close(self) -> None:
        """Drops what is pending and stops the thread (at exit, before daemon threads are
        stopped wherever they are)."""
        self.queue.close()
        self.thread.join(timeout=5)


_results: Optional[_AsyncResults] = None


def _async_results() -> _AsyncResults:
    """This process's :class:`_AsyncResults` (made on first use, and again in a forked child,
    where the parent's thread does not run)."""
    global _results
    results = _results
    if results is not None and results.queue.usable:
        return results
    with _fork_lock:
        if _results is None or not _results.queue.usable:
            _results = _AsyncResults()
        return _results


@atexit.register
def _close_async_results() -> None:
    results = _results
    if results is not None and results.queue.usable:
        results.close()
