//! A signing service for many concurrent callers: [`BatchSigner`] gathers single requests from
//! any number of threads into batches per key, so that the exponentiations of several callers'
//! signatures share the vector registers (with the AVX-512 IFMA backend, up to eight
//! exponentiations per call), and runs them on a pool of worker threads.
//!
//! How requests become batches:
//! - A caller that finds no request queued and fewer requests being signed than there are
//!   workers signs its own request at once, on its own thread: a lone caller (or as many as
//!   there are cores) waits for nothing and pays no hand-over between threads
//!   ([`ServiceConfig::inline`], on by default).
//! - Otherwise the request is queued under its key. Whenever a worker slot is free, a worker
//!   takes up to [`ServiceConfig::max_batch`] requests of the key whose oldest request is
//!   oldest: the requests that arrived while every slot was busy are signed together. With a
//!   nonzero [`ServiceConfig::max_wait`] a worker also waits, while other work is in flight
//!   and fewer requests wait than fill one call of the key's side-by-side exponentiations
//!   (four two-prime signatures in the IFMA lanes; one where a batch signs one after
//!   another), up to that long for more, so a request never waits for company longer than
//!   that.
//! - At most [`ServiceConfig::workers`] computations run at once (callers signing inline count
//!   as one), so the service never has more signing threads than it was given.
//!
//! Every signature goes through the key's blinded, fault-checked private operation
//! ([`RsaPrivateKey::raw_private_batch`]'s per-item form): a request with a bad digest, or
//! one whose result fails the fault check, gets its own error while the rest of its batch is
//! released. Dropping the service finishes every queued request before its workers exit.
//!
//! Robustness:
//! - A panic inside a computation never wedges the service: the worker answers every request
//!   of that batch with [`Error::ServiceStopped`] and goes on serving; a caller signing inline
//!   gets the panic itself, and its worker slot is released all the same.
//! - A request of `BatchSigner::sign_async` (feature `async`) whose future was dropped
//!   before a worker took it is discarded unsigned ([`ServiceStats::cancelled`]).
//! - A [`KeyId`] names a key of the service that issued it: another service refuses it with
//!   [`Error::UnknownKey`].
//! - [`BatchSigner::new`] does not panic when the operating system refuses threads: it runs
//!   with the workers that started, or with none, signing every request on its caller's thread.
//! - A process forked from one that holds a service gets its memory but none of its worker
//!   threads (and perhaps a lock one of them held): make services after forking, and neither
//!   use nor drop an inherited one in the child (dropping waits for its workers). The Python
//!   package's `redc.service.BatchSigner` does this for pre-forking servers.
//!
//! ```
//! use std::sync::Arc;
//! use redc::rsa::{sha2::{Digest, Sha256}, HashAlg, OsRng, RsaPrivateKey};
//! use redc::service::{BatchSigner, Scheme, ServiceConfig};
//!
//! let key = RsaPrivateKey::new(&mut OsRng, 2048)?;
//! let public = key.to_public_key();
//! let service = Arc::new(BatchSigner::new(ServiceConfig::default()));
//! let id = service.add_key(key);
//!
//! // Any number of threads sign through it.
//! let threads: Vec<_> = (0..4u8)
//!     .map(|i| {
//!         let service = Arc::clone(&service);
//!         std::thread::spawn(move || {
//!             let digest = Sha256::digest([i]);
//!             service.sign(id, Scheme::Pkcs1v15(HashAlg::Sha256), &digest)
//!         })
//!     })
//!     .collect();
//! for (i, t) in threads.into_iter().enumerate() {
//!     let signature = t.join().unwrap()?;
//!     let digest = Sha256::digest([i as u8]);
//!     public.verify(redc::rsa::Pkcs1v15Sign::new::<Sha256>(), &digest, &signature)?;
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use alloc::collections::VecDeque;
use alloc::format;
use alloc::vec;
use alloc::vec::Vec;
use core::sync::atomic::{AtomicU64, Ordering};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, RwLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use rand_core::OsRng;

use crate::rsa::{Error, HashAlg, Pkcs1v15Sign, Pss, Result, RsaPrivateKey};

/// How a [`BatchSigner`] batches and how many threads it signs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ServiceConfig {
    /// Worker threads, and the most computations at once (default: one per core, from
    /// [`std::thread::available_parallelism`]). [`BatchSigner::config`] gives the number
    /// that actually started.
    pub workers: usize,
    /// The most requests of one key signed together (default 8: two calls of the IFMA lanes for
    /// two-prime keys).
    pub max_batch: usize,
    /// The longest a queued request waits for others to join its batch while other work is in
    /// flight and the batch does not yet fill one call of the key's side-by-side
    /// exponentiations (default 0: a free worker takes what is queued at once). Waiting idles
    /// a core in the hope of a fuller batch: with callers that each wait for their signature,
    /// every wait tried (50 to 500 µs) lost throughput at 2048 bits, and at 3072 and 4096
    /// bits 500 µs gained 8–18 % at eight callers but lost 7–28 % at four and six
    /// (docs/performance.md). It may pay where requests arrive independently of the answers.
    pub max_wait: Duration,
    /// Whether a caller that finds no request queued and fewer requests being signed than
    /// workers signs on its own thread (default true: a lone request then costs what a plain
    /// `sign` costs). With false every request is signed by a worker, keeping the callers'
    /// threads (an async runtime's, say) free.
    pub inline: bool,
}

impl Default for ServiceConfig {
    fn default() -> Self {
        ServiceConfig {
            workers: std::thread::available_parallelism().map_or(1, |n| n.get()),
            max_batch: 8,
            max_wait: Duration::ZERO,
            inline: true,
        }
    }
}

/// The signature scheme of a request; the digest given with it must be of this hash.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scheme {
    /// RSASSA-PKCS1-v1_5 (RFC 8017 §8.2) with this hash's `DigestInfo`.
    Pkcs1v15(HashAlg),
    /// RSASSA-PSS (RFC 8017 §8.1) with this hash, MGF1 with it, and a salt of its length.
    Pss(HashAlg),
}

/// Counters of a [`BatchSigner`]'s work so far ([`BatchSigner::stats`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ServiceStats {
    /// Requests answered (signed or failed).
    pub requests: u64,
    /// Requests signed by their caller's own thread because the service was idle.
    pub inline: u64,
    /// Batches the workers signed.
    pub batches: u64,
    /// The largest batch so far.
    pub largest_batch: u64,
    /// Requests discarded unsigned because their future (`BatchSigner::sign_async`, feature
    /// `async`) was dropped before a worker took them (not counted in `requests`).
    pub cancelled: u64,
}

/// A key held by a [`BatchSigner`] ([`BatchSigner::add_key`]): valid only with the service
/// that issued it (another service answers [`Error::UnknownKey`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KeyId {
    /// The issuing service's identity ([`Shared::id`]).
    service: u64,
    /// The key's position in that service's keys.
    index: usize,
}

/// The identity of the next service: every [`BatchSigner`] takes its own, so that a [`KeyId`]
/// of one is never mistaken for a key of another.
static NEXT_SERVICE: AtomicU64 = AtomicU64::new(1);

/// The answer channel of one request: answered at most once with its result.
enum Reply {
    /// A blocking caller ([`BatchSigner::sign`]), waiting until answered: never cancelled.
    Blocking(std::sync::mpsc::SyncSender<Result<Vec<u8>>>),
    /// A [`SignFuture`], cancelled when the future is dropped.
    #[cfg(feature = "async")]
    Async(futures_channel::oneshot::Sender<Result<Vec<u8>>>),
}

impl Reply {
    /// Answers the request (a caller that is gone no longer listens).
    fn send(self, result: Result<Vec<u8>>) {
        match self {
            Reply::Blocking(tx) => {
                let _ = tx.send(result);
            }
            #[cfg(feature = "async")]
            Reply::Async(tx) => {
                let _ = tx.send(result);
            }
        }
    }

    /// Whether nobody awaits the answer any more (the future was dropped).
    fn is_cancelled(&self) -> bool {
        match self {
            Reply::Blocking(_) => false,
            #[cfg(feature = "async")]
            Reply::Async(tx) => tx.is_canceled(),
        }
    }
}

/// A queued request.
struct Request {
    scheme: Scheme,
    digest: Vec<u8>,
    /// Test hook: fault this request's private operation.
    fault: bool,
    queued: Instant,
    reply: Reply,
}

/// The state every thread shares, under one lock.
#[derive(Default)]
struct State {
    /// Per key (by [`KeyId`]), its queued requests, oldest first.
    queues: Vec<VecDeque<Request>>,
    /// Per key, the requests that fill one call of its side-by-side exponentiations
    /// ([`RsaPrivateKey::operations_per_call`]): a worker waits for company up to that many.
    fills: Vec<usize>,
    /// Queued requests in all queues.
    queued: usize,
    /// Computations running (workers' batches and callers signing inline); each is held by a
    /// [`Slot`], which gives it back even when the computation panics.
    busy: usize,
    /// The requests those computations are signing.
    serving: usize,
    /// The most computations at once: the worker threads that started.
    slots: usize,
    closing: bool,
    /// Test hook: workers take no batch while set (unless the service is closing).
    #[cfg(feature = "test-hooks")]
    paused: bool,
}

struct Shared {
    /// This service's identity, stamped on its [`KeyId`]s.
    id: u64,
    /// The configuration asked for (workers and batches at least one).
    config: ServiceConfig,
    stats: Mutex<ServiceStats>,
    /// The keys by index; `None` once removed ([`BatchSigner::remove_key`]: indices are never
    /// reused, so a removed key's id stays unknown).
    keys: RwLock<Vec<Option<Arc<RsaPrivateKey>>>>,
    state: Mutex<State>,
    /// Signalled when a request is queued, a computation ends, or the service closes.
    changed: Condvar,
    /// Test hook: every computation panics while set.
    #[cfg(feature = "test-hooks")]
    panic_for_tests: core::sync::atomic::AtomicBool,
}

/// One computation's hold on a worker slot (`State::busy`) and on its requests' count in
/// `State::serving`: released when dropped, also when the computation panics, so that a panic
/// never leaks a slot.
struct Slot<'a> {
    shared: &'a Shared,
    requests: usize,
}

impl<'a> Slot<'a> {
    /// Takes a slot for a computation of `requests` requests (`state` is `shared`'s, locked).
    fn take(shared: &'a Shared, state: &mut State, requests: usize) -> Self {
        state.busy += 1;
        state.serving += requests;
        Slot { shared, requests }
    }
}

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        let mut state = self.shared.lock();
        state.busy -= 1;
        state.serving -= self.requests;
        // A free slot matters to a worker only while requests are queued (one asleep for want
        // of a slot); with none queued, waking the workers would only have them find nothing
        // and sleep again: two wake-ups per signature for a lone caller signing inline.
        let wake = state.queued > 0;
        drop(state);
        if wake {
            self.shared.changed.notify_all();
        }
    }
}

/// A signing service for concurrent callers (see the module documentation): `Send + Sync`,
/// shared by reference or in an [`Arc`].
pub struct BatchSigner {
    shared: Arc<Shared>,
    /// The configuration in use: `workers` is the number of threads that started.
    config: ServiceConfig,
    /// The worker threads; none when the operating system refused every one (then every
    /// request is signed on its caller's thread).
    workers: Vec<JoinHandle<()>>,
}

impl core::fmt::Debug for BatchSigner {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("BatchSigner")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl BatchSigner {
    /// A service with `config`'s workers started (at least one worker, batches of at least
    /// one).
    ///
    /// It does not panic when the operating system refuses to start a thread: it runs with the
    /// workers that started before the first refusal ([`BatchSigner::config`] then reports
    /// that many, and at most that many computations run at once). If not even one started,
    /// the service has no thread of its own and signs every request on its caller's thread,
    /// as a plain [`RsaPrivateKey::sign`] would, without batching or a limit on concurrent
    /// callers (`BatchSigner::sign_async`, feature `async`, then signs before it returns its
    /// future); [`BatchSigner::config`] reports 0 workers and `inline` on.
    pub fn new(config: ServiceConfig) -> Self {
        Self::start(config, usize::MAX)
    }

    /// Test hook (feature `test-hooks`; not for production): [`BatchSigner::new`] as if the
    /// operating system refused every worker thread after the first `threads`.
    #[cfg(feature = "test-hooks")]
    pub fn with_thread_limit_for_tests(config: ServiceConfig, threads: usize) -> Self {
        Self::start(config, threads)
    }

    /// [`BatchSigner::new`], with the spawning of worker `threads` and up failing.
    fn start(config: ServiceConfig, threads: usize) -> Self {
        let config = ServiceConfig {
            workers: config.workers.max(1),
            max_batch: config.max_batch.max(1),
            ..config
        };
        let shared = Arc::new(Shared {
            id: NEXT_SERVICE.fetch_add(1, Ordering::Relaxed),
            config,
            stats: Mutex::new(ServiceStats::default()),
            keys: RwLock::new(Vec::new()),
            // No computation runs before the workers are counted below.
            state: Mutex::new(State::default()),
            changed: Condvar::new(),
            #[cfg(feature = "test-hooks")]
            panic_for_tests: core::sync::atomic::AtomicBool::new(false),
        });
        let mut workers = Vec::with_capacity(config.workers);
        for i in 0..config.workers {
            let worker = Arc::clone(&shared);
            let spawned = if i < threads {
                std::thread::Builder::new()
                    .name(format!("redc-signer-{i}"))
                    .spawn(move || worker.work())
            } else {
                drop(worker);
                Err(std::io::Error::other("test hook: thread refused"))
            };
            match spawned {
                Ok(handle) => workers.push(handle),
                // The operating system refuses threads: serve with those that started.
                Err(_) => break,
            }
        }
        shared.lock().slots = workers.len();
        shared.changed.notify_all();
        let config = if workers.is_empty() {
            ServiceConfig {
                workers: 0,
                inline: true,
                ..config
            }
        } else {
            ServiceConfig {
                workers: workers.len(),
                ..config
            }
        };
        BatchSigner {
            shared,
            config,
            workers,
        }
    }

    /// The configuration in use: as given, except that `workers` is the number of worker
    /// threads that started (see [`BatchSigner::new`]; at least one unless the operating
    /// system refused every thread) and `max_batch` at least one.
    pub fn config(&self) -> ServiceConfig {
        self.config
    }

    /// What the service has done so far (how many requests, how they were batched).
    pub fn stats(&self) -> ServiceStats {
        *self.shared.stats.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Adds `key` to the keys this service signs with; requests name it by the returned id.
    pub fn add_key(&self, key: RsaPrivateKey) -> KeyId {
        let mut keys = self.shared.keys.write().unwrap_or_else(|e| e.into_inner());
        let fill = key.operations_per_call();
        keys.push(Some(Arc::new(key)));
        let index = keys.len() - 1;
        drop(keys);
        let mut state = self.shared.lock();
        // Keys added at once may reach this lock in either order: each sets its own fill.
        while state.queues.len() <= index {
            state.queues.push(VecDeque::new());
            state.fills.push(1);
        }
        state.fills[index] = fill;
        KeyId {
            service: self.shared.id,
            index,
        }
    }

    /// How many keys the service holds now (added and not removed).
    pub fn keys_held(&self) -> usize {
        let keys = self.shared.keys.read().unwrap_or_else(|e| e.into_inner());
        keys.iter().filter(|k| k.is_some()).count()
    }

    /// Removes key `key` from the service, so that its memory is released (and zeroized) once
    /// no computation uses it any more: a server that reloads its keys removes the old ones.
    /// Requests for it still queued are answered with [`Error::UnknownKey`], as are later
    /// ones; a batch already being signed finishes. Returns whether this service held the
    /// key (false for an id of another service or one removed before).
    pub fn remove_key(&self, key: KeyId) -> bool {
        let Some(index) = self.shared.index(key) else {
            return false;
        };
        let mut keys = self.shared.keys.write().unwrap_or_else(|e| e.into_inner());
        let Some(removed) = keys.get_mut(index).and_then(Option::take) else {
            return false;
        };
        drop(keys);
        drop(removed);
        let mut state = self.shared.lock();
        let pending: Vec<Request> = state
            .queues
            .get_mut(index)
            .map(|q| q.drain(..).collect())
            .unwrap_or_default();
        state.queued -= pending.len();
        drop(state);
        self.shared.changed.notify_all();
        for request in pending {
            request.reply.send(Err(Error::UnknownKey));
        }
        true
    }

    /// Signs `digest` (the hash of the message, of `scheme`'s hash) with key `key`, blocking
    /// until the signature is ready: with other callers' requests where they are waiting, on
    /// the calling thread when the service is idle. The signature is the one
    /// [`Pkcs1v15Sign`] or [`Pss`] (salt as long as the hash) give for this digest, blinded
    /// and fault-checked. Errors are this request's own: a digest of the wrong length
    /// ([`Error::InputOutOfRange`]), a fault ([`Error::FaultDetected`]), a failing generator
    /// ([`Error::Rng`]), [`Error::UnknownKey`] for a key this service does not hold (an id of
    /// another service included), or [`Error::ServiceStopped`] if the computation panicked.
    /// If it panics on this thread (when signing inline), the panic reaches the caller.
    pub fn sign(&self, key: KeyId, scheme: Scheme, digest: &[u8]) -> Result<Vec<u8>> {
        self.sign_inner(key, scheme, digest, false)
    }

    /// Test hook (feature `test-hooks`; not for production): [`BatchSigner::sign`] with a bit
    /// of this request's private operation flipped, as a fault would, so that its fault check
    /// must fail while its batch's other requests succeed.
    #[cfg(feature = "test-hooks")]
    pub fn sign_faulty_for_tests(
        &self,
        key: KeyId,
        scheme: Scheme,
        digest: &[u8],
    ) -> Result<Vec<u8>> {
        self.sign_inner(key, scheme, digest, true)
    }

    /// Test hook (feature `test-hooks`; not for production): while `on`, every computation of
    /// this service (a worker's batch or a caller's inline signature) panics, as a bug inside
    /// the signing would.
    #[cfg(feature = "test-hooks")]
    pub fn set_panic_for_tests(&self, on: bool) {
        self.shared.panic_for_tests.store(on, Ordering::SeqCst);
    }

    /// Test hook (feature `test-hooks`; not for production): while `paused`, the workers take
    /// no batch, so that requests pile up in the queues (callers signing inline are not held:
    /// use `inline: false`). Dropping the service resumes them.
    #[cfg(feature = "test-hooks")]
    pub fn pause_workers_for_tests(&self, paused: bool) {
        self.shared.lock().paused = paused;
        self.shared.changed.notify_all();
    }

    /// Test hook (feature `test-hooks`; not for production): the requests queued now.
    #[cfg(feature = "test-hooks")]
    pub fn queued_for_tests(&self) -> usize {
        self.shared.lock().queued
    }

    fn sign_inner(
        &self,
        key: KeyId,
        scheme: Scheme,
        digest: &[u8],
        fault: bool,
    ) -> Result<Vec<u8>> {
        let shared = &self.shared;
        let k = shared.key(key)?;
        if self.workers.is_empty() {
            // No worker thread started (see `new`): every request is signed here.
            return shared.sign_here(&k, scheme, digest, fault);
        }
        let mut state = shared.lock();
        // Fewer requests being signed than there are slots (so one is free) and none queued:
        // sign here, holding a slot (given back even if the signing panics). With as many
        // requests in hand as slots, the request queues instead, to be batched.
        if shared.config.inline
            && state.queued == 0
            && state.serving < state.slots
            && !state.closing
        {
            let slot = Slot::take(shared, &mut state, 1);
            drop(state);
            let result = shared.sign_here(&k, scheme, digest, fault);
            drop(slot);
            // A caller that signs inline again and again never blocks, so callers woken on
            // its core (their batch signed) would wait for its time slice to end: give them
            // the core first. On the Zen 4 with two workers this took the 99th percentile
            // at 3 and 4 callers from about 4 ms to about 1 ms (docs/performance.md).
            std::thread::yield_now();
            return result;
        }
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        shared.enqueue(&mut state, key, scheme, digest, fault, Reply::Blocking(tx))?;
        drop(state);
        shared.changed.notify_all();
        rx.recv().unwrap_or(Err(Error::ServiceStopped))
    }

    /// [`BatchSigner::sign`] for async code (feature `async`): queues the request now (never
    /// signing on the calling task) and returns a future that resolves when a worker has
    /// signed it. The future needs no particular runtime (tokio, async-std, a plain executor)
    /// and does not borrow the service: dropping the service still answers it. Dropping the
    /// future before a worker takes the request cancels it: it is discarded unsigned
    /// ([`ServiceStats::cancelled`]). A service without worker threads (see
    /// [`BatchSigner::new`]) signs here, before returning a future that is ready.
    ///
    /// ```
    /// use redc::rsa::{sha2::{Digest, Sha256}, HashAlg, OsRng, RsaPrivateKey};
    /// use redc::service::{BatchSigner, Scheme, ServiceConfig};
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let service = BatchSigner::new(ServiceConfig::default());
    /// let id = service.add_key(RsaPrivateKey::new(&mut OsRng, 2048)?);
    /// let digest = Sha256::digest(b"hello");
    /// let signature = service.sign_async(id, Scheme::Pss(HashAlg::Sha256), &digest).await?;
    /// assert_eq!(signature.len(), 256);
    /// # Ok(())
    /// # }
    /// ```
    #[cfg(feature = "async")]
    pub fn sign_async(&self, key: KeyId, scheme: Scheme, digest: &[u8]) -> SignFuture {
        let shared = &self.shared;
        let k = match shared.key(key) {
            Ok(k) => k,
            Err(e) => return SignFuture::Failed(e),
        };
        let (tx, rx) = futures_channel::oneshot::channel();
        if self.workers.is_empty() {
            // No worker thread started (see `new`): sign here.
            let _ = tx.send(shared.sign_here(&k, scheme, digest, false));
            return SignFuture::Queued(rx);
        }
        drop(k);
        let mut state = shared.lock();
        if let Err(e) = shared.enqueue(&mut state, key, scheme, digest, false, Reply::Async(tx)) {
            return SignFuture::Failed(e);
        }
        drop(state);
        shared.changed.notify_all();
        SignFuture::Queued(rx)
    }
}

/// The future of [`BatchSigner::sign_async`] (feature `async`): the signature, or the
/// request's own error.
#[cfg(feature = "async")]
#[derive(Debug)]
pub enum SignFuture {
    /// Queued; a worker will answer.
    Queued(futures_channel::oneshot::Receiver<Result<Vec<u8>>>),
    /// Refused before it was queued (unknown key, service closing).
    Failed(Error),
}

#[cfg(feature = "async")]
impl core::future::Future for SignFuture {
    type Output = Result<Vec<u8>>;

    fn poll(
        mut self: core::pin::Pin<&mut Self>,
        cx: &mut core::task::Context<'_>,
    ) -> core::task::Poll<Self::Output> {
        use core::task::Poll;
        match &mut *self {
            SignFuture::Queued(rx) => match core::pin::Pin::new(rx).poll(cx) {
                Poll::Ready(Ok(result)) => Poll::Ready(result),
                // The reply was dropped unanswered: the service stopped.
                Poll::Ready(Err(_)) => Poll::Ready(Err(Error::ServiceStopped)),
                Poll::Pending => Poll::Pending,
            },
            SignFuture::Failed(e) => Poll::Ready(Err(*e)),
        }
    }
}

impl Drop for BatchSigner {
    /// Finishes every queued request, then stops the workers.
    fn drop(&mut self) {
        self.shared.lock().closing = true;
        self.shared.changed.notify_all();
        for w in self.workers.drain(..) {
            let _ = w.join();
        }
        // Should a worker have died anyway, fail what is left (dropping a reply answers its
        // caller with ServiceStopped).
        let mut state = self.shared.lock();
        for q in &mut state.queues {
            q.clear();
        }
        state.queued = 0;
    }
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Counts `n` requests answered, inline or as one batch.
    fn count(&self, n: u64, inline: bool) {
        let mut st = self.stats.lock().unwrap_or_else(|e| e.into_inner());
        st.requests += n;
        if inline {
            st.inline += n;
        } else {
            st.batches += 1;
            st.largest_batch = st.largest_batch.max(n);
        }
    }

    /// Counts `n` requests discarded because their future was dropped.
    fn count_cancelled(&self, n: u64) {
        let mut st = self.stats.lock().unwrap_or_else(|e| e.into_inner());
        st.cancelled += n;
    }

    /// The index `key` names among this service's keys, if this service issued it.
    fn index(&self, key: KeyId) -> Option<usize> {
        (key.service == self.id).then_some(key.index)
    }

    /// The key `key` names, if it is one of this service's.
    fn key(&self, key: KeyId) -> Result<Arc<RsaPrivateKey>> {
        self.key_at(self.index(key).ok_or(Error::UnknownKey)?)
    }

    /// This service's key at `index`.
    fn key_at(&self, index: usize) -> Result<Arc<RsaPrivateKey>> {
        let keys = self.keys.read().unwrap_or_else(|e| e.into_inner());
        keys.get(index).cloned().flatten().ok_or(Error::UnknownKey)
    }

    /// One computation: [`sign_batch`] (and, under the test hook, a panic instead).
    fn sign(&self, key: &RsaPrivateKey, items: &[(Scheme, &[u8], bool)]) -> Vec<Result<Vec<u8>>> {
        #[cfg(feature = "test-hooks")]
        if self.panic_for_tests.load(Ordering::SeqCst) {
            panic!("redc::service test hook: a signing computation panics");
        }
        sign_batch(key, items)
    }

    /// Signs one request on the calling thread and counts it as inline.
    fn sign_here(
        &self,
        key: &RsaPrivateKey,
        scheme: Scheme,
        digest: &[u8],
        fault: bool,
    ) -> Result<Vec<u8>> {
        let result = self
            .sign(key, &[(scheme, digest, fault)])
            .pop()
            .unwrap_or(Err(Error::ServiceStopped));
        self.count(1, true);
        result
    }

    /// Queues a request (the caller holds the lock and notifies).
    fn enqueue(
        &self,
        state: &mut State,
        key: KeyId,
        scheme: Scheme,
        digest: &[u8],
        fault: bool,
        reply: Reply,
    ) -> Result<()> {
        let index = self.index(key).ok_or(Error::UnknownKey)?;
        if state.closing {
            return Err(Error::ServiceStopped);
        }
        let queue = state.queues.get_mut(index).ok_or(Error::UnknownKey)?;
        queue.push_back(Request {
            scheme,
            digest: digest.to_vec(),
            fault,
            queued: Instant::now(),
            reply,
        });
        state.queued += 1;
        Ok(())
    }

    /// A worker's loop: take a batch when there is one and a slot is free, sign it, answer.
    /// A panic inside the signing fails that batch's requests, not the worker.
    fn work(&self) {
        let config = self.config;
        let mut state = self.lock();
        loop {
            if state.queued == 0 {
                if state.closing {
                    return;
                }
                state = self.changed.wait(state).unwrap_or_else(|e| e.into_inner());
                continue;
            }
            #[cfg(feature = "test-hooks")]
            let paused = state.paused && !state.closing;
            #[cfg(not(feature = "test-hooks"))]
            let paused = false;
            if state.busy >= state.slots || paused {
                state = self.changed.wait(state).unwrap_or_else(|e| e.into_inner());
                continue;
            }
            // The key whose oldest request is oldest.
            let Some((id, oldest)) = state
                .queues
                .iter()
                .enumerate()
                .filter_map(|(i, q)| q.front().map(|r| (i, r.queued)))
                .min_by_key(|&(_, t)| t)
            else {
                state.queued = 0;
                continue;
            };
            // Requests whose future was dropped are discarded unsigned; then choose again.
            let before = state.queues[id].len();
            state.queues[id].retain(|r| !r.reply.is_cancelled());
            let cancelled = before - state.queues[id].len();
            if cancelled > 0 {
                state.queued -= cancelled;
                self.count_cancelled(cancelled as u64);
                continue;
            }
            let waiting = state.queues[id].len();
            let age = oldest.elapsed();
            let fill = state.fills[id].min(config.max_batch);
            if waits_for_company(
                waiting,
                fill,
                state.busy,
                state.closing,
                age,
                config.max_wait,
            ) {
                // Others are signing: give the batch until the deadline to fill.
                let (s, _) = self
                    .changed
                    .wait_timeout(state, config.max_wait - age)
                    .unwrap_or_else(|e| e.into_inner());
                state = s;
                continue;
            }
            let take = waiting.min(config.max_batch);
            let batch: Vec<Request> = state.queues[id].drain(..take).collect();
            state.queued -= take;
            let slot = Slot::take(self, &mut state, take);
            // Another worker may take what this batch left queued.
            let more = state.queued > 0;
            drop(state);
            if more {
                self.changed.notify_all();
            }
            let results = match self.key_at(id) {
                Ok(key) => {
                    let items: Vec<(Scheme, &[u8], bool)> = batch
                        .iter()
                        .map(|r| (r.scheme, &r.digest[..], r.fault))
                        .collect();
                    // A panic fails this batch, not the worker: every request is answered.
                    catch_unwind(AssertUnwindSafe(|| self.sign(&key, &items)))
                        .unwrap_or_else(|_| vec![Err(Error::ServiceStopped); items.len()])
                }
                Err(e) => vec![Err(e); batch.len()],
            };
            self.count(batch.len() as u64, false);
            for (request, result) in batch.into_iter().zip(results) {
                request.reply.send(result);
            }
            drop(slot);
            state = self.lock();
        }
    }
}

/// Whether a worker about to take a batch of `waiting` requests waits for more instead: only
/// while fewer than `fill` (the requests that fill one call of the key's side-by-side
/// exponentiations, at most `max_batch`) are waiting, other computations are running (so
/// the cores are not idle meanwhile), the service is not closing, and the oldest request,
/// `age` old, is younger than `max_wait`. Gathering past `fill` would make the batch no
/// cheaper per signature: a worker that waited for a whole `max_batch` of eight two-prime
/// requests (two lane calls) instead of four left the callers of a lightly loaded service
/// waiting for the deadline (docs/performance.md).
fn waits_for_company(
    waiting: usize,
    fill: usize,
    busy: usize,
    closing: bool,
    age: Duration,
    max_wait: Duration,
) -> bool {
    waiting < fill && busy > 0 && !closing && age < max_wait
}

/// Signs every item with `key` in one batch of the private operation: each item's encoding,
/// then one [`RsaPrivateKey::raw_private_batch`]-style call with a result per item (blinded,
/// fault-checked). One result per item, in order.
fn sign_batch(key: &RsaPrivateKey, items: &[(Scheme, &[u8], bool)]) -> Vec<Result<Vec<u8>>> {
    let mut rng = OsRng;
    let mut out: Vec<Result<Vec<u8>>> = Vec::with_capacity(items.len());
    let mut ems: Vec<Vec<u8>> = Vec::new();
    let mut faults: Vec<bool> = Vec::new();
    let mut index: Vec<usize> = Vec::new();
    for (i, &(scheme, digest, fault)) in items.iter().enumerate() {
        let em = match scheme {
            Scheme::Pkcs1v15(hash) => Pkcs1v15Sign::from_hash(hash).encode(digest, key.size()),
            Scheme::Pss(hash) => Pss::from_hash(hash).encode_checked(&mut rng, key, digest),
        };
        match em {
            Ok(em) => {
                index.push(i);
                ems.push(em);
                faults.push(fault);
                out.push(Err(Error::ServiceStopped)); // replaced below
            }
            Err(e) => out.push(Err(e)),
        }
    }
    let refs: Vec<&[u8]> = ems.iter().map(|e| &e[..]).collect();
    let signed = key.raw_private_each(Some(&mut rng), &refs, &faults);
    for (i, s) in index.into_iter().zip(signed) {
        out[i] = s.map(|s| s.to_vec());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send_sync<T: Send + Sync>() {}

    #[test]
    fn the_service_is_send_and_sync() {
        assert_send_sync::<BatchSigner>();
    }

    /// A worker waits for company only below the fill, while others compute, before the
    /// deadline and while the service is open.
    #[test]
    fn a_worker_waits_for_company_only_while_it_can_gain() {
        let (young, old) = (Duration::from_micros(100), Duration::from_micros(600));
        let max = Duration::from_micros(500);
        assert!(waits_for_company(3, 4, 1, false, young, max));
        assert!(
            !waits_for_company(4, 4, 1, false, young, max),
            "the call is full"
        );
        assert!(!waits_for_company(5, 4, 1, false, young, max));
        assert!(
            !waits_for_company(1, 1, 1, false, young, max),
            "batches gain nothing"
        );
        assert!(
            !waits_for_company(3, 4, 0, false, young, max),
            "the cores are idle"
        );
        assert!(!waits_for_company(3, 4, 1, true, young, max), "closing");
        assert!(
            !waits_for_company(3, 4, 1, false, old, max),
            "past the deadline"
        );
        assert!(!waits_for_company(3, 4, 1, false, young, Duration::ZERO));
    }

    /// The fill is one lane call's worth of operations where the key's batches run in the
    /// IFMA lanes (eight exponentiations: four two-prime operations, two three-prime ones),
    /// else 1.
    #[test]
    fn the_fill_is_one_lane_call_of_operations() {
        use crate::mont::backend::Backend;
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(40);
        for primes in [2usize, 3] {
            let mut key = RsaPrivateKey::new_multi_prime(&mut rng, 1024, primes).unwrap();
            for backend in Backend::available() {
                key.set_backend(backend).unwrap();
                #[cfg(target_arch = "x86_64")]
                let lanes =
                    key.kernel().lanes && crate::mont::backend::ifma::Token::get().is_some();
                #[cfg(not(target_arch = "x86_64"))]
                let lanes = false;
                let want = if lanes { 8 / primes } else { 1 };
                assert_eq!(
                    key.operations_per_call(),
                    want,
                    "{backend:?}, {primes} primes"
                );
            }
        }
    }
}
