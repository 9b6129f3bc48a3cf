//! Instruction-count test: under `valgrind --tool=callgrind`, the private operation executes
//! exactly the same number of instructions whatever the input and whatever the key's values
//! (for one key size), and decryption's work does not depend on why a padding is invalid.
//!
//! Each measured region is bracketed by callgrind client requests (`redc::valgrind`): collection
//! is off at start (`--collect-atstart=no`), toggled on around one operation, and dumped with a
//! label. A warm-up call precedes each measurement so one-time work (lazy statics, first
//! allocations) is not counted. Instructions spent inside the C allocator (`malloc`, `free`
//! and their helpers) are excluded: their paths depend on the heap's history, not on data; the
//! allocation *sizes* the library asks for depend only on public lengths. `memset` is excluded
//! too, because `calloc` (behind `vec![0; n]`) clears a chunk only if it was not fresh from the
//! top of the heap; the library's own clears have public lengths.
//!
//! Checked (instruction counts, `Ir`):
//! - `raw_private`, CRT and non-CRT: equal over inputs 0, 1, n−1 and random ones, for a 2- and
//!   a 3-prime key, on every portable kernel that Valgrind can run (see `ct_taint.rs` for why
//!   the mulx backend cannot run under Valgrind 3.19);
//! - `raw_private` with the same input on keys of the same size whose CRT exponents have
//!   different Hamming weights: equal;
//! - OAEP and PKCS#1 v1.5 decryption: equal for every kind of invalid padding, equal for valid
//!   ciphertexts with messages of one length, and valid vs invalid differ only by the success
//!   path after the final branch (a small bounded amount, printed).

use std::collections::BTreeMap;
use std::ffi::CString;
use std::path::Path;
use std::process::Command;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use redc::mont::{Algorithm, Kernel, SqrVariant};
use redc::rsa::{
    BoxedUint, DecodeRsaPrivateKey, EncodeRsaPrivateKey, Oaep, Pkcs1v15Encrypt, PrivateMode,
    RsaPrivateKey,
};
use redc::valgrind;

const CHILD: &str = "REDC_CT_CALLGRIND_CHILD";
const KEYS: &str = "REDC_CT_CALLGRIND_KEYS";

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// Measures `f` once (after a warm-up call) under the label `label`.
fn measure<T>(label: &str, mut f: impl FnMut() -> T) {
    std::hint::black_box(f());
    valgrind::callgrind_zero_stats();
    valgrind::callgrind_toggle_collect();
    let r = f();
    valgrind::callgrind_toggle_collect();
    std::hint::black_box(r);
    valgrind::callgrind_dump_stats_at(&CString::new(label).unwrap());
}

fn popcount(x: &BoxedUint) -> u32 {
    x.as_limbs().iter().map(|l| l.count_ones()).sum()
}

fn child() {
    assert!(valgrind::running_on_valgrind() > 0);
    let keys: Vec<RsaPrivateKey> = std::env::var(KEYS)
        .unwrap()
        .split(',')
        .map(|h| RsaPrivateKey::from_pkcs1_der(&unhex(h)).unwrap())
        .collect();
    let mut rng = ChaCha20Rng::seed_from_u64(9);
    // keys[0], keys[1]: 2-prime 1024-bit; keys[2]: 3-prime 1024-bit.
    for (ki, key) in keys.iter().enumerate() {
        let k = key.size();
        let n = key.n().to_be_bytes();
        let mut inputs: Vec<Vec<u8>> = Vec::new();
        for _ in 0..3 {
            let mut c = vec![0u8; k];
            rng.fill(&mut c[1..]);
            inputs.push(c);
        }
        let mut one = vec![0u8; k];
        one[k - 1] = 1;
        let mut n_minus_1 = n.to_vec();
        *n_minus_1.last_mut().unwrap() -= 1; // n is odd
        inputs.extend([vec![0u8; k], one, n_minus_1]);
        let kernels = [
            Kernel::portable(Algorithm::Cios, SqrVariant::Modern),
            Kernel::portable(Algorithm::Sos, SqrVariant::Generic),
            Kernel::portable(Algorithm::ItohEnhanced, SqrVariant::Koc),
        ];
        for kernel in kernels {
            let mut key = key.clone();
            key.set_kernel(kernel);
            for (i, c) in inputs.iter().enumerate() {
                measure(&format!("raw/key{ki}/{}/input{i}", kernel.name()), || {
                    key.raw_private(None, c).unwrap()
                });
            }
        }
        for (i, c) in inputs.iter().enumerate().take(3) {
            measure(&format!("noncrt/key{ki}/input{i}"), || {
                key.raw_private_with(None, c, PrivateMode::NonCrt).unwrap()
            });
        }
        // The same input on every key of this size (keys 0 and 1 share the size and prime count).
        if key.primes().len() == 2 {
            let mut c = vec![0u8; k];
            c[k - 1] = 7;
            eprintln!(
                "callgrind: key{ki} popcount dP {} dQ {} d {}",
                popcount(key.dp()),
                popcount(key.dq()),
                popcount(key.d())
            );
            measure(&format!("samec/key{ki}"), || {
                key.raw_private(None, &c).unwrap()
            });
        }
        decrypt_cases(ki, key, &mut rng);
    }
}

/// Valid and invalid OAEP / PKCS#1 v1.5 ciphertexts, by building the encoded message and
/// applying the raw public operation (so each failure cause is exactly the one intended).
fn decrypt_cases(ki: usize, key: &RsaPrivateKey, rng: &mut ChaCha20Rng) {
    let k = key.size();
    let public = key.to_public_key();
    let oaep = Oaep::new::<sha2::Sha256>();
    let msg = [0x42u8; 20];
    let enc = |em: &[u8]| public.raw_public(em).unwrap();
    let mut oaep_cases: Vec<(&str, Vec<u8>)> = Vec::new();
    for i in 0..2 {
        let mut seed = [0u8; 32];
        rng.fill(&mut seed);
        let em = oaep.encode_with_seed(&msg, &seed, k).unwrap();
        oaep_cases.push((["valid0", "valid1"][i], enc(&em)));
    }
    let mut seed = [0u8; 32];
    rng.fill(&mut seed);
    let good = oaep.encode_with_seed(&msg, &seed, k).unwrap();
    // Y ≠ 0 (kept below n by clearing the next byte's top bit would change the seed, so use 1
    // only when it stays below n; the key's top byte is ≥ 0x80).
    let mut y = good.clone();
    y[0] = 1;
    oaep_cases.push(("bad_y", enc(&y)));
    // Wrong label: lHash' mismatch (decrypt with a label the message was not made with).
    let labelled = Oaep::new_with_label::<sha2::Sha256, _>("other")
        .encode_with_seed(&msg, &seed, k)
        .unwrap();
    oaep_cases.push(("bad_lhash", enc(&labelled)));
    // Random EM below n: no 0x01 separator / garbage DB.
    let mut garbage = vec![0u8; k];
    rng.fill(&mut garbage[1..]);
    oaep_cases.push(("bad_random", enc(&garbage)));
    for (name, c) in &oaep_cases {
        measure(&format!("oaep/key{ki}/{name}"), || {
            key.decrypt(oaep.clone(), c).map(|m| m.len())
        });
    }

    let mut pk_cases: Vec<(&str, Vec<u8>)> = Vec::new();
    let mk = |first: u8, second: u8, ps: usize, sep: bool| {
        let mut em = vec![0x11u8; k];
        em[0] = first;
        em[1] = second;
        if sep {
            em[2 + ps] = 0;
        }
        em
    };
    let ps = k - 3 - msg.len();
    pk_cases.push(("valid0", enc(&mk(0, 2, ps, true))));
    let mut v1 = mk(0, 2, ps, true);
    v1[5] = 0x99;
    pk_cases.push(("valid1", enc(&v1)));
    pk_cases.push(("bad_first", enc(&mk(1, 2, ps, true))));
    pk_cases.push(("bad_type", enc(&mk(0, 1, ps, true))));
    pk_cases.push(("bad_nosep", enc(&mk(0, 2, ps, false))));
    pk_cases.push(("bad_shortps", enc(&mk(0, 2, 5, true))));
    for (name, c) in &pk_cases {
        measure(&format!("pkcs1/key{ki}/{name}"), || {
            key.decrypt(Pkcs1v15Encrypt, c).map(|m| m.len())
        });
    }
}

/// Instruction counts per dump label, excluding the C allocator's own functions.
fn parse_dumps(dir: &Path) -> BTreeMap<String, u64> {
    let alloc_fn = |name: &str| {
        [
            "malloc",
            "free",
            "realloc",
            "calloc",
            "memalign",
            "tcache",
            "_int_",
            "unlink_chunk",
            "alloc_perturb",
            "brk",
            "mmap",
            "arena",
            // calloc clears with memset only chunks not known to be fresh: heap history.
            "memset",
        ]
        .iter()
        .any(|p| name.contains(p))
            && !name.contains("redc")
    };
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        let Some(label) = text
            .lines()
            .find_map(|l| l.strip_prefix("desc: Trigger: Client Request: "))
        else {
            continue;
        };
        let mut total = 0u64;
        let mut current_alloc = false;
        let mut skip_next = false;
        for line in text.lines() {
            if let Some(name) = line.strip_prefix("fn=") {
                current_alloc = alloc_fn(name);
                continue;
            }
            if line.starts_with("calls=") {
                // The next line is the call's inclusive cost, already counted in the callee.
                skip_next = true;
                continue;
            }
            let first = line.split_ascii_whitespace().next().unwrap_or("");
            let is_cost = !first.is_empty()
                && first
                    .chars()
                    .all(|c| c.is_ascii_digit() || c == '+' || c == '-' || c == '*');
            if is_cost {
                if skip_next {
                    skip_next = false;
                } else if !current_alloc {
                    let ir: u64 = line
                        .split_ascii_whitespace()
                        .nth(1)
                        .unwrap()
                        .parse()
                        .unwrap();
                    total += ir;
                }
            }
        }
        out.insert(label.to_string(), total);
    }
    out
}

fn all_equal(counts: &BTreeMap<String, u64>, prefix: &str, filter: impl Fn(&str) -> bool) -> u64 {
    let group: Vec<(&String, &u64)> = counts
        .iter()
        .filter(|(l, _)| l.starts_with(prefix) && filter(l))
        .collect();
    assert!(group.len() >= 2, "too few measurements for {prefix}");
    let first = *group[0].1;
    assert!(
        group.iter().all(|(_, &c)| c == first),
        "instruction counts differ for {prefix}: {group:#?}"
    );
    first
}

#[test]
fn private_op_instruction_counts_are_data_independent() {
    if std::env::var(CHILD).is_ok() {
        return child();
    }
    let mut rng = ChaCha20Rng::seed_from_u64(0xca11);
    let keys = [
        RsaPrivateKey::new(&mut rng, 1024).unwrap(),
        RsaPrivateKey::new(&mut rng, 1024).unwrap(),
        RsaPrivateKey::new_multi_prime(&mut rng, 1024, 3).unwrap(),
    ];
    let keys = keys
        .iter()
        .map(|k| hex(k.to_pkcs1_der().unwrap().as_bytes()))
        .collect::<Vec<_>>()
        .join(",");
    let dir = std::env::temp_dir().join(format!("redc-callgrind-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let exe = std::env::current_exe().unwrap();
    let out = Command::new("valgrind")
        .args([
            "--tool=callgrind",
            "--collect-atstart=no",
            "--compress-strings=no",
            "--compress-pos=no",
        ])
        .arg(format!("--callgrind-out-file={}/cg.out", dir.display()))
        .arg(&exe)
        .args([
            "--exact",
            "private_op_instruction_counts_are_data_independent",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD, "1")
        .env(KEYS, &keys)
        .output()
        .expect("valgrind is required for the instruction-count test (apt-get install valgrind)");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "callgrind child failed\n{err}");
    let counts = parse_dumps(&dir);
    if std::env::var_os("REDC_CT_CALLGRIND_KEEP").is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    } else {
        eprintln!("callgrind dumps kept in {}", dir.display());
    }
    for (l, c) in &counts {
        eprintln!("{l:40} {c}");
    }
    for ki in 0..3 {
        for kernel in ["cios", "sos", "itoh-enhanced"] {
            let p = format!("raw/key{ki}/{kernel}");
            let kname = |l: &str| l.split('/').nth(2).is_some_and(|k| k.starts_with(kernel));
            all_equal(&counts, &p, kname);
        }
        all_equal(&counts, &format!("noncrt/key{ki}/"), |_| true);
        let oaep_bad = all_equal(&counts, &format!("oaep/key{ki}/bad"), |_| true);
        let oaep_ok = all_equal(&counts, &format!("oaep/key{ki}/valid"), |_| true);
        let pk_bad = all_equal(&counts, &format!("pkcs1/key{ki}/bad"), |_| true);
        let pk_ok = all_equal(&counts, &format!("pkcs1/key{ki}/valid"), |_| true);
        eprintln!(
            "key{ki}: OAEP valid {oaep_ok} vs invalid {oaep_bad} ({:+}), PKCS#1 v1.5 valid \
             {pk_ok} vs invalid {pk_bad} ({:+})",
            oaep_ok as i64 - oaep_bad as i64,
            pk_ok as i64 - pk_bad as i64
        );
        // Only the success path after the final branch differs (returning the message).
        for d in [oaep_ok.abs_diff(oaep_bad), pk_ok.abs_diff(pk_bad)] {
            assert!(
                d < 1000,
                "valid vs invalid differ by {d} instructions: more than the return path"
            );
        }
    }
    // Same input, two keys of the same size with CRT exponents of different weights.
    all_equal(&counts, "samec/", |_| true);
    assert!(err.contains("popcount"));
}
