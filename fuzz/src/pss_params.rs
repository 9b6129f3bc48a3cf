//! The body of the cargo-fuzz target `pss_params`: padding *parameters* rather than
//! signature bytes. The fuzzer chooses PSS salt lengths over the whole `usize` range (small,
//! boundary `emLen − hLen − 2 ± 4`, `usize::MAX − x`, values where `hLen + sLen + 2` wraps,
//! arbitrary 64-bit), every hash (message and MGF1 hash independently), `Pss::from_hash`
//! (auto salt) and `Pss::from_hash_with_salt`, PKCS#1 v1.5 (prefixed and unprefixed),
//! digests and signatures of any length, on fixed keys of 512, 521, 1024, 1025 and 2048 bits
//! (odd sizes give `emLen = k − 1`); and OAEP with labels of any length and every hash on
//! the same keys (512- and 1024-bit keys are too small for some hashes).
//!
//! Properties: nothing panics or aborts, and every result is the one the parameters predict:
//! signing succeeds exactly when the salt fits (`emLen ≥ hLen + sLen + 2`) or, for PKCS#1
//! v1.5, when `k ≥ tLen + 11`; a signature made by the library verifies under the auto-salt
//! padding and under its own salt length, and under no other fixed salt length; encryption
//! succeeds exactly when `mLen ≤ k − 2hLen − 2` and decrypts (blinded or not, alone or in a
//! batch) to the message, and not under another label.
//!
//! Kept apart from `targets.rs`, which the stable smoke test includes.

use std::sync::OnceLock;

use num_bigint::BigUint;
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;
use redc::rsa::{
    prime, BoxedUint, Error, HashAlg, Oaep, Pkcs1v15Sign, Pss, RsaPrivateKey, RsaPublicKey,
};

/// A fixed key with its public half (computed once).
pub struct Fixed {
    pub private: RsaPrivateKey,
    pub public: RsaPublicKey,
}

/// A random prime of exactly `bits` bits with its top two bits set (so a product of two such
/// primes has exactly the sum of their sizes), from the seeded `rng`.
fn seeded_prime(rng: &mut ChaCha20Rng, bits: usize) -> BigUint {
    loop {
        let mut b = vec![0u8; bits.div_ceil(8)];
        rng.fill_bytes(&mut b);
        let low = BigUint::from_bytes_be(&b) % (BigUint::from(1u32) << (bits - 2));
        let x = ((BigUint::from(3u32) << (bits - 2)) + low) | BigUint::from(1u32);
        if prime::is_probable_prime_vartime(&x.to_bytes_be(), 20, rng) {
            return x;
        }
    }
}

/// A two-prime key of `bits` bits from primes generated here (key generation proper starts
/// at 1024 bits and whole bytes are not guaranteed otherwise).
fn key_from_primes(rng: &mut ChaCha20Rng, bits: usize) -> RsaPrivateKey {
    loop {
        let p = seeded_prime(rng, bits / 2);
        let q = seeded_prime(rng, bits - bits / 2);
        if p == q {
            continue;
        }
        let to = |x: &BigUint| BoxedUint::from_be_bytes(&x.to_bytes_be());
        if let Ok(k) = RsaPrivateKey::from_p_q(to(&p), to(&q), BoxedUint::from_u64(65537)) {
            assert_eq!(k.public_key().bits(), bits);
            return k;
        }
    }
}

/// The fixed keys: 512, 521, 1024, 1025 and 2048 bits, deterministic.
pub fn keys() -> &'static [Fixed] {
    static KEYS: OnceLock<Vec<Fixed>> = OnceLock::new();
    KEYS.get_or_init(|| {
        let mut rng = ChaCha20Rng::seed_from_u64(0x9551);
        let mut out = Vec::new();
        for bits in [512usize, 521, 1024, 1025, 2048] {
            let k = if bits % 1024 == 0 {
                RsaPrivateKey::new(&mut rng, bits).expect("keygen")
            } else {
                key_from_primes(&mut rng, bits)
            };
            assert_eq!(k.public_key().bits(), bits);
            out.push(Fixed {
                public: k.to_public_key(),
                private: k,
            });
        }
        out
    })
}

/// A cursor over the fuzz input; reads past the end give zeros / empty slices.
struct Input<'a>(&'a [u8]);

impl<'a> Input<'a> {
    fn u8(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }
    fn bytes(&mut self, n: usize) -> &'a [u8] {
        let n = n.min(self.0.len());
        let (a, b) = self.0.split_at(n);
        self.0 = b;
        a
    }
    fn u16(&mut self) -> u16 {
        (u16::from(self.u8()) << 8) | u16::from(self.u8())
    }
    fn u64(&mut self) -> u64 {
        let mut v = [0u8; 8];
        let b = self.bytes(8);
        v[..b.len()].copy_from_slice(b);
        u64::from_be_bytes(v)
    }
    fn hash(&mut self) -> HashAlg {
        HashAlg::ALL[self.u8() as usize % HashAlg::ALL.len()]
    }
    fn key(&mut self) -> &'static Fixed {
        let ks = keys();
        &ks[self.u8() as usize % ks.len()]
    }
    /// A byte string whose length is a fuzzed u16 (capped by what is left).
    fn var(&mut self) -> &'a [u8] {
        let n = self.u16() as usize;
        self.bytes(n)
    }
    /// `want` bytes (the input's, zero-padded) most of the time, else a fuzzed length.
    fn sized(&mut self, want: usize) -> Vec<u8> {
        let sel = self.u8();
        if sel & 3 != 0 {
            let b = self.bytes(want);
            let mut v = b.to_vec();
            v.resize(want, 0);
            v
        } else {
            self.var().to_vec()
        }
    }
    fn rng(&mut self) -> ChaCha20Rng {
        ChaCha20Rng::seed_from_u64(self.u64())
    }
    /// A salt length anywhere in `usize`, biased to the edges.
    fn salt_len(&mut self, em_len: usize, h_len: usize) -> usize {
        let mode = self.u8();
        let v = self.u64() as usize;
        let small = v & 0xff;
        match mode % 10 {
            0 => small,
            1 => v & 0xffff,
            2 => usize::MAX - small,
            3 => v,
            // The fit boundary: emLen − hLen − 2 − 4 ..= + 3 (wrapping when the key is small).
            4 => em_len
                .wrapping_sub(h_len + 2)
                .wrapping_add(small % 8)
                .wrapping_sub(4),
            // hLen + sLen + 2 wraps to a small value.
            5 => usize::MAX.wrapping_sub(h_len + 1).wrapping_add(small % 8),
            6 => (1usize << (v % 64)).wrapping_add(small % 3).wrapping_sub(1),
            7 => isize::MAX as usize + small % 4 - 1,
            8 => h_len,
            _ => 0,
        }
    }
}

fn em_len_of(key: &RsaPublicKey) -> usize {
    key.bits().saturating_sub(1).div_ceil(8)
}

fn fits(em_len: usize, h_len: usize, s_len: usize) -> bool {
    (h_len as u128) + (s_len as u128) + 2 <= em_len as u128
}

/// The target body.
pub fn pss_params(data: &[u8]) {
    let mut inp = Input(data);
    match inp.u8() % 9 {
        0 => verify_fuzzed(&mut inp),
        1 => sign_pss(&mut inp),
        2 => sign_explicit_salt(&mut inp),
        3 => sign_pkcs1(&mut inp),
        4 => em_direct(&mut inp),
        5 => oaep_round_trip(&mut inp),
        6 => oaep_decrypt_fuzzed(&mut inp),
        7 => oaep_unpad_and_encode(&mut inp),
        _ => sign_pss_batch(&mut inp),
    }
}

/// Fuzzed signatures and digests under PSS (fixed or auto salt) and PKCS#1 v1.5.
fn verify_fuzzed(inp: &mut Input) {
    let key = inp.key();
    let pk = &key.public;
    let (hash, mgf) = (inp.hash(), inp.hash());
    let h_len = hash.output_size();
    let s_len = inp.salt_len(em_len_of(pk), h_len);
    let hashed = inp.sized(h_len);
    let sig = inp.sized(pk.size());
    let fixed = Pss::from_hash_with_salt(hash, s_len).with_mgf_hash(mgf);
    let auto = Pss::from_hash(hash).with_mgf_hash(mgf);
    let rf = pk.verify(fixed, &hashed, &sig);
    let ra = pk.verify(auto, &hashed, &sig);
    if rf.is_ok() {
        assert_eq!(sig.len(), pk.size());
        assert!(fits(em_len_of(pk), h_len, s_len));
        assert_eq!(
            ra,
            Ok(()),
            "fixed salt {s_len} verifies, auto salt does not"
        );
    }
    if ra.is_ok() {
        assert_eq!(sig.len(), pk.size());
    }
    if hashed.len() != h_len {
        assert!(rf.is_err() && ra.is_err());
    }
    let r = pk.verify(Pkcs1v15Sign::from_hash(hash), &hashed, &sig);
    if r.is_ok() {
        assert_eq!((sig.len(), hashed.len()), (pk.size(), h_len));
    }
    let r = pk.verify(Pkcs1v15Sign::new_unprefixed(), &hashed, &sig);
    if r.is_ok() {
        assert_eq!(sig.len(), pk.size());
    }
}

/// Checks a PSS signature the library made with salt length `s_len` and hash `hash`.
fn check_pss_sig(
    pk: &RsaPublicKey,
    hash: HashAlg,
    mgf: HashAlg,
    s_len: usize,
    hashed: &[u8],
    sig: &[u8],
    other: usize,
) {
    assert_eq!(sig.len(), pk.size());
    let p = |s: Option<usize>| match s {
        Some(s) => Pss::from_hash_with_salt(hash, s).with_mgf_hash(mgf),
        None => Pss::from_hash(hash).with_mgf_hash(mgf),
    };
    assert_eq!(
        pk.verify(p(Some(s_len)), hashed, sig),
        Ok(()),
        "own salt length {s_len}"
    );
    assert_eq!(
        pk.verify(p(None), hashed, sig),
        Ok(()),
        "auto salt (signed with {s_len})"
    );
    if other != s_len {
        assert!(
            pk.verify(p(Some(other)), hashed, sig).is_err(),
            "signed with salt {s_len}, verifies with {other}"
        );
    }
    // Another digest of the same length must not verify.
    if !hashed.is_empty() {
        let mut h2 = hashed.to_vec();
        h2[0] ^= 1;
        assert!(pk.verify(p(None), &h2, sig).is_err());
    }
}

/// PSS signing with a fuzzed salt length (or the default), then verification.
fn sign_pss(inp: &mut Input) {
    let key = inp.key();
    let pk = &key.public;
    let (hash, mgf) = (inp.hash(), inp.hash());
    let h_len = hash.output_size();
    let em_len = em_len_of(pk);
    let use_auto = inp.u8() & 1 == 1;
    let s_len = if use_auto {
        h_len
    } else {
        inp.salt_len(em_len, h_len)
    };
    let other = inp.salt_len(em_len, h_len);
    let hashed = inp.sized(h_len);
    let mut rng = inp.rng();
    let pss = if use_auto {
        Pss::from_hash(hash).with_mgf_hash(mgf)
    } else {
        Pss::from_hash_with_salt(hash, s_len).with_mgf_hash(mgf)
    };
    // Without a generator: always an error.
    assert!(key.private.sign(pss.clone(), &hashed).is_err());
    let r = key.private.sign_with_rng(&mut rng, pss, &hashed);
    let expect_ok = hashed.len() == h_len && fits(em_len, h_len, s_len);
    match r {
        Ok(sig) => {
            assert!(
                expect_ok,
                "signed with salt {s_len} (emLen {em_len}, hLen {h_len}, digest {})",
                hashed.len()
            );
            check_pss_sig(pk, hash, mgf, s_len, &hashed, &sig, other);
        }
        Err(e) => assert!(
            !expect_ok,
            "sign failed: {e:?} (salt {s_len}, emLen {em_len}, hLen {h_len})"
        ),
    }
}

/// Batch PSS signing with fuzzed salt lengths.
fn sign_pss_batch(inp: &mut Input) {
    let key = inp.key();
    let pk = &key.public;
    let hash = inp.hash();
    let h_len = hash.output_size();
    let em_len = em_len_of(pk);
    let s_len = inp.salt_len(em_len, h_len);
    let a = inp.sized(h_len);
    let b = inp.sized(h_len);
    let mut rng = inp.rng();
    let pss = Pss::from_hash_with_salt(hash, s_len);
    let r = pss.sign_batch(Some(&mut rng), &key.private, &[&a, &b]);
    let expect_ok = a.len() == h_len && b.len() == h_len && fits(em_len, h_len, s_len);
    match r {
        Ok(sigs) => {
            assert!(expect_ok);
            assert_eq!(sigs.len(), 2);
            check_pss_sig(pk, hash, hash, s_len, &a, &sigs[0], s_len.wrapping_add(1));
            check_pss_sig(pk, hash, hash, s_len, &b, &sigs[1], s_len.wrapping_sub(1));
        }
        Err(e) => assert!(!expect_ok, "batch sign failed: {e:?}"),
    }
}

/// EMSA-PSS-ENCODE with an explicit (fuzzed) salt, the private operation on it, and
/// verification with fuzzed parameters.
fn sign_explicit_salt(inp: &mut Input) {
    let key = inp.key();
    let pk = &key.public;
    let (hash, mgf) = (inp.hash(), inp.hash());
    let h_len = hash.output_size();
    let em_len = em_len_of(pk);
    let hashed = inp.sized(h_len);
    let salt = inp.var().to_vec();
    let (vhash, vsalt) = (inp.hash(), inp.salt_len(em_len, h_len));
    let pss = Pss::from_hash(hash).with_mgf_hash(mgf);
    let em = match pss.encode_with_salt(&hashed, &salt, pk.bits()) {
        Ok(em) => {
            assert!(hashed.len() == h_len && fits(em_len, h_len, salt.len()));
            assert_eq!(em.len(), em_len);
            em
        }
        Err(_) => {
            assert!(!(hashed.len() == h_len && fits(em_len, h_len, salt.len())));
            return;
        }
    };
    let sig = key
        .private
        .raw_private(None, &em)
        .expect("EM < 2^emBits < n");
    check_pss_sig(pk, hash, mgf, salt.len(), &hashed, &sig, vsalt);
    // Another hash of the same length (SHA-256 vs SHA-512/256, SHA-224 vs SHA-512/224)
    // must not verify.
    if vhash != hash && vhash.output_size() == h_len {
        assert!(pk
            .verify(Pss::from_hash(vhash).with_mgf_hash(mgf), &hashed, &sig)
            .is_err());
    }
}

/// PKCS#1 v1.5 signing on every hash and key size, prefixed and unprefixed.
fn sign_pkcs1(inp: &mut Input) {
    let key = inp.key();
    let pk = &key.public;
    let hash = inp.hash();
    let h_len = hash.output_size();
    let unprefixed = inp.u8() & 1 == 1;
    let hashed = inp.sized(h_len);
    let blind = inp.u8() & 1 == 1;
    let mut rng = inp.rng();
    let (p, expect_ok) = if unprefixed {
        (
            Pkcs1v15Sign::new_unprefixed(),
            hashed.len() + 11 <= pk.size(),
        )
    } else {
        let t = hash.digest_info_prefix().len() + h_len;
        (
            Pkcs1v15Sign::from_hash(hash),
            hashed.len() == h_len && t + 11 <= pk.size(),
        )
    };
    let r = if blind {
        key.private.sign_with_rng(&mut rng, p.clone(), &hashed)
    } else {
        key.private.sign(p.clone(), &hashed)
    };
    match r {
        Ok(sig) => {
            assert!(expect_ok);
            assert_eq!(sig.len(), pk.size());
            assert_eq!(pk.verify(p.clone(), &hashed, &sig), Ok(()));
            // Deterministic: the other path gives the same bytes.
            let again = if blind {
                key.private.sign(p, &hashed)
            } else {
                key.private.sign_with_rng(&mut rng, p, &hashed)
            };
            assert_eq!(again.as_deref(), Ok(&sig[..]));
        }
        Err(e) => assert!(!expect_ok, "pkcs1 sign failed: {e:?}"),
    }
}

/// `Pss::verify_em` / `encode_with_salt` directly with fuzzed moduli sizes (including ones
/// no key has) and salt lengths.
fn em_direct(inp: &mut Input) {
    let (hash, mgf) = (inp.hash(), inp.hash());
    let h_len = hash.output_size();
    let mode = inp.u8();
    let mod_bits = match mode % 4 {
        0 => inp.u16() as usize,
        1 => usize::MAX - (inp.u8() as usize),
        2 => (inp.u8() as usize) % 24,
        _ => 8 * (inp.u8() as usize) + (inp.u8() as usize % 8),
    };
    let em_len = mod_bits.saturating_sub(1).div_ceil(8);
    let s_len = inp.salt_len(em_len, h_len);
    let hashed = inp.sized(h_len);
    let em = inp.var().to_vec();
    let fixed = Pss::from_hash_with_salt(hash, s_len).with_mgf_hash(mgf);
    let auto = Pss::from_hash(hash).with_mgf_hash(mgf);
    let rf = fixed.verify_em(&em, &hashed, mod_bits);
    let ra = auto.verify_em(&em, &hashed, mod_bits);
    if rf.is_ok() {
        assert_eq!(ra, Ok(()));
    }
    // encode_with_salt allocates emLen bytes: only for sizes a key can have.
    if mod_bits <= 16384 + 64 {
        let salt = inp.var().to_vec();
        // The encoders refuse a modulus above redc's largest key (16384 bits) first.
        let expect_ok = hashed.len() == h_len
            && mod_bits <= redc::rsa::MAX_BITS
            && fits(em_len, h_len, salt.len());
        match auto.encode_with_salt(&hashed, &salt, mod_bits) {
            Ok(e) => {
                assert!(expect_ok);
                assert_eq!(e.len(), em_len);
                let with = Pss::from_hash_with_salt(hash, salt.len()).with_mgf_hash(mgf);
                assert_eq!(with.verify_em(&e, &hashed, mod_bits), Ok(()));
                assert_eq!(auto.verify_em(&e, &hashed, mod_bits), Ok(()));
                // With a leading zero byte, as RSAVP1 gives when emLen = k − 1.
                let mut z = vec![0u8];
                z.extend_from_slice(&e);
                assert_eq!(auto.verify_em(&z, &hashed, mod_bits), Ok(()));
            }
            Err(_) => assert!(!expect_ok),
        }
    }
}

fn oaep(hash: HashAlg, mgf: HashAlg, label: Option<&[u8]>) -> Oaep {
    Oaep::from_hash(hash, label.map(<[u8]>::to_vec)).with_mgf_hash(mgf)
}

/// OAEP encryption with a fuzzed label, hash, MGF1 hash and message, then decryption (plain,
/// blinded, batch) and decryption under another label.
fn oaep_round_trip(inp: &mut Input) {
    let key = inp.key();
    let pk = &key.public;
    let k = pk.size();
    let (hash, mgf) = (inp.hash(), inp.hash());
    let h_len = hash.output_size();
    let label_sel = inp.u8();
    let label = inp.var().to_vec();
    let label = (label_sel & 1 == 1).then_some(&label[..]);
    let msg = inp.var().to_vec();
    let mut rng = inp.rng();
    let max = k.checked_sub(2 * h_len + 2);
    assert_eq!(oaep(hash, mgf, label).max_message_len(k), max);
    let expect_ok = max.is_some_and(|m| msg.len() <= m);
    let c = match pk.encrypt(&mut rng, oaep(hash, mgf, label), &msg) {
        Ok(c) => {
            assert!(expect_ok);
            c
        }
        Err(e) => {
            assert!(!expect_ok, "encrypt failed: {e:?}");
            return;
        }
    };
    assert_eq!(c.len(), k);
    assert_eq!(
        key.private.decrypt(oaep(hash, mgf, label), &c).as_deref(),
        Ok(&msg[..])
    );
    assert_eq!(
        key.private
            .decrypt_blinded(&mut rng, oaep(hash, mgf, label), &c)
            .as_deref(),
        Ok(&msg[..])
    );
    // An absent label is the empty one.
    if label.is_none_or(<[u8]>::is_empty) {
        assert_eq!(
            key.private
                .decrypt(oaep(hash, mgf, Some(&[])), &c)
                .as_deref(),
            Ok(&msg[..])
        );
        assert_eq!(
            key.private.decrypt(oaep(hash, mgf, None), &c).as_deref(),
            Ok(&msg[..])
        );
    }
    let mut other = label.unwrap_or(&[]).to_vec();
    other.push(inp.u8());
    assert_eq!(
        key.private.decrypt(oaep(hash, mgf, Some(&other)), &c),
        Err(Error::Decryption)
    );
    let junk = inp.sized(k);
    let out = oaep(hash, mgf, label)
        .decrypt_batch(Some(&mut rng), &key.private, &[&c, &junk])
        .expect("batch");
    assert_eq!(out.len(), 2);
    assert_eq!(out[0].as_deref(), Ok(&msg[..]));
    assert_eq!(out[1], key.private.decrypt(oaep(hash, mgf, label), &junk));
}

/// OAEP decryption of fuzzed ciphertexts with fuzzed labels and hashes.
fn oaep_decrypt_fuzzed(inp: &mut Input) {
    let key = inp.key();
    let k = key.public.size();
    let (hash, mgf) = (inp.hash(), inp.hash());
    let h_len = hash.output_size();
    let label = inp.var().to_vec();
    let c = inp.sized(k);
    let mut rng = inp.rng();
    let p = oaep(hash, mgf, Some(&label));
    let r = key.private.decrypt(p.clone(), &c);
    if let Ok(m) = &r {
        assert_eq!(c.len(), k);
        assert!(k >= 2 * h_len + 2 && m.len() <= k - 2 * h_len - 2);
    }
    assert_eq!(key.private.decrypt_blinded(&mut rng, p.clone(), &c), r);
    let out = p.decrypt_batch(None, &key.private, &[&c]).expect("batch");
    assert_eq!(out, vec![r]);
}

/// `Oaep::unpad` on fuzzed encoded messages of any length, and `encode_with_seed` with
/// fuzzed `k` and seed lengths.
fn oaep_unpad_and_encode(inp: &mut Input) {
    let (hash, mgf) = (inp.hash(), inp.hash());
    let h_len = hash.output_size();
    let label = inp.var().to_vec();
    let p = oaep(hash, mgf, Some(&label));
    let em = inp.var().to_vec();
    if let Ok(m) = p.unpad(&em) {
        assert!(em.len() >= 2 * h_len + 2 && m.len() <= em.len() - 2 * h_len - 2);
    }
    let k = inp.u16() as usize % 4096;
    let seed = inp.sized(h_len);
    let msg = inp.var().to_vec();
    // The encoders refuse a modulus above redc's largest key (16384 bits) before anything else.
    let expect_ok = seed.len() == h_len
        && k * 8 <= redc::rsa::MAX_BITS
        && k.checked_sub(2 * h_len + 2).is_some_and(|m| msg.len() <= m);
    match p.encode_with_seed(&msg, &seed, k) {
        Ok(e) => {
            assert!(expect_ok);
            assert_eq!(e.len(), k);
            assert_eq!(p.unpad(&e), Ok(msg));
        }
        Err(_) => assert!(!expect_ok),
    }
}
