//! A signing service for many concurrent callers: [`BatchSigner`] gathers single requests from
//! any number of threads into batches per key, so that the exponentiations of several callers'
//! signatures share the vector registers (with the AVX-512 IFMA backend, up to eight
//! exponentiations per call), and runs them on a pool of worker threads.
//!
//! How requests become batches:
//! - A caller that finds the service idle (no request queued and a worker slot free) signs its
//!   own request at once, on its own thread: a lone caller waits for nothing and pays no
//!   hand-over between threads ([`ServiceConfig::inline`], on by default).
//! - Otherwise the request is queued under its key. A worker takes up to
//!   [`ServiceConfig::max_batch`] requests of the key whose oldest request is oldest; while
//!   other work is in flight it waits up to [`ServiceConfig::max_wait`] for a batch to fill,
//!   so a request never waits for company longer than that.
//! - At most [`ServiceConfig::workers`] computations run at once (callers signing inline count
//!   as one), so the service never has more signing threads than it was given.
//!
//! Every signature goes through the key's blinded, fault-checked private operation
//! ([`RsaPrivateKey::raw_private_batch`]'s per-item form): a request with a bad digest, or
//! one whose result fails the fault check, gets its own error while the rest of its batch is
//! released. Dropping the service finishes every queued request before its workers exit.
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
use alloc::vec::Vec;
use std::boxed::Box;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, RwLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use rand_core::OsRng;

use crate::rsa::{Error, HashAlg, Pkcs1v15Sign, Pss, Result, RsaPrivateKey};

/// How a [`BatchSigner`] batches and how many threads it signs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ServiceConfig {
    /// Worker threads, and the most computations at once (default: one per core, from
    /// [`std::thread::available_parallelism`]).
    pub workers: usize,
    /// The most requests of one key signed together (default 8: two calls of the IFMA lanes for
    /// two-prime keys).
    pub max_batch: usize,
    /// The longest a queued request waits for others to join its batch while other work is in
    /// flight (default 500 µs, about two 2048-bit signatures; 0 never waits).
    pub max_wait: Duration,
    /// Whether a caller that finds the service idle signs on its own thread (default true:
    /// a lone request then costs what a plain `sign` costs). With false every request is
    /// signed by a worker, keeping the callers' threads (an async runtime's, say) free.
    pub inline: bool,
}

impl Default for ServiceConfig {
    fn default() -> Self {
        ServiceConfig {
            workers: std::thread::available_parallelism().map_or(1, |n| n.get()),
            max_batch: 8,
            max_wait: Duration::from_micros(500),
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
}

/// A key held by a [`BatchSigner`] ([`BatchSigner::add_key`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KeyId(usize);

/// The answer channel of one request: called exactly once with its result.
type Reply = Box<dyn FnOnce(Result<Vec<u8>>) + Send>;

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
    /// Queued requests in all queues.
    queued: usize,
    /// Computations running (workers' batches and callers signing inline).
    busy: usize,
    closing: bool,
}

struct Shared {
    config: ServiceConfig,
    stats: Mutex<ServiceStats>,
    keys: RwLock<Vec<Arc<RsaPrivateKey>>>,
    state: Mutex<State>,
    /// Signalled when a request is queued, a computation ends, or the service closes.
    changed: Condvar,
}

/// A signing service for concurrent callers (see the module documentation): `Send + Sync`,
/// shared by reference or in an [`Arc`].
pub struct BatchSigner {
    shared: Arc<Shared>,
    workers: Vec<JoinHandle<()>>,
}

impl core::fmt::Debug for BatchSigner {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("BatchSigner")
            .field("config", &self.shared.config)
            .finish_non_exhaustive()
    }
}

impl BatchSigner {
    /// A service with `config`'s workers started (at least one worker, batches of at least
    /// one).
    pub fn new(config: ServiceConfig) -> Self {
        let config = ServiceConfig {
            workers: config.workers.max(1),
            max_batch: config.max_batch.max(1),
            ..config
        };
        let shared = Arc::new(Shared {
            config,
            stats: Mutex::new(ServiceStats::default()),
            keys: RwLock::new(Vec::new()),
            state: Mutex::new(State::default()),
            changed: Condvar::new(),
        });
        let workers = (0..config.workers)
            .map(|_| {
                let shared = Arc::clone(&shared);
                std::thread::spawn(move || shared.work())
            })
            .collect();
        BatchSigner { shared, workers }
    }

    /// The configuration in use.
    pub fn config(&self) -> ServiceConfig {
        self.shared.config
    }

    /// What the service has done so far (how many requests, how they were batched).
    pub fn stats(&self) -> ServiceStats {
        *self.shared.stats.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Adds `key` to the keys this service signs with; requests name it by the returned id.
    pub fn add_key(&self, key: RsaPrivateKey) -> KeyId {
        let mut keys = self.shared.keys.write().unwrap_or_else(|e| e.into_inner());
        keys.push(Arc::new(key));
        let id = keys.len() - 1;
        drop(keys);
        let mut state = self.shared.lock();
        while state.queues.len() <= id {
            state.queues.push(VecDeque::new());
        }
        KeyId(id)
    }

    /// Signs `digest` (the hash of the message, of `scheme`'s hash) with key `key`, blocking
    /// until the signature is ready: with other callers' requests where they are waiting, on
    /// the calling thread when the service is idle. The signature is the one
    /// [`Pkcs1v15Sign`] or [`Pss`] (salt as long as the hash) give for this digest, blinded
    /// and fault-checked. Errors are this request's own: a digest of the wrong length
    /// ([`Error::InputOutOfRange`]), a fault ([`Error::FaultDetected`]), a failing generator
    /// ([`Error::Rng`]), or [`Error::ServiceStopped`] for a key this service does not hold.
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

    fn sign_inner(
        &self,
        key: KeyId,
        scheme: Scheme,
        digest: &[u8],
        fault: bool,
    ) -> Result<Vec<u8>> {
        let shared = &self.shared;
        let k = shared.key(key)?;
        let mut state = shared.lock();
        if shared.config.inline
            && state.queued == 0
            && state.busy < shared.config.workers
            && !state.closing
        {
            // Idle: sign here, holding a slot.
            state.busy += 1;
            drop(state);
            let result = sign_batch(&k, &[(scheme, digest, fault)]).pop();
            shared.count(1, true);
            let mut state = shared.lock();
            state.busy -= 1;
            drop(state);
            shared.changed.notify_all();
            return result.unwrap_or(Err(Error::ServiceStopped));
        }
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        let reply: Reply = Box::new(move |r| {
            let _ = tx.send(r);
        });
        shared.enqueue(&mut state, key, scheme, digest, fault, reply)?;
        drop(state);
        shared.changed.notify_all();
        rx.recv().unwrap_or(Err(Error::ServiceStopped))
    }

    /// [`BatchSigner::sign`] for async code (feature `async`): queues the request now (never
    /// signing on the calling task) and returns a future that resolves when a worker has
    /// signed it. The future needs no particular runtime (tokio, async-std, a plain executor)
    /// and does not borrow the service: dropping the service still answers it.
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
        if let Err(e) = shared.key(key) {
            return SignFuture::Failed(e);
        }
        let (tx, rx) = futures_channel::oneshot::channel();
        let reply: Reply = Box::new(move |r| {
            let _ = tx.send(r);
        });
        let mut state = shared.lock();
        if let Err(e) = shared.enqueue(&mut state, key, scheme, digest, false, reply) {
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
        // A worker that panicked left its queue behind: fail what is left (dropping a reply
        // answers its caller with ServiceStopped).
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

    fn key(&self, key: KeyId) -> Result<Arc<RsaPrivateKey>> {
        let keys = self.keys.read().unwrap_or_else(|e| e.into_inner());
        keys.get(key.0).cloned().ok_or(Error::ServiceStopped)
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
        if state.closing {
            return Err(Error::ServiceStopped);
        }
        let queue = state.queues.get_mut(key.0).ok_or(Error::ServiceStopped)?;
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
            if state.busy >= config.workers {
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
            let waiting = state.queues[id].len();
            let age = oldest.elapsed();
            if waiting < config.max_batch
                && state.busy > 0
                && !state.closing
                && age < config.max_wait
            {
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
            state.busy += 1;
            drop(state);
            self.changed.notify_all();
            let results = match self.key(KeyId(id)) {
                Ok(key) => {
                    let items: Vec<(Scheme, &[u8], bool)> = batch
                        .iter()
                        .map(|r| (r.scheme, &r.digest[..], r.fault))
                        .collect();
                    sign_batch(&key, &items)
                }
                Err(e) => batch.iter().map(|_| Err(e)).collect(),
            };
            self.count(batch.len() as u64, false);
            for (request, result) in batch.into_iter().zip(results) {
                (request.reply)(result);
            }
            state = self.lock();
            state.busy -= 1;
            self.changed.notify_all();
        }
    }
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
}
