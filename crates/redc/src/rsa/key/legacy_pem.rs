//! OpenSSL's traditional PEM encryption, read only: an `RSA PRIVATE KEY` block with the
//! RFC 1421 headers `Proc-Type: 4,ENCRYPTED` and `DEK-Info: <cipher>,<IV in hex>`, as
//! `openssl genrsa -des3` (OpenSSL 1.x), `openssl rsa -traditional -aes256` and
//! `ssh-keygen -m PEM` write it. The key is OpenSSL's `EVP_BytesToKey` of the password with
//! MD5, one round, and the IV's first eight bytes as the salt; the body is the PKCS#1 DER,
//! CBC-encrypted with PKCS#7 padding. redc writes encrypted keys as PKCS#8 only.

use alloc::vec::Vec;

use cbc::cipher::block_padding::Pkcs7;
use cbc::cipher::{BlockCipher, BlockDecryptMut, KeyInit, KeyIvInit};
use md5::{Digest, Md5};
use zeroize::Zeroizing;

use crate::rsa::{EncodingFault, Error};

/// CBC decryption with PKCS#7 padding: `(key, iv, ciphertext)` to the plaintext.
type CbcDecrypt = fn(&[u8], &[u8], &[u8]) -> Result<Vec<u8>, EncodingFault>;

/// The ciphers OpenSSL's traditional encryption names in `DEK-Info` that redc decrypts: the
/// name, the key length and the IV length in bytes, and the decryption.
const CIPHERS: [(&str, usize, usize, CbcDecrypt); 4] = [
    ("AES-128-CBC", 16, 16, cbc_decrypt::<aes::Aes128>),
    ("AES-192-CBC", 24, 16, cbc_decrypt::<aes::Aes192>),
    ("AES-256-CBC", 32, 16, cbc_decrypt::<aes::Aes256>),
    ("DES-EDE3-CBC", 24, 8, cbc_decrypt::<des::TdesEde3>),
];

/// `ciphertext` decrypted by `C` in CBC mode: [`EncodingFault::LegacyHeader`] for a key or IV
/// of the wrong length, [`EncodingFault::Decryption`] when the padding does not check.
pub(super) fn cbc_decrypt<C: BlockCipher + BlockDecryptMut + KeyInit>(
    key: &[u8],
    iv: &[u8],
    ciphertext: &[u8],
) -> Result<Vec<u8>, EncodingFault> {
    cbc::Decryptor::<C>::new_from_slices(key, iv)
        .map_err(|_| EncodingFault::LegacyHeader)?
        .decrypt_padded_vec_mut::<Pkcs7>(ciphertext)
        .map_err(|_| EncodingFault::Decryption)
}

/// The PKCS#1 DER inside `block` (one PEM block, `Proc-Type: 4,ENCRYPTED` in its headers),
/// decrypted with `password`. [`EncodingFault::LegacyHeader`] for a missing or malformed
/// `DEK-Info`, [`EncodingFault::EncryptionScheme`] for a cipher not in [`CIPHERS`] (single
/// DES, RC2, Camellia, …), [`EncodingFault::EncryptedDer`] for bad base64, and
/// [`EncodingFault::Decryption`] when the padding does not check (a wrong password).
pub(super) fn decrypt(block: &str, password: &[u8]) -> Result<Zeroizing<Vec<u8>>, Error> {
    let header = |e: EncodingFault| Error::Encoding(e);
    let mut dek = None;
    let mut body = alloc::string::String::new();
    let mut in_body = false;
    for line in block.lines().map(str::trim) {
        if line.starts_with("-----") {
            continue;
        }
        if in_body {
            body.push_str(line);
        } else if let Some(rest) = line.strip_prefix("DEK-Info:") {
            dek = Some(rest.trim());
        } else if line.is_empty() {
            in_body = true;
        } else if !line.starts_with("Proc-Type:") {
            // A header line redc does not know, or base64 without the blank line.
            return Err(header(EncodingFault::LegacyHeader));
        }
    }
    let (name, iv_hex) = dek
        .and_then(|d| d.split_once(','))
        .ok_or(header(EncodingFault::LegacyHeader))?;
    let &(_, key_len, iv_len, cbc) = CIPHERS
        .iter()
        .find(|c| c.0.eq_ignore_ascii_case(name.trim()))
        .ok_or(header(EncodingFault::EncryptionScheme))?;
    let iv = hex(iv_hex.trim()).ok_or(header(EncodingFault::LegacyHeader))?;
    if iv.len() != iv_len {
        return Err(header(EncodingFault::LegacyHeader));
    }
    let ciphertext = <base64ct::Base64 as base64ct::Encoding>::decode_vec(&body).map_err(|e| {
        header(EncodingFault::EncryptedDer(der::Error::from(
            der::pem::Error::from(e),
        )))
    })?;
    let key = bytes_to_key(password, &iv[..8], key_len);
    Ok(Zeroizing::new(cbc(&key, &iv, &ciphertext).map_err(header)?))
}

/// OpenSSL's `EVP_BytesToKey` with MD5 and one round: `D₁ = MD5(password ‖ salt)`, `Dᵢ =
/// MD5(Dᵢ₋₁ ‖ password ‖ salt)`, the key the first `len` bytes of `D₁ ‖ D₂ ‖ …`.
fn bytes_to_key(password: &[u8], salt: &[u8], len: usize) -> Zeroizing<Vec<u8>> {
    let mut key = Zeroizing::new(Vec::with_capacity(len + 16));
    let mut previous: Option<Zeroizing<[u8; 16]>> = None;
    while key.len() < len {
        let mut h = Md5::new();
        if let Some(p) = &previous {
            h.update(&p[..]);
        }
        h.update(password);
        h.update(salt);
        let d = Zeroizing::new(<[u8; 16]>::from(h.finalize()));
        key.extend_from_slice(&d[..]);
        previous = Some(d);
    }
    key.truncate(len);
    key
}

/// The bytes of an even-length hex string (either case), or `None`.
fn hex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `EVP_BytesToKey(MD5, salt, "password", 1)` for a 24-byte key, as `openssl enc -P -md md5
    /// -S 0102030405060708 -pass pass:password -des-ede3-cbc` prints it.
    #[test]
    fn bytes_to_key_matches_openssl() {
        let key = bytes_to_key(b"password", &[1, 2, 3, 4, 5, 6, 7, 8], 24);
        let want = hex("E7B0971E52CA5CC8D0539FB3412F6316F7BA2E6EE293D9F3").unwrap();
        assert_eq!(&key[..], &want[..]);
    }

    #[test]
    fn hex_refuses_odd_lengths_and_non_hex() {
        assert_eq!(hex("0aFf"), Some(alloc::vec![0x0a, 0xff]));
        assert_eq!(hex("abc"), None);
        assert_eq!(hex("zz"), None);
        assert_eq!(hex("é0"), None);
    }
}
