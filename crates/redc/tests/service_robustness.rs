//! The signing service when things go wrong: a computation that panics (on a worker and on a
//! caller's thread), futures dropped before they were answered, a key id of another service,
//! and the operating system refusing worker threads. Every test runs under a watchdog, so that
//! a wedged service fails it instead of hanging `cargo test`.

mod common;

use std::sync::Arc;
use std::time::Duration;

use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use redc::rsa::sha2::{Digest, Sha256};
use redc::rsa::{Error, HashAlg, Pkcs1v15Sign, Pss, RsaPrivateKey, RsaPublicKey};
use redc::service::{BatchSigner, KeyId, Scheme, ServiceConfig};

/// [`common::within`] with a 30 s bound (a wedged service).
fn within<T: Send + 'static>(body: impl FnOnce() -> T + Send + 'static) -> T {
    common::within(Duration::from_secs(30), body)
}

/// A caller's digest and its signature (or error).
type Signed = (Vec<u8>, Result<Vec<u8>, Error>);

/// One caller per id of `ids`, each on its own thread: caller `i` signs the digest of `[i]`
/// with `ids[i]` and returns that digest and the result.
fn callers(service: &Arc<BatchSigner>, ids: &[KeyId]) -> Vec<std::thread::JoinHandle<Signed>> {
    ids.iter()
        .enumerate()
        .map(|(i, &id)| {
            let service = Arc::clone(service);
            let d = Sha256::digest([i as u8]).to_vec();
            std::thread::spawn(move || {
                let result = service.sign(id, SCHEME, &d);
                (d, result)
            })
        })
        .collect()
}

fn key(seed: u64) -> RsaPrivateKey {
    RsaPrivateKey::new(&mut ChaCha20Rng::seed_from_u64(seed), 1024).unwrap()
}

fn verify(public: &RsaPublicKey, scheme: Scheme, digest: &[u8], sig: &[u8]) {
    match scheme {
        Scheme::Pkcs1v15(h) => public.verify(Pkcs1v15Sign::from_hash(h), digest, sig),
        Scheme::Pss(h) => public.verify(Pss::from_hash(h), digest, sig),
    }
    .unwrap()
}

const SCHEME: Scheme = Scheme::Pkcs1v15(HashAlg::Sha256);

fn config(workers: usize, inline: bool) -> ServiceConfig {
    ServiceConfig {
        workers,
        max_batch: 8,
        max_wait: Duration::from_millis(5),
        inline,
    }
}

/// Waits until `n` requests are queued (the workers being paused).
fn wait_queued(service: &BatchSigner, n: usize) {
    while service.queued_for_tests() < n {
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// A batch whose computation panics: each of its requests gets `ServiceStopped`, and the only
/// worker survives to sign what comes next, and to stop when the service is dropped.
#[test]
fn a_panicking_batch_fails_its_requests_and_the_worker_keeps_serving() {
    within(|| {
        let key = key(10);
        let public = key.to_public_key();
        let service = Arc::new(BatchSigner::new(config(1, false)));
        let id = service.add_key(key);
        service.set_panic_for_tests(true);
        // One batch of three requests.
        service.pause_workers_for_tests(true);
        let callers = callers(&service, &[id; 3]);
        wait_queued(&service, 3);
        service.pause_workers_for_tests(false);
        for c in callers {
            assert_eq!(c.join().unwrap().1, Err(Error::ServiceStopped));
        }
        let stats = service.stats();
        assert_eq!((stats.batches, stats.largest_batch), (1, 3), "{stats:?}");
        // The worker is still there, and its slot was given back.
        service.set_panic_for_tests(false);
        for i in 0..3u8 {
            let d = Sha256::digest([i]);
            verify(&public, SCHEME, &d, &service.sign(id, SCHEME, &d).unwrap());
        }
        drop(service); // joins the worker
    });
}

/// A panic while signing on the caller's own thread reaches that caller, and the worker slot it
/// held is given back: the next request is served (inline again) and the service drops.
#[test]
fn a_panic_signing_inline_reaches_its_caller_and_frees_the_slot() {
    within(|| {
        let key = key(11);
        let public = key.to_public_key();
        let service = Arc::new(BatchSigner::new(config(1, true)));
        let id = service.add_key(key);
        service.set_panic_for_tests(true);
        let caller = {
            let service = Arc::clone(&service);
            std::thread::spawn(move || service.sign(id, SCHEME, &Sha256::digest(b"boom")))
        };
        assert!(caller.join().is_err(), "the panic reaches the caller");
        service.set_panic_for_tests(false);
        for i in 0..3u8 {
            let d = Sha256::digest([i]);
            verify(&public, SCHEME, &d, &service.sign(id, SCHEME, &d).unwrap());
        }
        assert_eq!(service.stats().inline, 3, "{:?}", service.stats());
        drop(service);
    });
}

/// Futures dropped before a worker took their requests are never signed; a fresh request
/// queued behind them is answered.
#[test]
fn dropped_futures_are_not_signed() {
    const DROPPED: usize = 100;
    within(|| {
        let key = key(12);
        let public = key.to_public_key();
        let service = BatchSigner::new(config(1, false));
        let id = service.add_key(key);
        service.pause_workers_for_tests(true);
        for i in 0..DROPPED as u32 {
            drop(service.sign_async(id, SCHEME, &Sha256::digest(i.to_be_bytes())));
        }
        let d = Sha256::digest(b"fresh");
        let fresh = service.sign_async(id, SCHEME, &d);
        assert_eq!(service.queued_for_tests(), DROPPED + 1);
        service.pause_workers_for_tests(false);
        let sig = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(fresh)
            .unwrap();
        verify(&public, SCHEME, &d, &sig);
        let stats = service.stats();
        assert_eq!(
            (stats.requests, stats.cancelled),
            (1, DROPPED as u64),
            "{stats:?}"
        );
        assert_eq!(service.queued_for_tests(), 0);
    });
}

/// A `KeyId` names a key of the service that issued it only: another service holding a key at
/// the same position refuses it, blocking or async, with `UnknownKey`.
#[test]
fn a_key_id_of_another_service_is_refused() {
    within(|| {
        let a = BatchSigner::new(config(1, true));
        let b = BatchSigner::new(config(1, false));
        let id_a = a.add_key(key(13));
        let id_b = b.add_key(key(14));
        let d = Sha256::digest(b"whose key?");
        assert_eq!(b.sign(id_a, SCHEME, &d), Err(Error::UnknownKey));
        assert_eq!(a.sign(id_b, SCHEME, &d), Err(Error::UnknownKey));
        assert_ne!(id_a, id_b, "the ids carry their service");
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        assert_eq!(
            rt.block_on(b.sign_async(id_a, SCHEME, &d)),
            Err(Error::UnknownKey)
        );
        // Each still signs with its own.
        assert!(a.sign(id_a, SCHEME, &d).is_ok());
        assert!(rt.block_on(b.sign_async(id_b, SCHEME, &d)).is_ok());
        assert_eq!(b.stats().requests, 1);
        assert_eq!(
            Error::UnknownKey.to_string(),
            "no key with this id in this signing service"
        );
    });
}

/// Every worker thread refused: the service signs each request on its caller's thread, blocking
/// or async, concurrent callers included, and drops at once.
#[test]
fn no_worker_thread_signs_on_the_callers_thread() {
    within(|| {
        let key = key(15);
        let public = key.to_public_key();
        let service = Arc::new(BatchSigner::with_thread_limit_for_tests(
            config(4, false),
            0,
        ));
        let c = service.config();
        assert_eq!((c.workers, c.inline), (0, true), "{c:?}");
        let id = service.add_key(key);
        let callers = callers(&service, &[id; 8]);
        for c in callers {
            let (d, sig) = c.join().unwrap();
            verify(&public, SCHEME, &d, &sig.unwrap());
        }
        let d = Sha256::digest(b"async");
        let sig = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(service.sign_async(id, SCHEME, &d))
            .unwrap();
        verify(&public, SCHEME, &d, &sig);
        let stats = service.stats();
        assert_eq!((stats.requests, stats.inline), (9, 9), "{stats:?}");
        drop(service);
    });
}

/// Some worker threads refused: the service runs with those that started.
#[test]
fn some_worker_threads_refused_serves_with_the_rest() {
    within(|| {
        let key = key(16);
        let public = key.to_public_key();
        let service = Arc::new(BatchSigner::with_thread_limit_for_tests(
            config(4, false),
            1,
        ));
        assert_eq!(service.config().workers, 1);
        let id = service.add_key(key);
        let callers = callers(&service, &[id; 16]);
        for c in callers {
            let (d, sig) = c.join().unwrap();
            verify(&public, SCHEME, &d, &sig.unwrap());
        }
        let stats = service.stats();
        assert_eq!((stats.requests, stats.inline), (16, 0), "{stats:?}");
        drop(service);
    });
}

/// A removed key is gone: its queued requests and later ones are answered `UnknownKey`, a
/// second removal and a removal through another service return false, and the service's other
/// keys are untouched.
#[test]
fn a_removed_key_answers_unknown_and_the_others_still_sign() {
    within(|| {
        let (gone, kept) = (key(21), key(22));
        let public = kept.to_public_key();
        let service = Arc::new(BatchSigner::new(config(1, false)));
        let other = BatchSigner::new(config(1, false));
        let gone_id = service.add_key(gone);
        let kept_id = service.add_key(kept);
        let foreign = other.add_key(key(23));
        // Two requests queued for the key about to go, one for the other key.
        service.pause_workers_for_tests(true);
        let callers = callers(&service, &[gone_id, gone_id, kept_id]);
        wait_queued(&service, 3);
        assert_eq!(service.keys_held(), 2);
        assert!(!service.remove_key(foreign), "an id of another service");
        assert!(service.remove_key(gone_id));
        assert!(!service.remove_key(gone_id), "removed twice");
        assert_eq!((service.keys_held(), other.keys_held()), (1, 1));
        assert_eq!(
            service.queued_for_tests(),
            1,
            "the removed key's requests left the queue"
        );
        service.pause_workers_for_tests(false);
        let results: Vec<_> = callers.into_iter().map(|c| c.join().unwrap()).collect();
        assert_eq!(results[0].1, Err(Error::UnknownKey));
        assert_eq!(results[1].1, Err(Error::UnknownKey));
        verify(
            &public,
            SCHEME,
            &results[2].0,
            results[2].1.as_ref().unwrap(),
        );
        let d = Sha256::digest(b"after");
        assert_eq!(service.sign(gone_id, SCHEME, &d), Err(Error::UnknownKey));
        verify(
            &public,
            SCHEME,
            &d,
            &service.sign(kept_id, SCHEME, &d).unwrap(),
        );
        // The other service still has its key.
        assert!(other.sign(foreign, SCHEME, &d).is_ok());
    });
}
