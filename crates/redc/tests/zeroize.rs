//! Zeroization: a recording global allocator checks, at the moment each heap block is freed,
//! that the key's secret buffers inside it are all zero.
//!
//! - Dropping a private key (2 and 3 primes, and a clone) frees every secret buffer that
//!   `RsaPrivateKey::for_each_secret_region` reports (`d`, primes, CRT exponents, Garner
//!   coefficients and prefix products, the primes' Montgomery constants, the blinding pair),
//!   each zeroed first.
//! - During a private operation (sign, decrypt, raw, blinded raw), no heap block freed by the
//!   library holds a copy of a secret: the test captures every block freed non-zero and
//!   searches it for any 16-byte window of the key's secret limbs and of the operation's
//!   intermediates, computed independently with num-bigint (`c mod rᵢ`, `mᵢ = c^dᵢ mod rᵢ`,
//!   `m`, and their Montgomery forms `x·R mod rᵢ`, `x·R mod n`). Blocks holding only public
//!   data (pointers of a `Vec` of buffers, the constant 1 used to leave the Montgomery domain)
//!   may be freed as they are.
//!
//! The test runs its cases one after another in one test function: the allocator's watch list
//! is global.

mod common;

use common::big_of as big;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use num_bigint::BigUint;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use redc::rsa::{HashAlg, Oaep, Pkcs1v15Sign, PrivateMode, RsaPrivateKey};

const MAX: usize = 512;

struct Watch {
    regions: [(usize, usize, bool); MAX],
    count: usize,
}

static WATCH: Mutex<Watch> = Mutex::new(Watch {
    regions: [(0, 0, false); MAX],
    count: 0,
});
/// Non-zero secret regions found at free.
static DIRTY: AtomicUsize = AtomicUsize::new(0);
/// In "all frees" mode: blocks freed non-zero, and their total size.
static ALL_MODE: AtomicBool = AtomicBool::new(false);
static DIRTY_BLOCKS: AtomicUsize = AtomicUsize::new(0);
static DIRTY_BLOCKS_DATA: Mutex<Vec<Vec<u8>>> = Mutex::new(Vec::new());
static IN_HOOK: AtomicBool = AtomicBool::new(false);

struct Recorder;

unsafe impl GlobalAlloc for Recorder {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        let start = ptr as usize;
        let end = start + layout.size();
        // SAFETY (reads below): the block is still allocated until System.dealloc.
        let zero = |a: usize, len: usize| (a..a + len).all(|i| unsafe { *(i as *const u8) } == 0);
        if let Ok(mut w) = WATCH.try_lock() {
            let count = w.count;
            for r in w.regions[..count].iter_mut() {
                let (a, len, seen) = *r;
                if !seen && len > 0 && a >= start && a + len <= end {
                    r.2 = true;
                    if !zero(a, len) {
                        DIRTY.fetch_add(1, Ordering::SeqCst);
                    }
                }
            }
        }
        if ALL_MODE.load(Ordering::SeqCst) && !IN_HOOK.swap(true, Ordering::SeqCst) {
            if !zero(start, layout.size()) {
                DIRTY_BLOCKS.fetch_add(1, Ordering::SeqCst);
                if let Ok(mut v) = DIRTY_BLOCKS_DATA.try_lock() {
                    if v.len() < v.capacity() {
                        // SAFETY: the block is live until System.dealloc below.
                        let data = unsafe { std::slice::from_raw_parts(ptr, layout.size()) };
                        v.push(data.to_vec());
                    }
                }
            }
            IN_HOOK.store(false, Ordering::SeqCst);
        }
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static A: Recorder = Recorder;

fn watch(key: &RsaPrivateKey) -> usize {
    let mut regions = Vec::new();
    key.for_each_secret_region(|p, len| regions.push((p as usize, len)));
    let mut w = WATCH.lock().unwrap();
    assert!(regions.len() <= MAX);
    for (i, &(a, len)) in regions.iter().enumerate() {
        w.regions[i] = (a, len, false);
    }
    w.count = regions.len();
    DIRTY.store(0, Ordering::SeqCst);
    regions.len()
}

/// Drops `key` and returns (regions seen freed, regions watched).
fn drop_and_check(key: RsaPrivateKey, what: &str) {
    let n = watch(&key);
    drop(key);
    let w = WATCH.lock().unwrap();
    let seen = w.regions[..w.count].iter().filter(|r| r.2).count();
    let dirty = DIRTY.load(Ordering::SeqCst);
    drop(w);
    assert_eq!(
        seen, n,
        "{what}: only {seen} of {n} secret regions were freed"
    );
    assert_eq!(
        dirty, 0,
        "{what}: {dirty} of {n} secret regions were freed without zeroing"
    );
    WATCH.lock().unwrap().count = 0;
}

/// Runs `f` with every free checked; returns the contents of the blocks freed non-zero.
fn frees_during<T>(f: impl FnOnce() -> T) -> (T, Vec<Vec<u8>>) {
    DIRTY_BLOCKS_DATA.lock().unwrap().reserve(256);
    DIRTY_BLOCKS.store(0, Ordering::SeqCst);
    ALL_MODE.store(true, Ordering::SeqCst);
    let r = f();
    ALL_MODE.store(false, Ordering::SeqCst);
    let blocks = std::mem::take(&mut *DIRTY_BLOCKS_DATA.lock().unwrap());
    (r, blocks)
}

fn limbs(x: &BigUint) -> Vec<u64> {
    x.to_u64_digits()
}

/// The secrets that must not be left in freed memory by a private operation on input `c`.
fn secrets(key: &RsaPrivateKey, c: &BigUint) -> Vec<(String, Vec<u64>)> {
    let n = big(key.n());
    let d = big(key.d());
    let m = c.modpow(&d, &n);
    let rn = BigUint::from(1u32) << (64 * key.n().as_limbs().len());
    let mut out = vec![
        ("d".to_string(), limbs(&d)),
        ("m".to_string(), limbs(&m)),
        ("m·R mod n".to_string(), limbs(&(&m * &rn % &n))),
    ];
    for (i, p) in key.primes().iter().enumerate() {
        let p = big(p);
        let s = p.to_u64_digits().len();
        let r = BigUint::from(1u32) << (64 * s);
        let di = &d % (&p - 1u32);
        let ci = c % &p;
        let mi = ci.modpow(&di, &p);
        out.push((format!("p{i}"), limbs(&p)));
        out.push((format!("d{i}"), limbs(&di)));
        out.push((format!("c mod p{i}"), limbs(&ci)));
        out.push((format!("c·R mod p{i}"), limbs(&(&ci * &r % &p))));
        out.push((format!("m{i}"), limbs(&mi)));
        out.push((format!("m{i}·R"), limbs(&(&mi * &r % &p))));
    }
    out
}

/// Panics if a freed block holds a 16-byte window (two consecutive non-zero limbs) of a secret.
fn assert_no_secret(what: &str, blocks: &[Vec<u8>], secrets: &[(String, Vec<u64>)]) {
    for (name, l) in secrets {
        for w in l.windows(2).filter(|w| w[0] != 0 && w[1] != 0) {
            let mut pat = w[0].to_le_bytes().to_vec();
            pat.extend_from_slice(&w[1].to_le_bytes());
            for b in blocks {
                assert!(
                    !b.windows(16).any(|x| x == pat),
                    "{what}: a freed block of {} bytes holds part of {name}",
                    b.len()
                );
            }
        }
    }
}

#[test]
fn secrets_are_zeroized() {
    let mut rng = ChaCha20Rng::seed_from_u64(0x2e50);
    let two = RsaPrivateKey::new(&mut rng, 1024).unwrap();
    let three = RsaPrivateKey::new_multi_prime(&mut rng, 1024, 3).unwrap();

    // Private operations leave no secret in freed blocks.
    let hashed = HashAlg::Sha256.digest(b"z");
    for key in [&two, &three] {
        let k = key.size();
        let mut input = vec![0u8; k];
        rng.fill(&mut input[1..]);
        let c = BigUint::from_bytes_be(&input);
        let sec = secrets(key, &c);
        let (out, blocks) = frees_during(|| key.raw_private(None, &input).unwrap());
        assert_no_secret("raw_private", &blocks, &sec);
        drop(out);
        let (out, blocks) = frees_during(|| {
            key.raw_private_with(None, &input, PrivateMode::NonCrt)
                .unwrap()
        });
        assert_no_secret("raw_private non-CRT", &blocks, &sec);
        drop(out);
        // Blinded: the first call makes the key's blinding pair, the second uses it.
        let mut brng = ChaCha20Rng::seed_from_u64(0xb11d);
        for round in 0..2 {
            let (out, blocks) = frees_during(|| key.raw_private(Some(&mut brng), &input).unwrap());
            assert_no_secret(&format!("raw_private blinded #{round}"), &blocks, &sec);
            drop(out);
        }
        let em = Pkcs1v15Sign::new::<sha2::Sha256>()
            .encode(&hashed, k)
            .unwrap();
        let sec = secrets(key, &BigUint::from_bytes_be(&em));
        let (sig, blocks) = frees_during(|| {
            key.sign(Pkcs1v15Sign::new::<sha2::Sha256>(), &hashed)
                .unwrap()
        });
        assert_no_secret("sign", &blocks, &sec);
        drop(sig);
        let ct = key
            .to_public_key()
            .encrypt(&mut rng, Oaep::new::<sha2::Sha256>(), b"secret message!!")
            .unwrap();
        let sec = secrets(key, &BigUint::from_bytes_be(&ct));
        let (m, blocks) = frees_during(|| key.decrypt(Oaep::new::<sha2::Sha256>(), &ct).unwrap());
        assert_eq!(m, b"secret message!!");
        assert_no_secret("OAEP decrypt", &blocks, &sec);
        assert!(
            !blocks
                .iter()
                .any(|b| b.windows(16).any(|w| w == b"secret message!!")),
            "OAEP decrypt: a freed block holds the plaintext"
        );
    }

    let clone = three.clone();
    drop_and_check(two, "2-prime key");
    drop_and_check(three, "3-prime key");
    drop_and_check(clone, "cloned 3-prime key");
}
