//! The browser version, served from the folder `scripts/build-web.sh` builds (`--web DIR`):
//!
//! ```text
//! DIR/index.html                 the page: / and every /join/CODE and /watch/CODE
//! DIR/app/<build>/takhte.js      the app's loader and WebAssembly, in a folder named after
//! DIR/app/<build>/takhte_bg.wasm the build (a hash of its files), each with a .gz beside it
//! ```
//!
//! The page is never kept by a browser without asking (`no-cache`: an upgrade is seen at the
//! next load), and it names the build's folder; a build's files never change under their name,
//! so they are kept for a year (`immutable`). A file with a `.gz` beside it is sent compressed
//! to a browser that accepts gzip. The page is read at each request and a build's files once
//! (kept in memory, read again if replaced): a new build put there is served without a restart. Only names of letters, digits, `.`, `-` and `_`
//! under `app/` are served; anything else is not found.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use axum::extract::{Path as UrlPath, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::hub::Hub;

/// The content type of a built file, by its extension.
pub fn content_type(name: &str) -> &'static str {
    match name.rsplit('.').next().unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "png" => "image/png",
        "svg" => "image/svg+xml",
        "ico" => "image/x-icon",
        "txt" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// The file under `dir/app` that `rel` names, or `None` for a name that could leave it (or
/// that holds anything but letters, digits, `.`, `-`, `_` and `/` between parts).
pub fn app_path(dir: &Path, rel: &str) -> Option<PathBuf> {
    let mut path = dir.join("app");
    for part in rel.split('/') {
        let fine = !part.is_empty()
            && !part.starts_with('.')
            && part
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'));
        if !fine {
            return None;
        }
        path.push(part);
    }
    Some(path)
}

fn accepts_gzip(headers: &HeaderMap) -> bool {
    // The quality of each coding named; an explicit gzip counts before the wildcard.
    let mut gzip = None;
    let mut any = None;
    for e in headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
    {
        let mut parts = e.split(';');
        let name = parts.next().unwrap_or("").trim();
        let q = parts
            .find_map(|p| p.trim().strip_prefix("q="))
            .and_then(|q| q.trim().parse::<f32>().ok())
            .unwrap_or(1.0);
        if name.eq_ignore_ascii_case("gzip") {
            gzip = Some(q);
        } else if name == "*" {
            any = Some(q);
        }
    }
    gzip.or(any).is_some_and(|q| q > 0.0)
}

/// The built files read so far, by path, with the modification time they were read at: a
/// build's files never change under their name, so each is read from the disk once (and again
/// only if it was replaced), however many browsers load it.
type Cached = (std::time::SystemTime, axum::body::Bytes);

fn cache() -> &'static std::sync::Mutex<std::collections::HashMap<PathBuf, Cached>> {
    static CACHE: std::sync::OnceLock<
        std::sync::Mutex<std::collections::HashMap<PathBuf, Cached>>,
    > = std::sync::OnceLock::new();
    CACHE.get_or_init(Default::default)
}

/// The file's bytes, from the cache when it has not changed since.
async fn read_cached(path: &Path) -> Option<axum::body::Bytes> {
    let modified = tokio::fs::metadata(path).await.ok()?.modified().ok()?;
    if let Ok(c) = cache().lock() {
        if let Some((m, b)) = c.get(path) {
            if *m == modified {
                return Some(b.clone());
            }
        }
    }
    let bytes = axum::body::Bytes::from(tokio::fs::read(path).await.ok()?);
    if let Ok(mut c) = cache().lock() {
        // The folder holds a few builds; a stale entry is replaced, never piled up.
        if c.len() > 64 {
            c.clear();
        }
        c.insert(path.to_path_buf(), (modified, bytes.clone()));
    }
    Some(bytes)
}

/// A built file: compressed when there is a `.gz` and the browser takes it.
async fn send_file(path: &Path, headers: &HeaderMap, cache: &'static str) -> Response {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    let kind = content_type(name);
    let mut gz = path.as_os_str().to_owned();
    gz.push(".gz");
    let (body, compressed) = match accepts_gzip(headers) {
        true => match read_cached(&PathBuf::from(gz)).await {
            Some(b) => (Some(b), true),
            None => (read_cached(path).await, false),
        },
        false => (read_cached(path).await, false),
    };
    let Some(body) = body else {
        return (StatusCode::NOT_FOUND, "not found\n").into_response();
    };
    let mut r = body.into_response();
    let h = r.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    h.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    if compressed {
        h.insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
    }
    r
}

/// The app's page, when the server has the browser version (`None`: it has not).
pub async fn app_page(hub: &Hub) -> Option<Response> {
    let dir = hub.config.web_dir.clone()?;
    Some(
        // The page is read each time (a new build needs no restart); it is small.
        match tokio::fs::read(dir.join("index.html")).await {
            Ok(body) => {
                let mut r = body.into_response();
                let h = r.headers_mut();
                h.insert(
                    header::CONTENT_TYPE,
                    HeaderValue::from_static(content_type("index.html")),
                );
                h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
                r
            }
            Err(_) => (
                StatusCode::SERVICE_UNAVAILABLE,
                "the browser version's files are missing on the server\n",
            )
                .into_response(),
        },
    )
}

/// `/watch/CODE`: the app, which opens that game to watch; without the browser version, the
/// same page as an invite's.
pub async fn watch_page(UrlPath(code): UrlPath<String>, State(hub): State<Arc<Hub>>) -> Response {
    match app_page(&hub).await {
        Some(page) => page,
        None => {
            let code = takhte_protocol::code::normalize(&code).unwrap_or_default();
            let body = if code.is_empty() {
                "This link is not valid.\n".to_string()
            } else {
                format!("Watch this game in the Takhte app: type the code {code}\n")
            };
            (StatusCode::OK, body).into_response()
        }
    }
}

/// `/app/<build>/<file>`: a built file, kept by browsers for a year (its name changes with
/// every build).
pub async fn app_file(
    UrlPath(file): UrlPath<String>,
    headers: HeaderMap,
    State(hub): State<Arc<Hub>>,
) -> Response {
    let Some(dir) = hub.config.web_dir.clone() else {
        return (StatusCode::NOT_FOUND, "not found\n").into_response();
    };
    match app_path(&dir, &file) {
        Some(path) => send_file(&path, &headers, "public, max-age=31536000, immutable").await,
        None => (StatusCode::NOT_FOUND, "not found\n").into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_names_under_app_are_served() {
        let dir = Path::new("/srv/web");
        assert_eq!(
            app_path(dir, "1a2b/takhte_bg.wasm"),
            Some(PathBuf::from("/srv/web/app/1a2b/takhte_bg.wasm"))
        );
        for bad in [
            "../index.html",
            "1a2b/../../etc/passwd",
            "/etc/passwd",
            "1a2b//x.js",
            ".hidden",
            "a b.js",
            "x%2F..",
            "1a2b/..",
        ] {
            assert_eq!(app_path(dir, bad), None, "{bad}");
        }
    }

    #[test]
    fn gzip_when_the_browser_takes_it() {
        let with = |v: &str| {
            let mut h = HeaderMap::new();
            h.insert(header::ACCEPT_ENCODING, HeaderValue::from_str(v).unwrap());
            accepts_gzip(&h)
        };
        assert!(with("gzip, deflate, br"));
        assert!(with("br;q=1.0, gzip;q=0.8"));
        assert!(with("*"));
        assert!(!with("br"));
        assert!(!with("gzip;q=0"));
        assert!(!with("gzip;q=0, *"));
        assert!(with("identity, *;q=0.5"));
        assert!(!accepts_gzip(&HeaderMap::new()));
    }

    #[test]
    fn content_types() {
        assert_eq!(content_type("takhte_bg.wasm"), "application/wasm");
        assert_eq!(content_type("takhte.js"), "text/javascript; charset=utf-8");
        assert_eq!(content_type("index.html"), "text/html; charset=utf-8");
    }
}
