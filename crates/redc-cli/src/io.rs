//! Input and output for the RSA commands: files or stdin/stdout, and key files in any format.

use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use redc::rsa::{
    DecodePrivateKey, DecodePublicKey, DecodeRsaPrivateKey, DecodeRsaPublicKey, RsaPrivateKey,
    RsaPublicKey,
};

use crate::CliError;

/// Reads `path`, or stdin when `None`.
pub fn read_input(path: Option<&Path>) -> Result<Vec<u8>, CliError> {
    match path {
        Some(p) => {
            fs::read(p).map_err(|e| CliError::failure(format!("cannot read {}: {e}", p.display())))
        }
        None => {
            let mut buf = Vec::new();
            std::io::stdin()
                .read_to_end(&mut buf)
                .map_err(|e| CliError::failure(format!("cannot read standard input: {e}")))?;
            Ok(buf)
        }
    }
}

/// Writes `data` to `path` (mode 0600 when `secret`, on Unix), or stdout when `None`.
pub fn write_output(path: Option<&PathBuf>, data: &[u8], secret: bool) -> Result<(), CliError> {
    match path {
        Some(p) => {
            let mut opts = fs::OpenOptions::new();
            opts.write(true).create(true).truncate(true);
            #[cfg(unix)]
            if secret {
                use std::os::unix::fs::OpenOptionsExt;
                opts.mode(0o600);
            }
            let _ = secret;
            let mut f = opts
                .open(p)
                .map_err(|e| CliError::failure(format!("cannot write {}: {e}", p.display())))?;
            f.write_all(data)
                .map_err(|e| CliError::failure(format!("cannot write {}: {e}", p.display())))
        }
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(data)
                .and_then(|_| out.flush())
                .map_err(|e| CliError::failure(format!("cannot write standard output: {e}")))
        }
    }
}

/// A key read from a file: private or public.
pub enum Key {
    /// A private key (usable wherever a public key is).
    Private(Box<RsaPrivateKey>),
    /// A public key.
    Public(Box<RsaPublicKey>),
}

impl Key {
    /// The public half.
    pub fn public(&self) -> &RsaPublicKey {
        match self {
            Key::Private(k) => k.public_key(),
            Key::Public(k) => k,
        }
    }

    /// The private key, or an error naming the command that needs one.
    pub fn private(&self, what: &str) -> Result<&RsaPrivateKey, CliError> {
        match self {
            Key::Private(k) => Ok(k),
            Key::Public(_) => Err(CliError::failure(format!("{what} needs a private key"))),
        }
    }
}

/// Loads a key in PEM or DER, PKCS#1, PKCS#8 or SPKI, detected automatically.
pub fn load_key(path: &Path) -> Result<Key, CliError> {
    let bytes = fs::read(path)
        .map_err(|e| CliError::failure(format!("cannot read {}: {e}", path.display())))?;
    parse_key(&bytes).map_err(|msg| CliError::failure(format!("{}: {msg}", path.display())))
}

fn parse_key(bytes: &[u8]) -> Result<Key, String> {
    let start = bytes
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(bytes.len());
    if bytes[start..].starts_with(b"-----BEGIN ") {
        let text =
            std::str::from_utf8(bytes).map_err(|_| "PEM file is not valid text".to_string())?;
        let label = pem_label(text).ok_or_else(|| "malformed PEM header".to_string())?;
        let bad = |e: &dyn std::fmt::Display| format!("invalid {label} key: {e}");
        return match label {
            "PRIVATE KEY" => RsaPrivateKey::from_pkcs8_pem(text)
                .map(|k| Key::Private(Box::new(k)))
                .map_err(|e| bad(&e)),
            "RSA PRIVATE KEY" => RsaPrivateKey::from_pkcs1_pem(text)
                .map(|k| Key::Private(Box::new(k)))
                .map_err(|e| bad(&e)),
            "PUBLIC KEY" => RsaPublicKey::from_public_key_pem(text)
                .map(|k| Key::Public(Box::new(k)))
                .map_err(|e| bad(&e)),
            "RSA PUBLIC KEY" => RsaPublicKey::from_pkcs1_pem(text)
                .map(|k| Key::Public(Box::new(k)))
                .map_err(|e| bad(&e)),
            "ENCRYPTED PRIVATE KEY" => Err("encrypted private keys are not supported".into()),
            other => Err(format!("unsupported PEM label \"{other}\"")),
        };
    }
    if let Ok(k) = RsaPrivateKey::from_pkcs8_der(bytes) {
        return Ok(Key::Private(Box::new(k)));
    }
    if let Ok(k) = RsaPrivateKey::from_pkcs1_der(bytes) {
        return Ok(Key::Private(Box::new(k)));
    }
    if let Ok(k) = RsaPublicKey::from_public_key_der(bytes) {
        return Ok(Key::Public(Box::new(k)));
    }
    if let Ok(k) = RsaPublicKey::from_pkcs1_der(bytes) {
        return Ok(Key::Public(Box::new(k)));
    }
    Err("not an RSA key in PEM or DER (PKCS#1, PKCS#8 or SPKI), or the key is invalid".into())
}

fn pem_label(text: &str) -> Option<&str> {
    let line = text.lines().map(str::trim).find(|l| !l.is_empty())?;
    line.strip_prefix("-----BEGIN ")?.strip_suffix("-----")
}

/// Parses a hex string (optional `0x`, either case); usage error otherwise.
pub fn parse_hex(what: &str, s: &str) -> Result<Vec<u8>, CliError> {
    let t = s
        .strip_prefix("0x")
        .or_else(|| s.strip_prefix("0X"))
        .unwrap_or(s);
    if !t.len().is_multiple_of(2) || !t.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(CliError::usage(format!(
            "{what}: not an even-length hex string: {s:?}"
        )));
    }
    Ok((0..t.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&t[i..i + 2], 16).expect("checked hex digits"))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_and_hex() {
        assert_eq!(
            pem_label("\n-----BEGIN PUBLIC KEY-----\nAA\n"),
            Some("PUBLIC KEY")
        );
        assert_eq!(pem_label("-----BEGIN X"), None);
        assert_eq!(parse_hex("l", "0xA0ff").unwrap(), vec![0xa0, 0xff]);
        assert_eq!(parse_hex("l", "").unwrap(), Vec::<u8>::new());
        assert_eq!(parse_hex("l", "abc").unwrap_err().code, 2);
        assert_eq!(parse_hex("l", "zz").unwrap_err().code, 2);
        assert!(parse_key(b"garbage").is_err());
        assert!(parse_key(b"-----BEGIN CERTIFICATE-----\n").is_err());
    }
}
