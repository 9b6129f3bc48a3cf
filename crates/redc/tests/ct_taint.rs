//! Secret-taint test: the private-key operations under Valgrind memcheck with every secret of
//! the key marked *undefined*.
//!
//! Memcheck tracks definedness bit by bit through every instruction and reports "Conditional
//! jump or move depends on uninitialised value(s)" or "Use of uninitialised value" when a
//! branch or a memory address depends on an undefined value. Marking the key's secrets
//! undefined (`RsaPrivateKey::for_each_secret_region` + `redc::valgrind::make_mem_undefined`)
//! turns that into a constant-time checker (Langley's ctgrind): any secret-dependent branch or
//! table index in the private operation makes Valgrind exit with an error, and the test fails.
//!
//! Public by design, and declassified (marked defined) explicitly:
//! - in the library (`redc::valgrind::declassify`): the fault-check verdict, the padding
//!   verdict of a decryption and, on success, the message offset;
//! - here: each operation's output (signature, plaintext), before it is checked.
//!
//! Covered: PKCS#1 v1.5 and PSS signing, OAEP and PKCS#1 v1.5 decryption of valid and invalid
//! ciphertexts (PSS signing and PKCS#1 v1.5 decryption blinded: the first makes the key's
//! blinding pair, the second uses it), the raw private operation in CRT and non-CRT mode, for
//! a 2-prime and a 3-prime key, on every backend the CPU (as Valgrind presents it) has, and the
//! raw operation on every portable Montgomery algorithm × squaring variant.
//!
//! The test runs this same binary as a child under `valgrind` (environment variable
//! `REDC_CT_TAINT_CHILD`). Valgrind is required: CI installs it (`.ci/run`).

use std::process::Command;

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;
use redc::mont::backend::Backend;
use redc::mont::{Algorithm, Kernel, SqrVariant};
use redc::rsa::{
    DecodeRsaPrivateKey, EncodeRsaPrivateKey, HashAlg, Oaep, Pkcs1v15Encrypt, Pkcs1v15Sign,
    PrivateMode, Pss, RsaPrivateKey,
};
use redc::valgrind;

const CHILD: &str = "REDC_CT_TAINT_CHILD";
const KEYS: &str = "REDC_CT_TAINT_KEYS";

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// Runs this test binary's test `name` under `valgrind` with `mode` as the child mode.
fn run_child(name: &str, mode: &str, keys: &str) -> std::process::Output {
    let exe = std::env::current_exe().unwrap();
    Command::new("valgrind")
        .args([
            "--tool=memcheck",
            "--error-exitcode=97",
            "--track-origins=yes",
            "--num-callers=30",
        ])
        .arg(&exe)
        .args(["--exact", name, "--nocapture", "--test-threads=1"])
        .env(CHILD, mode)
        .env(KEYS, keys)
        .output()
        .expect("valgrind is required for the secret-taint test (apt-get install valgrind)")
}

fn test_keys() -> String {
    let mut rng = ChaCha20Rng::seed_from_u64(0x7a17);
    let two = RsaPrivateKey::new(&mut rng, 1024).unwrap();
    let three = RsaPrivateKey::new_multi_prime(&mut rng, 1024, 3).unwrap();
    [two, three]
        .iter()
        .map(|k| hex(k.to_pkcs1_der().unwrap().as_bytes()))
        .collect::<Vec<_>>()
        .join(",")
}

/// Marks every secret buffer of `key` undefined.
fn taint(key: &RsaPrivateKey) -> usize {
    let mut bytes = 0;
    key.for_each_secret_region(|p, len| {
        valgrind::make_mem_undefined(p, len);
        bytes += len;
    });
    bytes
}

fn declassify(out: &[u8]) {
    valgrind::make_mem_defined(out.as_ptr(), out.len());
}

/// The child's workload on one key with its current kernel.
fn exercise(key: &RsaPrivateKey, rng: &mut ChaCha20Rng) {
    let public = key.to_public_key();
    let k = key.size();
    let hashed = HashAlg::Sha256.digest(b"taint");

    let sig = key
        .sign(Pkcs1v15Sign::new::<sha2::Sha256>(), &hashed)
        .unwrap();
    declassify(&sig);
    public
        .verify(Pkcs1v15Sign::new::<sha2::Sha256>(), &hashed, &sig)
        .unwrap();

    let sig = key
        .sign_with_rng(rng, Pss::new::<sha2::Sha256>(), &hashed)
        .unwrap();
    declassify(&sig);
    public
        .verify(Pss::new::<sha2::Sha256>(), &hashed, &sig)
        .unwrap();

    let msg = b"attack at dawn";
    let c = public
        .encrypt(rng, Oaep::new::<sha2::Sha256>(), msg)
        .unwrap();
    let m = key.decrypt(Oaep::new::<sha2::Sha256>(), &c).unwrap();
    declassify(&m);
    assert_eq!(m, msg);

    let c = public.encrypt(rng, Pkcs1v15Encrypt, msg).unwrap();
    let m = key.decrypt_blinded(rng, Pkcs1v15Encrypt, &c).unwrap();
    declassify(&m);
    assert_eq!(m, msg);

    // Invalid paddings: random ciphertexts below n (top byte cleared).
    for _ in 0..2 {
        let mut c = vec![0u8; k];
        rng.fill_bytes(&mut c[1..]);
        assert!(key.decrypt(Oaep::new::<sha2::Sha256>(), &c).is_err());
        assert!(key.decrypt(Pkcs1v15Encrypt, &c).is_err());
    }

    for mode in [PrivateMode::Crt, PrivateMode::NonCrt] {
        let mut c = vec![0u8; k];
        rng.fill_bytes(&mut c[1..]);
        let m = key.raw_private_with(None, &c, mode).unwrap();
        declassify(&m);
        assert_eq!(public.raw_public(&m).unwrap(), c);
    }
}

fn child() {
    assert!(
        valgrind::running_on_valgrind() > 0,
        "the taint child must run under valgrind"
    );
    let keys: Vec<RsaPrivateKey> = std::env::var(KEYS)
        .unwrap_or_else(|_| test_keys())
        .split(',')
        .map(|h| RsaPrivateKey::from_pkcs1_der(&unhex(h)).unwrap())
        .collect();
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    for mut key in keys {
        let primes = key.primes().len();
        for backend in Backend::available() {
            key.set_kernel(backend.kernel().unwrap());
            let bytes = taint(&key);
            eprintln!(
                "taint: {}-bit {primes}-prime key, backend {}, {bytes} secret bytes",
                key.n().bits(),
                backend.name()
            );
            exercise(&key, &mut rng);
        }
        // Every portable algorithm and squaring variant on the raw operation.
        for algo in Algorithm::ALL {
            for sqr in SqrVariant::ALL {
                key.set_kernel(Kernel::portable(algo, sqr));
                taint(&key);
                let mut c = vec![0u8; key.size()];
                rng.fill_bytes(&mut c[1..]);
                let m = key.raw_private(None, &c).unwrap();
                declassify(&m);
                assert_eq!(key.to_public_key().raw_public(&m).unwrap(), c);
            }
        }
        eprintln!(
            "taint: {primes}-prime key, {} x {} portable kernels",
            Algorithm::ALL.len(),
            SqrVariant::ALL.len()
        );
    }
    for b in Backend::ALL {
        if !b.is_available() {
            // Valgrind 3.19's virtual CPU reports BMI2 but not ADX, and no AVX-512, so neither
            // the MULX/ADCX/ADOX kernel nor the IFMA lanes can run under it.
            eprintln!("taint: backend {} unavailable under valgrind", b.name());
        }
    }
}

/// The canary: a deliberate branch on a secret byte MUST be reported, or the harness is
/// blind (client requests not reaching Valgrind, wrong regions, ...).
fn canary() {
    let key = RsaPrivateKey::from_pkcs1_der(&unhex(
        std::env::var(KEYS).unwrap().split(',').next().unwrap(),
    ))
    .unwrap();
    taint(&key);
    let d = key.d().as_limbs()[0];
    if std::hint::black_box(d) & 1 == 1 {
        std::hint::black_box(1);
    }
}

#[test]
fn secret_taint_private_ops() {
    match std::env::var(CHILD).as_deref() {
        Ok("work") => return child(),
        Ok("canary") => return canary(),
        _ => {}
    }
    let keys = test_keys();
    let canary = run_child("secret_taint_private_ops", "canary", &keys);
    let err = String::from_utf8_lossy(&canary.stderr);
    assert!(
        canary.status.code() == Some(97) && err.contains("depends on uninitialised value"),
        "the canary's secret-dependent branch was not reported: the harness is blind\n{err}"
    );
    let out = run_child("secret_taint_private_ops", "work", &keys);
    let err = String::from_utf8_lossy(&out.stderr);
    eprintln!("{err}");
    assert!(
        out.status.success(),
        "memcheck found secret-dependent branches or addresses (status {:?})",
        out.status
    );
    // Every backend the CPU has ran, unless Valgrind's virtual CPU lacks it (then it says so).
    for b in Backend::available() {
        assert!(
            err.contains(&format!("backend {},", b.name()))
                || err.contains(&format!("backend {} unavailable under valgrind", b.name())),
            "backend {} (available natively) is unaccounted for",
            b.name()
        );
    }
    assert!(err.contains("backend portable,"));
}
