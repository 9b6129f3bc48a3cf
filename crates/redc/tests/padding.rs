//! The RSA paddings at byte level, through a test-local raw RSA built on num-bigint (so these
//! tests do not depend on the crate's key layer): sign/verify and encrypt/decrypt round trips
//! for every hash, moduli of every `modBits mod 8` class that matters for PSS, crafted invalid
//! encodings, and property tests of the unpaddings.

use num_bigint::{BigUint, RandBigInt};
use num_integer::Integer;
use num_traits::One;
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use redc::rsa::mgf::mgf1_xor;
use redc::rsa::{
    Error, HashAlg, InputFault, Oaep, ParameterFault, Pkcs1v15Encrypt, Pkcs1v15Sign, Pss,
};

// ---------------------------------------------------------------------------------------------
// A tiny RSA for the tests.

const SMALL_PRIMES: [u32; 24] = [
    3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97,
];

fn is_probable_prime(n: &BigUint, rng: &mut ChaCha20Rng) -> bool {
    for &p in &SMALL_PRIMES {
        if (n % p) == BigUint::from(0u32) {
            return *n == BigUint::from(p);
        }
    }
    let one = BigUint::one();
    let n1 = n - &one;
    let s = n1.trailing_zeros().unwrap();
    let d = &n1 >> s;
    'witness: for _ in 0..24 {
        let a = rng.gen_biguint_range(&BigUint::from(2u32), &n1);
        let mut x = a.modpow(&d, n);
        if x == one || x == n1 {
            continue;
        }
        for _ in 1..s {
            x = x.modpow(&BigUint::from(2u32), n);
            if x == n1 {
                continue 'witness;
            }
        }
        return false;
    }
    true
}

/// A prime of exactly `bits` bits with its two top bits set (so products have full length).
fn prime(rng: &mut ChaCha20Rng, bits: u64) -> BigUint {
    loop {
        let mut p = rng.gen_biguint(bits);
        p |= BigUint::one() << (bits - 1);
        p |= BigUint::one() << (bits - 2);
        p |= BigUint::one();
        if is_probable_prime(&p, rng) {
            return p;
        }
    }
}

struct Key {
    n: BigUint,
    e: BigUint,
    d: BigUint,
    k: usize,
    bits: usize,
}

impl Key {
    fn generate(rng: &mut ChaCha20Rng, bits: u64) -> Key {
        let e = BigUint::from(65537u32);
        loop {
            let p = prime(rng, bits / 2 + bits % 2);
            let q = prime(rng, bits / 2);
            let phi = (&p - 1u32) * (&q - 1u32);
            if p == q || !phi.gcd(&e).is_one() {
                continue;
            }
            let n = &p * &q;
            assert_eq!(n.bits(), bits);
            let d = e.modinv(&phi).unwrap();
            return Key {
                k: (bits as usize).div_ceil(8),
                bits: bits as usize,
                n,
                e,
                d,
            };
        }
    }

    fn os(&self, x: &BigUint) -> Vec<u8> {
        let b = x.to_bytes_be();
        let mut out = vec![0u8; self.k - b.len()];
        out.extend_from_slice(&b);
        out
    }

    /// RSAEP / RSAVP1 with the range check.
    fn public(&self, x: &[u8]) -> Option<Vec<u8>> {
        let x = BigUint::from_bytes_be(x);
        (x < self.n).then(|| self.os(&x.modpow(&self.e, &self.n)))
    }

    /// RSADP / RSASP1.
    fn private(&self, x: &[u8]) -> Vec<u8> {
        let x = BigUint::from_bytes_be(x);
        assert!(x < self.n);
        self.os(&x.modpow(&self.d, &self.n))
    }
}

/// Keys covering `modBits mod 8` = 1 (PSS's emLen = k − 1), 7, 0 and an ordinary 2048.
fn keys() -> &'static [Key] {
    use std::sync::OnceLock;
    static KEYS: OnceLock<Vec<Key>> = OnceLock::new();
    KEYS.get_or_init(|| {
        let mut rng = ChaCha20Rng::seed_from_u64(0x5eed);
        [1025u64, 1031, 1032, 1537, 2048]
            .iter()
            .map(|&b| Key::generate(&mut rng, b))
            .collect()
    })
}

// ---------------------------------------------------------------------------------------------
// PKCS#1 v1.5 signatures.

#[test]
fn pkcs1v15_sign_verify_every_hash() {
    for key in keys() {
        for h in HashAlg::ALL {
            let padding = Pkcs1v15Sign::from_hash(h);
            let hashed = h.digest(b"the message");
            let em = padding.encode(&hashed, key.k).unwrap();
            let sig = key.private(&em);
            let m = key.public(&sig).unwrap();
            assert_eq!(m, em);
            padding.verify_em(&m, &hashed).unwrap();

            // Another message, another hash, a flipped signature bit: all rejected.
            let other = h.digest(b"another message");
            assert_eq!(padding.verify_em(&m, &other), Err(Error::Verification));
            for h2 in HashAlg::ALL.into_iter().filter(|&x| x != h) {
                let hashed2 = h2.digest(b"the message");
                assert!(Pkcs1v15Sign::from_hash(h2).verify_em(&m, &hashed2).is_err());
            }
            let mut bad = sig.clone();
            bad[key.k / 2] ^= 0x10;
            if let Some(m2) = key.public(&bad) {
                assert_eq!(padding.verify_em(&m2, &hashed), Err(Error::Verification));
            }
            // A digest of the wrong length is a caller error.
            assert_eq!(
                padding.verify_em(&m, &hashed[1..]),
                Err(Error::InputOutOfRange(InputFault::DigestLength {
                    len: h.output_size() - 1,
                    expected: h.output_size()
                }))
            );
        }
    }
}

#[test]
fn pkcs1v15_generic_types_match_runtime_choice() {
    assert_eq!(
        Pkcs1v15Sign::new::<sha2::Sha256>(),
        Pkcs1v15Sign::from_hash(HashAlg::Sha256)
    );
    assert_eq!(
        Pkcs1v15Sign::new::<sha1::Sha1>(),
        Pkcs1v15Sign::from_hash(HashAlg::Sha1)
    );
    assert_eq!(
        Pkcs1v15Sign::new::<sha2::Sha512>(),
        Pkcs1v15Sign::from_hash(HashAlg::Sha512)
    );
    // RFC 8017 §9.2 note 1, SHA-256 row.
    assert_eq!(
        Pkcs1v15Sign::from_hash(HashAlg::Sha256).prefix(),
        hex::decode("3031300d060960864801650304020105000420").unwrap()
    );
}

/// A `DigestInfo` without the NULL parameter is a different encoding, and strict
/// verification (compare the whole EM) rejects it even though the hash inside is right.
#[test]
fn pkcs1v15_missing_null_rejected() {
    let key = &keys()[4];
    let hashed = HashAlg::Sha256.digest(b"msg");
    // SEQUENCE { SEQUENCE { OID sha256 }, OCTET STRING }, no 05 00.
    let mut t = hex::decode("302f300b0609608648016503040201").unwrap();
    t.extend_from_slice(&[0x04, 0x20]);
    t.extend_from_slice(&hashed);
    let mut em = vec![0xffu8; key.k];
    em[0] = 0;
    em[1] = 1;
    em[key.k - t.len() - 1] = 0;
    em[key.k - t.len()..].copy_from_slice(&t);
    let sig = key.private(&em);
    let m = key.public(&sig).unwrap();
    assert_eq!(
        Pkcs1v15Sign::from_hash(HashAlg::Sha256).verify_em(&m, &hashed),
        Err(Error::Verification)
    );
}

#[test]
fn pkcs1v15_key_too_small_for_hash() {
    // 62-byte modulus: SHA-512's T is 83 bytes.
    let p = Pkcs1v15Sign::from_hash(HashAlg::Sha512);
    let hashed = HashAlg::Sha512.digest(b"");
    assert_eq!(
        p.encode(&hashed, 62),
        Err(Error::MessageTooLong { len: 83, max: 51 })
    );
    assert_eq!(p.verify_em(&[0u8; 62], &hashed), Err(Error::Verification));
}

// ---------------------------------------------------------------------------------------------
// PSS.

#[test]
fn pss_sign_verify_every_hash_and_salt() {
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    for key in keys() {
        let em_len = (key.bits - 1).div_ceil(8);
        for h in HashAlg::ALL {
            let h_len = h.output_size();
            let max_salt = em_len - h_len - 2;
            let hashed = h.digest(b"pss message");
            for s_len in [0, 1, h_len, max_salt]
                .into_iter()
                .filter(|&s| s <= max_salt)
            {
                let salt: Vec<u8> = (0..s_len).map(|_| rng.gen()).collect();
                let fixed = Pss::from_hash_with_salt(h, s_len);
                let em = fixed.encode_with_salt(&hashed, &salt, key.bits).unwrap();
                assert_eq!(em.len(), em_len);
                let sig = key.private(&em);
                let m = key.public(&sig).unwrap();
                if em_len < key.k {
                    // modBits ≡ 1 (mod 8): RSAVP1's k bytes start with a zero byte.
                    assert_eq!(m[0], 0);
                }
                fixed.verify_em(&m, &hashed, key.bits).unwrap();
                Pss::from_hash(h).verify_em(&m, &hashed, key.bits).unwrap();
                // A different fixed salt length is refused.
                let other = Pss::from_hash_with_salt(h, if s_len == 0 { 1 } else { s_len - 1 });
                assert_eq!(
                    other.verify_em(&m, &hashed, key.bits),
                    Err(Error::Verification)
                );
                // Wrong message, wrong MGF hash, tampered signature.
                let wrong = h.digest(b"pss messagE");
                assert!(fixed.verify_em(&m, &wrong, key.bits).is_err());
                let mgf = if h == HashAlg::Sha1 {
                    HashAlg::Sha256
                } else {
                    HashAlg::Sha1
                };
                assert!(Pss::from_hash(h)
                    .with_mgf_hash(mgf)
                    .verify_em(&m, &hashed, key.bits)
                    .is_err());
                let mut bad = sig.clone();
                bad[3] ^= 1;
                if let Some(m2) = key.public(&bad) {
                    assert!(fixed.verify_em(&m2, &hashed, key.bits).is_err());
                }
            }
            // A salt one byte longer than fits.
            let salt = vec![0u8; max_salt + 1];
            assert_eq!(
                Pss::from_hash(h).encode_with_salt(&hashed, &salt, key.bits),
                Err(Error::UnsupportedParameter(ParameterFault::SaltTooLong {
                    salt_len: max_salt + 1,
                    hash_len: h.output_size(),
                    em_len: (key.bits - 1).div_ceil(8)
                }))
            );
        }
    }
}

/// The top `8·emLen − emBits` bits must be zero: a representative using them is rejected
/// even when the rest is a valid encoding.
#[test]
fn pss_rejects_bits_above_em_bits() {
    let key = &keys()[2]; // 1032 bits: emBits = 1031, one spare bit in the top byte.
    let h = HashAlg::Sha256;
    let hashed = h.digest(b"x");
    let pss = Pss::from_hash(h);
    let mut em = pss.encode_with_salt(&hashed, &[9u8; 32], key.bits).unwrap();
    assert_eq!(em.len(), key.k);
    pss.verify_em(&em, &hashed, key.bits).unwrap();
    em[0] |= 0x80;
    assert_eq!(
        pss.verify_em(&em, &hashed, key.bits),
        Err(Error::Verification)
    );
    // For modBits ≡ 1 (mod 8) a non-zero leading byte is out of range for emLen.
    let key = &keys()[0];
    let em = pss.encode_with_salt(&hashed, &[9u8; 32], key.bits).unwrap();
    let mut full = vec![1u8];
    full.extend_from_slice(&em);
    assert_eq!(
        pss.verify_em(&full, &hashed, key.bits),
        Err(Error::Verification)
    );
    full[0] = 0;
    pss.verify_em(&full, &hashed, key.bits).unwrap();
}

#[test]
fn pss_generic_types_match_runtime_choice() {
    assert_eq!(Pss::new::<sha2::Sha384>().hash_len(), 48);
    assert_eq!(Pss::new::<sha2::Sha384>().salt_len(), None);
    assert_eq!(Pss::new_with_salt::<sha2::Sha256>(7).salt_len(), Some(7));
    // The same encoding from the type and from the run-time choice.
    let hashed = HashAlg::Sha384.digest(b"m");
    assert_eq!(
        Pss::new::<sha2::Sha384>().encode_with_salt(&hashed, &[1; 48], 2048),
        Pss::from_hash(HashAlg::Sha384).encode_with_salt(&hashed, &[1; 48], 2048)
    );
}

// ---------------------------------------------------------------------------------------------
// OAEP.

/// Builds `Y ‖ maskedSeed ‖ maskedDB` from an arbitrary DB (RFC 8017 §7.1.1 steps 2d–2i), so
/// that single defects can be planted.
fn oaep_em(h: HashAlg, y: u8, seed: &[u8], db: &[u8]) -> Vec<u8> {
    let mut masked_db = db.to_vec();
    mgf1_xor(h, seed, &mut masked_db);
    let mut masked_seed = seed.to_vec();
    mgf1_xor(h, &masked_db, &mut masked_seed);
    let mut em = vec![y];
    em.extend_from_slice(&masked_seed);
    em.extend_from_slice(&masked_db);
    em
}

#[test]
fn oaep_encrypt_decrypt_every_hash() {
    let mut rng = ChaCha20Rng::seed_from_u64(2);
    for key in keys() {
        for h in HashAlg::ALL {
            for label in [None, Some(b"a label".to_vec())] {
                let oaep = Oaep::from_hash(h, label.clone());
                let Some(max) = oaep.max_message_len(key.k) else {
                    // A 1025-bit modulus is too small for OAEP-SHA-512 (k < 2·64 + 2).
                    assert_eq!(
                        oaep.pad(&mut rng, &[], key.k),
                        Err(Error::MessageTooLong { len: 0, max: 0 })
                    );
                    continue;
                };
                for len in [0, 1, max / 2, max] {
                    let msg: Vec<u8> = (0..len).map(|_| rng.gen()).collect();
                    let em = oaep.pad(&mut rng, &msg, key.k).unwrap();
                    let c = key.public(&em).unwrap();
                    let m = key.private(&c);
                    assert_eq!(oaep.unpad(&m).unwrap(), msg);
                    // Another label does not decrypt it.
                    let other = Oaep::from_hash(h, Some(b"other".to_vec()));
                    assert_eq!(other.unpad(&m), Err(Error::Decryption));
                }
                assert_eq!(
                    oaep.pad(&mut rng, &vec![0; max + 1], key.k),
                    Err(Error::MessageTooLong { len: max + 1, max })
                );
            }
        }
    }
}

#[test]
fn oaep_planted_defects_all_give_the_same_error() {
    for h in HashAlg::ALL {
        let h_len = h.output_size();
        let k = 2 * h_len + 2 + 30;
        let oaep = Oaep::from_hash(h, None);
        let l_hash = h.digest(b"");
        let seed = vec![0x33u8; h_len];
        let msg = b"secret";
        let good_db = |sep: u8, ps_poison: Option<usize>| {
            let mut db = l_hash.clone();
            let ps_len = k - h_len - 1 - h_len - 1 - msg.len();
            let mut ps = vec![0u8; ps_len];
            if let Some(i) = ps_poison {
                ps[i] = 0x07;
            }
            db.extend_from_slice(&ps);
            db.push(sep);
            db.extend_from_slice(msg);
            db
        };
        // The builder agrees with the library's encoder.
        let em = oaep_em(h, 0, &seed, &good_db(1, None));
        assert_eq!(em, oaep.encode_with_seed(msg, &seed, k).unwrap());
        assert_eq!(oaep.unpad(&em).unwrap(), msg);

        let mut cases = vec![
            oaep_em(h, 1, &seed, &good_db(1, None)),    // Y ≠ 0
            oaep_em(h, 0x80, &seed, &good_db(1, None)), // Y ≠ 0
            oaep_em(h, 0, &seed, &good_db(2, None)),    // separator 0x02
            oaep_em(h, 0, &seed, &good_db(0xff, None)), // separator 0xff
            oaep_em(h, 0, &seed, &good_db(1, Some(0))), // junk at the start of PS
            oaep_em(h, 0, &seed, &good_db(1, Some(5))), // junk inside PS
        ];
        let mut bad_lhash = good_db(1, None);
        bad_lhash[h_len - 1] ^= 1;
        cases.push(oaep_em(h, 0, &seed, &bad_lhash));
        // No separator at all: lHash followed by zeros only.
        let mut no_sep = l_hash.clone();
        no_sep.resize(k - h_len - 1, 0);
        cases.push(oaep_em(h, 0, &seed, &no_sep));
        for (i, em) in cases.iter().enumerate() {
            assert_eq!(oaep.unpad(em), Err(Error::Decryption), "{h} case {i}");
        }
        // Wrong lengths.
        assert_eq!(oaep.unpad(&[0u8; 5]), Err(Error::Decryption));
        assert_eq!(
            oaep.unpad(&vec![0u8; 2 * h_len + 1]),
            Err(Error::Decryption)
        );
    }
}

#[test]
fn oaep_separator_directly_after_lhash_and_at_the_end() {
    let h = HashAlg::Sha256;
    let oaep = Oaep::from_hash(h, None);
    let k = 2 * 32 + 2 + 10;
    let seed = [5u8; 32];
    // Longest message: PS empty, 0x01 right after lHash.
    let em = oaep.encode_with_seed(&[0xee; 10], &seed, k).unwrap();
    assert_eq!(oaep.unpad(&em).unwrap(), [0xee; 10]);
    // Empty message: 0x01 is the last byte.
    let em = oaep.encode_with_seed(&[], &seed, k).unwrap();
    assert_eq!(oaep.unpad(&em).unwrap(), Vec::<u8>::new());
    // MGF1 hash different from the label hash round-trips, and differs from the default.
    let mixed = Oaep::from_hash(h, None).with_mgf_hash(HashAlg::Sha1);
    let em = mixed.encode_with_seed(b"hi", &seed, k).unwrap();
    assert_eq!(mixed.unpad(&em).unwrap(), b"hi");
    assert_eq!(oaep.unpad(&em), Err(Error::Decryption));
}

// ---------------------------------------------------------------------------------------------
// PKCS#1 v1.5 encryption.

#[test]
fn pkcs1v15_encrypt_decrypt() {
    let mut rng = ChaCha20Rng::seed_from_u64(3);
    for key in keys() {
        for len in [0, 1, 16, key.k - 11] {
            let msg: Vec<u8> = (0..len).map(|_| rng.gen()).collect();
            let em = Pkcs1v15Encrypt.pad(&mut rng, &msg, key.k).unwrap();
            assert_eq!(&em[..2], &[0, 2]);
            assert!(em[2..key.k - len - 1].iter().all(|&b| b != 0));
            assert_eq!(em[key.k - len - 1], 0);
            let c = key.public(&em).unwrap();
            let m = key.private(&c);
            assert_eq!(Pkcs1v15Encrypt.unpad(&m).unwrap(), msg);
        }
        assert_eq!(
            Pkcs1v15Encrypt.pad(&mut rng, &vec![1; key.k - 10], key.k),
            Err(Error::MessageTooLong {
                len: key.k - 10,
                max: key.k - 11
            })
        );
        // A random ciphertext is (overwhelmingly) invalid, with the one error.
        for _ in 0..8 {
            let c = rng.gen_biguint_below(&key.n);
            let m = key.private(&key.os(&c));
            assert_eq!(Pkcs1v15Encrypt.unpad(&m), Err(Error::Decryption));
        }
    }
}

/// An RNG that returns zero bytes three times in four: the padding string must still be all
/// non-zero.
struct MostlyZero(u64);

impl rand_core::RngCore for MostlyZero {
    fn next_u32(&mut self) -> u32 {
        rand_core::impls::next_u32_via_fill(self)
    }
    fn next_u64(&mut self) -> u64 {
        rand_core::impls::next_u64_via_fill(self)
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        for b in dest {
            self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1);
            *b = if (self.0 >> 62) == 0 {
                (self.0 >> 52) as u8 | 1
            } else {
                0
            };
        }
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand_core::Error> {
        self.fill_bytes(dest);
        Ok(())
    }
}
impl rand_core::CryptoRng for MostlyZero {}

#[test]
fn pkcs1v15_padding_string_non_zero_even_with_a_zero_heavy_rng() {
    let mut rng = MostlyZero(7);
    let em = Pkcs1v15Encrypt.pad(&mut rng, b"m", 64).unwrap();
    assert!(em[2..64 - 2].iter().all(|&b| b != 0));
    assert_eq!(Pkcs1v15Encrypt.unpad(&em).unwrap(), b"m");
}

#[test]
fn pkcs1v15_encrypt_planted_defects() {
    let k = 64;
    let mut rng = ChaCha20Rng::seed_from_u64(4);
    let good = Pkcs1v15Encrypt.pad(&mut rng, b"abc", k).unwrap();
    let sep = k - 4;
    let mut cases = Vec::new();
    for (i, v) in [(0usize, 1u8), (1, 0), (1, 1), (1, 3), (1, 0xff)] {
        let mut em = good.clone();
        em[i] = v;
        cases.push(em);
    }
    // No separator.
    let mut em = good.clone();
    em[sep] = 0x55;
    cases.push(em);
    // Separator in PS positions 0..7 (PS shorter than 8).
    for i in 2..10 {
        let mut em = good.clone();
        em[i] = 0;
        cases.push(em);
    }
    for (i, em) in cases.iter().enumerate() {
        assert_eq!(
            Pkcs1v15Encrypt.unpad(em),
            Err(Error::Decryption),
            "case {i}"
        );
    }
    // PS of exactly 8 bytes is the shortest valid.
    let mut em = good.clone();
    em[10] = 0;
    assert_eq!(Pkcs1v15Encrypt.unpad(&em).unwrap().len(), k - 11);
    assert_eq!(Pkcs1v15Encrypt.unpad(&[0, 2, 1]), Err(Error::Decryption));
}

// ---------------------------------------------------------------------------------------------
// Properties.

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn prop_oaep_round_trip(msg in proptest::collection::vec(any::<u8>(), 0..60),
                            seed in any::<[u8; 32]>(),
                            extra in 0usize..40) {
        let oaep = Oaep::from_hash(HashAlg::Sha256, Some(b"L".to_vec()));
        let k = 2 * 32 + 2 + msg.len() + extra;
        let em = oaep.encode_with_seed(&msg, &seed, k).unwrap();
        prop_assert_eq!(oaep.unpad(&em).unwrap(), msg);
    }

    #[test]
    fn prop_unpad_never_panics(em in proptest::collection::vec(any::<u8>(), 0..200)) {
        for r in [
            Oaep::from_hash(HashAlg::Sha1, None).unpad(&em),
            Pkcs1v15Encrypt.unpad(&em),
        ] {
            if let Err(e) = r {
                prop_assert_eq!(e, Error::Decryption);
            }
        }
        let h = HashAlg::Sha256.digest(&em);
        let bits = em.len() * 8;
        let _ = Pss::from_hash(HashAlg::Sha256).verify_em(&em, &h, bits);
        let _ = Pss::from_hash(HashAlg::Sha256).verify_em(&em, &h, bits.saturating_sub(3));
        let _ = Pkcs1v15Sign::from_hash(HashAlg::Sha256).verify_em(&em, &h);
    }

    #[test]
    fn prop_pkcs1v15_encrypt_round_trip(msg in proptest::collection::vec(any::<u8>(), 0..60),
                                        extra in 0usize..40, seed in any::<u64>()) {
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let k = msg.len() + 11 + extra;
        let em = Pkcs1v15Encrypt.pad(&mut rng, &msg, k).unwrap();
        prop_assert_eq!(Pkcs1v15Encrypt.unpad(&em).unwrap(), msg);
    }
}

/// The byte-level encoders take the modulus size from their caller: a size above redc's
/// largest modulus is an error before anything is allocated (near `usize::MAX` the allocation
/// would abort the process), and the largest size still works.
#[test]
fn encoders_refuse_moduli_above_the_largest() {
    use redc::rsa::MAX_BITS;
    let h = HashAlg::Sha256.digest(b"m");
    let too_big =
        |e: Result<Vec<u8>, Error>| matches!(e, Err(Error::KeySize { max, .. }) if max == MAX_BITS);
    for bits in [MAX_BITS + 1, usize::MAX / 2, usize::MAX] {
        let pss = Pss::from_hash_with_salt(HashAlg::Sha256, 0);
        assert!(
            too_big(pss.encode_with_salt(&h, &[], bits)),
            "PSS, {bits} bits"
        );
        let bytes = bits / 8 + 1;
        let pkcs1 = Pkcs1v15Sign::from_hash(HashAlg::Sha256);
        assert!(
            too_big(pkcs1.encode(&h, bytes)),
            "PKCS#1 v1.5, {bytes} bytes"
        );
        let oaep = Oaep::from_hash(HashAlg::Sha256, None);
        assert!(
            too_big(oaep.encode_with_seed(b"m", &[0; 32], bytes)),
            "OAEP, {bytes} bytes"
        );
    }
    let pss = Pss::from_hash_with_salt(HashAlg::Sha256, 32);
    assert_eq!(
        pss.encode_with_salt(&h, &[7; 32], MAX_BITS).unwrap().len(),
        MAX_BITS / 8
    );
    let pkcs1 = Pkcs1v15Sign::from_hash(HashAlg::Sha256);
    assert_eq!(pkcs1.encode(&h, MAX_BITS / 8).unwrap().len(), MAX_BITS / 8);
    let oaep = Oaep::from_hash(HashAlg::Sha256, None);
    assert_eq!(
        oaep.encode_with_seed(b"m", &[0; 32], MAX_BITS / 8)
            .unwrap()
            .len(),
        MAX_BITS / 8
    );
}
