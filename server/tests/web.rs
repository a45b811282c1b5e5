//! The browser version's files, served by a real server on loopback (`--web DIR`): the page at
//! `/`, `/join/CODE` and `/watch/CODE` (never cached without asking), a build's files with their
//! content types, gzip when asked for, kept for a year; nothing outside `app/`; and without
//! `--web`, the invite page as before.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;

/// One request; the status line's code, the headers (lower case) and the body.
fn get(addr: &str, path: &str, extra: &str) -> (u16, Vec<(String, String)>, Vec<u8>) {
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\n{extra}Connection: close\r\n\r\n"
    )
    .unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).unwrap();
    let end = raw.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    let head = String::from_utf8_lossy(&raw[..end]).to_string();
    let mut lines = head.lines();
    let code = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    (code, headers, raw[end + 4..].to_vec())
}

fn header<'a>(h: &'a [(String, String)], name: &str) -> Option<&'a str> {
    h.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
}

fn build(dir: &Path) {
    let app = dir.join("app").join("0123abcd");
    std::fs::create_dir_all(&app).unwrap();
    std::fs::write(dir.join("index.html"), "<!doctype html><p>the page</p>").unwrap();
    std::fs::write(app.join("takhte_bg.wasm"), b"\0asm plain").unwrap();
    std::fs::write(app.join("takhte_bg.wasm.gz"), b"\x1f\x8b compressed").unwrap();
    std::fs::write(app.join("takhte_bg.wasm.br"), b"brotli bytes").unwrap();
    std::fs::write(app.join("takhte.js"), "export default 1;").unwrap();
    std::fs::write(dir.join("secret.txt"), "not served").unwrap();
    std::fs::write(dir.join("sw.js"), "// the service worker").unwrap();
    std::fs::write(dir.join("manifest.fa.webmanifest"), "{\"lang\": \"fa\"}").unwrap();
    std::fs::create_dir_all(dir.join("icons")).unwrap();
    std::fs::write(dir.join("icons").join("icon-192.png"), b"\x89PNG").unwrap();
}

#[test]
fn the_server_serves_the_browser_version() {
    let dir = tempfile::tempdir().unwrap();
    let web = dir.path().join("web");
    build(&web);
    let config = takhte_server::hub::Config {
        web_dir: Some(web.clone()),
        ..Default::default()
    };
    let addr =
        takhte_server::spawn_server("127.0.0.1:0", &dir.path().join("s.sqlite"), config).unwrap();

    for page in ["/", "/join/K7M3QX", "/watch/K7M3QX"] {
        let (code, h, body) = get(&addr, page, "");
        assert_eq!(code, 200, "{page}");
        assert_eq!(body, b"<!doctype html><p>the page</p>", "{page}");
        assert_eq!(header(&h, "content-type"), Some("text/html; charset=utf-8"));
        assert_eq!(header(&h, "cache-control"), Some("no-cache"), "{page}");
    }

    // Brotli to a browser that takes it, gzip to one that takes only gzip, plain to one that
    // takes neither.
    let wasm = "/app/0123abcd/takhte_bg.wasm";
    let (code, h, body) = get(&addr, wasm, "Accept-Encoding: gzip, deflate, br\r\n");
    assert_eq!(code, 200);
    assert_eq!(body, b"brotli bytes");
    assert_eq!(header(&h, "content-encoding"), Some("br"));
    let (code, h, body) = get(&addr, wasm, "Accept-Encoding: gzip, deflate\r\n");
    assert_eq!(code, 200);
    assert_eq!(body, b"\x1f\x8b compressed");
    assert_eq!(header(&h, "content-encoding"), Some("gzip"));
    assert_eq!(header(&h, "content-type"), Some("application/wasm"));
    assert_eq!(
        header(&h, "cache-control"),
        Some("public, max-age=31536000, immutable")
    );
    assert_eq!(header(&h, "vary"), Some("accept-encoding"));
    let (_, h, body) = get(&addr, wasm, "");
    assert_eq!(body, b"\0asm plain");
    assert_eq!(header(&h, "content-encoding"), None);
    // A file without a .gz is sent plain even to a gzip browser.
    let (code, h, body) = get(
        &addr,
        "/app/0123abcd/takhte.js",
        "Accept-Encoding: gzip\r\n",
    );
    assert_eq!((code, body.as_slice()), (200, &b"export default 1;"[..]));
    assert_eq!(header(&h, "content-encoding"), None);
    assert_eq!(
        header(&h, "content-type"),
        Some("text/javascript; charset=utf-8")
    );

    // The installable app's files at the top: asked again at each visit (a new build is
    // found), the icons kept a day; nothing else at the top, nothing hidden under icons/.
    for (path, kind, body) in [
        (
            "/sw.js",
            "text/javascript; charset=utf-8",
            &b"// the service worker"[..],
        ),
        (
            "/manifest.fa.webmanifest",
            "application/manifest+json",
            &b"{\"lang\": \"fa\"}"[..],
        ),
    ] {
        let (code, h, got) = get(&addr, path, "Accept-Encoding: gzip, br\r\n");
        assert_eq!((code, got.as_slice()), (200, body), "{path}");
        assert_eq!(header(&h, "content-type"), Some(kind), "{path}");
        assert_eq!(header(&h, "cache-control"), Some("no-cache"), "{path}");
    }
    let (code, h, got) = get(&addr, "/icons/icon-192.png", "");
    assert_eq!((code, got.as_slice()), (200, &b"\x89PNG"[..]));
    assert_eq!(header(&h, "content-type"), Some("image/png"));
    assert_eq!(header(&h, "cache-control"), Some("public, max-age=86400"));
    for bad in [
        "/manifest.en.webmanifest",
        "/icons/.x",
        "/icons/..%2Fsw.js",
        "/icons/",
        "/index.html.bak",
    ] {
        assert_eq!(get(&addr, bad, "").0, 404, "{bad}");
    }

    // Nothing outside app/, nothing missing.
    for bad in [
        "/app/../secret.txt",
        "/app/%2e%2e/secret.txt",
        "/app/0123abcd/..%2F..%2Fsecret.txt",
        "/app/0123abcd/missing.js",
        "/app/.hidden",
        "/secret.txt",
    ] {
        let (code, _, body) = get(&addr, bad, "");
        assert_eq!(code, 404, "{bad}");
        assert!(
            !String::from_utf8_lossy(&body).contains("not served"),
            "{bad}"
        );
    }

    // A new build put in the folder is served without a restart.
    std::fs::write(web.join("index.html"), "<p>the next build</p>").unwrap();
    assert_eq!(get(&addr, "/", "").2, b"<p>the next build</p>");
}

#[test]
fn without_the_browser_version_links_point_to_the_app() {
    let dir = tempfile::tempdir().unwrap();
    let addr = takhte_server::spawn_server(
        "127.0.0.1:0",
        &dir.path().join("s.sqlite"),
        takhte_server::hub::Config::default(),
    )
    .unwrap();
    let (code, _, body) = get(&addr, "/join/K7M3QX", "");
    assert_eq!(code, 200);
    assert!(String::from_utf8_lossy(&body).contains("takhte://join/K7M3QX"));
    let (code, _, body) = get(&addr, "/watch/K7M3QX", "");
    assert_eq!(code, 200);
    assert!(String::from_utf8_lossy(&body).contains("K7M3QX"));
    let (code, _, _) = get(&addr, "/app/x/takhte.js", "");
    assert_eq!(code, 404);
}
