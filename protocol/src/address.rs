//! A game server's address as a person types it, and how the app reaches it.
//!
//! - An explicit scheme is obeyed: `wss://` and `https://` are encrypted (port 443 unless
//!   given), `ws://` and `http://` are plain (port 7878 unless given).
//! - Without a scheme, a name (`example.org`, `example.org:8443`) or a public address means an
//!   encrypted connection (`wss://`, port 443 unless given): the normal case of a server on the
//!   internet.
//! - Without a scheme, an address of the home network — a private or loopback IP address
//!   (`192.168.1.20:7878`, `10.0.0.5`, `127.0.0.1`, `[::1]`), `localhost`, or a name of the
//!   local network (`*.local`, `*.lan`, `*.home.arpa`) — means a plain connection (`ws://`,
//!   port 7878 unless given): a club's server at home keeps working as it did.
//!
//! Nothing here falls back from an encrypted connection to a plain one.

use std::net::IpAddr;

use crate::WS_PATH;

/// The port of a plain server when an address has none (`takhte-server`'s default).
pub const DEFAULT_PORT: u16 = 7878;
/// The port of an encrypted server when an address has none (HTTPS's).
pub const DEFAULT_TLS_PORT: u16 = 443;

/// A parsed server address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerAddress {
    /// Whether the connection is encrypted (`wss://`).
    pub secure: bool,
    /// The host name or IP address.
    pub host: String,
    /// The port.
    pub port: u16,
}

impl ServerAddress {
    /// Reads what a person typed (see the module's rules).
    ///
    /// ```
    /// use takhte_protocol::address::ServerAddress;
    /// let a = ServerAddress::parse("example.org").unwrap();
    /// assert_eq!(a.url(), "wss://example.org/ws");
    /// let b = ServerAddress::parse("192.168.1.20:7878").unwrap();
    /// assert_eq!(b.url(), "ws://192.168.1.20:7878/ws");
    /// assert!(ServerAddress::parse("").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<ServerAddress, String> {
        let folded = crate::code::latin_digits(text);
        let t = folded.trim();
        if t.is_empty() {
            return Err("no server address".into());
        }
        let (scheme, rest) = match t.split_once("://") {
            Some((s, r)) => match s.to_ascii_lowercase().as_str() {
                "wss" | "https" => (Some(true), r),
                "ws" | "http" => (Some(false), r),
                _ => return Err(format!("'{t}' is not a ws:// or wss:// address")),
            },
            None => (None, t),
        };
        let hostport = rest.split(['/', '?', '#']).next().unwrap_or("");
        let (host, port) = split_host_port(hostport)?;
        if host.is_empty() || host.chars().any(|c| c.is_whitespace() || c == '@') {
            return Err(format!("'{t}' has no host name"));
        }
        let secure = scheme.unwrap_or_else(|| !is_home_network(&host));
        let port = port.unwrap_or(if secure {
            DEFAULT_TLS_PORT
        } else {
            DEFAULT_PORT
        });
        Ok(ServerAddress { secure, host, port })
    }

    /// The host as it goes in a URL (an IPv6 address in brackets).
    fn url_host(&self) -> String {
        if self.host.contains(':') {
            format!("[{}]", self.host)
        } else {
            self.host.clone()
        }
    }

    /// `host:port`, or `host` alone for an encrypted server on HTTPS's port.
    fn authority(&self) -> String {
        if self.secure && self.port == DEFAULT_TLS_PORT {
            self.url_host()
        } else {
            format!("{}:{}", self.url_host(), self.port)
        }
    }

    /// The WebSocket URL (`wss://…/ws` or `ws://…/ws`).
    pub fn url(&self) -> String {
        let scheme = if self.secure { "wss" } else { "ws" };
        format!("{scheme}://{}{WS_PATH}", self.authority())
    }

    /// The web address of the server (for invite links): `https://…` or `http://…`.
    pub fn web(&self) -> String {
        let scheme = if self.secure { "https" } else { "http" };
        format!("{scheme}://{}", self.authority())
    }

    /// The invite link of a game on this server: the scheme the app uses, so that a friend
    /// connects the same way.
    pub fn invite_link(&self, code: &str) -> String {
        format!("{}/join/{code}", self.web())
    }

    /// The address as the app keeps and shows it (the scheme written out where the rules
    /// would not give it back: a plain connection to a name, an encrypted one to the home
    /// network).
    pub fn canonical(&self) -> String {
        let implied = !is_home_network(&self.host);
        if implied == self.secure {
            let default = if self.secure {
                DEFAULT_TLS_PORT
            } else {
                DEFAULT_PORT
            };
            if self.port == default {
                self.url_host()
            } else {
                format!("{}:{}", self.url_host(), self.port)
            }
        } else {
            self.web().replacen("http", "ws", 1)
        }
    }
}

/// The server an invite link names, so that the friend who opens it connects the same way:
/// `https://HOST/join/CODE` (encrypted), `http://HOST:PORT/join/CODE` (plain), or the app's
/// `takhte://join/CODE?server=ADDRESS`. `None` for a code alone or a link without a server.
///
/// ```
/// use takhte_protocol::address::link_server;
/// let a = link_server("https://example.org/join/K7M3QX").unwrap();
/// assert_eq!(a.url(), "wss://example.org/ws");
/// let b = link_server("takhte://join/K7M3QX?server=ws%3A%2F%2F192.168.1.20%3A7878").unwrap();
/// assert_eq!(b.url(), "ws://192.168.1.20:7878/ws");
/// assert_eq!(link_server("K7M3QX"), None);
/// assert_eq!(link_server("takhte://join/K7M3QX"), None);
/// ```
pub fn link_server(text: &str) -> Option<ServerAddress> {
    let t = text.trim();
    let lower = t.to_ascii_lowercase();
    if lower.starts_with("https://") || lower.starts_with("http://") {
        if !lower.contains("/join/") && !lower.contains("/watch/") {
            return None;
        }
        return ServerAddress::parse(t).ok();
    }
    let query = t.split_once('?')?.1;
    let value = query.split('&').find_map(|kv| kv.strip_prefix("server="))?;
    ServerAddress::parse(&percent_decode(value)).ok()
}

/// The app link of a game on `server`: `takhte://join/CODE?server=ADDRESS`.
pub fn app_link(code: &str, server: &ServerAddress) -> String {
    let encoded: String = server
        .canonical()
        .chars()
        .map(|c| match c {
            ':' => "%3A".to_string(),
            '/' => "%2F".to_string(),
            '[' => "%5B".to_string(),
            ']' => "%5D".to_string(),
            c => c.to_string(),
        })
        .collect();
    format!("{}{code}?server={encoded}", crate::code::LINK_PREFIX)
}

/// `%XX` sequences decoded (anything that is not one stays as it is).
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (bytes[i], bytes.get(i + 1), bytes.get(i + 2)) {
            (b'%', Some(&a), Some(&b)) if hex(a).is_some() && hex(b).is_some() => {
                out.push((hex(a).unwrap_or(0) * 16 + hex(b).unwrap_or(0)) as u8);
                i += 3;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `host[:port]`, `[v6]` or `[v6]:port`.
fn split_host_port(hostport: &str) -> Result<(String, Option<u16>), String> {
    let port = |p: &str| {
        p.parse::<u16>()
            .ok()
            .filter(|p| *p > 0)
            .ok_or_else(|| format!("'{p}' is not a port"))
    };
    if let Some(h) = hostport.strip_prefix('[') {
        let (h, tail) = h
            .split_once(']')
            .ok_or("an IPv6 address needs its closing ]")?;
        let p = match tail.strip_prefix(':') {
            Some(p) => Some(port(p)?),
            None if tail.is_empty() => None,
            None => return Err(format!("'{tail}' after an IPv6 address")),
        };
        return Ok((h.to_string(), p));
    }
    // A bare IPv6 address has more than one colon and no port.
    if hostport.matches(':').count() > 1 {
        return Ok((hostport.to_string(), None));
    }
    match hostport.rsplit_once(':') {
        Some((h, p)) => Ok((h.to_string(), Some(port(p)?))),
        None => Ok((hostport.to_string(), None)),
    }
}

/// Whether `host` is on the home network: a private, loopback or link-local IP address,
/// `localhost`, or a name of the local network (`.local`, `.lan`, `.home.arpa`).
pub fn is_home_network(host: &str) -> bool {
    let lower = host.to_ascii_lowercase();
    if lower == "localhost"
        || lower.ends_with(".localhost")
        || lower.ends_with(".local")
        || lower.ends_with(".lan")
        || lower.ends_with(".home.arpa")
    {
        return true;
    }
    match lower.parse::<IpAddr>() {
        Ok(IpAddr::V4(v4)) => v4.is_private() || v4.is_loopback() || v4.is_link_local(),
        Ok(IpAddr::V6(v6)) => {
            let first = v6.segments()[0];
            v6.is_loopback()
                // fc00::/7, unique local
                || (first & 0xfe00) == 0xfc00
                // fe80::/10, link local
                || (first & 0xffc0) == 0xfe80
        }
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The address rules, as a table: what is typed, the WebSocket URL, the invite link's
    /// start.
    #[test]
    fn addresses_as_typed() {
        let table = [
            ("example.org", "wss://example.org/ws", "https://example.org"),
            (
                "example.org:8443",
                "wss://example.org:8443/ws",
                "https://example.org:8443",
            ),
            (
                "wss://example.org",
                "wss://example.org/ws",
                "https://example.org",
            ),
            (
                "wss://example.org:9000/ws",
                "wss://example.org:9000/ws",
                "https://example.org:9000",
            ),
            (
                "https://example.org/join/K7M3QX",
                "wss://example.org/ws",
                "https://example.org",
            ),
            (
                "ws://example.org",
                "ws://example.org:7878/ws",
                "http://example.org:7878",
            ),
            (
                "ws://example.org:8080",
                "ws://example.org:8080/ws",
                "http://example.org:8080",
            ),
            (
                "http://example.org:80",
                "ws://example.org:80/ws",
                "http://example.org:80",
            ),
            (
                "192.168.1.20:7878",
                "ws://192.168.1.20:7878/ws",
                "http://192.168.1.20:7878",
            ),
            (
                "192.168.1.20",
                "ws://192.168.1.20:7878/ws",
                "http://192.168.1.20:7878",
            ),
            (
                "10.0.0.5:9000",
                "ws://10.0.0.5:9000/ws",
                "http://10.0.0.5:9000",
            ),
            (
                "172.16.3.4",
                "ws://172.16.3.4:7878/ws",
                "http://172.16.3.4:7878",
            ),
            (
                "127.0.0.1:7878",
                "ws://127.0.0.1:7878/ws",
                "http://127.0.0.1:7878",
            ),
            (
                "localhost",
                "ws://localhost:7878/ws",
                "http://localhost:7878",
            ),
            (
                "chess.local:7000",
                "ws://chess.local:7000/ws",
                "http://chess.local:7000",
            ),
            ("[::1]:8000", "ws://[::1]:8000/ws", "http://[::1]:8000"),
            (
                "[fd00::5]",
                "ws://[fd00::5]:7878/ws",
                "http://[fd00::5]:7878",
            ),
            (
                "wss://192.168.1.20:8443",
                "wss://192.168.1.20:8443/ws",
                "https://192.168.1.20:8443",
            ),
            ("8.8.8.8", "wss://8.8.8.8/ws", "https://8.8.8.8"),
            (
                "[2001:db8::1]:8443",
                "wss://[2001:db8::1]:8443/ws",
                "https://[2001:db8::1]:8443",
            ),
            // Persian digits, spaces around, capitals in the scheme.
            (
                "  ۱۹۲.۱۶۸.۱.۲۰:۷۸۷۸ ",
                "ws://192.168.1.20:7878/ws",
                "http://192.168.1.20:7878",
            ),
            (
                "WSS://Example.org",
                "wss://Example.org/ws",
                "https://Example.org",
            ),
        ];
        for (typed, url, web) in table {
            let a = ServerAddress::parse(typed).unwrap_or_else(|e| panic!("{typed}: {e}"));
            assert_eq!(a.url(), url, "{typed}");
            assert_eq!(a.web(), web, "{typed}");
            // What the app keeps reads back to the same address.
            assert_eq!(
                ServerAddress::parse(&a.canonical()),
                Ok(a.clone()),
                "{typed}"
            );
        }
        for bad in [
            "",
            "   ",
            "ftp://example.org",
            "example.org:port",
            "example.org:0",
            "example.org:70000",
            "wss://",
            "[::1",
            "a b:7878",
        ] {
            assert!(ServerAddress::parse(bad).is_err(), "{bad:?}");
        }
        assert_eq!(
            ServerAddress::parse("example.org")
                .unwrap()
                .invite_link("K7M3QX"),
            "https://example.org/join/K7M3QX"
        );
        // A link names its server; the app's link carries it and reads back.
        for server in [
            "example.org",
            "example.org:8443",
            "192.168.1.20:7878",
            "[::1]:8000",
            "wss://10.0.0.2:8443",
        ] {
            let a = ServerAddress::parse(server).unwrap();
            assert_eq!(
                link_server(&a.invite_link("K7M3QX")),
                Some(a.clone()),
                "{server}"
            );
            assert_eq!(
                link_server(&app_link("K7M3QX", &a)),
                Some(a.clone()),
                "{server}"
            );
            assert_eq!(
                crate::code::normalize(&app_link("K7M3QX", &a)),
                Ok("K7M3QX".to_string())
            );
        }
        assert_eq!(
            ServerAddress::parse("192.168.1.20:7878")
                .unwrap()
                .invite_link("K7M3QX"),
            "http://192.168.1.20:7878/join/K7M3QX"
        );
    }
}
