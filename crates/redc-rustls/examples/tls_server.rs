//! A TLS server (1.3 and 1.2) whose RSA signatures are computed by redc, answering every HTTP
//! request with `HTTP/1.1 200 OK` and the body `redc`.
//!
//! ```text
//! cargo run --release -p redc-rustls --example tls_server -- \
//!     --addr 127.0.0.1:8443 --cert CHAIN.pem --key KEY.pem
//! ```
//!
//! The key: PKCS#1 or PKCS#8, PEM or DER, 2048 to 16384 bits, 2 to 5 primes. Without `--cert`
//! and `--key` the server makes an RSA-2048 key and a self-signed certificate for `localhost`
//! and `127.0.0.1`. The first line on standard output gives the address listened on (useful
//! with port 0). A bad key or certificate, or a standard output that cannot be written, ends
//! the server with one line on standard error and status 1. Everything but the signatures (key exchange, ciphers) is aws-lc-rs's, through
//! rustls's `CryptoProvider` with `redc_rustls::KEY_PROVIDER` as its key provider.

use std::io::{self, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::time::Duration;

use rustls::crypto::{aws_lc_rs, CryptoProvider};
use rustls::sign::{CertifiedKey, SingleCertAndKey};
use rustls::{ServerConfig, ServerConnection, StreamOwned};

/// The response to every request.
const RESPONSE: &[u8] =
    b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 4\r\n\r\nredc";
/// The same, announcing that the connection closes after it.
const RESPONSE_CLOSE: &[u8] =
    b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 4\r\nConnection: close\r\n\r\nredc";
/// An idle connection is dropped after this long.
const IDLE: Duration = Duration::from_secs(30);
/// The largest request head (request line and headers) read.
const MAX_HEAD: usize = 64 * 1024;

const USAGE: &str = "usage: tls_server [--addr HOST:PORT] [--cert CHAIN.pem --key KEY.pem]";

struct Args {
    addr: String,
    cert: Option<String>,
    key: Option<String>,
}

fn main() {
    if let Err(msg) = run() {
        warn(format_args!("{msg}"));
        std::process::exit(1);
    }
}

/// Writes `line` and a newline to standard output and flushes it. A failed write (a closed
/// pipe, a full disk) is an error to report, where `println!` would panic.
fn say(line: std::fmt::Arguments<'_>) -> Result<(), String> {
    let mut out = io::stdout().lock();
    writeln!(out, "{line}")
        .and_then(|()| out.flush())
        .map_err(|e| format!("cannot write to standard output: {e}"))
}

/// Writes `tls_server: ` and `line` to standard error; if even that fails, there is nowhere
/// left to say so (`eprintln!` would panic).
fn warn(line: std::fmt::Arguments<'_>) {
    let _ = writeln!(io::stderr().lock(), "tls_server: {line}");
}

fn run() -> Result<(), String> {
    let args = parse_args(std::env::args().skip(1))?;
    let (certified, what) = match (&args.cert, &args.key) {
        (Some(cert), Some(key)) => (
            redc_rustls::certified_key_from_files(cert, key).map_err(describe)?,
            format!("certificate {cert}, key {key}"),
        ),
        (None, None) => (
            self_signed()?,
            "self-signed RSA-2048 certificate".to_string(),
        ),
        _ => return Err(format!("--cert and --key go together ({USAGE})")),
    };
    let bits = certified_bits(&certified);
    let provider = CryptoProvider {
        key_provider: &redc_rustls::KEY_PROVIDER,
        ..aws_lc_rs::default_provider()
    };
    let config = ServerConfig::builder_with_provider(Arc::new(provider))
        .with_protocol_versions(&[&rustls::version::TLS13, &rustls::version::TLS12])
        .map_err(|e| e.to_string())?
        .with_no_client_auth()
        .with_cert_resolver(Arc::new(SingleCertAndKey::from(certified)));
    let config = Arc::new(config);

    let listener = TcpListener::bind(&args.addr)
        .map_err(|e| format!("cannot listen on {}: {e}", args.addr))?;
    let local = listener.local_addr().map_err(|e| e.to_string())?;
    say(format_args!(
        "tls_server: listening on https://{local} ({what}, RSA-{bits}, signed by redc)"
    ))?;

    for stream in listener.incoming() {
        let stream = match stream {
            Ok(s) => s,
            Err(e) => {
                warn(format_args!("accept: {e}"));
                continue;
            }
        };
        let config = config.clone();
        std::thread::spawn(move || {
            let peer = stream.peer_addr().ok();
            if let Err(e) = serve(stream, config) {
                if !quiet(&e) {
                    warn(format_args!("{}: {e}", peer_name(peer)));
                }
            }
        });
    }
    Ok(())
}

fn parse_args(mut it: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut args = Args {
        addr: "127.0.0.1:8443".into(),
        cert: None,
        key: None,
    };
    while let Some(flag) = it.next() {
        let mut value = |name: &str| it.next().ok_or(format!("{name} needs a value ({USAGE})"));
        match flag.as_str() {
            "--addr" => args.addr = value("--addr")?,
            "--cert" => args.cert = Some(value("--cert")?),
            "--key" => args.key = Some(value("--key")?),
            "-h" | "--help" => {
                say(format_args!("{USAGE}"))?;
                std::process::exit(0);
            }
            other => return Err(format!("unknown argument {other:?} ({USAGE})")),
        }
    }
    Ok(args)
}

/// An RSA-2048 key made by redc and a certificate for it signed by itself.
fn self_signed() -> Result<CertifiedKey, String> {
    let rsa = redc::rsa::RsaPrivateKey::new(&mut rand_core::OsRng, 2048)
        .map_err(|e| format!("key generation: {e}"))?;
    let key = redc_rustls::SigningKey::new(rsa).map_err(describe)?;
    let cert = redc_rustls::self_signed(&key, &["localhost", "127.0.0.1"]).map_err(describe)?;
    redc_rustls::certified_key(vec![cert], key).map_err(describe)
}

/// The modulus size of the certified key, from its public key (an RSA SPKI).
fn certified_bits(certified: &CertifiedKey) -> usize {
    use redc::rsa::DecodePublicKey;
    certified
        .key
        .public_key()
        .and_then(|spki| redc::rsa::RsaPublicKey::from_public_key_der(&spki).ok())
        .map_or(0, |k| k.bits())
}

/// A rustls error as one line: the redc-rustls fault when it is one.
fn describe(e: rustls::Error) -> String {
    match redc_rustls::Error::from_rustls(&e) {
        Some(inner) => inner.to_string(),
        None => e.to_string(),
    }
}

fn peer_name(peer: Option<SocketAddr>) -> String {
    peer.map_or_else(|| "connection".into(), |p| p.to_string())
}

/// Whether an I/O error is a peer going away or an idle timeout, not worth a line.
fn quiet(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::UnexpectedEof
            | io::ErrorKind::ConnectionReset
            | io::ErrorKind::BrokenPipe
            | io::ErrorKind::WouldBlock
            | io::ErrorKind::TimedOut
    )
}

/// One connection: the handshake, then every request on it answered, until the client closes
/// or asks to.
fn serve(tcp: TcpStream, config: Arc<ServerConfig>) -> io::Result<()> {
    tcp.set_read_timeout(Some(IDLE))?;
    tcp.set_write_timeout(Some(IDLE))?;
    tcp.set_nodelay(true)?;
    let conn = ServerConnection::new(config).map_err(io::Error::other)?;
    let mut tls = StreamOwned::new(conn, tcp);
    let mut buf: Vec<u8> = Vec::new();
    // Body bytes of the last request still to be read and dropped.
    let mut skip = 0usize;
    let mut chunk = [0u8; 16 * 1024];
    loop {
        // Drop body bytes, then answer every complete request head in the buffer.
        loop {
            let n = skip.min(buf.len());
            buf.drain(..n);
            skip -= n;
            if skip > 0 {
                break;
            }
            let Some(req) = Request::parse(&buf) else {
                break;
            };
            buf.drain(..req.head_len);
            skip = req.body_len;
            tls.write_all(if req.close { RESPONSE_CLOSE } else { RESPONSE })?;
            if req.close {
                tls.conn.send_close_notify();
                tls.flush()?;
                return Ok(());
            }
        }
        tls.flush()?;
        if buf.len() > MAX_HEAD {
            return Err(io::Error::other("request head too long"));
        }
        let n = tls.read(&mut chunk)?;
        if n == 0 {
            return Ok(());
        }
        buf.extend_from_slice(&chunk[..n]);
    }
}

/// What is needed of one HTTP/1.x request.
struct Request {
    /// Bytes of the head (request line and headers, with the blank line).
    head_len: usize,
    /// Bytes of the body (`Content-Length`, 0 without).
    body_len: usize,
    /// Whether the connection closes after the response (HTTP/1.0 without keep-alive, or
    /// `Connection: close`).
    close: bool,
}

impl Request {
    /// The request at the start of `buf`, once its head is complete.
    fn parse(buf: &[u8]) -> Option<Request> {
        let head_len = buf.windows(4).position(|w| w == b"\r\n\r\n")? + 4;
        let head = String::from_utf8_lossy(&buf[..head_len]);
        let mut lines = head.split("\r\n");
        let request_line = lines.next().unwrap_or("");
        let http10 = request_line.ends_with("HTTP/1.0");
        let mut close = http10;
        let mut body = 0usize;
        for line in lines {
            let Some((name, value)) = line.split_once(':') else {
                continue;
            };
            let value = value.trim().to_ascii_lowercase();
            if name.eq_ignore_ascii_case("connection") {
                if value.split(',').any(|t| t.trim() == "close") {
                    close = true;
                } else if value.split(',').any(|t| t.trim() == "keep-alive") {
                    close = false;
                }
            } else if name.eq_ignore_ascii_case("content-length") {
                body = value.parse().unwrap_or(0);
            }
        }
        Some(Request {
            head_len,
            body_len: body,
            close,
        })
    }
}
