//! Input and output for the RSA commands: files or stdin/stdout, and key files in any format.

use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use redc::rsa::{EncodingFault, Error, KeyFormat, RsaPrivateKey, RsaPublicKey};
use zeroize::Zeroizing;

use crate::CliError;

/// Whether `path` is `-`, which names standard input or output (as in `openssl`).
pub fn is_stdio(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Reads `path`, or stdin when `None` or `-`.
pub fn read_input(path: Option<&Path>) -> Result<Vec<u8>, CliError> {
    match path.filter(|p| !is_stdio(p)) {
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

/// Writes `data` to `path` (mode 0600 when `secret`, on Unix, also when the file existed with
/// wider permissions: they are narrowed before anything is written), or stdout when `None` or
/// `-`.
pub fn write_output(path: Option<&PathBuf>, data: &[u8], secret: bool) -> Result<(), CliError> {
    match path.filter(|p| !is_stdio(p)) {
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
            #[cfg(unix)]
            if secret {
                use std::os::unix::fs::PermissionsExt;
                f.set_permissions(fs::Permissions::from_mode(0o600))
                    .map_err(|e| {
                        CliError::failure(format!("cannot restrict {}: {e}", p.display()))
                    })?;
            }
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
    /// A public key, and the format it was read from.
    Public(Box<RsaPublicKey>, KeyFormat),
}

impl Key {
    /// The public half.
    pub fn public(&self) -> &RsaPublicKey {
        match self {
            Key::Private(k) => k.public_key(),
            Key::Public(k, _) => k,
        }
    }

    /// The private key, or an error naming the command that needs one and what was found.
    pub fn private(&self, what: &str) -> Result<&RsaPrivateKey, CliError> {
        match self {
            Key::Private(k) => Ok(k),
            Key::Public(_, format) => Err(CliError::failure(format!(
                "{what} needs a private key; this is a public key ({format})"
            ))),
        }
    }
}

/// Loads a key in PEM or DER, PKCS#1, PKCS#8 or SPKI, detected automatically; an error names
/// the file, the format detected and what is wrong.
pub fn load_key(path: &Path, passin: Option<&str>) -> Result<Key, CliError> {
    let password = passin.map(|s| password("--passin", s)).transpose()?;
    let bytes = Zeroizing::new(read_input(Some(path))?);
    let name = if is_stdio(path) {
        "standard input".into()
    } else {
        path.display().to_string()
    };
    parse_key(&bytes, password.as_deref().map(|p| &p[..]))
        .map_err(|msg| CliError::failure(format!("{name}: {msg}")))
}

/// The password a `--passin` / `--passout` source names, as `openssl` reads them:
/// `pass:TEXT` (the text itself), `env:VAR` (an environment variable), or `file:PATH` (the
/// file's first line, without its line end). A usage error names the option otherwise.
pub fn password(option: &str, source: &str) -> Result<Zeroizing<Vec<u8>>, CliError> {
    if let Some(text) = source.strip_prefix("pass:") {
        return Ok(Zeroizing::new(text.as_bytes().to_vec()));
    }
    if let Some(var) = source.strip_prefix("env:") {
        return std::env::var_os(var)
            .map(|v| Zeroizing::new(v.into_encoded_bytes()))
            .ok_or_else(|| {
                CliError::usage(format!(
                    "{option}: the environment variable {var} is not set"
                ))
            });
    }
    if let Some(path) = source.strip_prefix("file:") {
        let data = Zeroizing::new(
            fs::read(path)
                .map_err(|e| CliError::failure(format!("{option}: cannot read {path}: {e}")))?,
        );
        let line = data.split(|&b| b == b'\n').next().unwrap_or_default();
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        return Ok(Zeroizing::new(line.to_vec()));
    }
    Err(CliError::usage(format!(
        "{option}: give the password as pass:TEXT, env:VAR or file:PATH, not {source:?}"
    )))
}

/// Refuses (a usage error, before anything is read) a command that would read standard input
/// for more than one thing: `uses` pairs each option with whether it reads standard input
/// (`-`, or left out where that means standard input).
pub fn stdin_once(uses: &[(&str, bool)]) -> Result<(), CliError> {
    let readers: Vec<&str> = uses.iter().filter(|u| u.1).map(|u| u.0).collect();
    if readers.len() > 1 {
        let (verb, advice) = if readers.len() == 2 {
            ("both", "one of them")
        } else {
            ("all", "all but one of them")
        };
        return Err(CliError::usage(format!(
            "{} cannot {verb} read standard input: give {advice} as a file",
            readers.join(" and ")
        )));
    }
    Ok(())
}

/// Whether an optional input (`--in`) reads standard input: left out, or `-`.
pub fn reads_stdin(path: Option<&Path>) -> bool {
    path.is_none_or(is_stdio)
}

/// The key in `bytes`: PEM by its label, DER by its structure (the library's detection).
/// A file is PEM when it holds a `-----BEGIN ` line (eleven bytes a DER key holds only by a
/// chance of about 2^-88 per position); text or bytes around the PEM block (OpenSSL's `-text`
/// dumps, PKCS#12 export's bag attributes, blank lines) are skipped, as OpenSSL does.
fn parse_key(bytes: &[u8], password: Option<&[u8]>) -> Result<Key, String> {
    if let Some(block) = KeyFormat::pem_block(bytes) {
        let text = std::str::from_utf8(block)
            .map_err(|_| "the PEM block is not ASCII text".to_string())?;
        let label = pem_label(text).unwrap_or_default();
        let detected = KeyFormat::detect_pem(text);
        let encrypted = text.contains("Proc-Type: 4,ENCRYPTED")
            || detected == Err(Error::Encoding(EncodingFault::Encrypted));
        if encrypted {
            let pw = password.ok_or_else(|| needs_password(&format!("PEM \"{label}\"")))?;
            return RsaPrivateKey::from_pem_with_password(text, pw)
                .map(|k| Key::Private(Box::new(k)))
                .map_err(|e| format!("encrypted private key (PEM \"{label}\"): {e}"));
        }
        let format = detected.map_err(|e| match e {
            redc::rsa::Error::Encoding(EncodingFault::PemLabel) => format!(
                "unsupported PEM label \"{label}\" (expected RSA PRIVATE KEY, PRIVATE KEY, RSA \
                 PUBLIC KEY or PUBLIC KEY)"
            ),
            e => e.to_string(),
        })?;
        let read_as = |e: redc::rsa::Error| format!("{format} (PEM \"{label}\"): {e}");
        return if format.is_private() {
            RsaPrivateKey::from_pem(text)
                .map(|k| Key::Private(Box::new(k)))
                .map_err(read_as)
        } else {
            RsaPublicKey::from_pem(text)
                .map(|k| Key::Public(Box::new(k), format))
                .map_err(read_as)
        };
    }
    if KeyFormat::detect_der(bytes) == Err(Error::Encoding(EncodingFault::Encrypted)) {
        let pw = password.ok_or_else(|| needs_password("DER"))?;
        return RsaPrivateKey::from_der_with_password(bytes, pw)
            .map(|k| Key::Private(Box::new(k)))
            .map_err(|e| format!("encrypted PKCS#8 private key (DER): {e}"));
    }
    let format = KeyFormat::detect_der(bytes).map_err(|e| e.to_string())?;
    let read_as = |e: redc::rsa::Error| format!("{format} (DER): {e}");
    if format.is_private() {
        RsaPrivateKey::from_der(bytes)
            .map(|k| Key::Private(Box::new(k)))
            .map_err(read_as)
    } else {
        RsaPublicKey::from_der(bytes)
            .map(|k| Key::Public(Box::new(k), format))
            .map_err(read_as)
    }
}

/// The message for an encrypted key read without `--passin`.
fn needs_password(what: &str) -> String {
    format!(
        "the private key is encrypted ({what}): give its password with --passin (pass:TEXT, \
         env:VAR or file:PATH)"
    )
}

/// The label of the first `-----BEGIN <label>-----` line.
fn pem_label(text: &str) -> Option<&str> {
    let line = text
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("-----BEGIN "))?;
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
        assert!(parse_key(b"garbage", None).is_err());
        assert!(parse_key(b"-----BEGIN CERTIFICATE-----\n", None).is_err());
    }
}
