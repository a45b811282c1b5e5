//! The server's own TLS (`--tls-cert FILE --tls-key FILE`, PEM): rustls with Graviola's
//! cryptography (the same as the app's), TLS 1.2 and 1.3.
//!
//! The certificate files are read again when they change — a renewal (certbot, acme.sh) needs
//! no restart: each handshake looks at the files' times at most once a second, and a new
//! certificate that does not read is logged and the one before kept.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant, SystemTime};

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::server::{ClientHello, ResolvesServerCert};
use rustls::sign::CertifiedKey;

use crate::log;

/// How often the files' times are looked at, at most.
const LOOK_EVERY: Duration = Duration::from_secs(1);

/// The cryptography: Graviola's.
fn provider() -> Arc<rustls::crypto::CryptoProvider> {
    Arc::new(rustls_graviola::default_provider())
}

/// The certificate and key the server shows, read again when their files change.
#[derive(Debug)]
pub struct Certificate {
    cert_path: PathBuf,
    key_path: PathBuf,
    provider: Arc<rustls::crypto::CryptoProvider>,
    /// The one shown, and the files' times it was read at.
    now: RwLock<(Arc<CertifiedKey>, Option<SystemTime>, Option<SystemTime>)>,
    /// When the files' times were last looked at.
    looked: Mutex<Instant>,
}

fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// Reads a PEM certificate chain and its private key.
fn read(
    cert_path: &Path,
    key_path: &Path,
    provider: &rustls::crypto::CryptoProvider,
) -> Result<CertifiedKey, String> {
    let certs: Result<Vec<CertificateDer<'static>>, _> = CertificateDer::pem_file_iter(cert_path)
        .map_err(|e| format!("cannot read {}: {e:?}", cert_path.display()))?
        .collect();
    let certs = certs.map_err(|e| format!("{}: {e:?}", cert_path.display()))?;
    if certs.is_empty() {
        return Err(format!("{}: no certificate in it", cert_path.display()));
    }
    let key = PrivateKeyDer::from_pem_file(key_path)
        .map_err(|e| format!("cannot read the key {}: {e:?}", key_path.display()))?;
    let key = provider
        .key_provider
        .load_private_key(key)
        .map_err(|e| format!("{}: {e}", key_path.display()))?;
    let certified = CertifiedKey::new(certs, key);
    certified
        .keys_match()
        .map_err(|e| format!("the key does not match the certificate: {e}"))?;
    Ok(certified)
}

impl Certificate {
    /// Reads the files (an error says which and why).
    pub fn open(cert_path: &Path, key_path: &Path) -> Result<Arc<Certificate>, String> {
        let provider = provider();
        let key = read(cert_path, key_path, &provider)?;
        Ok(Arc::new(Certificate {
            cert_path: cert_path.to_path_buf(),
            key_path: key_path.to_path_buf(),
            provider,
            now: RwLock::new((Arc::new(key), modified(cert_path), modified(key_path))),
            looked: Mutex::new(Instant::now()),
        }))
    }

    /// Reads the files again if they changed since they were read.
    fn refresh(&self) {
        {
            let mut looked = self.looked.lock().unwrap_or_else(|e| e.into_inner());
            if looked.elapsed() < LOOK_EVERY {
                return;
            }
            *looked = Instant::now();
        }
        let (cert_time, key_time) = (modified(&self.cert_path), modified(&self.key_path));
        {
            let now = self.now.read().unwrap_or_else(|e| e.into_inner());
            if now.1 == cert_time && now.2 == key_time {
                return;
            }
        }
        match read(&self.cert_path, &self.key_path, &self.provider) {
            Ok(key) => {
                *self.now.write().unwrap_or_else(|e| e.into_inner()) =
                    (Arc::new(key), cert_time, key_time);
                log!(
                    "the TLS certificate {} was read again",
                    self.cert_path.display()
                );
            }
            // Half written (a renewal under way), or broken: the one before stays, and it is
            // read again once the files change once more.
            Err(e) => {
                log!("the new TLS certificate does not read, the old one stays: {e}");
                let mut now = self.now.write().unwrap_or_else(|e| e.into_inner());
                now.1 = cert_time;
                now.2 = key_time;
            }
        }
    }

    /// The TLS settings of a server showing this certificate.
    pub fn server_config(self: &Arc<Self>) -> Result<Arc<rustls::ServerConfig>, String> {
        let mut config = rustls::ServerConfig::builder_with_provider(Arc::clone(&self.provider))
            .with_safe_default_protocol_versions()
            .map_err(|e| e.to_string())?
            .with_no_client_auth()
            .with_cert_resolver(Arc::clone(self) as Arc<dyn ResolvesServerCert>);
        config.alpn_protocols = vec![b"http/1.1".to_vec()];
        Ok(Arc::new(config))
    }
}

impl ResolvesServerCert for Certificate {
    fn resolve(&self, _hello: ClientHello<'_>) -> Option<Arc<CertifiedKey>> {
        self.refresh();
        Some(Arc::clone(
            &self.now.read().unwrap_or_else(|e| e.into_inner()).0,
        ))
    }
}
