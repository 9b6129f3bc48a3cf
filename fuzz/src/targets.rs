//! The fuzz targets' bodies, shared by cargo-fuzz (`fuzz/fuzz_targets/*.rs`, through
//! `fuzz/src/lib.rs`) and the stable smoke test `crates/redc/tests/fuzz_smoke.rs` (which
//! includes this file with `#[path]` and runs every committed corpus file through it).
//!
//! Each function takes arbitrary bytes and must never panic or hang; where a reference exists
//! it also checks the library against it:
//! - [`parse_key`]: PKCS#1 / PKCS#8 / SPKI, DER and PEM; accepted keys re-encode to the same key;
//! - [`verify`]: PKCS#1 v1.5 and PSS verification of fuzzed signatures under a fixed or fuzzed
//!   key, and the encoded-message checks directly (PKCS#1 v1.5 against its re-encoding);
//! - [`decrypt`]: OAEP (SHA-256) and PKCS#1 v1.5 decryption with a fixed key of fuzzed
//!   ciphertexts, and of fuzzed encoded messages against a naive reference unpadding; the
//!   blinded decryption must agree with the unblinded one in both;
//! - [`mont`]: Montgomery multiplication, squaring and fixed-window exponentiation, every
//!   algorithm and squaring variant, 32- and 64-bit words, and the mulx backend, against
//!   num-bigint.

use std::sync::OnceLock;

use num_bigint::BigUint;
use rand_chacha::rand_core::SeedableRng;
use redc::exp::fixed;
use redc::mont::backend::Backend;
use redc::mont::{Algorithm, Kernel, Modulus, SqrVariant};
use redc::rsa::{
    BoxedUint, DecodePrivateKey, DecodePublicKey, DecodeRsaPrivateKey, DecodeRsaPublicKey,
    EncodeRsaPrivateKey, EncodeRsaPublicKey, HashAlg, Oaep, Pkcs1v15Encrypt, Pkcs1v15Sign, Pss,
    RsaPrivateKey, RsaPublicKey,
};
use redc::word::Word;
use sha2::{Digest, Sha256};

/// The fixed 1024-bit key the signature and decryption targets use (deterministic).
pub fn fixed_key() -> &'static RsaPrivateKey {
    static KEY: OnceLock<RsaPrivateKey> = OnceLock::new();
    KEY.get_or_init(|| {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(0xf022);
        RsaPrivateKey::new(&mut rng, 1024).expect("keygen")
    })
}

/// Key parsing in every format; an accepted key must re-encode and decode to itself.
pub fn parse_key(data: &[u8]) {
    // Encrypted PKCS#8 with a fixed password, where the input's password hashing is cheap (a
    // file asking for up to the library's limits is valid, but would take seconds per run).
    if cheap_kdf(data) {
        if let Ok(k) = RsaPrivateKey::from_der_with_password(data, b"fuzz") {
            check_private(&k);
        }
    }
    if let Ok(s) = std::str::from_utf8(data) {
        // OpenSSL's traditional encryption (one round of MD5) is always cheap.
        let der = redc::rsa::pkcs8::der::pem::decode_vec(s.as_bytes()).map(|(_, d)| d);
        if s.contains("Proc-Type") || der.is_ok_and(|d| cheap_kdf(&d)) {
            if let Ok(k) = RsaPrivateKey::from_pem_with_password(s, b"fuzz") {
                check_private(&k);
            }
        }
    }
    if let Ok(k) = RsaPrivateKey::from_pkcs1_der(data) {
        check_private(&k);
    }
    if let Ok(k) = RsaPrivateKey::from_pkcs8_der(data) {
        check_private(&k);
    }
    if let Ok(k) = RsaPublicKey::from_pkcs1_der(data) {
        check_public(&k);
    }
    if let Ok(k) = RsaPublicKey::from_public_key_der(data) {
        check_public(&k);
    }
    if let Ok(s) = std::str::from_utf8(data) {
        if let Ok(k) = RsaPrivateKey::from_pkcs1_pem(s) {
            check_private(&k);
        }
        if let Ok(k) = RsaPrivateKey::from_pkcs8_pem(s) {
            check_private(&k);
        }
        if let Ok(k) = RsaPublicKey::from_pkcs1_pem(s) {
            check_public(&k);
        }
        if let Ok(k) = RsaPublicKey::from_public_key_pem(s) {
            check_public(&k);
        }
    }
}

/// Whether `der` is not an EncryptedPrivateKeyInfo, or is one whose password hashing costs at
/// most 10,000 PBKDF2 iterations or 1 MiB of scrypt.
fn cheap_kdf(der: &[u8]) -> bool {
    use redc::rsa::pkcs8::pkcs5::pbes2::Kdf;
    use redc::rsa::pkcs8::EncryptedPrivateKeyInfo;
    if let Some(iterations) = pkcs12_pbe_iterations(der) {
        return iterations <= 10_000;
    }
    let Ok(info) = EncryptedPrivateKeyInfo::try_from(der) else {
        return true;
    };
    match info.encryption_algorithm.pbes2().map(|p| &p.kdf) {
        Some(Kdf::Pbkdf2(p)) => p.iteration_count <= 10_000,
        Some(Kdf::Scrypt(p)) => {
            let mem = 128u64
                .saturating_mul(u64::from(p.block_size))
                .saturating_mul(p.cost_parameter);
            mem.saturating_mul(u64::from(p.parallelization)) <= 1 << 20
        }
        _ => true,
    }
}

/// The iteration count of an EncryptedPrivateKeyInfo under one of PKCS#12's PBE schemes
/// (`1.2.840.113549.1.12.1.*`, parameters `SEQUENCE { salt OCTET STRING, iterations INTEGER }`),
/// which the pkcs8 crate's parser does not know; `u64::MAX` for a count too large to read.
fn pkcs12_pbe_iterations(der: &[u8]) -> Option<u64> {
    use redc::rsa::pkcs8::der::asn1::{AnyRef, ObjectIdentifier, OctetStringRef, UintRef};
    use redc::rsa::pkcs8::der::{Reader, SliceReader};
    const PKCS12_PBE: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.12.1");
    let mut r = SliceReader::new(der).ok()?;
    let params = r
        .sequence(|r| {
            let params = r.sequence(|a| {
                let oid: ObjectIdentifier = a.decode()?;
                let params: Option<AnyRef<'_>> = a.decode()?;
                Ok((oid, params))
            })?;
            r.decode::<OctetStringRef<'_>>()?;
            Ok(params)
        })
        .ok()
        .and_then(|(oid, params)| (oid.parent() == Some(PKCS12_PBE)).then_some(params))?;
    let count = params.and_then(|p| {
        p.sequence(|s| {
            s.decode::<OctetStringRef<'_>>()?;
            s.decode::<UintRef<'_>>()
        })
        .ok()
    });
    Some(match count {
        Some(c) if c.as_bytes().len() <= 8 => c
            .as_bytes()
            .iter()
            .fold(0u64, |acc, &b| (acc << 8) | u64::from(b)),
        Some(_) => u64::MAX,
        // No parameters, or malformed ones: refused before any hashing.
        None => 0,
    })
}

fn check_private(k: &RsaPrivateKey) {
    assert!(k.validate().is_ok());
    let der = k.to_pkcs1_der().expect("re-encode");
    let again = RsaPrivateKey::from_pkcs1_der(der.as_bytes()).expect("re-decode");
    assert_eq!(again.public_key(), k.public_key());
    assert!(again.d() == k.d());
}

fn check_public(k: &RsaPublicKey) {
    let der = k.to_pkcs1_der().expect("re-encode");
    let again = RsaPublicKey::from_pkcs1_der(der.as_bytes()).expect("re-decode");
    assert_eq!(&again, k);
}

/// Splits off the first byte (0 if empty).
fn take(data: &[u8]) -> (u8, &[u8]) {
    match data.split_first() {
        Some((&b, rest)) => (b, rest),
        None => (0, data),
    }
}

/// Signature verification. Byte 0 selects the scheme (bit 0: PSS), the hash (bits 1–3), and
/// the mode (bits 4–5): 0 verify under the fixed key, 1 under a fuzzed modulus (length byte,
/// then `n`), 2 and 3 the encoded-message check directly.
pub fn verify(data: &[u8]) {
    let (sel, rest) = take(data);
    let pss = sel & 1 == 1;
    let hash = HashAlg::ALL[((sel >> 1) & 7) as usize % HashAlg::ALL.len()];
    let h_len = hash.output_size();
    let mode = (sel >> 4) & 3;
    let (key, rest) = match mode {
        0 => (Some(fixed_key().to_public_key()), rest),
        1 => {
            let (len, rest) = take(rest);
            let len = (len as usize).min(rest.len());
            let (n, rest) = rest.split_at(len);
            let e = if sel & 0x40 != 0 { 3 } else { 65537 };
            (
                RsaPublicKey::new(BoxedUint::from_be_bytes(n), BoxedUint::from_u64(e)).ok(),
                rest,
            )
        }
        _ => (None, rest),
    };
    let split = h_len.min(rest.len());
    let (hashed, sig) = rest.split_at(split);
    match key {
        Some(key) => {
            let r = if pss {
                key.verify(Pss::from_hash(hash), hashed, sig)
            } else {
                key.verify(Pkcs1v15Sign::from_hash(hash), hashed, sig)
            };
            if r.is_ok() {
                // A valid signature is exactly k bytes, below n.
                assert_eq!(sig.len(), key.size());
            }
        }
        None => {
            // The encoded-message checks, `sig` standing for EM (k = its length).
            let em = sig;
            if pss {
                let bits = em.len() * 8;
                let _ = Pss::from_hash(hash).verify_em(em, hashed, bits);
                let _ = Pss::from_hash(hash).verify_em(em, hashed, bits.saturating_sub(7));
            } else {
                let p = Pkcs1v15Sign::from_hash(hash);
                let ok = p.verify_em(em, hashed).is_ok();
                let want = p.encode(hashed, em.len()).is_ok_and(|e| e == em);
                assert_eq!(ok, want, "PKCS#1 v1.5 verify_em disagrees with encode");
            }
        }
    }
}

/// Decryption with the fixed key. Byte 0: bit 0 selects OAEP (SHA-256, no label) or PKCS#1
/// v1.5; bit 1 treats the rest as a ciphertext (decrypt, no panic), otherwise as an encoded
/// message `EM`, which is encrypted raw and must decrypt exactly as a naive unpadding says.
pub fn decrypt(data: &[u8]) {
    let key = fixed_key();
    let k = key.size();
    let (sel, rest) = take(data);
    let oaep = sel & 1 == 1;
    if sel & 2 != 0 {
        let r = if oaep {
            key.decrypt(Oaep::new::<Sha256>(), rest)
        } else {
            key.decrypt(Pkcs1v15Encrypt, rest)
        };
        let r = r.ok();
        if let Some(m) = &r {
            assert_eq!(rest.len(), k);
            assert!(m.len() <= k - 11);
        }
        blinded_agrees(key, oaep, rest, &r);
        return;
    }
    // EM: the input, cut or zero-extended on the left to k bytes.
    let mut em = vec![0u8; k];
    let n = rest.len().min(k);
    em[k - n..].copy_from_slice(&rest[..n]);
    let want = if oaep {
        naive_oaep_unpad(&em)
    } else {
        naive_pkcs1_unpad(&em)
    };
    let got_unpad = if oaep {
        Oaep::new::<Sha256>().unpad(&em).ok()
    } else {
        Pkcs1v15Encrypt.unpad(&em).ok()
    };
    assert_eq!(got_unpad, want, "unpad disagrees with the reference");
    let Ok(c) = key.public_key().raw_public(&em) else {
        return; // EM ≥ n: not a message representative.
    };
    let got = if oaep {
        key.decrypt(Oaep::new::<Sha256>(), &c).ok()
    } else {
        key.decrypt(Pkcs1v15Encrypt, &c).ok()
    };
    assert_eq!(got, want, "decrypt disagrees with the reference");
    blinded_agrees(key, oaep, &c, &want);
}

/// Blinded decryption of `c` must give `want`, the unblinded result. A clone of the key starts
/// with an empty blinding cache, so its pair comes from a generator seeded by `c` (the input
/// alone decides every value, so a failure reproduces), and the second call runs on the
/// squared pair.
fn blinded_agrees(key: &RsaPrivateKey, oaep: bool, c: &[u8], want: &Option<Vec<u8>>) {
    let key = key.clone();
    let mut rng = rand_chacha::ChaCha20Rng::from_seed(Sha256::digest(c).into());
    for round in 0..2 {
        let got = if oaep {
            key.decrypt_blinded(&mut rng, Oaep::new::<Sha256>(), c)
        } else {
            key.decrypt_blinded(&mut rng, Pkcs1v15Encrypt, c)
        };
        assert_eq!(
            &got.ok(),
            want,
            "blinded decryption disagrees (use {round})"
        );
    }
}

/// RFC 8017 §7.2.2 step 3, written the obvious (variable-time) way.
pub fn naive_pkcs1_unpad(em: &[u8]) -> Option<Vec<u8>> {
    if em.len() < 11 || em[0] != 0 || em[1] != 2 {
        return None;
    }
    let sep = em[2..].iter().position(|&b| b == 0)? + 2;
    if sep < 10 {
        return None;
    }
    Some(em[sep + 1..].to_vec())
}

fn mgf1_sha256(seed: &[u8], len: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let mut counter = 0u32;
    while out.len() < len {
        let mut h = Sha256::new();
        h.update(seed);
        h.update(counter.to_be_bytes());
        out.extend_from_slice(&h.finalize());
        counter += 1;
    }
    out.truncate(len);
    out
}

/// RFC 8017 §7.1.2 step 3 with SHA-256 and the empty label, written the obvious way.
pub fn naive_oaep_unpad(em: &[u8]) -> Option<Vec<u8>> {
    let h = 32;
    let k = em.len();
    if k < 2 * h + 2 {
        return None;
    }
    let masked_seed = &em[1..1 + h];
    let masked_db = &em[1 + h..];
    let seed: Vec<u8> = masked_seed
        .iter()
        .zip(mgf1_sha256(masked_db, h))
        .map(|(a, b)| a ^ b)
        .collect();
    let db: Vec<u8> = masked_db
        .iter()
        .zip(mgf1_sha256(&seed, k - h - 1))
        .map(|(a, b)| a ^ b)
        .collect();
    if em[0] != 0 || db[..h] != Sha256::digest(b"")[..] {
        return None;
    }
    let i = db[h..].iter().position(|&b| b != 0)? + h;
    if db[i] != 1 {
        return None;
    }
    Some(db[i + 1..].to_vec())
}

fn to_limbs<W: Word>(x: &BigUint, s: usize) -> Vec<W> {
    let bytes = (W::BITS / 8) as usize;
    let mut le = x.to_bytes_le();
    le.resize(s * bytes, 0);
    le.chunks(bytes)
        .map(|c| {
            let mut v = 0u64;
            for (i, &b) in c.iter().enumerate() {
                v |= (b as u64) << (8 * i);
            }
            W::from_u64(v)
        })
        .collect()
}

fn from_limbs<W: Word>(x: &[W]) -> BigUint {
    let mut le = Vec::new();
    for w in x {
        le.extend_from_slice(&w.to_u64().to_le_bytes()[..(W::BITS / 8) as usize]);
    }
    BigUint::from_bytes_le(&le)
}

/// Differential Montgomery arithmetic. Byte 0: bit 0 word size (u32/u64), bits 1–3 the
/// algorithm, bits 4–6 the squaring variant, bit 7 the mulx backend (64-bit, if the CPU has
/// it). Byte 1: the modulus length in bytes (1..=136, forced odd and ≥ 3: up to 17 64-bit limbs,
/// which reaches the sized kernels at 6, 8, 11, 12 and 16 limbs), then `n`, `a`, `b`
/// (reduced mod n) and a short exponent.
pub fn mont(data: &[u8]) {
    let (sel, rest) = take(data);
    let (len, rest) = take(rest);
    let len = (len as usize % 136) + 1;
    if rest.len() < len {
        return;
    }
    let (nb, rest) = rest.split_at(len);
    let mut n = BigUint::from_bytes_be(nb) | BigUint::from(1u32);
    if n < BigUint::from(3u32) {
        n = BigUint::from(3u32);
    }
    let third = rest.len() / 3;
    let a = BigUint::from_bytes_be(&rest[..third.min(len + 1)]) % &n;
    let b = BigUint::from_bytes_be(&rest[third..(2 * third).min(third + len + 1)]) % &n;
    let exp = &rest[2 * third..(2 * third + 8).min(rest.len())];
    let algo = Algorithm::ALL[((sel >> 1) & 7) as usize % Algorithm::ALL.len()];
    let sqr = SqrVariant::ALL[((sel >> 4) & 7) as usize % SqrVariant::ALL.len()];
    if sel & 1 == 0 {
        mont_word::<u32>(&n, &a, &b, exp, Kernel::portable(algo, sqr));
    } else if sel & 0x80 != 0 && Backend::Mulx.is_available() {
        mont_word::<u64>(&n, &a, &b, exp, Backend::Mulx.kernel().unwrap());
        #[cfg(target_arch = "x86_64")]
        ifma_forms(&n, &a, &b, exp, sel);
    } else {
        mont_word::<u64>(&n, &a, &b, exp, Kernel::portable(algo, sqr));
    }
}

/// The IFMA exponentiations (where the CPU has them) against num-bigint: the lane form with
/// one job (with each way of selecting a window's multiplier, each squaring form, each
/// product form), the wide public form with one, and the duo and pair forms with two (bases
/// `a` and `b`, one modulus and exponent; the duo form also by square-and-multiply over the
/// exponent taken as public).
#[cfg(target_arch = "x86_64")]
fn ifma_forms(n: &BigUint, a: &BigUint, b: &BigUint, exp: &[u8], sel: u8) {
    use redc::mont::backend::{ifma, ifma_duo, ifma_pair};
    let Some(token) = ifma::Token::get() else {
        return;
    };
    if exp.is_empty() {
        return;
    }
    let s = (n.bits() as usize).div_ceil(64);
    let m = Modulus::<u64>::new(&to_limbs::<u64>(n, s)).expect("odd n >= 3");
    let (al, bl) = (to_limbs::<u64>(a, s), to_limbs::<u64>(b, s));
    let e = BigUint::from_bytes_be(exp);
    let (want_a, want_b) = (a.modpow(&e, n), b.modpow(&e, n));
    let window = u32::from(sel >> 1 & 3) + 1;
    if let Some(m52) = ifma::digits_for(m.bits()).and_then(|d| ifma::Modulus52::new(&m, d)) {
        // The window's multiplier read by the product, and stored by the squarings (windows of
        // 4 and 5 bits; the others fall back to the scan).
        let stitched_window = 4 + u32::from(sel >> 3 & 1);
        // Either squaring form (the schoolbook one where compiled, the standard elsewhere),
        // and either product form: the memory-operand one in 40 digits (more digits than the
        // modulus needs, which is always correct), where it is compiled.
        let square = if sel >> 4 & 1 == 1 {
            ifma::LaneSquare::Schoolbook
        } else {
            ifma::LaneSquare::Standard
        };
        let (product, lane_m52) = if sel >> 5 & 1 == 1 {
            let wide = ifma::Modulus52::new(&m, 40).expect("40 digits hold every fuzzed modulus");
            (ifma::LaneProduct::MemoryOperands, wide)
        } else {
            (ifma::LaneProduct::Registers, m52.clone())
        };
        // Or the tiled squaring and products, in 27 digits where the modulus fits (the
        // schoolbook square, tiles of nine) and in 40 otherwise (Karatsuba's, tiles of ten).
        let (square, product, lane_m52) = if sel >> 6 & 1 == 1 {
            let tiled = ifma::Modulus52::new(&m, 27)
                .or_else(|| ifma::Modulus52::new(&m, 40))
                .expect("40 digits hold every fuzzed modulus");
            (ifma::LaneSquare::Tiled, ifma::LaneProduct::Tiled, tiled)
        } else {
            (square, product, lane_m52)
        };
        for (w, select) in [
            (window, ifma::LaneSelect::Scan),
            (stitched_window, ifma::LaneSelect::Stitched),
        ] {
            let mut out = vec![0u64; s];
            let mut jobs = [ifma::PowJob {
                out: &mut out,
                base: &al,
                exp,
                modulus: &lane_m52,
            }];
            let forms = ifma::LaneForms {
                select,
                square,
                product,
            };
            ifma::pow_lanes_in(token, &mut jobs, w, forms);
            assert_eq!(
                from_limbs(&out),
                want_a,
                "ifma lanes pow, window {w}, {forms:?}"
            );
        }
        let (mut oa, mut ob) = (vec![0u64; s], vec![0u64; s]);
        let mut jobs = [
            ifma::PowJob {
                out: &mut oa,
                base: &al,
                exp,
                modulus: &m52,
            },
            ifma::PowJob {
                out: &mut ob,
                base: &bl,
                exp,
                modulus: &m52,
            },
        ];
        ifma_pair::pow_pair(token, &mut jobs, window);
        assert_eq!(
            (from_limbs(&oa), from_limbs(&ob)),
            (want_a.clone(), want_b.clone()),
            "ifma pair pow"
        );
    }
    // The wide public form (verification and the fault check): at the modulus's own digit
    // count (one to three registers, the form that forms hi(n·y) apart) and in 60 digits
    // (eight registers, the fused form; more digits than needed is always correct).
    let need = ifma::digits_for_bits(m.bits());
    for digits in [need, 60] {
        let m52 = ifma::Modulus52::new_wide(&m, digits).expect("up to 80 digits");
        let mut out = vec![0u64; s];
        let mut job = ifma::PowJob {
            out: &mut out,
            base: &al,
            exp: &[],
            modulus: &m52,
        };
        ifma_pair::pow_wide_public_vartime(token, &mut job, exp);
        assert_eq!(
            from_limbs(&out),
            want_a,
            "ifma wide public pow, {digits} digits, n {n:x} a {a:x} exp {exp:?}"
        );
    }
    // The duo form in both register widths, each at its smallest count for the modulus,
    // squaring both ways.
    let widths = [ifma_duo::DuoWidth::W512, ifma_duo::DuoWidth::W256];
    let squarings = [
        ifma_duo::DuoSquaring::Kernel,
        ifma_duo::DuoSquaring::Product,
    ];
    for (width, squaring) in widths.into_iter().flat_map(|w| squarings.map(|q| (w, q))) {
        let Some(m52) = width
            .digit_counts()
            .iter()
            .find(|&&d| d >= need)
            .and_then(|&d| ifma::Modulus52::new(&m, d))
        else {
            continue;
        };
        let (mut oa, mut ob) = (vec![0u64; s], vec![0u64; s]);
        let mut jobs = [
            ifma::PowJob {
                out: &mut oa,
                base: &al,
                exp,
                modulus: &m52,
            },
            ifma::PowJob {
                out: &mut ob,
                base: &bl,
                exp,
                modulus: &m52,
            },
        ];
        ifma_duo::pow_duo_with(token, &mut jobs, window, width, squaring);
        assert_eq!(
            (from_limbs(&oa), from_limbs(&ob)),
            (want_a.clone(), want_b.clone()),
            "ifma duo pow, {width:?}, {squaring:?}"
        );
        // The same by square-and-multiply over the exponent as a public one (the fault
        // check's form).
        let (mut oa, mut ob) = (vec![0u64; s], vec![0u64; s]);
        let mut jobs = [
            ifma::PowJob {
                out: &mut oa,
                base: &al,
                exp: &[],
                modulus: &m52,
            },
            ifma::PowJob {
                out: &mut ob,
                base: &bl,
                exp: &[],
                modulus: &m52,
            },
        ];
        ifma_duo::pow_duo_public_vartime_with(token, &mut jobs, exp, width, squaring);
        assert_eq!(
            (from_limbs(&oa), from_limbs(&ob)),
            (want_a.clone(), want_b.clone()),
            "ifma duo public pow, {width:?}, {squaring:?}"
        );
    }
}

fn mont_word<W: Word>(n: &BigUint, a: &BigUint, b: &BigUint, exp: &[u8], k: Kernel<W>) {
    let s = (n.bits() as usize).div_ceil(W::BITS as usize);
    let m = Modulus::<W>::new(&to_limbs::<W>(n, s)).expect("odd n ≥ 3");
    let r_inv = (BigUint::from(1u32) << (s * W::BITS as usize)).modinv(n);
    let al = to_limbs::<W>(a, s);
    let bl = to_limbs::<W>(b, s);
    let name = k.name();
    if let Some(r_inv) = r_inv {
        let want = a * b * &r_inv % n;
        assert_eq!(from_limbs(&m.mont_mul(&al, &bl, &k)), want, "{name} mul");
        let want = a * a * &r_inv % n;
        assert_eq!(from_limbs(&m.mont_sqr(&al, &k)), want, "{name} sqr");
    }
    let window = (exp.first().copied().unwrap_or(0) % 8) as u32 + 1;
    let mut out = vec![W::ZERO; s];
    fixed::pow(&mut out, &al, exp, &m, &k, window);
    let want = a.modpow(&BigUint::from_bytes_be(exp), n);
    assert_eq!(from_limbs(&out), want, "{name} pow, window {window}");
}
