//! A small client of the W3C WebDriver protocol, enough to drive Debian's headless Chromium
//! through `chromedriver`: open pages, run a script, click and type (real input events, into
//! the app's canvas), reload, size the window and take screenshots.

#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// A running chromedriver, stopped when dropped.
pub struct Driver {
    child: Child,
    port: u16,
    _turn: Turn,
}

/// The browser tests run side by side, except one that measures the page's frames, which runs
/// alone ([`Driver::start_alone`]): another browser drawing beside it would be measured too.
static TURNS: std::sync::RwLock<()> = std::sync::RwLock::new(());

#[allow(dead_code)]
enum Turn {
    Shared(std::sync::RwLockReadGuard<'static, ()>),
    Alone(std::sync::RwLockWriteGuard<'static, ()>),
}

impl Driver {
    /// Starts `chromedriver` on a free port of loopback.
    pub fn start() -> Driver {
        let turn = Turn::Shared(TURNS.read().unwrap_or_else(|e| e.into_inner()));
        Driver::start_with(turn)
    }

    /// As [`Driver::start`], once no other browser test runs, and none starts until it ends.
    #[allow(dead_code)]
    pub fn start_alone() -> Driver {
        let turn = Turn::Alone(TURNS.write().unwrap_or_else(|e| e.into_inner()));
        Driver::start_with(turn)
    }

    fn start_with(turn: Turn) -> Driver {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new(std::env::var("CHROMEDRIVER").unwrap_or("chromedriver".into()))
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver (Debian's chromium-driver) must be installed");
        let d = Driver {
            child,
            port,
            _turn: turn,
        };
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            if let Ok(v) = d.call("GET", "/status", None) {
                if v["value"]["ready"].as_bool() == Some(true) {
                    return d;
                }
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        panic!("chromedriver did not start");
    }

    fn call(&self, method: &str, path: &str, body: Option<&Value>) -> Result<Value, String> {
        let mut s = TcpStream::connect(("127.0.0.1", self.port)).map_err(|e| e.to_string())?;
        s.set_read_timeout(Some(Duration::from_secs(120))).ok();
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        let req = format!(
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.port,
            body.len()
        );
        s.write_all(req.as_bytes()).map_err(|e| e.to_string())?;
        // Read the head, then as much body as it announces (the driver may keep the socket).
        let mut raw = Vec::new();
        let mut buf = [0u8; 65536];
        let head_end = loop {
            if let Some(i) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
                break i + 4;
            }
            let n = s.read(&mut buf).map_err(|e| e.to_string())?;
            if n == 0 {
                return Err("the driver closed the connection".into());
            }
            raw.extend_from_slice(&buf[..n]);
        };
        let head = String::from_utf8_lossy(&raw[..head_end]).to_ascii_lowercase();
        let length = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length:"))
            .and_then(|v| v.trim().parse::<usize>().ok());
        match length {
            Some(n) => {
                while raw.len() < head_end + n {
                    let k = s.read(&mut buf).map_err(|e| e.to_string())?;
                    if k == 0 {
                        break;
                    }
                    raw.extend_from_slice(&buf[..k]);
                }
            }
            None => {
                let _ = s.read_to_end(&mut raw);
            }
        }
        let rest = String::from_utf8_lossy(&raw[head_end..]).to_string();
        let body = if head.contains("transfer-encoding: chunked") {
            dechunk(&rest)
        } else {
            rest
        };
        serde_json::from_str(&body).map_err(|e| format!("{e}: {body}"))
    }

    /// A new browser session: its own empty profile (so its own storage and player), the
    /// window `w`×`h` CSS pixels, the interface language `lang` ("en-US", "fa").
    pub fn session(&self, w: u32, h: u32, lang: &str) -> Session<'_> {
        let profile = tempfile::tempdir().unwrap();
        let args = vec![
            "--headless=new".to_string(),
            "--no-sandbox".into(),
            "--disable-dev-shm-usage".into(),
            "--use-angle=swiftshader".into(),
            "--enable-unsafe-swiftshader".into(),
            "--disable-background-networking".into(),
            "--disable-component-update".into(),
            "--disable-sync".into(),
            "--disable-quic".into(),
            "--no-first-run".into(),
            "--force-device-scale-factor=1".into(),
            format!("--lang={lang}"),
            format!("--window-size={w},{h}"),
            format!("--user-data-dir={}", profile.path().display()),
        ];
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": std::env::var("CHROMIUM").unwrap_or("/usr/bin/chromium".into()),
                "args": args,
                "prefs": {"intl.accept_languages": lang},
            },
            "goog:loggingPrefs": {"browser": "ALL"},
        }}});
        let v = self.call("POST", "/session", Some(&caps)).unwrap();
        let id = v["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {v}"))
            .to_string();
        let s = Session {
            driver: self,
            id,
            _profile: profile,
        };
        s.resize(w, h);
        s
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn dechunk(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some((size, tail)) = rest.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || tail.len() < n {
            break;
        }
        out.push_str(&tail[..n]);
        rest = tail[n..].trim_start_matches("\r\n");
    }
    out
}

/// One browser (window, profile) driven by the test.
pub struct Session<'d> {
    driver: &'d Driver,
    id: String,
    _profile: tempfile::TempDir,
}

impl Session<'_> {
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let v = self
            .driver
            .call(
                method,
                &format!("/session/{}{path}", self.id),
                body.as_ref(),
            )
            .unwrap_or_else(|e| panic!("{method} {path}: {e}"));
        if v["value"]["error"].is_string() {
            panic!("{method} {path}: {}", v["value"]);
        }
        v["value"].clone()
    }

    /// Opens `url`.
    pub fn open(&self, url: &str) {
        self.call("POST", "/url", Some(json!({ "url": url })));
    }

    /// The browser's back button.
    pub fn back(&self) {
        self.call("POST", "/back", Some(json!({})));
    }

    /// A DevTools protocol command on the page (`Page.getInstallabilityErrors`, …): its result.
    pub fn cdp(&self, cmd: &str, params: Value) -> Value {
        self.call(
            "POST",
            "/goog/cdp/execute",
            Some(json!({"cmd": cmd, "params": params})),
        )
    }

    /// Reloads the page.
    pub fn reload(&self) {
        self.call("POST", "/refresh", Some(json!({})));
    }

    /// Sizes the window's page area to `w`×`h` CSS pixels.
    pub fn resize(&self, w: u32, h: u32) {
        self.call(
            "POST",
            "/window/rect",
            Some(json!({"width": w, "height": h})),
        );
        // The window's frame (if any) is outside the page: make the page itself w×h.
        let inner = self.js("return [window.innerWidth, window.innerHeight];");
        let (iw, ih) = (
            inner[0].as_u64().unwrap_or(0),
            inner[1].as_u64().unwrap_or(0),
        );
        if (iw, ih) != (u64::from(w), u64::from(h)) && iw > 0 {
            self.call(
                "POST",
                "/window/rect",
                Some(json!({"width": 2 * w as u64 - iw, "height": 2 * h as u64 - ih})),
            );
        }
    }

    /// Slows the browser's network to `kbit_s` kilobits a second each way with `latency_ms`
    /// of latency (chromedriver's network conditions), or takes it down (`offline`).
    pub fn network(&self, offline: bool, latency_ms: u64, kbit_s: u64) {
        let bytes = kbit_s * 1000 / 8;
        self.call(
            "POST",
            "/chromium/network_conditions",
            Some(json!({"network_conditions": {
                "offline": offline,
                "latency": latency_ms,
                "download_throughput": bytes,
                "upload_throughput": bytes,
            }})),
        );
    }

    /// Runs `script` in the page (its `return` value back as JSON).
    pub fn js(&self, script: &str) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": []})),
        )
    }

    /// The app's probe (`web::probe`): its screen, moves, and so on.
    pub fn probe(&self) -> Value {
        let text = self.js("return window.takhte ? window.takhte.probe() : '{}';");
        serde_json::from_str(text.as_str().unwrap_or("{}")).unwrap_or(Value::Null)
    }

    /// Where the element labelled `label` is drawn (x, y, w, h), if it is.
    pub fn locate(&self, label: &str) -> Option<(f64, f64, f64, f64)> {
        self.locate_in(label, false)
    }

    /// Where the last element labelled `label` is drawn (a dialog's button, above the screen).
    pub fn locate_last(&self, label: &str) -> Option<(f64, f64, f64, f64)> {
        self.locate_in(label, true)
    }

    fn locate_in(&self, label: &str, last: bool) -> Option<(f64, f64, f64, f64)> {
        let text = self.js(&format!(
            "return window.takhte ? window.takhte.locate({}, {last}) : 'null';",
            json!(label)
        ));
        let v: Value = serde_json::from_str(text.as_str().unwrap_or("null")).ok()?;
        Some((
            v["x"].as_f64()?,
            v["y"].as_f64()?,
            v["w"].as_f64()?,
            v["h"].as_f64()?,
        ))
    }

    /// A real click (mouse down and up) at (x, y) of the page.
    pub fn click_at(&self, x: f64, y: f64) {
        self.call(
            "POST",
            "/actions",
            Some(json!({"actions": [{
                "type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
                "actions": [
                    {"type": "pointerMove", "duration": 0, "origin": "viewport",
                     "x": x.round() as i64, "y": y.round() as i64},
                    {"type": "pointerDown", "button": 0},
                    {"type": "pause", "duration": 60},
                    {"type": "pointerUp", "button": 0},
                ],
            }]})),
        );
        self.call("DELETE", "/actions", None);
    }

    /// Clicks the middle of the element labelled `label`, waiting up to 20 s for it.
    pub fn click(&self, label: &str) {
        let r = self.wait(&format!("'{label}' on screen"), || self.locate(label));
        self.click_at(r.0 + r.2 / 2.0, r.1 + r.3 / 2.0);
    }

    /// Clicks the middle of the last element labelled `label` (a dialog's button).
    pub fn click_last(&self, label: &str) {
        let r = self.wait(&format!("'{label}' on screen"), || self.locate_last(label));
        self.click_at(r.0 + r.2 / 2.0, r.1 + r.3 / 2.0);
    }

    /// Types `text` (key presses into the focused field).
    pub fn type_text(&self, text: &str) {
        let mut keys = Vec::new();
        for c in text.chars() {
            keys.push(json!({"type": "keyDown", "value": c.to_string()}));
            keys.push(json!({"type": "keyUp", "value": c.to_string()}));
        }
        self.call(
            "POST",
            "/actions",
            Some(json!({"actions": [{"type": "key", "id": "keyboard", "actions": keys}]})),
        );
    }

    /// Waits up to 30 s for `f` to give something; fails with `what` and the page's state.
    pub fn wait<T>(&self, what: &str, mut f: impl FnMut() -> Option<T>) -> T {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Some(t) = f() {
                return t;
            }
            if Instant::now() > deadline {
                // What the page showed, for whoever reads the failure.
                let shot = std::env::temp_dir().join("takhte-browser-failure.png");
                let _ = std::fs::write(&shot, self.screenshot());
                panic!(
                    "waited 30 s for {what} (the page: {}); the app: {}; console: {}",
                    shot.display(),
                    self.probe(),
                    self.console()
                );
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// What the page wrote to its console (errors of the app, among others).
    pub fn console(&self) -> String {
        self.driver
            .call(
                "POST",
                &format!("/session/{}/se/log", self.id),
                Some(&json!({"type": "browser"})),
            )
            .map(|v| v["value"].to_string())
            .unwrap_or_default()
    }

    /// A screenshot of the page, as PNG bytes.
    pub fn screenshot(&self) -> Vec<u8> {
        let b64 = self.call("GET", "/screenshot", None);
        base64_decode(b64.as_str().unwrap_or_default())
    }
}

impl Drop for Session<'_> {
    fn drop(&mut self) {
        let _ = self
            .driver
            .call("DELETE", &format!("/session/{}", self.id), None);
    }
}

fn base64_decode(s: &str) -> Vec<u8> {
    let val = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let mut out = Vec::new();
    let (mut acc, mut bits) = (0u32, 0);
    for c in s.bytes().filter_map(val) {
        acc = (acc << 6) | c;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}
