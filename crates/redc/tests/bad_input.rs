//! Malformed keys, signatures, ciphertexts and parameters: every one gets a typed error, never
//! a panic or a hang. Malformed DER is made here by byte surgery on valid DER and by a tiny
//! DER writer that can produce what encoders refuse to (non-minimal and negative INTEGERs).

mod common;

use common::{big_of as big, boxed as u};
use num_bigint::BigUint;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use redc::rsa::{
    BoxedUint, DecodePrivateKey, DecodePublicKey, DecodeRsaPrivateKey, DecodeRsaPublicKey,
    EncodePrivateKey, EncodePublicKey, EncodeRsaPrivateKey, EncodeRsaPublicKey, EncodingFault,
    Error, ExponentFault, HashAlg, InputFault, KeyFault, Oaep, ParameterFault, Pkcs1v15Encrypt,
    Pkcs1v15Sign, Pss, RsaPrivateKey, RsaPublicKey,
};
use std::sync::OnceLock;

fn key() -> &'static RsaPrivateKey {
    static K: OnceLock<RsaPrivateKey> = OnceLock::new();
    K.get_or_init(|| RsaPrivateKey::new(&mut ChaCha20Rng::seed_from_u64(0xbad), 1024).unwrap())
}

// ---- a minimal DER writer -------------------------------------------------------------

fn tlv(tag: u8, body: &[u8]) -> Vec<u8> {
    let mut v = vec![tag];
    let n = body.len();
    if n < 0x80 {
        v.push(n as u8);
    } else {
        let len = n.to_be_bytes();
        let skip = len.iter().position(|&b| b != 0).unwrap();
        v.push(0x80 | (len.len() - skip) as u8);
        v.extend_from_slice(&len[skip..]);
    }
    v.extend_from_slice(body);
    v
}

/// A minimal non-negative INTEGER.
fn int(x: &BigUint) -> Vec<u8> {
    let mut b = x.to_bytes_be();
    if b[0] & 0x80 != 0 {
        b.insert(0, 0);
    }
    tlv(0x02, &b)
}

fn seq(items: &[Vec<u8>]) -> Vec<u8> {
    tlv(0x30, &items.concat())
}

fn pub_der(n: &BigUint, e: &BigUint) -> Vec<u8> {
    seq(&[int(n), int(e)])
}

fn priv_fields(k: &RsaPrivateKey) -> Vec<BigUint> {
    vec![
        big(k.n()),
        big(k.e()),
        big(k.d()),
        big(&k.primes()[0]),
        big(&k.primes()[1]),
        big(k.dp()),
        big(k.dq()),
        big(k.qinv()),
    ]
}

fn priv_der(f: &[BigUint]) -> Vec<u8> {
    let mut items = vec![int(&BigUint::from(0u32))];
    items.extend(f.iter().map(int));
    seq(&items)
}

// ---- public keys ----------------------------------------------------------------------

#[test]
fn public_key_values() {
    let n = big(key().n());
    let e65537 = BigUint::from(65537u32);
    let new = |n: &BigUint, e: &BigUint| RsaPublicKey::new(u(n), u(e));
    assert!(new(&n, &e65537).is_ok());
    let size = |bits| {
        Err(Error::KeySize {
            bits,
            min: 512,
            max: 16384,
        })
    };
    assert_eq!(new(&BigUint::from(0u32), &e65537), size(0));
    assert_eq!(new(&BigUint::from(15u32), &BigUint::from(3u32)), size(4));
    assert_eq!(
        new(&(&n + 1u32), &e65537),
        Err(Error::InvalidKey(KeyFault::EvenModulus))
    );
    for (e, fault) in [
        (0u32, ExponentFault::TooSmall),
        (1, ExponentFault::TooSmall),
        (2, ExponentFault::Even),
        (65536, ExponentFault::Even),
    ] {
        assert_eq!(
            new(&n, &BigUint::from(e)),
            Err(Error::PublicExponent(fault)),
            "e = {e}"
        );
    }
    let e_ge_n = Err(Error::PublicExponent(ExponentFault::NotBelowModulus));
    assert_eq!(new(&n, &n), e_ge_n);
    assert_eq!(new(&n, &(&n + 2u32)), e_ge_n);
    // 100000-bit modulus: rejected on size before any arithmetic.
    let huge = (BigUint::from(1u32) << 100_000) + 1u32;
    assert_eq!(new(&huge, &e65537), size(100_001));
    let der = pub_der(&huge, &e65537);
    assert!(RsaPublicKey::from_pkcs1_der(&der).is_err());
    // 511 bits: below the import minimum.
    let small = (BigUint::from(1u32) << 510) + 1u32;
    assert_eq!(new(&small, &e65537), size(511));
    assert_eq!(
        new(&small, &e65537).unwrap_err().to_string(),
        "modulus of 511 bits is below the 512-bit minimum"
    );
}

#[test]
fn public_key_der() {
    let k = key().to_public_key();
    let der = k.to_pkcs1_der().unwrap().as_bytes().to_vec();
    let n = big(k.n());
    let e = big(k.e());
    assert_eq!(pub_der(&n, &e), der, "the test's DER writer matches");
    let parse = |d: &[u8]| RsaPublicKey::from_pkcs1_der(d);
    assert!(parse(&der).is_ok());
    // Truncated at every length, and trailing bytes.
    for len in 0..der.len() {
        assert!(parse(&der[..len]).is_err(), "truncated to {len}");
    }
    let mut long = der.clone();
    long.push(0);
    assert!(parse(&long).is_err(), "trailing byte");
    // Over-long length field (claims more than present).
    let mut over = der.clone();
    over[1] = 0x84;
    assert!(parse(&over).is_err());
    // Non-minimal INTEGER: an unneeded leading 0x00 on e.
    let bad_e = tlv(0x02, &[0, 1, 0, 1]);
    assert!(parse(&seq(&[int(&n), bad_e])).is_err());
    // Negative n: its top bit set without the 0x00 prefix.
    let nb = n.to_bytes_be();
    assert!(parse(&seq(&[tlv(0x02, &nb), int(&e)])).is_err());
    // Negative e.
    assert!(parse(&seq(&[int(&n), tlv(0x02, &[0xff])])).is_err());
    // Wrong tags, empty and garbage.
    assert!(parse(&seq(&[tlv(0x04, &nb), int(&e)])).is_err());
    assert!(parse(&[]).is_err());
    assert!(parse(&[0x30, 0x00]).is_err());
    // Even modulus, e = 1 and e even in otherwise valid DER.
    assert!(parse(&pub_der(&(&n + 1u32), &e)).is_err());
    assert!(parse(&pub_der(&n, &BigUint::from(1u32))).is_err());
    assert!(parse(&pub_der(&n, &BigUint::from(4u32))).is_err());
    // SPKI: truncated, trailing, and a PKCS#1 body where SPKI is expected.
    let spki = k.to_public_key_der().unwrap().as_bytes().to_vec();
    assert!(RsaPublicKey::from_public_key_der(&spki).is_ok());
    assert!(RsaPublicKey::from_public_key_der(&spki[..spki.len() - 1]).is_err());
    let mut s2 = spki.clone();
    s2.push(0);
    assert!(RsaPublicKey::from_public_key_der(&s2).is_err());
    assert!(RsaPublicKey::from_public_key_der(&der).is_err());
    // A wrong algorithm OID (rsaEncryption 1.2.840.113549.1.1.1 → …1.1.2).
    let oid = [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01];
    let at = spki.windows(oid.len()).position(|w| w == oid).unwrap();
    let mut s3 = spki.clone();
    s3[at + oid.len() - 1] = 0x02;
    assert!(RsaPublicKey::from_public_key_der(&s3).is_err());
}

#[test]
fn wrong_pem_labels() {
    let k = key();
    let pkcs1 = k.to_pkcs1_pem(Default::default()).unwrap();
    let pkcs8 = k.to_pkcs8_pem(Default::default()).unwrap();
    let pub1 = k.to_public_key().to_pkcs1_pem(Default::default()).unwrap();
    let spki = k
        .to_public_key()
        .to_public_key_pem(Default::default())
        .unwrap();
    assert!(RsaPrivateKey::from_pkcs1_pem(&pkcs1).is_ok());
    assert!(RsaPrivateKey::from_pkcs1_pem(&pkcs8).is_err());
    assert!(RsaPrivateKey::from_pkcs8_pem(&pkcs1).is_err());
    assert!(RsaPrivateKey::from_pkcs8_pem(&spki).is_err());
    assert!(RsaPublicKey::from_pkcs1_pem(&spki).is_err());
    assert!(RsaPublicKey::from_public_key_pem(&pub1).is_err());
    assert!(RsaPublicKey::from_public_key_pem(&pkcs8).is_err());
    // Relabelled: right body, wrong label.
    let relabel = pkcs1.replace("RSA PRIVATE KEY", "CERTIFICATE");
    assert!(RsaPrivateKey::from_pkcs1_pem(&relabel).is_err());
    // Corrupt base64 and truncated PEM.
    let mut bad = pkcs1.to_string();
    bad.insert(40, '!');
    assert!(RsaPrivateKey::from_pkcs1_pem(&bad).is_err());
    assert!(RsaPrivateKey::from_pkcs1_pem(&pkcs1[..pkcs1.len() / 2]).is_err());
    assert!(RsaPrivateKey::from_pkcs1_pem("").is_err());
}

// ---- private keys ---------------------------------------------------------------------

#[test]
fn private_key_components() {
    let k = key();
    let (n, e, d) = (k.n().clone(), k.e().clone(), k.d().clone());
    let p = k.primes()[0].clone();
    let q = k.primes()[1].clone();
    let ok =
        RsaPrivateKey::from_components(n.clone(), e.clone(), d.clone(), vec![p.clone(), q.clone()]);
    assert!(ok.is_ok());
    let bad = |n: BoxedUint, e: BoxedUint, d: BoxedUint, primes: Vec<BoxedUint>| {
        RsaPrivateKey::from_components(n, e, d, primes)
    };
    let fault = |r: Result<RsaPrivateKey, Error>| match r {
        Err(Error::InvalidKey(f)) => f,
        other => panic!("expected an invalid key, got {other:?}"),
    };
    // p = q (n = p²): d is not below p², or the primes repeat.
    let p2 = u(&(big(&p) * big(&p)));
    let f = fault(bad(p2, e.clone(), d.clone(), vec![p.clone(), p.clone()]));
    assert!(
        matches!(
            f,
            KeyFault::PrivateExponentRange | KeyFault::RepeatedPrime { index: 0, other: 1 }
        ),
        "{f:?}"
    );
    // n ≠ p·q.
    let pq = vec![p.clone(), q.clone()];
    assert_eq!(
        fault(bad(u(&(big(&n) + 2u32)), e.clone(), d.clone(), pq.clone())),
        KeyFault::ModulusNotProduct
    );
    // Wrong d, zero d, d ≥ n.
    assert_eq!(
        fault(bad(n.clone(), e.clone(), u(&(big(&d) + 2u32)), pq.clone())),
        KeyFault::ExponentMismatch { index: 0 }
    );
    for wrong_d in [BoxedUint::from_u64(0), u(&(big(&n) + 1u32))] {
        assert_eq!(
            fault(bad(n.clone(), e.clone(), wrong_d, pq.clone())),
            KeyFault::PrivateExponentRange
        );
    }
    // Wrong e for this d.
    let err = bad(n.clone(), BoxedUint::from_u64(3), d.clone(), pq.clone()).unwrap_err();
    assert_eq!(
        err,
        Error::InvalidKey(KeyFault::ExponentMismatch { index: 0 })
    );
    assert_eq!(
        err.to_string(),
        "invalid key: d·e ≢ 1 mod (p − 1): d is not the private exponent of e"
    );
    // Prime counts: 0, 1, and 3 whose product is not n; even and tiny "primes".
    for (primes, count) in [(vec![], 0), (vec![p.clone()], 1)] {
        assert_eq!(
            bad(n.clone(), e.clone(), d.clone(), primes).err(),
            Some(Error::PrimeCount {
                primes: count,
                bits: 1024,
                max: 3
            })
        );
    }
    assert_eq!(
        fault(bad(
            n.clone(),
            e.clone(),
            d.clone(),
            vec![p.clone(), q.clone(), BoxedUint::from_u64(3)]
        )),
        KeyFault::PrimeTooSmall { index: 2, bits: 2 }
    );
    assert_eq!(
        fault(bad(
            n.clone(),
            e.clone(),
            d.clone(),
            vec![u(&(big(&p) + 1u32)), q.clone()]
        )),
        KeyFault::EvenPrime { index: 0 }
    );
    assert_eq!(
        fault(bad(
            n.clone(),
            e.clone(),
            d.clone(),
            vec![BoxedUint::from_u64(1), n.clone()]
        )),
        KeyFault::PrimeTooSmall { index: 0, bits: 1 }
    );
    assert_eq!(
        fault(bad(
            n.clone(),
            e.clone(),
            d.clone(),
            vec![BoxedUint::from_u64(0), q.clone()]
        )),
        KeyFault::PrimeTooSmall { index: 0, bits: 0 }
    );
    // Six primes on a 1024-bit key.
    let six = vec![
        p.clone(),
        q.clone(),
        p.clone(),
        q.clone(),
        p.clone(),
        q.clone(),
    ];
    assert_eq!(
        bad(n.clone(), e.clone(), d.clone(), six).err(),
        Some(Error::PrimeCount {
            primes: 6,
            bits: 1024,
            max: 3
        })
    );
}

#[test]
fn private_key_der() {
    let k = key();
    let f = priv_fields(k);
    let der = priv_der(&f);
    assert_eq!(
        der,
        k.to_pkcs1_der().unwrap().as_bytes(),
        "the test's DER writer matches"
    );
    let parse = |d: &[u8]| RsaPrivateKey::from_pkcs1_der(d);
    assert!(parse(&der).is_ok());
    for len in (0..der.len()).step_by(7) {
        assert!(parse(&der[..len]).is_err(), "truncated to {len}");
    }
    let mut long = der.clone();
    long.extend_from_slice(&[0, 0]);
    assert!(parse(&long).is_err(), "trailing bytes");
    // Each field in turn: +2 (wrong value), and a non-minimal encoding of the right value.
    for i in 0..f.len() {
        let mut g = f.clone();
        g[i] = &g[i] + 2u32;
        assert!(parse(&priv_der(&g)).is_err(), "field {i} + 2 accepted");
        let mut items = vec![int(&BigUint::from(0u32))];
        for (j, x) in f.iter().enumerate() {
            if j == i {
                let mut b = x.to_bytes_be();
                b.insert(0, 0);
                if b[1] & 0x80 != 0 {
                    b.insert(0, 0);
                }
                items.push(tlv(0x02, &b));
            } else {
                items.push(int(x));
            }
        }
        assert!(
            parse(&seq(&items)).is_err(),
            "non-minimal field {i} accepted"
        );
    }
    // Version 1 (multi-prime) without OtherPrimeInfos, and an unknown version.
    for v in [1u32, 2] {
        let mut items = vec![int(&BigUint::from(v))];
        items.extend(f.iter().map(int));
        assert!(parse(&seq(&items)).is_err(), "version {v}");
    }
    // PKCS#8 with a truncated or padded inner key.
    let p8 = k.to_pkcs8_der().unwrap().as_bytes().to_vec();
    assert!(RsaPrivateKey::from_pkcs8_der(&p8).is_ok());
    assert!(RsaPrivateKey::from_pkcs8_der(&p8[..p8.len() - 3]).is_err());
    assert!(RsaPrivateKey::from_pkcs8_der(&der).is_err());
    // A private key with a 100000-bit modulus: rejected on size.
    let mut g = f.clone();
    g[0] = (BigUint::from(1u32) << 100_000) + 1u32;
    assert!(parse(&priv_der(&g)).is_err());
}

// ---- operations -----------------------------------------------------------------------

#[test]
fn signatures_and_ciphertexts() {
    let k = key();
    let public = k.to_public_key();
    let size = k.size();
    let n = k.n().to_be_bytes().to_vec();
    let hashed = HashAlg::Sha256.digest(b"m");
    let pk = || Pkcs1v15Sign::new::<sha2::Sha256>();
    let sig = k.sign(pk(), &hashed).unwrap();
    // Signature length ≠ k, value ≥ n, all zeros / all ones.
    for bad in [
        sig[1..].to_vec(),
        [sig.clone(), vec![0]].concat(),
        [vec![0], sig.clone()].concat(),
        vec![],
        n.clone(),
        vec![0xff; size],
    ] {
        assert_eq!(public.verify(pk(), &hashed, &bad), Err(Error::Verification));
        assert_eq!(
            public.verify(Pss::new::<sha2::Sha256>(), &hashed, &bad),
            Err(Error::Verification)
        );
    }
    assert!(public.verify(pk(), &hashed, &vec![0; size]).is_err());
    // Wrong hashed length for the scheme.
    assert!(k.sign(pk(), &hashed[1..]).is_err());
    assert!(public.verify(pk(), &hashed[1..], &sig).is_err());
    // PSS: salt too long for the key, SHA-512 with its default salt on 1024 bits.
    let h512 = HashAlg::Sha512.digest(b"m");
    assert_eq!(
        k.sign_with_rng(
            &mut ChaCha20Rng::seed_from_u64(1),
            Pss::new::<sha2::Sha512>(),
            &h512
        ),
        Err(Error::UnsupportedParameter(ParameterFault::SaltTooLong {
            salt_len: 64,
            hash_len: 64,
            em_len: 128
        }))
    );
    // Ciphertexts: wrong length, ≥ n, empty.
    let mut rng = ChaCha20Rng::seed_from_u64(2);
    let c = public
        .encrypt(&mut rng, Oaep::new::<sha2::Sha256>(), b"x")
        .unwrap();
    for bad in [
        c[1..].to_vec(),
        [c.clone(), vec![0]].concat(),
        vec![],
        n.clone(),
        vec![0xff; size],
    ] {
        assert_eq!(
            k.decrypt(Oaep::new::<sha2::Sha256>(), &bad),
            Err(Error::Decryption)
        );
        assert_eq!(k.decrypt(Pkcs1v15Encrypt, &bad), Err(Error::Decryption));
    }
    // Raw operations: input too long or ≥ n.
    assert_eq!(
        k.raw_private(None, &[n.clone(), vec![0]].concat()),
        Err(Error::InputOutOfRange(InputFault::TooLong {
            len: size + 1,
            max: size
        }))
    );
    let not_below = Err(Error::InputOutOfRange(InputFault::NotBelowModulus));
    assert_eq!(k.raw_private(None, &n).map(|m| m.to_vec()), not_below);
    assert_eq!(public.raw_public(&n), not_below);
    // Messages too long for the padding.
    let max_oaep = size - 2 * 32 - 2;
    assert!(public
        .encrypt(&mut rng, Oaep::new::<sha2::Sha256>(), &vec![1; max_oaep])
        .is_ok());
    assert_eq!(
        public.encrypt(
            &mut rng,
            Oaep::new::<sha2::Sha256>(),
            &vec![1; max_oaep + 1]
        ),
        Err(Error::MessageTooLong {
            len: max_oaep + 1,
            max: max_oaep
        })
    );
    let err = public
        .encrypt(&mut rng, Pkcs1v15Encrypt, &vec![1; size - 10])
        .unwrap_err();
    assert_eq!(
        err,
        Error::MessageTooLong {
            len: size - 10,
            max: size - 11
        }
    );
    assert_eq!(
        err.to_string(),
        "message of 118 bytes is longer than the 117 this key and padding take"
    );
    // OAEP with SHA-512 does not fit a 1024-bit key at all (k = 128 < 2·64 + 2).
    assert_eq!(
        public.encrypt(&mut rng, Oaep::new::<sha2::Sha512>(), b""),
        Err(Error::MessageTooLong { len: 0, max: 0 })
    );
    // Random ciphertexts below n almost never decrypt; they must fail cleanly.
    for _ in 0..20 {
        let mut c = vec![0u8; size];
        rng.fill(&mut c[1..]);
        let _ = k.decrypt(Oaep::new::<sha2::Sha256>(), &c);
        let _ = k.decrypt(Pkcs1v15Encrypt, &c);
    }
}

#[test]
fn key_generation_parameters() {
    let mut rng = ChaCha20Rng::seed_from_u64(4);
    for bits in [512, 0, 100_000] {
        assert_eq!(
            RsaPrivateKey::new(&mut rng, bits).err(),
            Some(Error::KeySize {
                bits,
                min: 1024,
                max: 16384
            })
        );
    }
    for primes in [6, 1] {
        assert_eq!(
            RsaPrivateKey::new_multi_prime(&mut rng, 1024, primes).err(),
            Some(Error::PrimeCount {
                primes,
                bits: 1024,
                max: 3
            })
        );
    }
    for e in [0u64, 1, 2, 4] {
        assert!(
            RsaPrivateKey::new_with_exp(&mut rng, 1024, &BoxedUint::from_u64(e)).is_err(),
            "e = {e}"
        );
    }
}

#[test]
fn unknown_names() {
    for s in ["md5", "", "sha-257", "SHA256 ", "shake128"] {
        assert_eq!(HashAlg::from_name(s), None, "{s:?}");
        assert!(s.parse::<HashAlg>().is_err());
    }
    assert!(redc::mont::backend::Backend::from_name("sse9").is_err());
    assert!(redc::mont::Algorithm::from_name("montgomery").is_err());
    // Errors are one line.
    assert_eq!(
        "sha-257".parse::<HashAlg>(),
        Err(Error::UnsupportedParameter(ParameterFault::UnknownHash))
    );
    for e in [
        Error::Encoding(EncodingFault::Unrecognized),
        Error::Encoding(EncodingFault::PemLabel),
        Error::Encoding(EncodingFault::Encrypted),
        Error::KeySize {
            bits: 1,
            min: 2,
            max: 3,
        },
        Error::Decryption,
        Error::InvalidKey(KeyFault::CrtCoefficient { index: 3 }),
        Error::UnsupportedParameter(ParameterFault::UnknownHash),
    ] {
        assert!(!e.to_string().contains('\n'), "{e}");
    }
}
