//! The browser version, served from the folder `scripts/build-web.sh` builds (`--web DIR`):
//!
//! ```text
//! DIR/index.html                 the page: / and every /join/CODE and /watch/CODE
//! DIR/app/<build>/takhte.js      the app's loader and WebAssembly, in a folder named after
//! DIR/app/<build>/takhte_bg.wasm the build (a hash of its files), each with a .gz beside it
//! DIR/app/<build>/worker.js …     the computer's Web Worker and its WebAssembly
//! DIR/sw.js                      the service worker (keeps the build for offline play)
//! DIR/manifest.{en,fa}.webmanifest  the installable app's manifests
//! DIR/icons/*.png                its icons
//! ```
//!
//! The page is never kept by a browser without asking (`no-cache`: an upgrade is seen at the
//! next load), and it names the build's folder; a build's files never change under their name,
//! so they are kept for a year (`immutable`). A file with a `.br` or `.gz` beside it is sent
//! compressed to a browser that takes Brotli or gzip (Brotli first: the app is 2.0 MB so,
//! 2.9 MB in gzip). The page is read at each request and a build's files once
//! (kept in memory, read again if replaced): a new build put there is served without a restart. Only names of letters, digits, `.`, `-` and `_`
//! under `app/` are served; anything else is not found.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use axum::extract::{Path as UrlPath, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::hub::Hub;

fn not_found() -> Response {
    (StatusCode::NOT_FOUND, "not found\n").into_response()
}

/// The content type of a built file, by its extension.
pub fn content_type(name: &str) -> &'static str {
    match name.rsplit('.').next().unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "webmanifest" => "application/manifest+json",
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
    plain_path(dir.join("app"), rel)
}

/// The file under `base` that `rel` names, on the terms of [`app_path`].
fn plain_path(base: PathBuf, rel: &str) -> Option<PathBuf> {
    let mut path = base;
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

/// Whether the browser takes the content coding `coding` (`gzip`, `br`): its quality when
/// named, else the wildcard's.
fn accepts(headers: &HeaderMap, coding: &str) -> bool {
    let mut named = None;
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
        if name.eq_ignore_ascii_case(coding) {
            named = Some(q);
        } else if name == "*" {
            any = Some(q);
        }
    }
    named.or(any).is_some_and(|q| q > 0.0)
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
    // Brotli (smaller) before gzip, each when the file has it and the browser takes it.
    let mut body = None;
    let mut coding = None;
    for (ext, name) in [(".br", "br"), (".gz", "gzip")] {
        if !accepts(headers, name) {
            continue;
        }
        let mut packed = path.as_os_str().to_owned();
        packed.push(ext);
        if let Some(b) = read_cached(&PathBuf::from(packed)).await {
            (body, coding) = (Some(b), Some(name));
            break;
        }
    }
    if body.is_none() {
        body = read_cached(path).await;
    }
    let Some(body) = body else {
        return not_found();
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
    if let Some(coding) = coding {
        h.insert(header::CONTENT_ENCODING, HeaderValue::from_static(coding));
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

/// The files of the installable app at the top of the site: the service worker and the
/// manifests (asked again at each visit: `no-cache`, so a new build is found) and the icons.
pub async fn site_file(
    uri: axum::http::Uri,
    headers: HeaderMap,
    State(hub): State<Arc<Hub>>,
) -> Response {
    let Some(dir) = hub.config.web_dir.clone() else {
        return not_found();
    };
    let path = uri.path();
    let (file, cache) = match path {
        "/sw.js" | "/manifest.en.webmanifest" | "/manifest.fa.webmanifest" => {
            (dir.join(&path[1..]), "no-cache")
        }
        _ => match path
            .strip_prefix("/icons/")
            .and_then(|name| plain_path(dir.join("icons"), name))
        {
            Some(file) => (file, "public, max-age=86400"),
            None => return not_found(),
        },
    };
    send_file(&file, &headers, cache).await
}

/// `/app/<build>/<file>`: a built file, kept by browsers for a year (its name changes with
/// every build).
pub async fn app_file(
    UrlPath(file): UrlPath<String>,
    headers: HeaderMap,
    State(hub): State<Arc<Hub>>,
) -> Response {
    let Some(dir) = hub.config.web_dir.clone() else {
        return not_found();
    };
    match app_path(&dir, &file) {
        Some(path) => send_file(&path, &headers, "public, max-age=31536000, immutable").await,
        None => not_found(),
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
    fn a_coding_when_the_browser_takes_it() {
        let with = |v: &str, coding: &str| {
            let mut h = HeaderMap::new();
            h.insert(header::ACCEPT_ENCODING, HeaderValue::from_str(v).unwrap());
            accepts(&h, coding)
        };
        assert!(with("gzip, deflate, br", "gzip"));
        assert!(with("gzip, deflate, br", "br"));
        assert!(with("br;q=1.0, gzip;q=0.8", "gzip"));
        assert!(with("*", "gzip"));
        assert!(!with("br", "gzip"));
        assert!(!with("gzip", "br"));
        assert!(!with("gzip;q=0", "gzip"));
        assert!(!with("gzip;q=0, *", "gzip"));
        assert!(!with("br;q=0, *", "br"));
        assert!(with("identity, *;q=0.5", "gzip"));
        assert!(!accepts(&HeaderMap::new(), "gzip"));
    }

    #[test]
    fn content_types() {
        assert_eq!(content_type("takhte_bg.wasm"), "application/wasm");
        assert_eq!(content_type("takhte.js"), "text/javascript; charset=utf-8");
        assert_eq!(content_type("index.html"), "text/html; charset=utf-8");
    }
}
