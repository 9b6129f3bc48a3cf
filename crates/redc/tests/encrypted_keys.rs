//! Password-encrypted private keys (PKCS#8 EncryptedPrivateKeyInfo with PBES2 or PKCS#12's
//! 3DES schemes, and OpenSSL's traditional PEM encryption): written and read back, refused
//! with the fault named (wrong password, not encrypted, schemes redc does not decrypt,
//! password hashing beyond the limits, malformed structures and headers), and exchanged with
//! the system `openssl` both ways.

mod common;
use common::{openssl_available, temp_path};

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

use der::Encode;
use redc::rsa::pkcs8::pkcs5::{self, pbes2, scrypt};
use redc::rsa::pkcs8::{EncryptedPrivateKeyInfo, LineEnding};
use redc::rsa::{
    EncodePrivateKey, EncodePublicKey, EncodingFault, Error, OsRng, RsaPrivateKey,
    MAX_PBKDF2_ITERATIONS, MAX_SCRYPT_BYTES,
};

const PASSWORD: &[u8] = "correct horse battery staple, é".as_bytes();

/// One 1024-bit key for every test (generation is the slow part).
fn key() -> &'static RsaPrivateKey {
    static KEY: OnceLock<RsaPrivateKey> = OnceLock::new();
    KEY.get_or_init(|| RsaPrivateKey::new(&mut OsRng, 1024).unwrap())
}

/// The same key: same public half and same private exponent.
fn same(a: &RsaPrivateKey, b: &RsaPrivateKey) -> bool {
    a.to_public_key() == b.to_public_key() && a.d() == b.d()
}

fn fault(f: EncodingFault) -> Error {
    Error::Encoding(f)
}

#[test]
fn written_keys_read_back_with_their_password_only() {
    let k = key();
    let pem = k
        .to_encrypted_pem(&mut OsRng, PASSWORD, LineEnding::LF)
        .unwrap();
    assert!(pem.starts_with("-----BEGIN ENCRYPTED PRIVATE KEY-----\n"));
    assert!(same(
        &RsaPrivateKey::from_pem_with_password(&pem, PASSWORD).unwrap(),
        k
    ));
    let der = k.to_encrypted_der(&mut OsRng, PASSWORD).unwrap();
    assert!(same(
        &RsaPrivateKey::from_der_with_password(der.as_bytes(), PASSWORD).unwrap(),
        k
    ));
    // Fresh salt and IV every time.
    let again = k.to_encrypted_der(&mut OsRng, PASSWORD).unwrap();
    assert_ne!(der.as_bytes(), again.as_bytes());
    // The scheme written: PBES2, PBKDF2-HMAC-SHA256 at the documented count, AES-256-CBC.
    let info = EncryptedPrivateKeyInfo::try_from(der.as_bytes()).unwrap();
    let params = info.encryption_algorithm.pbes2().unwrap();
    let kdf = params.kdf.pbkdf2().unwrap();
    assert_eq!(kdf.iteration_count, redc::rsa::PBKDF2_ITERATIONS);
    assert_eq!(kdf.prf, pbes2::Pbkdf2Prf::HmacWithSha256);
    assert!(matches!(
        params.encryption,
        pbes2::EncryptionScheme::Aes256Cbc { .. }
    ));

    // A wrong password (and an empty one) is a decryption failure, not a malformed key.
    for wrong in [&b"correct horse"[..], b"", &PASSWORD[..PASSWORD.len() - 1]] {
        assert_eq!(
            RsaPrivateKey::from_pem_with_password(&pem, wrong).map(|_| ()),
            Err(fault(EncodingFault::Decryption))
        );
        assert_eq!(
            RsaPrivateKey::from_der_with_password(der.as_bytes(), wrong).map(|_| ()),
            Err(fault(EncodingFault::Decryption))
        );
    }
    // An empty password is a password like any other.
    let empty = k
        .to_encrypted_pem(&mut OsRng, b"", LineEnding::CRLF)
        .unwrap();
    assert!(same(
        &RsaPrivateKey::from_pem_with_password(&empty, b"").unwrap(),
        k
    ));

    // Without a password the encrypted key is named as encrypted.
    assert_eq!(
        RsaPrivateKey::from_pem(&pem).map(|_| ()),
        Err(fault(EncodingFault::Encrypted))
    );
    assert_eq!(
        RsaPrivateKey::from_der(der.as_bytes()).map(|_| ()),
        Err(fault(EncodingFault::Encrypted))
    );
}

#[test]
fn a_password_for_what_is_not_an_encrypted_private_key_is_refused() {
    let k = key();
    let not_encrypted = Err(fault(EncodingFault::NotEncrypted));
    let pkcs8 = k.to_pkcs8_pem(LineEnding::LF).unwrap();
    let pkcs1 = redc::rsa::EncodeRsaPrivateKey::to_pkcs1_pem(k, LineEnding::LF).unwrap();
    assert_eq!(
        RsaPrivateKey::from_pem_with_password(&pkcs8, PASSWORD).map(|_| ()),
        not_encrypted
    );
    assert_eq!(
        RsaPrivateKey::from_pem_with_password(&pkcs1, PASSWORD).map(|_| ()),
        not_encrypted
    );
    let der = k.to_pkcs8_der().unwrap();
    assert_eq!(
        RsaPrivateKey::from_der_with_password(der.as_bytes(), PASSWORD).map(|_| ()),
        not_encrypted
    );
    let public = k.to_public_key().to_public_key_pem(LineEnding::LF).unwrap();
    assert!(matches!(
        RsaPrivateKey::from_pem_with_password(&public, PASSWORD),
        Err(Error::Encoding(EncodingFault::WrongKind { .. }))
    ));
    assert_eq!(
        RsaPrivateKey::from_der_with_password(b"not a key", PASSWORD).map(|_| ()),
        Err(fault(EncodingFault::Unrecognized))
    );
}

#[test]
fn traditional_encryption_headers_are_checked() {
    let pem = |dek: &str, body: &str| {
        format!(
            "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\n{dek}\n\n{body}\n-----END \
             RSA PRIVATE KEY-----\n"
        )
    };
    let block = "AAAAAAAAAAAAAAAAAAAAAA==";
    let iv = "DEK-Info: AES-128-CBC,B4B3C8C536E57CBEB4B3C8C536E57CBE";
    let header = Err(fault(EncodingFault::LegacyHeader));
    let read = |text: &str| RsaPrivateKey::from_pem_with_password(text, PASSWORD).map(|_| ());
    // Without a password it is named as encrypted.
    assert_eq!(
        RsaPrivateKey::from_pem(&pem(iv, block)).map(|_| ()),
        Err(fault(EncodingFault::Encrypted))
    );
    // A block of zeros does not decrypt to valid padding (or, by chance, to a key).
    assert_eq!(read(&pem(iv, block)), Err(fault(EncodingFault::Decryption)));
    assert_eq!(read(&pem("X-Other: 1", block)), header);
    assert_eq!(read(&pem("DEK-Info: AES-128-CBC", block)), header);
    assert_eq!(read(&pem("DEK-Info: AES-128-CBC,zz", block)), header);
    assert_eq!(
        read(&pem("DEK-Info: AES-128-CBC,B4B3C8C536E57CBE", block)),
        header
    );
    assert_eq!(
        read(&pem("DEK-Info: DES-CBC,B4B3C8C536E57CBE", block)),
        Err(fault(EncodingFault::EncryptionScheme))
    );
    assert!(matches!(
        read(&pem(iv, "!!!!")),
        Err(Error::Encoding(EncodingFault::EncryptedDer(_)))
    ));
    // Not an RSA key's block.
    let dsa = pem(iv, block).replace("RSA PRIVATE KEY", "DSA PRIVATE KEY");
    assert_eq!(read(&dsa), Err(fault(EncodingFault::PemLabel)));
}

/// An EncryptedPrivateKeyInfo with `params` and 48 bytes of "ciphertext" (the limits are
/// checked before any decryption).
fn crafted(params: pbes2::Parameters<'_>) -> Vec<u8> {
    let data = [0u8; 48];
    EncryptedPrivateKeyInfo {
        encryption_algorithm: pkcs5::EncryptionScheme::Pbes2(params),
        encrypted_data: &data,
    }
    .to_der()
    .unwrap()
}

#[test]
fn password_hashing_beyond_the_limits_is_refused_before_any_work() {
    let (salt, iv) = ([7u8; 16], [9u8; 16]);
    let cost = Err(fault(EncodingFault::KdfCost));
    let start = std::time::Instant::now();
    let too_many =
        pbes2::Parameters::pbkdf2_sha256_aes256cbc(MAX_PBKDF2_ITERATIONS + 1, &salt, &iv).unwrap();
    assert_eq!(
        RsaPrivateKey::from_der_with_password(&crafted(too_many), PASSWORD).map(|_| ()),
        cost
    );
    assert_eq!(
        RsaPrivateKey::from_der_with_password(
            &crafted(pbes2::Parameters::pbkdf2_sha256_aes256cbc(100_000_000, &salt, &iv).unwrap()),
            PASSWORD
        )
        .map(|_| ()),
        cost
    );
    // scrypt with N = 2^21, r = 8: 2 GiB.
    let big = scrypt::Params::new(21, 8, 1, 32).unwrap();
    const { assert!(128 * 8 * (1u64 << 21) > MAX_SCRYPT_BYTES) };
    let der = crafted(pbes2::Parameters::scrypt_aes256cbc(big, &salt, &iv).unwrap());
    assert_eq!(
        RsaPrivateKey::from_der_with_password(&der, PASSWORD).map(|_| ()),
        cost
    );
    // N = 2^14, r = 8, p = 128: 16 MiB each, 2 GiB of work in all.
    let wide = scrypt::Params::new(14, 8, 128, 32).unwrap();
    let der = crafted(pbes2::Parameters::scrypt_aes256cbc(wide, &salt, &iv).unwrap());
    assert_eq!(
        RsaPrivateKey::from_der_with_password(&der, PASSWORD).map(|_| ()),
        cost
    );
    assert!(start.elapsed() < std::time::Duration::from_secs(2));
    // Within the limits the same crafted bytes get as far as decryption.
    let fine = pbes2::Parameters::pbkdf2_sha256_aes256cbc(1000, &salt, &iv).unwrap();
    assert_eq!(
        RsaPrivateKey::from_der_with_password(&crafted(fine), PASSWORD).map(|_| ()),
        Err(fault(EncodingFault::Decryption))
    );
}

#[test]
fn damaged_encrypted_keys_are_named() {
    let k = key();
    let der = k.to_encrypted_der(&mut OsRng, PASSWORD).unwrap();
    let bytes = der.as_bytes();
    // Truncated: the structure does not parse.
    assert!(matches!(
        RsaPrivateKey::from_der_with_password(&bytes[..bytes.len() - 5], PASSWORD),
        Err(Error::Encoding(EncodingFault::EncryptedDer(_)))
    ));
    // A flipped bit in the last ciphertext block: the padding check fails.
    let mut flipped = bytes.to_vec();
    let last = flipped.len() - 1;
    flipped[last] ^= 1;
    assert_eq!(
        RsaPrivateKey::from_der_with_password(&flipped, PASSWORD).map(|_| ()),
        Err(fault(EncodingFault::Decryption))
    );
    // Bad base64 in the PEM.
    let pem = "-----BEGIN ENCRYPTED PRIVATE KEY-----\n!!!!\n-----END ENCRYPTED PRIVATE KEY-----\n";
    assert!(matches!(
        RsaPrivateKey::from_pem_with_password(pem, PASSWORD),
        Err(Error::Encoding(EncodingFault::EncryptedDer(_)))
    ));
}

/// `openssl args…` with `-in input -out output` added; panics with its stderr on failure.
fn openssl(args: &[&str], input: &PathBuf, output: &PathBuf) -> std::process::Output {
    let out = Command::new("openssl")
        .args(args)
        .arg("-in")
        .arg(input)
        .arg("-out")
        .arg(output)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "openssl {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

#[test]
fn openssl_reads_ours_and_we_read_openssls() {
    if !openssl_available() {
        eprintln!("openssl not found: skipping the exchange with OpenSSL");
        return;
    }
    let k = key();
    let pass = std::str::from_utf8(PASSWORD).unwrap();
    let passarg = format!("pass:{pass}");

    // Ours, decrypted by OpenSSL.
    let ours = temp_path("ours.pem");
    let plain = temp_path("plain.pem");
    std::fs::write(
        &ours,
        k.to_encrypted_pem(&mut OsRng, PASSWORD, LineEnding::LF)
            .unwrap()
            .as_bytes(),
    )
    .unwrap();
    openssl(&["pkey", "-passin", &passarg], &ours, &plain);
    let back = RsaPrivateKey::from_pem(&std::fs::read_to_string(&plain).unwrap()).unwrap();
    assert!(same(&back, k));

    // OpenSSL's, in the schemes it writes by default and on request.
    let unencrypted = temp_path("unenc.pem");
    std::fs::write(
        &unencrypted,
        k.to_pkcs8_pem(LineEnding::LF).unwrap().as_bytes(),
    )
    .unwrap();
    // PKCS#8 in the schemes OpenSSL writes by default and on request, then its traditional
    // PEM encryption with each cipher redc decrypts; each file's marker line beside it.
    const PKCS8: &str = "ENCRYPTED PRIVATE KEY";
    const TRADITIONAL: &str = "Proc-Type: 4,ENCRYPTED";
    let schemes: [(&[&str], &str); 11] = [
        (&["pkcs8", "-topk8", "-v2", "aes-256-cbc"], PKCS8),
        (&["pkcs8", "-topk8", "-v1", "PBE-SHA1-3DES"], PKCS8),
        (&["pkcs8", "-topk8", "-v1", "PBE-SHA1-2DES"], PKCS8),
        (
            &[
                "pkcs8",
                "-topk8",
                "-v2",
                "aes-128-cbc",
                "-v2prf",
                "hmacWithSHA1",
            ],
            PKCS8,
        ),
        (&["pkcs8", "-topk8", "-v2", "des3"], PKCS8),
        (&["pkcs8", "-topk8", "-scrypt"], PKCS8),
        (&["pkey", "-aes256"], PKCS8),
        (&["rsa", "-traditional", "-aes128"], TRADITIONAL),
        (&["rsa", "-traditional", "-aes192"], TRADITIONAL),
        (&["rsa", "-traditional", "-aes256"], TRADITIONAL),
        (&["rsa", "-traditional", "-des3"], TRADITIONAL),
    ];
    for (scheme, marker) in schemes {
        let enc = temp_path("theirs.pem");
        let mut args = scheme.to_vec();
        args.extend(["-passout", &passarg]);
        openssl(&args, &unencrypted, &enc);
        let text = std::fs::read_to_string(&enc).unwrap();
        assert!(text.contains(marker), "{scheme:?}");
        let read = RsaPrivateKey::from_pem_with_password(&text, PASSWORD)
            .unwrap_or_else(|e| panic!("{scheme:?}: {e}"));
        assert!(same(&read, k), "{scheme:?}");
        assert_eq!(
            RsaPrivateKey::from_pem_with_password(&text, b"wrong").map(|_| ()),
            Err(fault(EncodingFault::Decryption)),
            "{scheme:?}"
        );
        let _ = std::fs::remove_file(&enc);
    }

    // PBES1 and PKCS#12's RC2 scheme: named as schemes redc does not decrypt (where this
    // OpenSSL still writes them; `pkcs12_schemes_beyond_3des_are_named` crafts them).
    for v1 in ["PBE-MD5-DES", "PBE-SHA1-RC2-40"] {
        let enc = temp_path("v1.pem");
        let out = Command::new("openssl")
            .args(["pkcs8", "-topk8", "-v1", v1, "-passout", &passarg, "-in"])
            .arg(&unencrypted)
            .arg("-out")
            .arg(&enc)
            .output()
            .unwrap();
        if !out.status.success() {
            // OpenSSL 3 without the legacy provider refuses the DES-based ones.
            eprintln!(
                "openssl cannot write {v1}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            continue;
        }
        let text = std::fs::read_to_string(&enc).unwrap();
        assert_eq!(
            RsaPrivateKey::from_pem_with_password(&text, PASSWORD).map(|_| ()),
            Err(fault(EncodingFault::EncryptionScheme)),
            "{v1}"
        );
        let _ = std::fs::remove_file(&enc);
    }
    for p in [ours, plain, unencrypted] {
        let _ = std::fs::remove_file(p);
    }
}

/// A DER TLV with a short-form length.
fn tlv(tag: u8, content: &[u8]) -> Vec<u8> {
    assert!(content.len() < 128);
    let mut v = vec![tag, content.len() as u8];
    v.extend_from_slice(content);
    v
}

/// An EncryptedPrivateKeyInfo under the PKCS#12 PBE scheme `1.2.840.113549.1.12.1.<scheme>`
/// with an 8-byte salt, `iterations`, and `data` as its ciphertext; `params: false` leaves the
/// parameters out.
fn pkcs12_der(scheme: u8, iterations: u32, params: bool, data: &[u8]) -> Vec<u8> {
    let oid = tlv(
        0x06,
        &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x0c, 0x01, scheme],
    );
    let mut count = iterations.to_be_bytes().to_vec();
    while count.len() > 1 && count[0] == 0 && count[1] < 0x80 {
        count.remove(0);
    }
    if count[0] >= 0x80 {
        count.insert(0, 0);
    }
    let mut p = tlv(0x04, &[7u8; 8]);
    p.extend(tlv(0x02, &count));
    let mut alg = oid;
    if params {
        alg.extend(tlv(0x30, &p));
    }
    let mut body = tlv(0x30, &alg);
    body.extend(tlv(0x04, data));
    tlv(0x30, &body)
}

#[test]
fn pkcs12_schemes_beyond_3des_are_named() {
    let read = |der: &[u8]| RsaPrivateKey::from_der_with_password(der, PASSWORD).map(|_| ());
    let data = [0u8; 32];
    // The 3DES schemes decrypt (zeros are no key: a wrong password's outcome).
    for scheme in [3, 4] {
        assert_eq!(
            read(&pkcs12_der(scheme, 2048, true, &data)),
            Err(fault(EncodingFault::Decryption)),
            "scheme {scheme}"
        );
        // Beyond the iteration limit: refused before any work.
        assert_eq!(
            read(&pkcs12_der(scheme, MAX_PBKDF2_ITERATIONS + 1, true, &data)),
            Err(fault(EncodingFault::KdfCost))
        );
        // No parameters: malformed.
        assert!(matches!(
            read(&pkcs12_der(scheme, 2048, false, &data)),
            Err(Error::Encoding(EncodingFault::EncryptedDer(_)))
        ));
    }
    // 128-bit RC4, 40-bit RC4, 128-bit RC2, 40-bit RC2: not decrypted, and said so.
    for scheme in [1, 2, 5, 6] {
        assert_eq!(
            read(&pkcs12_der(scheme, 2048, true, &data)),
            Err(fault(EncodingFault::EncryptionScheme)),
            "scheme {scheme}"
        );
    }
}
