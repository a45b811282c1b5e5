//! Encrypted connections (TLS 1.2 and 1.3) for the native client: rustls with Graviola's
//! cryptography, which is Rust and assembly only (nothing in C to compile for Android), and
//! the Mozilla root certificates (webpki-roots). The server's certificate is checked against
//! those roots (and any the caller adds) and the server's name.
//!
//! What goes wrong is said in terms a person can act on ([`TlsProblem`]): a certificate for
//! another name, expired, self-signed or from an unknown authority; a server that does not
//! speak TLS; a server that wants it when the address said `ws://`.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::{Arc, Mutex, OnceLock};

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::client::WebPkiServerVerifier;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{CertificateError, DigitallySignedStruct, RootCertStore, SignatureScheme};

pub use crate::transport::TlsProblem;

/// The cryptography of every connection: Graviola's.
fn provider() -> Arc<rustls::crypto::CryptoProvider> {
    static PROVIDER: OnceLock<Arc<rustls::crypto::CryptoProvider>> = OnceLock::new();
    Arc::clone(PROVIDER.get_or_init(|| Arc::new(rustls_graviola::default_provider())))
}

/// The client's TLS settings: the public roots, and `extra_roots` (DER certificates of
/// authorities the user trusts besides, such as a club's own, or a test's).
pub fn client_config(extra_roots: &[Vec<u8>]) -> Result<Arc<rustls::ClientConfig>, String> {
    let mut roots = RootCertStore::empty();
    roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    for der in extra_roots {
        roots
            .add(CertificateDer::from(der.clone()))
            .map_err(|e| format!("a trusted certificate does not read: {e}"))?;
    }
    let provider = provider();
    let inner = WebPkiServerVerifier::builder_with_provider(Arc::new(roots), Arc::clone(&provider))
        .build()
        .map_err(|e| e.to_string())?;
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(Verifier { inner }))
        .with_no_client_auth();
    Ok(Arc::new(config))
}

/// The certificates of a PEM file's text, as DER (for [`client_config`]'s extra roots).
pub fn pem_certificates(pem: &str) -> Result<Vec<Vec<u8>>, String> {
    use rustls::pki_types::pem::PemObject;
    let certs: Result<Vec<_>, _> = CertificateDer::pem_slice_iter(pem.as_bytes()).collect();
    let certs = certs.map_err(|e| format!("not a PEM certificate: {e:?}"))?;
    if certs.is_empty() {
        return Err("no certificate in the PEM text".into());
    }
    Ok(certs.into_iter().map(|c| c.to_vec()).collect())
}

/// The public roots' verifier, which also tells a self-signed certificate from one whose
/// authority is unknown (the library says "unknown issuer" for both).
#[derive(Debug)]
struct Verifier {
    inner: Arc<WebPkiServerVerifier>,
}

/// A certificate that signs itself (a server's own, not from any authority).
#[derive(Debug)]
struct SelfSigned;

impl std::fmt::Display for SelfSigned {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("self-signed certificate")
    }
}

impl std::error::Error for SelfSigned {}

impl ServerCertVerifier for Verifier {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        match self
            .inner
            .verify_server_cert(end_entity, intermediates, server_name, ocsp, now)
        {
            Err(rustls::Error::InvalidCertificate(CertificateError::UnknownIssuer))
                if der::self_signed(end_entity) =>
            {
                Err(rustls::Error::InvalidCertificate(CertificateError::Other(
                    rustls::OtherError(Arc::new(SelfSigned)),
                )))
            }
            other => other,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.inner.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.inner.verify_tls13_signature(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.inner.supported_verify_schemes()
    }
}

/// What a rustls error means for the person connecting.
fn problem(e: &rustls::Error) -> TlsProblem {
    match e {
        rustls::Error::InvalidCertificate(c) => match c {
            CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. } => {
                TlsProblem::WrongName
            }
            CertificateError::Expired | CertificateError::ExpiredContext { .. } => {
                TlsProblem::Expired
            }
            CertificateError::UnknownIssuer => TlsProblem::UnknownAuthority,
            CertificateError::Other(o) if o.0.downcast_ref::<SelfSigned>().is_some() => {
                TlsProblem::SelfSigned
            }
            other => TlsProblem::Other(format!("the server's certificate: {other:?}")),
        },
        // What came back is not TLS at all (a plain server's HTTP answer).
        rustls::Error::InvalidMessage(_) => TlsProblem::NotTls,
        other => TlsProblem::Other(other.to_string()),
    }
}

/// A connection, plain or encrypted.
pub enum Stream {
    /// `ws://` (keeping its first bytes: a TLS server's answer tells that it wants `wss://`).
    Plain(Recording),
    /// `wss://`.
    Tls(Box<rustls::StreamOwned<rustls::ClientConnection, TcpStream>>),
}

impl Stream {
    /// The socket under it (for its timeouts).
    pub fn tcp(&self) -> &TcpStream {
        match self {
            Stream::Plain(s) => &s.tcp,
            Stream::Tls(s) => s.get_ref(),
        }
    }
}

impl Read for Stream {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match self {
            Stream::Plain(s) => s.read(buf),
            Stream::Tls(s) => s.read(buf),
        }
    }
}

impl Write for Stream {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Stream::Plain(s) => s.write(buf),
            Stream::Tls(s) => s.write(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Stream::Plain(s) => s.flush(),
            Stream::Tls(s) => s.flush(),
        }
    }
}

/// The TLS handshake with `host` over `tcp`, done before anything else is sent.
pub fn handshake(
    mut tcp: TcpStream,
    host: &str,
    config: Arc<rustls::ClientConfig>,
) -> Result<Stream, TlsProblem> {
    let name = ServerName::try_from(host.to_string())
        .map_err(|_| TlsProblem::Other(format!("'{host}' is not a name a certificate can have")))?;
    let mut conn = rustls::ClientConnection::new(config, name)
        .map_err(|e| TlsProblem::Other(e.to_string()))?;
    while conn.is_handshaking() {
        if let Err(e) = conn.complete_io(&mut tcp) {
            let inner = e
                .get_ref()
                .and_then(|i| i.downcast_ref::<rustls::Error>())
                .map(problem);
            return Err(match inner {
                Some(p) => p,
                // Closed during the handshake: no TLS server answered.
                None if e.kind() == std::io::ErrorKind::UnexpectedEof => TlsProblem::NotTls,
                None => TlsProblem::Io(e.to_string()),
            });
        }
    }
    Ok(Stream::Tls(Box::new(rustls::StreamOwned::new(conn, tcp))))
}

/// Whether `first` (the first bytes a plain connection got back) are TLS's: a server that
/// wants an encrypted connection answered a plain request with a TLS record (an alert).
pub fn looks_like_tls(first: &[u8]) -> bool {
    matches!(first, [0x15 | 0x16, 0x03, ..])
}

/// A plain socket that keeps the first bytes it reads (to tell a TLS server's answer).
pub struct Recording {
    /// The socket.
    pub tcp: TcpStream,
    /// Up to the first five bytes read.
    pub first: Arc<Mutex<Vec<u8>>>,
}

impl Read for Recording {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.tcp.read(buf)?;
        if let Ok(mut first) = self.first.lock() {
            let room = 5usize.saturating_sub(first.len());
            first.extend_from_slice(&buf[..n.min(room)]);
        }
        Ok(n)
    }
}

impl Write for Recording {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.tcp.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.tcp.flush()
    }
}

/// Just enough DER to read a certificate's issuer and subject.
mod der {
    /// One DER element: (tag, content, the rest after it).
    fn element(data: &[u8]) -> Option<(u8, &[u8], &[u8])> {
        let (&tag, rest) = data.split_first()?;
        let (&len0, rest) = rest.split_first()?;
        let (len, rest) = if len0 < 0x80 {
            (len0 as usize, rest)
        } else {
            let n = (len0 & 0x7f) as usize;
            if n == 0 || n > 4 || rest.len() < n {
                return None;
            }
            let len = rest[..n].iter().fold(0usize, |a, b| (a << 8) | *b as usize);
            (len, &rest[n..])
        };
        if rest.len() < len {
            return None;
        }
        Some((tag, &rest[..len], &rest[len..]))
    }

    /// Whether the certificate names itself as its issuer.
    pub fn self_signed(cert: &[u8]) -> bool {
        let parts = || -> Option<(Vec<u8>, Vec<u8>)> {
            let (_, certificate, _) = element(cert)?;
            let (_, tbs, _) = element(certificate)?;
            let mut rest = tbs;
            // [0] version, if there.
            if rest.first() == Some(&0xa0) {
                rest = element(rest)?.2;
            }
            let (_, _, rest) = element(rest)?; // serial number
            let (_, _, rest) = element(rest)?; // signature algorithm
            let (_, issuer, rest) = element(rest)?;
            let (_, _, rest) = element(rest)?; // validity
            let (_, subject, _) = element(rest)?;
            Some((issuer.to_vec(), subject.to_vec()))
        };
        matches!(parts(), Some((issuer, subject)) if issuer == subject)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tls_answer_is_told_from_http() {
        assert!(looks_like_tls(&[0x15, 0x03, 0x03, 0x00, 0x02]));
        assert!(!looks_like_tls(b"HTTP/1.1 400"));
        assert!(!looks_like_tls(&[]));
    }

    #[test]
    fn the_public_roots_are_there_and_a_bad_extra_root_is_said() {
        assert!(client_config(&[]).is_ok());
        assert!(client_config(&[vec![1, 2, 3]]).is_err());
        assert!(pem_certificates("not pem").is_err());
    }
}
