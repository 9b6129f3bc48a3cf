//! The signing service under concurrency: hundreds of threads, mixed keys, sizes, schemes and
//! backends, injected faults and bad digests, every signature verified; the async form under
//! tokio; a service dropped with requests still queued; a fault inside a full batch; and a lone
//! request's latency. Every test runs under a watchdog, so that a deadlock fails it instead of
//! hanging `cargo test`.

mod common;

use common::within;
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use redc::mont::backend::Backend;
use redc::rsa::sha2::{Digest, Sha256, Sha384, Sha512};
use redc::rsa::{Error, HashAlg, InputFault, Pkcs1v15Sign, Pss, RsaPrivateKey, RsaPublicKey};
use redc::service::{BatchSigner, KeyId, Scheme, ServiceConfig, ServiceStats};

/// The watchdog's bound for the stress tests (about 2 s on one core; a deadlock never ends).
const STRESS_LIMIT: Duration = Duration::from_secs(300);
/// The watchdog's bound for the small tests.
const LIMIT: Duration = Duration::from_secs(30);

fn digest(hash: HashAlg, msg: &[u8]) -> Vec<u8> {
    match hash {
        HashAlg::Sha256 => Sha256::digest(msg).to_vec(),
        HashAlg::Sha384 => Sha384::digest(msg).to_vec(),
        HashAlg::Sha512 => Sha512::digest(msg).to_vec(),
        other => panic!("unused hash {other:?}"),
    }
}

fn verify(
    public: &RsaPublicKey,
    scheme: Scheme,
    digest: &[u8],
    sig: &[u8],
) -> redc::rsa::Result<()> {
    match scheme {
        Scheme::Pkcs1v15(h) => public.verify(Pkcs1v15Sign::from_hash(h), digest, sig),
        Scheme::Pss(h) => public.verify(Pss::from_hash(h), digest, sig),
    }
}

/// The keys of the stress test: 1024 and 2048 bits, 2 and 3 primes, on the default backend,
/// and a 1024-bit key on each other backend this CPU runs.
fn keys() -> Vec<RsaPrivateKey> {
    let mut rng = ChaCha20Rng::seed_from_u64(0x5e41);
    let mut keys = vec![
        RsaPrivateKey::new(&mut rng, 1024).unwrap(),
        RsaPrivateKey::new_multi_prime(&mut rng, 1024, 3).unwrap(),
        RsaPrivateKey::new(&mut rng, 2048).unwrap(),
        RsaPrivateKey::new_multi_prime(&mut rng, 2048, 3).unwrap(),
    ];
    let base = keys[0].clone();
    for b in Backend::available() {
        let mut k = base.clone();
        k.set_backend(b).unwrap();
        keys.push(k);
    }
    keys
}

/// What request `j` of thread `t` does: which key, scheme, whether it is faulted or has a
/// digest of the wrong length.
fn plan(t: usize, j: usize, nkeys: usize) -> (usize, Scheme, bool, bool) {
    let n = t * 7 + j * 3;
    let hash = [HashAlg::Sha256, HashAlg::Sha384, HashAlg::Sha512][n % 3];
    let scheme = if (t + j).is_multiple_of(2) {
        Scheme::Pkcs1v15(hash)
    } else {
        Scheme::Pss(hash)
    };
    (n % nkeys, scheme, n % 13 == 5, n % 17 == 11)
}

/// Every request through the workers: batches must form.
#[test]
fn hundreds_of_threads_mixed_keys_faults_and_bad_digests() {
    let stats = within(STRESS_LIMIT, || {
        stress(ServiceConfig {
            workers: 2,
            max_batch: 8,
            max_wait: Duration::from_micros(300),
            inline: false,
        })
    });
    assert_eq!(stats.inline, 0, "{stats:?}");
    // With 256 callers on 2 workers, requests were batched.
    assert!(stats.largest_batch > 1 && stats.batches > 0, "{stats:?}");
    assert!(stats.largest_batch <= 8, "{stats:?}");
}

/// The default configuration (callers sign inline when the service is idle).
#[test]
fn hundreds_of_threads_default_config() {
    let stats = within(STRESS_LIMIT, || stress(ServiceConfig::default()));
    assert!(stats.largest_batch <= 8, "{stats:?}");
}

/// 256 threads of 4 requests each through a service of `config`, every answer checked.
fn stress(config: ServiceConfig) -> ServiceStats {
    const THREADS: usize = 256;
    const PER_THREAD: usize = 4;
    let keys = keys();
    let publics: Vec<RsaPublicKey> = keys.iter().map(RsaPublicKey::from).collect();
    let service = Arc::new(BatchSigner::new(config));
    let ids: Vec<KeyId> = keys.into_iter().map(|k| service.add_key(k)).collect();
    let ids = Arc::new(ids);
    let publics = Arc::new(publics);
    let start = Arc::new(Barrier::new(THREADS));
    let began = Instant::now();
    let handles: Vec<_> = (0..THREADS)
        .map(|t| {
            let (service, ids, publics, start) = (
                Arc::clone(&service),
                Arc::clone(&ids),
                Arc::clone(&publics),
                Arc::clone(&start),
            );
            std::thread::spawn(move || {
                start.wait();
                let mut counts = [0usize; 3]; // ok, faulted, refused
                for j in 0..PER_THREAD {
                    let (k, scheme, fault, bad) = plan(t, j, ids.len());
                    let hash = match scheme {
                        Scheme::Pkcs1v15(h) | Scheme::Pss(h) => h,
                    };
                    let msg = format!("thread {t} request {j}");
                    let mut d = digest(hash, msg.as_bytes());
                    if bad {
                        d.pop();
                    }
                    let got = if fault {
                        service.sign_faulty_for_tests(ids[k], scheme, &d)
                    } else {
                        service.sign(ids[k], scheme, &d)
                    };
                    // A PSS encoding the key is too small for (SHA-512 with its 64-byte salt on
                    // a 1024-bit key) fails as the padding itself says.
                    let too_small = match scheme {
                        Scheme::Pss(h) if !bad => Pss::from_hash(h)
                            .encode_with_salt(&d, &vec![0; h.output_size()], publics[k].bits())
                            .err(),
                        _ => None,
                    };
                    if let Some(e) = too_small {
                        assert_eq!(got, Err(e), "thread {t} request {j}");
                        counts[2] += 1;
                    } else if bad {
                        assert!(
                            matches!(
                                got,
                                Err(Error::InputOutOfRange(InputFault::DigestLength { .. }))
                            ),
                            "thread {t} request {j}: {got:?}"
                        );
                        counts[2] += 1;
                    } else if fault {
                        assert_eq!(got, Err(Error::FaultDetected), "thread {t} request {j}");
                        counts[1] += 1;
                    } else {
                        let sig = got.unwrap_or_else(|e| panic!("thread {t} request {j}: {e}"));
                        verify(&publics[k], scheme, &d, &sig)
                            .unwrap_or_else(|e| panic!("thread {t} request {j}: {e}"));
                        counts[0] += 1;
                    }
                }
                counts
            })
        })
        .collect();
    let mut total = [0usize; 3];
    for h in handles {
        let c = h.join().expect("a caller thread panicked");
        for i in 0..3 {
            total[i] += c[i];
        }
    }
    assert_eq!(total.iter().sum::<usize>(), THREADS * PER_THREAD);
    let stats = service.stats();
    assert_eq!(stats.requests, (THREADS * PER_THREAD) as u64, "{stats:?}");
    assert!(
        total[1] > 20 && total[2] > 20,
        "faults and bad digests were exercised: {total:?}"
    );
    eprintln!(
        "{} signed, {} faulted, {} refused (bad digest or key too small), in {:.2?}; {stats:?}",
        total[0],
        total[1],
        total[2],
        began.elapsed()
    );
    stats
}

#[test]
fn one_caller_alone_gets_the_single_signature() {
    within(LIMIT, one_caller_alone);
}

fn one_caller_alone() {
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let key = RsaPrivateKey::new(&mut rng, 1024).unwrap();
    let public = key.to_public_key();
    let service = BatchSigner::new(ServiceConfig::default());
    let id = service.add_key(key.clone());
    let d = Sha256::digest(b"alone");
    let scheme = Scheme::Pkcs1v15(HashAlg::Sha256);
    let sig = service.sign(id, scheme, &d).unwrap();
    // PKCS#1 v1.5 is deterministic: the same bytes as the key's own signature.
    assert_eq!(sig, key.sign(Pkcs1v15Sign::new::<Sha256>(), &d).unwrap());
    verify(&public, scheme, &d, &sig).unwrap();
    // A key the service does not hold.
    let other = BatchSigner::new(ServiceConfig::default());
    assert_eq!(other.sign(id, scheme, &d), Err(Error::UnknownKey));
}

#[test]
fn async_callers_under_tokio() {
    within(LIMIT, || {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(4)
            .build()
            .unwrap()
            .block_on(async_callers())
    });
}

async fn async_callers() {
    let mut rng = ChaCha20Rng::seed_from_u64(2);
    let key = RsaPrivateKey::new(&mut rng, 2048).unwrap();
    let public = key.to_public_key();
    let service = Arc::new(BatchSigner::new(ServiceConfig::default()));
    let id = service.add_key(key);
    let tasks: Vec<_> = (0..64u32)
        .map(|i| {
            let service = Arc::clone(&service);
            tokio::spawn(async move {
                let d = Sha256::digest(i.to_be_bytes()).to_vec();
                let scheme = Scheme::Pss(HashAlg::Sha256);
                (d.clone(), service.sign_async(id, scheme, &d).await)
            })
        })
        .collect();
    for t in tasks {
        let (d, sig) = t.await.unwrap();
        verify(&public, Scheme::Pss(HashAlg::Sha256), &d, &sig.unwrap()).unwrap();
    }
}

#[test]
fn dropping_the_service_answers_every_queued_request() {
    within(LIMIT, dropping_the_service);
}

fn dropping_the_service() {
    let mut rng = ChaCha20Rng::seed_from_u64(3);
    let key = RsaPrivateKey::new(&mut rng, 2048).unwrap();
    let public = key.to_public_key();
    let service = BatchSigner::new(ServiceConfig {
        workers: 1,
        max_batch: 4,
        max_wait: Duration::from_millis(50),
        inline: true,
    });
    let id = service.add_key(key);
    let digests: Vec<Vec<u8>> = (0..24u32)
        .map(|i| Sha256::digest(i.to_le_bytes()).to_vec())
        .collect();
    let scheme = Scheme::Pkcs1v15(HashAlg::Sha256);
    let futures: Vec<_> = digests
        .iter()
        .map(|d| service.sign_async(id, scheme, d))
        .collect();
    drop(service); // finishes the queue, then stops the worker
    let results = futures_executor_block_on_all(futures);
    for (d, r) in digests.iter().zip(results) {
        verify(&public, scheme, d, &r.unwrap()).unwrap();
    }
}

/// Awaits every future on a small runtime (the service's futures need no particular one).
fn futures_executor_block_on_all<F: std::future::Future>(futures: Vec<F>) -> Vec<F::Output> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    rt.block_on(async {
        let mut out = Vec::new();
        for f in futures {
            out.push(f.await);
        }
        out
    })
}

/// A faulted request signed in one batch with seven good ones: only it fails, the others are
/// released and verify.
#[test]
fn a_fault_fails_only_its_own_request_of_a_full_batch() {
    within(LIMIT, fault_in_a_full_batch);
}

fn fault_in_a_full_batch() {
    const N: usize = 8;
    let mut rng = ChaCha20Rng::seed_from_u64(4);
    let key = RsaPrivateKey::new(&mut rng, 1024).unwrap();
    let public = key.to_public_key();
    let service = Arc::new(BatchSigner::new(ServiceConfig {
        workers: 1,
        max_batch: N,
        max_wait: Duration::from_millis(20),
        inline: false,
    }));
    let id = service.add_key(key);
    let scheme = Scheme::Pkcs1v15(HashAlg::Sha256);
    // The worker takes nothing until all eight are queued: they are signed as one batch.
    service.pause_workers_for_tests(true);
    let callers: Vec<_> = (0..N)
        .map(|i| {
            let service = Arc::clone(&service);
            std::thread::spawn(move || {
                let d = Sha256::digest([i as u8]).to_vec();
                let got = if i == 3 {
                    service.sign_faulty_for_tests(id, scheme, &d)
                } else {
                    service.sign(id, scheme, &d)
                };
                (d, got)
            })
        })
        .collect();
    while service.queued_for_tests() < N {
        std::thread::sleep(Duration::from_millis(1));
    }
    service.pause_workers_for_tests(false);
    for (i, caller) in callers.into_iter().enumerate() {
        let (d, got) = caller.join().unwrap();
        if i == 3 {
            assert_eq!(got, Err(Error::FaultDetected));
        } else {
            verify(&public, scheme, &d, &got.unwrap()).unwrap();
        }
    }
    let stats = service.stats();
    assert_eq!(
        (
            stats.requests,
            stats.batches,
            stats.largest_batch,
            stats.inline
        ),
        (N as u64, 1, N as u64, 0),
        "{stats:?}"
    );
}

/// A lone request is answered within a generous bound of `max_wait` (20 ms; 2 s allowed, for
/// the signature and a loaded machine), on an idle service and with another key's work in
/// flight (when the worker waits up to `max_wait` for company).
#[test]
fn a_lone_request_is_answered_within_a_bound_of_max_wait() {
    within(LIMIT, lone_request);
}

fn lone_request() {
    const BOUND: Duration = Duration::from_secs(2);
    let mut rng = ChaCha20Rng::seed_from_u64(5);
    let key = RsaPrivateKey::new(&mut rng, 1024).unwrap();
    let busy_key = RsaPrivateKey::new(&mut rng, 2048).unwrap();
    let public = key.to_public_key();
    let service = Arc::new(BatchSigner::new(ServiceConfig {
        workers: 2,
        max_batch: 8,
        max_wait: Duration::from_millis(20),
        inline: false,
    }));
    let id = service.add_key(key);
    let busy_id = service.add_key(busy_key);
    let scheme = Scheme::Pss(HashAlg::Sha256);
    let check = |round: u32| {
        let d = Sha256::digest(round.to_be_bytes()).to_vec();
        let began = Instant::now();
        let sig = service.sign(id, scheme, &d).unwrap();
        let took = began.elapsed();
        assert!(took < BOUND, "round {round}: answered after {took:?}");
        verify(&public, scheme, &d, &sig).unwrap();
    };
    for round in 0..5 {
        check(round);
    }
    // Another key's requests keep a computation in flight meanwhile.
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let background = {
        let (service, stop) = (Arc::clone(&service), Arc::clone(&stop));
        std::thread::spawn(move || {
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                service
                    .sign(busy_id, scheme, &Sha256::digest(b"busy"))
                    .unwrap();
            }
        })
    };
    for round in 5..10 {
        check(round);
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    background.join().unwrap();
}
