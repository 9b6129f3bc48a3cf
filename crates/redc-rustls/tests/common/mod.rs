//! Shared by the integration tests: keys and certificates written to a temporary directory,
//! the example server as a child process, and the system `openssl s_client`.
#![allow(dead_code)] // each test file uses its own part

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use redc::rsa::pkcs1::der::pem::LineEnding;
use redc::rsa::{EncodePrivateKey, EncodeRsaPrivateKey, RsaPrivateKey};
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::client::WebPkiServerVerifier;
use rustls::crypto::CryptoProvider;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{DigitallySignedStruct, SignatureScheme};

/// How a test key is written.
#[derive(Clone, Copy, Debug)]
pub enum KeyFormat {
    Pkcs1Pem,
    Pkcs8Pem,
    Pkcs8Der,
}

/// A key and its self-signed certificate, written to files.
pub struct Identity {
    pub key: RsaPrivateKey,
    pub cert: CertificateDer<'static>,
    pub key_path: PathBuf,
    pub cert_path: PathBuf,
}

/// A new redc key of `bits` bits and `primes` primes, with a self-signed certificate for
/// `localhost` and `127.0.0.1`, written into `dir` as `NAME.key` / `NAME.crt` (PEM).
pub fn identity(dir: &Path, name: &str, bits: usize, primes: usize, format: KeyFormat) -> Identity {
    let key = RsaPrivateKey::new_multi_prime(&mut rand_core::OsRng, bits, primes).unwrap();
    let signing = redc_rustls::SigningKey::new(key.clone()).unwrap();
    let cert = redc_rustls::self_signed(&signing, &["localhost", "127.0.0.1"]).unwrap();
    let key_path = dir.join(format!("{name}.key"));
    let cert_path = dir.join(format!("{name}.crt"));
    let key_bytes: Vec<u8> = match format {
        KeyFormat::Pkcs1Pem => key
            .to_pkcs1_pem(LineEnding::LF)
            .unwrap()
            .as_bytes()
            .to_vec(),
        KeyFormat::Pkcs8Pem => key
            .to_pkcs8_pem(LineEnding::LF)
            .unwrap()
            .as_bytes()
            .to_vec(),
        KeyFormat::Pkcs8Der => key.to_pkcs8_der().unwrap().as_bytes().to_vec(),
    };
    std::fs::write(&key_path, key_bytes).unwrap();
    std::fs::write(&cert_path, cert_pem(&cert)).unwrap();
    Identity {
        key,
        cert,
        key_path,
        cert_path,
    }
}

/// A certificate as PEM text.
pub fn cert_pem(cert: &CertificateDer<'_>) -> String {
    redc::rsa::pkcs1::der::pem::encode_string("CERTIFICATE", LineEnding::LF, cert.as_ref()).unwrap()
}

/// The example `tls_server` ([`example_binary`]).
pub fn server_binary() -> PathBuf {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| example_binary("tls_server")).clone()
}

/// The example `name`, built with the profile of this test binary: `cargo test` builds
/// examples, `cargo test --test NAME` does not, and a build that is up to date costs nothing.
pub fn example_binary(name: &str) -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    // target/<profile dir>/deps/<test binary>
    let profile_dir = exe.parent().unwrap().parent().unwrap();
    let bin = profile_dir
        .join("examples")
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    let profile = match profile_dir.file_name().and_then(|n| n.to_str()) {
        Some("debug") => "test".to_string(),
        Some(other) => other.to_string(),
        None => "test".to_string(),
    };
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut build = Command::new(cargo);
    // The variables cargo sets for this test process are not the ones the outer build saw;
    // build scripts that watch them (ring's watches CARGO_MANIFEST_DIR) would rerun.
    for (var, _) in std::env::vars_os() {
        let var = var.to_string_lossy();
        let set_for_tests = [
            "CARGO_MANIFEST_",
            "CARGO_PKG_",
            "CARGO_CRATE_",
            "CARGO_BIN_",
        ]
        .iter()
        .any(|p| var.starts_with(p))
            || [
                "CARGO_PRIMARY_PACKAGE",
                "CARGO_TARGET_TMPDIR",
                "CARGO_RUSTC_CURRENT_DIR",
            ]
            .contains(&&*var);
        if set_for_tests {
            build.env_remove(&*var);
        }
    }
    let status = build
        .args(["build", "--quiet", "-p", "redc-rustls", "--example", name])
        .args(["--profile", &profile])
        .status();
    match status {
        Ok(s) if s.success() => {}
        other if bin.exists() => {
            eprintln!(
                "could not rebuild the example ({other:?}); using {}",
                bin.display()
            )
        }
        other => panic!("cannot build the {name} example: {other:?}"),
    }
    assert!(bin.exists(), "no example binary at {}", bin.display());
    bin
}

/// The example server as a child process, killed when dropped.
pub struct Server {
    child: Child,
    pub addr: String,
}

impl Server {
    /// Starts `tls_server --addr 127.0.0.1:0` with `args` and waits (at most 20 s) for the
    /// line giving the address.
    pub fn start(args: &[&str]) -> Server {
        let mut child = Command::new(server_binary())
            .args(["--addr", "127.0.0.1:0"])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        let line = rx.recv_timeout(Duration::from_secs(20)).unwrap_or_default();
        let addr = line
            .split("https://")
            .nth(1)
            .and_then(|rest| rest.split_whitespace().next())
            .map(str::to_string);
        match addr {
            Some(addr) => Server { child, addr },
            None => {
                let _ = child.kill();
                panic!("tls_server did not announce its address (got {line:?})");
            }
        }
    }

    /// The port listened on.
    pub fn port(&self) -> u16 {
        self.addr.rsplit(':').next().unwrap().parse().unwrap()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs the example to completion (it must exit by itself within 30 s).
pub fn run_server_expecting_exit(args: &[&str]) -> Output {
    let mut child = Command::new(server_binary())
        .args(["--addr", "127.0.0.1:0"])
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("tls_server {args:?} did not exit");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// The `openssl` command: `$REDC_OPENSSL` if set (for trying another OpenSSL), else the
/// system's.
pub fn openssl() -> String {
    std::env::var("REDC_OPENSSL").unwrap_or_else(|_| "openssl".into())
}

/// `openssl s_client` against `port` with `args`, sending `request`, killed after 20 s.
/// Returns its standard output and error together.
pub fn s_client(port: u16, args: &[&str], request: &str) -> String {
    let mut child = Command::new(openssl())
        .arg("s_client")
        .args(["-connect", &format!("127.0.0.1:{port}")])
        .arg("-ign_eof")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the system `openssl` (the CI installs it)");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(request.as_bytes())
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let out = child.wait_with_output().unwrap();
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    text
}

/// webpki's server verifier (full chain, name and signature checks) for a client trusting one
/// root, recording the scheme of each handshake signature it verified; with `only`, it offers
/// that scheme alone and fails the test on any other.
#[derive(Debug)]
pub struct Verifier {
    webpki: Arc<WebPkiServerVerifier>,
    only: Option<SignatureScheme>,
    /// The schemes of the handshake signatures verified, in order.
    pub verified: Mutex<Vec<SignatureScheme>>,
}

impl Verifier {
    /// The verifier for a client of `provider` trusting `root` alone.
    pub fn new(
        root: &CertificateDer<'static>,
        provider: Arc<CryptoProvider>,
        only: Option<SignatureScheme>,
    ) -> Arc<Self> {
        let mut roots = rustls::RootCertStore::empty();
        roots.add(root.clone()).unwrap();
        let webpki = WebPkiServerVerifier::builder_with_provider(Arc::new(roots), provider)
            .build()
            .unwrap();
        Arc::new(Verifier {
            webpki,
            only,
            verified: Mutex::new(Vec::new()),
        })
    }

    /// Checks the scheme against `only` before webpki verifies, and records it if verified.
    fn verify(
        &self,
        scheme: SignatureScheme,
        webpki: impl FnOnce() -> Result<HandshakeSignatureValid, rustls::Error>,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        if let Some(only) = self.only {
            assert_eq!(scheme, only);
        }
        let result = webpki();
        if result.is_ok() {
            self.verified.lock().unwrap().push(scheme);
        }
        result
    }
}

impl ServerCertVerifier for Verifier {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        self.webpki
            .verify_server_cert(end_entity, intermediates, server_name, ocsp, now)
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.verify(dss.scheme, || {
            self.webpki.verify_tls12_signature(message, cert, dss)
        })
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.verify(dss.scheme, || {
            self.webpki.verify_tls13_signature(message, cert, dss)
        })
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        match self.only {
            Some(only) => vec![only],
            None => self.webpki.supported_verify_schemes(),
        }
    }
}
