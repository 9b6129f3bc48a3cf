//! The example server (`examples/tls_server.rs`, redc signing) against the system
//! `openssl s_client` and against rustls clients (aws-lc-rs and ring verifying), in TLS 1.3 and
//! TLS 1.2, one signature scheme at a time, with redc keys of 2 to 4 primes in PKCS#1 / PKCS#8,
//! PEM / DER, and with a 3-prime key made by OpenSSL.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use common::{identity, s_client, KeyFormat, Server, Verifier};
use rustls::crypto::{aws_lc_rs, ring, CryptoProvider};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName};
use rustls::{SignatureScheme, SupportedProtocolVersion};

const REQUEST_CLOSE: &str = "GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
const RESPONSE_CLOSE: &str =
    "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 4\r\nConnection: close\r\n\r\nredc";

/// One `s_client` run: protocol flag, `-sigalgs` value, and what OpenSSL then reports as the
/// server's signature type (OpenSSL 3.0's name, or the TLS name OpenSSL 4 prints) and digest.
struct OpensslCase {
    version: &'static str,
    sigalg: &'static str,
    sig_type: &'static str,
    tls_name: &'static str,
    digest: &'static str,
}

/// Every scheme each version allows: TLS 1.3 signs with PSS only; TLS 1.2 with PSS or PKCS#1.
const OPENSSL_CASES: [OpensslCase; 9] = [
    case(
        "-tls1_3",
        "rsa_pss_rsae_sha256",
        "RSA-PSS",
        "rsa_pss_rsae_sha256",
        "SHA256",
    ),
    case(
        "-tls1_3",
        "rsa_pss_rsae_sha384",
        "RSA-PSS",
        "rsa_pss_rsae_sha384",
        "SHA384",
    ),
    case(
        "-tls1_3",
        "rsa_pss_rsae_sha512",
        "RSA-PSS",
        "rsa_pss_rsae_sha512",
        "SHA512",
    ),
    case(
        "-tls1_2",
        "rsa_pss_rsae_sha256",
        "RSA-PSS",
        "rsa_pss_rsae_sha256",
        "SHA256",
    ),
    case(
        "-tls1_2",
        "rsa_pss_rsae_sha512",
        "RSA-PSS",
        "rsa_pss_rsae_sha512",
        "SHA512",
    ),
    case("-tls1_2", "RSA+SHA256", "RSA", "rsa_pkcs1_sha256", "SHA256"),
    case("-tls1_2", "RSA+SHA384", "RSA", "rsa_pkcs1_sha384", "SHA384"),
    case("-tls1_2", "RSA+SHA512", "RSA", "rsa_pkcs1_sha512", "SHA512"),
    case(
        "-tls1_2",
        "RSA-PSS+SHA384",
        "RSA-PSS",
        "rsa_pss_rsae_sha384",
        "SHA384",
    ),
];

const fn case(
    version: &'static str,
    sigalg: &'static str,
    sig_type: &'static str,
    tls_name: &'static str,
    digest: &'static str,
) -> OpensslCase {
    OpensslCase {
        version,
        sigalg,
        sig_type,
        tls_name,
        digest,
    }
}

/// Runs every [`OPENSSL_CASES`] entry against the server, verifying the certificate against
/// `ca` and the host name `localhost`, and checks the handshake and the response.
fn openssl_every_scheme(server: &Server, ca: &std::path::Path) {
    let ca = ca.to_str().unwrap();
    for c in &OPENSSL_CASES {
        let args = [
            c.version,
            "-sigalgs",
            c.sigalg,
            "-CAfile",
            ca,
            "-verify_return_error",
            "-verify_hostname",
            "localhost",
            "-servername",
            "localhost",
        ];
        let out = s_client(server.port(), &args, REQUEST_CLOSE);
        let what = format!("s_client {} -sigalgs {}:\n{out}", c.version, c.sigalg);
        let proto = if c.version == "-tls1_3" {
            "TLSv1.3"
        } else {
            "TLSv1.2"
        };
        assert!(out.contains(&format!("Protocol  : {proto}")), "{what}");
        assert!(
            out.contains(&format!("Peer signature type: {}\n", c.sig_type))
                || out.contains(&format!("Peer signature type: {}\n", c.tls_name)),
            "{what}"
        );
        assert!(
            out.contains(&format!("Peer signing digest: {}\n", c.digest)),
            "{what}"
        );
        assert!(out.contains("Verify return code: 0 (ok)"), "{what}");
        assert!(out.contains(RESPONSE_CLOSE), "{what}");
    }
}

#[test]
fn openssl_s_client_every_scheme_and_key_shape() {
    let dir = tempfile::tempdir().unwrap();
    let shapes = [
        ("rsa2048", 2048, 2, KeyFormat::Pkcs1Pem),
        ("rsa3072x3", 3072, 3, KeyFormat::Pkcs8Pem),
        ("rsa4096x4", 4096, 4, KeyFormat::Pkcs8Der),
    ];
    for (name, bits, primes, format) in shapes {
        let id = identity(dir.path(), name, bits, primes, format);
        let server = Server::start(&[
            "--cert",
            id.cert_path.to_str().unwrap(),
            "--key",
            id.key_path.to_str().unwrap(),
        ]);
        openssl_every_scheme(&server, &id.cert_path);
    }
}

#[test]
fn openssl_made_multi_prime_key() {
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("ossl.key");
    let cert = dir.path().join("ossl.crt");
    let genpkey = Command::new(common::openssl())
        .args([
            "genpkey",
            "-algorithm",
            "RSA",
            "-pkeyopt",
            "rsa_keygen_bits:2048",
        ])
        .args(["-pkeyopt", "rsa_keygen_primes:3", "-out"])
        .arg(&key)
        .output()
        .expect("the system `openssl`");
    assert!(genpkey.status.success(), "{genpkey:?}");
    // A leaf certificate (CA:FALSE, which webpki requires of an end entity), self-signed.
    let csr = dir.path().join("ossl.csr");
    let ext = dir.path().join("ossl.ext");
    std::fs::write(
        &ext,
        "subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=critical,CA:FALSE\n",
    )
    .unwrap();
    let req = Command::new(common::openssl())
        .args(["req", "-new", "-key"])
        .arg(&key)
        .args(["-subj", "/CN=localhost", "-out"])
        .arg(&csr)
        .output()
        .unwrap();
    assert!(req.status.success(), "{req:?}");
    let x509 = Command::new(common::openssl())
        .args(["x509", "-req", "-sha256", "-days", "2", "-in"])
        .arg(&csr)
        .arg("-signkey")
        .arg(&key)
        .arg("-extfile")
        .arg(&ext)
        .arg("-out")
        .arg(&cert)
        .output()
        .unwrap();
    assert!(x509.status.success(), "{x509:?}");
    let loaded = redc_rustls::SigningKey::from_file(&key).unwrap();
    assert_eq!((loaded.bits(), loaded.primes()), (2048, 3));

    let server = Server::start(&[
        "--cert",
        cert.to_str().unwrap(),
        "--key",
        key.to_str().unwrap(),
    ]);
    openssl_every_scheme(&server, &cert);
    let ca = CertificateDer::from_pem_file(&cert).unwrap();
    rustls_every_scheme(&server, &ca);
}

#[test]
fn openssl_keep_alive_answers_every_request() {
    let dir = tempfile::tempdir().unwrap();
    let id = identity(dir.path(), "ka", 2048, 2, KeyFormat::Pkcs8Pem);
    let server = Server::start(&[
        "--cert",
        id.cert_path.to_str().unwrap(),
        "--key",
        id.key_path.to_str().unwrap(),
    ]);
    let requests = "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n\
                    POST /x HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\n\r\nhello\
                    GET /last HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
    let out = s_client(server.port(), &["-tls1_3"], requests);
    assert_eq!(out.matches("HTTP/1.1 200 OK\r\n").count(), 3, "{out}");
    assert_eq!(out.matches("\r\n\r\nredc").count(), 3, "{out}");
    assert!(out.contains(RESPONSE_CLOSE), "{out}");
}

#[test]
fn self_made_certificate_without_cert_and_key() {
    let server = Server::start(&[]);
    for version in ["-tls1_3", "-tls1_2"] {
        let out = s_client(server.port(), &[version], REQUEST_CLOSE);
        assert!(out.contains("redc-rustls self-signed"), "{out}");
        assert!(out.contains("Server public key is 2048 bit"), "{out}");
        assert!(out.contains(RESPONSE_CLOSE), "{out}");
    }
}

#[test]
fn rustls_clients_every_scheme() {
    let dir = tempfile::tempdir().unwrap();
    for (name, bits, primes) in [("r2048", 2048, 2), ("r2048x3", 2048, 3)] {
        let id = identity(dir.path(), name, bits, primes, KeyFormat::Pkcs1Pem);
        let server = Server::start(&[
            "--cert",
            id.cert_path.to_str().unwrap(),
            "--key",
            id.key_path.to_str().unwrap(),
        ]);
        rustls_every_scheme(&server, &id.cert);
    }
}

/// A rustls crypto provider's constructor.
type MakeProvider = fn() -> CryptoProvider;

/// Every (version, scheme) pair rustls allows, with an aws-lc-rs client and a ring client,
/// each offering that one scheme, trusting `ca` and checking the server's signature.
fn rustls_every_scheme(server: &Server, ca: &CertificateDer<'static>) {
    let pss = [
        SignatureScheme::RSA_PSS_SHA256,
        SignatureScheme::RSA_PSS_SHA384,
        SignatureScheme::RSA_PSS_SHA512,
    ];
    let pkcs1 = [
        SignatureScheme::RSA_PKCS1_SHA256,
        SignatureScheme::RSA_PKCS1_SHA384,
        SignatureScheme::RSA_PKCS1_SHA512,
    ];
    let providers: [(&str, MakeProvider); 2] = [
        ("aws-lc-rs", aws_lc_rs::default_provider),
        ("ring", ring::default_provider),
    ];
    for (pname, provider) in providers {
        for scheme in pss {
            let r = rustls_get(
                &server.addr,
                ca,
                &rustls::version::TLS13,
                scheme,
                provider(),
            );
            assert_eq!(r, RESPONSE_CLOSE, "{pname} TLS 1.3 {scheme:?}");
        }
        for scheme in pss.into_iter().chain(pkcs1) {
            let r = rustls_get(
                &server.addr,
                ca,
                &rustls::version::TLS12,
                scheme,
                provider(),
            );
            assert_eq!(r, RESPONSE_CLOSE, "{pname} TLS 1.2 {scheme:?}");
        }
    }
}

/// One request with a rustls client that offers only `scheme`: the handshake succeeds only if
/// the server signs with it and the signature verifies. Returns the response.
fn rustls_get(
    addr: &str,
    ca: &CertificateDer<'static>,
    version: &'static SupportedProtocolVersion,
    scheme: SignatureScheme,
    provider: CryptoProvider,
) -> String {
    let provider = Arc::new(provider);
    let verifier = Verifier::new(ca, provider.clone(), Some(scheme));
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_protocol_versions(&[version])
        .unwrap()
        .dangerous()
        .with_custom_certificate_verifier(verifier)
        .with_no_client_auth();
    let name = ServerName::try_from("localhost").unwrap();
    let conn = rustls::ClientConnection::new(Arc::new(config), name).unwrap();
    let tcp = TcpStream::connect(addr).unwrap();
    tcp.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let mut tls = rustls::StreamOwned::new(conn, tcp);
    tls.write_all(REQUEST_CLOSE.as_bytes()).unwrap();
    let mut response = Vec::new();
    tls.read_to_end(&mut response)
        .unwrap_or_else(|e| panic!("{version:?} {scheme:?}: {e}"));
    String::from_utf8(response).unwrap()
}
