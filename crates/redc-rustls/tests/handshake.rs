//! Full handshakes in memory (a rustls client and server exchanging their flights through
//! buffers, no sockets), TLS 1.3 and TLS 1.2, with the server's key loaded by rustls through
//! [`redc_rustls::KEY_PROVIDER`] or built with [`redc_rustls::SigningKey::with_service`], and
//! the client verifying the server's certificate with webpki against the certificate as its
//! root.

mod common;

use std::sync::Arc;

use common::Verifier;

use redc::rsa::{EncodePrivateKey, EncodeRsaPrivateKey, RsaPrivateKey};
use redc::service::{BatchSigner, ServiceConfig};
use rustls::crypto::{aws_lc_rs, CryptoProvider};
use rustls::pki_types::{
    CertificateDer, PrivateKeyDer, PrivatePkcs1KeyDer, PrivatePkcs8KeyDer, ServerName,
};
use rustls::{
    ClientConfig, ClientConnection, ServerConfig, ServerConnection, SignatureScheme,
    SupportedProtocolVersion,
};

/// A client for `version` trusting `root` only, and its verifier.
fn client(
    root: &CertificateDer<'static>,
    version: &'static SupportedProtocolVersion,
) -> (Arc<ClientConfig>, Arc<Verifier>) {
    let provider = Arc::new(aws_lc_rs::default_provider());
    let verifier = Verifier::new(root, provider.clone(), None);
    let config = ClientConfig::builder_with_provider(provider)
        .with_protocol_versions(&[version])
        .unwrap()
        .dangerous()
        .with_custom_certificate_verifier(verifier.clone())
        .with_no_client_auth();
    (Arc::new(config), verifier)
}

/// One full handshake over memory between `client` (for `localhost`) and `server`, then a
/// message each way. Returns the version negotiated.
fn handshake(client: Arc<ClientConfig>, server: Arc<ServerConfig>) -> rustls::ProtocolVersion {
    use std::io::{Read, Write};
    let name = ServerName::try_from("localhost").unwrap();
    let mut c = ClientConnection::new(client, name).unwrap();
    let mut s = ServerConnection::new(server).unwrap();
    let mut buf = Vec::new();
    for _ in 0..16 {
        if !c.is_handshaking() && !s.is_handshaking() {
            break;
        }
        buf.clear();
        while c.wants_write() {
            c.write_tls(&mut buf).unwrap();
        }
        let mut rd = &buf[..];
        while !rd.is_empty() {
            s.read_tls(&mut rd).unwrap();
            s.process_new_packets().expect("server");
        }
        buf.clear();
        while s.wants_write() {
            s.write_tls(&mut buf).unwrap();
        }
        let mut rd = &buf[..];
        while !rd.is_empty() {
            c.read_tls(&mut rd).unwrap();
            c.process_new_packets().expect("client");
        }
    }
    assert!(
        !c.is_handshaking() && !s.is_handshaking(),
        "handshake stuck"
    );
    // Application data both ways, through the keys the handshake agreed on.
    c.writer().write_all(b"ping").unwrap();
    buf.clear();
    while c.wants_write() {
        c.write_tls(&mut buf).unwrap();
    }
    s.read_tls(&mut &buf[..]).unwrap();
    s.process_new_packets().unwrap();
    let mut got = [0u8; 4];
    s.reader().read_exact(&mut got).unwrap();
    assert_eq!(&got, b"ping");
    s.protocol_version().unwrap()
}

/// A server for TLS 1.3 and 1.2 whose key rustls loads through `KEY_PROVIDER`
/// (`with_single_cert`).
fn server_via_key_provider(
    cert: &CertificateDer<'static>,
    key: PrivateKeyDer<'static>,
) -> Arc<ServerConfig> {
    let provider = CryptoProvider {
        key_provider: &redc_rustls::KEY_PROVIDER,
        ..aws_lc_rs::default_provider()
    };
    let config = ServerConfig::builder_with_provider(Arc::new(provider))
        .with_protocol_versions(&[&rustls::version::TLS13, &rustls::version::TLS12])
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(vec![cert.clone()], key)
        .unwrap();
    Arc::new(config)
}

/// A key of `primes` primes and its self-signed certificate for `localhost`.
fn identity(primes: usize) -> (RsaPrivateKey, CertificateDer<'static>) {
    let key = RsaPrivateKey::new_multi_prime(&mut rand_core::OsRng, 2048, primes).unwrap();
    let signing = redc_rustls::SigningKey::new(key.clone()).unwrap();
    let cert = redc_rustls::self_signed(&signing, &["localhost"]).unwrap();
    (key, cert)
}

fn pkcs1(key: &RsaPrivateKey) -> PrivateKeyDer<'static> {
    PrivatePkcs1KeyDer::from(key.to_pkcs1_der().unwrap().as_bytes().to_vec()).into()
}

fn pkcs8(key: &RsaPrivateKey) -> PrivateKeyDer<'static> {
    PrivatePkcs8KeyDer::from(key.to_pkcs8_der().unwrap().as_bytes().to_vec()).into()
}

/// Handshakes with both versions against `server`: each completes with one handshake
/// signature, verified by webpki, of an RSA scheme (a PSS one in TLS 1.3).
fn both_versions(server: &Arc<ServerConfig>, cert: &CertificateDer<'static>) {
    for version in [&rustls::version::TLS13, &rustls::version::TLS12] {
        let (client, verifier) = client(cert, version);
        assert_eq!(handshake(client, server.clone()), version.version);
        let verified = verifier.verified.lock().unwrap().clone();
        assert_eq!(verified.len(), 1, "{:?}: {verified:?}", version.version);
        let scheme = verified[0];
        assert!(
            redc_rustls::SCHEMES.contains(&scheme),
            "{:?}: {scheme:?}",
            version.version
        );
        if version.version == rustls::ProtocolVersion::TLSv1_3 {
            assert_eq!(scheme, SignatureScheme::RSA_PSS_SHA512);
        }
    }
}

#[test]
fn handshakes_with_a_pkcs1_key_loaded_by_the_key_provider() {
    let (key, cert) = identity(2);
    both_versions(&server_via_key_provider(&cert, pkcs1(&key)), &cert);
}

#[test]
fn handshakes_with_a_pkcs8_key_loaded_by_the_key_provider() {
    let (key, cert) = identity(2);
    both_versions(&server_via_key_provider(&cert, pkcs8(&key)), &cert);
}

#[test]
fn handshakes_with_a_three_prime_key_only_redc_loads() {
    // aws-lc-rs refuses multi-prime keys: the handshake signing with one shows the key came
    // through KEY_PROVIDER, not through the provider the rest of the config was taken from.
    let (key, cert) = identity(3);
    assert!(aws_lc_rs::default_provider()
        .key_provider
        .load_private_key(pkcs1(&key))
        .is_err());
    both_versions(&server_via_key_provider(&cert, pkcs1(&key)), &cert);
    both_versions(&server_via_key_provider(&cert, pkcs8(&key)), &cert);
}

#[test]
fn handshakes_with_a_key_signing_through_the_service() {
    let service = Arc::new(BatchSigner::new(ServiceConfig::default()));
    let (key, cert) = identity(2);
    let signing = redc_rustls::SigningKey::with_service(key, &service).unwrap();
    let certified = redc_rustls::certified_key(vec![cert.clone()], signing).unwrap();
    let server = ServerConfig::builder_with_provider(Arc::new(aws_lc_rs::default_provider()))
        .with_protocol_versions(&[&rustls::version::TLS13, &rustls::version::TLS12])
        .unwrap()
        .with_no_client_auth()
        .with_cert_resolver(Arc::new(rustls::sign::SingleCertAndKey::from(certified)));
    both_versions(&Arc::new(server), &cert);
    // Both handshake signatures went through the service.
    assert_eq!(service.stats().requests, 2);
}

/// A key given to the service leaves it with the last clone of its `SigningKey` and of the
/// signers made from it: a server that reloads its certificates does not keep the old keys.
#[test]
fn a_service_key_leaves_the_service_with_its_last_clone() {
    use rustls::sign::SigningKey as _;
    let service = Arc::new(BatchSigner::new(ServiceConfig::default()));
    let (key, _) = identity(2);
    let signing = redc_rustls::SigningKey::with_service(key, &service).unwrap();
    assert_eq!(service.keys_held(), 1);
    let clone = signing.clone();
    let signer = signing
        .choose_scheme(&[rustls::SignatureScheme::RSA_PSS_SHA256])
        .expect("an RSA scheme");
    drop(signing);
    drop(clone);
    // The signer still signs through the service: the key is still there.
    assert_eq!(service.keys_held(), 1);
    assert_eq!(signer.sign(b"transcript").unwrap().len(), 256);
    drop(signer);
    assert_eq!(service.keys_held(), 0);
    // A reload: a new key, the old one gone.
    let (key, _) = identity(2);
    let reloaded = redc_rustls::SigningKey::with_service(key, &service).unwrap();
    assert_eq!(service.keys_held(), 1);
    drop(reloaded);
    assert_eq!(service.keys_held(), 0);
}
