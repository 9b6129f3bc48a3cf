//! The usage examples of RustCrypto's `rsa` crate, version 0.9.10 (MIT OR Apache-2.0,
//! <https://github.com/RustCrypto/RSA>), run against redc: each test body is the example as
//! published, with only `use rsa::` changed to `use redc::rsa::`. This is a compatibility
//! test, and the one place this project carries another project's code, with attribution.
//!
//! Sources, all in the `rsa` 0.9.10 package on crates.io:
//! - `readme_example`: README.md, "Example";
//! - `oaep_encryption`, `pkcs1v15_encryption`, `pkcs1v15_signatures`, `pss_signatures`,
//!   `pkcs1_key_encoding`, `pkcs8_key_encoding`: src/lib.rs, the crate documentation's
//!   "Usage" sections of the same names.
//!
//! Two mechanical changes besides the `use` lines: the examples are bodies of `#[test]`
//! functions (the two that return a `Result` keep their hidden `fn main()` signature as the
//! test's), and the hidden `#[cfg(all(feature = "pem", feature = "std"))]` guards of the two
//! encoding examples are dropped, since they name `rsa`'s cargo features, which redc does not
//! have (PEM and std are always on in these tests). The examples import a few names they do
//! not use (`Digest`, `VerifyingKey`) and bind keys they only decode; they are kept as
//! written, hence the `unused_imports` and `unused_variables` allowances (rustdoc allows both
//! in doc tests). `#[rustfmt::skip]` keeps their layout as published.
//!
//! Where redc deliberately differs from `rsa`, `docs/migrating-from-rsa.md` says what and why.
#![allow(unused_imports, unused_variables)]

#[test]
#[rustfmt::skip]
fn readme_example() {
use redc::rsa::{Pkcs1v15Encrypt, RsaPrivateKey, RsaPublicKey};

let mut rng = rand::thread_rng(); // rand@0.8
let bits = 2048;
let priv_key = RsaPrivateKey::new(&mut rng, bits).expect("failed to generate a key");
let pub_key = RsaPublicKey::from(&priv_key);

// Encrypt
let data = b"hello world";
let enc_data = pub_key.encrypt(&mut rng, Pkcs1v15Encrypt, &data[..]).expect("failed to encrypt");
assert_ne!(&data[..], &enc_data[..]);

// Decrypt
let dec_data = priv_key.decrypt(Pkcs1v15Encrypt, &enc_data).expect("failed to decrypt");
assert_eq!(&data[..], &dec_data[..]);
}

#[test]
#[rustfmt::skip]
fn oaep_encryption() {
use redc::rsa::{RsaPrivateKey, RsaPublicKey, Oaep, sha2::Sha256};

let mut rng = rand::thread_rng(); // rand@0.8

let bits = 2048;
let private_key = RsaPrivateKey::new(&mut rng, bits).expect("failed to generate a key");
let public_key = RsaPublicKey::from(&private_key);

// Encrypt
let data = b"hello world";
let padding = Oaep::new::<Sha256>();
let enc_data = public_key.encrypt(&mut rng, padding, &data[..]).expect("failed to encrypt");
assert_ne!(&data[..], &enc_data[..]);

// Decrypt
let padding = Oaep::new::<Sha256>();
let dec_data = private_key.decrypt(padding, &enc_data).expect("failed to decrypt");
assert_eq!(&data[..], &dec_data[..]);
}

#[test]
#[rustfmt::skip]
fn pkcs1v15_encryption() {
use redc::rsa::{RsaPrivateKey, RsaPublicKey, Pkcs1v15Encrypt};

let mut rng = rand::thread_rng(); // rand@0.8

let bits = 2048;
let private_key = RsaPrivateKey::new(&mut rng, bits).expect("failed to generate a key");
let public_key = RsaPublicKey::from(&private_key);

// Encrypt
let data = b"hello world";
let enc_data = public_key.encrypt(&mut rng, Pkcs1v15Encrypt, &data[..]).expect("failed to encrypt");
assert_ne!(&data[..], &enc_data[..]);

// Decrypt
let dec_data = private_key.decrypt(Pkcs1v15Encrypt, &enc_data).expect("failed to decrypt");
assert_eq!(&data[..], &dec_data[..]);
}

#[test]
#[rustfmt::skip]
fn pkcs1v15_signatures() {
use redc::rsa::RsaPrivateKey;
use redc::rsa::pkcs1v15::{SigningKey, VerifyingKey};
use redc::rsa::signature::{Keypair, RandomizedSigner, SignatureEncoding, Verifier};
use redc::rsa::sha2::{Digest, Sha256};

let mut rng = rand::thread_rng(); // rand@0.8

let bits = 2048;
let private_key = RsaPrivateKey::new(&mut rng, bits).expect("failed to generate a key");
let signing_key = SigningKey::<Sha256>::new(private_key);
let verifying_key = signing_key.verifying_key();

// Sign
let data = b"hello world";
let signature = signing_key.sign_with_rng(&mut rng, data);
assert_ne!(signature.to_bytes().as_ref(), data.as_slice());

// Verify
verifying_key.verify(data, &signature).expect("failed to verify");
}

#[test]
#[rustfmt::skip]
fn pss_signatures() {
use redc::rsa::RsaPrivateKey;
use redc::rsa::pss::{BlindedSigningKey, VerifyingKey};
use redc::rsa::signature::{Keypair,RandomizedSigner, SignatureEncoding, Verifier};
use redc::rsa::sha2::{Digest, Sha256};

let mut rng = rand::thread_rng(); // rand@0.8

let bits = 2048;
let private_key = RsaPrivateKey::new(&mut rng, bits).expect("failed to generate a key");
let signing_key = BlindedSigningKey::<Sha256>::new(private_key);
let verifying_key = signing_key.verifying_key();

// Sign
let data = b"hello world";
let signature = signing_key.sign_with_rng(&mut rng, data);
assert_ne!(signature.to_bytes().as_ref(), data);

// Verify
verifying_key.verify(data, &signature).expect("failed to verify");
}

#[test]
#[rustfmt::skip]
fn pkcs1_key_encoding() -> Result<(), Box<dyn std::error::Error>> {
use redc::rsa::{RsaPublicKey, pkcs1::DecodeRsaPublicKey};

let pem = "-----BEGIN RSA PUBLIC KEY-----
MIIBCgKCAQEAtsQsUV8QpqrygsY+2+JCQ6Fw8/omM71IM2N/R8pPbzbgOl0p78MZ
GsgPOQ2HSznjD0FPzsH8oO2B5Uftws04LHb2HJAYlz25+lN5cqfHAfa3fgmC38Ff
wBkn7l582UtPWZ/wcBOnyCgb3yLcvJrXyrt8QxHJgvWO23ITrUVYszImbXQ67YGS
0YhMrbixRzmo2tpm3JcIBtnHrEUMsT0NfFdfsZhTT8YbxBvA8FdODgEwx7u/vf3J
9qbi4+Kv8cvqyJuleIRSjVXPsIMnoejIn04APPKIjpMyQdnWlby7rNyQtE4+CV+j
cFjqJbE/Xilcvqxt6DirjFCvYeKYl1uHLwIDAQAB
-----END RSA PUBLIC KEY-----";

let public_key = RsaPublicKey::from_pkcs1_pem(pem)?;
Ok(())
}

#[test]
#[rustfmt::skip]
fn pkcs8_key_encoding() -> Result<(), Box<dyn std::error::Error>> {
use redc::rsa::{RsaPublicKey, pkcs8::DecodePublicKey};

let pem = "-----BEGIN PUBLIC KEY-----
MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAtsQsUV8QpqrygsY+2+JC
Q6Fw8/omM71IM2N/R8pPbzbgOl0p78MZGsgPOQ2HSznjD0FPzsH8oO2B5Uftws04
LHb2HJAYlz25+lN5cqfHAfa3fgmC38FfwBkn7l582UtPWZ/wcBOnyCgb3yLcvJrX
yrt8QxHJgvWO23ITrUVYszImbXQ67YGS0YhMrbixRzmo2tpm3JcIBtnHrEUMsT0N
fFdfsZhTT8YbxBvA8FdODgEwx7u/vf3J9qbi4+Kv8cvqyJuleIRSjVXPsIMnoejI
n04APPKIjpMyQdnWlby7rNyQtE4+CV+jcFjqJbE/Xilcvqxt6DirjFCvYeKYl1uH
LwIDAQAB
-----END PUBLIC KEY-----";

let public_key = RsaPublicKey::from_public_key_pem(pem)?;
Ok(())
}
